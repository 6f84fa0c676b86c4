import path from 'node:path';
import type { FullConfig } from '@playwright/test';
import { allureWrites } from '../../lib/report/allure/reporters';
import { teeConsole } from '../../lib/report/console';
import { clearEarlierInvocation, finishAtExit, invocationAlive, writeClaim } from '../../lib/report/finish';
import { claimOutputs, markOutputDir, otherNightWarning, writeHandoff } from '../../lib/report/outputs';
import { suiteInfo } from '../../lib/report/suite';
import { browserDescription } from '../../lib/run/browser';
import { invocation } from '../../lib/run/invocation';
import { checkTimeoutMs, settings } from '../../lib/run/settings';
import { privateDir, removeStaleInvocations } from '../../lib/run/state';
import { SecretMask, runUrls } from '../../lib/redaction';
import { demoProblem, lastFailedPlan, raisedTimeoutNote, stopLimits, suiteOutput } from './cli';
import { shownPath } from '../../lib/util/shown-path';
import { printVerdicts } from './global.teardown';

/**
 * The server on the demo port must be this checkout's demo (playwright.config.ts reuses a running
 * one): a leftover server of another checkout, an old version or any other process there would
 * take over every run. Checked before anything is claimed or written.
 */
async function checkDemoIdentity(port: number): Promise<void> {
  const url = `http://127.0.0.1:${port}/healthz`;
  let answer: unknown;
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(5000) });
    answer = await res.json();
  } catch {
    answer = undefined;
  }
  const { checkout, startedBy, startedAt } = (answer ?? {}) as Record<string, unknown>;
  const problem = demoProblem(port, url, checkout, startedBy, typeof startedAt === 'string' ? startedAt : '');
  if (problem) throw new Error(problem);
}

/**
 * Runs once per invocation that runs tests (not for `--list`, which changes nothing): says where
 * the runs came from and which browser checks them, claims the output folders (two invocations
 * writing one folder is refused), empties them of what an earlier invocation of the suite wrote
 * there, starts keeping the console, and records what is needed to finish the invocation, also by
 * another process after a kill (lib/report/finish.ts).
 */
export default async function globalSetup(config: FullConfig): Promise<void> {
  const s = settings();
  // What the command line and settings alone refuse was refused as the config loaded, before
  // Playwright emptied its output folder (tests/setup/cli.ts `refusedAtLoad`); the demo this
  // invocation uses is asked again here, once Playwright has started or reused it.
  if (s.mode === 'demo') await checkDemoIdentity(s.demoPort);
  const inv = invocation();
  const out = suiteOutput(config);
  const rerun = lastFailedPlan(process.argv);
  if (rerun && 'nothing' in rerun) {
    out.write(`\n${rerun.nothing}\n`);
    return;
  }
  if (rerun) out.write(`\n${rerun.note}\n`);
  const allure = allureWrites(config.reporter);
  const notes = claimOutputs(allure ? inv.outputs : { ...inv.outputs, allureResults: '' }, inv, s.root);
  const outputDirs = [...new Set(config.projects.map((p) => p.outputDir))];
  for (const dir of outputDirs) markOutputDir(dir, inv);
  privateDir(inv.dir);
  clearEarlierInvocation(inv.dir, inv.runs);
  for (const dir of [inv.auth, inv.runs]) privateDir(dir);
  const browser = browserDescription(s.env, s.paths.state);
  // The teardown writes outputs only for an invocation whose setup claimed them (Playwright runs
  // the teardown even when this setup failed, e.g. refused a folder another invocation writes).
  writeClaim({
    pid: process.pid,
    invocation: inv,
    runs: s.runs,
    allure,
    keepState: s.keepState,
    outputDirs,
    profileB: s.profileB,
    facts: {
      id: inv.id,
      suite: `${suiteInfo().name} ${suiteInfo().version}`,
      runsFrom: s.runsFrom,
      profileB: s.profileBFrom,
      ...(inv.night ? { night: inv.night.describe } : {}),
      shard: inv.selection.shard,
      selection: inv.selection.complete ? 'every item' : inv.selection.filters.join(' '),
      workers: config.workers,
      playwright: config.version,
      browser,
      partial: inv.outputs.partial,
    },
  });
  writeHandoff(s.paths.state, inv.outputs, inv.id, allure);
  // Past --global-timeout Playwright never runs the teardown: the night is finished at exit then.
  const limits = stopLimits(config);
  process.once('exit', () => {
    const finished = finishAtExit(inv.dir, limits);
    if (finished && 'failed' in finished) out.write(`\n${finished.failed}\n`);
    else if (finished) printVerdicts(finished, out);
  });
  // The console (a CI log the guard never sees) masked for the registry's values, the sessions'
  // cookies and URL secrets, before the terminal or console.log gets a line.
  teeConsole(
    path.join(inv.outputs.verdicts, 'console.log'),
    new SecretMask(s.root, { env: s.env, authDirs: [inv.auth], urls: runUrls(s.runs) }).mask,
  );
  removeStaleInvocations(s.paths.state, (id) => invocationAlive(s.paths.state, id));
  const lines = [
    `runs: ${s.runsFrom}`,
    `Profile B: ${s.profileBFrom}`,
    `browser: ${browser}`,
    `outputs: ${inv.outputs.note ?? `${shownPath(inv.outputs.verdicts)}${allure ? ` and ${shownPath(inv.outputs.allureResults)}` : ' (no Allure results: --reporter replaced the Allure reporter)'}`}`,
    ...[...s.warnings, inv.outputs.partial ? otherNightWarning(s.paths.verdicts, inv.night) : undefined]
      .filter(Boolean)
      .map((w) => `warning: ${w}`),
    ...notes.map((n) => `note: ${n}`),
    ...[raisedTimeoutNote(config, checkTimeoutMs(s.limits))].filter(Boolean).map((n) => `note: ${n}`),
  ];
  out.write(`\n${lines.join('\n')}\n\n`);
}
