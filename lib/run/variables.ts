import { z } from 'zod';
import { hostSettingProblem, maskUrlText } from './url';

/**
 * Every `L1_*` variable the suite reads, in one table: its group, its meaning, its default and its
 * schema. `readSettings` (settings.ts) parses them once; the README's settings table is tested
 * against this list (tests/unit/settings.spec.ts), so a variable cannot be added without its line.
 */

const positiveInt = z
  .string()
  .trim()
  .regex(/^\d+$/, 'expected a positive whole number')
  .transform(Number)
  .refine((n) => n > 0, 'expected a positive whole number');
/**
 * A duration in ms that a Node timer can wait: one past 2^31 − 1 ms (24.8 days) fires after 1 ms
 * (TimeoutOverflowWarning), so `L1_RUN_TIMEOUT_MS=9999999999`, meant as "no limit", stopped every
 * run at once, "did not finish within 9999999999 ms" (inputs audit of 2026-11-28). Capped well
 * below it, so that what the suite adds (a minute to a test, the default run budget of four
 * request timeouts, backoffs of three times the first) stays a timer too.
 */
const milliseconds = (max: number, words: string) =>
  positiveInt.refine(
    (n) => n <= max,
    `expected at most ${max} (${words}; past 24.8 days Node's timers fire at once)`,
  );
const flag = z
  .string()
  .trim()
  .regex(/^(0|1|true|false)$/i, 'expected 1 or 0')
  .transform((s) => s === '1' || s.toLowerCase() === 'true');
const text = z.string().trim().min(1, 'empty');
/**
 * One of `values`, trimmed as every other value is: `L1_LEVEL="product "` (a CI variable pasted with
 * its space) was refused as "expected one of brand|product", which reads as the value given.
 */
export const oneOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.string().trim().pipe(z.enum(values));
const integer = z
  .string()
  .trim()
  .regex(/^\d+$/, 'expected an integer')
  // Past 2^53 a number is another number (9007199254740993 reads as …992): refused, never rounded.
  .refine((s) => Number.isSafeInteger(Number(s)), 'expected an integer below 2^53 (9007199254740992)')
  .transform(Number);
/**
 * Whether an `L1_CREDENTIALS_FILE` value is the registry's text rather than a path (the two
 * variables swapped by mistake): JSON (`{…}`, `[…]`), more than one line or longer than any path.
 * Such a value is never echoed: not in an error, a warning or `npm run runs`.
 */
export function holdsRegistryText(value: string): boolean {
  const text = value.trim();
  return /^[{[]/.test(text) || /[\r\n]/.test(text) || text.length > 1024;
}

/**
 * A path a variable names. `~/…` and `$HOME/…`, `${HOME}/…` are a shell's to expand, and neither
 * `.env` (dotenv expands nothing) nor a CI workflow's `env:` block is a shell: taken from the
 * project root as written, `L1_STATE_DIR=~/l1-state` was the folder `~` in the checkout, which a
 * later `rm -rf ~/…` of the user's cleans elsewhere (inputs audit of 2026-11-28). Refused, saying so.
 */
function unexpanded(value: string): string | undefined {
  // Text that is no path at all (the credentials registry put in L1_CREDENTIALS_FILE, whose
  // password may hold a `$`) is said elsewhere, never quoted (lib/run/credentials.ts).
  if (holdsRegistryText(value)) return undefined;
  if (/^~(?=$|[\\/])/.test(value)) return 'begins with ~';
  // `%USERPROFILE%` as Windows' cmd writes it, which a .env written on Windows holds as readily
  // (README § Settings: the folder `%USERPROFILE%` in the checkout, as `~` was).
  // A `$NAME` where a shell variable stands for a folder or a part of one: at the start of the path
  // or of one of its parts, or after a `-` or `_` (`$RUNNER_TEMP/x`, `out/$DATE`, `out/run-$RUN_ID`);
  // `out/reports$v2` is a name (review of 2026-11-28). `${NAME}` is a variable wherever it stands
  // (`out/run${RUN_ID}`, `l1-${GITHUB_RUN_ID}`): no folder is named so by chance (review of 1165113).
  const variable =
    /(?:^|[\\/_-])(\$[A-Za-z_]\w*)|(\$\{[A-Za-z_]\w*\})/.exec(value) ?? /%[A-Za-z_]\w*%/.exec(value);
  return variable ? `names ${variable[1] ?? variable[2] ?? variable[0]}` : undefined;
}
const pathText = (separator?: string) =>
  text.superRefine((value, ctx) => {
    for (const item of separator ? value.split(separator) : [value]) {
      const why = unexpanded(item.trim());
      if (why)
        ctx.addIssue({
          code: 'custom',
          message: `${why}, which nothing expands here (.env and a CI workflow's env: are no shell): write the absolute path`,
        });
    }
  });

/** A comma-separated list of origins (`https://host[:port]`), each reduced to its origin. */
const origins = text.transform((value, ctx) => {
  const out: string[] = [];
  for (const item of value
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean)) {
    let url: URL | undefined;
    try {
      url = new URL(item);
    } catch {
      url = undefined;
    }
    if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
      ctx.addIssue({ code: 'custom', message: `"${maskUrlText(item)}" is not an http(s) origin` });
      return z.NEVER;
    }
    // An origin, nothing more (docs/contract.md §3 "an origin listed in L1_LOGIN_ORIGINS"): a path,
    // a query, userinfo or a `*` would be trusted as the whole origin (a bucket as its whole host).
    const problem =
      url.username || url.password
        ? 'userinfo'
        : url.search || url.hash || /[?#]/.test(item)
          ? 'a query or fragment'
          : url.pathname !== '/'
            ? 'a path'
            : item.includes('*')
              ? 'a wildcard'
              : undefined;
    if (problem) {
      ctx.addIssue({
        code: 'custom',
        message: `"${maskUrlText(item)}" is not an origin (it has ${problem}): write ${url.protocol}//host[:port], which trusts the whole origin`,
      });
      return z.NEVER;
    }
    out.push(url.origin);
  }
  return out;
});
/**
 * A host[:port] (docs/contract.md §2): a URL is refused with its host, never silently unmatched.
 * `L1_PROFILE_B_HOST` and the runs file's `profileB.host` alike.
 */
/**
 * A comma-separated list of host names (L1_REPORT_ALLOWED_HOSTS), matched against the host name of
 * every URL of the report, without scheme or port (lib/report/allure/offline.ts). A URL or a port
 * there never matched: the report naming that host was deleted ("still names external hosts",
 * exit 3) with the host allowed to the user's eye, as L1_PAGE_ORIGINS beside it takes origins.
 */
const hostNames = text.superRefine((value, ctx) => {
  const items = value
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  for (const item of items) {
    const bare = item.toLowerCase().replace(/^\[|\]$/g, '');
    // A bare IPv6 address is a host name here: runHosts writes it without its brackets.
    if (!item.includes('*') && [item, `[${bare}]`].some((h) => hostnameOf(`https://${h}`) === bare)) continue;
    const named = hostnameOf(/^[a-z][a-z0-9+.-]*:\/\//i.test(item) ? item : `https://${item}`);
    const shown = items.length > 1 ? `"${maskUrlText(item)}" is not a host name` : 'not a host name';
    ctx.addIssue({
      code: 'custom',
      message: item.includes('*')
        ? `${shown}: a wildcard is not read, list each host`
        : `${shown}${named ? `: write ${named} (no scheme, port or path; any port of it is allowed)` : ''}`,
    });
  }
});

/** The host name of a URL, without IPv6 brackets, or undefined. */
function hostnameOf(url: string): string | undefined {
  try {
    return new URL(url).hostname.replace(/^\[|\]$/g, '') || undefined;
  } catch {
    return undefined;
  }
}

export const hostSetting = text.superRefine((value, ctx) => {
  const problem = hostSettingProblem(value);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

export type VariableGroup =
  'runs' | 'night' | 'Profile B' | 'credentials' | 'outputs' | 'limits' | 'pictures' | 'machine';

export interface Variable {
  group: VariableGroup;
  /** What it does, one line (README table). */
  meaning: string;
  /** The default, as a user reads it (`-` when unset means "not used"). */
  default: string;
  schema: z.ZodType<unknown, string>;
}

export const VARIABLES = {
  L1_RUNS: {
    group: 'runs',
    meaning: 'path of a runs file: a JSON array of runs, or {"profileB": {…}, "runs": […]}',
    default: '-',
    schema: pathText(),
  },
  L1_HTML_URL: { group: 'runs', meaning: 'one run: the report page', default: '-', schema: text },
  L1_PLATFORM_URL: {
    group: 'runs',
    meaning: 'one run: a platform page of the project',
    default: '-',
    schema: text,
  },
  L1_BASE_URL: {
    group: 'runs',
    meaning: 'one run: overrides base_url',
    default: 'platform URL origin',
    schema: text,
  },
  L1_COMPANY_ID: {
    group: 'runs',
    meaning: 'one run: companyId when the URL has none',
    default: '-',
    schema: integer,
  },
  L1_CAL_DATA_JSON: {
    group: 'runs',
    meaning: 'one run: an offline DATA file (spec 2.1)',
    default: '-',
    schema: pathText(),
  },
  L1_BATCH_ID: { group: 'runs', meaning: 'one run: skip batch discovery', default: '-', schema: text },
  L1_LABEL: { group: 'runs', meaning: 'one run: its label', default: 'company-project-type', schema: text },
  L1_LEVEL: {
    group: 'runs',
    meaning: 'one run: brand or product (spec 9.5.1)',
    default: 'brand',
    schema: oneOf(['brand', 'product']),
  },
  L1_BATCH_DATE: {
    group: 'night',
    meaning: 'fills {batchDate}/{batchDateCompact}: YYYY-MM-DD, today, yesterday or -N (days back)',
    default: 'yesterday',
    schema: text,
  },
  L1_TIME_ZONE: {
    group: 'night',
    meaning:
      "IANA time zone of today/yesterday/-N and of a batch list batchDate's instant (Asia/Shanghai, not an abbreviation such as CST)",
    default: 'Asia/Shanghai',
    schema: text,
  },
  L1_PROFILE_B_HOST: {
    group: 'Profile B',
    meaning: '{portal_b_host}: host[:port] of the group portal (overrides profileB.host of the runs file)',
    default: '-',
    schema: hostSetting,
  },
  L1_PROFILE_B_GROUP_NAME: {
    group: 'Profile B',
    meaning: 'the group name looked for in DATA.meta.line (overrides profileB.groupName)',
    default: '-',
    schema: text,
  },
  L1_PROFILE_B_COMPANY_ID: {
    group: 'Profile B',
    meaning: "the group's fixed companyId (overrides profileB.companyId)",
    default: '-',
    schema: integer,
  },
  L1_PROFILE_B_BRAND_CODE: {
    group: 'Profile B',
    meaning: '<BRANDCODE> of built diagnosis batch ids, spec 9.1.2 (overrides profileB.brandCode)',
    default: '-',
    schema: text,
  },
  L1_CREDENTIALS_FILE: {
    group: 'credentials',
    meaning: 'the credentials registry file {"companies": {…}, "profileB": {…}}',
    default: 'credentials.local.json',
    schema: pathText(),
  },
  L1_LOGIN_ORIGINS: {
    group: 'credentials',
    meaning:
      "origins besides each run's base URL and the Profile B portal where credentials may be posted (comma-separated `https://host[:port]`; a path, query or wildcard is refused), e.g. a report host with its own login",
    default: '-',
    schema: origins,
  },
  L1_PAGE_MAX_MB: {
    group: 'limits',
    meaning:
      "memory of the worker's Chromium renderers together (one report page at a time) while it loads and DATA is read; over it the run is an error and the browser is replaced",
    default: '1024',
    schema: positiveInt,
  },
  L1_PAGE_ORIGINS: {
    group: 'limits',
    meaning:
      'origins a report page may load from besides its own and the login origins (comma-separated `https://host[:port]`; a path, query or wildcard is refused), e.g. a CDN; others are blocked and named',
    default: '-',
    schema: origins,
  },
  L1_CREDENTIALS_JSON: {
    group: 'credentials',
    meaning: 'the registry as JSON text (when no file is given)',
    default: '-',
    schema: text,
  },
  L1_VERDICTS_DIR: {
    group: 'outputs',
    meaning: 'verdict folder of a complete invocation',
    default: 'reports/verdicts',
    schema: pathText(),
  },
  L1_ALLURE_RESULTS_DIR: {
    group: 'outputs',
    meaning: 'Allure results of a complete invocation',
    default: 'allure-results',
    schema: pathText(),
  },
  L1_PARTIAL_DIR: {
    group: 'outputs',
    meaning: 'where partial invocations (--grep, --last-failed, filters) write, one folder each',
    default: 'reports/partial',
    schema: pathText(),
  },
  L1_ALLURE_REPORT_DIR: {
    group: 'outputs',
    meaning: 'where npm run report writes the single-file Allure report',
    default: 'allure-report',
    schema: pathText(),
  },
  L1_TEST_RESULTS_DIR: {
    group: 'outputs',
    meaning:
      "Playwright's outputDir for the checks (attachments, .last-run.json that --last-failed reads): one per job that runs beside another; a partial invocation with a folder of its own keeps its own there",
    default: 'test-results/checks',
    schema: pathText(),
  },
  L1_ALLURE_HISTORY_PATH: {
    group: 'outputs',
    meaning: 'Allure history kept from night to night',
    default: 'allure-history/history.jsonl',
    schema: pathText(),
  },
  L1_ALLURE_HISTORY_MB: {
    group: 'outputs',
    meaning:
      "MB of Allure history npm run report reads and keeps, its newest nights that fit (at most 60): the report step's memory and the report's size grow with it (a night of 300 runs is 1.6 MB)",
    default: '32',
    schema: positiveInt,
  },
  L1_REPORT_ALLOWED_HOSTS: {
    group: 'outputs',
    meaning:
      'hosts the Allure report may name besides loopback and the runs (comma-separated host names, `cdn.example.com`: no scheme or port)',
    default: '-',
    schema: hostNames,
  },
  L1_REDACTION_EXTRA_PATHS: {
    group: 'outputs',
    meaning: 'more paths for the redaction guard (colon-separated)',
    default: '-',
    schema: pathText(':'),
  },
  L1_REQUEST_TIMEOUT_MS: {
    group: 'limits',
    meaning: 'each request, page load and DATA read (at most a day, 86400000)',
    default: '30000',
    schema: milliseconds(86_400_000, 'a day'),
  },
  L1_RETRY_BACKOFF_MS: {
    group: 'limits',
    meaning: 'first backoff of the two retries of 5xx and network errors (at most a day)',
    default: '300',
    schema: milliseconds(86_400_000, 'a day'),
  },
  L1_RUN_TIMEOUT_MS: {
    group: 'limits',
    meaning: "one run's whole collection (at most a week, 604800000)",
    default: '4 × request timeout + 30000',
    schema: milliseconds(604_800_000, 'a week'),
  },
  L1_MAX_ANSWER_MB: {
    group: 'limits',
    meaning: 'largest API answer (after decompression) and DATA',
    default: '64',
    schema: positiveInt,
  },
  L1_SECTION_SELECTORS: {
    group: 'pictures',
    meaning: 'report sections to picture: {"5": "#ranking", …} or a JSON file',
    default: 'the bundled report',
    schema: text,
  },
  L1_SCREENSHOTS: {
    group: 'pictures',
    meaning: 'which items get a picture of their section: failing (or 1), all, or 0 (none)',
    default: 'failing',
    schema: oneOf(['failing', 'all', '0', '1']),
  },
  L1_WORKERS: { group: 'machine', meaning: 'Playwright workers', default: '2', schema: positiveInt },
  L1_STATE_DIR: {
    group: 'machine',
    meaning: "each invocation's private sessions and evidence",
    default: '.l1/state',
    schema: pathText(),
  },
  L1_KEEP_STATE: {
    group: 'machine',
    meaning: 'keep sessions and evidence after the invocation (debugging)',
    default: '0',
    schema: flag,
  },
  L1_CHROMIUM_PATH: {
    group: 'machine',
    meaning:
      'the browser; else Debian’s chromium-headless-shell, then /usr/bin/chromium, else Playwright’s own',
    default: 'detected',
    schema: pathText(),
  },
  L1_DEMO_PORT: {
    group: 'machine',
    meaning: 'port of the bundled demo platform (and the two after it)',
    default: '4173',
    // The demo listens on the port and the two after it: 65534 and above made a URL with no valid
    // port and a stack trace, not a message naming the variable (CLI audit of 2026-11-26).
    schema: positiveInt.refine(
      (n) => n <= 65533,
      'expected a port of 65533 or less (the demo takes the two after it too)',
    ),
  },
} satisfies Record<string, Variable>;

export type VariableName = keyof typeof VARIABLES;
export type VariableValues = {
  [K in VariableName]?: z.output<(typeof VARIABLES)[K]['schema']>;
};

export const VARIABLE_NAMES = Object.keys(VARIABLES) as VariableName[];

/** Where a value came from: the command line's environment beats `.env`, which beats defaults. */
export type Provenance = 'environment' | '.env';

export interface ParsedVariables {
  values: VariableValues;
  from: Partial<Record<VariableName, Provenance>>;
  /** One line per malformed variable, naming it and what it expects (never its value for secrets). */
  problems: string[];
}

/**
 * Variables whose value must never be echoed back in a message or listed (`npm run runs`).
 * `L1_CREDENTIALS_FILE` is not one, but holding the registry's text it is treated as one
 * (`holdsRegistryText`).
 */
export const SECRET_VARIABLES: ReadonlySet<string> = new Set<string>(['L1_CREDENTIALS_JSON']);

/** Whether a variable counts as set: empty or only spaces is unset, in either layer (README.md § Settings). */
export function isSet(value: string | undefined): value is string {
  return value !== undefined && value.trim() !== '';
}

/**
 * Parses every known variable from the process environment over `.env`. Empty or blank strings
 * count as unset: a blank variable on the command line leaves the `.env` one in force, as it
 * leaves the layer that names the runs (settings.ts). A malformed value is a problem naming the
 * variable; it never silently falls back. A value is quoted with any URL userinfo, query and
 * fragment masked (`maskUrlText`), and not at all for a secret.
 */
export function parseVariables(env: NodeJS.ProcessEnv, dotenv: Record<string, string>): ParsedVariables {
  const values: Record<string, unknown> = {};
  const from: Partial<Record<VariableName, Provenance>> = {};
  const problems: string[] = [];
  for (const name of VARIABLE_NAMES) {
    const fromEnv = env[name];
    const raw = isSet(fromEnv) ? fromEnv : dotenv[name];
    if (!isSet(raw)) continue;
    from[name] = isSet(fromEnv) ? 'environment' : '.env';
    const parsed = (VARIABLES[name].schema as z.ZodType).safeParse(raw);
    if (parsed.success) values[name] = parsed.data;
    else {
      const shown = SECRET_VARIABLES.has(name) ? '' : ` ${JSON.stringify(maskUrlText(raw).slice(0, 80))}`;
      problems.push(
        `${name}${shown}${from[name] === '.env' ? ' (in .env)' : ''}: ${parsed.error.issues[0]?.message ?? 'invalid'}`,
      );
    }
  }
  return { values: values as VariableValues, from, problems };
}

/**
 * `L1_*` names that are not settings of the checks but are read elsewhere: by the demo, the CI
 * scripts and workflow, and between the suite's own processes. They draw no warning.
 */
const OTHER_L1_NAMES = new Set([
  'L1_ALLURE_APPEND_HISTORY', // scripts/report.ts → allurerc.mjs
  'L1_ALLURE_VARIABLES', // scripts/report.ts → allurerc.mjs
  'L1_CI_BROWSER', // scripts/ci/setup.sh
  'L1_DEMO_BREAK_FROM', // the demo
  'L1_DEMO_CHARTS', // the demo
  'L1_DEMO_SLOW_MS', // the demo
  'L1_DEMO_STARTED_BY', // playwright.config.ts → the demo it starts (demo/app.ts)
  'L1_INVOCATION', // the runner to its workers (lib/run/invocation.ts)
  'L1_INVOCATION_ID', // the main job and the self-tests (lib/run/invocation.ts)
  'L1_RUNS_FILE', // .github/workflows/l1-regression.yml
  'L1_SHARDS_DIR', // scripts/ci/shard.sh
  'L1_SHARD_MINUTES', // scripts/ci/shard.sh (its --global-timeout)
  'L1_SHARD_STATE_ROOT', // scripts/ci/shard.sh
  'L1_SELFTEST_DEMO_PORT', // playwright.selftest.config.ts
]);

/**
 * A key a runs file or a credentials registry may hold besides the contract's: a comment (`_note`)
 * or `$schema`. Ignored, never named as unknown.
 */
export function isAside(key: string): boolean {
  return key.startsWith('_') || key.startsWith('$');
}

/** Levenshtein distance, for "did you mean" (`nearestName`). */
function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++)
      next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length]!;
}

/**
 * "Did you mean": the known name closest to a misspelt one (at most 3 edits), or undefined. Case,
 * `_` and `-` count as near nothing, so `base_url` finds `baseUrl` and `batchID` `batchId`. For
 * `L1_*` variables here and for the keys of a runs file's run (runs.ts).
 */
export function nearestName(name: string, known: readonly string[]): string | undefined {
  const plain = (s: string) => s.toLowerCase().replace(/[_-]/g, '');
  const scored = known.map((k) => ({
    k,
    d: plain(k) === plain(name) ? 0.5 : distance(name, k),
  }));
  return scored.filter(({ d }) => d <= 3).sort((a, b) => a.d - b.d)[0]?.k;
}

/**
 * One warning per `L1_*` variable (environment or `.env`) that is no setting: a misspelt name is
 * otherwise ignored without a word, and a night runs on the default it meant to change
 * (`L1_BATCHDATE=-2` checks yesterday). Names the closest setting when one is near.
 */
export function unknownVariableWarnings(env: NodeJS.ProcessEnv, dotenv: Record<string, string>): string[] {
  const warnings: string[] = [];
  for (const [name, where] of [
    ...Object.keys(env).map((n) => [n, 'environment'] as const),
    ...Object.keys(dotenv).map((n) => [n, '.env'] as const),
  ]) {
    if (!name.startsWith('L1_') || name in VARIABLES || OTHER_L1_NAMES.has(name)) continue;
    if (where === '.env' && env[name] !== undefined) continue; // said once, for the environment
    const near = nearestName(name, VARIABLE_NAMES);
    warnings.push(
      `${name} (${where}) is not a setting of the suite and is ignored${near ? `: did you mean ${near}?` : ''} (README.md § Settings)`,
    );
  }
  return warnings;
}

const GROUP_ORDER: VariableGroup[] = [
  'runs',
  'night',
  'Profile B',
  'credentials',
  'outputs',
  'limits',
  'pictures',
  'machine',
];

/**
 * The README's settings table (README.md § Settings), made from this one list: `npm run
 * settings-table -- --write` puts it in the README; a unit test fails when they differ.
 */
export function variablesTable(): string {
  const rows = GROUP_ORDER.flatMap((group) =>
    VARIABLE_NAMES.filter((n) => VARIABLES[n].group === group).map(
      (n) =>
        `| ${group} | \`${n}\` | ${VARIABLES[n].meaning.replace(/\|/g, '\\|')} | ${VARIABLES[n].default} |`,
    ),
  );
  return ['| group | variable | what it sets | default |', '| --- | --- | --- | --- |', ...rows].join('\n');
}
