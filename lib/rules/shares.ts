import type { GroupEntry } from '../schema/data';
import type { TmcDimension } from '../schema/platform';
import {
  AGGREGATE,
  bothEmptyRow,
  missingGroupRow,
  notComparedNote,
  platformOptions,
  stableSortDesc,
  type PlatformOption,
} from './groups';
import { comparePercent, percentRow } from './percent';
import {
  ITEM_TITLES,
  exactRow,
  makeItem,
  makeStep,
  type ComparisonRow,
  type ItemResult,
  type ItemNumber,
  type Profile,
  type RuleContext,
} from './types';

/** Spec 8.2: legend entries of content type and publish time. */
export const LEGEND_ENTRIES = 8;
/** Spec 8.2: media bar entries of media type and media name. */
export const MEDIA_BARS = 10;
/** Spec 8.2: top of the percent-sum window (7.3.3) and the bar-sum threshold (7.4). */
export const PERCENT_SUM_MAX = 101.5;
/** Spec 7.3.2: removed from publish time. */
export const NO_TIME = '无时间';
/** Spec 7.4, 7.5, 9.4.2: removed from media type and media name. */
export const OTHER_AND_UNKNOWN: readonly string[] = ['其他', '未知'];

interface Share {
  name: string;
  value: number | null;
  share: number | null;
}

/** One side of a share chart, as displayed. */
interface ShareSide {
  /** Every kept entry with its displayed share, highest first (stable). */
  entries: Share[];
  /** What the chart shows: the legend (8) or the bars (10). */
  shown: Share[];
  /** Spec 7.3.3: the values already are percentages (used by the 7.3.5 double-division check). */
  isPercentage: boolean;
  /** Sum of the positive values of the kept entries. */
  sum: number;
  /** How the share was obtained and what was removed, for the step notes. */
  basis: string;
}

const show = (x: number) => String(Math.round(x * 1000) / 1000);

export function positiveSum(entries: readonly GroupEntry[]): number {
  return entries.reduce((sum, e) => (e.value !== null && e.value > 0 ? sum + e.value : sum), 0);
}

/**
 * Spec 7.3.3 / 7.3.4: a group's values are counts only when clearly so (positive sum above 101.5, or an
 * entry above 100); otherwise they already are percentages and are used directly, never divided again.
 */
export function valueIsPercentage(entries: readonly GroupEntry[]): boolean {
  return positiveSum(entries) <= PERCENT_SUM_MAX && entries.every((e) => e.value === null || e.value <= 100);
}

/** Shares of entries, highest first (stable). `denominator` null: the value is the share. */
function sharesOf(entries: readonly GroupEntry[], denominator: number | null): Share[] {
  const shares = entries.map((e) => ({
    name: e.name,
    value: e.value,
    share:
      e.value === null || denominator === null || denominator <= 0 ? e.value : (e.value / denominator) * 100,
  }));
  return stableSortDesc(shares, (s) => s.share);
}

function without(entries: readonly GroupEntry[], names: readonly string[]): GroupEntry[] {
  return entries.filter((e) => !names.includes(e.name));
}

function removedNote(entries: readonly GroupEntry[], names: readonly string[]): string {
  const removed = entries.filter((e) => names.includes(e.name)).map((e) => `「${e.name}」`);
  return removed.length > 0 ? `; ${removed.join(', ')} removed` : '';
}

/** Spec 7.3: content type and publish time legends, either side. 「无时间」 is removed first (7.3.2). */
function legendSide(entries: readonly GroupEntry[], dimension: TmcDimension): ShareSide {
  const removed = dimension === 'publish_time' ? [NO_TIME] : [];
  const kept = without(entries, removed);
  const isPercentage = valueIsPercentage(kept);
  const sum = positiveSum(kept);
  const all = sharesOf(kept, isPercentage ? null : sum);
  const basis = isPercentage
    ? `values are percentages (positive sum ${show(sum)}), used directly (7.3.3)`
    : `values are counts (positive sum ${show(sum)}): share = value / sum × 100 (7.3.4)`;
  return {
    entries: all,
    shown: all.slice(0, LEGEND_ENTRIES),
    isPercentage,
    sum,
    basis: basis + removedNote(entries, removed),
  };
}

/**
 * HTML media tiles. 'remaining' (7.4 Profile A, 7.5): remove 「其他」「未知」, share = value / sum of the
 * remaining values × 100. 'whole group' (9.4.2 Profile B): the denominator includes 「其他」「未知」,
 * removed afterwards. Top 10 either way (8.2).
 */
function mediaHtmlSide(entries: readonly GroupEntry[], denominator: 'remaining' | 'whole group'): ShareSide {
  const kept = without(entries, OTHER_AND_UNKNOWN);
  const sum = positiveSum(denominator === 'whole group' ? entries : kept);
  const all = sharesOf(kept, sum);
  const rule =
    denominator === 'whole group'
      ? '9.4.2, 「其他」「未知」 included'
      : '7.4 / 7.5, after removing 「其他」「未知」';
  const basis = `share = value / ${show(sum)} × 100 (${rule})${removedNote(entries, OTHER_AND_UNKNOWN)}`;
  return { entries: all, shown: all.slice(0, MEDIA_BARS), isPercentage: false, sum, basis };
}

/**
 * Platform media bars (7.4, 7.5, 9.4): top 10 by value; printed directly when those 10 values sum to at
 * most 101.5, else value / that sum × 100. 「其他」「未知」 are removed before the top 10, because the
 * HTML removes them to match the platform chart (7.4, 9.4.2).
 */
function mediaPlatformSide(entries: readonly GroupEntry[]): ShareSide {
  const kept = stableSortDesc(without(entries, OTHER_AND_UNKNOWN), (e) => e.value);
  const barSum = positiveSum(kept.slice(0, MEDIA_BARS));
  const direct = barSum <= PERCENT_SUM_MAX;
  const all = sharesOf(kept, direct ? null : barSum);
  const basis = direct
    ? `top-10 values sum to ${show(barSum)} ≤ 101.5: printed directly (7.4)`
    : `top-10 values sum to ${show(barSum)} > 101.5: share = value / that sum × 100 (7.4)`;
  return {
    entries: all,
    shown: all.slice(0, MEDIA_BARS),
    isPercentage: direct,
    sum: barSum,
    basis: basis + removedNote(entries, OTHER_AND_UNKNOWN),
  };
}

/**
 * Spec 7.3.5: a gap caused by dividing an already-percentage value by its group sum a second time is not
 * a failure. Explained when re-dividing one side's percentage by that side's sum lands within tolerance.
 */
function doubleDivision(
  html: ShareSide,
  platform: ShareSide,
  h: number,
  p: number,
  profile: Profile,
): string | undefined {
  const within = (a: number, b: number) => comparePercent(a, b, profile).verdict === 'pass';
  if (html.isPercentage && html.sum > 0 && within((h / html.sum) * 100, p)) {
    return `7.3.5 double division: HTML ${h} / ${show(html.sum)} × 100 = ${show((h / html.sum) * 100)} matches platform ${p}`;
  }
  if (platform.isPercentage && platform.sum > 0 && within(h, (p / platform.sum) * 100)) {
    return `7.3.5 double division: platform ${p} / ${show(platform.sum)} × 100 = ${show((p / platform.sum) * 100)} matches HTML ${h}`;
  }
  return undefined;
}

function shareRow(
  name: string,
  html: ShareSide,
  platform: ShareSide,
  profile: Profile,
  allowDoubleDivision: boolean,
): ComparisonRow {
  const h = html.entries.find((e) => e.name === name);
  const p = platform.entries.find((e) => e.name === name);
  const missing = !h
    ? `「${name}」 not in the HTML group`
    : !p
      ? `「${name}」 not in the platform group`
      : undefined;
  const row = percentRow(`share 「${name}」`, h?.share ?? null, p?.share ?? null, profile, {}, missing);
  if (row.verdict === 'pass' || !allowDoubleDivision || h?.share == null || p?.share == null) return row;
  const explained = doubleDivision(html, platform, h.share, p.share, profile);
  return explained ? { ...row, verdict: 'pass', note: explained } : row;
}

function shareOf(side: ShareSide, name: string): number | null {
  return side.entries.find((e) => e.name === name)?.share ?? null;
}

/**
 * Two names hold equal shares (within the profile's tolerance) on both sides: 7.3.1 orders by value,
 * which leaves the order among equal values open, so either order follows the rule.
 */
function tiedOnBothSides(
  a: string,
  b: string,
  html: ShareSide,
  platform: ShareSide,
  profile: Profile,
): boolean {
  const tied = (side: ShareSide) => {
    const x = shareOf(side, a);
    const y = shareOf(side, b);
    return x !== null && y !== null && comparePercent(x, y, profile).verdict === 'pass';
  };
  return tied(html) && tied(platform);
}

function positionRow(
  index: number,
  label: string,
  html: ShareSide,
  platform: ShareSide,
  profile: Profile,
): ComparisonRow {
  const h = html.shown[index];
  const p = platform.shown[index];
  const missing = !h || !p ? `no entry at #${index + 1} on the ${h ? 'platform' : 'HTML'} side` : undefined;
  const row = exactRow(`#${index + 1} ${label}`, h?.name ?? null, p?.name ?? null, missing);
  if (row.verdict === 'pass' || !h || !p || !tiedOnBothSides(h.name, p.name, html, platform, profile))
    return row;
  return {
    ...row,
    verdict: 'pass',
    note: 'equal shares on both sides: their order is open (7.3.1 orders by value)',
  };
}

/** Names at each position of the chart (order by share, 7.3.1 / 7.4), then the share of each name. */
function compareSides(
  html: ShareSide,
  platform: ShareSide,
  rule: ShareRule,
  profile: Profile,
): ComparisonRow[] {
  if (html.shown.length === 0 && platform.shown.length === 0)
    return [bothEmptyRow(`${rule.dimension} entries`, 'both empty')];
  const positions = Math.max(html.shown.length, platform.shown.length);
  const names = [...new Set([...html.shown, ...platform.shown].map((e) => e.name))];
  return [
    ...Array.from({ length: positions }, (_, i) =>
      positionRow(i, rule.positionLabel, html, platform, profile),
    ),
    ...names.map((name) => shareRow(name, html, platform, profile, rule.doubleDivision)),
  ];
}

interface ShareRule {
  item: ItemNumber;
  dimension: TmcDimension;
  positionLabel: string;
  doubleDivision: boolean;
  htmlSide(entries: readonly GroupEntry[], profile: Profile): ShareSide;
  platformSide(entries: readonly GroupEntry[]): ShareSide;
  notes(profile: Profile): string[];
}

function htmlGroup(ctx: RuleContext, key: string, dimension: TmcDimension): GroupEntry[] | undefined {
  if (key === AGGREGATE) return ctx.data.brand.tmc_aggregate[dimension];
  return ctx.data.brand.platforms[key]?.citation[dimension];
}

function platformGroup(ctx: RuleContext, key: string, dimension: TmcDimension): GroupEntry[] {
  return ctx.platform.tmc
    .filter((r) => r.platform === key && r.dimension === dimension)
    .map((r) => ({ name: r.name, value: r.value }));
}

function shareStep(
  ctx: RuleContext,
  rule: ShareRule,
  option: PlatformOption,
  htmlEntries: GroupEntry[] | undefined,
) {
  const platformEntries = platformGroup(ctx, option.key, rule.dimension);
  const groupKey = `group ${rule.dimension}`;
  if (!htmlEntries) {
    const note = `the HTML has no tmc_aggregate.${rule.dimension}; the aggregate must have it (contract 6)`;
    return makeStep(option.key, option.stepName, [
      missingGroupRow(groupKey, null, `${platformEntries.length} rows`, note),
    ]);
  }
  const html = rule.htmlSide(htmlEntries, ctx.profile);
  const platform = rule.platformSide(platformEntries);
  const notes = [`HTML: ${html.basis}`, `platform: ${platform.basis}`];
  if (platformEntries.length === 0 && html.shown.length > 0) {
    const note = `no tmc rows for dimension ${rule.dimension}, platform ${option.key}`;
    return makeStep(
      option.key,
      option.stepName,
      [missingGroupRow(groupKey, `${htmlEntries.length} entries`, null, note)],
      notes,
    );
  }
  return makeStep(option.key, option.stepName, compareSides(html, platform, rule, ctx.profile), notes);
}

/** Items 7 to 10: one step per platform option (aggregate and the six AI platforms). */
function checkShares(ctx: RuleContext, rule: ShareRule): ItemResult {
  const notes = rule.notes(ctx.profile);
  const steps = platformOptions(ctx.data).flatMap((option) => {
    const htmlEntries = htmlGroup(ctx, option.key, rule.dimension);
    if (!htmlEntries && option.key !== AGGREGATE) {
      notes.push(notComparedNote(option.stepName, `citation.${rule.dimension}`));
      return [];
    }
    return [shareStep(ctx, rule, option, htmlEntries)];
  });
  return makeItem(rule.item, ITEM_TITLES[rule.item], steps, notes);
}

function legendRule(item: ItemNumber, dimension: TmcDimension): ShareRule {
  return {
    item,
    dimension,
    positionLabel: 'legend name',
    doubleDivision: true,
    htmlSide: (entries) => legendSide(entries, dimension),
    platformSide: (entries) => legendSide(entries, dimension),
    notes: () => [
      `legend: at most ${LEGEND_ENTRIES} entries by share, highest first (7.3.1)`,
      'a gap explained by dividing an already-percentage value a second time is not a failure (7.3.5)',
    ],
  };
}

function mediaRule(
  item: ItemNumber,
  dimension: TmcDimension,
  denominator: (p: Profile) => 'remaining' | 'whole group',
): ShareRule {
  return {
    item,
    dimension,
    positionLabel: 'bar name',
    doubleDivision: false,
    htmlSide: (entries, profile) => mediaHtmlSide(entries, denominator(profile)),
    platformSide: mediaPlatformSide,
    notes: (profile) => [
      `bars: top ${MEDIA_BARS} by share, highest first; 「其他」 and 「未知」 are not compared on either side`,
      `HTML denominator: ${denominator(profile) === 'whole group' ? 'whole group, 「其他」「未知」 included (9.4.2)' : 'remaining values after removing 「其他」「未知」 (7.4 / 7.5)'}`,
    ],
  };
}

/** Item 7, content type shares (spec 7.3; Profile B tolerance 9.3.5). */
export function checkItem7(ctx: RuleContext): ItemResult {
  return checkShares(ctx, legendRule(7, 'content_type'));
}

/** Item 8, publish time shares (spec 7.3, 「无时间」 removed by 7.3.2; Profile B tolerance 9.3.5). */
export function checkItem8(ctx: RuleContext): ItemResult {
  return checkShares(ctx, legendRule(8, 'publish_time'));
}

/** Item 9, media type shares: Profile A spec 7.4, Profile B spec 9.4 (denominator) and 9.3.5 (tolerance). */
export function checkItem9(ctx: RuleContext): ItemResult {
  return checkShares(
    ctx,
    mediaRule(9, 'media_category', (p) => (p === 'B' ? 'whole group' : 'remaining')),
  );
}

/** Item 10, media name shares (spec 7.5, same in both profiles but the tolerance, 9.3.5). */
export function checkItem10(ctx: RuleContext): ItemResult {
  return checkShares(
    ctx,
    mediaRule(10, 'media_name', () => 'remaining'),
  );
}
