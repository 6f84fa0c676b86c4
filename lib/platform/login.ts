import type { Credentials } from '../run/credentials';

export class LoginError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LoginError';
  }
}

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

function parseSetCookie(header: string, host: string): SessionCookie | undefined {
  const [pair, ...attributes] = header.split(';').map((p) => p.trim());
  const eq = pair?.indexOf('=') ?? -1;
  if (!pair || eq <= 0) return undefined;
  const cookie: SessionCookie = {
    name: pair.slice(0, eq),
    value: pair.slice(eq + 1),
    domain: host,
    path: '/',
    expires: -1,
    httpOnly: false,
    secure: false,
    sameSite: 'Lax',
  };
  for (const attribute of attributes) {
    const [k = '', v = ''] = attribute.split('=');
    const key = k.toLowerCase();
    if (key === 'path' && v) cookie.path = v;
    else if (key === 'httponly') cookie.httpOnly = true;
    else if (key === 'secure') cookie.secure = true;
    else if (key === 'samesite' && /^(lax|strict|none)$/i.test(v))
      cookie.sameSite = (v[0]!.toUpperCase() + v.slice(1).toLowerCase()) as SessionCookie['sameSite'];
    // A Domain attribute is ignored on purpose: the session stays host-only, on the origin it came from.
  }
  return cookie;
}

async function get(url: string, init: RequestInit, timeoutMs: number, who: string): Promise<Response> {
  try {
    return await fetch(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
  } catch (e) {
    const name = (e as Error).name;
    const why =
      name === 'TimeoutError' || name === 'AbortError'
        ? `no answer within ${timeoutMs} ms`
        : ((e as { cause?: { code?: string } }).cause?.code ?? (e as Error).message);
    throw new LoginError(`login failed for ${who}: ${new URL(url).pathname} did not load (${why})`);
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
    const target = new URL(location, `${loginBase}/login`);
    if (target.origin !== base.origin)
      throw new LoginError(
        `login failed for ${who}: the login page moved to another origin (${target.origin}, configured ${base.origin}): credentials were not sent`,
      );
    throw new LoginError(
      `login failed for ${who}: the login page ${loginBase}/login redirects to ${target.pathname}: credentials were not sent`,
    );
  }
  if (loginPage.status !== 200)
    throw new LoginError(`login failed for ${who}: the login page answered HTTP ${loginPage.status}`);
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
    throw new LoginError(`login failed for ${who}: /api/auth/login answered HTTP ${answer.status}`);
  const headers = answer.headers as Headers & { getSetCookie?: () => string[] };
  const cookies = (headers.getSetCookie?.() ?? [])
    .map((h) => parseSetCookie(h, base.hostname))
    .filter((c): c is SessionCookie => c !== undefined);
  if (cookies.length === 0)
    throw new LoginError(`login failed for ${who}: /api/auth/login answered 200 without a session cookie`);
  return { cookies, origins: [] };
}
