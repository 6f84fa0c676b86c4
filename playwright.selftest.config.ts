import { defineConfig } from '@playwright/test';

/**
 * Self-tests of the whole suite against the demo platform (part of `npm test`, not of the checks).
 * They run the real `npx playwright test` (and the main job, the CI scripts) as child processes
 * against the demo, which each self-test worker starts in-process (tests/selftest/harness.ts,
 * fixture `demo`), then read the verdict files, output, Allure results and the demo's counters.
 */
export const SELFTEST_DEMO_PORT = Number(process.env.L1_SELFTEST_DEMO_PORT ?? 4183);

export default defineConfig({
  testDir: 'tests/selftest',
  fullyParallel: false,
  // Two at a time: much of a self-test is waiting for a child invocation to start or stop. A file's
  // tests run in order, except in cli.spec.ts and signals.spec.ts (parallel mode: independent
  // invocations either worker takes). Each worker has its own demo (tests/selftest/harness.ts).
  workers: 2,
  forbidOnly: !!process.env.CI,
  reporter: [['list']],
  outputDir: '.l1/test-results/selftest',
  timeout: 240_000,
  use: { trace: 'off', screenshot: 'off', video: 'off' },
});
