/**
 * `npm run merge -- [--shards N] SHARD_VERDICT_DIR...` (README.md § Run it nightly in CI): merges
 * the verdict folders of n shards into the night's verdict folder (L1_VERDICTS_DIR, default
 * reports/verdicts; `--out DIR` overrides), emptied first of the files the suite wrote there.
 * Writes every verdict and the night files (index.json, summary.md, junit.xml) of one night
 * summary, and the union of the shards' `last-run.json` (what `--last-failed` re-runs), prints the
 * grid and every problem: a run found in two shards, a configured run found in none (each written
 * as an `error` verdict, so the merged files count it as the exit code does), a shard `i/n` of the
 * night that no folder holds (n: `--shards`, else the shards' verdicts say it), a folder that is
 * missing or holds no verdict although its shard had runs, a file that is not a verdict. A shard
 * that had no run (more shards than runs) is fine.
 *
 * Exit code: that of the merged verdicts (0 all checked and passing, 1 some item failed, 2 some
 * run not checked), or 2 when the merge itself found a problem; 3 when nothing was merged (an
 * output folder refused, or the merged folder could not be written: what was written is removed).
 */
import path from 'node:path';
import { knownRunLabels, mergeLastRuns, mergeVerdictFolders } from '../lib/report/merge';
import { gridText, jobExitCode, type NightSummary } from '../lib/report/night';
import { writeIncompleteRecord } from '../lib/report/allure/write-guard';
import { allureIncompleteOf, claimOutputs, emptyOwnFiles, releaseOutputs } from '../lib/report/outputs';
import { safeText } from '../lib/report/text';
import { writeVerdictFolder } from '../lib/report/verdict-folder';
import { VERDICT_FOLDER_LAST_RUN } from '../lib/schema/verdict';
import { writeAtomic } from '../lib/util/atomic';
import { readDotenv, settings, SettingsError, type Settings } from '../lib/run/settings';
import { parseArgsOrUsage } from '../lib/util/args';
import { shownPath } from '../lib/util/shown-path';

const ROOT = path.resolve(__dirname, '..');
const USAGE =
  'usage: npm run merge -- [--out DIR] [--allure-results DIR] [--shards N] SHARD_VERDICT_DIR... (into L1_VERDICTS_DIR, default reports/verdicts)';

function main(): number {
  const { values, positionals } = parseArgsOrUsage(
    {
      options: {
        out: { type: 'string' },
        'allure-results': { type: 'string' },
        shards: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      allowPositionals: true,
    },
    'merge',
    USAGE,
  );
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  // The plan's shard count: with it, a shard whose job left no folder is found even when it is the
  // only one naming the count (the last shard lost), or every shard but one.
  const shards = values.shards === undefined ? undefined : Number(values.shards);
  if (shards !== undefined && !(Number.isInteger(shards) && shards >= 1)) {
    process.stderr.write(
      `merge: --shards must be a whole number of shards, 1 or more, got: ${values.shards}\n${USAGE}\n`,
    );
    return 2;
  }
  if (positionals.length === 0) {
    process.stderr.write(`merge: no shard verdict folder given\n${USAGE}\n`);
    return 2;
  }
  let s: Settings;
  try {
    s = settings({ runsOptional: true });
  } catch (e) {
    // 2, never Node's 1 of an uncaught error, which reads as "some item failed" downstream
    // (scripts/ci/merge.sh records this code; scripts/ci/finish.sh reads it).
    if (!(e instanceof SettingsError)) throw e;
    process.stderr.write(`merge: ${e.message}\nmerge: exit code 2 (nothing merged)\n`);
    return 2;
  }
  const out = values.out ? path.resolve(ROOT, values.out) : s.paths.verdicts;
  // First pass without the runs: the shards' verdicts say which night they checked.
  const options = shards === undefined ? {} : { shards };
  const first = mergeVerdictFolders(positionals, null, options);
  const night = first.entries.map((e) => e.verdict.night).find(Boolean);
  const known = knownRunLabels({ env: process.env, dotenv: readDotenv(ROOT), root: ROOT }, night);
  const merged = known.runs
    ? mergeVerdictFolders(positionals, known.runs, {
        ...options,
        ...(known.profileB ? { profileB: known.profileB } : {}),
      })
    : first;
  const last = mergeLastRuns(positionals, merged.absent);
  const problems = [...known.problems, ...merged.problems];
  const notes = [...known.notes, ...merged.notes, ...(last.note ? [last.note] : [])];

  const id = `merge-${new Date().toISOString().replace(/[-:.]/g, '')}`;
  // --allure-results: the folder scripts/ci/merge.sh then copies every shard's results into, claimed
  // and emptied here like any output folder (never the checkout, a parent or the home folder; only
  // what the suite and Allure wrote there is removed).
  const allureResults = values['allure-results'] ? path.resolve(ROOT, values['allure-results']) : '';
  const outputs = { verdicts: out, allureResults, partial: !merged.selection.complete };
  try {
    claimOutputs(outputs, { id, startedAt: new Date().toISOString() }, ROOT);
  } catch (e) {
    process.stderr.write(`merge: ${e instanceof Error ? e.message : String(e)}\n`);
    // 3, not 2: nothing was merged (an output folder refused), which no verdict's code may hide;
    // scripts/ci/merge.sh copies no shard's results into a folder the merge did not claim.
    return 3;
  }
  // A shard whose Allure results a full disk left incomplete says so in its verdict folder's mark
  // (lib/report/allure/write-guard.ts); its results folder's record may be missing, and the copy of
  // its results lays the merge's mark over its own: said here, in the merged folders' marks and in
  // a record of the results folder, so that npm run report builds no report of them.
  const incomplete = positionals.flatMap((dir) => allureIncompleteOf(path.resolve(ROOT, dir)) ?? []);
  const why = incomplete.length
    ? incomplete.map((i) => `shard invocation ${i.invocation}: ${i.why}`).join('; ')
    : undefined;
  for (const i of allureResults ? incomplete : []) writeIncompleteRecord(allureResults, i.invocation, i.why);
  let summary: NightSummary;
  try {
    ({ summary } = writeVerdictFolder(out, merged.entries, merged.selection, merged.stopped));
    // Beside the night's verdicts, in its artifact: `--last-failed` in a checkout that holds them
    // re-runs the night's failures (tests/setup/cli.ts). Claiming the folder removed an older one.
    if (last.lastRun)
      writeAtomic(path.join(out, VERDICT_FOLDER_LAST_RUN), `${JSON.stringify(last.lastRun, null, 2)}\n`);
    releaseOutputs(outputs, id, [], why);
  } catch (e) {
    // A full disk, a read-only or broken folder, part-way through. Node's own uncaught exit 1 read
    // as "some item failed", and the verdicts written before the error were a night of fewer runs
    // that `npm run report` made whole-looking files of, passing (file-system audit of 2026-11-28):
    // what this merge wrote goes (it claimed and emptied the folder first), and nothing was merged.
    const removed = removeWritten(out);
    process.stderr.write(
      `merge: could not write the merged verdict folder ${shownPath(out)}: ${e instanceof Error ? e.message : String(e)}\n` +
        `merge: ${removed}; free the space or fix the folder, and merge again\nmerge: exit code 3 (nothing merged)\n`,
    );
    return 3;
  }
  const folders = `${positionals.length} shard folder${positionals.length === 1 ? '' : 's'}`;
  process.stdout.write(`\nmerge: ${merged.entries.length} run(s) from ${folders} into ${shownPath(out)}\n\n`);
  process.stdout.write(`${gridText(summary)}\n`);
  for (const n of notes) process.stdout.write(`merge: note: ${safeText(n, 1000)}\n`);
  for (const p of problems) process.stdout.write(`merge: PROBLEM: ${safeText(p, 1000)}\n`);
  // A problem of the merge (a shard absent or unfinished) means runs were not checked: 2.
  const code = jobExitCode({ checks: problems.length ? 2 : summary.exitCode });
  process.stdout.write(
    `merge: exit code ${code}${problems.length ? ` (${problems.length} problem${problems.length === 1 ? '' : 's'} in the merge)` : ''}\n`,
  );
  return code;
}

/** Removes what the merge wrote into `out` before it failed: what it says of the folder now. */
function removeWritten(out: string): string {
  try {
    const { removed } = emptyOwnFiles(out, 'verdicts');
    return `the ${removed} file(s) it had written there were removed, so that no part of the night reads as all of it`;
  } catch (e) {
    return `the files it had written there could not be removed (${e instanceof Error ? e.message : String(e)}): the folder holds part of the night, not all of it`;
  }
}

process.exitCode = main();
