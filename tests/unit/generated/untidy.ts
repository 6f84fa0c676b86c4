import fc from 'fast-check';
import type { ItemNumber, Profile } from '../../../lib/rules/types';
import type { TmcDimension } from '../../../lib/schema/platform';
import { round1, round2 } from '../../../demo/prng';
import { platformShares } from '../../../demo/shares';
import { r1, render, type Json, type Plain } from '../../../demo/model/render';
import { OPTIONS_OF, PLATFORMS, truthArb, type Truth } from '../../../demo/model/truth';

/**
 * Generated cases where the truth (demo/model/truth.ts) is too tidy to go (review 59h): shares 0.5
 * point apart in groups of 2 to 6 entries, counts that are multiples of tenths, brands 0.31 apart,
 * the six platforms in one order, titles never repeated. Each arbitrary builds one untidy part on a
 * truth and says what the spec makes of it; an oracle here never calls lib/rules.
 */

const ITEM_OF: Record<TmcDimension, ItemNumber> = {
  content_type: 7,
  publish_time: 8,
  media_category: 9,
  media_name: 10,
};
const LEGEND = (d: TmcDimension) => d === 'content_type' || d === 'publish_time';

/** Names a group may hold: the three the rules remove (7.3.2, 7.4, 7.5) and 13 others. */
const GROUP_NAMES = [
  '其他',
  '未知',
  '无时间',
  '新闻',
  '百科',
  '问答',
  '自媒体',
  '政府',
  '论坛',
  '视频',
  '图文',
  '人民网',
  '新浪',
  '搜狐',
  '知乎',
  '网易',
];

/** The six AI platforms in any order, on both sides (7.6 "the first six AI answer platforms of the report"). */
const platformsArb = fc.shuffledSubarray(PLATFORMS, { minLength: 6, maxLength: 6 });

/** The HTML group of `option` in `p` (aggregate or per platform). */
const htmlGroups = (p: Plain, option: string): Json =>
  option === 'all' ? p.data.brand.tmc_aggregate : p.data.brand.platforms[option].citation;

/** Replaces the platform's tmc rows of one group. */
function setTmc(p: Plain, option: string, dimension: TmcDimension, rows: { name: string; value: number }[]) {
  p.tmc = [
    ...p.tmc.filter((r) => !(r.platform === option && r.dimension === dimension)),
    ...rows.map((r) => ({ platform: option, dimension, ...r })),
  ];
}

/**
 * Spec 7.3.4, 7.4, 7.5, 9.4.2: a group of counts drawn untidily: 1 to 16 entries (a single one; more
 * than the legend's 8 and the bars' 10), 「其他」「未知」「无时间」 anywhere (in the top 10 by value too),
 * counts from 0 (ties, zeros, shares that round alike, sums just above 101.5) and up to 30,000 (no
 * multiple of tenths, so shares end in halves and binary noise). The platform prints what a correct
 * platform prints: each share to one decimal (demo/shares.ts), or in Profile A, for the media bars,
 * the counts themselves when at most 10 are kept (7.4: above a bar sum of 101.5 the platform divides),
 * and either every row or only the rows its chart shows.
 * A legend group whose sum is at most 101.5 with no entry above 100 is a percentage group (7.3.3), and a
 * group with nothing to divide by is left out (undefined).
 */
export const countGroupArb = fc
  .record({
    t: truthArb,
    platforms: platformsArb,
    profile: fc.constantFrom<Profile>('A', 'B'),
    option: fc.nat({ max: 6 }),
    dimension: fc.constantFrom<TmcDimension>('content_type', 'publish_time', 'media_category', 'media_name'),
    names: fc.shuffledSubarray(GROUP_NAMES, { minLength: 1, maxLength: GROUP_NAMES.length }),
    counts: fc.array(fc.oneof(fc.integer({ min: 0, max: 12 }), fc.integer({ min: 0, max: 3000 })), {
      minLength: GROUP_NAMES.length,
      maxLength: GROUP_NAMES.length,
    }),
    factor: fc.constantFrom(1, 3, 7, 10),
    rawBars: fc.boolean(),
    shownOnly: fc.boolean(),
  })
  .map(({ t: drawn, platforms, profile, option, dimension, names, counts, factor, rawBars, shownOnly }) => {
    const t: Truth = { ...drawn, platforms };
    const o = OPTIONS_OF(t)[option]!;
    const entries = names.map((name, i) => ({ name, value: counts[i]! * factor }));
    const sum = entries.reduce((a, e) => a + e.value, 0);
    if (LEGEND(dimension) && sum <= 101.5 && entries.every((e) => e.value <= 100)) return undefined;
    const shares = platformShares(entries, dimension, profile);
    if (shares.length === 0 || shares.some((s) => !Number.isFinite(s.value))) return undefined;
    const kept = entries.filter((e) => e.name !== '其他' && e.name !== '未知');
    const counted =
      !LEGEND(dimension) &&
      profile === 'A' &&
      rawBars &&
      kept.length <= 10 &&
      kept.reduce((a, e) => a + e.value, 0) > 101.5;
    const plain = render(t, profile);
    htmlGroups(plain, o)[dimension] = entries;
    // `shownOnly`: the platform sends only what its chart shows, its top 8 or 10 by exact share
    // (equal shares in the group's order), as a platform that sends its ten bars does.
    const chart = shownOnly ? shownOf(shares, dimension) : shares;
    const printed = counted ? entries : chart.map((s) => ({ name: s.name, value: r1(s.value) }));
    setTmc(plain, o, dimension, printed);
    const what = `profile ${profile}, ${dimension} of ${o}: HTML ${JSON.stringify(entries)}, platform ${JSON.stringify(printed)}`;
    return { t, profile, option: o, dimension, item: ITEM_OF[dimension], shares, counted, plain, what };
  });

/** What a chart shows (7.3.1, 7.4, 8.2): the top 8 or 10 by exact share, equal ones in the group's order. */
function shownOf<T extends { value: number }>(shares: readonly T[], dimension: TmcDimension): T[] {
  const ranked = shares.map((s, i) => ({ s, i })).sort((a, b) => b.s.value - a.s.value || a.i - b.i);
  return ranked.slice(0, LEGEND(dimension) ? 8 : 10).map((x) => x.s);
}

/**
 * Spec 7.1.2 / 9.3.2-9.3.3: `countGroupArb` (the platform printing shares), one entry the chart shows
 * (its legend's 8 or its bars' 10, by exact share) printed `by` points off (±0.1 or ±0.2). Its item
 * must fail exactly when the moved print is beyond the tolerance of the report's share: Profile A more
 * than 0.05 from the share the HTML prints (two decimals, 7.1.1), Profile B 0.2 or more apart after
 * rounding both to one decimal.
 */
export const movedShareArb = fc
  .record({ c: countGroupArb, which: fc.nat(), by: fc.constantFrom(-0.2, -0.1, 0.1, 0.2) })
  .map(({ c, which, by }) => {
    if (!c || c.counted) return undefined;
    const shown = shownOf(c.shares, c.dimension);
    const target = shown[which % shown.length]!;
    const moved = round1(r1(target.value) + by);
    if (moved < 0) return undefined;
    const rows = c.shares.map((s) => ({ name: s.name, value: s === target ? moved : r1(s.value) }));
    setTmc(c.plain, c.option, c.dimension, rows);
    const beyond =
      c.profile === 'A'
        ? Math.abs(round2(target.value) - moved) > 0.05 + 1e-9
        : Math.abs(round1(target.value) - moved) > 0.1 + 1e-9;
    const what = `${c.what}; 「${target.name}」 (share ${target.value}) printed ${moved}`;
    return { ...c, beyond, what };
  });

/**
 * Spec 7.3.3 / 7.3.5: a legend group of HTML percentages (two decimals) summing to 99.00 to 101.50,
 * with ties and 「无时间」 anywhere. The platform prints each percentage to one decimal (`twice`
 * false), or divides it a second time by the group's sum (`twice`): a gap of about 0.1 point caused
 * by dividing twice is not a failure, so the item passes when every entry the legend shows is within
 * the tolerance or at most 0.1 apart after rounding both to one decimal, and fails otherwise.
 */
export const percentGroupArb = fc
  .record({
    t: truthArb,
    profile: fc.constantFrom<Profile>('A', 'B'),
    option: fc.nat({ max: 6 }),
    dimension: fc.constantFrom<TmcDimension>('content_type', 'publish_time'),
    names: fc.shuffledSubarray(GROUP_NAMES, { minLength: 1, maxLength: 12 }),
    weights: fc.array(fc.oneof(fc.constant(5), fc.integer({ min: 0, max: 40 })), {
      minLength: 12,
      maxLength: 12,
    }),
    total: fc.integer({ min: 9900, max: 10150 }),
    twice: fc.boolean(),
  })
  .map(({ t, profile, option, dimension, names, weights, total, twice }) => {
    const o = OPTIONS_OF(t)[option]!;
    const w = names.map((_, i) => weights[i]!);
    const all = w.reduce((a, b) => a + b, 0);
    if (all === 0) return undefined;
    const hundredths = w.map((x) => Math.floor((x * total) / all));
    hundredths[0]! += total - hundredths.reduce((a, b) => a + b, 0);
    if (hundredths.some((h) => h > 10_000)) return undefined;
    const entries = names.map((name, i) => ({ name, value: hundredths[i]! / 100 }));
    const kept = entries.filter((e) => !(dimension === 'publish_time' && e.name === '无时间'));
    const printed = kept.map((e) => ({
      name: e.name,
      value: twice ? r1((e.value / (total / 100)) * 100) : r1(e.value),
    }));
    const plain = render(t, profile);
    htmlGroups(plain, o)[dimension] = entries;
    setTmc(plain, o, dimension, printed);
    const within = (h: number, q: number) =>
      (profile === 'A' ? Math.abs(h - q) <= 0.05 + 1e-9 : Math.abs(round1(h) - q) <= 0.1 + 1e-9) ||
      Math.abs(round1(h) - q) <= 0.1 + 1e-9;
    const shown = [...kept].sort((a, b) => b.value - a.value).slice(0, 8);
    const passes = shown.every((e) => within(e.value, printed.find((x) => x.name === e.name)!.value));
    const what = `profile ${profile}, ${dimension} of ${o}${twice ? ', divided twice' : ''}: HTML ${JSON.stringify(entries)}, platform ${JSON.stringify(printed)}`;
    return { t, profile, item: ITEM_OF[dimension], option: o, passes, plain, what };
  });

/**
 * Spec 7.6 / 9.5.3 / 9.5.5: brands whose aggregate rates lie within 0.4 point of one another (equal
 * rates, rates the platform prints alike, ties across #10/#11), a 0-rate sibling placeholder in
 * Profile B (skipped by the report's ranking, 9.5.3, and not on the platform), the six platforms in
 * any order. The platform prints one decimal and orders its rows by its own exact rates; among equal
 * prints its API order is any (Profile B: each side's order of a pair tied on it is open, 9.5.5) or,
 * in Profile A, the report's own (equal rates keep the order each side printed, the own brand first
 * as the suite merges it, lib/rules/ranking-sides.ts). Item 5 passes.
 */
export const nearTieRankingArb = fc
  .record({
    t: truthArb,
    platforms: platformsArb,
    profile: fc.constantFrom<Profile>('A', 'B'),
    base: fc.integer({ min: 100, max: 9000 }),
    offsets: fc.array(fc.integer({ min: 0, max: 40 }), { minLength: 13, maxLength: 13 }),
    apiKeys: fc.array(fc.nat(), { minLength: 13, maxLength: 13 }),
    placeholder: fc.nat({ max: 20 }),
  })
  .map(({ t: drawn, platforms, profile, base, offsets, apiKeys, placeholder }) => {
    const brands = drawn.brands.map((b, i) => ({
      ...b,
      rate: profile === 'B' && i === placeholder && b.name !== drawn.brand ? 0 : (base + offsets[i]!) / 100,
    }));
    // Step 5.3 with no rate on either side anywhere compares nothing (docs/rules.md §D1).
    if (brands.slice(0, 10).every((b) => b.perPlatform.every((x) => x === null))) return undefined;
    const t: Truth = { ...drawn, platforms, brands };
    const plain = render(t, profile);
    const exact = new Map(brands.map((b, i) => [b.name, { rate: b.rate, key: apiKeys[i]! }]));
    // The report's own order among equal rates: the own brand, then core_competitors as listed.
    const reportOrder = (name: string) => (name === t.brand ? -1 : brands.findIndex((b) => b.name === name));
    // A: by its exact rates (the report's), equal ones in the report's order; B: any order among
    // equal prints, by the drawn keys alone (each side's order of a pair tied on it is open, 9.5.5).
    const order = (a: Json, b: Json) =>
      profile === 'A'
        ? exact.get(b.name)!.rate - exact.get(a.name)!.rate || reportOrder(a.name) - reportOrder(b.name)
        : exact.get(a.name)!.key - exact.get(b.name)!.key;
    const rows = plain.competitor
      .filter((r) => r.kind === 'brand' && exact.get(r.name)!.rate !== 0)
      .sort((a, b) => b.exposure_rate - a.exposure_rate || order(a, b));
    plain.competitor = [...rows, ...plain.competitor.filter((r) => r.kind !== 'brand')];
    const what = `profile ${profile}, HTML ${JSON.stringify(brands.map((b) => [b.name, b.rate]))}, platform ${JSON.stringify(rows.map((r) => [r.name, r.exposure_rate]))}`;
    return { t, profile, plain, what };
  });

/**
 * Spec 7.6 steps 1 and 3 (9.3 in Profile B): one exposure-rate cell of a top-10 brand, the
 * all-platform column or one of the six, printed `by` points off its one-decimal print (±0.1 to ±0.3).
 * Its step fails exactly when the print is beyond the tolerance of the report's rate (A: more than
 * 0.05; B: 0.2 or more after rounding). The fault classes have no rate of item 5 (demo/model/faults.ts).
 */
export const movedCellArb = fc
  .record({
    t: truthArb,
    profile: fc.constantFrom<Profile>('A', 'B'),
    brand: fc.nat(),
    column: fc.integer({ min: -1, max: 5 }),
    by: fc.constantFrom(-0.3, -0.2, -0.1, 0.1, 0.2, 0.3),
  })
  .map(({ t, profile, brand, column, by }) => {
    const b = t.brands[brand % Math.min(10, t.brands.length)]!;
    const rate = column < 0 ? b.rate : b.perPlatform[column]!;
    if (rate === null) return undefined;
    const moved = round1(r1(rate) + by);
    if (moved < 0) return undefined;
    const plain = render(t, profile);
    const row = plain.competitor.find((r) => r.kind === 'brand' && r.name === b.name);
    if (column < 0) row.exposure_rate = moved;
    else row.platform_rates[column].rate = moved;
    const beyond =
      profile === 'A' ? Math.abs(rate - moved) > 0.05 + 1e-9 : Math.abs(round1(rate) - moved) > 0.1 + 1e-9;
    const step = column < 0 ? '5.1' : '5.3';
    const what = `profile ${profile}, 「${b.name}」 ${column < 0 ? 'all-platform' : `column ${column + 1}`}: HTML ${rate}, platform ${moved}`;
    return { t, profile, step, beyond, plain, what };
  });

/**
 * Spec 7.8 / docs/rules.md §D13: one option's sources drawn from 9 titles (so repeated), with many
 * equal counts, 0 to 40 rows; the platform prints them in the report's order (a correct platform:
 * equal counts keep API order, 7.8.4) and may send only its first 30 to 45. Items 11 and 12 pass.
 */
export const repeatedTitlesArb = fc
  .record({
    t: truthArb,
    profile: fc.constantFrom<Profile>('A', 'B'),
    option: fc.nat({ max: 6 }),
    rows: fc.array(
      fc.record({
        title: fc.integer({ min: 0, max: 8 }),
        gap: fc.integer({ min: 0, max: 2 }),
        channel: fc.constantFrom('新闻', '百科'),
      }),
      { minLength: 1, maxLength: 40 },
    ),
    sent: fc.integer({ min: 30, max: 45 }),
  })
  .map(({ t, profile, option, rows, sent }) => {
    const o = OPTIONS_OF(t)[option]!;
    let count = 1 + rows.reduce((a, r) => a + r.gap, 0);
    const sources = rows.map((r) => {
      const s = { title: `${o}·来源${r.title}`, channel: r.channel, count };
      count -= r.gap;
      return s;
    });
    const plain = render({ ...t, sources: { ...t.sources, [o]: sources } }, profile);
    plain.sources[o] = plain.sources[o]!.slice(0, sent);
    const what = `profile ${profile}, option ${o}: ${JSON.stringify(sources.map((s) => [s.title, s.count]))}, platform sends ${sent}`;
    return { t, profile, option: o, plain, what };
  });
