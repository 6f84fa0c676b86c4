import fs from 'node:fs';
import path from 'node:path';
import { safeText } from './text';
import { redactText } from '../redaction/url';
import { readJsonFile } from '../util/json';
import { byFile, folderSelection, readVerdictFolder, type VerdictEntry } from './verdict-folder';
import {
  VERDICT_FOLDER_LAST_RUN,
  verdictIndexSchema,
  type Selection,
  type VerdictFile,
} from '../schema/verdict';
import type { Night } from '../run/night';
import type { ProfileBSettings } from '../run/types';
import { fileKeyOf, type ConfiguredRun } from '../run/runs';
import { readSettings, type SettingsSources } from '../run/settings';
import { parseShard } from '../run/selection';
import { suiteInfo } from './suite';
import { buildVerdict } from './verdict';

/**
 * Merging the verdict folders of n shards into one (docs/decisions.md, deliver 5): `npm run merge --
 * SHARD_VERDICT_DIR...` (scripts/merge.ts). Each run must come from exactly one shard: a run found
 * in two folders, or in none of them (when the runs are known), or a folder missing or empty, or a
 * shard `i/n` of the night that no folder holds (its job left no artifact), is a problem the merge
 * reports and that makes its exit code 2. A run found in two folders or in none gets an `error`
 * verdict in the merged folder, so its index, summary and JUnit agree.
 */

export interface MergeResult {
  /** The merged verdicts, by file name. */
  entries: VerdictEntry[];
  /** What makes the merge untrustworthy (exit code 2): duplicates, missing runs, bad folders or files. */
  problems: string[];
  /** What the merge could not check, said once (e.g. the runs are not known). */
  notes: string[];
  /** The merged selection: the union of the filters, no shard, complete when every shard was. */
  selection: Selection;
  /**
   * The shards of the night (`i/n`) that no folder holds results of: a job cancelled, timed out or
   * failed before its upload, or stopped before any run of it finished. Empty when n is not known.
   */
  absent: string[];
  /**
   * Why the merged night is not whole, when a shard is absent or did not finish: written as the
   * night's stop (index.json `stopped`), so its exit code is 2 and the report step adds no history
   * point, whether or not the runs those shards never reached are known (without L1_RUNS they are
   * not, and the night read as complete: review of 2026-11-27, a local pipeline of the demo).
   */
  stopped?: string;
}

export interface MergeOptions {
  /**
   * How many shards the night was split into (the plan's count, `npm run merge -- --shards N`).
   * Without it, the count the shards' verdicts name (`selection.shard`, `i/n`), when they agree.
   */
  shards?: number;
  /**
   * The Profile B settings (`knownRunLabels`): a run found in no shard gets the facts its URLs give
   * (lib/run/profile.ts `unreadRunFacts`). None: such a run is Profile A.
   */
  profileB?: ProfileBSettings;
}

interface Found {
  dir: string;
  entry: VerdictEntry;
}

const quote = (label: string) => JSON.stringify(safeText(label, 120));

/**
 * The labels of the configured runs, as the suite derives them (lib/run/settings.ts): from the
 * runs file or the one-run variables, with the night the shards used (taken from their verdicts,
 * so a merge after midnight fills `{batchDate}` as the shards did). No runs configured: the check
 * for runs found in no shard is off, with a note.
 */
export function knownRunLabels(
  sources: Pick<SettingsSources, 'env' | 'dotenv' | 'root'>,
  night?: { batchDate: string; describe: string },
): {
  labels: string[] | null;
  runs: ConfiguredRun[] | null;
  profileB?: ProfileBSettings;
  notes: string[];
  problems: string[];
} {
  let settings;
  const fixed: Night | undefined = night && {
    ...night,
    given: night.batchDate,
    timeZone: 'as the shards used',
  };
  try {
    settings = readSettings({
      ...sources,
      now: new Date(),
      runsOptional: true,
      ...(fixed ? { night: fixed } : {}),
    });
  } catch (e) {
    return {
      labels: null,
      runs: null,
      notes: [],
      problems: [`${(e as Error).message}: the runs found in no shard are not known`],
    };
  }
  if (settings.mode === 'none')
    return {
      labels: null,
      runs: null,
      notes: ['no runs are configured here (L1_RUNS): a run found in no shard cannot be detected'],
      problems: [],
    };
  return {
    labels: settings.runs.map((r) => r.label),
    runs: settings.runs,
    profileB: settings.profileB,
    notes: [],
    problems: [],
  };
}

function mergeSelection(verdicts: VerdictFile[]): Selection {
  // Merged shards are no one shard.
  return { ...folderSelection(verdicts), shard: null };
}

/**
 * A run found in several folders: neither copy is kept. The merged folder gets an `error` verdict
 * naming the files instead, so that the run shows in the grid as not checked rather than vanishing
 * or silently taking one shard's result.
 */
function duplicateVerdict(found: Found[]): VerdictFile {
  const first = found[0]!.entry.verdict;
  const files = found.map((f) => path.join(f.dir, f.entry.file));
  return {
    run: first.run,
    status: 'error',
    reason: `merge: run found in ${found.length} shard folders (${files.join(', ')}); neither result is kept: each run must be checked by exactly one shard`,
    notes: [],
    items: [],
    generatedAt: new Date().toISOString(),
    suite: first.suite,
    selection: first.selection,
    durationMs: 0,
  };
}

/**
 * A configured run found in no shard: an `error` verdict saying so, so that the merged index,
 * summary and JUnit count the run and agree with the merge's exit code (2) instead of reading as a
 * night without it. Its selection and night are the shards'. Kind `interrupted` when a shard of the
 * night left no results (`absent`) or did not finish (`unfinished`): the run was probably one of
 * theirs, and the night adds no history point; kind `input` only when every shard is there and
 * finished, so no shard had the run.
 */
function missingVerdict(
  run: ConfiguredRun,
  found: readonly VerdictFile[],
  shards: number,
  unfinished: readonly string[],
  absent: readonly string[],
  profileB: ProfileBSettings,
): VerdictFile {
  const first = found[0];
  const night = found.map((v) => v.night).find(Boolean);
  const verdict = buildVerdict(run, undefined, [], {
    // No shard left a verdict: the runs checked against are L1_RUNS, all of them.
    selection: found.length ? mergeSelection([...found]) : { filters: [], shard: null, complete: true },
    profileB,
    suite: first?.suite ?? suiteInfo(),
    generatedAt: new Date().toISOString(),
    ...(night ? { night } : {}),
  });
  // A shard that was stopped, or whose job left no results at all, never reached some of its runs:
  // those are interrupted, not wrong input (a shard does not know which runs it would have had, so
  // it cannot write them itself). Each such shard is named, and only those: a shard that finished
  // is never blamed (audit: a lost shard's runs named the one stopped beside it).
  const why = [
    ...(absent.length
      ? [
          `${absent.length === 1 ? 'shard' : 'shards'} ${absent.join(', ')} left no results (${absent.length === 1 ? 'its job' : 'their jobs'} left no artifact: cancelled, timed out or failed before the upload)`,
        ]
      : []),
    ...(unfinished.length
      ? [`${unfinished.join(', ')} did not finish (stopped, or killed before its night files)`]
      : []),
  ];
  const these = absent.length + unfinished.length === 1 ? 'that shard' : 'one of those shards';
  if (why.length)
    return {
      ...verdict,
      status: 'error',
      failureKind: 'interrupted',
      reason: `merge: run found in no shard (of ${shards} shard folder${shards === 1 ? '' : 's'}), and ${why.join(', and ')}: the run was probably a run ${these} never reached; check the night again`,
    };
  return {
    ...verdict,
    status: 'error',
    failureKind: 'input',
    reason: `merge: run found in no shard (of ${shards} shard folder${shards === 1 ? '' : 's'}): a configured run (L1_RUNS) that no shard checked; see the shards' logs (a shard that did not finish, or shards of other runs)`,
  };
}

/**
 * Whether a shard folder's invocation was stopped before every run it had was checked: it holds
 * verdicts but no index (killed before its night files), or a run of it says it was interrupted.
 * A folder with no verdict and no index of a run-less shard is unfinished too, said where the
 * merge reads it (`holds no verdict`, mergeVerdictFolders).
 */
function unfinishedShard(dir: string, entries: readonly VerdictEntry[]): boolean {
  if (entries.length === 0) return false;
  const index = readJsonFile(path.join(dir, 'index.json'));
  if (index.why !== undefined || !verdictIndexSchema.safeParse(index.value).success) return true;
  return entries.some((e) => e.verdict.failureKind === 'interrupted');
}

/**
 * Which shard of the night a folder holds (`i/n`): the one its verdicts name, or, for a folder of
 * none, the one its index names (a shard that had no run). Undefined when neither says.
 */
function folderShard(dir: string, entries: readonly VerdictEntry[]): string | undefined {
  const named = new Set(entries.map((e) => e.verdict.selection.shard));
  if (named.size === 1) return [...named][0] ?? undefined;
  if (entries.length) return undefined;
  const index = readJsonFile(path.join(dir, 'index.json'));
  const indexed =
    index.why === undefined ? verdictIndexSchema.safeParse(index.value).data?.selection.shard : undefined;
  return indexed ?? shardFile(dir);
}

/**
 * The `i/n` scripts/ci/shard.sh writes first, beside the shard's verdicts folder: a shard whose
 * checks were killed before any run ended has an artifact but no verdict or index (review of
 * 2026-11-27: such a shard was called one whose job left no artifact).
 */
function shardFile(dir: string): string | undefined {
  try {
    const text = fs.readFileSync(path.join(dir, '..', 'shard'), 'utf8').trim();
    return parseShard(text) ? text : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The shards of the night that no folder holds: each `i/n` of 1..n, n being the plan's count when
 * given, else the one count the folders' shards name (none, or several: a problem of its own,
 * `mixedNights`). A shard job cancelled, timed out or killed before its upload leaves no folder
 * (or, by hand, no verdicts/ in it); without this, the merge took its runs for runs of no shard,
 * wrong input, and the night for a complete one (audit of a 3-shard night with one artifact lost).
 */
function absentShards(shards: readonly string[], given: number | undefined): string[] {
  const parts = shards.map(parseShard).filter((p) => p !== null);
  const counts = new Set(parts.map((p) => p.total));
  const n = given ?? (counts.size === 1 ? [...counts][0]! : undefined);
  if (n === undefined) return [];
  const present = new Set(parts.filter((p) => p.total === n).map((p) => p.current));
  return Array.from({ length: n }, (_, k) => k + 1)
    .filter((i) => !present.has(i))
    .map((i) => `${i}/${n}`);
}

/**
 * Shards of one night share its batch date and its split into n shards. A shard folder of another
 * night (a workspace reused, a job re-run on a later day that resolved `L1_BATCH_DATE=-1` again) or
 * of another split (last night's `3/3` next to tonight's `1/2` and `2/2`) would make a night that
 * never was: each such difference is a problem, naming the folders.
 */
function mixedNights(found: Found[]): string[] {
  const problems: string[] = [];
  const differ = (what: string, of: (f: Found) => string | undefined) => {
    const by = new Map<string, Set<string>>();
    for (const f of found) {
      const value = of(f);
      if (value === undefined) continue;
      by.set(value, (by.get(value) ?? new Set()).add(f.dir));
    }
    if (by.size > 1)
      problems.push(
        `the shard folders are of different ${what}: ${[...by]
          .map(([value, dirs]) => `${value} (${[...dirs].join(', ')})`)
          .join(
            '; ',
          )}; a merged night is one ${what.replace(/s$/, '')} (merge the shards of one night, in a folder of their own)`,
      );
  };
  differ('batch dates', (f) => f.entry.verdict.night?.batchDate);
  differ('splits', (f) => {
    const shard = f.entry.verdict.selection.shard;
    return shard ? `${shard.split('/')[1]} shards` : undefined;
  });
  return problems;
}

/**
 * What one run is across shards: its label as its verdict keeps it (masked: lib/report/verdict.ts)
 * and its file name, which the whole label decides (lib/run/runs.ts `fileKeyOf`), so two labels
 * masked alike (`acme-13800138000`, `acme-13900139000`) are still two runs.
 */
const runKey = (label: string, file: string) => `${label}\u0000${file}`;

/** A run known by its label only: its file name as the suite derives it, no URLs. */
const knownRun = (run: string | ConfiguredRun): ConfiguredRun =>
  typeof run === 'string'
    ? { label: run, slug: fileKeyOf(run), input: { htmlUrl: '', platformUrl: '' } }
    : run;

/**
 * Merges shard verdict folders. `known` (the runs or their labels, from `knownRunLabels`) turns on
 * the check for runs found in no shard, each then an `error` verdict of its own (`missingVerdict`);
 * `null` leaves it off. Pure apart from reading the folders.
 */
export function mergeVerdictFolders(
  dirs: string[],
  known: readonly (string | ConfiguredRun)[] | null = null,
  options: MergeOptions = {},
): MergeResult {
  const problems: string[] = [];
  const notes: string[] = [];
  if (dirs.length === 0) problems.push('no shard verdict folder given');
  const byLabel = new Map<string, Found[]>();
  const seenDirs = new Set<string>();
  const unfinished: string[] = [];
  const shardsFound: string[] = [];
  for (const dir of dirs) {
    const resolved = path.resolve(dir);
    if (seenDirs.has(resolved)) {
      problems.push(`${dir}: given twice`);
      continue;
    }
    seenDirs.add(resolved);
    if (!fs.existsSync(dir)) {
      problems.push(`${dir}: folder does not exist`);
      continue;
    }
    const folder = readVerdictFolder(dir);
    problems.push(...folder.problems);
    if (unfinishedShard(dir, folder.entries)) unfinished.push(dir);
    const shard = folderShard(dir, folder.entries);
    if (shard) shardsFound.push(shard);
    if (folder.entries.length === 0 && folder.problems.length === 0) {
      // A shard that had no run (more shards than runs) writes an index of none: that is fine.
      const index = readJsonFile(path.join(dir, 'index.json'));
      const parsed = index.why === undefined ? verdictIndexSchema.safeParse(index.value) : undefined;
      if (parsed?.success && parsed.data.runs.length === 0)
        notes.push(`${dir}: this shard had no run to check (more shards than runs)`);
      else {
        problems.push(`${dir}: holds no verdict (the shard did not finish: see its log)`);
        // Its artifact is there, so its job uploaded: its checks stopped before any run ended.
        unfinished.push(dir);
      }
    }
    for (const entry of folder.entries) {
      const key = runKey(entry.verdict.run.label, entry.file);
      const list = byLabel.get(key) ?? [];
      list.push({ dir, entry });
      byLabel.set(key, list);
    }
  }
  problems.push(...mixedNights([...byLabel.values()].flat()));
  if (options.shards !== undefined) {
    const other = [...new Set(shardsFound)].filter((sh) => parseShard(sh)?.total !== options.shards);
    if (other.length)
      problems.push(
        `the night was split into ${options.shards} shards, but folders hold shard ${other.join(', ')}: a merged night is one split (merge the shards of one night, in a folder of their own)`,
      );
  }
  const absent = absentShards(shardsFound, options.shards);
  for (const shard of absent)
    problems.push(
      `shard ${shard}: no results in the folders given (its job left no artifact: cancelled, timed out or failed before its upload; or it stopped before any run of it finished): the night is not complete, check it again`,
    );
  const entries: VerdictEntry[] = [];
  const taken = new Set<string>();
  /** Adds a merged verdict; two labels with one file name are both kept, under distinct names. */
  const add = (label: string, entry: VerdictEntry, where: string) => {
    if (taken.has(entry.file)) {
      // Two different labels with one file name (the suite refuses this at start; shards of
      // different configurations might not): keep both, under distinct names, and say so.
      const stem = entry.file.replace(/\.json$/, '');
      let n = 2;
      while (taken.has(`${stem}-${n}.json`)) n++;
      problems.push(
        `run ${quote(label)} (${where}) has the file name of another run: written as ${stem}-${n}.json`,
      );
      entry = { file: `${stem}-${n}.json`, verdict: entry.verdict };
    }
    taken.add(entry.file);
    entries.push(entry);
  };
  for (const found of byLabel.values()) {
    const label = found[0]!.entry.verdict.run.label;
    let entry = found[0]!.entry;
    if (found.length > 1) {
      problems.push(
        `run ${quote(label)} found in ${found.length} shards: ${found.map((f) => path.join(f.dir, f.entry.file)).join(' and ')}; neither is kept (the merged verdict says error)`,
      );
      entry = { file: entry.file, verdict: duplicateVerdict(found) };
    }
    add(label, entry, path.join(found[0]!.dir, entry.file));
  }
  if (known) {
    const runs = known.map(knownRun);
    const found = entries.map((e) => e.verdict);
    const keyOf = (r: ConfiguredRun) => runKey(redactText(r.label), `${r.slug}.json`);
    for (const run of runs.filter((r) => !byLabel.has(keyOf(r)))) {
      problems.push(`run ${quote(run.label)} of L1_RUNS found in no shard (the merged verdict says error)`);
      add(
        run.label,
        {
          file: `${run.slug}.json`,
          verdict: missingVerdict(run, found, dirs.length, unfinished, absent, options.profileB ?? {}),
        },
        'found in no shard',
      );
    }
    const keys = new Set(runs.map(keyOf));
    const extra = [...byLabel]
      .filter(([key]) => !keys.has(key))
      .map(([, found]) => found[0]!.entry.verdict.run.label);
    if (extra.length)
      notes.push(
        `runs not in L1_RUNS (by label): ${extra.map(quote).join(', ')} (kept; an unlabelled run may be one)`,
      );
  }
  entries.sort(byFile);
  const notWhole = [
    ...(absent.length ? [`shard ${absent.join(', ')} left no results`] : []),
    ...(unfinished.length ? [`${unfinished.join(', ')} did not finish`] : []),
  ];
  return {
    entries,
    problems,
    notes,
    selection: mergeSelection(entries.map((e) => e.verdict)),
    absent,
    ...(notWhole.length ? { stopped: `the merged night is not whole: ${notWhole.join('; ')}` } : {}),
  };
}

/** Playwright's record of an invocation's failed tests (its `.last-run.json`). */
export interface LastRun {
  status: string;
  failedTests: string[];
}

/**
 * Whether nothing is at `file` itself: the file system says so (ENOENT), where fs.existsSync says no
 * of a record there that cannot be reached too (a link loop, ELOOP; a folder that may not be
 * searched, EACCES), which is no record never copied.
 */
function nothingAt(file: string): boolean {
  try {
    return fs.lstatSync(file, { throwIfNoEntry: false }) === undefined;
  } catch {
    return false;
  }
}

/**
 * Why a shard folder may hold no record: it is copied there by scripts/ci/shard.sh alone, so a
 * shard run by hand (`npx playwright test --shard 1/2`, then `npm run merge`) has none, as has one
 * killed before Playwright wrote it. The note said only the kill, which a hand-run night never had.
 * Said of a record that is not there, not of one there that cannot be read (EISDIR, EACCES).
 */
const MISSING_LAST_RUN =
  " (only scripts/ci/shard.sh copies Playwright's .last-run.json there: a shard run another way, or killed before Playwright wrote it, has none)";

/**
 * The night's record of failed tests for `--last-failed`: the union of the shards' `last-run.json`
 * (scripts/ci/shard.sh copies Playwright's `.last-run.json` into each shard's verdict folder; test
 * ids are the same on every machine, as Playwright derives them from the config folder's relative
 * file paths and the titles). Status `passed` only when every shard's was. None when a shard of the
 * night is absent or a folder has no readable record, with a note: a union without its failures
 * would have `--last-failed` re-run only part of them, where no record re-runs every test.
 */
export function mergeLastRuns(
  dirs: readonly string[],
  absent: readonly string[],
): { lastRun?: LastRun; note?: string } {
  const without = 'so --last-failed on this night re-runs every test';
  if (dirs.length === 0) return {};
  if (absent.length)
    return { note: `no ${VERDICT_FOLDER_LAST_RUN} merged: shard ${absent.join(', ')} left none, ${without}` };
  const failed = new Set<string>();
  const statuses = new Set<string>();
  for (const dir of dirs) {
    const file = path.join(dir, VERDICT_FOLDER_LAST_RUN);
    const read = readJsonFile(file);
    const value = read.why === undefined ? (read.value as Partial<LastRun> | null) : undefined;
    if (
      !value ||
      typeof value.status !== 'string' ||
      !Array.isArray(value.failedTests) ||
      !value.failedTests.every((t) => typeof t === 'string')
    )
      return {
        note: `no ${VERDICT_FOLDER_LAST_RUN} merged: ${file} ${read.why ?? 'is not a Playwright last-run record'}${nothingAt(file) ? MISSING_LAST_RUN : ''}, ${without}`,
      };
    statuses.add(value.status);
    for (const id of value.failedTests) failed.add(id);
  }
  const status = statuses.size === 1 ? [...statuses][0]! : 'failed';
  return { lastRun: { status, failedTests: [...failed].sort() } };
}
