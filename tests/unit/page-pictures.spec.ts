import http from 'node:http';
import { chromium, type Browser, type Page } from '@playwright/test';
import { expect, test } from './test-type';
import { chromiumLaunchOptions } from '../../lib/run/browser';
import { newBoxedContext } from '../../pages/box';
import { ReportPage } from '../../pages/ReportPage';
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
  server = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(page));
  origin = await listenLocal(server);
  browser = await chromium.launch(chromiumLaunchOptions());
});

test.afterAll(async () => {
  await browser?.close();
  await closeLocal(server);
});

/** How many pixels of a JPEG are the mask's magenta, counted in the browser (no image library here). */
async function magenta(page: Page, jpeg: Buffer): Promise<number> {
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
      return n;
    },
    `data:image/jpeg;base64,${jpeg.toString('base64')}`,
  );
}

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
