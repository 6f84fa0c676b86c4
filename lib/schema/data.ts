import { z } from 'zod';
import { carryIssues } from './issues';
import { isRecord } from '../util/json';
import { list, noDuplicates, platformKey, platformRecord } from './keys';
import { optionalRate, rate, groupValue } from './rate';
import { realDate } from '../util/calendar';
import { isRemovedName, REMOVED_NAMES } from './vocabulary';
import {
  competitorEntry,
  productLevelSchema,
  productLevelView,
  rankingEntry,
  type ProductLevel,
} from './product';

/**
 * The report's DATA object and the offline cal_data_json, as fixed by docs/contract.md §5.
 * Strict about what a check reads (types, duplicate keys, rates), lenient about everything else: a field
 * no check reads is accepted in any shape (docs/contract.md §4.2, 5), and extra fields are ignored.
 */

/** A field no check reads: any shape. */
const unused = z.unknown().optional();
/**
 * An optional field (`?` in docs/contract.md §5) that is absent or `null`: a generator that writes
 * `"overall": null` or `"topic": null` means "not there", and it reads as absent. A value present is
 * validated by `schema` as ever.
 */
const absentOrNull = <T extends z.ZodType>(schema: T) =>
  schema
    .nullish()
    .transform((v): z.output<T> | undefined => v ?? undefined)
    .optional();
/** A text no check compares (a display name): kept when it is a string, otherwise dropped. */
const looseText = z
  .unknown()
  .optional()
  .transform((v) => (typeof v === 'string' ? v : undefined));

export const platformMeta = z.object({
  key: platformKey,
  name: z.string().min(1),
  short_name: looseText.optional(),
});

export const groupEntry = z.object({ name: z.string(), value: groupValue });
/**
 * A share group: entries keyed by name (spec 7.3), so a repeated name is an error, but for the
 * names its chart removes before it reads the entries (`removed`: 「无时间」 of publish time, 7.3.2;
 * 「其他」「未知」 of media type and name, 7.4, 7.5), whose values no legend or tile shows, so none
 * wins over another (Profile B's 9.4.2 denominator sums them all). The mirror of the tmc rows'
 * rule (lib/schema/platform.ts `removedBeforeRead`): a DATA group listing 「其他」 twice made the run
 * an error of all ten items (review 59j).
 */
const groupRemoving = (removed: readonly string[]) =>
  list(groupEntry).superRefine(
    noDuplicates((e) => (isRemovedName(e.name, removed) ? undefined : e.name), 'name', 'name'),
  );
export const group = groupRemoving([]);
const mediaGroup = groupRemoving(REMOVED_NAMES.otherAndUnknown);
const publishTimeGroup = groupRemoving([REMOVED_NAMES.noTime]);

export const sourceEntry = z.object({
  title: z.string(),
  channel: z.string(),
  cite_count: z.number().int(),
  url: unused,
});

/** Spec 7.7.3: only the words are compared; weight is accepted in any shape. */
export const wordEntry = z.object({ word: z.string(), weight: unused });

export const wordcloud = z.object({
  words: list(wordEntry),
  positive: list(wordEntry),
  negative: list(wordEntry),
});

export { competitorEntry, rankingEntry };

export const selfFigures = z.object({
  exposure_rate: rate,
  top3_rate: optionalRate,
  top5_rate: optionalRate,
  first_position_rate: optionalRate,
  positive_mention_rate: rate,
  brand_exposure_rate: optionalRate,
  product_link_rate: optionalRate,
});

/*
 * A trend date must be a day of the calendar (lib/util/calendar.ts `realDate`, as L1_BATCH_DATE is
 * read). Item 4 takes the latest trend date by its text, so an impossible one (`2026-11-31`,
 * `2026-13-02`, a generator's off-by-one) was the last point and compared with the batch's snapshot
 * without a word (time audit of 2026-11-28): now an error naming the point, as every other bad
 * field of DATA.
 */
export const trendPoint = z.object({
  date: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a date YYYY-MM-DD')
    .refine(realDate, 'expected a date YYYY-MM-DD: no such day in the calendar'),
  exposure_rate: rate,
  top3_rate: optionalRate,
  top5_rate: optionalRate,
  first_position_rate: optionalRate,
  positive_mention_rate: rate,
  brand_exposure_rate: optionalRate,
});

export const citation = z.object({
  media_category: mediaGroup,
  content_type: absentOrNull(group),
  publish_time: absentOrNull(publishTimeGroup),
  media_name: absentOrNull(mediaGroup),
  source_top30: absentOrNull(list(sourceEntry)),
});

export const platformData = z.object({
  self: selfFigures,
  trend: list(trendPoint),
  industry_ranking: list(rankingEntry),
  citation,
});

export const summary = z.object({
  avg_exposure_rate: rate,
  avg_positive_mention_rate: rate,
  avg_first_position_rate: optionalRate,
  avg_top3_rate: optionalRate,
  avg_top5_rate: optionalRate,
  product_link: optionalRate,
});

/**
 * The number of AI answer platforms items 4 to 12 cover: the first six of `meta.platforms` (spec
 * 7.2, 7.6 "fixed order", docs/contract.md §5 "the first six are the AI answer platforms").
 */
export const AI_PLATFORM_COUNT = 6;

/**
 * `brand.platforms` as the rules read it: the blocks of the six AI platforms, each validated
 * (issues named `DATA.brand.platforms.<key>…`). A block of any other key (a seventh, non-AI
 * platform such as a search engine, with a reduced block; a key `meta.platforms` does not list) is
 * a field no run uses, so never validated (docs/contract.md §5) and not kept: before, one such
 * block made every run of the report an error (encodings audit of 2026-11-26).
 */
function aiBlocksOnly(data: DataObject, ctx: z.RefinementCtx): Data {
  const platforms: Record<string, PlatformData> = {};
  for (const { key } of data.meta.platforms.slice(0, AI_PLATFORM_COUNT)) {
    if (!Object.hasOwn(data.brand.platforms, key)) continue;
    const parsed = platformData.safeParse(data.brand.platforms[key]);
    if (parsed.success) platforms[key] = parsed.data;
    else carryIssues(ctx, parsed.error.issues, ['brand', 'platforms', key]);
  }
  return { ...data, brand: { ...data.brand, platforms } };
}

/**
 * `all` is the aggregate option of every platform endpoint (docs/contract.md §4.2: "Platform keys are
 * the keys of `DATA.meta.platforms`; `all` is the aggregate"), so one of the six AI platforms keyed
 * `all` cannot be told from it: its trend was judged against the snapshot's `all` row, its groups and
 * sources against the aggregate's rows, and it pushed the sixth AI platform out of the six compared
 * (foolproof audit of 2026-11-28: a report that listed its platform menu's 「全部平台」 option first
 * passed items 4 and 7 to 12 with Kimi never compared). An error naming the field; a seventh or later
 * entry is compared by no item (`aiBlocksOnly`), so it is left alone.
 */
function noAggregateKey(platforms: readonly PlatformMeta[], ctx: z.RefinementCtx): void {
  platforms.slice(0, AI_PLATFORM_COUNT).forEach((p, index) => {
    if (p.key === 'all')
      ctx.addIssue({
        code: 'custom',
        path: [index, 'key'],
        message: `platform key "all" is not allowed among the first ${AI_PLATFORM_COUNT} (the AI answer platforms): "all" is the platform endpoints' aggregate option, so this platform could not be told from the aggregate (docs/contract.md §4.2)`,
      });
  });
}

const dataObject = z.object({
  meta: z.object({
    report_type: unused,
    topic: absentOrNull(z.union([z.string(), z.number()])),
    company_id: unused,
    project_id: unused,
    batch_date: unused,
    mode: unused,
    position_metric: absentOrNull(z.enum(['first', 'top3', 'top5'])),
    /**
     * Read to recognise Profile B (spec 9.1.1: "the line field contains the group's name"), so a
     * value present that is not text is an error naming it: dropped, it would have the run judged
     * by Profile A's rules without a word (encodings audit of 2026-11-26). Absent or null: no line.
     */
    line: absentOrNull(z.string()),
    /** Keyed by `key` (docs/contract.md §5): a repeated key would hide a platform (README.md § Security and limits). */
    platforms: list(platformMeta)
      .refine((platforms) => platforms.length > 0, 'expected at least one platform')
      .superRefine(noDuplicates((p) => p.key, 'platform key', 'key'))
      .superRefine(noAggregateKey),
  }),
  overall: absentOrNull(z.object({ brand_level_exposure_rate: optionalRate })),
  brand: z.object({
    name: z.string().min(1),
    summary,
    tmc_aggregate: z.object({
      content_type: absentOrNull(group),
      publish_time: absentOrNull(publishTimeGroup),
      media_category: mediaGroup,
      media_name: absentOrNull(mediaGroup),
    }),
    source_top30: list(sourceEntry),
    core_competitors: list(competitorEntry),
    wordcloud,
    /** Each block is validated below, for the six AI platforms only (`aiBlocksOnly`). */
    platforms: platformRecord(z.unknown()),
  }),
  /**
   * Product level (spec 9.5.1): used only by a product-level run, so never validated here (docs/contract.md §5:
   * "a brand-level run ignores them whatever their shape"). A product-level run parses them with
   * `dataSchemaFor('product')` into `Data.product`, which the item 5 rule reads (./product.ts).
   */
  core_product_competitors: z.unknown().optional(),
  product_ranking: z.unknown().optional(),
});

/**
 * DATA as a run of `level` must validate it: the brand level never looks at the product fields; the
 * product level also validates `core_product_competitors` and `product_ranking` (either form), with
 * issues named `DATA.product_ranking...`. Output shape is `Data` either way.
 */
export function dataSchemaFor(level: 'brand' | 'product') {
  if (level === 'brand') return dataSchema;
  return dataSchema.transform((data, ctx): Data => {
    const parsed = productLevelSchema.safeParse({
      core_product_competitors: data.core_product_competitors,
      product_ranking: data.product_ranking,
    });
    if (!parsed.success) {
      carryIssues(ctx, parsed.error.issues);
      return z.NEVER;
    }
    return { ...data, product: productLevelView(parsed.data) };
  });
}

export const dataSchema = dataObject.transform(aiBlocksOnly);

/** `brand.summary` fields only Profile B's cards read (spec 9.2). */
const PROFILE_B_SUMMARY = ['avg_first_position_rate', 'avg_top5_rate', 'product_link'];
/** A platform's `self` and trend point fields only Profile B's cards read (spec 9.2). */
const PROFILE_B_FIGURES = ['top5_rate', 'first_position_rate', 'brand_exposure_rate', 'product_link_rate'];

/** A copy of `v` without `keys`, when it is an object; anything else as it is (the parse says so). */
const omit = (v: unknown, keys: readonly string[]): unknown =>
  isRecord(v) ? Object.fromEntries(Object.entries(v).filter(([k]) => !keys.includes(k))) : v;
/** A copy of `v` with each of `fields` it has replaced by its function's result, when it is an object. */
const update = (v: unknown, fields: Record<string, (x: unknown) => unknown>): unknown =>
  isRecord(v)
    ? {
        ...v,
        ...Object.fromEntries(
          Object.entries(fields).flatMap(([k, f]) => (Object.hasOwn(v, k) ? [[k, f(v[k])]] : [])),
        ),
      }
    : v;
/** A copy of a record with `f` of each value, when it is one. */
const mapValues = (v: unknown, f: (x: unknown) => unknown): unknown =>
  isRecord(v) ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, f(x)])) : v;
const withoutFigures = (v: unknown) => omit(v, PROFILE_B_FIGURES);
/**
 * A platform's `self` as a Profile A run reads it: not at all. Item 4 compares the last trend point
 * (spec 7.2); `self` is Profile B's per-platform figure (9.2, 9.2.3). It stands as "no value" in every
 * figure, whatever the report holds there: validated, a Profile A report whose generator writes an
 * empty `self` as `[]` (PHP), or leaves it out, was an error of every item (HTML-side audit 59f).
 */
const PROFILE_A_SELF = { exposure_rate: null, positive_mention_rate: null };

/** `meta.line` as DATA holds it, when it is text: what recognises Profile B (spec 9.1.1) before the parse. */
export function rawLine(raw: unknown): string | undefined {
  const line = isRecord(raw) && isRecord(raw.meta) ? raw.meta.line : undefined;
  return typeof line === 'string' ? line : undefined;
}

/**
 * DATA as a run of `profile` validates it (docs/contract.md §5; contract §5: "Fields a run does not
 * use are never validated against it"). A Profile A run does not read `overall`,
 * `meta.position_metric`, the summary's first-position, top-5 and product-link figures, a
 * platform's `self` (`PROFILE_A_SELF`), nor those figures and the brand exposure rate of its trend
 * points (spec 9.2 is Profile B's):
 * they are left out before the one parse, so that no shape of theirs makes the run an error (the
 * encodings audit of 2026-11-27: `"overall": []`, as PHP writes an empty object, made every
 * Profile A run of such a report an error). A Profile B run validates them all. (The product
 * fields, which only a product-level run reads, are the schema's to leave alone: `dataSchemaFor`.)
 */
export function dataForProfile(raw: unknown, profile: 'A' | 'B'): unknown {
  if (profile === 'B') return raw;
  return update(omit(raw, ['overall']), {
    meta: (meta) => omit(meta, ['position_metric']),
    brand: (brand) =>
      update(brand, {
        summary: (summary) => omit(summary, PROFILE_B_SUMMARY),
        platforms: (platforms) =>
          mapValues(platforms, (block) =>
            isRecord(block)
              ? {
                  ...(update(block, {
                    trend: (trend) => (Array.isArray(trend) ? trend.map(withoutFigures) : trend),
                  }) as Record<string, unknown>),
                  self: PROFILE_A_SELF,
                }
              : block,
          ),
      }),
  });
}

type DataObject = z.output<typeof dataObject>;
type WithBlocks<T extends { brand: object }, B> = Omit<T, 'brand'> & {
  brand: Omit<T['brand'], 'platforms'> & { platforms: Record<string, B> };
};
/**
 * DATA as the rules read it: `brand.platforms` holds the six AI platforms' validated blocks; `product`
 * the product level's fields as a product-level run parsed them (`dataSchemaFor('product')`), once.
 */
export type Data = WithBlocks<DataObject, PlatformData> & { product?: ProductLevel };
/** DATA as a report writes it (the demo's views): every block in the shape the AI platforms' are read in. */
export type DataInput = WithBlocks<z.input<typeof dataObject>, z.input<typeof platformData>>;
export type PlatformMeta = z.output<typeof platformMeta>;
export type PlatformData = z.output<typeof platformData>;
export type GroupEntry = z.output<typeof groupEntry>;
export type SourceEntry = z.output<typeof sourceEntry>;
export type Wordcloud = z.output<typeof wordcloud>;
export type RankingEntry = z.output<typeof rankingEntry>;
export type CompetitorEntry = z.output<typeof competitorEntry>;
