import { request, test as setup } from '@playwright/test';
import * as allure from 'allure-js-commons';
import { collectRun } from '../../lib/platform/collect';
import { writeEvidence } from '../../lib/platform/evidence';
import { ensureSession } from '../../lib/platform/sessions';
import { ROOT, REQUEST_TIMEOUT_MS, RETRY_BACKOFF_MS, STATE, settings } from '../../lib/run/config';
import { ReportPage } from '../../pages/ReportPage';

/**
 * One evidence set per run, collected once (contract 4, 6): the page is loaded once and each
 * endpoint called once; every item test of the run reads the file this writes. A failure becomes
 * the run's status and reason: this setup never fails, so other runs and the verdict file go on.
 */
const { runs, profileB } = settings();

for (const run of runs) {
  setup(`collect · ${run.label}`, async ({ browser }) => {
    await allure.epic(run.label);
    await allure.feature('collection (page and endpoints, once)');
    const sessionOptions = {
      root: ROOT,
      stateRoot: STATE,
      env: process.env,
      browser,
      timeoutMs: REQUEST_TIMEOUT_MS,
    };
    const evidence = await collectRun(run, {
      root: ROOT,
      profileB,
      timeoutMs: REQUEST_TIMEOUT_MS,
      retries: 2,
      backoffMs: RETRY_BACKOFF_MS,
      session: (loginBase, key, force) => ensureSession(sessionOptions, loginBase, key, force),
      readPage: async (htmlUrl, storageState) => {
        const context = await browser.newContext({ storageState });
        try {
          return await new ReportPage(await context.newPage()).readData(htmlUrl, REQUEST_TIMEOUT_MS);
        } finally {
          await context.close();
        }
      },
      newApiContext: (storageState) => request.newContext({ storageState, timeout: REQUEST_TIMEOUT_MS }),
    });
    writeEvidence(STATE, run.slug, evidence);
    if (evidence.status !== 'checked') {
      // Shown on this setup test; the run's item tests fail with the same reason.
      setup.info().annotations.push({ type: `run ${evidence.status}`, description: evidence.reason ?? '' });
    }
    const { data: _data, platform: _platform, ...summary } = evidence;
    await setup.info().attach('collection summary', {
      body: JSON.stringify(summary, null, 2),
      contentType: 'application/json',
    });
  });
}
