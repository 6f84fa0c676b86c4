import path from 'node:path';
import { projectTool } from '../../lib/run/settings';
import { runTree } from './proc-tree';

/**
 * The cost of one worker restart (Playwright starts a new worker after every failed test): the
 * same tests in one worker, passing then failing; (failing − passing) / failures. Kinds: `bare`
 * (30 tests on Playwright's root test type, which the suite's tests extend; nothing of the suite's
 * imported), `browser` (30 tests using the worker-scoped Chromium, relaunched by every new worker),
 * `suite` (the suite's fixtures and forEachRun over the first part of a runs file of N runs, 3 runs
 * × 11 tests selected with --grep: every new worker declares the part's N/16 × 11 tests, as in the
 * suite).
 */
export interface RestartFigure {
  kind: string;
  tests: number;
  passS: number;
  failS: number;
  perRestartMs: number;
}

export async function benchRestart(
  root: string,
  env: NodeJS.ProcessEnv,
  logDir: string,
  kinds: { kind: 'bare' | 'browser' | 'suite'; label: string; runsFile?: string }[],
): Promise<RestartFigure[]> {
  const figures: RestartFigure[] = [];
  const config = path.join('scripts', 'bench', 'restart', 'playwright.config.ts');
  for (const { kind, label, runsFile } of kinds) {
    const times: Record<string, number> = {};
    let tests = 0;
    for (const fail of ['0', '1']) {
      const args = ['test', '-c', config, ...(kind === 'suite' ? ['--grep', 'model-00[012]-'] : [])];
      const run = await runTree(projectTool('playwright'), args, {
        cwd: root,
        env: {
          ...env,
          BENCH_RESTART_KIND: kind,
          BENCH_RESTART_FAIL: fail,
          ...(runsFile ? { L1_RUNS: runsFile } : {}),
        },
        timeoutMs: 600_000,
        logFile: path.join(logDir, `restart-${label}-${fail === '1' ? 'fail' : 'pass'}.log`),
      });
      const counted = [...run.output.matchAll(/^\s+(\d+) (passed|failed)/gm)].reduce(
        (s, m) => s + Number(m[1]),
        0,
      );
      // A figure only when the tests did what they are for: all passing, then all failing.
      const expected = new RegExp(`^\\s+(\\d+) ${fail === '1' ? 'failed' : 'passed'}\\b`, 'm').exec(
        run.output,
      );
      if (!expected || Number(expected[1]) !== counted)
        throw new Error(
          `bench: restart ${label}: expected every test to ${fail === '1' ? 'fail' : 'pass'}, got:\n${run.output.slice(-2000)}`,
        );
      tests = Math.max(tests, counted);
      times[fail] = run.wallMs / 1000;
    }
    const passS = times['0']!;
    const failS = times['1']!;
    figures.push({
      kind: label,
      tests,
      passS,
      failS,
      perRestartMs: ((failS - passS) * 1000) / Math.max(1, tests),
    });
  }
  return figures;
}
