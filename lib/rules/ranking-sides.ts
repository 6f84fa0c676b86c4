import type { CompetitorEntry, RankingEntry } from '../schema/data';
import type { CompetitorRow } from '../schema/platform';
import type { ProductLevel } from '../schema/product';
import { stableSortDesc } from './sorting';
import { own } from './keyed';
import type { RuleContext } from './types';

/** Spec 8.2: ranking depth compared. */
export const RANKING_DEPTH = 10;

export interface Ranked {
  name: string;
  exposureRate: number | null;
}
export interface PlatformRanked extends Ranked {
  row: CompetitorRow;
}
/** One side's ranking: every entry sorted by exposure rate (stable), and its top 10. */
export interface Ranking<T extends Ranked> {
  all: T[];
  top10: T[];
}

export function rankingOf<T extends Ranked>(entries: T[]): Ranking<T> {
  const all = stableSortDesc(entries, (e) => e.exposureRate);
  return { all, top10: all.slice(0, RANKING_DEPTH) };
}

export function findByName<T extends Ranked>(entries: T[], name: string): T | undefined {
  return entries.find((e) => e.name === name);
}

/** Spec 9.5.1: the product level is a Profile B option, used only when the run asks for it. */
export function isProductLevel(ctx: RuleContext): boolean {
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
 * The HTML side of item 5. `perPlatform(key)`: the per-platform list, `undefined` when the HTML has none
 * for that platform. `problems`: why a side cannot be read (a product field of the wrong shape), each a
 * failure of the item, never a crash.
 */
export interface HtmlRankingSide {
  aggregate: Ranked[] | undefined;
  perPlatform(key: string): RankingEntry[] | undefined;
  /** The name of the per-platform list in DATA, for messages. */
  listName: string;
  notes: string[];
  problems: string[];
  /** The product level with an aggregate product_ranking list: no per-platform product rates. */
  noPerPlatform?: string;
}

/**
 * Profile A (7.6): own brand + core_competitors as printed; per platform industry_ranking.
 * Profile B (9.5.3): placeholders skipped, maximum kept for equal names.
 */
function brandSide(ctx: RuleContext): HtmlRankingSide {
  const { brand } = ctx.data;
  const ownBrand: Ranked = { name: brand.name, exposureRate: brand.summary.avg_exposure_rate };
  const aggregate =
    ctx.profile === 'A'
      ? [ownBrand, ...brand.core_competitors.map(fromCompetitor)]
      : maxForEqualNames([ownBrand, ...withoutPlaceholders(brand.core_competitors)]);
  return {
    aggregate,
    perPlatform: (key) => own(brand.platforms, key)?.industry_ranking,
    listName: 'industry_ranking',
    notes: [],
    problems: [],
  };
}

/**
 * Profile B product level (9.5.1): core_product_competitors, same 9.5.3 rules (the own brand is a
 * brand-level entry and not part of the product list); per platform product_ranking in either form
 * (docs/rules.md §D8). A list is the aggregate ranking: it stands in for core_product_competitors when
 * DATA has none, and leaves step 5.3 without per-platform product rates.
 */
function productSide(ctx: RuleContext): HtmlRankingSide {
  // Parsed with DATA, once (lib/schema/data.ts `dataSchemaFor('product')`): the rule parses nothing.
  const level: ProductLevel | undefined = ctx.data.product;
  if (!level) {
    return {
      aggregate: undefined,
      perPlatform: () => undefined,
      listName: 'product_ranking',
      notes: [],
      problems: [
        'DATA.product_ranking: DATA was not read at the product level (its product fields were not parsed), so the product ranking cannot be compared (9.5.1)',
      ],
    };
  }
  const notes: string[] = [];
  const ranking = level.ranking;
  let aggregateSource = level.competitors?.filter((c) => c.avg_exposure_rate !== 0).map(fromCompetitor);
  if (ranking?.form === 'aggregate') {
    notes.push('DATA.product_ranking is a list: read as the aggregate product ranking (docs/rules.md §D8)');
    if (!aggregateSource) {
      aggregateSource = ranking.entries.map((e) => ({ name: e.name, exposureRate: e.exposure_rate }));
      notes.push(
        'no core_product_competitors: the aggregate product_ranking list is the HTML aggregate ranking',
      );
    }
  } else if (ranking?.form === 'per-platform') {
    notes.push(
      'DATA.product_ranking is keyed by platform: read as the per-platform product rankings (docs/rules.md §D8)',
    );
  }
  return {
    aggregate: aggregateSource && maxForEqualNames(aggregateSource),
    perPlatform: (key) => (ranking?.form === 'per-platform' ? own(ranking.byPlatform, key) : undefined),
    listName: 'product_ranking',
    notes,
    problems: [],
    ...(ranking?.form === 'aggregate'
      ? {
          noPerPlatform:
            'DATA.product_ranking is an aggregate list: the HTML has no per-platform product rates (7.6 step 3)',
        }
      : {}),
  };
}

export function htmlRankingSide(ctx: RuleContext): HtmlRankingSide {
  return isProductLevel(ctx) ? productSide(ctx) : brandSide(ctx);
}

/**
 * Platform competitor rows in API order (never by `rank`, 7.6). Profile B keeps only the rows of the
 * compared kind (9.5.2). Profile A compares the rows as the API returns them: the kind filter is a
 * Profile B rule and Profile A never inherits it (docs/rules.md §D9).
 */
export function platformEntries(ctx: RuleContext): PlatformRanked[] {
  const rows =
    ctx.profile === 'B'
      ? ctx.platform.competitor.filter((r) => r.kind === ctx.level)
      : ctx.platform.competitor;
  return rows.map((row) => ({ name: row.name, exposureRate: row.exposure_rate, row }));
}
