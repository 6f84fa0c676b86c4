import fs from 'node:fs';
import path from 'node:path';
import { credentialSource } from '../run/credentials';
import { mergeEnv, outputPaths, PATH_SETTINGS, readDotenv, type Settings } from '../run/settings';
import { parseVariables } from '../run/variables';
import { display } from './findings';

/**
 * What the redaction guard scans: the output folders under the root, root `*.log` files, the
 * folders the variables name, and extra paths; never `.auth/`, `node_modules/`, `.git/`, a
 * credentials file or the demo platform's own state.
 */

/**
 * Output folders under the root (playwright.config.ts, lib/platform/evidence.ts, allurerc.mjs).
 * `allure-history/` keeps the failure messages of past runs; `reports/` holds the verdicts and the
 * CI shards' blob reports (zips, opened by ./archive).
 */
export const OUTPUT_DIRS = [
  'reports',
  'allure-results',
  'allure-report',
  'allure-history',
  'test-results',
  'playwright-report',
  'blob-report',
  path.join('.l1', 'evidence'),
];

/** Never scanned, wherever they are: they hold secrets by design, or are not outputs. */
const EXCLUDED_DIR_NAMES = new Set(['.auth', 'node_modules', '.git']);
const EXCLUDED_FILE_NAMES = new Set(['credentials.local.json']);

export interface TargetOptions {
  /** More files or folders to scan (relative ones are resolved against the root). */
  extraPaths?: string[];
  /** Scan the default output folders and root `*.log` files (default true). */
  defaultOutputs?: boolean;
  /**
   * Scan the folders the L1_* output variables and L1_REDACTION_EXTRA_PATHS name (default true).
   * False: the extra paths alone, as the report step checks its history file (scripts/report.ts).
   */
  envOutputs?: boolean;
}

/** `process.env` over the root's `.env`, merged as the settings merge them (a blank value is unset). */
export function defaultEnv(root: string): NodeJS.ProcessEnv {
  return mergeEnv(process.env, readDotenv(root));
}

/**
 * The settings' paths the guard scans where their variable is set (the defaults are OUTPUT_DIRS):
 * every one but the state folder, which holds the sessions by design, as `.auth/` does. Derived, so
 * that an output path the settings gain is scanned without a second list to keep.
 */
const NAMED_OUTPUTS = (Object.keys(PATH_SETTINGS) as (keyof Settings['paths'])[]).filter(
  (k) => k !== 'state',
);

/**
 * Every file to scan, sorted, each once (by real path); `warnings` gets the files named but not
 * scanned (excluded), `unscanned` the folders that cannot be read (a failure of the guard).
 */
export function filesToScan(
  root: string,
  env: NodeJS.ProcessEnv,
  options: TargetOptions,
  warnings: string[],
  unscanned: string[],
): string[] {
  const excludedFiles = excludedFileSet(root, env);
  const files = new Map<string, string>();
  for (const target of scanTargets(root, env, options)) {
    collectFiles(target, root, excludedFiles, files, warnings, unscanned);
  }
  return [...files.values()].sort();
}

function scanTargets(root: string, env: NodeJS.ProcessEnv, options: TargetOptions): string[] {
  const targets: string[] = [];
  if (options.defaultOutputs ?? true) {
    for (const dir of OUTPUT_DIRS) targets.push(path.join(root, dir));
    let names: string[] = [];
    try {
      names = fs.readdirSync(root);
    } catch {
      // a missing root has no log files
    }
    for (const name of names) if (name.endsWith('.log')) targets.push(path.join(root, name));
  }
  if (options.envOutputs ?? true) {
    // Read as the settings read them (parsed, blank unset) and resolved by the settings' own
    // function: the guard scans the folders the checks write, never a reading of its own.
    const { values } = parseVariables(env, {});
    const paths = outputPaths(root, values);
    for (const key of NAMED_OUTPUTS) if (values[PATH_SETTINGS[key]] !== undefined) targets.push(paths[key]);
    for (const p of (values.L1_REDACTION_EXTRA_PATHS ?? '').split(':'))
      if (p) targets.push(path.resolve(root, p));
  }
  for (const p of options.extraPaths ?? []) targets.push(path.resolve(root, p));
  return targets;
}

function excludedFileSet(root: string, env: NodeJS.ProcessEnv): Set<string> {
  const set = new Set<string>([path.join(root, 'credentials.local.json')]);
  const source = credentialSource(env, root);
  if (source.kind === 'file') set.add(path.resolve(source.where));
  for (const p of [...set]) {
    try {
      set.add(fs.realpathSync(p));
    } catch {
      // not there
    }
  }
  return set;
}

function isExcluded(file: string, root: string, excludedFiles: Set<string>): string | undefined {
  const parts = file.split(path.sep);
  const dir = parts.find((p) => EXCLUDED_DIR_NAMES.has(p));
  if (dir) return `${dir}/`;
  if (excludedFiles.has(file) || EXCLUDED_FILE_NAMES.has(path.basename(file))) return 'a credentials file';
  const demo = path.join(root, '.l1', 'demo');
  if (file === demo || file.startsWith(demo + path.sep)) return '.l1/demo/';
  return undefined;
}

/** Files under a target (deduplicated by real path); symlinked folders are not followed. */
function collectFiles(
  target: string,
  root: string,
  excludedFiles: Set<string>,
  files: Map<string, string>,
  warnings: string[],
  unscanned: string[],
): void {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(target);
  } catch {
    return; // missing folders are skipped silently
  }
  const excluded = isExcluded(target, root, excludedFiles);
  if (excluded) {
    if (stat.isFile()) warnings.push(`${display(target, root)}: not scanned (${excluded})`);
    return;
  }
  if (stat.isFile()) {
    addFile(target, files);
    return;
  }
  if (!stat.isDirectory()) return;
  const stack = [target];
  while (stack.length) {
    const dir = stack.pop()!;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch (e) {
      // Removed meanwhile (another invocation's outputs) is no output any more.
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT')
        unscanned.push(`${display(dir, root)}: cannot read the folder (${code ?? 'error'})`);
      continue;
    }
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (isExcluded(full, root, excludedFiles)) continue;
      if (entry.isDirectory()) stack.push(full);
      else if (entry.isFile()) addFile(full, files);
      else if (entry.isSymbolicLink()) {
        try {
          if (fs.statSync(full).isFile()) addFile(full, files);
        } catch {
          // dangling link
        }
      }
    }
  }
}

function addFile(file: string, files: Map<string, string>): void {
  let real = file;
  try {
    real = fs.realpathSync(file);
  } catch {
    // keep the path as given
  }
  if (!files.has(real)) files.set(real, file);
}
