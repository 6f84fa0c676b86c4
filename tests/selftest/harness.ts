import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { RunInput } from '../../lib/run/types';
import { sha256 } from '../../lib/util/hash';
import { verdictFileSchema, type VerdictFile } from '../../lib/schema/verdict';
import { demoCredentialsFile, demoProfileB } from '../../demo/runs';
import { SELFTEST_DEMO_PORT } from '../../playwright.selftest.config';

export const ROOT = path.resolve(__dirname, '..', '..');
export const ORIGIN = `http://127.0.0.1:${SELFTEST_DEMO_PORT}`;
export const PORTAL_B_ORIGIN = `http://127.0.0.1:${SELFTEST_DEMO_PORT + 1}`;
export const DEMO_CREDENTIALS = demoCredentialsFile(SELFTEST_DEMO_PORT);

export interface SuiteResult {
  code: number | null;
  /** L1_STATE_DIR of the invocation (kept: L1_KEEP_STATE=1). */
  state: string;
  /** The invocation's evidence folder (one JSON file per run). */
  evidence: string;
  output: string;
  dir: string;
  verdicts: Map<string, VerdictFile>;
  /** Files of the verdict folder that are not valid verdict files (docs/contract.md §7). */
  invalid: string[];
}

export interface SuiteOptions {
  /** Folder name under test-results/selftest-runs. */
  name: string;
  /** L1_RUNS content; omitted → the demo default (no run configured). */
  runs?: RunInput[];
  env?: Record<string, string | undefined>;
  args?: string[];
  timeoutMs?: number;
  /** Keep the folder's earlier content (to prove an invocation leaves it untouched). */
  keepDir?: boolean;
  /** Another command than `npx playwright test ARGS` (e.g. the CI pipeline script). */
  command?: string[];
  /** Where that command writes its verdicts, when not L1_VERDICTS_DIR. */
  verdictsDir?: string;
}

/** Profile B settings of the self-test demo server (its portal B host is port + 1). */
export function profileBEnv(): Record<string, string> {
  const b = demoProfileB(new URL(PORTAL_B_ORIGIN).host);
  return {
    L1_PROFILE_B_HOST: b.host,
    L1_PROFILE_B_GROUP_NAME: b.groupName,
    L1_PROFILE_B_COMPANY_ID: String(b.companyId),
    L1_PROFILE_B_BRAND_CODE: b.brandCode,
  };
}

/** Runs the real suite (`npx playwright test`) as a user would, in a child process. */
export async function runSuite(options: SuiteOptions): Promise<SuiteResult> {
  const dir = path.join(ROOT, 'test-results', 'selftest-runs', options.name);
  if (!options.keepDir) fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env))
    if (!k.startsWith('L1_') && !k.startsWith('PLAYWRIGHT_') && !k.startsWith('TEST_')) env[k] = v;
  const state = path.join(ROOT, '.l1', 'selftest', options.name);
  fs.rmSync(state, { recursive: true, force: true });
  Object.assign(env, {
    L1_STATE_DIR: state,
    L1_INVOCATION_ID: options.name,
    L1_KEEP_STATE: '1',
    L1_VERDICTS_DIR: path.join(dir, 'verdicts'),
    L1_ALLURE_RESULTS_DIR: path.join(dir, 'allure-results'),
    L1_RETRY_BACKOFF_MS: '50',
    FORCE_COLOR: '0',
  });
  if (options.runs) {
    // The runs file is an input, kept with the invocation's private state, not with its outputs:
    // some runs carry secret-looking URL queries on purpose, which the guard must find in no output.
    fs.mkdirSync(state, { recursive: true });
    const runsFile = path.join(state, 'runs.json');
    fs.writeFileSync(runsFile, JSON.stringify(options.runs, null, 2));
    Object.assign(env, { L1_RUNS: runsFile, L1_CREDENTIALS_FILE: DEMO_CREDENTIALS, ...profileBEnv() });
  }
  for (const [k, v] of Object.entries(options.env ?? {})) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  const [cmd, ...cmdArgs] = options.command ?? ['npx', 'playwright', 'test', ...(options.args ?? [])];
  const child = spawn(cmd!, cmdArgs, {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 180_000);
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  clearTimeout(timer);
  fs.writeFileSync(path.join(dir, 'output.log'), output);
  const verdicts = new Map<string, VerdictFile>();
  const verdictDir = options.verdictsDir ?? env.L1_VERDICTS_DIR ?? path.join(dir, 'verdicts');
  const extras = ['index.json', 'summary.md', 'junit.xml'];
  const invalid: string[] = [];
  for (const file of fs.existsSync(verdictDir) ? fs.readdirSync(verdictDir) : []) {
    if (!file.endsWith('.json') || extras.includes(file)) continue;
    const parsed = verdictFileSchema.safeParse(
      JSON.parse(fs.readFileSync(path.join(verdictDir, file), 'utf8')),
    );
    if (parsed.success) verdicts.set(parsed.data.run.label, parsed.data);
    else invalid.push(file);
  }
  const evidence = path.join(state, 'invocations', options.name, 'evidence');
  return { code, output, dir, state, evidence, verdicts, invalid };
}

/** The demo server's request counts per project and endpoint kind. */
export async function demoStats(): Promise<unknown> {
  const res = await fetch(`${ORIGIN}/__demo/stats`);
  return res.json();
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
