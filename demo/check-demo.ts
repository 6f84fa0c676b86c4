/**
 * Sanity check of the demo: `npx tsx demo/check-demo.ts`. Starts the demo on a free triple of ports
 * and walks the bundled runs, every fault and drift scenario, the hostile ones that end at once and
 * 48 generated runs (the unit families' generated cases, demo/model/projects.ts: 8 that cannot
 * be checked, 16 with a fault class, 24 clean or a near-miss) through the suite's own collector: `collectRun` (lib/platform/collect.ts) with
 * the suite's settings (lib/run/settings.ts), sessions (lib/platform/sessions.ts) and HTTP client
 * (lib/platform/http.ts); only the page is read without a browser (`readPageByFetch`). Items 3-12
 * are evaluated with lib/rules and each run's outcome compared with its expectation, as the
 * scenario states it. Exit 1 on any difference. Prints no credential.
 *
 * Left to the self-tests, which check it through the whole suite: one request per endpoint per run
 * and cal_data_json (catalogue.spec.ts), the page-side hostile scenarios (catalogue.spec.ts, and the
 * ones only a browser decides through the suite's collector and Chromium:
 * tests/unit/hostile-pages.spec.ts); the collection's every branch: tests/unit/collect.spec.ts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import vm from 'node:vm';
import { collectRun, type CollectDeps } from '../lib/platform/collect';
import type { Evidence } from '../lib/platform/evidence';
import { judge } from '../lib/report/judged';
import { SecretMask } from '../lib/redaction';
import { safeText } from '../lib/report/text';
import { fetchGetter } from '../lib/platform/http';
import { login } from '../lib/platform/login';
import { ensureSession } from '../lib/platform/sessions';
import { loadRegistry, registryEntries } from '../lib/run/credentials';
import type { ConfiguredRun } from '../lib/run/runs';
import { readSettings } from '../lib/run/settings';
import { readUrls } from '../lib/run/url';
import { SessionExpired } from '../pages/ReportPage';
import { projectById } from './catalog';
import { modelRuns } from './model/projects';
import { addDays, DEFAULT_TIME_ZONE } from '../lib/run/night';
import { breakFrom } from './dates';
import { A_MONITOR, BUNDLED, runOf, type DemoProject } from './runs';
import { HOSTILE_SCENARIOS, NIGHTLY_SCENARIOS, SCENARIOS, type ScenarioExpectation } from './scenarios';
import { startDemo, type DemoServer } from './server';

/** The demo's slow endpoint sleeps this long; the run's request timeout is half of it. */
const SLOW_MS = 3_000;
const TIMEOUT_MS = 15_000;
const MAX_BYTES = 16 * 1024 * 1024;
/** Runs collected at once (the suite's workers share one demo the same way). */
const CONCURRENCY = 6;
/**
 * Hostile scenarios left to the tests that read the page in Chromium (tests/unit/hostile-pages.spec.ts,
 * tests/selftest/catalogue.spec.ts): what a browser does with the page (redirects, script
 * navigation, an endless script).
 */
const SKIPPED_HOSTILE = new Set([
  'hostile-page-loops',
  'hostile-page-redirect',
  'hostile-page-script-navigation',
  'hostile-redirect-loop-token',
  // Page-side: what a browser does with them is the point (tests/selftest/catalogue.spec.ts).
  'hostile-page-tampers',
  'hostile-data-grows',
  'hostile-page-exfil',
  'hostile-page-memory',
  'hostile-userinfo-url',
  'hostile-page-data-changes',
  'hostile-report-foreign-host',
]);

const problems: string[] = [];
function check(ok: boolean, message: string): void {
  if (!ok) problems.push(message);
}

interface Case {
  run: ConfiguredRun;
  project: DemoProject;
  expected: ScenarioExpectation;
}

/**
 * The report page read without a browser, so that some eighty runs take seconds: a GET with the
 * session cookie (lib/platform/http.ts), then the page's inline scripts run in a `vm` context whose
 * global is `window`, where docs/contract.md §5 defines DATA (`const`, `let`, `var` or `window.DATA`). A
 * script that throws is skipped, as a browser does. The checks read the page in Chromium
 * (pages/ReportPage.ts): the page-side hostile scenarios are theirs.
 */
async function readPageByFetch(htmlUrl: string, storageState: string | undefined) {
  const answer = await fetchGetter(storageState).get(htmlUrl, {
    params: {},
    timeout: TIMEOUT_MS,
    maxBytes: MAX_BYTES,
  });
  const status = answer.status();
  const location = answer.headers().location;
  if (status >= 300 && status < 400 && location && new URL(location, htmlUrl).pathname.endsWith('/login'))
    throw new SessionExpired();
  if (status !== 200)
    throw new Error(`report page answered HTTP ${status}${location ? ` (to ${location})` : ''}`);
  const context = vm.createContext({});
  vm.runInContext('var window = globalThis;', context);
  for (const [, code] of (await answer.text()).matchAll(/<script>([\s\S]*?)<\/script>/g)) {
    try {
      vm.runInContext(code ?? '', context, { timeout: TIMEOUT_MS });
    } catch {
      // the next script runs, as in a browser
    }
  }
  const data: unknown = vm.runInContext("typeof DATA !== 'undefined' ? DATA : window.DATA", context);
  if (data === undefined) throw new Error('the report page defines no DATA variable');
  return { data: structuredClone(data), notes: [] };
}

/** The collector's dependencies as the suite wires them (fixtures/collector.ts), on a private root. */
function collectDeps(demo: DemoServer, root: string, timeoutMs: number): CollectDeps {
  const sessions = {
    root,
    authDir: path.join(root, 'auth'),
    env: { L1_CREDENTIALS_FILE: demo.credentialsFile },
    timeoutMs: TIMEOUT_MS,
  };
  return {
    root,
    profileB: demo.profileB,
    timeoutMs,
    retries: 2,
    backoffMs: 10,
    maxBytes: MAX_BYTES,
    // The demo's days are Asia/Shanghai's (demo/dates.ts), the suite's default L1_TIME_ZONE.
    timeZone: DEFAULT_TIME_ZONE,
    session: (loginBase, key, force) => ensureSession(sessions, loginBase, key, force),
    readPage: readPageByFetch,
    newApiContext: async (storageState) => fetchGetter(storageState),
    // As the suite does: the registry's values and the sessions' cookies out of every reason.
    mask: new SecretMask(root, { env: sessions.env, authDirs: [sessions.authDir] }).mask,
  };
}

/** The run's outcome as the verdict would say it: status, and the failing items of a checked run. */
function outcomeOf(evidence: Evidence): { text: string; failing?: number[] } {
  if (evidence.status !== 'checked') return { text: `${evidence.status}: ${evidence.reason ?? ''}` };
  const judged = judge(evidence);
  const failing = Object.values(judged.items)
    .filter((i) => i.verdict === 'fail')
    .map((i) => i.item);
  return { text: `checked, failing ${JSON.stringify(failing)}`, failing };
}

function compare({ run, project, expected }: Case, evidence: Evidence): string {
  const { text, failing } = outcomeOf(evidence);
  const label = run.label;
  check(evidence.status === expected.status, `${label}: ${text}, expected ${expected.status}`);
  if (failing) {
    const want = expected.failingItems ?? [];
    check(
      JSON.stringify(failing) === JSON.stringify(want),
      `${label}: failing items ${JSON.stringify(failing)}, expected ${JSON.stringify(want)}`,
    );
  }
  for (const fragment of evidence.status === 'checked' ? [] : (expected.reasonIncludes ?? []))
    check(
      (evidence.reason ?? '').toLowerCase().includes(fragment.toLowerCase()),
      `${label}: reason "${evidence.reason ?? ''}" lacks "${fragment}"`,
    );
  // The run facts come from the URLs: in the evidence whatever failed later (docs/rules.md).
  const { spec } = project;
  const facts = evidence.run;
  check(
    facts.reportType === spec.reportType &&
      facts.batchDate === spec.batchDate &&
      facts.companyId === spec.companyId &&
      facts.projectId === spec.projectId,
    `${label}: run facts ${JSON.stringify(facts)}`,
  );
  if (evidence.status === 'checked')
    check(facts.profile === spec.profile, `${label}: Profile ${facts.profile}, spec says ${spec.profile}`);
  const fault = project.fault;
  if (fault?.kind === 'expire-session-once' || (fault?.kind === 'status' && fault.once))
    check(
      evidence.requests.some((r) => r.attempts > 1),
      `${label}: no request was tried again (${fault.kind})`,
    );
  return text;
}

/** The bundled runs resolve profile and batch ids as the spec says (spec 9.1). */
function checkBundled(run: ConfiguredRun, project: DemoProject, evidence: Evidence): void {
  check(
    JSON.stringify(evidence.run.batchIds) === JSON.stringify(project.spec.batchIds),
    `${run.label}: batch ids ${evidence.run.batchIds.join(',')}, spec ${project.spec.batchIds.join(',')}`,
  );
  if (project.label === 'B-monitor')
    check(
      evidence.notes.includes('profile B: report host is the group portal host'),
      'B-monitor must be recognized by its host only',
    );
}

/** The demo's own contract behaviours that no run exercises: login, 302, 401, 403, 400, 404, joined ids. */
async function checkAccess(demo: DemoServer, root: string): Promise<void> {
  const o = demo.origin;
  const registry = loadRegistry({ L1_CREDENTIALS_FILE: demo.credentialsFile }, root);
  const entries = registryEntries(registry).map(([, c]) => c);
  check((fs.statSync(demo.credentialsFile).mode & 0o777) === 0o600, 'credentials file mode 0600');
  check(
    entries.every((e) => /^1[3-9]\d{9}$/.test(e.phone) && e.password.length >= 12),
    'credential shapes',
  );
  check(new Set(entries.map((e) => e.phone)).size === entries.length, 'unique phones');
  const wrong = await login(o, { phone: '13800000000', password: 'wrong' }, 'a wrong password', TIMEOUT_MS)
    .then(() => 'logged in')
    .catch((e: Error) => e.message);
  check(/answered HTTP 401/.test(wrong), `wrong password: ${wrong}`);
  const stateOf = async (who: 'none' | keyof typeof registry.companies | 'profileB') => {
    const file = path.join(root, `access-${who}.json`);
    const state =
      who === 'none'
        ? { cookies: [] }
        : await login(o, who === 'profileB' ? registry.profileB! : registry.companies[who]!, who, TIMEOUT_MS);
    fs.writeFileSync(file, JSON.stringify(state), { mode: 0o600 });
    return fetchGetter(file);
  };
  const [none, c1001, b] = await Promise.all([stateOf('none'), stateOf('1001'), stateOf('profileB')]);
  const get = (as: typeof none, url: string) =>
    as.get(`${o}${url}`, { params: {}, timeout: TIMEOUT_MS, maxBytes: MAX_BYTES });
  const loginPage = await (await get(none, '/login')).text();
  check(
    ['name="phone"', 'name="password"', 'type="submit"', 'id="login-error"'].every((s) =>
      loginPage.includes(s),
    ),
    'login page form',
  );
  const page = await get(none, '/reports/101101/monitor/2025-11-17?companyId=1001');
  check(
    page.status() === 302 &&
      page.headers().location === '/login?next=%2Freports%2F101101%2Fmonitor%2F2025-11-17%3FcompanyId%3D1001',
    `page without session: ${page.status()}`,
  );
  const metrics = (pid: string, rt = 'monitor', more = '&table=snapshot&batchIds=x') =>
    `/api/geo-monitor/metrics/l1?projectId=${pid}&reportType=${rt}${more}`;
  const batches = (query: string) => `/api/geo_label/project/batch?${query}`;
  const words = (pid: string, query = 'batchId=x&sentiment=all') =>
    `/api/geo-monitor/projects/${pid}/wordcloud?${query}`;
  const expected: [typeof none, string, number, string][] = [
    [none, batches('companyId=1001&reportType=monitor'), 401, 'batch list, no session'],
    [none, metrics('101101'), 401, 'metrics, no session'],
    [none, words('101101'), 401, 'word cloud, no session'],
    [none, '/platform/overview?projectId=102201', 302, 'platform page, no session'],
    [c1001, batches('companyId=1002&reportType=diagnosis'), 403, '1001 → batch list of 1002'],
    [c1001, metrics('102201', 'diagnosis'), 403, '1001 → metrics of 102201'],
    [c1001, '/reports/102201/view', 403, '1001 → report of 102201'],
    [c1001, words('102201'), 403, '1001 → word cloud of 102201'],
    [b, metrics('101101'), 403, 'Profile B → 1001'],
    [b, metrics('310101'), 200, 'Profile B → 3101'],
    [b, batches('companyId=3100&reportType=diagnosis'), 200, 'Profile B → batch list of 3100'],
    [c1001, metrics('101101', 'monitor', '&batchIds=x'), 400, 'no table'],
    [c1001, metrics('101101', 'monitor', '&table=source&batchIds=x'), 400, 'source without platform'],
    [c1001, metrics('101101', 'monitor', '&table=source&batchIds=x&platform=chatgpt'), 400, 'bad platform'],
    [c1001, metrics('101101', 'weekly'), 400, 'bad reportType'],
    [c1001, metrics('101101', 'monitor', '&table=snapshot'), 400, 'no batchIds'],
    [c1001, batches('reportType=monitor'), 400, 'no companyId'],
    [c1001, words('101101', 'sentiment=all'), 400, 'no batchId'],
    [c1001, metrics('999999'), 404, 'unknown project'],
  ];
  for (const [as, url, status, what] of expected) {
    const answer = await get(as, url);
    const json = answer.headers()['content-type']?.startsWith('application/json') === true;
    check(
      answer.status() === status && (json || !url.startsWith('/api/')),
      `${what}: HTTP ${answer.status()}`,
    );
  }
  // Contract 4.1: the whole joined list, in any order, finds the rows; a part of it or an unknown id none.
  const rows = async (ids: string[]) => {
    const answer = await get(
      c1001,
      metrics('101101', 'monitor', `&table=snapshot&batchIds=${ids.join(',')}`),
    );
    return (JSON.parse(await answer.text()) as { rows: unknown[] }).rows.length;
  };
  const ids = A_MONITOR.spec.batchIds;
  check(
    (await rows(ids)) === 7 && (await rows([...ids].reverse())) === 7,
    'joined batch ids → 7 snapshot rows',
  );
  check(
    (await rows(ids.slice(0, 1))) === 0 && (await rows(['nope'])) === 0,
    'partial or unknown ids → no rows',
  );
}

/** Every case, `limit` at a time; results in the order of the cases. */
async function pool<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await work(items[i]!);
      }
    }),
  );
  return results;
}

function cases(demo: DemoServer): Case[] {
  // The unit families' cases over HTTP: 8 cannot be checked, 16 with a fault class, 24 that pass.
  const generated = modelRuns(48, {
    origin: demo.origin,
    portalBOrigin: demo.portalBOrigin,
    uncheckable: 1 / 6,
    failing: 1 / 3,
  });
  const hostile = HOSTILE_SCENARIOS.filter((s) => !SKIPPED_HOSTILE.has(s.label));
  // The nightly scenario on the first broken night and on the night before (demo/dates.ts).
  const broken = breakFrom();
  const nightly = NIGHTLY_SCENARIOS.flatMap((s) => [
    { ...runOf(s, demo.origin, demo.portalBOrigin, broken), label: `${s.label}@broken` },
    { ...runOf(s, demo.origin, demo.portalBOrigin, addDays(broken, -1)), label: `${s.label}@before` },
  ]);
  const nightlyExpected = new Map<string, ScenarioExpectation>(
    NIGHTLY_SCENARIOS.flatMap((s) => [
      [`${s.label}@broken`, s.expected],
      [`${s.label}@before`, { status: 'checked', failingItems: [] }],
    ]),
  );
  const inputs = [
    ...demo.runs,
    ...nightly,
    ...[...SCENARIOS, ...hostile].map((s) => demo.scenarioRuns[s.label]!),
    ...generated.runs,
  ];
  // The suite's own settings path (labels fixed and unique, file keys), in demo mode.
  const { runs } = readSettings({
    root: process.cwd(),
    env: {},
    dotenv: {},
    now: new Date(),
    demo: () => ({ runs: inputs, profileB: demo.profileB, credentialsFile: demo.credentialsFile }),
  });
  return runs.map((run) => {
    const urls = readUrls(run.input);
    // Bundled and nightly runs are templated: the project as it is on the night filled in.
    const project = projectById(urls.projectId, urls.batchDate)!;
    const scenario = [...SCENARIOS, ...hostile].find((s) => s.label === run.label);
    const expected = scenario?.expected ??
      nightlyExpected.get(run.label) ??
      generated.expected.get(run.label) ?? { status: 'checked' as const, failingItems: [] };
    return { run, project, expected };
  });
}

/** No phone, password or session cookie in any evidence; no login posted to the foreign origin. */
async function checkSecrets(demo: DemoServer, root: string, evidences: Evidence[]): Promise<void> {
  const stats = (await (await fetch(`${demo.origin}/__demo/stats`)).json()) as {
    _foreign?: Record<string, number>;
  };
  check(
    !stats._foreign?.['login-post'],
    `a login was posted to the foreign origin: ${JSON.stringify(stats._foreign)}`,
  );
  const authDir = path.join(root, 'auth');
  const states = fs.readdirSync(authDir).filter((f) => /^[^.].*(?<!\.failed)\.json$/.test(f));
  const cookies = states.flatMap(
    (f) =>
      (JSON.parse(fs.readFileSync(path.join(authDir, f), 'utf8')) as { cookies: { value: string }[] })
        .cookies,
  );
  const registry = loadRegistry({ L1_CREDENTIALS_FILE: demo.credentialsFile }, root);
  const secrets = [
    ...registryEntries(registry).flatMap(([, e]) => [e.phone, e.password]),
    ...cookies.map((c) => c.value),
  ];
  const text = JSON.stringify(evidences);
  const leaked = secrets.filter((s) => s && text.includes(s)).length;
  check(cookies.length > 0 && leaked === 0, `${leaked} credential or cookie value(s) appear in the evidence`);
}

async function main(): Promise<void> {
  const started = Date.now();
  process.env.L1_DEMO_SLOW_MS = String(SLOW_MS);
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'l1-check-demo-'));
  const credentialsFile = path.join(root, 'credentials.json');
  const demo = await startDemo({ port: 0, quiet: true, credentialsFile });
  try {
    console.log(`demo on ${demo.origin} (portal B ${demo.portalBOrigin})`);
    await checkAccess(demo, root);
    const all = cases(demo);
    const evidences = await pool(all, CONCURRENCY, (c) =>
      collectRun(c.run, collectDeps(demo, root, c.project.fault?.kind === 'slow' ? SLOW_MS / 2 : TIMEOUT_MS)),
    );
    all.forEach((c, i) => {
      const evidence = evidences[i]!;
      if (BUNDLED.some((b) => b.spec.projectId === c.project.spec.projectId))
        checkBundled(c.run, c.project, evidence);
      // A platform's or page's words are in a reason: escaped (a message that clears the terminal
      // or writes a fake "✓ all checks passed" line, hostile-api-msg-*) and cut whole, never mid-pair.
      const line = `  ${c.run.label.padEnd(46)} ${safeText(compare(c, evidence), 110)}`;
      // eslint-disable-next-line no-control-regex -- the characters a line must not hold
      check(!/[\u0000-\u001f\u007f-\u009f]/.test(line), `${c.run.label}: its line holds a control character`);
      console.log(line);
    });
    await checkSecrets(demo, root, evidences);
  } finally {
    const closing = Date.now();
    await demo.close();
    check(Date.now() - closing < 2000, 'close() is prompt');
    check(!fs.existsSync(credentialsFile), 'credentials file removed on close');
    fs.rmSync(root, { recursive: true, force: true });
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (problems.length > 0) {
    console.error(`\n${problems.length} problem(s):\n- ${problems.join('\n- ')}`);
    process.exit(1);
  }
  console.log(`\nall checks passed (${seconds} s)`);
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? (e.stack ?? e.message) : String(e));
  process.exit(1);
});
