import type { Evidence } from '../platform/evidence';
import type { ConfiguredRun } from '../run/inputs';
import type { ItemResult, StepResult } from '../rules/types';
import { redactUrl } from '../redaction/url';
import type { ItemRecord } from './records';
import { stepTitle } from './table';
import { safeText } from './text';
import type { Mismatch, Selection, VerdictFile, VerdictItem } from '../schema/verdict';

export type { VerdictFile, VerdictItem } from '../schema/verdict';

/** Mismatches kept per step in verdict files and messages; the full rows are one attachment. */
export const MISMATCHES_KEPT = 50;
/** Longest reason or note kept in a verdict file. */
export const REASON_MAX = 2000;

export interface SuiteInfo {
  name: string;
  version: string;
}

/** The failing rows of a step, the first `max` of them, with control characters escaped. */
export function keptMismatches(step: StepResult, max = MISMATCHES_KEPT): Mismatch[] {
  return step.rows
    .filter((r) => r.verdict === 'fail')
    .slice(0, max)
    .map((r) => ({
      key: safeText(r.key, 300),
      html: typeof r.html === 'string' ? safeText(r.html, 300) : r.html,
      platform: typeof r.platform === 'string' ? safeText(r.platform, 300) : r.platform,
      gap: r.gap,
      tolerance: r.tolerance,
      verdict: 'fail' as const,
      ...(r.note ? { note: safeText(r.note, 300) } : {}),
    }));
}

/**
 * A rule's result cut to what a record and a verdict keep: every step, its first failing rows and
 * their count, the notes (a run of 50,000 differing words must not make a 20 MB verdict file).
 */
export function cappedResult(result: ItemResult): KeptResult {
  return {
    ...result,
    steps: result.steps.map((s) => {
      const failing = s.rows.filter((r) => r.verdict === 'fail');
      return { ...s, rows: failing.slice(0, MISMATCHES_KEPT), failCount: failing.length };
    }),
  };
}

/** A step as a record keeps it: `failCount` counts the failing rows when `rows` was cut. */
export type KeptStep = StepResult & { failCount?: number };
export type KeptResult = Omit<ItemResult, 'steps'> & { steps: KeptStep[] };

function itemOf(record: ItemRecord): VerdictItem {
  const verdict = record.status === 'passed' ? 'pass' : 'fail';
  const notes = (record.result?.notes ?? []).map((n) => safeText(n, REASON_MAX));
  if (record.error && !record.result) notes.push(safeText(record.error, REASON_MAX));
  if (record.status !== 'passed' && record.status !== 'failed')
    notes.push(`the item test ended ${record.status}`);
  if (record.result && record.result.verdict !== verdict)
    notes.push(`the rule said ${record.result.verdict}, the test ended ${verdict}`);
  return {
    item: record.item,
    verdict,
    steps: (record.result?.steps ?? []).map((s) => ({
      name: safeText(stepTitle(s), 300),
      verdict: s.verdict,
      mismatches: keptMismatches(s),
      mismatchCount: s.failCount ?? s.rows.filter((r) => r.verdict === 'fail').length,
    })),
    notes,
    durationMs: record.durationMs,
  };
}

/** Builds the file; each item's verdict is its Playwright test's outcome (docs/contract.md §7). */
export function buildVerdict(
  run: ConfiguredRun,
  evidence: Evidence,
  records: ItemRecord[],
  context: { selection: Selection; suite: SuiteInfo; generatedAt: string },
): VerdictFile {
  const info = evidence.run;
  // A skipped item test (its run was not checked and already failed once) has no verdict.
  const items = records
    .filter((r) => r.status !== 'skipped')
    .sort((a, b) => a.item - b.item)
    .map(itemOf);
  return {
    run: {
      label: run.label,
      htmlUrl: redactUrl(run.input.htmlUrl),
      platformUrl: redactUrl(run.input.platformUrl),
      companyId: info.companyId,
      projectId: info.projectId,
      reportType: info.reportType,
      batchDate: info.batchDate,
      profile: info.profile,
      batchIds: info.batchIds,
      dataSource: info.dataSource,
      level: info.level,
    },
    status: evidence.status,
    ...(evidence.reason ? { reason: safeText(evidence.reason, REASON_MAX) } : {}),
    ...(evidence.status !== 'checked' && evidence.failureKind ? { failureKind: evidence.failureKind } : {}),
    notes: evidence.notes.map((n) => safeText(n, REASON_MAX)),
    items,
    generatedAt: context.generatedAt,
    suite: context.suite,
    selection: context.selection,
    durationMs: evidence.durationMs + records.reduce((sum, r) => sum + r.durationMs, 0),
  };
}
