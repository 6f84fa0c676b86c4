import { defineConfig } from '@playwright/test';

/** Unit tests of lib/: pure functions, no browser, no server (part of `npm test`, not of the checks). */
export default defineConfig({
  testDir: 'tests/unit',
  fullyParallel: true,
  // Playwright's default is half the cores: one worker on the 2-core CI machines.
  workers: 2,
  forbidOnly: !!process.env.CI,
  reporter: [['list']],
  outputDir: 'test-results/unit',
  timeout: 10_000,
});
