import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from '@playwright/test';
import { expect, test } from './test-type';
import { A_MONITOR } from '../../demo/runs';
import { collectRun } from '../../lib/platform/collect';
import { chromiumLaunchOptions } from '../../lib/run/browser';
import { newBoxedContext } from '../../pages/box';
import { ReportPage, ReportPageError, SessionExpired } from '../../pages/ReportPage';
import { batchItem, configuredRun, fakeDeps, platformFor, viewsOf } from './fakes/platform';

/**
 * docs/contract.md §3: "only when that page redirects to its own `/login` **and** its origin is
 * trusted does the suite log in there. Otherwise the run is an error naming the origin". A report
 * page (origin X, a local server) that redirects to the /login of another origin (Y: another port
 * of the same host) is where the page landed, an error: no new login, no second load that would
 * send a fresh session towards Y. Its own /login is still an expired session: one new login.
 */

let browser: Browser;
let report: http.Server;
let other: http.Server;
let x: string;
let y: string;
/** Requests each server was asked, by path. */
const asked: { x: string[]; y: string[] } = { x: [], y: [] };

const LOGIN =
  '<html><body><form><input name="phone"><input name="password"><button type="submit">in</button></form></body></html>';

async function listen(server: http.Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

test.beforeAll(async () => {
  report = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    asked.x.push(path);
    const next = encodeURIComponent(`${x}${req.url ?? '/'}`);
    if (path === '/foreign.html') return res.writeHead(302, { location: `${y}/login?next=${next}` }).end();
    if (path === '/own.html') return res.writeHead(302, { location: `/login?next=${next}` }).end();
    if (path === '/login') return res.writeHead(200, { 'content-type': 'text/html' }).end(LOGIN);
    res.writeHead(404).end();
  });
  other = http.createServer((req, res) => {
    asked.y.push(new URL(req.url ?? '/', 'http://y').pathname);
    res.writeHead(200, { 'content-type': 'text/html' }).end(LOGIN);
  });
  x = await listen(report);
  y = await listen(other);
  browser = await chromium.launch(chromiumLaunchOptions());
});

test.beforeEach(() => {
  asked.x = [];
  asked.y = [];
});

test.afterAll(async () => {
  await browser?.close();
  for (const server of [report, other]) {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  }
});

/** Reads the report at `path` of X in a boxed context as the collector does (only X allowed); throws what it threw. */
async function readPage(path: string): Promise<{ data: unknown; notes: string[] }> {
  const { context } = await newBoxedContext(browser, [x]);
  try {
    const read = await new ReportPage(await context.newPage()).readData(`${x}${path}`, {
      timeoutMs: 5_000,
      maxBytes: 1 << 20,
    });
    return { ...read, notes: [] };
  } finally {
    await context.close();
  }
}

async function errorOf(path: string): Promise<unknown> {
  return readPage(path).then(
    () => undefined,
    (e: unknown) => e,
  );
}

test('a redirect to another origin’s /login (another port of the host) is where the page landed, not an expired session', async () => {
  const error = await errorOf('/foreign.html');
  expect(error).not.toBeInstanceOf(SessionExpired);
  expect(error).toBeInstanceOf(ReportPageError);
  expect((error as Error).message).toBe(
    `the page landed on ${y}/login, not on the report that was asked for (${x}/foreign.html): the login page of another origin, where the suite does not log in (docs/contract.md §3)`,
  );
});

test('a redirect to the page’s own /login is an expired session', async () => {
  expect(await errorOf('/own.html')).toBeInstanceOf(SessionExpired);
});

/** collectRun (lib/platform/collect.ts) with a trusted report origin, its page read for real. */
async function collectWith(path: string) {
  const { data, view } = viewsOf(A_MONITOR);
  const ids = [...A_MONITOR.spec.batchIds].reverse();
  const platform = platformFor(A_MONITOR, view, ids, [batchItem(A_MONITOR, ids)]);
  const fakes = fakeDeps(platform, data);
  const evidence = await collectRun(configuredRun(A_MONITOR), {
    ...fakes.deps,
    readPage: () => readPage(path),
  });
  return { evidence, forced: fakes.sessions.filter((s) => s.force).length };
}

test('through the collector: a foreign /login is an error naming its origin, with no new login and no second load', async () => {
  test.setTimeout(20_000);
  const { evidence, forced } = await collectWith('/foreign.html');
  expect(evidence.status).toBe('error');
  expect(evidence.reason).toContain(`the page landed on ${y}/login`);
  expect(evidence.reason).not.toContain('redirected to /login');
  expect(forced).toBe(0);
  expect(evidence.pageLoads).toBe(1);
  expect(asked.x).toEqual(['/foreign.html']);
  // The redirect hop (past the box's route) is refused by its fence (pages/fence.ts): Y never sees it.
  expect(asked.y).toEqual([]);
});

test('through the collector: the page’s own /login logs in again once and loads the page again', async () => {
  test.setTimeout(20_000);
  const { evidence, forced } = await collectWith('/own.html');
  expect(evidence.status).toBe('error');
  expect(evidence.reason).toContain('redirected to /login even after logging in again');
  expect(forced).toBe(1);
  expect(evidence.pageLoads).toBe(2);
  expect(asked.y).toEqual([]);
});
