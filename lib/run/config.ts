import path from 'node:path';
import dotenv from 'dotenv';
import { loadSettings, SettingsError, type Settings } from './inputs';
import type { ProfileBSettings, RunInput } from './types';
import { invocationDirs, invocationId } from './state';

/** The project root (where playwright.config.ts lives). */
export const ROOT = path.resolve(__dirname, '..', '..');

dotenv.config({ path: path.join(ROOT, '.env'), quiet: true });

/**
 * This invocation's own folder for sessions, evidence and item records (lib/run/state.ts): made by
 * the runner when it loads this file, inherited by its workers through L1_INVOCATION_ID.
 */
export const INVOCATION = invocationDirs(ROOT, invocationId());

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

/** The runs used when none is configured: the bundled demo's (wired by playwright.config.ts). */
export interface DefaultRuns {
  runs: RunInput[];
  profileB: ProfileBSettings;
  /** The demo's credentials registry: its credentials are made anew at each start. */
  credentialsFile: string;
}
let defaults: (() => DefaultRuns) | undefined;

/**
 * Sets where the runs come from when neither L1_RUNS nor L1_HTML_URL is set. The Playwright config
 * passes the bundled demo's runs; lib/ never imports demo/ itself.
 */
export function useDefaultRuns(source: () => DefaultRuns): void {
  defaults = source;
}

/** The runs of this invocation (docs/contract.md §1), the same in the runner and every worker. */
export function settings(): Settings {
  if (!cached) {
    let credentialsFile: string | undefined;
    cached = loadSettings(process.env, ROOT, () => {
      if (!defaults)
        throw new SettingsError('no runs configured: set L1_RUNS, or L1_HTML_URL and L1_PLATFORM_URL');
      const fallback = defaults();
      credentialsFile = fallback.credentialsFile;
      return fallback;
    });
    if (cached.mode === 'demo' && credentialsFile) process.env.L1_CREDENTIALS_FILE = credentialsFile;
  }
  return cached;
}
