import type { PlatformData } from '../schema/data';
import type { SnapshotRow } from '../schema/platform';
import { AI_PLATFORM_COUNT, aiPlatforms, countRow, missingGroupRow } from './groups';
import { own } from './keyed';
import { percentRow } from './percent';
import {
  makeItem,
  makeStep,
  ITEM_TITLES,
  type ComparisonRow,
  type ItemResult,
  type RuleContext,
  type StepResult,
} from './types';

type PositionMetric = 'first' | 'top3' | 'top5';

/** One side's figures of the five Profile B cards (spec 9.2), or Profile A's three points (7.2). */
interface Figures {
  brandExposureRate?: number | null;
  exposureRate: number | null;
  first?: number | null;
  top3?: number | null;
  top5?: number | null;
  positiveRate: number | null;
  productLink?: number | null;
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

function positionOf(figures: Figures, metric: PositionMetric): number | null {
  return (metric === 'first' ? figures.first : metric === 'top3' ? figures.top3 : figures.top5) ?? null;
}

const POSITION_CARD: Record<PositionMetric, string> = {
  first: '首位率 first_position_rate',
  top3: '前三率 top3_rate',
  top5: '前五率 top5_rate',
};

/** Profile A (7.2, contract 6): exposure_rate, top3_rate and positive_rate. */
function profileARows(prefix: string, html: Figures, row: SnapshotRow): ComparisonRow[] {
  return [
    percentRow(`${prefix}露出率 exposure_rate`, html.exposureRate, row.exposure_rate, 'A'),
    percentRow(`${prefix}前三率 top3_rate`, html.top3 ?? null, row.top3_rate, 'A'),
    percentRow(`${prefix}中正面提及率 positive_rate`, html.positiveRate, row.positive_rate, 'A'),
  ];
}

/** Profile B (9.2): the five fixed cards, each one row; product link only where 9.2 says it is compared. */
function profileBRows(
  prefix: string,
  html: Figures,
  row: SnapshotRow,
  metric: PositionMetric,
  productLink: 'aggregate' | 'platform',
  notes: string[],
  itemNotes: string[] = notes,
): ComparisonRow[] {
  const position = snapshotPosition(row, metric);
  const rows = [
    // 9.2.1: brand_level_exposure_rate is never compared with the designated-words exposure rate.
    percentRow(
      `${prefix}品牌露出率 brand_exposure_rate`,
      html.brandExposureRate ?? null,
      row.brand_exposure_rate,
      'B',
      // 9.3.4: "prints an integer" is read from the printed form the schema kept ("36.0" is not).
      {
        integerRule: true,
        ...(row.brand_exposure_rate_printed !== undefined
          ? { platformPrinted: row.brand_exposure_rate_printed }
          : {}),
      },
    ),
    percentRow(`${prefix}露出率 exposure_rate`, html.exposureRate, row.exposure_rate, 'B'),
    percentRow(
      `${prefix}${POSITION_CARD[metric]}`,
      positionOf(html, metric),
      position.value,
      'B',
      {},
      position.note,
    ),
    percentRow(`${prefix}中正面提及率 positive_rate`, html.positiveRate, row.positive_rate, 'B'),
  ];
  const htmlLink = html.productLink ?? null;
  if (productLink === 'aggregate') {
    if (htmlLink !== null)
      rows.push(
        percentRow(`${prefix}商品链接露出率 product_link_rate`, htmlLink, row.product_link_rate, 'B'),
      );
    else notes.push('商品链接露出率: the HTML aggregate card has no value, so it is not compared (9.2)');
  } else if (row.product_link_rate === null) {
    // Issue 9 case 9: nothing dropped silently; the mirror of item 3's note.
    if (htmlLink !== null) {
      const note = `${prefix}商品链接露出率: the HTML self has ${htmlLink} but the snapshot product_link_rate is empty: per platform the snapshot decides, so it is not compared (9.2)`;
      notes.push(note);
      if (itemNotes !== notes) itemNotes.push(note);
    }
  } else {
    // 9.2: per platform the snapshot's product_link_rate decides; no separate HTML card → aggregate only.
    if (htmlLink !== null)
      rows.push(
        percentRow(`${prefix}商品链接露出率 product_link_rate`, htmlLink, row.product_link_rate, 'B'),
      );
    else
      notes.push(
        `${prefix}商品链接露出率: the HTML self has no separate card: only the aggregate is reported (9.2)`,
      );
  }
  return rows;
}

function snapshotRowFor(ctx: RuleContext, platform: string): SnapshotRow | undefined {
  return ctx.platform.snapshot.find((r) => r.platform === platform);
}

function missingSnapshot(id: string, name: string, platform: string): StepResult {
  const note = 'the snapshot has no row for this platform';
  return makeStep(id, name, [missingGroupRow(`snapshot row platform=${platform}`, 'present', null, note)]);
}

/** Item 3 · KPI cards, aggregate (spec 7.2, 9.2; contract 6: summary (+ overall in B) vs snapshot `all`). */
export function checkItem3(ctx: RuleContext): ItemResult {
  const { summary } = ctx.data.brand;
  const html: Figures = {
    brandExposureRate: ctx.data.overall?.brand_level_exposure_rate ?? null,
    exposureRate: summary.avg_exposure_rate,
    first: summary.avg_first_position_rate,
    top3: summary.avg_top3_rate,
    top5: summary.avg_top5_rate,
    positiveRate: summary.avg_positive_mention_rate,
    productLink: summary.product_link,
  };
  const row = snapshotRowFor(ctx, 'all');
  if (!row) return makeItem(3, ITEM_TITLES[3], [missingSnapshot('all', 'aggregate cards', 'all')]);
  const notes: string[] = [];
  const rows =
    ctx.profile === 'A'
      ? profileARows('', html, row)
      : profileBRows('', html, row, ctx.data.meta.position_metric ?? 'top3', 'aggregate', notes);
  // One step per card (style: steps that match the spec's cards).
  return makeItem(
    3,
    ITEM_TITLES[3],
    rows.map((r) => makeStep(r.key, r.key, [r])),
    notes,
  );
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
 * The HTML side of one platform for item 4 (contract 6): the last trend point by date, or `self`
 * for a Profile B diagnosis without a multi-period trend (9.2.3). `self` is also returned when a
 * trend point is used, because spec 9.2 names `self` as Profile B's per-platform figure.
 */
export function platformFigures(
  ctx: RuleContext,
  data: PlatformData,
): { figures: Figures; source: string; self?: Figures } {
  const dates = new Set(data.trend.map((p) => p.date));
  const useSelf = ctx.profile === 'B' && ctx.reportType === 'diagnosis' && dates.size < 2;
  if (useSelf || data.trend.length === 0) {
    return {
      figures: selfFigures(data),
      source: useSelf ? 'self (diagnosis without a multi-period trend, 9.2.3)' : 'self',
    };
  }
  // Spec 7.2: the last monitoring-day point; the latest date wins, ties keep the last printed.
  const last = data.trend.reduce((a, b) => (b.date >= a.date ? b : a));
  const point: Figures = {
    brandExposureRate: last.brand_exposure_rate,
    exposureRate: last.exposure_rate,
    first: last.first_position_rate,
    top3: last.top3_rate,
    top5: last.top5_rate,
    positiveRate: last.positive_mention_rate,
    productLink: data.self.product_link_rate,
  };
  const self = selfFigures(data);
  if (ctx.profile === 'A') return { figures: point, source: `trend point ${last.date}`, self };
  const filled = fillFromSelf(point, self);
  const source =
    filled.length > 0
      ? `trend point ${last.date}; ${filled.join(', ')} from self (the trend point has none, 9.2)`
      : `trend point ${last.date}`;
  return { figures: point, source, self };
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

/**
 * Profile B (9.2): the cards from the last trend point (contract 6) and, where the report's `self`
 * prints another value for a card, that `self` value too, so neither reading of the HTML side can
 * hide a difference from the snapshot.
 */
function profileBPlatformRows(
  key: string,
  html: ReturnType<typeof platformFigures>,
  row: SnapshotRow,
  metric: PositionMetric,
  notes: string[],
  itemNotes: string[],
): ComparisonRow[] {
  const rows = profileBRows(`${key} · `, html.figures, row, metric, 'platform', notes, itemNotes);
  if (!html.self) return rows;
  const fromTrend = new Map(rows.map((r) => [r.key, r.html]));
  const extra = profileBRows(`${key} · `, html.self, row, metric, 'platform', [])
    .filter((r) => r.html !== null && fromTrend.has(r.key) && fromTrend.get(r.key) !== r.html)
    .map((r) => ({
      ...r,
      key: `${r.key} (self)`,
      note: [r.note, 'self differs from the last trend point (9.2)'].filter(Boolean).join('; '),
    }));
  return [...rows, ...extra];
}

/** Item 4 · KPI points per platform (spec 7.2 for A, 9.2 for B): one step per AI platform. */
export function checkItem4(ctx: RuleContext): ItemResult {
  const platforms = aiPlatforms(ctx.data);
  const itemNotes: string[] = [];
  const steps: StepResult[] = platforms.map((p) => {
    const name = `${p.name} (${p.key})`;
    const html = own(ctx.data.brand.platforms, p.key);
    const row = snapshotRowFor(ctx, p.key);
    if (!html) {
      const note = 'the HTML has no data for this platform';
      return makeStep(p.key, name, [
        missingGroupRow(`DATA.brand.platforms.${p.key}`, null, row ? 'present' : null, note),
      ]);
    }
    if (!row) return missingSnapshot(p.key, name, p.key);
    if (html.trend.length === 0 && !(ctx.profile === 'B' && ctx.reportType === 'diagnosis')) {
      const note = 'the HTML trend series has no point (spec 7.2)';
      return makeStep(p.key, name, [missingGroupRow(`${p.key} trend`, null, 'snapshot', note)]);
    }
    const htmlSide = platformFigures(ctx, html);
    const stepNotes: string[] = [`HTML side: ${htmlSide.source}`];
    const rows =
      ctx.profile === 'A'
        ? profileARows(`${p.key} · `, htmlSide.figures, row)
        : profileBPlatformRows(
            p.key,
            htmlSide,
            row,
            ctx.data.meta.position_metric ?? 'top3',
            stepNotes,
            itemNotes,
          );
    return makeStep(p.key, name, rows, stepNotes);
  });
  if (platforms.length < AI_PLATFORM_COUNT) {
    steps.push(
      makeStep('platforms', 'six AI answer platforms', [
        countRow('DATA.meta.platforms', platforms.length, AI_PLATFORM_COUNT, 'spec 7.2 covers six platforms'),
      ]),
    );
  }
  return makeItem(4, ITEM_TITLES[4], steps, itemNotes);
}
