import fs from 'node:fs';
import path from 'node:path';
import { invocationFolders, type Invocation } from '../run/invocation';
import type { ConfiguredRun } from '../run/runs';
import type { ProfileBSettings } from '../run/types';
import { ownerAlive, writePrivate } from '../run/state';
import { ITEMS } from '../rules/items';
import { writeInvocationFacts, writeNightExtras, type InvocationFacts } from './allure/facts';
import { runFolder } from './judged';
import { failedAttempts, readTestRecords } from './records';
import { summarize, type NightSummary } from './night';
import { recordedIncomplete, writeIncompleteRecord } from './allure/write-guard';
import { claimedSinceBy, noteAllureIncomplete, releaseOutputs } from './outputs';
import { INTERRUPTED_MARK, interruption, runVerdict } from './run-verdict';
import { byFile, writeNightFiles, writeVerdict, type VerdictEntry } from './verdict-folder';

/**
 * The end of an invocation, in one place: each run's verdict written again from what its tests
 * left (a run the stop cut short says it was interrupted), the night files (index.json,
 * summary.md, junit.xml), the Allure facts and grid, the output folders released, the private
 * state removed. The global teardown calls it; `npm run report` calls it for an invocation that
 * was killed (SIGKILL, out of memory, a crash) before it could, so nothing that finished is lost.
 */

/** What the setup of an invocation recorded so that it can be finished, also by another process. */
export interface Claim {
  pid: number;
  invocation: Invocation;
  runs: ConfiguredRun[];
  /** Whether allure-playwright writes this invocation's results (no `--reporter` replaced it). */
  allure: boolean;
  facts: Omit<InvocationFacts, 'baseUrls'>;
  keepState: boolean;
  /** Playwright's output folders, marked by the setup (lib/report/outputs.ts `markOutputDir`). */
  outputDirs?: string[];
  /**
   * The night's Profile B settings: a run it never started has the facts its URLs give, its profile
   * by them (lib/run/profile.ts `unreadRunFacts`). Kept here because the process that finishes a
   * killed night (`npm run report`) may not read the same settings: in demo mode it has none of the
   * demo's (review of 2026-11-28: its Profile B runs were written as A). None in a claim written
   * before it was kept: Profile A unless the URLs' host is said to be B nowhere, as then.
   */
  profileB?: ProfileBSettings;
}

const CLAIM = 'claimed.json';
const FINISHED = 'finished';

/**
 * A fresh start for an invocation folder whose id was used before (L1_INVOCATION_ID given again,
 * with L1_KEEP_STATE): the earlier invocation's judged runs, records and marks are not this one's
 * (a judged run found there would be read instead of collecting tonight's report).
 */
export function clearEarlierInvocation(invocationDir: string, runsDir: string): void {
  fs.rmSync(runsDir, { recursive: true, force: true });
  for (const mark of [FINISHED, INTERRUPTED_MARK]) fs.rmSync(path.join(invocationDir, mark), { force: true });
}

export function writeClaim(claim: Claim): void {
  writePrivate(path.join(claim.invocation.dir, CLAIM), JSON.stringify(claim));
}

export function readClaim(invocationDir: string): Claim | undefined {
  try {
    return JSON.parse(fs.readFileSync(path.join(invocationDir, CLAIM), 'utf8')) as Claim;
  } catch {
    return undefined;
  }
}

/**
 * Whether the runner of `claim` still runs: its process is alive and did not start after the
 * invocation (lib/run/state.ts `ownerAlive`), not any process that got its pid since.
 */
function claimRuns(claim: Claim): boolean {
  return ownerAlive(claim.pid, claim.invocation.startedAt);
}

/** Whether the invocation `id` of the state folder still runs (`claimRuns`). */
export function invocationAlive(stateDir: string, id: string): boolean {
  const claim = readClaim(invocationFolders(stateDir, id).dir);
  return claim !== undefined && claimRuns(claim);
}

function originOf(url: string): string[] {
  try {
    return [new URL(url).origin];
  } catch {
    return [];
  }
}

export interface Finished {
  summary: NightSummary;
  entries: VerdictEntry[];
  interrupted?: string;
  /**
   * The later invocation that claimed this one's output folders before it was finished (a night
   * killed, then the next night started without `npm run report`): nothing was written there.
   */
  takenBy?: string;
}

/** Playwright's own limits that stop an invocation before every selected test ran. */
export interface StopLimits {
  /** `--max-failures N` / `-x` (config `maxFailures`); 0 for none. */
  maxFailures: number;
  /** `--global-timeout` (config `globalTimeout`) in ms; 0 for none. */
  globalTimeoutMs: number;
}

/** The reason a run cut short by `--global-timeout` gives. */
function globalTimeoutStop(limits: StopLimits): string {
  return `the invocation stopped at its --global-timeout (${limits.globalTimeoutMs} ms)`;
}

/**
 * Why Playwright stopped the invocation itself, with no signal (`-x`, `--max-failures`,
 * `--global-timeout`): the number of failed attempts reached `--max-failures`, or a test of some
 * run never ended (Playwright interrupted it at the stop). Undefined when every test that started
 * ended and no limit was reached. The runs it cut short then say they were interrupted, and list
 * the items that ran, as after a SIGTERM: a verdict never reads as complete when items did not run.
 */
export function stoppedEarly(claim: Claim, limits: StopLimits): string | undefined {
  const folders = claim.runs.map((run) => runFolder(claim.invocation.runs, run.slug));
  const failed = () => folders.reduce((n, folder) => n + failedAttempts(folder), 0);
  if (limits.maxFailures > 0 && failed() >= limits.maxFailures && !everyTestEnded(claim, folders))
    return `the invocation stopped at --max-failures=${limits.maxFailures}`;
  const cut = folders.some((folder) =>
    readTestRecords(folder).some((r) => r.status === 'running' || r.status === 'interrupted'),
  );
  if (!cut) return undefined;
  return limits.globalTimeoutMs > 0
    ? globalTimeoutStop(limits)
    : 'the invocation stopped before every test ended';
}

/**
 * Whether every test of a whole invocation (every item, no shard) ended: the collection and each
 * item of every run. `-x` reached by the very last test stopped nothing, and the night must not say
 * it did. A partial selection or a shard cannot be told (Playwright does not say which tests it
 * selected): false.
 */
function everyTestEnded(claim: Claim, folders: readonly string[]): boolean {
  const { selection } = claim.invocation;
  if (!selection.complete || selection.shard) return false;
  const tests = ['collection', ...ITEMS.map((i) => String(i.item))];
  return folders.every((folder) => {
    const ended = new Set(
      readTestRecords(folder)
        .filter((r) => r.status !== 'running' && r.status !== 'interrupted')
        .map((r) => String(r.test)),
    );
    return tests.every((t) => ended.has(t));
  });
}

/**
 * Why the invocation stopped before every selected test ran, or undefined: a signal's mark, else
 * Playwright's own stop. At the runner's exit with no teardown run, the stop is the global
 * timeout when one is set (Playwright gives the teardown no time past it), or else an end the
 * teardown never saw.
 */
export function stopReason(claim: Claim, limits: StopLimits, atExit: boolean): string | undefined {
  const signal = interruption(claim.invocation);
  if (signal) return signal;
  if (atExit && limits.globalTimeoutMs > 0) return globalTimeoutStop(limits);
  return (
    stoppedEarly(claim, limits) ??
    (atExit ? 'the invocation ended before its global teardown ran' : undefined)
  );
}

export function finishInvocation(claim: Claim, interrupted = interruption(claim.invocation)): Finished {
  const inv = claim.invocation;
  const whole = inv.selection.complete && !inv.selection.shard;
  // A killed invocation's folders may have been claimed (and emptied) by a later one since: its
  // verdicts are gone with them, and writing the killed night's files there would replace the
  // later night's (docs/decisions.md § Outputs). Its state is removed all the same.
  const takenBy =
    claimedSinceBy(inv.outputs.verdicts, inv.id) ??
    (claim.allure ? claimedSinceBy(inv.outputs.allureResults, inv.id) : undefined);
  // Allure results that could not be written whole (a full disk): recorded in the output folders'
  // marks first, before the writes below that the same disk may refuse, and in the results folder
  // again (lib/report/allure/write-guard.ts). `npm run report` refuses them on either.
  const incomplete = claim.allure && !takenBy ? recordedIncomplete(inv.id, inv.dir) : undefined;
  if (incomplete !== undefined) {
    noteAllureIncomplete([inv.outputs.verdicts, inv.outputs.allureResults], inv.id, incomplete);
    writeIncompleteRecord(inv.outputs.allureResults, inv.id, incomplete);
  }
  const entries: VerdictEntry[] = [];
  for (const run of claim.runs) {
    // A run none of whose tests started here belongs to another shard or was filtered out.
    if (!fs.existsSync(runFolder(inv.runs, run.slug)) && !whole) continue;
    const file = `${run.slug}.json`;
    const verdict = runVerdict(run, inv, claim.profileB ?? {}, interrupted);
    if (!takenBy) writeVerdict(inv.outputs.verdicts, file, verdict);
    entries.push({ file, verdict });
  }
  entries.sort(byFile);
  const summary = summarize(
    entries.map((e) => e.verdict),
    inv.selection,
    interrupted,
  );
  if (takenBy) {
    markFinished(claim);
    return { summary, entries, takenBy, ...(interrupted ? { interrupted } : {}) };
  }
  writeNightFiles(inv.outputs.verdicts, entries, summary);
  if (claim.allure) {
    writeInvocationFacts(inv.outputs.allureResults, {
      ...claim.facts,
      baseUrls: [...new Set(entries.flatMap((e) => originOf(e.verdict.run.platformUrl)))],
    });
    writeNightExtras(inv.outputs.allureResults, summary);
  }
  releaseOutputs(inv.outputs, inv.id, claim.outputDirs, incomplete);
  markFinished(claim);
  return { summary, entries, ...(interrupted ? { interrupted } : {}) };
}

/** The invocation is finished: marked so, its private state (sessions, judged runs) removed. */
function markFinished(claim: Claim): void {
  fs.writeFileSync(path.join(claim.invocation.dir, FINISHED), new Date().toISOString(), { mode: 0o600 });
  if (!claim.keepState) fs.rmSync(claim.invocation.dir, { recursive: true, force: true });
}

/**
 * Finishes this process's own invocation, once: by its global teardown, or (`atExit`) at the
 * runner's exit when no teardown did. Undefined when there is nothing of this process's to finish
 * (its setup claimed nothing, another process claimed the folder, or it is finished already).
 */
export function finishOwnInvocation(
  invocationDir: string,
  limits: StopLimits,
  atExit: boolean,
): Finished | undefined {
  const claim = readClaim(invocationDir);
  if (!claim || claim.pid !== process.pid || fs.existsSync(path.join(invocationDir, FINISHED)))
    return undefined;
  return finishInvocation(claim, stopReason(claim, limits, atExit));
}

/**
 * At the runner's exit, finishes the invocation when its global teardown never ran: Playwright
 * gives the teardown no time past `--global-timeout` ("Timed out waiting … for the teardown"), and
 * the night's files would wait for `npm run report`. Synchronous, as an `exit` handler must be.
 *
 * What it could not write is said (`failed`), never thrown: Node drops an error thrown by an `exit`
 * handler of a process that is ending on an uncaught error, and a runner that died on a full disk
 * (allure-playwright's write) said nothing of its night left unfinished (file-system audit of
 * 2026-11-28). The invocation stays unfinished, for `npm run report` to finish.
 */
export function finishAtExit(
  invocationDir: string,
  limits: StopLimits,
): Finished | { failed: string } | undefined {
  try {
    return finishOwnInvocation(invocationDir, limits, true);
  } catch (e) {
    return {
      failed: `L1 verdicts: the night could not be finished as the runner exited (${e instanceof Error ? e.message : String(e)}): run npm run report once its folders can be written; it finishes the night from what is on disk`,
    };
  }
}

/**
 * Invocations under `stateDir` that claimed their outputs, whose process is gone and that never
 * finished: a SIGKILL, an out-of-memory kill, a crash. Finished here, their runs in flight marked
 * interrupted. Returns one line per invocation finished.
 */
export function finishKilledInvocations(stateDir: string): string[] {
  const dir = path.join(stateDir, 'invocations');
  const done: string[] = [];
  for (const name of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
    const folder = path.join(dir, name);
    const claim = readClaim(folder);
    // Its runner, not any process that got its pid since (a later start): a killed night whose
    // pid was taken was never finished, and the report wrote the index of its partial folder.
    if (!claim || fs.existsSync(path.join(folder, FINISHED)) || claimRuns(claim)) continue;
    const finished = finishInvocation(
      claim,
      interruption(claim.invocation) ?? 'the invocation was killed (SIGKILL, out of memory or a crash)',
    );
    done.push(
      finished.takenBy
        ? `invocation ${name} was killed, and invocation ${finished.takenBy} has written its output folder since (${claim.invocation.outputs.verdicts}): its ${finished.entries.length} verdict(s) are not written over that one's${claim.keepState ? '' : '; its state was removed'}`
        : `finished invocation ${name}, which was killed: ${finished.entries.length} verdict(s) in ${claim.invocation.outputs.verdicts}`,
    );
  }
  return done;
}
