import { z } from 'zod';
import { optionalRate, rate } from './rate';
import { wordcloud } from './data';

/** Payloads of the three endpoints, as fixed by contract section 4. */

export const batchItem = z.object({
  batchDate: z.string(),
  project: z.union([z.string(), z.number()]).transform(String),
  line: z.string().optional(),
  l1CrawlBatchIds: z.array(z.object({ batchId: z.string().min(1) })),
});
export const batchList = z.array(batchItem);

export const snapshotRow = z.object({
  platform: z.string().min(1),
  exposure_rate: optionalRate,
  top3_rate: optionalRate,
  top5_rate: optionalRate,
  first_position_rate: optionalRate,
  top1_rate: optionalRate,
  position_rate: optionalRate,
  positive_rate: optionalRate,
  brand_exposure_rate: optionalRate,
  product_link_rate: optionalRate,
  crawlBatchId: z.string().optional(),
});

export const competitorRow = z.object({
  kind: z.enum(['brand', 'product']),
  name: z.string(),
  rank: z.number().int(),
  exposure_rate: rate,
  platform_rates: z.array(z.object({ name: z.string(), rate: optionalRate })),
});

export const tmcDimension = z.enum(['content_type', 'publish_time', 'media_category', 'media_name']);

export const tmcRow = z.object({
  platform: z.string().min(1),
  dimension: tmcDimension,
  name: z.string(),
  value: rate,
});

export const sourceRow = z.object({
  title: z.string(),
  channel: z.string(),
  cite_count: z.number().int(),
  rank: z.number().int(),
  url: z.string().optional(),
});

export const rowsOf = <T extends z.ZodType>(row: T) => z.object({ rows: z.array(row) });

export const metricsTables = {
  snapshot: rowsOf(snapshotRow),
  competitor: rowsOf(competitorRow),
  tmc: rowsOf(tmcRow),
  source: rowsOf(sourceRow),
} as const;
export type MetricsTable = keyof typeof metricsTables;

export const wordcloudPayload = wordcloud;

export type BatchItem = z.output<typeof batchItem>;
export type SnapshotRow = z.output<typeof snapshotRow>;
export type CompetitorRow = z.output<typeof competitorRow>;
export type TmcRow = z.output<typeof tmcRow>;
export type TmcDimension = z.output<typeof tmcDimension>;
export type SourceRow = z.output<typeof sourceRow>;
export type WordcloudPayload = z.output<typeof wordcloudPayload>;

/** Platform evidence of one run: every payload fetched once and validated (contract 4, 6). */
export interface PlatformEvidence {
  snapshot: SnapshotRow[];
  competitor: CompetitorRow[];
  tmc: TmcRow[];
  /** Source rows per platform option: `all` and each platform key the HTML has sources for. */
  sources: Record<string, SourceRow[]>;
  wordcloud: WordcloudPayload;
}
