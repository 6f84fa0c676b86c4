import { z } from 'zod';
import { optionalRate, rate, groupValue } from './rate';

/** The report's DATA object and the offline cal_data_json, as fixed by contract section 5. */

export const platformMeta = z.object({
  key: z.string().min(1),
  name: z.string().min(1),
  short_name: z.string().optional(),
});

export const groupEntry = z.object({ name: z.string(), value: groupValue });
export const group = z.array(groupEntry);

export const sourceEntry = z.object({
  title: z.string(),
  channel: z.string(),
  cite_count: z.number().int(),
  url: z.string().optional(),
});

export const wordEntry = z.object({ word: z.string(), weight: z.number().optional() });

export const wordcloud = z.object({
  words: z.array(wordEntry),
  positive: z.array(wordEntry),
  negative: z.array(wordEntry),
});

export const rankingEntry = z.object({ name: z.string(), exposure_rate: optionalRate });
export const competitorEntry = z.object({ name: z.string(), avg_exposure_rate: optionalRate });

export const selfFigures = z.object({
  exposure_rate: rate,
  top3_rate: optionalRate,
  top5_rate: optionalRate,
  first_position_rate: optionalRate,
  positive_mention_rate: rate,
  brand_exposure_rate: optionalRate,
  product_link_rate: optionalRate,
});

export const trendPoint = z.object({
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a date YYYY-MM-DD'),
  exposure_rate: rate,
  top3_rate: optionalRate,
  top5_rate: optionalRate,
  first_position_rate: optionalRate,
  positive_mention_rate: rate,
  brand_exposure_rate: optionalRate,
});

export const citation = z.object({
  media_category: group,
  content_type: group.optional(),
  publish_time: group.optional(),
  media_name: group.optional(),
  source_top30: z.array(sourceEntry).optional(),
});

export const platformData = z.object({
  self: selfFigures,
  trend: z.array(trendPoint),
  industry_ranking: z.array(rankingEntry),
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

export const dataSchema = z.object({
  meta: z.object({
    report_type: z.string().optional(),
    topic: z.union([z.string(), z.number()]).optional(),
    company_id: z.union([z.string(), z.number()]).optional(),
    project_id: z.union([z.string(), z.number()]).optional(),
    batch_date: z.string().optional(),
    mode: z.enum(['full', 'simple']).optional(),
    position_metric: z.enum(['first', 'top3', 'top5']).optional(),
    line: z.string().optional(),
    platforms: z.array(platformMeta).min(1),
  }),
  overall: z.object({ brand_level_exposure_rate: optionalRate }).optional(),
  brand: z.object({
    name: z.string().min(1),
    summary,
    tmc_aggregate: z.object({
      content_type: group.optional(),
      publish_time: group.optional(),
      media_category: group,
      media_name: group.optional(),
    }),
    source_top30: z.array(sourceEntry),
    core_competitors: z.array(competitorEntry),
    wordcloud,
    platforms: z.record(z.string(), platformData),
  }),
  core_product_competitors: z.array(competitorEntry).optional(),
  product_ranking: z.record(z.string(), z.array(rankingEntry)).optional(),
});

export type Data = z.output<typeof dataSchema>;
export type PlatformMeta = z.output<typeof platformMeta>;
export type PlatformData = z.output<typeof platformData>;
export type GroupEntry = z.output<typeof groupEntry>;
export type SourceEntry = z.output<typeof sourceEntry>;
export type Wordcloud = z.output<typeof wordcloud>;
export type RankingEntry = z.output<typeof rankingEntry>;
export type CompetitorEntry = z.output<typeof competitorEntry>;
