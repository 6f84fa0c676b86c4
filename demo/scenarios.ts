import type { RunInput } from '../lib/run/types';
import type { DataInput, PlatformView, SnapshotRowInput, TmcRowInput } from './dataset';
import { round1, round2 } from './prng';
import { A_DIAGNOSIS, A_MONITOR, B_DIAGNOSIS, B_MONITOR, runOf, type DemoProject, type Fault } from './runs';
import { OTHER, UNKNOWN } from './vocab';

/**
 * Extra demo projects for self-tests: each is a copy of a bundled project under its own project id
 * with one fault (contract 4 errors) or one drift (exactly one thing changed on one side, so exactly
 * the named items fail). None of them is in the bundled runs; `scenarioRuns` gives each its run.
 */

export interface ScenarioExpectation {
  status: 'checked' | 'error' | 'needs-input';
  /** The items whose verdict is fail; every other item passes. Given for status `checked`. */
  failingItems?: number[];
  /** Case-insensitive fragments the run's reason contains (endpoint, status, code or field). */
  reasonIncludes?: string[];
}

export interface Scenario extends DemoProject {
  description: string;
  expected: ScenarioExpectation;
  /** Run level (contract 1): `product` compares the Profile B product ranking (spec 9.5.1). */
  level?: 'product';
}

interface Derived {
  label: string;
  projectId: string;
  description: string;
  expected: ScenarioExpectation;
  companyId?: number;
  host?: 'main' | 'portalB';
  line?: string;
  batchIds?: string[];
  listed?: boolean;
  fault?: Fault;
  html?: (data: DataInput) => unknown;
  platform?: (view: PlatformView) => void;
  level?: 'product';
}

/** A copy of a bundled project: same seed (same numbers), new project id, its own batch ids. */
function derive(base: DemoProject, d: Derived): Scenario {
  const { projectId } = d;
  const batchIds = d.batchIds ?? base.spec.batchIds.map((id) => id.replace(base.spec.projectId, projectId));
  return {
    label: d.label,
    url: base.url,
    platformUrl: base.platformUrl,
    host: d.host ?? base.host,
    description: d.description,
    expected: d.expected,
    spec: {
      ...base.spec,
      projectId,
      topic: `T${projectId}`,
      companyId: d.companyId ?? base.spec.companyId,
      line: d.line ?? base.spec.line,
      batchIds,
      listed: d.listed ?? base.spec.listed,
    },
    ...(d.fault ? { fault: d.fault } : {}),
    ...(d.html ? { html: d.html } : {}),
    ...(d.platform ? { platform: d.platform } : {}),
    ...(d.level ? { level: d.level } : {}),
  };
}

// --- helpers for drifts: numbers in, the platform's own print format out -------------------------

function num(value: unknown): number {
  return typeof value === 'number' ? value : Number.parseFloat(String(value));
}

/** `value` printed like `like` (number, "23.4" or "23.4%"), one decimal. */
function printedLike(like: unknown, value: number): string | number {
  if (typeof like === 'number') return round1(value);
  return `${round1(value).toFixed(1)}${String(like).trim().endsWith('%') ? '%' : ''}`;
}

function allRow(view: PlatformView): SnapshotRowInput {
  const row = view.snapshot.find((r) => r.platform === 'all');
  if (!row) throw new Error('demo scenario: no snapshot row all');
  return row;
}

function tmcGroup(view: PlatformView, platform: string, dimension: TmcRowInput['dimension']): TmcRowInput[] {
  return view.tmc.filter((r) => r.platform === platform && r.dimension === dimension);
}

/** Profile A: the own brand's aggregate exposure rate is HTML x.x4 (dataset.ts), platform x.x. */
function platformAggregateGap(by: number) {
  return (view: PlatformView) => {
    const row = allRow(view);
    row.exposure_rate = printedLike(row.exposure_rate, num(row.exposure_rate) + by);
  };
}

const ERR = (...reasonIncludes: string[]): ScenarioExpectation => ({ status: 'error', reasonIncludes });
const FAILS = (...failingItems: number[]): ScenarioExpectation => ({ status: 'checked', failingItems });

export const SCENARIOS: readonly Scenario[] = [
  // --- faults: the page ---------------------------------------------------------------------------
  derive(A_MONITOR, {
    label: 'fault-page-no-data',
    projectId: '101201',
    description: 'report page without DATA',
    fault: { kind: 'page-without-data' },
    expected: ERR('DATA'),
  }),
  derive(A_MONITOR, {
    label: 'fault-page-syntax-error',
    projectId: '101202',
    description: 'DATA with a JavaScript syntax error (the object literal is cut off)',
    fault: { kind: 'page-syntax-error' },
    expected: ERR('DATA'),
  }),
  derive(A_MONITOR, {
    label: 'fault-data-missing-field',
    projectId: '101203',
    description: 'DATA without the required brand.summary',
    html: (data) => {
      const brand: Partial<DataInput['brand']> = { ...data.brand };
      delete brand.summary;
      return { ...data, brand };
    },
    expected: ERR('brand.summary'),
  }),
  derive(A_MONITOR, {
    label: 'fault-data-wrong-type',
    projectId: '101204',
    description: 'DATA with a wrong type: brand.source_top30[0].cite_count is "many"',
    html: (data) => ({
      ...data,
      brand: {
        ...data.brand,
        source_top30: data.brand.source_top30.map((s, i) => (i === 0 ? { ...s, cite_count: 'many' } : s)),
      },
    }),
    expected: ERR('cite_count'),
  }),
  // --- faults: the endpoints ------------------------------------------------------------------------
  derive(A_MONITOR, {
    label: 'fault-401-once',
    projectId: '101205',
    description:
      'session expired mid-run: the first metrics request answers 401 and ends the session; re-login once, retry once → success',
    fault: { kind: 'expire-session-once' },
    expected: FAILS(),
  }),
  derive(A_MONITOR, {
    label: 'fault-401-always',
    projectId: '101206',
    description: 'every metrics request answers 401, also after a re-login',
    fault: { kind: 'status', status: 401 },
    expected: ERR('401'),
  }),
  derive(A_MONITOR, {
    label: 'fault-403',
    projectId: '101207',
    description: 'the competitor table answers 403 (not retried)',
    fault: { kind: 'status', status: 403, table: 'competitor' },
    expected: ERR('403', 'competitor'),
  }),
  derive(A_MONITOR, {
    label: 'fault-404',
    projectId: '101208',
    description: 'the tmc table answers 404 (not retried)',
    fault: { kind: 'status', status: 404, table: 'tmc' },
    expected: ERR('404', 'tmc'),
  }),
  derive(A_MONITOR, {
    label: 'fault-500-once',
    projectId: '101209',
    description: 'each metrics table answers 500 once, then the data (retried with backoff → success)',
    fault: { kind: 'status', status: 500, once: true },
    expected: FAILS(),
  }),
  derive(A_MONITOR, {
    label: 'fault-500-always',
    projectId: '101210',
    description: 'the snapshot table answers 500 every time (2 retries, then error)',
    fault: { kind: 'status', status: 500, table: 'snapshot' },
    expected: ERR('500', 'snapshot'),
  }),
  derive(A_MONITOR, {
    label: 'fault-slow',
    projectId: '101211',
    description:
      'the snapshot table sleeps L1_DEMO_SLOW_MS (default 8000 ms); error when L1_REQUEST_TIMEOUT_MS is shorter',
    fault: { kind: 'slow', table: 'snapshot' },
    expected: ERR('snapshot', 'time'),
  }),
  derive(A_MONITOR, {
    label: 'fault-html-error-page',
    projectId: '101212',
    description: 'the competitor table answers an HTML error page with status 200 instead of JSON',
    fault: { kind: 'html-error-page', table: 'competitor' },
    expected: ERR('competitor', 'JSON'),
  }),
  derive(A_MONITOR, {
    label: 'fault-wrapped-code-500',
    projectId: '101213',
    description: 'the tmc table answers {"code":500,"msg":"指标服务暂不可用","data":null} with HTTP 200',
    fault: { kind: 'wrapped-error', table: 'tmc', code: 500, message: '指标服务暂不可用' },
    expected: ERR('500', '指标服务暂不可用'),
  }),
  derive(A_MONITOR, {
    label: 'fault-rows-missing',
    projectId: '101214',
    description: 'the snapshot answer has no rows array',
    fault: { kind: 'rows-missing', table: 'snapshot' },
    expected: ERR('rows'),
  }),
  derive(A_MONITOR, {
    label: 'fault-rows-wrong-type',
    projectId: '101215',
    description: 'source rows with cite_count as a string',
    fault: { kind: 'rows-wrong-type', table: 'source' },
    expected: ERR('cite_count'),
  }),
  derive(A_MONITOR, {
    label: 'fault-rows-empty',
    projectId: '101216',
    description: 'the competitor table answers {"rows": []}',
    fault: { kind: 'rows-empty', table: 'competitor' },
    expected: ERR('competitor', 'empty'),
  }),
  derive(A_MONITOR, {
    label: 'fault-batch-list-empty',
    projectId: '100301',
    companyId: 1003,
    listed: false,
    description: 'Profile A, the batch list of company 1003 is empty: no batch for the report date',
    expected: ERR('batch'),
  }),
  // --- Profile B batches and recognition -----------------------------------------------------------
  derive(B_DIAGNOSIS, {
    label: 'b-diagnosis-needs-input',
    projectId: '310002',
    batchIds: ['XH-SX-HIST-310002-20251110-D'],
    description:
      'Profile B diagnosis, empty batch list, and the snapshot of the built XH-HIST id has no rows: stop and ask (9.1.2)',
    expected: { status: 'needs-input', reasonIncludes: ['XH-HIST-310002-20251110-D'] },
  }),
  derive(B_DIAGNOSIS, {
    label: 'b-diagnosis-authoritative-id',
    projectId: '310003',
    batchIds: ['XH-SX-HIST-310003-20251110-D'],
    fault: { kind: 'authoritative-id', crawlBatchId: 'XH-SX-HIST-310003-20251110-D' },
    description:
      'the built id finds snapshot rows whose crawlBatchId is XH-SX-HIST-…; that id is used for every later request (9.1.3)',
    expected: FAILS(),
  }),
  derive(B_MONITOR, {
    label: 'b-line-only',
    projectId: '310201',
    companyId: 3102,
    host: 'main',
    line: '星河集团 · 冰箱事业部',
    description: 'Profile B recognized only by meta.line naming the group (company 3102, main origin)',
    expected: FAILS(),
  }),
  derive(B_MONITOR, {
    label: 'b-product-level',
    projectId: '310105',
    level: 'product',
    description:
      'the Profile B run asks for the product level: core_product_competitors / product_ranking against kind=product rows (9.5.1)',
    expected: FAILS(),
  }),
  // --- drifts: exactly one thing changed on one side -------------------------------------------------
  derive(A_MONITOR, {
    label: 'drift-a-kpi-gap-006',
    projectId: '101301',
    description: 'Profile A: snapshot all.exposure_rate 0.06 above the HTML card (31.44 against 31.5)',
    platform: platformAggregateGap(0.1),
    expected: FAILS(3),
  }),
  derive(B_MONITOR, {
    label: 'drift-b-kpi-gap-01',
    projectId: '310102',
    description:
      'Profile B: snapshot all.exposure_rate 0.1 above the HTML card after rounding: passes (9.3.2)',
    platform: platformAggregateGap(0.1),
    expected: FAILS(),
  }),
  derive(B_MONITOR, {
    label: 'drift-b-kpi-gap-02',
    projectId: '310103',
    description:
      'Profile B: snapshot all.exposure_rate 0.2 above the HTML card after rounding: fails (9.3.3)',
    platform: platformAggregateGap(0.2),
    expected: FAILS(3),
  }),
  derive(A_MONITOR, {
    label: 'drift-a-trend-last-point',
    projectId: '101302',
    description: 'the last trend point (by date) of DeepSeek in the HTML is 0.8 above the snapshot',
    html: (data) => {
      const trend = data.brand.platforms.deepseek?.trend ?? [];
      const last = trend.reduce((a, b) => (b.date >= a.date ? b : a));
      last.exposure_rate = round2(num(last.exposure_rate) + 0.8);
      return data;
    },
    expected: FAILS(4),
  }),
  derive(A_MONITOR, {
    label: 'drift-a-rank-swap',
    projectId: '101303',
    description: 'the platform swaps the all-platform rates of #1 and #2 (not a tie)',
    platform: (view) => {
      const [first, second] = view.competitor;
      if (!first || !second) throw new Error('demo scenario: fewer than two competitor rows');
      [first.exposure_rate, second.exposure_rate] = [second.exposure_rate, first.exposure_rate];
    },
    expected: FAILS(5),
  }),
  derive(A_MONITOR, {
    label: 'drift-a-truncated-name',
    projectId: '101304',
    description:
      'the platform shows 「森氧」 for the HTML 「森氧科技」 (a truncated name is a different name, 7.6)',
    platform: (view) => {
      const row = view.competitor.find((r) => r.name === '森氧科技');
      if (!row) throw new Error('demo scenario: no competitor 森氧科技');
      row.name = '森氧';
    },
    expected: FAILS(5),
  }),
  derive(A_MONITOR, {
    label: 'drift-a-missing-negative-word',
    projectId: '101305',
    description: 'the platform word cloud lacks one negative word',
    platform: (view) => {
      view.wordcloud.negative.pop();
    },
    expected: FAILS(6),
  }),
  derive(A_MONITOR, {
    label: 'drift-a-legend-order',
    projectId: '101306',
    description: 'content type, aggregate: the platform swaps the shares of legend #2 and #3',
    platform: (view) => {
      const [, second, third] = tmcGroup(view, 'all', 'content_type');
      if (!second || !third) throw new Error('demo scenario: short content type group');
      [second.value, third.value] = [third.value, second.value];
    },
    expected: FAILS(7),
  }),
  derive(A_DIAGNOSIS, {
    label: 'drift-a-no-time-kept',
    projectId: '102301',
    description:
      'publish time, aggregate: the platform keeps 「无时间」 in its denominator, so every dated share is ~8 % lower',
    platform: (view) => {
      const group = tmcGroup(view, 'all', 'publish_time');
      const noTime = group.find((r) => r.name === '无时间');
      if (!noTime) throw new Error('demo scenario: no 无时间 row');
      const keep = 1 - num(noTime.value) / 100;
      for (const row of group) if (row !== noTime) row.value = printedLike(row.value, num(row.value) * keep);
    },
    expected: FAILS(8),
  }),
  derive(B_MONITOR, {
    label: 'drift-b-media-type-a-way',
    projectId: '310104',
    description:
      'Profile B: the HTML media type (aggregate) was computed the Profile A way (其他/未知 dropped, recomputed)',
    html: (data) => {
      const media = data.brand.tmc_aggregate.media_category.filter(
        (e) => e.name !== OTHER && e.name !== UNKNOWN,
      );
      const sum = media.reduce((s, e) => s + num(e.value), 0);
      data.brand.tmc_aggregate.media_category = media.map((e) => ({
        name: e.name,
        value: round2((num(e.value) / sum) * 100),
      }));
      return data;
    },
    expected: FAILS(9),
  }),
  derive(A_MONITOR, {
    label: 'drift-a-media-name-value',
    projectId: '101307',
    description: 'media name, aggregate: the platform share of the top media name is 1 point higher',
    platform: (view) => {
      const [top] = tmcGroup(view, 'all', 'media_name');
      if (!top) throw new Error('demo scenario: no media name rows');
      top.value = printedLike(top.value, num(top.value) + 1);
    },
    expected: FAILS(10),
  }),
  derive(A_MONITOR, {
    label: 'drift-a-source-channel',
    projectId: '101308',
    description: 'related sources, aggregate: the platform names another channel for the 6th title',
    platform: (view) => {
      const row = view.source.all?.[5];
      if (!row) throw new Error('demo scenario: fewer than six sources');
      row.channel = row.channel === '知乎' ? '搜狐' : '知乎';
    },
    expected: FAILS(11),
  }),
  derive(A_MONITOR, {
    label: 'drift-a-source-tie-swap',
    projectId: '101309',
    description:
      'related sources, aggregate: the HTML prints two titles with equal cited counts (#4, #5) in swapped order',
    html: (data) => {
      const list = data.brand.source_top30;
      const [a, b] = [list[3], list[4]];
      if (!a || !b || a.cite_count !== b.cite_count) throw new Error('demo scenario: #4 and #5 are not tied');
      [list[3], list[4]] = [b, a];
      return data;
    },
    expected: FAILS(12),
  }),
];

export function scenarioByLabel(label: string): Scenario | undefined {
  return SCENARIOS.find((s) => s.label === label);
}

/** Each scenario's run, by label (the run's label is the scenario's). */
export function scenarioRuns(origin: string, portalBOrigin: string): Record<string, RunInput> {
  return Object.fromEntries(
    SCENARIOS.map((s) => {
      const run = runOf(s, origin, portalBOrigin);
      return [s.label, s.level ? { ...run, level: s.level } : run];
    }),
  );
}
