/**
 * Benchmark (`npm run bench`, docs/decisions.md "Speed"): speed is measured here, never in a timed test.
 *
 * Starts its own demo platform (`node scripts/run-ts.cjs demo/server.ts`, L1_DEMO_PORT = --port or
 * the next free triple), takes N of its generated runs (demo/model/projects.ts: the unit families' generated
 * cases; several companies, both profiles, every encoding the contract allows, a share that
 * cannot be checked) and measures, for each (N, share, pages), alternating the order at each repeat:
 *   floor      scripts/bench/floor.ts: one login per account, one Chromium, DATA + every endpoint, no check
 *   pw-floor   scripts/bench/pw-floor/: the floor's work as the suite's tests (a collection test and
 *              ten item tests per run, a failed collection restarting the worker), nothing checked
 *   suite      `playwright test` (node_modules/.bin), configured reporters (list + allure-playwright)
 *   suite-dot  `playwright test --reporter=dot`
 * each with 2 workers / 2 runs at a time, the demo's counters reset before and read after, and the
 * memory of the whole process tree sampled every 200 ms (its PSS every 2 s). Then the rule
 * registry over the evidence of one invocation, the cost of one Playwright worker restart, and the
 * breakdown: Playwright's own cost per test and allure-playwright's on bare tests, and what the
 * configured reporters add per test of the suite (configured against dot). Prints a markdown
 * table, also written to test-results/bench/bench.md. Exits 1 when a suite's verdicts are not the
 * generated expectations, or when the suite made more requests or logins than the floor for the
 * same runs, beyond one page load per failing run for its pictures (a benchmark of a wrong suite
 * is worthless).
 *
 *   npx tsx scripts/bench.ts [--runs 20,100] [--uncheckable 0,0.2] [--failing 0] [--repeat 1]
 *                            [--pages light|charts|light,charts] [--no-floor] [--no-pw-floor] [--no-configured]
 *                            [--no-dot] [--no-rules] [--no-restart] [--no-breakdown]
 *                            [--screenshots-off] [--port 4400] [--rounds 200]
 * --pages: light (default) loads the demo's report pages without their chart scripts (DATA only,
 * `?charts=0`), charts the chart-drawing pages (about a CPU second each); floor and suite always
 * load the same pages. --screenshots-off adds a measurement: --reporter=dot with L1_SCREENSHOTS=0.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { modelRuns } from '../demo/model/projects';
import { demoCredentialsFile, demoProfileB } from '../demo/runs';
import type { ScenarioExpectation } from '../demo/scenario-kit';
import { ITEM_NUMBERS } from '../lib/rules/types';
import { runsOfPart } from '../lib/run/runs';
import { projectTool, tsScript } from '../lib/run/settings';
import { readUrls } from '../lib/run/url';
import { startBenchDemo, freeTriple, type BenchDemo } from './bench/demo-server';
import { runningGroups, runTree, type TreeRun } from './bench/proc-tree';
import { benchBreakdown, type BreakdownFigure } from './bench/breakdown';
import { benchRestart, type RestartFigure } from './bench/restart';
import { benchRules } from './bench/rules';
import { checkVerdicts } from './bench/verdicts';

const ROOT = path.resolve(__dirname, '..');
const OUT = path.join(ROOT, 'test-results', 'bench');
const RULES_INVOCATION = 'bench-rules';
/** A run's tests, in the suite and in the Playwright floor: its collection and one per item. */
const TESTS_PER_RUN = 1 + ITEM_NUMBERS.length;
/** The tests a worker of the suite declares for the first part of n runs (lib/run/runs.ts runsOfPart). */
const partTests = (n: number) => runsOfPart(Array.from({ length: n }), 0).length * TESTS_PER_RUN;

// ---- options ----------------------------------------------------------------------------------

const argv = process.argv.slice(2);
let parsed: ReturnType<typeof parse>;
function parse() {
  return parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: {
      runs: { type: 'string', default: '20,100' },
      uncheckable: { type: 'string', default: '0,0.2' },
      failing: { type: 'string', default: '0' },
      repeat: { type: 'string', default: '1' },
      port: { type: 'string', default: '4400' },
      rounds: { type: 'string', default: '200' },
      pages: { type: 'string', default: 'light' },
      'no-floor': { type: 'boolean', default: false },
      'no-pw-floor': { type: 'boolean', default: false },
      'no-configured': { type: 'boolean', default: false },
      'no-dot': { type: 'boolean', default: false },
      'no-rules': { type: 'boolean', default: false },
      'no-restart': { type: 'boolean', default: false },
      'no-breakdown': { type: 'boolean', default: false },
      'screenshots-off': { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
}
try {
  parsed = parse();
} catch (e) {
  console.error(`bench: ${(e as Error).message} (npx tsx scripts/bench.ts --help)`);
  process.exit(2);
}
const values = parsed.values;
if (values.help) {
  console.log(
    fs
      .readFileSync(__filename, 'utf8')
      .split('*/')[0]!
      .replace(/^\/\*\*|^ \* ?/gm, ''),
  );
  process.exit(0);
}
function numbers(name: keyof typeof values, ok: (n: number) => boolean): number[] {
  const given = String(values[name]);
  const list = given.split(',').map((s) => Number(s.trim()));
  if (list.length === 0 || !list.every((n) => Number.isFinite(n) && ok(n))) {
    console.error(`bench: --${name} ${given}: not a valid list`);
    process.exit(2);
  }
  return list;
}
const RUNS = numbers('runs', (n) => Number.isInteger(n) && n >= 1 && n <= 300);
const UNCHECKABLE = numbers('uncheckable', (n) => n >= 0 && n <= 1);
const [FAILING] = numbers('failing', (n) => n >= 0 && n <= 1);
const [REPEAT] = numbers('repeat', (n) => Number.isInteger(n) && n >= 1);
const [PORT] = numbers('port', (n) => Number.isInteger(n) && n > 1024 && n < 65533);
const [ROUNDS] = numbers('rounds', (n) => Number.isInteger(n) && n >= 1);
type Pages = 'light' | 'charts';
const PAGES = String(values.pages)
  .split(',')
  .map((p) => p.trim()) as Pages[];
if (!PAGES.length || !PAGES.every((p) => p === 'light' || p === 'charts')) {
  console.error(`bench: --pages ${String(values.pages)}: light, charts or both (light,charts)`);
  process.exit(2);
}

type What = 'floor' | 'pw-floor' | 'suite' | 'suite-dot' | 'suite-dot-noshots';
const WHATS: What[] = [
  ...(values['no-floor'] ? [] : ['floor' as const]),
  ...(values['no-pw-floor'] ? [] : ['pw-floor' as const]),
  ...(values['no-configured'] ? [] : ['suite' as const]),
  ...(values['no-dot'] ? [] : ['suite-dot' as const]),
  ...(values['screenshots-off'] ? ['suite-dot-noshots' as const] : []),
];
const LABEL: Record<What, string> = {
  floor: 'floor',
  'pw-floor': 'Playwright floor (a test per item, nothing checked)',
  suite: 'suite (list + allure)',
  'suite-dot': 'suite --reporter=dot',
  'suite-dot-noshots': 'suite --reporter=dot, L1_SCREENSHOTS=0',
};

// ---- one measurement --------------------------------------------------------------------------

interface Config {
  n: number;
  uncheckable: number;
  pages: Pages;
  runsFile: string;
  expected: Map<string, ScenarioExpectation>;
  projectIds: Set<string>;
  companies: Set<number>;
  env: NodeJS.ProcessEnv;
}

interface Measurement {
  n: number;
  uncheckable: number;
  pages: Pages;
  what: What;
  rep: number;
  tree: TreeRun;
  tests: number;
  failedTests: number;
  requests: number;
  logins: number;
  problems: string[];
  /** Sum over runs of the verdict durations: collection + item tests, and item tests alone. */
  runS?: number;
  itemS?: number;
  allureFiles?: number;
  allureMb?: number;
  load: string;
}

function baseEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env))
    if (!k.startsWith('L1_') && !k.startsWith('PLAYWRIGHT_') && !k.startsWith('TEST_') && k !== 'CI')
      env[k] = v;
  return { ...env, FORCE_COLOR: '0', NO_COLOR: '1' };
}

function countTests(output: string): { tests: number; failed: number } {
  let tests = 0;
  let failed = 0;
  for (const m of output.matchAll(/^\s+(\d+) (passed|failed|flaky|skipped|did not run|interrupted)\b/gm)) {
    tests += Number(m[1]);
    if (m[2] === 'failed') failed += Number(m[1]);
  }
  return { tests, failed };
}

function folderSize(dir: string): { files: number; bytes: number } {
  let files = 0;
  let bytes = 0;
  for (const e of fs.existsSync(dir) ? fs.readdirSync(dir, { withFileTypes: true }) : []) {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) {
      const sub = folderSize(full);
      files += sub.files;
      bytes += sub.bytes;
    } else {
      files++;
      bytes += fs.statSync(full).size;
    }
  }
  return { files, bytes };
}

/** Requests the platform saw for these runs (their projects and their companies' batch lists). */
function requestsOf(stats: Record<string, Record<string, number>>, config: Config): number {
  const sum = (bucket: Record<string, number> | undefined) =>
    Object.values(bucket ?? {}).reduce((s, v) => s + (typeof v === 'number' ? v : 0), 0);
  let total = 0;
  for (const id of config.projectIds) total += sum(stats[id]);
  for (const company of config.companies) total += sum(stats[`company:${company}`]);
  return total;
}

async function measure(
  demo: BenchDemo,
  config: Config,
  what: What,
  rep: number,
  keepState: boolean,
): Promise<Measurement> {
  const name = `${config.n}-u${config.uncheckable}-${config.pages}-${what}-r${rep}`;
  const verdicts = path.join(OUT, 'verdicts', name);
  const allure = path.join(OUT, 'allure-results', name);
  const env: NodeJS.ProcessEnv = {
    ...config.env,
    L1_VERDICTS_DIR: verdicts,
    L1_ALLURE_RESULTS_DIR: allure,
    ...(what === 'suite-dot-noshots' ? { L1_SCREENSHOTS: '0' } : {}),
    ...(keepState ? { L1_KEEP_STATE: '1', L1_INVOCATION_ID: RULES_INVOCATION } : {}),
  };
  // Each started as the project starts it, without npx (about 0.35 CPU s of npm's own): the floor
  // as a script (tsScript), Playwright from node_modules/.bin.
  const [cmd, args] =
    what === 'floor'
      ? tsScript(path.join('scripts', 'bench', 'floor.ts'), ['--parallel', '2'])
      : what === 'pw-floor'
        ? [
            projectTool('playwright'),
            ['test', '-c', path.join('scripts', 'bench', 'pw-floor', 'playwright.config.ts')],
          ]
        : [projectTool('playwright'), ['test', ...(what.startsWith('suite-dot') ? ['--reporter=dot'] : [])]];
  await demo.reset();
  const load = fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  const tree = await runTree(cmd, args, {
    cwd: ROOT,
    env,
    timeoutMs: 120_000 + config.n * 20_000,
    logFile: path.join(OUT, 'logs', `${name}.log`),
    pss: true,
  });
  const stats = await demo.stats();
  const auth = stats._auth ?? {};
  const m: Measurement = {
    n: config.n,
    uncheckable: config.uncheckable,
    pages: config.pages,
    what,
    rep,
    tree,
    tests: 0,
    failedTests: 0,
    requests: requestsOf(stats, config),
    logins: (auth.login ?? 0) + (auth['login-failed'] ?? 0),
    problems: [],
    load,
  };
  if (what === 'floor') {
    const line = /^BENCH-FLOOR (.*)$/m.exec(tree.output)?.[1];
    if (tree.code !== 0 || !line) m.problems.push(`floor exited ${tree.code} (see ${name}.log)`);
    else {
      const floor = JSON.parse(line) as { statuses: Record<string, number> };
      const want = [...config.expected.values()].filter((e) => e.status === 'checked').length;
      if ((floor.statuses.checked ?? 0) !== want)
        m.problems.push(`floor collected ${floor.statuses.checked ?? 0} runs, ${want} expected checked`);
    }
  } else if (what === 'pw-floor') {
    // Every run's collection test and ten item tests; a run that cannot be checked fails its
    // collection and skips its items, as in the suite.
    const counted = countTests(tree.output);
    m.tests = counted.tests;
    m.failedTests = counted.failed;
    const notChecked = [...config.expected.values()].filter((e) => e.status !== 'checked').length;
    if (counted.tests !== config.n * TESTS_PER_RUN || counted.failed !== notChecked)
      m.problems.push(
        `Playwright floor: ${counted.tests} tests, ${counted.failed} failed; ${config.n * TESTS_PER_RUN} and ${notChecked} expected (see ${name}.log)`,
      );
  } else {
    const counted = countTests(tree.output);
    m.tests = counted.tests;
    m.failedTests = counted.failed;
    const check = checkVerdicts(verdicts, config.expected);
    m.problems.push(...check.problems);
    m.runS = check.runMs / 1000;
    m.itemS = check.itemMs / 1000;
    const size = folderSize(allure);
    m.allureFiles = size.files;
    m.allureMb = size.bytes / 1024 / 1024;
  }
  // Sessions (cookies) of the kept invocation go at once; its evidence stays for the rules figure.
  if (keepState)
    fs.rmSync(path.join(OUT, 'state', 'invocations', RULES_INVOCATION, 'auth'), {
      recursive: true,
      force: true,
    });
  return m;
}

// ---- printing ---------------------------------------------------------------------------------

const f1 = (x: number) => x.toFixed(1);
const f2 = (x: number) => x.toFixed(2);

const isSuite = (what: What) => what.startsWith('suite');

function describe(m: Measurement, floor: Measurement | undefined, pwFloor: Measurement | undefined): string {
  const t = m.tree;
  const wall = t.wallMs / 1000;
  const parts = [
    `${f1(wall)} s wall`,
    `${f2(wall / m.n)} s/run`,
    `${f1(m.requests / m.n)} requests/run`,
    `${m.logins} logins`,
    `peak ${t.peakRssMb.toFixed(0)} MB RSS (${t.peakPssMb.toFixed(0)} MB PSS, ${t.peakProcesses} processes)`,
    `CPU ${t.cpuS === undefined ? '?' : f1(t.cpuS)} s`,
    `${t.nodeProcesses} node processes, ${t.browsers} browser launches seen`,
  ];
  if (m.what !== 'floor') parts.push(`${m.tests} tests (${m.failedTests} failed)`);
  if (isSuite(m.what)) {
    parts.push(`in tests ${f1(m.runS ?? 0)} s (items ${f1(m.itemS ?? 0)} s)`);
    parts.push(`allure-results ${m.allureFiles} files ${f1(m.allureMb ?? 0)} MB`);
  }
  if (floor && m.what !== 'floor') parts.push(`${f2(wall / (floor.tree.wallMs / 1000))}× floor`);
  if (pwFloor && isSuite(m.what)) parts.push(`${f2(wall / (pwFloor.tree.wallMs / 1000))}× Playwright floor`);
  parts.push(`load ${m.load}`);
  parts.push(m.problems.length ? `VERDICTS WRONG (${m.problems.length})` : 'expectations met');
  return `N=${m.n} uncheckable=${m.uncheckable} ${m.pages} pages ${LABEL[m.what]}: ${parts.join(' · ')}`;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/**
 * What the configured reporters (list + allure-playwright) add to the suite's own tests: the suite
 * configured against the suite with `--reporter=dot` on the same runs, per test (medians over the
 * repeats). Unlike the breakdown's bare tests, these tests have the suite's steps and attachments,
 * which allure-playwright writes and copies.
 */
function reportersCost(groups: Map<string, Measurement[]>): string[] {
  const rows: string[] = [];
  for (const [key, configured] of groups) {
    const [n, u, pages, what] = key.split('|') as [string, string, Pages, What];
    const dot = groups.get(`${n}|${u}|${pages}|suite-dot`);
    if (what !== 'suite' || !dot) continue;
    const tests = configured[0]!.tests;
    const per = (of: (m: Measurement) => number) =>
      ((median(configured.map(of)) - median(dot.map(of))) * 1000) / tests;
    rows.push(
      `| ${n} | ${u} | ${pages} | ${tests} | ${f1(per((m) => m.tree.wallMs / 1000))} | ${f1(per((m) => m.tree.cpuS ?? NaN))} | ${configured[0]!.allureFiles} · ${f1(configured[0]!.allureMb ?? 0)} |`,
    );
  }
  return rows.length
    ? [
        '',
        "### What the configured reporters add to the suite's tests (list + Allure against dot, per test)",
        '',
        '| N | uncheckable | pages | tests | wall ms | CPU ms | allure files · MB |',
        '| --: | --: | --- | --: | --: | --: | --- |',
        ...rows,
      ]
    : [];
}

function tables(
  all: Measurement[],
  restart: RestartFigure[],
  rules: string | undefined,
  breakdown: BreakdownFigure[],
): string {
  const groups = new Map<string, Measurement[]>();
  for (const m of all) {
    const key = `${m.n}|${m.uncheckable}|${m.pages}|${m.what}`;
    groups.set(key, [...(groups.get(key) ?? []), m]);
  }
  const wallOf = (ms: Measurement[]) => median(ms.map((m) => m.tree.wallMs / 1000));
  const lines = [
    '| N | uncheckable | pages | what | tests | wall s | s/run | requests/run | logins | peak MB | × floor | × Playwright floor |',
    '| --: | --: | --- | --- | --: | --: | --: | --: | --: | --: | --: | --: |',
  ];
  const details = [
    '| N | uncheckable | pages | what | CPU s | peak PSS MB | processes (peak) | node processes | browser launches | failed tests | in-test s (items) | allure files · MB |',
    '| --: | --: | --- | --- | --: | --: | --: | --: | --: | --: | --: | --- |',
  ];
  for (const [key, ms] of groups) {
    const [n, u, pages, what] = key.split('|') as [string, string, Pages, What];
    const first = ms[0]!;
    const wall = wallOf(ms);
    const floor = groups.get(`${n}|${u}|${pages}|floor`);
    const ratio = floor && what !== 'floor' ? `${f2(wall / wallOf(floor))}×` : what === 'floor' ? '1×' : '-';
    const pwFloor = groups.get(`${n}|${u}|${pages}|pw-floor`);
    const pwRatio =
      pwFloor && isSuite(what) ? `${f2(wall / wallOf(pwFloor))}×` : what === 'pw-floor' ? '1×' : '-';
    const peak = Math.max(...ms.map((m) => m.tree.peakRssMb));
    lines.push(
      `| ${n} | ${u} | ${pages} | ${LABEL[what]} | ${what === 'floor' ? '-' : first.tests} | ${f1(wall)}${ms.length > 1 ? ` (${ms.map((m) => f1(m.tree.wallMs / 1000)).join(', ')})` : ''} | ${f2(wall / Number(n))} | ${f1(first.requests / Number(n))} | ${first.logins} | ${peak.toFixed(0)} | ${ratio} | ${pwRatio} |`,
    );
    details.push(
      `| ${n} | ${u} | ${pages} | ${LABEL[what]} | ${f1(median(ms.map((m) => m.tree.cpuS ?? NaN)))} | ${Math.max(...ms.map((m) => m.tree.peakPssMb)).toFixed(0)} | ${first.tree.peakProcesses} | ${first.tree.nodeProcesses} | ${first.tree.browsers} | ${what === 'floor' ? '-' : first.failedTests} | ${isSuite(what) ? `${f1(first.runS ?? 0)} (${f1(first.itemS ?? 0)})` : '-'} | ${isSuite(what) ? `${first.allureFiles} · ${f1(first.allureMb ?? 0)}` : '-'} |`,
    );
  }
  const out = [
    `## l1-verify benchmark (${new Date().toISOString()}, ${fs.readFileSync('/proc/cpuinfo', 'utf8').match(/^processor/gm)?.length ?? '?'} cores, 2 workers)`,
    '',
    ...lines,
    '',
    "Wall: median over repeats (each repeat in brackets). Requests per run: every request the demo counted for the runs' projects and their companies' batch lists, divided by N. Peak MB: the largest sum of VmRSS over the process tree (shared pages counted once per process), sampled every 200 ms; peak PSS (shared pages divided among the processes that share them) every 2 s, since reading it costs the sampler a sixth of a core at 200 ms.",
    '',
    ...details,
  ];
  out.push(...reportersCost(groups));
  if (restart.length) {
    out.push(
      '',
      '### One Playwright worker restart (1 worker; the same tests passing, then failing)',
      '',
      '| kind | tests | passing s | failing s | ms per restart |',
      '| --- | --: | --: | --: | --: |',
      ...restart.map(
        (r) => `| ${r.kind} | ${r.tests} | ${f1(r.passS)} | ${f1(r.failS)} | ${r.perRestartMs.toFixed(0)} |`,
      ),
    );
  }
  if (breakdown.length) {
    out.push(
      '',
      '### Where the time goes besides the checks (bare tests, this machine)',
      '',
      '| what | ms |',
      '| --- | --: |',
      ...breakdown.map((b) => `| ${b.what} | ${b.ms.toFixed(1)} |`),
      ...restart.map((r) => `| one worker restart: ${r.kind} | ${r.perRestartMs.toFixed(0)} |`),
    );
  }
  if (rules) out.push('', rules);
  return `${out.join('\n')}\n`;
}

// ---- main -------------------------------------------------------------------------------------

async function main(): Promise<number> {
  fs.rmSync(OUT, { recursive: true, force: true });
  fs.mkdirSync(path.join(OUT, 'logs'), { recursive: true });
  fs.mkdirSync(path.join(OUT, 'runs'), { recursive: true });
  const port = await freeTriple(PORT!);
  console.log(`bench: demo platform on 127.0.0.1:${port} (+1 Profile B portal, +2 foreign origin)`);
  const demo = await startBenchDemo(ROOT, port, path.join(OUT, 'logs', 'demo-server.log'));
  const stopAll = () => {
    for (const pgid of runningGroups) {
      try {
        process.kill(-pgid, 'SIGKILL');
      } catch {
        // gone
      }
    }
    void demo.stop().finally(() => process.exit(130));
  };
  process.once('SIGINT', stopAll);
  process.once('SIGTERM', stopAll);
  const all: Measurement[] = [];
  let restart: RestartFigure[] = [];
  let breakdown: BreakdownFigure[] = [];
  let rules: string | undefined;
  let keptRules = false;
  const runsFiles = new Map<number, string>();
  try {
    const profileB = demoProfileB(`127.0.0.1:${port + 1}`);
    for (const n of RUNS) {
      for (const uncheckable of UNCHECKABLE) {
        for (const pages of PAGES) {
          const generated = modelRuns(n, {
            origin: demo.origin,
            portalBOrigin: demo.portalBOrigin,
            uncheckable,
            failing: FAILING!,
          });
          const { expected } = generated;
          // Light pages: DATA only (?charts=0), the same for the floor and the suite.
          const runs = generated.runs.map((r) => {
            if (pages === 'charts') return r;
            const url = new URL(r.htmlUrl);
            url.searchParams.set('charts', '0');
            return { ...r, htmlUrl: url.toString() };
          });
          const runsFile = path.join(OUT, 'runs', `runs-${n}-u${uncheckable}-${pages}.json`);
          fs.writeFileSync(runsFile, JSON.stringify(runs, null, 2));
          if (uncheckable === 0 || !runsFiles.has(n)) runsFiles.set(n, runsFile);
          const facts = runs.map((r) => readUrls(r));
          const config: Config = {
            n,
            uncheckable,
            pages,
            runsFile,
            expected,
            projectIds: new Set(facts.map((x) => x.projectId)),
            companies: new Set(facts.map((x) => x.companyId)),
            env: {
              ...baseEnv(),
              L1_RUNS: runsFile,
              L1_CREDENTIALS_FILE: demoCredentialsFile(port),
              L1_PROFILE_B_HOST: profileB.host,
              L1_PROFILE_B_GROUP_NAME: profileB.groupName,
              L1_PROFILE_B_COMPANY_ID: String(profileB.companyId),
              L1_PROFILE_B_BRAND_CODE: profileB.brandCode,
              L1_WORKERS: '2',
              L1_STATE_DIR: path.join(OUT, 'state'),
              L1_DEMO_PORT: String(port),
            },
          };
          const notChecked = [...expected.values()].filter((e) => e.status !== 'checked').length;
          const profiles = new Set(runs.map((r) => (/-B-/.test(r.label ?? '') ? 'B' : 'A')));
          console.log(
            `\nbench: N=${n}, ${pages} pages: ${notChecked} cannot be checked, ${config.companies.size} companies (${[...config.companies].join(', ')}), profiles ${[...profiles].join('+')}`,
          );
          for (let rep = 0; rep < REPEAT!; rep++) {
            const order = rep % 2 === 0 ? WHATS : [...WHATS].reverse();
            const done: Measurement[] = [];
            for (const what of order) {
              const keep = !keptRules && isSuite(what) && !values['no-rules'];
              if (keep) {
                keptRules = true;
                fs.rmSync(path.join(OUT, 'state', 'invocations', RULES_INVOCATION), {
                  recursive: true,
                  force: true,
                });
              }
              const m = await measure(demo, config, what, rep, keep);
              done.push(m);
              all.push(m);
              console.log(
                describe(
                  m,
                  done.find((d) => d.what === 'floor'),
                  done.find((d) => d.what === 'pw-floor'),
                ),
              );
              // Requests and logins at the floor, asserted: the suite fetches what the floor fetches,
              // plus one page load per run with a failing item for its pictures (docs/decisions.md).
              const failingRuns = [...config.expected.values()].filter(
                (e) => e.status === 'checked' && (e.failingItems ?? []).length > 0,
              ).length;
              const pictureLoads = (d: Measurement) =>
                d.what === 'suite-dot-noshots' || d.what === 'pw-floor' ? 0 : failingRuns;
              const floorOf = done.find((d) => d.what === 'floor');
              if (
                floorOf &&
                m.what !== 'floor' &&
                (m.requests > floorOf.requests + pictureLoads(m) || m.logins > floorOf.logins)
              )
                m.problems.push(
                  `${m.requests} requests and ${m.logins} logins, the floor ${floorOf.requests} and ${floorOf.logins}`,
                );
              if (m.what === 'floor')
                for (const d of done.filter((x) => x.what !== 'floor'))
                  if (d.requests > m.requests + pictureLoads(d) || d.logins > m.logins)
                    d.problems.push(
                      `${d.requests} requests and ${d.logins} logins, the floor ${m.requests} and ${m.logins}`,
                    );
              for (const p of m.problems.slice(0, 10)) console.log(`    ${p}`);
              if (keep)
                rules = benchRules(path.join(OUT, 'state', 'invocations', RULES_INVOCATION, 'runs'), ROUNDS!);
            }
          }
        }
      }
    }
    if (rules) console.log(`\n${rules}`);
    if (!values['no-restart']) {
      console.log('\nbench: worker restart cost (1 worker, passing vs failing tests)…');
      const ns = [...runsFiles.keys()].sort((a, b) => a - b);
      const kinds = [
        { kind: 'bare' as const, label: 'bare test (root test type, nothing of the suite)' },
        { kind: 'browser' as const, label: 'test using a worker-scoped Chromium' },
        ...[ns[0], ns[ns.length - 1]]
          .filter((n, i, xs): n is number => n !== undefined && xs.indexOf(n) === i)
          .map((n) => ({
            kind: 'suite' as const,
            label: `suite fixtures + forEachRun over part 0 of ${n} runs (${partTests(n)} tests declared)`,
            runsFile: runsFiles.get(n)!,
          })),
      ];
      restart = await benchRestart(
        ROOT,
        { ...baseEnv(), L1_STATE_DIR: path.join(OUT, 'state') },
        path.join(OUT, 'logs'),
        kinds,
      );
      for (const r of restart)
        console.log(
          `  ${r.kind}: ${r.tests} tests, ${f1(r.passS)} s passing, ${f1(r.failS)} s failing → ${r.perRestartMs.toFixed(0)} ms per restart`,
        );
    }
    if (!values['no-breakdown']) {
      console.log("\nbench: Playwright's and allure-playwright's own cost per test (bare tests)…");
      breakdown = await benchBreakdown(
        ROOT,
        { ...baseEnv(), L1_STATE_DIR: path.join(OUT, 'state') },
        path.join(OUT, 'logs'),
      );
      for (const b of breakdown) console.log(`  ${b.what}: ${b.ms.toFixed(1)} ms`);
    }
  } finally {
    await demo.stop();
  }
  const md = tables(all, restart, rules, breakdown);
  fs.writeFileSync(path.join(OUT, 'bench.md'), md);
  console.log(`\n${md}\n(written to ${path.relative(ROOT, path.join(OUT, 'bench.md'))})`);
  const wrong = all.filter((m) => m.problems.length);
  if (wrong.length) {
    console.error(
      `bench: ${wrong.length} measurement(s) did not meet the generated expectations: the figures are not valid`,
    );
    return 1;
  }
  return 0;
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(`bench: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  },
);
