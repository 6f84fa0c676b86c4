import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { loginFailureKind } from '../../lib/platform/collect';
import { ensureSession } from '../../lib/platform/sessions';
import { tempDir } from './fakes/temp';

/**
 * Sessions (lib/platform/sessions.ts): one login per account and invocation, a lock so that two
 * workers wait for one login. Every run after an account's first asks again; a session that
 * exists is handed out without the lock (its folder would change the auth folder at every run).
 */

const LOGIN_BASE = 'http://127.0.0.1:9';

test('a failed login is remembered: asked again, it fails with the same reason without trying again', async () => {
  const root = tempDir('session');
  const options = { root, authDir: path.join(root, 'auth'), env: {}, timeoutMs: 50 };
  fs.mkdirSync(options.authDir);
  await expect(ensureSession(options, LOGIN_BASE, 'company:7')).rejects.toThrow(/no credentials registry/);
  const failed = fs.readdirSync(options.authDir).filter((n) => n.endsWith('.failed.txt'));
  expect(failed).toHaveLength(1);
  fs.writeFileSync(path.join(options.authDir, failed[0]!), 'login failed: remembered');
  await expect(ensureSession(options, LOGIN_BASE, 'company:7')).rejects.toThrow('login failed: remembered');
});

test('a session made already is handed out at once, even while another process holds its lock', async () => {
  const root = tempDir('session');
  const options = { root, authDir: path.join(root, 'auth'), env: {}, timeoutMs: 50 };
  fs.mkdirSync(options.authDir);
  // The session's file name, as ensureSession makes it: from the failure it remembers.
  await expect(ensureSession(options, LOGIN_BASE, 'company:7')).rejects.toThrow(/no credentials registry/);
  const failed = fs.readdirSync(options.authDir).find((n) => n.endsWith('.failed.txt'))!;
  const base = path.join(options.authDir, failed.replace(/\.failed\.txt$/, ''));
  fs.rmSync(path.join(options.authDir, failed));
  fs.writeFileSync(`${base}.json`, JSON.stringify({ cookies: [], origins: [] }));
  // A lock held by a live process (this one): taking it would wait 10 s and then fail, not resolve.
  fs.mkdirSync(`${base}.lock`);
  fs.writeFileSync(path.join(`${base}.lock`, 'pid'), String(process.pid));
  await expect(ensureSession(options, LOGIN_BASE, 'company:7')).resolves.toBe(`${base}.json`);
});

test('docs/contract.md §3: L1_CREDENTIALS_FILE holding the registry text fails the login naming the mistake; the failure remembered on disk holds no value of it', async () => {
  const root = tempDir('session');
  // Assembled at run time: this source never holds a secret-looking value literally.
  const password = ['Hun', 'ter2!', 'pw'].join('');
  const phone = ['138', '1234', '5678'].join('');
  const env = { L1_CREDENTIALS_FILE: JSON.stringify({ companies: { '7': { phone, password } } }) };
  const options = { root, authDir: path.join(root, 'auth'), env, timeoutMs: 50 };
  fs.mkdirSync(options.authDir);
  await expect(ensureSession(options, LOGIN_BASE, 'company:7')).rejects.toThrow(
    'L1_CREDENTIALS_FILE holds JSON text rather than a path (value not shown): L1_CREDENTIALS_JSON takes the credentials registry as text',
  );
  const failed = fs.readdirSync(options.authDir).filter((n) => n.endsWith('.failed.txt'));
  expect(failed).toHaveLength(1);
  const remembered = fs.readFileSync(path.join(options.authDir, failed[0]!), 'utf8');
  for (const secret of [password, phone]) expect(remembered).not.toContain(secret);
  // A settings mistake, not a bad run: the run's kind says so.
  expect(loginFailureKind(remembered)).toBe('configuration');
});
