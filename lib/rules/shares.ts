import type { GroupEntry } from '../schema/data';
import type { TmcDimension } from '../schema/platform';
import { own } from './keyed';
import { atComparedPrecision, comparePercent, roundedGap, withinProfile } from './percent';
import { AGGREGATE, beyondSixNote, notComparedNote, platformOptions, type PlatformOption } from './platforms';
import { makeItem, makeStep } from './results';
import { bothEmptyRow, exactRow, missingGroupRow, percentRow } from './rows';
import { tiedOn, type TiedOn } from './sorting';
import {
  LEGEND_ENTRIES,
  MEDIA_BARS,
  PERCENT_SUM_MAX,
  PERCENT_SUM_MIN,
  legendHtmlSide,
  legendPlatformSide,
  mediaHtmlSide,
  mediaPlatformSide,
  computedShare,
  type ShareSide,
} from './share-sides';
import {
  PASS_BY,
  type ComparisonRow,
  type ItemResult,
  type ItemNumber,
  type Profile,
  type RuleContext,
} from './types';

export {
  LEGEND_ENTRIES,
  MEDIA_BARS,
  NO_TIME,
  OTHER_AND_UNKNOWN,
  PERCENT_SUM_MAX,
  PERCENT_SUM_MIN,
  groupReading,
  positiveSum,
  valueIsPercentage,
} from './share-sides';

const show = (x: number) => String(Math.round(x * 1000) / 1000);

/** Spec 7.3.5 "a gap of about 0.1 point": at most 0.1 after rounding both sides to one decimal. */
export const DOUBLE_DIVISION_GAP = 0.1;

/**
 * Spec 7.3.5: "a gap of about 0.1 point caused by dividing twice (for instance 52.1 against 52) is not a
 * failure". Allowed only when all three hold: the HTML group is a percentage group (7.3.3), so there
 * was something to divide a second time; re-dividing the HTML percentage by its own group sum lands
 * within the profile's tolerance of the platform value, so dividing twice explains the gap; and the gap
 * is at most 0.1 point after rounding both values to one decimal. Platform tmc values are percentages
 * and are never re-divided (2.2, 9.4.1). docs/rules.md §D11.
 */
export function doubleDivision(html: ShareSide, h: number, p: number, profile: Profile): string | undefined {
  if (!html.isPercentage || roundedGap(h, p) > DOUBLE_DIVISION_GAP) return undefined;
  // The second division may have used the group as the report holds it (「无时间」 included, whose
  // shares the percentages are) or the entries kept after 7.3.2: either explains the gap.
  for (const sum of new Set([html.sum, html.wholeSum ?? html.sum])) {
    if (sum <= 0) continue;
    // What dividing a second time would show, at the precision the profile compares.
    const redivided = atComparedPrecision((h / sum) * 100, profile);
    if (withinProfile(redivided, p, profile))
      return `7.3.5 double division: HTML ${h} / ${show(sum)} × 100 = ${redivided} matches platform ${p}; gap ${roundedGap(h, p)} after rounding (≤ 0.1)`;
  }
  return undefined;
}

/**
 * Why a failing share gap of at most 0.1 after rounding is not 7.3.5's "52.1 against 52": the row
 * shows the spec's own example of no failure, so it says why the allowance did not hold (rules
 * audit of 2026-11-28: "gap 0.1 · tolerance ≤ 0.05" alone read as 7.3.5 ignored). `undefined` when
 * the gap is larger than 7.3.5's, or `doubleDivision` explains it.
 */
function notDoubleDivision(html: ShareSide, h: number, p: number, profile: Profile): string | undefined {
  if (roundedGap(h, p) > DOUBLE_DIVISION_GAP) return undefined;
  if (!html.isPercentage)
    return 'not 7.3.5 double division: the HTML values are counts, divided once (7.3.4, docs/rules.md §D11)';
  const sums = [...new Set([html.sum, html.wholeSum ?? html.sum])].filter((sum) => sum > 0);
  if (sums.length === 0) return undefined;
  const redivided = sums.map(
    (sum) => `${h} / ${show(sum)} × 100 = ${atComparedPrecision((h / sum) * 100, profile)}`,
  );
  return `not 7.3.5 double division: re-dividing the HTML percentage gives ${redivided.join(' or ')}, not the platform's ${p} (docs/rules.md §D11)`;
}

/**
 * docs/rules.md §D17: a share row of an HTML group below the 7.3.3 window says the reading used and what
 * the other reading (counts, 7.3.4) would give, and whether that matches the platform, so a reviewer can
 * tell a data difference from a reading. A pass that holds under this reading is marked as such.
 */
function withReading(
  row: ComparisonRow,
  html: ShareSide,
  value: number | null,
  platform: number | null,
  profile: Profile,
): ComparisonRow {
  if (!html.belowWindow || value === null || html.sum <= 0) return row;
  const asCounts = computedShare(value, html.sum, profile);
  const matches =
    platform !== null && comparePercent(asCounts, platform, profile).verdict === 'pass'
      ? 'which matches the platform'
      : 'which does not match the platform either';
  const reading = `the HTML group's positive sum ${show(html.belowWindow.sum)} is below the ${PERCENT_SUM_MIN}-${PERCENT_SUM_MAX} window (7.3.3) and not clearly counts (7.3.4): read as percentages, used directly (docs/rules.md §D17); read as counts it would be ${asCounts} (${value} / ${show(html.sum)} × 100), ${matches}`;
  const note = [row.note, reading].filter(Boolean).join('; ');
  return row.verdict === 'pass' ? { ...row, note, passBy: PASS_BY.smallGroup } : { ...row, note };
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
  // A name whose entry has no value is in the group but draws no slice (share-sides.ts `drawn`): the
  // row says "no value on the … side" itself, as for any value missing on one side (docs/rules.md §D3).
  const absent = (side: ShareSide, which: string) =>
    side.valueless?.includes(name) ? undefined : `「${name}」 not in the ${which} group`;
  const missing = !h ? absent(html, 'HTML') : !p ? absent(platform, 'platform') : undefined;
  const compared = percentRow(`share 「${name}」`, h?.share ?? null, p?.share ?? null, profile, {}, missing);
  const explained =
    compared.verdict === 'fail' && allowDoubleDivision && h?.share != null && p?.share != null
      ? doubleDivision(html, h.share, p.share, profile)
      : undefined;
  const unexplained =
    compared.verdict === 'fail' && !explained && allowDoubleDivision && h?.share != null && p?.share != null
      ? notDoubleDivision(html, h.share, p.share, profile)
      : undefined;
  const row: ComparisonRow = explained
    ? { ...compared, verdict: 'pass', note: explained, passBy: PASS_BY.doubleDivision }
    : unexplained
      ? { ...compared, note: [compared.note, unexplained].filter(Boolean).join('; ') }
      : compared;
  return withReading(row, html, h?.value ?? null, p?.share ?? null, profile);
}

function shareOf(side: ShareSide, name: string): number | null {
  return side.entries.find((e) => e.name === name)?.share ?? null;
}

/**
 * Where two names hold equal shares (within the profile's tolerance): 7.3.1 orders by value, which
 * leaves the order among equal values open on a side where they are equal (docs/rules.md §D10).
 */
function sharesTiedOn(
  a: string,
  b: string,
  html: ShareSide,
  platform: ShareSide,
  profile: Profile,
): TiedOn | undefined {
  return pairTiedOn(
    [shareOf(html, a), shareOf(html, b)],
    [shareOf(platform, a), shareOf(platform, b)],
    profile,
  );
}

type SharePair = [number | null, number | null];

/** `sharesTiedOn` of a pair whose shares on each side are known. */
function pairTiedOn(html: SharePair, platform: SharePair, profile: Profile): TiedOn | undefined {
  const tied = ([x, y]: SharePair) =>
    x !== null && y !== null && comparePercent(x, y, profile).verdict === 'pass';
  return tiedOn(tied(html), tied(platform));
}

/** Each name's first position among a side's entries (all kept, highest first). */
function firstIndexes(side: ShareSide): Map<string, number> {
  const first = new Map<string, number>();
  side.entries.forEach((e, i) => first.has(e.name) || first.set(e.name, i));
  return first;
}

/**
 * The names whose order with `name` differs between the two sides (one above it on the HTML side
 * and below it on the platform side, or the reverse), each with where the pair is equal; read in
 * every entry each side keeps, so a move across the 8th or 10th counts.
 */
function swapsOf(
  name: string,
  html: ShareSide,
  platform: ShareSide,
  profile: Profile,
): { text: string; tied: TiedOn | undefined }[] {
  const h = firstIndexes(html);
  const p = firstIndexes(platform);
  if (!h.has(name) || !p.has(name)) return [];
  // The shares by the first indexes: `sharesTiedOn` finds each name among every entry, and over a
  // name that moved past thousands the search was quadratic (review 59r).
  const pair = (side: ShareSide, at: Map<string, number>, a: string, b: string): SharePair => [
    side.entries[at.get(a)!]!.share,
    side.entries[at.get(b)!]!.share,
  ];
  return [...h.keys()]
    .filter((n) => n !== name && p.has(n) && h.get(n)! < h.get(name)! !== p.get(n)! < p.get(name)!)
    .map((n) => {
      const [first, second] = h.get(n)! < h.get(name)! ? [n, name] : [name, n];
      return {
        text: `「${first}」 ↔ 「${second}」`,
        tied: pairTiedOn(pair(html, h, first, second), pair(platform, p, first, second), profile),
      };
    });
}

/**
 * One position of the chart: the names, character for character. Two names swapped there pass when
 * their shares are equal on at least one side, whose order of the two is then open (§D10): each
 * name's share is compared across the sides by its own row (`shareRow`). Judged by pairs, not
 * position by position (as 9.5.5's tie swaps are): a name that moved past two neighbours, equal with
 * one on the HTML side and with the other on the platform side, leaves two names at a position that
 * both sides order alike; the position passes when each of its names took part in a swap and every
 * swap either took part in is of names equal on some side (review 59h: HTML 自媒体 0.15, 论坛 0.15,
 * 网易 0.08 against a platform's 论坛 0.2, 网易 0.1, 自媒体 0.1 failed #3, every share agreeing).
 */
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
  if (row.verdict !== 'fail' || !h || !p) return row;
  const tied = sharesTiedOn(h.name, p.name, html, platform, profile);
  if (tied)
    return {
      ...row,
      verdict: 'pass',
      note: `equal shares on ${tied}, where their order is open (7.3.1 orders by value)`,
      passBy: PASS_BY.equalShares,
    };
  const swapsH = swapsOf(h.name, html, platform, profile);
  const swapsP = swapsOf(p.name, html, platform, profile);
  const swaps = [...new Map([...swapsH, ...swapsP].map((s) => [s.text, s])).values()];
  if (swapsH.length === 0 || swapsP.length === 0 || swaps.some((s) => !s.tied)) return row;
  const pairs = swaps.map((s) => `${s.text} equal on ${s.tied}`).join('; ');
  return {
    ...row,
    verdict: 'pass',
    note: `each name swapped places only with names of equal share: ${pairs}, where their order is open (7.3.1 orders by value; judged by pairs, docs/rules.md §D10)`,
    passBy: PASS_BY.equalShares,
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
  platformSide(entries: readonly GroupEntry[], profile: Profile): ShareSide;
  notes(profile: Profile): string[];
}

function htmlGroup(ctx: RuleContext, key: string, dimension: TmcDimension): GroupEntry[] | undefined {
  if (key === AGGREGATE) return ctx.data.brand.tmc_aggregate[dimension];
  return own(ctx.data.brand.platforms, key)?.citation[dimension];
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
    // Only the aggregate comes here, and only when the platform has its group (checkShares).
    const note = `the HTML has no tmc_aggregate.${rule.dimension} and the platform has the group (contract §6: "or the reverse for the aggregate, fails"; docs/rules.md §D2)`;
    return makeStep(option.key, option.stepName, [
      missingGroupRow(groupKey, null, `${platformEntries.length} rows`, note),
    ]);
  }
  const html = rule.htmlSide(htmlEntries, ctx.profile);
  const platform = rule.platformSide(platformEntries, ctx.profile);
  const notes = [`HTML: ${html.basis}`, `platform: ${platform.basis}`];
  // A side has the group when its chart shows it (`shows`), on both sides and in both directions of
  // contract §6: a publish-time group of only 「无时间」 against no rows shows nothing on either
  // side, as the mirror case (only 「无时间」 rows, no HTML aggregate) does (review of 2026-11-27).
  if (platformEntries.length === 0 && shows(html)) {
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

/**
 * Whether the platform's chart of this group shows anything: an entry with a value once the rule's
 * removals are made (7.3.2 「无时间」, 7.4 「其他」「未知」). Rows with no value, or only removed
 * ones, show a group as empty as one the platform does not send (review of 2026-11-27: `all` rows
 * whose values were all null failed an aggregate the HTML leaves out, where no rows passed).
 */
function platformShowsGroup(ctx: RuleContext, rule: ShareRule, key: string): boolean {
  const entries = platformGroup(ctx, key, rule.dimension);
  return entries.length > 0 && shows(rule.platformSide(entries, ctx.profile));
}

/** Whether a side's chart shows the group: an entry with a value once the rule's removals are made. */
function shows(side: ShareSide): boolean {
  return side.shown.some((e) => e.value !== null);
}

/** Items 7 to 10: one step per platform option (aggregate and the six AI platforms). */
function checkShares(ctx: RuleContext, rule: ShareRule): ItemResult {
  const notes = [...rule.notes(ctx.profile), ...beyondSixNote(ctx.data)];
  const steps = platformOptions(ctx.data).flatMap((option) => {
    const htmlEntries = htmlGroup(ctx, option.key, rule.dimension);
    if (!htmlEntries && option.key !== AGGREGATE) {
      notes.push(notComparedNote(option.stepName, `citation.${rule.dimension}`));
      return [];
    }
    // Contract §5 lets DATA leave out the aggregate's content_type, publish_time and media_name;
    // §6 fails the aggregate only when one side has the group: on neither, it is not compared.
    if (!htmlEntries && !platformShowsGroup(ctx, rule, option.key)) {
      notes.push(
        `${option.stepName}: neither the HTML (tmc_aggregate.${rule.dimension}) nor the platform (tmc rows of platform ${AGGREGATE}) has the group; not compared (contract §6, docs/rules.md §D2)`,
      );
      return [];
    }
    return [shareStep(ctx, rule, option, htmlEntries)];
  });
  return makeItem(rule.item, steps, notes);
}

function legendRule(item: ItemNumber, dimension: TmcDimension): ShareRule {
  return {
    item,
    dimension,
    positionLabel: 'legend name',
    doubleDivision: true,
    htmlSide: (entries, profile) => legendHtmlSide(entries, dimension, profile),
    platformSide: (entries) => legendPlatformSide(entries, dimension),
    notes: () => [
      `legend: at most ${LEGEND_ENTRIES} entries by share, highest first (7.3.1)`,
      'platform tmc values are percentages, printed as they are (2.2); a gap of at most 0.1 after rounding that re-dividing the HTML percentages by their sum explains is not a failure (7.3.5)',
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
    htmlSide: (entries, profile) => mediaHtmlSide(entries, denominator(profile), profile),
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

/** Item 10, media name shares (spec 7.5; Profile B prints the platform values as they are, 9.4.1, with the tolerance of 9.3.5: docs/rules.md 7.5). */
export function checkItem10(ctx: RuleContext): ItemResult {
  return checkShares(
    ctx,
    mediaRule(10, 'media_name', () => 'remaining'),
  );
}
