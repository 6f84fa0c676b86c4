/**
 * `npm run demo` / `npm run check`: the main job. Runs the report checks (the bundled demo runs
 * unless runs are configured), builds the Allure report (one offline HTML file), runs the redaction
 * guard over every output, and exits with one code a scheduler can use (lib/report/night.ts
 * `jobExitCode`): 0 all checked and passing, 1 values differ, 2 a run not checked, 3 the report or
 * the guard failed — 3 wins, so a leak is never hidden.
 *
 *   npm run demo -- [playwright test arguments…]      e.g. --grep item5, --shard 1/3
 *   npm run demo -- --scenarios                         the demo's scenarios, one line each
 *   npm run demo -- --scenario NAME[,NAME…]|all|'hostile-*'   those demo scenarios instead of the bundled runs
 *   npm run demo -- --nights N                          N nights back to back, ending with L1_BATCH_DATE
 *                                                       (default yesterday), each date fixed at the start,
 *                                                       each with its report: the history joins them
 *                                                       (the demo: bundled runs + nightly-drift-ranking)
 *
 * SIGTERM and SIGINT are left to the checks (they stop like Ctrl-C and write what finished); the
 * report and the guard still run on what is on disk.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { reportOnStdout, type ReporterEntry } from '../lib/report/allure/reporters';
import {
  checksMeaning,
  EXIT_MEANINGS,
  jobExitCode,
  playwrightFailedMeaning,
  worstExitCode,
} from '../lib/report/night';
import { readTestArgv } from '../lib/run/selection';
import { handoffFile, reportFolderFor, takeHandoff } from '../lib/report/outputs';
import { nightFilesLine } from '../lib/report/verdict-folder';
import { invocationIdFor } from '../lib/run/invocation';
import { DEFAULT_BATCH_DATE, nightsOfJob } from '../lib/run/night';
import { projectTool as bin, ROOT, settings, SettingsError, tsScript } from '../lib/run/settings';
import { verdictIndexSchema } from '../lib/schema/verdict';
import { readJsonFile } from '../lib/util/json';
import { shownPath } from '../lib/util/shown-path';
import { stopwatch } from '../lib/util/clock';

/**
 * Where the job's own lines go: stdout, or stderr when a reporter of the checks writes its report
 * to stdout (`npm run check -- --reporter=json > night.json`): the file then holds the report and
 * nothing else, as with `npx playwright test` (CLI audit of 2026-11-26: the job's closing lines,
 * the report step's and the guard's followed the JSON and it no longer parsed).
 */
let ownLines: NodeJS.WriteStream = process.stdout;
const say = (line: string) => ownLines.write(`${line}\n`);
/**
 * A child process, waited for without blocking this one: the demo of `--scenario` runs in this
 * process and must keep answering while the checks run. `ownGroup`: in a process group of its own,
 * and its stdout where this job's own lines go (the report step and the guard; the checks write to
 * stdout as their reporters say).
 */
const spawnWaited = (
  cmd: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  ownGroup: boolean,
  started?: (child: ChildProcess) => void,
): Promise<number> =>
  new Promise((resolve) => {
    const stdout = ownGroup && ownLines === process.stderr ? 2 : 'inherit';
    const child = spawn(cmd, args, {
      cwd: ROOT,
      stdio: ['inherit', stdout, 'inherit'],
      env,
      detached: ownGroup,
    });
    started?.(child);
    child.on('error', () => resolve(1));
    child.on('close', (code) => resolve(code ?? 1));
  });
const run = (cmd: string, args: string[], env: NodeJS.ProcessEnv, started?: (child: ChildProcess) => void) =>
  spawnWaited(cmd, args, env, false, started);
/**
 * The report and the guard, in a process group of their own: a stop sent to the job's whole group
 * (`timeout`, which signals its group; Ctrl-C in a terminal) reaches the checks, which stop and
 * write what finished, and this process, which waits; it must not kill the report and the guard
 * that then run on what is on disk. Killed with them, a night stopped while its report was built
 * ended with exit 3 and no report. They take seconds (a minute for the guard over a 300-run
 * night); a second stop, or `TO_END_LIMIT_MS`, stops them (the job then exits 3).
 */
const runToEnd = (script: string, args: string[], env: NodeJS.ProcessEnv) =>
  spawnWaited(...tsScript(script, args), env, true, (child) => {
    toEnd = child;
    const limit = setTimeout(() => {
      process.stderr.write(
        `${path.basename(script)} did not end within ${TO_END_LIMIT_MS / 60_000} minutes: stopped\n`,
      );
      stopGroup(child, 'SIGKILL');
    }, TO_END_LIMIT_MS);
    child.on('close', () => {
      clearTimeout(limit);
      if (toEnd === child) toEnd = undefined;
    });
  });
/** The redaction guard over every output (scripts/redaction-scan.ts), to its end. */
const runGuard = (env: NodeJS.ProcessEnv) => runToEnd('scripts/redaction-scan.ts', [], env);
const TO_END_LIMIT_MS = 20 * 60_000;
let toEnd: ChildProcess | undefined;
function stopGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    // already gone
  }
}

// The checks handle the stop themselves; this process waits for them and still reports. A signal
// sent to this process alone (`kill PID`, `docker stop`, systemd) is passed on to the checks as it
// came, so the verdicts name it (a SIGTERM is a CI timeout or a container stop, not a person's
// Ctrl-C: reader audit of 2026-11-26); the checks take either as Ctrl-C (playwright.config.ts).
// Sent to the whole group, the checks got it too, and Playwright ignores a second SIGINT within a
// second of the first.
let stopped: string | undefined;
/** Time since the first stop (the monotonic clock: a wall-clock step must not merge two stops). */
let sinceStop: (() => number) | undefined;
let checksChild: ChildProcess | undefined;
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => {
    // A second stop while the report or the guard runs (their own group never got the first):
    // the caller insists, so they are stopped too. One stop often arrives twice within
    // milliseconds (to the group, and passed on by tsx or npm): a second counts after a second.
    if (toEnd && sinceStop && sinceStop() > 1000) stopGroup(toEnd, 'SIGTERM');
    sinceStop ??= stopwatch();
    stopped ??= signal;
    if (checksChild && checksChild.exitCode === null && checksChild.signalCode === null)
      checksChild.kill(signal);
  });

interface NightResult {
  code: 0 | 1 | 2 | 3;
  verdicts: string;
  /** Why no Allure report was built for this night, when none was. */
  noReport?: string;
  /** What the exit code means, when not its usual meaning (no check ran). */
  meaning?: string;
  /** The folder of the night's Allure report, when one was built. */
  report?: string;
}

/** One night: the checks, the report of their outputs, the guard; its exit code. */
async function night(env: NodeJS.ProcessEnv, args: string[]): Promise<NightResult> {
  // The checks' invocation id, fixed here, names the handoff they write: another job in the same
  // state folder (two `npm run check` at once: the second is refused the folders the first holds)
  // never reads, nor removes, this one's.
  const id = invocationIdFor(env);
  const s = settings({ runsOptional: true });
  fs.rmSync(handoffFile(s.paths.state, id), { force: true });
  const played = await run(
    bin('playwright'),
    ['test', ...args],
    // `--reporter=html` would serve its report in a terminal and wait for Ctrl-C before the job
    // went on to its report and guard (CLI audit of 2026-11-26): the job opens nothing.
    { ...env, L1_INVOCATION_ID: id, PLAYWRIGHT_HTML_OPEN: env.PLAYWRIGHT_HTML_OPEN ?? 'never' },
    (child) => (checksChild = child),
  );
  checksChild = undefined;
  const outputs = takeHandoff(s.paths.state, id);
  /** Nothing to report: the guard alone; 2, nothing was checked (0, no check ran, when `none`). */
  const withoutReport = async (verdicts: string, noReport: string, none = false): Promise<NightResult> => {
    const guard = await runGuard(env);
    return {
      code: jobExitCode({ checks: none ? 0 : 2, guardFailed: guard !== 0 }),
      verdicts,
      noReport,
      ...(guard === 0 ? { meaning: none ? 'no check ran' : 'nothing was checked' } : {}),
    };
  };
  // `--list`, `--help`, or `--last-failed --pass-with-no-tests` with nothing to re-run: Playwright
  // ran no check and says so itself, with exit 0. Nothing was written, so there is nothing to report or
  // guard, and no run that "could not be checked".
  if (!outputs && played === 0 && !stopped) {
    say('no check ran (see above): no verdicts, no report');
    return { code: 0, verdicts: '-', noReport: 'not built: no check ran', meaning: 'no check ran' };
  }
  if (!outputs) {
    // A config error, an unreadable runs file, `--last-failed` with nothing to re-run (Playwright's
    // "No tests found" is exit 1 unless --pass-with-no-tests): nothing was checked, exit 2.
    say('the checks wrote no outputs (see above)');
    return withoutReport('-', 'not built: the checks wrote no outputs');
  }
  const index = readJsonFile(path.join(outputs.verdicts, 'index.json'));
  const parsed = index.why === undefined ? verdictIndexSchema.safeParse(index.value) : undefined;
  const verdictsCode = parsed?.success && parsed.data.exitCode !== undefined ? parsed.data.exitCode : 2;
  // Playwright failed an invocation whose verdicts all pass: `--fail-on-flaky-tests` after a test
  // that passed only on its retry, an error outside any test. The job says so and exits 1, never
  // 0 (CLI audit of 2026-11-26: the flag had no effect through the job).
  const playwrightFailed = verdictsCode === 0 && played !== 0 && !stopped;
  // No test matched (`--grep item05`: Playwright's "No tests found"): an empty night and no Allure
  // result. Nothing was checked (or, with --pass-with-no-tests, no check ran); no report of nothing.
  const noResult =
    !outputs.allureResults ||
    !fs.existsSync(outputs.allureResults) ||
    !fs.readdirSync(outputs.allureResults).some((f) => f.endsWith('-result.json'));
  if (parsed?.success && parsed.data.runs.length === 0 && noResult)
    return withoutReport(outputs.verdicts, 'not built: no test ran', played === 0 && !stopped);
  // A --reporter without Allure (`npm run demo -- --reporter=dot`) writes no Allure results: the
  // user chose the terminal only. The job then builds no report (it would be last night's, or fail
  // with 3 for a report nobody asked for) and says so; the verdict files, the grid and the guard
  // are the same as with the configured reporters.
  // A partial invocation's report goes beside its results, never over the night's.
  const reportDir = outputs.allureResults ? reportFolderFor(s, outputs.allureResults) : undefined;
  const report = reportDir
    ? await runToEnd(
        'scripts/report.ts',
        [
          '--quiet',
          '--verdicts',
          outputs.verdicts,
          '--results',
          outputs.allureResults,
          '--output',
          reportDir,
        ],
        env,
      )
    : 0;
  const guard = await runGuard(env);
  const code = jobExitCode({
    checks: verdictsCode,
    playwrightFailed,
    reportFailed: report !== 0,
    guardFailed: guard !== 0,
  });
  const nothingCompared = code === verdictsCode && parsed?.success ? checksMeaning(parsed.data) : undefined;
  return {
    code,
    ...(playwrightFailed && code === 1
      ? {
          meaning: playwrightFailedMeaning('the invocation', `its exit code ${played}`, 'see above'),
        }
      : nothingCompared
        ? { meaning: nothingCompared }
        : {}),
    verdicts: outputs.verdicts,
    ...(!reportDir
      ? { noReport: 'not built: --reporter replaced the Allure reporter (run without --reporter for one)' }
      : report === 0
        ? { report: reportDir }
        : { noReport: 'not built: the report step failed (see above)' }),
  };
}

/**
 * When this invocation built no report, the one its folder still holds is another invocation's:
 * said with when it was written, so a reader the next morning does not take it for this night's
 * (reader audit of 2026-11-28: after a `--reporter=dot` night the night before's report stayed,
 * of the same batch date). Empty when the folder holds none.
 */
function earlierReport(folder: string): string {
  const file = path.join(folder, 'index.html');
  try {
    const written = fs
      .statSync(file)
      .mtime.toISOString()
      .replace(/\.\d+Z$/, 'Z');
    return `; ${shownPath(file)}, written ${written}, is not this invocation's`;
  } catch {
    return '';
  }
}

/** The job's own options, said before playwright test's `--help` (the header of this file). */
const JOB_USAGE = `usage: npm run demo -- [options] [playwright test arguments…] (npm run check is the same job)
  --scenarios                               the demo's scenarios, one line each
  --scenario NAME[,NAME…]|all|'hostile-*'   check those demo scenarios instead of the bundled runs
  --nights N                                N nights (1 to 30) back to back, ending with L1_BATCH_DATE
every other argument goes to playwright test:
`;

/** A job that stops before any check: what stopped it (when given), the exit line, and 2. */
function nothingChecked(why?: string): 2 {
  if (why) say(why);
  say('Exit code 2: nothing was checked');
  return 2;
}

async function main(): Promise<number> {
  // The job's clock, read once: its nights are resolved with it, whenever each night's checks begin.
  const startedAt = new Date();
  const { values, tokens } = parseArgs({
    options: {
      scenarios: { type: 'boolean' },
      scenario: { type: 'string' },
      nights: { type: 'string' },
    },
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  // Everything that is not ours goes to `playwright test` as it was written: the arguments
  // themselves, not rebuilt from parseArgs's tokens, which split `-j2` into `-j -2` and `-gitem5`
  // into six short options.
  const ours = new Set(['scenarios', 'scenario', 'nights']);
  const drop = new Set<number>();
  for (const t of tokens ?? []) {
    if (t.kind !== 'option' || !ours.has(t.name)) continue;
    drop.add(t.index);
    if (!t.inlineValue && typeof t.value === 'string') drop.add(t.index + 1);
  }
  const args = process.argv.slice(2).filter((_, i) => !drop.has(i));
  const reporters = (readTestArgv(['test', ...args]).options.get('--reporter') ?? [])
    .flatMap((r) => r.split(','))
    .map((name): ReporterEntry => [name.trim()]);
  if (reportOnStdout(reporters)) ownLines = process.stderr;
  // `--help` is passed on to playwright test, whose help knows nothing of the job's own options
  // (review 59a: --scenarios, --scenario and --nights were in no help a user could ask for).
  if (args.some((a) => a === '--help' || a === '-h')) say(JOB_USAGE);
  // The names `--scenario` takes, and only those: demo/runs-file.ts `--list` adds its own `--model`
  // line, which `npm run demo -- --scenario model` refused as an unknown scenario (review 59a).
  if (values.scenarios) {
    // Required here, not imported, as for --scenario below.
    const { scenarioListLines } =
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      require('../demo/scenario-select') as typeof import('../demo/scenario-select');
    for (const line of scenarioListLines()) process.stdout.write(`${line}\n`);
    return 0;
  }
  // Before any demo starts or runs file is written: a bad count stops the job as any input does.
  const nights = typeof values.nights === 'string' ? Number(values.nights) : 1;
  if (!Number.isInteger(nights) || nights < 1 || nights > 30)
    return nothingChecked(
      'usage: --nights N (1 to 30): the N nights ending with L1_BATCH_DATE (default yesterday), back to back',
    );
  const env: NodeJS.ProcessEnv = { ...process.env };
  let stopDemo: (() => Promise<void>) | undefined;
  // Several demo nights: the bundled runs and the drift that breaks item 5 from yesterday on, so
  // the history shows a test turning red (unless runs or scenarios were given).
  // The count, not its text: `--nights 01` is one night, as `--nights 1` is (review 59j).
  if (nights > 1 && values.scenario === undefined) {
    if (['demo', 'none'].includes(settings({ runsOptional: true }).mode))
      values.scenario = 'A-monitor,A-diagnosis,B-monitor,B-diagnosis,nightly-drift-ranking';
  }
  if (typeof values.scenario === 'string') {
    // Required here, not imported: only --scenario needs the demo in this process, and a dynamic
    // import() would need tsx's ESM hook, which this script runs without (lib/run/settings.ts `tsScript`).
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { startDemo } = require('../demo/server') as typeof import('../demo/server');
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { SCENARIO_RUNS_FILE: file } = require('../demo/runs') as typeof import('../demo/runs');
    const { selectScenarios } =
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      require('../demo/scenario-select') as typeof import('../demo/scenario-select');
    // The names first, before any demo starts: an unknown one is said in the job's own words.
    const chosen = selectScenarios(values.scenario);
    if (typeof chosen === 'string') return nothingChecked(chosen);
    let demo: Awaited<ReturnType<typeof startDemo>>;
    try {
      // This job stops it when it ends: its /healthz says so, and no other invocation borrows it.
      demo = await startDemo({ quiet: true, startedBy: process.pid });
    } catch (e) {
      // A port another process holds: nothing was checked (2), not a report or guard failure (3).
      return nothingChecked((e as Error).message);
    }
    stopDemo = () => demo.close();
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const made = spawnSync(
      ...tsScript('demo/runs-file.ts', [
        '--scenario',
        values.scenario,
        '--origin',
        demo.origin,
        '--out',
        file,
      ]),
      { cwd: ROOT, env, encoding: 'utf8' },
    );
    if (made.status !== 0) {
      process.stderr.write(made.stderr || made.stdout);
      await stopDemo();
      return nothingChecked('the demo runs file could not be written (see above)');
    }
    for (const line of made.stdout.split('\n')) {
      const m = /^(L1_[A-Z0-9_]+)=(.*)$/.exec(line.trim());
      if (m) env[m[1]!] = m[2]!;
    }
    say(`demo scenarios ${values.scenario}: ${shownPath(file)}`);
  }
  // Several nights: the N days ending with L1_BATCH_DATE (default yesterday), fixed now with the
  // job's clock and given to each night's checks written out, so a job that crosses midnight checks
  // each once (lib/run/night.ts `nightsOfJob`).
  const s = settings({ runsOptional: true });
  const dates =
    nights > 1
      ? nightsOfJob(s.values.L1_BATCH_DATE ?? DEFAULT_BATCH_DATE, nights, s.timeZone, startedAt)
      : undefined;
  if (dates) {
    say(`nights: ${dates.dates[0]} … ${dates.last.describe}`);
    // The demo's drift breaks from yesterday as its own clock reads it, at every request: past
    // midnight the last night would be clean again. It breaks on the job's last night instead.
    if (values.scenario !== undefined && !process.env.L1_DEMO_BREAK_FROM)
      process.env.L1_DEMO_BREAK_FROM = dates.last.batchDate;
  }
  let result: NightResult = { code: 2, verdicts: '-' };
  // Several nights: the job's code is the worst night's (3 > 2 > 1 > 0), never only the last one's.
  const codes: NightResult['code'][] = [];
  for (const [i, date] of (dates?.dates ?? [undefined]).entries()) {
    if (stopped) break;
    if (date) say(`\n=== night ${i + 1} of ${nights}: L1_BATCH_DATE=${date}`);
    result = await night(date ? { ...env, L1_BATCH_DATE: date } : env, args);
    codes.push(result.code);
  }
  const worst = worstExitCode(codes);
  if (nights > 1 && worst > result.code) {
    say(
      `\nnights: ${codes.map((c, i) => `night ${i + 1}: ${c}`).join(', ')}: the job's code is the worst night's`,
    );
    result = { ...result, code: worst, meaning: EXIT_MEANINGS[worst] };
  }
  await stopDemo?.();
  const report = result.report ?? settings({ runsOptional: true }).paths.allureReport;
  say('');
  say(
    `Allure report: ${result.noReport ? `${result.noReport}${earlierReport(report)}` : shownPath(path.join(report, 'index.html'))}`,
  );
  say(
    `Verdict files: ${result.verdicts === '-' ? 'none' : `${shownPath(result.verdicts)}/ ${nightFilesLine(result.verdicts)}`}`,
  );
  if (stopped) say(`stopped by ${stopped}`);
  say(`Exit code ${result.code}: ${result.meaning ?? EXIT_MEANINGS[result.code]}`);
  return result.code;
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
    // Settings that cannot be read (a runs file missing or empty, L1_BATCH_DATE=garbage): nothing
    // was checked, 2, as when the checks themselves stop on them; never 3, which says a report or
    // the guard failed.
    if (e instanceof SettingsError) process.exit(nothingChecked());
    process.exit(3);
  },
);
