import { defineConfig } from '@playwright/test';
import { chromiumLaunchOptions } from './lib/run/browser';
import { DEMO_ORIGIN, DEMO_PORT, REQUEST_TIMEOUT_MS, settings } from './lib/run/config';

/**
 * The report checks (contract section 8): auth (one login per company and host) → collect (one
 * evidence set per run) → checks (items 3-12, one test per run per item). Nothing else runs here:
 * unit tests and self-tests have their own configs under `npm test`.
 */
const { mode } = settings();
const workers = Number(process.env.L1_WORKERS ?? 2);
const allureResultsDir = process.env.L1_ALLURE_RESULTS_DIR || 'allure-results';

export default defineConfig({
  testDir: 'tests',
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  retries: 0,
  workers,
  globalSetup: './tests/setup/global.setup.ts',
  outputDir: 'test-results/checks',
  reporter: [
    // First: it empties the verdict and Allure folders of an earlier invocation.
    ['./lib/report/reporter.ts', { allureResultsDir }],
    ['list'],
    ['allure-playwright', { resultsDir: allureResultsDir, detail: false, suiteTitle: false }],
  ],
  // Collection waits on the page and the endpoints, each bounded by the request timeout (with retries).
  timeout: 6 * REQUEST_TIMEOUT_MS + 30_000,
  use: {
    // Credentials are typed and sent in setup: no trace, screenshot or video anywhere (toolchain.md).
    trace: 'off',
    screenshot: 'off',
    video: 'off',
    launchOptions: chromiumLaunchOptions(),
  },
  projects: [
    { name: 'auth', testMatch: /setup[\\/]auth\.setup\.ts/ },
    { name: 'collect', testMatch: /setup[\\/]collect\.setup\.ts/, dependencies: ['auth'] },
    { name: 'checks', testMatch: /items[\\/]item\d+\.spec\.ts/, dependencies: ['collect'] },
  ],
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
