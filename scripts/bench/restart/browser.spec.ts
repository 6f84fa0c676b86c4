import { expect, test } from '@playwright/test';

const fail = process.env.BENCH_RESTART_FAIL === '1';

// `browser` is worker-scoped: launched once per worker, so once per restart when tests fail.
for (let i = 0; i < 30; i++) {
  test(`browser ${i}`, ({ browser }) => {
    expect(browser.isConnected() && !fail).toBe(true);
  });
}
