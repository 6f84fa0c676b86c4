import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { RunInput } from '../../lib/run/types';
import type { VerdictFile } from '../../lib/report/verdict';
import { demoCredentialsFile, demoProfileB } from '../../demo/runs';
import { SELFTEST_DEMO_PORT } from '../../playwright.selftest.config';

export const ROOT = path.resolve(__dirname, '..', '..');
export const ORIGIN = `http://127.0.0.1:${SELFTEST_DEMO_PORT}`;
export const PORTAL_B_ORIGIN = `http://127.0.0.1:${SELFTEST_DEMO_PORT + 1}`;
export const DEMO_CREDENTIALS = demoCredentialsFile(SELFTEST_DEMO_PORT);

/** Contract section 7, as a schema: every verdict file a self-test reads is validated with it. */
const mismatch = z.object({
  key: z.string(),
  html: z.union([z.string(), z.number(), z.null()]),
  platform: z.union([z.string(), z.number(), z.null()]),
  gap: z.number().nullable(),
  tolerance: z.string(),
  verdict: z.literal('fail'),
  note: z.string().optional(),
});
export const verdictFileSchema = z.object({
  run: z.object({
    label: z.string(),
    htmlUrl: z.string(),
    platformUrl: z.string(),
    companyId: z.number().nullable(),
    projectId: z.string().nullable(),
    reportType: z.enum(['monitor', 'diagnosis']).nullable(),
    batchDate: z.string().nullable(),
    profile: z.enum(['A', 'B']),
    batchIds: z.array(z.string()),
    dataSource: z.enum(['html', 'cal_data_json']),
  }),
  status: z.enum(['checked', 'needs-input', 'error']),
  reason: z.string().optional(),
  notes: z.array(z.string()),
  items: z.array(
    z.object({
      item: z.number().int().min(3).max(12),
      verdict: z.enum(['pass', 'fail']),
      steps: z.array(
        z.object({ name: z.string(), verdict: z.enum(['pass', 'fail']), mismatches: z.array(mismatch) }),
      ),
      notes: z.array(z.string()),
    }),
  ),
});

export interface SuiteResult {
  code: number | null;
  /** L1_STATE_DIR of the invocation: its `.auth/` and `.l1/evidence/`. */
  state: string;
  output: string;
  dir: string;
  verdicts: Map<string, VerdictFile>;
}

export interface SuiteOptions {
  /** Folder name under test-results/selftest-runs. */
  name: string;
  /** L1_RUNS content; omitted → the demo default (no run configured). */
  runs?: RunInput[];
  env?: Record<string, string | undefined>;
  args?: string[];
  timeoutMs?: number;
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
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env))
    if (!k.startsWith('L1_') && !k.startsWith('PLAYWRIGHT_') && !k.startsWith('TEST_')) env[k] = v;
  const state = path.join(ROOT, '.l1', 'selftest', options.name);
  fs.rmSync(state, { recursive: true, force: true });
  Object.assign(env, {
    L1_STATE_DIR: state,
    L1_VERDICTS_DIR: path.join(dir, 'verdicts'),
    L1_ALLURE_RESULTS_DIR: path.join(dir, 'allure-results'),
    L1_RETRY_BACKOFF_MS: '50',
    FORCE_COLOR: '0',
  });
  if (options.runs) {
    const runsFile = path.join(dir, 'runs.json');
    fs.writeFileSync(runsFile, JSON.stringify(options.runs, null, 2));
    Object.assign(env, { L1_RUNS: runsFile, L1_CREDENTIALS_FILE: DEMO_CREDENTIALS, ...profileBEnv() });
  }
  for (const [k, v] of Object.entries(options.env ?? {})) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  const child = spawn('npx', ['playwright', 'test', ...(options.args ?? [])], {
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
  const verdictDir = env.L1_VERDICTS_DIR ?? path.join(dir, 'verdicts');
  for (const file of fs.existsSync(verdictDir) ? fs.readdirSync(verdictDir) : []) {
    const json: unknown = JSON.parse(fs.readFileSync(path.join(verdictDir, file), 'utf8'));
    const verdict = verdictFileSchema.parse(json) as VerdictFile;
    verdicts.set(verdict.run.label, verdict);
  }
  return { code, output, dir, state, verdicts };
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
