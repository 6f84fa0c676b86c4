import type { DataInput } from './dataset';
import { HOSTILE_API_MESSAGE, HOSTILE_LOGIN_BASE, hostileTokens } from './hostile-kinds';
import { jsLiteral } from './pages';
import { A_MONITOR } from './runs';
import { derive, ERR, FAILS, type Scenario } from './scenario-kit';

/**
 * Hostile scenarios (README.md § Security and limits): each a copy of A-monitor (company 1001, or 1003 for the login) with one
 * behaviour written to misbehave. The suite must end each with its expected outcome, never send a
 * credential to the foreign origin, and keep control characters and tokens out of its outputs.
 */

/** The own brand with terminal control sequences: clear screen, window title, CR, a fake result line. */
export const HOSTILE_BRAND = '清屿\u001b[2J\u001b]0;pwned\u0007\r\n  ✓ 1 passed';
/** The project `hostile-page-redirect` and `hostile-page-script-navigation` land on (A-monitor's). */
const LANDING = A_MONITOR.spec.projectId;

type Platforms = DataInput['brand']['platforms'];

/** The demo's foreign origin (port + 2) of a main origin. */
function foreignOf(origin: string): string {
  const url = new URL(origin);
  url.port = String(Number(url.port) + 2);
  return url.origin;
}

export const HOSTILE_SCENARIOS: readonly Scenario[] = [
  derive(A_MONITOR, {
    label: 'hostile-report-foreign-host',
    projectId: '101416',
    description:
      "the report page is on the foreign origin (port + 2), not the run's base URL, the Profile B portal or L1_LOGIN_ORIGINS, and asks for a login there: no credential is posted",
    runExtras: (run, origin) => ({ htmlUrl: run.htmlUrl.replace(origin, foreignOf(origin)) }),
    expected: ERR('not an origin credentials may go to', 'L1_LOGIN_ORIGINS'),
  }),
  derive(A_MONITOR, {
    label: 'hostile-login-foreign-origin',
    projectId: '101401',
    companyId: 1003,
    listed: false,
    description: `the run's baseUrl ${HOSTILE_LOGIN_BASE} answers /login with 302 to a look-alike login form on the foreign origin (port + 2), which counts credential posts`,
    hostile: { kind: 'login-moved' },
    runExtras: (_run, origin) => ({ baseUrl: `${origin}${HOSTILE_LOGIN_BASE}` }),
    expected: ERR('login page moved to another origin'),
  }),
  derive(A_MONITOR, {
    label: 'hostile-page-tampers',
    projectId: '101417',
    description:
      'the page replaces JSON.stringify, Object.keys, Array.prototype.sort, toFixed and adds Object.prototype.toJSON before DATA: read as it is, every item passes',
    hostile: { kind: 'page-tampers' },
    expected: FAILS(),
  }),
  derive(A_MONITOR, {
    label: 'hostile-data-grows',
    projectId: '101418',
    description:
      'DATA has a getter that builds about 80 MB of strings on each read: counted by the suite as it is read, over L1_MAX_ANSWER_MB (64 by default)',
    hostile: { kind: 'data-grows', mb: 80 },
    expected: ERR('DATA exceeds', 'counted by the suite'),
  }),
  derive(A_MONITOR, {
    label: 'hostile-page-exfil',
    projectId: '101419',
    description:
      'after DATA the page sends part of it and its cookies to the foreign origin (fetch, image), calls another port of its host and starts a download: blocked and named, every item passes',
    hostile: { kind: 'page-exfil' },
    expected: FAILS(),
  }),
  derive(A_MONITOR, {
    label: 'hostile-api-msg-secrets',
    projectId: '101420',
    description:
      "the competitor table answers an API error whose message quotes the account's phone, password and session token, then clears the terminal and writes a fake verdict line (as hostile-api-msg-control-chars): the run's error, every one of them masked and every control character escaped everywhere",
    hostile: { kind: 'api-msg-secrets' },
    expected: ERR('API error code 500', '账号 ***', '密码 ***', '会话 ***'),
  }),
  derive(A_MONITOR, {
    label: 'hostile-page-memory',
    projectId: '101421',
    description:
      'the page grows to about 1.5 GB of memory while it loads: over L1_PAGE_MAX_MB the run is an error and the next run gets a fresh browser',
    hostile: { kind: 'page-memory', mb: 1536 },
    expected: ERR('L1_PAGE_MAX_MB'),
  }),
  derive(A_MONITOR, {
    label: 'hostile-page-data-changes',
    projectId: '101423',
    description:
      'the page moves its aggregate positive mention rate by 20 and a random fraction on every load: item 3 fails on the DATA that was read, and the second load for the pictures gives another DATA, so the run is not pictured and says why',
    hostile: { kind: 'data-changes' },
    expected: FAILS(3),
  }),
  derive(A_MONITOR, {
    label: 'hostile-userinfo-url',
    projectId: '101422',
    description:
      'the report URL carries a user and password (http://qa:<token>@…): checked, and the password is in no output (verdicts, titles, Allure, console)',
    runExtras: (run, origin) => ({
      htmlUrl: run.htmlUrl.replace('http://', `http://qa:${hostileTokens(origin)[0] ?? ''}@`),
    }),
    expected: FAILS(),
  }),
  derive(A_MONITOR, {
    label: 'hostile-page-loops',
    projectId: '101402',
    description: 'the report page defines DATA, then loops forever (for(;;){}) just after load',
    hostile: { kind: 'page-loops' },
    expected: ERR('did not finish within'),
  }),
  derive(A_MONITOR, {
    label: 'hostile-page-redirect',
    projectId: '101403',
    description:
      "the report page answers 302 to A-monitor's report on the Profile B portal origin (valid DATA of another project)",
    hostile: { kind: 'page-redirect', to: LANDING },
    expected: ERR('landed on'),
  }),
  derive(A_MONITOR, {
    label: 'hostile-page-script-navigation',
    projectId: '101404',
    description:
      "the report page's script sets location.href to A-monitor's report (same origin) before DATA is defined",
    hostile: { kind: 'page-script-navigation', to: LANDING },
    expected: ERR('landed on'),
  }),
  derive(A_MONITOR, {
    label: 'hostile-huge-answer',
    projectId: '101405',
    description:
      'table=source&platform=all streams a 700 MB JSON answer (chunked; stops when the client goes away)',
    hostile: { kind: 'huge-answer', bytes: 700_000_000 },
    expected: ERR('exceeds', 'table=source'),
  }),
  derive(A_MONITOR, {
    label: 'hostile-gzip-bomb',
    projectId: '101406',
    description:
      'table=tmc answers Content-Encoding: gzip, about 1 MB that unpacks to 1 GiB of JSON whitespace',
    hostile: { kind: 'gzip-bomb' },
    expected: ERR('exceeds', 'table=tmc'),
  }),
  derive(A_MONITOR, {
    label: 'hostile-control-chars',
    projectId: '101407',
    description:
      'the own brand name carries terminal control sequences (ESC[2J, a window title, CR, a fake "✓ 1 passed" line) on both sides: all pass, outputs must escape them',
    spec: { brand: HOSTILE_BRAND },
    expected: FAILS(),
  }),
  derive(A_MONITOR, {
    label: 'hostile-api-msg-control-chars',
    projectId: '101408',
    description:
      'the competitor table answers {code:500,msg} whose msg carries ESC[2J, CR LF and a fake "✓ all checks passed" line',
    fault: { kind: 'wrapped-error', table: 'competitor', code: 500, message: HOSTILE_API_MESSAGE },
    expected: ERR('API error code 500'),
  }),
  derive(A_MONITOR, {
    label: 'hostile-words-50000',
    projectId: '101409',
    description:
      'the HTML word cloud has 50,000 extra distinct words the platform lacks (failure lists must be capped)',
    html: (data) => {
      const words = data.brand.wordcloud.words;
      for (let i = 0; i < 50_000; i++)
        words.push({ word: `扩展词${String(i).padStart(5, '0')}`, weight: 0.001 });
      return data;
    },
    expected: FAILS(6),
  }),
  derive(A_MONITOR, {
    label: 'hostile-page-errors',
    projectId: '101410',
    description: 'the report page throws 5,000 uncaught errors before load and defines no DATA',
    hostile: { kind: 'page-errors', count: 5000 },
    expected: ERR('defines no DATA'),
  }),
  derive(A_MONITOR, {
    label: 'hostile-duplicate-platform-key',
    projectId: '101411',
    description:
      'DATA.meta.platforms lists doubao twice (in the place of wenxin, so one platform is missing)',
    html: (data) => {
      const platforms = data.meta.platforms;
      platforms[5] = { ...(platforms[0] as (typeof platforms)[number]) };
      return data;
    },
    expected: ERR('duplicate'),
  }),
  derive(A_MONITOR, {
    label: 'hostile-duplicate-snapshot-row',
    projectId: '101412',
    description: 'the snapshot answers two rows for deepseek (the kimi row carries platform "deepseek")',
    platform: (view) => {
      const kimi = view.snapshot.find((r) => r.platform === 'kimi');
      if (!kimi) throw new Error('demo scenario: no kimi snapshot row');
      kimi.platform = 'deepseek';
    },
    expected: ERR('duplicate'),
  }),
  derive(A_MONITOR, {
    label: 'hostile-nan-in-data',
    projectId: '101413',
    description:
      "DATA holds NaN (doubao self.exposure_rate) and Infinity (doubao's last trend point) as JS literals; the snapshot's doubao exposure_rate is null",
    html: (data) => {
      const doubao = data.brand.platforms.doubao;
      if (!doubao) throw new Error('demo scenario: no doubao block');
      (doubao.self as Record<string, unknown>).exposure_rate = jsLiteral('NaN');
      const last = doubao.trend.reduce((a, b) => (b.date >= a.date ? b : a));
      (last as Record<string, unknown>).exposure_rate = jsLiteral('Infinity');
      return data;
    },
    platform: (view) => {
      const row = view.snapshot.find((r) => r.platform === 'doubao');
      if (!row) throw new Error('demo scenario: no doubao snapshot row');
      row.exposure_rate = null;
    },
    expected: ERR('finite'),
  }),
  derive(A_MONITOR, {
    label: 'hostile-proto-key',
    projectId: '101414',
    description:
      'a seventh platform keyed "__proto__" in meta.platforms and brand.platforms (a real own property: DATA = JSON.parse(\'…\'))',
    spec: { dataJsonParse: true },
    html: (data) => {
      data.meta.platforms.push({ key: '__proto__', name: '原型' });
      const copy = structuredClone(data.brand.platforms.doubao);
      // An own property named __proto__ (an assignment would set the prototype instead).
      Object.defineProperty(data.brand.platforms as Platforms, '__proto__', {
        value: copy,
        enumerable: true,
        writable: true,
        configurable: true,
      });
      return data;
    },
    expected: ERR('__proto__'),
  }),
  derive(A_MONITOR, {
    label: 'hostile-redirect-loop-token',
    projectId: '101415',
    description:
      'the report URL carries token= and access_token= (24 hex each, hostileTokens(origin)); the page answers 302 to itself forever',
    hostile: { kind: 'redirect-loop' },
    runExtras: (run, origin) => {
      const [token, accessToken] = hostileTokens(origin);
      return { htmlUrl: `${run.htmlUrl}&token=${token ?? ''}&access_token=${accessToken ?? ''}` };
    },
    expected: ERR('ERR_TOO_MANY_REDIRECTS'),
  }),
];

/**
 * The hostile scenarios whose outcome the report page decides in a browser and nothing else: the
 * page loops, grows, redirects or navigates, or its DATA is refused by the schema. Each goes
 * through the suite's collector and Chromium in tests/unit/hostile-pages.spec.ts; the whole suite
 * (verdict files, Allure, the guard) is proven on runs of the same kind in the self-tests'
 * catalogue, which leaves these out (a failed collection there costs a Playwright worker).
 */
export const PAGE_SIDE_HOSTILE: readonly string[] = [
  'hostile-page-loops',
  'hostile-page-memory',
  'hostile-data-grows',
  'hostile-page-redirect',
  'hostile-page-script-navigation',
  'hostile-proto-key',
  'hostile-duplicate-platform-key',
];
