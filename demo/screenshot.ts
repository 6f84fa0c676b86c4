/**
 * Screenshot of a rendered demo report, to see that a person can read it:
 *   npx tsx demo/screenshot.ts [label] [out.png]     (default: A-monitor → /tmp/report.png)
 * Starts its own demo on free ports, logs in through the API and hands the session cookie to a
 * headless Chromium, the suite's own (lib/run/browser.ts: L1_CHROMIUM_PATH, else Debian's or
 * Playwright's, with this workplace's flags). Demo data only; nothing secret is drawn.
 */
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { chromiumLaunchOptions } from '../lib/run/browser';
import { startDemo } from './server';

async function main(): Promise<void> {
  const [label = 'A-monitor', out = '/tmp/report.png'] = process.argv.slice(2);
  const credentialsFile = path.resolve(__dirname, '..', '.l1', 'demo', `screenshot-${process.pid}.json`);
  const demo = await startDemo({ port: 0, quiet: true, credentialsFile });
  const browser = await chromium.launch(chromiumLaunchOptions());
  try {
    const run = [...demo.runs, ...Object.values(demo.scenarioRuns)].find((r) => r.label === label);
    if (!run) throw new Error(`no demo run labelled ${label}`);
    const registry = JSON.parse(fs.readFileSync(credentialsFile, 'utf8')) as {
      companies: Record<string, { phone: string; password: string }>;
      profileB: { phone: string; password: string };
    };
    const url = new URL(run.htmlUrl);
    const company = url.searchParams.get('companyId') ?? url.searchParams.get('company_id') ?? '';
    const groupRun = url.host === demo.portalBHost || Number(company) === demo.profileB.companyId;
    const entry = groupRun ? registry.profileB : registry.companies[company];
    if (!entry) throw new Error(`no credentials entry for company ${company}`);
    const res = await fetch(`${demo.origin}/api/auth/login`, { method: 'POST', body: JSON.stringify(entry) });
    const token = (res.headers.get('set-cookie') ?? '').split(';')[0]?.split('=')[1];
    if (res.status !== 200 || !token) throw new Error(`login failed: HTTP ${res.status}`);
    const context = await browser.newContext({
      viewport: { width: 1280, height: 900 },
      deviceScaleFactor: 1,
    });
    await context.addCookies([
      { name: 'l1_session', value: token, domain: url.hostname, path: '/', httpOnly: true, sameSite: 'Lax' },
    ]);
    const page = await context.newPage();
    await page.goto(run.htmlUrl, { waitUntil: 'load' });
    await page.waitForTimeout(300);
    await page.screenshot({ path: out, fullPage: true });
    console.log(`${label}: ${out}`);
  } finally {
    await browser.close();
    await demo.close();
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : String(e));
  process.exit(1);
});
