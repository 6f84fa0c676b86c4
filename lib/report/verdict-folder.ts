import fs from 'node:fs';
import path from 'node:path';
import { junitXml } from './junit';
import { summaryMarkdown } from './summary';
import { safeText } from './text';
import { readJsonFile } from '../util/json';
import {
  VERDICT_FOLDER_EXTRAS,
  verdictFileSchema,
  verdictIndexSchema,
  type Selection,
  type VerdictFile,
  type VerdictIndex,
} from '../schema/verdict';

/**
 * A verdict folder (`reports/verdicts/` or `L1_VERDICTS_DIR`; docs/contract.md §7): one `<fileKey>.json` per
 * run, plus `index.json`, `summary.md` and `junit.xml` (VERDICT_FOLDER_EXTRAS), all derived from
 * the verdicts. Read and written only through `verdictFileSchema`.
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
}

const EXTRAS: readonly string[] = VERDICT_FOLDER_EXTRAS;

function byFile(a: VerdictEntry, b: VerdictEntry): number {
  return a.file < b.file ? -1 : a.file > b.file ? 1 : 0;
}

/** `x.json` files of a folder that are verdicts (not the extras, not hidden, not temporary). */
export function verdictFileNames(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter(
      (d) => d.isFile() && d.name.endsWith('.json') && !d.name.startsWith('.') && !EXTRAS.includes(d.name),
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
  return { entries, verdicts: entries.map((e) => e.verdict), problems };
}

/** Writes `text` to `file` so that a reader never sees half a file: a `.tmp-<pid>` sibling, then rename. */
export function writeFileAtomic(file: string, text: string): void {
  const tmp = `${file}.tmp-${process.pid}`;
  try {
    fs.writeFileSync(tmp, text);
    fs.renameSync(tmp, file);
  } catch (e) {
    fs.rmSync(tmp, { force: true });
    throw e;
  }
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
    EXTRAS.includes(name)
  )
    throw new Error(
      `verdict file name ${JSON.stringify(file)}: must be a plain <fileKey>.json, not ${EXTRAS.join(', ')}`,
    );
  return name;
}

function readSuite(): { name: string; version: string } {
  try {
    const pkg = JSON.parse(fs.readFileSync(path.resolve(__dirname, '..', '..', 'package.json'), 'utf8'));
    return { name: String(pkg.name), version: String(pkg.version) };
  } catch {
    return { name: 'l1-verify', version: 'unknown' };
  }
}

/** `index.json`: every run of the folder at a glance (validated with `verdictIndexSchema`). */
export function verdictIndex(
  entries: VerdictEntry[],
  selection: Selection,
  options: { generatedAt?: string; suite?: { name: string; version: string } } = {},
): VerdictIndex {
  return verdictIndexSchema.parse({
    generatedAt: options.generatedAt ?? new Date().toISOString(),
    suite: options.suite ?? entries[0]?.verdict.suite ?? readSuite(),
    selection,
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
 * Writes a verdict folder: each verdict as `<dir>/<file>` (validated with `verdictFileSchema`
 * first: an invalid verdict throws and nothing is written), then `index.json`, `summary.md` and
 * `junit.xml` over exactly these verdicts. Every file is written atomically. Files already in `dir`
 * are left alone: call `emptyVerdictFolder(dir)` first for a folder of this invocation only.
 *
 * @param dir the folder, created if missing (e.g. `path.resolve(ROOT, env.L1_VERDICTS_DIR || 'reports/verdicts')`)
 * @param entries `{ file: '<fileKey>.json', verdict }` per run; file names must be unique
 * @param selection the invocation's selection (`index.json` and `summary.md` state it)
 * @returns the paths written, verdicts first
 *
 * @example writeVerdictFolder(dir, runs.map((r) => ({ file: `${r.slug}.json`, verdict: build(r) })), selection)
 */
export function writeVerdictFolder(dir: string, entries: VerdictEntry[], selection: Selection): string[] {
  const named = entries
    .map((e) => ({ file: verdictFileName(e.file), verdict: verdictFileSchema.parse(e.verdict) }))
    .sort(byFile);
  for (let i = 1; i < named.length; i++)
    if (named[i]!.file === named[i - 1]!.file)
      throw new Error(
        `two verdicts would be written to ${named[i]!.file}: runs ${JSON.stringify(named[i - 1]!.verdict.run.label)} and ${JSON.stringify(named[i]!.verdict.run.label)}`,
      );
  fs.mkdirSync(dir, { recursive: true });
  const written: string[] = [];
  const write = (name: string, text: string) => {
    const file = path.join(dir, name);
    writeFileAtomic(file, text);
    written.push(file);
  };
  for (const e of named) write(e.file, `${JSON.stringify(e.verdict, null, 2)}\n`);
  const verdicts = named.map((e) => e.verdict);
  write('index.json', `${JSON.stringify(verdictIndex(named, selection), null, 2)}\n`);
  write('summary.md', summaryMarkdown(verdicts, selection));
  write('junit.xml', junitXml(verdicts));
  return written;
}

/**
 * Removes the verdict files of `dir` (`*.json` and the extras, and leftover `.tmp-<pid>` files of
 * them) and nothing else; a missing folder is fine. Returns the paths removed.
 */
export function emptyVerdictFolder(dir: string): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const base = name.replace(/\.tmp-\d+$/, '');
    if (!(base.endsWith('.json') || EXTRAS.includes(base))) continue;
    const file = path.join(dir, name);
    if (!fs.statSync(file).isFile()) continue;
    fs.rmSync(file);
    removed.push(file);
  }
  return removed;
}
