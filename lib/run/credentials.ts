import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { describeIssues } from '../schema/issues';
import { jsonSyntaxError, parseJson, readTextFile } from '../util/json';
import { holdsRegistryText, isAside, nearestName, parseVariables } from './variables';

const entry = z.object({ phone: z.string().min(1), password: z.string().min(1) });
/** Each entry is validated on its own (`loadRegistry`): one malformed entry fails its own runs only. */
const registrySchema = z.object({
  companies: z.record(z.string(), z.unknown()).default({}),
  profileB: z.unknown().optional(),
});

export type Credentials = z.output<typeof entry>;
/** `company:<id>` or `profileB` (docs/contract.md §3). */
export type CredentialKey = `company:${number}` | 'profileB';
export interface CredentialRegistry {
  companies: Record<string, Credentials>;
  profileB?: Credentials;
  /**
   * The entries that do not validate, by key (`company:1002`), with the fields at fault: the runs
   * of that key fail naming them (`credentialsFor`), every other run logs in (inputs audit of
   * 2026-11-28: one company without a password stopped every company's runs).
   */
  malformed?: Record<string, string>;
  /**
   * The text values of those entries (a password beside a missing phone): still secrets, which
   * the redaction guard looks for and the CI job masks (`registrySecrets`).
   */
  loose?: RegistrySecret[];
}

/** A value of the registry, whose entry (`company 1001`) and under which key (`phone`, `passwd`). */
export interface RegistrySecret {
  who: string;
  field: string;
  value: string;
}

export class CredentialsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CredentialsError';
  }
}

export interface CredentialSource {
  kind: 'file' | 'env' | 'none';
  /** A file path or the variable name; never the content. */
  where: string;
  /** Set when the source cannot be a registry at all (L1_CREDENTIALS_FILE holding the JSON text). */
  problem?: string;
}

/**
 * The registry's two variables of a variable map, parsed as the settings parse them
 * (lib/run/variables.ts: trimmed, empty or blank unset), not read raw: ` creds.json ` is the file
 * the settings list, and a blank L1_CREDENTIALS_FILE leaves L1_CREDENTIALS_JSON in force.
 */
function registryVariables(env: NodeJS.ProcessEnv): { file?: string; json?: string; refused?: string } {
  const { values, problems } = parseVariables(
    { L1_CREDENTIALS_FILE: env.L1_CREDENTIALS_FILE, L1_CREDENTIALS_JSON: env.L1_CREDENTIALS_JSON },
    {},
  );
  // A path the settings refuse (`~/creds.json`, `$RUNNER_TEMP/creds.json`) is no source to fall
  // past: the CI mask and the guard took L1_CREDENTIALS_JSON or credentials.local.json instead.
  const refused = problems.find((p) => p.startsWith('L1_CREDENTIALS_FILE'));
  return {
    ...(values.L1_CREDENTIALS_FILE ? { file: values.L1_CREDENTIALS_FILE } : {}),
    ...(values.L1_CREDENTIALS_JSON ? { json: values.L1_CREDENTIALS_JSON } : {}),
    ...(refused ? { refused } : {}),
  };
}

/** Contract section 3: L1_CREDENTIALS_FILE, else L1_CREDENTIALS_JSON, else credentials.local.json. */
export function credentialSource(env: NodeJS.ProcessEnv, root: string): CredentialSource {
  const { file, json, refused } = registryVariables(env);
  if (refused)
    return { kind: 'file', where: 'L1_CREDENTIALS_FILE', problem: `credentials registry: ${refused}` };
  // "credentials registry" in the message: a login that fails with it is a configuration failure
  // (lib/platform/collect.ts loginFailureKind).
  if (file && holdsRegistryText(file))
    return {
      kind: 'file',
      where: 'L1_CREDENTIALS_FILE (value not shown)',
      problem: `L1_CREDENTIALS_FILE holds ${/^\s*[{[]/.test(file) ? 'JSON text' : 'text'} rather than a path (value not shown): L1_CREDENTIALS_JSON takes the credentials registry as text, L1_CREDENTIALS_FILE the path of a file holding it (docs/contract.md §3)`,
    };
  if (file) return { kind: 'file', where: path.resolve(root, file) };
  if (json) return { kind: 'env', where: 'L1_CREDENTIALS_JSON' };
  const local = path.join(root, 'credentials.local.json');
  return fs.existsSync(local) ? { kind: 'file', where: local } : { kind: 'none', where: local };
}

/**
 * What the start of an invocation says about the registry file (README.md § Security and limits):
 * readable by group or others, or reached through a symlink. Warned, not refused: the file is the
 * user's, and a CI secret written by a step with the default umask should still be checked.
 */
export function credentialFileWarnings(env: NodeJS.ProcessEnv, root: string): string[] {
  const source = credentialSource(env, root);
  if (source.problem) return [source.problem];
  if (source.kind !== 'file') return [];
  const warnings: string[] = [];
  const { file, json } = registryVariables(env);
  if (file && json)
    warnings.push(
      'L1_CREDENTIALS_FILE and L1_CREDENTIALS_JSON are both set: the file is used and L1_CREDENTIALS_JSON is ignored (docs/contract.md §3)',
    );
  try {
    if (fs.lstatSync(source.where).isSymbolicLink())
      warnings.push(
        `the credentials registry ${source.where} is a symlink to ${fs.realpathSync(source.where)}: read through it`,
      );
    const mode = fs.statSync(source.where).mode & 0o777;
    if (mode & 0o077)
      warnings.push(
        `the credentials registry ${source.where} is readable by group or others (mode ${mode.toString(8).padStart(4, '0')}): chmod 600 it`,
      );
  } catch {
    // a missing file is said when a run needs it
  }
  return warnings;
}

/** Reads and validates the registry. Errors name the source and the field, never a value. */
export function loadRegistry(env: NodeJS.ProcessEnv, root: string): CredentialRegistry {
  const source = credentialSource(env, root);
  if (source.kind === 'none') {
    throw new CredentialsError(
      `no credentials registry: set L1_CREDENTIALS_FILE or L1_CREDENTIALS_JSON, or create ${source.where}`,
    );
  }
  if (source.problem) throw new CredentialsError(source.problem);
  let text: string;
  if (source.kind === 'env') {
    text = registryVariables(env).json ?? '';
  } else {
    try {
      text = readTextFile(source.where);
    } catch (e) {
      throw new CredentialsError(
        `cannot read the credentials registry ${source.where}: ${(e as NodeJS.ErrnoException).code ?? 'error'}`,
      );
    }
  }
  let json: unknown;
  try {
    json = parseJson(text);
  } catch (e) {
    // Where, never what: a registry of many companies said only "not valid JSON" (inputs audit).
    throw new CredentialsError(
      `the credentials registry (${source.where}) is not valid JSON (${jsonSyntaxError(e as Error, text, { token: false })})`,
    );
  }
  const unknown = unknownRegistryKeys(json);
  if (unknown.length > 0) throw new CredentialsError(`the credentials registry (${source.where}) ${unknown}`);
  const parsed = registrySchema.safeParse(json);
  if (!parsed.success) {
    // Only paths and messages: zod messages never echo the offending string values here.
    const fields = describeIssues(parsed.error, 'registry').map((s) => s.split(':')[0]);
    throw new CredentialsError(
      `the credentials registry (${source.where}) is malformed at ${fields.join(', ')}`,
    );
  }
  const registry: CredentialRegistry = { companies: {} };
  const take = (key: CredentialKey, raw: unknown, at: (string | number)[]): Credentials | undefined => {
    const checked = entry.safeParse(raw);
    if (checked.success) return checked.data;
    const fields = describeIssues(checked.error, ['registry', ...at].join('.')).map((s) => s.split(':')[0]);
    (registry.malformed ??= {})[key] =
      `the credentials registry (${source.where}) is malformed at ${fields.join(', ')}`;
    const who = describeKey(key);
    for (const { field, value } of looseValues(raw)) (registry.loose ??= []).push({ who, field, value });
    return undefined;
  };
  for (const [id, raw] of Object.entries(parsed.data.companies)) {
    const found = take(`company:${Number(id)}`, raw, ['companies', id]);
    if (found) registry.companies[id] = found;
  }
  if (parsed.data.profileB !== undefined) {
    const found = take('profileB', parsed.data.profileB, ['profileB']);
    if (found) registry.profileB = found;
  }
  return registry;
}

/** A key a malformed entry's secret may sit under: `phone`, `password`, their misspellings and kin. */
const SECRET_KEY = /pass|pwd|phone|mobile|tel|secret|token/i;

/**
 * The secrets of a malformed entry, by the key they sit under: a phone written as a number
 * (`"phone": 138…` as a JSON number), a password under a misspelt key (`"passwd"`, `"pasword"`), an entry
 * written as a list (`["138…", "…"]`) or one level down (`{"login": {…}}`). Taking the text of `phone` and
 * `password` alone, the guard looked for none of these and the CI job masked none. A key of
 * another meaning (`"companyId": 1002`, `"_note"`) is left out: a value every output holds would
 * fail every night's guard.
 */
function looseValues(raw: unknown, field = 'entry'): { field: string; value: string }[] {
  // Under a key that only resembles phone or password (`tokenTtl`, `phoneCountryCode`, `telType`),
  // a short value is a setting, not a secret: `npm run ci:mask` masked `86`, `1` or `3600` in every
  // line of the job's log, and the guard looked for `3600` in every output (review of 902c6c2).
  const exact = field === 'entry' || field === 'phone' || field === 'password';
  if (typeof raw === 'string') return raw.trim() && (exact || raw.length >= 4) ? [{ field, value: raw }] : [];
  if (typeof raw === 'number' && Number.isFinite(raw))
    return exact || String(raw).length >= 6 ? [{ field, value: String(raw) }] : [];
  if (Array.isArray(raw)) return raw.flatMap((x) => looseValues(x, field));
  if (raw === null || typeof raw !== 'object') return [];
  return Object.entries(raw).flatMap(([k, x]) => {
    if (isAside(k)) return [];
    if (SECRET_KEY.test(k) || nearestName(k, ['phone', 'password'])) return looseValues(x, k);
    // `{"login": {"phone": …}}`: the keys inside decide.
    return x !== null && typeof x === 'object' ? looseValues(x, k) : [];
  });
}

/** The two keys a registry holds (docs/contract.md §3). */
const REGISTRY_KEYS = ['companies', 'profileB'];

/**
 * Keys at the top of a registry that are neither `companies` nor `profileB` (`companys`) nor a
 * comment (`_note`, `$schema`): without
 * this, every run would fail with "no entry for company …" and the typo would go unsaid. A key is
 * named only when it is near one of the two (a key far from both might be a phone number put one
 * level too high, and is never echoed). Empty when there is none.
 */
function unknownRegistryKeys(json: unknown): string {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return '';
  const extra = Object.keys(json).filter((k) => !REGISTRY_KEYS.includes(k) && !isAside(k));
  if (extra.length === 0) return '';
  const near = extra.flatMap((k) => {
    const meant = nearestName(k, REGISTRY_KEYS);
    return meant ? [`"${k}" (did you mean "${meant}"?)`] : [];
  });
  const others = extra.length - near.length;
  return `has ${[...near, ...(others ? [`${others} other key(s), not shown`] : [])].join(', ')} at its top, where only "companies" and "profileB" are read`;
}

export function credentialKeyFor(profile: 'A' | 'B', companyId: number): CredentialKey {
  return profile === 'B' ? 'profileB' : `company:${companyId}`;
}

export function describeKey(key: CredentialKey): string {
  return key === 'profileB' ? 'the Profile B entry' : `company ${key.slice('company:'.length)}`;
}

/** The entry for a key; a missing entry is a clear error naming the company, never a guess. */
export function credentialsFor(registry: CredentialRegistry, key: CredentialKey, where: string): Credentials {
  const malformed = registry.malformed?.[key];
  if (malformed) throw new CredentialsError(malformed);
  const found = key === 'profileB' ? registry.profileB : registry.companies[key.slice('company:'.length)];
  if (!found) {
    const what =
      key === 'profileB' ? 'no "profileB" entry' : `no entry for company ${key.slice('company:'.length)}`;
    throw new CredentialsError(
      `${what} in the credentials registry (${where}): add it under "companies" or "profileB"`,
    );
  }
  return found;
}

/** Every entry of the registry that validates, with the words that name it ("company 1001"). */
export function registryEntries(registry: CredentialRegistry): [who: string, credentials: Credentials][] {
  return [
    ...Object.keys(registry.companies).map((id): [string, Credentials] => [
      describeKey(`company:${Number(id)}`),
      registry.companies[id]!,
    ]),
    ...(registry.profileB ? [[describeKey('profileB'), registry.profileB] as [string, Credentials]] : []),
  ];
}

/**
 * Every secret the registry holds, with whose it is and which field: the valid entries' and every
 * text or number of the malformed ones (`looseValues`), which are no less secret (the redaction
 * guard, the CI mask).
 */
export function registrySecrets(registry: CredentialRegistry): RegistrySecret[] {
  return [
    ...registryEntries(registry).flatMap(([who, c]) => [
      { who, field: 'phone' as const, value: c.phone },
      { who, field: 'password' as const, value: c.password },
    ]),
    ...(registry.loose ?? []),
  ];
}
