import fs from 'node:fs';
import path from 'node:path';
import dotenv from 'dotenv';
import {
  DEFAULT_BATCH_DATE,
  DEFAULT_TIME_ZONE,
  NightError,
  checkTimeZone,
  dateIn,
  isTemplated,
  resolveNight,
  zoneWarning,
  type Night,
} from './night';
import { credentialFileWarnings } from './credentials';
import { configureRuns, readRunsFile, SettingsError, type ConfiguredRun } from './runs';
import type { ProfileBSettings, RunInput } from './types';
import { credentialOrigins } from './url';
import { isLoopbackHost } from '../util/host';
import { readTextFile } from '../util/json';
import { shownPath } from '../util/shown-path';
import {
  isSet,
  parseVariables,
  unknownVariableWarnings,
  type Provenance,
  type VariableName,
  type VariableValues,
} from './variables';

export { SettingsError };

/**
 * The settings of an invocation, read once (README.md § Settings): every `L1_*` variable of the
 * command line's environment over `.env` over the defaults (variables.ts), the runs (a runs file,
 * one run from variables, or the bundled demo's), the batch date the runs' placeholders take, and
 * the Profile B settings (variables over the runs file). Reading has no side effect: nothing is
 * written into `process.env`, no folder is made.
 */

export interface DemoDefaults {
  runs: RunInput[];
  profileB: ProfileBSettings;
  /** The demo's credentials registry: made anew at each start of the demo platform. */
  credentialsFile: string;
}

export interface Settings {
  root: string;
  /** The command line's environment over `.env`: for code that reads a variable map. */
  env: NodeJS.ProcessEnv;
  values: VariableValues;
  from: Partial<Record<VariableName, Provenance>>;
  mode: 'L1_RUNS' | 'L1_HTML_URL' | 'demo' | 'none';
  runs: ConfiguredRun[];
  /** `4 from runs.json (L1_RUNS in .env)`. */
  runsFrom: string;
  /** The batch date placeholders take; set when a run is templated or L1_BATCH_DATE is given. */
  night?: Night;
  /** L1_TIME_ZONE: the zone of the suite's days (a night's date, a batch list instant's day). */
  timeZone: string;
  profileB: ProfileBSettings;
  /** `not configured`, or where each setting came from. */
  profileBFrom: string;
  /** Origins besides the runs' base URLs and the Profile B portal where credentials may go (§3). */
  loginOrigins: string[];
  /** Origins a report page may load from besides its own and the login origins (L1_PAGE_ORIGINS). */
  pageOrigins: string[];
  limits: {
    requestTimeoutMs: number;
    retryBackoffMs: number;
    runTimeoutMs: number;
    maxAnswerBytes: number;
    /** L1_PAGE_MAX_MB in bytes. */
    pageMaxBytes: number;
    /** L1_ALLURE_HISTORY_MB in bytes: the Allure history the report step reads and keeps. */
    historyBytes: number;
  };
  paths: {
    verdicts: string;
    allureResults: string;
    allureReport: string;
    partial: string;
    history: string;
    state: string;
    /** Playwright's outputDir of the checks. */
    testResults: string;
  };
  workers: number;
  keepState: boolean;
  screenshots: 'failing' | 'all' | 'none';
  demoPort: number;
  /** Said once at start: a setting that is missing or unused. */
  warnings: string[];
}

export interface SettingsSources {
  root: string;
  env: NodeJS.ProcessEnv;
  /** The `.env` file's variables (dotenv.parse), `{}` when there is none. */
  dotenv: Record<string, string>;
  now: Date;
  /** The runs when none is configured, for a demo on this port (the Playwright config wires the bundled demo's). */
  demo?: (demoPort: number) => DemoDefaults;
  /** The night the runner fixed: workers must fill the same date, even past midnight. */
  night?: Night;
  /** Scripts that need only folders and limits (report, merge) read settings without runs. */
  runsOptional?: boolean;
  /** The folder the command ran in, which the paths it prints are relative to (default: the process's). */
  cwd?: string;
}

const PROFILE_B_VARIABLES: Record<keyof ProfileBSettings, VariableName> = {
  host: 'L1_PROFILE_B_HOST',
  groupName: 'L1_PROFILE_B_GROUP_NAME',
  companyId: 'L1_PROFILE_B_COMPANY_ID',
  brandCode: 'L1_PROFILE_B_BRAND_CODE',
};

/** Which layer names the runs: the command line's environment first, then `.env`. */
function runSource(sources: SettingsSources): {
  kind: 'L1_RUNS' | 'L1_HTML_URL' | 'demo';
  layer?: Provenance;
} {
  const has = (layer: Record<string, string | undefined>, name: string) => isSet(layer[name]);
  for (const [layer, vars] of [
    ['environment', sources.env],
    ['.env', sources.dotenv],
  ] as const) {
    if (has(vars, 'L1_RUNS')) return { kind: 'L1_RUNS', layer };
    if (has(vars, 'L1_HTML_URL') || has(vars, 'L1_PLATFORM_URL')) return { kind: 'L1_HTML_URL', layer };
  }
  return { kind: 'demo' };
}

/** The variables of the one run of docs/contract.md §1. */
const SINGLE_RUN_VARIABLES = [
  'L1_HTML_URL',
  'L1_PLATFORM_URL',
  'L1_BASE_URL',
  'L1_COMPANY_ID',
  'L1_CAL_DATA_JSON',
  'L1_BATCH_ID',
  'L1_LABEL',
  'L1_LEVEL',
] as const satisfies readonly VariableName[];

/**
 * The one run's variables, every one from the layer that names the run (docs/contract.md §1): with
 * `L1_HTML_URL` on the command line and an older run's `L1_BASE_URL`, `L1_LABEL` … in `.env`, a
 * merge would post the new run's credentials to the old base URL and file it under the old label.
 * The other layer's are said once (a warning), never used.
 */
function singleRunValues(
  sources: SettingsSources,
  layer: Provenance,
): { values: VariableValues; missing: string; warnings: string[] } {
  const [own, other, otherName] =
    layer === 'environment'
      ? [sources.env, sources.dotenv, '.env']
      : [sources.dotenv as NodeJS.ProcessEnv, sources.env, 'the environment'];
  const mine: Record<string, string> = {};
  for (const name of SINGLE_RUN_VARIABLES) if (isSet(own[name])) mine[name] = own[name];
  const parsed = layer === 'environment' ? parseVariables(mine, {}) : parseVariables({}, mine);
  if (parsed.problems.length) throw new SettingsError(`settings: ${parsed.problems.join('; ')}`);
  const unused = SINGLE_RUN_VARIABLES.filter((name) => isSet(other[name]) && !isSet(own[name]));
  const missing = (['L1_HTML_URL', 'L1_PLATFORM_URL'] as const).filter((name) => !mine[name]);
  const elsewhere = missing.filter((name) => isSet(other[name]));
  return {
    values: parsed.values,
    missing: missing.length
      ? `${missing.join(' and ')} not set${elsewhere.length ? ` in ${layer === 'environment' ? 'the environment' : '.env'} (the one in ${otherName} is not used: a single run's variables come from one layer)` : ''}: a single run needs both`
      : '',
    warnings: unused.length
      ? [
          `${unused.join(', ')} in ${otherName} not used: the single run comes from ${layer === 'environment' ? 'the environment' : '.env'}, and its variables only from there (docs/contract.md §1)`,
        ]
      : [],
  };
}

/**
 * The one run's variables set (either layer) while the runs come from a runs file or the bundled
 * demo: docs/contract.md §1 puts L1_RUNS first, so they are not used, but without a word a CI step
 * that sets L1_HTML_URL under a workflow whose L1_RUNS is set for every job checked the whole runs
 * file, and L1_LABEL or L1_LEVEL alone checked the demo (inputs audit of 2026-11-28).
 */
function unusedSingleRunWarning(sources: SettingsSources, kind: 'L1_RUNS' | 'demo', layer?: Provenance) {
  const set = SINGLE_RUN_VARIABLES.filter((name) => isSet(sources.env[name]) || isSet(sources.dotenv[name]));
  if (set.length === 0) return [];
  const where = set.map((name) => `${name} (${isSet(sources.env[name]) ? 'environment' : '.env'})`);
  return [
    `${where.join(', ')} not used: ${kind === 'L1_RUNS' ? `L1_RUNS (${layer}) names the runs, and it comes first (docs/contract.md §1); unset it to check one run from these` : 'a single run needs L1_HTML_URL and L1_PLATFORM_URL, so the bundled demo is checked'}`,
  ];
}

function singleRun(values: VariableValues): RunInput {
  const input: RunInput = { htmlUrl: values.L1_HTML_URL ?? '', platformUrl: values.L1_PLATFORM_URL ?? '' };
  if (values.L1_BASE_URL) input.baseUrl = values.L1_BASE_URL;
  if (values.L1_COMPANY_ID !== undefined) input.companyId = values.L1_COMPANY_ID;
  if (values.L1_CAL_DATA_JSON) input.calDataJson = values.L1_CAL_DATA_JSON;
  if (values.L1_BATCH_ID) input.batchId = values.L1_BATCH_ID;
  if (values.L1_LABEL) input.label = values.L1_LABEL;
  if (values.L1_LEVEL) input.level = values.L1_LEVEL;
  return input;
}

/** Variables over the runs file, field by field, with a line saying where each came from. */
function mergeProfileB(
  fromFile: ProfileBSettings,
  parsed: { values: VariableValues; from: Partial<Record<VariableName, Provenance>> },
  fileLabel: string,
): { profileB: ProfileBSettings; from: string } {
  const profileB: ProfileBSettings = {};
  const origins: string[] = [];
  for (const key of Object.keys(PROFILE_B_VARIABLES) as (keyof ProfileBSettings)[]) {
    const variable = PROFILE_B_VARIABLES[key];
    const value = parsed.values[variable];
    if (value !== undefined) {
      (profileB as Record<string, unknown>)[key] = value;
      origins.push(`${key} from ${variable} (${parsed.from[variable]})`);
    } else if (fromFile[key] !== undefined) {
      (profileB as Record<string, unknown>)[key] = fromFile[key];
      origins.push(`${key} from ${fileLabel}`);
    }
  }
  return { profileB, from: origins.length ? origins.join(', ') : 'not configured' };
}

/** Reads the settings from explicit sources (pure but for reading the runs file). */
export function readSettings(sources: SettingsSources): Settings {
  const parsed = parseVariables(sources.env, sources.dotenv);
  if (parsed.problems.length) throw new SettingsError(`settings: ${parsed.problems.join('; ')}`);
  const { values } = parsed;
  const root = sources.root;
  const warnings: string[] = [];
  const source = runSource(sources);

  let entries: { input: RunInput; error?: string }[];
  let fileProfileB: ProfileBSettings = {};
  let runsLabel: string;
  let where: string;
  let demoProfileB: ProfileBSettings | undefined;
  if (source.kind === 'L1_RUNS') {
    const file = readRunsFile(values.L1_RUNS!, root, sources.cwd);
    entries = file.entries;
    fileProfileB = file.profileB;
    runsLabel = `from ${shownPath(file.file, sources.cwd)} (L1_RUNS in ${source.layer})`;
    where = `L1_RUNS ${file.file}`;
    warnings.push(...unusedSingleRunWarning(sources, 'L1_RUNS', source.layer));
  } else if (source.kind === 'L1_HTML_URL') {
    const single = singleRunValues(sources, source.layer!);
    const input = singleRun(single.values);
    entries = [single.missing ? { input, error: single.missing } : { input }];
    warnings.push(...single.warnings);
    // The runs file of the other layer, left unused as the single run's other variables are: a
    // `.env` L1_RUNS went without a word under an L1_HTML_URL given on the command line (review 59a).
    if (source.layer === 'environment' && isSet(sources.dotenv.L1_RUNS))
      warnings.push(
        'L1_RUNS (.env) not used: L1_HTML_URL or L1_PLATFORM_URL in the environment names a single run, and the environment comes before .env (README.md § Settings); unset them to check the runs file',
      );
    runsLabel = `from L1_HTML_URL and L1_PLATFORM_URL (${source.layer})`;
    where = 'L1_HTML_URL';
  } else if (!sources.demo && sources.runsOptional) {
    entries = [];
    runsLabel = 'none configured';
    where = 'no runs';
  } else {
    if (!sources.demo)
      throw new SettingsError(
        `no runs configured: set L1_RUNS, or L1_HTML_URL and L1_PLATFORM_URL (the bundled demo's runs come with the project's playwright.config.ts: from another folder, npx playwright test -c ${path.join(root, 'playwright.config.ts')})`,
      );
    const demo = sources.demo(values.L1_DEMO_PORT ?? DEFAULT_DEMO_PORT);
    entries = demo.runs.map((input) => ({ input }));
    demoProfileB = demo.profileB;
    runsLabel = 'bundled demo (no L1_RUNS or L1_HTML_URL set)';
    where = 'demo runs';
    warnings.push(...unusedSingleRunWarning(sources, 'demo'));
  }

  const templated = entries.some((e) => isTemplated(e.input));
  let timeZone: string;
  // Checked whether or not a run is templated: a bad zone stops the invocation at start (README.md
  // § Failure modes), not the first night a run gets a {batchDate}; the batch list's instants are
  // read in it too.
  try {
    timeZone = checkTimeZone(values.L1_TIME_ZONE ?? DEFAULT_TIME_ZONE);
  } catch (e) {
    throw new SettingsError(e instanceof NightError ? e.message : String(e));
  }
  const zone = zoneWarning(timeZone);
  if (zone) warnings.push(zone);
  let night = sources.night;
  if (!night && (templated || values.L1_BATCH_DATE)) {
    try {
      night = resolveNight(values.L1_BATCH_DATE ?? DEFAULT_BATCH_DATE, timeZone, sources.now);
    } catch (e) {
      throw new SettingsError(e instanceof NightError ? e.message : String(e));
    }
  }
  // A date after today where the suite's days are: no report or batch exists for it yet, and each
  // run failed on its own with "no batch for batchDate" (a year mistyped: 2027 for 2026).
  if (night && !sources.night && night.batchDate > dateIn(timeZone, sources.now))
    warnings.push(
      `the batch date ${night.describe} is after today (${dateIn(timeZone, sources.now)} in ${timeZone}): no report or batch can exist for it yet`,
    );
  if (values.L1_BATCH_DATE && !templated)
    warnings.push(
      `L1_BATCH_DATE is set but no run names {batchDate} or {batchDateCompact}: the runs' own dates are used`,
    );
  const runs = configureRuns(entries, where, night);

  const mode = source.kind === 'demo' && !sources.demo ? 'none' : source.kind;
  const merged = demoProfileB
    ? { profileB: demoProfileB, from: 'the bundled demo' }
    : mergeProfileB(fileProfileB, parsed, 'the runs file');
  const env = mergeEnv(sources.env, sources.dotenv);
  if (mode !== 'none') warnings.push(...credentialFileWarnings(env, root));
  const plain = plainHttpOrigins(
    runs,
    (values.L1_LOGIN_ORIGINS as string[] | undefined) ?? [],
    merged.profileB,
  );
  if (plain.length > 0)
    warnings.push(
      `credentials go over plain http:// to ${plain.join(', ')} (not loopback): use https (docs/contract.md §3)`,
    );
  warnings.push(...unknownVariableWarnings(sources.env, sources.dotenv));
  if (merged.from === 'not configured' && mode !== 'none')
    warnings.push(
      'Profile B is not configured (no profileB in the runs file, no L1_PROFILE_B_* variable): every run is checked with Profile A rules',
    );

  const requestTimeoutMs = values.L1_REQUEST_TIMEOUT_MS ?? 30_000;
  const paths = outputPaths(root, values);
  checkKinds(paths);
  const datePart = night ? `, batch date ${night.describe}${templated ? '' : ' (no run uses it)'}` : '';
  return {
    root,
    env,
    values,
    from: parsed.from,
    mode,
    runs,
    runsFrom: `${runs.length} ${source.kind === 'demo' ? `run${runs.length === 1 ? '' : 's'} of the ` : ''}${runsLabel}${datePart}`,
    ...(night ? { night } : {}),
    timeZone,
    profileB: merged.profileB,
    profileBFrom: merged.from,
    loginOrigins: (values.L1_LOGIN_ORIGINS as string[] | undefined) ?? [],
    pageOrigins: (values.L1_PAGE_ORIGINS as string[] | undefined) ?? [],
    limits: {
      requestTimeoutMs,
      retryBackoffMs: values.L1_RETRY_BACKOFF_MS ?? 300,
      runTimeoutMs: values.L1_RUN_TIMEOUT_MS ?? 4 * requestTimeoutMs + 30_000,
      maxAnswerBytes: (values.L1_MAX_ANSWER_MB ?? 64) * 1024 * 1024,
      pageMaxBytes: ((values.L1_PAGE_MAX_MB as number | undefined) ?? 1024) * 1024 * 1024,
      historyBytes: ((values.L1_ALLURE_HISTORY_MB as number | undefined) ?? 32) * 1024 * 1024,
    },
    paths,
    workers: values.L1_WORKERS ?? 2,
    keepState: values.L1_KEEP_STATE ?? false,
    screenshots: values.L1_SCREENSHOTS === 'all' ? 'all' : values.L1_SCREENSHOTS === '0' ? 'none' : 'failing',
    demoPort: values.L1_DEMO_PORT ?? DEFAULT_DEMO_PORT,
    warnings,
  };
}

/**
 * docs/contract.md §3: "When credentials go over plain http:// to a host that is not a loopback
 * address, the invocation warns once, naming the origin." The origins credentials may go to: each
 * run's base URL (its platform's origin unless `baseUrl`), a report on the Profile B portal, and
 * L1_LOGIN_ORIGINS; those on http:// and not loopback, sorted. A URL that does not parse is its
 * run's own error, not this warning's.
 */
export function plainHttpOrigins(
  runs: readonly ConfiguredRun[],
  loginOrigins: readonly string[],
  profileB: ProfileBSettings,
): string[] {
  const origins = runs.flatMap((run) => {
    try {
      const base = run.input.baseUrl ?? run.input.platformUrl;
      return credentialOrigins(run.input.htmlUrl, base, profileB.host, loginOrigins);
    } catch {
      return []; // a URL that does not parse: its run's own error
    }
  });
  const plain = origins.filter((o) => o.startsWith('http:') && !isLoopbackHost(new URL(o).hostname));
  return [...new Set(plain)].sort();
}

/**
 * The settings' paths: each variable's value (parsed: trimmed, unset when blank) against the root,
 * else its default. The one place they are resolved: the redaction guard scans what it gives.
 */
export function outputPaths(root: string, values: VariableValues): Settings['paths'] {
  const resolve = (value: string | undefined, fallback: string) => path.resolve(root, value || fallback);
  return {
    verdicts: resolve(values.L1_VERDICTS_DIR, path.join('reports', 'verdicts')),
    allureResults: resolve(values.L1_ALLURE_RESULTS_DIR, 'allure-results'),
    allureReport: resolve(values.L1_ALLURE_REPORT_DIR, 'allure-report'),
    partial: resolve(values.L1_PARTIAL_DIR, path.join('reports', 'partial')),
    history: resolve(values.L1_ALLURE_HISTORY_PATH, path.join('allure-history', 'history.jsonl')),
    state: resolve(values.L1_STATE_DIR, path.join('.l1', 'state')),
    testResults: resolve(values.L1_TEST_RESULTS_DIR, path.join('test-results', 'checks')),
  };
}

/** The setting that names each path, for the message. */
export const PATH_SETTINGS: Record<keyof Settings['paths'], VariableName> = {
  verdicts: 'L1_VERDICTS_DIR',
  allureResults: 'L1_ALLURE_RESULTS_DIR',
  allureReport: 'L1_ALLURE_REPORT_DIR',
  partial: 'L1_PARTIAL_DIR',
  history: 'L1_ALLURE_HISTORY_PATH',
  state: 'L1_STATE_DIR',
  testResults: 'L1_TEST_RESULTS_DIR',
};

/**
 * A folder setting that names a file (or the history file a folder) stops the invocation at start,
 * naming the setting: later it would be a bare `ENOTDIR`/`EEXIST` from deep in the suite.
 */
function checkKinds(paths: Settings['paths']): void {
  for (const [key, name] of Object.entries(PATH_SETTINGS) as [keyof Settings['paths'], VariableName][]) {
    let stat: fs.Stats;
    try {
      stat = fs.statSync(paths[key]);
    } catch {
      continue; // not there yet: it will be made
    }
    const wantsFile = key === 'history';
    if (wantsFile && stat.isDirectory())
      throw new SettingsError(
        `${name} ${paths[key]} is a folder: it names the history file (…/history.jsonl)`,
      );
    if (!wantsFile && !stat.isDirectory())
      throw new SettingsError(`${name} ${paths[key]} is a file, not a folder: give a folder`);
  }
}

/** Unset values out, so `.env` shows through: empty ones, and blank ones of the suite's `L1_*` names. */
function dropEmpty(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(env).filter(([k, v]) => v !== undefined && v !== '' && (!k.startsWith('L1_') || isSet(v))),
  );
}

/**
 * The command line's environment over `.env` as one variable map, read as `parseVariables` reads
 * the two layers: a value unset in the environment (empty, or blank for an `L1_*` name) lets the
 * `.env` one show through, and an unset one in `.env` is no value either (README.md § Settings).
 * The one merge of the two: Settings.env, the credentials warnings at start, the redaction guard
 * and the CI masking step read the same map, so none of them takes another registry or folder.
 */
export function mergeEnv(env: NodeJS.ProcessEnv, dotenv: Record<string, string>): NodeJS.ProcessEnv {
  return { ...dropEmpty(dotenv), ...dropEmpty(env) };
}

/** The bundled demo's port when L1_DEMO_PORT is not set (README.md § Settings). */
const DEFAULT_DEMO_PORT = 4173;

/**
 * L1_DEMO_PORT as every setting is read (the command line's environment over `.env`, checked by its
 * schema), for a demo started outside the checks: `npm run demo:server` and the main job's
 * `--scenario` demo (demo/server.ts `startDemo`). Read alone, so that another setting's problem
 * does not stop the demo. The demo read `process.env.L1_DEMO_PORT` itself: a port set in `.env`
 * was not used there, and a bad one was not refused as the settings refuse it (conformance audit of
 * issue 16).
 */
export function demoPortSetting(
  env: NodeJS.ProcessEnv = process.env,
  dotenv: Record<string, string> = readDotenv(ROOT),
): number {
  const only = (layer: Record<string, string | undefined>): Record<string, string> =>
    isSet(layer.L1_DEMO_PORT) ? { L1_DEMO_PORT: layer.L1_DEMO_PORT } : {};
  const parsed = parseVariables(only(env), only(dotenv));
  if (parsed.problems.length) throw new SettingsError(`settings: ${parsed.problems.join('; ')}`);
  return parsed.values.L1_DEMO_PORT ?? DEFAULT_DEMO_PORT;
}

/** The project root (where playwright.config.ts lives). */
export const ROOT = path.resolve(__dirname, '..', '..');

/**
 * A tool of the project's own node_modules, as `npx TOOL` runs it, without npx's own start (npm's
 * CLI: about 0.35 CPU s and as long in wall time per call).
 */
export function projectTool(tool: string): string {
  return path.join(ROOT, 'node_modules', '.bin', tool);
}

/** scripts/run-ts.cjs: runs a TypeScript script of the project from one esbuild bundle of it. */
const RUN_TS = path.join(ROOT, 'scripts', 'run-ts.cjs');

/**
 * How the project runs one of its own TypeScript scripts: `node scripts/run-ts.cjs script.ts`,
 * which runs it from one bundle of it and the project modules it imports, built again whenever one
 * of them changed (docs/decisions.md, Speed). One process, as `node --require tsx/cjs script.ts`
 * was, about 0.18 CPU s less per start than tsx's hook, which compiled and source-mapped every
 * module in every process (`npm test` starts some 90 scripts). A signal reaches the script itself,
 * with no relay between.
 */
export function tsScript(script: string, args: readonly string[] = []): [string, string[]] {
  return [process.execPath, [RUN_TS, script, ...args]];
}

/**
 * This process's variables as the settings read them, without the runs: `process.env` over the
 * project's `.env` (`mergeEnv`). The default of code that reads a variable where no settings were
 * read: the browser (lib/run/browser.ts) for scripts/screenshots.ts, the demo's pictures, the bench
 * and the CI setup.
 */
export function processVariables(): NodeJS.ProcessEnv {
  return mergeEnv(process.env, readDotenv(ROOT));
}

/**
 * `.env` of a root as a map (never loaded into process.env: the command line's environment wins).
 * Decoded by its byte order mark as the runs file is (readTextFile): Windows PowerShell 5's `>` and
 * `Out-File` write UTF-16LE, which dotenv reads as UTF-8 and finds no variable in, so the night
 * checked the bundled demo instead of the runs its `.env` named (inputs audit of 2026-11-28).
 */
export function readDotenv(root: string): Record<string, string> {
  try {
    return dotenv.parse(readTextFile(path.join(root, '.env')));
  } catch {
    return {};
  }
}

/** Each read by its options (`runsOptional`): a later call with other options is its own read. */
const cached = new Map<boolean, Settings>();
let demoDefaults: ((demoPort: number) => DemoDefaults) | undefined;
let fixedNight: Night | undefined;

/**
 * The runs used when none is configured: the Playwright config passes the bundled demo's
 * (lib/ never imports demo/). Call before the first `settings()`.
 */
export function useDefaultRuns(source: (demoPort: number) => DemoDefaults): void {
  demoDefaults = source;
}

/** The night the runner resolved, for workers (lib/run/invocation.ts). Call before `settings()`. */
export function useNight(night: Night | undefined): void {
  fixedNight = night;
}

/**
 * A test's timeout in the checks: the run's collection budget (L1_RUN_TIMEOUT_MS) and a minute, so
 * that the collection, which runs in the first test of a run, always ends inside it
 * (playwright.config.ts `timeout`, raised to it under a shorter `--timeout`: fixtures/index.ts).
 */
export function checkTimeoutMs(limits: { runTimeoutMs: number }): number {
  return limits.runTimeoutMs + 60_000;
}

/**
 * This process's settings, read on first use from `process.env` and the root's `.env`. In demo mode
 * the demo's credentials registry is the default credentials file. Scripts that need no runs (the
 * report, the merge) pass `{ runsOptional: true }`. Kept by its options: a call with other options
 * reads again, so `settings()` after `settings({ runsOptional: true })` still refuses a process
 * with no runs instead of answering with none.
 */
export function settings(options: { runsOptional?: boolean } = {}): Settings {
  const key = options.runsOptional === true;
  let read = cached.get(key);
  if (!read) {
    let credentialsFile: string | undefined;
    read = readSettings({
      root: ROOT,
      env: process.env,
      dotenv: readDotenv(ROOT),
      now: new Date(),
      ...(key ? { runsOptional: true } : {}),
      ...(fixedNight ? { night: fixedNight } : {}),
      ...(demoDefaults
        ? {
            demo: (port: number) => {
              const d = demoDefaults!(port);
              credentialsFile = d.credentialsFile;
              return d;
            },
          }
        : {}),
    });
    if (read.mode === 'demo' && credentialsFile && !read.env.L1_CREDENTIALS_FILE)
      read.env.L1_CREDENTIALS_FILE = credentialsFile;
    cached.set(key, read);
  }
  return read;
}
