import type { SnapshotRow } from '../schema/platform';
import { sameDecimal } from './decimal';
import { own } from './keyed';
import {
  aggregateFigures,
  platformFigures,
  positionOf,
  snapshotPosition,
  type Figures,
  type PlatformFigures,
  type PositionMetric,
} from './kpi-sides';
import { AI_PLATFORM_COUNT, aiPlatforms, beyondSixNote } from './platforms';
import { makeItem, makeStep } from './results';
import { countRow, missingGroupRow, percentRow } from './rows';
import { type Cell, type ComparisonRow, type ItemResult, type RuleContext, type StepResult } from './types';

export { platformFigures, snapshotPosition } from './kpi-sides';

const POSITION_CARD: Record<PositionMetric, string> = {
  first: '首位率 first_position_rate',
  top3: '前三率 top3_rate',
  top5: '前五率 top5_rate',
};

/** Profile A's three points (spec 7.2): exposure_rate, top3_rate and positive_rate. */
function profileAPointRows(prefix: string, html: Figures, row: SnapshotRow): ComparisonRow[] {
  return [
    percentRow(`${prefix}露出率 exposure_rate`, html.exposureRate, row.exposure_rate, 'A'),
    percentRow(`${prefix}前三率 top3_rate`, html.top3 ?? null, row.top3_rate, 'A'),
    percentRow(`${prefix}中正面提及率 positive_rate`, html.positiveRate, row.positive_rate, 'A'),
  ];
}

/** Profile B (9.2): the five fixed cards, each one row; product link only where 9.2 says it is compared. */
function profileBCardRows(
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
      // 9.3.4: "prints an integer" is read by value (36, 36.0, "36", "36.0" alike, docs/rules.md §D15);
      // the printed form only shows in the note.
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
    // Nothing is dropped silently (docs/rules.md §D4): the mirror of item 3's note.
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

function missingSnapshotStep(id: string, name: string, platform: string): StepResult {
  const note = 'the snapshot has no row for this platform';
  return makeStep(id, name, [missingGroupRow(`snapshot row platform=${platform}`, 'present', null, note)]);
}

/** Item 3 · KPI cards, aggregate (spec 7.2, 9.2): `summary` (+ `overall` in B) against snapshot `all`. */
export function checkItem3(ctx: RuleContext): ItemResult {
  const html = aggregateFigures(ctx);
  const row = snapshotRowFor(ctx, 'all');
  if (!row) return makeItem(3, [missingSnapshotStep('all', 'aggregate cards', 'all')]);
  const notes: string[] = [];
  const rows =
    ctx.profile === 'A'
      ? profileAPointRows('', html, row)
      : profileBCardRows('', html, row, ctx.data.meta.position_metric ?? 'top3', 'aggregate', notes);
  // One step per card, as the spec lists the cards (7.2, 9.2).
  return makeItem(
    3,
    rows.map((r) => makeStep(r.key, r.key, [r])),
    notes,
  );
}

/**
 * Profile B (9.2): the cards from the last trend point (docs/rules.md §D4) and, where the report's
 * `self` prints another value for a card, that `self` value too, so neither reading of the HTML side can
 * hide a difference from the snapshot.
 */
function profileBPlatformCardRows(
  key: string,
  html: PlatformFigures,
  row: SnapshotRow,
  metric: PositionMetric,
  notes: string[],
  itemNotes: string[],
): ComparisonRow[] {
  const rows = profileBCardRows(`${key} · `, html.figures, row, metric, 'platform', notes, itemNotes);
  if (!html.self) return rows;
  const fromTrend = new Map(rows.map((r) => [r.key, r.html]));
  const extra = profileBCardRows(`${key} · `, html.self, row, metric, 'platform', [])
    .filter((r) => r.html !== null && fromTrend.has(r.key) && fromTrend.get(r.key) !== r.html)
    .map((r) => ({
      ...r,
      key: `${r.key} (self)`,
      note: [r.note, 'self differs from the last trend point (9.2)'].filter(Boolean).join('; '),
    }));
  return [...rows, ...extra];
}

/** One value as decimal values (docs/rules.md §D6, `sameDecimal`); text cells as they are. */
const sameCell = (a: Cell, b: Cell): boolean =>
  typeof a === 'string' || typeof b === 'string' ? a === b : sameDecimal(a, b);

/**
 * The rows of another trend point of the same day (spec 2.1: one point per monitoring day) whose
 * HTML value differs from the compared point's row of the same card, keyed `(another point of the day)`.
 */
function otherPointRows(compared: ComparisonRow[], other: ComparisonRow[], label: string): ComparisonRow[] {
  const first = new Map(compared.map((r) => [r.key, r.html]));
  return other
    .filter((r) => first.has(r.key) && !sameCell(first.get(r.key)!, r.html))
    .map((r) => ({
      ...r,
      key: `${r.key} (${label})`,
      note: [r.note, 'another trend point of the same day (spec 2.1: one point per monitoring day)']
        .filter(Boolean)
        .join('; '),
    }));
}

/** Item 4 · KPI points per platform (spec 7.2 for A, 9.2 for B): one step per AI platform. */
export function checkItem4(ctx: RuleContext): ItemResult {
  const platforms = aiPlatforms(ctx.data);
  const itemNotes: string[] = [...beyondSixNote(ctx.data)];
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
    if (!row) return missingSnapshotStep(p.key, name, p.key);
    // 7.2's trend point is Profile A's rule; Profile B's per-platform figure is `self` (9.2), read
    // when the trend has no point, as when it has only empty points (1.4: B never inherits A).
    if (html.trend.length === 0 && ctx.profile === 'A') {
      const note = 'the HTML trend series has no point (spec 7.2)';
      return makeStep(p.key, name, [missingGroupRow(`${p.key} trend`, null, 'snapshot', note)]);
    }
    const htmlSide = platformFigures(ctx, html);
    const stepNotes: string[] = [`HTML side: ${htmlSide.source}`];
    const metric = ctx.data.meta.position_metric ?? 'top3';
    const rows =
      ctx.profile === 'A'
        ? profileAPointRows(`${p.key} · `, htmlSide.figures, row)
        : profileBPlatformCardRows(p.key, htmlSide, row, metric, stepNotes, itemNotes);
    // Spec 2.1: one point per monitoring day; another point of the last day is compared too, where
    // it differs from the one above (`platformFigures`, docs/rules.md §D4).
    const sameDay = (htmlSide.sameDay ?? []).flatMap((figures, n) =>
      otherPointRows(
        rows,
        ctx.profile === 'A'
          ? profileAPointRows(`${p.key} · `, figures, row)
          : profileBCardRows(`${p.key} · `, figures, row, metric, 'platform', []),
        htmlSide.sameDay!.length > 1 ? `another point ${n + 1} of the day` : 'another point of the day',
      ),
    );
    return makeStep(p.key, name, [...rows, ...sameDay], stepNotes);
  });
  if (platforms.length < AI_PLATFORM_COUNT) {
    steps.push(
      makeStep('platforms', 'six AI answer platforms', [
        countRow('DATA.meta.platforms', platforms.length, AI_PLATFORM_COUNT, 'spec 7.2 covers six platforms'),
      ]),
    );
  }
  return makeItem(4, steps, itemNotes);
}
