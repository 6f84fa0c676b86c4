import type { DataInput, PlatformView, ProjectSpec, Shape } from './dataset';

/**
 * Contract-permitted encodings a project adds on top of its views (docs/rules.md): fields no check reads,
 * in any shape, on payload rows and in DATA; optional DATA fields left out. None changes a verdict.
 */

/** Extra row fields of every shape: an object, an array, a string, a number, a null. */
function rowExtras(i: number): Record<string, unknown> {
  return {
    ext: { source: 'l1-warehouse', tags: ['demo', `row-${i}`], nested: { level: 2, list: [1, 2, 3] } },
    history: [{ at: '2025-11-16', value: i }, null, 'n/a'],
    updated_at: '2025-11-17T08:00:00+08:00',
    weight_hint: i % 3,
    remark: null,
  };
}

function withExtras<T extends object>(rows: T[]): T[] {
  return rows.map((row, i) => Object.assign({}, row, rowExtras(i)));
}

/** Unused fields on the platform payloads (docs/contract.md §4.2: a row is read for its named fields only). */
export function encodePlatform(view: PlatformView, spec: ProjectSpec): PlatformView {
  if (!spec.unusedFields) return view;
  const wordcloud = Object.assign({}, view.wordcloud, {
    total: view.wordcloud.words.length,
    generated: { by: 'wordcloud-service', at: '2025-11-17T08:00:00+08:00' },
    neutral: [],
  });
  return {
    snapshot: withExtras(view.snapshot),
    competitor: withExtras(view.competitor),
    tmc: withExtras(view.tmc),
    source: Object.fromEntries(Object.entries(view.source).map(([k, rows]) => [k, withExtras(rows)])),
    wordcloud,
  };
}

type Loose = Record<string, unknown>;

/** DATA fields the Profile A rules never read (spec 7.2: exposure, top-3 and positive only). */
function omitOptional(data: DataInput, shape: Shape): void {
  const meta = data.meta as Loose;
  delete meta.mode;
  delete meta.batch_date;
  delete meta.company_id;
  if (shape.metaReportType === undefined) delete meta.report_type;
  const summary = data.brand.summary as Loose;
  delete summary.avg_top5_rate;
  delete summary.avg_first_position_rate;
  for (const platform of Object.values(data.brand.platforms) as Loose[]) {
    const self = platform.self as Loose;
    delete self.top5_rate;
    delete self.first_position_rate;
    for (const point of platform.trend as Loose[]) {
      delete point.top5_rate;
      delete point.first_position_rate;
    }
  }
}

/** Extra DATA keys of every shape, outside the keyed records (docs/contract.md §5: others are ignored). */
function addUnused(data: DataInput): void {
  const loose = data as Loose;
  loose.generator = { name: 'l1-report-builder', version: '3.2.0', flags: ['echarts', 'print'] };
  loose.charts = [
    { id: 'trend', type: 'line' },
    { id: 'ranking', type: 'table', columns: 7 },
  ];
  loose.footnote = '数据来源：L1 监测平台';
  (data.meta as Loose).generated_at = '2025-11-17T09:30:00+08:00';
  (data.meta as Loose).theme = { primary: '#1e3a8a', dark: false };
  (data.brand as Loose).notes = ['口径说明见附录', { section: 'ranking', text: '仅展示前 10' }];
  (data.brand.summary as Loose).compare_last = { avg_exposure_rate: '+1.2', arrows: ['up'] };
}

export function encodeHtml(data: DataInput, spec: ProjectSpec): DataInput {
  if (spec.omitOptional && spec.profile === 'A') omitOptional(data, spec.shape);
  if (spec.unusedFields) addUnused(data);
  return data;
}
