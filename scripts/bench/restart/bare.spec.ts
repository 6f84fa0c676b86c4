import { _baseTest as test, expect } from '@playwright/test';

// Playwright's root test type, the one the suite's tests extend (fixtures/base.ts): what a bare
// test costs the suite, without the browser fixtures `test` from @playwright/test sets up for each.

const fail = process.env.BENCH_RESTART_FAIL === '1';

const count = Number(process.env.BENCH_TESTS ?? 30);

for (let i = 0; i < count; i++) {
  test(`bare ${i}`, () => {
    expect(fail ? 1 : 0).toBe(0);
  });
}
