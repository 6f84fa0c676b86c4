import type { PlatformData } from '../schema/data';
import type { SnapshotRow } from '../schema/platform';
import type { RuleContext } from './types';
import { sameDecimal } from './decimal';

type TrendPoint = PlatformData['trend'][number];
/** The figures a trend point carries (a padding point carries none of them). */
const TREND_FIELDS = [
  'exposure_rate',
  'top3_rate',
  'top5_rate',
  'first_position_rate',
  'positive_mention_rate',
  'brand_exposure_rate',
] as const satisfies readonly (keyof TrendPoint)[];

export type PositionMetric = 'first' | 'top3' | 'top5';

/** One side's figures of the five Profile B cards (spec 9.2), or Profile A's three points (7.2). */
export interface Figures {
  brandExposureRate?: number | null;
  exposureRate: number | null;
  first?: number | null;
  top3?: number | null;
  top5?: number | null;
  positiveRate: number | null;
  productLink?: number | null;
}

/** The HTML side of one platform for item 4, where it was read from, and `self` for Profile B. */
export interface PlatformFigures {
  figures: Figures;
  source: string;
  self?: Figures;
  /**
   * The other points the trend prints for the same (last) day, whose figures differ from the one
   * compared: spec 2.1 holds one point per monitoring day, so neither can be taken for the day's
   * point alone, and each is compared (docs/rules.md §D4).
   */
  sameDay?: Figures[];
}

interface SnapshotPick {
  value: number | null;
  note?: string;
}

/**
 * Spec 9.2: "first uses first_position_rate, otherwise top1_rate; top3 and top5 use the same-named
 * rate". position_rate is never used (9.2.2): it often holds the line's current top-3/top-5 display.
 */
export function snapshotPosition(row: SnapshotRow, metric: PositionMetric): SnapshotPick {
  if (metric === 'top3') return { value: row.top3_rate };
  if (metric === 'top5') return { value: row.top5_rate };
  if (row.first_position_rate !== null) return { value: row.first_position_rate };
  return {
    value: row.top1_rate,
    note: 'first_position_rate empty: top1_rate stands in (9.2); position_rate never used (9.2.2)',
  };
}

/** The HTML figure of the position card that `meta.position_metric` selects (spec 9.2). */
export function positionOf(figures: Figures, metric: PositionMetric): number | null {
  return (metric === 'first' ? figures.first : metric === 'top3' ? figures.top3 : figures.top5) ?? null;
}

/** Item 3's HTML side: `brand.summary`, and `overall` for Profile B's brand exposure rate (spec 9.2). */
export function aggregateFigures(ctx: RuleContext): Figures {
  const { summary } = ctx.data.brand;
  return {
    brandExposureRate: ctx.data.overall?.brand_level_exposure_rate ?? null,
    exposureRate: summary.avg_exposure_rate,
    first: summary.avg_first_position_rate,
    top3: summary.avg_top3_rate,
    top5: summary.avg_top5_rate,
    positiveRate: summary.avg_positive_mention_rate,
    productLink: summary.product_link,
  };
}

function selfFigures(data: PlatformData): Figures {
  const s = data.self;
  return {
    brandExposureRate: s.brand_exposure_rate,
    exposureRate: s.exposure_rate,
    first: s.first_position_rate,
    top3: s.top3_rate,
    top5: s.top5_rate,
    positiveRate: s.positive_mention_rate,
    productLink: s.product_link_rate,
  };
}

/**
 * The HTML side of one platform for item 4 (docs/rules.md §D4): the last trend point by date, or
 * `self` for a Profile B diagnosis without a multi-period trend (9.2.3) and for a Profile B trend
 * with no point (Profile A fails that before it comes here, kpi.ts). `self` is also returned when a
 * trend point is used, because spec 9.2 names `self` as Profile B's per-platform figure.
 */
export function platformFigures(ctx: RuleContext, data: PlatformData): PlatformFigures {
  // Spec 7.2: the last monitoring-day point; the latest date wins, ties keep the last printed. A
  // point dated after the report's batch date with no value at all is no monitoring day: a chart
  // drawn on a fixed axis pads the days to come with empty points, and the last of those was
  // compared (a platform audit of 2026-11-28: item 4 failed every platform, "no value on the HTML
  // side"). A later point with a value is still the last one, and compared (review of the fix: a
  // filter by date alone passed a report whose later day differed); the step says when the batch
  // date has no point of its own.
  const padding = (p: TrendPoint) =>
    ctx.batchDate !== undefined &&
    p.date > ctx.batchDate &&
    TREND_FIELDS.every((f) => (p[f] ?? null) === null);
  const monitored = data.trend.filter((p) => !padding(p));
  // 9.2.3's multi-period trend counts monitoring days: padding is none (review of 2026-11-28).
  const dates = new Set(monitored.map((p) => p.date));
  const useSelf = ctx.profile === 'B' && ctx.reportType === 'diagnosis' && dates.size < 2;
  if (useSelf || data.trend.length === 0) {
    return {
      figures: selfFigures(data),
      source: useSelf
        ? 'self (diagnosis without a multi-period trend, 9.2.3)'
        : 'self (the trend series has no point; spec 9.2 names self as the per-platform figure)',
    };
  }
  const last = (monitored.length ? monitored : data.trend).reduce((a, b) => (b.date >= a.date ? b : a));
  // A later day than the batch's is compared with the batch's snapshot: said, so that a reader of
  // the step does not take the point for the batch date's (time audit of 2026-11-28).
  const dated =
    ctx.batchDate !== undefined && last.date < ctx.batchDate
      ? `trend point ${last.date} (none on the batch date ${ctx.batchDate}${monitored.length < data.trend.length ? '; the empty points after it are no monitoring days' : ''})`
      : ctx.batchDate !== undefined && last.date > ctx.batchDate
        ? `trend point ${last.date} (after the batch date ${ctx.batchDate}, whose snapshot it is compared with: the trend's last monitoring day)`
        : `trend point ${last.date}`;
  const figuresOf = (p: TrendPoint): Figures => ({
    brandExposureRate: p.brand_exposure_rate,
    exposureRate: p.exposure_rate,
    first: p.first_position_rate,
    top3: p.top3_rate,
    top5: p.top5_rate,
    positiveRate: p.positive_mention_rate,
    productLink: data.self.product_link_rate,
  });
  const point = figuresOf(last);
  // Spec 2.1: "one point per monitoring day". Two points of the last day that differ cannot be told
  // apart: the last printed alone was compared, and the other, whatever it held, passed unseen
  // (HTML-side audit 59f). Each of them is compared; points equal in every figure are one point.
  const ofTheDay = (monitored.length ? monitored : data.trend).filter((p) => p.date === last.date);
  const sameDayPoints = ofTheDay.filter(
    (p) => p !== last && TREND_FIELDS.some((f) => !sameDecimal(p[f] ?? null, last[f] ?? null)),
  );
  const sameDay = sameDayPoints.length ? { sameDay: sameDayPoints.map(figuresOf) } : {};
  const twice = sameDayPoints.length
    ? `; the trend prints ${ofTheDay.length} points dated ${last.date} with different figures (spec 2.1: one point per monitoring day): each is compared`
    : '';
  const self = selfFigures(data);
  if (ctx.profile === 'A') return { figures: point, source: dated + twice, self, ...sameDay };
  const filled = fillFromSelf(point, self);
  for (const other of sameDay.sameDay ?? []) fillFromSelf(other, self);
  const source =
    (filled.length > 0 ? `${dated}; ${filled.join(', ')} from self (the trend point has none, 9.2)` : dated) +
    twice;
  return { figures: point, source, self, ...sameDay };
}

/**
 * Spec 9.2 names `self.<field>` as Profile B's per-platform HTML figure: a card the last trend point
 * lacks is taken from self (it is not "no value on the HTML side"). Returns the cards filled.
 */
function fillFromSelf(point: Figures, self: Figures): string[] {
  const filled: string[] = [];
  for (const key of Object.keys(point) as (keyof Figures)[]) {
    if (key === 'productLink') continue;
    if ((point[key] ?? null) === null && (self[key] ?? null) !== null) {
      point[key] = self[key] as number;
      filled.push(key);
    }
  }
  return filled;
}
