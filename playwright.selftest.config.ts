import { defineConfig } from '@playwright/test';

/**
 * Self-tests of the whole suite against the demo platform (part of `npm test`, not of the checks).
 * They run the real `npx playwright test` as a child process with L1_RUNS pointing at this demo
 * server, then read its verdict files, output and the demo's request counts.
 */
export const SELFTEST_DEMO_PORT = Number(process.env.L1_SELFTEST_DEMO_PORT ?? 4183);

export default defineConfig({
  testDir: 'tests/selftest',
  fullyParallel: false,
  workers: 1,
  forbidOnly: !!process.env.CI,
  reporter: [['list']],
  outputDir: 'test-results/selftest',
  timeout: 240_000,
  use: { trace: 'off', screenshot: 'off', video: 'off' },
  webServer: {
    command: 'npx tsx demo/server.ts',
    url: `http://127.0.0.1:${SELFTEST_DEMO_PORT}/healthz`,
    reuseExistingServer: false,
    env: { L1_DEMO_PORT: String(SELFTEST_DEMO_PORT), L1_DEMO_SLOW_MS: '6000' },
    stdout: 'ignore',
    stderr: 'pipe',
    timeout: 60_000,
    gracefulShutdown: { signal: 'SIGTERM', timeout: 3000 },
  },
});
