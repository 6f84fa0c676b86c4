// One stage of `npm test` (scripts/test.mjs): a command run to its end, or stopped at its time bound.
import fs from 'node:fs';
import os from 'node:os';
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';
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
 * Runs a stage: `[name, [cmd, ...args], { nice = true, limitS }]`. In the foreground its output
 * comes as it is written; in the background (niced unless `nice: false`) it is kept, and
 * `report()` prints it once the stage has ended. `graceMs`: the tests' shorter grace. A stage still running after `limitS` seconds is
 * sent SIGINT, Playwright's own stop, as Ctrl-C (it then stops its workers, browsers and web
 * server and reports what it had; SIGTERM would end its runner at once, its web server left
 * running), then SIGKILL 15 s later, and fails with a line that names it and its bound: a hung stage never
 * hangs `npm test` or CI until the job's own limit, and the other stages still report.
 *
 * @example runStage(['unit tests', ['npx', 'playwright', 'test'], { limitS: 900 }], { root, foreground: true })
 */
export function runStage(
  [name, [cmd, ...args], { nice = true, limitS } = {}],
  { root, foreground, shown = (a) => a, graceMs = GRACE_MS },
) {
  const header = `\n=== ${name}: ${[cmd, ...args].map(shown).join(' ')}\n`;
  if (foreground) process.stdout.write(header);
  const started = Date.now();
  const [file, argv] = !foreground && nice && NICE ? [NICE, ['-n', '19', cmd, ...args]] : [cmd, args];
  const child = spawn(file, argv, { cwd: root, env: process.env, stdio: foreground ? 'inherit' : 'pipe' });
  if (!foreground && nice && !NICE && child.pid !== undefined) {
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
  let timedOut = false;
  let kill;
  const bound =
    limitS === undefined
      ? undefined
      : setTimeout(() => {
          timedOut = true;
          const line = `\n=== ${name}: still running after its bound of ${limitS} s: stopped (SIGINT, SIGKILL after ${graceMs / 1000} s)\n`;
          if (foreground) process.stdout.write(line);
          else chunks.push(Buffer.from(line));
          child.kill('SIGINT');
          kill = setTimeout(() => child.kill('SIGKILL'), graceMs);
        }, limitS * 1000);
  let result;
  const ended = new Promise((resolve) => {
    const done = (code) => {
      clearTimeout(bound);
      clearTimeout(kill);
      result ??= {
        name,
        code: timedOut ? code || 1 : code,
        s: ((Date.now() - started) / 1000).toFixed(1),
        ...(timedOut ? { timedOut: limitS } : {}),
      };
      resolve(result);
    };
    child.on('error', () => done(1));
    child.on('close', (code) => done(code ?? 1));
    // Stopped, it is done when it exits: a process it started may still hold its output pipe.
    child.on('exit', (code) => timedOut && done(code ?? 1));
  });
  let reported = false;
  /** Prints a background stage's output once, if it has ended (or, with `wait`, when it ends). */
  const report = async (wait = false) => {
    if (reported || (!result && !wait)) return;
    await ended;
    reported = true;
    process.stdout.write(header + Buffer.concat(chunks).toString());
  };
  return { ended, report };
}

/** The summary line of a stage's result. */
export function stageLine(r) {
  const bound = r.timedOut === undefined ? '' : `, stopped at its bound of ${r.timedOut} s`;
  return `${r.code === 0 ? '✅' : '❌'} ${r.name} (${r.s} s${bound})`;
}
