import { chromium, expect, type Browser } from '@playwright/test';
import { suiteBaseTest } from '../../../fixtures/base';

const fail = process.env.BENCH_RESTART_FAIL === '1';

// The suite's base test type (fixtures/base.ts: Playwright's root test type with `launchOptions`
// from the config's `use`), with one worker-scoped Chromium, as the suite's Collector launches it.
// Not fixtures/index.ts: it brings the suite's modules, which the `suite` kind measures.
const test = suiteBaseTest.extend<object, { browser: Browser }>({
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
