import type { Credentials } from '../run/credentials';

export class LoginError extends Error {
  /**
   * Trying again may mend it (HTTP 5xx or 408, no answer, a refused or reset connection):
   * lib/platform/sessions.ts does not remember it, so the next run of the account logs in again.
   */
  readonly transient: boolean;
  constructor(message: string, transient = false) {
    super(message);
    this.name = 'LoginError';
    this.transient = transient;
  }
}

/** An HTTP status of the login that a later try may not get: the platform's moment, not its answer. */
const transientStatus = (status: number) => status >= 500 || status === 408;
/** Network failures of a moment (Node's and undici's codes). */
const TRANSIENT_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_SOCKET',
]);

/** A cookie as Playwright's storage state holds it (so the report page's browser context can use it). */
export interface SessionCookie {
  name: string;
  value: string;
  domain: string;
  path: string;
  expires: number;
  httpOnly: boolean;
  secure: boolean;
  sameSite: 'Lax' | 'Strict' | 'None';
}

/**
 * An `Expires` that is a date (RFC 6265 §5.1.1: a time and a four-digit year; `Expires=0` or a
 * two-digit year, which Date.parse reads its own way, are ignored, as a browser ignores what it
 * cannot parse, and the cookie stays).
 */
const COOKIE_DATE = /\b\d{1,2}:\d{1,2}:\d{1,2}\b/;
const FOUR_DIGIT_YEAR = /\b\d{4}\b/;

/**
 * One `Set-Cookie` header, and whether it deletes its cookie (RFC 6265 §5.3: `Max-Age` of zero or
 * less, else an `Expires` in the past; `Max-Age` wins). A platform that clears the old session
 * before it sets the new one (`l1_session=; Max-Age=0`, then `l1_session=<new>`) must leave the
 * new one alone, as a browser would.
 */
function parseSetCookie(
  header: string,
  host: string,
  now: number,
): { cookie: SessionCookie; deletes: boolean; markedHttpOnly: boolean } | undefined {
  const [pair, ...attributes] = header.split(';').map((p) => p.trim());
  const eq = pair?.indexOf('=') ?? -1;
  if (!pair || eq <= 0) return undefined;
  const cookie: SessionCookie = {
    name: pair.slice(0, eq),
    value: pair.slice(eq + 1),
    domain: host,
    path: '/',
    expires: -1,
    // HttpOnly unless keptCookies finds it no secret (docs/contract.md §3: the session cookie is
    // HttpOnly): a platform that leaves the flag out must not hand the session to the report page's
    // scripts, which could write it into a URL the box then names in the run's notes.
    httpOnly: true,
    secure: false,
    sameSite: 'Lax',
  };
  let maxAge: number | undefined;
  let expires: number | undefined;
  let markedHttpOnly = false;
  for (const attribute of attributes) {
    const at = attribute.indexOf('=');
    const k = at < 0 ? attribute : attribute.slice(0, at);
    const v = at < 0 ? '' : attribute.slice(at + 1).trim();
    const key = k.trim().toLowerCase();
    if (key === 'max-age' && /^-?\d+$/.test(v)) maxAge = Number(v);
    else if (
      key === 'expires' &&
      COOKIE_DATE.test(v) &&
      FOUR_DIGIT_YEAR.test(v) &&
      !Number.isNaN(Date.parse(v))
    )
      expires = Date.parse(v);
    else if (key === 'path' && v) cookie.path = v;
    else if (key === 'secure') cookie.secure = true;
    else if (key === 'httponly') markedHttpOnly = true;
    else if (key === 'samesite' && /^(lax|strict|none)$/i.test(v))
      cookie.sameSite = (v[0]!.toUpperCase() + v.slice(1).toLowerCase()) as SessionCookie['sameSite'];
    // A Domain attribute is ignored on purpose: the session stays host-only, on the origin it came from.
  }
  const deletes = maxAge !== undefined ? maxAge <= 0 : expires !== undefined && expires <= now;
  return { cookie, deletes, markedHttpOnly };
}

/**
 * A cookie name that says it carries a session or a credential (`JSESSIONID`, `PHPSESSID`, `l1sid`,
 * `auth_token`), found anywhere in the name. Not lib/redaction/url.ts SECRET_PARAM_NAMES, which
 * reads whole query names (`sid`, `…session…`) and would miss `PHPSESSID` and `l1sid`.
 */
const SESSION_NAME = /sess|sid|token|auth|jwt|key|secret|login|user|account|phone|mobile|pass|cred|sign/i;

/**
 * The session: every cookie a browser keeps after the login answer's `Set-Cookie` headers, in
 * order (a later cookie of the same name and path replaces an earlier one, a deleting one removes
 * it), all sent back as a browser would. Of them, the secrets are held HttpOnly in the report
 * page's context, and only they are masked in outputs and their hashes kept for the redaction
 * guard (lib/redaction/mask.ts, seen-cookies.ts: a cookie stored with `httpOnly: false` is none):
 * those the platform marks HttpOnly (contract §3: "a Set-Cookie session cookie (HttpOnly,
 * Path=/)") and those whose name says session or credential, or every one when the platform marks
 * none. A cookie the platform lets its own pages read under a plain name (a time zone, a language,
 * a last project) is not a secret: held as one, `tz=Asia/Shanghai` masked the night's time zone in
 * every run's outputs and failed the guard night after night (hostile-platform audit of
 * 2026-11-27), and dropping it instead lost a session whose cookie lacked the flag beside one that
 * had it (review of the same day).
 */
function keptCookies(headers: string[], host: string): SessionCookie[] {
  const now = Date.now();
  const kept = new Map<string, { cookie: SessionCookie; markedHttpOnly: boolean }>();
  for (const header of headers) {
    const parsed = parseSetCookie(header, host, now);
    if (!parsed) continue;
    const key = `${parsed.cookie.name}\n${parsed.cookie.path}`;
    kept.delete(key);
    if (!parsed.deletes) kept.set(key, parsed);
  }
  const all = [...kept.values()];
  const anyMarked = all.some((c) => c.markedHttpOnly);
  return all.map(({ cookie, markedHttpOnly }) => ({
    ...cookie,
    httpOnly: !anyMarked || markedHttpOnly || SESSION_NAME.test(cookie.name),
  }));
}

async function get(url: string, init: RequestInit, timeoutMs: number, who: string): Promise<Response> {
  try {
    return await fetch(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
  } catch (e) {
    const name = (e as Error).name;
    const timedOut = name === 'TimeoutError' || name === 'AbortError';
    const code = (e as { cause?: { code?: string } }).cause?.code;
    const why = timedOut ? `no answer within ${timeoutMs} ms` : (code ?? (e as Error).message);
    // Transient: no answer, or a connection refused, reset or cut. Anything else (a certificate the
    // suite does not trust, a host name that does not resolve, an unknown failure) is a setting.
    throw new LoginError(
      `login failed for ${who}: ${new URL(url).pathname} did not load (${why})`,
      timedOut || TRANSIENT_CODES.has(code ?? ''),
    );
  }
}

/**
 * Contract 3, done as the login page does it: `GET {base}/login` must be that origin's own login
 * form (a redirect elsewhere is an error: the credentials are never sent), then the form's
 * `POST {base}/api/auth/login` with JSON `{phone, password}`; HTTP 200 and a session cookie are a
 * login. Node's fetch, never a browser page: no step title, trace or snapshot of a test can ever
 * hold the typed values, and no redirect is followed with them.
 */
export async function login(
  loginBase: string,
  credentials: Credentials,
  who: string,
  timeoutMs: number,
): Promise<{ cookies: SessionCookie[]; origins: [] }> {
  const base = new URL(loginBase);
  const loginPage = await get(`${loginBase}/login`, { headers: { accept: 'text/html' } }, timeoutMs, who);
  await loginPage.body?.cancel().catch(() => {});
  if (loginPage.status >= 300 && loginPage.status < 400) {
    const location = loginPage.headers.get('location') ?? '';
    // A Location that is no URL (`http://[::1`) is the login page's answer, said as one: it threw
    // URL's bare "Invalid URL", which named neither the account nor the login (review 59q).
    const target = URL.parse(location, `${loginBase}/login`);
    if (!target)
      throw new LoginError(
        `login failed for ${who}: the login page ${loginBase}/login redirects to an address that is no URL: credentials were not sent`,
      );
    if (target.origin !== base.origin)
      throw new LoginError(
        `login failed for ${who}: the login page moved to another origin (${target.origin}, configured ${base.origin}): credentials were not sent`,
      );
    throw new LoginError(
      `login failed for ${who}: the login page ${loginBase}/login redirects to ${target.pathname}: credentials were not sent`,
    );
  }
  if (loginPage.status !== 200)
    throw new LoginError(
      `login failed for ${who}: the login page answered HTTP ${loginPage.status}`,
      transientStatus(loginPage.status),
    );
  const answer = await get(
    `${loginBase}/api/auth/login`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ phone: credentials.phone, password: credentials.password }),
    },
    timeoutMs,
    who,
  );
  await answer.body?.cancel().catch(() => {});
  if (answer.status !== 200)
    throw new LoginError(
      `login failed for ${who}: /api/auth/login answered HTTP ${answer.status}`,
      transientStatus(answer.status),
    );
  const headers = answer.headers as Headers & { getSetCookie?: () => string[] };
  const cookies = keptCookies(headers.getSetCookie?.() ?? [], base.hostname);
  if (cookies.length === 0)
    throw new LoginError(`login failed for ${who}: /api/auth/login answered 200 without a session cookie`);
  return { cookies, origins: [] };
}
