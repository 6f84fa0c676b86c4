import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { demoRuns } from '../../demo/runs';
import { readUrls } from '../../lib/run/url';
import { scanOutputs } from '../../lib/redaction';
import {
  ORIGIN,
  PORTAL_B_ORIGIN,
  demoStats,
  failingItems,
  resetDemoStats,
  runSuite,
  type SuiteResult,
} from './harness';

const ITEMS = [3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
const runs = demoRuns(ORIGIN, PORTAL_B_ORIGIN);

test.describe.configure({ mode: 'serial' });

let suite: SuiteResult;
let stats: unknown;

test.beforeAll(async () => {
  await resetDemoStats();
  suite = await runSuite({ name: 'bundled', runs });
  stats = await demoStats();
});

test('the bundled demo runs are checked and pass all ten items (README.md, docs/rules.md)', () => {
  expect(suite.code, suite.output.slice(-3000)).toBe(0);
  expect([...suite.verdicts.keys()].sort()).toEqual(runs.map((r) => r.label).sort());
  for (const verdict of suite.verdicts.values()) {
    expect(verdict.status, `${verdict.run.label}: ${verdict.reason}`).toBe('checked');
    expect(verdict.items.map((i) => i.item)).toEqual(ITEMS);
    expect(failingItems(verdict), `${verdict.run.label} failing items`).toEqual([]);
  }
});

test('the profiles and batches are resolved as the spec says for each bundled run', () => {
  const byLabel = (label: string) => suite.verdicts.get(label)!;
  expect(byLabel('A-monitor').run.profile).toBe('A');
  expect(byLabel('A-diagnosis').run.profile).toBe('A');
  expect(byLabel('B-monitor').run.profile).toBe('B');
  const bDiagnosis = byLabel('B-diagnosis');
  expect(bDiagnosis.run.profile).toBe('B');
  // spec 9.1.2: the batch list is empty, the id is built and confirmed by the snapshot's crawlBatchId
  expect(bDiagnosis.run.batchIds[0]).toMatch(/^[A-Z]+-HIST-.+-\d{8}-D$/);
  expect(bDiagnosis.notes.join('\n')).toContain('9.1.2');
});

test('one page load and one request per endpoint per run (the source table once per platform option)', () => {
  const perProject = stats as Record<string, Record<string, number>>;
  for (const run of runs) {
    const { projectId } = readUrls(run);
    const counts = perProject[projectId];
    expect(counts, `stats for ${projectId}`).toBeDefined();
    const requests = Object.entries(counts ?? {}).filter(([kind]) => kind !== 'login');
    for (const [kind, count] of requests) expect(count, `${run.label} · ${kind}`).toBe(1);
    for (const kind of ['page', 'snapshot', 'competitor', 'tmc', 'wordcloud', 'source:all']) {
      expect(counts?.[kind], `${run.label} · ${kind}`).toBe(1);
    }
  }
});

test('the terminal summary shows every run × item', () => {
  expect(suite.output).toContain('L1 verdicts');
  for (const run of runs) expect(suite.output).toMatch(new RegExp(`${run.label}\\s+(pass\\s+){10}checked`));
});

test('Allure results carry the run as epic, the item as feature, and the run parameters', () => {
  const dir = path.join(suite.dir, 'allure-results');
  const results = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('-result.json'))
    .map(
      (f) =>
        JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as {
          name: string;
          labels: { name: string; value: string }[];
          parameters: { name: string }[];
        },
    );
  const items = results.filter((r) => r.name.startsWith('item '));
  expect(items).toHaveLength(runs.length * ITEMS.length);
  const first = items[0]!;
  expect(first.labels.map((l) => l.name)).toEqual(expect.arrayContaining(['epic', 'feature', 'tag']));
  expect(first.parameters.map((p) => p.name)).toEqual(
    expect.arrayContaining(['company', 'project', 'report type', 'batch date', 'profile']),
  );
});

test('no phone number, password or cookie value in any output of the invocation (docs/contract.md §3)', () => {
  const findings = scanOutputs({ root: path.resolve(__dirname, '..', '..'), extraPaths: [suite.dir] });
  expect(findings).toEqual([]);
});
