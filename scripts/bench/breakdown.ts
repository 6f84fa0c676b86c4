import fs from 'node:fs';
import path from 'node:path';
import { projectTool } from '../../lib/run/settings';
import { runTree } from './proc-tree';

/**
 * Where the suite's time goes besides its own work (README.md § Speed), measured on this machine
 * with the restart micro-benchmark's bare tests (scripts/bench/restart/): Playwright's own cost per
 * test (one file, so one worker runs them; dot reporter: 1,010 tests against 10), and what
 * allure-playwright adds per test (the same with allure-playwright as a second reporter).
 */
export interface BreakdownFigure {
  what: string;
  ms: number;
}

async function wall(root: string, env: NodeJS.ProcessEnv, logDir: string, tests: number, allure: boolean) {
  const run = await runTree(
    projectTool('playwright'),
    ['test', '-c', path.join('scripts', 'bench', 'restart', 'playwright.config.ts')],
    {
      cwd: root,
      env: {
        ...env,
        BENCH_RESTART_KIND: 'bare',
        BENCH_RESTART_FAIL: '0',
        BENCH_TESTS: String(tests),
        BENCH_WORKERS: '2',
        ...(allure ? { BENCH_REPORTER: 'allure' } : {}),
      },
      timeoutMs: 600_000,
      logFile: path.join(logDir, `breakdown-${tests}-${allure ? 'allure' : 'dot'}.log`),
    },
  );
  if (run.code !== 0) throw new Error(`bench breakdown: ${tests} bare tests exited ${run.code}`);
  return run.wallMs;
}

export async function benchBreakdown(
  root: string,
  env: NodeJS.ProcessEnv,
  logDir: string,
): Promise<BreakdownFigure[]> {
  const many = 1010;
  const few = 10;
  const dot =
    ((await wall(root, env, logDir, many, false)) - (await wall(root, env, logDir, few, false))) /
    (many - few);
  fs.rmSync(path.join(root, 'test-results', 'bench', 'breakdown-allure'), { recursive: true, force: true });
  const allure =
    ((await wall(root, env, logDir, many, true)) - (await wall(root, env, logDir, few, true))) / (many - few);
  fs.rmSync(path.join(root, 'test-results', 'bench', 'breakdown-allure'), { recursive: true, force: true });
  return [
    { what: "Playwright's own cost per test (one file, so one worker; dot)", ms: dot },
    { what: 'allure-playwright per test (its writes)', ms: Math.max(0, allure - dot) },
  ];
}
