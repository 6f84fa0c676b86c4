import fs from 'node:fs';
import path from 'node:path';
import type { FullConfig } from '@playwright/test';
import { reportOnStdout } from '../../lib/report/allure/reporters';
import type { StopLimits } from '../../lib/report/finish';
import { lastValue, readTestArgv } from '../../lib/run/selection';

/** Facts of the runner's command line that Playwright does not hand to global setup and teardown. */

const LAST_FAILED = Symbol.for('l1-verify.last-failed-tests');

/** How many failed tests `.last-run.json` in `outputDir` names (0 when there is none). */
function failedTestsIn(outputDir: string): number {
  try {
    const last = JSON.parse(fs.readFileSync(path.join(outputDir, '.last-run.json'), 'utf8')) as {
      failedTests?: unknown[];
    };
    return Array.isArray(last.failedTests) ? last.failedTests.length : 0;
  } catch {
    return 0; // no record of a last invocation: nothing to re-run either
  }
}

/**
 * Called by playwright.config.ts as the runner loads it: what `.last-run.json` names now. Playwright
 * reads that file for `--last-failed` before it empties the output folder, and global setup runs
 * after: read there, the file is always gone, and a re-run of failed tests was taken for "nothing
 * to re-run" (the setup then claimed no outputs, and the re-run got no index, summary or JUnit).
 * The first load counts; a later one (after the folder was emptied) does not overwrite it.
 */
export function rememberLastRun(outputDir: string): void {
  const store = globalThis as Record<symbol, unknown>;
  store[LAST_FAILED] ??= failedTestsIn(outputDir);
}

/**
 * The output folder `--output DIR` / `--output=DIR` gives on the command line (relative to the
 * current folder, as Playwright takes it), which replaces the config's `outputDir`: where
 * `--last-failed` reads `.last-run.json`. Undefined when none is given. (Playwright has no `-o`.)
 */
export function outputDirFromArgv(argv: readonly string[], cwd = process.cwd()): string | undefined {
  const given = lastValue(argv, '--output');
  return given ? path.resolve(cwd, given) : undefined;
}

/**
 * `--last-failed` when the last invocation failed nothing: Playwright finds no test; the suite
 * changes nothing and says so (instead of an empty folder of verdicts).
 */
export function nothingToRerun(argv: string[]): string | undefined {
  if (!readTestArgv(argv).options.has('--last-failed')) return undefined;
  // Not remembered (the config was not loaded in this process): the file is gone by now, so this
  // cannot be told; the invocation goes on, and Playwright says if it found no test.
  const failed = (globalThis as Record<symbol, unknown>)[LAST_FAILED];
  if (typeof failed !== 'number' || failed > 0) return undefined;
  return '--last-failed: the last invocation had no failed test, so there is nothing to re-run; no output was changed';
}

/** Playwright's own stops the invocation runs under (`-x`, `--max-failures`, `--global-timeout`). */
export function stopLimits(config: FullConfig): StopLimits {
  return { maxFailures: config.maxFailures, globalTimeoutMs: config.globalTimeout };
}

/**
 * Where the suite's own lines go: stdout, or stderr when a reporter writes its report there
 * (`--reporter=junit > results.xml`), so that the file is the report alone.
 */
export function suiteOutput(config: FullConfig): NodeJS.WriteStream {
  return reportOnStdout(config.reporter) ? process.stderr : process.stdout;
}
