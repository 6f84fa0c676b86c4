import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { BUNDLED, runOf } from '../../demo/runs';
import { SCENARIOS, scenarioRuns } from '../../demo/scenarios';
import { readUrls } from '../../lib/run/url';
import type { RunInput } from '../../lib/run/types';
import { scanOutputs } from '../../lib/redaction';
import {
  ORIGIN,
  PORTAL_B_ORIGIN,
  ROOT,
  comparable,
  demoStats,
  resetDemoStats,
  runSuite,
  type SuiteResult,
} from './harness';

/**
 * docs/decisions.md: the multi-machine path. The same runs checked unsharded, then by the CI pipeline's own
 * scripts in 3 shards plus the merge (scripts/ci/local-pipeline.sh, what the workflow calls):
 * identical verdict files and summary, and the platform saw each run's requests once in total.
 */
test.describe.configure({ mode: 'serial' });

const scenarioInputs = scenarioRuns(ORIGIN, PORTAL_B_ORIGIN);
const pick = [
  'drift-a-rank-swap',
  'drift-b-media-a-rule',
  'fault-403',
  'fault-rows-empty',
  'drift-a-source-count',
];
const runs: RunInput[] = [
  ...BUNDLED.map((p) => runOf(p, ORIGIN, PORTAL_B_ORIGIN)),
  ...SCENARIOS.filter((s) => pick.includes(s.label)).map((s) => scenarioInputs[s.label]!),
];
type Stats = Record<string, Record<string, number>>;
const perRun = (stats: Stats) =>
  Object.fromEntries(runs.map((r) => [r.label!, stats[readUrls(r).projectId] ?? {}]));

let whole: SuiteResult;
let sharded: SuiteResult;
let wholeStats: Stats;
let shardedStats: Stats;

test.beforeAll(async () => {
  await resetDemoStats();
  whole = await runSuite({ name: 'shards-whole', runs });
  wholeStats = (await demoStats()) as Stats;
  await resetDemoStats();
  sharded = await runSuite({
    name: 'shards-pipeline',
    runs,
    command: ['bash', 'scripts/ci/local-pipeline.sh', '3'],
    verdictsDir: path.join(ROOT, 'reports', 'local-pipeline', 'verdicts'),
    timeoutMs: 420_000,
  });
  shardedStats = (await demoStats()) as Stats;
});

test('every configured run has exactly one verdict after the merge, equal to the unsharded one', () => {
  expect(whole.code, whole.output.slice(-2000)).toBe(1);
  // The merge's exit code: 2, since fault runs are not checked (0 pass, 1 values differ, 2 not checked).
  expect(sharded.code, sharded.output.slice(-3000)).toBe(2);
  expect(sharded.output).not.toMatch(/checked by two shards|found in no shard/);
  const labels = runs.map((r) => r.label!).sort();
  expect([...whole.verdicts.keys()].sort()).toEqual(labels);
  expect([...sharded.verdicts.keys()].sort()).toEqual(labels);
  for (const label of labels)
    expect(comparable(sharded.verdicts.get(label)!), label).toEqual(comparable(whole.verdicts.get(label)!));
});

test('each shard checked whole runs: a run is never split between two shards', () => {
  const shards = path.join(ROOT, 'reports', 'local-pipeline', 'shards');
  const seen = new Map<string, string>();
  for (const shard of fs.readdirSync(shards)) {
    const dir = path.join(shards, shard, 'verdicts');
    for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.json') && f !== 'index.json')) {
      const verdict = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as {
        run: { label: string };
        selection: { shard: string };
        status: string;
        items: unknown[];
      };
      expect(seen.has(verdict.run.label), `${verdict.run.label} in two shards`).toBe(false);
      seen.set(verdict.run.label, shard);
      expect(verdict.selection.shard).toBe(`${shard}/3`);
      // A run not checked fails once (its collection test) and lists no item.
      expect(verdict.items).toHaveLength(verdict.status === 'checked' ? 10 : 0);
    }
  }
  expect(new Set(seen.values()).size).toBe(3);
});

test('the merged summary equals the unsharded one', () => {
  const merged = fs.readFileSync(
    path.join(ROOT, 'reports', 'local-pipeline', 'verdicts', 'summary.md'),
    'utf8',
  );
  const single = fs.readFileSync(path.join(whole.dir, 'verdicts', 'summary.md'), 'utf8');
  expect(merged).toEqual(single);
});

test('the platform saw each run once in total: same request counts sharded as unsharded, one page load', () => {
  expect(perRun(shardedStats)).toEqual(perRun(wholeStats));
  for (const run of runs.filter((r) => !/fault-(403|rows-empty)/.test(r.label!))) {
    const counts = perRun(wholeStats)[run.label!]!;
    expect(counts.page, `${run.label} page loads`).toBe(1);
    // A batch list answer counts under every project it lists: several runs share one company.
    const once = Object.entries(counts).filter(([kind]) => kind !== 'batch');
    for (const [kind, n] of once) expect(n, `${run.label} · ${kind}`).toBe(1);
  }
});

test('the merged Playwright HTML report, JUnit and Allure report exist; no secret in any output', () => {
  const base = path.join(ROOT, 'reports', 'local-pipeline');
  expect(fs.existsSync(path.join(base, 'playwright-report', 'index.html'))).toBe(true);
  expect(fs.existsSync(path.join(base, 'junit', 'playwright.xml'))).toBe(true);
  expect(fs.existsSync(path.join(base, 'verdicts', 'junit.xml'))).toBe(true);
  expect(scanOutputs({ root: ROOT, extraPaths: [whole.dir, sharded.dir, base] })).toEqual([]);
});
