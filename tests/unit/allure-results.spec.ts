import { expect, test } from './test-type';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { completeNight, unreadFacts } from '../../lib/report/allure/results';
import { runParameters, runTests, testIds } from '../../lib/report/allure/test-ids';
import { sampleVerdict, writeSampleResults } from './fakes/allure-sample';

interface Result {
  fullName: string;
  name: string;
  status: string;
  historyId: string;
  testCaseId: string;
  statusDetails: { message?: string };
  labels: { name: string; value: string }[];
  parameters: { name: string; value: string }[];
}

function readResults(dir: string): Result[] {
  return fs
    .readdirSync(dir)
    .filter((n) => n.endsWith('-result.json'))
    .map((n) => JSON.parse(fs.readFileSync(path.join(dir, n), 'utf8')) as Result);
}

test.describe('the tests of a run as Allure knows them', () => {
  test("ids are allure-playwright 3.12's: a real result of the demo's A-monitor, item 5", () => {
    // As allure-playwright wrote it on 2026-11-26 (the demo platform, batch date 2026-11-25).
    const parameters = runParameters({
      companyId: 1001,
      projectId: '101101',
      reportType: 'monitor',
      batchDate: '2026-11-25',
      profile: 'A',
    });
    expect(parameters).toEqual([
      { name: 'company', value: '1001' },
      { name: 'project', value: '101101' },
      { name: 'report type', value: 'monitor' },
      { name: 'batch date', value: '2026-11-25', excluded: true },
      { name: 'profile', value: 'A' },
    ]);
    const item5 = runTests().find((t) => t.test === 5)!;
    expect(testIds('A-monitor', item5.title, parameters)).toEqual({
      fullName: 'checks.spec.ts › A-monitor › item 5 · industry exposure ranking',
      testCaseId: 'becca67a0ded8e9906432c5786a5790a',
      historyId: 'becca67a0ded8e9906432c5786a5790a:77c59fe1493605a8b0d8cbea8082f00d',
      fallbackTestCaseId: 'f4a9f66727887a89c9341188dc46b9c3',
      titlePath: ['l1-verify', 'checks.spec.ts', 'A-monitor'],
    });
    // the batch date is not in the history id: another night, the same id
    const tomorrow = runParameters({
      companyId: 1001,
      projectId: '101101',
      reportType: 'monitor',
      batchDate: '2026-11-26',
      profile: 'A',
    });
    expect(testIds('A-monitor', item5.title, tomorrow).historyId).toBe(
      'becca67a0ded8e9906432c5786a5790a:77c59fe1493605a8b0d8cbea8082f00d',
    );
    expect(runTests().map((t) => [t.name, t.tags.join(' ')])).toEqual([
      ['collection · report page and endpoints, once', 'collect'],
      ['item 03 · KPI cards, aggregate', 'item3 kpi'],
      ['item 04 · KPI points per platform', 'item4 kpi'],
      ['item 05 · industry exposure ranking', 'item5 ranking'],
      ['item 06 · word cloud', 'item6 wordcloud'],
      ['item 07 · content type shares', 'item7 shares'],
      ['item 08 · publish time shares', 'item8 shares'],
      ['item 09 · media type shares', 'item9 shares'],
      ['item 10 · media name shares', 'item10 shares'],
      ['item 11 · related sources: title, channel, cited count', 'item11 sources'],
      ['item 12 · related sources: title at each ordinal', 'item12 sources'],
    ]);
  });
});

test.describe('every run of an interrupted night in the report, from its verdicts', () => {
  test('tests with no result get one; tests cut by the stop go to their run; ids join; twice is once', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'l1-complete-'));
    try {
      const { verdicts } = writeSampleResults(dir, { interrupted: true });
      const before = readResults(dir);
      const done = completeNight(dir, verdicts);
      // demo-f: 11 tests, none ran; demo-g: its 10 items; demo-h: items 5 … 12 (4 was cut)
      expect(done).toEqual({ made: 11 + 10 + 8, cut: 2 });
      const after = readResults(dir);
      expect(after).toHaveLength(before.length + 29);
      const of = (run: string) => after.filter((r) => r.fullName.startsWith(`checks.spec.ts › ${run} › `));
      for (const run of ['demo-f', 'demo-g', 'demo-h']) expect(of(run), run).toHaveLength(11);

      // Made with the ids, labels and parameters a real result of the run has (its parameters from
      // its URLs: the run never read them), broken, in the interrupted category, the verdict's reason.
      const made = of('demo-f').find((r) => r.fullName.endsWith('item 5 · industry exposure ranking'))!;
      const real = before.find(
        (r) => r.fullName === 'checks.spec.ts › demo-a › item 5 · industry exposure ranking',
      )!;
      expect(made.parameters).toEqual(real.parameters);
      const { fallbackTestCaseId, ...ids } = testIds(
        'demo-f',
        'item 5 · industry exposure ranking',
        real.parameters,
      );
      expect(made).toMatchObject({
        name: 'item 05 · industry exposure ranking',
        status: 'broken',
        ...ids,
        statusDetails: {
          message:
            'run demo-f not checked (error, interrupted): the invocation was interrupted by SIGTERM before this run started',
        },
      });
      expect(Object.fromEntries(made.labels.map((l) => [l.name, l.value]))).toMatchObject({
        epic: 'demo-f',
        run: 'demo-f',
        feature: 'item 05 · industry exposure ranking',
        l1_failure: 'interrupted',
        subSuite: 'demo-f',
        titlePath: 'l1-verify > checks.spec.ts > demo-f',
        _fallbackTestCaseId: fallbackTestCaseId,
      });

      // The cut collection: in its run now, with its parameters and the history id they give.
      const cut = of('demo-g').find((r) => r.name.startsWith('collection'))!;
      expect(cut).toMatchObject({
        status: 'broken',
        historyId: testIds('demo-g', 'collection · report page and endpoints, once', real.parameters)
          .historyId,
        statusDetails: {
          message:
            'run demo-g not checked (error, interrupted): the invocation was interrupted by SIGTERM while its collection ran',
        },
      });
      expect(cut.labels).toEqual(
        expect.arrayContaining([
          { name: 'epic', value: 'demo-g' },
          { name: 'feature', value: 'item 00 · collection (page and endpoints, once)' },
          { name: 'l1_failure', value: 'interrupted' },
        ]),
      );
      // What ended keeps its own result: demo-h's collection and item 3 passed.
      expect(
        of('demo-h')
          .map((r) => r.status)
          .sort(),
      ).toEqual([...Array(9).fill('broken'), 'passed', 'passed']);
      // The other runs are as they were.
      const others = (rs: Result[]) => rs.filter((r) => !/ › demo-[fgh] › /.test(r.fullName));
      expect(others(after)).toEqual(others(before));

      // A second build of the same results makes nothing again.
      expect(completeNight(dir, verdicts)).toEqual({ made: 0, cut: 0 });
      expect(readResults(dir)).toHaveLength(after.length);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a run never read gets the facts its collection would have read; a partial night is left as it is', () => {
    const v = sampleVerdict('demo-b', 'error', [], { failureKind: 'interrupted', reason: 'stopped' }, false);
    expect(unreadFacts(v, undefined, {})).toEqual({
      companyId: 1001,
      projectId: '101101',
      reportType: 'monitor',
      batchDate: '2025-11-17',
      profile: 'A',
    });
    // Profile B by the portal host (spec 9.1.1), known before DATA is read
    expect(unreadFacts(v, undefined, { host: '127.0.0.1:4173' }).profile).toBe('B');
    // the configured run's own URLs and company id win over the verdict's
    expect(
      unreadFacts(
        v,
        {
          htmlUrl: 'https://r.example/x?reportType=diagnosis&batchDate=2025-11-18',
          platformUrl: 'https://p.example/projects/7',
          companyId: 42,
        },
        {},
      ),
    ).toMatchObject({ companyId: 42, projectId: '7', reportType: 'diagnosis' });
    // URLs that do not read: the verdict's facts as they are
    const bad = { ...v, run: { ...v.run, htmlUrl: 'not a url' } };
    expect(unreadFacts(bad, undefined, {})).toBe(bad.run);

    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'l1-complete-'));
    try {
      const { verdicts } = writeSampleResults(dir, { interrupted: true });
      const partial = verdicts.map((x) => ({
        ...x,
        selection: { filters: ['item5'], shard: null, complete: false },
      }));
      expect(completeNight(dir, partial)).toEqual({ made: 0, cut: 0 });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('ids allure-playwright makes otherwise (an upgrade) are said: the made results would not join', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'l1-complete-'));
    try {
      const { verdicts } = writeSampleResults(dir, { interrupted: true });
      const name = fs
        .readdirSync(dir)
        .find(
          (n) =>
            n.endsWith('-result.json') && fs.readFileSync(path.join(dir, n), 'utf8').includes('› demo-a ›'),
        )!;
      const result = JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')) as Result;
      fs.writeFileSync(path.join(dir, name), JSON.stringify({ ...result, testCaseId: 'another' }));
      expect(completeNight(dir, verdicts).idsDiffer).toContain(`${result.fullName}: another, `);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
