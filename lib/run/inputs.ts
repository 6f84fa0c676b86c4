import path from 'node:path';
import { z } from 'zod';
import { describeIssues } from '../schema/issues';
import { sha256 } from '../util/hash';
import { readJsonFile } from '../util/json';
import { readUrls } from './url';
import type { ProfileBSettings, RunInput } from './types';

export const runInputSchema = z.object({
  htmlUrl: z.string().min(1),
  platformUrl: z.string().min(1),
  baseUrl: z.string().min(1).optional(),
  companyId: z.union([z.number().int(), z.string().regex(/^\d+$/, 'expected an integer')]).optional(),
  calDataJson: z.string().min(1).optional(),
  batchId: z.string().min(1).optional(),
  label: z.string().min(1).optional(),
  level: z.enum(['brand', 'product']).optional(),
});

/** A run as the suite will check it: its label is fixed and unique; a bad entry carries its error. */
export interface ConfiguredRun {
  label: string;
  /** File-name-safe form of the label (verdict, evidence and auth file names). */
  slug: string;
  input: RunInput;
  /** Why this run cannot even be attempted (malformed L1_RUNS entry); it then fails with this reason. */
  inputError?: string;
}

export interface Settings {
  mode: 'L1_RUNS' | 'L1_HTML_URL' | 'demo';
  runs: ConfiguredRun[];
  profileB: ProfileBSettings;
}

export class SettingsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SettingsError';
  }
}

export function slugify(label: string): string {
  const slug = label
    .normalize('NFKC')
    .replace(/[^\p{L}\p{N}._-]+/gu, '-')
    .replace(/^[-.]+|-+$/g, '');
  return slug || 'run';
}

/**
 * The file name of a run (verdict, evidence, records): the label itself when it is a short, plain
 * ASCII name, else a readable slug cut to 60 characters plus a short hash of the whole label, so
 * labels that differ never share a file (`A monitor` / `A-monitor`, `a/b` / `ａ/ｂ`) and a long label
 * never makes a name the file system refuses.
 */
export function fileKeyOf(label: string): string {
  if (/^[A-Za-z0-9][A-Za-z0-9._-]{0,79}$/.test(label) && !label.endsWith('.json')) return label;
  const hash = sha256(label).slice(0, 8);
  return `${[...slugify(label)].slice(0, 60).join('')}-${hash}`;
}

/** Contract 7: default label from company, project, report type and batch date. */
export function defaultLabel(input: RunInput, index: number): string {
  try {
    const facts = readUrls(input);
    return `${facts.companyId}-${facts.projectId}-${facts.reportType}-${facts.batchDate}`;
  } catch {
    return `run-${index + 1}`;
  }
}

/**
 * Fixes each run's label and file name. A label given twice, or two labels that would share a file
 * (same name but for case), stop the invocation at start naming both runs: one run must never be
 * checked against another's evidence or overwrite its verdict. Derived labels that collide get
 * `-2`, `-3` (two reports of one company, project, type and date).
 */
function configure(entries: { input: RunInput; error?: string }[], where: string): ConfiguredRun[] {
  const explicit = new Map<string, number>();
  const problems: string[] = [];
  entries.forEach(({ input }, index) => {
    const label = input.label?.trim();
    if (!label) return;
    const first = explicit.get(label);
    if (first !== undefined)
      problems.push(`runs #${first + 1} and #${index + 1} both have the label ${JSON.stringify(label)}`);
    else explicit.set(label, index);
  });
  const taken = new Set(explicit.keys());
  const runs = entries.map(({ input, error }, index): ConfiguredRun => {
    let label = input.label?.trim();
    if (!label) {
      const base = defaultLabel(input, index);
      label = base;
      for (let n = 2; taken.has(label); n++) label = `${base}-${n}`;
      taken.add(label);
    }
    return { label, slug: fileKeyOf(label), input, ...(error ? { inputError: error } : {}) };
  });
  const byFile = new Map<string, number>();
  runs.forEach((run, index) => {
    const key = run.slug.toLowerCase();
    const first = byFile.get(key);
    if (first !== undefined && runs[first]!.label !== run.label)
      problems.push(
        `runs #${first + 1} (${JSON.stringify(runs[first]!.label)}) and #${index + 1} (${JSON.stringify(run.label)}) would share the file name ${run.slug}: give one another label`,
      );
    byFile.set(key, index);
  });
  if (problems.length) throw new SettingsError(`${where}: ${problems.join('; ')}`);
  return runs;
}

function readRunsFile(file: string, root: string): { input: RunInput; error?: string }[] {
  const where = path.resolve(root, file);
  const read = readJsonFile(where);
  if (read.why !== undefined) throw new SettingsError(`L1_RUNS file ${where} ${read.why}`);
  const json = read.value;
  if (!Array.isArray(json)) throw new SettingsError(`L1_RUNS file ${where} must hold a JSON array of runs`);
  if (json.length === 0) throw new SettingsError(`L1_RUNS file ${where} holds no run`);
  return json.map((raw: unknown, i) => {
    const parsed = runInputSchema.safeParse(raw);
    if (parsed.success) return { input: parsed.data };
    const r = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
    const input: RunInput = {
      htmlUrl: typeof r.htmlUrl === 'string' ? r.htmlUrl : '',
      platformUrl: typeof r.platformUrl === 'string' ? r.platformUrl : '',
      ...(typeof r.label === 'string' && r.label ? { label: r.label } : {}),
    };
    return {
      input,
      error: `L1_RUNS ${where} run #${i + 1}: ${describeIssues(parsed.error, `[${i}]`).join('; ')}`,
    };
  });
}

function runFromEnv(env: NodeJS.ProcessEnv): RunInput {
  const input: RunInput = { htmlUrl: env.L1_HTML_URL ?? '', platformUrl: env.L1_PLATFORM_URL ?? '' };
  if (env.L1_BASE_URL) input.baseUrl = env.L1_BASE_URL;
  if (env.L1_COMPANY_ID) input.companyId = env.L1_COMPANY_ID;
  if (env.L1_CAL_DATA_JSON) input.calDataJson = env.L1_CAL_DATA_JSON;
  if (env.L1_BATCH_ID) input.batchId = env.L1_BATCH_ID;
  if (env.L1_LABEL) input.label = env.L1_LABEL;
  if (env.L1_LEVEL === 'brand' || env.L1_LEVEL === 'product') input.level = env.L1_LEVEL;
  return input;
}

export function profileBFromEnv(env: NodeJS.ProcessEnv): ProfileBSettings {
  const id = env.L1_PROFILE_B_COMPANY_ID?.trim();
  if (id && !/^\d+$/.test(id))
    throw new SettingsError(`L1_PROFILE_B_COMPANY_ID must be an integer, got ${JSON.stringify(id)}`);
  return {
    ...(env.L1_PROFILE_B_HOST?.trim() ? { host: env.L1_PROFILE_B_HOST.trim() } : {}),
    ...(env.L1_PROFILE_B_GROUP_NAME?.trim() ? { groupName: env.L1_PROFILE_B_GROUP_NAME.trim() } : {}),
    ...(id ? { companyId: Number(id) } : {}),
    ...(env.L1_PROFILE_B_BRAND_CODE?.trim() ? { brandCode: env.L1_PROFILE_B_BRAND_CODE.trim() } : {}),
  };
}

/**
 * Contract section 1: L1_RUNS, else L1_HTML_URL + L1_PLATFORM_URL, else the demo (the caller
 * supplies the demo's runs and Profile B settings). Pure over `env` so every worker agrees.
 */
export function loadSettings(
  env: NodeJS.ProcessEnv,
  root: string,
  demo: () => { runs: RunInput[]; profileB: ProfileBSettings },
): Settings {
  if (env.L1_RUNS) {
    return {
      mode: 'L1_RUNS',
      runs: configure(readRunsFile(env.L1_RUNS, root), `L1_RUNS ${path.resolve(root, env.L1_RUNS)}`),
      profileB: profileBFromEnv(env),
    };
  }
  if (env.L1_HTML_URL || env.L1_PLATFORM_URL) {
    const input = runFromEnv(env);
    const missing = ['L1_HTML_URL', 'L1_PLATFORM_URL'].filter((k) => !env[k]);
    const entry = missing.length
      ? { input, error: `${missing.join(' and ')} not set: a single run needs both` }
      : { input };
    return { mode: 'L1_HTML_URL', runs: configure([entry], 'L1_HTML_URL'), profileB: profileBFromEnv(env) };
  }
  const bundled = demo();
  return {
    mode: 'demo',
    runs: configure(
      bundled.runs.map((input) => ({ input })),
      'demo runs',
    ),
    profileB: bundled.profileB,
  };
}
