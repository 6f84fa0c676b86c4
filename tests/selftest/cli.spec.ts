import fs from 'node:fs';
import path from 'node:path';
import { A_MONITOR, B_MONITOR, runOf } from '../../demo/runs';
import { scenarioRuns } from '../../demo/scenarios';
import {
  DEMO_CREDENTIALS,
  ORIGIN,
  PORTAL_B_ORIGIN,
  ROOT,
  expect,
  folderOf,
  runSuite,
  snapshotFolder,
  test,
  DEMO_PORT,
  demoStats,
  resetDemoStats,
} from './harness';

/**
 * docs/contract.md §1, §8 and README.md § Results that survive every way Playwright is run: the
 * ways users run Playwright. No configuration; `--list`; one run from variables; any reporter;
 * odd labels; two invocations at once; `--trace`. What the settings or the config refuse alone as
 * it loads (a runs file that cannot be read, a malformed L1_SECTION_SELECTORS, another process on
 * the demo's port) is proven in the unit tests, each through a real invocation or beside one
 * (docs/claims.md).
 */
const aMonitor = () => runOf(A_MONITOR, ORIGIN, PORTAL_B_ORIGIN);
// Each test is an invocation of its own, with its own folders and its worker's ports: both self-test
// workers take them, so that neither waits alone at the end while the other's file runs on.
test.describe.configure({ mode: 'parallel' });

test('docs/contract.md §8: with no configuration, `--grep item5 --reporter=junit` runs item 5 of every bundled demo run and nothing else; the verdicts are written without the configured reporters; stdout is the JUnit report alone', async () => {
  const suite = await runSuite({
    name: 'grep-item5',
    args: ['--grep', 'item5', '--reporter=junit'],
    // The demo Playwright starts (webServer) serves its pages without charts, as the self-tests'
    // own demo does (harness.ts): a chart page is about a CPU second a load, and no picture is asserted.
    env: { L1_DEMO_PORT: String(DEMO_PORT + 10), L1_DEMO_CHARTS: '0' },
  });
  expect(suite.code, suite.output.slice(-2000)).toBe(0);
  expect(suite.verdicts.size).toBeGreaterThanOrEqual(4);
  for (const verdict of suite.verdicts.values()) {
    expect(verdict.status).toBe('checked');
    expect(verdict.items.map((i) => `${i.item}:${i.verdict}`)).toEqual(['5:pass']);
  }
  expect(suite.output).toContain('L1 verdicts');
  expect(suite.output).toContain('(no Allure results: --reporter replaced the Allure reporter)');
  // `--reporter=junit > results.xml`: the suite's own lines went to stderr.
  expect(suite.stdout.trim()).toMatch(/^(<\?xml[^>]*>\s*)?<testsuites [^]*<\/testsuites>$/);
  expect(suite.stdout).not.toContain('L1 verdicts');
  expect(suite.stdout).not.toContain('runs: ');
  expect(suite.stdout.match(/<testcase /g)).toHaveLength(suite.verdicts.size);
});

test('docs/contract.md §8: `npx playwright test --list` holds the collection and item tests only, and changes no file', async () => {
  const dir = folderOf('list');
  fs.rmSync(dir, { recursive: true, force: true });
  // An earlier invocation's results, which --list must leave as they are.
  for (const [sub, name] of [
    ['verdicts', 'A-monitor.json'],
    ['allure-results', 'earlier-result.json'],
  ] as const) {
    fs.mkdirSync(path.join(dir, sub), { recursive: true });
    fs.writeFileSync(path.join(dir, sub, name), '{"earlier": true}\n');
  }
  const outputs = () => ({
    verdicts: snapshotFolder(path.join(dir, 'verdicts')),
    allure: snapshotFolder(path.join(dir, 'allure-results')),
  });
  const before = outputs();
  const suite = await runSuite({ name: 'list', args: ['--list'], runs: [aMonitor()], keepDir: true });
  expect(suite.code).toBe(0);
  expect(suite.output).toContain('Total: 11 tests');
  expect(suite.output).toMatch(/A-monitor › collection · report page and endpoints, once/);
  expect(suite.output).toMatch(/A-monitor › item 12 ·/);
  expect(outputs()).toEqual(before);
});

test('docs/contract.md §1: L1_HTML_URL + L1_PLATFORM_URL configure one run, labelled company-project-type without the date; --reporter=blob; the session does not outlive the invocation', async () => {
  const run = aMonitor();
  const suite = await runSuite({
    name: 'single-run',
    env: {
      L1_HTML_URL: run.htmlUrl,
      L1_PLATFORM_URL: run.platformUrl,
      L1_KEEP_STATE: undefined,
      L1_CREDENTIALS_FILE: DEMO_CREDENTIALS,
    },
    args: ['--grep', '@item3', '--reporter=blob'],
  });
  expect(suite.code, suite.output.slice(-2000)).toBe(0);
  const [verdict] = [...suite.verdicts.values()];
  expect(verdict?.run.label).toBe(
    `${verdict?.run.companyId}-${verdict?.run.projectId}-${verdict?.run.reportType}`,
  );
  expect(verdict?.items.map((i) => i.verdict)).toEqual(['pass']);
  expect(suite.output).toContain('runs: 1 from L1_HTML_URL and L1_PLATFORM_URL (environment)');
  expect(fs.existsSync(path.join(suite.state, 'invocations', 'single-run'))).toBe(false);
});

test('--retries: a retry of a test whose run could not be checked collects the run again; a run that fails again fails again, never skipped into Playwright\'s "flaky"', async () => {
  const scenarios = scenarioRuns(ORIGIN, PORTAL_B_ORIGIN);
  await resetDemoStats(); // re-arms fault-500-thrice: three 500s of its snapshot table, then the data
  const suite = await runSuite({
    name: 'retries',
    runs: [scenarios['fault-500-thrice']!, scenarios['fault-500-always']!],
    // Playwright's line reporter: the one no other self-test runs (the verdicts do not depend on it).
    args: ['--grep', 'item5', '--retries=1', '--reporter=line'],
  });
  // Playwright's own exit code: fault-500-always failed both attempts. Before, its retry was
  // skipped, Playwright counted the test as flaky and exited 0.
  expect(suite.code, suite.output.slice(-2000)).toBe(1);
  expect(suite.output).toMatch(/1 failed[\s\S]*fault-500-always[\s\S]*1 flaky[\s\S]*fault-500-thrice/);
  const thrice = suite.verdicts.get('fault-500-thrice');
  expect(thrice?.status).toBe('checked');
  expect(thrice?.items.map((i) => `${i.item}:${i.verdict}`)).toEqual(['5:pass']);
  expect(thrice?.notes?.[0]).toMatch(
    /^collected again by Playwright's retry #1; the attempt before could not check the run: .*HTTP 500/,
  );
  const always = suite.verdicts.get('fault-500-always');
  expect(always?.status).toBe('error');
  expect(always?.items.map((i) => `${i.item}:${i.verdict}`)).toEqual(['5:fail']);
  // Selected alone, the item of a run not checked fails with its run's reason, in the verdict and on
  // the terminal (docs/claims.md: a claim moved here from scenarios.spec.ts, `--grep @item3`).
  expect(always?.reason).toMatch(/HTTP 500/);
  expect(suite.output).toMatch(/run fault-500-always not checked \([^)]*\): [^\n]*HTTP 500/);
  // Each attempt is a collection: one page load and three snapshot requests (two in-client retries) each.
  const stats = await demoStats();
  expect(stats['101210']).toMatchObject({ page: 2, snapshot: 6 });
  expect(stats['101217']).toMatchObject({ page: 2, snapshot: 4 });
});

test('labels that differ never share a file; a label given twice stops the invocation naming both runs', async () => {
  const base = aMonitor();
  const long = `长标签-${'x'.repeat(300)}`;
  const labels = ['a/b', 'ａ/ｂ', long];
  const suite = await runSuite({
    name: 'labels',
    runs: labels.map((label) => ({ ...base, label })),
    args: ['--grep', '@item3'],
  });
  expect(suite.code, suite.output.slice(-2000)).toBe(0);
  expect([...suite.verdicts.keys()].sort()).toEqual([...labels].sort());
  const files = fs.readdirSync(suite.verdictsDir).filter((f) => f.endsWith('.json'));
  expect(new Set(files).size).toBe(files.length);
  for (const f of files) expect(Buffer.byteLength(f)).toBeLessThan(255);

  const twice = await runSuite({
    name: 'labels-twice',
    runs: [
      { ...base, label: 'x' },
      { ...base, label: 'x' },
    ],
  });
  // A settings error stops the invocation as Playwright loads the config, before any run: the
  // whole suite's wiring of every such refusal (the runs file's own, an unreadable one among them:
  // tests/unit/settings.spec.ts; docs/claims.md).
  expect(twice.code, twice.output.slice(-2000)).toBe(1);
  expect(twice.output).toMatch(/SettingsError: [^\n]*runs #1 and #2 both have the label "x"/);
  expect(twice.verdicts.size).toBe(0);
});

test("two invocations at once: a shared output folder is refused, not mixed; the refused one, a main job in the same state folder, never takes the other one's outputs for its own", async ({
  demo,
}) => {
  const shared = folderOf('concurrent-shared');
  fs.rmSync(shared, { recursive: true, force: true });
  const env = {
    L1_VERDICTS_DIR: path.join(shared, 'verdicts'),
    L1_ALLURE_RESULTS_DIR: path.join(shared, 'allure'),
  };
  // The first holds the folder while the second runs: the second starts once the first's second
  // run waits on the demo's slow endpoint, which answers once the second has ended (or after its
  // 12 s, within the 15 s timeout). Started after a fixed 1.5 s, the second often ended before the
  // first reached the endpoint, which then slept its 12 s whole.
  const slow = { ...scenarioRuns(ORIGIN, PORTAL_B_ORIGIN)['fault-slow']!, label: 'slow' };
  const [a, b] = await Promise.all([
    runSuite({
      name: 'concurrent-a',
      runs: [aMonitor(), slow],
      env: { ...env, L1_REQUEST_TIMEOUT_MS: '15000' },
    }),
    // The second through the main job (npm run check) in the first one's state folder: its checks
    // are refused, and it says nothing was checked; it never reports the first one's outputs as its
    // own (each invocation hands its outputs over in a file of its own id: tests/unit/outputs.spec.ts).
    expect
      .poll(() => demo.sleeping(), {
        message: 'the first invocation waits on the slow endpoint',
        timeout: 30_000,
      })
      .toBeGreaterThan(0)
      .then(() =>
        runSuite({
          name: 'concurrent-b',
          runs: [runOf(B_MONITOR, ORIGIN, PORTAL_B_ORIGIN)],
          env: { ...env, L1_STATE_DIR: path.join(ROOT, '.l1', 'selftest', 'concurrent-a') },
          command: ['npx', 'tsx', 'scripts/main.ts'],
        }),
      )
      .finally(() => demo.releaseSlow()),
  ]);
  expect(b.output).toContain('is being written by another invocation');
  expect(a.code, a.output.slice(-2000)).toBe(0);
  expect(b.code, b.output.slice(-2000)).toBe(2);
  expect(b.output).toContain('Exit code 2: nothing was checked');
  expect(b.output).toContain('Verdict files: none');
  // The files in the shared folder belong to the invocation that ran, never to both.
  const files = fs
    .readdirSync(env.L1_VERDICTS_DIR)
    .filter((f) => f.endsWith('.json') && f !== 'index.json' && !f.startsWith('.'));
  expect(files.sort()).toEqual(['A-monitor.json', 'slow.json']);
});

test('--trace is refused before anything is collected: a trace would hold the session cookie and the URL token (README.md § Security and limits)', async () => {
  const suite = await runSuite({
    name: 'trace-refused',
    runs: [aMonitor()],
    args: ['--grep', '@item3', '--trace', 'retain-on-failure', '--reporter=dot'],
  });
  expect(suite.code).toBe(1);
  expect(suite.output).toContain('--trace retain-on-failure is refused');
  expect(suite.verdicts.size).toBe(0);
  const zips = fs
    .readdirSync(suite.dir, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.zip'));
  expect(zips).toEqual([]);
});
