import type { Page } from '@playwright/test';
import type { Credentials } from '../lib/run/credentials';

export class LoginError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LoginError';
  }
}

/**
 * The platform login page of contract section 3. Only this class knows its selectors. The caller
 * must keep tracing, screenshots and video off: credentials are typed here.
 */
export class LoginPage {
  constructor(
    private readonly page: Page,
    private readonly origin: string,
  ) {}

  /** Logs in; `who` names the account for messages ("company 1001"), never the phone. */
  async login(credentials: Credentials, who: string, timeoutMs: number): Promise<void> {
    const { page } = this;
    const response = await page
      .goto(`${this.origin}/login`, { timeout: timeoutMs, waitUntil: 'domcontentloaded' })
      .catch((e: Error) => {
        throw new LoginError(
          `login failed for ${who}: the login page ${this.origin}/login did not load (${e.message.split('\n')[0]})`,
        );
      });
    if (!response || response.status() >= 400) {
      throw new LoginError(
        `login failed for ${who}: the login page answered HTTP ${response?.status() ?? 'nothing'}`,
      );
    }
    await page.locator('input[name="phone"]').fill(credentials.phone, { timeout: timeoutMs });
    await page.locator('input[name="password"]').fill(credentials.password, { timeout: timeoutMs });
    const answer = page.waitForResponse((r) => new URL(r.url()).pathname.endsWith('/api/auth/login'), {
      timeout: timeoutMs,
    });
    await page.locator('button[type="submit"]').click({ timeout: timeoutMs });
    const loginResponse = await answer.catch(() => undefined);
    if (!loginResponse)
      throw new LoginError(`login failed for ${who}: no answer from /api/auth/login within ${timeoutMs} ms`);
    if (loginResponse.status() !== 200) {
      throw new LoginError(
        `login failed for ${who}: /api/auth/login answered HTTP ${loginResponse.status()}`,
      );
    }
    await page
      .waitForURL((url) => !url.pathname.endsWith('/login'), { timeout: timeoutMs })
      .catch(() => {
        throw new LoginError(`login failed for ${who}: the page stayed on /login after a successful answer`);
      });
  }
}
