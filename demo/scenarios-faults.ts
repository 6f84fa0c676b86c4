import type { DataInput } from './dataset';
import { A_MONITOR, B_DIAGNOSIS, B_MONITOR } from './runs';
import { derive, ERR, FAILS, type Scenario } from './scenario-kit';

/**
 * Fault scenarios: docs/contract.md §4 errors of the page and the endpoints, and the Profile B batch and
 * recognition cases (spec 9.1). Each expects an error, needs-input, or a recovery to all pass.
 */

export const FAULT_SCENARIOS: readonly Scenario[] = [
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
    label: 'fault-500-thrice',
    projectId: '101217',
    description:
      'the snapshot table answers 500 three times, then the data: one collection (3 attempts) fails; a Playwright retry (--retries) collects again and checks it',
    fault: { kind: 'status', status: 500, table: 'snapshot', times: 3 },
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
];
