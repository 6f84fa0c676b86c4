import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium } from '@playwright/test';
import { expect, test } from './test-type';
import { Collector } from '../../fixtures/collector';
import type { JudgedRun } from '../../lib/report/judged';
import { chromiumLaunchOptions } from '../../lib/run/browser';
import type { Invocation } from '../../lib/run/invocation';
import type { ConfiguredRun } from '../../lib/run/runs';
import { ROOT, type Settings } from '../../lib/run/settings';
import { parseVariables } from '../../lib/run/variables';
import { sha256 } from '../../lib/util/hash';
import {
  descendantsOf,
  growthSince,
  rendererBytes,
  scanDescendants,
  togetherBytes,
  watchPageMemory,
} from '../../pages/memory';
import { tempDir } from './fakes/temp';

/** A collector of pages only (no run, no session) with these settings, its folders in a temp folder. */
function collectorFor(
  name: string,
  options: { env: NodeJS.ProcessEnv; screenshots: 'all' | 'none'; requestTimeoutMs: number },
): Collector {
  const dir = tempDir(name);
  const settings = {
    root: ROOT,
    env: options.env,
    values: parseVariables(options.env, {}).values,
    screenshots: options.screenshots,
    runs: [],
    pageOrigins: [],
    limits: { requestTimeoutMs: options.requestTimeoutMs, maxAnswerBytes: 1 << 20, pageMaxBytes: 400 << 20 },
  } as unknown as Settings;
  return new Collector(chromium, chromiumLaunchOptions(), settings, { auth: dir, runs: dir } as Invocation);
}

/**
 * The page-memory bound (README.md § Security and limits, L1_PAGE_MAX_MB) samples the renderers
 * below the worker: the process tree walked down from it (/proc/<pid>/task/<tid>/children) must
 * find a grandchild, and agree with the scan of every /proc entry it replaces (Linux, as the suite).
 */
test('the walk down from a process finds its children and grandchildren, as the /proc scan does', async () => {
  // sh → sleep (grandchild of this process).
  const child = spawn('sh', ['-c', 'sleep 30 & wait'], { stdio: 'ignore' });
  let grandchildren: number[] = [];
  try {
    await expect.poll(() => (grandchildren = scanDescendants(child.pid!)).length).toBeGreaterThan(0);
    const walked = descendantsOf(process.pid);
    expect(walked).toContain(child.pid);
    for (const pid of grandchildren) expect(walked).toContain(pid);
    expect(descendantsOf(child.pid!).sort()).toEqual([...grandchildren].sort());
    // No renderer below a shell and a sleep.
    expect(rendererBytes(child.pid!)).toEqual([]);
  } finally {
    for (const pid of grandchildren) process.kill(pid, 'SIGKILL');
    child.kill('SIGKILL');
  }
});

/**
 * The bound holds while section pictures are taken (fixtures/collector.ts): a report whose rules
 * failed an item is loaded again for its pictures, and a page that grows only then is stopped too.
 */
test('section pictures: over L1_PAGE_MAX_MB while they are taken, they stop, the browser goes and a note says why', async () => {
  test.setTimeout(30_000);
  // DATA read, the page waits a second, then holds 800 MB: while the missing sections are waited
  // for (3 s each: three of them, so that a loaded machine that takes seconds to fill 800 MB still
  // trips the watch while the pictures are taken).
  const page = `<html><body><div id="kpis" style="width:200px;height:40px;background:#c00">kpis</div><script>
    function hog() { window.hog = []; for (let i = 0; i < 8; i++) window.hog.push(new Uint8Array(100 << 20).fill(1)); }
    window.DATA = { get meta() { setTimeout(hog, 1000); return { line: 'A' }; } };
  </script></body></html>`;
  const server = http.createServer((_req, res) =>
    res.writeHead(200, { 'content-type': 'text/html' }).end(page),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const off = Object.fromEntries([7, 8, 9, 10, 11, 12].map((item) => [item, '']));
  const collector = collectorFor('pictures', {
    env: {
      L1_SECTION_SELECTORS: JSON.stringify({
        ...off,
        3: '#kpis',
        4: '#never-4',
        5: '#never-5',
        6: '#never-6',
      }),
    },
    screenshots: 'all',
    requestTimeoutMs: 5_000,
  });
  try {
    // As after a read of this DATA whose rules failed: the pictures load the page again.
    collector['lastRead'] = {
      htmlUrl: `${origin}/r.html`,
      storageState: undefined,
      origins: [origin],
      textHash: sha256(JSON.stringify({ meta: { line: 'A' } })), // the text the page's reader writes for its DATA
    };
    const judged = { status: 'checked', notes: [] } as unknown as JudgedRun;
    const shots = await collector['pictureSections']({ slug: 'hog' } as ConfiguredRun, judged);
    expect(shots).toEqual([3]); // taken before the page grew: kept
    // The sections waited for before the watch tripped are missing; the rest end with the page.
    const [closed, stopped, ...more] = judged.notes.filter(
      (n) => !/: the page has no visible #never-\d \(L1_SECTION_SELECTORS/.test(n),
    );
    expect(more, judged.notes.join('\n')).toEqual([]);
    expect(closed).toMatch(
      /^no screenshots? of items? [4-6](, [5-6])*: the report page was closed while the pictures were taken$/,
    );
    expect(stopped).toMatch(
      /^section pictures stopped: the report page used \d+ MB of memory while they were taken, over L1_PAGE_MAX_MB \(400 MB\)/,
    );
    expect(collector['browser']).toBeUndefined(); // the next run gets a fresh one
  } finally {
    await collector.close();
    server.closeAllConnections();
    server.close();
  }
});

/**
 * A local server of `pages` (path → HTML). `/hold.png` answers (a 404) once `/release` was asked
 * for: a page that shows it is not loaded until its script says so.
 */
async function serve(pages: Record<string, string>): Promise<{ origin: string; server: http.Server }> {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/hold.png') return void released.then(() => res.writeHead(404).end());
    if (path === '/release') release();
    const page = pages[path];
    if (page === undefined) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html' }).end(page);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/** A window that holds `mb` MB. */
const popup = (mb: number) =>
  `<script>window.hold = new Uint8Array(${mb} << 20).fill(1); document.title = 'held';</script>`;

/**
 * README.md: "over `L1_PAGE_MAX_MB` the run is an error". The page's memory is every renderer's: a
 * page that spread it over windows with no opener (each a renderer of its own, none over the
 * limit) is over it. Unboxed here, so that the windows stay open (the box closes them: below).
 */
test('L1_PAGE_MAX_MB counts every renderer: windows that each stay under it, together over it', async () => {
  test.setTimeout(30_000);
  const { origin, server } = await serve({
    '/pop.html': popup(60),
    '/r.html': `<script>for (let i = 0; i < 4; i++) window.open('/pop.html?' + i, '_blank', 'noopener');</script>`,
  });
  const browser = await chromium.launch(chromiumLaunchOptions());
  let over: number | undefined;
  const stop = watchPageMemory(300 << 20, (bytes) => (over = bytes));
  try {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${origin}/r.html`);
    await expect.poll(() => context.pages().length).toBe(5);
    for (const p of context.pages().slice(1)) await expect.poll(() => p.title()).toBe('held');
    // No one renderer over the limit: the largest alone was never over it.
    expect(Math.max(...rendererBytes(process.pid))).toBeLessThan(300 << 20);
    await expect.poll(() => over, { timeout: 3_000 }).toBeGreaterThan(300 << 20);
  } finally {
    stop();
    await browser.close();
    server.closeAllConnections();
    server.close();
  }
});

/**
 * A page keeps Blob data in the browser process, out of its renderers' reach: what the browser's
 * other processes take on while the page is watched counts too (hostile audit of 2026-11-27: 200
 * Blobs of 10 MB grew the browser process to 2.1 GB under L1_PAGE_MAX_MB=300, the renderer 183 MB).
 */
test('L1_PAGE_MAX_MB counts the Blob data a page keeps in the browser process', async () => {
  test.setTimeout(30_000);
  const { origin, server } = await serve({
    '/r.html': `<script>
      const chunk = new Uint8Array(10 << 20).fill(1);
      window.keep = [];
      for (let i = 0; i < 50; i++) window.keep.push(new Blob([chunk]));
      document.title = 'held';
    </script>`,
  });
  const browser = await chromium.launch(chromiumLaunchOptions());
  let over: number | undefined;
  const stop = watchPageMemory(300 << 20, (bytes) => (over = bytes));
  try {
    const page = await browser.newPage();
    await page.goto(`${origin}/r.html`);
    await expect.poll(() => page.title()).toBe('held');
    await expect.poll(() => over, { timeout: 5_000 }).toBeGreaterThan(300 << 20);
    // No renderer holds it: 500 MB of Blobs, and the largest renderer under the limit.
    expect(Math.max(...rendererBytes(process.pid))).toBeLessThan(300 << 20);
  } finally {
    stop();
    await browser.close();
    server.closeAllConnections();
    server.close();
  }
});

test("the browser's other processes: each one's growth of its own memory since it was first seen, never its size", () => {
  const MB = 1 << 20;
  const at = (pid: number, resident: number, shared: number) => ({
    pid,
    renderer: false,
    resident: resident * MB,
    shared: shared * MB,
  });
  const baseline = new Map<number, number>();
  // First seen: nothing grown, whatever their size (a browser of 150 MB, a GPU process).
  expect(growthSince(baseline, [at(1, 150, 50), at(2, 60, 40)])).toBe(0);
  // The browser process took on 500 MB of its own; the GPU process shrank (counts as 0).
  expect(growthSince(baseline, [at(1, 650, 50), at(2, 50, 40)])).toBe(500 * MB);
  // A process born since (a new utility process) is measured from its first sample.
  expect(growthSince(baseline, [at(1, 650, 50), at(3, 30, 20)]) / MB).toBe(500);
});

/**
 * Through the collector (fixtures/collector.ts, pages/box.ts): the windows a report page opens are
 * closed as they appear, and the run's notes say so; DATA is still read from the report page. The
 * page holds its load event until it saw its 12 windows closed (so that all are in the note). 12
 * windows of 40 MB: left open they would be over L1_PAGE_MAX_MB (400 MB) and the read would stop,
 * while a few of them alive at once under load stay under it (8 of 60 MB came to 409 MB once in a
 * busy npm test, 2026-11-28).
 */
test('a report page that opens windows: they are closed, DATA is read, the notes say so', async () => {
  test.setTimeout(30_000);
  const { origin, server } = await serve({
    '/pop.html': popup(40),
    '/r.html': `<body><script>
      const windows = [];
      for (let i = 0; i < 12; i++) windows.push(window.open('/pop.html?' + i));
      window.DATA = { meta: { line: 'A' } };
      const held = new Image();
      held.src = '/hold.png';
      document.body.append(held);
      const wait = setInterval(() => {
        if (windows.every((w) => w.closed)) clearInterval(wait), fetch('/release');
      }, 50);
    </script></body>`,
  });
  const collector = collectorFor('popups', { env: {}, screenshots: 'none', requestTimeoutMs: 8_000 });
  try {
    const read = (await collector['readPage'](`${origin}/r.html`, undefined, [origin])) as {
      data: unknown;
      notes: string[];
    };
    expect(read.data).toEqual({ meta: { line: 'A' } });
    expect(read.notes).toEqual([
      'the report page opened 12 new windows (popups), closed as they opened: a report needs none to show its DATA',
    ]);
  } finally {
    await collector.close();
    server.closeAllConnections();
    server.close();
  }
});

test('contract §3: a report page that fails because the box blocked what its script needed (a chart library from a CDN) says so in its failure, where a page read says it in the run\'s notes (platform audit of 2026-11-28: "no DATA variable … echarts is not defined", no word of the CDN)', async () => {
  test.setTimeout(30_000);
  const { origin, server } = await serve({
    '/r.html': `<body><script src="http://127.0.0.1:9/lib/echarts.min.js"></script><script>
      echarts.init(document.body); var DATA = { meta: {} };
    </script></body>`,
  });
  const collector = collectorFor('blocked-cdn', { env: {}, screenshots: 'none', requestTimeoutMs: 8_000 });
  try {
    const failed = await collector['readPage'](`${origin}/r.html`, undefined, [origin]).catch(
      (e: unknown) => e,
    );
    expect((failed as Error).message).toMatch(
      /^the report page defines no DATA variable \(the page's script failed: ReferenceError: echarts is not defined\); the report page asked for origins it may not reach, blocked: http:\/\/127\.0\.0\.1:9 \(1\); L1_PAGE_ORIGINS allows one/,
    );
  } finally {
    await collector.close();
    server.closeAllConnections();
    server.close();
  }
});

test('a page error that quotes a mobile number across where its message is cut is masked before the cut: no digits of it are left (leak hunt of 2026-11-28: cut at 200 characters first, the number kept 7 to 10 digits no mask recognises)', async () => {
  test.setTimeout(30_000);
  const phone = ['139', '8765', '4321'].join('');
  const { origin, server } = await serve({
    '/r.html': `<body><script>throw new Error('${'x'.repeat(184)} account ${phone} refused');</script></body>`,
  });
  const collector = collectorFor('page-error-phone', {
    env: {},
    screenshots: 'none',
    requestTimeoutMs: 8_000,
  });
  try {
    const failed = await collector['readPage'](`${origin}/r.html`, undefined, [origin]).catch(
      (e: unknown) => e,
    );
    const message = (failed as Error).message;
    expect(message).toContain("the page's script failed: Error: ");
    expect(message).toContain('account 1**********');
    expect(message).not.toMatch(/9876|8765|4321/);
  } finally {
    await collector.close();
    server.closeAllConnections();
    server.close();
  }
});

test('the renderers together: the largest one whole, of each other one only what is its own (a blank renderer shares most of its memory)', () => {
  const MB = 1 << 20;
  expect(togetherBytes([])).toBe(0);
  expect(togetherBytes([{ resident: 300 * MB, shared: 80 * MB }])).toBe(300 * MB);
  // Eight windows of 110 MB each besides a report page of 120 MB: together far over 300 MB.
  const windows = Array.from({ length: 8 }, () => ({ resident: 195 * MB, shared: 85 * MB }));
  expect(togetherBytes([{ resident: 120 * MB, shared: 85 * MB }, ...windows])).toBe(
    (195 + 7 * 110 + 35) * MB,
  );
  // A spare renderer that holds nothing of its own adds nothing.
  expect(
    togetherBytes([
      { resident: 200 * MB, shared: 50 * MB },
      { resident: 40 * MB, shared: 40 * MB },
    ]),
  ).toBe(200 * MB);
});
