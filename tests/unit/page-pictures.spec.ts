import http from 'node:http';
import { chromium, type Browser, type Page } from '@playwright/test';
import { expect, test } from './test-type';
import { chromiumLaunchOptions } from '../../lib/run/browser';
import { newBoxedContext } from '../../pages/box';
import { ReportPage, SHOT_MAX_HEIGHT_PX } from '../../pages/ReportPage';
import { closeLocal, listenLocal } from './fakes/local';

/**
 * Section pictures never show a mobile number (spec 1.5: never in an output; the redaction guard
 * reads text, not pictures): every element whose text holds one is covered by Playwright's mask.
 * The number is put together here so that no source file holds one whole.
 */
const PHONE = ['138', '0013', '8000'];

let browser: Browser;
let server: http.Server;
let origin: string;

test.beforeAll(async () => {
  const section = (id: string, text: string) =>
    `<div id="${id}" style="width:480px;height:90px;background:#fff;color:#000;font:40px monospace">${text}</div>`;
  const page = `<html><body>
    ${section('bare', PHONE.join(''))}
    ${section('grouped', `tel +86 ${PHONE.join(' ')}`)}
    ${section('none', 'exposure 49.64%')}
    ${section('long', `id ${PHONE.join('')}7`)}
  </body></html>`;
  // Sections of any height: the height in the query, or one that moves on every frame, never stable.
  const sized = (height: number) => `<html><body style="margin:0">
    <div id="s" style="width:400px;height:${height}px;background:linear-gradient(#fff,#000)">top</div>
    <div id="moving" style="position:absolute;left:0;top:0;width:50px;height:50px;background:#f00"></div>
    <script>(function f(t){ document.getElementById('moving').style.left = (t % 500) + 'px'; requestAnimationFrame(f); })(0)</script>
  </body></html>`;
  server = http.createServer((req, res) => {
    const height = new URL(req.url ?? '/', 'http://x').searchParams.get('height');
    res.writeHead(200, { 'content-type': 'text/html' }).end(height ? sized(Number(height)) : page);
  });
  origin = await listenLocal(server);
  browser = await chromium.launch(chromiumLaunchOptions());
});

test.afterAll(async () => {
  await browser?.close();
  await closeLocal(server);
});

/**
 * A JPEG's height and how many of its pixels are the mask's magenta, read in the browser (no image
 * library here).
 */
async function jpegFacts(page: Page, jpeg: Buffer): Promise<{ height: number; magenta: number }> {
  return page.evaluate(
    async (src) => {
      const img = new Image();
      img.src = src;
      await img.decode();
      const canvas = document.createElement('canvas');
      canvas.width = img.width;
      canvas.height = img.height;
      const g = canvas.getContext('2d')!;
      g.drawImage(img, 0, 0);
      const { data } = g.getImageData(0, 0, img.width, img.height);
      let n = 0;
      for (let i = 0; i < data.length; i += 4)
        if (data[i]! > 200 && data[i + 1]! < 90 && data[i + 2]! > 200) n++;
      return { height: img.height, magenta: n };
    },
    `data:image/jpeg;base64,${jpeg.toString('base64')}`,
  );
}
const magenta = async (page: Page, jpeg: Buffer) => (await jpegFacts(page, jpeg)).magenta;

test('a section that shows a mobile number, bare or grouped, is pictured with the number covered; the others as they are', async () => {
  const { context } = await newBoxedContext(browser, [origin]);
  try {
    const page = await context.newPage();
    await page.goto(`${origin}/r.html`);
    const notes: string[] = [];
    const shots = await new ReportPage(page).screenshotSections(
      { 3: '#bare', 4: '#grouped', 5: '#none', 6: '#long' },
      notes,
    );
    expect(notes).toEqual([]);
    const counter = await browser.newPage();
    try {
      expect(await magenta(counter, shots[3]!)).toBeGreaterThan(1_000);
      expect(await magenta(counter, shots[4]!)).toBeGreaterThan(1_000);
      // Near misses: no number, and a run of twelve digits that is an id, not a phone.
      expect(await magenta(counter, shots[5]!)).toBe(0);
      expect(await magenta(counter, shots[6]!)).toBe(0);
    } finally {
      await counter.close();
    }
  } finally {
    await context.close();
  }
});

test('a section taller than SHOT_MAX_HEIGHT_PX is pictured from its top down to it, and the note says so; one of that very height is pictured whole, without a note', async () => {
  const counter = await browser.newPage();
  try {
    // 150,000 px: as a word cloud of 50,000 words (hostile-words-50000 with the demo's charts),
    // whose picture waited out its timeout, or came back as an empty JPEG.
    for (const [height, pictured, note] of [
      [150_000, SHOT_MAX_HEIGHT_PX, true],
      [SHOT_MAX_HEIGHT_PX, SHOT_MAX_HEIGHT_PX, false],
      [200, 200, false],
    ] as const) {
      const { context } = await newBoxedContext(browser, [origin]);
      const page = await context.newPage();
      await page.goto(`${origin}/r.html?height=${height}`);
      const notes: string[] = [];
      const began = Date.now();
      const shots = await new ReportPage(page).screenshotSections({ 6: '#s', 7: '#s' }, notes);
      expect(Date.now() - began, `${height} px`).toBeLessThan(2_500);
      expect(notes).toEqual(
        note
          ? [
              `the screenshot of item 6 shows the top ${SHOT_MAX_HEIGHT_PX} px of its section #s, which is ${height} px tall`,
            ]
          : [],
      );
      expect((await jpegFacts(counter, shots[6]!)).height, `${height} px`).toBe(pictured);
      expect(shots[7]).toBe(shots[6]); // one picture per distinct selector
      await expect(page.locator('[data-l1-picture]')).toHaveCount(0); // the page as it was drawn
      await context.close();
    }
  } finally {
    await counter.close();
  }
});

test('a section that is there but gives no picture in time is said so, not called missing; a missing one is', async () => {
  // Each waits out the pictures' timeout (3 s): on two pages at once.
  const pictured = async (selectors: Record<number, string>) => {
    const { context } = await newBoxedContext(browser, [origin]);
    try {
      const page = await context.newPage();
      await page.goto(`${origin}/r.html?height=100`);
      const notes: string[] = [];
      const shots = await new ReportPage(page).screenshotSections(selectors, notes);
      return { shots, notes };
    } finally {
      await context.close();
    }
  };
  // #moving moves on every frame (a script, not a CSS animation): never stable, so never pictured.
  const [moving, absent] = await Promise.all([pictured({ 3: '#moving' }), pictured({ 4: '#absent' })]);
  expect([moving.shots, absent.shots]).toEqual([{}, {}]);
  expect(moving.notes).toEqual([
    'no screenshot of item 3: its section #moving gave no picture within 3000 ms',
  ]);
  expect(absent.notes).toEqual([
    "no screenshot of item 4: the page has no visible #absent (L1_SECTION_SELECTORS names each item's section of your report)",
  ]);
});
