import { ITEM_NUMBERS, type ItemNumber } from '../rules/types';
import {
  failureKindSchema,
  type FailureKind,
  type Selection,
  type VerdictFile,
  type VerdictIndex,
} from '../schema/verdict';
import { displayWidth, markdownText, padDisplay, safeText } from './text';

/**
 * One night (or one invocation, one shard, one merge) summed up once from its verdict files: the
 * runs, their statuses and failure kinds, the run × item grid, the counts and the exit code. The
 * terminal grid, `summary.md`, `index.json`, JUnit and the Allure extras are small renderings of
 * this one object, so they can never disagree.
 */

/**
 * A grid cell: `pass`, `pass*` (passed by a special clause: tie swap, 7.3.5, …), `FAIL` (values
 * differ), `·` (not run, or not compared: its run could not be checked).
 */
export type Mark = 'pass' | 'pass*' | 'FAIL' | '·';

export interface GridRow {
  label: string;
  /**
   * The label as a grid shows it (`shownLabels`): masked, escaped, at most 60 columns, and never
   * the same as another row's.
   */
  shown: string;
  status: VerdictFile['status'];
  failureKind?: FailureKind;
  reason?: string;
  items: Record<ItemNumber, Mark>;
}

export interface NightCounts {
  runs: number;
  checked: number;
  /** Checked runs where at least one item ran and every item that ran passed. */
  passing: number;
  /**
   * Checked runs where no item ran (a selection such as `--grep-invert item` kept only the
   * collection): neither passing nor failing, since nothing passes by default.
   */
  noItems: number;
  /** Checked runs with at least one failing item. */
  failing: number;
  failingItems: number;
  notChecked: number;
  /**
   * Items that failed on checked data in runs not checked whole: a run the stop interrupted after
   * its collection, whose finished items had already compared their values (`failedOnData`).
   * Counted apart so that a mismatch found before a stop is in every headline, not only the grid
   * (night audit of 2026-11-28: "0 failing items" under a grid showing FAIL).
   */
  failingItemsNotChecked: number;
  /** Runs not checked, by failure kind. */
  byKind: Partial<Record<FailureKind | 'unknown', number>>;
  /** Items that passed only by a special clause of the spec. */
  annotatedPasses: number;
}

export interface NightSummary {
  verdicts: VerdictFile[];
  selection: Selection;
  grid: GridRow[];
  counts: NightCounts;
  /** The distinct batch dates of the runs, and the templated night when one was used. */
  batchDates: string[];
  night?: { batchDate: string; describe: string };
  /**
   * The batch dates as every rendering says them: the templated night, then the dates other runs
   * fixed in their URLs (`2026-11-25 (yesterday in Asia/Shanghai); fixed in their URLs:
   * 2025-11-10, 2025-11-17`), or the runs' dates when no run was templated. The night alone read
   * as if every run had checked it (reader audit of 2026-11-26: 17 of 21 runs had fixed dates).
   */
  batchDateText: string;
  /** Passing items with the clauses they passed by: `B-monitor · item 5: tie swap (spec 9.5.5) ×1`. */
  annotated: string[];
  /**
   * 0 all checked and passing, 1 values differ, 2 a run not checked (or nothing checked, or the
   * invocation was stopped before every test ended).
   */
  exitCode: 0 | 1 | 2;
  /** Why the invocation stopped before every test ended (a signal, `-x`), when it did. */
  stopped?: string;
}

/**
 * The items of a verdict that failed on the data compared: a failing step with its mismatches, not
 * a failure because the run could not be checked (such an item has no step).
 */
export function failedOnData(v: VerdictFile): VerdictFile['items'] {
  return v.items.filter((i) => i.verdict === 'fail' && i.steps.some((st) => st.verdict === 'fail'));
}

/**
 * The items a night counts and lists as failing: every failing item of a checked run, and those
 * of a run not checked whole that failed on the data they compared (`failedOnData`). The grid marks
 * them FAIL; the Allure variables, JUnit's lines in summary.md and the counts read the same list.
 */
export function failingItemsOf(v: VerdictFile): VerdictFile['items'] {
  return v.status === 'checked' ? v.items.filter((i) => i.verdict === 'fail') : failedOnData(v);
}

/**
 * An item's cell. An item of a run not checked that failed only with its run's reason (no step: it
 * compared nothing) is `·`, as the same run's items are in a full night, where they are skipped:
 * selected alone (`--grep item5`) such an item fails, and its grid read FAIL, the mark of values that
 * differ, in a row whose status says nothing was compared, under "1 failing item" over three FAIL
 * cells (reader audit of 2026-11-28). An item that failed on compared values before a stop
 * (`failedOnData`) stays FAIL.
 */
function markOf(v: VerdictFile, item: ItemNumber): Mark {
  const found = v.items.find((x) => x.item === item);
  if (!found) return '·';
  if (found.verdict === 'fail') return failingItemsOf(v).includes(found) ? 'FAIL' : '·';
  return found.passBy?.length ? 'pass*' : 'pass';
}

/**
 * The exit code of the checks alone: 0 when every run was checked and every item that ran passed;
 * 1 when some item failed on checked data; 2 when some run could not be checked. 2 wins over 1. No
 * verdict at all, or no item at all, is 2: nothing was checked, and nothing passes by default.
 */
function checksExitCode(verdicts: VerdictFile[]): 0 | 1 | 2 {
  if (verdicts.length === 0) return 2;
  if (verdicts.some((v) => v.status !== 'checked')) return 2;
  if (verdicts.every((v) => v.items.length === 0)) return 2;
  return verdicts.some((v) => v.items.some((i) => i.verdict === 'fail')) ? 1 : 0;
}

/** Columns of a label in a grid (a CJK character takes two). */
const LABEL_COLUMNS = 60;

/** The start of `s` that fits in `columns` (by `displayWidth`). */
function headColumns(s: string, columns: number): string {
  let out = '';
  for (const ch of s) {
    if (displayWidth(out + ch) > columns) break;
    out += ch;
  }
  return out;
}

/** The end of `s` that fits in `columns`. */
function tailColumns(s: string, columns: number): string {
  let out = '';
  for (const ch of [...s].reverse()) {
    if (displayWidth(ch + out) > columns) break;
    out = ch + out;
  }
  return out;
}

/**
 * Each label as the grids show it (terminal, summary.md): `safeText`, then, when wider than 60
 * columns, its start and its end around `…` (labels of one family often differ at their end:
 * `…-report-A`, `…-report-B`); two rows still shown alike get ` #1`, ` #2` … in grid order. Cut at
 * its start alone, two such labels read the same, one with FAIL, and the reader could not tell
 * which run failed; a long Chinese label took 140 columns (reader audit of 2026-11-26).
 */
export function shownLabels(labels: readonly string[]): string[] {
  const shown = labels.map((label) => {
    // A label starts a line of the terminal's grid and lists; in a CI log a line that starts with
    // `::` (spaces before it too) is a workflow command (`::notice …::`, `::add-mask::`), so its
    // first colon is shown escaped, as control characters are (output injection audit of 2026-11-27).
    const text = safeText(label, 400).replace(/^(\s*):(?=:)/, '$1\\x3a');
    if (displayWidth(text) <= LABEL_COLUMNS) return text;
    return `${headColumns(text, 40)}…${tailColumns(text, LABEL_COLUMNS - 41)}`;
  });
  const seen = new Map<string, number>();
  for (const s of shown) seen.set(s, (seen.get(s) ?? 0) + 1);
  const numbered = new Map<string, number>();
  return shown.map((s) => {
    if (seen.get(s)! < 2) return s;
    const n = (numbered.get(s) ?? 0) + 1;
    numbered.set(s, n);
    return `${s} #${n}`;
  });
}

function batchDateText(dates: readonly string[], night: NightSummary['night']): string {
  if (!night) return dates.join(', ') || '-';
  const fixed = dates.filter((d) => d !== night.batchDate);
  return fixed.length ? `${night.describe}; fixed in their URLs: ${fixed.join(', ')}` : night.describe;
}

/**
 * The one summary of a night's verdicts, which every rendering reads. `stopped` says why the
 * invocation stopped before every test ended: its runs cut short already say so when the whole
 * night was selected, but a partial one (`--grep item5 -x`) cannot tell a run it never reached
 * from one its filter left out, so such runs are not listed; the exit code is 2 either way, never
 * 1 or 0 for a night only partly checked (CLI audit of 2026-11-26).
 */
export function summarize(verdicts: VerdictFile[], selection: Selection, stopped?: string): NightSummary {
  const shown = shownLabels(verdicts.map((v) => v.run.label));
  const grid = verdicts.map((v, n) => ({
    label: v.run.label,
    shown: shown[n]!,
    status: v.status,
    ...(v.failureKind ? { failureKind: v.failureKind } : {}),
    ...(v.reason !== undefined ? { reason: v.reason } : {}),
    items: Object.fromEntries(ITEM_NUMBERS.map((n) => [n, markOf(v, n)])) as Record<ItemNumber, Mark>,
  }));
  const checked = verdicts.filter((v) => v.status === 'checked');
  const failing = checked.filter((v) => v.items.some((i) => i.verdict === 'fail'));
  const noItems = checked.filter((v) => v.items.length === 0).length;
  const byKind: NightCounts['byKind'] = {};
  const kindOf = (v: VerdictFile) =>
    v.status === 'needs-input' ? 'needs-input' : (v.failureKind ?? 'unknown');
  const notChecked = verdicts.filter((v) => v.status !== 'checked');
  // One order of kinds, whatever the order of the runs: the schema's, then `unknown`.
  for (const kind of [...failureKindSchema.options, 'unknown' as const]) {
    const n = notChecked.filter((v) => kindOf(v) === kind).length;
    if (n) byKind[kind] = n;
  }
  const annotated = verdicts.flatMap((v, n) =>
    v.items
      .filter((i) => i.verdict === 'pass' && i.passBy?.length)
      .map((i) => `${shown[n]!} · item ${i.item}: ${i.passBy!.join(', ')}`),
  );
  const nights = verdicts.flatMap((v) => (v.night ? [v.night] : []));
  const batchDates = [...new Set(verdicts.flatMap((v) => (v.run.batchDate ? [v.run.batchDate] : [])))].sort();
  return {
    verdicts,
    selection,
    grid,
    counts: {
      runs: verdicts.length,
      checked: checked.length,
      passing: checked.length - failing.length - noItems,
      noItems,
      failing: failing.length,
      failingItems: checked.reduce((n, v) => n + failingItemsOf(v).length, 0),
      notChecked: verdicts.length - checked.length,
      failingItemsNotChecked: notChecked.reduce((n, v) => n + failingItemsOf(v).length, 0),
      byKind,
      annotatedPasses: annotated.length,
    },
    batchDates,
    ...(nights[0] ? { night: nights[0] } : {}),
    batchDateText: batchDateText(batchDates, nights[0]),
    annotated,
    // A shard with no run is a part of a night, fine as the merge takes it (lib/report/merge.ts): its
    // own files say 0, as its job does ("no check ran"), not 2 (CLI audit of 2026-11-28).
    exitCode: stopped ? 2 : verdicts.length === 0 && selection.shard ? 0 : checksExitCode(verdicts),
    ...(stopped ? { stopped } : {}),
  };
}

/**
 * The exit code of a whole job (main job, merge, CI night), one rule everywhere: 3 when the
 * report or the redaction guard failed — a leak or a missing report is never hidden by another
 * code —, else the checks' code (2 a run not checked, 1 values differ, 0 all good). Never 0 when
 * Playwright failed an invocation (or a shard) whose verdicts all pass, `playwrightFailed`
 * (`--fail-on-flaky-tests` after a test that passed on its retry, an error outside the tests): 1.
 * The main job applied that alone, so a CI night of the same verdicts and the same Playwright
 * failure exited 0 (conformance audit of issue 16).
 */
export function jobExitCode(parts: {
  checks: 0 | 1 | 2;
  reportFailed?: boolean;
  guardFailed?: boolean;
  playwrightFailed?: boolean;
}): 0 | 1 | 2 | 3 {
  if (parts.guardFailed || parts.reportFailed) return 3;
  if (parts.checks === 0 && parts.playwrightFailed) return 1;
  return parts.checks;
}

/**
 * The exit code of a job over several nights (`npm run demo -- --nights N`): the worst night's,
 * by the order jobExitCode gives them (3 > 2 > 1 > 0), never only the last one's; 0 for none.
 */
export function worstExitCode(codes: readonly (0 | 1 | 2 | 3)[]): 0 | 1 | 2 | 3 {
  return codes.reduce<0 | 1 | 2 | 3>((worst, c) => (c > worst ? c : worst), 0);
}

export const EXIT_MEANINGS: Record<0 | 1 | 2 | 3, string> = {
  0: 'every run checked, every item passed',
  1: 'some item failed on checked data',
  2: 'some run could not be checked',
  3: 'the report or the redaction guard failed (this wins over 2 and 1)',
};

/**
 * What exit 1 says of a night whose verdicts all pass (`jobExitCode`'s `playwrightFailed`), as the
 * main job and CI's finish.ts both say it: `what` failed (`the invocation`, `a shard`), its `code`
 * (`its exit code 1`, `2: 1`), `see` where its log is. The parenthesis is opened and closed here.
 */
export function playwrightFailedMeaning(what: string, code: string, see: string): string {
  return `every verdict passes, but Playwright failed ${what} (${code}: --fail-on-flaky-tests after a test that passed on its retry, or an error outside the tests; ${see})`;
}

/**
 * What the checks' exit code says of this night where EXIT_MEANINGS' line would mislead: 2 for a
 * night whose every run was collected but whose selection ran no item test (`--grep-invert item`,
 * a `--grep` naming the collection), where no run "could not be checked" and nothing was compared.
 */
export function checksMeaning(
  index: Pick<VerdictIndex, 'exitCode' | 'counts' | 'stopped'>,
): string | undefined {
  const c = index.counts;
  if (index.exitCode !== 2 || index.stopped || !c || c.runs === 0 || c.notChecked > 0) return undefined;
  if (c.noItems !== c.checked) return undefined;
  return 'every run was collected, but no item test ran (the selection kept none): nothing was compared';
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** `4 runs: 2 checked (1 passing, 1 with failing items), 2 not checked (platform 1, needs-input 1)`. */
export function countsLine(s: NightSummary): string {
  const c = s.counts;
  const kinds = Object.entries(c.byKind)
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
  return (
    `${plural(c.runs, 'run')}: ${c.checked} checked (${c.passing} passing, ${c.failing} with failing items, ` +
    `${plural(c.failingItems, 'failing item')}${c.noItems ? `, ${c.noItems} with no item run` : ''}), ` +
    `${c.notChecked} not checked${kinds ? ` (${kinds})` : ''}` +
    (c.failingItemsNotChecked ? `, ${notCheckedFailing(c.failingItemsNotChecked)}` : '')
  );
}

/** `with 1 failing item on the data they checked`: the mismatches found in runs not checked whole. */
export function notCheckedFailing(n: number): string {
  return `with ${plural(n, 'failing item')} on the data they checked`;
}

/**
 * What a shard with no run says: more shards than runs, or its filters left it none (`--grep X
 * --shard 2/2` was told "more shards than runs" with four runs configured).
 */
export function emptyShardLine(s: Pick<NightSummary, 'verdicts' | 'selection'>): string | undefined {
  if (s.verdicts.length > 0 || !s.selection.shard) return undefined;
  const shard = safeText(s.selection.shard, 20);
  return s.selection.complete
    ? `no run in shard ${shard}: more shards than runs (fine)`
    : `no run in shard ${shard}: more shards than runs, or its filters left it none (fine)`;
}

const upperFirst = (t: string) => t.charAt(0).toUpperCase() + t.slice(1);

/** Characters of a reason shown in a summary; the verdict file has the whole text. */
export const REASON_MAX = 300;

/** `error, platform`, `needs-input`: a run's status and failure kind as every output says them. */
export function kindText(row: Pick<GridRow, 'status' | 'failureKind'>): string {
  return row.status === 'needs-input'
    ? 'needs-input'
    : `${row.status}${row.failureKind ? `, ${row.failureKind}` : ''}`;
}

/** What a stop before the end leaves out, and the exit code it gives. */
function stoppedLine(s: NightSummary): string {
  const unlisted = s.selection.complete
    ? ''
    : '; runs it never reached are not listed (a partial invocation cannot tell them from runs its filter left out)';
  return `stopped early: ${safeText(s.stopped ?? '', 300)}${unlisted}; exit code of the checks 2`;
}

/**
 * The terminal grid: one row per run, items 3 … 12 with `pass`, `pass*`, `FAIL` or `·`, then the
 * status; the counts; the passes by a special clause; the runs not checked with kind and reason.
 * Plain text only (terminals and fonts may lack emoji); every label and reason is `safeText`.
 */
export function gridText(s: NightSummary): string {
  if (s.verdicts.length === 0) return emptyShardLine(s) ?? 'no verdict: no run was checked';
  const labels = s.grid.map((r) => r.shown);
  const width = Math.max(3, ...labels.map(displayWidth));
  const head = [padDisplay('run', width), ...ITEM_NUMBERS.map((i) => String(i).padEnd(5)), 'status'];
  const rows = s.grid.map((r, n) =>
    [padDisplay(labels[n]!, width), ...ITEM_NUMBERS.map((i) => r.items[i].padEnd(5)), kindText(r)].join(' '),
  );
  const missing = s.grid
    .filter((r) => r.status !== 'checked')
    .map((r) => `  ${r.shown} · ${kindText(r)} · ${safeText(r.reason ?? '(no reason given)', REASON_MAX)}`);
  return [
    head.join(' '),
    ...rows,
    '',
    countsLine(s),
    ...(s.stopped ? [stoppedLine(s)] : []),
    ...(s.annotated.length
      ? ['passes by a special clause (pass*):', ...s.annotated.map((a) => `  ${safeText(a, 300)}`)]
      : []),
    ...(missing.length ? ['runs not checked:', ...missing] : ['runs not checked: none']),
  ].join('\n');
}

function describeSelection(selection: Selection): string {
  const parts: string[] = [];
  parts.push(selection.complete ? 'every item of every run' : 'some items only');
  if (selection.filters.length)
    parts.push(
      `filters ${selection.filters.map((f) => `\`${safeText(f, 80).replace(/`/g, "'")}\``).join(', ')}`,
    );
  if (selection.shard) parts.push(`shard ${safeText(selection.shard, 20)}`);
  return parts.join(' · ');
}

/** Failing items summary.md lists, one line each; the rest are counted (JUnit and Allure have all). */
export const FAILING_LINES_MAX = 30;

/**
 * The grid as GitHub-flavoured markdown (✅ / ❌ / · : GitHub renders emoji; ✅* for a pass by a
 * special clause), the counts, the selection, the failing items (`failing`, one line each, as
 * JUnit's message says them: a CI job summary of ❌ alone sent the reader to an artifact to learn
 * what differed; reader audit of 2026-11-28) and the runs not checked. No timestamp: the same
 * verdicts give the same text (a sharded and an unsharded night compare byte for byte).
 */
export function summaryMarkdown(s: NightSummary, failing: readonly string[] = []): string {
  const show: Record<Mark, string> = { pass: '✅', 'pass*': '✅\\*', FAIL: '❌', '·': '·' };
  const c = s.counts;
  const lines = [
    '## L1 report checks',
    '',
    `| runs | checked | passing | with failing items | failing items | not checked |`,
    `| ---: | ---: | ---: | ---: | ---: | ---: |`,
    `| ${c.runs} | ${c.checked} | ${c.passing} | ${c.failing} | ${c.failingItems} | ${c.notChecked} |`,
    '',
    `Selection: ${describeSelection(s.selection)}.${s.night ? ` Batch date ${markdownText(s.batchDateText, 300)}.` : ''} Exit code of the checks ${s.exitCode}.`,
    '',
    ...(c.noItems
      ? [
          `${plural(c.noItems, 'checked run')} with no item run (the selection kept no item test of them).`,
          '',
        ]
      : []),
    ...(c.failingItemsNotChecked
      ? [`Runs not checked whole, ${notCheckedFailing(c.failingItemsNotChecked)} (❌ in their rows).`, '']
      : []),
  ];
  if (s.verdicts.length === 0)
    lines.push(`${upperFirst(emptyShardLine(s) ?? 'no verdict: no run was checked')}.`);
  else {
    lines.push(
      `| run | ${ITEM_NUMBERS.join(' | ')} | status |`,
      `| --- | ${ITEM_NUMBERS.map(() => ':-:').join(' | ')} | --- |`,
    );
    for (const r of s.grid)
      lines.push(
        `| ${markdownText(r.shown)} | ${ITEM_NUMBERS.map((i) => show[r.items[i]]).join(' | ')} | ${kindText(r)} |`,
      );
  }
  if (failing.length) {
    lines.push('', '### Failing items', '');
    for (const f of failing.slice(0, FAILING_LINES_MAX)) lines.push(`- ${markdownText(f, 600)}`);
    if (failing.length > FAILING_LINES_MAX)
      lines.push(
        `- … and ${failing.length - FAILING_LINES_MAX} more: junit.xml and the Allure report list every one`,
      );
  }
  if (s.annotated.length) {
    lines.push('', '### Passes by a special clause (✅\\*)', '');
    for (const a of s.annotated) lines.push(`- ${markdownText(a, 300)}`);
  }
  const missing = s.grid.filter((r) => r.status !== 'checked');
  if (s.stopped) lines.push('', markdownText(stoppedLine(s), 600));
  lines.push('', '### Runs not checked', '');
  if (missing.length === 0) lines.push('None.');
  for (const r of missing)
    lines.push(
      `- **${markdownText(r.shown)}** · ${kindText(r)} · ${markdownText(r.reason ?? '(no reason given)', REASON_MAX)}`,
    );
  return `${lines.join('\n')}\n`;
}

/** The message of a run not checked, as its collection test and the categories spell it. */
export function notCheckedMessage(row: Pick<GridRow, 'label' | 'status' | 'failureKind' | 'reason'>): string {
  return `run ${safeText(row.label, 200)} not checked (${kindText(row)}): ${safeText(row.reason ?? 'no reason recorded', 2000)}`;
}
