import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { describeIssues } from '../schema/issues';
import { VERDICT_FOLDER_NOT_VERDICTS } from '../schema/verdict';
import { sha256 } from '../util/hash';
import { MOBILE } from '../util/phone';
import { jsonSyntaxError, parseJson, readTextFile } from '../util/json';
import { fillRun, isTemplated, type Night } from './night';
import { maskUrlText, readUrls } from './url';
import type { ProfileBSettings, RunInput } from './types';
import { hostSetting, isAside, nearestName, oneOf } from './variables';

/**
 * A run's text, read as the `L1_*` variables are (lib/run/variables.ts): trimmed, so a space pasted
 * after a batch id is not sent to the platform (`batchIds=b1%20`) nor kept in a file name.
 */
const given = z.string().trim().min(1, 'empty');
const optional = z.string().trim().min(1, 'empty: give a value, or leave the key out');

/** One run as a runs file or the `L1_*` variables give it (docs/contract.md §1). */
export const runInputSchema = z.object({
  htmlUrl: given,
  platformUrl: given,
  baseUrl: optional.optional(),
  // A number past 2^53 was already rounded by JSON.parse: refused, as its text form is (lib/run/url.ts).
  companyId: z
    .union([
      z.number().int().refine(Number.isSafeInteger, 'expected an integer below 2^53'),
      z.string().trim().regex(/^\d+$/, 'expected an integer'),
    ])
    .optional(),
  calDataJson: optional.optional(),
  batchId: optional.optional(),
  // Empty or blank is no label: the default one is derived (configureRuns), as L1_LABEL unset.
  label: z.string().optional(),
  level: oneOf(['brand', 'product']).optional(),
});

/**
 * Profile B settings carried by the runs file (docs/contract.md §2): strict, so a misspelt key
 * (`brandcode`) is an error at start instead of a Profile B run silently checked with A's rules.
 */
export const profileBFileSchema = z.strictObject({
  host: hostSetting.optional(),
  groupName: z.string().trim().min(1).optional(),
  // As L1_PROFILE_B_COMPANY_ID: past 2^53 the text is another number (…993 reads as …992), which
  // would recognise another company's reports as the group's; refused, never rounded.
  companyId: z
    .union([
      z.number().int(),
      z
        .string()
        .trim()
        .regex(/^\d+$/, 'expected an integer')
        .refine((s) => Number.isSafeInteger(Number(s)), 'expected an integer below 2^53 (9007199254740992)'),
    ])
    .transform(Number)
    .optional(),
  brandCode: z.string().trim().min(1).optional(),
});

/** A run as the suite will check it: its label is fixed and unique; a bad entry carries its error. */
export interface ConfiguredRun {
  label: string;
  /** File-name-safe form of the label (verdict, evidence and record file names). */
  slug: string;
  /** With `{batchDate}` filled in. */
  input: RunInput;
  /** The run named the batch date through a placeholder (docs/contract.md §1). */
  templated?: boolean;
  /** Why this run cannot even be attempted (malformed entry, unknown placeholder); it fails with this reason. */
  inputError?: string;
}

export class SettingsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SettingsError';
    // Thrown while Playwright loads the config, it is printed with its stack: the message says
    // what to change, and a dozen lines of the suite's and Playwright's frames hide it.
    this.stack = `${this.name}: ${message}`;
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
 * File keys a run may not have as they are: `<key>.json` or the key itself would be a file the
 * verdict folder writes for the night (VERDICT_FOLDER_EXTRAS: `index` → index.json; and the night's
 * `last-run.json`, VERDICT_FOLDER_LAST_RUN), which the
 * verdict writer refuses. Lowercase: on a case-insensitive file system `Index.json` is index.json.
 */
const RESERVED_KEYS = new Set(
  VERDICT_FOLDER_NOT_VERDICTS.flatMap((name) => [name, name.replace(/\.json$/, '')]),
);

/**
 * The file name of a run (verdict, evidence, records): the label itself when it is a short, plain
 * ASCII name, else a readable slug cut to 60 characters and 180 bytes (SLUG_MAX_BYTES) plus a
 * short hash of the whole label, so labels that differ never share a file (`A monitor` /
 * `A-monitor`, `a/b` / `ａ/ｂ`), a long label never makes a name the file system refuses, and a
 * label such as `index` never names a file of the night (RESERVED_KEYS, any case).
 */
export function fileKeyOf(label: string): string {
  if (
    /^[A-Za-z0-9][A-Za-z0-9._-]{0,79}$/.test(label) &&
    // A mobile number is kept out of a file name, shown and kept where no masking reaches it (the
    // verdict folder, index.json, every path printed): the guard found one there and failed the
    // night with exit 3 (reader audit of 2026-11-26). Its digits after the first become `x`.
    !new RegExp(MOBILE.source).test(label) &&
    !label.toLowerCase().endsWith('.json') &&
    !RESERVED_KEYS.has(label.toLowerCase())
  )
    return label;
  const hash = sha256(label).slice(0, 8);
  // Masked before the slug is made: `+86 138 0013 8000` is `86-138-0013-8000` in it, a dash-joined
  // id (lib/util/phone.ts). NFKC first, as slugify reads it: full-width digits are digits there.
  const slug = slugify(label.normalize('NFKC').replace(MOBILE, '1xxxxxxxxxx')).replace(MOBILE, '1xxxxxxxxxx');
  return `${cutToBytes([...slug].slice(0, 60), SLUG_MAX_BYTES)}-${hash}`;
}

/**
 * The most UTF-8 bytes of slug in a file key. A file system allows a name of 255 bytes, and the
 * longest name made of a key is the atomic writer's temporary file
 * (`<key>.json.<pid>.<6 hex>.<n>.tmp`, lib/util/atomic.ts): 180 bytes, the hash, `.json` and that
 * suffix stay well under it. Sixty
 * characters of three bytes (CJK) fit as before; sixty of four (CJK Extension B, `𠀀`) were 249
 * bytes and their verdict could not be written (ENAMETOOLONG: file-system audit of 2026-11-28).
 */
const SLUG_MAX_BYTES = 180;

/** The leading characters of `chars` that fit in `max` UTF-8 bytes. */
function cutToBytes(chars: readonly string[], max: number): string {
  let out = '';
  let bytes = 0;
  for (const c of chars) {
    bytes += Buffer.byteLength(c);
    if (bytes > max) break;
    out += c;
  }
  return out;
}

/**
 * The default label: company, project and report type, without the batch date, so the same report
 * of the next night is the same test (Allure history joins nights). Two runs of one company,
 * project and type in one invocation (two dates) get the date as well, except the runs that name
 * `{batchDate}` (`templated`): tonight's report beside a reference day fixed in its URL took
 * tonight's date in its label, a new test every night whose history never joined (time audit of
 * 2026-11-28). The fixed days keep their dates, the same every night; two templated runs of one
 * report are told apart by level (`…-monitor`, `…-monitor-product`), and beyond that by number in
 * runs-file order (`…-monitor-2`), not by tonight's date, which is the same for both and changed
 * every night (reviews of 2026-11-28).
 */
function derivedLabels(inputs: RunInput[], templated: readonly boolean[]): (string | undefined)[] {
  const facts = inputs.map(({ htmlUrl, platformUrl, companyId }) => {
    try {
      // Not the baseUrl: the label names the report, and stays when only the base URL is wrong.
      const f = readUrls({ htmlUrl, platformUrl, ...(companyId !== undefined ? { companyId } : {}) });
      return { base: `${f.companyId}-${f.projectId}-${f.reportType}`, date: f.batchDate };
    } catch {
      return undefined;
    }
  });
  const count = new Map<string, number>();
  const nightly = new Map<string, number>();
  facts.forEach((f, i) => {
    if (!f || inputs[i]!.label?.trim()) return;
    count.set(f.base, (count.get(f.base) ?? 0) + 1);
    if (templated[i]) nightly.set(f.base, (nightly.get(f.base) ?? 0) + 1);
  });
  return facts.map((f, i) => {
    if (!f) return undefined;
    if ((count.get(f.base) ?? 0) < 2) return f.base;
    if (!templated[i]) return `${f.base}-${f.date}`;
    // Several templated runs of one report: its product level is named, so that each level keeps
    // its test whatever the order of the runs file; runs alike beyond that are numbered.
    return (nightly.get(f.base) ?? 0) > 1 && inputs[i]!.level === 'product' ? `${f.base}-product` : f.base;
  });
}

/**
 * A label quoted in a message of the start, which Playwright and the main job print as it is:
 * a mobile number masked as the verdicts and grids mask it (`acme 1**********`, spec 1.5) and
 * whatever follows a `?` or `#` (a `token=` copied from a URL) hidden (maskUrlText). The runs'
 * numbers in the message tell the two apart.
 */
function shownLabel(label: string): string {
  return JSON.stringify(maskUrlText(label).replace(MOBILE, (d) => `${d[0]}${'*'.repeat(d.length - 1)}`));
}

interface Entry {
  input: RunInput;
  error?: string;
}

/**
 * Fixes each run's label and file name, after filling the batch date. A label given twice, or two
 * labels that would share a file (same name but for case), stop the invocation at start naming both
 * runs: one run must never be checked against another's evidence or overwrite its verdict. Derived
 * labels that still collide get `-2`, `-3`.
 */
export function configureRuns(entries: Entry[], where: string, night: Night | undefined): ConfiguredRun[] {
  const filled = entries.map((entry, index): Entry & { templated: boolean } => {
    const templated = isTemplated(entry.input);
    if (!templated || !night || entry.error) return { ...entry, templated };
    try {
      return { input: fillRun(entry.input, night), templated };
    } catch (e) {
      return { ...entry, templated, error: `${where} run #${index + 1}: ${(e as Error).message}` };
    }
  });
  // Keyed by the label's composed form (NFC): `café` written with é and with e + U+0301 reads alike
  // in every title, grid and summary, so the two would be one run to a reader.
  const explicit = new Map<string, number>();
  const problems: string[] = [];
  filled.forEach(({ input }, index) => {
    const label = input.label?.trim();
    if (!label) return;
    const composed = label.normalize('NFC');
    const first = explicit.get(composed);
    if (first === undefined) explicit.set(composed, index);
    else if (filled[first]!.input.label?.trim() === label)
      problems.push(`runs #${first + 1} and #${index + 1} both have the label ${shownLabel(label)}`);
    else
      problems.push(
        `runs #${first + 1} and #${index + 1} have labels that read alike, ${shownLabel(label)}: the same text in two Unicode forms (composed, and with combining marks); give one another label`,
      );
  });
  const derived = derivedLabels(
    filled.map((e) => e.input),
    filled.map((e) => e.templated),
  );
  const taken = new Set(explicit.keys());
  const runs = filled.map(({ input, error, templated }, index): ConfiguredRun => {
    let label = input.label?.trim();
    if (!label) {
      const base = derived[index] ?? `run-${index + 1}`;
      label = base;
      for (let n = 2; taken.has(label); n++) label = `${base}-${n}`;
      taken.add(label);
    }
    return {
      label,
      slug: fileKeyOf(label),
      input,
      ...(templated ? { templated } : {}),
      ...(error ? { inputError: error } : {}),
    };
  });
  const byFile = new Map<string, number>();
  runs.forEach((run, index) => {
    const key = run.slug.toLowerCase();
    const first = byFile.get(key);
    if (first !== undefined && runs[first]!.label !== run.label)
      problems.push(
        `runs #${first + 1} (${shownLabel(runs[first]!.label)}) and #${index + 1} (${shownLabel(run.label)}) would share the file name ${run.slug}: give one another label`,
      );
    byFile.set(key, index);
  });
  if (problems.length) throw new SettingsError(`${where}: ${problems.join('; ')}`);
  return runs;
}

export interface RunsFile {
  file: string;
  entries: Entry[];
  profileB: ProfileBSettings;
}

/**
 * A runs file (docs/contract.md §1): a JSON array of runs, or an object `{"profileB": {…}, "runs":
 * […]}`. The file as a whole must be readable, well-formed and non-empty (else the invocation stops
 * at start); one malformed run is that run's error only.
 */
export function readRunsFile(file: string, root: string, cwd = process.cwd()): RunsFile {
  const where = path.resolve(root, file);
  let text: string;
  try {
    text = readTextFile(where);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? 'error';
    // A relative L1_RUNS is the project root's (README.md § Settings); run with -c from the
    // folder that holds the runs file, the file is there and the message alone did not say why
    // it was not read.
    const here = path.resolve(cwd, file);
    const elsewhere = code === 'ENOENT' && here !== where && fs.existsSync(here);
    throw new SettingsError(
      `L1_RUNS file ${where} cannot be read (${code})${elsewhere ? `: a relative L1_RUNS is taken from the project root, not from the folder the command runs in, where ${here} is; give its absolute path` : ''}`,
    );
  }
  let list: unknown;
  try {
    list = parseJson(text);
  } catch (e) {
    throw new SettingsError(`L1_RUNS file ${where} not valid JSON (${jsonSyntaxError(e as Error, text)})`);
  }
  let profileB: ProfileBSettings = {};
  if (typeof list === 'object' && list !== null && !Array.isArray(list)) {
    const object = list as Record<string, unknown>;
    const unknown = Object.keys(object).filter((k) => k !== 'runs' && k !== 'profileB' && !isAside(k));
    if (unknown.length)
      throw new SettingsError(
        `L1_RUNS file ${where}: unknown key ${unknown.map((k) => JSON.stringify(k)).join(', ')} (expected "runs" and optionally "profileB"; keys starting with _ or $ are ignored)`,
      );
    if (object.profileB !== undefined) {
      // Comments (`_note`, `$id`) are ignored here as in a run and at the top; any other key the
      // schema does not know is named with the one it is near, as a run's is.
      let given: unknown = object.profileB;
      const stray = unknownKeys(given, PROFILE_B_KEYS, 'its keys');
      if (stray.length) throw new SettingsError(`L1_RUNS file ${where}: profileB: ${stray.join('; ')}`);
      if (typeof given === 'object' && given !== null && !Array.isArray(given))
        given = Object.fromEntries(Object.entries(given).filter(([k]) => !isAside(k)));
      const parsed = profileBFileSchema.safeParse(given);
      if (!parsed.success)
        throw new SettingsError(
          `L1_RUNS file ${where}: ${describeIssues(parsed.error, 'profileB').join('; ')}`,
        );
      profileB = Object.fromEntries(
        Object.entries(parsed.data).filter(([, v]) => v !== undefined),
      ) as ProfileBSettings;
    }
    list = object.runs;
    if (list === undefined) throw new SettingsError(`L1_RUNS file ${where}: no "runs" array`);
  }
  if (!Array.isArray(list))
    throw new SettingsError(
      `L1_RUNS file ${where} must hold a JSON array of runs, or {"profileB": {…}, "runs": […]}`,
    );
  if (list.length === 0) throw new SettingsError(`L1_RUNS file ${where} holds no run`);
  const entries = list.map((raw: unknown, i): Entry => {
    const parsed = runInputSchema.safeParse(raw);
    const problems = [
      ...unknownRunKeys(raw),
      ...(parsed.success ? [] : describeIssues(parsed.error, `[${i}]`)),
    ];
    const error = problems.length ? { error: `L1_RUNS ${where} run #${i + 1}: ${problems.join('; ')}` } : {};
    if (parsed.success) {
      // A relative calDataJson is the runs file's neighbour, as paths in a config file are: the
      // runs file of a CI job lives with its data, not in the suite's checkout.
      const cal = parsed.data.calDataJson;
      if (!cal || path.isAbsolute(cal)) return { input: parsed.data, ...error };
      return { input: { ...parsed.data, calDataJson: path.resolve(path.dirname(where), cal) }, ...error };
    }
    const r = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
    const input: RunInput = {
      htmlUrl: typeof r.htmlUrl === 'string' ? r.htmlUrl : '',
      platformUrl: typeof r.platformUrl === 'string' ? r.platformUrl : '',
      ...(typeof r.label === 'string' && r.label ? { label: r.label } : {}),
    };
    return { input, ...error };
  });
  return { file: where, entries, profileB };
}

const RUN_KEYS = Object.keys(runInputSchema.shape);

/**
 * A run's keys that are none of docs/contract.md §1 (`batchID`, `base_url`), each with the key it
 * is near: dropped without a word, the run would take the default the key meant to change (brand
 * level, batch discovery, the platform's origin). Only the keys are named, never their values.
 */
function unknownRunKeys(raw: unknown): string[] {
  return unknownKeys(raw, RUN_KEYS, "a run's keys");
}

const PROFILE_B_KEYS = Object.keys(profileBFileSchema.shape);

/**
 * The keys of an object that are none of `known` and no comment (`_note`, `$id`), each with the key
 * it is near, else the list (`whose`: "a run's keys"): a run's and profileB's, one wording.
 */
function unknownKeys(raw: unknown, known: readonly string[], whose: string): string[] {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return [];
  return Object.keys(raw)
    .filter((key) => !known.includes(key) && !isAside(key))
    .map((key) => {
      const near = nearestName(key, known);
      return `unknown key ${JSON.stringify(key)} (${near ? `did you mean ${JSON.stringify(near)}?` : `${whose}: ${known.join(', ')}`})`;
    });
}

/**
 * How many test files the checks are declared in (tests/checks/part-NN.spec.ts). Playwright's worker
 * copies a group's whole test file for every group it runs (`bindFileSuiteToProject`), so with one
 * file a night of N runs copied N × 11 tests per run: quadratic, 11 ms a run at 300 runs, 0.13 s at
 * 3,000, and sharding does not help (each shard's workers still load every run). Declared in
 * RUN_PARTS files, a group copies its part only (docs/decisions.md, Speed).
 */
export const RUN_PARTS = 16;

/**
 * The runs of part `part` (0 … RUN_PARTS − 1): consecutive blocks of the runs in their configured
 * order, as even as the count allows, so that the parts in file order keep the runs' order (for
 * `--list`, the schedule and `--shard`) and every run is in exactly one part.
 */
export function runsOfPart<T>(runs: readonly T[], part: number): T[] {
  if (!Number.isInteger(part) || part < 0 || part >= RUN_PARTS)
    throw new Error(`runsOfPart: part must be an integer from 0 to ${RUN_PARTS - 1}, got ${part}`);
  return runs.filter((_, i) => Math.floor((i * RUN_PARTS) / runs.length) === part);
}
