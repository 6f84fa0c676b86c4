import fs from 'node:fs';
import path from 'node:path';
import type { Invocation } from '../run/invocation';
import type { ConfiguredRun } from '../run/runs';
import type { ProfileBSettings } from '../run/types';
import { settings } from '../run/settings';
import { judgedAt, readJudged, runFolder, type JudgedRun } from './judged';
import { readTestRecords } from './records';
import { suiteInfo } from './suite';
import { buildVerdict } from './verdict';
import { writeVerdict } from './verdict-folder';
import type { VerdictFile } from '../schema/verdict';

/**
 * Where a run's verdict file is written, and when (docs/decisions.md § Results that survive a
 * kill): by the run's own tests, in its invocation's verdict folder, as soon as its last selected
 * test ends — after item 12 when the invocation selected everything, after each test when it
 * selected some (the last write is the last test's) — so a killed invocation keeps the verdicts
 * of the runs it finished. The invocation's end (or `npm run report` after a kill) writes the
 * runs it stopped in the middle of, as interrupted.
 */
export const INTERRUPTED_MARK = 'interrupted';

/** Why the invocation stopped early (`the invocation was interrupted by SIGTERM`), when it did. */
export function interruption(invocation: Invocation): string | undefined {
  let text: string;
  try {
    text = fs.readFileSync(path.join(invocation.dir, INTERRUPTED_MARK), 'utf8');
  } catch {
    return undefined;
  }
  try {
    const { signal } = JSON.parse(text) as { signal?: string };
    return `the invocation was interrupted by ${signal ?? 'a signal'}`;
  } catch {
    return 'the invocation was interrupted';
  }
}

/**
 * What Playwright says when the page, context or browser a step used went away under it: closed,
 * disconnected, crashed, or a navigation Chromium aborted as it was stopped (`page.goto:
 * net::ERR_ABORTED`: a SIGTERM of the process group reaches Chromium too; with the two cores busy,
 * the self-test of that stop saw the run in flight end so, 2026-11-26, and its verdict said the
 * report page did not load).
 */
const CLOSED =
  /has been closed|browser (?:has )?(?:closed|disconnected)|target (?:page, context or browser )?closed|(?:page|target) crashed|net::ERR_ABORTED/i;

/** Whether a collection's reason says its page or browser went away under it (`CLOSED`). */
export function closedUnderIt(reason: string): boolean {
  return CLOSED.test(reason);
}

/**
 * Whether the run's collection ended in error because the stop began: after the stop was marked,
 * or, with a closed page or browser as its reason, shortly before (a SIGTERM of the process group
 * reaches Chromium as fast as the runner, so the page may close before the mark is written).
 */
function collectionCutShort(folder: string, invocation: Invocation, judged: JudgedRun | undefined): boolean {
  if (!judged || judged.status === 'checked') return false;
  const ended = judgedAt(folder);
  let stopped: number;
  try {
    stopped = fs.statSync(path.join(invocation.dir, INTERRUPTED_MARK)).mtimeMs;
  } catch {
    return false;
  }
  if (ended === undefined) return false;
  return ended >= stopped || (ended >= stopped - 10_000 && closedUnderIt(judged.reason ?? ''));
}

/**
 * The run's verdict from what its folder holds. `profileB`: the night's Profile B settings, for the
 * facts of a run it never started (the worker's settings; the claim's when another process
 * finishes the night, lib/report/finish.ts).
 */
export function runVerdict(
  run: ConfiguredRun,
  invocation: Invocation,
  profileB: ProfileBSettings,
  interrupted?: string,
): VerdictFile {
  const folder = runFolder(invocation.runs, run.slug);
  const judged = readJudged(folder);
  return buildVerdict(run, judged, readTestRecords(folder), {
    ...(interrupted && collectionCutShort(folder, invocation, judged) ? { collectionCutShort: true } : {}),
    selection: invocation.selection,
    profileB,
    suite: suiteInfo(),
    generatedAt: new Date().toISOString(),
    ...(invocation.night
      ? { night: { batchDate: invocation.night.batchDate, describe: invocation.night.describe } }
      : {}),
    ...(interrupted ? { interrupted } : {}),
  });
}

/** Writes the run's verdict file into the invocation's verdict folder (atomically). */
export function writeRunVerdict(run: ConfiguredRun, invocation: Invocation, interrupted?: string): string {
  return writeVerdict(
    invocation.outputs.verdicts,
    `${run.slug}.json`,
    // In a worker: its settings, the night's.
    runVerdict(run, invocation, settings().profileB, interrupted),
  );
}
