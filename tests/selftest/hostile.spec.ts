import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { hostileTokens } from '../../demo/hostile-kinds';
import { A_MONITOR, B_MONITOR, runOf } from '../../demo/runs';
import { HOSTILE_SCENARIOS, scenarioRuns } from '../../demo/scenarios';
import { findExternalUrls } from '../../lib/report/allure/offline';
import { scanOutputsReport } from '../../lib/redaction';
import type { RunInput } from '../../lib/run/types';
import {
  ORIGIN,
  PORTAL_B_ORIGIN,
  ROOT,
  DEMO_CREDENTIALS,
  demoStats,
  expect,
  failingItems,
  resetDemoStats,
  runSuite,
  test,
  type SuiteResult,
  TSX,
  filesUnder,
} from './harness';

/**
 * README.md § Security and limits: a platform and report pages written to misbehave, in one invocation next to good runs.
 * The good runs are checked with all items; every hostile run ends as its scenario expects, with a
 * reason naming the source; no credential reaches an origin that was not configured; no output
 * holds a secret, a control character from data, or a third-party URL.
 */
test.describe.configure({ mode: 'serial' });

const inputs = scenarioRuns(ORIGIN, PORTAL_B_ORIGIN);
const good: RunInput[] = [
  { ...runOf(A_MONITOR, ORIGIN, PORTAL_B_ORIGIN), label: 'good-a-monitor' },
  { ...runOf(B_MONITOR, ORIGIN, PORTAL_B_ORIGIN), label: 'good-b-monitor' },
];
const runs: RunInput[] = [...good, ...HOSTILE_SCENARIOS.map((s) => inputs[s.label]!)];

let suite: SuiteResult;
let stats: Record<string, Record<string, number>>;

/** Control characters other than tab, newline and carriage return (which files may hold). */
function controlCharacters(text: string): string[] {
  return [...text].filter((c) => {
    const code = c.charCodeAt(0);
    return (code < 0x20 && c !== '\t' && c !== '\n' && c !== '\r') || code === 0x7f;
  });
}

test.beforeAll(async () => {
  await resetDemoStats();
  suite = await runSuite({
    name: 'hostile',
    runs,
    env: {
      L1_REQUEST_TIMEOUT_MS: '10000',
      L1_RUN_TIMEOUT_MS: '60000',
      // 8 MB: above every answer and DATA of the runs that must be checked (hostile-words-50000's
      // DATA is about 2.3 MB), and reached in half the time 16 MB took: under a loaded CI machine,
      // hostile-data-grows counted to 16 MB in more than the 10 s the read may take, and failed on
      // the timeout instead of on the size.
      L1_MAX_ANSWER_MB: '8',
      L1_PAGE_MAX_MB: '400',
    },
    timeoutMs: 300_000,
  });
  stats = (await demoStats()) as Record<string, Record<string, number>>;
});

test('the good runs next to the hostile ones are checked with all ten items passing', () => {
  for (const run of good) {
    const v = suite.verdicts.get(run.label!)!;
    expect(v.status, `${run.label}: ${v.reason}`).toBe('checked');
    expect(v.items.map((i) => `${i.item}:${i.verdict}`)).toEqual(
      [3, 4, 5, 6, 7, 8, 9, 10, 11, 12].map((i) => `${i}:pass`),
    );
  }
});

test('every hostile run ends as its scenario expects, its reason naming the source', () => {
  const got = HOSTILE_SCENARIOS.map((s) => {
    const v = suite.verdicts.get(s.label);
    const reason = (v?.reason ?? '').toLowerCase();
    return {
      label: s.label,
      status: v?.status,
      ...(s.expected.failingItems ? { failingItems: v ? failingItems(v) : [] } : {}),
      ...(s.expected.reasonIncludes
        ? { reasonIncludes: s.expected.reasonIncludes.filter((f) => reason.includes(f.toLowerCase())) }
        : {}),
    };
  });
  expect(got).toEqual(HOSTILE_SCENARIOS.map((s) => ({ label: s.label, ...s.expected })));
});

test('no credential reached the foreign origin (a login page that moved there, a report hosted there); nothing a page sent reached it', () => {
  expect(stats._foreign?.['login-post'] ?? 0).toBe(0);
  // The report hosted there was asked for without a session, and its login was refused.
  expect(stats._foreign?.['report-page'] ?? 0).toBeGreaterThan(0);
  expect(suite.verdicts.get('hostile-report-foreign-host')?.failureKind).toBe('configuration');
  // The page box: the exfiltrating page's requests to the foreign origin were blocked and named.
  expect(stats._foreign?.exfil ?? 0).toBe(0);
  expect(suite.verdicts.get('hostile-page-exfil')?.notes.join('\n')).toMatch(
    /the report page asked for origins it may not reach, blocked: http:\/\/127\.0\.0\.1:\d+ \(2\)/,
  );
  // Pictures only of the DATA that was judged: a page whose DATA differs on the second load is not pictured.
  expect(suite.verdicts.get('hostile-page-data-changes')?.notes.join('\n')).toContain(
    'no section pictures: the report page gave a different DATA when it was loaded again for them',
  );
  // Nothing the page downloaded was kept.
  const kept = [path.join(ROOT, 'test-results'), suite.dir, suite.state].flatMap(filesUnder);
  expect(kept.filter((f) => f.endsWith('big.bin'))).toEqual([]);
});

test('no secret, URL token or control character from data in any output; reasons and files stay small', () => {
  expect(scanOutputsReport({ root: ROOT, extraPaths: [suite.dir] }).findings).toEqual([]);
  const tokens = hostileTokens(ORIGIN);
  // Text outputs (pictures and archives are bytes, not text a terminal or a reader would show).
  const outputs = filesUnder(suite.dir).filter((f) => /\.(json|md|xml|txt|log|html|csv|properties)$/.test(f));
  for (const file of outputs) {
    const text = fs.readFileSync(file, 'utf8');
    for (const token of tokens) expect(text.includes(token), `${file} holds a URL token`).toBe(false);
    expect(controlCharacters(text), `${file} holds a control character`).toEqual([]);
  }
  expect(suite.output).not.toMatch(/^\s*✓ 1 passed/m);
  expect(suite.output).not.toMatch(/^\s*✓ all checks passed/m);
  for (const v of suite.verdicts.values()) expect((v.reason ?? '').length, v.run.label).toBeLessThan(2200);
  const words = fs.statSync(path.join(suite.dir, 'verdicts', 'hostile-words-50000.json')).size;
  expect(words).toBeLessThan(200_000);
  const allure = filesUnder(path.join(suite.dir, 'allure-results')).reduce(
    (n, f) => n + fs.statSync(f).size,
    0,
  );
  expect(allure).toBeLessThan(40_000_000);
});

test('sessions and evidence are private: folders 0700, files 0600', () => {
  const files = filesUnder(path.join(suite.state, 'invocations', 'hostile'));
  expect(files.length).toBeGreaterThan(0);
  for (const file of files) expect((fs.statSync(file).mode & 0o777).toString(8), file).toBe('600');
  for (const dir of ['auth', 'runs'])
    expect(
      (fs.statSync(path.join(suite.state, 'invocations', 'hostile', dir)).mode & 0o777).toString(8),
    ).toBe('700');
});

test('the Allure report of the invocation names no external host; a history line holding a secret is removed, not carried to later nights (README.md § Security and limits)', () => {
  const out = path.join(suite.dir, 'allure-report');
  // An earlier night's history line that holds a password of the registry.
  const registry = JSON.parse(fs.readFileSync(DEMO_CREDENTIALS, 'utf8')) as {
    companies: Record<string, { password: string }>;
  };
  const leaked = Object.values(registry.companies)[0]!.password;
  const history = path.join(suite.dir, 'history.jsonl');
  fs.writeFileSync(history, `${JSON.stringify({ uuid: 'old-night', note: `login ${leaked}` })}\n`);
  const built = spawnSync(
    TSX,
    [
      'scripts/report.ts',
      '--quiet',
      '--results',
      path.join(suite.dir, 'allure-results'),
      '--verdicts',
      suite.verdictsDir,
      '--output',
      out,
      '--history',
      path.join(suite.dir, 'history.jsonl'),
    ],
    { cwd: ROOT, encoding: 'utf8', env: { ...process.env, L1_STATE_DIR: suite.state } },
  );
  expect(built.status, built.stderr + built.stdout).toBe(0);
  expect(built.stdout).toMatch(/history: removed 1 line\(s\) of .* holding a secret/);
  expect(fs.readFileSync(history, 'utf8')).not.toContain(leaked);
  const html = fs.readFileSync(path.join(out, 'index.html'), 'utf8');
  expect(findExternalUrls(html, { allowedHosts: ['127.0.0.1'] })).toEqual([]);
});
