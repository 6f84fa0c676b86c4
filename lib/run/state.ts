import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { writeAtomic } from '../util/atomic';
import { stopwatch } from '../util/clock';

/** Folders this process has made private already (a test record is written twice per test). */
const madePrivate = new Set<string>();

/** mkdir -p with 0700 on every folder it creates or owns (an existing folder keeps its mode otherwise). */
export function privateDir(dir: string): string {
  if (madePrivate.has(dir) && fs.existsSync(dir)) return dir;
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.chmodSync(dir, 0o700);
  madePrivate.add(dir);
  return dir;
}

/** Writes a file readable by its owner only, atomically (lib/util/atomic.ts). */
export function writePrivate(file: string, content: string | Buffer): void {
  privateDir(path.dirname(file));
  writeAtomic(file, content, { private: true });
}

/**
 * Appends to a file readable by its owner only, creating it if need be, in one write (a test's
 * line in its run's log, lib/report/records.ts). On Linux, writes to a file opened for appending
 * do not interleave, so two processes appending at once each add whole lines.
 */
export function appendPrivate(file: string, content: string): void {
  privateDir(path.dirname(file));
  fs.appendFileSync(file, content, { mode: 0o600 });
}

/**
 * Whether a process still runs (a lock or claim whose owner is gone may be taken over). A killed
 * process that nobody has reaped yet (a zombie: its parent was killed with it) does not run.
 */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true; // no /proc (not Linux): kill(0) said it runs
  }
}

/**
 * When process `pid` started, in ms since the epoch (Linux /proc: its start in clock ticks after
 * boot, 100 a second, and the boot time in whole seconds); undefined where that cannot be read.
 */
export function processStartMs(pid: number): number | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const ticks = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
    const boot = Number(/^btime (\d+)$/m.exec(fs.readFileSync('/proc/stat', 'utf8'))?.[1]);
    return Number.isFinite(ticks) && boot > 0 ? boot * 1000 + ticks * 10 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether the process that began something at `startedAt` (an ISO time) still runs: `pid` is
 * alive and did not start after it (a process that got the pid of a killed runner since is not
 * that runner, and never blocks a night). Where the start cannot be told, alive is enough.
 */
export function ownerAlive(pid: number, startedAt: string): boolean {
  if (!processAlive(pid)) return false;
  const began = Date.parse(startedAt);
  const start = processStartMs(pid);
  // Boot time is in whole seconds: 2 s of slack.
  return Number.isNaN(began) || start === undefined || start <= began + 2000;
}

/**
 * How long a lock folder may be without its owner's pid: the owner writes it right after making
 * the folder, so one older than this was left by a process killed in between, or whose pid write
 * failed (a full disk).
 */
const LOCK_WITHOUT_PID_MS = 5000;

/**
 * A cross-process lock (mkdir is atomic). A lock whose owner process is gone is taken over, and so
 * is one that never got its owner's pid (LOCK_WITHOUT_PID_MS): every other run of the account
 * waited `waitMs` for it, then failed "held by process 0" (file-system audit of 2026-11-28).
 * `wait` bounds how long to wait for another owner; the returned function releases it.
 */
export async function withLock<T>(lockDir: string, waitMs: number, body: () => Promise<T>): Promise<T> {
  privateDir(path.dirname(lockDir));
  for (const tries = lockTries(lockDir, waitMs); !tries.next().done;)
    await new Promise((r) => setTimeout(r, 50));
  try {
    return await body();
  } finally {
    releaseLock(lockDir);
  }
}

/**
 * `withLock` for a short body that must not yield (a check and the write it decides: claiming the
 * output folders), waiting without the event loop. The lock folder's parent is made as any folder
 * (not private): it is the parent of an output folder.
 */
export function withLockSync<T>(lockDir: string, waitMs: number, body: () => T): T {
  fs.mkdirSync(path.dirname(lockDir), { recursive: true });
  for (const tries = lockTries(lockDir, waitMs); !tries.next().done;)
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
  try {
    return body();
  } finally {
    releaseLock(lockDir);
  }
}

/**
 * The tries at `lockDir` of `withLock` and `withLockSync`: done when taken; yields where the caller
 * waits before the next (a live owner holds it), tries again at once after a takeover (`'again'`),
 * and throws once `waitMs` is over. The wait is on the monotonic clock (lib/util/clock.ts): a wall
 * clock stepped back during it (NTP, a resumed VM) made it as much longer. A takeover tried again
 * counts against it too: where one never ends (a file system whose rename moves a folder's time, so
 * each dead lock is put back as fresh), the loop held the event loop for good and no run's timeout
 * could fire (reviews of 2026-11-28). Past the wait, one takeover still gets its next try: the
 * lock it freed is not held by anyone.
 */
function* lockTries(lockDir: string, waitMs: number): Generator<void, void> {
  const waited = stopwatch();
  // Takeovers past the wait: the first gets its next try, for the lock it freed is free (an owner
  // that died in the last pause was refused as "held by process 0"); the one after, refused.
  let againPast = 0;
  for (let got = tryLock(lockDir); got !== true; got = tryLock(lockDir)) {
    if (waited() > waitMs && (got !== 'again' || againPast++ > 0))
      throw new LockHeld(lockDir, got === 'again' ? 0 : got, waitMs);
    if (got !== 'again') yield;
  }
}

/**
 * One try at `lockDir`: `true` when taken; `'again'` when it was left by an owner that is gone (or
 * whose pid a later process has: `takenAt`), or that never wrote its pid (LOCK_WITHOUT_PID_MS), and
 * is removed (`takeOver`); else the live owner's pid (0: not written yet).
 */
function tryLock(lockDir: string): true | 'again' | number {
  try {
    fs.mkdirSync(lockDir, { mode: 0o700 });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    // Which folder is judged: before its pid is read, so that a pid written since changes it too.
    const judged = folderIdentity(lockDir);
    if (judged === undefined) return 'again';
    const owner = Number(readOr(path.join(lockDir, 'pid'), '0'));
    if (!(owner ? !ownerAlive(owner, takenAt(lockDir)) : pidless(lockDir))) return owner;
    takeOver(lockDir, judged);
    return 'again';
  }
  try {
    // Only into a folder without a pid: a late waiter's put-back (`takeOver`) renames the fresh
    // lock it moved aside over the empty folder just made here (a rename replaces an empty folder),
    // and this pid written into that lock made two holders of it. That lock is its owner's: waited for.
    fs.writeFileSync(path.join(lockDir, 'pid'), String(process.pid), { flag: 'wx' });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    // ENOENT: the folder made here was renamed aside by a late waiter's takeover (`takeOver`), which
    // puts it back: tried again (it is waited for, pid-less, as any), never an error that failed
    // the run, and what is at the path now is not this process's to remove (review of 2026-11-28).
    if (code === 'EEXIST' || code === 'ENOENT') return 'again';
    // Not taken after all: the folder goes, so that no one waits for a lock nobody holds.
    fs.rmSync(lockDir, { recursive: true, force: true });
    throw e;
  }
  return true;
}

/**
 * Removes the lock folder judged left behind (`judged`, its `folderIdentity`), and only that one.
 * Two waiters judge the same dead owner's lock: the first removed it and took a fresh one, and the
 * second's removal, by path, then removed the FRESH lock, so both held it (review of 2026-11-28).
 * The folder is first renamed aside (atomic: of two waiters, one renames it, the other finds none),
 * then removed only if what was renamed is the folder judged; a fresh lock taken meanwhile is put
 * back at once, its owner none the wiser. Left open, both within the microseconds it is away: a
 * third waiter that makes the lock then (below), and an owner that releases it then (its lock is
 * put back after, naming a live process that holds it no more: waited for until it ends).
 */
function takeOver(lockDir: string, judged: string): void {
  // Short and in the same folder: a rename within it, whatever the lock's own name's length.
  const aside = path.join(
    path.dirname(lockDir),
    `.l1-lock-taken-${process.pid}-${crypto.randomBytes(4).toString('hex')}`,
  );
  try {
    fs.renameSync(lockDir, aside);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return; // another waiter took it over
    throw e;
  }
  if (folderIdentity(aside) === judged) {
    fs.rmSync(aside, { recursive: true, force: true });
    return;
  }
  try {
    fs.renameSync(aside, lockDir);
  } catch {
    // A third waiter made the lock and wrote its pid in the microseconds it was away, after a
    // takeover race: two hold the lock until the first ends (whose release leaves the third's
    // lock). Narrower than before (one waiter judging late sufficed). The folder aside is removed:
    // nothing else would, its owner's release looks for it where it was not, and it stayed for good.
    fs.rmSync(aside, { recursive: true, force: true });
  }
}

/**
 * A lock folder as it is now: its inode, its time in ns (its pid's write sets it) and its owner's
 * pid, which a rename keeps; undefined when it is gone. A fresh lock made in the same place
 * differs in one of them, but for its inode reused within one timer tick of the file system's
 * clock (1-4 ms) by the dead owner's pid.
 */
function folderIdentity(dir: string): string | undefined {
  try {
    // What is at the path itself, as a rename moves it: a broken symbolic link there is no folder
    // gone (tried again at once, forever, a runner hung) but a lock of no owner's pid, waited for.
    const s = fs.lstatSync(dir, { bigint: true });
    return `${s.dev}:${s.ino}:${s.mtimeNs}:${readOr(path.join(dir, 'pid'), '')}`;
  } catch {
    return undefined;
  }
}

/** A lock another process held for the whole wait: which lock, and its owner's pid (0: not written). */
export class LockHeld extends Error {
  constructor(
    readonly lockDir: string,
    readonly owner: number,
    waitMs: number,
  ) {
    super(`waited ${waitMs} ms for ${path.basename(lockDir)} held by process ${owner}`);
    this.name = 'LockHeld';
  }
}

/**
 * When the lock was taken, as an ISO time: its folder's time, which its owner's pid file set (`''`
 * when it cannot be read: its owner is then alive while its pid runs), a minute later
 * (LOCK_CLOCK_SLACK_MS). A process that started after it is not its owner but one that got the pid
 * of an owner killed since (a CI container numbers its processes from 1 again): the lock was waited
 * for to the end and refused every time, a claim's lock beside the output folders every night
 * (review of 2026-11-28).
 */
function takenAt(lockDir: string): string {
  try {
    return new Date(fs.statSync(lockDir).mtimeMs + LOCK_CLOCK_SLACK_MS).toISOString();
  } catch {
    return '';
  }
}

/**
 * A folder's time is the file system's clock, a server's on a network share, and a process's start
 * this machine's: an owner is never taken for a later process within a minute of their skew.
 */
const LOCK_CLOCK_SLACK_MS = 60_000;

/** Whether a lock folder has had no owner's pid for LOCK_WITHOUT_PID_MS (gone meanwhile: false). */
function pidless(lockDir: string): boolean {
  try {
    return Date.now() - fs.statSync(lockDir).mtimeMs > LOCK_WITHOUT_PID_MS;
  } catch {
    return false;
  }
}

/**
 * Released without a recursive walk (a lock folder holds its pid file only); one already gone (its
 * invocation was cleared meanwhile) is released, not an error that would replace the body's result.
 * A lock that names another process is that process's, not this one's to remove: one that a
 * third waiter took while this one's was renamed aside (`takeOver`).
 */
function releaseLock(lockDir: string): void {
  const owner = readOr(path.join(lockDir, 'pid'), '');
  if (owner !== '' && owner !== String(process.pid)) return;
  fs.rmSync(path.join(lockDir, 'pid'), { force: true });
  try {
    fs.rmdirSync(lockDir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
}

export function readOr(file: string, fallback: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return fallback;
  }
}

/** The state folder's folder of main-job handoffs (lib/report/outputs.ts handoffFile). */
export const HANDOFFS = 'handoffs';

/**
 * Removes invocation folders (and main-job handoffs) left by invocations that died more than a day
 * ago. `alive` tells an invocation id that still runs (lib/report/finish.ts `invocationAlive`): a
 * folder's time is when its last entry was made, mostly its start, and a night may run for more
 * than a day (L1_RUN_TIMEOUT_MS allows a week per run), so a `--grep` started beside it a day in
 * removed its sessions, judged runs and handoff as it ran (time audit of 2026-11-28).
 */
export function removeStaleInvocations(stateDir: string, alive: (id: string) => boolean = () => false): void {
  const dayAgo = Date.now() - 24 * 3600_000;
  for (const folder of ['invocations', HANDOFFS]) {
    const dir = path.join(stateDir, folder);
    for (const name of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
      const full = path.join(dir, name);
      try {
        if (fs.statSync(full).mtimeMs < dayAgo && !alive(name.replace(/\.json$/, '')))
          fs.rmSync(full, { recursive: true, force: true });
      } catch {
        // another invocation removed it first
      }
    }
  }
}
