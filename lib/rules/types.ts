import type { Data } from '../schema/data';
import type { PlatformEvidence } from '../schema/platform';

export type Profile = 'A' | 'B';
export type Level = 'brand' | 'product';
export type ReportType = 'monitor' | 'diagnosis';
export type Verdict = 'pass' | 'fail';
export type ItemNumber = 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10 | 11 | 12;
export type Cell = string | number | null;

/** Everything a rule may look at: the validated evidence of one run. Rules never fetch anything. */
export interface RuleContext {
  profile: Profile;
  level: Level;
  reportType: ReportType;
  data: Data;
  platform: PlatformEvidence;
}

/** One line of a mismatch table (style: datacompy-like): key, both values, gap, tolerance, verdict, note. */
export interface ComparisonRow {
  key: string;
  html: Cell;
  platform: Cell;
  gap: number | null;
  tolerance: string;
  verdict: Verdict;
  note?: string;
}

export interface StepResult {
  /** The spec's step number or group, e.g. `5.2` or `all`. */
  id: string;
  name: string;
  verdict: Verdict;
  rows: ComparisonRow[];
  notes: string[];
}

export interface ItemResult {
  item: ItemNumber;
  title: string;
  verdict: Verdict;
  steps: StepResult[];
  notes: string[];
}

/**
 * Builds a step. A step with nothing compared fails with the reason: a check never passes by
 * default (DEVELOPERS.md). Every row must pass for the step to pass (spec 1.3).
 */
export function makeStep(id: string, name: string, rows: ComparisonRow[], notes: string[] = []): StepResult {
  if (rows.length === 0) {
    return {
      id,
      name,
      verdict: 'fail',
      rows: [
        {
          key: '(nothing compared)',
          html: null,
          platform: null,
          gap: null,
          tolerance: '-',
          verdict: 'fail',
          note: 'no values to compare: the check cannot be evaluated',
        },
      ],
      notes,
    };
  }
  const verdict: Verdict = rows.every((r) => r.verdict === 'pass') ? 'pass' : 'fail';
  return { id, name, verdict, rows, notes };
}

/** Builds an item. An item without steps fails; every step must pass (spec 1.3). */
export function makeItem(
  item: ItemNumber,
  title: string,
  steps: StepResult[],
  notes: string[] = [],
): ItemResult {
  if (steps.length === 0) {
    return {
      item,
      title,
      verdict: 'fail',
      steps: [makeStep('-', 'no step could be evaluated', [])],
      notes,
    };
  }
  const verdict: Verdict = steps.every((s) => s.verdict === 'pass') ? 'pass' : 'fail';
  return { item, title, verdict, steps, notes };
}

/** A row comparing two texts character for character (e.g. spec 7.6 names, 7.8 titles). */
export function exactRow(key: string, html: Cell, platform: Cell, note?: string): ComparisonRow {
  const verdict: Verdict = html !== null && platform !== null && html === platform ? 'pass' : 'fail';
  return { key, html, platform, gap: null, tolerance: 'exact', verdict, ...(note ? { note } : {}) };
}

/** Items 3 to 12, in order. */
export const ITEM_NUMBERS: readonly ItemNumber[] = [3, 4, 5, 6, 7, 8, 9, 10, 11, 12];

export const ITEM_TITLES: Record<ItemNumber, string> = {
  3: 'KPI cards, aggregate',
  4: 'KPI points per platform',
  5: 'industry exposure ranking',
  6: 'word cloud',
  7: 'content type shares',
  8: 'publish time shares',
  9: 'media type shares',
  10: 'media name shares',
  11: 'related sources: title, channel, cited count',
  12: 'related sources: title at each ordinal',
};
