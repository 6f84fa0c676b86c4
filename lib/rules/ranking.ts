import type { CompetitorEntry, PlatformMeta, RankingEntry } from '../schema/data';
import type { CompetitorRow } from '../schema/platform';
import {
  AI_PLATFORM_COUNT,
  aiPlatforms,
  countRow,
  missingGroupRow,
  notComparedNote,
  stableSortDesc,
} from './groups';
import { cleanGap, percentRow } from './percent';
import {
  ITEM_TITLES,
  exactRow,
  makeItem,
  makeStep,
  type ComparisonRow,
  type ItemResult,
  type RuleContext,
  type StepResult,
} from './types';

/** Spec 8.2: ranking depth compared. */
export const RANKING_DEPTH = 10;
/** Spec 8.2 / 9.5.5: Profile B ranking, rates tied within 0.05. */
export const TIE_TOLERANCE = 0.05;

interface Ranked {
  name: string;
  exposureRate: number | null;
}
interface PlatformRanked extends Ranked {
  row: CompetitorRow;
}
/** One side's ranking: every entry sorted by exposure rate (stable), and its top 10. */
interface Ranking<T extends Ranked> {
  all: T[];
  top10: T[];
}

function rankingOf<T extends Ranked>(entries: T[]): Ranking<T> {
  const all = stableSortDesc(entries, (e) => e.exposureRate);
  return { all, top10: all.slice(0, RANKING_DEPTH) };
}

function findByName<T extends Ranked>(entries: T[], name: string): T | undefined {
  return entries.find((e) => e.name === name);
}

/** Spec 9.5.1: the product level is a Profile B option, used only when the run asks for it. */
function isProductLevel(ctx: RuleContext): boolean {
  return ctx.profile === 'B' && ctx.level === 'product';
}

function fromCompetitor(c: CompetitorEntry): Ranked {
  return { name: c.name, exposureRate: c.avg_exposure_rate };
}

/** Spec 9.5.3: the maximum rate is kept for equal names, at the position the name first appears. */
function maxForEqualNames(entries: Ranked[]): Ranked[] {
  const byName = new Map<string, Ranked>();
  for (const e of entries) {
    const kept = byName.get(e.name);
    if (!kept) byName.set(e.name, { ...e });
    else if (e.exposureRate !== null && (kept.exposureRate === null || e.exposureRate > kept.exposureRate)) {
      kept.exposureRate = e.exposureRate;
    }
  }
  return [...byName.values()];
}

/** Spec 9.5.3: core_competitors entries whose rate is 0 are sibling placeholders (Profile B only). */
function withoutPlaceholders(entries: CompetitorEntry[]): Ranked[] {
  return entries.filter((c) => c.avg_exposure_rate !== 0).map(fromCompetitor);
}

/**
 * The HTML aggregate ranking entries, printed order. Profile A (7.6): own brand + core_competitors as
 * printed. Profile B (9.5.3): placeholders skipped, maximum kept for equal names. Profile B product
 * level (9.5.1): core_product_competitors alone, same 9.5.3 rules; the own brand is a brand-level entry
 * (summary.avg_exposure_rate) and is not part of the product list. `undefined`: the DATA lacks the list.
 */
function htmlAggregateEntries(ctx: RuleContext): Ranked[] | undefined {
  const { brand } = ctx.data;
  if (isProductLevel(ctx)) {
    const products = ctx.data.core_product_competitors;
    return products && maxForEqualNames(withoutPlaceholders(products));
  }
  const ownBrand: Ranked = { name: brand.name, exposureRate: brand.summary.avg_exposure_rate };
  if (ctx.profile === 'A') return [ownBrand, ...brand.core_competitors.map(fromCompetitor)];
  return maxForEqualNames([ownBrand, ...withoutPlaceholders(brand.core_competitors)]);
}

/**
 * Platform competitor rows in API order (never by `rank`, 7.6). Profile B keeps only the rows of the
 * compared kind (9.5.2). Profile A compares the rows as the API returns them: the kind filter is a
 * Profile B rule and Profile A never inherits it.
 */
function platformEntries(ctx: RuleContext): PlatformRanked[] {
  const rows =
    ctx.profile === 'B'
      ? ctx.platform.competitor.filter((r) => r.kind === ctx.level)
      : ctx.platform.competitor;
  return rows.map((row) => ({ name: row.name, exposureRate: row.exposure_rate, row }));
}

/** Step 5.1: aggregate rate against the all-platform column, matched by name (7.6.1, 9.5.4). */
function step51(ctx: RuleContext, html: Ranking<Ranked>, platform: Ranking<PlatformRanked>): StepResult {
  const intersection = (h: Ranked) => findByName(platform.top10, h.name) !== undefined;
  const compared = ctx.profile === 'B' ? html.top10.filter(intersection) : html.top10;
  const rows = compared.map((h) => {
    const p = findByName(platform.all, h.name);
    const note = p ? undefined : `no platform competitor row named 「${h.name}」`;
    return percentRow(
      `${h.name} · all-platform rate`,
      h.exposureRate,
      p?.exposureRate ?? null,
      ctx.profile,
      {},
      note,
    );
  });
  const notes =
    ctx.profile === 'B'
      ? [
          'Profile B: same-named brands in the intersection of the two top-10 lists, not by rank index (9.5.4)',
        ]
      : ['Profile A: every HTML top-10 brand against its platform row, by name (7.6.1)'];
  return makeStep('5.1', 'aggregate exposure rate against the all-platform column', rows, notes);
}

function isTie(a: number | null, b: number | null): boolean {
  return a !== null && b !== null && cleanGap(a - b) <= TIE_TOLERANCE + 1e-9;
}

/**
 * Spec 9.5.5: two names swapped at one position are a tie swap when their rates are tied within 0.05 on
 * both sides. Rates are looked up in the full sorted lists, so a tie across #10/#11 is recognised too.
 */
function tieSwap(
  htmlName: string,
  platformName: string,
  html: Ranking<Ranked>,
  platform: Ranking<PlatformRanked>,
) {
  const rate = (side: Ranked[], name: string) => findByName(side, name)?.exposureRate ?? null;
  const h = [rate(html.all, htmlName), rate(html.all, platformName)] as const;
  const p = [rate(platform.all, htmlName), rate(platform.all, platformName)] as const;
  if (!isTie(h[0], h[1]) || !isTie(p[0], p[1])) return undefined;
  return `「${htmlName}」 and 「${platformName}」 tied within ${TIE_TOLERANCE} (HTML ${h[0]} / ${h[1]}, platform ${p[0]} / ${p[1]})`;
}

function differentNameNote(
  htmlName: string,
  platformName: string,
  tie: string | undefined,
): string | undefined {
  if (tie) return `${tie}; tie swaps are a Profile B allowance (9.5.5): any swap fails in Profile A`;
  if (htmlName.startsWith(platformName) || platformName.startsWith(htmlName)) {
    return 'a truncated name is a different name (7.6)';
  }
  return undefined;
}

/** Step 5.2, one position: rank and name, character for character (7.6.2, 9.5.7). */
function nameRow(
  ctx: RuleContext,
  index: number,
  html: Ranking<Ranked>,
  platform: Ranking<PlatformRanked>,
): ComparisonRow {
  const key = `#${index + 1} name`;
  const h = html.top10[index];
  const p = platform.top10[index];
  if (!h || !p) {
    const missing = `no brand at #${index + 1} on ${h ? 'the platform' : 'the HTML'} side`;
    return exactRow(key, h?.name ?? null, p?.name ?? null, missing);
  }
  if (h.name === p.name) return exactRow(key, h.name, p.name);
  const tie = tieSwap(h.name, p.name, html, platform);
  if (tie && ctx.profile === 'B') {
    return { ...exactRow(key, h.name, p.name), verdict: 'pass', note: `tie swap: ${tie} (9.5.5)` };
  }
  return exactRow(key, h.name, p.name, differentNameNote(h.name, p.name, tie));
}

function step52(ctx: RuleContext, html: Ranking<Ranked>, platform: Ranking<PlatformRanked>): StepResult {
  const positions = Math.max(html.top10.length, platform.top10.length);
  const rows = Array.from({ length: positions }, (_, i) => nameRow(ctx, i, html, platform));
  const notes = ['both top-10 lists sorted by exposure rate, stable; the API field rank is never used (7.6)'];
  return makeStep('5.2', 'rank and name of the top 10', rows, notes);
}

/** The HTML per-platform ranking: industry_ranking, or product_ranking at the Profile B product level. */
function perPlatformRanking(ctx: RuleContext, key: string): RankingEntry[] | undefined {
  if (isProductLevel(ctx)) return ctx.data.product_ranking?.[key];
  return ctx.data.brand.platforms[key]?.industry_ranking;
}

/** An HTML cell: no entry or no rate is an empty cell. Profile B keeps the maximum for equal names (9.5.3). */
function htmlCell(ranking: RankingEntry[], name: string, ctx: RuleContext): number | null {
  const rates = ranking.filter((e) => e.name === name).map((e) => e.exposure_rate);
  if (ctx.profile === 'A') return rates[0] ?? null;
  const present = rates.filter((r): r is number => r !== null);
  return present.length > 0 ? Math.max(...present) : null;
}

function columnRow(
  ctx: RuleContext,
  brand: Ranked,
  ranking: RankingEntry[],
  row: CompetitorRow,
  i: number,
  meta: PlatformMeta,
) {
  const key = `${brand.name} · ${meta.name}`;
  const column = row.platform_rates[i];
  const html = htmlCell(ranking, brand.name, ctx);
  if (!column) return percentRow(key, html, null, ctx.profile, {}, `the platform row has no column ${i + 1}`);
  const byPosition = column.name !== meta.name && column.name !== meta.short_name;
  const note = byPosition
    ? `platform column ${i + 1} 「${column.name}」 matched by position (7.6)`
    : undefined;
  return percentRow(key, html, column.rate, ctx.profile, { bothEmptyAgree: true }, note);
}

interface ComparedPlatform {
  meta: PlatformMeta;
  i: number;
  ranking: RankingEntry[];
}

/** The AI platforms whose HTML ranking exists; the others are not compared, with a note (contract 6). */
function comparedPlatforms(ctx: RuleContext): { compared: ComparedPlatform[]; notes: string[] } {
  const listName = isProductLevel(ctx) ? 'product_ranking' : 'industry_ranking';
  const notes: string[] = [];
  const compared = aiPlatforms(ctx.data).flatMap((meta, i) => {
    const ranking = perPlatformRanking(ctx, meta.key);
    if (!ranking) notes.push(notComparedNote(`${meta.name} (${meta.key})`, listName));
    return ranking ? [{ meta, i, ranking }] : [];
  });
  return { compared, notes };
}

/** Step 5.3: the 10 brands on each of the six platforms against the matching platform columns (7.6.3, 9.5.6). */
function step53(
  ctx: RuleContext,
  html: Ranking<Ranked>,
  platform: Ranking<PlatformRanked>,
  compared: ComparedPlatform[],
): StepResult {
  const rows: ComparisonRow[] = [];
  const columns = aiPlatforms(ctx.data).length;
  if (columns < AI_PLATFORM_COUNT) {
    const note = `the platform table has six platform columns (7.6); DATA.meta.platforms has ${columns}`;
    rows.push({ ...countRow('AI platforms', columns, AI_PLATFORM_COUNT), note });
  }
  if (isProductLevel(ctx) && !ctx.data.product_ranking) {
    rows.push(
      missingGroupRow('product_ranking', null, 'kind=product rows', 'DATA has no product_ranking (9.5.1)'),
    );
  }
  for (const brand of html.top10) {
    const p = findByName(platform.all, brand.name);
    if (!p) {
      rows.push(
        missingGroupRow(
          `${brand.name} · platform row`,
          brand.name,
          null,
          `no platform competitor row named 「${brand.name}」`,
        ),
      );
      continue;
    }
    for (const { meta, i, ranking } of compared) rows.push(columnRow(ctx, brand, ranking, p.row, i, meta));
  }
  return makeStep('5.3', 'exposure rate of the 10 brands on each of the six platforms', rows);
}

function itemNotes(ctx: RuleContext): string[] {
  const notes = ['the AI platform option is never switched; only the top 10 is compared (7.6)'];
  if (ctx.profile === 'A') {
    notes.push(
      'Profile A: competitor rows of every kind, as the API returns them (the kind=brand filter is Profile B, 9.5.2)',
    );
    if (ctx.level === 'product')
      notes.push('level=product is a Profile B option (9.5.1); Profile A compares the brand ranking');
  } else if (isProductLevel(ctx)) {
    notes.push(
      'Profile B product level: core_product_competitors and product_ranking against kind=product rows (9.5.1)',
    );
  } else {
    notes.push(
      'Profile B: kind=brand rows only (9.5.2); core_competitors with rate 0 skipped, maximum rate kept for equal names (9.5.3)',
    );
  }
  return notes;
}

/**
 * Item 5, industry exposure ranking (spec 7.6, 9.5, 8.2): three steps, all required.
 * 5.1 aggregate rate by name, 5.2 rank and name of the top 10, 5.3 the six platform columns.
 */
export function checkItem5(ctx: RuleContext): ItemResult {
  const htmlEntries = htmlAggregateEntries(ctx);
  const html = rankingOf(htmlEntries ?? []);
  const platform = rankingOf(platformEntries(ctx));
  const { compared, notes: notComparedNotes } = comparedPlatforms(ctx);
  const notes = [...itemNotes(ctx), ...notComparedNotes];
  if (!htmlEntries) {
    notes.push('DATA has no core_product_competitors: the product ranking cannot be compared (9.5.1)');
  }
  const steps = [
    step51(ctx, html, platform),
    step52(ctx, html, platform),
    step53(ctx, html, platform, compared),
  ];
  return makeItem(5, ITEM_TITLES[5], steps, notes);
}
