import { expect, test } from './test-type';
import { tempDir } from './fakes/temp';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeAllureEnvironment } from '../../lib/report/allure/environment';
import { findExternalUrls } from '../../lib/report/allure/offline';
import { gridCsv, nightVariables, writeAllureSummary } from '../../lib/report/allure/summary';
import { notCheckedMessage, summarize } from '../../lib/report/night';
import { ITEM_NUMBERS } from '../../lib/rules/types';
import { itemFeature, sampleVerdict, writeSampleResults } from './fakes/allure-sample';
import { tsScript } from '../../lib/run/settings';
import { MARK, unfinishedNight } from '../../lib/report/outputs';
import { readNight, verdictFileNames } from '../../lib/report/verdict-folder';
import { alreadyInHistory, historyPoint } from '../../lib/report/allure/history';
import { shownPath } from '../../lib/util/shown-path';
import { FileSystemWriter } from 'allure-js-commons/sdk/reporter';
import { allureWriteGuard } from '../../lib/report/allure/write-guard';
import { finishInvocation, type Claim } from '../../lib/report/finish';
import { invocationFolders } from '../../lib/run/invocation';
import { COMPLETE } from './fakes/verdicts';

const root = path.resolve(__dirname, '../..');

/** The embedded data file `name` of a single-file report, parsed. */
function embedded(html: string, name: string): unknown {
  const escaped = name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const b64 = new RegExp(`d\\("${escaped}","([^"]*)"\\)`).exec(html)?.[1];
  if (b64 === undefined) throw new Error(`${name} is not embedded in the report`);
  return JSON.parse(Buffer.from(b64, 'base64').toString('utf8'));
}

/** `npm run report ARGS` as a user runs it, from another folder, with no run configured. */
function runReport(args: string[], stateDir: string, extraEnv: NodeJS.ProcessEnv = {}) {
  const env: NodeJS.ProcessEnv = { ...process.env, L1_STATE_DIR: stateDir };
  for (const k of [
    'L1_RUNS',
    'L1_HTML_URL',
    'L1_PLATFORM_URL',
    'L1_BASE_URL',
    'L1_PROFILE_B_HOST',
    'L1_REPORT_ALLOWED_HOSTS',
  ])
    delete env[k];
  Object.assign(env, extraEnv);
  const r = spawnSync(...tsScript(path.join(root, 'scripts', 'report.ts'), args), {
    cwd: os.tmpdir(),
    env,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

function buildReport(
  results: string,
  output: string,
  history: string,
  verdicts = path.join(path.dirname(results), 'no-verdicts'),
  extraEnv: NodeJS.ProcessEnv = {},
) {
  // A report of results alone: an empty verdict folder (one named but absent is a typo, exit 2).
  fs.mkdirSync(verdicts, { recursive: true });
  return runReport(
    ['--results', results, '--verdicts', verdicts, '--output', output, '--history', history],
    path.join(results, 'no-state'),
    extraEnv,
  );
}

/** The sample night written into a fresh folder: its results, its verdict folder, where its report and history go. */
function sampleNight(options: Parameters<typeof writeSampleResults>[1] = {}) {
  const tmp = tempDir('allure-night');
  const [results, verdicts, output, history] = ['results', 'verdicts', 'report', 'history/history.jsonl'].map(
    (f) => path.join(tmp, f),
  ) as [string, string, string, string];
  writeSampleResults(results, { verdicts, ...options });
  return { tmp, results, verdicts, output, history };
}

/**
 * The history point npm run report decides for the night of the verdict folder `verdicts`, read as
 * scripts/report.ts reads it (step 2: lib/report/verdict-folder.ts `readNight`), before any build: lib/report/allure/history.ts
 * `historyPoint`. Its wiring into the build is proven by the builds of this file that add a point,
 * add none for a night already in, for an interrupted night, for a night its index says was stopped
 * and for one that never finished; through the whole suite in tests/selftest/nights.spec.ts (a
 * partial invocation). A shard's folder is decided from the same summary a whole night's point is.
 */
function historyPointOf(verdicts: string, history: string) {
  return historyPoint(readNight(verdicts).summary, history, () =>
    alreadyInHistory(history, 'a night not in it'),
  );
}

test.describe('npm run report: one self-contained Allure file from a hand-made results folder', () => {
  test.describe.configure({ timeout: 90_000 });

  test('calls nobody, sorts items 3 … 12, shows categories, environment, grid, and keeps history', () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'l1-allure-'));
    try {
      const results = path.join(tmp, 'results');
      const verdicts = path.join(tmp, 'verdicts');
      const output = path.join(tmp, 'report');
      const history = path.join(tmp, 'history', 'history.jsonl');
      writeSampleResults(results, { verdicts });
      // A build killed half-way left Allure's uncleaned output beside the report, never at its path.
      // And a copy of the history a build killed before putting it in place.
      fs.mkdirSync(path.dirname(history), { recursive: true });
      fs.writeFileSync(
        path.join(path.dirname(history), '.history.jsonl.building-99999'),
        '{"uuid":"stale"}\n',
      );
      const stopped = path.join(tmp, '.report.building-99999');
      fs.mkdirSync(stopped);
      fs.writeFileSync(
        path.join(stopped, 'index.html'),
        '<script src="https://www.googletagmanager.com/x.js">',
      );

      const first = buildReport(results, output, history, verdicts);
      expect(first.status, first.out).toBe(0);
      // The next build removes it; its own staging folder is gone once the report is in place.
      expect(fs.readdirSync(tmp).filter((f) => f.includes('.building-'))).toEqual([]);
      expect(fs.readdirSync(path.dirname(history)).sort()).toEqual(['history.jsonl', 'history.jsonl.nights']);
      // the generator really put the analytics tag in, and the script removed it
      expect(first.out).toContain('<script src> from www.googletagmanager.com');
      expect(fs.readdirSync(output).filter((f) => f.endsWith('.html'))).toEqual(['index.html']);
      const html = fs.readFileSync(path.join(output, 'index.html'), 'utf8');
      expect(html).not.toContain('googletagmanager');
      expect(findExternalUrls(html)).toEqual([]);
      // A name that is a URL: defanged, still readable, in the mismatch table (README.md § Security
      // and limits); it used to swallow its neighbour and the report was deleted.
      const tables = [...html.matchAll(/d\("(data\/attachments\/[^"]+\.csv)","([^"]*)"\)/g)].map(
        ([, , b64]) => Buffer.from(b64 ?? '', 'base64').toString('utf8'),
      );
      expect(tables.join('\n')).toContain(
        'rank 3 · name,「hxxps://www[.]zhihu[.]com/question/58123456」,「hxxps://www[.]zhihu[.]com/question/58123457」',
      );

      // categories (README.md § Reading the Allure report): each kind of failure in its own category
      const categories = embedded(html, 'widgets/categories.json') as {
        roots: string[];
        nodes: Record<
          string,
          {
            name: string;
            key?: string;
            value?: string;
            statistic?: { total: number };
            childrenIds?: string[];
          }
        >;
      };
      const count = (id: string) => [categories.nodes[id]?.name, categories.nodes[id]?.statistic?.total];
      expect(Object.fromEntries(categories.roots.map(count))).toEqual({
        'values differ': 1,
        'run not checked: input': 11,
        'run not checked: platform': 11,
        'needs input (spec 9.1.2 / 8.1.1)': 11,
        'suite or environment problem (timeout, crash, anything else)': 1,
      });
      // One group per run not checked, headed by its message, said once: its collection (failed,
      // Playwright's `RunNotChecked: ` before the message), its skipped items and its failed ones.
      const groups = (name: string) =>
        (
          categories.nodes[categories.roots.find((id) => categories.nodes[id]?.name === name) ?? '']
            ?.childrenIds ?? []
        ).map(count);
      expect(groups('run not checked: platform')).toEqual([
        [
          'run demo-b not checked (error, platform): GET /api/geo-monitor/metrics/l1 (table=competitor): HTTP 403: the account of this run may not read this company or project',
          11,
        ],
      ]);
      // Groups by run are headed `run: demo-a`, not with the word `epic` (README.md § Reading
      // the Allure report).
      const valuesDiffer = categories.roots.find((id) => categories.nodes[id]?.name === 'values differ');
      expect(
        (categories.nodes[valuesDiffer ?? '']?.childrenIds ?? []).map((id) => categories.nodes[id]),
      ).toMatchObject([{ key: 'run', value: 'demo-a', name: 'run: demo-a' }]);
      expect(groups('run not checked: input')).toEqual([
        [
          'run demo-c not checked (error, input): htmlUrl · batchDate: missing: add the query batchDate=YYYY-MM-DD',
          11,
        ],
      ]);
      expect(groups('needs input (spec 9.1.2 / 8.1.1)')).toEqual([
        [
          'run demo-d not checked (needs-input): spec 9.1.2: no batch for 2025-11-17; stop and ask which crawl batch id to use (set batchId on the run)',
          11,
        ],
      ]);

      // environment block, grid and runs not checked
      expect(embedded(html, 'widgets/allure_environment.json')).toContainEqual({
        name: 'Playwright',
        values: ['1.65.1'],
      });
      const globals = embedded(html, 'widgets/globals.json') as {
        errors: { message: string }[];
        attachments: { name: string }[];
      };
      expect(globals.errors.map((e) => e.message.split(':')[0])).toEqual([
        'run demo-b not checked (error, platform)',
        'run demo-c not checked (error, input)',
        'run demo-d not checked (needs-input)',
      ]);
      expect(globals.attachments.map((a) => a.name)).toEqual([
        'L1 summary · run × item grid: 4 runs: 1 checked (0 passing, 1 with failing items, 1 failing item), 3 not checked (input 1, platform 1, needs-input 1)',
        'runs not checked (3)',
      ]);
      // the night at a glance, at the top of the overview
      expect(embedded(html, 'widgets/variables.json')).toMatchObject({
        checked: '1 of 4 runs',
        failing: '1 run(s): demo-a',
        'failing items': 'item 5 ×1',
        'not checked': '3 run(s) (input 1, platform 1, needs-input 1): demo-b, demo-c, demo-d',
      });

      // Each test's labels: its run, and its path as the test's own (no unnamed suites, no part file).
      const tests = [...html.matchAll(/d\("(data\/test-results\/[^"]+\.json)","[^"]*"\)/g)].map(
        ([, name]) =>
          embedded(html, name ?? '') as { fullName: string; labels: { name: string; value: string }[] },
      );
      const demoB = tests.find(
        (t) => t.fullName === 'checks.spec.ts › demo-b › item 7 · content type shares',
      );
      expect(demoB?.labels.filter((l) => ['run', 'epic', 'titlePath'].includes(l.name))).toEqual([
        { name: 'titlePath', value: 'l1-verify > checks.spec.ts > demo-b' },
        { name: 'epic', value: 'demo-b' },
        { name: 'run', value: 'demo-b' },
      ]);

      // the tree: run → collection, then items; zero-padded features sort 3 … 12
      const tree = JSON.stringify(embedded(html, 'widgets/tree.json'));
      const features = [...new Set([...tree.matchAll(/"name":"(item [^"]*)"/g)].map((m) => m[1]))].filter(
        (n) => n?.includes(' · ') && !/ · demo-/.test(n),
      );
      expect(features).toHaveLength(11);
      expect([...features].sort()).toEqual([
        'item 00 · collection (page and endpoints, once)',
        ...ITEM_NUMBERS.map(itemFeature),
      ]);

      // history: a second build of the same night adds no point; the next night does, and the
      // report reads the earlier one
      expect(fs.readFileSync(history, 'utf8').trim().split('\n')).toHaveLength(1);
      // Killed after the point was in place and before the night was listed (audit of
      // 2026-11-27): the point names its night, so the next build adds it no second time.
      fs.rmSync(`${history}.nights`);
      const again = buildReport(results, output, history, verdicts);
      expect(again.status, again.out).toBe(0);
      expect(again.out).toContain('this night is already in');
      expect(fs.readFileSync(history, 'utf8').trim().split('\n')).toHaveLength(1);
      // A write of the history cut short (a kill while Allure appended): the torn line is removed
      // and said, and the report is built; before, Allure stopped on it night after night.
      const ends = fs.readFileSync(history, 'utf8').endsWith('\n');
      fs.appendFileSync(history, `${ends ? '' : '\n'}{"uuid":"torn","testResults":{"a`);
      writeSampleResults(results, { verdicts, invocation: 'sample-night-2' });
      // Another output folder the variables name holds a secret on its line 2 and in a binary
      // file: the history's own lines hold none, and none of them is removed for it.
      const other = path.join(tmp, 'other-outputs');
      fs.mkdirSync(other);
      const leak = 'http://h.test/x?access_token=zzSECRETzz0123456789abcd';
      fs.writeFileSync(path.join(other, 'notes.txt'), `ok\nsee ${leak}\n`);
      fs.writeFileSync(path.join(other, 'blob.bin'), `bin\0ary ${leak}\n`);
      // One build of the next night for both (each a build of its own before: docs/speed-log.md).
      const next = buildReport(results, output, history, verdicts, { L1_PARTIAL_DIR: other });
      expect(next.status, next.out).toBe(0);
      expect(next.out).toContain('that are not JSON');
      expect(next.out).not.toContain('holding a secret');
      expect(fs.readFileSync(history, 'utf8').trim().split('\n'), next.out).toHaveLength(2);
      const html2 = fs.readFileSync(path.join(output, 'index.html'), 'utf8');
      expect(html2).toMatch(/d\("data\/history\//);
      expect(findExternalUrls(html2)).toEqual([]);
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });

  test("one shard's folder (--shard 1/2 through the main job) adds no history point: the merged night does (CLI audit: a point per shard)", () => {
    const { verdicts, history } = sampleNight({ shard: '1/2' });
    expect(historyPointOf(verdicts, history)).toEqual({
      append: false,
      line: 'shard 1/2 of the night: no point added (the night merged from its shards adds one)',
    });
    // Near miss: the same night, whole.
    expect(historyPointOf(sampleNight().verdicts, history)).toEqual({
      append: true,
      line: `this night added to ${shownPath(history)}`,
    });
  });

  test("a partial invocation's folder (--grep item5: its verdicts not complete) adds no history point (README.md § Investigations never clobber the night)", () => {
    const { verdicts, history } = sampleNight();
    for (const name of verdictFileNames(verdicts)) {
      const file = path.join(verdicts, name);
      const v = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
      fs.writeFileSync(
        file,
        JSON.stringify({ ...v, selection: { filters: ['--grep item5'], shard: null, complete: false } }),
      );
    }
    expect(historyPointOf(verdicts, history)).toEqual({
      append: false,
      line: 'partial invocation: no point added',
    });
  });

  test('a night its index says was stopped adds no history point, even with no run marked interrupted (a merged night missing a shard whose runs are not known: review of 2026-11-27)', () => {
    // Built, not read through historyPointOf: the index's stop is the one input of the decision that
    // no other build of the suite reaches with no run interrupted (the never-finished night's stop is
    // its mark's; the merged night missing a shard in tests/selftest/shards.spec.ts has runs
    // interrupted), so only a build proves that scripts/report.ts hands it to historyPoint.
    const { results, verdicts, output, history } = sampleNight();
    const index = path.join(verdicts, 'index.json');
    const stop = 'the merged night is not whole: shard 2/3 left no results';
    fs.writeFileSync(index, JSON.stringify({ ...JSON.parse(fs.readFileSync(index, 'utf8')), stopped: stop }));
    const built = buildReport(results, output, history, verdicts);
    expect(built.status, built.out).toBe(0);
    expect(built.out).toContain(`history: ${stop}: no point added`);
    expect(fs.existsSync(history) ? fs.readFileSync(history, 'utf8').trim() : '').toBe('');
  });

  test('an interrupted night: every run is in the report, from its verdicts, interrupted; it adds no history point', () => {
    const { results, verdicts, output, history } = sampleNight({ interrupted: true });
    const built = buildReport(results, output, history, verdicts);
    expect(built.status, built.out).toBe(0);
    expect(built.out).toContain('29 test(s) of runs not checked that left no result shown as broken');
    expect(built.out).toContain('2 test(s) cut by the stop shown in their run, as interrupted');
    expect(built.out).toContain('history: 3 run(s) interrupted: no point added');
    expect(built.out).not.toContain('other ids than allure-playwright');
    // A point would show the items that did not run as broken (docs/decisions.md).
    expect(fs.existsSync(history) ? fs.readFileSync(history, 'utf8').trim() : '').toBe('');
    const html = fs.readFileSync(path.join(output, 'index.html'), 'utf8');
    const categories = embedded(html, 'widgets/categories.json') as {
      roots: string[];
      nodes: Record<string, { name: string; statistic?: { total: number }; childrenIds?: string[] }>;
    };
    const count = (id: string) => [categories.nodes[id]?.name, categories.nodes[id]?.statistic?.total];
    const interrupted = categories.roots.find(
      (id) => categories.nodes[id]?.name === 'run interrupted (the night was stopped)',
    );
    expect(count(interrupted ?? '')[1]).toBe(11 + 11 + 9);
    expect((categories.nodes[interrupted ?? '']?.childrenIds ?? []).map(count)).toEqual([
      [
        'run demo-f not checked (error, interrupted): the invocation was interrupted by SIGTERM before this run started',
        11,
      ],
      [
        'run demo-g not checked (error, interrupted): the invocation was interrupted by SIGTERM while its collection ran',
        11,
      ],
      [
        'run demo-h not checked (error, interrupted): the invocation was interrupted by SIGTERM while item 4 ran: items 4, 5, 6, 7, 8, 9, 10, 11, 12 did not run (the items in the verdict are those that finished)',
        9,
      ],
    ]);
    // Each run is a group of the tree with its eleven tests; none is left outside a run.
    const tree = embedded(html, 'widgets/tree.json') as {
      root: { groups?: string[]; leaves?: string[] };
      groupsById: Record<string, { name: string; groups?: string[]; leaves?: string[] }>;
    };
    const tests = (id: string): number => {
      const g = tree.groupsById[id]!;
      return (g.leaves?.length ?? 0) + (g.groups ?? []).reduce((n, c) => n + tests(c), 0);
    };
    expect(tree.root.leaves ?? []).toEqual([]);
    expect(
      Object.fromEntries((tree.root.groups ?? []).map((id) => [tree.groupsById[id]?.name, tests(id)])),
    ).toEqual({
      'demo-a': 11,
      'demo-b': 11,
      'demo-c': 11,
      'demo-d': 11,
      'demo-e': 1,
      'demo-f': 11,
      'demo-g': 11,
      'demo-h': 11,
    });
  });

  test('a missing or empty results folder is a clear error, exit 1 (never an empty report marked passed)', () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'l1-allure-'));
    try {
      const r = buildReport(path.join(tmp, 'nothing'), path.join(tmp, 'out'), path.join(tmp, 'h.jsonl'));
      expect(r.status).toBe(1);
      expect(r.out).toContain('no Allure results in');
      fs.mkdirSync(path.join(tmp, 'empty'));
      const empty = buildReport(path.join(tmp, 'empty'), path.join(tmp, 'out'), path.join(tmp, 'h.jsonl'));
      expect(empty.status).toBe(1);
      /** `npm run report` with `--verdicts` naming `verdicts`, beside the empty results folder. */
      const withVerdicts = (verdicts: string) =>
        runReport(
          ['--verdicts', verdicts, '--results', path.join(tmp, 'empty'), '--output', path.join(tmp, 'out')],
          path.join(tmp, 'no-state'),
        );
      // A verdict folder named on the command line that is not there: a typo, said, exit 2.
      const typo = withVerdicts(path.join(tmp, 'verdicts-typo'));
      expect(typo.status, typo.out).toBe(2);
      expect(typo.out).toContain('no such folder');
      expect(fs.existsSync(path.join(tmp, 'out'))).toBe(false);
      // A file given for it is the same typo (file-system audit: a report of the results alone, exit 0).
      fs.writeFileSync(path.join(tmp, 'verdicts-file'), '');
      const file = withVerdicts(path.join(tmp, 'verdicts-file'));
      expect(file.status, file.out).toBe(2);
      expect(file.out).toContain('verdicts-file: a file, not a folder');
      expect(fs.existsSync(path.join(tmp, 'out'))).toBe(false);
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });
});

test.describe('npm run report: one night, never two', () => {
  test("results of one invocation and verdicts of another (a merge's results, another night's verdicts) are refused, naming both and where a merge's verdicts are; nothing is built", () => {
    const { tmp, results, verdicts, output, history } = sampleNight();
    const mark = (dir: string, invocation: string) =>
      fs.writeFileSync(
        path.join(dir, MARK),
        JSON.stringify({
          tool: 'l1-verify',
          invocation,
          pid: 1,
          complete: true,
          startedAt: '2026-11-27T00:00:00Z',
        }),
      );
    mark(results, 'merge-of-tonight');
    mark(verdicts, 'night-before');
    const r = runReport(
      ['--results', results, '--verdicts', verdicts, '--output', output, '--history', history],
      path.join(tmp, 'no-state'),
    );
    expect(r.status, r.out).toBe(1);
    expect(r.out).toContain('holds the results of invocation merge-of-tonight');
    expect(r.out).toContain('the verdicts of night-before: two nights would be one report');
    expect(r.out).toContain(
      "a merge's, scripts/ci/merge.sh and local-pipeline.sh, are in its OUT_DIR/verdicts",
    );
    expect(fs.existsSync(output)).toBe(false);
    expect(fs.existsSync(history)).toBe(false);
  });

  test("a night killed before any test ended has no result yet, but a results folder of its own (the verdicts' invocation's mark): its report is built, every test from the verdicts (regression check of 2026-11-28: refused, 'no Allure results'); near miss: a folder of no invocation is still refused", () => {
    const { tmp, results, verdicts, output, history } = sampleNight();
    const mark = (dir: string) =>
      fs.writeFileSync(
        path.join(dir, MARK),
        JSON.stringify({
          tool: 'l1-verify',
          invocation: 'killed-night',
          pid: 1,
          complete: true,
          startedAt: '2026-11-27T00:00:00Z',
        }),
      );
    for (const name of fs.readdirSync(results).filter((n) => n.endsWith('-result.json')))
      fs.rmSync(path.join(results, name));
    const args = ['--results', results, '--verdicts', verdicts, '--output', output, '--history', history];
    const unmarked = runReport(args, path.join(tmp, 'no-state'));
    expect(unmarked.status, unmarked.out).toBe(1);
    expect(unmarked.out).toContain('no Allure results in');
    mark(results);
    mark(verdicts);
    const built = runReport(args, path.join(tmp, 'no-state'));
    expect(built.status, built.out).toBe(0);
    expect(built.out).toMatch(
      /\d+ test\(s\) of runs not checked that left no result shown as broken, from their verdicts|\d+ test\(s\) cut by the stop/,
    );
    expect(fs.existsSync(path.join(output, 'index.html'))).toBe(true);
  });
});

test('a verdict folder whose night never finished, and that nothing here can finish (its state gone), is reported as a night stopped early: exit code 2 in its index, no history point; never an index of the runs that finished read as the whole night (file-system audit)', () => {
  test.setTimeout(60_000);
  const { tmp, results, verdicts, output, history } = sampleNight();
  const args = ['--results', results, '--verdicts', verdicts, '--output', output, '--history', history];
  const mark = (finishedAt?: string) => {
    for (const dir of [results, verdicts])
      fs.writeFileSync(
        path.join(dir, MARK),
        JSON.stringify({
          tool: 'l1-verify',
          invocation: 'killed-night',
          pid: 2 ** 22 + 1, // no process has it
          complete: true,
          startedAt: '2026-11-27T00:00:00Z',
          ...(finishedAt ? { finishedAt } : {}),
        }),
      );
  };
  mark();
  const r = runReport(args, path.join(tmp, 'no-state'));
  expect(r.status, r.out).toBe(0);
  expect(r.out).toContain(
    'invocation killed-night never finished and could not be finished here (its state is gone)',
  );
  const index = JSON.parse(fs.readFileSync(path.join(verdicts, 'index.json'), 'utf8')) as {
    exitCode: number;
    stopped?: string;
  };
  expect(index.exitCode).toBe(2);
  expect(index.stopped).toContain('invocation killed-night never finished');
  expect(r.out).toContain('never finished and could not be finished here');
  expect(r.out).toMatch(/history: .*no point added/);
  // Near miss: the same folder once its night finished is a whole night again, read as
  // scripts/report.ts reads it (the build above proves how it uses what it reads): not unfinished,
  // so not stopped, and its point added.
  fs.rmSync(path.join(verdicts, 'index.json'));
  // Read as the build reads it (readNight), without its index: the unfinished mark alone stops it.
  expect(readNight(verdicts).summary).toMatchObject({
    exitCode: 2,
    stopped: expect.stringContaining('invocation killed-night never finished'),
  });
  mark('2026-11-27T01:00:00Z');
  expect(unfinishedNight(verdicts)).toBeUndefined();
  expect(historyPointOf(verdicts, history)).toEqual({
    append: true,
    line: `this night added to ${shownPath(history)}`,
  });
});

test('results allure-playwright could not write whole (a full disk, recorded by the runner: lib/report/allure/write-guard.ts) build no report: exit 1, saying why (file-system audit)', () => {
  test.setTimeout(60_000);
  const { tmp, results, verdicts, output, history } = sampleNight();
  fs.writeFileSync(
    path.join(results, 'l1-incomplete-night-1.json'),
    JSON.stringify({ invocation: 'night-1', error: 'ENOSPC: no space left on device, write' }),
  );
  const r = runReport(
    ['--results', results, '--verdicts', verdicts, '--output', output, '--history', history],
    path.join(tmp, 'no-state'),
  );
  expect(r.status, r.out).toBe(1);
  expect(r.out).toContain(
    `report: allure-playwright could not write every result to ${results} (ENOSPC: no space left on device, write): a report of them would lack what it could not write: run the checks again once the folder can be written`,
  );
  expect(fs.existsSync(output)).toBe(false);
});

test.describe('npm run report over odd paths (file-system audit): one build for both', () => {
  test.describe.configure({ mode: 'default' });
  // One build (each test built its own before: docs/speed-log.md): its results in a folder whose
  // path holds glob characters, its history kept elsewhere through a symbolic link.
  let tmp = '';
  let kept = '';
  let link = '';
  let output = '';
  let r: ReturnType<typeof runReport> = { status: null, out: 'not built' };

  test.beforeAll(() => {
    test.setTimeout(60_000);
    tmp = path.join(tempDir('allure-braces'), `reports {nightly,b} [1] (x) * ? 'q' "qq" 报告`);
    const results = path.join(tmp, 'allure-results');
    const verdicts = path.join(tmp, 'verdicts');
    output = path.join(tmp, 'report');
    writeSampleResults(results, { verdicts });
    kept = path.join(tempDir('history-volume'), 'history.jsonl');
    link = path.join(tmp, 'allure-history', 'history.jsonl');
    fs.mkdirSync(path.dirname(link), { recursive: true });
    fs.symlinkSync(kept, link); // the kept file not made yet: the first night makes it
    r = runReport(
      ['--results', results, '--verdicts', verdicts, '--output', output, '--history', link],
      path.join(tmp, 'no-state'),
    );
  });

  test('results in a folder whose path holds what glob reads as a pattern (braces, brackets, parentheses, a star, a question mark, quotes) get their report (file-system audit: braces gave "No test results directories found", exit 3)', () => {
    expect(r.status, r.out).toBe(0);
    expect(fs.existsSync(path.join(output, 'index.html'))).toBe(true);
  });

  test('a history file kept elsewhere through a symbolic link (a persistent volume) gets the night there, and the link stays (file-system audit: the rename replaced the link, and the kept history never grew)', () => {
    expect(r.status, r.out).toBe(0);
    expect(fs.lstatSync(link).isSymbolicLink()).toBe(true);
    expect(fs.readFileSync(kept, 'utf8').trim().split('\n')).toHaveLength(1);
    expect(fs.existsSync(`${kept}.nights`)).toBe(true);
  });
});

test('npm run report with a bad setting exits 2 naming it once as a setting (review 59: "report: settings: settings: L1_ALLURE_HISTORY_MB …")', () => {
  const r = runReport([], tempDir('report-bad-setting'), { L1_ALLURE_HISTORY_MB: '0.5' });
  expect(r.status, r.out).toBe(2);
  expect(r.out).toContain('report: settings: L1_ALLURE_HISTORY_MB "0.5": expected a positive whole number');
  expect(r.out).not.toContain('settings: settings:');
});

test("scripts/allure-generate.mjs (what npm run report starts for Allure): bad usage exits 2 naming what is wrong; a results folder that is not there, 1, in Allure's own words", () => {
  const generate = (...args: string[]) =>
    spawnSync(process.execPath, [path.join(root, 'scripts', 'allure-generate.mjs'), ...args], {
      encoding: 'utf8',
    });
  const missing = generate('--results', 'r');
  expect(missing.status).toBe(2);
  expect(missing.stderr).toContain('allure-generate: --results, --config and --output are all needed');
  const unknown = generate('--results', 'r', '--config', 'c', '--output', 'o', '--cwd', '.');
  expect(unknown.status).toBe(2);
  expect(unknown.stderr).toContain("Unknown option '--cwd'");
  // Its usage and what it does, as the project's other plain-Node scripts (scripts/cli.mjs).
  const help = generate('--help');
  expect(help.status).toBe(0);
  expect(help.stdout).toContain(
    'usage: node scripts/allure-generate.mjs --results DIR --config FILE --output DIR',
  );
  const nowhere = path.join(tempDir('allure-generate'), 'not-there');
  const none = generate('--results', nowhere, '--config', path.join(root, 'allurerc.mjs'), '--output', 'o');
  expect(none.status).toBe(1);
  expect(none.stderr).toBe(`No test results directories found matching pattern: ${nowhere}\n`);
});

test("@allurereport/core, which scripts/allure-generate.mjs builds with, is allure's own: the same pinned version in package.json, installed once", () => {
  const json = (rel: string) => JSON.parse(fs.readFileSync(path.join(root, rel), 'utf8'));
  const dev = json('package.json').devDependencies;
  const allure = json('node_modules/allure/package.json');
  expect(dev['@allurereport/core']).toBe(dev.allure);
  expect(allure.dependencies['@allurereport/core']).toBe(dev.allure);
  expect(json('node_modules/@allurereport/core/package.json').version).toBe(allure.version);
  expect(
    fs.existsSync(path.join(root, 'node_modules', 'allure', 'node_modules', '@allurereport', 'core')),
  ).toBe(false);
});

test.describe('environment and summary files', () => {
  test('environment.properties: escaped keys and values, URLs masked, controls escaped', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'l1-env-'));
    try {
      const file = writeAllureEnvironment(dir, {
        'base URL': 'https://platform.example.com/x?token=abc&a=1',
        'label: odd=key': 'line1\nline2 \u001b[2J',
        workers: '2',
      });
      expect(fs.readFileSync(file, 'utf8')).toBe(
        [
          'base\\ URL=https://platform.example.com/x?token=***&a=1',
          'label\\:\\ odd\\=key=line1\\\\x0aline2 \\\\x1b[2J',
          'workers=2',
          '',
        ].join('\n'),
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('the grid: items 3 … 12 in order, pass / FAIL / · as text, one message per run not checked', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'l1-sum-'));
    try {
      const { verdicts } = writeSampleResults(dir);
      const summary = summarize(verdicts, { filters: [], shard: null, complete: true });
      expect(gridCsv(summary.grid).split('\r\n').slice(0, 5)).toEqual([
        'run,status,3,4,5,6,7,8,9,10,11,12',
        'demo-a,checked,pass,pass,FAIL,pass,pass,pass,pass,pass,pass,pass',
        'demo-b,error (platform),·,·,·,·,·,·,·,·,·,·',
        'demo-c,error (input),·,·,·,·,·,·,·,·,·,·',
        // its kind is its status: said once, as the terminal and summary.md say it
        'demo-d,needs-input,·,·,·,·,·,·,·,·,·,·',
      ]);
      expect(notCheckedMessage({ label: 'x\u001b', status: 'needs-input', reason: 'r' })).toBe(
        'run x\\x1b not checked (needs-input): r',
      );
      // calling it again replaces the earlier summary
      writeAllureSummary(dir, summary);
      writeAllureSummary(dir, summary);
      expect(fs.readdirSync(dir).filter((f) => f.endsWith('-globals.json'))).toHaveLength(1);
      expect(itemFeature(3)).toBe('item 03 · KPI cards, aggregate');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('the variables: failing items in item order, 3 … 12, whatever run failed them first', () => {
    const items = (failing: number[]) =>
      ITEM_NUMBERS.map((item) => ({
        item,
        verdict: failing.includes(item) ? ('fail' as const) : ('pass' as const),
        steps: [],
        notes: [],
      }));
    const summary = summarize(
      [
        sampleVerdict('run-a', 'checked', items([10, 3])),
        sampleVerdict('run-b', 'checked', items([7, 3, 6])),
        sampleVerdict('run-c', 'checked', items([])),
      ],
      { filters: [], shard: null, complete: true },
    );
    expect(nightVariables(summary)['failing items']).toBe('item 3 ×2, item 6 ×1, item 7 ×1, item 10 ×1');
  });
});

/**
 * Until the returned function is called, every write of a file whose path `refused` accepts fails
 * as on a full disk (ENOSPC): no chmod, which root ignores.
 */
function fullDiskFor(refused: (file: string) => boolean): () => void {
  const write = fs.writeFileSync;
  (fs as { writeFileSync: unknown }).writeFileSync = (file: fs.PathOrFileDescriptor, ...rest: unknown[]) => {
    if (refused(String(file)))
      throw Object.assign(new Error(`ENOSPC: no space left on device, write`), { code: 'ENOSPC' });
    return (write as (...a: unknown[]) => void)(file, ...rest);
  };
  return () => {
    (fs as { writeFileSync: unknown }).writeFileSync = write;
  };
}

test("Allure results a full disk left incomplete are refused by npm run report even when their results folder's record could not be written then, nor at the teardown: the night's marks say so (review of 2026-11-28: built without a word once space was freed)", () => {
  test.setTimeout(60_000);
  const id = 'full-night';
  const { tmp, results, verdicts, output, history } = sampleNight({ invocation: id });
  for (const dir of [results, verdicts])
    fs.writeFileSync(
      path.join(dir, MARK),
      JSON.stringify({ tool: 'l1-verify', invocation: id, pid: 2 ** 22 + 1, complete: true, startedAt: 't' }),
    );
  const state = path.join(tmp, 'state');
  const claim = {
    pid: process.pid,
    invocation: {
      id,
      startedAt: 't',
      ...invocationFolders(state, id),
      selection: COMPLETE,
      outputs: { verdicts, allureResults: results, partial: false },
    },
    runs: [],
    allure: true,
    keepState: false,
    facts: {
      id,
      suite: 'l1-verify 0.1.0',
      runsFrom: '4 runs of the sample',
      profileB: 'not configured',
      shard: null,
      selection: 'every item',
      workers: 2,
      playwright: '1.65.1',
      browser: 'Chromium 156.0',
      partial: false,
    },
  } as unknown as Claim;
  fs.mkdirSync(claim.invocation.dir, { recursive: true });
  // The error allure-js-commons' writer throws (its stack names it), on a disk with no space left.
  const blocked = path.join(tmp, 'a-file');
  fs.writeFileSync(blocked, '');
  let failed: unknown;
  try {
    new FileSystemWriter({ resultsDir: path.join(blocked, 'r') }).writeAttachment('x.txt', Buffer.from('x'));
  } catch (e) {
    failed = Object.assign(e as Error, { message: 'ENOSPC: no space left on device, write' });
  }
  // The night: neither the results folder nor the state folder can be written.
  const nightDisk = fullDiskFor((f) => f.startsWith(results) || f.startsWith(state));
  try {
    allureWriteGuard(results, id, () => {}, claim.invocation.dir)(failed);
  } finally {
    nightDisk();
  }
  // The teardown: space is freed, but not enough for the results folder's record.
  const teardownDisk = fullDiskFor((f) => path.basename(f).startsWith('l1-incomplete-'));
  try {
    finishInvocation(claim);
  } finally {
    teardownDisk();
  }
  expect(fs.readdirSync(results).filter((n) => n.startsWith('l1-incomplete-'))).toEqual([]);
  const r = runReport(
    ['--results', results, '--verdicts', verdicts, '--output', output, '--history', history],
    path.join(tmp, 'no-state'),
  );
  expect(r.status, r.out).toBe(1);
  expect(r.out).toContain(
    `report: allure-playwright could not write every result of invocation ${id} (ENOSPC: no space left on device, write), as its night recorded (${MARK}): a report of them would lack what it could not write: run the checks again once the folder can be written`,
  );
  expect(fs.existsSync(output)).toBe(false);
});
