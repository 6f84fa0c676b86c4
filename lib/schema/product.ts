import { z } from 'zod';
import { carryIssues, describeIssues } from './issues';
import { list, platformRecord } from './keys';
import { optionalRate } from './rate';

/** Ranking entries (docs/contract.md §5), shared by the brand level (data.ts) and the product level. */
export const rankingEntry = z.object({ name: z.string(), exposure_rate: optionalRate });
export const competitorEntry = z.object({ name: z.string(), avg_exposure_rate: optionalRate });
type RankingEntry = z.output<typeof rankingEntry>;
type CompetitorEntry = z.output<typeof competitorEntry>;

/**
 * Contract 5: `product_ranking` is either a list (an aggregate product ranking) or an object keyed by
 * platform (per platform, like industry_ranking). Both are accepted; the form is kept so the rule can
 * say which one it used.
 */
export type ProductRanking =
  | { form: 'aggregate'; entries: RankingEntry[] }
  | { form: 'per-platform'; byPlatform: Map<string, RankingEntry[]> };

const aggregateForm = list(rankingEntry);
const perPlatformForm = platformRecord(list(rankingEntry));

const productRanking = z.unknown().transform((value, ctx): ProductRanking | undefined => {
  if (value === undefined || value === null) return undefined;
  if (Array.isArray(value)) {
    const parsed = aggregateForm.safeParse(value);
    if (parsed.success) return { form: 'aggregate', entries: parsed.data };
    carryIssues(ctx, parsed.error.issues);
    return z.NEVER;
  }
  const parsed = perPlatformForm.safeParse(value);
  if (parsed.success) return { form: 'per-platform', byPlatform: new Map(Object.entries(parsed.data)) };
  const issues = parsed.error.issues;
  if (issues.length === 1 && issues[0]!.path.length === 0) {
    ctx.addIssue({
      code: 'custom',
      message: `expected a list (aggregate) or an object keyed by platform, got ${typeof value}`,
    });
  } else {
    carryIssues(ctx, issues);
  }
  return z.NEVER;
});

/** The product-level fields of DATA (spec 9.5.1), validated only for a product-level run. */
export const productLevelSchema = z.object({
  core_product_competitors: list(competitorEntry).optional(),
  product_ranking: productRanking,
});

export interface ProductLevel {
  competitors?: CompetitorEntry[];
  ranking?: ProductRanking;
}

/**
 * The product-level view of DATA for the item 5 rule: `issues` (named `DATA.product_ranking[...]`) when
 * the fields do not validate, so the rule fails with them instead of crashing.
 */
export function productLevelData(data: {
  core_product_competitors?: unknown;
  product_ranking?: unknown;
}): { ok: true; value: ProductLevel } | { ok: false; issues: string[] } {
  const parsed = productLevelSchema.safeParse({
    core_product_competitors: data.core_product_competitors,
    product_ranking: data.product_ranking,
  });
  if (!parsed.success) return { ok: false, issues: describeIssues(parsed.error, 'DATA') };
  const { core_product_competitors: competitors, product_ranking: ranking } = parsed.data;
  return { ok: true, value: { ...(competitors ? { competitors } : {}), ...(ranking ? { ranking } : {}) } };
}
