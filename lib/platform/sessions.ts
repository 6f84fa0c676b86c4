import fs from 'node:fs';
import path from 'node:path';
import {
  credentialsFor,
  describeKey,
  loadRegistry,
  credentialSource,
  type CredentialKey,
} from '../run/credentials';
import { fileKeyOf } from '../run/runs';
import { readOr, withLock, writePrivate } from '../run/state';
import { recordCookieHashes } from '../redaction';
import { login, LoginError } from './login';

/**
 * Sessions, one per login origin and credentials entry, kept as Playwright storage state in the
 * invocation's own `auth/` folder (0700, files 0600, removed when the invocation ends). Logins are
 * lazy: a shard logs in only for the companies of its runs. A failed login that trying again
 * cannot mend within the invocation is remembered (`rememberedLoginFailure`), so a wrong password
 * is tried once; a transient one (5xx, no answer, a refused connection) is not, so the next run of
 * the account logs in again (README.md § One run's trouble stays in that run). A lock makes two
 * workers wait for one login.
 */

/**
 * The file key of a session: docs/contract.md §3, "A report page gets the session cookie of its
 * own origin only": each origin has its own session and its own remembered failure, and an origin
 * is scheme, host and port (`http://h:p` and `https://h:p` are two; an https certificate failure
 * is never reported for the http origin). The key keeps the scheme in a file-name-safe form
 * (`https_h:p__company:7`, which fileKeyOf keeps as it is when it is file-name-safe and otherwise
 * slugs with a hash of the whole text, so no two bases share a file). The folder lives for one invocation: no older key needs migrating.
 */
export function sessionKey(loginBase: string, key: CredentialKey): string {
  return fileKeyOf(`${loginBase.replace(/^([A-Za-z][A-Za-z0-9+.-]*):\/\//, '$1_')}__${key}`);
}

function baseName(authDir: string, loginBase: string, key: CredentialKey): string {
  return path.join(authDir, sessionKey(loginBase, key));
}

/**
 * Whether a failed login is remembered for the rest of the invocation: true for what trying again
 * cannot mend — the credentials refused (contract §3: "Failure: HTTP 401 … the suite must report
 * login failed for company N"), no registry or no entry for the company (contract §3: "A missing
 * entry is a clear error naming the company"), a login page that redirects (contract §3: "A login
 * page that redirects to another origin is an error, not a login"), a certificate the suite does
 * not trust — and false for what lib/platform/login.ts marks transient: an HTTP 5xx or 408, no
 * answer within the timeout, a refused or reset connection (README.md § One run's trouble stays in
 * that run). Anything else is remembered, so a password is never sent again after an unclear
 * failure (HTTP 429 included: trying again could lock the account).
 */
export function rememberedLoginFailure(e: unknown): boolean {
  return !(e instanceof LoginError && e.transient);
}

export interface SessionOptions {
  /** The project root: credentials registry and the redaction guard's cookie hashes. */
  root: string;
  /** The invocation's auth folder. */
  authDir: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
}

/** Returns the storage-state path of a session for (loginBase, key), logging in when needed. */
export async function ensureSession(
  options: SessionOptions,
  loginBase: string,
  key: CredentialKey,
  force = false,
): Promise<string> {
  const { root, authDir, env, timeoutMs } = options;
  const base = baseName(authDir, loginBase, key);
  const state = `${base}.json`;
  const failed = `${base}.failed.txt`;
  const before = fs.existsSync(state) ? fs.statSync(state).mtimeMs : 0;
  // A session made already needs no lock (every run after an account's first): it is written
  // atomically and only a renewal replaces it. The lock's folder would also change the auth
  // folder at every run, which makes the secret mask read every session again.
  if (before && !force) return state;
  return withLock(`${base}.lock`, 3 * timeoutMs + 10_000, async () => {
    // Another worker may have logged in (or renewed the session) while this one waited.
    const now = fs.existsSync(state) ? fs.statSync(state).mtimeMs : 0;
    if (now && (!force || now !== before)) return state;
    if (!force && fs.existsSync(failed)) throw new Error(readOr(failed, 'login failed'));
    try {
      const where = credentialSource(env, root).where;
      const credentials = credentialsFor(loadRegistry(env, root), key, where);
      writePrivate(state, JSON.stringify(await login(loginBase, credentials, describeKey(key), timeoutMs)));
      recordCookieHashes(root, state);
      fs.rmSync(failed, { force: true });
      return state;
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      // A transient failure is not written: the next run of the account logs in again.
      if (rememberedLoginFailure(e)) writePrivate(failed, message);
      throw e instanceof Error ? e : new Error(message);
    }
  });
}
