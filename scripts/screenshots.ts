// `npx tsx scripts/screenshots.ts [report.html] [out-dir]`: PNG screenshots of the single-file Allure
// report for the README (README.md § Reading the Allure report), taken the way a reviewer reads it: by clicking through the UI
// of the report opened from disk (file://). Fails if the report asks for anything but file:, data:
// or blob: URLs: the report must work offline and call nobody.
//
// It expects a night like
//   npm run demo -- --scenario A-monitor,drift-a-rank-swap,fault-403,b-diagnosis-needs-input
// and writes, into out-dir (default docs/images):
//   allure-overview.png     the Results tab: totals, the environment block (Metadata), the runs
//   allure-categories.png   the Categories tab: values differ / run not checked: … / needs input
//   allure-grid.png         Global Attachments: the run × item grid and the runs not checked
//   allure-mismatch.png     the failing item (MISMATCH below): its step, the mismatch table, the section
//   allure-not-checked.png  the collection test of the run not checked (NOT_CHECKED below)
// Browser: the suite's own (lib/run/browser.ts: L1_CHROMIUM_PATH, else Debian's or Playwright's,
// with this workplace's flags).
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Locator } from 'playwright-core';
import { itemTitle } from '../lib/rules/items';
import { chromiumLaunchOptions } from '../lib/run/browser';
import { parseArgsOrUsage } from '../lib/util/args';
import { escapeRegExp } from '../lib/util/escape';

const USAGE = 'usage: npx tsx scripts/screenshots.ts [report.html] [out-dir]';
const { values, positionals } = parseArgsOrUsage(
  { allowPositionals: true, strict: true, options: { help: { type: 'boolean', short: 'h' } } },
  'screenshots',
  USAGE,
);
if (values.help) {
  process.stdout.write(
    `${USAGE}\nPNG pictures of the single-file Allure report for the README (its header says which night)\n`,
  );
  process.exit(0);
}
const [reportArg = 'allure-report/index.html', outArg = 'docs/images'] = positionals;
const report = path.resolve(reportArg);
const out = path.resolve(outArg);
if (!fs.existsSync(report)) {
  process.stderr.write(`screenshots: no report at ${report}: build it with npm run report\n`);
  process.exit(2);
}
fs.mkdirSync(out, { recursive: true });

/** The failing item shown in allure-mismatch.png: category, test title, its first failing step. */
const MISMATCH = {
  category: 'values differ',
  test: new RegExp(`item 0?5 · ${escapeRegExp(itemTitle(5))}`),
  table: /5\.1 · .* · mismatch table/,
  section: /report section · item 0?5(?!\d)/,
};
/** The run not checked shown in allure-not-checked.png, by the category that lists it. */
const NOT_CHECKED = { category: 'run not checked: platform' };
const WIDTH = 1400;
const HEIGHT = 900;

async function main(): Promise<void> {
  const browser = await chromium.launch(chromiumLaunchOptions());
  const context = await browser.newContext({ viewport: { width: WIDTH, height: HEIGHT }, locale: 'en-US' });
  const offline = /^(file|data|blob|about):/i;
  const outside: string[] = [];
  context.on('request', (r) => {
    if (!offline.test(r.url())) outside.push(r.url());
  });
  // Anything that would leave the machine is refused, and counted above.
  await context.route(
    (url) => !offline.test(url.href),
    (route) => route.abort('blockedbyclient'),
  );
  const page = await context.newPage();
  const written: string[] = [];

  const byId = (id: string) => page.getByTestId(id);
  const settle = () => page.waitForTimeout(400);

  /** The scroll container of the awesome layout scrolls on its own (to the active tree leaf). */
  async function scrollTop() {
    await page.evaluate(() => {
      for (const e of document.querySelectorAll('*')) if (e.scrollTop > 0) e.scrollTop = 0;
    });
    await settle();
  }

  /** The white card in the middle of the layout, as x and width. */
  async function card(locator: Locator) {
    return locator.evaluate((el) => {
      let e: Element = el;
      while (e.parentElement && e.getBoundingClientRect().width < 880) e = e.parentElement;
      const r = e.getBoundingClientRect();
      return { x: Math.max(0, r.x - 8), width: Math.min(window.innerWidth, r.width + 16) };
    });
  }

  /** Screenshot of the card from the top of `from` to the bottom of `to` (the viewport grown to fit). */
  async function shoot(
    name: string,
    from: Locator,
    to: Locator,
    {
      pad = 12,
      above = 0,
      below = pad,
      frame = from,
    }: { pad?: number; above?: number; below?: number; frame?: Locator } = {},
  ) {
    await page.setViewportSize({ width: WIDTH, height: 3000 });
    await settle();
    await scrollTop();
    const a = await from.boundingBox();
    const b = await to.boundingBox();
    if (!a || !b) throw new Error(`${name}: an element to frame is not visible`);
    const { x, width } = await card(frame);
    const y = Math.max(0, a.y - pad - above);
    const file = path.join(out, name);
    await page.screenshot({ path: file, clip: { x, y, width, height: b.y + b.height + below - y } });
    await page.setViewportSize({ width: WIDTH, height: HEIGHT });
    written.push(file);
  }

  /** The subtree (section + content) of a tree section with this title, in the current tab. */
  const subtree = (title: string) =>
    page.locator('div').filter({
      has: page.locator(':scope > [data-testid=tree-section]', { hasText: title }),
    });

  async function expandAttachment(title: string | RegExp) {
    const header = byId('test-result-attachment-header').filter({ hasText: title }).first();
    const attachment = byId('test-result-attachment').filter({ has: header }).first();
    await header.locator('button').first().click();
    await settle();
    return attachment;
  }

  await page.goto(pathToFileURL(report).href);
  await byId('nav-tab-results').waitFor();
  await settle();

  // (a) Overview: the totals, the environment block in full, the runs (their subtrees collapsed).
  await page.getByRole('button', { name: 'Show more', exact: true }).first().click();
  await settle();
  for (;;) {
    const open = await page.evaluate(() => {
      const sections = [...document.querySelectorAll('[data-testid=tree-section]')];
      // the first open section in document order is a top-level one (a parent precedes its children)
      return sections.findIndex((s) =>
        s.nextElementSibling?.querySelector('[data-testid=tree-leaf-title], [data-testid=tree-section]'),
      );
    });
    if (open < 0) break;
    await byId('tree-section').nth(open).getByTestId('tree-arrow').click();
    await settle();
  }
  const lastRun = byId('tree-section').last();
  await shoot('allure-overview.png', byId('report-header'), lastRun, { above: 16 });

  // (b) Categories: one group per kind of failure.
  await byId('nav-tab-categories').click();
  await settle();
  await shoot('allure-categories.png', byId('report-header'), byId('tree-leaf-title').last(), { above: 16 });

  // (c) Global Attachments: the run × item grid and the runs not checked, both opened.
  await byId('nav-tab-globalAttachments').click();
  await settle();
  const headers = byId('test-result-attachment-header');
  const count = await headers.count();
  for (let i = 0; i < count; i++) {
    await headers.nth(i).locator('button').first().click();
    await settle();
  }
  await shoot('allure-grid.png', byId('report-header'), byId('test-result-attachment').last(), {
    above: 16,
  });

  // (d) The failing item, reached from its category: the step, its mismatch table, the report section.
  await byId('nav-tab-categories').click();
  await settle();
  await subtree(MISMATCH.category)
    .getByTestId('tree-leaf-title')
    .filter({ hasText: MISMATCH.test })
    .first()
    .click();
  await byId('test-result-info-title').waitFor();
  await settle();
  await expandAttachment(MISMATCH.table);
  const section = await expandAttachment(MISMATCH.section);
  await section.locator('img').first().waitFor();
  await shoot('allure-mismatch.png', page.getByText('Test body', { exact: true }), section, {
    below: 2,
    frame: byId('test-result-info-title'),
  });

  // (e) The run not checked, reached from its category: one reason, the collection not green.
  await page.goBack();
  await byId('nav-tab-categories').waitFor();
  await settle();
  if (!(await subtree(NOT_CHECKED.category).getByTestId('tree-leaf-title').first().isVisible())) {
    await byId('nav-tab-categories').click();
    await settle();
  }
  await subtree(NOT_CHECKED.category).getByTestId('tree-leaf-title').first().click();
  await byId('test-result-info-title').waitFor();
  await settle();
  const steps = byId('test-result-steps-root');
  const last = (await steps.count()) ? steps.last() : byId('test-result-error').last();
  await shoot('allure-not-checked.png', byId('test-result-info-title'), last, { above: 60 });

  await browser.close();
  for (const file of written) {
    process.stdout.write(
      `${path.relative(process.cwd(), file)}  ${Math.round(fs.statSync(file).size / 1024)} KB\n`,
    );
  }
  if (outside.length) {
    process.stderr.write(`screenshots: the report asked for ${outside.length} URL(s) outside file://:\n`);
    for (const url of [...new Set(outside)]) process.stderr.write(`  ${url}\n`);
    process.exit(1);
  }
  process.stdout.write('no request left file:// (offline)\n');
}

main().catch((e: unknown) => {
  process.stderr.write(`screenshots: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
