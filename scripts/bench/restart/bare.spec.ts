import { expect, test } from '@playwright/test';

const fail = process.env.BENCH_RESTART_FAIL === '1';

for (let i = 0; i < 30; i++) {
  test(`bare ${i}`, () => {
    expect(fail ? 1 : 0).toBe(0);
  });
}
