import type { PlatformMeta, RankingEntry } from '../schema/data';
import type { CompetitorRow } from '../schema/platform';
import { scaled, withinDecimal } from './decimal';
import { AI_PLATFORM_COUNT, aiPlatforms, beyondSixNote } from './platforms';
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
import { makeItem, makeStep, nothingComparedRow } from './results';
import { countRow, exactRow, missingGroupRow, percentRow } from './rows';
import { tiedOn, type TiedOn } from './sorting';
import { PASS_BY, type ComparisonRow, type ItemResult, type RuleContext, type StepResult } from './types';

export { RANKING_DEPTH } from './ranking-sides';
/** Spec 8.2 / 9.5.5: Profile B ranking, rates tied within 0.05. */
export const TIE_TOLERANCE = 0.05;

/**
 * Profile B's brands of step 5.1 (9.5.4): the intersection of the two top-10 lists, and each brand
 * that crossed #10/#11 between the two sides (in one top 10, below it on the other side). A swap
 * across the cut-off passes step 5.2 as a tie swap when each side's pair is within 0.05 (9.5.5),
 * which says nothing of whether the two sides agree on the rates: left out of 5.1 as well, the
 * crossing brands' rates would be compared nowhere, and a report could show 10.0 where the platform
 * says 5.0 (rules audit of 2026-11-26). 7.6.1 compares the aggregate rate "matched by name", so
 * such a brand is matched in the other side's full list. HTML top-10 order, then the platform's.
 */
function crossingOrShared(html: Ranking<Ranked>, platform: Ranking<PlatformRanked>): Ranked[] {
  const onBoth = (name: string) =>
    findByName(html.all, name) !== undefined && findByName(platform.all, name) !== undefined;
  const names = [...html.top10, ...platform.top10].map((e) => e.name).filter(onBoth);
  return [...new Set(names)].map((name) => findByName(html.all, name)!);
}

/** Why a brand of step 5.1 is compared though it is in one top 10 only (Profile B). */
function crossingNote(
  name: string,
  html: Ranking<Ranked>,
  platform: Ranking<PlatformRanked>,
): string | undefined {
  const inHtml = findByName(html.top10, name) !== undefined;
  const inPlatform = findByName(platform.top10, name) !== undefined;
  if (inHtml === inPlatform) return undefined;
  const rank = (side: Ranked[]) => side.findIndex((e) => e.name === name) + 1;
  return inHtml
    ? `in the HTML top 10, #${rank(platform.all)} on the platform: a brand that crossed #10/#11 is compared by name (9.5.4, 7.6.1)`
    : `in the platform top 10, #${rank(html.all)} in the HTML: a brand that crossed #10/#11 is compared by name (9.5.4, 7.6.1)`;
}

/**
 * A name on more than one platform row the run reads: Profile A reads every kind (§D9), and the
 * schema refuses a repeated name only within a kind, so a brand and a product may share one. Step
 * 5.1 says which row it compared (the first by rate); step 5.2 sees the name twice and fails.
 */
function twiceNote(name: string, platform: Ranking<PlatformRanked>): string | undefined {
  const at = platform.all.flatMap((e, i) => (e.name === name ? [`#${i + 1} kind ${e.row.kind}`] : []));
  return at.length > 1
    ? `「${name}」 is on ${at.length} platform rows (${at.join(', ')}): compared with the first; matching by name (7.6) cannot tell them apart`
    : undefined;
}

/**
 * Step 5.1: aggregate rate against the all-platform column, matched by name (7.6.1, 9.5.4). Profile A
 * compares every HTML top-10 brand with the whole platform list (docs/rules.md §D16); Profile B the
 * two top-10 lists' shared brands and those that crossed the cut-off (`crossingOrShared`).
 */
function compareAggregateRates(
  ctx: RuleContext,
  html: Ranking<Ranked>,
  platform: Ranking<PlatformRanked>,
): StepResult {
  const compared = ctx.profile === 'B' ? crossingOrShared(html, platform) : html.top10;
  const rows = compared.map((h) => {
    const p = findByName(platform.all, h.name);
    const note = p
      ? (twiceNote(h.name, platform) ??
        (ctx.profile === 'B' ? crossingNote(h.name, html, platform) : undefined))
      : `no platform competitor row named 「${h.name}」`;
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
          'Profile B: same-named brands in the intersection of the two top-10 lists, not by rank index (9.5.4), and any brand that crossed #10/#11 between the two sides, by name',
        ]
      : ['Profile A: every HTML top-10 brand against its platform row, by name (7.6.1)'];
  return makeStep(
    '5.1',
    'aggregate exposure rate against the all-platform column',
    withRatesCompared(rows),
    notes,
  );
}

/**
 * Spec 9.5.5 / 8.2: tied within 0.05, on decimal values. Two brands with no rate are tied too: an empty
 * cell against an empty one "is not a difference" (7.6), so neither side has a rate to order them by.
 */
function isTie(a: number | null, b: number | null): boolean {
  if (a === null || b === null) return a === b;
  return withinDecimal(a, b, TIE_TOLERANCE);
}

/**
 * Two brands whose order differs between the two sorted rankings (spec 9.5.5 "a swap of ranks"):
 * `first` is above `second` on the HTML side and below it on the platform side. `tiedOn` names the
 * side or sides where their own rates are within 0.05, where that side's order of the two is open
 * (docs/rules.md 9.5.5); none, and the swap is no tie swap.
 */
interface Swap {
  first: string;
  second: string;
  tiedOn: TiedOn | undefined;
  rates: string;
}

const rateText = (x: number | null) => (x === null ? 'no rate' : String(x));

/**
 * Every pair of brands whose ranks swapped, judged by the pair itself and never position by position:
 * "within 0.05" is not transitive, so a chain of near-equal neighbours must not hide a swap of two
 * brands that are not tied. Pairs with a brand in either top 10, both brands on both sides; ranks are
 * read in the full sorted lists, so a swap across #10/#11 counts.
 */
function swappedPairs(html: Ranking<Ranked>, platform: Ranking<PlatformRanked>): Swap[] {
  const htmlRank = firstIndexes(html.all);
  const platformRank = firstIndexes(platform.all);
  const onBoth = [...htmlRank.keys()].filter((n) => platformRank.has(n));
  const inTop10 = new Set([...html.top10, ...platform.top10].map((e) => e.name));
  // Linear in the lists (a ranking may hold any number of brands): a pair needs a brand of the
  // top 10s, so each brand is paired with those 20 at most, in the order of the loop over all pairs.
  const top = onBoth.flatMap((n, i) => (inTop10.has(n) ? [i] : []));
  // A name's rate at its first position, as `findByName` finds it.
  const rate = (side: Ranked[], first: Map<string, number>, name: string) =>
    side[first.get(name)!]?.exposureRate ?? null;
  const swaps: Swap[] = [];
  onBoth.forEach((a, i) => {
    const later = inTop10.has(a) ? onBoth.slice(i + 1) : top.filter((j) => j > i).map((j) => onBoth[j]!);
    for (const b of later) {
      const htmlOrder = htmlRank.get(a)! < htmlRank.get(b)!;
      if (htmlOrder === platformRank.get(a)! < platformRank.get(b)!) continue;
      const [first, second] = htmlOrder ? [a, b] : [b, a];
      const h = [rate(html.all, htmlRank, first), rate(html.all, htmlRank, second)] as const;
      const p = [rate(platform.all, platformRank, first), rate(platform.all, platformRank, second)] as const;
      swaps.push({
        first,
        second,
        tiedOn: tiedOn(isTie(h[0], h[1]), isTie(p[0], p[1])),
        rates: `HTML ${rateText(h[0])} / ${rateText(h[1])}, platform ${rateText(p[0])} / ${rateText(p[1])}`,
      });
    }
  });
  return swaps;
}

/** Each name's first position in a ranking. */
function firstIndexes(side: Ranked[]): Map<string, number> {
  const first = new Map<string, number>();
  side.forEach((e, i) => first.has(e.name) || first.set(e.name, i));
  return first;
}

const pairText = (s: Swap) => `「${s.first}」 ↔ 「${s.second}」`;

function swapText(s: Swap): string {
  const how = s.tiedOn
    ? `tied within ${TIE_TOLERANCE} on ${s.tiedOn}`
    : `not tied within ${TIE_TOLERANCE} on either side`;
  return `${pairText(s)} swapped ranks, ${how} (${s.rates})`;
}

/**
 * Why two different names at one position are not a tie swap, when no swapped pair explains them. A
 * truncated name (7.6: "a short form against a form with a suffix") is one brand shown in two forms, so
 * one of the two names is missing from the other side; two brands whose names merely share a prefix
 * (蒙牛 and 蒙牛特仑苏), each listed on both sides, are two brands, and their swap is judged as any swap.
 */
function differentNameNote(htmlName: string, platformName: string, lists: Lists): string | undefined {
  const absent = [
    findByName(lists.platform.all, htmlName) ? '' : `「${htmlName}」 is not in the platform ranking`,
    findByName(lists.html.all, platformName) ? '' : `「${platformName}」 is not in the HTML ranking`,
  ].filter(Boolean);
  if (absent.length === 0) return undefined;
  if (htmlName.startsWith(platformName) || platformName.startsWith(htmlName)) {
    return 'a truncated name is a different name (7.6)';
  }
  return absent.join('; ');
}

interface Lists {
  html: Ranking<Ranked>;
  platform: Ranking<PlatformRanked>;
  swaps: Swap[];
}

/**
 * Names a ranking lists more than once, said as why positions shifted (Profile A keeps every entry:
 * 9.5.3's maximum for equal names is Profile B's). Without it, an own brand that `core_competitors`
 * lists again read "the lists differ by a brand one side lacks", and no brand is missing (rules audit
 * of 2026-11-26).
 */
function repeatedNames(lists: Lists): string | undefined {
  const repeated = (side: Ranked[]) => {
    const seen = new Set<string>();
    const again = new Set<string>();
    for (const { name } of side) (seen.has(name) ? again : seen).add(name);
    return [...again];
  };
  const said = [
    ...repeated(lists.html.all).map((n) => `the HTML ranking lists 「${n}」 more than once`),
    ...repeated(lists.platform.all).map((n) => `the platform ranking lists 「${n}」 more than once`),
  ];
  return said.length > 0 ? `${said.join('; ')}, which shifts the positions after it` : undefined;
}

/**
 * Step 5.2, one position: rank and name, character for character (7.6.2, 9.5.7). Different names pass
 * only in Profile B, and only when both names swapped ranks and every swapped pair either name belongs
 * to is tied (9.5.5): a brand that swapped with a brand it is not tied with fails at every position it
 * stands at.
 */
function rankAndNameRow(ctx: RuleContext, index: number, lists: Lists): ComparisonRow {
  const key = `#${index + 1} name`;
  const h = lists.html.top10[index];
  const p = lists.platform.top10[index];
  if (!h || !p) {
    const missing = `no brand at #${index + 1} on ${h ? 'the platform' : 'the HTML'} side`;
    return exactRow(key, h?.name ?? null, p?.name ?? null, missing);
  }
  if (h.name === p.name) return exactRow(key, h.name, p.name);
  const involved = lists.swaps.filter((s) => [s.first, s.second].some((n) => n === h.name || n === p.name));
  // Both names must take part in a swap: where the two lists hold the same names, two different names
  // at one position always do; where one holds a brand the other lacks, the names after it shift, and
  // one of them can be in a tie swap elsewhere while the other swapped with nothing (mutation audit of
  // 2026-11-28: HTML 白云牧场 against platform 青禾 passed as the tie swap 蓝山乳业 ↔ 白云牧场).
  const swapped = (name: string) => involved.some((s) => s.first === name || s.second === name);
  const other = differentNameNote(h.name, p.name, lists);
  if (!swapped(h.name) || !swapped(p.name) || other) {
    const why = repeatedNames(lists) ?? 'the lists differ by a brand one side lacks';
    const shifted = `「${h.name}」 and 「${p.name}」 did not swap ranks: ${why}`;
    return exactRow(key, h.name, p.name, other ?? shifted);
  }
  const untied = involved.filter((s) => !s.tiedOn);
  // Profile A: any swap fails (7.6.2), so whether the pair is tied is no reason: said with 9.5.5's
  // words, an untied swap read as if a tied one would pass (reader audit of 2026-11-28).
  if (untied.length > 0 && ctx.profile === 'A') {
    const swapped = involved.map((s) => `${pairText(s)} swapped ranks (${s.rates})`).join('; ');
    return exactRow(key, h.name, p.name, `${swapped}: any swap of ranks fails in Profile A (7.6.2)`);
  }
  if (untied.length > 0) {
    return exactRow(
      key,
      h.name,
      p.name,
      `${untied.map(swapText).join('; ')}: a swap of brands tied on neither side fails (7.6.2, 9.5.5)`,
    );
  }
  const tie = involved.map(swapText).join('; ');
  if (ctx.profile === 'A') {
    return exactRow(
      key,
      h.name,
      p.name,
      `${tie}; tie swaps are a Profile B allowance (9.5.5): any swap fails in Profile A`,
    );
  }
  return {
    ...exactRow(key, h.name, p.name),
    verdict: 'pass',
    note: `tie swap: ${tie} (9.5.5)`,
    passBy: PASS_BY.tieSwap,
  };
}

/** `1 tie swap within 0.05 (spec 9.5.5): 蓝鲸 ↔ 极光`, and the swaps that are not ties. */
function swapNotes(ctx: RuleContext, swaps: Swap[]): string[] {
  const tied = swaps.filter((s) => s.tiedOn);
  const untied = swaps.filter((s) => !s.tiedOn);
  const notes: string[] = [];
  if (tied.length > 0 && ctx.profile === 'B') {
    const n = tied.length;
    notes.push(
      `${n} tie ${n === 1 ? 'swap' : 'swaps'} within ${TIE_TOLERANCE} (spec 9.5.5): ${tied.map(pairText).join(', ')}`,
    );
  }
  if (tied.length > 0 && ctx.profile === 'A') {
    notes.push(
      `swapped ranks tied within ${TIE_TOLERANCE}: ${tied.map(pairText).join(', ')}; the tie-swap allowance is Profile B's (9.5.5)`,
    );
  }
  if (untied.length > 0 && ctx.profile === 'A') {
    notes.push(`swapped ranks: ${untied.map(pairText).join(', ')} (7.6.2)`);
  } else if (untied.length > 0) {
    notes.push(`swapped ranks not tied within ${TIE_TOLERANCE}: ${untied.map(pairText).join(', ')} (9.5.5)`);
  }
  return notes;
}

/**
 * Step 5.2: rank and brand name of the two top-10 lists, position by position (7.6.2); a position
 * whose names differ passes only by a tie swap of the pairs that swapped (9.5.5).
 */
function compareTop10RankAndName(
  ctx: RuleContext,
  html: Ranking<Ranked>,
  platform: Ranking<PlatformRanked>,
): StepResult {
  const lists: Lists = { html, platform, swaps: swappedPairs(html, platform) };
  const positions = Math.max(html.top10.length, platform.top10.length);
  const rows = Array.from({ length: positions }, (_, i) => rankAndNameRow(ctx, i, lists));
  const notes = [
    'both top-10 lists sorted by exposure rate, stable; the API field rank is never used (7.6)',
    ...swapNotes(ctx, lists.swaps),
  ];
  return makeStep('5.2', 'rank and name of the top 10', rows, notes, [PASS_BY.tieSwap]);
}

/**
 * An HTML cell: no entry or no rate is an empty cell. A brand listed more than once in one
 * platform's ranking with different rates: Profile B keeps the maximum, as 9.5.3 does for equal
 * names, and the row says so; Profile A has no such rule, so the row fails naming every rate, since
 * one would silently win over the other (README.md § Security and limits). Until 2026-11-28 the
 * first rate alone was compared in Profile A, and a wrong second one passed (foolproof audit).
 */
function htmlCell(
  ranking: RankingEntry[],
  name: string,
  ctx: RuleContext,
): { rate: number | null; repeated?: string } {
  const rates = ranking.filter((e) => e.name === name).map((e) => e.exposure_rate);
  // One rate as decimal values (docs/rules.md §D6): 21 and 20.999999999999996, what 0.7 × 3 × 10
  // serialises, are one cell, not two rates that failed Profile A (review 59e).
  const repeated =
    new Set(rates.map((r) => (r === null ? null : scaled(r)))).size > 1
      ? `「${name}」 is listed ${rates.length} times in this platform's HTML ranking, at ${rates.map(rateText).join(', ')}`
      : undefined;
  if (ctx.profile === 'A') return { rate: rates[0] ?? null, repeated };
  const present = rates.filter((r): r is number => r !== null);
  return { rate: present.length > 0 ? Math.max(...present) : null, repeated };
}

/** A platform column's name as a reader tells names apart: NFC, trimmed, a Latin name in any case. */
function sameColumnName(a: string, b: string): boolean {
  const read = (n: string) => n.normalize('NFC').trim().toLowerCase();
  return read(a) === read(b);
}

function platformColumnRow(
  ctx: RuleContext,
  brand: Ranked,
  ranking: RankingEntry[],
  row: CompetitorRow,
  i: number,
  meta: PlatformMeta,
): ComparisonRow {
  const key = `${brand.name} · ${meta.name}`;
  const column = row.platform_rates[i];
  const { rate: html, repeated } = htmlCell(ranking, brand.name, ctx);
  if (!column) return percentRow(key, html, null, ctx.profile, {}, `the platform row has no column ${i + 1}`);
  const named = (m: PlatformMeta) => column.name === m.name || column.name === m.short_name;
  const byPosition = !named(meta);
  // 7.6: the six columns are "in a fixed order (the first six AI answer platforms of the report)",
  // and only the longer names of columns 3 to 5 differ: a column named as another of the six is a
  // table in another order, whose cells would be compared with another platform's. Named as a
  // reader would: whitespace around the name and the case of a Latin name aside (review 59i:
  // 「DeepSeek 」 and 「deepseek」 were matched by position and passed).
  const looselyNamed = (m: PlatformMeta) =>
    [m.name, m.short_name].some((n) => typeof n === 'string' && sameColumnName(column.name, n));
  const other =
    byPosition && !looselyNamed(meta)
      ? aiPlatforms(ctx.data).findIndex((m, j) => j !== i && looselyNamed(m))
      : -1;
  const notes = [
    other >= 0
      ? `platform column ${i + 1} is 「${column.name}」, the name of the HTML platform column ${other + 1}: the platform table is in another order than the report (7.6 fixed order)`
      : byPosition
        ? `platform column ${i + 1} 「${column.name}」 matched by position (7.6)`
        : undefined,
    repeated &&
      (ctx.profile === 'B'
        ? `${repeated}: the maximum is kept (9.5.3)`
        : `${repeated}: the first was compared, and one rate would silently win over the other`),
  ].filter(Boolean);
  const compared = percentRow(
    key,
    html,
    column.rate,
    ctx.profile,
    { bothEmptyAgree: true },
    notes.length > 0 ? notes.join('; ') : undefined,
  );
  return (repeated && ctx.profile === 'A') || other >= 0 ? { ...compared, verdict: 'fail' } : compared;
}

/**
 * Steps 5.1 and 5.3 whose every row is an empty HTML cell against 「-」 compared no exposure rate:
 * 7.6's "this is not a difference" is about a brand with no exposure in one option, and a step that
 * compared nothing never passes (docs/rules.md §D1). Until 2026-11-28 item 5 passed a report with no
 * rate on either side anywhere, only its names compared, where item 3 failed the same report
 * (foolproof audit). One platform whose ten cells are all empty beside platforms with rates passes.
 */
function withRatesCompared(rows: ComparisonRow[]): ComparisonRow[] {
  if (rows.length === 0 || rows.some((r) => r.html !== null || r.platform !== null)) return rows;
  return [
    ...rows,
    nothingComparedRow(
      'every cell of the step is an empty HTML cell against 「-」: no exposure rate was compared (7.6, docs/rules.md §D1)',
    ),
  ];
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
  return makeStep(
    '5.3',
    'exposure rate of the 10 brands on each of the six platforms',
    withRatesCompared(rows),
  );
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
  const notes = [...rankingNotes(ctx), ...side.notes, ...beyondSixNote(ctx.data)];
  if (side.problems.length > 0) return makeItem(5, [unreadableProductDataStep(side.problems)], notes);
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
  return makeItem(5, steps, notes);
}
