import { between, mulberry32, round2, type Rng } from './prng';
import type { Dimension, ProjectSpec } from './spec';
import { buildGroups, buildSources, buildWordcloud } from './truth-media';
import { AI_PLATFORMS, DOMAINS } from './vocab';

/**
 * One seeded source of truth per project: KPIs, rankings, share groups, sources and words. The two
 * views (view-html.ts: DATA; view-platform.ts: payload rows) are derived from it and agree under
 * the spec's rules unless a scenario mutates one side.
 */

export interface Kpi {
  exposure: number;
  top3: number;
  top5: number;
  first: number;
  positive: number;
  brandExposure: number;
  productLink: number;
}

export interface PlatformTruth {
  key: string;
  trend: { date: string; kpi: Kpi }[];
  latest: Kpi;
}

export type Cell = 'value' | 'missing' | 'null';

export interface RankedTruth {
  name: string;
  kind: 'brand' | 'product';
  avg: number;
  per: number[];
  /** HTML cell per platform: a value, no entry in industry_ranking, or an entry with null (7.6). */
  cells: Cell[];
  /** Platform-only offset of one column (Profile B 0.1 near-miss, 9.3.2). */
  columnOffset?: { index: number; by: number };
}

export interface Entry {
  name: string;
  value: number;
}

/** A share group as the truth holds it: counts, or (7.3.5 case) fixed HTML percentages. */
export interface GroupTruth {
  kind: 'count' | 'percent';
  entries: Entry[];
}

export interface SourceTruth {
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

export const sumOf = (entries: readonly Entry[]) =>
  entries.reduce((s, e) => s + (e.value > 0 ? e.value : 0), 0);
export const byValueDesc = (a: Entry, b: Entry) => b.value - a.value;
