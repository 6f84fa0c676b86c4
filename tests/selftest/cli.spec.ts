import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { demoRuns } from '../../demo/runs';
import { readUrls } from '../../lib/run/url';
import {
  DEMO_CREDENTIALS,
  ORIGIN,
  PORTAL_B_ORIGIN,
  ROOT,
  failingItems,
  runSuite,
  snapshotFolder,
} from './harness';

const runs = demoRuns(ORIGIN, PORTAL_B_ORIGIN);
const byLabel = (label: string) => runs.find((r) => r.label === label)!;

test('docs/contract.md §8: with no configuration, `--grep item5` runs item 5 of every bundled demo run and nothing else', async () => {
  const suite = await runSuite({
    name: 'grep-item5',
    args: ['--grep', 'item5'],
    env: { L1_DEMO_PORT: '4193' },
  });
  expect(suite.code, suite.output.slice(-2000)).toBe(0);
  expect(suite.verdicts.size).toBe(4);
  for (const verdict of suite.verdicts.values()) {
    expect(verdict.status).toBe('checked');
    expect(verdict.items.map((i) => `${i.item}:${i.verdict}`)).toEqual(['5:pass']);
  }
  expect(suite.output).not.toMatch(/item (3|4|6|7|8|9|10|11|12) ·/);
});

test('docs/contract.md §8: `npx playwright test --list` holds the collection and item tests only, and changes no file', async () => {
  const dir = path.join(ROOT, 'test-results', 'selftest-runs', 'list');
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
  const suite = await runSuite({
    name: 'list',
    args: ['--list'],
    runs: [byLabel('A-monitor')],
    keepDir: true,
  });
  expect(suite.code).toBe(0);
  expect(suite.output).toContain('Total: 11 tests');
  expect(suite.output).toMatch(/A-monitor › collection · report page and endpoints, once/);
  expect(suite.output).toMatch(/A-monitor › item 12 ·/);
  expect(outputs()).toEqual(before);
});

test('docs/contract.md §1: L1_HTML_URL + L1_PLATFORM_URL configure one run, labelled from company, project, type and date', async () => {
  const run = byLabel('A-monitor');
  const suite = await runSuite({
    name: 'single-run',
    runs: [run],
    env: {
      L1_RUNS: undefined,
      L1_HTML_URL: run.htmlUrl,
      L1_PLATFORM_URL: run.platformUrl,
      ...(run.companyId ? { L1_COMPANY_ID: String(run.companyId) } : {}),
    },
    args: ['--grep', '@item3'],
  });
  expect(suite.code, suite.output.slice(-2000)).toBe(0);
  const [verdict] = [...suite.verdicts.values()];
  expect(verdict?.run.label).toBe(
    `${verdict?.run.companyId}-${verdict?.run.projectId}-${verdict?.run.reportType}-${verdict?.run.batchDate}`,
  );
  expect(verdict?.items.map((i) => i.verdict)).toEqual(['pass']);
});

test('docs/contract.md §3: wrong credentials and a missing entry fail their runs with a clear reason; other runs go on', async () => {
  const registry = JSON.parse(fs.readFileSync(DEMO_CREDENTIALS, 'utf8')) as {
    companies: Record<string, { phone: string; password: string }>;
    profileB: { phone: string; password: string };
  };
  const a = byLabel('A-monitor');
  const d = byLabel('A-diagnosis');
  const companyOf = (r: typeof a) => String(readUrls(r).companyId);
  const wrong = companyOf(a);
  const missing = companyOf(d);
  registry.companies[wrong] = { phone: registry.companies[wrong]!.phone, password: 'not-the-password' };
  delete registry.companies[missing];
  const file = path.join(ROOT, 'test-results', 'selftest-runs', 'credentials-bad.json');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(registry), { mode: 0o600 });
  try {
    const suite = await runSuite({
      name: 'credentials',
      runs: [a, d, byLabel('B-monitor')],
      env: { L1_CREDENTIALS_FILE: file },
      args: ['--grep', '@item3'],
    });
    expect(suite.code).toBe(1);
    const va = suite.verdicts.get('A-monitor')!;
    expect(va.status).toBe('error');
    expect(va.reason).toContain(`login failed for company ${wrong}`);
    const vd = suite.verdicts.get('A-diagnosis')!;
    expect(vd.status).toBe('error');
    expect(vd.reason).toContain(`no entry for company ${missing}`);
    expect(failingItems(va)).toEqual([3]);
    expect(suite.verdicts.get('B-monitor')!.status).toBe('checked');
    expect(suite.output).toContain(
      `run A-monitor not checked (error, input): login failed for company ${wrong}`,
    );
  } finally {
    fs.rmSync(file, { force: true });
  }
});

test('docs/contract.md §1: an unreadable L1_RUNS file stops the invocation at once, naming the file and the problem', async () => {
  const file = path.join(ROOT, 'test-results', 'selftest-runs', 'runs-not-json.json');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, '[{"htmlUrl": ');
  const suite = await runSuite({ name: 'runs-not-json', env: { L1_RUNS: file } });
  expect(suite.code).toBe(1);
  expect(suite.output).toContain(`SettingsError: L1_RUNS file ${file} not valid JSON`);
  expect(suite.verdicts.size).toBe(0);
});
