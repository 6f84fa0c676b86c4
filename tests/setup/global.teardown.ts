import type { FullConfig } from '@playwright/test';
import { finishOwnInvocation, type Finished } from '../../lib/report/finish';
import { gridText } from '../../lib/report/night';
import { invocation } from '../../lib/run/invocation';
import { readTestArgv } from '../../lib/run/selection';
import { lastFailedNoneFound, stopLimits, suiteOutput } from './cli';
import { shownPath } from '../../lib/util/shown-path';

/**
 * Runs at the end of every invocation that ran tests, whatever `--reporter` says, and after Ctrl-C
 * or SIGTERM: finishes the invocation (lib/report/finish.ts: verdicts, index, summary, JUnit,
 * Allure extras; runs the stop cut short say they were interrupted) and prints the grid. A stop of
 * Playwright's own (`-x`, `--max-failures`, `--global-timeout`) cuts runs short like a signal.
 */
export default function globalTeardown(config: FullConfig): void {
  const out = suiteOutput(config);
  // Only this process's claim: an invocation id given again (L1_INVOCATION_ID with L1_KEEP_STATE)
  // finds the claim of an earlier invocation, which is not this one's to finish.
  const finished = finishOwnInvocation(invocation().dir, stopLimits(config), false);
  if (!finished) {
    if (!readTestArgv(process.argv).options.has('--last-failed'))
      out.write('\nL1 verdicts: none written (the invocation stopped before its tests ran)\n');
    return;
  }
  printVerdicts(finished, out);
  const noneFound = lastFailedNoneFound(process.argv, invocation().selection, {
    interrupted: finished.interrupted,
    verdicts: finished.summary.verdicts.length,
  });
  if (noneFound) out.write(`${noneFound}\n\n`);
}

/** The grid of a finished invocation, with where its verdicts are and what cut it short. */
export function printVerdicts({ summary, interrupted }: Finished, out: NodeJS.WriteStream): void {
  const inv = invocation();
  const where = shownPath(inv.outputs.verdicts);
  const scope = [
    inv.selection.shard ? `shard ${inv.selection.shard}` : '',
    inv.selection.complete
      ? ''
      : `partial: ${inv.selection.filters.join(' ')} (verdicts list the items that ran)`,
    interrupted ?? '',
  ].filter(Boolean);
  const grid = gridText(summary);
  out.write(`\nL1 verdicts (${where}${scope.length ? ` · ${scope.join(' · ')}` : ''}):\n${grid}\n\n`);
}
