import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import { chromium, type Browser } from '@playwright/test';
import { expect, test } from './test-type';
import { chromiumLaunchOptions } from '../../lib/run/browser';
import { newBoxedContext } from '../../pages/box';
import { ReportPage } from '../../pages/ReportPage';
import { openFence } from '../../pages/fence';
import { closeLocal, listenLocal, sessionCookie } from './fakes/local';

/**
 * The box's fence (pages/fence.ts) where a real platform lives: HTTPS, which reaches the fence as a
 * `CONNECT host:port` tunnel. The certificate in fakes/tls is a self-signed one for 127.0.0.1 made
 * for these tests alone (`openssl req -x509 -newkey ec … -subj /CN=127.0.0.1`), so the context
 * is told to accept it.
 */
const TLS = {
  key: fs.readFileSync(path.join(__dirname, 'fakes', 'tls', 'key.pem')),
  cert: fs.readFileSync(path.join(__dirname, 'fakes', 'tls', 'cert.pem')),
};

interface Site {
  origin: string;
  hits: string[];
  server: https.Server;
}

async function site(
  answer: (req: http.IncomingMessage, res: http.ServerResponse, origin: string) => void,
): Promise<Site> {
  const s = { hits: [] as string[] } as Site;
  s.server = https.createServer(TLS, (req, res) => {
    s.hits.push(`${req.url} cookie=${req.headers.cookie ? 'yes' : 'no'}`);
    answer(req, res, s.origin);
  });
  s.origin = await listenLocal(s.server, 'https');
  return s;
}

let browser: Browser;
let report: Site;
let other: Site;

test.beforeAll(async () => {
  other = await site((_req, res) => res.end('x'));
  report = await site((req, res, origin) => {
    if (req.url === '/r.html')
      return res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(
          `<img src="/hop.gif"><script>fetch('${origin}/ok').then(() => (document.title = 'ran'))</script>`,
        );
    if (req.url === '/hop.gif') return res.writeHead(302, { location: `${other.origin}/stolen` }).end();
    res.end('ok');
  });
  browser = await chromium.launch(chromiumLaunchOptions());
});

test.afterAll(async () => {
  await browser?.close();
  for (const s of [report, other]) {
    s?.server.closeAllConnections();
    await new Promise((resolve) => s?.server.close(resolve));
  }
});

test('an HTTPS report page loads through the fence’s tunnel; a hop to another HTTPS port is refused and named', async () => {
  const { context, box } = await newBoxedContext(browser, [report.origin], {
    ignoreHTTPSErrors: true,
    storageState: sessionCookie(true),
  });
  try {
    const page = await context.newPage();
    await page.goto(`${report.origin}/r.html`);
    await expect(page).toHaveTitle('ran');
    await expect.poll(() => box.blocked().get(other.origin)).toBe(1);
    expect([...report.hits].sort()).toEqual(['/hop.gif cookie=yes', '/ok cookie=yes', '/r.html cookie=yes']);
    expect(other.hits).toEqual([]);
    expect([...box.blocked()]).toEqual([[other.origin, 1]]);
  } finally {
    await context.close();
  }
});

test('the fence alone: a tunnel only to a host and port of its origins, plain requests only to its origins, nothing malformed', async () => {
  const plain = http.createServer((_req, res) => res.end('plain'));
  const plainOrigin = await listenLocal(plain);
  const fence = await openFence([report.origin, plainOrigin, 'not an origin']);
  const { port } = new URL(fence.server);
  /** What the fence answers a raw request line (its status line). */
  const ask = (head: string) =>
    new Promise<string>((resolve) => {
      const req = http.request({
        host: '127.0.0.1',
        port,
        method: head.split(' ')[0],
        path: head.split(' ')[1],
      });
      req.on('connect', (res, socket) => {
        socket.destroy();
        resolve(String(res.statusCode));
      });
      req.on('response', (res) => {
        res.resume();
        resolve(String(res.statusCode));
      });
      req.on('error', (e) => resolve(e.message));
      req.end();
    });
  try {
    const reportPort = new URL(report.origin).port;
    expect(await ask(`CONNECT 127.0.0.1:${reportPort}`)).toBe('200');
    expect(await ask(`CONNECT ${new URL(other.origin).host}`)).toBe('403');
    expect(await ask('CONNECT localhost:' + reportPort)).toBe('403'); // another name is another host
    expect(await ask('CONNECT 127.0.0.1')).toBe('403'); // no port
    expect(await ask(`GET ${plainOrigin}/x`)).toBe('200');
    expect(await ask(`GET ${plainOrigin.replace(/\d+$/, '9')}/x`)).toBe('403');
    expect(await ask('GET /relative')).toBe('400');
    expect([...fence.refused]).toEqual([
      [other.origin, 1],
      [`https://localhost:${reportPort}`, 1],
      ['null', 1],
      ['http://127.0.0.1:9', 1],
    ]);
  } finally {
    await fence.close();
    await closeLocal(plain);
  }
});

test('a report host that does not answer is said as before the fence: the page did not load, and why', async () => {
  const down = http.createServer();
  const origin = await listenLocal(down);
  await closeLocal(down); // nothing listens there now
  const { context } = await newBoxedContext(browser, [origin]);
  try {
    const reading = new ReportPage(await context.newPage()).readData(`${origin}/r.html`, {
      timeoutMs: 5_000,
      maxBytes: 1 << 20,
    });
    await expect(reading).rejects.toThrow('report page did not load (ECONNREFUSED): its host did not answer');
  } finally {
    await context.close();
  }
});

/**
 * What Chromium alone reads, the fence passes on (audit of the fence, 2026-11-26): each of these
 * loaded without it and failed through it, one of them by ending the worker.
 */
test.describe('the fence passes on what Chromium alone reads', () => {
  const page =
    '<html><body><img src="/odd.png"><script>window.DATA = { meta: { line: "A" } };</script></body></html>';

  /** Reads DATA of `url` in a boxed context of `origin` (with `options`), or the error it gave. */
  async function read(origin: string, url: string, options = {}): Promise<unknown> {
    const { context } = await newBoxedContext(browser, [origin], options);
    try {
      return (
        await new ReportPage(await context.newPage()).readData(url, { timeoutMs: 5_000, maxBytes: 1 << 20 })
      ).data;
    } catch (e) {
      return e;
    } finally {
      await context.close();
    }
  }

  test('an image answered with a status line Node will not write (099): the page is read, the worker lives', async () => {
    // A raw server: Node's own cannot send a status below 100.
    const raw = net.createServer((socket) => {
      socket.on('error', () => socket.destroy());
      socket.once('data', (head) => {
        const odd = head.toString('latin1').startsWith('GET /odd.png');
        const body = odd ? 'x' : page;
        socket.end(
          `HTTP/1.1 ${odd ? '099 Odd' : '200 OK'}\r\nContent-Type: text/html\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
        );
      });
    });
    const origin = await listenLocal(raw as unknown as http.Server);
    try {
      expect(await read(origin, `${origin}/r.html`)).toEqual({ meta: { line: 'A' } });
    } finally {
      await new Promise((resolve) => raw.close(resolve));
    }
  });

  test('an answer with 20 KB of Set-Cookie headers, and a session of 19 KB of cookies, are passed on (Node stops at 16 KB)', async () => {
    const cookies: string[] = [];
    // The report's own server takes what Chromium sends (Node's own limit is 16 KB).
    const server = http.createServer({ maxHeaderSize: 64 * 1024 }, (req, res) => {
      cookies.push(req.headers.cookie ?? '');
      res.writeHead(200, {
        'content-type': 'text/html',
        'set-cookie': Array.from({ length: 40 }, (_, i) => `c${i}=${'v'.repeat(500)}`),
      });
      res.end(page.replace('<img src="/odd.png">', ''));
    });
    const origin = await listenLocal(server);
    const big = Array.from({ length: 5 }, (_, i) => ({
      ...sessionCookie().cookies[0]!,
      name: `big${i}`,
      value: 'b'.repeat(3_800),
    }));
    try {
      const data = await read(origin, `${origin}/r.html`, { storageState: { cookies: big, origins: [] } });
      expect(data).toEqual({ meta: { line: 'A' } });
      expect(cookies[0]!.length).toBeGreaterThan(19_000);
    } finally {
      await closeLocal(server);
    }
  });

  test('a report on an IPv6 origin ([::1]) is read', async () => {
    const server = http.createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/html' }).end(page.replace('<img src="/odd.png">', '')),
    );
    await new Promise<void>((resolve) => server.listen(0, '::1', resolve));
    const origin = `http://[::1]:${(server.address() as AddressInfo).port}`;
    try {
      expect(await read(origin, `${origin}/r.html`)).toEqual({ meta: { line: 'A' } });
    } finally {
      await closeLocal(server);
    }
  });
});

test('the fence alone: a WebSocket asked as an absolute URL (an upgrade) is passed on to its origin, byte for byte; elsewhere refused', async () => {
  const heads: string[] = [];
  const plain = http.createServer();
  plain.on('upgrade', (req, socket) => {
    heads.push(`${req.url} ${req.headers['proxy-connection'] ?? '-'}`);
    socket.end('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n');
  });
  const origin = await listenLocal(plain);
  const fence = await openFence([origin]);
  const upgrade = (to: string) =>
    new Promise<number | undefined>((resolve) => {
      const req = http.request({
        host: '127.0.0.1',
        port: new URL(fence.server).port,
        path: `${to}/socket?x=1`,
        headers: { connection: 'Upgrade', upgrade: 'websocket', 'proxy-connection': 'keep-alive' },
      });
      req.on('upgrade', (res, socket) => {
        socket.destroy();
        resolve(res.statusCode);
      });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode);
      });
      req.on('error', () => resolve(undefined));
      req.end();
    });
  try {
    expect(await upgrade(origin)).toBe(101);
    expect(heads).toEqual(['/socket?x=1 -']); // the origin-form path, no proxy header
    expect(await upgrade(origin.replace(/\d+$/, '9'))).not.toBe(101);
    expect([...fence.refused]).toEqual([['http://127.0.0.1:9', 1]]);
  } finally {
    await fence.close();
    await closeLocal(plain);
  }
});
