import http from 'node:http';
import { chromium, type Browser } from '@playwright/test';
import { expect, test } from './test-type';
import { chromiumLaunchOptions } from '../../lib/run/browser';
import { newBoxedContext } from '../../pages/box';
import { ReportPage, ReportPageError } from '../../pages/ReportPage';
import { closeLocal, listenLocal } from './fakes/local';

/**
 * ReportPage.readData against hostile pages in a real Chromium, boxed as the collector boxes them
 * (README.md § Security and limits; docs/contract.md §1.1, §5): pages from a local server.
 */

/** The answer to a path with its query (else to the path alone): a page's HTML, a redirect, or none ever. */
type Answer = string | { redirect: string } | 'never';

let browser: Browser;
let server: http.Server;
let origin: string;
let answers: Record<string, Answer> = {};

test.beforeAll(async () => {
  server = http.createServer((req, res) => {
    const answer = answers[req.url ?? '/'] ?? answers[new URL(req.url ?? '/', 'http://x').pathname];
    if (answer === undefined) return res.writeHead(404).end();
    if (answer === 'never') return;
    if (typeof answer !== 'string') return res.writeHead(302, { location: answer.redirect }).end();
    res.writeHead(200, { 'content-type': 'text/html' }).end(answer);
  });
  origin = await listenLocal(server);
  browser = await chromium.launch(chromiumLaunchOptions());
});

test.afterAll(async () => {
  await browser?.close();
  await closeLocal(server);
});

/** DATA of the report at `path` on the local server (its pages: `pages`), or the error it gave. */
async function read(pages: Record<string, Answer>, path = '/r.html', timeoutMs = 5_000): Promise<unknown> {
  answers = pages;
  const { context } = await newBoxedContext(browser, [origin]);
  try {
    const page = new ReportPage(await context.newPage());
    return (await page.readData(`${origin}${path}`, { timeoutMs, maxBytes: 1 << 20 })).data;
  } catch (e) {
    return e;
  } finally {
    await context.close();
  }
}

const html = (...scripts: string[]) =>
  `<html><body>${scripts.map((s) => `<script>${s}</script>`).join('')}</body></html>`;

test.describe('an error DATA throws crosses from the page cut there (L1_MAX_ANSWER_MB holds)', () => {
  test('the page replaced String and String.prototype.slice: a few hundred characters still', async () => {
    const error = await read({
      '/r.html': html(
        `const big = 'x'.repeat(70e6);
         String.prototype.slice = function () { return big; };
         window.String = function () { return big; };
         window.DATA = { get meta() { throw new Error('boom ' + 'z'.repeat(1000)); } };`,
      ),
    });
    expect(error).toBeInstanceOf(ReportPageError);
    const message = (error as Error).message;
    expect(message).toMatch(/^DATA could not be read: boom z+$/);
    expect(message.length).toBeLessThan(300);
  });

  test('a thrown object whose message turns into tens of MB of text: cut in the page', async () => {
    const error = await read({
      '/r.html': html(
        `window.DATA = { get meta() {
           throw { get message() { return { toString() { return 'w'.repeat(70e6); } }; } };
         } };`,
      ),
    });
    expect((error as Error).message).toBe(`DATA could not be read: ${'w'.repeat(200)}`);
  });

  test('a page error that says it is the reader’s own stop is still an error, not "too large"', async () => {
    const error = await read({
      '/r.html': html(
        `Object.defineProperty(Error, Symbol.hasInstance, { value: () => true });
         window.DATA = { get meta() { throw new Error('too-large'); } };`,
      ),
    });
    expect((error as Error).message).toBe('DATA could not be read: too-large');
  });
});

test.describe('docs/contract.md §5: where DATA is found', () => {
  test('window.DATA is read when a later script leaves a const DATA uninitialized', async () => {
    // The second script fails before its `const DATA` is initialized: the name DATA stays in its
    // temporal dead zone for good, and window.DATA is what the report defined.
    const data = await read({
      '/r.html': html(`window.DATA = { meta: { line: 'A' } };`, `null.x; const DATA = 1;`),
    });
    expect(data).toEqual({ meta: { line: 'A' } });
  });

  test('a const DATA left uninitialized and no window.DATA: no DATA, the script’s failure named', async () => {
    const error = await read({ '/r.html': html(`null.x; const DATA = 1;`) });
    expect(error).toBeInstanceOf(ReportPageError);
    expect((error as Error).message).toContain('the report page defines no DATA variable');
    expect((error as Error).message).toContain('TypeError');
  });
});

test.describe('docs/contract.md §1.1: the page read is the report whose URL the run is read from', () => {
  const page = html(`var DATA = { meta: { line: location.search } };`);

  test('redirected to the same path with another topic and batch date: an error naming the parameter', async () => {
    const error = await read(
      {
        '/r.html?topic=1&batchDate=2024-05-01': { redirect: '/r.html?topic=2&batchDate=2020-01-01' },
        '/r.html': page,
      },
      '/r.html?topic=1&batchDate=2024-05-01',
    );
    expect(error).toBeInstanceOf(ReportPageError);
    expect((error as Error).message).toBe(
      `the page landed on ${origin}/r.html with batchDate=2020-01-01, where the report asked for has batchDate=2024-05-01: its DATA is not this report's`,
    );
  });

  test('every parameter the run is read from counts, in either spelling: changed, dropped or added', async () => {
    const cases: [asked: string, landed: string, says: string][] = [
      ['?topic=1', '?topic=2', 'with topic=2, where the report asked for has topic=1'],
      [
        '?topicId=1',
        '?topicId=1&topicId=2',
        'with topicId=1&topicId=2, where the report asked for has topicId=1',
      ],
      [
        '?company_id=1001&lang=zh',
        '?lang=en',
        'with no company_id, where the report asked for has company_id=1001',
      ],
      ['?reportType=monitor', '?reportType=diagnosis', 'with reportType=diagnosis'],
      [
        '?reportType=monitor',
        '?reportType=monitor&report_type=diagnosis',
        'with report_type=diagnosis, where the report asked for has no report_type',
      ],
      ['?batch_date=20240501', '?batch_date=2024-05-01', 'with batch_date=2024-05-01'],
      ['?companyId=1001', '?companyId=1002', 'with companyId=1002'],
    ];
    for (const [asked, landed, says] of cases) {
      const error = await read(
        { [`/r.html${asked}`]: { redirect: `/r.html${landed}` }, '/r.html': page },
        `/r.html${asked}`,
      );
      expect((error as Error).message, `${asked} → ${landed}`).toContain(says);
    }
  });

  test('other parameters, the fragment and their order may change: the report is read', async () => {
    const data = await read(
      {
        '/r.html?batchDate=2024-05-01&topic=%E5%93%81&lang=zh': {
          redirect: '/r.html?lang=en&topic=%e5%93%81&batchDate=2024-05-01&v=2#top',
        },
        '/r.html': page,
      },
      '/r.html?batchDate=2024-05-01&topic=%E5%93%81&lang=zh',
    );
    expect(data).toEqual({ meta: { line: '?lang=en&topic=%e5%93%81&batchDate=2024-05-01&v=2' } });
  });

  test("a page that tidies its own address as it loads (history.replaceState dropping its query, as a router does) is the document that was asked for: read; so is a static host's redirect to the same page as index.html (platform audit of 2026-11-28: it was not this report); near misses (review of the fix): an address of another report, a read parameter given another value, a blob: document, and a script that loads another page are not", async () => {
    const tidy = html(
      `var DATA = { meta: { line: 'tidied' } }; history.replaceState(null, '', location.pathname);`,
    );
    expect(await read({ '/r.html': tidy }, '/r.html?topic=1&companyId=1001')).toEqual({
      meta: { line: 'tidied' },
    });
    // Also a tidy while DATA is read, as a router's mounted hook may do (review of 2026-11-28).
    const whileRead = html(
      `window.DATA = { get meta() { history.replaceState(null, '', location.pathname); return { ok: 1 }; } };`,
    );
    expect(await read({ '/r.html': whileRead }, '/r.html?topic=1&batchDate=2026-11-20')).toEqual({
      meta: { ok: 1 },
    });
    const indexed = await read(
      {
        '/reports/1/': { redirect: '/reports/1/index.html' },
        '/reports/1/index.html': html(`var DATA = { n: 1 };`),
      },
      '/reports/1/',
    );
    expect(indexed).toEqual({ n: 1 });
    const refused: [string, string][] = [
      [`window.DATA = { report: 2 }; history.pushState(null, '', '/reports/2/?topic=2');`, '/reports/2/'],
      [
        `window.DATA = { d: 21 }; history.replaceState(null, '', '/r.html?batchDate=2026-11-21');`,
        'batchDate=2026-11-21',
      ],
      [
        `location.replace(URL.createObjectURL(new Blob(['<script>window.DATA = { evil: 1 }<\\/script>'], { type: 'text/html' })));`,
        'blob:',
      ],
      [`location.replace('/other.html?topic=1');`, '/other.html, not on the report that was asked for'],
    ];
    for (const [script, says] of refused) {
      const error = await read(
        { '/r.html': html(script), '/other.html': html('window.DATA = { other: true };') },
        '/r.html?topic=1&batchDate=2026-11-20',
      );
      expect(error, script).toBeInstanceOf(ReportPageError);
      expect((error as Error).message, script).toMatch(/^the page (landed on|navigated)/);
      expect((error as Error).message, script).toContain(says);
    }
  });

  test('a script that changes a read parameter while DATA is read: an error naming it', async () => {
    const error = await read(
      {
        '/r.html': html(
          `window.DATA = { get meta() { history.replaceState(null, '', '/r.html?topic=9'); return {}; } };`,
        ),
      },
      '/r.html?topic=1',
    );
    expect((error as Error).message).toBe(
      `the page navigated to ${origin}/r.html with topic=9, where the report asked for has topic=1, while DATA was read`,
    );
  });
});

test.describe('a page that fights the reader: said as what it did, not as Playwright or the browser said it', () => {
  test('a DATA whose getter throws: what it threw, not "no DATA variable"', async () => {
    const error = await read({
      '/r.html': html(
        `Object.defineProperty(window, 'DATA', { get() { throw new Error('no data for you'); } });`,
      ),
    });
    expect((error as Error).message).toBe('DATA could not be read: reading DATA threw: no data for you');
  });

  test('a page that moves itself as soon as it has loaded: it navigated, never "Execution context was destroyed"', async () => {
    for (let i = 0; i < 5; i++) {
      const error = await read({
        '/r.html': html(
          'window.DATA = { meta: {} };',
          `addEventListener('load', () => { location.href = '/other.html'; });`,
        ),
        '/other.html': html('window.DATA = { other: true };'),
      });
      expect(error, String(error)).toBeInstanceOf(ReportPageError);
      expect((error as Error).message).not.toContain('context was destroyed');
      expect((error as Error).message).toMatch(/^the page (navigated|landed)/);
    }
  });
});

test.describe('docs/contract.md §5 "defines a global DATA … before its load event"', () => {
  test('a page that holds its load event back (a script of its own origin that never comes) is not read: its DATA may still change', async () => {
    // DATA is defined, then a parser-blocking script never arrives; the script after it, which the
    // finished page would run, changes DATA. What is there at the timeout is half-built.
    const page = (hold: string) =>
      `<html><body><script>window.DATA = { meta: { platforms: [] }, n: 1 };</script>` +
      `<script src="${hold}"></script><script>window.DATA.n = 2;</script></body></html>`;
    const error = await read({ '/r.html': page('/never.js'), '/never.js': 'never' }, '/r.html', 1_500);
    expect(error).toBeInstanceOf(ReportPageError);
    expect((error as Error).message).toBe(
      "report page did not load: its load event did not come within 1500 ms (L1_REQUEST_TIMEOUT_MS), and DATA is the report's only once it has (docs/contract.md §5): not read",
    );
    // Near miss: the same page whose script comes is read as the finished page has it.
    const data = await read({ '/r.html': page('/soon.js'), '/soon.js': '' }, '/r.html', 1_500);
    expect(data).toMatchObject({ n: 2 });
  });
});
