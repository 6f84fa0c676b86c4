import type { Page, Route } from '@playwright/test';
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
 *
 * Credentials go only to the origin they belong to (contract 3): while this page is open, every
 * request to another origin is aborted, a POST is allowed only to `{loginBase}/api/auth/login`, and
 * the form is filled only when the page that was reached is `{loginBase}/login` itself. A login page
 * that moved to another origin is an error, never a login.
 */
export class LoginPage {
  private readonly origin: string;

  constructor(
    private readonly page: Page,
    private readonly loginBase: string,
  ) {
    this.origin = new URL(loginBase).origin;
  }

  private async guard(route: Route): Promise<void> {
    const request = route.request();
    const url = new URL(request.url());
    const sameOrigin = url.origin === this.origin;
    const postAllowed =
      request.method() === 'GET' ||
      url.href.split('?')[0] === `${this.loginBase}/api/auth/login` ||
      url.href.split('?')[0] === `${this.origin}/api/auth/login`;
    if (sameOrigin && postAllowed) await route.continue();
    else await route.abort('blockedbyclient');
  }

  /** Logs in; `who` names the account for messages ("company 1001"), never the phone. */
  async login(credentials: Credentials, who: string, timeoutMs: number): Promise<void> {
    const { page } = this;
    const loginUrl = `${this.loginBase}/login`;
    let movedTo: string | undefined;
    page.on('request', (r) => {
      if (r.isNavigationRequest() && new URL(r.url()).origin !== this.origin)
        movedTo ??= new URL(r.url()).origin;
    });
    await page.route('**/*', (route) => this.guard(route));
    const moved = () =>
      new LoginError(
        `login failed for ${who}: the login page moved to another origin (${movedTo ?? new URL(page.url()).origin}, configured ${this.origin}): credentials were not sent`,
      );
    const response = await page
      .goto(loginUrl, { timeout: timeoutMs, waitUntil: 'domcontentloaded' })
      .catch((e: Error) => {
        if (movedTo) throw moved();
        throw new LoginError(
          `login failed for ${who}: the login page ${loginUrl} did not load (${e.message.split('\n')[0]})`,
        );
      });
    const landed = new URL(page.url());
    if (movedTo || landed.origin !== this.origin) throw moved();
    if (`${landed.origin}${landed.pathname}` !== new URL(loginUrl).href.split('?')[0])
      throw new LoginError(
        `login failed for ${who}: the login page ${loginUrl} led to ${landed.origin}${landed.pathname}: credentials were not sent`,
      );
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
