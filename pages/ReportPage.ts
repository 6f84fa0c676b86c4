import type { Page } from '@playwright/test';

/** The report page could not give a readable DATA: names what went wrong, for the run's reason. */
export class ReportPageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReportPageError';
  }
}

/** The page redirected to the login page: the session is missing or expired. */
export class SessionExpired extends Error {
  constructor() {
    super('the report page redirected to /login');
    this.name = 'SessionExpired';
  }
}

/**
 * The generated report (spec 2.1): reads the global DATA once (contract section 5: `const`, `let`,
 * `var` or `window.DATA`, defined before `load`). Returns the JSON-safe value for zod to validate.
 */
export class ReportPage {
  constructor(private readonly page: Page) {}

  /**
   * Opens the report and returns its DATA. When the page does not reach `load` in time (a slow or
   * unreachable third-party script), DATA is still read if the page defined it, with a note.
   */
  async readData(htmlUrl: string, timeoutMs: number): Promise<{ data: unknown; notes: string[] }> {
    const { page } = this;
    const notes: string[] = [];
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(`${e.name}: ${e.message.split('\n')[0]}`));
    let response;
    try {
      response = await page.goto(htmlUrl, { waitUntil: 'load', timeout: timeoutMs });
    } catch (e) {
      if (!(e instanceof Error) || e.name !== 'TimeoutError' || page.url() === 'about:blank') {
        throw new ReportPageError(`report page did not load: ${(e as Error).message.split('\n')[0]}`);
      }
      notes.push(
        `the report page did not reach its load event within ${timeoutMs} ms; DATA was read as defined by then`,
      );
    }
    if (new URL(page.url()).pathname.endsWith('/login')) throw new SessionExpired();
    if (response && response.status() >= 400)
      throw new ReportPageError(`report page answered HTTP ${response.status()}`);
    // A lexical global (`const DATA`) is not on window: evaluate the bare name (toolchain.md).
    const json = await page.evaluate(
      `(() => { const d = typeof DATA !== 'undefined' ? DATA : window.DATA;
                return d === undefined ? undefined : JSON.stringify(d); })()`,
    );
    if (typeof json !== 'string') {
      const why = pageErrors.length ? ` (the page's script failed: ${pageErrors.join('; ')})` : '';
      throw new ReportPageError(`the report page defines no DATA variable${why}`);
    }
    return { data: JSON.parse(json) as unknown, notes };
  }
}
