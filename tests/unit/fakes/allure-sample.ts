import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { writeInvocationFacts } from '../../../lib/report/allure/facts';
import { runParameters, runTests, testIds } from '../../../lib/report/allure/test-ids';
import { stepTableCsv, stepTitle } from '../../../lib/report/table';
import { writeVerdictFolder } from '../../../lib/report/verdict-folder';
import { notCheckedMessage } from '../../../lib/report/night';
import { itemFeature } from '../../../lib/rules/items';
import { ITEM_NUMBERS, type ItemNumber, type StepResult } from '../../../lib/rules/types';
import type { FailureKind, VerdictFile } from '../../../lib/schema/verdict';

export { itemFeature };

/**
 * A small hand-made night for the unit tests of the report: an allure-results folder in
 * allure-playwright's shape (`<uuid>-result.json`, `<uuid>-attachment.<ext>`) with one
 * invocation's facts, and the verdict folder of the same night. One run checked with item 5
 * failing, one run per kind of run not checked, one timed-out test. Names, ids and labels as
 * allure-playwright writes them for tests/checks.spec.ts; a run not checked as the suite leaves
 * it: its collection failed, its items skipped (or failed, a retry being due).
 */

interface SampleTest {
  run: string;
  test: ItemNumber | 'collection';
  status: 'passed' | 'failed' | 'broken' | 'skipped';
  message?: string;
  /** The `l1_failure` label; omitted to exercise the message fallback of the categories. */
  failure?: FailureKind | 'values-differ';
  steps?: StepResult[];
  links?: { name: string; url: string; type?: string }[];
  /** Cut by the night's stop before it sent its metadata: no run, item, parameters or message. */
  cut?: boolean;
}

/** The facts of every run of the sample: its tests' parameters. */
const PARAMETERS = runParameters({
  companyId: 1001,
  projectId: '101101',
  reportType: 'monitor',
  batchDate: '2025-11-17',
  profile: 'A',
});

export const SAMPLE_FAILING_STEP: StepResult = {
  id: '5.2',
  name: 'rank and name of the top 10',
  verdict: 'fail',
  rows: [
    {
      key: 'rank 1 · name',
      html: '森氧科技',
      platform: '森氧科技',
      gap: null,
      tolerance: 'exact',
      verdict: 'pass',
    },
    {
      key: 'rank 2 · name',
      html: '蓝鲸数据',
      platform: '极光云',
      gap: null,
      tolerance: 'exact',
      verdict: 'fail',
    },
    // A name that is a URL (a page without a title shows its URL): two glued in the table's row.
    {
      key: 'rank 3 · name',
      html: 'https://www.zhihu.com/question/58123456',
      platform: 'https://www.zhihu.com/question/58123457',
      gap: null,
      tolerance: 'exact',
      verdict: 'fail',
    },
    {
      key: 'all-platform rate',
      html: 49.64,
      platform: 51.4,
      gap: 1.76,
      tolerance: '≤ 0.05',
      verdict: 'fail',
      note: 'spec 7.3.2',
    },
    {
      key: 'kimi, rate',
      html: '12.5%',
      platform: null,
      gap: null,
      tolerance: 'exact',
      verdict: 'fail',
      note: 'missing, on the platform',
    },
  ],
  notes: ['ranked by cite_count, ties by name (spec 7.3.1)'],
};

function writeTest(dir: string, t: SampleTest, start: number): void {
  const uuid = randomUUID();
  const test = runTests().find((r) => r.test === t.test)!;
  const parameters = t.cut ? [] : PARAMETERS;
  const ids = testIds(t.run, test.title, parameters);
  const steps = (t.steps ?? []).map((step, i) => {
    const title = stepTitle(step);
    const attachments = [];
    if (step.verdict === 'fail') {
      const csv = `${randomUUID()}-attachment.csv`;
      fs.writeFileSync(path.join(dir, csv), stepTableCsv(step));
      attachments.push({ name: `${title} · mismatch table`, source: csv, type: 'text/csv' });
    }
    const json = `${randomUUID()}-attachment.json`;
    fs.writeFileSync(path.join(dir, json), JSON.stringify(step.rows, null, 2));
    attachments.push({ name: `${title} · compared values`, source: json, type: 'application/json' });
    return {
      name: title,
      status: step.verdict === 'pass' ? 'passed' : 'failed',
      statusDetails: {},
      stage: 'finished',
      start: start + i,
      stop: start + i + 1,
      steps: [],
      attachments,
      parameters: [],
    };
  });
  const labels = [
    { name: 'language', value: 'javascript' },
    { name: 'framework', value: 'playwright' },
    { name: 'package', value: 'l1-verify.checks.spec.ts' },
    { name: '_fallbackTestCaseId', value: ids.fallbackTestCaseId },
    { name: 'titlePath', value: ` >  > checks/part-00.spec.ts > ${t.run}` },
    ...test.tags.map((value) => ({ name: 'tag', value })),
    ...(t.cut
      ? []
      : [
          { name: 'epic', value: t.run },
          { name: 'feature', value: test.feature },
        ]),
    ...(t.failure ? [{ name: 'l1_failure', value: t.failure }] : []),
    { name: 'subSuite', value: t.run },
  ];
  // Playwright's message of a thrown error starts with its name; its stack is the message alone
  // (fixtures/check.ts CheckFailure). A skipped test's message is its reason, with no trace.
  const trace =
    t.status === 'skipped'
      ? {}
      : {
          trace: t.message?.startsWith('RunNotChecked: ')
            ? t.message
            : `${t.message}\n    at fixtures/item.ts:40:15`,
        };
  const result = {
    uuid,
    historyId: ids.historyId,
    testCaseId: ids.testCaseId,
    name: t.cut ? test.title : test.name,
    fullName: ids.fullName,
    titlePath: ids.titlePath,
    status: t.status,
    statusDetails: t.message ? { message: t.message, ...trace } : {},
    stage: 'finished',
    start,
    stop: start + 40,
    labels,
    links: t.links ?? [],
    parameters,
    attachments: [],
    steps,
  };
  fs.writeFileSync(path.join(dir, `${uuid}-result.json`), JSON.stringify(result));
}

/** A verdict file of the sample's shape (status, items, extra fields). */
export function sampleVerdict(
  label: string,
  status: VerdictFile['status'],
  items: VerdictFile['items'],
  extra: Partial<VerdictFile> = {},
  collected = true,
): VerdictFile {
  const facts = collected
    ? { companyId: 1001, projectId: '101101', reportType: 'monitor' as const, batchDate: '2025-11-17' }
    : { companyId: null, projectId: null, reportType: null, batchDate: null };
  return {
    run: {
      label,
      htmlUrl: `http://127.0.0.1:4173/reports/${label}?reportType=monitor&batchDate=2025-11-17&companyId=1001`,
      platformUrl: 'http://127.0.0.1:4173/projects/101101',
      ...facts,
      profile: 'A',
      batchIds: collected ? ['b1'] : [],
      dataSource: 'html',
      level: 'brand',
    },
    status,
    notes: [],
    items,
    generatedAt: new Date(0).toISOString(),
    suite: { name: 'l1-verify', version: '0.1.0' },
    selection: { filters: [], shard: null, complete: true },
    durationMs: 1000,
    ...extra,
  };
}

export interface SampleResults {
  dir: string;
  verdicts: VerdictFile[];
}

/**
 * Writes the sample results (tests and the invocation's facts) into `dir`, which is emptied first,
 * and the night's verdict folder into `options.verdicts` when given.
 */
export function writeSampleResults(
  dir: string,
  options: {
    verdicts?: string;
    invocation?: string;
    start?: number;
    interrupted?: boolean;
    shard?: string;
  } = {},
): SampleResults {
  const start = options.start ?? Date.now();
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const passStep: StepResult = {
    id: 'all',
    name: 'all values',
    verdict: 'pass',
    rows: [{ key: 'total', html: 1, platform: 1, gap: 0, tolerance: 'exact', verdict: 'pass' }],
    notes: [],
  };
  const notChecked = {
    'demo-b': {
      kind: 'platform',
      status: 'error',
      reason:
        'GET /api/geo-monitor/metrics/l1 (table=competitor): HTTP 403: the account of this run may not read this company or project',
    },
    'demo-c': {
      kind: 'input',
      status: 'error',
      reason: 'htmlUrl · batchDate: missing: add the query batchDate=YYYY-MM-DD',
    },
    'demo-d': {
      kind: 'needs-input',
      status: 'needs-input',
      reason:
        'spec 9.1.2: no batch for 2025-11-17; stop and ask which crawl batch id to use (set batchId on the run)',
    },
  } as const;
  let t = start;
  const link = { name: 'report page', url: 'http://127.0.0.1:4173/reports/demo-a', type: 'link' };
  writeTest(dir, { run: 'demo-a', test: 'collection', status: 'passed', links: [link] }, t);
  const messageOf = (run: string, nc: (typeof notChecked)[keyof typeof notChecked]) =>
    notCheckedMessage({ label: run, status: nc.status, failureKind: nc.kind, reason: nc.reason });
  for (const [run, nc] of Object.entries(notChecked)) {
    const message = messageOf(run, nc);
    writeTest(
      dir,
      { run, test: 'collection', status: 'failed', failure: nc.kind, message: `RunNotChecked: ${message}` },
      t,
    );
  }
  for (const item of ITEM_NUMBERS) {
    const fails = item === 5;
    writeTest(
      dir,
      {
        run: 'demo-a',
        test: item,
        status: fails ? 'failed' : 'passed',
        failure: fails ? 'values-differ' : undefined,
        message: fails
          ? `ValuesDiffer: run demo-a · item 5 · step ${stepTitle(SAMPLE_FAILING_STEP)}: 3 mismatch(es)\n  ✗ rank 2 · name: HTML 「蓝鲸数据」 · platform 「极光云」`
          : undefined,
        steps: fails ? [passStep, SAMPLE_FAILING_STEP] : [passStep],
        links: [link],
      },
      (t += 50),
    );
    for (const [run, nc] of Object.entries(notChecked)) {
      const message = messageOf(run, nc);
      writeTest(
        dir,
        // Skipped with the run's reason (fixtures/check.ts; demo-c as the suite skipped before
        // 2026-11-26, `not checked: ` before it), or, every other item, failed as while a retry is
        // due, without the label: the message alone must find the category.
        item % 2 === 0
          ? {
              run,
              test: item,
              status: 'skipped',
              failure: nc.kind,
              message: run === 'demo-c' ? `not checked: ${message}` : message,
            }
          : { run, test: item, status: 'failed', message: `RunNotChecked: ${message}` },
        (t += 50),
      );
    }
  }
  writeTest(
    dir,
    { run: 'demo-e', test: 3, status: 'broken', message: 'Test timeout of 30000ms exceeded.' },
    t + 50,
  );

  const items = ITEM_NUMBERS.map((item) => ({
    item,
    verdict: item === 5 ? ('fail' as const) : ('pass' as const),
    steps: [],
    notes: [],
  }));
  const selection = { filters: [], shard: options.shard ?? null, complete: true };
  const verdicts = [
    sampleVerdict('demo-a', 'checked', items, { selection }),
    ...Object.entries(notChecked).map(([run, nc]) =>
      sampleVerdict(run, nc.status, [], { reason: nc.reason, failureKind: nc.kind, selection }),
    ),
  ];
  if (options.interrupted) {
    // The night stopped by SIGTERM: demo-f never started, demo-g's collection was cut before it
    // sent its metadata, demo-h's item 4 was cut after item 3 ended.
    const stopped = 'the invocation was interrupted by SIGTERM';
    const interrupted = (label: string, reason: string, done: VerdictFile['items'], collected: boolean) =>
      sampleVerdict(label, 'error', done, { reason, failureKind: 'interrupted' }, collected);
    writeTest(dir, { run: 'demo-g', test: 'collection', status: 'failed', cut: true }, (t += 50));
    writeTest(dir, { run: 'demo-h', test: 'collection', status: 'passed' }, (t += 50));
    writeTest(dir, { run: 'demo-h', test: 3, status: 'passed', steps: [passStep] }, (t += 50));
    writeTest(dir, { run: 'demo-h', test: 4, status: 'failed' }, t + 50);
    verdicts.push(
      interrupted('demo-f', `${stopped} before this run started`, [], false),
      interrupted('demo-g', `${stopped} while its collection ran`, [], false),
      interrupted(
        'demo-h',
        `${stopped} while item 4 ran: items 4, 5, 6, 7, 8, 9, 10, 11, 12 did not run (the items in the verdict are those that finished)`,
        [{ item: 3, verdict: 'pass', steps: [], notes: [] }],
        true,
      ),
    );
  }
  writeInvocationFacts(dir, {
    id: options.invocation ?? 'sample-night-1',
    suite: 'l1-verify 0.1.0',
    runsFrom: '4 runs of the sample',
    profileB: 'not configured',
    baseUrls: ['http://127.0.0.1:4173'],
    shard: options.shard ?? null,
    selection: 'every item',
    workers: 2,
    playwright: '1.65.1',
    browser: 'Chromium 156.0',
    partial: false,
  });
  if (options.verdicts) {
    fs.rmSync(options.verdicts, { recursive: true, force: true });
    writeVerdictFolder(
      options.verdicts,
      verdicts.map((v) => ({ file: `${v.run.label}.json`, verdict: v })),
      selection,
    );
  }
  return { dir, verdicts };
}
