import { defineConfig } from '@playwright/test';
import { decideOutputs } from '../../../lib/report/outputs';
import { chromiumLaunchOptions } from '../../../lib/run/browser';
import { beginInvocation } from '../../../lib/run/invocation';
import { settings } from '../../../lib/run/settings';

/**
 * The worker-restart micro-benchmark (scripts/bench/restart.ts): one worker, the same tests once
 * passing and once failing (BENCH_RESTART_FAIL=1). Playwright replaces its worker after every
 * failed test, so the difference divided by the failures is the cost of one restart.
 * BENCH_RESTART_KIND: bare (Playwright's root test type, nothing of the suite's), browser (the same
 * with a worker-scoped Chromium), suite (the suite's fixtures and forEachRun over a part of L1_RUNS,
 * as tests/checks.spec.ts declares its tests).
 */
// The breakdown (scripts/bench/breakdown.ts) also runs the bare tests with 2 workers, with
// allure-playwright next to dot (BENCH_REPORTER=allure) and BENCH_TESTS of them.
const allure = process.env.BENCH_REPORTER === 'allure';

// The suite's fixtures keep a run's records in the invocation's folder: begun as the suite's config does.
if (process.env.BENCH_RESTART_KIND === 'suite') {
  const config = settings();
  beginInvocation(config, process.argv, (selection, _id, now) => decideOutputs(config, selection, now));
}

export default defineConfig({
  testDir: '.',
  testMatch: new RegExp(`${process.env.BENCH_RESTART_KIND ?? 'bare'}\\.spec\\.ts$`),
  fullyParallel: false,
  workers: Number(process.env.BENCH_WORKERS ?? 1),
  retries: 0,
  reporter: allure
    ? [
        ['dot'],
        ['allure-playwright', { resultsDir: '../../../test-results/bench/breakdown-allure', detail: false }],
      ]
    : 'dot',
  outputDir: '../../../test-results/bench/restart-output',
  // The root test type has no trace, screenshot or video fixture: launchOptions is its one option.
  use: { launchOptions: chromiumLaunchOptions() },
});
