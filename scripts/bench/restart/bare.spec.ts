import { expect, test } from '@playwright/test';

const fail = process.env.BENCH_RESTART_FAIL === '1';

const count = Number(process.env.BENCH_TESTS ?? 30);

for (let i = 0; i < count; i++) {
  test(`bare ${i}`, () => {
    expect(fail ? 1 : 0).toBe(0);
  });
}
