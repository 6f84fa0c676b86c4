import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from './test-type';
import {
  credentialFileWarnings,
  credentialSource,
  credentialsFor,
  loadRegistry,
  registrySecrets,
} from '../../lib/run/credentials';
import { collectSecrets } from '../../lib/redaction/secrets';
import { dateIn, nightsOfJob } from '../../lib/run/night';
import { fileKeyOf, SettingsError } from '../../lib/run/runs';
import {
  demoPortSetting,
  checkTimeoutMs,
  readDotenv,
  readSettings,
  ROOT,
  tsScript,
  type Settings,
  type SettingsSources,
} from '../../lib/run/settings';
import { findExternalUrls, runHosts } from '../../lib/report/allure/offline';
import { DEFAULT_SECTIONS, sectionSelectors, sectionSelectorsProblem } from '../../lib/report/sections';
import type { RunInput } from '../../lib/run/types';
import { parseVariables, unknownVariableWarnings, VARIABLES, variablesTable } from '../../lib/run/variables';
import { writeAtomic } from '../../lib/util/atomic';
import { tempDir } from './fakes/temp';
import { tsEval } from './fakes/ts-eval';

/** readSettings (README.md § Settings, docs/contract.md §1-2): which runs an invocation checks, how, and why. */

const PLAIN_HTTP = 'credentials go over plain http://';

const html = (project: string, company = 1001, date = '2025-11-17') =>
  `http://h.test/reports/${project}/monitor/${date}?companyId=${company}`;
const platform = (project: string) => `http://h.test/platform/projects/${project}/overview`;
const entry = (project: string, extra: Partial<RunInput> = {}): RunInput => ({
  htmlUrl: html(project),
  platformUrl: platform(project),
  ...extra,
});

const demoRuns = [entry('101101', { label: 'A-monitor' })];
const demo = () => ({ runs: demoRuns, profileB: { host: 'portal.test' }, credentialsFile: '/demo.json' });
/** 2026-11-23 17:30 UTC is already 2026-11-24 in Beijing. */
const NOW = new Date('2026-11-23T17:30:00Z');

function sources(extra: Partial<SettingsSources> = {}): SettingsSources {
  // Run from the project's root, as `npm run check` and `npx playwright test` in it are.
  return { root: '/', env: {}, dotenv: {}, now: NOW, demo, ...extra, cwd: extra.cwd ?? extra.root ?? '/' };
}

/** Writes a runs file in a fresh folder and reads the settings with it (relative to the root). */
function withRunsFile(
  content: unknown,
  env: NodeJS.ProcessEnv = {},
  dotenv: Record<string, string> = {},
): Settings {
  const root = tempDir('settings');
  fs.writeFileSync(
    path.join(root, 'runs.json'),
    typeof content === 'string' ? content : JSON.stringify(content),
  );
  return readSettings(sources({ root, env: { L1_RUNS: 'runs.json', ...env }, dotenv }));
}

function refusal(load: () => unknown): string {
  try {
    load();
  } catch (e) {
    return e instanceof SettingsError ? e.message : `not a SettingsError: ${String(e)}`;
  }
  return 'loaded';
}

test.describe('where the runs come from (docs/contract.md §1)', () => {
  test('L1_RUNS wins over L1_HTML_URL, which wins over the demo', () => {
    const single = { L1_HTML_URL: html('555'), L1_PLATFORM_URL: platform('555') };
    const fromFile = withRunsFile([entry('101101')], single);
    expect(fromFile.mode).toBe('L1_RUNS');
    expect(fromFile.runs.map((r) => r.input.htmlUrl)).toEqual([html('101101')]);

    const fromEnv = readSettings(sources({ env: { ...single, L1_LABEL: 'one', L1_LEVEL: 'product' } }));
    expect(fromEnv.mode).toBe('L1_HTML_URL');
    expect(fromEnv.runs).toEqual([
      { label: 'one', slug: 'one', input: { ...entry('555'), label: 'one', level: 'product' } },
    ]);

    const fromDemo = readSettings(sources());
    expect(fromDemo.mode).toBe('demo');
    expect(fromDemo.runs).toEqual([{ label: 'A-monitor', slug: 'A-monitor', input: demoRuns[0] }]);
    expect(fromDemo.profileB).toEqual({ host: 'portal.test' });
  });

  test('the command line beats .env: a one-run variable on the command line wins over L1_RUNS in .env', () => {
    const root = tempDir('settings');
    fs.writeFileSync(path.join(root, 'runs.json'), JSON.stringify([entry('101101'), entry('101102')]));
    const s = readSettings(
      sources({
        root,
        env: { L1_HTML_URL: html('555'), L1_PLATFORM_URL: platform('555') },
        dotenv: { L1_RUNS: 'runs.json', L1_WORKERS: '4', L1_REQUEST_TIMEOUT_MS: '1000' },
      }),
    );
    expect(s.mode).toBe('L1_HTML_URL');
    expect(s.runsFrom).toBe('1 from L1_HTML_URL and L1_PLATFORM_URL (environment)');
    expect(s.workers).toBe(4);
    expect(s.from.L1_WORKERS).toBe('.env');
    // A variable on the command line beats the same one in .env.
    const over = readSettings(
      sources({ root, env: { L1_WORKERS: '1' }, dotenv: { L1_RUNS: 'runs.json', L1_WORKERS: '4' } }),
    );
    expect(over.workers).toBe(1);
    expect(over.runsFrom).toBe('2 from runs.json (L1_RUNS in .env)');
  });

  test("the single run takes all its variables from the layer that names it, never an older run's from .env", () => {
    const s = readSettings(
      sources({
        env: { L1_HTML_URL: html('555'), L1_PLATFORM_URL: platform('555') },
        dotenv: {
          L1_HTML_URL: 'https://old.test/reports/1/monitor/2025-01-01?companyId=9',
          L1_PLATFORM_URL: 'https://old.test/platform/projects/1',
          L1_BASE_URL: 'https://old.test',
          L1_LABEL: 'old',
          L1_COMPANY_ID: '9',
          L1_LEVEL: 'product',
        },
      }),
    );
    expect(s.runs).toEqual([{ label: '1001-555-monitor', slug: '1001-555-monitor', input: entry('555') }]);
    expect(s.warnings).toContain(
      'L1_BASE_URL, L1_COMPANY_ID, L1_LABEL, L1_LEVEL in .env not used: the single run comes from the environment, and its variables only from there (docs/contract.md §1)',
    );
    // Named in .env: the command line's companions are not mixed in either, and the missing half is said.
    const half = readSettings(
      sources({ env: { L1_LABEL: 'new' }, dotenv: { L1_HTML_URL: html('555'), L1_LABEL: 'old' } }),
    );
    expect(half.runs.map((r) => r.label)).toEqual(['old']);
    expect(half.runs[0]!.inputError).toBe('L1_PLATFORM_URL not set: a single run needs both');
    const split = readSettings(
      sources({ env: { L1_HTML_URL: html('555') }, dotenv: { L1_PLATFORM_URL: platform('555') } }),
    );
    expect(split.runs[0]!.inputError).toBe(
      "L1_PLATFORM_URL not set in the environment (the one in .env is not used: a single run's variables come from one layer): a single run needs both",
    );
  });

  test('a blank variable on the command line is unset: .env shows through, also for L1_RUNS', () => {
    const s = withRunsFile(
      [entry('101101')],
      { L1_RUNS: ' ', L1_WORKERS: '  ' },
      { L1_RUNS: 'runs.json', L1_WORKERS: '3' },
    );
    expect(s.mode).toBe('L1_RUNS');
    expect(s.runsFrom).toBe('1 from runs.json (L1_RUNS in .env)');
    expect(s.workers).toBe(3);
    expect(s.from.L1_WORKERS).toBe('.env');
  });

  test("a .env that Windows PowerShell 5 wrote (UTF-16 with its mark, CRLF) names the runs as a UTF-8 one does, never the bundled demo's", () => {
    const text = 'L1_RUNS=runs.json\r\nL1_WORKERS=3\r\n';
    const encodings = {
      'UTF-16LE (PowerShell 5 `>`)': Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]),
      'UTF-16BE': Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()]),
      // Near miss: UTF-8 with its mark, and without, as before.
      'UTF-8 with its mark': Buffer.from(`\ufeff${text}`),
      'UTF-8': Buffer.from(text),
    };
    for (const [encoding, bytes] of Object.entries(encodings)) {
      const root = tempDir('settings');
      fs.writeFileSync(path.join(root, 'runs.json'), JSON.stringify([entry('101101')]));
      fs.writeFileSync(path.join(root, '.env'), bytes);
      const s = readSettings(sources({ root, dotenv: readDotenv(root) }));
      expect([encoding, s.mode, s.runsFrom, s.workers]).toEqual([
        encoding,
        'L1_RUNS',
        '1 from runs.json (L1_RUNS in .env)',
        3,
      ]);
    }
  });

  test("one run's variables that L1_RUNS, which comes first, leaves unused are said, as is L1_LABEL with no URL (the demo is checked); near miss: the single run itself draws no such word", () => {
    const single = { L1_HTML_URL: html('555'), L1_PLATFORM_URL: platform('555'), L1_LABEL: 'one' };
    const fromFile = withRunsFile([entry('101101')], single, { L1_LEVEL: 'product' });
    expect(fromFile.runs.map((r) => r.label)).toEqual(['1001-101101-monitor']);
    expect(fromFile.warnings).toContain(
      'L1_HTML_URL (environment), L1_PLATFORM_URL (environment), L1_LABEL (environment), L1_LEVEL (.env) not used: L1_RUNS (environment) names the runs, and it comes first (docs/contract.md §1); unset it to check one run from these',
    );
    const demoWithLabel = readSettings(sources({ env: { L1_LABEL: 'one', L1_BATCH_ID: ' ' } }));
    expect(demoWithLabel.mode).toBe('demo');
    expect(demoWithLabel.warnings).toContain(
      'L1_LABEL (environment) not used: a single run needs L1_HTML_URL and L1_PLATFORM_URL, so the bundled demo is checked',
    );
    const alone = readSettings(sources({ env: single }));
    expect(alone.warnings.filter((w) => w.includes('not used'))).toEqual([]);
    // The other way round: the runs file of .env under a single run of the command line.
    const overDotenv = readSettings(sources({ env: single, dotenv: { L1_RUNS: 'runs.json' } }));
    expect([overDotenv.mode, overDotenv.warnings.filter((w) => w.includes('not used'))]).toEqual([
      'L1_HTML_URL',
      [
        'L1_RUNS (.env) not used: L1_HTML_URL or L1_PLATFORM_URL in the environment names a single run, and the environment comes before .env (README.md § Settings); unset them to check the runs file',
      ],
    ]);
    expect(withRunsFile([entry('101101')]).warnings.filter((w) => w.includes('not used'))).toEqual([]);
  });

  test('the demo is asked for its runs only when no run is configured', () => {
    let asked = 0;
    const counting = () => (asked++, demo());
    withRunsFile([entry('101101')]);
    readSettings(
      sources({ env: { L1_HTML_URL: html('1'), L1_PLATFORM_URL: platform('1') }, demo: counting }),
    );
    expect(asked).toBe(0);
    readSettings(sources({ demo: counting }));
    expect(asked).toBe(1);
  });

  test('L1_HTML_URL without L1_PLATFORM_URL is one run that fails with its reason', () => {
    const s = readSettings(sources({ env: { L1_HTML_URL: html('555') } }));
    expect(s.runs).toHaveLength(1);
    expect(s.runs[0]!.inputError).toBe('L1_PLATFORM_URL not set: a single run needs both');
  });

  test('a malformed variable stops the invocation naming it (never a silent default)', () => {
    expect(refusal(() => readSettings(sources({ env: { L1_WORKERS: 'two' } })))).toContain(
      'L1_WORKERS "two": expected a positive whole number',
    );
    // The demo takes the port and the two after it (CLI audit: 65535 gave a stack trace).
    for (const port of ['65534', '99999'])
      expect(refusal(() => readSettings(sources({ env: { L1_DEMO_PORT: port } })))).toContain(
        `L1_DEMO_PORT "${port}": expected a port of 65533 or less`,
      );
    expect(readSettings(sources({ env: { L1_DEMO_PORT: '65533' } })).demoPort).toBe(65533);
    expect(refusal(() => readSettings(sources({ dotenv: { L1_PROFILE_B_COMPANY_ID: '31x' } })))).toContain(
      'L1_PROFILE_B_COMPANY_ID "31x" (in .env): expected an integer',
    );
    // The registry as JSON text is never echoed back.
    expect(refusal(() => readSettings(sources({ env: { L1_CREDENTIALS_JSON: ' ' } })))).toBe('loaded');
  });

  test('a time limit past what a Node timer waits is refused naming the variable: L1_RUN_TIMEOUT_MS=9999999999 ("no limit") stopped every run after 1 ms', () => {
    const limit = (env: NodeJS.ProcessEnv) => refusal(() => readSettings(sources({ env })));
    expect(limit({ L1_RUN_TIMEOUT_MS: '9999999999' })).toBe(
      `settings: L1_RUN_TIMEOUT_MS "9999999999": expected at most 604800000 (a week; past 24.8 days Node's timers fire at once)`,
    );
    expect(limit({ L1_REQUEST_TIMEOUT_MS: '600000000' })).toContain(
      'L1_REQUEST_TIMEOUT_MS "600000000": expected at most 86400000 (a day;',
    );
    expect(limit({ L1_RETRY_BACKOFF_MS: '2147483648' })).toContain(
      'L1_RETRY_BACKOFF_MS "2147483648": expected at most 86400000 (a day;',
    );
    // Near miss: the largest values are taken, and what the suite makes of them stays a timer.
    const s = readSettings(
      sources({ env: { L1_REQUEST_TIMEOUT_MS: '86400000', L1_RETRY_BACKOFF_MS: '86400000' } }),
    );
    expect(s.limits.runTimeoutMs).toBe(345_630_000);
    const week = readSettings(sources({ env: { L1_RUN_TIMEOUT_MS: '604800000' } }));
    expect(checkTimeoutMs(week.limits)).toBeLessThanOrEqual(2 ** 31 - 1);
    expect(3 * s.limits.retryBackoffMs).toBeLessThanOrEqual(2 ** 31 - 1);
  });

  test("a value of a fixed list (L1_LEVEL, L1_SCREENSHOTS, a run's level) is trimmed as every value is; near miss: another case is still refused", () => {
    const single = { L1_HTML_URL: html('555'), L1_PLATFORM_URL: platform('555') };
    const s = readSettings(sources({ env: { ...single, L1_LEVEL: 'product ', L1_SCREENSHOTS: ' all' } }));
    expect([s.runs[0]!.input.level, s.screenshots]).toEqual(['product', 'all']);
    expect(withRunsFile([entry('101101', { level: ' product' as 'product' })]).runs[0]!.input.level).toBe(
      'product',
    );
    expect(refusal(() => readSettings(sources({ env: { ...single, L1_LEVEL: 'Product' } })))).toContain(
      'L1_LEVEL "Product": Invalid option: expected one of "brand"|"product"',
    );
    expect(withRunsFile([entry('101101', { level: 'Product' as 'product' })]).runs[0]!.inputError).toContain(
      '[0].level: Invalid option',
    );
  });

  test('L1_REPORT_ALLOWED_HOSTS takes host names, as the report matches them: a URL, a port, a path or a wildcard, which never matched and had the report deleted, is refused with the host to write', () => {
    const problems = (value: string) => parseVariables({ L1_REPORT_ALLOWED_HOSTS: value }, {}).problems;
    expect(problems('https://cdn.example.com')).toEqual([
      'L1_REPORT_ALLOWED_HOSTS "https://cdn.example.com": not a host name: write cdn.example.com (no scheme, port or path; any port of it is allowed)',
    ]);
    expect(problems('a.example.com, cdn.example.com:8443')).toEqual([
      'L1_REPORT_ALLOWED_HOSTS "a.example.com, cdn.example.com:8443": "cdn.example.com:8443" is not a host name: write cdn.example.com (no scheme, port or path; any port of it is allowed)',
    ]);
    expect(problems('*.example.com')[0]).toContain('a wildcard is not read, list each host');
    const pw = ['hun', 'ter2'].join('');
    expect(problems(`https://user:${pw}@cdn.example.com/x`).join()).not.toContain(pw);
    // Near miss: host names, in any case, IPv4 and IPv6 among them, are taken, and the report's
    // check allows what they name.
    expect(problems('cdn.example.com, CDN2.Example.com, 10.0.0.1, [::1], 2001:db8::1')).toEqual([]);
    const page = '<script src="https://cdn.example.com/chart.js"></script>';
    expect(findExternalUrls(page, { allowedHosts: ['cdn.example.com'] })).toEqual([]);
    expect(findExternalUrls(page, { allowedHosts: ['https://cdn.example.com'] })).toHaveLength(1);
  });

  test('every host name L1_REPORT_ALLOWED_HOSTS takes is one the report allows: a bare IPv6 address, a final dot, any case (the check took them and the report step still deleted the report naming them)', () => {
    const page = [
      '<script src="https://cdn.example.com/chart.js"></script>',
      '<a href="https://[2001:db8::1]:8443/x">run</a>',
      '<a href="https://[2001:db8::2]/x">other</a>',
    ].join('');
    const given = 'CDN.example.com., 2001:db8::1';
    expect(parseVariables({ L1_REPORT_ALLOWED_HOSTS: given }, {}).problems).toEqual([]);
    // As scripts/report.ts splits it.
    const allowedHosts = given.split(',').map((h) => h.trim().toLowerCase());
    expect(findExternalUrls(page, { allowedHosts }).map((u) => u.url)).toEqual(['https://[2001:db8::2]/x']);
    // A run on an IPv6 host: runHosts writes it without brackets, and its own links are allowed.
    expect(
      findExternalUrls(page, { allowedHosts: runHosts(['https://[2001:db8::2]/r?x=1']) }).map((u) => u.url),
    ).toEqual(['https://cdn.example.com/chart.js', 'https://[2001:db8::1]:8443/x']);
  });

  test('a path variable beginning with ~ or naming $HOME, which no shell expanded (.env, a workflow env:), is refused at start, not made a folder ~ in the project root', () => {
    const why =
      "which nothing expands here (.env and a CI workflow's env: are no shell): write the absolute path";
    expect(refusal(() => readSettings(sources({ env: { L1_STATE_DIR: '~/l1-state' } })))).toBe(
      `settings: L1_STATE_DIR "~/l1-state": begins with ~, ${why}`,
    );
    expect(refusal(() => readSettings(sources({ dotenv: { L1_VERDICTS_DIR: '${HOME}/verdicts' } })))).toBe(
      `settings: L1_VERDICTS_DIR "\${HOME}/verdicts" (in .env): names \${HOME}, ${why}`,
    );
    expect(
      refusal(() => readSettings(sources({ env: { L1_REDACTION_EXTRA_PATHS: 'logs:$HOME/x' } }))),
    ).toContain('names $HOME');
    expect(refusal(() => readSettings(sources({ env: { L1_STATE_DIR: 'out/$DATE/state' } })))).toContain(
      'names $DATE',
    );
    // Review of 1165113: a `${NAME}` inside a folder's name, and a `$NAME` after a dash, are variables
    // nothing expanded still, never a folder named by chance.
    expect(
      refusal(() => readSettings(sources({ env: { L1_STATE_DIR: 'out/run${RUN_ID}/state' } }))),
    ).toContain('names ${RUN_ID}');
    expect(
      refusal(() => readSettings(sources({ env: { L1_VERDICTS_DIR: 'out/l1-$GITHUB_RUN_ID' } }))),
    ).toContain('names $GITHUB_RUN_ID');
    // Near miss: a ~ inside a path, a $ before no name or inside a part's name (`reports$v2`: review
    // of 2026-11-28, refused as a variable), and a runs file's calDataJson placeholder
    // are paths as written; the registry's text put in L1_CREDENTIALS_FILE, a $ in its password,
    // is not quoted here (it is said without its value, lib/run/credentials.ts).
    const s = readSettings(
      sources({
        env: {
          L1_STATE_DIR: '/tmp/~old',
          L1_VERDICTS_DIR: 'out/$1',
          L1_CAL_DATA_JSON: 'cal/{batchDate}.json',
          L1_ALLURE_REPORT_DIR: '/srv/reports$v2',
        },
      }),
    );
    expect([s.paths.state, s.paths.verdicts]).toEqual(['/tmp/~old', '/out/$1']);
    expect(s.paths.allureReport).toBe('/srv/reports$v2');
    const registryText = JSON.stringify({ companies: { '7': { phone: '1', password: 'pa$HOME' } } });
    expect(parseVariables({ L1_CREDENTIALS_FILE: registryText }, {}).problems).toEqual([]);
  });

  test('a path variable naming %USERPROFILE% or $env:USERPROFILE, as a .env written on Windows does, is refused as $HOME is, not made a folder %USERPROFILE% in the project root', () => {
    expect(
      refusal(() => readSettings(sources({ dotenv: { L1_STATE_DIR: '%USERPROFILE%\\l1-state' } }))),
    ).toContain('names %USERPROFILE%, which nothing expands here');
    expect(
      refusal(() =>
        readSettings(sources({ env: { L1_CHROMIUM_PATH: '$env:LOCALAPPDATA\\chromium\\chrome.exe' } })),
      ),
    ).toContain('names $env');
    // Near miss: a % that encloses no name is part of the path.
    const s = readSettings(
      sources({ env: { L1_STATE_DIR: '/tmp/100%/state', L1_VERDICTS_DIR: '/tmp/v/%7BbatchDate%7D' } }),
    );
    expect([s.paths.state, s.paths.verdicts]).toEqual(['/tmp/100%/state', '/tmp/v/%7BbatchDate%7D']);
  });

  test('docs/contract.md §3: a malformed L1_LOGIN_ORIGINS is refused without quoting a userinfo', () => {
    const pw = ['hun', 'ter2'].join('');
    for (const value of [`https://user:${pw}@other.test, ftp://x`, `admin:${pw}@other.test`]) {
      const { problems } = parseVariables({ L1_LOGIN_ORIGINS: value }, {});
      expect(problems).toHaveLength(1);
      expect(problems[0]).toContain('L1_LOGIN_ORIGINS');
      expect(problems[0]).toContain('***@other.test');
      expect(problems[0]).not.toContain(pw);
    }
  });
});

test.describe('origins and company ids are what they say, never widened or rounded', () => {
  test('docs/contract.md §3 "an origin listed in L1_LOGIN_ORIGINS": a path, a query, a fragment, userinfo or a wildcard is refused, naming the variable; an origin (a trailing slash too) is taken', () => {
    for (const name of ['L1_LOGIN_ORIGINS', 'L1_PAGE_ORIGINS']) {
      for (const [value, what] of [
        ['https://storage.example.com/our-bucket', 'a path'],
        ['https://h.example.com/?x=1', 'a query or fragment'],
        ['https://h.example.com#y', 'a query or fragment'],
        ['https://*.example.com', 'a wildcard'],
        [`https://u:${['p', 'w'].join('')}@h.example.com`, 'userinfo'],
      ]) {
        const { problems } = parseVariables({ [name]: value }, {});
        expect(problems, `${name}=${value}`).toEqual([expect.stringContaining(`it has ${what}`)]);
        expect(problems[0]).toContain(name);
      }
      const { problems } = parseVariables({ [name]: 'https://cdn.example.com/, http://127.0.0.1:4600' }, {});
      expect(problems, name).toEqual([]);
    }
  });

  test('docs/contract.md §1.1 companyId is an integer: one past 2^53 is refused, never read as its neighbour', () => {
    expect(
      refusal(() => readSettings(sources({ env: { L1_PROFILE_B_COMPANY_ID: '9007199254740993' } }))),
    ).toContain('expected an integer below 2^53');
    // In a runs file, as a JSON number (already rounded by JSON.parse) or in the URL.
    const big = withRunsFile(
      '[{"htmlUrl": "https://r.test/reports/101/monitor/2026-11-20?companyId=1&topic=T", "platformUrl": "https://r.test/platform/overview?projectId=101", "companyId": 9007199254740993}]',
    );
    expect(big.runs[0]!.inputError).toContain('companyId');
  });
});

test.describe('Profile B settings travel with the runs (docs/contract.md §2)', () => {
  const file = (profileB: unknown) => ({ profileB, runs: [entry('310101')] });

  test('a runs file may carry profileB; each L1_PROFILE_B_* variable overrides its field', () => {
    const s = withRunsFile(
      file({ host: 'portal.test', groupName: '星河集团', companyId: '3100', brandCode: 'XH' }),
      {
        L1_PROFILE_B_BRAND_CODE: 'YY',
      },
    );
    expect(s.profileB).toEqual({
      host: 'portal.test',
      groupName: '星河集团',
      companyId: 3100,
      brandCode: 'YY',
    });
    expect(s.profileBFrom).toBe(
      'host from the runs file, groupName from the runs file, companyId from the runs file, brandCode from L1_PROFILE_B_BRAND_CODE (environment)',
    );
    // The fixtures' platform is http://h.test: the plain-http warning (its own test below) aside, none.
    expect(s.warnings.filter((w) => !w.startsWith(PLAIN_HTTP))).toEqual([]);
  });

  test('a misspelt key or a bad value in profileB stops the invocation at start', () => {
    // Named with the key it is near, as a run's misspelt key is.
    expect(refusal(() => withRunsFile(file({ brandcode: 'XH' })))).toContain(
      'profileB: unknown key "brandcode" (did you mean "brandCode"?)',
    );
    expect(refusal(() => withRunsFile(file({ companyId: 'x' })))).toContain('profileB.companyId');
    // Past 2^53 as text too, as L1_PROFILE_B_COMPANY_ID: never rounded to a neighbour's id.
    expect(refusal(() => withRunsFile(file({ companyId: '9007199254740993' })))).toContain(
      'profileB.companyId: expected an integer below 2^53 (9007199254740992)',
    );
    expect(withRunsFile(file({ companyId: ' 9007199254740991 ' })).profileB.companyId).toBe(9007199254740991);
    expect(refusal(() => withRunsFile({ runs: [entry('1')], extra: 1 }))).toContain('unknown key "extra"');
  });

  test('a Profile B host written as a URL stops the invocation naming the setting and the host to write', () => {
    expect(
      refusal(() => readSettings(sources({ env: { L1_PROFILE_B_HOST: 'https://portal.example.com/' } }))),
    ).toBe(
      'settings: L1_PROFILE_B_HOST "https://portal.example.com/": expected a host[:port], not a URL: write portal.example.com',
    );
    expect(
      refusal(() =>
        withRunsFile({ profileB: { host: 'http://portal.example.com:8080/x' }, runs: [entry('1')] }),
      ),
    ).toContain('profileB.host: expected a host[:port], not a URL: write portal.example.com:8080');
    expect(withRunsFile([entry('1')], { L1_PROFILE_B_HOST: 'Portal.Example.com:8443' }).profileB).toEqual({
      host: 'Portal.Example.com:8443',
    });
  });

  test('no Profile B setting at all is said once: every run is checked with Profile A rules', () => {
    const s = withRunsFile([entry('1')]);
    expect(s.profileBFrom).toBe('not configured');
    expect(s.warnings.filter((w) => !w.startsWith(PLAIN_HTTP))).toEqual([
      expect.stringContaining('Profile B is not configured'),
    ]);
  });
});

test.describe('docs/contract.md §3: "the invocation warns once, naming the origin" when credentials go over plain http://', () => {
  test('once for every origin credentials may go to over http:// that is not loopback: base URLs, the portal, L1_LOGIN_ORIGINS', () => {
    const s = withRunsFile(
      [
        entry('1'),
        entry('2'),
        entry('3', { baseUrl: 'http://api.example.com:8080/base' }),
        { ...entry('4'), htmlUrl: 'http://portal.example.com/reports/4/monitor/2025-11-17?companyId=1001' },
      ],
      {
        L1_PROFILE_B_HOST: 'portal.example.com',
        L1_LOGIN_ORIGINS: 'http://login.example.com,https://sso.example.com',
      },
    );
    expect(s.warnings.filter((w) => w.startsWith(PLAIN_HTTP))).toEqual([
      `${PLAIN_HTTP} to http://api.example.com:8080, http://h.test, http://login.example.com, http://portal.example.com (not loopback): use https (docs/contract.md §3)`,
    ]);
  });

  test('near miss: https and loopback origins are no warning', () => {
    const local = (project: string) => ({
      htmlUrl: `http://127.0.0.1:4173/reports/${project}/monitor/2025-11-17?companyId=1001`,
      platformUrl: `https://h.test/platform/projects/${project}/overview`,
    });
    const s = withRunsFile([local('1'), { ...local('2'), baseUrl: 'http://localhost:4173' }]);
    expect(s.warnings.filter((w) => w.startsWith(PLAIN_HTTP))).toEqual([]);
  });
});

test.describe("tonight's reports: {batchDate} and L1_BATCH_DATE (README.md § Run it nightly in CI)", () => {
  const templated = entry('101101', {
    htmlUrl: 'http://h.test/reports/101101/monitor/{batchDate}?companyId=1001',
  });

  test('dateIn: the calendar date in each time zone, one after another (its formats are kept by zone)', () => {
    const evening = new Date('2026-11-26T20:00:00Z');
    // Asked in turn, so that a format kept for one zone and used for another would show.
    expect(
      ['Asia/Shanghai', 'UTC', 'America/Los_Angeles', 'Asia/Shanghai', 'UTC'].map((z) => dateIn(z, evening)),
    ).toEqual(['2026-11-27', '2026-11-26', '2026-11-26', '2026-11-27', '2026-11-26']);
    expect(dateIn('Pacific/Kiritimati', new Date('2026-12-31T10:30:00Z'))).toBe('2027-01-01');
  });

  test('a templated run takes yesterday in Asia/Shanghai by default, said with the runs', () => {
    const s = withRunsFile([templated]);
    expect(s.night).toEqual({
      batchDate: '2026-11-23',
      given: 'yesterday',
      timeZone: 'Asia/Shanghai',
      describe: '2026-11-23 (yesterday in Asia/Shanghai)',
    });
    expect(s.runs[0]!.input.htmlUrl).toBe('http://h.test/reports/101101/monitor/2026-11-23?companyId=1001');
    expect(s.runs[0]!.templated).toBe(true);
    expect(s.runsFrom).toBe(
      '1 from runs.json (L1_RUNS in environment), batch date 2026-11-23 (yesterday in Asia/Shanghai)',
    );
  });

  test('today, -N, a date and another time zone; {batchDateCompact} in any field', () => {
    const compact = entry('101101', {
      htmlUrl: 'http://h.test/r/101101/monitor/{batchDateCompact}?companyId=1001',
      batchId: 'B-{batchDateCompact}',
      label: 'night-{batchDate}',
    });
    expect(withRunsFile([compact], { L1_BATCH_DATE: 'today' }).runs[0]!.input).toMatchObject({
      htmlUrl: 'http://h.test/r/101101/monitor/20261124?companyId=1001',
      batchId: 'B-20261124',
      label: 'night-2026-11-24',
    });
    expect(withRunsFile([compact], { L1_BATCH_DATE: '-3' }).night!.describe).toBe(
      '2026-11-21 (3 days back in Asia/Shanghai)',
    );
    expect(withRunsFile([compact], { L1_BATCH_DATE: 'today', L1_TIME_ZONE: 'UTC' }).night!.batchDate).toBe(
      '2026-11-23',
    );
    expect(withRunsFile([compact], { L1_BATCH_DATE: '2025-02-28' }).night!.describe).toBe(
      '2025-02-28 (L1_BATCH_DATE=2025-02-28)',
    );
  });

  test('a bad date or time zone stops the invocation naming the variable', () => {
    for (const bad of ['tomorrow', '3', '2025-2-3', '20251317'])
      expect(refusal(() => withRunsFile([templated], { L1_BATCH_DATE: bad }))).toContain(
        `L1_BATCH_DATE="${bad}": expected YYYY-MM-DD, today, yesterday or -N`,
      );
    expect(refusal(() => withRunsFile([templated], { L1_TIME_ZONE: 'Mars/Base' }))).toContain(
      'L1_TIME_ZONE="Mars/Base" is not an IANA time zone name',
    );
  });

  test("L1_TIME_ZONE is the settings' timeZone, which a batch list instant is read in (docs/contract.md §4.1): checked without a night too, since a run that names no {batchDate} still reads the batch list (foolproof audit of 2026-11-28)", () => {
    const fixed = entry('101101');
    expect(withRunsFile([fixed]).timeZone).toBe('Asia/Shanghai');
    expect(withRunsFile([fixed], { L1_TIME_ZONE: 'UTC' }).timeZone).toBe('UTC');
    expect(withRunsFile([fixed]).night).toBeUndefined();
    expect(refusal(() => withRunsFile([fixed], { L1_TIME_ZONE: 'Mars/Base' }))).toContain(
      'L1_TIME_ZONE="Mars/Base" is not an IANA time zone name',
    );
  });

  test('a date of the right form that is no day of the calendar (2026-02-29) is said to be that, and a compact date is shown as it must be written, not as a bad format', () => {
    for (const [bad, why] of [
      ['2026-02-29', 'no such day in the calendar'],
      ['2025-02-30', 'no such day in the calendar'],
      ['2026-13-01', 'no such day in the calendar'],
      ['20251117', 'write it 2025-11-17'],
    ])
      expect(refusal(() => withRunsFile([templated], { L1_BATCH_DATE: bad }))).toBe(
        `L1_BATCH_DATE="${bad}": ${why}; expected YYYY-MM-DD, today, yesterday or -N (N days back, in L1_TIME_ZONE)`,
      );
    // Near miss: the last day of February of a leap year, and across a year's end, are dates.
    expect(
      ['2028-02-29', '2026-12-31', '2027-01-01'].map(
        (d) => withRunsFile([templated], { L1_BATCH_DATE: d }).runs[0]!.input.htmlUrl,
      ),
    ).toEqual([
      'http://h.test/reports/101101/monitor/2028-02-29?companyId=1001',
      'http://h.test/reports/101101/monitor/2026-12-31?companyId=1001',
      'http://h.test/reports/101101/monitor/2027-01-01?companyId=1001',
    ]);
  });

  test('an abbreviation ICU reads as another zone (CST is America/Chicago, not China) is refused naming the zone it would be; IANA names stay, and a bad zone stops the invocation without a templated run too', () => {
    // At 2026-11-23 17:30 UTC yesterday is 2026-11-23 in Beijing, 2026-11-22 in Chicago (11:30).
    expect(refusal(() => withRunsFile([templated], { L1_TIME_ZONE: 'CST' }))).toBe(
      'L1_TIME_ZONE="CST" is not an IANA time zone name: it would be read as America/Chicago, which the abbreviation does not mean everywhere (China Standard Time is Asia/Shanghai); write the IANA name, for example Asia/Shanghai or America/Chicago',
    );
    for (const abbreviation of ['cst', 'IST', 'BST', 'PST', 'CTT', 'SystemV/CST6'])
      expect(refusal(() => withRunsFile([templated], { L1_TIME_ZONE: abbreviation }))).toContain(
        `L1_TIME_ZONE="${abbreviation}" is not an IANA time zone name: it would be read as `,
      );
    expect(refusal(() => withRunsFile([entry('1')], { L1_TIME_ZONE: 'CST' }))).toContain(
      'L1_TIME_ZONE="CST" is not an IANA time zone name',
    );
    expect(refusal(() => withRunsFile([entry('1')], { L1_TIME_ZONE: 'Beijing' }))).toBe(
      'L1_TIME_ZONE="Beijing" is not an IANA time zone name (for example Asia/Shanghai or UTC)',
    );
    // Near miss: IANA names, links and fixed zones of three letters are taken, in any case.
    const zones = ['PRC', 'EST', 'UTC', 'GMT', 'CET', 'ROK', 'asia/shanghai', 'Etc/GMT-8'];
    expect(zones.map((z) => withRunsFile([templated], { L1_TIME_ZONE: z }).night!.batchDate)).toEqual([
      '2026-11-23',
      '2026-11-22',
      '2026-11-22',
      '2026-11-22',
      '2026-11-22',
      '2026-11-23',
      '2026-11-23',
      '2026-11-23',
    ]);
  });

  test('a placeholder percent-encoded as an address bar writes it (%7BbatchDate%7D) is filled as the written one; near miss: other encoded braces of a URL stay', () => {
    const copied = entry('101101', {
      htmlUrl: 'http://h.test/reports/101101/monitor/%7BbatchDate%7D?companyId=1001&filter=%7Bstatus%7D',
      batchId: 'B-%7bbatchDateCompact%7d',
    });
    const s = withRunsFile([copied]);
    expect(s.runs[0]!.templated).toBe(true);
    expect(s.runs[0]!.inputError).toBeUndefined();
    expect(s.runs[0]!.input).toMatchObject({
      htmlUrl: 'http://h.test/reports/101101/monitor/2026-11-23?companyId=1001&filter=%7Bstatus%7D',
      batchId: 'B-20261123',
    });
    // Another name encoded is no placeholder: the URL is left as it is, no error of the run.
    const other = withRunsFile([entry('101101', { label: 'x-%7BbatchDATE%7D' })]);
    expect([other.runs[0]!.templated, other.runs[0]!.label]).toEqual([undefined, 'x-%7BbatchDATE%7D']);
  });

  test("an unknown placeholder is that run's error, naming the field; the other runs go on", () => {
    const typo = entry('101102', {
      htmlUrl: 'http://h.test/reports/101102/monitor/{batchdate}?companyId=1001',
    });
    const s = withRunsFile([templated, typo]);
    expect(s.runs[0]!.inputError).toBeUndefined();
    expect(s.runs[1]!.inputError).toContain('htmlUrl: unknown placeholder {batchdate}');
  });

  test('a runner-fixed night wins over the clock (workers after midnight fill the same date)', () => {
    const root = tempDir('settings');
    fs.writeFileSync(path.join(root, 'runs.json'), JSON.stringify([templated]));
    const fixed = { batchDate: '2026-11-22', given: 'yesterday', timeZone: 'Asia/Shanghai', describe: 'x' };
    const s = readSettings(
      sources({ root, env: { L1_RUNS: 'runs.json' }, now: new Date('2030-01-01'), night: fixed }),
    );
    expect(s.runs[0]!.input.htmlUrl).toContain('/2026-11-22?');
  });

  test('--nights N: the N nights ending with L1_BATCH_DATE, fixed with the job clock, so a job that crosses midnight in L1_TIME_ZONE checks each night once (time audit of 2026-11-28)', () => {
    // One second before midnight in Shanghai: the nights after it are still the ones of this clock
    // (given as -3, -2, -1 and resolved as each night began, the last two were both 11-26).
    const beforeMidnight = new Date('2026-11-27T15:59:59Z');
    const job = nightsOfJob('yesterday', 3, 'Asia/Shanghai', beforeMidnight);
    expect(job.dates).toEqual(['2026-11-24', '2026-11-25', '2026-11-26']);
    expect(job.last.describe).toBe('2026-11-26 (yesterday in Asia/Shanghai)');
    // A date given to the job ends its nights (it was replaced by -N … -1): 29 February, a year end.
    expect(nightsOfJob('2028-03-01', 3, 'UTC', beforeMidnight).dates).toEqual([
      '2028-02-28',
      '2028-02-29',
      '2028-03-01',
    ]);
    expect(nightsOfJob('2027-01-01', 2, 'UTC', beforeMidnight).dates).toEqual(['2026-12-31', '2027-01-01']);
    expect(() => nightsOfJob('20270101', 2, 'UTC', beforeMidnight)).toThrow('write it 2027-01-01');
  });

  test('a batch date after today in L1_TIME_ZONE (a mistyped year) is said at start; today is not (time audit of 2026-11-28)', () => {
    const future = withRunsFile([templated], { L1_BATCH_DATE: '2027-11-23' });
    expect(future.warnings).toContain(
      'the batch date 2027-11-23 (L1_BATCH_DATE=2027-11-23) is after today (2026-11-24 in Asia/Shanghai): no report or batch can exist for it yet',
    );
    for (const given of ['today', '2026-11-24', '-400'])
      expect(withRunsFile([templated], { L1_BATCH_DATE: given }).warnings.join('\n')).not.toContain(
        'is after today',
      );
  });

  test('an Etc/GMT zone is said with the offset it is, its sign reversed from what it reads as, and EST or MST as a fixed offset (time audit of 2026-11-28)', () => {
    const west = withRunsFile([templated], { L1_TIME_ZONE: 'Etc/GMT+8' });
    expect(west.warnings).toContain(
      'L1_TIME_ZONE=Etc/GMT+8 is UTC−08:00: in Etc/GMT names the sign is reversed (POSIX); for UTC+08:00 write Etc/GMT-8, or the zone of a city there (Asia/Shanghai for Beijing time)',
    );
    // Yesterday at 2026-11-23T17:30Z as that zone reads it: 11-22, where Beijing's is 11-23.
    expect(west.night!.batchDate).toBe('2026-11-22');
    expect(withRunsFile([templated], { L1_TIME_ZONE: 'Etc/GMT-5' }).warnings).toContain(
      'L1_TIME_ZONE=Etc/GMT-5 is UTC+05:00: in Etc/GMT names the sign is reversed (POSIX); for UTC−05:00 write Etc/GMT+5, or the zone of a city there',
    );
    // EST and MST are UTC−5 and UTC−7 all year: New York and Denver are not, in summer.
    expect(withRunsFile([templated], { L1_TIME_ZONE: 'EST' }).warnings).toContain(
      'L1_TIME_ZONE=EST is a fixed offset all year, with no daylight saving: for the time of a region that changes in summer write its zone, for example America/New_York',
    );
    for (const zone of ['Etc/GMT', 'Etc/GMT+0', 'UTC', 'Asia/Shanghai', 'HST', 'America/New_York'])
      expect(withRunsFile([templated], { L1_TIME_ZONE: zone }).warnings.join('\n')).not.toMatch(
        /sign is reversed|no daylight saving/,
      );
  });

  test('L1_BATCH_DATE without a templated run is said, not silently ignored', () => {
    const s = withRunsFile([entry('1')], { L1_BATCH_DATE: 'today' });
    expect(s.warnings).toContain(
      "L1_BATCH_DATE is set but no run names {batchDate} or {batchDateCompact}: the runs' own dates are used",
    );
  });
});

test.describe('the runs file', () => {
  test('a malformed entry keeps its error and its label; the other runs are unaffected', () => {
    const s = withRunsFile([
      entry('101101'),
      { htmlUrl: 5, label: 'broken' },
      { ...entry('102201'), level: 'x' },
    ]);
    expect(s.runs.map((r) => r.label)).toEqual(['1001-101101-monitor', 'broken', '1001-102201-monitor']);
    expect(s.runs[0]!.inputError).toBeUndefined();
    expect(s.runs[1]!.inputError).toMatch(/^L1_RUNS .*runs\.json run #2: \[1\]\.htmlUrl/);
    expect(s.runs[1]!.inputError).toContain('[1].platformUrl');
    expect(s.runs[2]!.inputError).toContain('run #3: [2].level');
  });

  test("a run's text is read as the L1_ variables are: trimmed (a batch id is sent as given, without the space pasted after it), an empty optional value is said to be empty, and an empty label is no label", () => {
    const s = withRunsFile([
      { ...entry('101101'), batchId: ' b1 ', companyId: ' 1001 ', calDataJson: ' cal.json ', label: '' },
      { ...entry('101102'), baseUrl: '', batchId: ' ' },
      { ...entry('101103'), htmlUrl: ' ' },
    ]);
    expect(s.runs[0]!.input).toMatchObject({ batchId: 'b1', companyId: '1001' });
    expect(path.basename(s.runs[0]!.input.calDataJson!)).toBe('cal.json');
    expect(s.runs.map((r) => [r.label, r.inputError?.replace(/^L1_RUNS \S+ /, '')])).toEqual([
      ['1001-101101-monitor', undefined],
      [
        '1001-101102-monitor',
        'run #2: [1].baseUrl: empty: give a value, or leave the key out; [1].batchId: empty: give a value, or leave the key out',
      ],
      ['run-3', 'run #3: [2].htmlUrl: empty'],
    ]);
    // Near miss: the same run as L1_ variables, blank ones unset, is the same run.
    const single = readSettings(
      sources({
        env: {
          L1_HTML_URL: html('101101'),
          L1_PLATFORM_URL: platform('101101'),
          L1_BATCH_ID: ' b1 ',
          L1_LABEL: ' ',
        },
      }),
    );
    expect([single.runs[0]!.label, single.runs[0]!.input.batchId]).toEqual(['1001-101101-monitor', 'b1']);
  });

  test('docs/contract.md §1: an unknown key in a run is its error, naming the file, the run, the key and the one it is near', () => {
    const s = withRunsFile([
      entry('101101', { label: 'ok' }),
      { ...entry('101102', { label: 'typos' }), batchID: 'b1', Level: 'product', base_url: 'https://x.test' },
      { ...entry('101103'), colour: 'blue', level: 'x' },
    ]);
    expect(s.runs.map((r) => r.label)).toEqual(['ok', 'typos', '1001-101103-monitor']);
    expect(s.runs[0]!.inputError).toBeUndefined();
    expect(s.runs[1]!.input).toEqual(entry('101102', { label: 'typos' }));
    expect(s.runs[1]!.inputError).toMatch(
      /^L1_RUNS .*runs\.json run #2: unknown key "batchID" \(did you mean "batchId"\?\); unknown key "Level" \(did you mean "level"\?\); unknown key "base_url" \(did you mean "baseUrl"\?\)$/,
    );
    expect(s.runs[2]!.inputError).toContain(
      'run #3: unknown key "colour" (a run\'s keys: htmlUrl, platformUrl,',
    );
    expect(s.runs[2]!.inputError).toContain('[2].level');
  });

  test('docs/contract.md §1: keys starting with _ or $ (comments, $schema) are ignored, in a run and at the top', () => {
    const s = withRunsFile({
      $schema: './runs.schema.json',
      _comment: 'nightly',
      runs: [{ ...entry('101101'), _note: 'the purifier', $id: 'x' }],
    });
    expect(s.runs).toEqual([
      { label: '1001-101101-monitor', slug: '1001-101101-monitor', input: entry('101101') },
    ]);
    expect(refusal(() => withRunsFile({ runs: [entry('1')], Runs: [] }))).toContain('unknown key "Runs"');
    // In profileB too: a comment there stopped the invocation ('profileB: Unrecognized key: "_note"'),
    // where the same comment in a run or at the top is ignored.
    const b = withRunsFile({
      profileB: { _note: 'the group portal', $id: 'b', host: 'portal.test' },
      runs: [entry('101101')],
    });
    expect(b.profileB).toEqual({ host: 'portal.test' });
  });

  test("a relative calDataJson is the runs file's neighbour, not the checkout's; an absolute one stays; {batchDate} is kept", () => {
    const root = tempDir('settings');
    fs.mkdirSync(path.join(root, 'ci'));
    fs.writeFileSync(
      path.join(root, 'ci', 'runs.json'),
      JSON.stringify([
        entry('101101', { calDataJson: 'cal/{batchDate}.json' }),
        entry('102201', { calDataJson: '/data/cal.json' }),
      ]),
    );
    const s = readSettings(sources({ root, env: { L1_RUNS: 'ci/runs.json', L1_BATCH_DATE: '2026-11-23' } }));
    expect(s.runs.map((r) => r.input.calDataJson)).toEqual([
      path.join(root, 'ci', 'cal', '2026-11-23.json'),
      '/data/cal.json',
    ]);
  });

  test('a runs file written with a byte order mark (PowerShell 5, old Notepad) is read', () => {
    const s = withRunsFile(`\ufeff${JSON.stringify([entry('101101')])}`);
    expect(s.runs.map((r) => r.label)).toEqual(['1001-101101-monitor']);
  });

  test('a runs file in UTF-16, as Windows PowerShell 5 writes with `>` (FF FE) or big-endian (FE FF), is read', () => {
    const text = JSON.stringify([entry('101101')]);
    const littleEndian = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    const bigEndian = Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()]);
    for (const bytes of [littleEndian, bigEndian]) {
      const root = tempDir('settings');
      fs.writeFileSync(path.join(root, 'runs.json'), bytes);
      const s = readSettings(sources({ root, env: { L1_RUNS: 'runs.json' } }));
      expect(s.runs.map((r) => r.label)).toEqual(['1001-101101-monitor']);
    }
  });

  test('near miss: UTF-16 without its mark is still not JSON, and the message holds no NUL of the file', () => {
    const root = tempDir('settings');
    fs.writeFileSync(path.join(root, 'runs.json'), Buffer.from(JSON.stringify([entry('101101')]), 'utf16le'));
    const why = refusal(() => readSettings(sources({ root, env: { L1_RUNS: 'runs.json' } })));
    expect(why).toContain('not valid JSON');
    expect(why).not.toContain('\u0000');
  });

  test('a file that cannot be read, is not JSON, not runs or empty stops the invocation naming it', () => {
    const root = tempDir('settings');
    expect(refusal(() => readSettings(sources({ root, env: { L1_RUNS: 'absent.json' } })))).toBe(
      `L1_RUNS file ${path.join(root, 'absent.json')} cannot be read (ENOENT)`,
    );
    expect(refusal(() => withRunsFile('[{'))).toContain('not valid JSON');
    expect(refusal(() => withRunsFile({ runs: 3 }))).toContain('must hold a JSON array of runs');
    expect(refusal(() => withRunsFile({ runs: [] }))).toContain('holds no run');
    expect(refusal(() => withRunsFile([]))).toContain('holds no run');
  });

  test('a relative L1_RUNS missing from the root but present where the command runs (-c from another folder) says so, and how to give it', () => {
    const root = tempDir('settings');
    const here = tempDir('settings');
    fs.writeFileSync(path.join(here, 'runs.json'), JSON.stringify([entry('101101')]));
    expect(refusal(() => readSettings(sources({ root, cwd: here, env: { L1_RUNS: 'runs.json' } })))).toBe(
      `L1_RUNS file ${path.join(root, 'runs.json')} cannot be read (ENOENT): a relative L1_RUNS is taken from the project root, not from the folder the command runs in, where ${path.join(here, 'runs.json')} is; give its absolute path`,
    );
    // Near miss: the absolute path is read; a file in neither folder is said as before.
    const s = readSettings(sources({ root, cwd: here, env: { L1_RUNS: path.join(here, 'runs.json') } }));
    expect(s.runs.map((r) => r.label)).toEqual(['1001-101101-monitor']);
    expect(refusal(() => readSettings(sources({ root, cwd: here, env: { L1_RUNS: 'other.json' } })))).toBe(
      `L1_RUNS file ${path.join(root, 'other.json')} cannot be read (ENOENT)`,
    );
  });

  test("a runs file that is not JSON is named with the fault's line and column, never with its text: a URL's token or phone number beside the fault stays out of the message", () => {
    const token = ['s3cr3t', 'T0ken'].join('');
    const phone = ['138', '0013', '8000'].join('');
    const url = `https://r.test/r/1/monitor/2026-11-22?companyId=1&token=${token}`;
    // V8 quotes ten characters before an unexpected token: the end of the token, here.
    const trailingComma = `[\n  {"platformUrl": "https://p.test/projects/1", "htmlUrl": "${url}"},\n]`;
    const long = refusal(() => withRunsFile(trailingComma));
    expect(long).toMatch(/runs\.json not valid JSON \(Unexpected token "\]" at line 3, column 1\)$/);
    // A short file V8 quotes whole.
    const short = refusal(() => withRunsFile(`[{"h": "?phone=${phone}"},]`));
    expect(short).toMatch(/not valid JSON \(Unexpected token "\]" at line 1, column 30\)$/);
    for (const message of [long, short])
      for (const secret of [token.slice(-5), phone.slice(-5)]) expect(message).not.toContain(secret);
    // Near miss: a fault V8 places by position is said at its line and column as well; the end
    // of a cut file as V8 says it.
    expect(refusal(() => withRunsFile('[\r\n{"a": 1,}]'))).toMatch(
      /not valid JSON \(Expected double-quoted property name at line 2, column 9\)$/,
    );
    expect(refusal(() => withRunsFile('[{"htmlUrl": '))).toMatch(
      /not valid JSON \(Unexpected end of JSON input\)$/,
    );
  });

  test('a runs file with text after its JSON value (a bracket too many, two lists pasted one after the other) is said at its line and column too, not "a syntax error" alone', () => {
    expect(refusal(() => withRunsFile('[\n  {"htmlUrl": "h", "platformUrl": "p"}\n]]\n'))).toMatch(
      /not valid JSON \(Unexpected non-whitespace character after the JSON value at line 3, column 2\)$/,
    );
    expect(refusal(() => withRunsFile('[]\n[]'))).toMatch(/after the JSON value at line 2, column 1\)$/);
  });
});

test.describe('labels and file names', () => {
  test('the default label has no date, so the next night is the same test; two dates of one report get it', () => {
    expect(withRunsFile([entry('101101')]).runs[0]!.label).toBe('1001-101101-monitor');
    const twoDates = withRunsFile([
      entry('101101'),
      entry('101101', { htmlUrl: html('101101', 1001, '2025-11-18') }),
    ]);
    expect(twoDates.runs.map((r) => r.label)).toEqual([
      '1001-101101-monitor-2025-11-17',
      '1001-101101-monitor-2025-11-18',
    ]);
  });

  test("tonight's templated report beside a reference day of the same report keeps the dateless label, so its history joins nights; the fixed day keeps its date (time audit of 2026-11-28)", () => {
    const tonight = entry('101101', {
      htmlUrl: 'http://h.test/reports/101101/monitor/{batchDate}?companyId=1001',
    });
    const mixed = withRunsFile([entry('101101'), tonight]);
    expect(mixed.runs.map((r) => r.label)).toEqual(['1001-101101-monitor-2025-11-17', '1001-101101-monitor']);
    // Two templated runs of one report (its two levels) are told apart by level, whatever their
    // order, not by tonight's date, which made both new tests every night; alike beyond that, by
    // number (reviews of 2026-11-28).
    const product = { ...tonight, level: 'product' };
    const labels = (entries: unknown[]) => withRunsFile(entries).runs.map((r) => r.label);
    expect(labels([tonight, product, entry('101101')])).toEqual([
      '1001-101101-monitor',
      '1001-101101-monitor-product',
      '1001-101101-monitor-2025-11-17',
    ]);
    expect(labels([product, tonight])).toEqual(['1001-101101-monitor-product', '1001-101101-monitor']);
    expect(labels([tonight, tonight])).toEqual(['1001-101101-monitor', '1001-101101-monitor-2']);
  });

  test('a label given twice stops the invocation naming both runs', () => {
    const message = refusal(() =>
      withRunsFile([entry('1', { label: 'x' }), entry('2', { label: 'y' }), entry('3', { label: ' x ' })]),
    );
    expect(message).toContain('runs #1 and #3 both have the label "x"');
  });

  test('a label quoted in a refusal at start is masked as every output masks it: a mobile number to its first digit, what follows a ? (a token)', () => {
    const phone = ['139', '1234', '5678'].join('');
    const twice = (label: string) =>
      refusal(() => withRunsFile([entry('1', { label }), entry('2', { label: 'y' }), entry('3', { label })]));
    expect(twice(`acme ${phone}`)).toContain('runs #1 and #3 both have the label "acme 1**********"');
    expect(twice('acme?token=s3cr3t')).toContain('runs #1 and #3 both have the label "acme?***"');
    const alike = refusal(() =>
      withRunsFile([
        entry('1', { label: `caf\u00e9 ${phone}` }),
        entry('2', { label: `cafe\u0301 ${phone}` }),
      ]),
    );
    expect(alike).toContain('runs #1 and #2 have labels that read alike, "cafe\u0301 1**********"');
    for (const message of [twice(`acme ${phone}`), twice('acme?token=s3cr3t'), alike]) {
      expect(message).not.toContain(phone.slice(1));
      expect(message).not.toContain('s3cr3t');
    }
    // Near miss: a plain label is quoted as it is.
    expect(twice('nightly acme')).toContain('runs #1 and #3 both have the label "nightly acme"');
  });

  test('labels that are one text in two Unicode forms (café composed, and with a combining accent) read alike everywhere: refused, naming both', () => {
    const composed = 'caf\u00e9';
    const combining = 'cafe\u0301';
    const message = refusal(() =>
      withRunsFile([entry('1', { label: composed }), entry('2', { label: combining })]),
    );
    expect(message).toContain(
      `runs #1 and #2 have labels that read alike, ${JSON.stringify(combining)}: the same text in two Unicode forms`,
    );
    // Near miss: two labels that look alike but are different text (Latin a, Cyrillic а) are two runs.
    expect(
      withRunsFile([entry('1', { label: 'a-run' }), entry('2', { label: '\u0430-run' })]).runs,
    ).toHaveLength(2);
  });

  test('labels that differ only in case would share a file: refused, naming both', () => {
    const message = refusal(() => withRunsFile([entry('1', { label: 'Run' }), entry('2', { label: 'run' })]));
    expect(message).toContain('runs #1 ("Run") and #2 ("run") would share the file name run');
  });

  test('labels that differ get distinct file keys', () => {
    const labels = ['A monitor', 'A-monitor', 'a/b', 'ａ/ｂ', '报告 一', '报告-一', 'x.json'];
    const s = withRunsFile(labels.map((label, i) => entry(String(i + 1), { label })));
    const slugs = s.runs.map((r) => r.slug);
    expect(new Set(slugs.map((k) => k.toLowerCase())).size).toBe(labels.length);
    expect(slugs[1]).toBe('A-monitor');
    for (const slug of slugs) expect(slug).toMatch(/^[\p{L}\p{N}._-]+$/u);
  });

  test('a label that would name a file of the verdict folder (index.json, summary.md, junit.xml) gets a file key of its own, in any case', () => {
    for (const label of ['index', 'Index', 'INDEX', 'summary.md', 'JUNIT.XML', 'index.JSON']) {
      const key = fileKeyOf(label);
      expect(key, label).toMatch(/-[0-9a-f]{8}$/);
      expect(['index.json', 'summary.md', 'junit.xml']).not.toContain(`${key}.json`.toLowerCase());
      expect(['index.json', 'summary.md', 'junit.xml']).not.toContain(key.toLowerCase());
    }
    expect(fileKeyOf('index')).not.toBe(fileKeyOf('Index'));
    // Names that share only a stem stay as they are.
    expect(fileKeyOf('summary')).toBe('summary');
    expect(fileKeyOf('indexes')).toBe('indexes');
    expect(withRunsFile([entry('1', { label: 'index' })]).runs[0]!.slug).toBe(fileKeyOf('index'));
  });

  test('a label holding a mobile number gets a file name without it: the digits after the first as x, and the hash of the whole label (reader audit: the guard found it in the verdict file name)', () => {
    const a = fileKeyOf('acme-13812345678-monitor');
    const b = fileKeyOf('acme-13987654321-monitor');
    expect(a).toMatch(/^acme-1x{10}-monitor-[0-9a-f]{8}$/);
    expect(b).not.toBe(a);
    expect(fileKeyOf('报告13812345678')).toMatch(/^报告1x{10}-[0-9a-f]{8}$/);
    // Other numbers stay: a date, a project id, twelve digits.
    expect(fileKeyOf('A-monitor-20251117')).toBe('A-monitor-20251117');
    expect(fileKeyOf('p-101101')).toBe('p-101101');
    expect(fileKeyOf('n-138123456789')).toBe('n-138123456789');
  });

  test('a long label gets a short file name, unique by a hash of the whole label', () => {
    const long = `${'季度监测报告'.repeat(40)}`;
    const a = fileKeyOf(`${long}-A`);
    const b = fileKeyOf(`${long}-B`);
    expect(a).not.toBe(b);
    expect([...a].length).toBeLessThanOrEqual(69);
    expect(Buffer.byteLength(a)).toBeLessThan(255);
  });

  test('a long label of four-byte letters (CJK Extension B) gets a file name its verdict can be written under, temporary file included (file-system audit: ENAMETOOLONG, no verdict)', () => {
    const label = '\u{20000}'.repeat(70);
    const key = fileKeyOf(label);
    expect(key).toMatch(/^\u{20000}+-[0-9a-f]{8}$/u);
    expect(Buffer.byteLength(key)).toBeLessThanOrEqual(189);
    // Three-byte letters keep their sixty characters, as before.
    expect([...fileKeyOf('季'.repeat(70))]).toHaveLength(69);
    // Written as the run's verdict is: through the atomic writer's longer temporary name.
    const dir = tempDir('long-key');
    const file = path.join(dir, `${key}.json`);
    writeAtomic(file, '{}');
    expect(fs.readFileSync(file, 'utf8')).toBe('{}');
  });

  test('derived labels that still collide get -2, -3; an explicit label keeps its name', () => {
    const s = withRunsFile([
      entry('101101'),
      entry('101101'),
      entry('101101', { label: '1001-101101-monitor-2025-11-17-2' }),
    ]);
    expect(s.runs.map((r) => r.label)).toEqual([
      '1001-101101-monitor-2025-11-17',
      '1001-101101-monitor-2025-11-17-3',
      '1001-101101-monitor-2025-11-17-2',
    ]);
  });
});

test("settings() read with other options is read again, never the first call's answer", () => {
  // Fresh module state in a process of its own, without this shell's L1_* variables and with the
  // checkout's .env read as empty (dotenv.parse answers {}): one that names runs would make both
  // reads alike.
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('L1_')));
  const code = [
    "require('dotenv').parse = () => ({});",
    `const { settings } = require(${JSON.stringify(path.join(ROOT, 'lib', 'run', 'settings.ts'))});`,
    'const optional = settings({ runsOptional: true }).mode;',
    'let full;',
    'try { full = settings().mode; } catch (e) { full = e.message.slice(0, 40); }',
    'process.stdout.write(JSON.stringify({ optional, full, again: settings({ runsOptional: true }).mode }));',
  ].join('\n');
  const r = spawnSync(...tsEval(code), { cwd: ROOT, env, encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  // The report and the merge read without runs; the checks must still be refused with none.
  expect(JSON.parse(r.stdout)).toEqual({
    optional: 'none',
    full: 'no runs configured: set L1_RUNS, or L1_H',
    again: 'none',
  });
});

/**
 * Where a file outside the settings module reads a setting's variable from `process.env` itself
 * (`process.env.L1_DEMO_PORT`): it misses `.env` and the setting's schema. allurerc.mjs reads
 * L1_ALLURE_HISTORY_PATH as scripts/report.ts hands it over (the settings' resolved path, set for
 * Allure's process), not as the user set it.
 */
function processEnvSettingReads(root: string): string[] {
  const handedOver = new Map([['allurerc.mjs', 'L1_ALLURE_HISTORY_PATH']]);
  const files = ['lib', 'fixtures', 'scripts', 'demo', 'pages', path.join('tests', 'setup')].flatMap((dir) =>
    fs
      .readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' })
      .filter((f) => /\.(ts|mjs|js)$/.test(f))
      .map((f) => path.join(dir, f)),
  );
  const top = fs.readdirSync(root).filter((f) => /\.(ts|mjs)$/.test(f));
  const found: string[] = [];
  for (const file of [...files, ...top]) {
    if (file === path.join('lib', 'run', 'settings.ts')) continue;
    const text = fs.readFileSync(path.join(root, file), 'utf8');
    for (const m of text.matchAll(/process\.env(?:\.|\[['"`])(L1_[A-Z0-9_]+)/g))
      if (m[1]! in VARIABLES && handedOver.get(file) !== m[1]) found.push(`${file}: process.env.${m[1]}`);
  }
  return found;
}

test('no file but the settings module reads a setting (an L1_* variable of the one list) from process.env itself: the demo took L1_DEMO_PORT so, without .env or its schema', () => {
  expect(processEnvSettingReads(path.resolve(__dirname, '..', '..'))).toEqual([]);
});

test('the demo started outside the checks takes L1_DEMO_PORT as the settings read it: the environment over .env, refused by its schema', () => {
  expect(demoPortSetting({}, {})).toBe(4173);
  expect(demoPortSetting({}, { L1_DEMO_PORT: '4610' })).toBe(4610);
  expect(demoPortSetting({ L1_DEMO_PORT: '4611' }, { L1_DEMO_PORT: '4610' })).toBe(4611);
  expect(demoPortSetting({ L1_DEMO_PORT: ' ' }, { L1_DEMO_PORT: '4610' })).toBe(4610);
  expect(() => demoPortSetting({ L1_DEMO_PORT: '65534' }, {})).toThrow(
    /L1_DEMO_PORT "65534": expected a port of 65533 or less/,
  );
});

test('README.md § Settings holds the table made from the one list of variables (npm run settings-table -- --write)', () => {
  const readme = fs.readFileSync(path.resolve(__dirname, '..', '..', 'README.md'), 'utf8');
  expect(readme).toContain(variablesTable());
  for (const name of Object.keys(VARIABLES)) expect(readme).toContain(`\`${name}\``);
});

test("every default the settings table states is the one an invocation takes when the variable is unset (the table's column is text: this ties it to lib/run/settings.ts)", () => {
  // The test above compares README.md with the list's own default text only: `?? 30_000`,
  // `?? 2`, outputPaths' folders are written again in settings.ts, free to drift from it (review 59a).
  const run = {
    L1_HTML_URL: 'http://h.test/reports/101101/monitor/{batchDate}?companyId=1001',
    L1_PLATFORM_URL: platform('101101'),
  };
  const taken = (env: NodeJS.ProcessEnv) => {
    const s = readSettings(sources({ env: { ...run, ...env } }));
    const { limits, paths, workers, keepState, screenshots, demoPort, timeZone } = s;
    const runs = s.runs.map((r) => ({ ...r.input, level: r.input.level ?? 'brand' }));
    return {
      limits,
      paths,
      workers,
      keepState,
      screenshots,
      demoPort,
      timeZone,
      date: s.night?.batchDate,
      runs,
    };
  };
  const unset = taken({});
  const stated = [
    'L1_LEVEL',
    'L1_BATCH_DATE',
    'L1_TIME_ZONE',
    'L1_VERDICTS_DIR',
    'L1_ALLURE_RESULTS_DIR',
    'L1_PARTIAL_DIR',
    'L1_ALLURE_REPORT_DIR',
    'L1_TEST_RESULTS_DIR',
    'L1_ALLURE_HISTORY_PATH',
    'L1_ALLURE_HISTORY_MB',
    'L1_PAGE_MAX_MB',
    'L1_REQUEST_TIMEOUT_MS',
    'L1_RETRY_BACKOFF_MS',
    'L1_MAX_ANSWER_MB',
    'L1_SCREENSHOTS',
    'L1_WORKERS',
    'L1_STATE_DIR',
    'L1_KEEP_STATE',
    'L1_DEMO_PORT',
  ] as const;
  for (const name of stated) expect(taken({ [name]: VARIABLES[name].default }), name).toEqual(unset);
  // The one default stated as a rule of another setting's value.
  expect(VARIABLES.L1_RUN_TIMEOUT_MS.default).toBe('4 × request timeout + 30000');
  const limits = readSettings(sources({ env: { ...run, L1_REQUEST_TIMEOUT_MS: '1000' } })).limits;
  expect(limits.runTimeoutMs).toBe(4 * 1000 + 30_000);
});

test('npm run settings-table -- --write says when README.md already holds the table, and leaves it as it is', () => {
  test.setTimeout(60_000); // one tsx process
  const readme = path.resolve(__dirname, '..', '..', 'README.md');
  // Never a write from the tests: with a README behind the variables, this stops here (and the
  // test above says why) before --write would change the checkout.
  expect(fs.readFileSync(readme, 'utf8')).toContain(variablesTable());
  const before = fs.statSync(readme).mtimeMs;
  const r = spawnSync(...tsScript('scripts/settings-table.ts', ['--write']), { cwd: ROOT, encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  // It said "README.md updated" and rewrote the file whatever it held.
  expect(r.stdout).toBe('settings-table: README.md already holds this table\n');
  expect(fs.statSync(readme).mtimeMs).toBe(before);
});

test('.env.example names every variable of the one list (a new setting is shown where users copy from)', () => {
  const example = fs.readFileSync(path.resolve(__dirname, '..', '..', '.env.example'), 'utf8');
  const missing = Object.keys(VARIABLES).filter((name) => !new RegExp(`^# ${name}=`, 'm').test(example));
  expect(missing).toEqual([]);
});

test('a credentials registry readable by others, or behind a symlink, is warned about at start (never printed)', () => {
  const dir = tempDir('creds');
  const file = path.join(dir, 'registry.json');
  fs.writeFileSync(file, '{"companies": {}}', { mode: 0o644 });
  fs.chmodSync(file, 0o644);
  const link = path.join(dir, 'link.json');
  fs.symlinkSync(file, link);
  expect(credentialFileWarnings({ L1_CREDENTIALS_FILE: link }, dir)).toEqual([
    `the credentials registry ${link} is a symlink to ${fs.realpathSync(file)}: read through it`,
    `the credentials registry ${link} is readable by group or others (mode 0644): chmod 600 it`,
  ]);
  fs.chmodSync(file, 0o600);
  expect(credentialFileWarnings({ L1_CREDENTIALS_FILE: file }, dir)).toEqual([]);
  // Both sources: the file wins (docs/contract.md §3), and the ignored one is said, never its value.
  const both = credentialFileWarnings(
    { L1_CREDENTIALS_FILE: file, L1_CREDENTIALS_JSON: '{"companies": {}}' },
    dir,
  );
  expect(both).toEqual([
    'L1_CREDENTIALS_FILE and L1_CREDENTIALS_JSON are both set: the file is used and L1_CREDENTIALS_JSON is ignored (docs/contract.md §3)',
  ]);
  fs.rmSync(dir, { recursive: true, force: true });
});

test('a credentials file named in .env and blank on the command line: the start warning reads the file the runs use (one merge of the two layers)', () => {
  // The warnings merged .env and the environment as they were, so a blank L1_CREDENTIALS_FILE hid
  // .env's file from them while Settings.env, which the runs log in with, dropped it.
  const dir = tempDir('creds');
  const file = path.join(dir, 'registry.json');
  fs.writeFileSync(file, '{"companies": {}}');
  fs.chmodSync(file, 0o644);
  const s = readSettings(
    sources({ root: dir, env: { L1_CREDENTIALS_FILE: '' }, dotenv: { L1_CREDENTIALS_FILE: file } }),
  );
  expect(s.env.L1_CREDENTIALS_FILE).toBe(file);
  expect(s.warnings).toContain(
    `the credentials registry ${file} is readable by group or others (mode 0644): chmod 600 it`,
  );
  // A blank value in .env is unset too, as for every L1_* variable in either layer.
  const blank = readSettings(sources({ root: dir, dotenv: { L1_CREDENTIALS_FILE: ' ' } }));
  expect(blank.env.L1_CREDENTIALS_FILE).toBeUndefined();
});

test('an L1_CREDENTIALS_FILE the settings refuse (~ or $NAME, which nothing expands) is the registry source, refused: the CI mask and the guard no longer take L1_CREDENTIALS_JSON or credentials.local.json in its place', () => {
  const dir = tempDir('creds-refused');
  fs.writeFileSync(path.join(dir, 'credentials.local.json'), '{"companies": {}}', { mode: 0o600 });
  const env = { L1_CREDENTIALS_FILE: '~/creds.json', L1_CREDENTIALS_JSON: '{"companies": {}}' };
  expect(credentialSource(env, dir)).toEqual({
    kind: 'file',
    where: 'L1_CREDENTIALS_FILE',
    problem: expect.stringContaining('L1_CREDENTIALS_FILE "~/creds.json": begins with ~'),
  });
  expect(() => loadRegistry(env, dir)).toThrow('begins with ~');
  expect(() => loadRegistry({ L1_CREDENTIALS_FILE: '$RUNNER_TEMP/c.json' }, dir)).toThrow(
    'names $RUNNER_TEMP',
  );
  // Near miss: registry text put in the variable is still said as before, never quoted.
  expect(credentialSource({ L1_CREDENTIALS_FILE: '{"companies": {}}' }, dir).problem).toContain(
    'holds JSON text rather than a path (value not shown)',
  );
});

test('the registry variables are read as the settings read them: a path with spaces around is the file the settings list, a blank L1_CREDENTIALS_FILE leaves L1_CREDENTIALS_JSON in force', () => {
  // credentials.ts read both raw: " creds/registry.json " was a file named with the spaces, and a
  // blank L1_CREDENTIALS_FILE a file named " " under the root, where the settings saw none.
  const dir = tempDir('creds');
  const file = path.join(dir, 'creds', 'registry.json');
  fs.mkdirSync(path.dirname(file));
  fs.writeFileSync(file, '{"companies": {}}', { mode: 0o600 });
  expect(credentialSource({ L1_CREDENTIALS_FILE: ' creds/registry.json ' }, dir)).toEqual({
    kind: 'file',
    where: file,
  });
  expect(loadRegistry({ L1_CREDENTIALS_FILE: ' creds/registry.json ' }, dir)).toEqual({ companies: {} });
  const json = { L1_CREDENTIALS_FILE: ' ', L1_CREDENTIALS_JSON: ' {"companies": {}} ' };
  expect(credentialSource(json, dir)).toEqual({ kind: 'env', where: 'L1_CREDENTIALS_JSON' });
  expect(loadRegistry(json, dir)).toEqual({ companies: {} });
  // Near miss: both set, the file wins and the other is said.
  expect(credentialFileWarnings({ ...json, L1_CREDENTIALS_FILE: 'creds/registry.json' }, dir)).toEqual([
    'L1_CREDENTIALS_FILE and L1_CREDENTIALS_JSON are both set: the file is used and L1_CREDENTIALS_JSON is ignored (docs/contract.md §3)',
  ]);
});

test.describe('docs/contract.md §3: L1_CREDENTIALS_FILE holding the registry text instead of a path', () => {
  // Assembled at run time: this source never holds a secret-looking value literally.
  const password = ['Hun', 'ter2!', 'pw'].join('');
  const phone = ['138', '1234', '5678'].join('');
  const registry = JSON.stringify({ companies: { '7': { phone, password } } });

  test('the error and the start warning say what to do and never echo the value', () => {
    const dir = tempDir('creds');
    let message = 'loaded';
    try {
      loadRegistry({ L1_CREDENTIALS_FILE: registry }, dir);
    } catch (e) {
      message = (e as Error).message;
    }
    const said =
      'L1_CREDENTIALS_FILE holds JSON text rather than a path (value not shown): L1_CREDENTIALS_JSON takes the credentials registry as text, L1_CREDENTIALS_FILE the path of a file holding it (docs/contract.md §3)';
    expect(message).toBe(said);
    expect(credentialFileWarnings({ L1_CREDENTIALS_FILE: ` ${registry}` }, dir)).toEqual([said]);
    const s = readSettings(sources({ root: dir, env: { L1_CREDENTIALS_FILE: registry } }));
    expect(s.warnings).toContain(said);
    // A value too long for a path is not echoed either; a plain path is read as before.
    expect(credentialFileWarnings({ L1_CREDENTIALS_FILE: 'x'.repeat(2000) }, dir)[0]).toMatch(
      /^L1_CREDENTIALS_FILE holds text rather than a path \(value not shown\)/,
    );
    expect(credentialFileWarnings({ L1_CREDENTIALS_FILE: 'creds/registry.json' }, dir)).toEqual([]);
  });

  test('npm run runs lists it as set, never its value', () => {
    test.setTimeout(60_000); // one tsx process
    const dir = tempDir('creds');
    fs.writeFileSync(path.join(dir, 'runs.json'), JSON.stringify([entry('101101')]));
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('L1_')));
    const r = spawnSync(...tsScript('scripts/runs.ts'), {
      cwd: ROOT,
      env: { ...env, L1_RUNS: path.join(dir, 'runs.json'), L1_CREDENTIALS_FILE: registry },
      encoding: 'utf8',
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('  L1_CREDENTIALS_FILE=(set, not shown) (environment)');
    expect(r.stdout).toContain(
      'warning: L1_CREDENTIALS_FILE holds JSON text rather than a path (value not shown)',
    );
    for (const secret of [password, phone]) expect(r.stdout + r.stderr).not.toContain(secret);
  });
});

test.describe('an L1_ variable that is no setting is said, never silently ignored', () => {
  test('a misspelt name names the setting it is near: the night would run on the default it meant to change', () => {
    expect(unknownVariableWarnings({ L1_BATCHDATE: '-2', PATH: '/bin' }, { L1_WORKER: '3' })).toEqual([
      'L1_BATCHDATE (environment) is not a setting of the suite and is ignored: did you mean L1_BATCH_DATE? (README.md § Settings)',
      'L1_WORKER (.env) is not a setting of the suite and is ignored: did you mean L1_WORKERS? (README.md § Settings)',
    ]);
    expect(unknownVariableWarnings({ L1_SOMETHING_ELSE_ENTIRELY: '1' }, {})).toEqual([
      'L1_SOMETHING_ELSE_ENTIRELY (environment) is not a setting of the suite and is ignored (README.md § Settings)',
    ]);
  });

  test('settings, names the demo and CI scripts read, and other prefixes draw nothing; a name in both places is said once', () => {
    const every = Object.fromEntries(Object.keys(VARIABLES).map((n) => [n, 'x']));
    expect(unknownVariableWarnings(every, every)).toEqual([]);
    expect(
      unknownVariableWarnings(
        { L1_DEMO_SLOW_MS: '1', L1_RUNS_FILE: 'r', L1_INVOCATION_ID: 'i', XL1_FOO: '1' },
        {},
      ),
    ).toEqual([]);
    expect(unknownVariableWarnings({ L1_TYPO: '1' }, { L1_TYPO: '1' })).toHaveLength(1);
  });

  test('no name the CI workflow or its scripts set draws the warning (L1_SHARD_MINUTES did, on every shard, though shard.sh reads it)', () => {
    const sources = [
      path.join(ROOT, '.github', 'workflows', 'l1-regression.yml'),
      ...fs
        .readdirSync(path.join(ROOT, 'scripts', 'ci'))
        .filter((f) => f.endsWith('.sh'))
        .map((f) => path.join(ROOT, 'scripts', 'ci', f)),
    ];
    const names = new Set(
      sources.flatMap((f) => fs.readFileSync(f, 'utf8').match(/\bL1_[A-Z0-9_]*[A-Z0-9]\b/g) ?? []),
    );
    expect(names).toContain('L1_SHARD_MINUTES');
    expect(unknownVariableWarnings(Object.fromEntries([...names].map((n) => [n, 'x'])), {})).toEqual([]);
  });

  test("no L1_ name the project's own code reads or sets draws the warning (L1_DEMO_STARTED_BY did: playwright.config.ts gives it to the demo)", () => {
    const files = (dir: string): string[] =>
      fs
        .readdirSync(dir, { withFileTypes: true })
        .flatMap((e) =>
          e.isDirectory()
            ? files(path.join(dir, e.name))
            : /\.(ts|mjs|sh)$/.test(e.name)
              ? [path.join(dir, e.name)]
              : [],
        );
    const sources = [
      ...['lib', 'demo', 'scripts', 'fixtures', 'pages'].flatMap((d) => files(path.join(ROOT, d))),
      ...['playwright.config.ts', 'playwright.selftest.config.ts', 'allurerc.mjs'].map((f) =>
        path.join(ROOT, f),
      ),
    ];
    // Not the comment of variables.ts that gives a misspelt name as its example.
    const names = new Set(
      sources.flatMap((f) => fs.readFileSync(f, 'utf8').match(/\bL1_[A-Z0-9_]*[A-Z0-9]\b/g) ?? []),
    );
    names.delete('L1_BATCHDATE');
    expect(names).toContain('L1_DEMO_STARTED_BY');
    expect(unknownVariableWarnings(Object.fromEntries([...names].map((n) => [n, 'x'])), {})).toEqual([]);
  });

  test('the warning reaches the settings the invocation prints at start', () => {
    const s = withRunsFile([entry('101101')], { L1_SCREENSHOT: 'all' });
    expect(s.warnings).toContain(
      'L1_SCREENSHOT (environment) is not a setting of the suite and is ignored: did you mean L1_SCREENSHOTS? (README.md § Settings)',
    );
  });
});

test.describe('section pictures read L1_SCREENSHOTS and L1_SECTION_SELECTORS from the settings, as every setting is read', () => {
  // sections.ts read both from a variable map of its own: its reading and the settings' could differ.
  test('.env shows through a blank value on the command line; the selectors JSON, inline or a file, overrides the defaults', () => {
    const root = tempDir('sections');
    const read = (env: NodeJS.ProcessEnv, dotenv: Record<string, string>) =>
      sectionSelectors(readSettings(sources({ root, env, dotenv })));
    expect(read({ L1_SECTION_SELECTORS: ' ' }, { L1_SECTION_SELECTORS: '{"5": "#r", "6": ""}' })).toEqual({
      ...Object.fromEntries(Object.entries(DEFAULT_SECTIONS).filter(([item]) => item !== '6')),
      5: '#r',
    });
    fs.writeFileSync(path.join(root, 'sections.json'), '{"3": "#k"}');
    expect(read({ L1_SECTION_SELECTORS: ' sections.json ' }, {})[3]).toBe('#k');
    expect(
      read({ L1_SCREENSHOTS: '' }, { L1_SCREENSHOTS: '0', L1_SECTION_SELECTORS: '{"5": "#r"}' }),
    ).toEqual({});
    expect(read({}, {})).toEqual(DEFAULT_SECTIONS);
  });

  test('a malformed L1_SECTION_SELECTORS is refused naming the variable', () => {
    const refused = (value: string) => {
      try {
        sectionSelectors(readSettings(sources({ env: { L1_SECTION_SELECTORS: value } })));
        return 'read';
      } catch (e) {
        return (e as Error).message;
      }
    };
    expect(refused('{"5": 1}')).toBe(
      'L1_SECTION_SELECTORS.5: expected an item 3..12 and a CSS selector string',
    );
    expect(refused('{"2": "#x"}')).toBe(
      'L1_SECTION_SELECTORS.2: expected an item 3..12 and a CSS selector string',
    );
    expect(refused('{5}')).toMatch(/^L1_SECTION_SELECTORS: not a JSON object \(/);
  });

  test("global setup's check (sectionSelectorsProblem) names the variable for a file that is not there, a malformed object and a wrong item, and passes a good value: a malformed value stopped no invocation, each run's pictures failed on it", () => {
    const root = tempDir('sections-problem');
    const problem = (value: string) =>
      sectionSelectorsProblem(readSettings(sources({ root, env: { L1_SECTION_SELECTORS: value } })));
    expect(problem('no-such.json')).toBe(
      `L1_SECTION_SELECTORS: neither a JSON object nor a file that can be read (ENOENT: ${path.join(root, 'no-such.json')})`,
    );
    expect(problem('{bad')).toMatch(/^L1_SECTION_SELECTORS: not a JSON object \(/);
    expect(problem('{"13": "#x"}')).toMatch(/^L1_SECTION_SELECTORS\.13: /);
    expect(problem('{"5": "#r"}')).toBeUndefined();
    expect(problem('')).toBeUndefined();
    // With the pictures off, a malformed value is still said: it never passes unread.
    expect(
      sectionSelectorsProblem(
        readSettings(sources({ root, env: { L1_SCREENSHOTS: '0', L1_SECTION_SELECTORS: '{bad' } })),
      ),
    ).toMatch(/^L1_SECTION_SELECTORS: not a JSON object \(/);
  });
});

test('a folder setting that names a file, or the history file a folder, stops the invocation naming the setting', () => {
  const root = tempDir('settings');
  fs.writeFileSync(path.join(root, 'a-file'), '');
  fs.writeFileSync(path.join(root, 'runs.json'), JSON.stringify([entry('101101')]));
  const load = (env: NodeJS.ProcessEnv) => () =>
    readSettings(sources({ root, env: { L1_RUNS: 'runs.json', ...env } }));
  expect(refusal(load({ L1_STATE_DIR: 'a-file' }))).toBe(
    `L1_STATE_DIR ${path.join(root, 'a-file')} is a file, not a folder: give a folder`,
  );
  expect(refusal(load({ L1_VERDICTS_DIR: 'a-file' }))).toContain('L1_VERDICTS_DIR');
  expect(refusal(load({ L1_ALLURE_HISTORY_PATH: '.' }))).toContain('L1_ALLURE_HISTORY_PATH');
  expect(refusal(load({ L1_VERDICTS_DIR: 'not-there-yet' }))).toBe('loaded');
});

test('no runs and no bundled demo (the spec files loaded without the project config): the message says how to point at it', () => {
  const message = refusal(() => readSettings(sources({ root: '/work/l1', demo: undefined })));
  expect(message).toContain('no runs configured: set L1_RUNS, or L1_HTML_URL and L1_PLATFORM_URL');
  expect(message).toContain('npx playwright test -c /work/l1/playwright.config.ts');
});

test.describe('docs/contract.md §3: the credentials registry holds "companies" and "profileB"', () => {
  const phone = ['139', '8765', '4321'].join('');
  const password = ['s3', 'cr3t'].join('-');
  const load = (registry: unknown) => {
    try {
      loadRegistry({ L1_CREDENTIALS_JSON: JSON.stringify(registry) }, tempDir('registry'));
      return 'loaded';
    } catch (e) {
      return (e as Error).message;
    }
  };

  test('a registry that is not JSON is said with where it breaks (line and column), never with a character of it', () => {
    const text = (registry: string) => {
      try {
        loadRegistry({ L1_CREDENTIALS_JSON: registry }, tempDir('registry'));
        return 'loaded';
      } catch (e) {
        return (e as Error).message;
      }
    };
    const entryOf = (pw: string) => `{"phone": "${phone}", "password": ${pw}}`;
    expect(text(`{\n  "companies": {\n    "7": ${entryOf(`"${password}"`)},\n  }\n}`)).toBe(
      'the credentials registry (L1_CREDENTIALS_JSON) is not valid JSON (Expected double-quoted property name at line 4, column 3)',
    );
    // A password written without quotes: its place, not its first character.
    const unquoted = text(`{"companies": {"7": ${entryOf(password)}}}`);
    expect(unquoted).toBe(
      'the credentials registry (L1_CREDENTIALS_JSON) is not valid JSON (Unexpected token at line 1, column 58)',
    );
    for (const secret of [password, phone.slice(-4), `"${password[0]}"`])
      expect(unquoted).not.toContain(secret);
  });

  test("one malformed entry fails its own runs only, naming its field: the other companies log in, and its text values stay secrets the guard looks for (inputs audit of 2026-11-28: company 1002 without a password stopped every company's runs, and the guard then looked for none of the registry's values)", () => {
    const registry = {
      companies: { '1001': { phone, password }, '1002': { phone: `${phone.slice(0, 9)}00` } },
      profileB: { phone: 13987654321, password: `${password}-b` },
    };
    const loaded = loadRegistry({ L1_CREDENTIALS_JSON: JSON.stringify(registry) }, tempDir('registry'));
    expect(credentialsFor(loaded, 'company:1001', 'L1_CREDENTIALS_JSON')).toEqual({ phone, password });
    expect(() => credentialsFor(loaded, 'company:1002', 'L1_CREDENTIALS_JSON')).toThrow(
      'the credentials registry (L1_CREDENTIALS_JSON) is malformed at registry.companies.1002.password',
    );
    expect(() => credentialsFor(loaded, 'profileB', 'L1_CREDENTIALS_JSON')).toThrow(
      'is malformed at registry.profileB.phone',
    );
    expect(registrySecrets(loaded).map((s) => `${s.who} ${s.field}`)).toEqual([
      'company 1001 phone',
      'company 1001 password',
      'company 1002 phone',
      'the Profile B entry phone',
      'the Profile B entry password',
    ]);
    const warnings: string[] = [];
    const secrets = collectSecrets(
      tempDir('registry-guard'),
      { L1_CREDENTIALS_JSON: JSON.stringify(registry) },
      warnings,
    );
    expect(secrets.map((s) => s.value)).toEqual(
      expect.arrayContaining([phone, password, `${phone.slice(0, 9)}00`, `${password}-b`]),
    );
    expect(warnings).toEqual(
      expect.arrayContaining([
        'the credentials registry (L1_CREDENTIALS_JSON) is malformed at registry.companies.1002.password',
      ]),
    );
    // Near miss: a registry that is not an object of entries is still refused whole.
    expect(load({ companies: [] })).toContain('is malformed at registry.companies');
  });

  test('every secret of a malformed entry is one the guard looks for: a phone written as a number, a password under a misspelt key, an entry written as a list or one level down; a company id, a note or a short setting under a key near them (tokenTtl: 3600, phoneCountryCode: 86) is not', () => {
    const other = `${phone.slice(0, 9)}77`;
    const registry = {
      companies: {
        '1002': { phone: Number(phone), passwd: `${password}-1` },
        '1003': [other, `${password}-2`],
        '1004': { login: { mobile: `${phone.slice(0, 9)}66`, pwd: `${password}-3` }, companyId: 1004 },
        '1005': { phone: `${phone.slice(0, 9)}55`, _note: 'staging account' },
        // Review of 902c6c2: settings under keys near phone or password, too short for secrets.
        '1006': { phone: `${phone.slice(0, 9)}44`, tokenTtl: 3600, phoneCountryCode: 86, telType: 'A' },
      },
      profileB: { phone: Number(other), password: `${password}-b` },
    };
    const loaded = loadRegistry(
      { L1_CREDENTIALS_JSON: JSON.stringify(registry) },
      tempDir('registry-shapes'),
    );
    expect(registrySecrets(loaded).map((s) => `${s.who} ${s.field}`)).toEqual([
      'company 1002 phone',
      'company 1002 passwd',
      'company 1003 entry',
      'company 1003 entry',
      'company 1004 mobile',
      'company 1004 pwd',
      'company 1005 phone',
      'company 1006 phone',
      'the Profile B entry phone',
      'the Profile B entry password',
    ]);
    const secrets = collectSecrets(
      tempDir('registry-shapes-guard'),
      { L1_CREDENTIALS_JSON: JSON.stringify(registry) },
      [],
    ).map((s) => s.value);
    expect(secrets).toEqual(
      expect.arrayContaining([
        phone,
        `${password}-1`,
        other,
        `${password}-2`,
        `${phone.slice(0, 9)}66`,
        `${password}-3`,
        `${phone.slice(0, 9)}55`,
        `${password}-b`,
      ]),
    );
    // Near misses: a value every output holds is no secret (its guard would fail every night).
    expect(secrets).not.toContain('1004');
    expect(secrets).not.toContain('staging account');
  });

  test('a misspelt top key is named with the key it is near, instead of every run failing "no entry for company …"', () => {
    expect(load({ companys: { '7': { phone, password } } })).toBe(
      'the credentials registry (L1_CREDENTIALS_JSON) has "companys" (did you mean "companies"?) at its top, where only "companies" and "profileB" are read',
    );
    expect(load({ companies: {}, profileb: { phone, password } })).toContain(
      '"profileb" (did you mean "profileB"?)',
    );
  });

  test('near miss: a top key far from both (a phone put one level too high) is counted, never shown; a good registry loads', () => {
    const message = load({ companies: {}, [phone]: { phone, password } });
    expect(message).toContain('1 other key(s), not shown');
    expect(message).not.toContain(phone);
    expect(load({ companies: { '7': { phone, password } }, profileB: { phone, password } })).toBe('loaded');
    expect(load({ $schema: 'x', _note: 'rotated monthly', companies: {} })).toBe('loaded');
  });
});
