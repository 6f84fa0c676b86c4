import type { z } from 'zod';
import type { ReportType } from '../lib/rules/types';
import type {
  batchItem,
  competitorRow,
  snapshotRow,
  sourceRow,
  tmcDimension,
  tmcRow,
  wordcloudPayload,
} from '../lib/schema/platform';
import { AI_PLATFORMS, type DomainKey } from './vocab';

/**
 * What a demo project is made of (its spec and the near-misses its dataset exercises), the input
 * shapes of DATA and the payload rows (taken from lib/schema, never restated), and the contract's
 * encodings both data generators print with (no value, rate shapes, envelopes).
 */

export type { ReportType };
export type { DataInput } from '../lib/schema/data';
export type BatchItemInput = z.input<typeof batchItem>;
export type SnapshotRowInput = z.input<typeof snapshotRow>;
export type CompetitorRowInput = z.input<typeof competitorRow>;
export type TmcRowInput = z.input<typeof tmcRow>;
export type SourceRowInput = z.input<typeof sourceRow>;
export type WordcloudInput = z.input<typeof wordcloudPayload>;
export type RateInput = string | number | null | undefined;
export type GroupInput = { name: string; value: string | number | null }[];

export type Dimension = z.infer<typeof tmcDimension>;
export const DIMENSIONS: readonly Dimension[] = [
  'content_type',
  'publish_time',
  'media_category',
  'media_name',
];

/**
 * The shapes a rate may take on the platform (docs/contract.md §4.2): a JSON number, a numeric
 * string, or a string with `%`. One list for both data generators (demo/model/encode.ts).
 */
export const RATE_SHAPES = ['number', 'string', 'percent'] as const;
export type RateShape = (typeof RATE_SHAPES)[number];

/** A rate's text (as the platform writes the number) in one of the shapes. */
export function printRate(text: string, shape: RateShape): string | number {
  if (shape === 'number') return Number(text);
  return shape === 'percent' ? `${text}%` : text;
}

/** How a demo project's platform prints its rates: one shape, or the three in turn (`mixed`). */
export type RateStyle = RateShape | 'mixed';
/**
 * How the platform prints "no value": `-`, `""`, `null`, or the key left out (docs/contract.md
 * §4.2). One list for both data generators: demo projects pick one, the generated cases draw from
 * all (demo/model/encode.ts).
 */
export const NO_VALUES = ['-', '', null, 'absent'] as const;
export type NoValue = (typeof NO_VALUES)[number];
/**
 * Contract 4: bare, or wrapped with code 0 / 200 and `msg` / `message`. `code0` is {code:0,msg},
 * `code200` is {code:200,message}; the other two pairings are spelled out. One list for both data
 * generators: demo projects pick one per endpoint, the generated cases draw from all.
 */
export const ENVELOPES = ['bare', 'code0', 'code200', 'code0-message', 'code200-msg'] as const;
export type Envelope = (typeof ENVELOPES)[number];

/** A payload in an envelope (docs/contract.md §4). */
export function wrap(envelope: Envelope, payload: unknown): unknown {
  switch (envelope) {
    case 'code0':
      return { code: 0, msg: 'ok', data: payload };
    case 'code0-message':
      return { code: 0, message: 'ok', data: payload };
    case 'code200':
      return { code: 200, message: 'success', data: payload };
    case 'code200-msg':
      return { code: 200, msg: 'success', data: payload };
    case 'bare':
      return payload;
  }
}

export interface ProjectSpec {
  projectId: string;
  companyId: number;
  profile: 'A' | 'B';
  reportType: ReportType;
  /** YYYY-MM-DD. */
  batchDate: string;
  topic: string;
  domain: DomainKey;
  brand: string;
  line: string;
  seed: string;
  /** The crawl batch ids the metrics endpoint answers for (joined with `,` by the suite). */
  batchIds: string[];
  /** Whether the project appears in the batch list of its company and report type. */
  listed: boolean;
  /** Profile B: DATA.meta.position_metric. */
  positionMetric?: 'first' | 'top3' | 'top5';
  /** How the page declares DATA (docs/contract.md §5). */
  dataDecl: 'const' | 'let' | 'var' | 'window';
  envelope: Envelope;
  /** The word cloud endpoint's envelope when it differs from the metrics tables'. */
  wordcloudEnvelope?: Envelope;
  /** DATA written as `JSON.parse('…')` instead of an object literal (docs/contract.md §5). */
  dataJsonParse?: boolean;
  /** Fields no check reads, of any shape: extra keys on payload rows and in DATA (docs/contract.md §4.2, 5). */
  unusedFields?: boolean;
  /** Optional DATA fields the rules of this profile never read are left out (docs/contract.md §5). */
  omitOptional?: boolean;
  /** Profile B: DATA.product_ranking per platform (default) or as one aggregate list (docs/contract.md §5). */
  productRanking?: 'per-platform' | 'list';
  rates: RateStyle;
  noValue: NoValue;
  shape: Shape;
}

/** The near-misses a dataset exercises. */
export interface Shape {
  /** Trend points (one per monitoring day or week); 0: no trend (Profile B diagnosis uses self, 9.2.3). */
  trendPoints: number;
  trendStepDays: number;
  /** Trend array order; `desc` proves "last point by date", not by position. */
  trendOrder: 'asc' | 'desc';
  /** `percent10`: ten percentages (legend cut at 8); `count7`: seven counts (7.3.3, 7.3.4). */
  contentType: 'percent10' | 'count7';
  /** Where 「无时间」 appears (7.3.2): only in the HTML percentages, only on the platform, or nowhere. */
  publishTime: 'html-no-time' | 'platform-no-time' | 'none';
  /** Platform media bars (7.4, 7.5): percentages, or raw counts (top-10 sum > 101.5 → divided). */
  mediaBars: 'percent' | 'count';
  /** A platform key whose content type is the 7.3.5 case: HTML percentages 52.1 … (sum 100.2), platform re-divided: 52. */
  doubleDivision?: string;
  /** HTML citation groups a platform does not have: not compared for that platform (docs/contract.md §6). */
  missingCitation?: { key: string; group: Dimension | 'source_top30' }[];
  /** Platforms with fewer than 30 related sources on both sides (7.8.1). */
  shortSources?: Record<string, number>;
  /** API rows of competitor and source tables in a shuffled order (ties keep their order). */
  apiShuffle: boolean;
  /** HTML summary rates as strings like "23.44%" (docs/contract.md §5: HTML follows the rate rules). */
  htmlRateStrings: boolean;
  /** A platform whose positive mention rate is exactly 100 (HTML prints "100", spec 7.1.1). */
  fullPositive?: string;
  /** HTML word weights normalized to 0..1, or left out (weights are never compared, 7.7.3). */
  htmlWeights: 'normalized' | 'absent';
  /** HTML sources carry `url`. */
  sourceUrls: boolean;
  /** `brand.platforms` keys in reverse display order (the display order is meta.platforms). */
  reversePlatformKeys?: boolean;
  /** DATA.meta.report_type as the page writes it (never a fallback for the URL, docs/contract.md §1.1). */
  metaReportType?: string;
}

/** The aggregate scope (`platform=all`) and every scope a share group or source list exists for. */
export const AGGREGATE = 'all';
export const SCOPES: readonly string[] = [AGGREGATE, ...AI_PLATFORMS.map((p) => p.key)];
