import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { buildTruth, htmlData } from '../../demo/dataset';
import { A_MONITOR, runOf } from '../../demo/runs';
import { SCENARIOS, scenarioRuns, type ScenarioExpectation } from '../../demo/scenarios';
import { readEvidence } from '../../lib/platform/evidence';
import { fileKeyOf } from '../../lib/run/inputs';
import type { RunInput } from '../../lib/run/types';
import { scanOutputs } from '../../lib/redaction';
import { ORIGIN, PORTAL_B_ORIGIN, ROOT, failingItems, runSuite, type SuiteResult } from './harness';

/**
 * docs/rules.md and 4: one invocation over every fault and drift scenario of the demo plus the bad inputs
 * the suite must catch itself, mixed with a clean run. Each run gets exactly its expected outcome,
 * and one bad run never hides the others.
 */
test.describe.configure({ mode: 'serial' });

const dir = path.join(ROOT, 'test-results', 'selftest-runs', 'scenario-inputs');
const clean = runOf(A_MONITOR, ORIGIN, PORTAL_B_ORIGIN);

/** Bad inputs that never reach the platform: the suite itself must name the source and field. */
function inputCases(): { run: RunInput; expected: ScenarioExpectation }[] {
  fs.mkdirSync(dir, { recursive: true });
  const data = htmlData(buildTruth(A_MONITOR.spec)) as {
    meta: { topic?: string };
    brand: { summary: Record<string, unknown> };
  };
  const write = (name: string, content: string) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, content);
    return file;
  };
  const matching = write('cal-matching.json', JSON.stringify(data));
  const otherTopic = write(
    'cal-other-topic.json',
    JSON.stringify({ ...data, meta: { ...data.meta, topic: 'T-other' } }),
  );
  const wrongType = write(
    'cal-wrong-type.json',
    JSON.stringify({
      ...data,
      brand: { ...data.brand, summary: { ...data.brand.summary, avg_exposure_rate: 'high' } },
    }),
  );
  const notJson = write('cal-not-json.json', '{"meta": ');
  const noType = new URL(clean.htmlUrl);
  noType.pathname = noType.pathname.replace(/\/(monitor|diagnosis)\//, '/');
  noType.searchParams.delete('reportType');
  noType.searchParams.delete('report_type');
  return [
    {
      run: { ...clean, label: 'input-cal-matching', calDataJson: matching },
      expected: { status: 'checked', failingItems: [] },
    },
    {
      run: { ...clean, label: 'input-cal-other-topic', calDataJson: otherTopic },
      expected: { status: 'checked', failingItems: [] },
    },
    {
      run: { ...clean, label: 'input-cal-wrong-type', calDataJson: wrongType },
      expected: { status: 'error', reasonIncludes: ['cal_data_json', 'summary.avg_exposure_rate'] },
    },
    {
      run: { ...clean, label: 'input-cal-not-json', calDataJson: notJson },
      expected: { status: 'error', reasonIncludes: ['cal_data_json', 'not valid JSON'] },
    },
    {
      run: { ...clean, label: 'input-cal-missing', calDataJson: path.join(dir, 'absent.json') },
      expected: { status: 'error', reasonIncludes: ['cal_data_json', 'ENOENT', 'not used instead'] },
    },
    {
      run: { ...clean, label: 'input-no-report-type', htmlUrl: noType.toString() },
      expected: { status: 'error', reasonIncludes: ['htmlUrl · reportType: missing'] },
    },
    {
      run: { ...clean, label: 'input-no-project', platformUrl: `${ORIGIN}/platform/overview` },
      expected: { status: 'error', reasonIncludes: ['platformUrl · projectId: missing'] },
    },
  ];
}

let checked: SuiteResult;
let stopped: SuiteResult;
const expectations = new Map<string, ScenarioExpectation>();
/** One run that is not checked goes with the checked runs, to prove that all ten of its items fail. */
const ALL_ITEMS_ERROR_RUN = 'fault-500-always';

test.beforeAll(async () => {
  const scenarioInputs = scenarioRuns(ORIGIN, PORTAL_B_ORIGIN);
  const all: { run: RunInput; expected: ScenarioExpectation }[] = [
    { run: { ...clean, label: 'clean-a-monitor' }, expected: { status: 'checked', failingItems: [] } },
    ...SCENARIOS.map((s) => ({ run: scenarioInputs[s.label]!, expected: s.expected })),
    ...inputCases(),
    // A malformed L1_RUNS entry fails its own run only (docs/contract.md §1).
    {
      run: { label: 'input-malformed-entry', htmlUrl: clean.htmlUrl } as RunInput,
      expected: { status: 'error', reasonIncludes: ['L1_RUNS', 'platformUrl'] },
    },
  ];
  for (const { run, expected } of all) expectations.set(run.label!, expected);
  const isChecked = (c: (typeof all)[number]) =>
    c.expected.status === 'checked' || c.run.label === ALL_ITEMS_ERROR_RUN;
  // Playwright replaces its worker after every failed test, so runs that fail everything are
  // checked on item 3 only; ALL_ITEMS_ERROR_RUN proves the other nine items fail the same way.
  const env = { L1_REQUEST_TIMEOUT_MS: '2500', L1_WORKERS: '2' };
  checked = await runSuite({ name: 'scenarios-checked', runs: all.filter(isChecked).map((c) => c.run), env });
  stopped = await runSuite({
    name: 'scenarios-stopped',
    runs: all.filter((c) => !isChecked(c)).map((c) => c.run),
    env,
    args: ['--grep', '@item3'],
  });
});

const verdictOf = (label: string) => checked.verdicts.get(label) ?? stopped.verdicts.get(label)!;

test('every run of both invocations has a verdict file, and each invocation fails because some runs fail', () => {
  expect(checked.code, checked.output.slice(-2000)).toBe(1);
  expect(stopped.code, stopped.output.slice(-2000)).toBe(1);
  const labels = [...checked.verdicts.keys(), ...stopped.verdicts.keys()].sort();
  expect(labels).toEqual([...expectations.keys()].sort());
});

/** What a verdict shows of an expectation, in the expectation's own shape, so a diff reads directly. */
function observed(label: string, expected: ScenarioExpectation): ScenarioExpectation & { label: string } {
  const v = verdictOf(label);
  const reason = (v.reason ?? '').toLowerCase();
  return {
    label,
    status: v.status,
    ...(expected.failingItems ? { failingItems: failingItems(v) } : {}),
    ...(expected.reasonIncludes
      ? { reasonIncludes: expected.reasonIncludes.filter((f) => reason.includes(f.toLowerCase())) }
      : {}),
  };
}

test('each scenario ends with its expected status, reason and failing items; the others are unaffected', () => {
  const wanted = [...expectations].map(([label, expected]) => ({ label, ...expected }));
  const got = [...expectations].map(([label, expected]) => observed(label, expected));
  expect(got).toEqual(wanted);
});

test('a run not checked fails once with its reason and never passes an item (docs/contract.md §7, README.md § Reading the Allure report)', () => {
  // Full selection: its collection test fails with the reason; its item tests are skipped with it
  // (each failed test costs Playwright a new worker), so the verdict lists no item.
  const all = checked.verdicts.get(ALL_ITEMS_ERROR_RUN)!;
  expect(all.status).toBe('error');
  expect(all.items).toEqual([]);
  expect(checked.output).toContain(`run ${ALL_ITEMS_ERROR_RUN} not checked (error, platform): GET`);
  // Only item 3 selected: no collection test ran, so item 3 itself fails with the reason.
  for (const v of stopped.verdicts.values()) {
    expect(
      v.items.map((i) => `${i.item}:${i.verdict}`),
      v.run.label,
    ).toEqual(['3:fail']);
    expect(v.items[0]!.notes.join(' ')).toContain(`run ${v.run.label} not checked (${v.status}`);
  }
});

test('every failing step carries the mismatching values (HTML, platform, gap, tolerance)', () => {
  for (const v of checked.verdicts.values()) {
    for (const item of v.items.filter((i) => i.verdict === 'fail' && i.steps.length > 0)) {
      const failing = item.steps.filter((s) => s.verdict === 'fail');
      expect(failing.length, `${v.run.label} item ${item.item}`).toBeGreaterThan(0);
      for (const step of failing)
        expect(step.mismatches.length, `${v.run.label} item ${item.item} ${step.name}`).toBeGreaterThan(0);
    }
  }
  expect(checked.output).toMatch(/run drift-a-kpi-gap-006 · item 3 · step .+: 1 mismatch\(es\)/);
  expect(checked.output).toMatch(/✗ .+: HTML .+ · platform .+ · gap 0\.06 · tolerance ≤ 0\.05/);
});

test('recovering faults recover: a 401 mid-run re-logs in once, a 500 once is retried', () => {
  const expired = readEvidence(checked.evidence, fileKeyOf('fault-401-once'))!;
  expect(expired.status).toBe('checked');
  const flaky = readEvidence(checked.evidence, fileKeyOf('fault-500-once'))!;
  expect(flaky.requests.some((r) => r.attempts > 1 && r.status === 200)).toBe(true);
  const persistent = verdictOf('fault-500-always');
  expect(persistent.reason).toMatch(/HTTP 500 after 3 attempts/);
});

test('cal_data_json: used only for the same topic; otherwise the page wins and the run says so (spec 2.1)', () => {
  expect(verdictOf('input-cal-matching').run.dataSource).toBe('cal_data_json');
  const other = verdictOf('input-cal-other-topic');
  expect(other.run.dataSource).toBe('html');
  expect(other.notes.join(' ')).toContain("the page's DATA wins");
});

test('the slow endpoint is cut at the request timeout: the invocation never hangs', () => {
  expect(verdictOf('fault-slow').reason).toContain('timed out after 2500 ms');
});

test('no phone number, password or cookie value in any output of the invocation (docs/contract.md §3)', () => {
  expect(scanOutputs({ root: ROOT, extraPaths: [checked.dir, stopped.dir] })).toEqual([]);
});
