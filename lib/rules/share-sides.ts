import type { GroupEntry } from '../schema/data';
import type { TmcDimension } from '../schema/platform';
import { atMost, scaledSum, unscaled } from './decimal';
import { atComparedPrecision } from './percent';
import { stableSortDesc } from './sorting';
import type { Profile } from './types';
import { isRemovedName, REMOVED_NAMES } from '../schema/vocabulary';

/** Spec 8.2: legend entries of content type and publish time. */
export const LEGEND_ENTRIES = 8;
/** Spec 8.2: media bar entries of media type and media name. */
export const MEDIA_BARS = 10;
/** Spec 8.2: bottom of the percent-sum window "about 99 to 101.5" (7.3.3). */
export const PERCENT_SUM_MIN = 99;
/** Spec 8.2: top of the percent-sum window (7.3.3) and the bar-sum threshold (7.4). */
export const PERCENT_SUM_MAX = 101.5;
/** Spec 7.3.3: a single entry above 100 is a count. */
export const PERCENT_MAX = 100;
/** Spec 7.3.2: removed from publish time. */
export const NO_TIME = REMOVED_NAMES.noTime;
/** Spec 7.4, 7.5, 9.4.2: removed from media type and media name. */
export const OTHER_AND_UNKNOWN: readonly string[] = REMOVED_NAMES.otherAndUnknown;

export interface Share {
  name: string;
  value: number | null;
  share: number | null;
}

/** One side of a share chart, as displayed. */
export interface ShareSide {
  /** Every kept entry with its displayed share, highest first (stable). */
  entries: Share[];
  /** What the chart shows: the legend (8) or the bars (10). */
  shown: Share[];
  /** Spec 7.3.3: the HTML values already are percentages (the only side 7.3.5 may re-divide). */
  isPercentage: boolean;
  /** Sum of the positive values of the kept entries (decimal). */
  sum: number;
  /**
   * Sum of the positive values of the group as the report holds it, before 「无时间」 is removed
   * (7.3.2), when that differs from `sum`: a percentage group's shares are shares of this whole, so a
   * second division (7.3.5) may have used it.
   */
  wholeSum?: number;
  /**
   * Set when the HTML group's positive sum fell below the 7.3.3 window and 7.3.4 does not call it counts:
   * the group is read as percentages by the suite's choice (docs/rules.md §D17), and every share row
   * says so with the share the other reading would give.
   */
  belowWindow?: { sum: number };
  /** How the share was obtained and what was removed, for the step notes. */
  basis: string;
  /** Names of the group with no value: no slice, so no entry (legends: `drawn`). */
  valueless?: string[];
}

const show = (x: number) => String(Math.round(x * 1000) / 1000);

/** The sum of the positive values, computed on decimal values (8.2, lib/rules/decimal.ts). */
export function positiveSum(entries: readonly GroupEntry[]): number {
  return unscaled(scaledSum(entries.flatMap((e) => (e.value !== null && e.value > 0 ? [e.value] : []))));
}

/**
 * How a group's value field is read (spec 7.3.3 / 7.3.4), decided on the group as the report holds it:
 * - `count` when clearly a count: the positive sum is above the 101.5 window top (percentages of one
 *   group cannot reach it) or an entry is above 100 (7.3.4);
 * - `percentage` when the positive sum is in the window, about 99 to 101.5 (7.3.3), or is 0;
 * - `below the window` when the positive sum is above 0 and below 99 and no entry is above 100: neither
 *   sentence holds. Read as percentages, used directly, because 7.3.4 divides "only when value is
 *   clearly a count" (docs/rules.md §D17); the rows say so.
 * Every threshold on decimal values: 69.9 + 31.4 + 0.2 is exactly 101.5.
 */
export function groupReading(entries: readonly GroupEntry[]): {
  reading: 'percentage' | 'count' | 'below the window';
  sum: number;
} {
  const sum = positiveSum(entries);
  const count =
    !atMost(sum, PERCENT_SUM_MAX) || entries.some((e) => e.value !== null && !atMost(e.value, PERCENT_MAX));
  if (count) return { reading: 'count', sum };
  if (sum > 0 && !atMost(PERCENT_SUM_MIN, sum)) return { reading: 'below the window', sum };
  return { reading: 'percentage', sum };
}

/**
 * Spec 7.3.3 / 7.3.4: a group's values are counts only when clearly so (positive sum above 101.5, or an
 * entry above 100); otherwise they are used directly as percentages, never divided again, including a
 * group below the window (`groupReading`, docs/rules.md §D17).
 */
export function valueIsPercentage(entries: readonly GroupEntry[]): boolean {
  return groupReading(entries).reading !== 'count';
}

/** Spec 7.3.4, 7.4, 7.5, 9.4.2: value / sum × 100, at the precision the profile compares. */
export function computedShare(value: number, sum: number, profile: Profile): number {
  return atComparedPrecision((value / sum) * 100, profile);
}

/**
 * Shares of entries, highest first (stable). `denominator` null: the value is the share, as printed;
 * otherwise the share is computed (`computedShare`). Ordered by value (7.3.1, 7.4 "by value, highest
 * first"), which is the order of the exact shares: the computed share is kept at the precision
 * compared, where two values can round alike (101 and 100 of 1,500 are 6.73 and 6.67 on the report,
 * 6.7 and 6.7 at Profile B's one decimal), and ordered by it the pair kept the array's order, so the
 * smaller could take the report's #10 or #8 (rules audit of 2026-11-28, review 59d).
 */
function sharesOf(entries: readonly GroupEntry[], denominator: number | null, profile: Profile): Share[] {
  const shares = entries.map((e) => ({
    name: e.name,
    value: e.value,
    share:
      e.value === null || denominator === null || denominator <= 0
        ? e.value
        : computedShare(e.value, denominator, profile),
  }));
  return stableSortDesc(shares, (s) => s.value);
}

function without(entries: readonly GroupEntry[], names: readonly string[]): GroupEntry[] {
  return entries.filter((e) => !isRemovedName(e.name, names));
}

function removedNote(entries: readonly GroupEntry[], names: readonly string[]): string {
  const removed = entries.filter((e) => isRemovedName(e.name, names)).map((e) => `「${e.name}」`);
  return removed.length > 0 ? `; ${removed.join(', ')} removed` : '';
}

const legendRemoved = (dimension: TmcDimension) => (dimension === 'publish_time' ? [NO_TIME] : []);

/**
 * The entries a chart draws: those with a value. An entry with none (`null`, `""`, `"-"`: no value,
 * docs/contract.md §5) draws no slice and no bar, on either side, so it is no legend entry (spec
 * 7.3.1 orders the legend by share) and no bar (7.4, 8.2 the top ten by value): compared by name, a
 * valueless entry within the first eight failed items 7 and 8, "no value on either side", while one
 * past the eighth was never compared (platform audit of 2026-11-28); the bars of items 9 and 10 the
 * same (review of the fix). Returns the kept entries and a note naming those left out.
 */
function drawn(entries: readonly GroupEntry[]): { kept: GroupEntry[]; note: string; valueless: string[] } {
  const valueless = entries.filter((e) => e.value === null).map((e) => e.name);
  return {
    kept: entries.filter((e) => e.value !== null),
    note: valueless.length
      ? `; ${valueless.map((n) => `「${n}」`).join(', ')} with no value (no slice, no bar: not compared)`
      : '',
    valueless,
  };
}

/**
 * Spec 7.3: the HTML legend of content type and publish time. Percentage or count is decided on the
 * group as the report holds it, 「无时间」 included (docs/rules.md §D17: its share belongs to the same
 * value field, and a percentage group without it would fall below the window); then 「无时间」 is removed
 * (7.3.2) and counts are divided by the positive sum of the entries kept (7.3.4).
 */
export function legendHtmlSide(
  entries: readonly GroupEntry[],
  dimension: TmcDimension,
  profile: Profile,
): ShareSide {
  const removed = legendRemoved(dimension);
  const { kept, note: valueless, valueless: names } = drawn(without(entries, removed));
  const { reading, sum: wholeSum } = groupReading(entries);
  const isPercentage = reading !== 'count';
  const sum = positiveSum(kept);
  const all = sharesOf(kept, isPercentage ? null : sum, profile);
  const whole = `positive sum ${show(wholeSum)}${removedNote(entries, removed) ? ' before removal' : ''}`;
  const basis =
    reading === 'count'
      ? `values are counts (${whole}): share = value / ${show(sum)} × 100 (7.3.4)`
      : reading === 'percentage'
        ? `values are percentages (${whole}), used directly (7.3.3)`
        : `${whole} is below the 99-101.5 window and no entry is above 100, so neither 7.3.3 nor 7.3.4 holds: read as percentages and used directly, as 7.3.4 divides "only when value is clearly a count" (docs/rules.md §D17)`;
  return {
    entries: all,
    shown: all.slice(0, LEGEND_ENTRIES),
    isPercentage,
    sum,
    ...(wholeSum !== sum ? { wholeSum } : {}),
    basis: basis + removedNote(entries, removed) + valueless,
    ...(names.length ? { valueless: names } : {}),
    ...(reading === 'below the window' ? { belowWindow: { sum: wholeSum } } : {}),
  };
}

/**
 * The platform legend: tmc values are percentages (spec 2.2, 9.4.1) and are printed as they are, never
 * re-divided by their own sum: count detection (7.3.3/7.3.4) is about the HTML value field only
 * (docs/rules.md §D12).
 */
export function legendPlatformSide(entries: readonly GroupEntry[], dimension: TmcDimension): ShareSide {
  const removed = legendRemoved(dimension);
  const { kept, note: valueless, valueless: names } = drawn(without(entries, removed));
  const all = sharesOf(kept, null, 'A'); // printed values: no share is computed, the profile plays no part
  return {
    entries: all,
    shown: all.slice(0, LEGEND_ENTRIES),
    isPercentage: true,
    sum: positiveSum(kept),
    basis: `values are percentages (spec 2.2), printed as they are${removedNote(entries, removed)}${valueless}`,
    ...(names.length ? { valueless: names } : {}),
  };
}

/**
 * HTML media tiles. 'remaining' (7.4 Profile A, 7.5): remove 「其他」「未知」, share = value / sum of the
 * remaining values × 100. 'whole group' (9.4.2 Profile B): the denominator includes 「其他」「未知」,
 * removed afterwards. Top 10 either way (8.2).
 */
export function mediaHtmlSide(
  entries: readonly GroupEntry[],
  denominator: 'remaining' | 'whole group',
  profile: Profile,
): ShareSide {
  const { kept, note: valueless, valueless: names } = drawn(without(entries, OTHER_AND_UNKNOWN));
  const sum = positiveSum(denominator === 'whole group' ? entries : kept);
  const all = sharesOf(kept, sum, profile);
  // What the sum holds, said of this group: a note that named 「其他」「未知」 as included when the
  // group had neither read as the opposite of the defect it showed (reader audit of 2026-11-26).
  const present = entries.filter((e) => isRemovedName(e.name, OTHER_AND_UNKNOWN)).map((e) => `「${e.name}」`);
  const rule =
    denominator === 'whole group'
      ? present.length
        ? `9.4.2: the sum includes ${present.join(', ')}, removed after`
        : '9.4.2: the whole group, which holds no 「其他」 or 「未知」'
      : present.length
        ? `7.4 / 7.5: ${present.join(', ')} removed first`
        : '7.4 / 7.5: the group holds no 「其他」 or 「未知」';
  const basis = `share = value / ${show(sum)} × 100 (${rule})${valueless}`;
  return {
    entries: all,
    shown: all.slice(0, MEDIA_BARS),
    isPercentage: false,
    sum,
    basis,
    ...(names.length ? { valueless: names } : {}),
  };
}

/**
 * Platform media bars, top 10 by value after removing 「其他」「未知」 (the HTML removes them to match the
 * platform chart, 7.4, 9.4.2). Profile A (7.4, 7.5): printed directly when those 10 values sum to at
 * most 101.5 (decimal), else value / that sum × 100. Profile B (9.4.1): the value already is a
 * percentage and is printed as it is; the 7.4 bar-sum rule is Profile A's and B never inherits it (1.4).
 */
export function mediaPlatformSide(entries: readonly GroupEntry[], profile: Profile): ShareSide {
  const bars = drawn(without(entries, OTHER_AND_UNKNOWN));
  const kept = stableSortDesc(bars.kept, (e) => e.value);
  const barSum = positiveSum(kept.slice(0, MEDIA_BARS));
  const removed = removedNote(entries, OTHER_AND_UNKNOWN) + bars.note;
  const valueless = bars.valueless.length ? { valueless: bars.valueless } : {};
  if (profile === 'B') {
    const all = sharesOf(kept, null, profile);
    const basis = `values are percentages (9.4.1), printed as they are${removed}`;
    return {
      entries: all,
      shown: all.slice(0, MEDIA_BARS),
      isPercentage: true,
      sum: barSum,
      basis,
      ...valueless,
    };
  }
  const direct = atMost(barSum, PERCENT_SUM_MAX);
  const all = sharesOf(kept, direct ? null : barSum, profile);
  const basis = direct
    ? `top-10 values sum to ${show(barSum)} ≤ 101.5: printed directly (7.4)`
    : `top-10 values sum to ${show(barSum)} > 101.5: share = value / that sum × 100 (7.4)`;
  return {
    entries: all,
    shown: all.slice(0, MEDIA_BARS),
    isPercentage: direct,
    sum: barSum,
    basis: basis + removed,
    ...valueless,
  };
}
