import fs from 'node:fs';

/**
 * The HTTP side of the API client: Node's fetch with the run's session cookies, no redirect
 * followed (a session cookie never travels to another origin), and a size limit counted on the
 * decompressed body while it streams, so a 700 MB answer or a gzip bomb stops at the limit with an
 * error naming the endpoint instead of taking the worker's memory.
 */

export interface HttpAnswer {
  status(): number;
  headers(): Record<string, string>;
  text(): Promise<string>;
}

/**
 * Bytes a run's answers may still take together (`left`, of `limit`), counted as they stream by
 * every request that is given it: each answer under L1_MAX_ANSWER_MB, many at once still added up
 * in one worker (seven source tables of 62.8 MB took it to 3.45 GB; hostile audit of 2026-11-27).
 */
export interface AnswerBudget {
  left: number;
  readonly limit: number;
}

export interface HttpGetter {
  get(
    url: string,
    options: { params: Record<string, string>; timeout: number; maxBytes: number; budget?: AnswerBudget },
  ): Promise<HttpAnswer>;
  dispose(): Promise<void>;
}

export class AnswerTooLarge extends Error {
  constructor(limit: number, together = false) {
    super(
      together
        ? `the run's answers together exceed ${Math.round(limit / 1024 / 1024)} MB (twice L1_MAX_ANSWER_MB): not read further`
        : `the answer exceeds ${Math.round(limit / 1024 / 1024)} MB (L1_MAX_ANSWER_MB): not read further`,
    );
    this.name = 'AnswerTooLarge';
  }
}

/**
 * An answer whose bytes are not the text its Content-Type says (UTF-8 when it names no charset: JSON
 * is UTF-8, RFC 8259). A declared charset is honoured (a Java stack answering GBK, and saying so); an
 * undeclared one was decoded as UTF-8 into replacement characters, and every word of the word cloud
 * read as "missing on the platform side" (a platform audit of 2026-11-28). Not retried.
 */
export class AnswerNotText extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AnswerNotText';
  }
}

/**
 * The answer's text: UTF-8 first (JSON is UTF-8, RFC 8259, whatever a Content-Type says: a Java
 * stack labels UTF-8 JSON `charset=ISO-8859-1`, which would read every Chinese name as Latin-1);
 * bytes that are not UTF-8 by the charset the Content-Type declares (GBK); neither: `AnswerNotText`.
 */
export function decodeAnswer(bytes: Uint8Array, contentType: string | null): string {
  const charset = /;\s*charset\s*=\s*["']?([^"';\s]+)/i.exec(contentType ?? '')?.[1];
  // UTF-16 and UTF-32 declared first: ASCII in UTF-16 is valid UTF-8, with NULs (review).
  const wide = charset !== undefined && /^utf-?(16|32)/i.test(charset);
  if (!wide)
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      // not UTF-8: the charset declared, if any
    }
  if (!charset)
    throw new AnswerNotText(
      'the answer is not UTF-8 text, and its Content-Type names no other charset: JSON is UTF-8 (RFC 8259)',
    );
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(charset, { fatal: true });
  } catch {
    throw new AnswerNotText(
      `the answer is not UTF-8 text, and its Content-Type names charset=${charset.slice(0, 40)}, which is no text encoding known here`,
    );
  }
  try {
    return decoder.decode(bytes);
  } catch {
    throw new AnswerNotText(
      `the answer is neither UTF-8 nor ${charset.slice(0, 40)} text, as its Content-Type says`,
    );
  }
}

interface StoredCookie {
  name: string;
  value: string;
  domain: string;
  path: string;
  secure?: boolean;
}

/** The Cookie header a browser would send to `url` from a Playwright storage state. */
export function cookieHeaderFor(cookies: StoredCookie[], url: URL): string {
  const host = url.hostname;
  return cookies
    .filter((c) => {
      const domain = c.domain.replace(/^\./, '');
      const domainOk = host === domain || (c.domain.startsWith('.') && host.endsWith(`.${domain}`));
      const pathOk = url.pathname.startsWith(c.path || '/');
      return domainOk && pathOk && (!c.secure || url.protocol === 'https:');
    })
    .map((c) => `${c.name}=${c.value}`)
    .join('; ');
}

async function readLimited(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
  budget: AnswerBudget | undefined,
): Promise<Buffer> {
  if (!body) return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  let size = 0;
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (budget) budget.left -= value.byteLength;
    const over =
      size > maxBytes
        ? new AnswerTooLarge(maxBytes)
        : budget && budget.left < 0
          ? new AnswerTooLarge(budget.limit, true)
          : undefined;
    if (over) {
      await reader.cancel().catch(() => {});
      throw over;
    }
    chunks.push(Buffer.from(value));
  }
  return Buffer.concat(chunks);
}

/** An HttpGetter carrying the cookies of a storage-state file. */
export function fetchGetter(storageStatePath: string | undefined): HttpGetter {
  const state = (
    storageStatePath === undefined ? {} : JSON.parse(fs.readFileSync(storageStatePath, 'utf8'))
  ) as { cookies?: StoredCookie[] };
  const cookies = state.cookies ?? [];
  return {
    async get(url, { params, timeout, maxBytes, budget }) {
      const target = new URL(url);
      for (const [k, v] of Object.entries(params)) target.searchParams.set(k, v);
      const headers: Record<string, string> = { accept: 'application/json' };
      const cookie = cookieHeaderFor(cookies, target);
      if (cookie) headers.cookie = cookie;
      let response: Response;
      try {
        response = await fetch(target, {
          headers,
          redirect: 'manual',
          signal: AbortSignal.timeout(timeout),
        });
        const declared = Number(response.headers.get('content-length') ?? 0);
        if (declared > maxBytes && !response.headers.get('content-encoding')) {
          await response.body?.cancel().catch(() => {});
          throw new AnswerTooLarge(maxBytes);
        }
        const bytes = await readLimited(response.body, maxBytes, budget);
        const answerHeaders: Record<string, string> = {};
        response.headers.forEach((value, name) => (answerHeaders[name] = value));
        // Decoded when read, after its status is judged: a 401 or 5xx page in another encoding is
        // still a re-login or a retry (review of 2026-11-28).
        return {
          status: () => response.status,
          headers: () => answerHeaders,
          text: async () => decodeAnswer(bytes, answerHeaders['content-type'] ?? null),
        };
      } catch (e) {
        if (e instanceof AnswerTooLarge) throw e;
        const name = (e as Error).name;
        if (name === 'TimeoutError' || name === 'AbortError')
          throw new Error(`timed out after ${timeout} ms`, { cause: e });
        const cause = (e as { cause?: { code?: string; message?: string } }).cause;
        const why = cause?.code ?? cause?.message; // e.g. ECONNREFUSED, or fetch's "bad port"
        throw new Error(`${(e as Error).message}${why ? ` (${why})` : ''}`, { cause: e });
      }
    },
    async dispose() {},
  };
}
