/**
 * `npm run report [-- --verdicts DIR] [--results DIR] [--output DIR] [--history FILE]`: the night's
 * report, rebuilt from what is on disk (README.md § Run it nightly in CI).
 *
 * 1. An invocation that was killed (SIGKILL, out of memory) before its teardown is finished first:
 *    its runs in flight get verdicts saying they were interrupted (lib/report/finish.ts).
 * 2. The verdict folder's index.json, summary.md and junit.xml are written again from its verdict
 *    files, and the grid is printed.
 * 3. The Allure results get the night's environment block and grid (from every shard's facts and
 *    the verdicts); every run of the night is in them (a test the night's stop left without a
 *    result gets one from its run's verdict, lib/report/allure/results.ts `completeNight`); the
 *    items of runs not checked, skipped in Playwright so that a broken run costs one worker
 *    restart, are shown as `broken` with their reason (Allure leaves skipped tests out of its
 *    success rate); Playwright's `error-context` prompt (which repeats the failure) is dropped.
 * 4. `allure generate` (scripts/allure-generate.mjs, through Allure's core API; allurerc.mjs:
 *    awesome, single file, categories, variables) writes ONE self-contained HTML file; a point is
 *    added to the history only for a complete night that is not in it yet and where no run was
 *    interrupted (a partial invocation, a second build of the same night, a night stopped before
 *    every test ran: no point). The history it reads is first bounded: each line cut to what the
 *    report reads, the file to the newest nights that fit L1_ALLURE_HISTORY_MB
 *    (lib/report/allure/history.ts).
 * 5. Every reference to an external host is removed and the output checked (offline.ts); a report
 *    still naming one is deleted.
 *
 * Exit 0 when the report was built; 1 when it could not be (no results, the results of another
 * invocation than the verdicts, allure failed, an external host left); 2 on bad usage.
 */
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { scanOutputsReport } from '../lib/redaction';
import { readInvocationFacts, writeNightExtras } from '../lib/report/allure/facts';
import {
  alreadyInHistory,
  boundHistory,
  commitNight,
  HISTORY_NIGHTS,
  historyPoint,
} from '../lib/report/allure/history';
import { completeNight, prepareResults } from '../lib/report/allure/results';
import { incompleteResults } from '../lib/report/allure/write-guard';
import { nightVariables } from '../lib/report/allure/summary';
import * as offline from '../lib/report/allure/offline';
import { finishKilledInvocations } from '../lib/report/finish';
import { countsLine, gridText } from '../lib/report/night';
import { allureIncompleteNoted, MARK, reportFolderFor, reportFolderProblem } from '../lib/report/outputs';
import { runTitle } from '../lib/report/text';
import { readNight, writeNightFiles } from '../lib/report/verdict-folder';
import { settings, SettingsError, type Settings } from '../lib/run/settings';
import { parseArgsOrUsage } from '../lib/util/args';
import { stagingBeside, writeAtomic } from '../lib/util/atomic';
import { heapTrimmer } from '../lib/util/heap';
import { shownPath } from '../lib/util/shown-path';

const ROOT = path.resolve(__dirname, '..');

function fail(message: string, code = 1): never {
  process.stderr.write(`report: ${message}\n`);
  process.exit(code);
}

function markOf(dir: string): { invocation?: string; complete?: boolean } | undefined {
  try {
    return JSON.parse(fs.readFileSync(path.join(dir, MARK), 'utf8')) as {
      invocation?: string;
      complete?: boolean;
    };
  } catch {
    return undefined;
  }
}

/**
 * The night's id for the history: the invocations whose results make it and their nights (a
 * rebuild adds no point; an invocation id given again on another night is another night).
 */
function nightId(results: string): string {
  const ids = readInvocationFacts(results)
    .map((f) => `${f.id}@${f.night ?? ''}`)
    .sort();
  return crypto.createHash('sha256').update(ids.join(',')).digest('hex').slice(0, 16);
}

/** Removes the lines of the history file that hold a secret (the guard's findings), saying so. */
function cleanHistory(history: string): void {
  if (!fs.existsSync(history)) return;
  // The history file alone: not the output folders, nor those the L1_* variables name (the scale
  // audit of 2026-11-26: at 300 runs they made this step 34 s instead of 20 s, read twice a night).
  const scan = scanOutputsReport({
    root: ROOT,
    defaultOutputs: false,
    envOutputs: false,
    extraPaths: [history],
  });
  const found = scan.findings;
  if (found.length === 0 && scan.unscanned.length === 0) return;
  const lines = new Set(found.flatMap((f) => (f.line === undefined ? [] : [f.line])));
  const all = fs.readFileSync(history, 'utf8').split('\n');
  // A finding without a line (the file as a whole), or a part the guard could not read: nothing
  // of it is kept.
  const whole = scan.unscanned.length > 0 || found.some((f) => f.line === undefined);
  const kept = whole ? [] : all.filter((_, i) => !lines.has(i + 1));
  // Whole or not at all, as boundHistory writes it: a stop mid-write must not cut the nights kept.
  writeAtomic(history, kept.join('\n'));
  const why = [
    found.length ? `holding a secret (${[...new Set(found.map((f) => f.detector))].join(', ')})` : '',
    scan.unscanned.length ? 'that the guard could not read whole' : '',
  ].filter(Boolean);
  process.stdout.write(
    `history: removed ${all.length - kept.length} line(s) of ${shownPath(history)} ${why.join(' and ')}: later nights' reports start without them\n`,
  );
}

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/**
 * Bounds the history the report reads (lib/report/allure/history.ts), saying what it removed: a
 * line that is not JSON (a write cut short: Allure could not read the file with it), each line
 * cut to what the report reads, then the newest nights that fit L1_ALLURE_HISTORY_MB. The
 * report step's memory and the report's size grow with the history it reads (the scale audit of
 * 2026-11-26: at 300 runs, 2.5 GB and a 293 MB file with 30 nights of full lines).
 */
function boundHistoryBeforeReport(history: string, budgetBytes: number): void {
  const b = boundHistory(history, budgetBytes);
  if (!b) return;
  const shown = shownPath(history);
  if (b.torn)
    process.stdout.write(
      `history: removed ${b.torn} line(s) of ${shown} that are not JSON (a write cut short): Allure could not read the file with them\n`,
    );
  if (b.slimmed)
    process.stdout.write(
      `history: ${b.slimmed} night(s) of ${shown} cut to what the report reads (${megabytes(b.bytesBefore)} before)\n`,
    );
  if (b.kept === b.nights) return;
  const budget = `L1_ALLURE_HISTORY_MB=${budgetBytes / 1024 / 1024}`;
  process.stdout.write(
    b.kept === 0
      ? `history: removed all ${b.nights} night(s) of ${shown}: not even the newest fits ${budget}, so the report shows no history (raise it where the machine has the memory)\n`
      : `history: kept the newest ${b.kept} of ${b.nights} night(s) of ${shown} (${megabytes(b.bytesAfter)}; ${
          b.kept === HISTORY_NIGHTS
            ? `Allure reads ${HISTORY_NIGHTS}`
            : `${budget}: the report step's memory grows with the history it reads`
        })\n`,
  );
}

/**
 * The file a history path names: through a symbolic link, its target (also one not made yet). Every
 * write of the history puts a new file in place by a rename, which replaced the link itself: a
 * history kept on a persistent volume through a link (`allure-history/history.jsonl ->
 * /cache/…`) got no night after the first, which went into a plain file in the workspace
 * (file-system audit of 2026-11-28).
 */
function linkTarget(file: string): string {
  let target = file;
  // A link to a link is followed too, as the kernel follows them (40 at most).
  for (let hops = 0; hops < 40; hops++) {
    try {
      if (!fs.lstatSync(target).isSymbolicLink()) return target;
      target = path.resolve(path.dirname(target), fs.readlinkSync(target));
    } catch {
      return target; // not there yet
    }
  }
  return target;
}

/** The settings' folders (the runs are not needed to build a report); a bad setting is exit 2. */
function folderSettings(): Settings {
  try {
    return settings({ runsOptional: true });
  } catch (e) {
    if (!(e instanceof SettingsError)) throw e;
    // As scripts/runs.ts and merge.ts say it: the message names the setting or file itself.
    fail(e.message, 2);
  }
}

const REPORT_USAGE =
  'usage: npm run report [-- --verdicts DIR] [--results DIR] [--output DIR] [--history FILE] [--quiet]';

function main(): void {
  const { values } = parseArgsOrUsage(
    {
      options: {
        verdicts: { type: 'string' },
        results: { type: 'string' },
        output: { type: 'string' },
        history: { type: 'string' },
        quiet: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    },
    'npm run report',
    REPORT_USAGE,
  );
  if (values.help) {
    process.stdout.write(`${REPORT_USAGE}\n`);
    return;
  }
  const s = folderSettings();
  const resolve = (given: string | undefined, fallback: string) =>
    given ? path.resolve(ROOT, given) : fallback;
  const verdicts = resolve(values.verdicts, s.paths.verdicts);
  const results = resolve(values.results, s.paths.allureResults);
  const output = resolve(values.output, reportFolderFor(s, results));
  const history = linkTarget(resolve(values.history, s.paths.history));
  // Generating removes the report folder whole: never one that holds anything else.
  const unsafe = reportFolderProblem(
    output,
    {
      'verdict folder': verdicts,
      'Allure results': results,
      'Allure history': path.dirname(history),
      'state folder': s.paths.state,
    },
    ROOT,
  );
  if (unsafe) fail(unsafe, 2);
  // A verdict folder named on the command line that is not there is a typo, not a report without
  // verdicts (which would say "partial invocation" and add no history point, with exit 0).
  if (values.verdicts && !fs.existsSync(verdicts))
    fail(`--verdicts ${shownPath(verdicts)}: no such folder (the verdict folder of the night to report)`, 2);
  // A file given for it is the same typo: its report was built of the results alone, exit 0
  // (file-system audit of 2026-11-28).
  if (values.verdicts && !fs.statSync(verdicts).isDirectory())
    fail(
      `--verdicts ${shownPath(verdicts)}: a file, not a folder (the verdict folder of the night to report)`,
      2,
    );

  // 1. Invocations that were killed before they could finish.
  for (const line of finishKilledInvocations(s.paths.state)) process.stdout.write(`report: ${line}\n`);

  // 2. The verdict folder's own files, again from its verdicts. A folder whose night never
  // finished, and could not be finished in 1., is a night stopped early: never a whole one.
  const { folder, unfinished, summary } = readNight(verdicts);
  for (const p of folder.problems) process.stderr.write(`report: ${p}\n`);
  if (unfinished) process.stderr.write(`report: ${shownPath(verdicts)}: ${unfinished}\n`);
  if (summary) {
    writeNightFiles(verdicts, folder.entries, summary);
    if (!values.quiet)
      process.stdout.write(`\nL1 verdicts (${shownPath(verdicts)}):\n${gridText(summary)}\n\n`);
  } else process.stderr.write(`report: no verdict in ${shownPath(verdicts)}\n`);

  // 3. The Allure results.
  const hasResults =
    fs.existsSync(results) && fs.readdirSync(results).some((n) => n.endsWith('-result.json'));
  const vMark = markOf(verdicts);
  const rMark = markOf(results);
  // A night killed before any test ended has no result yet, but its results folder is its own (the
  // mark of the verdicts' invocation): its tests are made from the verdicts below, as the tests a
  // stop left without a result are (regression check of 2026-11-28: the report was refused).
  const killedEarly =
    !hasResults &&
    summary !== undefined &&
    vMark?.invocation !== undefined &&
    rMark?.invocation === vMark.invocation;
  if (!hasResults && !killedEarly)
    fail(
      `no Allure results in ${shownPath(results)}: run the checks first (an invocation with --reporter other than Allure writes none, and leaves the folder as it was)`,
    );
  // What allure-playwright could not write (a full disk: lib/report/allure/write-guard.ts) is
  // missing from the results: no report that reads whole without it.
  // The results folder's record is lost with the write it records on a full disk, and a night
  // whose space was freed since would be reported whole: the night's marks say it too.
  const incomplete = incompleteResults(results) ?? allureIncompleteNoted(verdicts, results);
  if (incomplete) fail(`${incomplete}: run the checks again once the folder can be written`);
  if (vMark?.invocation && rMark?.invocation && vMark.invocation !== rMark.invocation)
    fail(
      `${shownPath(results)} holds the results of invocation ${rMark.invocation}, ${shownPath(verdicts)} the verdicts of ${vMark.invocation}: two nights would be one report. Give the verdicts of the same invocation (--verdicts DIR: a merge's, scripts/ci/merge.sh and local-pipeline.sh, are in its OUT_DIR/verdicts), or run the checks again with the configured reporters (was the last invocation run with another --reporter?)`,
    );
  if (summary) writeNightExtras(results, summary);
  // Every run of the night from its verdict: tests the stop left without a result get one.
  const completed = completeNight(results, folder.verdicts, {
    titleOf: (label) => {
      const n = s.runs.findIndex((r) => r.label === label);
      return n < 0 ? undefined : runTitle(label, n + 1);
    },
    configured: (label) => s.runs.find((r) => r.label === label)?.input,
    profileB: s.profileB,
  });
  if (completed.idsDiffer)
    process.stderr.write(
      `report: the results made for tests that did not run have other ids than allure-playwright gives (their history does not join): ${completed.idsDiffer}\n`,
    );
  const { broken } = prepareResults(results);

  // 4. Generate. The history is bounded first, one line at a time, so that what reads it whole
  // next reads only what the report will; a line that is not JSON goes then, so one torn write
  // does not fail every later night's report. A history line holding a secret (an earlier
  // night's) is removed, so one bad night does not fail every later night's guard.
  boundHistoryBeforeReport(history, s.limits.historyBytes);
  cleanHistory(history);
  const id = nightId(results);
  // A point only for a whole night not in the history yet (lib/report/allure/history.ts historyPoint):
  // not a partial invocation, one shard's folder (`npm run demo -- --shard 1/3`: the merged night
  // adds it), a night with runs interrupted or one stopped early.
  const point = historyPoint(summary, history, () => alreadyInHistory(history, id));
  const append = point.append;
  // Allure writes into a folder of its own beside the report, moved in place only once cleaned and
  // verified (5.): a build stopped or killed half-way never leaves at the report's path a file
  // that calls out. The report before it is removed first, so that none is taken for tonight's.
  // A stopped build's folder is removed by the next build.
  fs.rmSync(output, { recursive: true, force: true });
  // Tonight's history point goes to a copy of the history, put in place with the point naming the
  // night (commitNight, below): a build killed between Allure's append and the night's record
  // added the point again at the next build. What a killed build staged is removed.
  const staged = stagingBeside(output);
  const work = stagingBeside(history);
  for (const stale of [...staged.stale, ...work.stale]) fs.rmSync(stale, { recursive: true, force: true });
  const building = staged.path;
  fs.mkdirSync(path.dirname(history), { recursive: true });
  if (append && fs.existsSync(history)) fs.copyFileSync(history, work.path);
  const env = {
    ...process.env,
    ALLURE_NO_ANALYTICS: 'true',
    L1_ALLURE_HISTORY_PATH: append ? work.path : history,
    L1_ALLURE_APPEND_HISTORY: append ? '1' : '0',
    L1_ALLURE_VARIABLES: JSON.stringify(summary ? nightVariables(summary) : {}),
  };
  // This process waits for Allure with what reading the history left in its heap: collected
  // first, as the two add up (the scale audit: 1.25 GB of it before a history of 251 MB).
  heapTrimmer({ floorBytes: 64 * 1024 * 1024 })();
  // Allure's generate through its core API (scripts/allure-generate.mjs), without its CLI's start.
  const generated = spawnSync(
    process.execPath,
    [
      path.join(ROOT, 'scripts', 'allure-generate.mjs'),
      // The results folder as a path, never a pattern: Allure's CLI read its folders as glob
      // patterns, and a folder such as `reports {nightly}` had no report (file-system audit of
      // 2026-11-28: "No test results directories found", exit 3). allurerc.mjs takes its paths
      // from its own folder.
      '--results',
      results,
      '--config',
      path.join(ROOT, 'allurerc.mjs'),
      '--output',
      building,
    ],
    { cwd: ROOT, env, stdio: 'inherit' },
  );
  if (generated.status !== 0) {
    // What Allure wrote before it stopped is not cleaned of its external calls: not left behind.
    fs.rmSync(building, { recursive: true, force: true });
    fs.rmSync(work.path, { force: true });
    fail(`allure generate failed (exit ${generated.status ?? generated.signal})`);
  }
  if (append && fs.existsSync(work.path)) {
    // This night's line as the others: only what the report reads (the budget applies next night,
    // before the report reads it). And a secret the guard would find there is not kept. Then in
    // place, naming the night, and listed.
    boundHistory(work.path, Infinity);
    cleanHistory(work.path);
    if (!commitNight(work.path, history, id))
      process.stderr.write(
        `history: Allure appended no point for this night to ${shownPath(history)}: the night is listed, not named in a point\n`,
      );
    fs.appendFileSync(`${history}.nights`, `${id}\n`);
  }
  if (!fs.existsSync(path.join(building, 'index.html'))) {
    fs.rmSync(building, { recursive: true, force: true });
    fail(`allure generate wrote no index.html for ${shownPath(output)}`);
  }

  // 5. Clean, verify.
  const urls: string[] = [];
  for (const v of folder.verdicts) urls.push(v.run.htmlUrl, v.run.platformUrl);
  for (const f of readInvocationFacts(results)) urls.push(...f.baseUrls);
  const extra = (s.values.L1_REPORT_ALLOWED_HOSTS ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
  const allowedHosts = [...new Set([...offline.runHosts(urls), ...extra])].filter(
    (h) => !offline.isLoopbackHost(h),
  );
  const options = { allowedHosts };
  const textFile = /\.(html?|json|jsonl|js|mjs|css|txt|csv|md|xml|svg)$/i;
  const removed: string[] = [];
  const problems: string[] = [];
  for (const rel of fs.readdirSync(building, { recursive: true }).map(String)) {
    const file = path.join(building, rel);
    if (!fs.statSync(file).isFile() || !textFile.test(file)) continue;
    const cleaned = offline.makeOffline(fs.readFileSync(file, 'utf8'), options);
    fs.writeFileSync(file, cleaned.html, 'utf8');
    const shown = shownPath(path.join(output, rel));
    removed.push(...cleaned.removed.map((d) => `${shown}: ${d}`));
    const left = offline.findExternalUrls(cleaned.html, options);
    if (left.length) problems.push(`${shown}:\n${offline.describeExternalUrls(left)}`);
  }
  if (problems.length) {
    fs.rmSync(building, { recursive: true, force: true });
    fail(
      `the generated report still names external hosts, so it was deleted (a report of confidential figures must not call out):\n${problems.join('\n')}`,
    );
  }
  fs.renameSync(building, output);
  const index = path.join(output, 'index.html');
  // --quiet (the main job, which names the report in its own closing lines): no path twice.
  process.stdout.write(
    [
      `${values.quiet ? 'Allure report built' : `Allure report: ${shownPath(index)}`} (self-contained; names no external host${allowedHosts.length ? ` besides the runs' ${allowedHosts.join(', ')}` : ''})`,
      summary ? `night: ${countsLine(summary)}` : '',
      broken ? `${broken} item(s) of runs not checked shown as broken (skipped in Playwright)` : '',
      completed.made
        ? `${completed.made} test(s) of runs not checked that left no result shown as broken, from their verdicts`
        : '',
      completed.cut ? `${completed.cut} test(s) cut by the stop shown in their run, as interrupted` : '',
      `history: ${point.line}`,
      removed.length ? `removed: ${removed.join('; ')}` : '',
    ]
      .filter(Boolean)
      .join('\n') + '\n',
  );
}

main();
