// One stage of `npm test` (scripts/test.mjs): a command run to its end, or stopped at its time bound.
import fs from 'node:fs';
import os from 'node:os';
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { clearTimeout, setTimeout } from 'node:timers';

/**
 * `nice -n 19`, where the system has it (Linux, macOS): the stage starts at that priority, with
 * every thread it makes. Elsewhere Node's `os.setPriority` on the stage once started (its
 * threads made before may keep the default).
 */
const NICE = ['/usr/bin/nice', '/bin/nice'].find((f) => fs.existsSync(f));

/** How long a stage stopped at its bound has, after SIGINT, to end before SIGKILL. */
const GRACE_MS = 15_000;
/**
 * How long a stage's output may stay open after its process exited: what it started and left
 * holding the pipe (a hung tool's helper) is then killed, and the stage ends with its exit code.
 */
const DRAIN_MS = 3000;

/**
 * Gives a process's autogroup nice 19, where Linux has autogroups. Without root, the kernel takes
 * one such write every 100 ms across the system (EAGAIN otherwise), and the background stages
 * start together: the writes are queued 110 ms apart and retried for 3 s.
 */
let autogroupQueue = Promise.resolve();
function niceAutogroup(pid) {
  const attempt = (left) => {
    try {
      fs.writeFileSync(`/proc/${pid}/autogroup`, '19');
      return Promise.resolve();
    } catch (e) {
      // No autogroup here (not Linux, scheduling without it) or the process is gone: nice alone applies.
      if (e.code !== 'EAGAIN' || left === 0) return Promise.resolve();
      return new Promise((r) => setTimeout(r, 110)).then(() => attempt(left - 1));
    }
  };
  // Root is not rate-limited: its writes go at once.
  const root = process.getuid?.() === 0;
  autogroupQueue = autogroupQueue
    .then(() => attempt(27))
    .then(() => (root ? undefined : new Promise((r) => setTimeout(r, 110))));
  return autogroupQueue;
}

/** Sends `signal` to every process of a stage's group; false when none is left. */
function signalGroup(pid, signal) {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * Runs a stage: `[name, [cmd, ...args], { nice = true, limitS }]`, in a process group of its own.
 * In the foreground its output comes as it is written; in the background (niced unless `nice:
 * false`) it is kept, and `report()` prints it once the stage has ended.
 *
 * A stage still running after `limitS` seconds is sent SIGINT, as Ctrl-C sends it (Playwright
 * then stops its workers, browsers and web server and reports what it had; SIGTERM would end its
 * runner at once, its web server left running), then SIGKILL `graceMs` later (15 s), each to its
 * whole group: a tool that runs another (TypeScript 7's `tsc` runs its native compiler) is stopped
 * with it. It then fails with a line that names it and its bound, whatever its exit code: a hung
 * stage never holds `npm test` or CI until the job's own limit, and the other stages still report.
 * When the stage's process has exited, what is left of its group is killed, and its output is not
 * waited on for more than 3 s. `stop(why)` stops the group as Ctrl-C does (test.mjs passes on a
 * SIGINT, SIGTERM or SIGHUP it gets). Each stage is a session of its own, out of the reach of a
 * signal to `npm test`'s group, and its bound is kept by this process: a SIGKILL of `npm test`
 * leaves its running stages to end on their own.
 *
 * @example runStage(['unit tests', ['npx', 'playwright', 'test'], { limitS: 900 }], { root, foreground: true })
 */
export function runStage(
  [name, [cmd, ...args], { nice = true, limitS } = {}],
  { root, foreground, shown = (a) => a, graceMs = GRACE_MS },
) {
  const header = `\n=== ${name}: ${[cmd, ...args].map(shown).join(' ')}\n`;
  if (foreground) process.stdout.write(header);
  // The monotonic clock, as every duration of the suite (lib/util/clock.ts): a wall-clock step
  // during npm test (NTP, a resumed VM) made a stage's seconds as much wrong.
  const started = performance.now();
  const [file, argv] = !foreground && nice && NICE ? [NICE, ['-n', '19', cmd, ...args]] : [cmd, args];
  const child = spawn(file, argv, {
    cwd: root,
    env: process.env,
    stdio: foreground ? 'inherit' : 'pipe',
    detached: true,
  });
  if (!foreground && nice && child.pid !== undefined) {
    // Its own group is its own session (setsid), which Linux's autogroup scheduling weighs as one
    // against the others whatever the nice values inside it: the group's weight is set instead.
    // Without this the checks took an equal share of the cores from the unit tests (their wall
    // time 100 s against 82-90, the checks ending in 9-23 s against 26-64).
    void niceAutogroup(child.pid);
    if (!NICE)
      try {
        os.setPriority(child.pid, 19);
      } catch {
        // not allowed here: the stage runs at the tests' priority
      }
  }
  const chunks = [];
  if (!foreground) {
    child.stdout.on('data', (d) => chunks.push(d));
    child.stderr.on('data', (d) => chunks.push(d));
  }
  const say = (line) => {
    if (foreground) process.stdout.write(line);
    else chunks.push(Buffer.from(line));
  };
  let timedOut = false;
  let stoppedBy;
  let exitCode;
  let kill;
  let drain;
  const bound =
    limitS === undefined
      ? undefined
      : setTimeout(() => {
          timedOut = true;
          say(
            `\n=== ${name}: still running after its bound of ${limitS} s: stopped (SIGINT, SIGKILL after ${graceMs / 1000} s)\n`,
          );
          if (child.pid !== undefined) signalGroup(child.pid, 'SIGINT');
          kill = setTimeout(() => child.pid !== undefined && signalGroup(child.pid, 'SIGKILL'), graceMs);
        }, limitS * 1000);
  let result;
  const ended = new Promise((resolve) => {
    const done = (code) => {
      if (result) return;
      clearTimeout(bound);
      clearTimeout(kill);
      clearTimeout(drain);
      // Nothing of the stage outlives it (a process it started and left behind).
      if (child.pid !== undefined) signalGroup(child.pid, 'SIGKILL');
      result = {
        name,
        code: timedOut || stoppedBy ? code || 1 : code,
        s: ((performance.now() - started) / 1000).toFixed(1),
        ...(timedOut ? { timedOut: limitS } : {}),
        ...(stoppedBy && !timedOut ? { stoppedBy } : {}),
      };
      resolve(result);
    };
    child.on('error', () => done(1));
    child.on('exit', (code) => {
      exitCode = code ?? 1;
      // Its own process is done: the bound no longer applies; its output gets a short while.
      clearTimeout(bound);
      drain = setTimeout(() => {
        child.stdout?.destroy();
        child.stderr?.destroy();
        done(exitCode);
      }, DRAIN_MS);
    });
    child.on('close', (code) => done(exitCode ?? code ?? 1));
  });
  let reported = false;
  /** Prints a background stage's output once, if it has ended (or, with `wait`, when it ends). */
  const report = async (wait = false) => {
    if (reported || (!result && !wait)) return;
    await ended;
    reported = true;
    process.stdout.write(header + Buffer.concat(chunks).toString());
  };
  /**
   * Stops the stage as Ctrl-C does, whatever stopped `npm test` (`why`: SIGINT, SIGTERM, SIGHUP):
   * Playwright's runner dies at once on a SIGTERM, without its summary or its workers' teardown.
   */
  const stop = (why) => {
    if (result || child.pid === undefined) return;
    stoppedBy ??= why;
    signalGroup(child.pid, 'SIGINT');
  };
  return { ended, report, stop };
}

/** The summary line of a stage's result. */
export function stageLine(r) {
  const bound =
    r.timedOut !== undefined
      ? `, stopped at its bound of ${r.timedOut} s`
      : r.stoppedBy
        ? `, stopped by ${r.stoppedBy}`
        : '';
  return `${r.code === 0 ? '✅' : '❌'} ${r.name} (${r.s} s${bound})`;
}

/**
 * Runs `npm test`'s stages (scripts/test.mjs): the background ones from the start, the others one
 * after another, each background stage's output printed between them once it ended; then the
 * summary. Each stage is a process group of its own, which a Ctrl-C at the terminal does not reach:
 * a SIGINT, SIGTERM or SIGHUP this process gets stops every running stage as Ctrl-C does, and no
 * further stage starts. Returns the exit code: 0, 1 when a stage failed, or 128 + the signal's
 * number when one stopped it (130 for Ctrl-C), as a shell reports a command a signal ended.
 */
export async function runAll(background, stages, { root, shown, graceMs }) {
  const began = performance.now();
  const running = new Set();
  let stoppedBy;
  const onSignal = (signal) => {
    stoppedBy ??= signal;
    for (const stage of running) stage.stop(signal);
  };
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  for (const signal of signals) process.on(signal, onSignal);
  const start = (stage, foreground) => {
    // An undefined grace takes runStage's default.
    const run = runStage(stage, { root, shown, foreground, graceMs });
    running.add(run);
    void run.ended.then(() => running.delete(run));
    return run;
  };
  const checks = background.map((s) => start(s, false));
  const tests = [];
  for (const stage of stages) {
    if (stoppedBy) break;
    tests.push(await start(stage, true).ended);
    for (const c of checks) await c.report();
  }
  for (const c of checks) await c.report(true);
  for (const signal of signals) process.off(signal, onSignal);
  const results = [...(await Promise.all(checks.map((c) => c.ended))), ...tests];
  const notRun = stages.slice(tests.length).map(([name]) => name);
  process.stdout.write('\n=== npm test summary\n');
  for (const r of results) process.stdout.write(`${stageLine(r)}\n`);
  for (const name of notRun) process.stdout.write(`❌ ${name} (not run: ${stoppedBy})\n`);
  const failed = results.filter((r) => r.code !== 0).length + notRun.length;
  process.stdout.write(
    `${results.length + notRun.length - failed} passed, ${failed} failed (${((performance.now() - began) / 1000).toFixed(1)} s)${stoppedBy ? `, stopped by ${stoppedBy}` : ''}\n`,
  );
  return stoppedBy ? 128 + os.constants.signals[stoppedBy] : failed ? 1 : 0;
}
