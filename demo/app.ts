import crypto from 'node:crypto';
import type http from 'node:http';
import path from 'node:path';
import type { Registry, Who } from './credentials';
import { batch, metrics, wordcloud } from './handlers-api';
import { asset, login, logout, page } from './handlers-pages';
import { HOSTILE_LOGIN_BASE, hang, movedLogin } from './hostile';
import { apiError, cookieOf, html, json, send } from './http';
import { loginPage } from './pages';
import { CHECKOUT_ID } from './runs';
import { Stats } from './stats';

/**
 * The demo platform's app: sessions, once-only faults, counters and the route table. Handlers live in
 * handlers-pages.ts (login, pages), handlers-api.ts (docs/contract.md §4 endpoints), faults.ts and hostile.ts.
 */

export const SESSION_COOKIE = 'l1_session';
const ROOT = path.resolve(__dirname, '..');
const ECHARTS = path.join(ROOT, 'node_modules', 'echarts', 'dist', 'echarts.min.js');
const REPORT_JS = path.join(__dirname, 'assets', 'report.js');

export interface Origins {
  main: string;
  portalB: string;
  /** Port + 2: the "foreign" origin a hostile login page moves to (README.md § Security and limits). */
  foreign: string;
}

/** What a handler may use of the app. */
export interface AppContext {
  readonly registry: Registry;
  /** The job that started this demo in its own process, when one did (`startDemo`'s `startedBy`). */
  readonly startedBy?: number;
  readonly origins: Origins;
  readonly stats: Stats;
  /** Cancels of requests that wait (slow answers, streams): called on close. */
  readonly pending: Set<() => void>;
  /** Ends of the slow answers' sleeps: each called answers at once (`DemoServer.releaseSlow`). */
  readonly slow: Set<() => void>;
  session(req: http.IncomingMessage): { token: string; who: Who } | undefined;
  newSession(who: Who): string;
  endSession(token: string): void;
  /** Once-only faults (401 once, 500 once) trip once per key until POST /__demo/reset. */
  tripOnce(key: string): boolean;
  /** Re-arms the once-only faults (POST /__demo/reset). */
  clearTrips(): void;
}

type Handler = (
  ctx: AppContext,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  url: URL,
  match: RegExpExecArray,
) => void | Promise<void>;

interface Route {
  method: 'GET' | 'POST' | 'ANY';
  path: RegExp;
  run: Handler;
}

const id = (m: RegExpExecArray) => decodeURIComponent(m[1] ?? '');
const notFoundPage = '<!doctype html><meta charset="utf-8"><title>404</title><p>页面不存在</p>';

/** First match wins; a path matched under another method answers 405. */
const ROUTES: readonly Route[] = [
  { method: 'ANY', path: /^\/healthz$/, run: (c, _q, res, url) => health(c, res, url) },
  { method: 'GET', path: /^\/__demo\/stats$/, run: (c, _q, res) => json(res, 200, c.stats.snapshot()) },
  { method: 'POST', path: /^\/__demo\/reset$/, run: (c, _q, res) => resetDemo(c, res) },
  { method: 'POST', path: /^\/api\/auth\/login$/, run: (c, req, res) => login(c, req, res) },
  { method: 'POST', path: /^\/api\/auth\/logout$/, run: (c, req, res) => logout(c, req, res) },
  { method: 'GET', path: /^\/login$/, run: (_c, _q, res) => html(res, 200, loginPage()) },
  { method: 'GET', path: /^\/assets\/echarts\.min\.js$/, run: (_c, _q, res) => asset(res, ECHARTS) },
  { method: 'GET', path: /^\/assets\/report\.js$/, run: (_c, _q, res) => asset(res, REPORT_JS) },
  { method: 'GET', path: /^\/favicon\.ico$/, run: (_c, _q, res) => send(res, 204, 'image/x-icon', '') },
  { method: 'GET', path: /^\/api\/geo_label\/project\/batch$/, run: batch },
  { method: 'GET', path: /^\/api\/geo-monitor\/metrics\/l1$/, run: metrics },
  {
    method: 'GET',
    path: /^\/api\/geo-monitor\/projects\/([^/]+)\/wordcloud$/,
    run: (c, req, res, url, m) => wordcloud(c, req, res, url, id(m)),
  },
  {
    method: 'GET',
    path: /^\/api\//,
    run: (_c, _q, res, url) => apiError(res, 404, `未知接口 ${url.pathname}`),
  },
  { method: 'GET', path: /^\/$/, run: (c, req, res, url) => page(c, req, res, url, undefined, 'index') },
  {
    method: 'GET',
    path: /^\/reports\/([^/]+)(?:\/|$)/,
    run: (c, req, res, url, m) => page(c, req, res, url, id(m), 'page'),
  },
  {
    method: 'GET',
    path: /^\/platform\/projects\/([^/]+)(?:\/|$)/,
    run: (c, req, res, url, m) => page(c, req, res, url, id(m), 'platform-page'),
  },
  {
    method: 'GET',
    path: /^\/platform\//,
    run: (c, req, res, url) =>
      page(c, req, res, url, url.searchParams.get('projectId') ?? undefined, 'platform-page'),
  },
  { method: 'GET', path: /^\/hostile\/hang$/, run: hang },
];

const DEMO_STARTED_AT = new Date().toISOString();

/**
 * Who this demo is; 409 when `?checkout=` names another checkout (demo/runs.ts CHECKOUT_ID). It
 * says which checkout it is, and which invocation started it (`startedBy`: the process of the
 * Playwright runner whose webServer it is, or of the job that runs it in its own process, `npm run
 * demo -- --scenario`, either of which stops it when it ends; null when started on its own, `npm run
 * demo:server`): another invocation must not borrow a demo that goes away under it.
 */
function health(ctx: AppContext, res: http.ServerResponse, url: URL): void {
  const asked = url.searchParams.get('checkout');
  const ours = asked === null || asked === CHECKOUT_ID;
  // A job that runs the demo in its own process (`npm run demo -- --scenario`) stops it as it ends
  // too: said like a runner's, or a second invocation borrowed it and lost it half-way.
  const startedBy = ctx.startedBy ?? Number(process.env.L1_DEMO_STARTED_BY);
  json(res, ours ? 200 : 409, {
    ok: ours,
    app: 'l1-verify demo',
    checkout: CHECKOUT_ID,
    startedBy: Number.isInteger(startedBy) && startedBy > 0 ? startedBy : null,
    // When the demo began: its runner started before; a process with the pid since is not it.
    startedAt: DEMO_STARTED_AT,
  });
}

function resetDemo(ctx: AppContext, res: http.ServerResponse): void {
  ctx.stats.reset();
  ctx.clearTrips();
  json(res, 200, { ok: true });
}

export class DemoApp implements AppContext {
  private readonly sessions = new Map<string, { who: Who; created: number }>();
  private readonly tripped = new Set<string>();
  readonly stats = new Stats();
  readonly pending = new Set<() => void>();
  readonly slow = new Set<() => void>();

  constructor(
    readonly registry: Registry,
    readonly origins: Origins,
    /** The job that started this demo in its own process (DemoOptions.startedBy), if any. */
    readonly startedBy?: number,
  ) {}

  session(req: http.IncomingMessage): { token: string; who: Who } | undefined {
    const token = cookieOf(req, SESSION_COOKIE);
    const session = token ? this.sessions.get(token) : undefined;
    return token && session ? { token, who: session.who } : undefined;
  }

  newSession(who: Who): string {
    const token = crypto.randomBytes(24).toString('base64url');
    this.sessions.set(token, { who, created: Date.now() });
    return token;
  }

  endSession(token: string): void {
    this.sessions.delete(token);
  }

  tripOnce(key: string): boolean {
    if (this.tripped.has(key)) return false;
    this.tripped.add(key);
    return true;
  }

  clearTrips(): void {
    this.tripped.clear();
  }

  async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://demo.invalid');
    // The hostile base URL (README.md § Security and limits): its /login moved to another origin; the rest is the normal app.
    if (url.pathname === HOSTILE_LOGIN_BASE || url.pathname.startsWith(`${HOSTILE_LOGIN_BASE}/`)) {
      url.pathname = url.pathname.slice(HOSTILE_LOGIN_BASE.length) || '/';
      if (url.pathname === '/login') return movedLogin(this, res, url);
    }
    const method = req.method === 'HEAD' ? 'GET' : (req.method ?? 'GET');
    let wrongMethod = false;
    for (const route of ROUTES) {
      const match = route.path.exec(url.pathname);
      if (!match) continue;
      if (route.method !== 'ANY' && route.method !== method) {
        wrongMethod = true;
        continue;
      }
      return route.run(this, req, res, url, match);
    }
    if (wrongMethod || method !== 'GET')
      return apiError(res, 405, method === 'GET' ? '请使用 POST' : `不支持的方法 ${req.method ?? ''}`);
    html(res, 404, notFoundPage);
  }
}
