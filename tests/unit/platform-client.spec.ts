import http from 'node:http';
import { expect, test } from './test-type';
import type { APIRequestContext } from '@playwright/test';
import { z } from 'zod';
import { EndpointError, PlatformClient } from '../../lib/platform/client';
import { fetchGetter } from '../../lib/platform/http';
import { closeLocal, listenLocal } from './fakes/local';

type Answer = { status: number; body?: string; type?: string } | Error;

/** A fake request context answering from a script, one answer per call, and counting calls. */
function fakeContext(answers: Answer[]) {
  const calls: string[] = [];
  const context = {
    get: async (url: string) => {
      calls.push(url);
      const a = answers.shift() ?? { status: 500 };
      if (a instanceof Error) throw a;
      return {
        status: () => a.status,
        text: async () => a.body ?? '{}',
        headers: () => ({ 'content-type': a.type ?? 'application/json' }),
      };
    },
  } as unknown as APIRequestContext;
  return { context, calls };
}

function client(answers: Answer[], onRelogin: () => void = () => {}) {
  const fake = fakeContext(answers);
  const c = new PlatformClient({
    baseUrl: 'http://platform',
    timeoutMs: 1000,
    retries: 2,
    backoffMs: 1,
    context: () => fake.context,
    relogin: async () => onRelogin(),
  });
  return { c, calls: fake.calls };
}

const rows = z.object({ rows: z.array(z.number()) });
const ok = (body: unknown): Answer => ({ status: 200, body: JSON.stringify(body) });

test.describe('docs/contract.md §4: the API client', () => {
  test('a 5xx is retried with backoff and recovers', async () => {
    const { c, calls } = client([{ status: 503 }, ok({ rows: [1] })]);
    await expect(c.get('GET t', '/t', {}, rows)).resolves.toEqual({ rows: [1] });
    expect(calls).toHaveLength(2);
    expect(c.log[0]).toMatchObject({ endpoint: 'GET t', status: 200, attempts: 2 });
  });

  test('at most 2 retries: a persistent 500 fails after 3 attempts, naming the endpoint and status', async () => {
    const { c, calls } = client([{ status: 500 }, { status: 500 }, { status: 500 }, ok({ rows: [] })]);
    await expect(c.get('GET t', '/t', {}, rows)).rejects.toThrow('GET t: HTTP 500 after 3 attempts');
    expect(calls).toHaveLength(3);
  });

  test('a re-login among the attempts is said: 4 attempts (one after a new login, 2 retries with backoff)', async () => {
    let relogins = 0;
    const { c, calls } = client(
      [{ status: 401 }, { status: 500 }, { status: 500 }, { status: 500 }],
      () => relogins++,
    );
    await expect(c.get('GET t', '/t', {}, rows)).rejects.toThrow(
      'GET t: HTTP 500 after 4 attempts (one after a new login, 2 retries with backoff)',
    );
    expect(calls).toHaveLength(4);
    expect(relogins).toBe(1);
  });

  test('network errors are retried like 5xx', async () => {
    const { c } = client([new Error('connect ECONNREFUSED'), ok({ rows: [] })]);
    await expect(c.get('GET t', '/t', {}, rows)).resolves.toEqual({ rows: [] });
  });

  test('a timeout is not retried and names the budget', async () => {
    const { c, calls } = client([new Error('Request timed out after 1000ms'), ok({ rows: [] })]);
    await expect(c.get('GET t', '/t', {}, rows)).rejects.toThrow('GET t: timed out after 1000 ms');
    expect(calls).toHaveLength(1);
  });

  test('"network errors are retried (at most 2 retries, with backoff)": a connect timeout is a network error, not the request timeout', async () => {
    const connect = () => new Error('fetch failed (UND_ERR_CONNECT_TIMEOUT)');
    const once = client([connect(), ok({ rows: [4] })]);
    await expect(once.c.get('GET t', '/t', {}, rows)).resolves.toEqual({ rows: [4] });
    expect(once.calls).toHaveLength(2);
    const always = client([connect(), connect(), connect(), ok({ rows: [] })]);
    const error = await always.c.get('GET t', '/t', {}, rows).catch((e: unknown) => String(e));
    expect(error).toContain(
      'GET t: network error after 3 attempts (2 retries with backoff): no connection within the connect timeout (not L1_REQUEST_TIMEOUT_MS): fetch failed (UND_ERR_CONNECT_TIMEOUT)',
    );
    expect(error).not.toContain('timed out after');
    expect(always.calls).toHaveLength(3);
    expect(always.c.log[0]).toMatchObject({ status: 'network error', attempts: 3 });
  });

  test('"A payload may come bare": a bare answer carrying a success code of its own is read, not an API error', async () => {
    await expect(
      client([ok({ code: 0, msg: 'ok', rows: [5] })]).c.get('GET t', '/t', {}, rows),
    ).resolves.toEqual({
      rows: [5],
    });
  });

  test('docs/contract.md §3: a 401 mid-run logs in again once and retries once', async () => {
    let relogins = 0;
    const { c, calls } = client([{ status: 401 }, ok({ rows: [2] })], () => relogins++);
    await expect(c.get('GET t', '/t', {}, rows)).resolves.toEqual({ rows: [2] });
    expect(relogins).toBe(1);
    expect(calls).toHaveLength(2);
  });

  test('docs/contract.md §3: a 401 again after the re-login is an error, no second re-login', async () => {
    let relogins = 0;
    const { c } = client([{ status: 401 }, { status: 401 }, ok({ rows: [] })], () => relogins++);
    await expect(c.get('GET t', '/t', {}, rows)).rejects.toThrow(
      'HTTP 401 Unauthorized again after one re-login',
    );
    expect(relogins).toBe(1);
  });

  test('requests that meet the same expired session share one re-login', async () => {
    let relogins = 0;
    const { c } = client(
      [{ status: 401 }, { status: 401 }, ok({ rows: [1] }), ok({ rows: [2] })],
      () => relogins++,
    );
    const both = await Promise.all([c.get('GET a', '/a', {}, rows), c.get('GET b', '/b', {}, rows)]);
    expect(both.map((r) => r.rows[0]).sort()).toEqual([1, 2]);
    expect(relogins).toBe(1);
  });

  test('403 and 404 are not retried and say what to check', async () => {
    const a = client([{ status: 403 }, ok({ rows: [] })]);
    await expect(a.c.get('GET t', '/t', {}, rows)).rejects.toThrow(
      /HTTP 403: the account of this run may not read/,
    );
    expect(a.calls).toHaveLength(1);
    const b = client([{ status: 404 }]);
    await expect(b.c.get('GET t', '/t', {}, rows)).rejects.toThrow(/HTTP 404: check projectId/);
  });

  test('429 is not retried (a rate limit asks for minutes) and says what to do', async () => {
    const a = client([{ status: 429 }, ok({ rows: [] })]);
    await expect(a.c.get('GET t', '/t', {}, rows)).rejects.toThrow(
      'GET t: HTTP 429: the platform limits the rate of requests: run fewer workers at once (L1_WORKERS) or check later',
    );
    expect(a.calls).toHaveLength(1);
  });

  test('an HTML page instead of JSON is an error naming the content type', async () => {
    const { c } = client([{ status: 200, body: '<html>502 Bad Gateway</html>', type: 'text/html' }]);
    await expect(c.get('GET t', '/t', {}, rows)).rejects.toThrow(
      'GET t: HTTP 200 but the answer is not JSON (text/html, 28 bytes)',
    );
  });

  test('a byte order mark before the JSON is ignored (RFC 8259 §8.1: a parser may; .NET servers send one)', async () => {
    const { c } = client([{ status: 200, body: '\ufeff{"rows": [1, 2]}' }]);
    await expect(c.get('GET t', '/t', {}, rows)).resolves.toEqual({ rows: [1, 2] });
    // Only at the start: a mark inside is not JSON.
    const inside = client([{ status: 200, body: '{"rows": \ufeff[1]}' }]);
    await expect(inside.c.get('GET t', '/t', {}, rows)).rejects.toThrow(/not JSON/);
  });

  test('a wrapped answer is unwrapped; a wrapped error code is an API error with its message', async () => {
    await expect(
      client([ok({ code: 0, msg: 'ok', data: { rows: [3] } })]).c.get('GET t', '/t', {}, rows),
    ).resolves.toEqual({
      rows: [3],
    });
    const { c } = client([ok({ code: 500, msg: '指标服务暂不可用', data: null })]);
    const error = await c.get('GET t', '/t', {}, rows).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EndpointError);
    expect(String(error)).toContain('API error code 500: 指标服务暂不可用');
  });

  test('a payload of the wrong shape names the endpoint and the field', async () => {
    const { c } = client([ok({ rows: ['x'] })]);
    await expect(c.get('GET t', '/t', {}, rows)).rejects.toThrow(
      'GET t does not match the contract: payload.rows[0]',
    );
  });
});

test.describe('the size of answers, counted as they stream (L1_MAX_ANSWER_MB)', () => {
  /** A local server answering every request with `mb` MB of valid JSON (one array of numbers). */
  async function serveAnswers(mb: number) {
    const body = `{"rows":[${Array.from({ length: (mb * 1024 * 1024) / 2 }, () => '1').join(',')}]}`;
    const server = http.createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(body),
    );
    return { server, origin: await listenLocal(server) };
  }
  const sourceClient = (origin: string, maxBytes: number) =>
    new PlatformClient({
      baseUrl: origin,
      timeoutMs: 10_000,
      retries: 0,
      backoffMs: 1,
      maxBytes,
      context: () => fetchGetter(undefined),
      relogin: async () => {},
    });

  test("each answer is under the limit, yet a run's answers together may take twice it: seven source tables of 0.8 MB under a 1 MB limit stop at 2 MB, naming the endpoint", async () => {
    const { server, origin } = await serveAnswers(0.8);
    try {
      const c = sourceClient(origin, 1024 * 1024);
      const platforms = ['all', 'a', 'b', 'c', 'd', 'e', 'f'];
      const settled = await Promise.allSettled(
        platforms.map((p) =>
          c.get(`source ${p}`, '/api/geo-monitor/metrics/l1', { table: 'source', platform: p }, rows),
        ),
      );
      const refused = settled
        .filter((s) => s.status === 'rejected')
        .map((s) => (s as PromiseRejectedResult).reason as Error);
      expect(settled.filter((s) => s.status === 'fulfilled').length).toBeLessThanOrEqual(2);
      expect(refused.length).toBeGreaterThanOrEqual(5);
      for (const e of refused) {
        expect(e).toBeInstanceOf(EndpointError);
        expect(e.message).toMatch(/^source [a-f]|^source all/);
        expect(e.message).toContain(
          "the run's answers together exceed 2 MB (twice L1_MAX_ANSWER_MB): not read further",
        );
      }
      // Near miss: another run (another client) has a budget of its own.
      await expect(
        sourceClient(origin, 1024 * 1024).get('source all', '/x', {}, rows),
      ).resolves.toMatchObject({ rows: expect.any(Array) });
    } finally {
      await closeLocal(server);
    }
  });
});

test("an answer's text is decoded by the charset its Content-Type declares (GBK from a Java stack), else as UTF-8; bytes that are not that text are an error naming the endpoint, never read as replacement characters (platform audit of 2026-11-28: every word of a GBK word cloud was 'missing on the platform side')", async () => {
  const json = JSON.stringify({ words: [{ word: '噪音', count: 3 }] });
  const gbk = Buffer.from(new Uint8Array([0x7b, 0x22, 0xd4, 0xeb, 0xd2, 0xf4, 0x22, 0x3a, 0x31, 0x7d])); // {"噪音":1} in GBK
  const answers: Record<string, { type: string; body: Buffer }> = {
    '/utf8': { type: 'application/json', body: Buffer.from(json) },
    '/bom': {
      type: 'application/json',
      body: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(json)]),
    },
    '/gbk-declared': { type: 'application/json;charset=GBK', body: gbk },
    '/gbk-undeclared': { type: 'application/json', body: gbk },
    // UTF-8 labelled Latin-1 (a Java stack's default): read as the UTF-8 it is.
    '/utf8-as-latin1': { type: "application/json; charset='ISO-8859-1'", body: Buffer.from(json) },
    // UTF-16 declared: read as such, though ASCII in UTF-16 is also valid UTF-8 (with NULs).
    '/utf16': { type: 'application/json; charset=UTF-16LE', body: Buffer.from('{"a":1}', 'utf16le') },
    // A gateway's error page in GBK, undeclared: still a retry, then its status (review of 2026-11-28).
    '/503-gbk': { type: 'text/html', body: Buffer.from([0x3c, 0x68, 0x31, 0x3e, 0xb7, 0xfe, 0xce, 0xf1]) },
  };
  const served: Record<string, number> = {};
  const server = http.createServer((req, res) => {
    const path = req.url!.split('?')[0]!;
    served[path] = (served[path] ?? 0) + 1;
    const a = answers[path]!;
    res.writeHead(path.startsWith('/503') ? 503 : 200, { 'content-type': a.type }).end(a.body);
  });
  const origin = await listenLocal(server);
  try {
    const c = new PlatformClient({
      baseUrl: origin,
      timeoutMs: 2000,
      retries: 2,
      backoffMs: 1,
      context: () => fetchGetter(undefined),
      relogin: async () => {},
    });
    const any = z.record(z.string(), z.unknown());
    const get = (path: string) =>
      c.get(`wordcloud ${path}`, path, {}, any).then(
        (r) => r,
        (e: Error) => e,
      );
    expect(await get('/utf8')).toEqual(JSON.parse(json));
    expect(await get('/bom')).toEqual(JSON.parse(json));
    expect(await get('/gbk-declared')).toEqual({ 噪音: 1 });
    const undeclared = (await get('/gbk-undeclared')) as Error;
    expect(undeclared).toBeInstanceOf(EndpointError);
    expect(undeclared.message).toContain('wordcloud /gbk-undeclared');
    expect(undeclared.message).toContain(
      'HTTP 200 but the answer is not UTF-8 text, and its Content-Type names no other charset',
    );
    expect(await get('/utf8-as-latin1')).toEqual(JSON.parse(json));
    expect(await get('/utf16')).toEqual({ a: 1 });
    const gateway = (await get('/503-gbk')) as Error;
    expect(gateway.message).toMatch(/HTTP 503 after 3 attempts/);
    expect(served['/503-gbk']).toBe(3);
  } finally {
    await closeLocal(server);
  }
});
