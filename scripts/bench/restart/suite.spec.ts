import { expect, forEachRun, test } from '../../../fixtures';

const fail = process.env.BENCH_RESTART_FAIL === '1';

/**
 * Declared as tests/checks.spec.ts declares the real ones: the runs of one part of L1_RUNS
 * (lib/run/runs.ts runsOfPart: part 0 holds the first runs), collection + ten items each, with the
 * suite's fixtures (no collection: the tests do not ask for evidence). The benchmark runs the first
 * three runs with --grep; every new worker loads and declares the whole part, as a worker of the
 * suite does.
 */
forEachRun(0, () => {
  for (let i = 0; i < 11; i++) {
    test(`suite ${i}`, () => {
      expect(fail ? 1 : 0).toBe(0);
    });
  }
});
