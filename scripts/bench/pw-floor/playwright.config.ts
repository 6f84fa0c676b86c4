import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { chromiumLaunchOptions } from '../../../lib/run/browser';
import { RUN_PARTS } from '../../../lib/run/runs';
import { PW_FLOOR_AUTH_ENV, PW_FLOOR_OUT, PW_FLOOR_PARTS, PW_FLOOR_STATUS } from './paths';

/**
 * The Playwright floor of the benchmark (scripts/bench/pw-floor/declare.ts), with L1_RUNS and the
 * rest of the suite's settings from the environment:
 *
 *   npx playwright test -c scripts/bench/pw-floor/playwright.config.ts
 *
 * The runner (not its workers) writes one test file per part of the runs, as tests/checks/ holds
 * one per part (a worker copies a part's tests per group), empties the runs' statuses and makes
 * the workers' shared sessions folder (./paths.ts).
 */
if (process.env.TEST_WORKER_INDEX === undefined) {
  const auth = fs.mkdtempSync(path.join(os.tmpdir(), 'l1-pw-floor-auth-'));
  process.env[PW_FLOOR_AUTH_ENV] = auth;
  process.once('exit', () => fs.rmSync(auth, { recursive: true, force: true }));
  for (const dir of [PW_FLOOR_STATUS, PW_FLOOR_PARTS]) fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(PW_FLOOR_STATUS, { recursive: true });
  fs.mkdirSync(PW_FLOOR_PARTS, { recursive: true });
  const declare = JSON.stringify(path.join(__dirname, 'declare'));
  for (let part = 0; part < RUN_PARTS; part++)
    fs.writeFileSync(
      path.join(PW_FLOOR_PARTS, `part-${String(part).padStart(2, '0')}.spec.ts`),
      `import { declareFloorTests } from ${declare};\n\ndeclareFloorTests(${part});\n`,
    );
}

export default defineConfig({
  testDir: PW_FLOOR_PARTS,
  testMatch: /part-\d\d\.spec\.ts$/,
  fullyParallel: false,
  workers: 2,
  retries: 0,
  reporter: 'dot',
  outputDir: path.join(PW_FLOOR_OUT, 'output'),
  use: { launchOptions: chromiumLaunchOptions() },
});
