import { test as setup } from '@playwright/test';
import * as allure from 'allure-js-commons';
import { ROOT, REQUEST_TIMEOUT_MS, STATE, settings } from '../../lib/run/config';
import { plannedLogins } from '../../lib/platform/plan';
import { ensureSession } from '../../lib/platform/sessions';

/**
 * Style: a setup project logs in once per company and host and saves the storage state under the
 * gitignored .auth/. A failed login never fails this project (that would skip every run): the
 * failure is remembered and each affected run fails with "login failed for company N".
 */
const { runs, profileB } = settings();

for (const login of plannedLogins(runs, profileB)) {
  setup(`login · ${login.title}`, async ({ browser }) => {
    await allure.epic('logins');
    try {
      await ensureSession(
        { root: ROOT, stateRoot: STATE, env: process.env, browser, timeoutMs: REQUEST_TIMEOUT_MS },
        login.loginBase,
        login.key,
      );
    } catch (e) {
      setup
        .info()
        .annotations.push({ type: 'login failed', description: e instanceof Error ? e.message : String(e) });
    }
  });
}
