import type { PlatformMeta, RankingEntry } from '../schema/data';
import type { CompetitorRow } from '../schema/platform';
import { withinDecimal } from './decimal';
import { AI_PLATFORM_COUNT, aiPlatforms } from './platforms';
import {
  findByName,
  htmlRankingSide,
  isProductLevel,
  platformEntries,
  rankingOf,
  type HtmlRankingSide,
  type PlatformRanked,
  type Ranked,
  type Ranking,
} from './ranking-sides';
import { makeItem, makeStep } from './results';
import { countRow, exactRow, missingGroupRow, percentRow } from './rows';
import { ITEM_TITLES, type ComparisonRow, type ItemResult, type RuleContext, type StepResult } from './types';

export { RANKING_DEPTH } from './ranking-sides';
/** Spec 8.2 / 9.5.5: Profile B ranking, rates tied within 0.05. */
export const TIE_TOLERANCE = 0.05;

/**
 * Step 5.1: aggregate rate against the all-platform column, matched by name (7.6.1, 9.5.4). Profile A
 * compares every HTML top-10 brand with the whole platform list (docs/rules.md §D16).
 */
function compareAggregateRates(
  ctx: RuleContext,
  html: Ranking<Ranked>,
  platform: Ranking<PlatformRanked>,
): StepResult {
  const intersection = (h: Ranked) => findByName(platform.top10, h.name) !== undefined;
  const compared = ctx.profile === 'B' ? html.top10.filter(intersection) : html.top10;
  const rows = compared.map((h) => {
    const p = findByName(platform.all, h.name);
    const note = p ? undefined : `no platform competitor row named 「${h.name}」`;
    // 7.6: an empty HTML cell against 「-」 is not a difference, in the all-platform column too.
    return percentRow(
      `${h.name} · all-platform rate`,
      h.exposureRate,
      p?.exposureRate ?? null,
      ctx.profile,
      { bothEmptyAgree: p !== undefined },
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

/** Spec 9.5.5 / 8.2: tied within 0.05, on decimal values. */
function isTie(a: number | null, b: number | null): boolean {
  return a !== null && b !== null && withinDecimal(a, b, TIE_TOLERANCE);
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
function rankAndNameRow(
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

/** Step 5.2: rank and brand name of the two top-10 lists, position by position (7.6.2, 9.5.5). */
function compareTop10RankAndName(
  ctx: RuleContext,
  html: Ranking<Ranked>,
  platform: Ranking<PlatformRanked>,
): StepResult {
  const positions = Math.max(html.top10.length, platform.top10.length);
  const rows = Array.from({ length: positions }, (_, i) => rankAndNameRow(ctx, i, html, platform));
  const notes = ['both top-10 lists sorted by exposure rate, stable; the API field rank is never used (7.6)'];
  return makeStep('5.2', 'rank and name of the top 10', rows, notes);
}

/** An HTML cell: no entry or no rate is an empty cell. Profile B keeps the maximum for equal names (9.5.3). */
function htmlCell(ranking: RankingEntry[], name: string, ctx: RuleContext): number | null {
  const rates = ranking.filter((e) => e.name === name).map((e) => e.exposure_rate);
  if (ctx.profile === 'A') return rates[0] ?? null;
  const present = rates.filter((r): r is number => r !== null);
  return present.length > 0 ? Math.max(...present) : null;
}

function platformColumnRow(
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

/**
 * Step 5.3 compares "each of the six platforms" (7.6): a platform whose HTML ranking is missing is a
 * failure of the step (the "not compared" of docs/rules.md §D2 is for items 7-12 only).
 */
function htmlPlatformRankings(ctx: RuleContext, side: HtmlRankingSide) {
  const missing: ComparisonRow[] = [];
  const compared: ComparedPlatform[] = [];
  aiPlatforms(ctx.data).forEach((meta, i) => {
    const ranking = side.perPlatform(meta.key);
    if (ranking) compared.push({ meta, i, ranking });
    else if (!side.noPerPlatform) {
      const path = isProductLevel(ctx)
        ? `DATA.product_ranking.${meta.key}`
        : `DATA.brand.platforms.${meta.key}.industry_ranking`;
      const note = `the HTML has no ${side.listName} for ${meta.name} (${meta.key}): step 3 covers each of the six platforms (7.6)`;
      missing.push(missingGroupRow(path, null, `column ${i + 1}`, note));
    }
  });
  return { compared, missing };
}

/** Step 5.3: the 10 brands on each of the six platforms against the matching platform columns (7.6.3, 9.5.6). */
function comparePlatformColumns(
  ctx: RuleContext,
  html: Ranking<Ranked>,
  platform: Ranking<PlatformRanked>,
  side: HtmlRankingSide,
): StepResult {
  const rows: ComparisonRow[] = [];
  const columns = aiPlatforms(ctx.data).length;
  if (columns < AI_PLATFORM_COUNT) {
    const note = `the platform table has six platform columns (7.6); DATA.meta.platforms has ${columns}`;
    rows.push({ ...countRow('AI platforms', columns, AI_PLATFORM_COUNT), note });
  }
  if (side.noPerPlatform)
    rows.push(missingGroupRow('product_ranking', 'list', 'kind=product columns', side.noPerPlatform));
  else if (isProductLevel(ctx) && ctx.data.product_ranking === undefined) {
    rows.push(
      missingGroupRow('product_ranking', null, 'kind=product rows', 'DATA has no product_ranking (9.5.1)'),
    );
  }
  const { compared, missing } = htmlPlatformRankings(ctx, side);
  if (!(isProductLevel(ctx) && ctx.data.product_ranking === undefined)) rows.push(...missing);
  for (const brand of html.top10) {
    const p = findByName(platform.all, brand.name);
    if (!p) {
      const note = `no platform competitor row named 「${brand.name}」`;
      rows.push(missingGroupRow(`${brand.name} · platform row`, brand.name, null, note));
      continue;
    }
    for (const { meta, i, ranking } of compared)
      rows.push(platformColumnRow(ctx, brand, ranking, p.row, i, meta));
  }
  return makeStep('5.3', 'exposure rate of the 10 brands on each of the six platforms', rows);
}

function rankingNotes(ctx: RuleContext): string[] {
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

/** Product fields of the wrong shape fail item 5, naming them (product level only, 9.5.1; docs/rules.md §D8). */
function unreadableProductDataStep(problems: string[]): StepResult {
  const rows = problems.map((p) => missingGroupRow(p.split(':')[0] ?? p, null, null, p));
  return makeStep('DATA', 'product-level DATA readable (9.5.1)', rows);
}

/**
 * Item 5, industry exposure ranking (spec 7.6, 9.5, 8.2): three steps, all required.
 * 5.1 aggregate rate by name, 5.2 rank and name of the top 10, 5.3 the six platform columns.
 */
export function checkItem5(ctx: RuleContext): ItemResult {
  const side = htmlRankingSide(ctx);
  const notes = [...rankingNotes(ctx), ...side.notes];
  if (side.problems.length > 0)
    return makeItem(5, ITEM_TITLES[5], [unreadableProductDataStep(side.problems)], notes);
  const html = rankingOf(side.aggregate ?? []);
  const platform = rankingOf(platformEntries(ctx));
  if (!side.aggregate) {
    notes.push('DATA has no core_product_competitors: the product ranking cannot be compared (9.5.1)');
  }
  const steps = [
    compareAggregateRates(ctx, html, platform),
    compareTop10RankAndName(ctx, html, platform),
    comparePlatformColumns(ctx, html, platform, side),
  ];
  return makeItem(5, ITEM_TITLES[5], steps, notes);
}
