import { z } from 'zod';
import { duplicateKeys, list, noDuplicates, platformKey, type DuplicateKey } from './keys';
import { optionalRate, printedRate, unusedRate } from './rate';
import { wordcloud } from './data';
import { isRemovedName, REMOVED_NAMES, type Level, type Profile } from './vocabulary';

/**
 * Payloads of the three endpoints, as fixed by docs/contract.md §4. Strict about what a check reads,
 * lenient about the rest: a row field no check reads is accepted in any shape (docs/contract.md §4.2), extra
 * fields are ignored, and a duplicate key that would let one row silently win is an error naming it.
 */

/** A field no check reads: any shape. */
const unused = z.unknown().optional();
/** A rank: never used by a check (spec 7.6, 7.8.4); any shape, kept when it is a number. */
const unusedRank = z
  .unknown()
  .optional()
  .transform((v) => (typeof v === 'number' && Number.isFinite(v) ? v : null));

/** A row's platform option: `all` or a platform key, said so when it is neither (not zod's "Invalid input"). */
const platformOption = z.union([z.literal('all'), platformKey], {
  error: (issue) =>
    `expected "all" or a platform key (a string), got ${issue.input === undefined ? 'nothing' : (JSON.stringify(issue.input)?.slice(0, 40) ?? typeof issue.input)}`,
});

/** The run's item of the batch list (docs/contract.md §4.1), validated once it is known to be the run's. */
export const batchItem = z.object({
  batchDate: z.string(),
  project: z.union([z.string(), z.number()]).transform(String),
  line: unused,
  l1CrawlBatchIds: list(z.object({ batchId: z.string().min(1) })),
});
/**
 * Contract 4.1: only the item whose batchDate and project are the run's is read, so the list's items
 * come as they are; lib/platform/batches.ts tells which is the run's and validates it with `batchItem`.
 * Another project's or day's item never fails the run.
 */
export const batchList = z.array(z.unknown());

/**
 * Spec 9.1.3: the authoritative batch id, a string (contract 4.2). A JSON number is read as its digits
 * only while it is a safe integer: beyond 2^53 the parser has already rounded it to another id.
 */
const crawlBatchId = z
  .union([z.string(), z.number(), z.null()])
  .optional()
  .transform((id, ctx) => {
    if (id === null || id === undefined) return undefined;
    if (typeof id === 'string' || Number.isSafeInteger(id)) return String(id);
    ctx.addIssue({
      code: 'custom',
      message: Number.isInteger(id)
        ? `the number ${id} is beyond 2^53, where JSON numbers lose digits, so it is not the platform's id: the contract has crawlBatchId as a string`
        : `the number ${id} is not an integer, so it is not a batch id: the contract has crawlBatchId as a string`,
    });
    return z.NEVER;
  });

const snapshotFields = z.object({
  platform: platformOption,
  exposure_rate: optionalRate,
  top3_rate: optionalRate,
  top5_rate: optionalRate,
  first_position_rate: optionalRate,
  top1_rate: optionalRate,
  /** Spec 9.2.2: never used by a check, so any shape is accepted. */
  position_rate: unusedRate,
  positive_rate: optionalRate,
  brand_exposure_rate: printedRate,
  product_link_rate: optionalRate,
  crawlBatchId,
});

/** A snapshot row: every rate a number or null; `brand_exposure_rate_printed` keeps its printed form. */
export interface SnapshotRow {
  platform: string;
  exposure_rate: number | null;
  top3_rate: number | null;
  top5_rate: number | null;
  first_position_rate: number | null;
  top1_rate: number | null;
  position_rate: number | null;
  positive_rate: number | null;
  brand_exposure_rate: number | null;
  /** Spec 9.3.4: brand_exposure_rate as the platform printed it (`"36.0"` is not an integer print). */
  brand_exposure_rate_printed?: string;
  product_link_rate: number | null;
  crawlBatchId?: string | undefined;
}

export const snapshotRow = snapshotFields.transform(({ brand_exposure_rate, ...row }): SnapshotRow => ({
  ...row,
  brand_exposure_rate: brand_exposure_rate.value,
  ...(brand_exposure_rate.printed !== undefined
    ? { brand_exposure_rate_printed: brand_exposure_rate.printed }
    : {}),
}));

export const competitorRow = z.object({
  kind: z.enum(['brand', 'product']),
  name: z.string(),
  rank: unusedRank,
  /**
   * A missing key is no value, as for every rate (docs/contract.md §4.2): the platform's 「-」, which
   * agrees only with an empty HTML cell (7.6) and fails against a value.
   */
  exposure_rate: optionalRate,
  platform_rates: list(
    z.object({
      /** Only named in a note (columns are matched by position, spec 7.6): any shape. */
      name: z
        .unknown()
        .optional()
        .transform((v) => (typeof v === 'string' ? v : v == null ? '' : String(v))),
      rate: optionalRate,
    }),
  ),
});

export const tmcDimension = z.enum(['content_type', 'publish_time', 'media_category', 'media_name']);

export const tmcRow = z.object({
  platform: platformOption,
  dimension: tmcDimension,
  name: z.string(),
  /** A missing key is no value, as for every rate (docs/contract.md §4.2); a share needing it fails. */
  value: optionalRate,
});

export const sourceRow = z.object({
  title: z.string(),
  channel: z.string(),
  cite_count: z.number().int(),
  rank: unusedRank,
  url: unused,
});

/** A tmc row the share checks remove before they read a chart (spec 7.3.2, 7.4, 7.5, 9.4.2). */
function removedBeforeRead(row: TmcRow): boolean {
  if (row.dimension === 'publish_time') return isRemovedName(row.name, [REMOVED_NAMES.noTime]);
  return (
    (row.dimension === 'media_category' || row.dimension === 'media_name') &&
    isRemovedName(row.name, REMOVED_NAMES.otherAndUnknown)
  );
}

export const rowsOf = <T extends z.ZodType>(row: T) => z.object({ rows: list(row) });

type Keyed<T> = (row: T) => string | undefined;
const keyedRows = <T extends z.ZodType>(row: T, key: Keyed<z.output<T>>, what: string, field: string) =>
  z.object({ rows: list(row).superRefine(noDuplicates(key, what, field)) });

/**
 * Spec 7.6 matches rows by name (per kind in Profile B): a repeated name among the rows a run reads
 * is an error. Profile A reads every row (docs/rules.md §D9); Profile B only those of the compared
 * kind (9.5.2: "brand-level comparison keeps only kind=brand rows"), so two product rows of one name
 * (products of two brands both called 纯牛奶) are no error in a brand-level run, which never reads
 * them: until 2026-11-28 they made every such run an error (platform-side audit 59g).
 */
const competitorRows = (readsKind?: Level) =>
  keyedRows(
    competitorRow,
    (r) => (readsKind && r.kind !== readsKind ? undefined : `${JSON.stringify(r.name)} (kind ${r.kind})`),
    'competitor row',
    'name',
  );

/**
 * The competitor table's schemas, made once: Profile A's (every row) and Profile B's per level. One
 * schema object per case, so that a parse is a parse of a known schema (tests/unit/compute-once.spec.ts
 * counts them: a schema made per run went uncounted, review of 2026-11-28).
 */
export const COMPETITOR_TABLES = {
  A: competitorRows(),
  B: { brand: competitorRows('brand'), product: competitorRows('product') },
} as const;

export function competitorTable(profile: Profile, level: Level) {
  return profile === 'A' ? COMPETITOR_TABLES.A : COMPETITOR_TABLES.B[level];
}

/**
 * The snapshot and tmc rows' keys among those a run reads, undefined for a row no check reads:
 * items 3 and 4 read the snapshot rows of `all` and of the six AI platforms (the first six of
 * `DATA.meta.platforms`, docs/rules.md §D7), the share items the tmc rows of the same options, and
 * of those not 「无时间」 of publish time nor 「其他」「未知」 of media type and media name, which the
 * charts remove before they are read (spec 7.3.2, 7.4, 7.5, 9.4.2).
 */
const READ_KEYS = {
  snapshot: {
    key: (r: SnapshotRow) => JSON.stringify(r.platform),
    what: 'snapshot row for platform',
    field: 'platform',
  },
  tmc: {
    key: (r: TmcRow) =>
      removedBeforeRead(r)
        ? undefined
        : `(platform ${JSON.stringify(r.platform)}, dimension ${r.dimension}, name ${JSON.stringify(r.name)})`,
    what: 'tmc row',
    field: 'name',
  },
} as const;

/**
 * One row per platform option (snapshot) and per option, dimension and name (tmc) among the rows
 * the run reads (`read`: `all` and the six AI platforms' keys): two rows of a seventh platform, or
 * of a key DATA does not list, are read by no item, and until review 59j they made the run an
 * error that failed all ten items (docs/contract.md §5: fields a run does not use are never
 * validated against it). Checked once the run's report is known, so the tables' schemas stay one
 * each (tests/unit/compute-once.spec.ts).
 */
export function readDuplicates(
  table: 'snapshot',
  rows: readonly SnapshotRow[],
  read: ReadonlySet<string>,
): DuplicateKey[];
export function readDuplicates(
  table: 'tmc',
  rows: readonly TmcRow[],
  read: ReadonlySet<string>,
): DuplicateKey[];
export function readDuplicates(
  table: 'snapshot' | 'tmc',
  rows: readonly (SnapshotRow | TmcRow)[],
  read: ReadonlySet<string>,
): DuplicateKey[] {
  const k = READ_KEYS[table] as {
    key: (r: SnapshotRow | TmcRow) => string | undefined;
    what: string;
    field: string;
  };
  return duplicateKeys(rows, (r) => (read.has(r.platform) ? k.key(r) : undefined), k.what, k.field);
}

export const metricsTables = {
  /**
   * One row per platform plus `all` (docs/contract.md §4.2); two rows for one platform a run reads
   * are an error (`readDuplicates`).
   */
  snapshot: rowsOf(snapshotRow),
  /** Every row read, as Profile A reads them (docs/rules.md §D9): `competitorTable` for a run. */
  competitor: COMPETITOR_TABLES.A,
  /** One value per platform, dimension and name among the rows a chart reads (`readDuplicates`). */
  tmc: rowsOf(tmcRow),
  /** Repeated titles are paired occurrence by occurrence (spec 7.8.1), so they are not an error. */
  source: rowsOf(sourceRow),
} as const;
export type MetricsTable = keyof typeof metricsTables;

export const wordcloudPayload = wordcloud;

export type BatchItem = z.output<typeof batchItem>;
export type CompetitorRow = z.output<typeof competitorRow>;
export type TmcRow = z.output<typeof tmcRow>;
export type TmcDimension = z.output<typeof tmcDimension>;
export type SourceRow = z.output<typeof sourceRow>;
export type WordcloudPayload = z.output<typeof wordcloudPayload>;

/** Platform evidence of one run: every payload fetched once and validated (docs/contract.md §4, 6). */
export interface PlatformEvidence {
  snapshot: SnapshotRow[];
  competitor: CompetitorRow[];
  tmc: TmcRow[];
  /** Source rows per platform option: `all` and each platform key the HTML has sources for. */
  sources: Record<string, SourceRow[]>;
  wordcloud: WordcloudPayload;
}
