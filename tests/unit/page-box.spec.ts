import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import dgram from 'node:dgram';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { expect, test } from './test-type';
import { chromiumLaunchOptions } from '../../lib/run/browser';
import fc from 'fast-check';
import {
  blockedNote,
  NEW_WINDOWS,
  newBoxedContext,
  refusedOrigin,
  routedUrls,
  type Box,
} from '../../pages/box';
import { sessionCookie } from './fakes/local';

/**
 * The page's box (README.md § Security and limits, docs/contract.md §3) against channels
 * Playwright's route does not see, in a real Chromium: the report's origin and OTHER, another port
 * of the same host, are local servers, and the host's cookie `sid=SECRET` stands for the session
 * (cookies are per host, so it goes to every port the page reaches).
 */

/** What a server answers for a path: a page's HTML. Every request and WebSocket is noted in `hits`. */
type Pages = Record<string, string>;

interface Server {
  origin: string;
  port: number;
  pages: Pages;
  /** Paths answered 302 to a URL, and the response headers a page gets (`headers[path]`). */
  redirects: Record<string, string>;
  headers: Record<string, Record<string, string>>;
  hits: string[];
  server: http.Server;
  /** Open WebSockets (`closeAllConnections` does not know upgraded sockets). */
  sockets: Set<Duplex>;
}

async function serve(): Promise<Server> {
  const s = { pages: {}, redirects: {}, headers: {}, hits: [] as string[], sockets: new Set() } as Server;
  s.server = http.createServer((req, res) => {
    s.hits.push(`${req.method} ${req.url} cookie=${req.headers.cookie ?? '-'}`);
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const to = s.redirects[path];
    if (to !== undefined) return res.writeHead(302, { location: to }).end();
    const page = s.pages[path];
    if (page === undefined) return res.writeHead(404).end();
    const type = path.endsWith('.json') ? 'application/speculationrules+json' : 'text/html';
    res.writeHead(200, { 'content-type': type, ...s.headers[path] }).end(page);
  });
  // A WebSocket that opens (RFC 6455 handshake) and stays open.
  s.server.on('upgrade', (req, socket) => {
    s.sockets.add(socket);
    socket.on('close', () => s.sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    s.hits.push(`WS ${req.url} cookie=${req.headers.cookie ?? '-'}`);
    const accept = createHash('sha1')
      .update(`${req.headers['sec-websocket-key']}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`)
      .digest('base64');
    socket.write(
      `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`,
    );
  });
  await new Promise<void>((resolve) => s.server.listen(0, '127.0.0.1', resolve));
  s.port = (s.server.address() as AddressInfo).port;
  s.origin = `http://127.0.0.1:${s.port}`;
  return s;
}

let browser: Browser;
let report: Server;
let other: Server;

test.beforeAll(async () => {
  [report, other] = await Promise.all([serve(), serve()]);
  browser = await chromium.launch(chromiumLaunchOptions());
});

test.beforeEach(() => {
  for (const s of [report, other]) {
    s.pages = {};
    s.redirects = {};
    s.headers = {};
    s.hits.length = 0;
  }
});

test.afterAll(async () => {
  await browser?.close();
  for (const s of [report, other]) {
    for (const socket of s?.sockets ?? []) socket.destroy();
    s?.server.closeAllConnections();
    await new Promise((resolve) => s?.server.close(resolve));
  }
});

/** A boxed context whose host holds the session cookie, as the collector makes it (fixtures/collector.ts). */
async function boxed(): Promise<{ context: BrowserContext; box: Box }> {
  return newBoxedContext(browser, [report.origin], { storageState: sessionCookie() });
}

/**
 * Opens the report's `/r.html` and gives what it starts `settle` ms: long enough for Chromium to
 * send what the old box let through (each case failed with it), since what is checked is that
 * nothing arrives.
 */
async function open(context: BrowserContext, settle: number): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${report.origin}/r.html`);
  await new Promise((resolve) => setTimeout(resolve, settle));
  return page;
}

test.describe('the route: which requests reach its handler', () => {
  test('every URL the handler would refuse reaches it; only URLs of the box’s own origins (or data:, blob:, about:) skip it', () => {
    const origins = new Set(['http://127.0.0.1:4400', 'https://cdn.example.com', 'http://[::1]:8080']);
    const re = routedUrls(origins);
    const skips = [
      'http://127.0.0.1:4400/r.html?x=1',
      'http://127.0.0.1:4400',
      'http://127.0.0.1:4400?q',
      'http://127.0.0.1:4400#f',
      'https://cdn.example.com/lib.js',
      'http://[::1]:8080/x',
      'data:text/html,hi',
      'blob:http://127.0.0.1:4400/1',
      'about:blank',
    ];
    const routed = [
      'http://127.0.0.1:44001/', // a longer port
      'http://127.0.0.1:4400@evil.test/', // the origin as user info
      'http://127.0.0.1:4400.evil.test/',
      'http://127x0x0x1:4400/', // a dot of the pattern is a dot
      'https://127.0.0.1:4400/', // another scheme
      'https://cdn.example.com.evil.test/',
      'http://CDN.example.com/', // another scheme than the allowed https://cdn.example.com
      'file:///etc/passwd',
      'ws://127.0.0.1:4400/',
      '',
    ];
    for (const u of skips) {
      expect(re.test(u), u).toBe(false);
      expect(refusedOrigin(u, origins), u).toBeUndefined();
    }
    for (const u of routed) expect(re.test(u), u).toBe(true);
    // And the handler refuses each of them.
    expect(routed.filter((u) => refusedOrigin(u, origins) === undefined)).toEqual([]);
  });

  test('generated URLs and origins: a URL that skips the handler is one it would let through (fast-check)', () => {
    const host = fc.constantFrom('127.0.0.1', 'localhost', 'a.test', 'a.test.evil', '[::1]', 'A.test');
    const origin = fc
      .tuple(
        fc.constantFrom('http', 'https', 'file', 'HTTP'),
        host,
        fc.option(fc.integer({ min: 1, max: 65535 })),
      )
      .map(([scheme, h, port]) => `${scheme}://${h}${port === null ? '' : `:${port}`}`);
    const tail = fc.constantFrom(
      '',
      '/',
      '/x?y#z',
      '?q',
      '#f',
      '@evil.test/',
      '.evil.test/',
      '0/',
      '\\x',
      ':80/',
    );
    fc.assert(
      fc.property(
        fc.uniqueArray(origin, { maxLength: 4 }),
        fc.oneof(
          fc.tuple(origin, tail).map(([o, t]) => o + t),
          fc.webUrl({ withQueryParameters: true, withFragments: true }),
          fc.constantFrom('data:,x', 'blob:x', 'about:blank', 'javascript:1'),
        ),
        // Skipping the handler implies the handler would let it through. node:assert, not expect:
        // each expect is a step of the test, and 2,000 of them took 2.8 s.
        (allowed, url) => {
          const origins = new Set(allowed);
          assert.ok(routedUrls(origins).test(url) || refusedOrigin(url, origins) === undefined, url);
        },
      ),
      { numRuns: 2000 },
    );
  });

  test('in a page: its own origin’s requests arrive; another port’s is refused by the route itself (a network error, not the fence’s 403) and counted', async () => {
    const { context, box } = await boxed();
    // `no-cors`: an answer from another origin, the fence's 403 included, resolves (opaque); only a
    // request the route aborts fails.
    report.pages['/own.json'] = '{}';
    report.pages['/r.html'] = `<img src="/own.gif"><script>
      Promise.all([
        fetch('/own.json').then((r) => 'own ' + r.status, () => 'own failed'),
        fetch('${other.origin}/out', { mode: 'no-cors' }).then(() => 'other answered', () => 'other refused'),
      ]).then((seen) => (document.title = seen.join(', ')));
    </script>`;
    try {
      const page = await open(context, 0);
      await expect(page).toHaveTitle('own 200, other refused');
      expect(box.blocked()).toEqual(new Map([[other.origin, 1]]));
      expect(other.hits).toEqual([]);
      expect(report.hits.map((h) => h.split(' ')[1]).sort()).toEqual(['/own.gif', '/own.json', '/r.html']);
    } finally {
      await context.close();
    }
  });
});

test.describe('WebSockets of the page (Playwright routes them apart from requests)', () => {
  test('one to another port of the host is closed and counted; one to the report origin opens', async () => {
    const { context, box } = await boxed();
    report.pages['/r.html'] = `<script>
      const seen = [];
      const own = new WebSocket('ws://127.0.0.1:${report.port}/own');
      own.onopen = () => seen.push('own open');
      const out = new WebSocket('ws://127.0.0.1:${other.port}/out?d=secret');
      out.onclose = () => seen.push('out closed');
      setInterval(() => (document.title = seen.sort().join(', ')), 20);
    </script>`;
    try {
      const page = await open(context, 0);
      await expect.poll(() => page.title()).toBe('out closed, own open');
      expect(other.hits).toEqual([]);
      expect(report.hits).toContain('WS /own cookie=sid=SECRET');
      expect(box.blocked()).toEqual(new Map([[other.origin, 1]]));
    } finally {
      await context.close();
    }
  });

  test('a socket the box let through cannot be turned elsewhere: its URL changed, Playwright’s dispatch, the native constructor, a frame’s', async () => {
    const { context } = await boxed();
    const out = (tag: string) => `'ws://127.0.0.1:${other.port}/${tag}'`;
    report.pages['/r.html'] = `<body><script>
      const log = [];
      const own = new WebSocket('ws://127.0.0.1:${report.port}/own');
      own.url = ${out('changed-url')};
      const routed = new WebSocket(${out('dispatch')});
      try { __pwWebSocketDispatch({ id: routed._id, type: 'passthrough' }); } catch (e) { log.push('dispatch ' + e.name); }
      const native = new WebSocket('ws://127.0.0.1:${report.port}/native');
      const poll = setInterval(() => {
        if (!native._ws) return;
        clearInterval(poll);
        try { new native._ws.constructor(${out('native')}); } catch (e) { log.push('native ' + e.name); }
      }, 1);
      const frame = document.body.appendChild(document.createElement('iframe'));
      try { new frame.contentWindow.WebSocket(${out('frame')}); } catch (e) { log.push('frame ' + e.name); }
      setTimeout(() => (document.title = log.sort().join(', ')), 400);
    </script>`;
    try {
      expect(await (await open(context, 500)).title()).toBe('dispatch SecurityError, native SecurityError');
      expect(other.hits).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

test.describe('channels no route sees are gone from every frame', () => {
  test('SharedWorker, WebRTC, WebTransport, WebSocketStream: not in the page, a new frame, a srcdoc frame or a popup', async () => {
    const { context } = await boxed();
    const names = [
      'SharedWorker',
      'RTCPeerConnection',
      'webkitRTCPeerConnection',
      'RTCDataChannel',
      'WebTransport',
      'WebSocketStream',
    ];
    report.pages['/r.html'] = `<body><script>
      const frame = document.body.appendChild(document.createElement('iframe'));
      const srcdoc = document.createElement('iframe');
      srcdoc.srcdoc = '<p>x';
      document.body.append(srcdoc);
      const popup = window.open('');
      const left = [];
      for (const [where, w] of [['page', window], ['frame', frame.contentWindow], ['srcdoc', srcdoc.contentWindow], ['popup', popup]])
        for (const name of ${JSON.stringify(names)}) if (typeof w[name] !== 'undefined') left.push(where + ' ' + name);
      document.title = left.join(', ') || 'none';
    </script>`;
    try {
      expect(await (await open(context, 0)).title()).toBe('none');
    } finally {
      await context.close();
    }
  });

  test('a SharedWorker’s request and a peer connection’s STUN packets never leave', async () => {
    const udp = dgram.createSocket('udp4');
    const packets: number[] = [];
    udp.on('message', (m) => packets.push(m.length));
    await new Promise<void>((resolve) => udp.bind(0, '127.0.0.1', resolve));
    const { context } = await boxed();
    report.pages['/r.html'] = `<script>
      try { new SharedWorker('/shared.js'); } catch (e) {}
      try {
        const pc = new RTCPeerConnection({ iceServers: [{ urls: 'stun:127.0.0.1:${udp.address().port}' }] });
        pc.createDataChannel('x');
        pc.createOffer().then((o) => pc.setLocalDescription(o));
      } catch (e) {}
    </script>`;
    report.pages['/shared.js'] = `fetch('${other.origin}/shared?d=secret', { mode: 'no-cors' });`;
    try {
      await open(context, 800);
      expect(other.hits).toEqual([]);
      expect(packets).toEqual([]);
    } finally {
      await context.close();
      udp.close();
    }
  });

  test('the browser sends no WebRTC UDP of its own (launch flag), even where the page still has RTCPeerConnection', async () => {
    const udp = dgram.createSocket('udp4');
    const packets: number[] = [];
    udp.on('message', (m) => packets.push(m.length));
    await new Promise<void>((resolve) => udp.bind(0, '127.0.0.1', resolve));
    // No box: the constructor is there, only the flag stands between the page and the packets.
    const context = await browser.newContext();
    report.pages['/r.html'] = `<script>
      const pc = new RTCPeerConnection({ iceServers: [{ urls: 'stun:127.0.0.1:${udp.address().port}' }] });
      pc.createDataChannel('x');
      pc.createOffer().then((o) => pc.setLocalDescription(o)).then(() => (document.title = 'offered'));
    </script>`;
    try {
      expect(await (await open(context, 800)).title()).toBe('offered');
      expect(packets).toEqual([]);
    } finally {
      await context.close();
      udp.close();
    }
  });
});

test('speculation rules (prefetch, prerender; in the HTML, added, filled or written by script) never reach another origin', async () => {
  const { context } = await boxed();
  const rules = (kind: string, tag: string) =>
    JSON.stringify({ [kind]: [{ source: 'list', urls: [`${other.origin}/${tag}`] }] });
  report.pages['/r.html'] = `<html><head>
    <script type="speculationrules">${rules('prefetch', 'parsed-prefetch')}</script>
    <script type=" SpeculationRules ">${rules('prerender', 'parsed-prerender')}</script>
    </head><body><script>
      const s = document.createElement('script');
      s.type = 'speculationrules';
      s.textContent = ${JSON.stringify(rules('prefetch', 'added-prefetch'))};
      const holder = document.createElement('div');
      holder.append(s);
      document.body.append(holder);
      const empty = document.createElement('script');
      empty.type = 'speculationrules';
      document.body.append(empty);
      empty.textContent = ${JSON.stringify(rules('prefetch', 'text-later'))};
      document.write('<script type="speculationrules">' + ${JSON.stringify(rules('prefetch', 'written'))} + '</scr' + 'ipt>');
      document.title = 'ran';
    </script></body></html>`;
  try {
    expect(await (await open(context, 800)).title()).toBe('ran');
    expect(other.hits).toEqual([]);
  } finally {
    await context.close();
  }
});

/**
 * Past the route (pages/fence.ts): Playwright routes only the first request of a redirect chain,
 * and a dedicated worker's sockets and a server's `Speculation-Rules` header are Chromium's own.
 * Each of these reached OTHER with the host's cookie before the fence (each case was run without
 * it: a plain context of the same browser).
 */
test.describe('the fence: what the route never sees is refused before it leaves', () => {
  test('redirect hops to another port of the host (a script, an image, a fetch, a frame) never arrive; each is counted', async () => {
    const { context, box } = await boxed();
    report.pages['/r.html'] = `<html><body>
      <script src="/hop-script.js"></script>
      <img src="/hop-image.gif">
      <iframe src="/hop-frame.html"></iframe>
      <script>fetch('/hop-fetch').catch(() => {}).finally(() => (document.title = 'ran'));</script>
    </body></html>`;
    for (const hop of ['script.js', 'image.gif', 'frame.html', 'fetch'])
      report.redirects[`/hop-${hop}`] = `${other.origin}/stolen-${hop}`;
    try {
      const page = await open(context, 800);
      expect(await page.title()).toBe('ran');
      expect(other.hits).toEqual([]);
      expect(report.hits.filter((h) => h.includes('/hop-'))).toHaveLength(4);
      expect(box.blocked().get(other.origin)).toBe(4);
    } finally {
      await context.close();
    }
  });

  test('the report page itself redirected to another port lands on the fence’s refusal, its cookie kept home', async () => {
    const { context } = await boxed();
    report.redirects['/r.html'] = `${other.origin}/login`;
    try {
      const page = await open(context, 300);
      expect(page.url()).toBe(`${other.origin}/login`);
      await expect(page.locator('body')).toContainText("refused by the report page's box");
      expect(other.hits).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test('a dedicated worker’s WebSocket and fetch to another port never leave', async () => {
    const { context, box } = await boxed();
    report.pages['/r.html'] = `<script>
      new Worker('/w.js').onmessage = (e) => (document.title = e.data);
    </script>`;
    report.pages['/w.js'] = `
      fetch('${other.origin}/worker-fetch', { mode: 'no-cors' }).catch(() => {});
      const ws = new WebSocket('ws://127.0.0.1:${other.port}/worker-socket');
      ws.onopen = () => postMessage('opened');
      ws.onerror = () => postMessage('refused');`;
    try {
      const page = await open(context, 800);
      expect(await page.title()).toBe('refused');
      expect(other.hits).toEqual([]);
      expect(box.blocked().get(other.origin)).toBeGreaterThanOrEqual(1);
    } finally {
      await context.close();
    }
  });

  test('speculation rules a server names in its Speculation-Rules header never reach another origin', async () => {
    const { context } = await boxed();
    report.pages['/r.html'] = `<html><body><script>document.title = 'ran'</script></body></html>`;
    report.headers['/r.html'] = { 'speculation-rules': '"/rules.json"' };
    report.pages['/rules.json'] = JSON.stringify({
      prefetch: [{ source: 'list', urls: [`${other.origin}/header-prefetch`] }],
      prerender: [{ source: 'list', urls: [`${other.origin}/header-prerender`] }],
    });
    try {
      expect(await (await open(context, 1200)).title()).toBe('ran');
      expect(other.hits).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

/**
 * L1_PAGE_MAX_MB (README.md: "over `L1_PAGE_MAX_MB` the run is an error") is the report page's: a
 * page that opened windows spread its memory over renderers of their own. Every page the context
 * opens besides the report page is closed as it appears, however it was opened, and counted in the
 * run's notes; the report page itself, and pictures of its sections, go on.
 */
test('every window the page opens is closed at once and noted: window.open with or without noopener, _blank links and forms, a popup’s popup', async () => {
  test.setTimeout(20_000);
  const { context, box } = await boxed();
  // Each window holds 20 MB and keeps itself busy (were it left open, it would grow on).
  report.pages['/pop.html'] = `<script>
    window.hold = new Uint8Array(20 << 20).fill(1);
    if (!location.search) window.open('/pop.html?again', '_blank', 'noopener');
  </script>`;
  report.pages['/r.html'] = `<body><div id="kpis" style="width:120px;height:30px;background:#08c">kpis</div>
    <a id="blank" href="/pop.html?a" target="_blank">a</a>
    <a id="noopener" href="/pop.html?b" target="_blank" rel="noopener noreferrer">b</a>
    <form id="form" action="/pop.html" target="_blank"><input name="c" value="1"></form>
    <script>
      window.open('/pop.html');
      window.open('/pop.html', '_blank', 'noopener');
      // A popup that opens its own, at once (written in by the page, before the box closes it).
      const w = window.open('');
      w.document.write('<script>window.open("/pop.html?again")</scr' + 'ipt>');
      w.document.close();
      document.getElementById('blank').click();
      document.getElementById('noopener').click();
      document.getElementById('form').submit();
      document.title = 'opened';
    </script></body>`;
  try {
    const page = await open(context, 0);
    expect(await page.title()).toBe('opened');
    // 6 opened by the page, 1 by a popup; each /pop.html that ran before it was closed opened one more.
    await expect
      .poll(() => box.blocked().get(NEW_WINDOWS) ?? 0, { timeout: 5_000 })
      .toBeGreaterThanOrEqual(7);
    await expect.poll(() => context.pages().length, { timeout: 5_000 }).toBe(1);
    expect(context.pages()).toEqual([page]);
    const windows = box.blocked().get(NEW_WINDOWS) ?? 0;
    expect(blockedNote(box.blocked())).toBe(
      `the report page opened ${windows} new windows (popups), closed as they opened: a report needs none to show its DATA`,
    );
    // The report page stays, its pictures too.
    expect(page.isClosed()).toBe(false);
    const shot = await page.locator('#kpis').screenshot({ type: 'jpeg' });
    expect(shot.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
  } finally {
    await context.close();
  }
});

test('the run’s note: refused origins, then the windows closed', () => {
  expect(
    blockedNote(
      new Map([
        ['http://cdn.test', 2],
        [NEW_WINDOWS, 1],
      ]),
    ),
  ).toBe(
    'the report page asked for origins it may not reach, blocked: http://cdn.test (2); L1_PAGE_ORIGINS allows one (e.g. a CDN); the report page opened 1 new window (popups), closed as it opened: a report needs none to show its DATA',
  );
  expect(blockedNote(new Map())).toBeUndefined();
});
