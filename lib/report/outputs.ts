import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Outputs } from '../run/invocation';
import type { Night } from '../run/night';
import { slugify } from '../run/runs';
import type { Settings } from '../run/settings';
import { HANDOFFS, LockHeld, ownerAlive, withLockSync } from '../run/state';
import {
  verdictFileSchema,
  verdictIndexSchema,
  VERDICT_FOLDER_NOT_VERDICTS,
  type Selection,
} from '../schema/verdict';
import { writeAtomic } from '../util/atomic';
import { readJsonFile } from '../util/json';
import { shownPath } from '../util/shown-path';

/**
 * The output folders of an invocation (docs/decisions.md § Outputs): where they are, whose they
 * are, and what may be removed from them.
 *
 * - A complete invocation writes the configured folders (L1_VERDICTS_DIR, L1_ALLURE_RESULTS_DIR).
 * - A partial one (`--grep`, `--last-failed`, filters) never writes into a folder that holds a
 *   complete invocation's outputs: it gets a folder of its own, `reports/partial/<stamp>/`
 *   (L1_PARTIAL_DIR), and the night stays as it was. Folders given on the command line for it
 *   that hold no complete night are used as given (a CI shard's fresh folder).
 * - Each folder the suite writes carries a mark (`.l1-outputs.json`): which invocation writes it,
 *   whether it is complete. A folder another live invocation writes is refused.
 * - Emptying removes only what the suite writes itself (its verdict files, index, summary, JUnit,
 *   console log; Allure's `<uuid>-…` results and the suite's `l1-…` files), never anything else,
 *   never through a symlink; the project root, its parents and the home folder are refused.
 */

export const MARK = '.l1-outputs.json';

/**
 * Where invocation `id` tells the main job which folders it wrote: a file per invocation in the
 * state folder (L1_STATE_DIR), so that jobs sharing a state folder never read, or remove, each
 * other's. The main job fixes the id of its checks (L1_INVOCATION_ID) and removes the file once
 * read; one nobody read (`npx playwright test` run directly) goes after a day with the stale
 * invocation folders (lib/run/state.ts removeStaleInvocations).
 */
export function handoffFile(stateDir: string, id: string): string {
  return path.join(stateDir, HANDOFFS, `${id}.json`);
}

export function writeHandoff(stateDir: string, outputs: Outputs, id: string, allure: boolean): void {
  fs.mkdirSync(path.join(stateDir, HANDOFFS), { recursive: true, mode: 0o700 });
  writeAtomic(
    handoffFile(stateDir, id),
    `${JSON.stringify({ id, verdicts: outputs.verdicts, allureResults: allure ? outputs.allureResults : '', partial: outputs.partial }, null, 2)}\n`,
  );
}

/** What invocation `id` handed to the main job, read once (the file is removed), or undefined. */
export function takeHandoff(
  stateDir: string,
  id: string,
): { verdicts: string; allureResults: string } | undefined {
  const file = handoffFile(stateDir, id);
  const read = readJsonFile(file);
  fs.rmSync(file, { force: true });
  if (read.why !== undefined) return undefined;
  const h = read.value as { id?: unknown; verdicts?: unknown; allureResults?: unknown };
  return h.id === id && typeof h.verdicts === 'string' && typeof h.allureResults === 'string'
    ? { verdicts: h.verdicts, allureResults: h.allureResults }
    : undefined;
}

interface Mark {
  tool: 'l1-verify';
  invocation: string;
  pid: number;
  complete: boolean;
  startedAt: string;
  finishedAt?: string;
  /**
   * Why allure-playwright could not write every result of the invocation (a full disk,
   * lib/report/allure/write-guard.ts): `npm run report` builds no report of them.
   */
  allureIncomplete?: string;
}

/**
 * The process of the live invocation that holds the folder `mark` marks, or undefined: no mark,
 * finished, or its process is gone (or is another process that got its pid since).
 */
function liveHolder(mark: Mark | undefined): number | undefined {
  if (!mark || mark.finishedAt) return undefined;
  return ownerAlive(mark.pid, mark.startedAt) ? mark.pid : undefined;
}

function readMark(dir: string): Mark | undefined {
  const read = readJsonFile(path.join(dir, MARK));
  if (read.why !== undefined) return undefined;
  const m = read.value as Partial<Mark>;
  return m && m.tool === 'l1-verify' && typeof m.invocation === 'string' ? (m as Mark) : undefined;
}

/** Whether `dir` holds the outputs of a complete invocation (a night). */
export function holdsCompleteNight(dir: string): boolean {
  const mark = readMark(dir);
  if (mark) return mark.complete;
  const index = readJsonFile(path.join(dir, 'index.json'));
  if (index.why !== undefined) return false;
  const parsed = verdictIndexSchema.safeParse(index.value);
  return parsed.success && parsed.data.selection.complete && parsed.data.runs.length > 0;
}

function stamp(now: Date, selection: Selection): string {
  const time = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  const what = slugify(selection.filters.join(' ').replace(/^--?/, '')).slice(0, 40);
  return `${time}${what ? `-${what}` : ''}`;
}

/**
 * A partial invocation's own folder under `partial`: its stamp (time to the second and filters),
 * made here so that it is this invocation's alone. Two investigations with the same filters started
 * in the same second got one folder, and the second was refused it as "being written by another
 * invocation" (CLI audit of 2026-11-28): the second now takes `<stamp>-2`, and so on. `reserve`
 * false (`--list`, which changes no file) makes nothing and takes the stamp.
 */
function ownFolder(partial: string, base: string, reserve: boolean): string {
  if (!reserve) return path.join(partial, base);
  let made: string | undefined;
  for (let n = 1; ; n++) {
    const folder = path.join(partial, n === 1 ? base : `${base}-${n}`);
    try {
      made = fs.mkdirSync(partial, { recursive: true }) ?? made;
      fs.mkdirSync(folder);
      if (made !== undefined) madeAbove.set(folder, made);
      return folder;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      // ENOENT: another invocation that made the parent removed it as it ended (`removeOwnFolder`).
      if ((code !== 'EEXIST' && code !== 'ENOENT') || n >= 100) throw e;
      if (code === 'ENOENT') n--;
    }
  }
}

/** By own folder: the first folder `ownFolder` made above it (its parent, or one above), if any. */
const madeAbove = new Map<string, string>();

/**
 * At the runner's exit (playwright.config.ts): a partial invocation's own folder when nothing was
 * written into it (refused, nothing to re-run), and the folders above it that `ownFolder` made for
 * it when nothing else is in them; never a folder it did not make (an `L1_PARTIAL_DIR` made
 * beforehand stays, empty or not).
 */
export function removeOwnFolder(folder: string): void {
  const made = madeAbove.get(folder);
  for (let dir = folder; ; dir = path.dirname(dir)) {
    try {
      fs.rmdirSync(dir);
    } catch {
      return; // not empty: the invocation's outputs, or other investigations'
    }
    if (made === undefined || dir === made || !within(made, path.dirname(dir))) return;
  }
}

/**
 * Where an invocation with this selection writes (decided once, by the runner); a partial one's own
 * folder is made here (`ownFolder`) unless `reserve` is false.
 */
export function decideOutputs(
  settings: Settings,
  selection: Selection,
  now: Date,
  { reserve = true }: { reserve?: boolean } = {},
): Outputs {
  const configured = { verdicts: settings.paths.verdicts, allureResults: settings.paths.allureResults };
  if (selection.complete) return { ...configured, partial: false };
  const given =
    settings.from.L1_VERDICTS_DIR === 'environment' && settings.from.L1_ALLURE_RESULTS_DIR === 'environment';
  if (given && !holdsCompleteNight(configured.verdicts) && !holdsCompleteNight(configured.allureResults))
    return { ...configured, partial: true };
  const folder = ownFolder(settings.paths.partial, stamp(now, selection), reserve);
  return {
    verdicts: path.join(folder, 'verdicts'),
    allureResults: path.join(folder, 'allure-results'),
    partial: true,
    folder,
    note: `partial invocation (${selection.filters.join(' ')}): its outputs go to ${shownPath(folder)}/; the night's ${shownPath(configured.verdicts)} and ${shownPath(configured.allureResults)} are left as they are`,
  };
}

/**
 * A partial invocation (`--grep item5`, `--last-failed`) that checks another batch date than the
 * night in the configured verdict folder it investigates, with a relative L1_BATCH_DATE: the next
 * morning `yesterday` is the day after the night's, and the investigation checked that other day
 * without a word, its item 5 green beside the night's red (time audit of 2026-11-28). A date given
 * as a date is meant (README.md § Investigate without touching the night) and draws nothing.
 */
export function otherNightWarning(verdicts: string, night: Night | undefined): string | undefined {
  if (!night || /^\d{4}-\d{2}-\d{2}$/.test(night.given)) return undefined;
  const index = readJsonFile(path.join(verdicts, 'index.json'));
  const parsed = index.why === undefined ? verdictIndexSchema.safeParse(index.value) : undefined;
  const theirs = parsed?.success ? parsed.data.night?.batchDate : undefined;
  if (!theirs || theirs === night.batchDate) return undefined;
  return `this invocation checks batch date ${night.describe}, but the night in ${shownPath(verdicts)} checked ${theirs}: to investigate that night, set L1_BATCH_DATE=${theirs}`;
}

/**
 * Playwright's output folder for the checks (attachments, `.last-run.json`), which
 * its runner empties at start: the configured one (L1_TEST_RESULTS_DIR, or `--output` as given),
 * except for a partial invocation with a folder of its own, which keeps it there
 * (`reports/partial/<stamp>/test-results`): a morning's `--grep item5` used to empty the night's,
 * its section pictures and the `.last-run.json` that `--last-failed` reads.
 */
export function playwrightOutputDir(
  outputs: Outputs,
  configured: string,
  givenOnCommandLine: boolean,
): string {
  return outputs.folder && !givenOnCommandLine ? path.join(outputs.folder, 'test-results') : configured;
}

/**
 * Where the Allure report of these results goes: the configured L1_ALLURE_REPORT_DIR, except for a
 * partial invocation's own folder (`reports/partial/<stamp>/allure-results`), whose report goes
 * beside its results (`reports/partial/<stamp>/allure-report`): a morning's `--grep item5` never
 * replaces the night's report.
 */
export function reportFolderFor(settings: Settings, allureResults: string): string {
  const results = path.resolve(allureResults);
  const partial = path.resolve(settings.paths.partial);
  return results !== partial && within(partial, results)
    ? path.join(path.dirname(results), 'allure-report')
    : settings.paths.allureReport;
}

/** Whether `child` is `parent` or inside it. */
export function within(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** A folder the suite must never empty or claim: the project root, its parents, the home folder. */
export function refusedFolder(dir: string, root: string): string | undefined {
  const resolved = path.resolve(dir);
  const home = os.homedir();
  if (within(resolved, path.resolve(root)))
    return `${resolved} is the project root or one of its parents: give an output folder of its own`;
  if (home && within(resolved, home)) return `${resolved} is the home folder or one of its parents`;
  try {
    if (fs.lstatSync(resolved).isSymbolicLink())
      return `${resolved} is a symbolic link: the suite does not write or empty a folder through a link (give the real path)`;
  } catch {
    // does not exist yet: it will be made
  }
  return undefined;
}

/** What `allure generate` writes into the report folder (Allure 3, one self-contained file). */
const REPORT_FILES = new Set(['index.html', 'summary.json', 'test-results.json']);

/**
 * Why the Allure report may not be written to `output`, which `npm run report` removes whole
 * before it generates, or undefined: the project root, its parents, the home folder or a link; a
 * folder that is, or holds, one of the night's other folders (verdicts, results, history, state);
 * or a folder holding anything an Allure report does not (`L1_ALLURE_REPORT_DIR=reports` meant for
 * `reports/allure` would take every verdict folder with it).
 */
export function reportFolderProblem(
  output: string,
  others: Record<string, string>,
  root: string,
): string | undefined {
  const resolved = path.resolve(output);
  const refused = refusedFolder(resolved, root);
  if (refused) return `the report folder ${refused}`;
  for (const [name, other] of Object.entries(others))
    if (within(resolved, path.resolve(other)))
      return `the report folder ${resolved} is or holds the ${name} (${path.resolve(other)}), which generating the report would remove: give the report a folder of its own`;
  let entries: string[];
  try {
    entries = fs.readdirSync(resolved);
  } catch {
    return undefined; // does not exist yet: it will be made
  }
  const foreign = entries.filter((name) => !REPORT_FILES.has(name));
  if (foreign.length)
    return `the report folder ${resolved} holds files an Allure report does not (${foreign.slice(0, 5).join(', ')}${foreign.length > 5 ? `, and ${foreign.length - 5} more` : ''}), which generating the report would remove: give the report a folder of its own, or empty it`;
  return undefined;
}

const ALLURE_OWN =
  /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}-(?:result\.json|container\.json|attachment(?:\.[\w-]+)?)|l1-[\w.-]+|environment\.properties|categories\.json|executor\.json)$/;
const VERDICT_OWN_EXTRAS = new Set<string>([...VERDICT_FOLDER_NOT_VERDICTS, 'console.log']);
/**
 * The temporary sibling the atomic writer (lib/util/atomic.ts `writeAtomic`) writes before its
 * rename: `<file>.<pid>.<6 hex>.<write counter, base 36>.tmp`; left behind only by a killed write.
 * (The counter-less form is an earlier writer's.) tests/unit/outputs.spec.ts checks it against the
 * names the writer makes.
 */
export const ATOMIC_TEMP = /\.\d+\.[0-9a-f]{6}(?:\.[0-9a-z]+)?\.tmp$/;

/**
 * A file of the suite in a verdict folder: `byName` when only its name says so (the night files,
 * the console log, a temporary file), else a valid verdict file.
 */
function ownVerdictFile(dir: string, name: string): 'byName' | 'verdict' | undefined {
  if (VERDICT_OWN_EXTRAS.has(name)) return 'byName';
  if (ATOMIC_TEMP.test(name)) {
    const base = name.replace(ATOMIC_TEMP, '');
    return base.endsWith('.json') || VERDICT_OWN_EXTRAS.has(base) ? 'byName' : undefined;
  }
  if (!name.endsWith('.json') || name.startsWith('.')) return undefined;
  const read = readJsonFile(path.join(dir, name));
  return read.why === undefined && verdictFileSchema.safeParse(read.value).success ? 'verdict' : undefined;
}

/**
 * The temporary file allure-js-commons' `FileSystemWriter` writes each result and attachment to
 * before its rename (`.allure-write-<uuid>.tmp`, beside them); left behind only by a killed
 * reporter (SIGKILL). tests/unit/outputs.spec.ts checks it against the names the writer makes.
 */
export const ALLURE_WRITER_TEMP =
  /^\.allure-write-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.tmp$/;

function isOwnAllureFile(name: string): boolean {
  if (ALLURE_WRITER_TEMP.test(name)) return true;
  const base = name.replace(ATOMIC_TEMP, '');
  return ALLURE_OWN.test(base) || (base === MARK && base !== name);
}

/** What in `dir` the suite wrote (`own`, those known by their name only in `byName`) and what not. */
function sortFiles(
  dir: string,
  kind: 'verdicts' | 'allure-results',
): { own: string[]; byName: string[]; kept: string[] } {
  const sorted = { own: [] as string[], byName: [] as string[], kept: [] as string[] };
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return sorted;
  }
  for (const e of entries) {
    if (e.name === MARK) continue;
    const own = !e.isFile()
      ? undefined
      : kind === 'verdicts'
        ? ownVerdictFile(dir, e.name)
        : isOwnAllureFile(e.name)
          ? 'byName'
          : undefined;
    if (own) sorted.own.push(e.name);
    else sorted.kept.push(e.name);
    if (own === 'byName') sorted.byName.push(e.name);
  }
  return sorted;
}

/** Removes from `dir` what the suite wrote there, and nothing else. Returns what was kept. */
export function emptyOwnFiles(
  dir: string,
  kind: 'verdicts' | 'allure-results',
): { removed: number; kept: string[] } {
  const { own, kept } = sortFiles(dir, kind);
  for (const name of own) fs.rmSync(path.join(dir, name), { force: true });
  return { removed: own.length, kept };
}

/** The setting that names each output folder, for a message that says what to change. */
const FOLDER_SETTING = {
  verdicts: 'L1_VERDICTS_DIR (npm run merge: --out)',
  'allure-results': 'L1_ALLURE_RESULTS_DIR (npm run merge: --allure-results)',
} as const;

const listed = (names: string[]) =>
  `${names.slice(0, 3).join(', ')}${names.length > 3 ? `, and ${names.length - 3} more` : ''}`;

/**
 * Why the suite may not empty and write `dir`, a folder it did not create (no mark of its own),
 * or undefined: it holds files the suite did not write beside files that only share the suite's
 * names (index.json, summary.md, junit.xml, …), which emptying would remove and writing replace
 * (docs/contract.md §7: never a folder it did not create with unrelated files in it). A folder of
 * the suite's files alone, or of foreign files alone, is fine.
 */
export function foreignFolderProblem(dir: string, kind: 'verdicts' | 'allure-results'): string | undefined {
  if (readMark(dir)) return undefined;
  const { byName, kept } = sortFiles(dir, kind);
  if (byName.length === 0 || kept.length === 0) return undefined;
  return `${dir} was not made by the suite (no ${MARK}) and holds files it did not write (${listed(kept)}) beside files named as the suite's (${listed(byName)}), which it would remove or replace: give ${FOLDER_SETTING[kind]} a folder of its own, or empty it`;
}

/**
 * Why `dir` cannot be an output folder because a file is in its place, or undefined. A setting
 * that names a file is refused as settings are read; a folder named on a command line (`npm run
 * merge -- --out FILE`) got only `EEXIST: file already exists, mkdir` (file-system audit of
 * 2026-11-28).
 */
function notAFolder(dir: string): string | undefined {
  try {
    return fs.statSync(dir).isDirectory() ? undefined : `${dir} is a file, not a folder: give a folder`;
  } catch {
    return undefined; // not there yet: it will be made
  }
}

/** The mark of a folder this process writes for `invocation`. */
function markOf(invocation: { id: string; startedAt: string }, complete: boolean): Mark {
  return {
    tool: 'l1-verify',
    invocation: invocation.id,
    pid: process.pid,
    complete,
    startedAt: invocation.startedAt,
  };
}

function writeMark(dir: string, mark: Mark): void {
  writeAtomic(path.join(dir, MARK), `${JSON.stringify(mark, null, 2)}\n`);
}

/** How long a claim waits for another invocation's claim of the same folder (a few ms as a rule). */
const CLAIM_WAIT_MS = 30_000;

/**
 * Claims the invocation's output folders and empties them of an earlier invocation's results
 * (only files the suite wrote). A folder another live invocation writes, the project root, its
 * parents, the home folder, a symlinked folder and a folder the suite did not make that holds
 * unrelated files beside files of the suite's names (`foreignFolderProblem`) are refused with a
 * message saying what to set; nothing is removed from any folder then.
 */
export function claimOutputs(
  outputs: Outputs,
  invocation: { id: string; startedAt: string },
  root: string,
  waitMs = CLAIM_WAIT_MS,
): string[] {
  // An empty path: the folder is not used by this invocation (no Allure reporter on the command line).
  const dirs = (
    [
      [outputs.verdicts, 'verdicts'],
      [outputs.allureResults, 'allure-results'],
    ] as [string, 'verdicts' | 'allure-results'][]
  ).filter(([dir]) => dir !== '');
  // Before the locks, which make each folder's parent: a refused folder leaves nothing made for it
  // (review of 2026-11-28). Asked again under the locks, where another claim may have written.
  refuseFolders(dirs, root);
  return withClaimLocks(
    dirs.map(([dir]) => dir),
    waitMs,
    () => claimUnderLocks(dirs, invocation, root, !outputs.partial),
  );
}

/**
 * A claim's check of a folder's mark and its write of its own, one invocation at a time: two
 * invocations started together each read no live mark, each wrote its own, and both wrote the
 * night's verdicts into one folder (README-as-contract audit of 2026-11-28: `npm run demo` and `npx
 * playwright test` started together, once in fifteen tries). A lock folder beside each output
 * folder (`.<name>.l1-claim`, removed after), taken in path order; where the parent refuses it
 * (read-only), the claim goes on without it, as before.
 */
function withClaimLocks<T>(dirs: string[], waitMs: number, body: () => T): T {
  const [first, ...rest] = [...new Set(dirs.map((d) => path.resolve(d)))].sort();
  if (first === undefined) return body();
  const lock = path.join(path.dirname(first), `.${path.basename(first)}.l1-claim`);
  const inner = () => withClaimLocks(rest, waitMs, body);
  try {
    fs.mkdirSync(path.dirname(first), { recursive: true });
  } catch {
    return inner();
  }
  // The lock folder refused by a parent that allows the output folder itself (a read-only parent
  // of a writable folder, a name too long with the lock's prefix and suffix): the claim goes on
  // without it. Only that refusal: an error of the claim itself, or a lock held too long, stands.
  let locked = false;
  try {
    return withLockSync(lock, waitMs, () => {
      locked = true;
      return inner();
    });
  } catch (e) {
    // Held for the whole wait: said as any refusal of the folder, with the lock's path, which
    // "waited 30000 ms for .verdicts.l1-claim" did not give (review of 2026-11-28).
    if (e instanceof LockHeld)
      throw new Error(
        `output folder refused: ${first} is being claimed by another invocation (process ${e.owner || 'not written yet'}), which held the claim's lock ${e.lockDir} for all of ${waitMs} ms: run one at a time; if no invocation of the suite runs, remove ${e.lockDir}`,
        { cause: e },
      );
    if (locked || !LOCK_REFUSED.has((e as NodeJS.ErrnoException).code ?? '')) throw e;
    return inner();
  }
}

/** Errors of making a lock folder that say its parent refuses it, not that another holds it. */
const LOCK_REFUSED = new Set(['EACCES', 'EPERM', 'EROFS', 'ENAMETOOLONG']);

/** Throws for the first folder the suite may not claim, saying why (nothing is made or removed). */
function refuseFolders(dirs: [string, 'verdicts' | 'allure-results'][], root: string): void {
  for (const [dir, kind] of dirs) {
    const refused = refusedFolder(dir, root) ?? notAFolder(dir) ?? foreignFolderProblem(dir, kind);
    if (refused) throw new Error(`output folder refused: ${refused}`);
  }
}

function claimUnderLocks(
  dirs: [string, 'verdicts' | 'allure-results'][],
  invocation: { id: string; startedAt: string },
  root: string,
  complete: boolean,
): string[] {
  const notes: string[] = [];
  refuseFolders(dirs, root);
  for (const [dir] of dirs) {
    const mark = readMark(dir);
    const holder = mark?.invocation === invocation.id ? undefined : liveHolder(mark);
    if (holder !== undefined)
      throw new Error(
        `${dir} is being written by another invocation (process ${holder}): run one at a time, or give each its own L1_VERDICTS_DIR and L1_ALLURE_RESULTS_DIR`,
      );
  }
  const unfinished = new Map<string, string[]>();
  for (const [dir] of dirs) {
    const earlier = readMark(dir);
    if (earlier && earlier.invocation !== invocation.id && !earlier.finishedAt)
      unfinished.set(earlier.invocation, [...(unfinished.get(earlier.invocation) ?? []), dir]);
  }
  for (const [earlier, held] of unfinished)
    notes.push(
      `${held.join(' and ')} held the outputs of invocation ${earlier}, which did not finish (killed, with no npm run report after it): replaced by this invocation's`,
    );
  for (const [dir, kind] of dirs) {
    fs.mkdirSync(dir, { recursive: true });
    const { kept } = emptyOwnFiles(dir, kind);
    if (kept.length)
      notes.push(
        `${dir}: ${kept.length} file(s) the suite did not write are left in place (${kept.slice(0, 3).join(', ')}${kept.length > 3 ? ', …' : ''})`,
      );
    writeMark(dir, markOf(invocation, complete));
  }
  return notes;
}

/**
 * Why the night files of `dir` may not be written as a whole night, or undefined: its mark names an
 * invocation that never finished and whose process is gone, which nothing could finish (`npm run
 * report` finishes a killed night from its state first; this one's is gone: removed after a day by
 * a later night sharing the state folder, or in another L1_STATE_DIR). Its runs in flight have no
 * verdict, and an index of the others read as the whole night, passing (file-system audit of
 * 2026-11-28).
 */
export function unfinishedNight(dir: string): string | undefined {
  const mark = readMark(dir);
  if (!mark || mark.finishedAt || liveHolder(mark) !== undefined) return undefined;
  return `invocation ${mark.invocation} never finished and could not be finished here (its state is gone): its runs that had not ended have no verdict`;
}

/**
 * The invocation that has claimed `dir` since, when it is not `invocationId`: a later night took
 * over the folder of an invocation killed before it finished (its setup emptied it). Undefined
 * when the folder is still `invocationId`'s, or has no mark (it was removed: writing it anew is
 * safe).
 */
export function claimedSinceBy(dir: string, invocationId: string): string | undefined {
  const mark = readMark(dir);
  return mark && mark.invocation !== invocationId ? mark.invocation : undefined;
}

/**
 * Playwright's output folder (attachments, `.last-run.json`) is emptied by the
 * runner before global setup runs, so the claim of the output folders comes too late for it: a
 * second invocation, even one refused its verdict folder, had already removed the first one's
 * evidence. The setup marks it (`markOutputDir`), and the next runner reads the mark as it loads
 * its config, before anything is removed (`outputDirInUse`).
 */
export function markOutputDir(
  dir: string,
  invocation: { id: string; startedAt: string; outputs: Outputs },
): void {
  fs.mkdirSync(dir, { recursive: true });
  writeMark(dir, markOf(invocation, !invocation.outputs.partial));
}

/**
 * Why this runner may not use `dir` as its output folder (another live runner uses it), or
 * undefined; `setting` is what named the folder (L1_TEST_RESULTS_DIR, or `--output`).
 */
export function outputDirInUse(dir: string, setting = 'L1_TEST_RESULTS_DIR'): string | undefined {
  const mark = readMark(dir);
  const holder = mark?.pid === process.pid ? undefined : liveHolder(mark);
  if (holder === undefined) return undefined;
  return `${dir} (Playwright's output folder, which it empties at start) is in use by another invocation (process ${holder}): run one at a time, or give each its own ${setting} (and L1_VERDICTS_DIR, L1_ALLURE_RESULTS_DIR); nothing was removed`;
}

/**
 * Records in the mark of each of `dirs` that is still invocation `invocationId`'s that its Allure
 * results are incomplete (`why`), where `npm run report` reads it whatever became of the results
 * folder's own record (lib/report/allure/write-guard.ts). Kept by `releaseOutputs`; a later
 * invocation's claim writes a mark of its own. A folder it cannot write (a full disk) is left:
 * `releaseOutputs` notes it again.
 */
export function noteAllureIncomplete(dirs: readonly string[], invocationId: string, why: string): void {
  for (const dir of dirs.filter(Boolean)) {
    const mark = readMark(dir);
    if (mark?.invocation !== invocationId) continue;
    try {
      writeMark(dir, { ...mark, allureIncomplete: why });
    } catch {
      // noted again by releaseOutputs
    }
  }
}

/**
 * The invocation whose Allure results the mark of `dir` says are incomplete, and why; undefined
 * when it says nothing of it (`noteAllureIncomplete`).
 */
export function allureIncompleteOf(dir: string): { invocation: string; why: string } | undefined {
  const mark = readMark(dir);
  return mark?.allureIncomplete === undefined
    ? undefined
    : { invocation: mark.invocation, why: mark.allureIncomplete };
}

/**
 * Why the Allure results of `results` are incomplete as the marks of the night say, or undefined:
 * the results folder's mark, or that of the verdict folder `verdicts` of the same invocation.
 */
export function allureIncompleteNoted(verdicts: string, results: string): string | undefined {
  const r = readMark(results);
  const v = readMark(verdicts);
  const noted = [r, r === undefined || v?.invocation === r.invocation ? v : undefined].find(
    (m) => m?.allureIncomplete !== undefined,
  );
  return noted
    ? `allure-playwright could not write every result of invocation ${noted.invocation} (${noted.allureIncomplete}), as its night recorded (${MARK}): a report of them would lack what it could not write`
    : undefined;
}

/**
 * Marks the folders finished (a later invocation may take them over); `more`: other folders this
 * invocation marked (Playwright's output folder), so that a process that later gets the same pid
 * is never taken for this invocation still running. `allureIncomplete`: noted again
 * (`noteAllureIncomplete`), where the disk refused it before.
 */
export function releaseOutputs(
  outputs: Outputs,
  invocationId: string,
  more: readonly string[] = [],
  allureIncomplete?: string,
): void {
  const noted = allureIncomplete === undefined ? {} : { allureIncomplete };
  for (const dir of [outputs.verdicts, outputs.allureResults, ...more].filter(Boolean)) {
    const mark = readMark(dir);
    if (mark?.invocation === invocationId)
      writeMark(dir, { ...mark, ...noted, finishedAt: new Date().toISOString() });
  }
}
