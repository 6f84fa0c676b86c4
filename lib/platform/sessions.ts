import fs from 'node:fs';
import path from 'node:path';
import type { Browser } from '@playwright/test';
import { LoginPage } from '../../pages/LoginPage';
import {
  credentialsFor,
  describeKey,
  loadRegistry,
  credentialSource,
  type CredentialKey,
} from '../run/credentials';
import { slugify } from '../run/inputs';
import { recordCookieHashes } from '../report/seen-secrets';

/**
 * Sessions, one per login base URL and credentials entry, stored as Playwright storage state under
 * the gitignored `.auth/` (cleared at the start of every invocation by the global setup). A failed
 * login is remembered for the invocation so a wrong password is not tried again and again.
 */
export function authDir(root: string): string {
  return path.join(root, '.auth');
}

function baseName(root: string, loginBase: string, key: CredentialKey): string {
  return path.join(authDir(root), slugify(`${loginBase.replace(/^https?:\/\//, '')}__${key}`));
}

export function stateFile(root: string, loginBase: string, key: CredentialKey): string {
  return `${baseName(root, loginBase, key)}.json`;
}

function failureFile(root: string, loginBase: string, key: CredentialKey): string {
  return `${baseName(root, loginBase, key)}.failed.txt`;
}

export interface SessionOptions {
  /** The project root: credentials registry and the redaction guard's cookie hashes. */
  root: string;
  /** Where `.auth/` lives (L1_STATE_DIR or the project root). */
  stateRoot: string;
  env: NodeJS.ProcessEnv;
  browser: Browser;
  timeoutMs: number;
}

/** Returns the storage-state path of a session for (loginBase, key), logging in when needed. */
export async function ensureSession(
  options: SessionOptions,
  loginBase: string,
  key: CredentialKey,
  force = false,
): Promise<string> {
  const { root, stateRoot, env, browser, timeoutMs } = options;
  const state = stateFile(stateRoot, loginBase, key);
  const failed = failureFile(stateRoot, loginBase, key);
  if (!force && fs.existsSync(state)) return state;
  if (!force && fs.existsSync(failed)) throw new Error(fs.readFileSync(failed, 'utf8'));
  fs.mkdirSync(authDir(stateRoot), { recursive: true });
  const context = await browser.newContext();
  try {
    const where = credentialSource(env, root).where;
    const credentials = credentialsFor(loadRegistry(env, root), key, where);
    const page = await context.newPage();
    await new LoginPage(page, loginBase).login(credentials, describeKey(key), timeoutMs);
    await context.storageState({ path: `${state}.tmp` });
    fs.renameSync(`${state}.tmp`, state);
    recordCookieHashes(root, state);
    fs.rmSync(failed, { force: true });
    return state;
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    fs.writeFileSync(failed, message);
    throw e instanceof Error ? e : new Error(message);
  } finally {
    await context.close();
  }
}
