import type { Page } from '@playwright/test';
import { parseDataText, READER_INIT, readDataText } from './data-reader';
import { PHONE_ON_SCREEN, redactText } from '../lib/redaction/url';
import { sha256 } from '../lib/util/hash';
import { FENCE_ERROR } from './fence';

/** The report page could not give a readable DATA: names what went wrong, for the run's reason. */
export class ReportPageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReportPageError';
  }
}

/**
 * The page redirected to the login page of its own origin: the session is missing or expired
 * (docs/contract.md §3; a /login of another origin is a ReportPageError, where the page landed).
 */
export class SessionExpired extends Error {
  constructor() {
    super('the report page redirected to /login');
    this.name = 'SessionExpired';
  }
}

export interface ReadDataOptions {
  /** Navigation and DATA evaluation, each (L1_REQUEST_TIMEOUT_MS). */
  timeoutMs: number;
  /** Largest DATA accepted, counted by the suite as it is transferred (L1_MAX_ANSWER_MB). */
  maxBytes: number;
}

/** A section screenshot: readable, small (JPEG), bounded in time. */
const SHOT_TIMEOUT_MS = 3_000;
/**
 * A section taller than this is pictured from its top down to this height. A word cloud of 50,000
 * words (demo scenario hostile-words-50000, with the demo's charts) drew a section 140,455 px tall:
 * its picture waited out the whole timeout for each selector, and where it finished, Chromium gave
 * an empty JPEG (a JPEG's side is at most 65,535 px). Its top says what the section shows.
 */
export const SHOT_MAX_HEIGHT_PX = 3_000;
/** The attribute the picture's own style names a section by while a tall one is pictured. */
const SHOT_MARK = 'data-l1-picture';

const PAGE_ERRORS_SHOWN = 3;

/**
 * The htmlUrl query parameters the run's facts are read from (docs/contract.md §1.1): a page that
 * landed with another value of one (or without it, or with it added) is another report.
 */
const READ_PARAMS = [
  'reportType',
  'report_type',
  'batchDate',
  'batch_date',
  'companyId',
  'company_id',
  'topic',
  'topicId',
] as const;

/** A query parameter as a message shows it: `topic=2`, or `no topic`. */
function showParam(url: URL, name: string): string {
  const values = url.searchParams.getAll(name);
  if (values.length === 0) return `no ${name}`;
  return values.map((v) => `${name}=${v.length > 100 ? `${v.slice(0, 100)}…` : v}`).join('&');
}

/**
 * What makes `now` another page than the report `asked` for: its origin and path, or a query
 * parameter the suite reads (other parameters may change, the fragment too); undefined when none.
 */
/** A path as a static host serves it: `/r/x`, `/r/x/` and `/r/x/index.html` are one page. */
const samePath = (a: string, b: string) => {
  const plain = (p: string) => p.replace(/\/index\.html?$/i, '').replace(/\/+$/, '');
  return plain(a) === plain(b);
};

function elsewhere(asked: URL, now: URL): string | undefined {
  if (now.origin !== asked.origin || !samePath(now.pathname, asked.pathname))
    return `${now.origin}${now.pathname}, not on the report that was asked for (${asked.origin}${asked.pathname})`;
  for (const name of READ_PARAMS) {
    const want = asked.searchParams.getAll(name);
    const got = now.searchParams.getAll(name);
    if (got.length !== want.length || got.some((v, i) => v !== want[i]))
      return `${now.origin}${now.pathname} with ${showParam(now, name)}, where the report asked for has ${showParam(asked, name)}`;
  }
  return undefined;
}

/**
 * What makes the address a page shows (`now`) another report than the one `asked` for, when the
 * document it was loaded as is that report: a page may tidy its address (history.replaceState, a
 * router) by dropping or reordering parameters, and stays the report; a path of another report, a
 * read parameter with another value, or an address that is no web address (a blob: or data:
 * document, which the main frame asks no server for) is elsewhere (review of 2026-11-28).
 */
function retitled(asked: URL, now: URL): string | undefined {
  if (now.protocol !== 'http:' && now.protocol !== 'https:')
    return `${now.protocol} ${now.href.slice(0, 60)}…, not on the report that was asked for (${asked.origin}${asked.pathname})`;
  const kept = new URL(now.href);
  // A read parameter the page dropped is not another value of it: compared as the one asked for.
  for (const name of READ_PARAMS)
    if (!kept.searchParams.has(name))
      for (const v of asked.searchParams.getAll(name)) kept.searchParams.append(name, v);
  return elsewhere(asked, kept);
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ReportPageError(`${what} did not finish within ${ms} ms`)), ms);
  });
  promise.catch(() => {}); // the loser of the race may still reject later
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * The generated report (spec 2.1): reads the global DATA once (docs/contract.md §5: `const`, `let`,
 * `var` or `window.DATA`, defined before `load`). The page DATA is read from must be the report
 * that was asked for: a redirect or a script navigation elsewhere (another origin or path, or
 * another value of a query parameter the run is read from) is an error saying where it landed
 * (the redirect to its own origin's /login aside, which means the session expired).
 */
export class ReportPage {
  /** The URL the page had when DATA was read (pictures are taken only while it still has it). */
  private readFrom: string | undefined;
  /** The report's URL that was asked for, when DATA was read: an address tidied since is still it. */
  private asked: URL | undefined;

  constructor(private readonly page: Page) {}

  async readData(htmlUrl: string, options: ReadDataOptions): Promise<{ data: unknown; textHash: string }> {
    const { page } = this;
    const { timeoutMs, maxBytes } = options;
    const pageErrors: string[] = [];
    let pageErrorCount = 0;
    page.on('pageerror', (e) => {
      pageErrorCount++;
      if (pageErrors.length < PAGE_ERRORS_SHOWN)
        // Masked before it is cut: a phone number or a token the cut runs through keeps digits
        // that no mask recognises afterwards (leak hunt of 2026-11-28).
        pageErrors.push(
          redactText(`${e.name.slice(0, 100)}: ${e.message.split('\n')[0]!.slice(0, 2000)}`).slice(0, 300),
        );
    });
    // Before any script of the page: the reader it cannot tamper with (pages/data-reader.ts).
    await page.addInitScript(READER_INIT);
    // The documents the main frame asked for: a redirect or a script that loads another page asks
    // for one; a page that only tidies its address (history.replaceState, a router) asks for none,
    // and its DATA is still the document's that was asked for (a platform audit of 2026-11-28: such
    // a page was "not this report").
    let document: string | undefined;
    page.on('request', (r) => {
      try {
        if (r.isNavigationRequest() && r.frame() === page.mainFrame()) document = r.url();
      } catch {
        // a service worker's request has no frame: no document of the page
      }
    });
    let response;
    try {
      response = await page.goto(htmlUrl, { waitUntil: 'load', timeout: timeoutMs });
    } catch (e) {
      const message = (e as Error).message.split('\n')[0] ?? '';
      // DATA is the report's once the page has loaded (docs/contract.md §5: defined before `load`).
      // Before that, a script still on its way may change it: what is there is not read, so a page
      // that holds its load event back cannot have its half-built DATA judged.
      if (e instanceof Error && e.name === 'TimeoutError' && page.url() !== 'about:blank')
        throw new ReportPageError(
          `report page did not load: its load event did not come within ${timeoutMs} ms (L1_REQUEST_TIMEOUT_MS), and DATA is the report's only once it has (docs/contract.md §5): not read`,
        );
      throw new ReportPageError(`report page did not load: ${message}`);
    }
    const asked = new URL(htmlUrl);
    const landed = new URL(document ?? page.url());
    // docs/contract.md §3: "only when that page redirects to its own `/login` **and** its origin is
    // trusted does the suite log in there": only the report's own origin's /login is an expired
    // session (the caller, lib/platform/collect.ts, logs in there once, if trusted, and loads the
    // page again). A /login of any other origin (another host, scheme or port of this host) is
    // where the page landed, an error: no login anywhere, no session sent there again.
    // The document asked for, or the address the page then gave itself (a single-page app's router).
    const shown = new URL(page.url());
    if ([landed, shown].some((u) => u.origin === asked.origin && u.pathname.endsWith('/login')))
      throw new SessionExpired();
    const off = elsewhere(asked, landed) ?? (shown.href === landed.href ? undefined : retitled(asked, shown));
    if (off)
      throw new ReportPageError(
        landed.origin !== asked.origin && landed.pathname.endsWith('/login')
          ? `the page landed on ${off}: the login page of another origin, where the suite does not log in (docs/contract.md §3)`
          : `the page landed on ${off}: its DATA is not this report's`,
      );
    // The box's fence answers for a host that did not (pages/fence.ts), as Chromium would have failed.
    const unanswered = response?.status() === 502 ? response.headers()[FENCE_ERROR] : undefined;
    if (unanswered !== undefined)
      throw new ReportPageError(
        /^E[A-Z_]+$/.test(unanswered)
          ? `report page did not load (${unanswered}): its host did not answer`
          : `report page did not load (${unanswered.slice(0, 40)}): its host's answer could not be passed on`,
      );
    if (response && response.status() >= 400)
      throw new ReportPageError(`report page answered HTTP ${response.status()}`);
    // Its address as DATA is read (a page may have tidied it as it loaded, above): a change while it
    // is read is the page moving under the reader.
    const before = page.url();
    let read;
    try {
      read = await withTimeout(
        readDataText(page, maxBytes),
        timeoutMs,
        'reading DATA in the page (its script may be busy)',
      );
    } catch (e) {
      // The page went elsewhere while its DATA was read (a script's location change, a refresh):
      // said as a page that moves, not as Playwright's "Execution context was destroyed".
      if (e instanceof ReportPageError || !/context was destroyed|navigat/i.test((e as Error).message))
        throw e;
      const where = elsewhere(asked, new URL(page.url()));
      throw new ReportPageError(
        where
          ? `the page navigated to ${where}, while DATA was read: not read`
          : 'the page navigated away while DATA was read (a script of the page changed its location or reloaded it): not read',
      );
    }
    if (read.kind === 'none') {
      const more =
        pageErrorCount > pageErrors.length ? `; and ${pageErrorCount - pageErrors.length} more` : '';
      const why = pageErrors.length ? ` (the page's script failed: ${pageErrors.join('; ')}${more})` : '';
      throw new ReportPageError(`the report page defines no DATA variable${why}`);
    }
    if (read.kind === 'cycle')
      throw new ReportPageError('DATA refers to itself (a cycle): not a JSON object');
    if (read.kind === 'too-large')
      throw new ReportPageError(
        `DATA exceeds ${Math.round(maxBytes / 1024 / 1024)} MB (L1_MAX_ANSWER_MB), counted by the suite as it was read: not read`,
      );
    if (read.kind === 'too-deep')
      throw new ReportPageError('DATA is nested deeper than any report (64 levels): not read');
    if (read.kind === 'error' || read.text === undefined)
      throw new ReportPageError(`DATA could not be read: ${read.message ?? 'no text'}`);
    // A tidied address is still the report (`retitled`), when the page tidies it after its load too
    // (a router's mounted hook: review of 2026-11-28).
    const moved = page.url() === before ? undefined : retitled(asked, new URL(page.url()));
    if (moved) throw new ReportPageError(`the page navigated to ${moved}, while DATA was read`);
    this.readFrom = page.url();
    this.asked = asked;
    let data: unknown;
    try {
      data = parseDataText(read.text);
    } catch (e) {
      throw new ReportPageError(`DATA is not JSON once read: ${(e as Error).message.slice(0, 200)}`);
    }
    // DATA's identity between two loads (the pictures' load: fixtures/collector.ts), hashed from the
    // text as read, where hashing the value meant writing tens of MB of JSON again.
    return { data, textHash: sha256(read.text) };
  }

  /**
   * item → JPEG of its section (selectors: lib/report/sections.ts), one screenshot per distinct
   * selector; a section the page lacks is noted, not an error. A page closed or crashed meanwhile
   * (its browser closed over L1_PAGE_MAX_MB: fixtures/collector.ts) ends the pictures, noted once.
   */
  async screenshotSections(
    selectors: Record<number, string>,
    notes: string[],
  ): Promise<Record<number, Buffer>> {
    const shots: Record<number, Buffer> = {};
    // Only the report that was read: a page that navigated away since is not pictured as evidence.
    if (
      this.readFrom &&
      this.page.url() !== this.readFrom &&
      (this.asked === undefined || retitled(this.asked, new URL(this.page.url())) !== undefined)
    ) {
      notes.push(
        `no section pictures: the page left the report after DATA was read (now ${new URL(this.page.url()).origin}${new URL(this.page.url()).pathname})`,
      );
      return shots;
    }
    let crashed = false;
    const onCrash = () => (crashed = true);
    this.page.on('crash', onCrash);
    try {
      const bySelector = new Map<string, Buffer | undefined>();
      const items = Object.entries(selectors);
      for (const [i, [item, selector]] of items.entries()) {
        if (!bySelector.has(selector)) {
          const { shot, note } = await this.sectionPicture(item, selector);
          if (!shot && (crashed || this.page.isClosed())) {
            for (const [n, other] of items.slice(i)) {
              const taken = bySelector.get(other);
              if (taken) shots[Number(n)] = taken;
            }
            const left = items
              .slice(i)
              .filter(([n]) => !shots[Number(n)])
              .map(([n]) => n);
            notes.push(
              `no screenshot of item${left.length === 1 ? '' : 's'} ${left.join(', ')}: the report page ${crashed ? 'crashed' : 'was closed'} while the pictures were taken`,
            );
            break;
          }
          if (note) notes.push(note);
          bySelector.set(selector, shot);
        }
        const shot = bySelector.get(selector);
        if (shot) shots[Number(item)] = shot;
      }
    } finally {
      this.page.off('crash', onCrash);
    }
    return shots;
  }

  /**
   * The picture of one section, or the note that says why there is none: a section the page lacks
   * (or shows nowhere) is missing; one that is there but gives no picture within SHOT_TIMEOUT_MS
   * (it never keeps still; Chromium gave an empty JPEG) is said so; a tall one is pictured from its
   * top down to SHOT_MAX_HEIGHT_PX, by a style that names it by a mark while the picture is taken.
   */
  private async sectionPicture(item: string, selector: string): Promise<{ shot?: Buffer; note?: string }> {
    const section = this.page.locator(selector).first();
    // Null when the page has no such section, or none that is visible.
    const box = await section.boundingBox({ timeout: SHOT_TIMEOUT_MS }).catch(() => null);
    // A report other than the bundled one has its own sections: the note says where to name them.
    if (!box)
      return {
        note: `no screenshot of item ${item}: the page has no visible ${selector} (L1_SECTION_SELECTORS names each item's section of your report)`,
      };
    const tall = box.height > SHOT_MAX_HEIGHT_PX;
    const mark = (on: boolean) =>
      section
        .evaluate((el, [name, set]) => (set ? el.setAttribute(name, '') : el.removeAttribute(name)), [
          SHOT_MARK,
          on,
        ] as const)
        .catch(() => {});
    if (tall) await mark(true);
    const shot = await section
      .screenshot({
        type: 'jpeg',
        quality: 70,
        timeout: SHOT_TIMEOUT_MS,
        animations: 'disabled',
        // A phone number the page shows is covered (a box of Playwright's mask colour): the guard
        // reads text, never a picture (README.md § Security and limits).
        mask: [this.page.getByText(PHONE_ON_SCREEN)],
        ...(tall
          ? {
              style: `[${SHOT_MARK}] { max-height: ${SHOT_MAX_HEIGHT_PX}px !important; overflow: hidden !important; }`,
            }
          : {}),
      })
      // An empty JPEG is no picture.
      .then((jpeg) => (jpeg.length ? jpeg : undefined))
      .catch(() => undefined);
    // Unmarked again: a later section that holds this one is pictured as the page draws it.
    if (tall) await mark(false);
    if (!shot)
      return {
        note: `no screenshot of item ${item}: its section ${selector} gave no picture within ${SHOT_TIMEOUT_MS} ms`,
      };
    return tall
      ? {
          shot,
          note: `the screenshot of item ${item} shows the top ${SHOT_MAX_HEIGHT_PX} px of its section ${selector}, which is ${Math.round(box.height)} px tall`,
        }
      : { shot };
  }
}
