import type { TmcDimension } from '../../lib/schema/platform';
import type { Profile } from '../../lib/rules/types';
import { platformShares } from '../shares';
import { DIMENSIONS, OPTIONS_OF, type Group, type Kpi, type Truth } from './truth';

/**
 * Truth → a plain DATA object and plain platform rows (numbers, null for "no value", bare answers),
 * as a correct report and a correct platform print them for `profile`. Encodings come later
 * (./encode.ts). The platform prints one decimal (7.1.1), the HTML two.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export interface Plain {
  data: Json;
  snapshot: Json[];
  competitor: Json[];
  tmc: Json[];
  sources: Record<string, Json[]>;
  wordcloud: Json;
}

/** The platform's one-decimal print of a value. */
export const r1 = (x: number) => Math.round(x * 10 + 1e-7) / 10;
const orNull = (x: number | null) => (x === null ? null : r1(x));

/**
 * The share each entry shows on the report (and the platform prints to one decimal), by spec rule:
 * the demo's share arithmetic (demo/shares.ts), so both data generators print the platform's side
 * of a group the same way. A legend group the HTML prints as percentages (7.3.3) keeps them as
 * printed, for the entries the chart keeps.
 */
export function shownShares(group: Group, dimension: TmcDimension, profile: Profile): Map<string, number> {
  const shares = platformShares(
    group.entries.map((e) => ({ name: e.name, value: e.tenths })),
    dimension,
    profile,
  );
  const legend = dimension === 'content_type' || dimension === 'publish_time';
  if (legend && group.mode === 'percent') {
    const kept = new Set(shares.map((s) => s.name));
    return new Map(group.entries.filter((e) => kept.has(e.name)).map((e) => [e.name, e.tenths / 10]));
  }
  return new Map(shares.map((s) => [s.name, s.value]));
}

function htmlGroup(group: Group): Json[] {
  return group.entries.map((e) => ({
    name: e.name,
    value: group.mode === 'percent' ? e.tenths / 10 : e.tenths * group.factor,
  }));
}

/** Platform tmc rows of one group: shown shares to one decimal; removed entries at their own share. */
function tmcRows(option: string, dimension: TmcDimension, group: Group, profile: Profile): Json[] {
  const shown = shownShares(group, dimension, profile);
  return group.entries.map((e) => ({
    platform: option,
    dimension,
    name: e.name,
    value: r1(shown.get(e.name) ?? e.tenths / 10),
  }));
}

function selfOf(k: Kpi): Json {
  return {
    exposure_rate: k.exposure,
    top3_rate: k.top3,
    top5_rate: k.top5,
    first_position_rate: k.first,
    positive_mention_rate: k.positive,
    brand_exposure_rate: k.brandExposure,
    product_link_rate: k.productLink,
  };
}

function trendOf(t: Truth, k: Kpi): Json[] {
  const last = [...t.trendDates].sort().at(-1);
  return t.trendDates.map((date) => {
    const { product_link_rate: _, ...point } = selfOf(k);
    if (date === last) return { date, ...point };
    return { date, ...Object.fromEntries(Object.keys(point).map((f) => [f, 7.77])) };
  });
}

function snapshotRow(t: Truth, platform: string, k: Kpi, exposure: number): Json {
  const viaTop1 = t.firstViaTop1;
  return {
    platform,
    exposure_rate: r1(exposure),
    top3_rate: r1(k.top3),
    top5_rate: r1(k.top5),
    first_position_rate: viaTop1 ? null : r1(k.first),
    top1_rate: viaTop1 ? r1(k.first) : r1(k.first + 11),
    position_rate: 99.9, // spec 9.2.2: never used
    positive_rate: r1(k.positive),
    brand_exposure_rate: r1(k.brandExposure),
    product_link_rate: orNull(k.productLink),
    crawlBatchId: t.batchId,
  };
}

export function render(t: Truth, profile: Profile): Plain {
  const own = t.brands.find((b) => b.name === t.brand)!;
  const kAll = t.kpi['all']!;
  const citation = (key: string) => ({
    ...Object.fromEntries(DIMENSIONS.map((d) => [d, htmlGroup(t.groups[key]![d])])),
    source_top30: t.sources[key]!.map((s) => ({ title: s.title, channel: s.channel, cite_count: s.count })),
  });
  const data: Json = {
    meta: {
      platforms: t.platforms.map((p) => ({ key: p.key, name: p.name })),
      position_metric: t.metric,
    },
    overall: { brand_level_exposure_rate: kAll.brandExposure },
    brand: {
      name: t.brand,
      summary: {
        avg_exposure_rate: own.rate,
        avg_positive_mention_rate: kAll.positive,
        avg_first_position_rate: kAll.first,
        avg_top3_rate: kAll.top3,
        avg_top5_rate: kAll.top5,
        product_link: kAll.productLink,
      },
      tmc_aggregate: Object.fromEntries(DIMENSIONS.map((d) => [d, htmlGroup(t.groups['all']![d])])),
      source_top30: citation('all').source_top30,
      core_competitors: t.brands
        .filter((b) => b !== own)
        .map((b) => ({ name: b.name, avg_exposure_rate: b.rate })),
      wordcloud: {
        words: t.words.words.map((word, i) => ({ word, weight: 10 - i })),
        positive: t.words.positive.map((word) => ({ word })),
        negative: t.words.negative.map((word) => ({ word })),
      },
      platforms: Object.fromEntries(
        t.platforms.map((p, i) => [
          p.key,
          {
            self: selfOf(t.kpi[p.key]!),
            trend: trendOf(t, t.kpi[p.key]!),
            industry_ranking: t.brands.flatMap((b) =>
              b.perPlatform[i] === null ? [] : [{ name: b.name, exposure_rate: b.perPlatform[i] }],
            ),
            citation: citation(p.key),
          },
        ]),
      ),
    },
  };
  const competitor = t.brands.map((b, i) => ({
    kind: 'brand',
    name: b.name,
    rank: i + 1,
    exposure_rate: r1(b.rate),
    platform_rates: t.platforms.map((p, j) => ({ name: p.column, rate: orNull(b.perPlatform[j] ?? null) })),
  }));
  if (profile === 'B') {
    // 9.5.2: product rows are on the platform and must be dropped at the brand level.
    competitor.push(
      ...['纯牛奶 250ml', '酸奶 1L'].map((name, i) => ({
        kind: 'product',
        name,
        rank: 90 + i,
        exposure_rate: 99 - i,
        platform_rates: t.platforms.map((p) => ({ name: p.column, rate: 50 })),
      })),
    );
  }
  return {
    data,
    snapshot: OPTIONS_OF(t).map((o) =>
      snapshotRow(t, o, t.kpi[o]!, o === 'all' ? own.rate : t.kpi[o]!.exposure),
    ),
    competitor,
    tmc: OPTIONS_OF(t).flatMap((o) => DIMENSIONS.flatMap((d) => tmcRows(o, d, t.groups[o]![d], profile))),
    sources: Object.fromEntries(
      OPTIONS_OF(t).map((o) => [
        o,
        t.sources[o]!.map((s, i) => ({
          title: s.title,
          channel: s.channel,
          cite_count: s.count,
          rank: i + 1,
        })),
      ]),
    ),
    wordcloud: {
      words: [...t.words.words].reverse().map((word, i) => ({ word, weight: i + 1 })),
      positive: t.words.positive.map((word) => ({ word, weight: 1 })),
      negative: t.words.negative.map((word) => ({ word, weight: 1 })),
    },
  };
}
