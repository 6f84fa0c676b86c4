import fs from 'node:fs';
import path from 'node:path';
import type { FullConfig } from '@playwright/test';

/** Facts of the runner's command line that Playwright does not hand to global setup and teardown. */

/**
 * `--last-failed` when the last invocation failed nothing: Playwright finds no test; the suite
 * changes nothing and says so (instead of an empty folder of verdicts).
 */
export function nothingToRerun(argv: string[], config: FullConfig): string | undefined {
  if (!argv.includes('--last-failed')) return undefined;
  const outputDir = config.projects[0]?.outputDir ?? path.resolve('test-results');
  try {
    const last = JSON.parse(fs.readFileSync(path.join(outputDir, '.last-run.json'), 'utf8')) as {
      failedTests?: unknown[];
    };
    if (Array.isArray(last.failedTests) && last.failedTests.length > 0) return undefined;
  } catch {
    // no record of a last invocation: nothing to re-run either
  }
  return '--last-failed: the last invocation had no failed test, so there is nothing to re-run; no output was changed';
}
