import fs from 'node:fs';
import path from 'node:path';
import { demoRuns } from '../../demo/runs';
import { scenarioRuns } from '../../demo/scenarios';
import { addDays, dateIn, DEFAULT_TIME_ZONE } from '../../lib/run/night';
import type { VerdictFile } from '../../lib/schema/verdict';
import {
  ORIGIN,
  PORTAL_B_ORIGIN,
  ROOT,
  expect,
  failingItems,
  folderOf,
  profileBSettings,
  readVerdicts,
  runSuite,
  snapshotFolder,
  test,
  type SuiteResult,
  expectNoSecretsIn,
} from './harness';

/**
 * README.md § Run it nightly in CI, as a new team would use it: one templated runs file with
 * Profile B inside it and no L1_PROFILE_B_* variable, the main job on two nights with different
 * batch dates, then the morning's investigation. Both nights' verdicts are exact (the Profile B runs
 * checked as B), the second night's tests have the first night in their history, and `--grep
 * item5` and `--last-failed` the morning after leave the night's verdicts, Allure results and
 * history untouched. The demo serves every date of a recent window; `nightly-drift-ranking` breaks
 * item 5 from yesterday on.
 */
test.describe.configure({ mode: 'serial' });

const NAME = 'nights';
const today = () => dateIn(DEFAULT_TIME_ZONE, new Date());
const runsFile = () => ({
  profileB: profileBSettings(),
  runs: [
    ...demoRuns(ORIGIN, PORTAL_B_ORIGIN),
    scenarioRuns(ORIGIN, PORTAL_B_ORIGIN)['nightly-drift-ranking']!,
  ],
});
const night = (batchDate: string, extra: { args?: string[]; command?: string[] } = {}) =>
  runSuite({
    name: NAME,
    runs: runsFile(),
    profileBEnv: false,
    keepDir: true,
    env: { L1_BATCH_DATE: batchDate },
    command: extra.command ?? ['npx', 'tsx', 'scripts/main.ts', ...(extra.args ?? [])],
    timeoutMs: 180_000,
  });

const dir = () => folderOf(NAME);
const historyLines = () =>
  fs
    .readFileSync(path.join(dir(), 'history', 'history.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map(
      (l) =>
        JSON.parse(l) as {
          testResults: Record<
            string,
            { name: string; status: string; labels: { name: string; value: string }[] }
          >;
        },
    );
/** The outputs of the night that the morning must not touch. */
const nightOutputs = () => ({
  verdicts: snapshotFolder(path.join(dir(), 'verdicts')),
  results: snapshotFolder(path.join(dir(), 'allure-results')),
  history: snapshotFolder(path.join(dir(), 'history')),
  // Playwright's folder (attachments, pictures, .last-run.json), which it empties as it starts.
  playwright: snapshotFolder(path.join(dir(), 'test-results')),
});

let first: SuiteResult;
let nothing: SuiteResult;
let second: SuiteResult;

test.beforeAll(async () => {
  fs.rmSync(dir(), { recursive: true, force: true });
  fs.rmSync(path.join(ROOT, '.l1', 'selftest', NAME), { recursive: true, force: true });
  first = await night('-2');
});

test('night 1 (two days back): every run checked and passing, Profile B from the runs file; one history point', () => {
  expect(first.code, first.output.slice(-3000)).toBe(0);
  expect(first.output).toMatch(
    /runs: 5 from .*runs\.json \(L1_RUNS in environment\), batch date \d{4}-\d{2}-\d{2} \(2 days back in Asia\/Shanghai\)/,
  );
  expect(first.output).toContain('Profile B: host from the runs file, groupName from the runs file');
  const date = addDays(today(), -2);
  for (const v of first.verdicts.values()) {
    expect(v.status, `${v.run.label}: ${v.reason}`).toBe('checked');
    expect(failingItems(v), v.run.label).toEqual([]);
    expect(v.night?.batchDate).toBe(date);
  }
  expect(first.verdicts.get('B-monitor')!.run.profile).toBe('B');
  expect(first.verdicts.get('B-diagnosis')!.run).toMatchObject({
    profile: 'B',
    batchIds: [expect.stringContaining(date.replace(/-/g, ''))],
  });
  expect(historyLines()).toHaveLength(1);
});

test('--last-failed after a night that failed nothing changes nothing and says so (through the main job: exit 0 with --pass-with-no-tests, no report, no run "not checked")', async () => {
  const before = nightOutputs();
  nothing = await night('-2', { args: ['--last-failed', '--pass-with-no-tests'] });
  expect(nothing.output).toContain('nothing to re-run');
  expect(nothing.code, nothing.output.slice(-3000)).toBe(0);
  expect(nothing.output).toContain('Allure report: not built: no check ran');
  expect(nothing.output).toContain('Exit code 0: no check ran');
  expect(nightOutputs()).toEqual(before);
  expect(fs.existsSync(path.join(dir(), 'partial'))).toBe(false);
});

test('night 2 (yesterday): item 5 of nightly-drift-ranking fails, the rest passes; the history joins the two nights', async () => {
  second = await night('-1');
  expect(second.code, second.output.slice(-3000)).toBe(1);
  const date = addDays(today(), -1);
  for (const v of second.verdicts.values()) {
    expect(v.status, `${v.run.label}: ${v.reason}`).toBe('checked');
    expect(failingItems(v), v.run.label).toEqual(v.run.label === 'nightly-drift-ranking' ? [5] : []);
    expect(v.night?.batchDate).toBe(date);
  }
  const [one, two] = historyLines();
  expect(two).toBeDefined();
  // The same run and item keep one history id from night to night: item 5 of the drifting run
  // passed on night 1 and failed on night 2, under one id. (A line keeps only what the report
  // reads, lib/report/allure/history.ts: the run is its epic label.)
  const item5 = (line: typeof one) =>
    Object.entries(line!.testResults).filter(
      ([, r]) =>
        r.labels.some((l) => l.name === 'epic' && l.value === 'nightly-drift-ranking') &&
        r.name.startsWith('item 05'),
    );
  expect(item5(one)).toHaveLength(1);
  expect(item5(two)).toHaveLength(1);
  const [id1, r1] = item5(one)[0]!;
  const [id2, r2] = item5(two)[0]!;
  expect(id2).toBe(id1);
  expect([r1.status, r2.status]).toEqual(['passed', 'failed']);
  // Every test of night 2 has night 1 in its history.
  expect(Object.keys(two!.testResults).sort()).toEqual(Object.keys(one!.testResults).sort());
});

test('the morning after: --grep item5 and --last-failed write to a partial folder of their own (its report beside them, or none without Allure); the night is untouched; each says of its items what the night said, under the configured reporters and dot alike', async () => {
  // Playwright's outputs of the night too: its .last-run.json (what --last-failed re-runs) and the
  // attachments and pictures its failures point to.
  const nightTestResults = () => snapshotFolder(path.join(dir(), 'test-results'));
  const before = {
    ...nightOutputs(),
    report: snapshotFolder(path.join(dir(), 'allure-report')),
    testResults: nightTestResults(),
  };
  expect(Object.keys(before.testResults)).toContain('.last-run.json');
  // Both through the main job (npm run check). `npx playwright test --grep item5` itself:
  // tests/selftest/cli.spec.ts.
  const grep = await night('-1', { args: ['--grep', 'item5'] });
  expect(grep.code, grep.output.slice(-3000)).toBe(1);
  expect(grep.output).toMatch(
    /outputs: partial invocation \(--grep item5\): its outputs go to .*partial\/[\w-]+\//,
  );
  const partialReport = /Allure report: (.*partial\/[\w-]+\/allure-report\/index\.html)/.exec(
    grep.output,
  )?.[1];
  expect(partialReport, grep.output.slice(-1500)).toBeDefined();
  expect(fs.existsSync(path.join(ROOT, partialReport!))).toBe(true);
  // A --reporter without Allure: no report, the checks' exit code (1), never 3 for a report nobody
  // asked for, nor the night's report shown as this one.
  const last = await night('-1', { args: ['--last-failed', '--reporter=dot'] });
  expect(last.code, last.output.slice(-3000)).toBe(1);
  expect(last.output).toContain('Allure report: not built: --reporter replaced the Allure reporter');
  // The night's report stays, said not to be this invocation's (reader audit of 2026-11-28).
  expect(last.output).toMatch(
    /Allure report: not built: .*; \S*allure-report\/index\.html, written \d{4}-\d\d-\d\dT[\d:]+Z, is not this invocation's/,
  );
  expect(last.output).toMatch(/redaction guard: \d+ files scanned, no secret found/);
  expect({
    ...nightOutputs(),
    report: snapshotFolder(path.join(dir(), 'allure-report')),
    testResults: nightTestResults(),
  }).toEqual(before);
  const partials = fs.readdirSync(path.join(dir(), 'partial')).sort();
  expect(partials).toHaveLength(2);
  const [grepped, rerun] = partials.map(
    (p) => readVerdicts(path.join(dir(), 'partial', p, 'verdicts')).verdicts,
  );
  expect(
    [...grepped!.values()].map((v) => [v.run.label, v.items.map((i) => `${i.item}:${i.verdict}`)]).sort(),
  ).toEqual(
    [...second.verdicts.keys()].sort().map((l) => [l, [l === 'nightly-drift-ranking' ? '5:fail' : '5:pass']]),
  );
  for (const v of grepped!.values())
    expect(v.selection).toMatchObject({ complete: false, filters: ['--grep item5'] });
  expect([...rerun!.keys()]).toEqual(['nightly-drift-ranking']);
  // Its verdicts say the invocation was partial, as the --grep item5 ones do (docs/claims.md: moved
  // here from invocations.spec.ts).
  for (const v of rerun!.values())
    expect(v.selection).toMatchObject({ complete: false, filters: ['--last-failed'] });
  // No reporter takes part in a verdict: the --grep item5 under the configured reporters and the
  // re-run under dot (a failing item, its mismatches and notes) say of the run and of item 5 what
  // the night said, but for their times (docs/claims.md).
  const itemFive = (v: VerdictFile) =>
    JSON.parse(
      JSON.stringify(
        { run: v.run, status: v.status, notes: v.notes, items: v.items.filter((i) => i.item === 5) },
        (key, value: unknown) => (key === 'durationMs' ? undefined : value),
      ),
    ) as unknown;
  for (const [label, v] of [...grepped!, ...rerun!])
    expect(itemFive(v), label).toEqual(itemFive(second.verdicts.get(label)!));
  expect(rerun!.get('nightly-drift-ranking')!.items[0]!.steps.some((s) => s.mismatches.length > 0)).toBe(
    true,
  );
  // The re-run is an invocation like any other: it is not taken for "nothing to re-run" (Playwright
  // reads .last-run.json before it empties the folder that holds it), and its teardown writes the
  // night files of its partial folder.
  expect(last.output).not.toContain('nothing to re-run');
  for (const file of ['index.json', 'summary.md', 'junit.xml'])
    expect(fs.existsSync(path.join(dir(), 'partial', partials[1]!, 'verdicts', file)), file).toBe(true);
  // The night's history as night 2 left it: the morning added no point. (A second build of the
  // night's own report adds none either: tests/unit/allure-report.spec.ts, docs/claims.md.)
  expect(historyLines()).toHaveLength(2);
});

test('no secret in any output of the nights and the morning', () => {
  expectNoSecretsIn(dir());
});
