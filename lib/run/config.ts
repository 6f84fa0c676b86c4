import path from 'node:path';
import dotenv from 'dotenv';
import { demoCredentialsFile, demoProfileB, demoRuns } from '../../demo/runs';
import { loadSettings, type Settings } from './inputs';
import { invocationDirs, invocationId } from './state';

/** The project root (where playwright.config.ts lives). */
export const ROOT = path.resolve(__dirname, '..', '..');

dotenv.config({ path: path.join(ROOT, '.env'), quiet: true });

/**
 * This invocation's own folder for sessions, evidence and item records (lib/run/state.ts): made by
 * the runner when it loads this file, inherited by its workers through L1_INVOCATION_ID.
 */
export const INVOCATION = invocationDirs(ROOT, invocationId());

export const DEMO_PORT = Number(process.env.L1_DEMO_PORT ?? 4173);
export const DEMO_ORIGIN = `http://127.0.0.1:${DEMO_PORT}`;
export const DEMO_PORTAL_B_ORIGIN = `http://127.0.0.1:${DEMO_PORT + 1}`;
export const DEMO_CREDENTIALS = demoCredentialsFile(DEMO_PORT);

function positiveInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0)
    throw new Error(`${name} must be a positive integer, got ${JSON.stringify(raw)}`);
  return n;
}

/** Contract 4: bounded timeout per request, default 30 s. */
export const REQUEST_TIMEOUT_MS = positiveInt('L1_REQUEST_TIMEOUT_MS', 30_000);
export const RETRY_BACKOFF_MS = positiveInt('L1_RETRY_BACKOFF_MS', 300);
/**
 * One run's whole collection (logins, page, every endpoint with retries) ends within this budget;
 * past it the run is an error and the next run goes on. Default: room for the page and two rounds
 * of requests with their retries.
 */
export const RUN_TIMEOUT_MS = positiveInt('L1_RUN_TIMEOUT_MS', 4 * REQUEST_TIMEOUT_MS + 30_000);
/** The largest API answer (after decompression) and the largest DATA accepted, in MB. */
export const MAX_ANSWER_BYTES = positiveInt('L1_MAX_ANSWER_MB', 64) * 1024 * 1024;

let cached: Settings | undefined;

/**
 * The runs of this invocation (contract section 1), the same in the runner and every worker. In demo
 * mode the demo's own credentials file is used, since its credentials are made anew at each start.
 */
export function settings(): Settings {
  if (!cached) {
    cached = loadSettings(process.env, ROOT, () => ({
      runs: demoRuns(DEMO_ORIGIN, DEMO_PORTAL_B_ORIGIN),
      profileB: demoProfileB(new URL(DEMO_PORTAL_B_ORIGIN).host),
    }));
    if (cached.mode === 'demo') process.env.L1_CREDENTIALS_FILE = DEMO_CREDENTIALS;
  }
  return cached;
}
