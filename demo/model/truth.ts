import fc from 'fast-check';
import type { TmcDimension } from '../../lib/schema/platform';
import type { Kpi as DemoKpi } from '../truth';

/**
 * One generated "truth" per case (docs/rules.md § Generated cases): what the report and the platform both show.
 * The unit families judge these cases in memory; the demo serves them whole (./projects.ts).
 * Rendered into DATA (./render.ts) and platform payloads, encoded every way the contract permits
 * (./encode.ts), then faulted or near-missed (./faults.ts).
 */

export const DIMENSIONS: TmcDimension[] = ['content_type', 'publish_time', 'media_category', 'media_name'];

/** The demo's KPI cards (demo/truth.ts), with a product-link rate that may have no value. */
export interface Kpi extends Omit<DemoKpi, 'productLink'> {
  productLink: number | null;
}

export interface Brand {
  name: string;
  /** HTML aggregate exposure rate, two decimals; the platform prints round1 of it. */
  rate: number;
  /** Per AI platform, null = no exposure (HTML empty cell, platform 「-」). */
  perPlatform: (number | null)[];
}

/** A share group: entries with their share of the whole group in tenths of a point (sum 1000). */
export interface Group {
  entries: { name: string; tenths: number }[];
  /** HTML value field: the percentage itself, or a count (tenths × factor, spec 7.3.4). */
  mode: 'percent' | 'count';
  factor: number;
}

export interface Source {
  title: string;
  channel: string;
  count: number;
}

export interface Truth {
  brand: string;
  platforms: { key: string; name: string; column: string }[];
  metric: 'first' | 'top3' | 'top5';
  /** B: the snapshot's first_position_rate is empty and top1_rate stands in (9.2). */
  firstViaTop1: boolean;
  reportType: 'monitor' | 'diagnosis';
  /** 'all' and each AI platform key. */
  kpi: Record<string, Kpi>;
  /** Earlier trend points (random values) and how many; the last point by date is the truth. */
  trendDates: string[];
  brands: Brand[];
  groups: Record<string, Record<TmcDimension, Group>>;
  sources: Record<string, Source[]>;
  words: { words: string[]; positive: string[]; negative: string[] };
  /**
   * The crawl batch id the snapshot rows name (`crawlBatchId`, contract §4.2): the batch the case's
   * batch list gives, as a platform answering that batch writes it (a model project's own id,
   * demo/model/projects.ts), since a row naming another batch is an error of the run.
   */
  batchId: string;
}

/** The batch id of a truth drawn for the unit families, which judge the rows without a batch list. */
export const TRUTH_BATCH_ID = 'M-TRUTH';

export const OPTIONS_OF = (t: Truth) => ['all', ...t.platforms.map((p) => p.key)];

export const PLATFORMS = [
  { key: 'doubao', name: '豆包', column: '豆包' },
  { key: 'deepseek', name: 'DeepSeek', column: 'DeepSeek' },
  { key: 'yuanbao', name: '元宝', column: '腾讯元宝' },
  { key: 'wenxin', name: '文心', column: '文心一言' },
  { key: 'qwen', name: '通义', column: '通义千问' },
  { key: 'kimi', name: 'Kimi', column: 'Kimi' },
];

const BRAND_POOL = [
  '蓝山乳业',
  '白云牧场',
  '青禾食品',
  '金穗牧业',
  '北岭奶业',
  '南湖乳品',
  '绿野牧场',
  '晨光乳业',
  '天池牧业',
  '雪原乳业',
  '碧水牧场',
  '山河乳品',
  '星海牧业',
  '清泉乳业',
];

const GROUP_POOL: Record<TmcDimension, string[]> = {
  content_type: ['图文', '视频', '问答', '百科', '论坛', '新闻稿'],
  publish_time: ['近一周', '近一月', '近三月', '更早', '无时间'],
  media_category: ['新闻', '自媒体', '百科', '问答', '政府', '其他', '未知'],
  media_name: ['人民网', '新浪', '搜狐', '网易', '腾讯', '知乎', '未知'],
};

const WORD_POOL = [
  '品质',
  '口感',
  '价格',
  '营养',
  '新鲜',
  '包装',
  '服务',
  '物流',
  '奶源',
  '口碑',
  '性价比',
  '甜度',
];
const CHANNELS = ['新闻', '百科', '问答', '自媒体', '论坛'];

/** A rate with two decimals in [lo, hi]. */
const rate2 = (lo: number, hi: number) => fc.integer({ min: lo * 100, max: hi * 100 }).map((n) => n / 100);

const kpiArb: fc.Arbitrary<Kpi> = fc.record({
  exposure: rate2(1, 95),
  top3: rate2(1, 95),
  top5: rate2(1, 95),
  first: rate2(1, 95),
  positive: rate2(1, 99),
  brandExposure: rate2(1, 95),
  productLink: fc.option(rate2(1, 60), { nil: null, freq: 3 }),
});

/**
 * Shares with a gap of at least 0.5 point between any two entries (so rounding on the platform never
 * makes a tie the HTML does not have), summing to exactly 100.0.
 */
function groupArb(dimension: TmcDimension): fc.Arbitrary<Group> {
  const pool = GROUP_POOL[dimension];
  return fc
    .record({
      names: fc.shuffledSubarray(pool, { minLength: 2, maxLength: Math.min(6, pool.length) }),
      weights: fc.uniqueArray(fc.integer({ min: 1, max: 30 }), { minLength: 6, maxLength: 6 }),
      mode: fc.constantFrom('percent' as const, 'count' as const),
      factor: fc.constantFrom(10, 20, 50),
    })
    .map(({ names, weights, mode, factor }) => {
      const w = weights.slice(0, names.length);
      const total = w.reduce((a, b) => a + b, 0);
      const tenths = w.map((x) => Math.floor((x * 1000) / total));
      const rest = 1000 - tenths.reduce((a, b) => a + b, 0);
      const largest = tenths.indexOf(Math.max(...tenths));
      tenths[largest]! += rest;
      return { entries: names.map((name, i) => ({ name, tenths: tenths[i]! })), mode, factor };
    });
}

const groupsArb = fc.record({
  content_type: groupArb('content_type'),
  publish_time: groupArb('publish_time'),
  media_category: groupArb('media_category'),
  media_name: groupArb('media_name'),
});

function sourcesArb(option: string): fc.Arbitrary<Source[]> {
  return fc
    .array(fc.record({ gap: fc.integer({ min: 0, max: 4 }), channel: fc.constantFrom(...CHANNELS) }), {
      maxLength: 32,
      // Up to 32 for real (the default size stops near 10): rows beyond the 30 compared are drawn too.
      size: 'max',
    })
    .map((rows) => {
      let count = 3 + rows.reduce((a, r) => a + r.gap, 0);
      return rows.map((r, i) => {
        const source = { title: `${option}·来源${i + 1}`, channel: r.channel, count };
        count -= r.gap;
        return source;
      });
    });
}

/** Aggregate rates 0.31 point or more apart (no accidental tie), all above 1 (0 is a B placeholder). */
const brandsArb: fc.Arbitrary<Brand[]> = fc
  .record({
    names: fc.shuffledSubarray(BRAND_POOL, { minLength: 4, maxLength: 13 }),
    base: fc.integer({ min: 150, max: 1000 }),
    gaps: fc.array(fc.integer({ min: 31, max: 600 }), { minLength: 13, maxLength: 13 }),
    perPlatform: fc.array(
      fc.array(fc.option(rate2(1, 99), { nil: null, freq: 6 }), { minLength: 6, maxLength: 6 }),
      { minLength: 13, maxLength: 13 },
    ),
  })
  .map(({ names, base, gaps, perPlatform }) => {
    let hundredths = base;
    const rates = names.map((_, i) => (i === 0 ? base : (hundredths += gaps[i]!))).reverse();
    return names.map((name, i) => ({ name, rate: rates[i]! / 100, perPlatform: perPlatform[i]! }));
  });

export const truthArb: fc.Arbitrary<Truth> = fc
  .record({
    own: fc.nat(),
    brands: brandsArb,
    metric: fc.constantFrom('first' as const, 'top3' as const, 'top5' as const),
    firstViaTop1: fc.boolean(),
    reportType: fc.constantFrom('monitor' as const, 'diagnosis' as const),
    kpi: fc.array(kpiArb, { minLength: 7, maxLength: 7 }),
    trendDates: fc.uniqueArray(fc.integer({ min: 1, max: 28 }), { minLength: 1, maxLength: 3 }),
    groups: fc.array(groupsArb, { minLength: 7, maxLength: 7 }),
    sources: fc.tuple(...['all', ...PLATFORMS.map((p) => p.key)].map(sourcesArb)),
    words: fc.shuffledSubarray(WORD_POOL, { minLength: 1, maxLength: 8 }),
    positive: fc.nat(),
    negative: fc.nat(),
  })
  .map((r) => {
    const options = ['all', ...PLATFORMS.map((p) => p.key)];
    const own = r.own % r.brands.length;
    const words = r.words;
    return {
      brand: r.brands[own]!.name,
      platforms: PLATFORMS,
      metric: r.metric,
      firstViaTop1: r.firstViaTop1,
      reportType: r.reportType,
      kpi: Object.fromEntries(options.map((o, i) => [o, r.kpi[i]!])),
      trendDates: r.trendDates.map((d) => `2026-11-${String(d).padStart(2, '0')}`),
      brands: r.brands,
      groups: Object.fromEntries(options.map((o, i) => [o, r.groups[i]!])),
      sources: Object.fromEntries(options.map((o, i) => [o, r.sources[i]!])),
      words: {
        words,
        positive: words.slice(0, r.positive % (words.length + 1)),
        negative: words.slice(words.length - (r.negative % Math.min(3, words.length + 1))),
      },
      batchId: TRUTH_BATCH_ID,
    };
  });
