import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { A_MONITOR, B_DIAGNOSIS, runOf } from '../../demo/runs';
import { scenarioRuns } from '../../demo/scenarios';
import type { RunInput } from '../../lib/run/types';
import { ORIGIN, PORTAL_B_ORIGIN, ROOT, comparable, runSuite, type SuiteResult } from './harness';

/**
 * docs/decisions.md and 8: results are a property of the run, not of a reporter or of a lucky invocation.
 * Every way Playwright is run writes the same verdict files; labels never share a file; two
 * invocations at once never mix; sessions do not outlive the invocation.
 */
const scenarios = scenarioRuns(ORIGIN, PORTAL_B_ORIGIN);
const runs: RunInput[] = [
  runOf(A_MONITOR, ORIGIN, PORTAL_B_ORIGIN),
  runOf(B_DIAGNOSIS, ORIGIN, PORTAL_B_ORIGIN),
  scenarios['drift-a-rank-swap']!,
  scenarios['fault-403']!,
];

const verdictMap = (s: SuiteResult) =>
  Object.fromEntries([...s.verdicts].map(([label, v]) => [label, comparable(v)]).sort());

test.describe('every reporter writes the same verdicts (docs/decisions.md)', () => {
  test.describe.configure({ mode: 'serial' });
  let reference: SuiteResult;

  test.beforeAll(async () => {
    reference = await runSuite({ name: 'reporter-config', runs });
  });

  test('the configured reporters: four verdict files, a summary on the terminal', () => {
    expect(reference.code).toBe(1);
    expect(reference.verdicts.size).toBe(4);
    expect(reference.output).toContain('L1 verdicts');
  });

  for (const reporter of ['dot', 'line,junit', 'blob']) {
    test(`--reporter=${reporter}`, async () => {
      const suite = await runSuite({
        name: `reporter-${reporter.replace(',', '-')}`,
        runs,
        args: [`--reporter=${reporter}`],
        env: {
          PLAYWRIGHT_JUNIT_OUTPUT_NAME: path.join(
            ROOT,
            'test-results',
            'selftest-runs',
            `junit-${reporter}.xml`,
          ),
        },
      });
      expect(suite.code).toBe(1);
      expect(verdictMap(suite)).toEqual(verdictMap(reference));
      // The terminal summary comes from the global teardown, not from a reporter.
      expect(suite.output).toContain('L1 verdicts');
    });
  }
});

test('--last-failed reruns what failed; its verdicts say the invocation was partial', async () => {
  const first = await runSuite({ name: 'last-failed', runs, env: { L1_KEEP_STATE: undefined } });
  expect(first.code).toBe(1);
  const again = await runSuite({ name: 'last-failed', runs, args: ['--last-failed'], keepDir: true });
  expect(again.code).toBe(1);
  const verdicts = [...again.verdicts.values()];
  expect(verdicts.length).toBeGreaterThan(0);
  for (const v of verdicts) {
    expect(v.selection.complete).toBe(false);
    expect(v.selection.filters).toContain('--last-failed');
  }
  // The drifted item failed before: it is rerun and fails again; the passing run is not rerun.
  expect(again.verdicts.get('drift-a-rank-swap')?.items.map((i) => `${i.item}:${i.verdict}`)).toEqual([
    '5:fail',
  ]);
  expect(again.verdicts.has('A-monitor')).toBe(false);
});

test('labels that differ never share a file; a label given twice stops the invocation naming both runs', async () => {
  const base = runOf(A_MONITOR, ORIGIN, PORTAL_B_ORIGIN);
  const long = `长标签-${'x'.repeat(300)}`;
  const labels = ['a/b', 'a b', 'ａ/ｂ', 'A monitor', 'A-monitor', long];
  const suite = await runSuite({
    name: 'labels',
    runs: labels.map((label) => ({ ...base, label })),
    args: ['--grep', '@item3'],
  });
  expect(suite.code, suite.output.slice(-2000)).toBe(0);
  expect([...suite.verdicts.keys()].sort()).toEqual([...labels].sort());
  const files = fs.readdirSync(path.join(suite.dir, 'verdicts')).filter((f) => f.endsWith('.json'));
  expect(new Set(files).size).toBe(files.length);
  for (const f of files) expect(Buffer.byteLength(f)).toBeLessThan(255);

  const twice = await runSuite({
    name: 'labels-twice',
    runs: [
      { ...base, label: 'x' },
      { ...base, label: 'x' },
      { ...base, label: 'x-2' },
    ],
  });
  expect(twice.code).not.toBe(0);
  expect(twice.output).toContain('runs #1 and #2 both have the label "x"');
  expect(twice.verdicts.size).toBe(0);
});

test('two invocations at once: each has its own state; a shared output folder is refused, not mixed', async () => {
  const shared = path.join(ROOT, 'test-results', 'selftest-runs', 'concurrent-shared');
  fs.rmSync(shared, { recursive: true, force: true });
  const env = {
    L1_VERDICTS_DIR: path.join(shared, 'verdicts'),
    L1_ALLURE_RESULTS_DIR: path.join(shared, 'allure'),
  };
  const [a, b] = await Promise.all([
    runSuite({ name: 'concurrent-a', runs: [runs[0]!], env }),
    new Promise((r) => setTimeout(r, 1500)).then(() =>
      runSuite({ name: 'concurrent-b', runs: [runs[1]!], env }),
    ),
  ]);
  const outputs = [a, b].map((s) => s.output).join('\n');
  expect(outputs).toContain('is being written by another invocation');
  expect([a.code, b.code].sort()).toEqual([0, 1]);
  // The files in the shared folder belong to the invocation that ran, never to both.
  const files = fs.readdirSync(env.L1_VERDICTS_DIR).filter((f) => f.endsWith('.json') && f !== 'index.json');
  expect(files).toHaveLength(1);
});

test('sessions and evidence do not outlive the invocation (unless L1_KEEP_STATE=1)', async () => {
  const suite = await runSuite({
    name: 'cleanup',
    runs: [runs[0]!],
    args: ['--grep', '@item3'],
    env: { L1_KEEP_STATE: undefined },
  });
  expect(suite.code).toBe(0);
  expect(fs.existsSync(path.join(suite.state, 'invocations', 'cleanup'))).toBe(false);
});
