import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { _baseTest as base, expect } from '@playwright/test';
import { scanOutputsReport } from '../../lib/redaction';
import type { RunInput } from '../../lib/run/types';
import { sha256 } from '../../lib/util/hash';
import { projectTool, tsScript } from '../../lib/run/settings';
import { verdictFileSchema, type VerdictFile } from '../../lib/schema/verdict';
import { demoCredentialsFile, demoProfileB } from '../../demo/runs';
import { startDemo, type DemoServer } from '../../demo/server';
import { SELFTEST_DEMO_PORT } from '../../playwright.selftest.config';

/**
 * Self-tests run the real suite (`npx playwright test`, the main job, the CI scripts) as a user
 * would, in a child process, against the demo platform started once per self-test worker (the
 * `demo` fixture), and read what it wrote: verdict files, terminal output, Allure results, the
 * demo's request counts. Report pages are served without charts (L1_DEMO_CHARTS=0: a tenth of the
 * CPU) except where a picture is asserted.
 */
export const ROOT = path.resolve(__dirname, '..', '..');
/**
 * The outputs of the invocations the self-tests run, one folder each. Not under test-results/ or
 * another default output folder: the main job and the local pipeline they run guard those, and
 * would read every other self-test's outputs too (npm test's own guard stage scans this folder).
 */
export const SELFTEST_RESULTS = path.join(ROOT, 'selftest-results');
/** Each self-test worker has its own demo: ports base + 100 × the worker's parallel index. */
export const DEMO_PORT = SELFTEST_DEMO_PORT + 100 * Number(process.env.TEST_PARALLEL_INDEX ?? 0);
export const ORIGIN = `http://127.0.0.1:${DEMO_PORT}`;
export const PORTAL_B_ORIGIN = `http://127.0.0.1:${DEMO_PORT + 1}`;
export const DEMO_CREDENTIALS = demoCredentialsFile(DEMO_PORT);

/**
 * Playwright's root test type (as the suite's own, fixtures/base.ts, and the unit tests'): no
 * self-test opens a page of its own, so none sets up @playwright/test's browser fixtures.
 */
export const test = base.extend<object, { demo: DemoServer }>({
  demo: [
    async ({}, use) => {
      // The slow endpoint sleeps past the request timeouts the self-tests set.
      process.env.L1_DEMO_SLOW_MS = '12000';
      process.env.L1_DEMO_CHARTS = '0';
      const demo = await startDemo({ port: DEMO_PORT, quiet: true });
      await use(demo);
      await demo.close();
    },
    { scope: 'worker', auto: true, timeout: 60_000 },
  ],
});
export { expect } from '@playwright/test';

/**
 * The process groups of the invocations this worker runs now. Each runs in a group of its own (so
 * that a self-test can signal it as a terminal or CI would), which a stop of the self-tests does not
 * reach: when the worker ends (npm test's bound stopped the stage, a Ctrl-C), what is still running
 * is killed with it rather than left writing into selftest-results/ while the guard scans it.
 */
const running = new Set<number>();
process.on('exit', () => {
  for (const pid of running)
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // already gone
    }
});

export interface SuiteResult {
  code: number | null;
  /** L1_STATE_DIR of the invocation (kept: L1_KEEP_STATE=1). */
  state: string;
  /** The run folders of the invocation (judged results, records). */
  runsDir: string;
  /** stdout and stderr as they came. */
  output: string;
  /** stdout alone (`--reporter=junit` writes its report there). */
  stdout: string;
  dir: string;
  /** Where the verdicts were read from. */
  verdictsDir: string;
  verdicts: Map<string, VerdictFile>;
  /** Files of the verdict folder that are not valid verdict files (docs/contract.md §7). */
  invalid: string[];
}

export interface SuiteOptions {
  /** Folder name under selftest-results/. */
  name: string;
  /** The runs file: an array of runs, or `{profileB, runs}`; omitted → the demo default. */
  runs?: RunInput[] | { profileB?: Record<string, unknown>; runs: RunInput[] };
  /** Profile B settings as L1_PROFILE_B_* variables (default: yes when `runs` is an array). */
  profileBEnv?: boolean;
  env?: Record<string, string | undefined>;
  args?: string[];
  timeoutMs?: number;
  /** Keep the folder's earlier content (a second night, the morning after). */
  keepDir?: boolean;
  /** Another command than `npx playwright test ARGS` (e.g. the CI pipeline script, the main job). */
  command?: string[];
  /** Where that command writes its verdicts, when not the folder's `verdicts/`. */
  verdictsDir?: string;
  /** Stop the invocation's process group with `signal` once `when()` holds (polled every 100 ms). */
  stop?: { when: (dir: string) => boolean; signal: 'SIGTERM' | 'SIGKILL' | 'SIGINT' };
}

/** Profile B settings of the self-test demo server (its portal B host is port + 1). */
export function profileBSettings(): {
  host: string;
  groupName: string;
  companyId: number;
  brandCode: string;
} {
  return demoProfileB(new URL(PORTAL_B_ORIGIN).host);
}

export function profileBEnv(): Record<string, string> {
  const b = profileBSettings();
  return {
    L1_PROFILE_B_HOST: b.host,
    L1_PROFILE_B_GROUP_NAME: b.groupName,
    L1_PROFILE_B_COMPANY_ID: String(b.companyId),
    L1_PROFILE_B_BRAND_CODE: b.brandCode,
  };
}

export function folderOf(name: string): string {
  return path.join(SELFTEST_RESULTS, name);
}

/** The verdict files of a folder, by label. */
export function readVerdicts(dir: string): { verdicts: Map<string, VerdictFile>; invalid: string[] } {
  const verdicts = new Map<string, VerdictFile>();
  const extras = ['index.json', 'summary.md', 'junit.xml'];
  const invalid: string[] = [];
  for (const file of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
    if (!file.endsWith('.json') || extras.includes(file) || file.startsWith('.')) continue;
    const parsed = verdictFileSchema.safeParse(JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')));
    if (parsed.success) verdicts.set(parsed.data.run.label, parsed.data);
    else invalid.push(file);
  }
  return { verdicts, invalid };
}

/**
 * `npx TOOL ARGS` as npx runs it: the project's own TOOL, without npx's own start; `npx tsx
 * SCRIPT` as the project runs its scripts (lib/run/settings.ts `tsScript`).
 */
export function withoutNpx(command: string[]): string[] {
  const [cmd, tool, ...rest] = command;
  if (cmd !== 'npx' || !tool) return command;
  return tool === 'tsx' && rest[0] ? tsScript(rest[0], rest.slice(1)).flat() : [projectTool(tool), ...rest];
}

/** Runs the real suite as a user would, in a child process of its own process group. */
export async function runSuite(options: SuiteOptions): Promise<SuiteResult> {
  const dir = folderOf(options.name);
  if (!options.keepDir) fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env))
    if (!k.startsWith('L1_') && !k.startsWith('PLAYWRIGHT_') && !k.startsWith('TEST_')) env[k] = v;
  const state = path.join(ROOT, '.l1', 'selftest', options.name);
  if (!options.keepDir) fs.rmSync(state, { recursive: true, force: true });
  Object.assign(env, {
    L1_STATE_DIR: state,
    L1_INVOCATION_ID: options.name,
    L1_KEEP_STATE: '1',
    L1_VERDICTS_DIR: path.join(dir, 'verdicts'),
    L1_ALLURE_RESULTS_DIR: path.join(dir, 'allure-results'),
    L1_PARTIAL_DIR: path.join(dir, 'partial'),
    L1_ALLURE_HISTORY_PATH: path.join(dir, 'history', 'history.jsonl'),
    L1_ALLURE_REPORT_DIR: path.join(dir, 'allure-report'),
    L1_RETRY_BACKOFF_MS: '50',
    L1_DEMO_PORT: String(DEMO_PORT),
    // Playwright's outputDir of the checks: --last-failed reads this invocation's own .last-run.json.
    L1_TEST_RESULTS_DIR: path.join(dir, 'test-results'),
    FORCE_COLOR: '0',
  });
  if (options.runs) {
    // The runs file is an input, kept with the invocation's private state, not with its outputs:
    // some runs carry secret-looking URL queries on purpose, which the guard must find in no output.
    fs.mkdirSync(state, { recursive: true });
    const runsFile = path.join(state, 'runs.json');
    fs.writeFileSync(runsFile, JSON.stringify(options.runs, null, 2));
    Object.assign(env, { L1_RUNS: runsFile, L1_CREDENTIALS_FILE: DEMO_CREDENTIALS });
    if (options.profileBEnv ?? Array.isArray(options.runs)) Object.assign(env, profileBEnv());
  }
  for (const [k, v] of Object.entries(options.env ?? {})) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  const [cmd, ...cmdArgs] = withoutNpx(
    options.command ?? ['npx', 'playwright', 'test', ...(options.args ?? [])],
  );
  const started = Date.now();
  const child = spawn(cmd!, cmdArgs, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  running.add(child.pid!);
  child.on('exit', () => running.delete(child.pid!));
  let output = '';
  let stdout = '';
  child.stdout.on('data', (d: Buffer) => {
    output += d.toString();
    stdout += d.toString();
  });
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const group = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // already gone
    }
  };
  const timer = setTimeout(() => group('SIGKILL'), options.timeoutMs ?? 180_000);
  let poll: NodeJS.Timeout | undefined;
  if (options.stop) {
    const { when, signal } = options.stop;
    poll = setInterval(() => {
      if (!when(dir)) return;
      clearInterval(poll);
      group(signal);
    }, 100);
  }
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  clearTimeout(timer);
  if (poll) clearInterval(poll);
  fs.writeFileSync(path.join(dir, 'output.log'), output);
  // Where `npm test`'s self-test time goes: one line per invocation (name, seconds, exit, command).
  fs.appendFileSync(
    path.join(SELFTEST_RESULTS, 'invocations.tsv'),
    `${options.name}\t${((Date.now() - started) / 1000).toFixed(1)}\t${code}\t${[path.basename(cmd!), ...cmdArgs].join(' ')}\n`,
  );
  const verdictsDir = options.verdictsDir ?? env.L1_VERDICTS_DIR ?? path.join(dir, 'verdicts');
  const { verdicts, invalid } = readVerdicts(verdictsDir);
  const runsDir = path.join(state, 'invocations', options.name, 'runs');
  return { code, output, stdout, dir, state, runsDir, verdictsDir, verdicts, invalid };
}

/** The demo server's request counts per project and endpoint kind. */
export async function demoStats(): Promise<Record<string, Record<string, number>>> {
  const res = await fetch(`${ORIGIN}/__demo/stats`);
  return (await res.json()) as Record<string, Record<string, number>>;
}

export async function resetDemoStats(): Promise<void> {
  await fetch(`${ORIGIN}/__demo/reset`, { method: 'POST' });
}

export function failingItems(v: VerdictFile): number[] {
  return v.items.filter((i) => i.verdict === 'fail').map((i) => i.item);
}

/** path → sha256 of every file under `dir` (an invocation that must change nothing leaves it equal). */
export function snapshotFolder(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of fs.existsSync(d) ? fs.readdirSync(d, { withFileTypes: true }) : []) {
      const full = path.join(d, e.name);
      if (e.isDirectory()) walk(full);
      else out[path.relative(dir, full)] = sha256(fs.readFileSync(full));
    }
  };
  walk(dir);
  return out;
}

/** A verdict without what differs between two equal invocations (times, durations, selection). */
export function comparable(v: VerdictFile): unknown {
  const { generatedAt: _g, durationMs: _d, selection: _s, ...rest } = v;
  return { ...rest, items: rest.items.map(({ durationMs: _x, ...item }) => item) };
}

/** Every file under `dir`, recursively. */
export function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? filesUnder(full) : [full];
  });
}

/** A JSON file the single-file Allure report embeds (`d("widgets/…","<base64>")`), parsed. */
export function embeddedInReport(html: string, name: string): unknown {
  const b64 = new RegExp(`d\\("${name.replace(/[./]/g, '\\$&')}","([^"]*)"\\)`).exec(html)?.[1];
  return b64 === undefined ? undefined : JSON.parse(Buffer.from(b64, 'base64').toString('utf8'));
}

/**
 * The redaction guard over `paths` (README.md § Security and limits) finds no secret, and it read
 * everything: what it cannot read would fail the guard as a secret does.
 */
export function expectNoSecretsIn(...paths: string[]): void {
  const scan = scanOutputsReport({ root: ROOT, extraPaths: paths });
  expect(scan.findings).toEqual([]);
  expect(scan.unscanned).toEqual([]);
}
