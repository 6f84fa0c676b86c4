import type { z } from 'zod';
import { parseWith } from '../schema/issues';
import { codeText, unwrapEnvelope } from './envelope';
import { AnswerNotText, AnswerTooLarge, type AnswerBudget, type HttpGetter } from './http';
import { stopwatch } from '../util/clock';
import { parseJson } from '../util/json';

/** An endpoint that failed for good: names the endpoint and the status, code, timeout or field. */
export class EndpointError extends Error {
  constructor(
    readonly endpoint: string,
    readonly detail: string,
  ) {
    super(`${endpoint}: ${detail}`);
    this.name = 'EndpointError';
  }
}

export interface ClientOptions {
  baseUrl: string;
  /** Contract 4: bounded timeout per request (L1_REQUEST_TIMEOUT_MS, default 30 s). */
  timeoutMs: number;
  /** Contract 4: at most 2 retries of 5xx and network errors. */
  retries: number;
  backoffMs: number;
  /** The HTTP client carrying the current session (see ./http.ts). */
  context: () => HttpGetter;
  /**
   * Largest answer accepted, after decompression (L1_MAX_ANSWER_MB); the run's answers together,
   * every attempt counted, may take twice that.
   */
  maxBytes?: number;
  /** Logs in again and replaces the context (docs/contract.md §3: a 401 mid-run → one re-login, one retry). */
  relogin: () => Promise<void>;
}

export interface RequestRecord {
  endpoint: string;
  status: number | string;
  attempts: number;
  ms: number;
}

const STATUS_HINT: Record<number, string> = {
  403: 'the account of this run may not read this company or project: check the credentials entry',
  404: 'check projectId, base URL and report type',
  400: 'the platform rejected the query parameters',
  // Not retried: a rate limit asks for minutes or hours (a hostile probe's Retry-After was 999999 s),
  // and a run must stay within its budget.
  429: 'the platform limits the rate of requests: run fewer workers at once (L1_WORKERS) or check later',
};

const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;

/** `3 attempts (2 retries with backoff)`, or `4 attempts (one after a new login, 2 retries with backoff)`. */
function tries(attempts: number, retries: number, reloggedIn: boolean): string {
  return `${attempts} attempts (${reloggedIn ? 'one after a new login, ' : ''}${retries} retries with backoff)`;
}

/**
 * Undici's connect timeout (`fetch failed (UND_ERR_CONNECT_TIMEOUT)`): no connection within its own
 * limit, a network error that is retried (docs/contract.md §4), not the request's timeout.
 */
const CONNECT_TIMEOUT = /UND_ERR_CONNECT_TIMEOUT|connect timeout/i;

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Typed client of the three endpoints: envelope unwrap, retries, re-login, size limit, zod validation. */
export class PlatformClient {
  readonly log: RequestRecord[] = [];
  private generation = 0;
  private pendingRelogin: Promise<void> | undefined;
  /** What the run's answers may still take together (one client is one run's). */
  private readonly budget: AnswerBudget;

  constructor(private readonly options: ClientOptions) {
    const limit = 2 * (options.maxBytes ?? DEFAULT_MAX_BYTES);
    this.budget = { left: limit, limit };
  }

  /** GET {base_url}{path}?params, validated with `schema`; throws EndpointError or SchemaError. */
  async get<T extends z.ZodType>(
    name: string,
    path: string,
    params: Record<string, string>,
    schema: T,
  ): Promise<z.output<T>> {
    const payload = await this.getJson(name, path, params);
    return parseWith(schema, payload, name, 'payload');
  }

  /** `get`, with the parsed payload as `{ parsed }` (the collection keeps only what it parsed, once). */
  async getParsed<T extends z.ZodType>(
    name: string,
    path: string,
    params: Record<string, string>,
    schema: T,
  ): Promise<{ parsed: z.output<T> }> {
    return { parsed: await this.get(name, path, params, schema) };
  }

  private async reloginOnce(seenGeneration: number): Promise<void> {
    if (this.generation !== seenGeneration) return; // another request already renewed the session
    this.pendingRelogin ??= this.options.relogin().then(
      () => {
        this.generation++;
        this.pendingRelogin = undefined;
      },
      (e: unknown) => {
        this.pendingRelogin = undefined;
        throw e;
      },
    );
    await this.pendingRelogin;
  }

  async getJson(name: string, path: string, params: Record<string, string>): Promise<unknown> {
    const { baseUrl, timeoutMs, retries, backoffMs } = this.options;
    const url = `${baseUrl}${path}`;
    const elapsed = stopwatch();
    let attempts = 0;
    let failures = 0;
    let reloggedIn = false;
    const record = (status: number | string) =>
      this.log.push({ endpoint: name, status, attempts, ms: elapsed() });

    for (;;) {
      attempts++;
      const generation = this.generation;
      let response;
      try {
        response = await this.options.context().get(url, {
          params,
          timeout: timeoutMs,
          maxBytes: this.options.maxBytes ?? DEFAULT_MAX_BYTES,
          budget: this.budget,
        });
      } catch (e) {
        if (e instanceof AnswerTooLarge) {
          record('too large');
          throw new EndpointError(name, e.message);
        }
        const message = e instanceof Error ? e.message : String(e);
        const connect = CONNECT_TIMEOUT.test(message);
        if (!connect && /timeout|timed out/i.test(message)) {
          record('timeout');
          // Not retried: the request already waited its whole budget (docs/contract.md §4, README "Failure modes").
          throw new EndpointError(name, `timed out after ${timeoutMs} ms (L1_REQUEST_TIMEOUT_MS)`);
        }
        if (failures < retries) {
          await sleep(backoffMs * 3 ** failures++);
          continue;
        }
        record('network error');
        const why = connect ? 'no connection within the connect timeout (not L1_REQUEST_TIMEOUT_MS): ' : '';
        throw new EndpointError(
          name,
          `network error after ${tries(attempts, retries, reloggedIn)}: ${why}${message.split('\n')[0]}`,
        );
      }
      const status = response.status();
      if (status === 401) {
        if (!reloggedIn) {
          reloggedIn = true;
          await this.reloginOnce(generation);
          continue;
        }
        record(401);
        throw new EndpointError(
          name,
          'HTTP 401 Unauthorized again after one re-login: the platform refuses this session',
        );
      }
      if (status >= 500) {
        if (failures < retries) {
          await sleep(backoffMs * 3 ** failures++);
          continue;
        }
        record(status);
        throw new EndpointError(name, `HTTP ${status} after ${tries(attempts, retries, reloggedIn)}`);
      }
      if (status >= 300) {
        record(status);
        const where = status < 400 ? ` (redirect to ${response.headers()['location'] ?? '?'})` : '';
        const hint = STATUS_HINT[status] ? `: ${STATUS_HINT[status]}` : '';
        throw new EndpointError(name, `HTTP ${status}${where}${hint}`);
      }
      let text: string;
      try {
        text = await response.text();
      } catch (e) {
        // Not retried: the same bytes come again (lib/platform/http.ts decodeAnswer).
        if (!(e instanceof AnswerNotText)) throw e;
        record('not text');
        throw new EndpointError(name, `HTTP ${status} but ${e.message}`);
      }
      record(status);
      let body: unknown;
      try {
        body = parseJson(text);
      } catch {
        const type = response.headers()['content-type'] ?? 'no content-type';
        throw new EndpointError(
          name,
          `HTTP ${status} but the answer is not JSON (${type}, ${text.length} bytes)`,
        );
      }
      const unwrapped = unwrapEnvelope(body);
      if (!unwrapped.ok) {
        throw new EndpointError(name, `API error code ${codeText(unwrapped.code)}: ${unwrapped.message}`);
      }
      return unwrapped.payload;
    }
  }
}
