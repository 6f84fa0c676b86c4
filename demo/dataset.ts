import type { z } from 'zod';
import type { dataSchema } from '../lib/schema/data';
import type {
  batchItem,
  competitorRow,
  snapshotRow,
  sourceRow,
  tmcRow,
  wordcloudPayload,
} from '../lib/schema/platform';
import {
  between,
  intBetween,
  mulberry32,
  pick,
  round1,
  round2,
  shuffle,
  shuffleKeepingTies,
  type Rng,
} from './prng';
import {
  AI_PLATFORMS,
  CONTENT_TYPES,
  DOMAINS,
  MEDIA_CATEGORIES,
  MEDIA_HOSTS,
  MEDIA_NAMES,
  NO_TIME,
  OTHER,
  PUBLISH_TIMES,
  TITLE_TEMPLATES,
  UNKNOWN,
  type DomainKey,
} from './vocab';

/**
 * One seeded source of truth per project, and the two views derived from it: the report's DATA and
 * the platform payloads. Both views agree under the spec's rules unless a scenario mutates one side.
 * Where the two sides differ on purpose (rounding, formats, near-misses) the comment names the rule.
 */

export type DataInput = z.input<typeof dataSchema>;
export type BatchItemInput = z.input<typeof batchItem>;
export type SnapshotRowInput = z.input<typeof snapshotRow>;
export type CompetitorRowInput = z.input<typeof competitorRow>;
export type TmcRowInput = z.input<typeof tmcRow>;
export type SourceRowInput = z.input<typeof sourceRow>;
export type WordcloudInput = z.input<typeof wordcloudPayload>;
type RateInput = string | number | null | undefined;
type GroupInput = { name: string; value: string | number | null }[];

export type ReportType = 'monitor' | 'diagnosis';
export type Dimension = 'content_type' | 'publish_time' | 'media_category' | 'media_name';
const DIMENSIONS: readonly Dimension[] = ['content_type', 'publish_time', 'media_category', 'media_name'];

/** How the platform prints a rate: a number, a numeric string, or a string with `%` (contract 4.2). */
export type RateStyle = 'number' | 'string' | 'percent' | 'mixed';
/** How the platform prints "no value": `-`, `""`, `null`, or the key left out (contract 4.2). */
export type NoValue = '-' | '' | null | 'absent';
export type Envelope = 'bare' | 'code0' | 'code200';

export interface ProjectSpec {
  projectId: string;
  companyId: number;
  profile: 'A' | 'B';
  reportType: ReportType;
  /** YYYY-MM-DD. */
  batchDate: string;
  topic: string;
  domain: DomainKey;
  brand: string;
  line: string;
  seed: string;
  /** The crawl batch ids the metrics endpoint answers for (joined with `,` by the suite). */
  batchIds: string[];
  /** Whether the project appears in the batch list of its company and report type. */
  listed: boolean;
  /** Profile B: DATA.meta.position_metric. */
  positionMetric?: 'first' | 'top3' | 'top5';
  /** How the page declares DATA (contract 5). */
  dataDecl: 'const' | 'let' | 'var' | 'window';
  envelope: Envelope;
  rates: RateStyle;
  noValue: NoValue;
  shape: Shape;
}

/** The near-misses a dataset exercises. */
export interface Shape {
  /** Trend points (one per monitoring day or week); 0: no trend (Profile B diagnosis uses self, 9.2.3). */
  trendPoints: number;
  trendStepDays: number;
  /** Trend array order; `desc` proves "last point by date", not by position. */
  trendOrder: 'asc' | 'desc';
  /** `percent10`: ten percentages (legend cut at 8); `count7`: seven counts (7.3.3, 7.3.4). */
  contentType: 'percent10' | 'count7';
  /** Where 「无时间」 appears (7.3.2): only in the HTML percentages, only on the platform, or nowhere. */
  publishTime: 'html-no-time' | 'platform-no-time' | 'none';
  /** Platform media bars (7.4, 7.5): percentages, or raw counts (top-10 sum > 101.5 → divided). */
  mediaBars: 'percent' | 'count';
  /** A platform key whose content type is the 7.3.5 case (HTML 52.1 against platform 52). */
  doubleDivision?: string;
  /** HTML citation groups a platform does not have: not compared for that platform (contract 6). */
  missingCitation?: { key: string; group: Dimension | 'source_top30' }[];
  /** Platforms with fewer than 30 related sources on both sides (7.8.1). */
  shortSources?: Record<string, number>;
  /** API rows of competitor and source tables in a shuffled order (ties keep their order). */
  apiShuffle: boolean;
  /** HTML summary rates as strings like "23.44%" (contract 5: HTML follows the rate rules). */
  htmlRateStrings: boolean;
  /** A platform whose positive mention rate is exactly 100 (HTML prints "100", spec 7.1.1). */
  fullPositive?: string;
  /** HTML word weights normalized to 0..1, or left out (weights are never compared, 7.7.3). */
  htmlWeights: 'normalized' | 'absent';
  /** HTML sources carry `url`. */
  sourceUrls: boolean;
  /** `brand.platforms` keys in reverse display order (the display order is meta.platforms). */
  reversePlatformKeys?: boolean;
  /** DATA.meta.report_type as the page writes it (never a fallback for the URL, contract 1.1). */
  metaReportType?: string;
}

// ---------------------------------------------------------------------------------------------
// Truth

interface Kpi {
  exposure: number;
  top3: number;
  top5: number;
  first: number;
  positive: number;
  brandExposure: number;
  productLink: number;
}

interface PlatformTruth {
  key: string;
  trend: { date: string; kpi: Kpi }[];
  latest: Kpi;
}

type Cell = 'value' | 'missing' | 'null';

interface RankedTruth {
  name: string;
  kind: 'brand' | 'product';
  avg: number;
  per: number[];
  /** HTML cell per platform: a value, no entry in industry_ranking, or an entry with null (7.6). */
  cells: Cell[];
  /** Platform-only offset of one column (Profile B 0.1 near-miss, 9.3.2). */
  columnOffset?: { index: number; by: number };
}

interface Entry {
  name: string;
  value: number;
}

/** A share group as the truth holds it: counts, or (7.3.5 case) fixed platform percentages. */
interface GroupTruth {
  kind: 'count' | 'percent';
  entries: Entry[];
}

interface SourceTruth {
  title: string;
  channel: string;
  cite_count: number;
  url: string;
}

export interface Truth {
  spec: ProjectSpec;
  platforms: PlatformTruth[];
  summary: Kpi;
  brands: RankedTruth[];
  /** Profile B: core_competitors extras (sibling placeholder with rate 0, duplicate with a lower rate). */
  htmlOnlyCompetitors: { name: string; avg: number | string; after?: string }[];
  /** Profile B: platform API order reverses this near tie (a tie swap within 0.05, 9.5.5). */
  tieSwap?: [string, string];
  products: RankedTruth[];
  groups: Record<string, Record<Dimension, GroupTruth>>;
  sources: Record<string, SourceTruth[]>;
  wordcloud: { words: Entry[]; positive: Entry[]; negative: Entry[] };
}

const AGGREGATE = 'all';
const SCOPES = [AGGREGATE, ...AI_PLATFORMS.map((p) => p.key)];

function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** A value whose hundredth is `digit`, e.g. 31.4 + 0.04: HTML 31.44 against platform 31.4 (7.1). */
function withHundredth(x: number, digit: number): number {
  return round2(Math.floor(x * 10) / 10 + digit / 100);
}

/**
 * A brand exposure rate whose fraction is .20 to .44: the platform prints the integer (57), the
 * 1-decimal rule alone fails (57.4 against 57) and spec 9.3.4 (equal integers) passes it.
 */
function integerRuleValue(rng: Rng, x: number): number {
  return round2(Math.floor(x) + between(rng, 0.2, 0.44));
}

function latestKpi(rng: Rng): Kpi {
  const exposure = between(rng, 22, 58);
  const top5 = exposure * between(rng, 0.72, 0.9);
  const top3 = top5 * between(rng, 0.7, 0.88);
  const first = top3 * between(rng, 0.35, 0.6);
  return {
    exposure: round2(exposure),
    top5: round2(top5),
    top3: round2(top3),
    first: round2(first),
    positive: round2(between(rng, 82, 97)),
    brandExposure: integerRuleValue(rng, Math.min(exposure + between(rng, 6, 24), 92)),
    productLink: round2(between(rng, 6, 28)),
  };
}

function earlierKpi(rng: Rng, later: Kpi): Kpi {
  const drift = (x: number, spread: number, max = 99) =>
    round2(Math.min(max, Math.max(0.5, x + between(rng, -spread, spread))));
  const exposure = drift(later.exposure, 2.5);
  const top5 = Math.min(exposure, drift(later.top5, 2));
  const top3 = Math.min(top5, drift(later.top3, 2));
  return {
    exposure,
    top5,
    top3,
    first: Math.min(top3, drift(later.first, 1.5)),
    positive: drift(later.positive, 1.5),
    brandExposure: drift(later.brandExposure, 2),
    productLink: drift(later.productLink, 1.5),
  };
}

function buildPlatforms(rng: Rng, spec: ProjectSpec): PlatformTruth[] {
  const { trendPoints, trendStepDays } = spec.shape;
  return AI_PLATFORMS.map((p) => {
    const latest = latestKpi(rng);
    if (spec.shape.fullPositive === p.key) latest.positive = 100;
    const trend: { date: string; kpi: Kpi }[] = [];
    let kpi = latest;
    for (let i = 0; i < trendPoints; i++) {
      trend.unshift({ date: addDays(spec.batchDate, -i * trendStepDays), kpi });
      kpi = earlierKpi(rng, kpi);
    }
    return { key: p.key, trend, latest };
  });
}

function averageKpi(rng: Rng, platforms: PlatformTruth[]): Kpi {
  const mean = (f: (k: Kpi) => number) => platforms.reduce((s, p) => s + f(p.latest), 0) / platforms.length;
  return {
    // Hundredth 4: HTML 31.44 against platform 31.4 (a real sub-0.05 gap, 7.1.1).
    exposure: withHundredth(
      mean((k) => k.exposure),
      4,
    ),
    top3: withHundredth(
      mean((k) => k.top3),
      3,
    ),
    top5: round2(mean((k) => k.top5)),
    first: round2(mean((k) => k.first)),
    positive: withHundredth(
      mean((k) => k.positive),
      2,
    ),
    brandExposure: integerRuleValue(
      rng,
      mean((k) => k.brandExposure),
    ),
    productLink: round2(mean((k) => k.productLink)),
  };
}

/**
 * Rates sorted high to low around the own brand's rate, with gaps of at least 0.3 (so rounding to one
 * decimal never reorders them) except: `exactTie` (equal rates, printed order kept on both sides) and
 * `nearTie` (HTML differs by 0.02, platform prints the same one-decimal value).
 */
function rankedRates(
  rng: Rng,
  count: number,
  ownRank: number,
  own: number,
  exactTie: number,
  nearTie: number,
): number[] {
  const rates: number[] = new Array<number>(count).fill(0);
  rates[ownRank - 1] = own;
  for (let i = ownRank - 2; i >= 0; i--) rates[i] = round2((rates[i + 1] as number) + between(rng, 1.2, 4));
  const below = count - ownRank;
  const room = (own - 1) * between(rng, 0.55, 0.8);
  const weights = Array.from({ length: below }, () => between(rng, 0.7, 1.3));
  const scale = room / weights.reduce((a, b) => a + b, 0);
  for (let i = ownRank; i < count; i++) {
    const position = i + 1;
    const prev = rates[i - 1] as number;
    if (position === exactTie + 1) rates[i] = prev;
    else if (position === nearTie + 1) rates[i] = round2(prev - 0.02);
    else {
      const next = round2(prev - Math.max(0.45, (weights[i - ownRank] as number) * scale));
      // Hundredth 3 or 4 at the upper end of a near tie: both round down to the same decimal.
      rates[i] = position === nearTie ? withHundredth(next, 3) : next;
    }
  }
  return rates;
}

function perPlatform(rng: Rng, avg: number): number[] {
  return AI_PLATFORMS.map(() => round2(Math.min(95, Math.max(0.3, avg * between(rng, 0.6, 1.4)))));
}

function buildBrands(rng: Rng, spec: ProjectSpec, platforms: PlatformTruth[], summary: Kpi) {
  const domain = DOMAINS[spec.domain];
  const competitors: string[] = [...domain.competitors];
  const count = competitors.length + 1;
  const B = spec.profile === 'B';
  const ownRank = B ? (spec.reportType === 'monitor' ? 2 : 3) : spec.reportType === 'monitor' ? 3 : 4;
  const exactTie = B ? 7 : 6;
  const nearTie = B ? 5 : 8;
  const rates = rankedRates(rng, count, ownRank, summary.exposure, exactTie, nearTie);
  const names = [...competitors];
  names.splice(ownRank - 1, 0, spec.brand);
  const brands: RankedTruth[] = names.map((name, i) => {
    const avg = rates[i] as number;
    const per = name === spec.brand ? platforms.map((p) => p.latest.exposure) : perPlatform(rng, avg);
    return { name, kind: 'brand', avg, per, cells: AI_PLATFORMS.map((): Cell => 'value') };
  });
  // 「-」 cells (7.6): one top-10 competitor has no entry on 文心一言, another a null rate on Kimi.
  const inTop10 = brands.slice(ownRank, 10);
  (inTop10[1] as RankedTruth).cells[5] = 'missing';
  (inTop10[3] as RankedTruth).cells[2] = 'null';
  const htmlOnlyCompetitors: Truth['htmlOnlyCompetitors'] = [];
  let tieSwap: [string, string] | undefined;
  if (B) {
    // 9.3.2: a one-decimal gap of 0.1 in a platform column passes in Profile B.
    (inTop10[2] as RankedTruth).columnOffset = { index: 0, by: 0.1 };
    tieSwap = [(brands[nearTie - 1] as RankedTruth).name, (brands[nearTie] as RankedTruth).name];
    const duplicate = brands[ownRank + 1] as RankedTruth;
    // 9.5.3: equal names keep the maximum; a sibling placeholder with rate 0 is skipped.
    htmlOnlyCompetitors.push({
      name: duplicate.name,
      avg: round2(duplicate.avg - between(rng, 3, 6)),
      after: duplicate.name,
    });
    htmlOnlyCompetitors.push({ name: `${spec.brand}厨电`, avg: spec.reportType === 'monitor' ? 0 : '0.00' });
  }
  return { brands, htmlOnlyCompetitors, tieSwap };
}

function buildProducts(rng: Rng, spec: ProjectSpec): RankedTruth[] {
  if (spec.profile !== 'B') return [];
  const domain = DOMAINS[spec.domain];
  const makers = [spec.brand, spec.brand, ...domain.competitors.slice(0, 3)];
  let rate = between(rng, 52, 66);
  return makers.map((maker, i) => {
    const avg = round2(rate);
    rate -= between(rng, 2.5, 8);
    return {
      name: `${maker} ${domain.models[i % domain.models.length] as string}`,
      kind: 'product' as const,
      avg,
      per: perPlatform(rng, avg),
      cells: AI_PLATFORMS.map((): Cell => 'value'),
    };
  });
}

/** Counts whose shares differ by at least `minGap` points, so no rounding reorders them. */
function distinctCounts(rng: Rng, n: number, total: number, minGap = 0.3): number[] {
  for (let attempt = 0; attempt < 2000; attempt++) {
    const weights = Array.from({ length: n }, (_, i) => between(rng, 0.45, 1) * 0.82 ** i);
    const sum = weights.reduce((a, b) => a + b, 0);
    const counts = weights.map((w) => Math.max(3, Math.round((total * w) / sum)));
    const countSum = counts.reduce((a, b) => a + b, 0);
    const shares = counts.map((c) => (c / countSum) * 100).sort((a, b) => b - a);
    if (shares.every((s, i) => i === 0 || (shares[i - 1] as number) - s >= minGap)) return counts;
  }
  throw new Error('demo dataset: could not draw distinct counts');
}

function named(rng: Rng, names: readonly string[], counts: number[]): Entry[] {
  const order = shuffle(rng, names);
  return counts.map((value, i) => ({ name: order[i] as string, value }));
}

function buildGroups(rng: Rng, spec: ProjectSpec): Truth['groups'] {
  const groups: Truth['groups'] = {};
  for (const scope of SCOPES) {
    const total = scope === AGGREGATE ? intBetween(rng, 2400, 4200) : intBetween(rng, 500, 1100);
    const contentNames = spec.shape.contentType === 'percent10' ? CONTENT_TYPES : CONTENT_TYPES.slice(0, 7);
    const content: GroupTruth =
      spec.shape.doubleDivision === scope
        ? {
            kind: 'percent',
            entries: [52, 23.4, 14.2, 10.2].map((value, i) => ({ name: CONTENT_TYPES[i] as string, value })),
          }
        : {
            kind: 'count',
            entries: named(rng, contentNames, distinctCounts(rng, contentNames.length, total)),
          };
    const times = named(rng, PUBLISH_TIMES, distinctCounts(rng, PUBLISH_TIMES.length, total));
    const timeSum = times.reduce((s, e) => s + e.value, 0);
    // 「无时间」: ~0.4 % where the HTML keeps it in its percentages, ~8 % where the platform lists it.
    const noTimeShare =
      spec.shape.publishTime === 'html-no-time' ? between(rng, 0.003, 0.005) : between(rng, 0.07, 0.1);
    if (spec.shape.publishTime !== 'none')
      times.push({
        name: NO_TIME,
        value: Math.max(1, Math.round((timeSum * noTimeShare) / (1 - noTimeShare))),
      });
    const media = named(rng, MEDIA_CATEGORIES, distinctCounts(rng, MEDIA_CATEGORIES.length, total));
    const mediaSum = media.reduce((s, e) => s + e.value, 0);
    // 其他 + 未知 are a real part of the whole (5-9 %): computing Profile B the Profile A way fails (9.4.2).
    media.push({ name: OTHER, value: Math.round(mediaSum * between(rng, 0.03, 0.05)) });
    media.push({ name: UNKNOWN, value: Math.round(mediaSum * between(rng, 0.02, 0.04)) });
    const mediaNames = named(rng, shuffle(rng, MEDIA_NAMES).slice(0, 10), distinctCounts(rng, 10, total));
    const nameSum = mediaNames.reduce((s, e) => s + e.value, 0);
    mediaNames.push({ name: OTHER, value: Math.round(nameSum * between(rng, 0.04, 0.08)) });
    mediaNames.push({ name: UNKNOWN, value: Math.round(nameSum * between(rng, 0.01, 0.03)) });
    groups[scope] = {
      content_type: content,
      publish_time: { kind: 'count', entries: times },
      media_category: { kind: 'count', entries: media },
      media_name: { kind: 'count', entries: mediaNames },
    };
  }
  return groups;
}

function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, k: string) => values[k] ?? '');
}

function titlePool(rng: Rng, spec: ProjectSpec): string[] {
  const domain = DOMAINS[spec.domain];
  const brands: string[] = [spec.brand, ...domain.competitors];
  const pool = new Set<string>();
  for (let i = 0; pool.size < 90 && i < 5000; i++) {
    const [b, b2] = shuffle(rng, brands);
    pool.add(
      fill(pick(rng, TITLE_TEMPLATES), {
        c: domain.category,
        b: b as string,
        b2: b2 as string,
        m: pick(rng, domain.models),
        f: pick(rng, domain.features),
        n: String(intBetween(rng, 5, 12)),
      }),
    );
  }
  return [...pool];
}

/** Cited counts, highest first, with ties (7.8.4: equal counts keep API order). */
function citeCounts(rng: Rng, n: number): number[] {
  const counts = [intBetween(rng, 40, 66)];
  for (let i = 1; i < n; i++) {
    const forcedTie = i === 4 || i === 11 || i === 12;
    const step = forcedTie ? 0 : pick(rng, [0, 1, 1, 1, 2, 2, 3]);
    counts.push(Math.max(1, (counts[i - 1] as number) - step));
  }
  return counts;
}

function buildSources(rng: Rng, spec: ProjectSpec): Truth['sources'] {
  const pool = titlePool(rng, spec);
  const sources: Truth['sources'] = {};
  for (const scope of SCOPES) {
    const n = spec.shape.shortSources?.[scope] ?? 30;
    const titles = shuffle(rng, pool).slice(0, n);
    const counts = citeCounts(rng, n);
    sources[scope] = titles.map((title, i) => {
      const channel = pick(rng, MEDIA_NAMES);
      return {
        title,
        channel,
        cite_count: counts[i] as number,
        url: `https://${MEDIA_HOSTS[channel] ?? 'www.example.com'}/p/${intBetween(rng, 10_000_000, 99_999_999)}`,
      };
    });
  }
  return sources;
}

function buildWordcloud(rng: Rng, spec: ProjectSpec): Truth['wordcloud'] {
  const domain = DOMAINS[spec.domain];
  const weigh = (words: readonly string[], max: number) =>
    words.map((name) => ({ name, value: intBetween(rng, 4, max) }));
  return {
    words: weigh([...domain.words, spec.brand, ...domain.competitors.slice(0, 4)], 160),
    positive: weigh(domain.positive, 60),
    negative: weigh(domain.negative, 20),
  };
}

export function buildTruth(spec: ProjectSpec): Truth {
  const rng = mulberry32(spec.seed);
  const platforms = buildPlatforms(rng, spec);
  const summary = averageKpi(rng, platforms);
  const { brands, htmlOnlyCompetitors, tieSwap } = buildBrands(rng, spec, platforms, summary);
  return {
    spec,
    platforms,
    summary,
    brands,
    htmlOnlyCompetitors,
    ...(tieSwap ? { tieSwap } : {}),
    products: buildProducts(rng, spec),
    groups: buildGroups(rng, spec),
    sources: buildSources(rng, spec),
    wordcloud: buildWordcloud(rng, spec),
  };
}

// ---------------------------------------------------------------------------------------------
// Share arithmetic: what each chart shows (spec 7.3 to 7.5, 9.4)

const sumOf = (entries: readonly Entry[]) => entries.reduce((s, e) => s + (e.value > 0 ? e.value : 0), 0);
const isDropped = (name: string) => name === OTHER || name === UNKNOWN;

/**
 * The shares the platform screen shows for a count group, by dimension and profile. Publish time:
 * where the HTML prints percentages that still include a small 「无时间」, the platform's
 * percentages are over the same whole (the suite uses both directly, 7.3.3); otherwise over the
 * dated entries (7.3.2).
 */
function platformShares(spec: ProjectSpec, dimension: Dimension, entries: Entry[]): Entry[] {
  if (dimension === 'content_type')
    return entries.map((e) => ({ name: e.name, value: (e.value / sumOf(entries)) * 100 }));
  if (dimension === 'publish_time') {
    const dated = entries.filter((e) => e.name !== NO_TIME);
    const denominator = spec.shape.publishTime === 'html-no-time' ? sumOf(entries) : sumOf(dated);
    return dated.map((e) => ({ name: e.name, value: (e.value / denominator) * 100 }));
  }
  const profile = spec.profile;
  const kept = entries.filter((e) => !isDropped(e.name));
  // 9.4.2: Profile B media type over the whole group; 7.4 / 7.5: over the remaining values.
  const denominator = dimension === 'media_category' && profile === 'B' ? sumOf(entries) : sumOf(kept);
  return kept.map((e) => ({ name: e.name, value: (e.value / denominator) * 100 }));
}

const byValueDesc = (a: Entry, b: Entry) => b.value - a.value;

// ---------------------------------------------------------------------------------------------
// Platform view

/** Formats rates the way one project's platform prints them. */
class RateFormat {
  private n = 0;
  constructor(
    private readonly style: RateStyle,
    private readonly none: NoValue,
  ) {}

  private styled(text: string, asPercent: boolean): string | number {
    const style =
      this.style === 'mixed' ? (['number', 'string', 'percent'] as const)[this.n++ % 3] : this.style;
    if (style === 'number') return Number(text);
    return style === 'percent' && asPercent ? `${text}%` : text;
  }

  /** One decimal, as the platform prints (7.1.1); `null` is the project's "no value". */
  rate(value: number | null | undefined): RateInput {
    if (value === null || value === undefined) return this.none === 'absent' ? undefined : this.none;
    return this.styled(round1(value).toFixed(1), true);
  }

  /** A value printed as given: integers (9.3.4) and the 7.3.5 percentages. */
  plain(value: number): string | number {
    return this.styled(String(value), true);
  }

  /** A count (7.4 bar rule): never with `%`. */
  count(value: number): string | number {
    return this.styled(String(value), false);
  }
}

function withValue<T extends object>(row: T, key: string, value: RateInput): T {
  return value === undefined ? row : { ...row, [key]: value };
}

/** The platform payloads of one project (rows only; the server adds envelopes and faults). */
export interface PlatformView {
  /** Rows carry `crawlBatchId` = the project's first batch id. */
  snapshot: SnapshotRowInput[];
  competitor: CompetitorRowInput[];
  tmc: TmcRowInput[];
  source: Record<string, SourceRowInput[]>;
  wordcloud: WordcloudInput;
}

function snapshotRows(truth: Truth, crawlBatchId: string): SnapshotRowInput[] {
  const { spec } = truth;
  const f = new RateFormat(spec.rates, spec.noValue);
  const B = spec.profile === 'B';
  const metric = spec.positionMetric ?? 'top3';
  const row = (
    platform: string,
    k: Kpi,
    offset: Partial<Record<'exposure' | 'positive', number>>,
  ): SnapshotRowInput => {
    const aggregate = platform === AGGREGATE;
    const fields: [string, RateInput][] = [
      ['exposure_rate', f.rate(k.exposure + (offset.exposure ?? 0))],
      ['top3_rate', f.rate(k.top3)],
      ['top5_rate', f.rate(spec.reportType === 'monitor' && !B ? null : k.top5)],
      // 9.2: metric `first` with first_position_rate left empty, so top1_rate stands in.
      ['first_position_rate', metric === 'first' ? '' : f.rate(k.first)],
      ['top1_rate', f.rate(spec.reportType === 'monitor' && !B ? null : k.first)],
      // 9.2.2 trap: position_rate holds the line's top-3 (or top-5) display, never the first-position rate.
      ['position_rate', f.rate(metric === 'top5' ? k.top5 : k.top3)],
      ['positive_rate', f.rate(k.positive + (offset.positive ?? 0))],
      // 9.3.4: the platform prints brand exposure as an integer (the aggregate always, per platform in monitor).
      [
        'brand_exposure_rate',
        !B
          ? f.rate(null)
          : aggregate || spec.reportType === 'monitor'
            ? f.plain(Math.round(k.brandExposure))
            : f.rate(k.brandExposure),
      ],
      [
        'product_link_rate',
        !B ? undefined : aggregate || spec.reportType === 'monitor' ? f.rate(k.productLink) : f.rate(null),
      ],
    ];
    return fields.reduce<SnapshotRowInput>((r, [key, value]) => withValue(r, key, value), {
      platform,
      crawlBatchId,
    });
  };
  return [
    // 9.3.2: in Profile B, a 0.1 gap after rounding passes (aggregate positive rate, one platform's exposure).
    row(AGGREGATE, truth.summary, B ? { positive: -0.1 } : {}),
    ...truth.platforms.map((p, i) => row(p.key, p.latest, B && i === 1 ? { exposure: 0.1 } : {})),
  ];
}

/** Anti-collision rank numbers: screen position, reversed inside ties, first two swapped (7.6, 7.8.4). */
function scrambledRanks(values: number[]): number[] {
  const ranks = values.map((_, i) => i + 1);
  for (let i = 0; i < values.length;) {
    let j = i;
    while (j + 1 < values.length && values[j + 1] === values[i]) j++;
    const slice = ranks.slice(i, j + 1).reverse();
    ranks.splice(i, slice.length, ...slice);
    i = j + 1;
  }
  if (ranks.length > 2) [ranks[1], ranks[2]] = [ranks[2] as number, ranks[1] as number];
  return ranks;
}

function competitorRows(truth: Truth): CompetitorRowInput[] {
  const { spec } = truth;
  const f = new RateFormat(spec.rates, spec.noValue);
  const rng = mulberry32(`${spec.seed}/competitor`);
  // Screen order: by the printed (one-decimal) rate, equal rates in the HTML's order; the Profile B
  // tie swap reverses one near tie (within 0.05, 9.5.5).
  const all = [...truth.brands, ...truth.products].map((r, i) => ({ r, i, shown: round1(r.avg) }));
  all.sort((a, b) => b.shown - a.shown || a.i - b.i);
  if (truth.tieSwap) {
    const [first, second] = truth.tieSwap.map((n) =>
      all.findIndex((x) => x.r.name === n && x.r.kind === 'brand'),
    );
    if (first !== undefined && second !== undefined && first >= 0 && second >= 0) {
      [all[first], all[second]] = [all[second] as (typeof all)[number], all[first] as (typeof all)[number]];
    }
  }
  const ranks = scrambledRanks(all.map((x) => x.shown));
  const rows = all.map(({ r }, i) => ({
    kind: r.kind,
    name: r.name,
    rank: ranks[i] as number,
    exposure_rate: f.rate(r.avg) as string | number,
    platform_rates: AI_PLATFORMS.map((p, c) => ({
      name: p.platformName,
      rate:
        r.cells[c] === 'value'
          ? (f.rate((r.per[c] as number) + (r.columnOffset?.index === c ? r.columnOffset.by : 0)) ?? '-')
          : '-',
    })),
    shown: round1(r.avg),
  }));
  const ordered = spec.shape.apiShuffle ? shuffleKeepingTies(rng, rows, (r) => r.shown) : rows;
  return ordered.map(({ shown: _shown, ...row }) => row);
}

function tmcRows(truth: Truth): TmcRowInput[] {
  const { spec } = truth;
  const f = new RateFormat(spec.rates, spec.noValue);
  const rows: TmcRowInput[] = [];
  for (const scope of SCOPES) {
    const groups = truth.groups[scope] as Record<Dimension, GroupTruth>;
    for (const dimension of DIMENSIONS) {
      const group = groups[dimension];
      const push = (name: string, value: string | number | null | undefined) =>
        rows.push({ platform: scope, dimension, name, value: value ?? null });
      if (group.kind === 'percent') {
        // 7.3.5: the platform prints the percentages as they are (52); the HTML divided them again.
        for (const e of [...group.entries].sort(byValueDesc)) push(e.name, f.plain(e.value));
        continue;
      }
      const media = dimension === 'media_category' || dimension === 'media_name';
      if (media && spec.shape.mediaBars === 'count') {
        // 7.4: raw counts; their top-10 sum is far above 101.5, so the bar divides by it.
        for (const e of group.entries.filter((x) => !isDropped(x.name)).sort(byValueDesc))
          push(e.name, f.count(e.value));
        continue;
      }
      for (const e of platformShares(spec, dimension, group.entries).sort(byValueDesc))
        push(e.name, f.rate(e.value));
      if (dimension === 'publish_time' && spec.shape.publishTime === 'platform-no-time') {
        const noTime = group.entries.find((e) => e.name === NO_TIME) as Entry;
        push(NO_TIME, f.rate((noTime.value / sumOf(group.entries)) * 100));
      }
      if (dimension === 'media_category' && spec.profile === 'B') {
        // The platform lists 其他 and 未知 too; both sides drop them before the top 10 (9.4.2).
        for (const e of group.entries.filter((x) => isDropped(x.name)))
          push(e.name, f.rate((e.value / sumOf(group.entries)) * 100));
      }
    }
  }
  return rows;
}

function sourceRows(truth: Truth): Record<string, SourceRowInput[]> {
  const rng = mulberry32(`${truth.spec.seed}/source`);
  const out: Record<string, SourceRowInput[]> = {};
  for (const scope of SCOPES) {
    const list = truth.sources[scope] as SourceTruth[];
    const ranks = scrambledRanks(list.map((s) => s.cite_count));
    const rows = list.map((s, i) => ({
      title: s.title,
      channel: s.channel,
      cite_count: s.cite_count,
      rank: ranks[i] as number,
      url: s.url,
    }));
    out[scope] = truth.spec.shape.apiShuffle ? shuffleKeepingTies(rng, rows, (r) => r.cite_count) : rows;
  }
  return out;
}

function platformWordcloud(truth: Truth): WordcloudInput {
  const rng = mulberry32(`${truth.spec.seed}/words`);
  const list = (entries: Entry[]) => shuffle(rng, entries).map((e) => ({ word: e.name, weight: e.value }));
  return {
    words: list(truth.wordcloud.words),
    positive: list(truth.wordcloud.positive),
    negative: list(truth.wordcloud.negative),
  };
}

export function platformView(truth: Truth): PlatformView {
  return {
    snapshot: snapshotRows(truth, truth.spec.batchIds[0] ?? ''),
    competitor: competitorRows(truth),
    tmc: tmcRows(truth),
    source: sourceRows(truth),
    wordcloud: platformWordcloud(truth),
  };
}

// ---------------------------------------------------------------------------------------------
// HTML view (DATA)

function htmlRate(truth: Truth, value: number): string | number {
  if (!truth.spec.shape.htmlRateStrings) return value;
  return value === 0 || value === 100 ? `${value}%` : `${value.toFixed(2)}%`;
}

function htmlGroup(truth: Truth, scope: string, dimension: Dimension): GroupInput {
  const { spec } = truth;
  const group = (truth.groups[scope] as Record<Dimension, GroupTruth>)[dimension];
  if (group.kind === 'percent') {
    // 7.3.5: the HTML divided the platform's percentages (sum 99.8) by their sum once more: 52 → 52.1.
    const sum = sumOf(group.entries);
    return group.entries.map((e) => ({ name: e.name, value: round1((e.value / sum) * 100) }));
  }
  const asPercent = (entries: Entry[]) =>
    entries.map((e) => ({ name: e.name, value: round2((e.value / sumOf(group.entries)) * 100) }));
  if (dimension === 'content_type' && spec.shape.contentType === 'percent10') return asPercent(group.entries);
  if (dimension === 'publish_time') {
    // 7.3.2: the HTML keeps 「无时间」 (small) in its percentages; or counts without it.
    if (spec.shape.publishTime === 'html-no-time') return asPercent(group.entries);
    return group.entries.filter((e) => e.name !== NO_TIME).map((e) => ({ name: e.name, value: e.value }));
  }
  return group.entries.map((e) => ({ name: e.name, value: e.value }));
}

function htmlSources(truth: Truth, scope: string) {
  return (truth.sources[scope] as SourceTruth[]).map((s) => ({
    title: s.title,
    channel: s.channel,
    cite_count: s.cite_count,
    ...(truth.spec.shape.sourceUrls ? { url: s.url } : {}),
  }));
}

function industryRanking(truth: Truth, list: RankedTruth[], column: number) {
  return list
    .filter((b) => b.cells[column] !== 'missing')
    .map((b) => ({
      name: b.name,
      exposure_rate: b.cells[column] === 'null' ? null : (b.per[column] as number),
    }))
    .sort((a, b) => (b.exposure_rate ?? -1) - (a.exposure_rate ?? -1));
}

function trendPoint(truth: Truth, date: string, k: Kpi) {
  const B = truth.spec.profile === 'B';
  return {
    date,
    exposure_rate: k.exposure,
    top3_rate: k.top3,
    top5_rate: k.top5,
    first_position_rate: k.first,
    positive_mention_rate: k.positive,
    ...(B ? { brand_exposure_rate: k.brandExposure } : {}),
  };
}

function platformData(truth: Truth, p: PlatformTruth, column: number) {
  const { spec } = truth;
  const B = spec.profile === 'B';
  const missing = new Set(
    (spec.shape.missingCitation ?? []).filter((m) => m.key === p.key).map((m) => m.group),
  );
  const citation: Record<string, unknown> = { media_category: htmlGroup(truth, p.key, 'media_category') };
  for (const dimension of ['content_type', 'publish_time', 'media_name'] as const) {
    if (!missing.has(dimension)) citation[dimension] = htmlGroup(truth, p.key, dimension);
  }
  if (!missing.has('source_top30')) citation.source_top30 = htmlSources(truth, p.key);
  const trend = p.trend.map((t) => trendPoint(truth, t.date, t.kpi));
  return {
    self: {
      exposure_rate: p.latest.exposure,
      top3_rate: p.latest.top3,
      top5_rate: p.latest.top5,
      first_position_rate: p.latest.first,
      positive_mention_rate: p.latest.positive,
      ...(B ? { brand_exposure_rate: p.latest.brandExposure } : {}),
      // 9.2: per-platform product link only where the platform has it per platform (monitor).
      ...(B && spec.reportType === 'monitor' ? { product_link_rate: p.latest.productLink } : {}),
    },
    trend: spec.shape.trendOrder === 'desc' ? trend.reverse() : trend,
    industry_ranking: industryRanking(truth, truth.brands, column),
    citation: citation as DataInput['brand']['platforms'][string]['citation'],
  };
}

function coreCompetitors(truth: Truth) {
  const rng = mulberry32(`${truth.spec.seed}/core`);
  const competitors = truth.brands.filter((b) => b.name !== truth.spec.brand);
  // Printed order: any order, but equal rates keep theirs (7.6: "equal rates keep the order each side printed").
  const ordered = truth.spec.shape.apiShuffle
    ? shuffleKeepingTies(rng, competitors, (b) => b.avg)
    : competitors;
  const list: { name: string; avg_exposure_rate: string | number | null }[] = ordered.map((b) => ({
    name: b.name,
    avg_exposure_rate: b.avg,
  }));
  for (const extra of truth.htmlOnlyCompetitors) {
    const at = extra.after ? list.findIndex((c) => c.name === extra.after) + 1 : list.length;
    list.splice(at > 0 ? at : list.length, 0, { name: extra.name, avg_exposure_rate: extra.avg });
  }
  return list;
}

export function htmlData(truth: Truth): DataInput {
  const { spec, summary } = truth;
  const B = spec.profile === 'B';
  const keys = AI_PLATFORMS.map((_, i) => i);
  const platforms = Object.fromEntries(
    (spec.shape.reversePlatformKeys ? [...keys].reverse() : keys).map((i) => {
      const p = truth.platforms[i] as PlatformTruth;
      return [p.key, platformData(truth, p, i)];
    }),
  );
  const tmcAggregate = Object.fromEntries(
    DIMENSIONS.map((d) => [d, htmlGroup(truth, AGGREGATE, d)]),
  ) as DataInput['brand']['tmc_aggregate'];
  const rng = mulberry32(`${spec.seed}/html-words`);
  const maxWeight = Math.max(...truth.wordcloud.words.map((w) => w.value));
  const words = (entries: Entry[]) =>
    [...entries]
      .sort(byValueDesc)
      .map((e) =>
        spec.shape.htmlWeights === 'absent'
          ? { word: e.name }
          : { word: e.name, weight: Math.round((e.value / maxWeight) * 1000) / 1000 },
      );
  const data: DataInput = {
    meta: {
      report_type: spec.shape.metaReportType ?? spec.reportType,
      topic: spec.topic,
      company_id: spec.companyId,
      project_id: spec.projectId,
      batch_date: spec.batchDate,
      mode: 'full',
      ...(B ? { position_metric: spec.positionMetric ?? 'top3' } : {}),
      line: spec.line,
      platforms: AI_PLATFORMS.map((p) => ({
        key: p.key,
        name: p.name,
        ...(p.shortName ? { short_name: p.shortName } : {}),
      })),
    },
    ...(B ? { overall: { brand_level_exposure_rate: summary.brandExposure } } : {}),
    brand: {
      name: spec.brand,
      summary: {
        avg_exposure_rate: htmlRate(truth, summary.exposure),
        avg_positive_mention_rate: htmlRate(truth, summary.positive),
        avg_first_position_rate: htmlRate(truth, summary.first),
        avg_top3_rate: htmlRate(truth, summary.top3),
        avg_top5_rate: htmlRate(truth, summary.top5),
        ...(B ? { product_link: htmlRate(truth, summary.productLink) } : {}),
      },
      tmc_aggregate: tmcAggregate,
      source_top30: htmlSources(truth, AGGREGATE),
      core_competitors: coreCompetitors(truth),
      wordcloud: {
        words: words(truth.wordcloud.words),
        positive: words(truth.wordcloud.positive),
        negative: words(truth.wordcloud.negative),
      },
      platforms,
    },
  };
  if (B) {
    data.core_product_competitors = shuffle(rng, truth.products).map((p) => ({
      name: p.name,
      avg_exposure_rate: p.avg,
    }));
    data.product_ranking = Object.fromEntries(
      AI_PLATFORMS.map((p, i) => [p.key, industryRanking(truth, truth.products, i)]),
    );
  }
  return data;
}
