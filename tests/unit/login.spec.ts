import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { expect, test } from './test-type';
import { loginFailureKind } from '../../lib/platform/collect';
import { login, LoginError } from '../../lib/platform/login';
import { readCookieHashes, recordCookieHashes, SecretMask } from '../../lib/redaction';
import { sha256 } from '../../lib/util/hash';
import { tempDir } from './fakes/temp';

/** A platform whose login answers these `Set-Cookie` headers (with `status`, 200 by default). */
async function platform(
  setCookie: string | string[],
  status = 200,
): Promise<{ base: string; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    if (req.url === '/login') res.writeHead(200, { 'content-type': 'text/html' }).end('<form></form>');
    else if (req.url === '/api/auth/login' && req.method === 'POST')
      res
        .writeHead(status, { 'content-type': 'application/json', 'set-cookie': setCookie })
        .end('{"code":0}');
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { base: `http://127.0.0.1:${port}`, close: () => new Promise((r) => server.close(() => r())) };
}

test("the session cookie is kept HttpOnly even when the platform leaves the flag out: the report page's scripts never read it (docs/contract.md §3)", async () => {
  const value = ['s', 'e', 's', 's', '-', 'x'.repeat(12)].join('');
  for (const header of [
    `l1_session=${value}; Path=/`,
    `l1_session=${value}; Path=/; HttpOnly; SameSite=Strict`,
  ]) {
    const p = await platform(header);
    try {
      const state = await login(p.base, { phone: 'p', password: 'q' }, 'company 1001', 5_000);
      expect(state.cookies.map((c) => [c.name, c.httpOnly])).toEqual([['l1_session', true]]);
    } finally {
      await p.close();
    }
  }
});

test('contract §3 "a Set-Cookie session cookie (HttpOnly, Path=/)": every cookie of the login is sent back; the secrets (marked HttpOnly, or named like a session) are held HttpOnly and masked, a time zone or a language is neither; with none marked, all are secrets', async () => {
  const session = ['s', 'i', 'd', '-', 'z'.repeat(16)].join('');
  const others = [
    'tz=Asia/Shanghai; Path=/',
    'lang=exposure_rate; Path=/',
    'pref=7001-p-borealis-monitor; Path=/',
  ];
  const flags = async (headers: string[]) => {
    const p = await platform(headers);
    try {
      const state = await login(p.base, { phone: 'p', password: 'q' }, 'company 1001', 5_000);
      return { state, flags: state.cookies.map((c) => [c.name, c.httpOnly]) };
    } finally {
      await p.close();
    }
  };
  const marked = await flags([...others, `l1_session=${session}; Path=/; HttpOnly`]);
  expect(marked.flags).toEqual([
    ['tz', false],
    ['lang', false],
    ['pref', false],
    ['l1_session', true],
  ]);
  // The mask of an invocation with that session: the session's value masked, the rest as it is.
  const auth = tempDir('login-mask');
  fs.writeFileSync(path.join(auth, 'session.json'), JSON.stringify(marked.state));
  const mask = new SecretMask(auth, { env: {}, authDirs: [auth] });
  expect(mask.mask(`Asia/Shanghai exposure_rate 7001-p-borealis-monitor ${session}`)).toBe(
    'Asia/Shanghai exposure_rate 7001-p-borealis-monitor ***',
  );
  // And the guard keeps the hash of the session's value alone.
  recordCookieHashes(auth, path.join(auth, 'session.json'));
  expect([...readCookieHashes(auth)]).toEqual([sha256(session)]);
  // A session cookie without the flag beside another cookie with it (a load balancer's): both kept
  // and secret, the session by its name, so the run keeps its session.
  expect(
    (await flags([`JSESSIONID=${session}; Path=/`, `lb_affinity=${'a'.repeat(16)}; Path=/; HttpOnly`])).flags,
  ).toEqual([
    ['JSESSIONID', true],
    ['lb_affinity', true],
  ]);
  // A platform that marks none HttpOnly: every cookie is a secret, held HttpOnly.
  expect((await flags([...others, `l1_session=${session}; Path=/`])).flags).toEqual([
    ['tz', true],
    ['lang', true],
    ['pref', true],
    ['l1_session', true],
  ]);
});

test('a login answer that clears the old session before it sets the new one keeps the new one only, as a browser does (RFC 6265 §5.3; docs/contract.md §3 "a Set-Cookie session cookie")', async () => {
  const value = ['n', 'e', 'w', '-', 'y'.repeat(14)].join('');
  const cases: [string[], string[]][] = [
    [['l1_session=; Path=/; Max-Age=0; HttpOnly', `l1_session=${value}; HttpOnly; Path=/`], ['l1_session']],
    [
      ['l1_session=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT', `l1_session=${value}; Path=/`],
      ['l1_session'],
    ],
    // Another cookie deleted: not sent back as a live one.
    [
      [`l1_session=${value}; Path=/`, 'legacy_sid=deleted; Expires=Thu, 01 Jan 1970 00:00:00 GMT'],
      ['l1_session'],
    ],
    // An Expires that is no date (RFC 6265 §5.1.1) is ignored, as a browser ignores it: the cookie stays.
    [[`l1_session=${value}; Path=/; Expires=0`], ['l1_session']],
    [[`l1_session=${value}; Path=/; Expires=Tue, 31 Dec 69 23:59:59 GMT`], ['l1_session']],
    // Max-Age wins over an Expires in the past; a later cookie of the same name replaces an earlier one.
    [
      [
        'l1_session=old-value-123456; Path=/',
        `l1_session=${value}; Max-Age=3600; Expires=Thu, 01 Jan 1970 00:00:00 GMT`,
      ],
      ['l1_session'],
    ],
  ];
  for (const [headers, names] of cases) {
    const p = await platform(headers);
    try {
      const state = await login(p.base, { phone: 'p', password: 'q' }, 'company 1001', 5_000);
      expect(
        state.cookies.map((c) => c.name),
        headers.join(' | '),
      ).toEqual(names);
      expect(state.cookies.every((c) => c.value === value)).toBe(true);
    } finally {
      await p.close();
    }
  }
});

test('LoginError says whether trying again may mend it: HTTP 5xx and 408, no answer, a refused connection; never the credentials refused, a rate limit or a certificate (lib/platform/sessions.ts remembers the rest)', async () => {
  const failure = (base: string): Promise<LoginError> =>
    login(base, { phone: 'p', password: 'q' }, 'company 7', 2_000).then(
      () => Promise.reject(new Error('the login succeeded')),
      (e: unknown) => {
        expect(e).toBeInstanceOf(LoginError);
        return e as LoginError;
      },
    );
  for (const [status, transient] of [
    [503, true],
    [500, true],
    [408, true],
    [401, false],
    [403, false],
    [429, false],
  ] as const) {
    const p = await platform('l1_session=x; Path=/', status);
    try {
      const e = await failure(p.base);
      expect([status, e.transient], e.message).toEqual([status, transient]);
      // The failure kind of the run says the same: the platform's moment, or the settings.
      expect(loginFailureKind(e), e.message).toBe(
        transient ? 'platform' : status === 401 ? 'configuration' : 'input',
      );
    } finally {
      await p.close();
    }
  }
  // A refused connection: transient. TLS spoken to a plain server: a setting, remembered.
  const p = await platform('l1_session=x; Path=/');
  const port = new URL(p.base).port;
  try {
    const tls = await failure(`https://127.0.0.1:${port}`);
    expect(tls.transient, tls.message).toBe(false);
  } finally {
    await p.close();
  }
  const refused = await failure(`http://127.0.0.1:${port}`);
  expect([refused.message, refused.transient]).toEqual([expect.stringContaining('ECONNREFUSED'), true]);
});

test('a login page whose Location is no URL stops the login naming the account and the login page, credentials not sent (contract §3: a login page that redirects is an error, not a login)', async () => {
  let posted = 0;
  const server = http.createServer((req, res) => {
    posted += Number(req.method === 'POST');
    res.writeHead(302, { location: 'http://[::1' }).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const e = await login(base, { phone: 'p', password: 'q' }, 'company 7', 2_000).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(LoginError);
    expect((e as Error).message).toBe(
      `login failed for company 7: the login page ${base}/login redirects to an address that is no URL: credentials were not sent`,
    );
    expect(posted).toBe(0);
  } finally {
    server.close();
  }
});
