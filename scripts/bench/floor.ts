/**
 * The floor of the benchmark (docs/decisions.md, Speed): what checking N runs costs at least. Logs in once
 * per account, loads each report page in one Chromium and reads DATA, fetches the endpoints the
 * suite fetches, and checks nothing; two runs at a time (the suite's default worker count).
 *
 * The fetching is the suite's own `collectRun` (lib/platform/collect.ts) with a trivial deps
 * object: in-memory sessions made by `login()` (one per login base and credentials entry, chosen by
 * `recognizeProfile` + `credentialKeyFor` inside collectRun), one shared browser, Node's fetch. So
 * the floor requests exactly what the suite requests, with the same batch resolution, retries of a
 * 5xx (300 ms, 900 ms) and schema validation; what it leaves out is Playwright's runner, workers,
 * test fixtures, reporters, the evidence files and the rules.
 *
 *   L1_RUNS=… L1_CREDENTIALS_FILE=… L1_PROFILE_B_*=… npx tsx scripts/bench/floor.ts [--parallel 2]
 *
 * Prints one line `BENCH-FLOOR {json}` (counts and times; never a credential or cookie).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type Browser } from 'playwright-core';
import { login } from '../../lib/platform/login';
import { chromiumLaunchOptions } from '../../lib/run/browser';
import {
  credentialSource,
  credentialsFor,
  describeKey,
  loadRegistry,
  type CredentialKey,
} from '../../lib/run/credentials';
import { settings } from '../../lib/run/settings';
import { BARE_TIMEOUT_MS as TIMEOUT_MS, bareCollect } from './bare-collect';

const ROOT = path.resolve(__dirname, '..', '..');

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { parallel: { type: 'string', default: '2' } }, strict: true });
  const parallel = Number(values.parallel);
  if (!Number.isInteger(parallel) || parallel < 1)
    throw new Error(`--parallel ${values.parallel}: a whole number ≥ 1`);
  const started = Date.now();
  // Without L1_RUNS or L1_HTML_URL, settings() stops with "no runs configured".
  const { runs, profileB } = settings();
  const registry = loadRegistry(process.env, ROOT);
  const where = credentialSource(process.env, ROOT).where;
  // Storage states (session cookies) live in a private temporary folder, removed at the end.
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'l1-bench-floor-'));
  const sessions = new Map<string, Promise<string>>();
  let logins = 0;
  let fileNo = 0;
  const session = (loginBase: string, key: CredentialKey, force = false): Promise<string> => {
    const id = `${loginBase} ${key}`;
    let made = sessions.get(id);
    if (!made || force) {
      made = (async () => {
        logins++;
        const state = await login(
          loginBase,
          credentialsFor(registry, key, where),
          describeKey(key),
          TIMEOUT_MS,
        );
        const file = path.join(stateDir, `${++fileNo}.json`);
        fs.writeFileSync(file, JSON.stringify(state), { mode: 0o600 });
        return file;
      })();
      sessions.set(id, made);
    }
    return made;
  };
  let browser: Promise<Browser> | undefined;
  let launchMs = 0;
  const launched = () =>
    (browser ??= (async () => {
      const t = Date.now();
      const b = await chromium.launch(chromiumLaunchOptions());
      launchMs = Date.now() - t;
      return b;
    })());
  const statuses: Record<string, number> = {};
  let pageMs = 0;
  let pageLoads = 0;
  let next = 0;
  const worker = async () => {
    for (let r = next++; r < runs.length; r = next++) {
      const evidence = await bareCollect(runs[r]!, {
        root: ROOT,
        profileB,
        session,
        browser: launched,
        onPage: (ms) => {
          pageMs += ms;
          pageLoads++;
        },
      });
      statuses[evidence.status] = (statuses[evidence.status] ?? 0) + 1;
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, parallel) }, worker));
  } finally {
    if (browser) await (await browser).close();
    fs.rmSync(stateDir, { recursive: true, force: true });
  }
  const result = {
    runs: runs.length,
    statuses,
    logins,
    pageLoads,
    pageMs,
    browserLaunchMs: launchMs,
    wallMs: Date.now() - started,
  };
  process.stdout.write(`BENCH-FLOOR ${JSON.stringify(result)}\n`);
}

main().catch((e: unknown) => {
  process.stderr.write(`floor: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
