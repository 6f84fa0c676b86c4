import { defineConfig } from '@playwright/test';

/** Unit tests of lib/: pure functions, no browser, no server (part of `npm test`, not of the checks). */
export default defineConfig({
  testDir: 'tests/unit',
  fullyParallel: true,
  // Playwright's default is half the cores: one worker on the 2-core CI machines.
  workers: 2,
  forbidOnly: !!process.env.CI,
  reporter: [['list']],
  // Not under test-results/, a default output of the checks that the main job's guard scans: the
  // main-job unit tests run that guard, and a failing unit test's error context (fake secrets of
  // its data) failed them too, with exit 3. `npm test`'s own guard stage scans it by name.
  outputDir: '.l1/test-results/unit',
  timeout: 10_000,
});
