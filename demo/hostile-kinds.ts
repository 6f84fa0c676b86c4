import crypto from 'node:crypto';

/**
 * A platform error message that clears the terminal and writes a fake verdict line: what
 * hostile-api-msg-control-chars answers, and hostile-api-msg-secrets after the account it quotes.
 */
export const HOSTILE_API_MESSAGE = '服务异常\u001b[2J\r\n  ✓ all checks passed';

/**
 * Hostile behaviours a demo project can have (README.md § Security and limits): a platform or a report page written to
 * misbehave. Types only; the behaviours live in hostile.ts and pages-hostile.ts.
 */
export type Hostile =
  /** The run's base URL `/hostile/login-moved` answers its `/login` with 302 to the foreign origin (port + 2). */
  | { kind: 'login-moved' }
  /** The page defines DATA, then loops forever after `load`. */
  | { kind: 'page-loops' }
  /** The page answers 302 to another project's report on the Profile B portal origin. */
  | { kind: 'page-redirect'; to: string }
  /** The page's script navigates to another project's report (same origin) before DATA is defined. */
  | { kind: 'page-script-navigation'; to: string }
  /** The page throws `count` uncaught errors and defines no DATA. */
  | { kind: 'page-errors'; count: number }
  /** The page replaces JSON.stringify, Object.keys, Array.prototype.sort, toFixed and adds toJSON. */
  | { kind: 'page-tampers' }
  /** DATA gets a getter that builds about `mb` MB of strings on each read (the page cannot say less). */
  | { kind: 'data-grows'; mb: number }
  /**
   * After DATA, the page sends part of it to the foreign origin (port + 2) with fetch and an image,
   * tries another port of its host, and starts a download.
   */
  | { kind: 'page-exfil' }
  /** `table=competitor` answers an API error whose message names the account's phone, password and session token. */
  | { kind: 'api-msg-secrets' }
  /** After DATA, the page's script moves the aggregate exposure rate by 20 + a random fraction: each load differs. */
  | { kind: 'data-changes' }
  /** Before DATA, the page's script holds about `mb` MB of memory. */
  | { kind: 'page-memory'; mb: number }
  /** The page answers 302 to itself forever (ERR_TOO_MANY_REDIRECTS). */
  | { kind: 'redirect-loop' }
  /** `table=source&platform=all` answers about `bytes` of JSON, streamed. */
  | { kind: 'huge-answer'; bytes: number }
  /** `table=tmc` answers a small gzip body that unpacks to about 1 GiB. */
  | { kind: 'gzip-bomb' };

/** The base URL path of `hostile-login-foreign-origin`: its `/login` answers 302 to the foreign origin. */
export const HOSTILE_LOGIN_BASE = '/hostile/login-moved';

/**
 * Tokens in the query of `hostile-redirect-loop-token`'s report URL: 24 hex characters each that look
 * like secrets, derived from the origin (its port) so a self-test can learn them and scan outputs
 * for them.
 */
export function hostileTokens(origin: string): string[] {
  return ['token', 'access_token'].map((name) =>
    crypto.createHash('sha256').update(`l1-demo-hostile|${name}|${origin}`).digest('hex').slice(0, 24),
  );
}
