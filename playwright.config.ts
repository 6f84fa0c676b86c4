import { defineConfig } from '@playwright/test';
import { chromiumLaunchOptions } from './lib/run/browser';
import { demoCredentialsFile, demoProfileB, demoRuns } from './demo/runs';
import { RUN_TIMEOUT_MS, settings, useDefaultRuns } from './lib/run/config';
import { allureResultsDir } from './lib/report/outputs';

/**
 * The report checks (docs/contract.md §8): per configured run, one group of tests in
 * tests/checks.spec.ts (its collection, then items 3 to 12). Nothing else runs here: unit tests
 * and self-tests have their own configs under `npm test`. Verdict files are written by the global
 * teardown from records the tests leave, so every `--reporter` gives the same files.
 */
// With no run configured, the bundled demo platform (started below) and its runs (docs/contract.md §1).
const DEMO_PORT = Number(process.env.L1_DEMO_PORT ?? 4173);
const DEMO_ORIGIN = `http://127.0.0.1:${DEMO_PORT}`;
const DEMO_PORTAL_B_ORIGIN = `http://127.0.0.1:${DEMO_PORT + 1}`;
useDefaultRuns(() => ({
  runs: demoRuns(DEMO_ORIGIN, DEMO_PORTAL_B_ORIGIN),
  profileB: demoProfileB(new URL(DEMO_PORTAL_B_ORIGIN).host),
  credentialsFile: demoCredentialsFile(DEMO_PORT),
}));
const { mode } = settings();
const workers = Number(process.env.L1_WORKERS ?? 2);
/**
 * `--list` changes nothing: global setup and teardown do not run, and allure-playwright, which
 * would write a "skipped" result for every listed test, is left out.
 */
const listing = process.argv.includes('--list');

export default defineConfig({
  testDir: 'tests',
  testMatch: /checks\.spec\.ts$/,
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  retries: 0,
  workers,
  globalSetup: './tests/setup/global.setup.ts',
  globalTeardown: './tests/setup/global.teardown.ts',
  outputDir: 'test-results/checks',
  reporter: [
    ['list'],
    // A CI shard (scripts/ci/shard.sh) also writes a blob report for `playwright merge-reports`.
    ...(process.env.PLAYWRIGHT_BLOB_OUTPUT_DIR ? [['blob'] as const] : []),
    ...(listing
      ? []
      : [
          [
            'allure-playwright',
            { resultsDir: allureResultsDir(), detail: false, suiteTitle: false },
          ] as const,
        ]),
  ],
  // The first test of a run collects it within its own budget (L1_RUN_TIMEOUT_MS).
  timeout: RUN_TIMEOUT_MS + 60_000,
  use: {
    // Credentials are typed and sent during collection: no trace, screenshot or video anywhere.
    trace: 'off',
    screenshot: 'off',
    video: 'off',
    launchOptions: chromiumLaunchOptions(),
  },
  webServer:
    mode === 'demo'
      ? {
          command: 'npx tsx demo/server.ts',
          url: `${DEMO_ORIGIN}/healthz`,
          reuseExistingServer: !process.env.CI,
          env: { L1_DEMO_PORT: String(DEMO_PORT) },
          stdout: 'ignore',
          stderr: 'pipe',
          timeout: 60_000,
          gracefulShutdown: { signal: 'SIGTERM', timeout: 3000 },
        }
      : undefined,
});
