import { expect, forEachRun, test } from '../../../fixtures';

const fail = process.env.BENCH_RESTART_FAIL === '1';

/**
 * Declared as tests/checks.spec.ts declares the real ones: every run of L1_RUNS, collection + ten
 * items each, with the suite's fixtures (no collection: the tests do not ask for evidence). The
 * benchmark runs a few runs with --grep; every new worker still loads and declares them all.
 */
forEachRun(() => {
  for (let i = 0; i < 11; i++) {
    test(`suite ${i}`, () => {
      expect(fail ? 1 : 0).toBe(0);
    });
  }
});
