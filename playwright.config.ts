import fs from 'node:fs';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { CHECKOUT_ID, demoCredentialsFile, demoProfileB, demoRuns } from './demo/runs';
import { allureWriteGuard } from './lib/report/allure/write-guard';
import { decideOutputs, removeOwnFolder } from './lib/report/outputs';
import { INTERRUPTED_MARK } from './lib/report/run-verdict';
import { chromiumLaunchOptions } from './lib/run/browser';
import { beginInvocation, currentInvocation } from './lib/run/invocation';
import { refusedCommandLine } from './lib/run/selection';
import { SettingsError } from './lib/run/runs';
import { checkTimeoutMs, settings, tsScript, useDefaultRuns, useNight } from './lib/run/settings';
import { demoPortProblemAtLoad, preparePlaywrightOutputDir, refusedAtLoad } from './tests/setup/cli';

/**
 * The report checks (docs/contract.md §8): per configured run, one group of tests declared in
 * tests/checks.spec.ts (its collection, then items 3 to 12), loaded in parts (tests/checks/).
 * Nothing else runs here: unit tests and self-tests have their own configs under `npm test`. Each
 * run's tests write its verdict file; the global teardown writes the night's index, summary and
 * JUnit, whatever `--reporter` says.
 */

// With no run configured: the bundled demo platform (started below) and its runs (docs/contract.md §1).
const demoOrigins = (port: number) => ({
  main: `http://127.0.0.1:${port}`,
  portalB: `http://127.0.0.1:${port + 1}`,
});
useDefaultRuns((port) => {
  const { main, portalB } = demoOrigins(port);
  return {
    runs: demoRuns(main, portalB),
    profileB: demoProfileB(new URL(portalB).host),
    credentialsFile: demoCredentialsFile(port),
  };
});

const isWorker = process.env.TEST_WORKER_INDEX !== undefined;
// Workers fill the batch date the runner fixed, even when they start after midnight.
useNight(currentInvocation()?.night);
const config = settings();
const argv = process.argv;
/**
 * `--list` changes nothing: global setup and teardown do not run, and allure-playwright, which
 * would write a "skipped" result for every listed test, is left out.
 */
const listing = argv.includes('--list');
// Before Playwright empties its output folder (the night's record of failed tests), and before the
// invocation begins: what global setup would refuse from the command line and settings alone too
// (tests/setup/cli.ts `refusedAtLoad`).
const refused = isWorker
  ? undefined
  : (refusedCommandLine(argv, process.env) ??
    (listing
      ? undefined
      : (refusedAtLoad(argv, config) ??
        (config.mode === 'demo' ? demoPortProblemAtLoad(config.demoPort) : undefined))));
if (refused) throw new SettingsError(refused);
const invocation = beginInvocation(config, argv, (selection, _id, now) =>
  decideOutputs(config, selection, now, { reserve: !listing }),
);
// A partial invocation's own folder is made as its outputs are decided (lib/report/outputs.ts
// `ownFolder`): one that writes nothing into it (refused below or in global setup, nothing to
// re-run) leaves none behind, nor a parent made for it.
const ownFolder = invocation.outputs.folder;
if (!isWorker && !listing && ownFolder) process.once('exit', () => removeOwnFolder(ownFolder));
const scratch = path.join(invocation.dir, 'test-results');
const outputDir = preparePlaywrightOutputDir({
  argv,
  env: process.env,
  configured: config.paths.testResults,
  outputs: invocation.outputs,
  runner: !isWorker,
  listing,
  scratch,
  nightVerdicts: config.paths.verdicts,
});
// `--last-failed` with nothing to re-run writes only to its scratch folder, and claims nothing, so
// its teardown removes no state: the scratch folder goes when the runner exits, and the invocation's
// folder with it if nothing else is in it (an invocation id given again, L1_INVOCATION_ID, may name
// another invocation's folder, which is not this one's to remove). L1_KEEP_STATE keeps both, as it
// keeps every invocation's. Before, they stayed until a later invocation's sweep of day-old ones.
if (!isWorker && !listing && outputDir === scratch && !config.keepState)
  process.once('exit', () => {
    fs.rmSync(scratch, { recursive: true, force: true });
    try {
      fs.rmdirSync(invocation.dir);
    } catch {
      // not empty: another invocation's under the same id
    }
  });

/**
 * SIGTERM (a CI timeout, a cancelled job, a container stop) is handled like Ctrl-C: the runner
 * stops, the tests in flight are interrupted, the global teardown writes what finished and says
 * which runs were interrupted. Workers leave the signal to the runner, as they do with SIGINT.
 */
if (!isWorker && !listing) {
  const mark = (signal: string) => {
    try {
      // The first signal names the stop (SIGTERM is passed on as SIGINT).
      fs.writeFileSync(
        path.join(invocation.dir, INTERRUPTED_MARK),
        JSON.stringify({ signal, at: new Date().toISOString() }),
        { flag: 'wx', mode: 0o600 },
      );
    } catch {
      // already marked, or the invocation had not begun its folder
    }
  };
  process.once('SIGINT', () => mark('SIGINT'));
  // An Allure results write that fails (a full disk) no longer ends the runner and the night with
  // it: said, recorded for npm run report, and the checks go on (lib/report/allure/write-guard.ts).
  if (invocation.outputs.allureResults)
    process.on(
      'unhandledRejection',
      allureWriteGuard(
        invocation.outputs.allureResults,
        invocation.id,
        (line) => process.stderr.write(`${line}\n`),
        invocation.dir,
      ),
    );
  // Every SIGTERM, not only the first: one stop often comes twice within milliseconds (to the
  // group, and passed on by the main job), and a SIGTERM without a listener ends the runner at
  // once, with no teardown. Each becomes a SIGINT; Playwright ignores a second within a second.
  process.on('SIGTERM', () => {
    mark('SIGTERM');
    process.emit('SIGINT');
  });
} else if (isWorker) {
  process.on('SIGTERM', () => {});
}

/** A command line for the shell Playwright starts webServer in: every word quoted. */
const shellLine = (words: string[]) => words.map((w) => `'${w.replaceAll("'", `'\\''`)}'`).join(' ');

export default defineConfig({
  testDir: 'tests',
  // The checks are declared in tests/checks.spec.ts and loaded in parts (lib/run/runs.ts RUN_PARTS).
  testMatch: /checks[\\/]part-\d\d\.spec\.ts$/,
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  retries: 0,
  workers: config.workers,
  globalSetup: './tests/setup/global.setup.ts',
  globalTeardown: './tests/setup/global.teardown.ts',
  outputDir,
  reporter: [
    ['list'],
    // A CI shard (scripts/ci/shard.sh) also writes a blob report for `playwright merge-reports`.
    ...(process.env.PLAYWRIGHT_BLOB_OUTPUT_DIR ? [['blob'] as const] : []),
    ...(listing
      ? []
      : [
          [
            'allure-playwright',
            { resultsDir: invocation.outputs.allureResults, detail: false, suiteTitle: false },
          ] as const,
        ]),
  ],
  // The first test of a run collects it within its own budget (L1_RUN_TIMEOUT_MS).
  timeout: checkTimeoutMs(config.limits),
  use: {
    // The suite's test type has no trace, screenshot or video fixture (fixtures/base.ts): sessions
    // and report data never end up in such artifacts. `trace` stays, so that global setup sees a
    // `--trace` on the command line and refuses it rather than let it be ignored.
    trace: 'off',
    launchOptions: chromiumLaunchOptions(config.env),
  },
  webServer:
    config.mode === 'demo'
      ? {
          // Node with the demo's bundle (lib/run/settings.ts `tsScript`), quoted for the shell
          // Playwright uses: one process, where `npx tsx` started three (npm's CLI, tsx's, the demo's).
          command: shellLine(tsScript('demo/server.ts').flat()),
          // Another checkout's demo answers 409 here, so ours is started (and says the port is
          // taken); a server that answers 200 is reused only after global setup proved it is ours.
          url: `${demoOrigins(config.demoPort).main}/healthz?checkout=${CHECKOUT_ID}`,
          reuseExistingServer: true,
          // The demo says which runner started it: global setup refuses to borrow another's.
          env: { L1_DEMO_PORT: String(config.demoPort), L1_DEMO_STARTED_BY: String(process.pid) },
          stdout: 'ignore',
          stderr: 'pipe',
          timeout: 60_000,
          gracefulShutdown: { signal: 'SIGTERM', timeout: 3000 },
        }
      : undefined,
});
