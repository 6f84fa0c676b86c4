import { z } from 'zod';
import { carryIssues } from './issues';
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
  | { form: 'per-platform'; byPlatform: Record<string, RankingEntry[]> };

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
  if (parsed.success) return { form: 'per-platform', byPlatform: parsed.data };
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
 * The product-level view of DATA (spec 9.5.1) from what `productLevelSchema` parsed: made once, when
 * a product-level run's DATA is parsed (data.ts `dataSchemaFor('product')`, as `Data.product`), and
 * read by the item 5 rule, which parses nothing itself.
 */
export function productLevelView(parsed: z.output<typeof productLevelSchema>): ProductLevel {
  const { core_product_competitors: competitors, product_ranking: ranking } = parsed;
  return { ...(competitors ? { competitors } : {}), ...(ranking ? { ranking } : {}) };
}
