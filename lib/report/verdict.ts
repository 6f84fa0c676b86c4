import { unreadRunFacts } from '../run/profile';
import type { ConfiguredRun } from '../run/runs';
import type { ProfileBSettings } from '../run/types';
import { ITEM_NUMBERS, type ComparisonRow, type ItemNumber, type StepResult } from '../rules/types';
import { redactText, redactUrl } from '../redaction/url';
import type { JudgedItem, JudgedRun } from './judged';
import type { TestRecord } from './records';
import { stepTitle } from './table';
import { safeText } from './text';
import type { FailureKind, Selection, VerdictFile, VerdictItem, VerdictStep } from '../schema/verdict';

export type { VerdictFile, VerdictItem } from '../schema/verdict';

/** Mismatches kept per step in verdict files and messages; the full rows are one attachment. */
export const MISMATCHES_KEPT = 50;
/** Longest reason or note kept in a verdict file. */
export const REASON_MAX = 2000;
/**
 * Batch ids kept in a verdict's `run.batchIds` (docs/contract.md §7, `"batchIds": [..]`): README.md
 * § Bounded outputs, so the platform's batch list never sets a verdict file's size (20,000 ids
 * made one of 981 KB). A real night has one or a few crawl batches per date; 20 keeps every id of
 * such a run, and the count of those left out goes to the run's notes (the contract's shape
 * unchanged: `batchIds` is still a list of the run's ids, the first BATCH_IDS_KEPT of them, a
 * longer one cut and saying by how much).
 */
export const BATCH_IDS_KEPT = 20;
/** Longest batch id kept (real ids are ~25 characters, `XH-SX-HIST-P1-20261120-D`); a longer one is cut, saying by how much. */
export const BATCH_ID_MAX = 100;

/**
 * The run's batch ids as the verdict keeps them: the first BATCH_IDS_KEPT, in the order the run
 * used them, each cut to BATCH_ID_MAX characters and escaped; and the note saying how many were
 * left out, when some were.
 */
export function keptBatchIds(ids: readonly string[]): { batchIds: string[]; note?: string } {
  const batchIds = ids.slice(0, BATCH_IDS_KEPT).map((id) => safeText(id, BATCH_ID_MAX));
  const left = ids.length - batchIds.length;
  return left > 0
    ? {
        batchIds,
        note: `run.batchIds keeps the first ${batchIds.length} of ${ids.length} crawl batch ids the run used (${left} left out)`,
      }
    : { batchIds };
}

export interface SuiteInfo {
  name: string;
  version: string;
}

export interface VerdictContext {
  selection: Selection;
  suite: SuiteInfo;
  generatedAt: string;
  night?: { batchDate: string; describe: string };
  /** The invocation stopped (signal, max failures) before every selected test of the run ended. */
  interrupted?: string;
  /** The run's collection ended in error after the stop began (the stop closed its browser). */
  collectionCutShort?: boolean;
  /**
   * The invocation's Profile B settings: a run with no judged result (never started, a lost shard's)
   * has the facts its URLs give, its profile by its host or company id (lib/run/profile.ts
   * `unreadRunFacts`), as the Allure result made for it says.
   */
  profileB: ProfileBSettings;
}

function cell(value: ComparisonRow['html']): ComparisonRow['html'] {
  return typeof value === 'string' ? safeText(value, 300) : value;
}

function keptRow(r: ComparisonRow) {
  return {
    key: safeText(r.key, 300),
    html: cell(r.html),
    platform: cell(r.platform),
    gap: r.gap,
    tolerance: r.tolerance,
    ...(r.note ? { note: safeText(r.note, 300) } : {}),
  };
}

/** The failing rows of a step, the first `max` of them, with control characters escaped. */
export function keptMismatches(step: StepResult, max = MISMATCHES_KEPT): VerdictStep['mismatches'] {
  return step.rows
    .filter((r) => r.verdict === 'fail')
    .slice(0, max)
    .map((r) => ({ ...keptRow(r), verdict: 'fail' as const }));
}

/** Rows that passed only by a special clause (`passBy`), the first `max`. */
export function keptAnnotations(
  step: StepResult,
  max = MISMATCHES_KEPT,
): NonNullable<VerdictStep['annotations']> {
  return step.rows
    .filter((r) => r.verdict === 'pass' && r.passBy)
    .slice(0, max)
    .map((r) => ({ ...keptRow(r), verdict: 'pass' as const, passBy: safeText(r.passBy!, 200) }));
}

/**
 * `tie swap (spec 9.5.5) on 2 rows`: the special clauses an item passed by, with how many rows each.
 * Rows, said as rows: one tie swap of two brands is two rows (#5 and #6), and `tie swap ×2` in the
 * grid read as two swaps beside the step's "1 tie swap within 0.05" (reader audit of 2026-11-28).
 */
export function passByCounts(result: { steps: StepResult[] }): string[] {
  const counts = new Map<string, number>();
  for (const step of result.steps)
    for (const row of step.rows)
      if (row.verdict === 'pass' && row.passBy) counts.set(row.passBy, (counts.get(row.passBy) ?? 0) + 1);
  return [...counts].map(([clause, n]) => `${safeText(clause, 200)} on ${n} row${n === 1 ? '' : 's'}`);
}

function verdictStep(step: StepResult): VerdictStep {
  const annotations = keptAnnotations(step);
  return {
    name: safeText(stepTitle(step), 300),
    verdict: step.verdict,
    mismatches: keptMismatches(step),
    mismatchCount: step.rows.filter((r) => r.verdict === 'fail').length,
    ...(annotations.length ? { annotations } : {}),
    ...(step.notes.length ? { notes: step.notes.map((n) => safeText(n, REASON_MAX)) } : {}),
  };
}

/** One item of the verdict: its verdict is its test's outcome, its steps are the judged result's. */
export function verdictItem(
  record: TestRecord & { test: ItemNumber },
  result: JudgedItem | undefined,
): VerdictItem {
  const verdict = record.status === 'passed' ? 'pass' : 'fail';
  const notes = (result?.notes ?? []).map((n) => safeText(n, REASON_MAX));
  if (result?.error) notes.push(safeText(result.error, REASON_MAX));
  else if (record.error && !result) notes.push(safeText(record.error, REASON_MAX));
  if (record.status === 'running') notes.push('the item test did not finish (the invocation stopped)');
  else if (record.status !== 'passed' && record.status !== 'failed')
    notes.push(`the item test ended ${record.status}`);
  if (result && record.status !== 'running' && result.verdict !== verdict)
    notes.push(`the rule said ${result.verdict}, the test ended ${verdict}`);
  const passBy = verdict === 'pass' && result ? passByCounts(result) : [];
  return {
    item: record.test,
    verdict,
    steps: (result?.steps ?? []).map(verdictStep),
    notes,
    ...(passBy.length ? { passBy } : {}),
    // A record of a duration read on the wall clock across a step back (before lib/util/clock.ts)
    // is negative: 0, not a verdict the schema refuses to write.
    durationMs: Math.max(0, record.durationMs),
  };
}

/**
 * Why a checked run's verdict cannot stand as `checked`: an item test failed (or timed out) whose
 * rule passed. Its values did not differ: the test broke on something else, such as the compared
 * values it writes on a full disk or in a folder it may not write. Read as checked, its items were
 * FAIL in the grid and the night's exit code 1, "the values differ" (file-system audit of
 * 2026-11-28: L1_TEST_RESULTS_DIR on a full disk made 39 of 40 items FAIL on four runs whose every
 * rule passed). Such a run is not checked, with the test's error: its items stay failing, and the
 * grid marks only those that failed on their values.
 */
function brokenAfterPass(records: TestRecord[], judged: JudgedRun | undefined): string | undefined {
  const broken = itemRecords(
    records,
    (r) => (r.status === 'failed' || r.status === 'timedOut') && judged?.items[r.test]?.verdict === 'pass',
  );
  const first = broken[0];
  if (!first) return undefined;
  return `${itemList(broken.map((r) => r.test))}: the rule passed, but the test ${first.status === 'timedOut' ? 'timed out' : 'failed'}${first.error ? ` (${first.error})` : ''}: not a difference in the values, the run could not be checked whole`;
}

/**
 * Why a checked run's verdict cannot stand as `checked` when a selected item's rule could not be
 * evaluated (it threw: a fault of the suite, lib/report/judged.ts `judge`). Its item fails, never
 * passes, but its values did not differ: read as checked it was FAIL in the grid and the night's
 * exit code 1, "the values differ", where Allure put the same test under "suite or environment
 * problem" (review of issue 16). As `brokenAfterPass`: the run is not checked, with the rule's
 * error, and the grid marks only the items that failed on their values.
 */
function rulesNotEvaluated(records: TestRecord[], judged: JudgedRun | undefined): string | undefined {
  const unjudged = itemRecords(
    records,
    (r) => r.status !== 'skipped' && judged?.items[r.test]?.error !== undefined,
  );
  const first = unjudged[0] && judged?.items[unjudged[0].test]?.error;
  if (first === undefined) return undefined;
  return `${itemList(unjudged.map((r) => r.test))}: ${first}: not a difference in the values but a fault of the suite's rule (report it with this run's DATA and answers), the run could not be checked whole`;
}

/** The records of item tests that `keep` holds, in item order. */
function itemRecords(
  records: TestRecord[],
  keep: (r: TestRecord & { test: ItemNumber }) => boolean,
): (TestRecord & { test: ItemNumber })[] {
  return records
    .filter(isItem)
    .filter(keep)
    .sort((a, b) => a.test - b.test);
}

/** A test the invocation's stop cut short: still `running`, or ended `interrupted`. */
function unfinished(record: TestRecord): boolean {
  return record.status === 'running' || record.status === 'interrupted';
}

function isItem(record: TestRecord): record is TestRecord & { test: ItemNumber } {
  return record.test !== 'collection';
}

/** How a reason names items, each once: a retried test has a record for each attempt ("items 7, 7, 9"). */
const itemList = (items: readonly number[]) => {
  const once = [...new Set(items)];
  return `${once.length === 1 ? 'item' : 'items'} ${once.join(', ')}`;
};

/**
 * Why items of a checked run that the invocation selected have no verdict, or undefined when each
 * has one: an item test that was skipped (an attempt of the collection failed before it, and
 * Playwright never retries a skipped test, so a retry that checked the run leaves it unrun), or,
 * when every item was selected, an item with no record at all (its worker process stopped during
 * it: Playwright went on in a new worker, and the record is written when a test ends).
 */
function itemsNotRun(records: TestRecord[], selection: Selection): string | undefined {
  const tests = records.filter(isItem);
  const skipped = tests.filter((r) => r.status === 'skipped').map((r) => r.test);
  const recorded = new Set(tests.map((r) => r.test));
  const lost = selection.complete ? ITEM_NUMBERS.filter((n) => !recorded.has(n)) : [];
  const why = [
    ...(skipped.length
      ? [
          `${itemList(skipped)} did not run: skipped after a failed attempt of the run's collection (Playwright does not retry a skipped test)`,
        ]
      : []),
    ...(lost.length
      ? [`${itemList(lost)} left no result: the test never ended (its worker process stopped during it)`]
      : []),
  ];
  return why.length
    ? `the run was checked, but ${why.join('; ')}; the items listed are those that ran`
    : undefined;
}

/** How a reason names one of a run's tests. */
const testNamed = (test: TestRecord['test']): string =>
  test === 'collection' ? 'its collection test' : `item ${test}`;

/**
 * Why a run with no judged result (and no stop known to the verdict) was not checked: its tests did
 * not run (input, as a run never collected has always been); one Playwright interrupted
 * (interrupted: a verdict written before the teardown names the stop); or one ended before the
 * collection did, named with its first error (input: what ended it is not told apart here, the
 * reason says what it was). Before, every case read "its tests did not run" (audit of
 * `--timeout 1`, now refused at start: tests/setup/cli.ts).
 */
function notCollected(records: TestRecord[]): { failureKind: FailureKind; reason: string } {
  const ended = records.filter(
    (r) => r.status !== 'running' && r.status !== 'skipped' && r.status !== 'interrupted',
  );
  const first = ended.find((r) => r.error) ?? ended[0];
  if (first)
    return {
      failureKind: 'input',
      reason: `the run was not collected: ${testNamed(first.test)} ended (${first.status}) before its collection did${first.error ? `: ${first.error}` : ''}`,
    };
  const cut = records.find((r) => r.status === 'interrupted');
  return cut
    ? {
        failureKind: 'interrupted',
        reason: `the run was not collected: ${testNamed(cut.test)} was interrupted before its collection ended`,
      }
    : {
        failureKind: 'input',
        reason: 'the run was not collected in this invocation (its tests did not run)',
      };
}

/**
 * The verdict file of one run (docs/contract.md §7) from its judged result and the records of its
 * tests: each item's verdict is its Playwright test's outcome; a skipped item test (its run was not
 * checked, and said so once) has no verdict. A run the invocation stopped in the middle of is
 * `error` with kind `interrupted`, listing the items that ended. So is a checked run, whatever the
 * cause, of which a selected item has no verdict (`itemsNotRun`): a run is never `checked` and
 * passing with items that never ran.
 */
export function buildVerdict(
  run: ConfiguredRun,
  judged: JudgedRun | undefined,
  records: TestRecord[],
  context: VerdictContext,
): VerdictFile {
  const items = records
    .filter(isItem)
    .filter((r) => r.status !== 'skipped' && (!unfinished(r) || !context.interrupted))
    .sort((a, b) => a.test - b.test)
    .map((r) => verdictItem(r, judged?.items[r.test]));
  let status = judged?.status ?? 'error';
  let reason = judged?.reason;
  let failureKind: FailureKind | undefined = judged?.failureKind;
  if (context.interrupted) {
    const running = records
      .filter(unfinished)
      .map((r) => (r.test === 'collection' ? 'its collection' : `item ${r.test}`));
    const done = new Set(items.map((i) => i.item));
    const left =
      context.selection.complete && status === 'checked' ? ITEM_NUMBERS.filter((n) => !done.has(n)) : [];
    if (!judged || (context.collectionCutShort && judged.status !== 'checked')) {
      status = 'error';
      failureKind = 'interrupted';
      reason = judged
        ? `${context.interrupted} while its collection ran (it ended: ${judged.reason ?? judged.status})`
        : running.length
          ? `${context.interrupted} while its collection ran`
          : `${context.interrupted} before this run started`;
    } else if (running.length || left.length) {
      const after =
        judged.status === 'checked' ? '' : ` (its collection had ended: ${judged.reason ?? judged.status})`;
      status = 'error';
      failureKind = 'interrupted';
      reason =
        `${context.interrupted} while ${running.length ? running.join(', ') : 'the run'} ran` +
        (left.length
          ? `: items ${left.join(', ')} did not run (the items in the verdict are those that finished)`
          : '') +
        after;
    }
  } else if (!judged) {
    ({ failureKind, reason } = notCollected(records));
  } else if (status === 'checked') {
    const notRun = itemsNotRun(records, context.selection);
    if (notRun) {
      status = 'error';
      failureKind = 'interrupted';
      reason = notRun;
    }
  }
  const broken =
    status === 'checked'
      ? [rulesNotEvaluated(records, judged), brokenAfterPass(records, judged)].filter(Boolean).join('; ')
      : undefined;
  if (broken) {
    status = 'error';
    reason = broken;
    // None of the kinds says it (a collection's own kind, kept for a checked run, is not the cause).
    failureKind = undefined;
  }
  const info = judged?.run;
  const unread = info
    ? undefined
    : unreadRunFacts(
        {
          htmlUrl: run.input.htmlUrl,
          platformUrl: run.input.platformUrl,
          ...(run.input.companyId !== undefined ? { companyId: run.input.companyId } : {}),
        },
        context.profileB,
      );
  const facts = info ?? unread;
  const batches = keptBatchIds(info?.batchIds ?? []);
  return {
    run: {
      // Masked as every title shows it (a mobile number, a `token=` value): the verdict file is
      // an output. The file name, not the label, is what joins a verdict to its run (merge.ts).
      label: redactText(run.label),
      htmlUrl: redactUrl(run.input.htmlUrl),
      platformUrl: redactUrl(run.input.platformUrl),
      companyId: facts?.companyId ?? null,
      projectId: facts?.projectId ?? null,
      reportType: facts?.reportType ?? null,
      batchDate: facts?.batchDate ?? null,
      profile: facts?.profile ?? 'A',
      batchIds: batches.batchIds,
      dataSource: info?.dataSource ?? 'html',
      level: info?.level ?? run.input.level ?? 'brand',
    },
    status,
    ...(reason ? { reason: safeText(reason, REASON_MAX) } : {}),
    ...(status !== 'checked' && failureKind ? { failureKind } : {}),
    notes: [
      ...(judged?.notes ?? []).map((n) => safeText(n, REASON_MAX)),
      ...(batches.note ? [batches.note] : []),
    ],
    items,
    generatedAt: context.generatedAt,
    suite: context.suite,
    selection: context.selection,
    // The run's tests; the collection runs inside the first of them (its record's time), so
    // adding the judged run's own duration counted it twice.
    durationMs: records.reduce((sum, r) => sum + Math.max(0, r.durationMs), 0),
    ...(context.night ? { night: context.night } : {}),
  };
}
