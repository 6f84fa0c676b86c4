import fs from 'node:fs';
import type http from 'node:http';
import type { AppContext } from './app';
import { SESSION_COOKIE } from './app';
import { ALL_PROJECTS, projectById, viewsOf } from './catalog';
import { modelAnswers } from './model/projects';
import { mayRead, whoLogsIn } from './credentials';
import { dateOfUrl } from './dates';
import { hostilePage, hostilePageOptions, loginPathOf } from './hostile';
import { sleepSlow } from './faults';
import { apiError, html, json, readBody, redirect, send } from './http';
import { indexPage, platformPage, reportPage } from './pages';
import { platformPath, reportPath, type DemoProject } from './runs';

/** Contract 3 login and the pages: report (docs/contract.md §5), platform page, index, static assets. */

export function asset(res: http.ServerResponse, file: string): void {
  try {
    const body = fs.readFileSync(file);
    send(res, 200, 'text/javascript; charset=utf-8', body, { 'Cache-Control': 'public, max-age=3600' });
  } catch {
    send(res, 404, 'text/plain; charset=utf-8', 'not found');
  }
}

export async function login(ctx: AppContext, req: http.IncomingMessage, res: http.ServerResponse) {
  let body: unknown;
  try {
    body = JSON.parse(await readBody(req));
  } catch {
    return apiError(res, 400, '请求体应为 JSON：{"phone","password"}');
  }
  const { phone, password } = (body ?? {}) as { phone?: unknown; password?: unknown };
  if (typeof phone !== 'string' || typeof password !== 'string')
    return apiError(res, 400, '缺少 phone 或 password');
  const who = whoLogsIn(ctx.registry, phone, password);
  if (!who) {
    ctx.stats.count('_auth', 'login-failed');
    return json(res, 401, { error: 'unauthorized', message: '手机号或密码错误' });
  }
  ctx.stats.count('_auth', 'login');
  const token = ctx.newSession(who);
  json(
    res,
    200,
    { ok: true },
    { 'Set-Cookie': `${SESSION_COOKIE}=${token}; HttpOnly; Path=/; SameSite=Lax` },
  );
}

export function logout(ctx: AppContext, req: http.IncomingMessage, res: http.ServerResponse): void {
  const s = ctx.session(req);
  if (s) ctx.endSession(s.token);
  json(
    res,
    200,
    { ok: true },
    { 'Set-Cookie': `${SESSION_COOKIE}=; HttpOnly; Path=/; SameSite=Lax; Max-Age=0` },
  );
}

export function originOf(ctx: AppContext, project: DemoProject): string {
  return project.host === 'portalB' ? ctx.origins.portalB : ctx.origins.main;
}

const page403 = '<!doctype html><meta charset="utf-8"><title>403</title><p>无权访问该公司的报告</p>';
const page404 = '<!doctype html><meta charset="utf-8"><title>404</title><p>项目不存在</p>';

export async function page(
  ctx: AppContext,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  url: URL,
  projectId: string | undefined,
  kind: 'index' | 'page' | 'platform-page',
): Promise<void> {
  const project = projectId
    ? projectById(projectId, kind === 'page' ? dateOfUrl(url) : undefined)
    : undefined;
  if (project) ctx.stats.count(project.spec.projectId, kind);
  const s = ctx.session(req);
  if (!s)
    return redirect(res, `${loginPathOf(project)}?next=${encodeURIComponent(url.pathname + url.search)}`);
  if (kind === 'index') {
    const links = ALL_PROJECTS.filter((x) => mayRead(s.who, x.spec.companyId)).map((x) => ({
      label: x.label,
      htmlUrl: `${originOf(ctx, x)}${reportPath(x)}`,
      platformUrl: `${originOf(ctx, x)}${platformPath(x)}`,
      note: x.description ?? '内置运行',
    }));
    return html(res, 200, indexPage(links));
  }
  if (!project) return html(res, 404, page404);
  if (!mayRead(s.who, project.spec.companyId)) return html(res, 403, page403);
  if (kind === 'platform-page')
    return html(res, 200, platformPage(project, `${originOf(ctx, project)}${reportPath(project)}`));
  if (project.hostile && hostilePage(ctx, res, url, project)) return;
  const fault =
    project.fault?.kind === 'page-without-data'
      ? 'no-data'
      : project.fault?.kind === 'page-syntax-error'
        ? 'syntax-error'
        : undefined;
  // Light pages (DATA only, no chart scripts): L1_DEMO_CHARTS=0 or ?charts=0 (self-tests, the bench);
  // ?charts=1 draws the charts whatever L1_DEMO_CHARTS says (a self-test that asserts pictures).
  const charts = url.searchParams.get('charts');
  // A page that is still loading when a stop comes (the signals self-tests): `?slow=1` sleeps
  // L1_DEMO_SLOW_MS before the page is sent, as the `slow` fault does for a table.
  if (url.searchParams.get('slow') === '1' && !(await sleepSlow(ctx, res))) return;
  const light = charts === '0' || (process.env.L1_DEMO_CHARTS === '0' && charts !== '1');
  const data = project.model ? modelAnswers(project).data : viewsOf(project).data;
  html(res, 200, reportPage(project, data, fault, { ...hostilePageOptions(project), light }));
}
