import { _baseTest, chromium, expect, type Browser, type LaunchOptions } from '@playwright/test';

const fail = process.env.BENCH_RESTART_FAIL === '1';

// Playwright's root test type, as the suite's tests extend it (fixtures/index.ts suiteBaseTest:
// `launchOptions` a worker option, from the config's `use`), with one worker-scoped Chromium, as
// the suite's Collector launches it. Declared here, not imported: fixtures/index.ts brings the
// suite's modules, which the `suite` kind measures. `test` from @playwright/test would add its
// browser fixtures' set-up to every test, which the suite does not have.
const test = _baseTest.extend<object, { launchOptions: LaunchOptions; browser: Browser }>({
  launchOptions: [{}, { option: true, scope: 'worker' }],
  browser: [
    async ({ launchOptions }, use) => {
      const browser = await chromium.launch(launchOptions);
      await use(browser);
      await browser.close();
    },
    { scope: 'worker' },
  ],
});

// `browser` is worker-scoped: launched once per worker, so once per restart when tests fail.
for (let i = 0; i < 30; i++) {
  test(`browser ${i}`, ({ browser }) => {
    expect(browser.isConnected() && !fail).toBe(true);
  });
}
