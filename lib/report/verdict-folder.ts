import fs from 'node:fs';
import path from 'node:path';
import { failingItemLines, junitXml } from './junit';
import { summarize, summaryMarkdown, type NightSummary } from './night';
import { unfinishedNight } from './outputs';
import { suiteInfo } from './suite';
import { safeText } from './text';
import { writeAtomic } from '../util/atomic';
import { readJsonFile } from '../util/json';
import {
  VERDICT_FOLDER_NOT_VERDICTS,
  verdictFileSchema,
  verdictIndexSchema,
  type Selection,
  type VerdictFile,
  type VerdictIndex,
} from '../schema/verdict';

/**
 * A verdict folder (`reports/verdicts/` or `L1_VERDICTS_DIR`; docs/contract.md §7): one `<fileKey>.json` per
 * run, plus `index.json`, `summary.md` and `junit.xml` (VERDICT_FOLDER_EXTRAS), all derived from
 * the verdicts, and in a CI night's folders Playwright's record of the failed tests,
 * `last-run.json` (VERDICT_FOLDER_LAST_RUN). Read and written only through `verdictFileSchema`.
 */

/** One verdict and its file name in a verdict folder, e.g. `{ file: 'A-monitor.json', verdict }`. */
export interface VerdictEntry {
  /** The file's base name, `<fileKey>.json` (a bare `<fileKey>` is accepted and gets `.json`). */
  file: string;
  verdict: VerdictFile;
}

export interface VerdictFolder {
  /** The valid verdicts, by file name. */
  entries: VerdictEntry[];
  /** The same verdicts without their file names. */
  verdicts: VerdictFile[];
  /** One line per file that could not be used, naming the file and the field. */
  problems: string[];
  /** Why the invocation stopped early, as its index.json says (`summarize`'s `stopped`). */
  stopped?: string;
}

/**
 * The one order of a night's runs, in every rendering (terminal grid, summary.md, index.json,
 * JUnit, the Allure grid, a merge): by verdict file name, which is the label for a plain label.
 * The runs file's order was kept by the checks' own teardown only, so the same night's summary.md
 * came out in another order once `npm run report` or a merge wrote it (reader audit of 2026-11-26).
 */
export function byFile(a: VerdictEntry, b: VerdictEntry): number {
  return a.file < b.file ? -1 : a.file > b.file ? 1 : 0;
}

/** `x.json` files of a folder that are verdicts (not the extras or the last-run record, not hidden, not temporary). */
export function verdictFileNames(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter(
      (d) =>
        d.isFile() &&
        d.name.endsWith('.json') &&
        !d.name.startsWith('.') &&
        !VERDICT_FOLDER_NOT_VERDICTS.includes(d.name),
    )
    .map((d) => d.name)
    .sort();
}

function issuePath(p: readonly PropertyKey[]): string {
  if (p.length === 0) return '(the whole file)';
  return p.map((k, i) => (typeof k === 'number' ? `[${k}]` : `${i === 0 ? '' : '.'}${String(k)}`)).join('');
}

/**
 * Reads every verdict of `dir` (each `*.json` but the extras), validated with `verdictFileSchema`.
 * A file that is unreadable, not JSON or not a verdict is a problem naming the file and the first
 * fields at fault; a missing folder is one problem. Entries are sorted by file name.
 */
export function readVerdictFolder(dir: string): VerdictFolder {
  const problems: string[] = [];
  const entries: VerdictEntry[] = [];
  let names: string[];
  try {
    names = verdictFileNames(dir);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    problems.push(`${dir}: ${code === 'ENOENT' ? 'folder does not exist' : `cannot be read (${code})`}`);
    return { entries, verdicts: [], problems };
  }
  for (const name of names) {
    const file = path.join(dir, name);
    const read = readJsonFile(file);
    if (read.why !== undefined) {
      problems.push(`${file}: ${safeText(read.why, 300)}`);
      continue;
    }
    const parsed = verdictFileSchema.safeParse(read.value);
    if (!parsed.success) {
      const issues = parsed.error.issues;
      const shown = issues
        .slice(0, 5)
        .map((i) => `${issuePath(i.path)}: ${safeText(i.message, 200)}`)
        .join('; ');
      const more = issues.length > 5 ? `; … and ${issues.length - 5} more` : '';
      problems.push(`${file}: not a verdict file (docs/contract.md §7): ${shown}${more}`);
      continue;
    }
    entries.push({ file: name, verdict: parsed.data });
  }
  entries.sort(byFile);
  // What the night files say of a stop is read back, so `npm run report`, which writes them again
  // from this folder, keeps it (and the exit code 2 it gives) instead of dropping it.
  const index = readJsonFile(path.join(dir, 'index.json'));
  const stopped =
    index.why === undefined ? verdictIndexSchema.safeParse(index.value).data?.stopped : undefined;
  return { entries, verdicts: entries.map((e) => e.verdict), problems, ...(stopped ? { stopped } : {}) };
}

/**
 * What the main job's closing line says a verdict folder holds: its night files, in the order a
 * reader looks for them, when they are all there; else which are missing. After a night whose
 * runner died on a full disk the line still listed `(summary.md, index.json, junit.xml)` for a
 * folder that held none of them (file-system audit of 2026-11-28).
 */
export function nightFilesLine(dir: string): string {
  const names = ['summary.md', 'index.json', 'junit.xml'];
  const missing = names.filter((name) => !fs.existsSync(path.join(dir, name)));
  return missing.length === 0
    ? `(${names.join(', ')})`
    : `(no ${missing.join(', ')}: the night was not finished, see above; npm run report finishes it from what is on disk)`;
}

/** `x` or `x.json` → `x.json`; throws on a name that is not a plain verdict file name. */
export function verdictFileName(file: string): string {
  const name = file.endsWith('.json') ? file : `${file}.json`;
  if (
    name !== path.basename(name) ||
    name.includes('/') ||
    name.includes('\\') ||
    name.startsWith('.') ||
    name === '.json' ||
    VERDICT_FOLDER_NOT_VERDICTS.includes(name)
  )
    throw new Error(
      `verdict file name ${JSON.stringify(file)}: must be a plain <fileKey>.json, not ${VERDICT_FOLDER_NOT_VERDICTS.join(', ')}`,
    );
  return name;
}

/** Writes one run's verdict as `<dir>/<file>` (validated first; atomically). Returns the path. */
export function writeVerdict(dir: string, file: string, verdict: VerdictFile): string {
  const name = verdictFileName(file);
  const checked = verdictFileSchema.parse(verdict);
  fs.mkdirSync(dir, { recursive: true });
  const target = path.join(dir, name);
  writeAtomic(target, `${JSON.stringify(checked, null, 2)}\n`);
  return target;
}

/**
 * The selection of a folder, from its verdicts: the union of their filters, complete when every
 * verdict was, and the shard when every verdict names the same one (one shard's folder, rebuilt by
 * `npm run report`); verdicts of several shards, or of none, are no shard.
 */
export function folderSelection(verdicts: readonly VerdictFile[]): Selection {
  const shards = new Set(verdicts.map((v) => v.selection.shard));
  return {
    filters: [...new Set(verdicts.flatMap((v) => v.selection.filters))].sort(),
    shard: shards.size === 1 ? [...shards][0]! : null,
    complete: verdicts.length > 0 && verdicts.every((v) => v.selection.complete),
  };
}

/**
 * The night of the verdict folder `dir` as `npm run report` reads it (scripts/report.ts, step 2):
 * its verdicts, why its night is not whole when its mark names an invocation that never finished
 * (`unfinishedNight`), and its summary (none: no verdict), stopped by its index's record or by that.
 * The one reading of it, for the build and for the unit tests of its history point.
 */
export function readNight(dir: string): {
  folder: VerdictFolder;
  unfinished: string | undefined;
  summary: NightSummary | undefined;
} {
  const folder = readVerdictFolder(dir);
  const unfinished = unfinishedNight(dir);
  const summary = folder.entries.length
    ? summarize(folder.verdicts, folderSelection(folder.verdicts), folder.stopped ?? unfinished)
    : undefined;
  return { folder, unfinished, summary };
}

/** `index.json`: every run of the folder at a glance, the counts and the exit code of the checks. */
export function verdictIndex(
  entries: VerdictEntry[],
  summary: NightSummary,
  generatedAt: string,
): VerdictIndex {
  return verdictIndexSchema.parse({
    generatedAt,
    // A night of no verdict (a --grep that matched nothing) is this suite's too: never `unknown`.
    suite: entries[0]?.verdict.suite ?? suiteInfo(),
    selection: summary.selection,
    ...(summary.night ? { night: summary.night } : {}),
    counts: summary.counts,
    exitCode: summary.exitCode,
    ...(summary.stopped ? { stopped: summary.stopped } : {}),
    runs: entries.map(({ file, verdict: v }) => ({
      label: v.run.label,
      file,
      status: v.status,
      ...(v.reason !== undefined ? { reason: v.reason } : {}),
      ...(v.failureKind ? { failureKind: v.failureKind } : {}),
      items: Object.fromEntries(
        [...v.items].sort((a, b) => a.item - b.item).map((i) => [String(i.item), i.verdict]),
      ),
    })),
  });
}

/**
 * The files derived from the verdicts of a folder (VERDICT_FOLDER_EXTRAS): `index.json`,
 * `summary.md` and `junit.xml`, each a rendering of one night summary, written atomically.
 */
export function writeNightFiles(
  dir: string,
  entries: VerdictEntry[],
  summary: NightSummary,
  generatedAt = new Date().toISOString(),
): string[] {
  fs.mkdirSync(dir, { recursive: true });
  const sorted = [...entries].sort(byFile);
  const written: string[] = [];
  const write = (name: string, text: string) => {
    const file = path.join(dir, name);
    writeAtomic(file, text);
    written.push(file);
  };
  write('index.json', `${JSON.stringify(verdictIndex(sorted, summary, generatedAt), null, 2)}\n`);
  write('summary.md', summaryMarkdown(summary, failingItemLines(summary)));
  write('junit.xml', junitXml(summary.verdicts));
  return written;
}

/**
 * Writes a whole verdict folder: each verdict (unique file names), then the night files over
 * exactly these verdicts. Files already in `dir` are left alone. Gives the files written and the
 * night summary they render, which the caller prints and takes its exit code from: the merge built
 * a second summary of the same verdicts for that (conformance audit of issue 16).
 *
 * @example writeVerdictFolder(dir, runs.map((r) => ({ file: `${r.slug}.json`, verdict: build(r) })), selection)
 */
export function writeVerdictFolder(
  dir: string,
  entries: VerdictEntry[],
  selection: Selection,
  stopped?: string,
): { files: string[]; summary: NightSummary } {
  const named = entries.map((e) => ({ file: verdictFileName(e.file), verdict: e.verdict })).sort(byFile);
  for (let i = 1; i < named.length; i++)
    if (named[i]!.file === named[i - 1]!.file)
      throw new Error(
        `two verdicts would be written to ${named[i]!.file}: runs ${JSON.stringify(named[i - 1]!.verdict.run.label)} and ${JSON.stringify(named[i]!.verdict.run.label)}`,
      );
  const written = named.map((e) => writeVerdict(dir, e.file, e.verdict));
  const summary = summarize(
    named.map((e) => e.verdict),
    selection,
    stopped,
  );
  return { files: [...written, ...writeNightFiles(dir, named, summary)], summary };
}
