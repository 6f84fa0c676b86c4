import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { A_MONITOR, runOf } from '../../demo/runs';
import { scenarioRuns } from '../../demo/scenarios';
import type { RunInput } from '../../lib/run/types';
import { readUrls } from '../../lib/run/url';
import {
  ORIGIN,
  PORTAL_B_ORIGIN,
  ROOT,
  demoStats,
  expect,
  folderOf,
  readVerdicts,
  resetDemoStats,
  runSuite,
  test,
  type SuiteResult,
  comparable,
  embeddedInReport,
  expectNoSecretsIn,
} from './harness';

/**
 * README.md § Run it nightly in CI: the CI sequence run locally by its own scripts
 * (scripts/ci/local-pipeline.sh, what the workflow calls): 3 shards asked for 2 runs — the plan
 * caps them at 2 —, each shard's guard, the merge into one verdict folder and ONE Allure report
 * for the night (one environment block, one grid), the result. One run passes (Profile A), the
 * other fails item 3 (Profile B, `drift-b-kpi-gap-02`): what a shard found failing is failing in
 * the merged night, its verdict, grid, JUnit and record of failed tests. A shard with no run (more
 * shards than runs) is fine. The platform sees each run's requests once in total. Then the same
 * runs unsharded under Playwright's line, junit and blob reporters: each verdict is the sharded
 * night's (docs/claims.md: the claims this proves were proven in part only until 2026-11-28).
 */
test.describe.configure({ mode: 'serial' });

/** The run that fails, and its one failing item (demo/scenarios-drift.ts). */
const DRIFT = 'drift-b-kpi-gap-02';
const runs: RunInput[] = [
  runOf(A_MONITOR, ORIGIN, PORTAL_B_ORIGIN),
  scenarioRuns(ORIGIN, PORTAL_B_ORIGIN)[DRIFT]!,
];
const base = path.join(ROOT, 'reports', 'local-pipeline');
let pipeline: SuiteResult;
let unsharded: SuiteResult;
let stats: Record<string, Record<string, number>>;

test.beforeAll(async () => {
  await resetDemoStats();
  pipeline = await runSuite({
    name: 'pipeline',
    runs,
    command: ['bash', 'scripts/ci/local-pipeline.sh', '3'],
    verdictsDir: path.join(base, 'verdicts'),
    env: { L1_VERDICTS_DIR: undefined, L1_ALLURE_RESULTS_DIR: path.join(base, 'allure-results') },
    timeoutMs: 240_000,
  });
  stats = await demoStats();
  // The same runs unsharded, under Playwright's line, junit (its report on stdout) and blob reporters
  // at once, after the counts above are taken: what the sharded night under the configured reporters
  // wrote is compared with it below.
  unsharded = await runSuite({
    name: 'unsharded',
    runs,
    args: ['--reporter=line,junit,blob'],
    env: { PLAYWRIGHT_BLOB_OUTPUT_DIR: path.join(folderOf('unsharded'), 'blob') },
  });
});

test('3 shards asked for 2 runs: 2 shards, every run once, one grid; the item a shard found failing fails the merged night (exit 1)', () => {
  expect(pipeline.code, pipeline.output.slice(-3000)).toBe(1);
  expect(pipeline.output).toContain('plan: 3 shards asked for 2 run(s): 2 shard(s)');
  expect([...pipeline.verdicts.keys()].sort()).toEqual(['A-monitor', DRIFT]);
  const failing = (label: string) =>
    pipeline.verdicts
      .get(label)!
      .items.filter((i) => i.verdict !== 'pass')
      .map((i) => i.item);
  for (const v of pipeline.verdicts.values()) expect(v.status).toBe('checked');
  expect(failing('A-monitor')).toEqual([]);
  expect(failing(DRIFT)).toEqual([3]);
  expect(pipeline.output).toContain('result: some item failed on checked data (exit 1)');
  // one grid for the night in the job summary
  const summary = fs.readFileSync(path.join(base, 'verdicts', 'summary.md'), 'utf8');
  expect(summary.match(/^\| run \|/gm)).toHaveLength(1);
});

test('one Allure report for the night: one environment block naming both shards, one grid, the failing item failed in its category', () => {
  const html = fs.readFileSync(path.join(pipeline.dir, 'allure-report', 'index.html'), 'utf8');
  const embedded = (name: string): unknown => embeddedInReport(html, name);
  const environment = embedded('widgets/allure_environment.json') as { name: string; values: string[] }[];
  expect(environment.find((e) => e.name === 'shards')?.values).toEqual(['2 shards (1/2, 2/2)']);
  const globals = embedded('widgets/globals.json') as { attachments: { name: string }[] };
  expect(globals.attachments.filter((a) => a.name.startsWith('L1 summary'))).toHaveLength(1);
  expect(globals.attachments[0]!.name).toContain('2 runs: 2 checked');
  // Both runs' 22 tests, the drift's item 3 failed, in the category of values that differ.
  expect(embedded('widgets/statistic.json')).toMatchObject({ total: 22, passed: 21, failed: 1 });
  const categories = embedded('widgets/categories.json') as {
    nodes: Record<string, { type: string; name: string; statistic: { failed?: number } }>;
  };
  expect(
    Object.values(categories.nodes)
      .filter((n) => n.type === 'category')
      .map((n) => [n.name, n.statistic.failed]),
  ).toEqual([['values differ', 1]]);
  // The merged results keep the merge's mark, the invocation of the merged verdicts: a later
  // `npm run report` over them with another night's verdicts is refused, and the next night claims
  // the folder as the suite's (scripts/ci/merge.sh; audit of 2026-11-27).
  const markIn = (dir: string) =>
    (JSON.parse(fs.readFileSync(path.join(base, dir, '.l1-outputs.json'), 'utf8')) as { invocation: string })
      .invocation;
  expect(markIn('allure-results')).toBe(markIn('verdicts'));
});

test("each shard's Playwright record of failed tests travels in its verdicts, and the merged night's is their union (README.md § Investigate without touching the night)", () => {
  const record = (file: string) =>
    JSON.parse(fs.readFileSync(file, 'utf8')) as { status: string; failedTests: string[] };
  const failedInShards = ['1', '2'].flatMap((i) => {
    expect(fs.readFileSync(path.join(base, 'shards', i, 'shard'), 'utf8').trim()).toBe(`${i}/2`);
    return record(path.join(base, 'shards', i, 'verdicts', 'last-run.json')).failedTests;
  });
  // The drift's item 3, in the one shard that checked it.
  expect(failedInShards).toHaveLength(1);
  expect(record(path.join(base, 'verdicts', 'last-run.json'))).toEqual({
    status: 'failed',
    failedTests: failedInShards,
  });
});

test("one JUnit file of the night in junit/ (the verdicts, every configured run, the failing item as a failure), Playwright's in a folder of its own beside its merged HTML report: a CI test reporter reading junit/*.xml counts the night once", () => {
  expect(fs.readdirSync(path.join(base, 'junit'))).toEqual(['verdicts.xml']);
  const junit = fs.readFileSync(path.join(base, 'junit', 'verdicts.xml'), 'utf8');
  expect(junit.match(/<failure /g), junit.slice(0, 2000)).toHaveLength(1);
  expect(fs.existsSync(path.join(base, 'playwright-junit', 'playwright.xml'))).toBe(true);
  expect(fs.existsSync(path.join(base, 'playwright-report', 'index.html'))).toBe(true);
});

test('a shard whose job left no artifact: the merge names it, its runs are interrupted (not input), the reports say its blob is missing (exit 3), and the night adds no history point (audit: rm -rf shard-2, then merge.sh)', async () => {
  const shards = path.join(base, 'lost-shard', 'shards');
  const out = path.join(base, 'lost-shard', 'out');
  fs.rmSync(path.join(base, 'lost-shard'), { recursive: true, force: true });
  fs.mkdirSync(shards, { recursive: true });
  fs.cpSync(path.join(base, 'shards', '1'), path.join(shards, 'shard-1'), { recursive: true });
  // As the audit ran it: no shard count given, the shards' own folders say 2.
  const merged = await runSuite({
    name: 'pipeline-lost-shard',
    runs,
    command: ['bash', 'scripts/ci/merge.sh', shards, out],
    verdictsDir: path.join(out, 'verdicts'),
  });
  expect(merged.code, merged.output.slice(-3000)).toBe(3);
  expect(merged.output).toContain('merge: no blob report of shard 2/2');
  expect(merged.output).toContain('shard 2/2: no results in the folders given');
  expect(fs.readFileSync(path.join(out, 'merge-exit-code'), 'utf8').trim()).toBe('2');
  const lost = [...merged.verdicts.values()].filter((v) => v.status === 'error');
  expect(lost).toHaveLength(1);
  expect(lost[0]).toMatchObject({ failureKind: 'interrupted' });
  expect(lost[0]!.reason).toContain('shard 2/2 left no results');
  expect(merged.output).toContain('1 run(s) interrupted: no point added');
  expect(fs.existsSync(path.join(merged.dir, 'history', 'history.jsonl'))).toBe(false);
  // No union without the lost shard's failures: --last-failed would re-run part of them.
  expect(merged.output).toContain('no last-run.json merged: shard 2/2 left none');
  expect(fs.existsSync(path.join(out, 'verdicts', 'last-run.json'))).toBe(false);
});

test('each run was fetched once in total: one page load and one request per endpoint; the failing run loads its page once more, for its pictures', () => {
  const pageLoads: Record<string, number> = { 'A-monitor': 1, [DRIFT]: 2 };
  for (const run of runs) {
    const counts = stats[readUrls(run).projectId] ?? {};
    for (const kind of ['snapshot', 'competitor', 'tmc', 'wordcloud', 'source:all'])
      expect(counts[kind], `${run.label} · ${kind}`).toBe(1);
    expect(counts.page, `${run.label} · page`).toBe(pageLoads[run.label!]);
  }
});

test("a shard with no run (more shards than runs) writes an empty night (exit 0) and adds nothing to the merge: the merge's exit code is the other shards' (1, the failing item)", async () => {
  const empty = await runSuite({
    name: 'pipeline-empty-shard',
    runs,
    command: ['bash', 'scripts/ci/shard.sh', '3', '3'],
    env: { L1_SHARDS_DIR: path.join(base, 'shards') },
    verdictsDir: path.join(base, 'shards', '3', 'verdicts'),
  });
  expect(empty.code).toBe(0);
  expect(readVerdicts(path.join(base, 'shards', '3', 'verdicts')).verdicts.size).toBe(0);
  const merged = spawnSync(
    'npm',
    [
      'run',
      '-s',
      'merge',
      '--',
      '--out',
      path.join(empty.dir, 'merged'),
      ...['1', '2', '3'].map((i) => path.join(base, 'shards', i, 'verdicts')),
    ],
    { cwd: ROOT, encoding: 'utf8' },
  );
  expect(merged.stdout).toContain('this shard had no run to check (more shards than runs)');
  // The other shards' two runs, and their exit code, said by the merge (a crash exits 1 too).
  expect(merged.stdout).toContain('merge: 2 run(s) from 3 shard folders');
  expect(merged.stdout).toContain('merge: exit code 1\n');
  expect(merged.status, merged.stdout + merged.stderr).toBe(1);
});

test("a shard's invocation writes for each run the verdict an unsharded invocation writes, and no reporter takes part in a verdict: the sharded night (configured reporters: list, Allure, blob) against one invocation of the same runs under line, junit and blob (docs/claims.md)", () => {
  expect(unsharded.code, unsharded.output.slice(-3000)).toBe(1);
  // Each reporter took part: line's progress, junit's report on stdout (the suite's own lines on
  // stderr), blob's file; no Allure results.
  expect(unsharded.stdout).toMatch(/<testsuites [^]*<\/testsuites>/);
  expect(unsharded.stdout).not.toContain('L1 verdicts');
  expect(unsharded.output).toContain('(no Allure results: --reporter replaced the Allure reporter)');
  expect(fs.readdirSync(path.join(unsharded.dir, 'blob'))).toEqual([expect.stringMatching(/\.zip$/)]);
  expect([...unsharded.verdicts.keys()].sort()).toEqual([...pipeline.verdicts.keys()].sort());
  for (const [label, verdict] of pipeline.verdicts) {
    expect(verdict.selection).toMatchObject({ shard: expect.stringMatching(/^[12]\/2$/) });
    expect(comparable(verdict), label).toEqual(comparable(unsharded.verdicts.get(label)!));
  }
});

test('no secret in any output of the pipeline', () => {
  expectNoSecretsIn(base, pipeline.dir, unsharded.dir);
});
