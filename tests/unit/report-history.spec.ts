import { expect, test } from './test-type';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  alreadyInHistory,
  boundHistory,
  commitNight,
  HISTORY_NIGHTS,
  historyHasNight,
  NIGHT_FIELD,
  slimHistoryLine,
} from '../../lib/report/allure/history';
import { writeSampleResults } from './fakes/allure-sample';
import { tempDir } from './fakes/temp';
import { tsScript } from '../../lib/run/settings';

/**
 * The Allure history, bounded (docs/decisions.md § History that joins nights): each line keeps
 * only what the report reads, the file only the newest nights that fit L1_ALLURE_HISTORY_MB. At
 * 300 runs a full line was 4.2 MB and 60 of them made the report step 3.6 GB.
 */

const root = path.resolve(__dirname, '../..');

/** Every file a single-file report embeds, parsed, by its path. */
function embeddedFiles(html: string): Map<string, unknown> {
  const files = new Map<string, unknown>();
  for (const m of html.matchAll(/d\("([^"]+)","([^"]*)"\)/g))
    if (m[1]!.endsWith('.json')) files.set(m[1]!, JSON.parse(Buffer.from(m[2]!, 'base64').toString('utf8')));
  return files;
}

/** `allure generate` as scripts/report.ts runs it (scripts/allure-generate.mjs, allurerc.mjs), the history given. */
function generate(results: string, history: string, output: string, append: boolean): string {
  const r = spawnSync(
    process.execPath,
    [
      path.join(root, 'scripts', 'allure-generate.mjs'),
      ...['--results', results, '--config', path.join(root, 'allurerc.mjs'), '--output', output],
    ],
    {
      cwd: root,
      encoding: 'utf8',
      timeout: 60_000,
      env: {
        ...process.env,
        ALLURE_NO_ANALYTICS: 'true',
        L1_ALLURE_HISTORY_PATH: history,
        L1_ALLURE_APPEND_HISTORY: append ? '1' : '0',
      },
    },
  );
  expect(r.status, `${r.stdout}${r.stderr}`).toBe(0);
  return fs.readFileSync(path.join(output, 'index.html'), 'utf8');
}

/** `npm run report` on the given folders, with no run configured. */
function runReport(
  results: string,
  verdicts: string,
  output: string,
  history: string,
  env: NodeJS.ProcessEnv = {},
) {
  const r = spawnSync(
    ...tsScript(path.join(root, 'scripts', 'report.ts'), [
      ...['--results', results, '--verdicts', verdicts, '--output', output, '--history', history],
    ]),
    {
      cwd: os.tmpdir(),
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, L1_STATE_DIR: path.join(results, 'no-state'), L1_RUNS: '', ...env },
    },
  );
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

/** What the report shows of each test's history and of the history's charts, in a stable order. */
function shownHistory(html: string) {
  const files = embeddedFiles(html);
  const tests: Record<string, unknown> = {};
  let entries = 0;
  for (const [name, tr] of files) {
    if (!name.startsWith('data/test-results/')) continue;
    const t = tr as {
      historyId: string;
      status: string;
      transition?: string;
      flaky?: boolean;
      history: Record<string, unknown>[];
    };
    entries += t.history.length;
    // The History tab reads these of each entry (plugin-awesome's web app).
    const history = t.history.map(({ status, start, stop, duration, url, error }) => ({
      status,
      start,
      stop,
      duration,
      url,
      error,
    }));
    tests[t.historyId] = { status: t.status, transition: t.transition, flaky: t.flaky, history };
  }
  // Chart ids are random per build; groups come in the order results were read.
  const canon = (v: unknown): unknown =>
    Array.isArray(v)
      ? v
          .map(canon)
          .map((x) => JSON.stringify(x))
          .sort()
          .map((x) => JSON.parse(x) as unknown)
      : v && typeof v === 'object'
        ? Object.fromEntries(
            Object.entries(v)
              .sort()
              .map(([k, x]) => [k, canon(x)]),
          )
        : v;
  const charts = files.get('widgets/charts.json') as { general: Record<string, unknown> };
  const chartList = Object.values(charts.general)
    .map((c) => JSON.stringify(canon(JSON.parse(JSON.stringify(c).replace(/"[\w-]{21}"/g, '"id"')))))
    .sort();
  return { tests, entries, charts: chartList, statistic: files.get('widgets/statistic.json') };
}

test.describe('a history line keeps what the report reads', () => {
  test.describe.configure({ timeout: 120_000 });

  test("the report shows the same history (History tab, transitions, charts) from slimmed lines as from Allure's own", () => {
    const tmp = tempDir('history-slim');
    const history = path.join(tmp, 'history.jsonl');
    // Night 1 as Allure writes it; night 2 lost one test (the coverage map's "deleted", placed by
    // its labels) and another one changed status.
    const results = path.join(tmp, 'results');
    writeSampleResults(results, { start: Date.now() - 86_400_000 });
    generate(results, history, path.join(tmp, 'night1'), true);
    writeSampleResults(results);
    const files = fs.readdirSync(results).filter((n) => n.endsWith('-result.json'));
    fs.rmSync(path.join(results, files[0]!));
    const read = (n: string) =>
      JSON.parse(fs.readFileSync(path.join(results, n), 'utf8')) as { status: string };
    const passed = files.slice(1).find((n) => read(n).status === 'passed')!;
    fs.writeFileSync(path.join(results, passed), JSON.stringify({ ...read(passed), status: 'failed' }));
    const full = fs.readFileSync(history, 'utf8');
    const slim = full
      .trim()
      .split('\n')
      .map((l) => `${slimHistoryLine(l)}\n`)
      .join('');
    expect(slim.length).toBeLessThan(full.length * 0.6);
    for (const dropped of ['"fullName"', '"titlePath"', '"message"']) {
      expect(full).toContain(dropped);
      expect(slim).not.toContain(dropped);
    }

    const fullHistory = path.join(tmp, 'full.jsonl');
    const slimHistory = path.join(tmp, 'slim.jsonl');
    fs.writeFileSync(fullHistory, full);
    fs.writeFileSync(slimHistory, slim);
    const before = shownHistory(generate(results, fullHistory, path.join(tmp, 'full'), false));
    const after = shownHistory(generate(results, slimHistory, path.join(tmp, 'slim'), false));
    expect(before.entries).toBeGreaterThan(30);
    expect(before.charts.join('\n')).toMatch(/"deletedCount":1/);
    expect(JSON.stringify(before.tests)).toMatch(/"transition":"regressed"/);
    expect(after).toEqual(before);
  });

  test('slimming keeps the history id, status, times and behaviour labels, and is done once', () => {
    const entry = {
      id: 'a1',
      name: 'item 05 · industry ranking',
      fullName: 'checks.spec.ts › demo-a › item 5 · industry ranking',
      environment: 'default',
      status: 'failed',
      message: 'ValuesDiffer: …',
      trace: 'at …',
      start: 1,
      stop: 9,
      duration: 8,
      labels: [
        { name: 'thread', value: 'pid-1-worker-0' },
        { name: 'epic', value: 'demo-a' },
        { name: 'feature', value: 'item 05 · industry ranking' },
        { name: 'tag', value: 'item5' },
      ],
      url: '',
      historyId: 'h1.p1',
      reportLinks: [],
    };
    const line = JSON.stringify({
      uuid: 'u',
      name: 'L1',
      timestamp: 5,
      knownTestCaseIds: ['h1'],
      testResults: { 'h1.p1': entry },
      metrics: {},
      url: '',
    });
    const slim = slimHistoryLine(line)!;
    expect(JSON.parse(slim)).toEqual({
      uuid: 'u',
      name: 'L1',
      timestamp: 5,
      knownTestCaseIds: [],
      testResults: {
        'h1.p1': {
          id: 'a1',
          name: 'item 05 · industry ranking',
          environment: 'default',
          status: 'failed',
          start: 1,
          stop: 9,
          duration: 8,
          historyId: 'h1.p1',
          url: '',
          reportLinks: [],
          labels: [
            { name: 'epic', value: 'demo-a' },
            { name: 'feature', value: 'item 05 · industry ranking' },
          ],
        },
      },
      metrics: {},
      url: '',
    });
    expect(slimHistoryLine(slim)).toBe(slim);
    // Not a night's point: left as it is.
    expect(slimHistoryLine('{"uuid":"x"}')).toBe('{"uuid":"x"}');
    // Not JSON (a write cut short): no point, which boundHistory drops and counts as torn.
    expect(slimHistoryLine('{"uuid":"x","testRes')).toBeUndefined();
  });
});

test.describe("tonight's point names its night, so a kill between the point and the night's list never adds it twice", () => {
  const point = (uuid: string, extra: Record<string, unknown> = {}) =>
    JSON.stringify({ uuid, name: 'L1', timestamp: 1, knownTestCaseIds: [], testResults: {}, ...extra });

  test('at 60 points, where Allure drops the oldest as it appends, the first night and a night Allure appended nothing to', () => {
    const dir = tempDir('commit-night');
    const file = path.join(dir, 'history.jsonl');
    const work = path.join(dir, '.history.jsonl.building-1');
    const full = Array.from({ length: 60 }, (_, i) => point(`n${i}`));
    fs.writeFileSync(file, `${full.join('\n')}\n`);
    // As Allure appends at its limit: the newest 59 and tonight's.
    fs.writeFileSync(work, `${[...full.slice(1), point('tonight')].join('\n')}\n`);
    expect(commitNight(work, file, 'night-61')).toBe(true);
    expect(fs.existsSync(work)).toBe(false);
    const lines = fs.readFileSync(file, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(60);
    expect(JSON.parse(lines.at(-1)!)).toMatchObject({ uuid: 'tonight', [NIGHT_FIELD]: 'night-61' });
    expect(historyHasNight(file, 'night-61')).toBe(true);
    expect(historyHasNight(file, 'night-62')).toBe(false);
    // Allure appended nothing: no point is taken for tonight's.
    fs.copyFileSync(file, work);
    expect(commitNight(work, file, 'night-62')).toBe(false);
    expect(historyHasNight(file, 'night-62')).toBe(false);
    // The first night: no history before.
    const first = path.join(dir, 'first.jsonl');
    fs.writeFileSync(work, `${point('one')}\n`);
    expect(commitNight(work, first, 'night-1')).toBe(true);
    expect(historyHasNight(first, 'night-1')).toBe(true);
  });

  test('a night is in the history when history.jsonl.nights lists it or a point names it, and only then (npm run report: alreadyInHistory)', () => {
    const dir = tempDir('night-in-history');
    const file = path.join(dir, 'history.jsonl');
    expect(alreadyInHistory(file, 'night-1')).toBe(false); // no history yet
    fs.writeFileSync(file, `${point('one', { [NIGHT_FIELD]: 'night-1' })}\n${point('two')}\n`);
    fs.writeFileSync(`${file}.nights`, 'night-2\n');
    expect(['night-1', 'night-2', 'night-3', 'night'].map((id) => [id, alreadyInHistory(file, id)])).toEqual([
      ['night-1', true], // named by its point, not listed (a kill before the list)
      ['night-2', true], // listed, no point names it (Allure appended none)
      ['night-3', false],
      ['night', false], // a part of a listed id is no night of the list
    ]);
  });
});

test.describe('the history file holds the newest nights that fit its budget', () => {
  /** A night's line of `tests` tests, as Allure writes it. */
  const night = (uuid: string, tests: number) =>
    JSON.stringify({
      uuid,
      timestamp: 1,
      knownTestCaseIds: [],
      testResults: Object.fromEntries(
        Array.from({ length: tests }, (_, i) => [
          `h${i}`,
          { historyId: `h${i}`, status: 'passed', fullName: 'x'.repeat(40) },
        ]),
      ),
    });

  test('the newest lines that fit, at most 60; nothing written when nothing is over', () => {
    const dir = tempDir('history-bound');
    const file = path.join(dir, 'history.jsonl');
    expect(boundHistory(file, 1000)).toBeUndefined();
    // 62 nights of 10 tests: Allure reads 60.
    fs.writeFileSync(file, Array.from({ length: 62 }, (_, i) => `${night(`n${i}`, 10)}\n`).join(''));
    const lots = boundHistory(file, 10 * 1024 * 1024)!;
    expect(lots).toMatchObject({ nights: 62, kept: 60, slimmed: 62 });
    const kept = fs.readFileSync(file, 'utf8').trim().split('\n');
    expect(kept.map((l) => (JSON.parse(l) as { uuid: string }).uuid)).toEqual(
      Array.from({ length: 60 }, (_, i) => `n${i + 2}`),
    );
    expect(lots.bytesAfter).toBe(fs.statSync(file).size);
    // A budget of three lines and a half: the newest three.
    const line = Buffer.byteLength(kept[0]!) + 1;
    expect(boundHistory(file, Math.floor(line * 3.5))).toMatchObject({ nights: 60, kept: 3, slimmed: 0 });
    expect(
      fs
        .readFileSync(file, 'utf8')
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { uuid: string }).uuid),
    ).toEqual(['n59', 'n60', 'n61']);
    // Within the budget: the file is not written again.
    const mtime = fs.statSync(file).mtimeMs;
    fs.utimesSync(file, 1, 1);
    expect(boundHistory(file, line * 10)).toMatchObject({ nights: 3, kept: 3, slimmed: 0 });
    expect(fs.statSync(file).mtimeMs).toBe(1000);
    expect(mtime).toBeGreaterThan(1000);
    // A line that is not a JSON object (a write cut short, an array): removed, not a night, not
    // counted in the budget; the nights stay.
    fs.appendFileSync(file, '[1]\n{"uuid":"torn","testResults":{"a');
    expect(boundHistory(file, line * 3 + 3)).toMatchObject({ nights: 3, kept: 3, slimmed: 0, torn: 2 });
    expect(fs.readFileSync(file, 'utf8').trim().split('\n')).toHaveLength(3);
    // Not even one night fits: none is kept.
    expect(boundHistory(file, line - 2)).toMatchObject({ nights: 3, kept: 0 });
    expect(fs.readFileSync(file, 'utf8')).toBe('');
  });

  test("Allure's own limit of nights (allurerc.mjs historyLimit) is the one the bound keeps", () => {
    const config = fs.readFileSync(path.join(root, 'allurerc.mjs'), 'utf8');
    expect(/historyLimit: (\d+),/.exec(config)?.[1]).toBe(String(HISTORY_NIGHTS));
  });

  test('npm run report slims the lines, keeps the newest nights within L1_ALLURE_HISTORY_MB, says so, and adds its night slim', () => {
    test.setTimeout(120_000);
    const tmp = tempDir('history-budget');
    const [results, verdicts, output, history] = [
      'results',
      'verdicts',
      'report',
      'history/history.jsonl',
    ].map((f) => path.join(tmp, f)) as [string, string, string, string];
    writeSampleResults(results, { verdicts });
    // Three earlier nights of 1,000 tests each in Allure’s full shape: 0.45 MB each once slimmed.
    const full = (uuid: string, t: number) =>
      JSON.stringify({
        uuid,
        name: 'L1 report checks',
        timestamp: t,
        knownTestCaseIds: Array.from({ length: 1000 }, (_, i) => `tc${i}`),
        testResults: Object.fromEntries(
          Array.from({ length: 1000 }, (_, i) => {
            const historyId = `${'0'.repeat(28)}${String(i).padStart(4, '0')}.${'f'.repeat(32)}`;
            const labels = [
              'language',
              'framework',
              'package',
              'titlePath',
              'tag',
              'epic',
              'feature',
              'host',
              'thread',
              'subSuite',
              'run',
            ].map((name) => ({ name, value: `${name}-gen-${i}-A-monitor-1001` }));
            return [
              historyId,
              {
                id: `${i}`.padStart(32, 'a'),
                name: 'item 06 · word cloud',
                fullName: `checks.spec.ts › gen-${i} › item 6 · word cloud`,
                environment: 'default',
                status: 'passed',
                start: t,
                stop: t + 5,
                duration: 5,
                labels,
                url: '',
                historyId,
                reportLinks: [],
              },
            ];
          }),
        ),
        metrics: {},
        url: '',
      });
    fs.mkdirSync(path.dirname(history), { recursive: true });
    fs.writeFileSync(
      history,
      ['old1', 'old2', 'old3'].map((u, i) => `${full(u, 1_700_000_000_000 + i * 86_400_000)}\n`).join(''),
    );
    const slimSize = Buffer.byteLength(slimHistoryLine(full('old1', 1_700_000_000_000))!);
    expect(slimSize).toBeGreaterThan(0.35 * 1024 * 1024);
    expect(slimSize).toBeLessThan(0.5 * 1024 * 1024);

    const built = runReport(results, verdicts, output, history, { L1_ALLURE_HISTORY_MB: '1' });
    expect(built.status, built.out).toBe(0);
    expect(built.out).toContain('history: 3 night(s) of');
    expect(built.out).toContain('cut to what the report reads');
    expect(built.out).toMatch(
      /history: kept the newest 2 of 3 night\(s\) of \S+ \(0\.\d MB; L1_ALLURE_HISTORY_MB=1: the report step's memory grows with the history it reads\)/,
    );
    expect(built.out).toContain('this night added to');
    const lines = fs.readFileSync(history, 'utf8').trim().split('\n');
    const points = lines.map(
      (l) =>
        JSON.parse(l) as {
          uuid: string;
          knownTestCaseIds: unknown[];
          testResults: Record<string, Record<string, unknown>>;
        },
    );
    expect(points.slice(0, 2).map((p) => p.uuid)).toEqual(['old2', 'old3']);
    expect(points).toHaveLength(3);
    // Tonight's line, Allure's own, kept slim too: the same history ids, nothing the report does not read.
    const tonight = Object.values(points[2]!.testResults);
    expect(tonight.length).toBeGreaterThan(30);
    expect(points[2]!.knownTestCaseIds).toEqual([]);
    for (const entry of tonight) {
      expect(Object.keys(entry)).not.toContain('fullName');
      expect(Object.keys(entry)).not.toContain('message');
      expect(
        (entry.labels as { name: string }[])
          .map((l) => l.name)
          .filter((n) => !['epic', 'feature', 'story'].includes(n)),
      ).toEqual([]);
      expect(entry.historyId).toEqual(expect.any(String));
    }
    // The next build of the same night finds its history as this one left it, within the budget:
    // no line to cut again, none to drop (the bound it runs first, as scripts/report.ts calls it).
    // That it adds no second point: allure-report.spec.ts, which builds one night twice.
    expect(boundHistory(history, 1024 * 1024)).toMatchObject({ nights: 3, kept: 3, slimmed: 0, torn: 0 });
  });
});
