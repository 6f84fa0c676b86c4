import fs from 'node:fs';
import path from 'node:path';
import { readOr, writePrivate } from '../../run/state';

/**
 * allure-playwright writes an attachment in a promise nobody awaits at once (3.12: `onStepEnd`
 * queues `processAttachment`): when the write fails (a full disk, a results folder made read-only
 * or removed during the night), the rejection is unhandled and Node ends the runner. One
 * attachment it could not write stopped the whole night: the runs not yet checked were never
 * checked, and no index, summary or JUnit was written (file-system audit of 2026-11-28, a 2 MB
 * tmpfs). The runner takes such a rejection here instead: it says once which folder could not be
 * written and why, records it, and the checks go on: `npm run report` then refuses to build a
 * report that lacks what could not be written, so the main job exits 3. Any other unhandled
 * rejection ends the runner as before.
 *
 * The record in the results folder alone was lost with the write it records (a full disk writes
 * neither), and once space was freed `npm run report` built a report of incomplete results without
 * a word (review of 2026-11-28). So the fact is also kept in this process, in the invocation's
 * state folder (`INCOMPLETE_STATE`, read by whoever finishes it: its teardown, or `npm run report`
 * for a killed one), and the finish writes it into the output folders' marks
 * (lib/report/outputs.ts `noteAllureIncomplete`) and tries the results folder's record again.
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

/** The record of incomplete Allure results in the invocation's state folder (beside its claim). */
export const INCOMPLETE_STATE = 'allure-incomplete.json';

/** What this process recorded, by invocation id (the runner's teardown runs in the same process). */
const KEY = Symbol.for('l1-verify.allure-incomplete');
function heldHere(): Map<string, string> {
  const g = globalThis as { [KEY]?: Map<string, string> };
  return (g[KEY] ??= new Map<string, string>());
}

const record = (id: string, error: string) => `${JSON.stringify({ invocation: id, error })}\n`;

/**
 * Writes the results folder's record of invocation `id` (`l1-incomplete-<id>.json`); false when it
 * cannot be written (the disk is still full).
 */
export function writeIncompleteRecord(resultsDir: string, id: string, error: string): boolean {
  try {
    fs.writeFileSync(path.join(resultsDir, `l1-incomplete-${id}.json`), record(id, error));
    return true;
  } catch {
    return false;
  }
}

/**
 * The runner's `unhandledRejection` handler for invocation `id`, whose Allure results go to
 * `resultsDir` and whose state folder is `invocationDir`; `say` writes one line where the suite's
 * own lines go.
 */
export function allureWriteGuard(
  resultsDir: string,
  id: string,
  say: (line: string) => void,
  invocationDir?: string,
): (reason: unknown) => void {
  let told = false;
  let recorded = false;
  let kept = false;
  return (reason) => {
    if (!isAllureWriteError(reason)) throw reason;
    const message = (reason as Error).message;
    if (!told)
      say(
        `allure-playwright could not write to ${resultsDir} (${message}): the checks go on, and the Allure results of this invocation are incomplete (npm run report will not build a report of them)`,
      );
    told = true;
    if (!heldHere().has(id)) heldHere().set(id, message);
    // The first error, in every record: the results folder's was rewritten with each failed
    // attachment's (one more write to a full disk each time) and said another error than the state's.
    const first = heldHere().get(id) ?? message;
    if (!recorded) recorded = writeIncompleteRecord(resultsDir, id, first);
    if (kept || invocationDir === undefined) return;
    try {
      writePrivate(path.join(invocationDir, INCOMPLETE_STATE), record(id, first));
      kept = true;
    } catch {
      // The state folder's disk is full too: this process's record is left, for its teardown.
    }
  };
}

/**
 * Why invocation `id`'s Allure results are incomplete, as this process or its state folder
 * `invocationDir` recorded it (the first error); undefined when neither did.
 */
export function recordedIncomplete(id: string, invocationDir: string): string | undefined {
  const here = heldHere().get(id);
  if (here !== undefined) return here;
  const text = readOr(path.join(invocationDir, INCOMPLETE_STATE), '');
  return text === '' ? undefined : errorOf(text);
}

/** The error a record (`record`) says, or 'a write failed' where it says none (cut short: a full disk). */
function errorOf(text: string): string {
  try {
    return String((JSON.parse(text) as { error?: unknown }).error ?? 'a write failed');
  } catch {
    return 'a write failed';
  }
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
  const errors = names.map((n) => errorOf(readOr(path.join(resultsDir, n), '')));
  return `allure-playwright could not write every result to ${resultsDir} (${[...new Set(errors)].join('; ')}): a report of them would lack what it could not write`;
}
