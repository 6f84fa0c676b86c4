import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { FullConfig } from '@playwright/test';
import { misplacedAllure, reportOnStdout, type ReporterEntry } from '../../lib/report/allure/reporters';
import { sectionSelectorsProblem } from '../../lib/report/sections';
import { chromiumPathProblem } from '../../lib/run/browser';
import type { Finished, StopLimits } from '../../lib/report/finish';
import { lastValue, readTestArgv } from '../../lib/run/selection';
import { outputDirInUse, playwrightOutputDir, refusedFolder, within } from '../../lib/report/outputs';
import type { Outputs } from '../../lib/run/invocation';
import { VERDICT_FOLDER_LAST_RUN, type Selection } from '../../lib/schema/verdict';
import { SettingsError } from '../../lib/run/runs';
import { shownPath } from '../../lib/util/shown-path';
import { CHECKOUT_ID } from '../../demo/runs';
import { ownerAlive } from '../../lib/run/state';

/** Facts of the runner's command line that Playwright does not hand to global setup and teardown. */

const LAST_FAILED = Symbol.for('l1-verify.last-failed-tests');

/**
 * How many failed tests the last-run file names; `'none'` when there is no such file, it is not
 * JSON or names no list of failed tests: Playwright then filters nothing and `--last-failed`
 * re-runs every test.
 */
function failedTestsIn(file: string): number | 'none' {
  try {
    const last = JSON.parse(fs.readFileSync(file, 'utf8')) as { failedTests?: unknown } | null;
    return Array.isArray(last?.failedTests) ? last.failedTests.length : 'none';
  } catch {
    return 'none';
  }
}

/** Below this, a test's timeout ends it before its fixtures can raise it (fixtures/index.ts `judged`). */
export const SHORTEST_TIMEOUT_MS = 1000;

/**
 * Why a `--timeout` is too short for a check to reach its run (`refusedAtLoad`). The judged fixture raises a
 * test timeout shorter than a run's collection budget (L1_RUN_TIMEOUT_MS) and a minute to that, so
 * a shorter `--timeout` changes nothing; but under a second it can end a test while its fixtures
 * are set up, before that raise: the collection test then timed out mid-collection, its worker was
 * torn down, and the run read as one whose collection crashed its worker (an audit, 2026-11-27). So
 * it is refused at start, as `--trace` is. 0 (no timeout) is a timeout Playwright allows, and stays.
 */
function shortTimeoutText(timeout: number): string {
  return `--timeout ${timeout} is refused: under ${SHORTEST_TIMEOUT_MS} ms a check's test can end before it reaches its run. The suite gives each test its run's collection budget (L1_RUN_TIMEOUT_MS) and a minute, raising a shorter --timeout to that: run without --timeout, or bound a run with L1_RUN_TIMEOUT_MS.`;
}

/**
 * What a `--timeout` of a second or more but under a check's own timeout becomes, said at start: the
 * judged fixture raises it to the run's collection budget and a minute (fixtures/index.ts), so it
 * bounds nothing, and it was raised without a word (CLI audit of 2026-11-28). Undefined otherwise.
 */
export function raisedTimeoutNote(
  config: Pick<FullConfig, 'projects'>,
  outlastMs: number,
): string | undefined {
  const timeout = config.projects
    .map((p) => p.timeout)
    .find((t) => t >= SHORTEST_TIMEOUT_MS && t < outlastMs);
  return timeout === undefined
    ? undefined
    : `--timeout ${timeout} is raised to ${outlastMs} ms for each check's test: its run's collection budget (L1_RUN_TIMEOUT_MS) and a minute, which bounds a run; to bound runs tighter, lower L1_RUN_TIMEOUT_MS`;
}

/**
 * `--trace` (Playwright's CLI flag, which overrides the config's `trace: 'off'`) asks for a trace of
 * the contexts the collection opens: the report page with its session cookie in every request, and
 * the URL's token, which the suite never writes into an output (README.md § Security and limits).
 * The suite's test type has no fixture that records one (fixtures/base.ts), so the flag would be
 * ignored without a word: it is refused, saying what to use instead.
 */
export function traceRefusal(mode: string): string {
  return `--trace ${mode} is refused: a trace would record the report page the checks load, with its session cookie and the URL's token, which the suite never writes into an output (README.md § Security and limits). Run without --trace: each failure names its values, the step and the gap, and the report sections of failing items are pictured.`;
}

/**
 * Why the invocation is refused, from its command line and settings, checked as the runner loads
 * the config (playwright.config.ts): before Playwright empties its output folder, which holds the
 * night's `.last-run.json` (what `--last-failed` re-runs), its compared values and section pictures.
 * Refused in global setup, a complete invocation's refusal had emptied them already, and the next
 * `--last-failed` said the night had failed nothing (CLI audit of 2026-11-28). `--trace`, a
 * `--timeout` under a second, an Allure reporter named on the command line, `L1_CHROMIUM_PATH`
 * and `L1_SECTION_SELECTORS` here, and the demo's ports in `demoPortProblemAtLoad`: the only place
 * they are asked, since global setup runs after that emptying.
 */
export function refusedAtLoad(
  argv: readonly string[],
  s: Parameters<typeof sectionSelectorsProblem>[0] & { env: NodeJS.ProcessEnv },
): string | undefined {
  const { options } = readTestArgv(argv);
  const trace = options.get('--trace')?.at(-1);
  if (trace !== undefined && trace !== 'off') return traceRefusal(trace);
  const timeout = Number(options.get('--timeout')?.at(-1));
  if (timeout > 0 && timeout < SHORTEST_TIMEOUT_MS) return shortTimeoutText(timeout);
  for (const flag of ['--reporter', '--add-reporter'] as const) {
    const named = (options.get(flag) ?? [])
      .flatMap((v) => v.split(','))
      .map((n): ReporterEntry => [n.trim()]);
    // Named on the command line, an Allure reporter has no options: no results folder of its own.
    const misplaced = misplacedAllure(named, '', flag);
    if (misplaced) return misplaced;
  }
  return chromiumPathProblem(s.env) ?? sectionSelectorsProblem(s);
}

/**
 * Called by playwright.config.ts as the runner loads it: what the last-run file names now.
 * Playwright reads that file for `--last-failed` before it empties the output folder, and global
 * setup runs after: read there, the file is always gone, and a re-run of failed tests was taken for
 * "nothing to re-run" (the setup then claimed no outputs, and the re-run got no index, summary or
 * JUnit). The first load counts; a later one (after the folder was emptied) does not overwrite it.
 */
export function rememberLastRun(file: string): boolean {
  const store = globalThis as Record<symbol, unknown>;
  if (store[LAST_FAILED] !== undefined) return false;
  store[LAST_FAILED] = readLastRun(file);
  return true;
}

/**
 * `--last-failed` of a partial invocation whose output folder is its own (lib/report/outputs.ts
 * `playwrightOutputDir`): Playwright reads `.last-run.json` there, so the night's is copied in
 * first, at the first load of the config (Playwright reads it before it empties the folder, and
 * writes this invocation's own there at the end: the night's stays as it was). Nothing when the
 * file is given (`--last-failed-file`, PLAYWRIGHT_LAST_RUN_OUTPUT_FILE) or there is none.
 */
export function carryLastRun(argv: readonly string[], last: LastRunFile, toDir: string): void {
  if (!readTestArgv(argv).options.has('--last-failed') || last.given) return;
  const to = path.join(toDir, '.last-run.json');
  if (path.resolve(last.file) === path.resolve(to) || !fs.existsSync(last.file)) return;
  fs.mkdirSync(toDir, { recursive: true });
  fs.copyFileSync(last.file, to);
}

/** What the last-run file names now. */
export function readLastRun(file: string): LastRun {
  return { file, failed: failedTestsIn(file), ...(interruptedIn(file) ? { interrupted: true } : {}) };
}

/** Whether the last-run file says its invocation was interrupted (`"status": "interrupted"`). */
function interruptedIn(file: string): boolean {
  try {
    return (
      (JSON.parse(fs.readFileSync(file, 'utf8')) as { status?: unknown } | null)?.status === 'interrupted'
    );
  } catch {
    return false;
  }
}

/**
 * The file `--last-failed` reads, as Playwright finds it: `--last-failed-file FILE`, else
 * PLAYWRIGHT_LAST_RUN_OUTPUT_FILE (both relative to the current folder), else `.last-run.json` in
 * the output folder.
 */
export function lastRunFile(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  outputDir: string,
  cwd = process.cwd(),
): LastRunFile {
  const given = lastValue(argv, '--last-failed-file') ?? env.PLAYWRIGHT_LAST_RUN_OUTPUT_FILE;
  return given
    ? { file: path.resolve(cwd, given), given: true }
    : { file: path.join(outputDir, '.last-run.json'), given: false };
}

/**
 * The record `--last-failed` re-runs: the last-run file Playwright would read (`lastRunFile`),
 * except that a CI night's record beside its verdicts (`last-run.json` in the night's verdict
 * folder, L1_VERDICTS_DIR: the merge writes it, the union of every shard's) wins over the
 * checkout's own when none is given. A shard's `.last-run.json` stays on its machine, so a reviewer
 * who downloads the night's `verdicts` artifact into `reports/verdicts` had no record at all, and
 * `--last-failed` re-ran every test (audit of the morning after). A night checked in the checkout
 * removes the folder's record as it claims the folder, so it never outlives its night.
 */
export function lastRunSource(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  outputDir: string,
  nightVerdicts: string,
  cwd = process.cwd(),
): LastRunFile {
  const own = lastRunFile(argv, env, outputDir, cwd);
  if (own.given || !readTestArgv(argv).options.has('--last-failed')) return own;
  const night = path.join(nightVerdicts, VERDICT_FOLDER_LAST_RUN);
  return fs.existsSync(night) ? { file: night, given: false } : own;
}

/**
 * The record `--list --last-failed` must list from when it is not the one Playwright reads there:
 * a CI night's record beside its verdicts (`lastRunSource`). Playwright's list mode reads the
 * file PLAYWRIGHT_LAST_RUN_OUTPUT_FILE names and never writes it, so the runner sets it; without
 * it, the listing showed every test where `--last-failed` ran the night's failures (review of
 * 2026-11-27). Undefined when the listing reads the right file already.
 */
export function listingLastRun(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  outputDir: string,
  nightVerdicts: string,
): string | undefined {
  const source = lastRunSource(argv, env, outputDir, nightVerdicts);
  return source.file === lastRunFile(argv, env, outputDir).file ? undefined : source.file;
}

/** The last-run file, and whether the command line or the environment gave it (else the output folder's). */
export interface LastRunFile {
  file: string;
  given: boolean;
}

/**
 * The output folder `--output DIR` / `--output=DIR` gives on the command line (relative to the
 * current folder, as Playwright takes it), which replaces the config's `outputDir`: where
 * `--last-failed` reads `.last-run.json`. Undefined when none is given. (Playwright has no `-o`.)
 */
export function outputDirFromArgv(argv: readonly string[], cwd = process.cwd()): string | undefined {
  const given = lastValue(argv, '--output');
  return given ? path.resolve(cwd, given) : undefined;
}

/**
 * `--last-failed` when the last invocation failed nothing: Playwright finds no test; the suite
 * changes nothing and says so (instead of an empty folder of verdicts). With no last-run file at
 * all (a first invocation, a night that was killed), Playwright re-runs every test: the invocation
 * goes on as a partial one, and `note` says why everything runs.
 */
export function lastFailedPlan(argv: string[]): { nothing: string } | { note: string } | undefined {
  return lastFailedPlanOf(argv, (globalThis as Record<symbol, unknown>)[LAST_FAILED] as LastRun | undefined);
}

/** What rememberLastRun found: the file and how many failed tests it names. */
export interface LastRun {
  file: string;
  failed: number | 'none';
  /**
   * The record is of an invocation that was stopped (a signal, `-x`, `--global-timeout`): it names
   * the tests that failed and those the stop left unrun, not those it interrupted (Playwright's
   * last-run reporter: `!ok() || didNotRun()`, an interrupted result is neither).
   */
  interrupted?: boolean;
}

/** lastFailedPlan with what was remembered given (undefined: the config was not loaded here). */
export function lastFailedPlanOf(
  argv: string[],
  last: LastRun | undefined,
): { nothing: string } | { note: string } | undefined {
  if (!readTestArgv(argv).options.has('--last-failed')) return undefined;
  // Not remembered (the config was not loaded in this process): the file is gone by now, so this
  // cannot be told; the invocation goes on, and Playwright says if it found no test.
  if (last?.failed === 'none')
    return {
      note: `--last-failed: no record of a last invocation (${shownPath(last.file)} is missing or unreadable: a first run, or one that was killed; a CI night's is ${VERDICT_FOLDER_LAST_RUN} in its verdicts artifact, put in the night's verdict folder), so Playwright re-runs every test, as a partial invocation (it never writes over a night's outputs)`,
    };
  // Playwright records the tests that failed and those a stop left unrun, not those it interrupted:
  // after a stopped night those are not re-run, and the re-run's own verdicts say nothing of them
  // (night audit of 2026-11-28: item 6, interrupted, was left out without a word; the first wording
  // said the unrun ones were left out too, which Playwright's record does not do).
  const stopped = last?.interrupted
    ? " The last invocation was stopped: Playwright's record names the tests that failed and those the stop left unrun, not those it interrupted (each one's run says so in its verdict, kind interrupted); to check those, run the night again (or --grep their runs)"
    : '';
  if (last?.failed !== 0)
    return stopped && last
      ? { note: `--last-failed: re-runs the ${last.failed} test(s) recorded.${stopped}` }
      : undefined;
  return {
    nothing: `--last-failed: the last invocation had no failed test, so there is nothing to re-run; no output was changed${stopped ? `.${stopped}` : ''}`,
  };
}

/**
 * `--last-failed` whose record names failed tests of which this invocation ran none (Playwright:
 * "No tests found"): the record is of tests this configuration does not declare, such as a night
 * checked with another runs file (`npm run demo -- --nights` checks a scenario runs file; a plain
 * `npx playwright test` the bundled runs). The line says so; Playwright's own error says nothing of
 * where the record came from. Only with `--last-failed` the one filter and no `--shard`: a
 * `--grep`, a file filter, `--project` or a shard can leave out the recorded tests of this very
 * configuration (review of 2026-11-27: `--last-failed --grep @item5` over a record of item 3 was
 * told the record was of other runs). `verdicts` is how many runs the invocation wrote a verdict for.
 */
export function lastFailedNoneFound(
  argv: string[],
  selection: Pick<Selection, 'filters' | 'shard'>,
  ended: Pick<Finished, 'interrupted'> & { verdicts: number },
): string | undefined {
  return lastFailedNoneFoundOf(
    argv,
    selection,
    (globalThis as Record<symbol, unknown>)[LAST_FAILED] as LastRun | undefined,
    ended,
  );
}

/**
 * lastFailedNoneFound with what was remembered given. Not after a stop (Ctrl-C, SIGTERM, `-x`,
 * `--global-timeout`: `interrupted`): the tests it cut short wrote no verdict either.
 */
export function lastFailedNoneFoundOf(
  argv: string[],
  selection: Pick<Selection, 'filters' | 'shard'>,
  last: LastRun | undefined,
  { interrupted, verdicts }: Pick<Finished, 'interrupted'> & { verdicts: number },
): string | undefined {
  if (!readTestArgv(argv).options.has('--last-failed') || verdicts > 0 || interrupted) return undefined;
  if (selection.shard || selection.filters.some((f) => f !== '--last-failed')) return undefined;
  if (last === undefined || last.failed === 'none' || last.failed === 0) return undefined;
  return `--last-failed: none of the ${last.failed} failed test(s) recorded in ${shownPath(last.file)} is a test of this invocation's runs: the record is of other runs (another runs file, L1_RUNS or L1_HTML_URL than the night's); run it with the night's runs file and batch date (README.md § Run it nightly in CI)`;
}

/** Playwright's own stops the invocation runs under (`-x`, `--max-failures`, `--global-timeout`). */
export function stopLimits(config: FullConfig): StopLimits {
  return { maxFailures: config.maxFailures, globalTimeoutMs: config.globalTimeout };
}

/**
 * Where the suite's own lines go: stdout, or stderr when a reporter writes its report there
 * (`--reporter=junit > results.xml`), so that the file is the report alone.
 */
export function suiteOutput(config: FullConfig): NodeJS.WriteStream {
  return reportOnStdout(config.reporter) ? process.stderr : process.stdout;
}

/**
 * Why a command line may not point Playwright at the night's own outputs, or undefined. `--output`
 * is the folder Playwright empties as it starts: the project root, its parents or the home folder
 * are refused always, and for a partial invocation (an investigation) the night's Playwright folder
 * (`configured`, L1_TEST_RESULTS_DIR) or a folder holding it, whose error contexts, pictures and
 * `.last-run.json` it would delete. The last-run file given on the command line or in the
 * environment is the one Playwright writes at the end: for a partial invocation, not the night's.
 * (CLI audit of 2026-11-27: `--grep @item5 --output test-results` deleted the night's folder, and
 * `--grep @item3 --last-failed-file test-results/checks/.last-run.json` replaced its failures.)
 */
export function nightOutputsProblem(
  given: string | undefined,
  lastRun: LastRunFile,
  configured: string,
  partial: boolean,
  root = path.resolve(__dirname, '..', '..'),
): string | undefined {
  const night = path.resolve(configured);
  if (given !== undefined) {
    const refused = refusedFolder(given, root);
    if (refused) return `--output is refused: ${refused}; Playwright empties its output folder as it starts`;
    if (partial && within(given, night))
      return `--output ${shownPath(given)} is refused for a partial invocation: it is or holds the night's Playwright folder ${shownPath(night)} (L1_TEST_RESULTS_DIR), which Playwright empties as it starts, so the night's error contexts, pictures and .last-run.json would go. Leave --output out (a partial invocation gets a folder of its own under reports/partial/) or give another folder`;
  }
  if (partial && lastRun.given && path.resolve(lastRun.file) === path.join(night, '.last-run.json'))
    return `the last-run file ${shownPath(lastRun.file)} (--last-failed-file or PLAYWRIGHT_LAST_RUN_OUTPUT_FILE) is refused for a partial invocation: it is the night's, which Playwright writes over at the end with this invocation's failures. --last-failed reads the night's file already; leave it out, or give a copy`;
  return undefined;
}

/**
 * Playwright's outputDir for this load of the config (runner or worker), and what must happen
 * before Playwright empties it, in the runner: remember what `--last-failed` would re-run (the
 * night's last-run file), carry it into a partial invocation's own folder (`carryLastRun`), and
 * refuse a folder another live runner uses (`outputDirInUse`). `--list` and `--last-failed` with
 * nothing to re-run keep the night's folder: they neither empty nor write it, and `--list
 * --last-failed` must read the night's file.
 */
export function preparePlaywrightOutputDir(o: {
  argv: string[];
  env: NodeJS.ProcessEnv;
  configured: string;
  outputs: Outputs;
  runner: boolean;
  listing: boolean;
  /** A folder of the invocation's own state, for an invocation that must write nothing of the night's. */
  scratch: string;
  /** The night's verdict folder (L1_VERDICTS_DIR), where a CI night's `last-run.json` is put. */
  nightVerdicts: string;
}): string {
  const given = outputDirFromArgv(o.argv);
  const night = given ?? o.configured;
  // `--list --last-failed` reads the night's Playwright folder as it is: nothing is carried there;
  // a CI night's record beside its verdicts is named to Playwright instead (`listingLastRun`).
  const lastRun = o.listing
    ? lastRunFile(o.argv, o.env, night)
    : lastRunSource(o.argv, o.env, night, o.nightVerdicts);
  const listFrom = o.listing && o.runner ? listingLastRun(o.argv, o.env, night, o.nightVerdicts) : undefined;
  if (listFrom) o.env.PLAYWRIGHT_LAST_RUN_OUTPUT_FILE = listFrom;
  if (o.runner && !o.listing) {
    const problem = nightOutputsProblem(given, lastRun, o.configured, o.outputs.partial);
    if (problem) throw new SettingsError(problem);
  }
  const firstLoad = o.runner && rememberLastRun(lastRun.file);
  const nothingToRerun = 'nothing' in (lastFailedPlan(o.argv) ?? {});
  // `--last-failed` with nothing to re-run: Playwright still empties its output folder and writes a
  // last-run file there ("failed": no test found), so it gets a scratch folder in the invocation's
  // state, the night's last-run file copied in to read (CLI audit of 2026-11-27: the night's folder
  // went from 42 entries to 1 under "no output was changed").
  const outputDir = o.listing
    ? night
    : nothingToRerun
      ? o.scratch
      : playwrightOutputDir(o.outputs, night, given !== undefined);
  if (firstLoad && !o.listing) carryLastRun(o.argv, lastRun, outputDir);
  const inUse =
    o.runner && !o.listing
      ? outputDirInUse(outputDir, given === undefined ? 'L1_TEST_RESULTS_DIR' : '--output')
      : undefined;
  if (inUse) throw new SettingsError(inUse);
  return outputDir;
}

/**
 * Why the demo that answers on `port` is not this invocation's to use, or undefined: it is another
 * checkout's (or another process altogether), or this checkout's demo started by another live
 * invocation, which stops it (and removes its credentials) when it ends: a second invocation that
 * borrowed it lost it half-way, every run an error naming the credentials file.
 */
export function demoProblem(
  port: number,
  url: string,
  checkout: unknown,
  startedBy: unknown,
  demoStartedAt = '',
  self = process.pid,
): string | undefined {
  if (checkout === CHECKOUT_ID) {
    // Its runner started before the demo did: a process that got the pid since is not it.
    if (typeof startedBy !== 'number' || startedBy === self || !ownerAlive(startedBy, demoStartedAt))
      return undefined;
    return `demo platform: port ${port} is this checkout's demo, started by another invocation (process ${startedBy}), which stops it when it ends: run one at a time, or give this one its own L1_DEMO_PORT`;
  }
  return `demo platform: port ${port} is held by another process, not this checkout's demo (${url} ${checkout === undefined ? 'does not say which checkout it is' : 'names another checkout'}): stop that process or set L1_DEMO_PORT to a free port`;
}

/**
 * The demo port as the runner loads the config, in demo mode (tests/setup/cli.ts `refusedAtLoad`
 * is the rest): what `demoProblem` says of the server that answers there, or undefined when none
 * does. Asked in a child process (the config loads synchronously): a held port was found only as
 * Playwright started the demo, after it had emptied its output folder, the night's record of failed
 * tests in it (CLI audit of 2026-11-28). Global setup asks again, of what answers then.
 */
export function demoPortProblemAtLoad(port: number): string | undefined {
  const url = `http://127.0.0.1:${port}/healthz`;
  // The main port: free, or what its server says of itself. When it is free, the demo will start
  // and take the two after it too (its Profile B portal, its foreign origin): held, each is named
  // as the demo would name it (demo/server.ts), since it would fail only as Playwright starts it.
  const probe = `
    const net = require('node:net');
    const held = (p) => new Promise((resolve) => {
      const socket = net.connect(p, '127.0.0.1');
      socket.on('error', () => resolve(false));
      socket.on('connect', () => { socket.destroy(); resolve(true); });
    });
    (async () => {
      if (!(await held(${port}))) {
        const taken = (await held(${port + 1})) ? ${port + 1} : (await held(${port + 2})) ? ${port + 2} : 0;
        return console.log(JSON.stringify(taken ? { taken } : 'free'));
      }
      fetch(${JSON.stringify(url)}, { signal: AbortSignal.timeout(3000) })
        .then((r) => r.json())
        .then((j) => console.log(JSON.stringify(j && typeof j === 'object' ? j : {})))
        .catch(() => console.log('{}'));
    })();`;
  const r = spawnSync(process.execPath, ['-e', probe], { encoding: 'utf8', timeout: 5000 });
  let answer: unknown;
  try {
    answer = JSON.parse(r.stdout.trim());
  } catch {
    return undefined; // the probe itself failed: global setup asks again
  }
  if (answer === 'free') return undefined;
  const { checkout, startedBy, startedAt, taken } = (answer ?? {}) as Record<string, unknown>;
  if (typeof taken === 'number')
    return `demo platform: port ${taken} (${taken === port + 1 ? 'Profile B portal, port + 1' : 'foreign origin, port + 2'}) is in use: stop what holds it or set L1_DEMO_PORT to another port`;
  return demoProblem(port, url, checkout, startedBy, typeof startedAt === 'string' ? startedAt : '');
}
