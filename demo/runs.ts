import path from 'node:path';
import { sha256 } from '../lib/util/hash';
import type { ProfileBSettings, RunInput } from '../lib/run/types';
import type { MetricsTable } from '../lib/schema/platform';
import type { DataInput, PlatformView, ProjectSpec } from './dataset';
import type { Hostile } from './hostile-kinds';

/**
 * The bundled demo projects and their runs (docs/contract.md §1: "Neither: the embedded demo platform
 * is started and its bundled runs are used"). Each run reads its values from a different URL form
 * (docs/contract.md §1.1) so the URL reader is exercised by the demo itself.
 */

export const DEMO_DEFAULT_PORT = 4173;

/**
 * Which checkout a demo server comes from (its folder, hashed): `/healthz` says it, and answers 409
 * to `?checkout=` of another one, so the suite never takes another checkout's demo (or any other
 * process on the port) for its own (playwright.config.ts webServer, tests/setup/global.setup.ts).
 */
export const CHECKOUT_ID = sha256(path.resolve(__dirname, '..')).slice(0, 16);

/** The demo's credentials registry on the default port (docs/contract.md §3 shape; 0600, random at each start). */
export const DEMO_CREDENTIALS_FILE = path.resolve(__dirname, '..', '.l1', 'demo', 'credentials.json');

/**
 * The runs file `npm run demo -- --scenario …` (and `--nights`) writes for its checks: with the
 * demo's own state, which the redaction guard never scans (lib/redaction/targets.ts), not in an
 * output folder. It is an input, and the URLs of some scenarios carry a token on purpose
 * (hostile-redirect-loop-token): written to reports/, it failed the main job's own guard, so the
 * documented `--scenario 'hostile-*'` (or `all`) ended with exit 3 whatever the checks found.
 */
export const SCENARIO_RUNS_FILE = path.resolve(__dirname, '..', '.l1', 'demo', 'scenario-runs.json');

/**
 * Where a demo on `port` writes its registry: credentials.json on the default port, else
 * credentials-<port>.json, so two demos (checks and self-tests) never overwrite each other's.
 */
export function demoCredentialsFile(port: number): string {
  return port === DEMO_DEFAULT_PORT
    ? DEMO_CREDENTIALS_FILE
    : path.resolve(__dirname, '..', '.l1', 'demo', `credentials-${port}.json`);
}

export const DEMO_GROUP = {
  name: '星河集团',
  /** The group's fixed company id (spec 9.1.1). */
  companyId: 3100,
  brandCode: 'XH',
  /** Companies the Profile B account may read (3102 exists only for the line-only scenario). */
  companies: [3100, 3101, 3102] as readonly number[],
};

/** Companies with a credentials entry (1003: the empty batch list scenario). */
export const DEMO_COMPANIES: readonly number[] = [1001, 1002, 1003, 3100, 3101, 3102];

/** How the report URL carries reportType / batchDate / companyId / topic (docs/contract.md §1.1). */
export type UrlForm =
  /** /reports/{p}/{reportType}/{YYYY-MM-DD}?companyId&topic */
  | 'path'
  /** /reports/{p}/view?reportType&batchDate&companyId&topicId */
  | 'query-camel'
  /** /reports/{p}/latest?report_type&batch_date&company_id&topic */
  | 'query-snake'
  /** /reports/{p}/{reportType}/{YYYYMMDD}?companyId&topic */
  | 'path-compact';

export interface DemoProject {
  label: string;
  /** One line for `demo/runs-file.ts --list` and the index page. */
  description?: string;
  spec: ProjectSpec;
  url: UrlForm;
  /** `/platform/projects/{p}/overview`, or `/platform/overview?projectId={p}`. */
  platformUrl: 'path' | 'query';
  /** The main origin, or the Profile B group's own portal (port + 1). */
  host: 'main' | 'portalB';
  fault?: Fault;
  /** Changes the page's DATA after it is derived (drifts and faulty DATA). */
  html?: (data: DataInput) => unknown;
  /** Changes the platform payloads after they are derived (drifts). */
  platform?: (view: PlatformView) => void;
  /** A hostile behaviour of the platform or the page (README.md § Security and limits, demo/hostile.ts). */
  hostile?: Hostile;
  /** Run fields beyond the URLs (a `baseUrl` with a path, a query with tokens), from the run and origins. */
  runExtras?: (run: RunInput, origin: string, portalBOrigin: string) => Partial<RunInput>;
  /**
   * Served on every date of the demo's window (demo/dates.ts), its run templated with `{batchDate}`;
   * `breaks` is applied from L1_DEMO_BREAK_FROM on (a drift that starts on a given night).
   */
  nightly?: { breaks?: Pick<DemoProject, 'html' | 'platform'> };
  /**
   * A generated case of the unit families (demo/model/projects.ts): its DATA and answers come from
   * the drawn case (`modelAnswers`), not from the seeded truth of the spec.
   */
  model?: true;
}

export type { MetricsTable };

/** Contract 4 errors the demo can answer with, per project. */
export type Fault =
  | { kind: 'page-without-data' }
  | { kind: 'page-syntax-error' }
  /** The first metrics request for the project: 401 and the session is gone (expired mid-run). */
  | { kind: 'expire-session-once' }
  /** The status every time; `once`: once per table, then the data; `times`: that many per table, then the data. */
  | { kind: 'status'; status: 401 | 403 | 404 | 500; table?: MetricsTable; once?: boolean; times?: number }
  /** Sleeps L1_DEMO_SLOW_MS (default 8000) before answering; stops when the client goes away. */
  | { kind: 'slow'; table: MetricsTable }
  | { kind: 'html-error-page'; table: MetricsTable }
  | { kind: 'wrapped-error'; table: MetricsTable; code: number; message: string }
  | { kind: 'rows-missing'; table: MetricsTable }
  | { kind: 'rows-wrong-type'; table: 'source' }
  | { kind: 'rows-empty'; table: MetricsTable }
  /** Snapshot of the built diagnosis id answers rows with another, authoritative crawlBatchId (9.1.3). */
  | { kind: 'authoritative-id'; crawlBatchId: string };

const MONITOR_DATE = '2025-11-17';
const DIAGNOSIS_DATE = '2025-11-10';

export const A_MONITOR: DemoProject = {
  label: 'A-monitor',
  nightly: {},
  description:
    'Profile A monitor: bare answers, rates "23.4%", empty "-", const DATA, path URL form, two batch ids',
  url: 'path',
  platformUrl: 'path',
  host: 'main',
  spec: {
    projectId: '101101',
    companyId: 1001,
    profile: 'A',
    reportType: 'monitor',
    batchDate: MONITOR_DATE,
    topic: 'T101101',
    domain: 'purifier',
    brand: '清屿',
    line: '空气净化器线',
    seed: 'A-monitor',
    batchIds: ['L1M-101101-20251117-01', 'L1M-101101-20251117-02'],
    listed: true,
    dataDecl: 'const',
    envelope: 'bare',
    unusedFields: true,
    rates: 'percent',
    noValue: '-',
    shape: {
      trendPoints: 7,
      trendStepDays: 1,
      trendOrder: 'asc',
      contentType: 'percent10',
      publishTime: 'html-no-time',
      mediaBars: 'percent',
      shortSources: { wenxin: 17 },
      apiShuffle: false,
      htmlRateStrings: false,
      htmlWeights: 'normalized',
      sourceUrls: true,
    },
  },
};

export const A_DIAGNOSIS: DemoProject = {
  label: 'A-diagnosis',
  nightly: {},
  description:
    'Profile A diagnosis: {code:0,msg} answers, number rates, null empty, var DATA = JSON.parse(…), query URL form',
  url: 'query-camel',
  platformUrl: 'query',
  host: 'main',
  spec: {
    projectId: '102201',
    companyId: 1002,
    profile: 'A',
    reportType: 'diagnosis',
    batchDate: DIAGNOSIS_DATE,
    topic: 'T102201',
    domain: 'coffee',
    brand: '知味',
    line: '咖啡机线',
    seed: 'A-diagnosis',
    batchIds: ['L1D-102201-20251110'],
    listed: true,
    dataDecl: 'var',
    dataJsonParse: true,
    envelope: 'code0',
    wordcloudEnvelope: 'code200-msg',
    omitOptional: true,
    rates: 'number',
    noValue: null,
    shape: {
      trendPoints: 4,
      trendStepDays: 7,
      trendOrder: 'desc',
      contentType: 'count7',
      publishTime: 'platform-no-time',
      mediaBars: 'count',
      doubleDivision: 'deepseek',
      missingCitation: [
        { key: 'wenxin', group: 'content_type' },
        { key: 'wenxin', group: 'publish_time' },
        { key: 'yuanbao', group: 'source_top30' },
      ],
      shortSources: { qianwen: 12 },
      apiShuffle: true,
      htmlRateStrings: true,
      fullPositive: 'kimi',
      htmlWeights: 'absent',
      sourceUrls: false,
      reversePlatformKeys: true,
      metaReportType: '诊断报告',
    },
  },
};

export const B_MONITOR: DemoProject = {
  label: 'B-monitor',
  nightly: {},
  description:
    'Profile B monitor on the group portal: {code:200,message} answers, rates "23.4", empty "", window.DATA',
  url: 'query-snake',
  platformUrl: 'path',
  host: 'portalB',
  spec: {
    projectId: '310101',
    companyId: 3101,
    profile: 'B',
    reportType: 'monitor',
    batchDate: MONITOR_DATE,
    topic: 'T310101',
    domain: 'fridge',
    brand: '星河',
    // Recognized by host only: the line does not name the group, and 3101 is not the group's id.
    line: '冰箱事业部 · 智能冰箱线',
    seed: 'B-monitor',
    batchIds: ['XH-SX-310101-20251117'],
    listed: true,
    positionMetric: 'top5',
    dataDecl: 'window',
    envelope: 'code200',
    wordcloudEnvelope: 'code0-message',
    unusedFields: true,
    rates: 'string',
    noValue: '',
    shape: {
      trendPoints: 7,
      trendStepDays: 1,
      trendOrder: 'asc',
      contentType: 'percent10',
      publishTime: 'none',
      mediaBars: 'percent',
      shortSources: { kimi: 24 },
      apiShuffle: true,
      htmlRateStrings: false,
      htmlWeights: 'normalized',
      sourceUrls: true,
    },
  },
};

export const B_DIAGNOSIS: DemoProject = {
  label: 'B-diagnosis',
  nightly: {},
  description:
    'Profile B diagnosis: built XH-HIST batch id, mixed rates, empty keys left out, let DATA, product_ranking as a list',
  url: 'path-compact',
  platformUrl: 'path',
  host: 'main',
  spec: {
    projectId: '310001',
    companyId: 3100,
    profile: 'B',
    reportType: 'diagnosis',
    batchDate: DIAGNOSIS_DATE,
    topic: 'T310001',
    domain: 'tv',
    brand: '星河',
    line: '星河集团 · 电视事业部',
    seed: 'B-diagnosis',
    // Not in the batch list: the suite builds XH-HIST-{projectId}-{YYYYMMDD}-D (spec 9.1.2).
    batchIds: ['XH-HIST-310001-20251110-D'],
    listed: false,
    positionMetric: 'first',
    dataDecl: 'let',
    envelope: 'bare',
    productRanking: 'list',
    rates: 'mixed',
    noValue: 'absent',
    shape: {
      trendPoints: 0,
      trendStepDays: 1,
      trendOrder: 'asc',
      contentType: 'count7',
      publishTime: 'html-no-time',
      mediaBars: 'percent',
      shortSources: { doubao: 21 },
      apiShuffle: false,
      htmlRateStrings: false,
      htmlWeights: 'normalized',
      sourceUrls: true,
    },
  },
};

export const BUNDLED: readonly DemoProject[] = [A_MONITOR, A_DIAGNOSIS, B_MONITOR, B_DIAGNOSIS];

/** `date` of a run whose report URL carries the `{batchDate}` template (README.md § Run it nightly in CI). */
export const TEMPLATE = 'template';

/**
 * The report page path and query of a project (docs/contract.md §1.1 forms), on its own date, on
 * another date of the window, or templated (`{batchDate}` / `{batchDateCompact}`, kept unescaped).
 */
export function reportPath(project: DemoProject, date: string = project.spec.batchDate): string {
  const { projectId, reportType, companyId, topic } = project.spec;
  const day = date === TEMPLATE ? '{batchDate}' : date;
  const dayCompact = date === TEMPLATE ? '{batchDateCompact}' : date.replace(/-/g, '');
  const q = (params: Record<string, string | number>) =>
    new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]))
      .toString()
      .replace(/%7B(batchDate(?:Compact)?)%7D/g, '{$1}');
  switch (project.url) {
    case 'path':
      return `/reports/${projectId}/${reportType}/${day}?${q({ companyId, topic })}`;
    case 'query-camel':
      return `/reports/${projectId}/view?${q({ reportType, batchDate: day, companyId, topicId: topic })}`;
    case 'query-snake':
      return `/reports/${projectId}/latest?${q({ report_type: reportType, batch_date: day, company_id: companyId, topic })}`;
    case 'path-compact':
      return `/reports/${projectId}/${reportType}/${dayCompact}?${q({ companyId, topic })}`;
  }
}

export function platformPath(project: DemoProject): string {
  const { projectId } = project.spec;
  return project.platformUrl === 'query'
    ? `/platform/overview?projectId=${projectId}`
    : `/platform/projects/${projectId}/overview`;
}

/**
 * The run of a demo project (docs/contract.md §1): on its own date by default, templated for the
 * night (`TEMPLATE`) when it is served on every date (`nightly`), or on a given date.
 */
export function runOf(project: DemoProject, origin: string, portalBOrigin: string, date?: string): RunInput {
  const base = project.host === 'portalB' ? portalBOrigin : origin;
  const run: RunInput = {
    label: project.label,
    htmlUrl: `${base}${reportPath(project, date)}`,
    platformUrl: `${base}${platformPath(project)}`,
  };
  return project.runExtras ? { ...run, ...project.runExtras(run, origin, portalBOrigin) } : run;
}

/**
 * The four bundled runs: A-monitor, A-diagnosis, B-monitor (portal host), B-diagnosis (company
 * 3100), templated with `{batchDate}` so they name the night's reports (L1_BATCH_DATE, default
 * yesterday); `date` pins them to one date, `own` to each project's own fixed date.
 */
export function demoRuns(origin: string, portalBOrigin: string, date: string | 'own' = TEMPLATE): RunInput[] {
  return BUNDLED.map((p) => runOf(p, origin, portalBOrigin, date === 'own' ? undefined : date));
}

/** Profile B recognition settings of the demo (docs/contract.md §2). */
export function demoProfileB(portalBHost: string): Required<ProfileBSettings> {
  return {
    host: portalBHost,
    groupName: DEMO_GROUP.name,
    companyId: DEMO_GROUP.companyId,
    brandCode: DEMO_GROUP.brandCode,
  };
}
