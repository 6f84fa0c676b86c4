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
import { login } from './login';

/**
 * Sessions, one per login base URL and credentials entry, kept as Playwright storage state in the
 * invocation's own `auth/` folder (0700, files 0600, removed when the invocation ends). Logins are
 * lazy: a shard logs in only for the companies of its runs. A failed login is remembered for the
 * invocation, so a wrong password is tried once, and a lock makes two workers wait for one login.
 */
function baseName(authDir: string, loginBase: string, key: CredentialKey): string {
  return path.join(authDir, fileKeyOf(`${loginBase.replace(/^https?:\/\//, '')}__${key}`));
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
      writePrivate(failed, message);
      throw e instanceof Error ? e : new Error(message);
    }
  });
}
