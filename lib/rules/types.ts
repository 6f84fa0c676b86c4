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
  /**
   * The report's batch date (YYYY-MM-DD, from its URL): item 4's monitoring-day point is on or before
   * it (spec 7.2, docs/rules.md §D4). Absent: the latest point.
   */
  batchDate?: string;
}

/** One line of a mismatch table: key, both values, gap, tolerance, verdict, note. */
export interface ComparisonRow {
  key: string;
  html: Cell;
  platform: Cell;
  gap: number | null;
  tolerance: string;
  verdict: Verdict;
  /** An explanation of the row (why it failed, or how a pass was reached). */
  note?: string;
  /**
   * Set only on a passing row whose pass holds by a special clause rather than by the plain comparison
   * (7.1 / 9.3 tolerance, equal texts): one of the constant texts of `PASS_BY`, so a report can keep the
   * row, count the clause and show it; `note` says the case (docs/rules.md § Passes by a special clause).
   */
  passBy?: string;
  /**
   * Set only on the row saying that both sides show nothing for a group or list (`bothEmptyRow`): an
   * agreement, not a comparison. An item whose every row is one compared nothing and fails
   * (docs/rules.md §D1).
   */
  bothEmpty?: true;
}

/**
 * The special clauses a row may pass by (`ComparisonRow.passBy`), one constant text each. A pass within
 * the ordinary tolerance (7.1.2, or equal after rounding in 9.3.2) is not one of them.
 */
export const PASS_BY = {
  /** Spec 9.5.5: two brands tied within 0.05 swapped ranks (Profile B, step 5.2). */
  tieSwap: 'tie swap (spec 9.5.5)',
  /** Spec 7.3.5: a gap of at most 0.1 explained by dividing an HTML percentage group twice. */
  doubleDivision: 'double division (spec 7.3.5)',
  /** Spec 9.3.4: brand exposure rate, the platform prints an integer, equal after rounding to integers. */
  integerPrint: 'integer print (spec 9.3.4)',
  /** Spec 9.3.2: 0.1 apart after rounding both sides to one decimal (Profile B). */
  roundedTenth: '0.1 after rounding (spec 9.3.2)',
  /** Spec 7.3.1 / docs/rules.md §D10: two names with equal shares stand in either order. */
  equalShares: 'equal shares in either order (spec 7.3.1, docs/rules.md §D10)',
  /** Spec 7.3.3 / 7.3.4, docs/rules.md §D17: a group below the percent-sum window, read as percentages. */
  smallGroup:
    'reading: a group below the 99-101.5 window used as percentages (spec 7.3.4, docs/rules.md §D17)',
} as const;

export interface StepResult {
  /**
   * Shown to users as `<id> · <name>`: the spec's step where the step is one (`5.2`, `7.7.1`), else a
   * plain key (`all`, `doubao`, a card name).
   */
  id: string;
  name: string;
  verdict: Verdict;
  rows: ComparisonRow[];
  /** Explanations of the step; one sentence per special clause its rows passed by (`passBy`). */
  notes: string[];
  /**
   * How many values the step compared, where its rows do not count them one each: item 6's words
   * that both sides have are one row (`words matched`, 33 of 33), so "1 mismatch(es) of 2 compared"
   * said two of 34 words. Absent: one row is one value compared.
   */
  compared?: number;
}

export interface ItemResult {
  item: ItemNumber;
  title: string;
  verdict: Verdict;
  steps: StepResult[];
  /** Explanations of the item; one sentence per special clause its rows passed by, naming the steps. */
  notes: string[];
}

/** Items 3 to 12, in order. */
export const ITEM_NUMBERS: readonly ItemNumber[] = [3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
