import fs from 'node:fs';
import path from 'node:path';
import { chromium, expect, type Browser } from '@playwright/test';
import { suiteBaseTest } from '../../../fixtures/base';
import { ensureSession } from '../../../lib/platform/sessions';
import { safeText } from '../../../lib/report/text';
import { ITEM_NUMBERS } from '../../../lib/rules/types';
import { runsOfPart, type ConfiguredRun } from '../../../lib/run/runs';
import { settings } from '../../../lib/run/settings';
import { BARE_TIMEOUT_MS, bareCollect } from '../bare-collect';
import { PW_FLOOR_AUTH_ENV, PW_FLOOR_STATUS } from './paths';

/**
 * The Playwright floor (README.md § Speed): the floor's work (scripts/bench/bare-collect.ts) laid
 * out as the suite lays out its tests — the runs of one part, a collection test and ten item tests
 * per run, in one worker in order, sessions shared by the workers through files — and nothing
 * else: no rules, no records, no verdicts, no attachments, no Allure messages. A run that cannot
 * be checked fails its collection test (Playwright then restarts the worker, as for the suite) and
 * skips its item tests. What the suite costs above this is the suite's own work.
 */
const test = suiteBaseTest.extend<object, { bareBrowser: () => Promise<Browser> }>({
  bareBrowser: [
    async ({ launchOptions }, use) => {
      let launched: Promise<Browser> | undefined;
      await use(() => (launched ??= chromium.launch(launchOptions)));
      if (launched) await (await launched).close();
    },
    { scope: 'worker', box: 'self' },
  ],
});

const statusFile = (run: ConfiguredRun) => path.join(PW_FLOOR_STATUS, run.slug);

export function declareFloorTests(part: number): void {
  const { runs, profileB, root, env } = settings();
  const authDir = process.env[PW_FLOOR_AUTH_ENV];
  if (!authDir)
    throw new Error(`${PW_FLOOR_AUTH_ENV} is not set: run scripts/bench/pw-floor/playwright.config.ts`);
  const sessions = { root, authDir, env, timeoutMs: BARE_TIMEOUT_MS };
  test.describe.configure({ mode: 'parallel' });
  for (const run of runsOfPart(runs, part)) {
    test.describe(safeText(run.label, 200), () => {
      test.describe.configure({ mode: 'default' });
      test('collection', async ({ bareBrowser }) => {
        const evidence = await bareCollect(run, {
          root,
          profileB,
          session: (loginBase, key, force) => ensureSession(sessions, loginBase, key, force),
          browser: bareBrowser,
        });
        fs.writeFileSync(statusFile(run), evidence.status);
        expect(evidence.status, evidence.reason).toBe('checked');
      });
      for (const item of ITEM_NUMBERS)
        test(`item ${item}`, () => {
          const status = fs.readFileSync(statusFile(run), 'utf8');
          test.skip(status !== 'checked', `not checked: ${status}`);
        });
    });
  }
}
