import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { ProfileBSettings, RunInput } from '../lib/run/types';
import { ALL_PROJECTS, batchList, projectById, viewsOf } from './catalog';
import type { SourceRowInput } from './dataset';
import { gatewayErrorPage, indexPage, loginPage, platformPage, reportPage } from './pages';
import {
  DEMO_COMPANIES,
  DEMO_CREDENTIALS_FILE,
  DEMO_DEFAULT_PORT,
  DEMO_GROUP,
  demoCredentialsFile,
  demoProfileB,
  demoRuns,
  platformPath,
  reportPath,
  type DemoProject,
  type MetricsTable,
} from './runs';
import { scenarioRuns } from './scenarios';
import { AI_PLATFORMS } from './vocab';

/**
 * The bundled demo platform: a real HTTP server on loopback that implements the platform contract
 * (contract sections 3 to 5). Two listeners: the main origin, and port + 1 as the Profile B group's
 * own portal host; both serve the same app. Credentials are random at each start and written to a
 * 0600 file; they are never printed, logged or put in a page.
 */

export { DEMO_CREDENTIALS_FILE, DEMO_DEFAULT_PORT, demoCredentialsFile };
const ROOT = path.resolve(__dirname, '..');

export interface DemoOptions {
  /** Default L1_DEMO_PORT or 4173; 0 picks a free pair (port, port + 1). */
  port?: number;
  /** A loopback host only; default 127.0.0.1. */
  host?: string;
  quiet?: boolean;
  /** Default: demoCredentialsFile(port). */
  credentialsFile?: string;
}

export interface DemoServer {
  host: string;
  port: number;
  origin: string;
  portalBOrigin: string;
  /** `{portal_b_host}`: 127.0.0.1:<port + 1>. */
  portalBHost: string;
  loginUrl: string;
  credentialsFile: string;
  runs: RunInput[];
  scenarioRuns: Record<string, RunInput>;
  profileB: Required<ProfileBSettings>;
  close(): Promise<void>;
}

interface Credentials {
  phone: string;
  password: string;
}
interface Registry {
  companies: Record<string, Credentials>;
  profileB: Credentials;
}
type Who = { kind: 'company'; companyId: number } | { kind: 'profileB' };

const SESSION_COOKIE = 'l1_session';
const TABLES: readonly MetricsTable[] = ['snapshot', 'competitor', 'tmc', 'source'];
const PLATFORM_KEYS = AI_PLATFORMS.map((p) => p.key);
/** Batch list envelopes vary by company (contract 4: bare or wrapped). */
const BATCH_ENVELOPE: Record<number, DemoProject['spec']['envelope']> = {
  1002: 'code200',
  3101: 'code0',
  3102: 'code0',
};
const ECHARTS = path.join(ROOT, 'node_modules', 'echarts', 'dist', 'echarts.min.js');
const REPORT_JS = path.join(__dirname, 'assets', 'report.js');

// --- credentials ----------------------------------------------------------------------------------

/** A random mainland mobile number, 1[3-9]\d{9}. */
function randomPhone(): string {
  let digits = `1${crypto.randomInt(3, 10)}`;
  for (let i = 0; i < 9; i++) digits += String(crypto.randomInt(0, 10));
  return digits;
}

function randomPassword(): string {
  return crypto.randomBytes(12).toString('base64url');
}

function makeRegistry(): Registry {
  const phones = new Set<string>();
  const entry = (): Credentials => {
    let phone = randomPhone();
    while (phones.has(phone)) phone = randomPhone();
    phones.add(phone);
    return { phone, password: randomPassword() };
  };
  return {
    companies: Object.fromEntries(DEMO_COMPANIES.map((id) => [String(id), entry()])),
    profileB: entry(),
  };
}

function writeRegistry(file: string, registry: Registry): string {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const text = `${JSON.stringify(registry, null, 2)}\n`;
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, text, { mode: 0o600 });
  fs.chmodSync(tmp, 0o600);
  fs.renameSync(tmp, file);
  return text;
}

function sameSecret(a: string, b: string): boolean {
  const x = crypto.createHash('sha256').update(a).digest();
  const y = crypto.createHash('sha256').update(b).digest();
  return crypto.timingSafeEqual(x, y);
}

function whoLogsIn(registry: Registry, phone: string, password: string): Who | undefined {
  let found: Who | undefined;
  // Every entry is compared, so the time taken does not tell which one matched.
  for (const [id, c] of Object.entries(registry.companies)) {
    if (sameSecret(c.phone, phone) && sameSecret(c.password, password))
      found = { kind: 'company', companyId: Number(id) };
  }
  if (sameSecret(registry.profileB.phone, phone) && sameSecret(registry.profileB.password, password))
    found = { kind: 'profileB' };
  return found;
}

/** Contract 3: a company reads only its own data; the Profile B account reads the group's companies. */
function mayRead(who: Who, companyId: number): boolean {
  return who.kind === 'profileB' ? DEMO_GROUP.companies.includes(companyId) : who.companyId === companyId;
}

// --- small HTTP helpers ---------------------------------------------------------------------------

const NO_STORE = { 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' };

function send(
  res: http.ServerResponse,
  status: number,
  type: string,
  body: string | Buffer,
  headers: http.OutgoingHttpHeaders = {},
): void {
  res.writeHead(status, {
    'Content-Type': type,
    'Content-Length': Buffer.byteLength(body),
    ...NO_STORE,
    ...headers,
  });
  res.end(body);
}

function json(
  res: http.ServerResponse,
  status: number,
  body: unknown,
  headers: http.OutgoingHttpHeaders = {},
): void {
  send(res, status, 'application/json; charset=utf-8', JSON.stringify(body), headers);
}

function html(res: http.ServerResponse, status: number, body: string): void {
  send(res, status, 'text/html; charset=utf-8', body);
}

function apiError(res: http.ServerResponse, status: number, message: string): void {
  const error =
    {
      400: 'bad_request',
      401: 'unauthorized',
      403: 'forbidden',
      404: 'not_found',
      405: 'method_not_allowed',
      500: 'internal_error',
    }[status] ?? 'error';
  json(res, status, { error, message });
}

function wrap(envelope: DemoProject['spec']['envelope'], payload: unknown): unknown {
  if (envelope === 'code0') return { code: 0, msg: 'ok', data: payload };
  if (envelope === 'code200') return { code: 200, message: 'success', data: payload };
  return payload;
}

function cookieOf(req: http.IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return v.join('=');
  }
  return undefined;
}

function readBody(req: http.IncomingMessage, limit = 16 * 1024): Promise<string> {
  return new Promise((resolve, reject) => {
    let size = 0;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > limit) {
        reject(new Error('body too large'));
        req.destroy();
      } else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** Sleeps, unless the client goes away first (then resolves false). */
function sleepUnlessClosed(ms: number, res: http.ServerResponse, pending: Set<() => void>): Promise<boolean> {
  return new Promise((resolve) => {
    const done = (ok: boolean) => {
      clearTimeout(timer);
      res.off('close', onClose);
      pending.delete(cancel);
      resolve(ok);
    };
    const onClose = () => done(false);
    const cancel = () => done(false);
    const timer = setTimeout(() => done(true), ms);
    res.on('close', onClose);
    pending.add(cancel);
  });
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

function listen(server: http.Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (e: Error) => {
      server.off('listening', onListening);
      reject(e);
    };
    const onListening = () => {
      server.off('error', onError);
      resolve((server.address() as AddressInfo).port);
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });
}

function closeServer(server: http.Server): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) return resolve();
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

// --- the app ----------------------------------------------------------------------------------------

interface Stats {
  since: string;
  counts: Record<string, Record<string, number>>;
}

function builtDiagnosisId(project: DemoProject): string {
  return `${DEMO_GROUP.brandCode}-HIST-${project.spec.projectId}-${project.spec.batchDate.replace(/-/g, '')}-D`;
}

function sameIds(a: string[], b: string[]): boolean {
  return a.length === b.length && [...a].sort().join(',') === [...b].sort().join(',');
}

class DemoApp {
  private readonly sessions = new Map<string, { who: Who; created: number }>();
  private readonly tripped = new Set<string>();
  private stats: Stats = { since: new Date().toISOString(), counts: {} };
  readonly pending = new Set<() => void>();

  constructor(
    private readonly registry: Registry,
    private readonly origins: { main: string; portalB: string },
  ) {}

  private count(key: string, kind: string): void {
    const bucket = (this.stats.counts[key] ??= {});
    bucket[kind] = (bucket[kind] ?? 0) + 1;
  }

  private session(req: http.IncomingMessage): { token: string; who: Who } | undefined {
    const token = cookieOf(req, SESSION_COOKIE);
    const session = token ? this.sessions.get(token) : undefined;
    return token && session ? { token, who: session.who } : undefined;
  }

  /** Once-only faults (401 once, 500 once) trip once per key until POST /__demo/reset. */
  private tripOnce(key: string): boolean {
    if (this.tripped.has(key)) return false;
    this.tripped.add(key);
    return true;
  }

  async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://demo.invalid');
    const method = req.method === 'HEAD' ? 'GET' : req.method;
    const p = url.pathname;
    if (p === '/healthz') return json(res, 200, { ok: true });
    if (p === '/__demo/stats' && method === 'GET')
      return json(res, 200, { ...this.stats.counts, _since: this.stats.since });
    if (p === '/__demo/reset' && method === 'POST') {
      this.stats = { since: new Date().toISOString(), counts: {} };
      this.tripped.clear();
      return json(res, 200, { ok: true });
    }
    if (p === '/api/auth/login')
      return method === 'POST' ? this.login(req, res) : apiError(res, 405, '请使用 POST');
    if (p === '/api/auth/logout' && method === 'POST') return this.logout(req, res);
    if (method !== 'GET') return apiError(res, 405, `不支持的方法 ${req.method ?? ''}`);
    if (p === '/login') return html(res, 200, loginPage());
    if (p === '/assets/echarts.min.js') return this.asset(res, ECHARTS);
    if (p === '/assets/report.js') return this.asset(res, REPORT_JS);
    if (p === '/favicon.ico') return send(res, 204, 'image/x-icon', '');
    if (p === '/api/geo_label/project/batch') return this.batch(req, res, url);
    if (p === '/api/geo-monitor/metrics/l1') return this.metrics(req, res, url);
    const wordcloud = /^\/api\/geo-monitor\/projects\/([^/]+)\/wordcloud$/.exec(p);
    if (wordcloud) return this.wordcloud(req, res, url, decodeURIComponent(wordcloud[1] as string));
    if (p.startsWith('/api/')) return apiError(res, 404, `未知接口 ${p}`);
    if (p === '/') return this.page(req, res, url, undefined, 'index');
    const report = /^\/reports\/([^/]+)(\/|$)/.exec(p);
    if (report) return this.page(req, res, url, decodeURIComponent(report[1] as string), 'page');
    const platform = /^\/platform\/projects\/([^/]+)(\/|$)/.exec(p);
    if (platform) return this.page(req, res, url, decodeURIComponent(platform[1] as string), 'platform-page');
    if (p.startsWith('/platform/'))
      return this.page(req, res, url, url.searchParams.get('projectId') ?? undefined, 'platform-page');
    return html(res, 404, '<!doctype html><meta charset="utf-8"><title>404</title><p>页面不存在</p>');
  }

  private asset(res: http.ServerResponse, file: string): void {
    try {
      const body = fs.readFileSync(file);
      send(res, 200, 'text/javascript; charset=utf-8', body, { 'Cache-Control': 'public, max-age=3600' });
    } catch {
      send(res, 404, 'text/plain; charset=utf-8', 'not found');
    }
  }

  private async login(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    let body: unknown;
    try {
      body = JSON.parse(await readBody(req));
    } catch {
      return apiError(res, 400, '请求体应为 JSON：{"phone","password"}');
    }
    const { phone, password } = (body ?? {}) as { phone?: unknown; password?: unknown };
    if (typeof phone !== 'string' || typeof password !== 'string')
      return apiError(res, 400, '缺少 phone 或 password');
    const who = whoLogsIn(this.registry, phone, password);
    if (!who) {
      this.count('_auth', 'login-failed');
      return json(res, 401, { error: 'unauthorized', message: '手机号或密码错误' });
    }
    this.count('_auth', 'login');
    const token = crypto.randomBytes(24).toString('base64url');
    this.sessions.set(token, { who, created: Date.now() });
    json(
      res,
      200,
      { ok: true },
      { 'Set-Cookie': `${SESSION_COOKIE}=${token}; HttpOnly; Path=/; SameSite=Lax` },
    );
  }

  private logout(req: http.IncomingMessage, res: http.ServerResponse): void {
    const s = this.session(req);
    if (s) this.sessions.delete(s.token);
    json(
      res,
      200,
      { ok: true },
      { 'Set-Cookie': `${SESSION_COOKIE}=; HttpOnly; Path=/; SameSite=Lax; Max-Age=0` },
    );
  }

  private originOf(project: DemoProject): string {
    return project.host === 'portalB' ? this.origins.portalB : this.origins.main;
  }

  private page(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    url: URL,
    projectId: string | undefined,
    kind: 'index' | 'page' | 'platform-page',
  ): void {
    const project = projectId ? projectById(projectId) : undefined;
    if (project) this.count(project.spec.projectId, kind);
    const s = this.session(req);
    if (!s) {
      res.writeHead(302, {
        Location: `/login?next=${encodeURIComponent(url.pathname + url.search)}`,
        ...NO_STORE,
      });
      res.end();
      return;
    }
    if (kind === 'index') {
      const links = ALL_PROJECTS.filter((x) => mayRead(s.who, x.spec.companyId)).map((x) => ({
        label: x.label,
        htmlUrl: `${this.originOf(x)}${reportPath(x)}`,
        platformUrl: `${this.originOf(x)}${platformPath(x)}`,
        note: 'description' in x ? String(x.description) : '内置运行',
      }));
      return html(res, 200, indexPage(links));
    }
    if (!project)
      return html(res, 404, '<!doctype html><meta charset="utf-8"><title>404</title><p>项目不存在</p>');
    if (!mayRead(s.who, project.spec.companyId))
      return html(
        res,
        403,
        '<!doctype html><meta charset="utf-8"><title>403</title><p>无权访问该公司的报告</p>',
      );
    if (kind === 'platform-page')
      return html(res, 200, platformPage(project, `${this.originOf(project)}${reportPath(project)}`));
    const fault =
      project.fault?.kind === 'page-without-data'
        ? 'no-data'
        : project.fault?.kind === 'page-syntax-error'
          ? 'syntax-error'
          : undefined;
    html(res, 200, reportPage(project, viewsOf(project).data, fault));
  }

  private batch(req: http.IncomingMessage, res: http.ServerResponse, url: URL): void {
    const s = this.session(req);
    if (!s) return apiError(res, 401, '未登录或会话已过期');
    const companyId = Number(url.searchParams.get('companyId'));
    const reportType = url.searchParams.get('reportType');
    if (!url.searchParams.get('companyId') || !Number.isInteger(companyId))
      return apiError(res, 400, '参数 companyId 缺失或不是整数');
    if (reportType !== 'monitor' && reportType !== 'diagnosis')
      return apiError(res, 400, '参数 reportType 应为 monitor 或 diagnosis');
    const items = batchList(companyId, reportType);
    this.count(`company:${companyId}`, `batch:${reportType}`);
    for (const project of new Set(items.map((i) => String(i.project)))) this.count(project, 'batch');
    if (!mayRead(s.who, companyId)) return apiError(res, 403, `无权访问公司 ${companyId} 的批次`);
    json(res, 200, wrap(BATCH_ENVELOPE[companyId] ?? 'bare', items));
  }

  private async metrics(req: http.IncomingMessage, res: http.ServerResponse, url: URL): Promise<void> {
    const q = url.searchParams;
    const table = q.get('table') as MetricsTable | null;
    const platform = q.get('platform');
    const project = projectById(q.get('projectId') ?? '');
    if (project && table && TABLES.includes(table))
      this.count(project.spec.projectId, table === 'source' ? `source:${platform ?? ''}` : table);
    const s = this.session(req);
    if (!s) return apiError(res, 401, '未登录或会话已过期');
    if (!table || !TABLES.includes(table))
      return apiError(res, 400, '参数 table 应为 snapshot、competitor、tmc 或 source');
    const batchIds = (q.get('batchIds') ?? '')
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean);
    if (batchIds.length === 0) return apiError(res, 400, '缺少参数 batchIds');
    if (!q.get('projectId')) return apiError(res, 400, '缺少参数 projectId');
    const reportType = q.get('reportType');
    if (reportType !== 'monitor' && reportType !== 'diagnosis')
      return apiError(res, 400, '参数 reportType 应为 monitor 或 diagnosis');
    if (table === 'source' && (!platform || !['all', ...PLATFORM_KEYS].includes(platform))) {
      return apiError(res, 400, `table=source 需要参数 platform（all 或 ${PLATFORM_KEYS.join('、')}）`);
    }
    if (!project) return apiError(res, 404, `项目 ${q.get('projectId') ?? ''} 不存在`);
    if (!mayRead(s.who, project.spec.companyId))
      return apiError(res, 403, `无权访问项目 ${project.spec.projectId}`);
    if (!(await this.metricsFault(res, project, table, s.token))) return;
    const rows = this.rows(project, table, batchIds, reportType, platform ?? 'all');
    const fault = project.fault;
    let payload: unknown = { rows };
    if (fault && 'table' in fault && fault.table === table) {
      if (fault.kind === 'rows-missing') payload = { total: rows.length, list: rows };
      if (fault.kind === 'rows-empty') payload = { rows: [] };
      if (fault.kind === 'rows-wrong-type')
        payload = {
          rows: (rows as SourceRowInput[]).map((r) => ({ ...r, cite_count: String(r.cite_count) })),
        };
    }
    json(res, 200, wrap(project.spec.envelope, payload));
  }

  /** Contract 4 errors; false when the fault answered the request. */
  private async metricsFault(
    res: http.ServerResponse,
    project: DemoProject,
    table: MetricsTable,
    token: string,
  ): Promise<boolean> {
    const fault = project.fault;
    const id = project.spec.projectId;
    if (!fault) return true;
    if (fault.kind === 'expire-session-once' && this.tripOnce(`${id}:expire`)) {
      this.sessions.delete(token);
      apiError(res, 401, '会话已过期，请重新登录');
      return false;
    }
    if (fault.kind === 'status' && (!fault.table || fault.table === table)) {
      if (!fault.once || this.tripOnce(`${id}:${fault.status}:${table}`)) {
        apiError(res, fault.status, `演示故障：HTTP ${fault.status}`);
        return false;
      }
    }
    if (fault.kind === 'slow' && fault.table === table) {
      const ms = Number(process.env.L1_DEMO_SLOW_MS ?? 8000);
      if (!(await sleepUnlessClosed(Number.isFinite(ms) && ms >= 0 ? ms : 8000, res, this.pending)))
        return false;
    }
    if (fault.kind === 'html-error-page' && fault.table === table) {
      html(res, 200, gatewayErrorPage());
      return false;
    }
    if (fault.kind === 'wrapped-error' && fault.table === table) {
      json(res, 200, { code: fault.code, msg: fault.message, data: null });
      return false;
    }
    return true;
  }

  /** Rows for the project's own batch ids (order-insensitive); unknown ids → no rows (contract 4). */
  private rows(
    project: DemoProject,
    table: MetricsTable,
    batchIds: string[],
    reportType: string,
    platform: string,
  ): unknown[] {
    const views = viewsOf(project).platform;
    const authoritative =
      project.fault?.kind === 'authoritative-id' &&
      table === 'snapshot' &&
      sameIds(batchIds, [builtDiagnosisId(project)]);
    if (reportType !== project.spec.reportType) return [];
    if (!authoritative && !sameIds(batchIds, project.spec.batchIds)) return [];
    if (table === 'snapshot') return views.snapshot;
    if (table === 'competitor') return views.competitor;
    if (table === 'tmc') return views.tmc;
    return views.source[platform] ?? [];
  }

  private wordcloud(req: http.IncomingMessage, res: http.ServerResponse, url: URL, projectId: string): void {
    const project = projectById(projectId);
    if (project) this.count(project.spec.projectId, 'wordcloud');
    const s = this.session(req);
    if (!s) return apiError(res, 401, '未登录或会话已过期');
    const batchId = url.searchParams.get('batchId');
    if (!batchId) return apiError(res, 400, '缺少参数 batchId');
    if (url.searchParams.get('sentiment') !== 'all') return apiError(res, 400, '参数 sentiment 应为 all');
    if (!project) return apiError(res, 404, `项目 ${projectId} 不存在`);
    if (!mayRead(s.who, project.spec.companyId)) return apiError(res, 403, `无权访问项目 ${projectId}`);
    const payload =
      batchId === project.spec.batchIds[0]
        ? viewsOf(project).platform.wordcloud
        : { words: [], positive: [], negative: [] };
    json(res, 200, wrap(project.spec.envelope, payload));
  }
}

async function listenPair(
  app: DemoApp,
  host: string,
  wanted: number,
): Promise<{ main: http.Server; portalB: http.Server; port: number }> {
  const handler = (req: http.IncomingMessage, res: http.ServerResponse) => {
    app.handle(req, res).catch((e: unknown) => {
      process.stderr.write(
        `demo: internal error on ${req.method ?? ''} ${(req.url ?? '').split('?')[0] ?? ''}: ${e instanceof Error ? e.message : String(e)}\n`,
      );
      if (!res.headersSent) apiError(res, 500, '演示服务器内部错误');
      else res.end();
    });
  };
  for (let attempt = 0; attempt < 20; attempt++) {
    const main = http.createServer(handler);
    const portalB = http.createServer(handler);
    const port = await listen(main, wanted, host);
    try {
      await listen(portalB, port + 1, host);
      return { main, portalB, port };
    } catch (e) {
      await closeServer(main);
      if (wanted !== 0)
        throw new Error(`demo: port ${port + 1} (Profile B portal, port + 1) is in use`, { cause: e });
    }
  }
  throw new Error('demo: found no free pair of ports (port, port + 1)');
}

/** Starts the demo platform on loopback: main origin on `port`, Profile B portal on `port + 1`. */
export async function startDemo(opts: DemoOptions = {}): Promise<DemoServer> {
  const host = opts.host ?? '127.0.0.1';
  if (!isLoopback(host)) throw new Error(`demo: refusing to listen on ${host}: loopback only (127.0.0.1)`);
  const wanted = opts.port ?? Number(process.env.L1_DEMO_PORT || DEMO_DEFAULT_PORT);
  if (!Number.isInteger(wanted) || wanted < 0 || wanted > 65534)
    throw new Error(`demo: invalid port ${String(opts.port ?? process.env.L1_DEMO_PORT)}`);
  const registry = makeRegistry();
  const origins = { main: '', portalB: '' };
  const app = new DemoApp(registry, origins);
  const { main, portalB, port } = await listenPair(app, host, wanted);
  const urlHost = host.includes(':') ? `[${host}]` : host;
  origins.main = `http://${urlHost}:${port}`;
  origins.portalB = `http://${urlHost}:${port + 1}`;
  const credentialsFile = opts.credentialsFile ?? demoCredentialsFile(port);
  const written = writeRegistry(credentialsFile, registry);
  const portalBHost = `${urlHost}:${port + 1}`;
  const demo: DemoServer = {
    host,
    port,
    origin: origins.main,
    portalBOrigin: origins.portalB,
    portalBHost,
    loginUrl: `${origins.main}/login`,
    credentialsFile,
    runs: demoRuns(origins.main, origins.portalB),
    scenarioRuns: scenarioRuns(origins.main, origins.portalB),
    profileB: demoProfileB(portalBHost),
    close: async () => {
      for (const cancel of [...app.pending]) cancel();
      await Promise.all([closeServer(main), closeServer(portalB)]);
      // Remove the registry only if it is still ours (another demo may have replaced it).
      try {
        if (fs.readFileSync(credentialsFile, 'utf8') === written) fs.rmSync(credentialsFile);
      } catch {
        // already gone
      }
    },
  };
  if (!opts.quiet) printBanner(demo);
  return demo;
}

function printBanner(demo: DemoServer): void {
  const lines = [
    'L1 demo platform (loopback only)',
    `  main origin        ${demo.origin}`,
    `  Profile B portal   ${demo.portalBOrigin}   (L1_PROFILE_B_HOST=${demo.profileB.host})`,
    `  login page         ${demo.loginUrl}`,
    `  credentials file   ${demo.credentialsFile}   (0600; random at each start; never printed)`,
    `  Profile B          group ${demo.profileB.groupName}, companyId ${demo.profileB.companyId}, brand code ${demo.profileB.brandCode}`,
    `  request counts     GET ${demo.origin}/__demo/stats · POST ${demo.origin}/__demo/reset`,
    '  bundled runs:',
    ...demo.runs.flatMap((r) => [
      `    ${r.label ?? ''}`,
      `      html      ${r.htmlUrl}`,
      `      platform  ${r.platformUrl}`,
    ]),
    `  ${Object.keys(demo.scenarioRuns).length} scenario runs: see demo/README.md`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

if (require.main === module) {
  startDemo()
    .then((demo) => {
      let stopping = false;
      const stop = (signal: string) => {
        if (stopping) return;
        stopping = true;
        process.stdout.write(`demo: ${signal}, shutting down\n`);
        demo.close().then(
          () => process.exit(0),
          () => process.exit(1),
        );
      };
      process.once('SIGINT', () => stop('SIGINT'));
      process.once('SIGTERM', () => stop('SIGTERM'));
    })
    .catch((e: unknown) => {
      process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
      process.exit(1);
    });
}
