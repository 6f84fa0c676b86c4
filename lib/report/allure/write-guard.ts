import fs from 'node:fs';
import path from 'node:path';

/**
 * allure-playwright writes an attachment in a promise nobody awaits at once (3.12: `onStepEnd`
 * queues `processAttachment`): when the write fails (a full disk, a results folder made read-only
 * or removed during the night), the rejection is unhandled and Node ends the runner. One
 * attachment it could not write stopped the whole night: the runs not yet checked were never
 * checked, and no index, summary or JUnit was written (file-system audit of 2026-11-28, a 2 MB
 * tmpfs). The runner takes such a rejection here instead: it says once which folder could not be
 * written and why, records it in the results folder (`npm run report` then refuses to build a
 * report that lacks what could not be written, so the main job exits 3), and the checks go on.
 * Any other unhandled rejection ends the runner as before.
 */

/** The record of results that could not be written whole: `l1-incomplete-<invocation id>.json`. */
export const INCOMPLETE = /^l1-incomplete-[\w.-]+\.json$/;

/** Whether `reason` is a file-system error of an Allure results write (allure-js-commons' writer). */
export function isAllureWriteError(reason: unknown): boolean {
  if (!(reason instanceof Error)) return false;
  const code = (reason as NodeJS.ErrnoException).code;
  return (
    typeof code === 'string' &&
    /^E[A-Z]+$/.test(code) &&
    /allure-(?:js-commons|playwright)/.test(reason.stack ?? '')
  );
}

/**
 * The runner's `unhandledRejection` handler for invocation `id`, whose Allure results go to
 * `resultsDir`; `say` writes one line where the suite's own lines go.
 */
export function allureWriteGuard(
  resultsDir: string,
  id: string,
  say: (line: string) => void,
): (reason: unknown) => void {
  let told = false;
  return (reason) => {
    if (!isAllureWriteError(reason)) throw reason;
    const message = (reason as Error).message;
    if (!told)
      say(
        `allure-playwright could not write to ${resultsDir} (${message}): the checks go on, and the Allure results of this invocation are incomplete (npm run report will not build a report of them)`,
      );
    told = true;
    try {
      fs.writeFileSync(
        path.join(resultsDir, `l1-incomplete-${id}.json`),
        `${JSON.stringify({ invocation: id, error: message })}\n`,
      );
    } catch {
      // The disk is still full: the report step fails on it as well.
    }
  };
}

/** Why the Allure results in `resultsDir` are incomplete, from the records left there, or undefined. */
export function incompleteResults(resultsDir: string): string | undefined {
  let names: string[];
  try {
    names = fs.readdirSync(resultsDir).filter((n) => INCOMPLETE.test(n));
  } catch {
    return undefined;
  }
  if (names.length === 0) return undefined;
  const errors = names.map((n) => {
    try {
      return String(
        (JSON.parse(fs.readFileSync(path.join(resultsDir, n), 'utf8')) as { error?: unknown }).error,
      );
    } catch {
      return 'a write failed';
    }
  });
  return `allure-playwright could not write every result to ${resultsDir} (${[...new Set(errors)].join('; ')}): a report of them would lack what it could not write`;
}
