import type { Data } from '../schema/data';
import type { PlatformEvidence } from '../schema/platform';

import type { Level, Profile, ReportType } from '../schema/vocabulary';

export type { Level, Profile, ReportType };
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

/** One line of a mismatch table: key, both values, gap, tolerance, verdict, note. */
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
  /**
   * Shown to users as `<id> · <name>`: the spec's step where the step is one (`5.2`, `7.7.1`), else a
   * plain key (`all`, `doubao`, a card name).
   */
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
