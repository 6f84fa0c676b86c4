import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { expect, test } from './test-type';
import { loginFailureKind } from '../../lib/platform/collect';
import { LoginError } from '../../lib/platform/login';
import { ensureSession, rememberedLoginFailure, sessionKey } from '../../lib/platform/sessions';
import { CredentialsError } from '../../lib/run/credentials';
import { processStartMs, withLock, withLockSync } from '../../lib/run/state';
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

/**
 * A login origin of contract §3 on 127.0.0.1: `GET /login` is the form, `POST /api/auth/login`
 * answers what `answers` says, one entry per call (the last one repeats): a status, or `hang` (no
 * answer at all, so the suite's timeout ends the request). 200 sets a session cookie.
 */
type LoginAnswer = number | 'hang';

async function loginServer(answers: { page?: LoginAnswer[]; post?: LoginAnswer[] }) {
  const calls = { page: 0, post: 0 };
  const next = (list: LoginAnswer[] | undefined, n: number): LoginAnswer =>
    list?.length ? (list[Math.min(n, list.length - 1)] ?? 200) : 200;
  const server = http.createServer((req, res) => {
    req.resume();
    const post = req.method === 'POST' && req.url === '/api/auth/login';
    const answer = post ? next(answers.post, calls.post++) : next(answers.page, calls.page++);
    if (answer === 'hang') return; // never answered: closed with the server
    if (answer === 200 && post) {
      // Assembled at run time: this source never holds a cookie-looking value literally.
      res.setHeader(
        'set-cookie',
        `sid=${['s', 'e', 's', 's'].join('')}${calls.post}x${'0'.repeat(24)}; Path=/; HttpOnly`,
      );
    }
    res.writeHead(answer, { 'content-type': post ? 'application/json' : 'text/html' });
    res.end(post ? '{}' : '<form></form>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A registry for company 7 with values assembled at run time (never a literal secret in the source). */
function registryEnv(): NodeJS.ProcessEnv {
  const phone = ['139', '0000', '0007'].join('');
  const password = ['not', '-a-', 'secret'].join('');
  return { L1_CREDENTIALS_JSON: JSON.stringify({ companies: { '7': { phone, password } } }) };
}

function sessionOptions(timeoutMs = 2_000) {
  const root = tempDir('session');
  const options = { root, authDir: path.join(root, 'auth'), env: registryEnv(), timeoutMs };
  fs.mkdirSync(options.authDir);
  return options;
}

const failures = (authDir: string) => fs.readdirSync(authDir).filter((n) => n.endsWith('.failed.txt'));

test('docs/contract.md §3: a company the registry has no entry for fails its login naming the company and where the registry came from, asks nothing of the platform, and is remembered as a configuration error', async () => {
  const server = await loginServer({ post: [200] });
  try {
    const options = sessionOptions();
    const base = `http://127.0.0.1:${server.port}`;
    const missing =
      'no entry for company 1009 in the credentials registry (L1_CREDENTIALS_JSON): add it under "companies" or "profileB"';
    await expect(ensureSession(options, base, 'company:1009')).rejects.toThrow(missing);
    expect(server.calls).toEqual({ page: 0, post: 0 });
    // Asked again by the account's next run: the same words, from the failure remembered on disk.
    await expect(ensureSession(options, base, 'company:1009')).rejects.toThrow(missing);
    expect(failures(options.authDir)).toHaveLength(1);
    expect(loginFailureKind(missing)).toBe('configuration');
    // The company next to it, which has an entry, logs in.
    await expect(ensureSession(options, base, 'company:7')).resolves.toMatch(/\.json$/);
    expect(server.calls.post).toBe(1);
  } finally {
    await server.close();
  }
});

test("README § One run's trouble stays in that run: a login answered 503 once is not remembered, the next run of the account logs in", async () => {
  const server = await loginServer({ post: [503, 200] });
  try {
    const options = sessionOptions();
    const base = `http://127.0.0.1:${server.port}`;
    await expect(ensureSession(options, base, 'company:7')).rejects.toThrow(
      'login failed for company 7: /api/auth/login answered HTTP 503',
    );
    expect(failures(options.authDir)).toEqual([]);
    const state = await ensureSession(options, base, 'company:7');
    expect(JSON.parse(fs.readFileSync(state, 'utf8')).cookies).toHaveLength(1);
    expect(server.calls.post).toBe(2);
  } finally {
    await server.close();
  }
});

test('a login page that gives no answer within the timeout is not remembered: the next run tries again', async () => {
  const server = await loginServer({ page: ['hang', 200] });
  try {
    const options = sessionOptions(300);
    const base = `http://127.0.0.1:${server.port}`;
    await expect(ensureSession(options, base, 'company:7')).rejects.toThrow(
      'login failed for company 7: /login did not load (no answer within 300 ms)',
    );
    expect(failures(options.authDir)).toEqual([]);
    await expect(ensureSession(options, base, 'company:7')).resolves.toMatch(/\.json$/);
    expect(server.calls).toEqual({ page: 2, post: 1 });
  } finally {
    await server.close();
  }
});

test('a refused connection is not remembered: the next run of the account tries again', async () => {
  const server = await loginServer({});
  const base = `http://127.0.0.1:${server.port}`;
  await server.close(); // nothing listens on the port now
  const options = sessionOptions();
  await expect(ensureSession(options, base, 'company:7')).rejects.toThrow(
    'login failed for company 7: /login did not load (ECONNREFUSED)',
  );
  expect(failures(options.authDir)).toEqual([]);
});

test('docs/contract.md §3: credentials refused (HTTP 401) are remembered: the password is tried once per invocation', async () => {
  const server = await loginServer({ post: [401] });
  try {
    const options = sessionOptions();
    const base = `http://127.0.0.1:${server.port}`;
    const refused = 'login failed for company 7: /api/auth/login answered HTTP 401';
    await expect(ensureSession(options, base, 'company:7')).rejects.toThrow(refused);
    await expect(ensureSession(options, base, 'company:7')).rejects.toThrow(refused);
    expect(failures(options.authDir)).toHaveLength(1);
    expect(server.calls.post).toBe(1);
  } finally {
    await server.close();
  }
});

test('docs/contract.md §3: http:// and https:// of one host and port keep their own sessions and their own failures', async () => {
  const server = await loginServer({});
  try {
    const plain = `http://127.0.0.1:${server.port}`;
    const secure = `https://127.0.0.1:${server.port}`;
    const tlsFailure = /login failed for company 7: \/login did not load/;
    // http first: the https origin has no session of its own; it logs in there (a TLS failure
    // against this plain server), never handed the http origin's session.
    const first = sessionOptions();
    const state = await ensureSession(first, plain, 'company:7');
    await expect(ensureSession(first, secure, 'company:7')).rejects.toThrow(tlsFailure);
    expect(fs.readdirSync(first.authDir).filter((n) => n.endsWith('.json'))).toEqual([path.basename(state)]);
    // https first: whether its failure is remembered or not, it is that origin's: http logs in.
    const second = sessionOptions();
    await expect(ensureSession(second, secure, 'company:7')).rejects.toThrow(tlsFailure);
    await expect(ensureSession(second, plain, 'company:7')).resolves.toMatch(/\.json$/);
    // One POST each time, by the http origin alone.
    expect(server.calls.post).toBe(2);
  } finally {
    await server.close();
  }
});

test('rememberedLoginFailure: what lib/platform/login.ts marks transient is not remembered; anything else is', () => {
  const failure = (message: string, transient?: boolean) =>
    new LoginError(`login failed for company 7: ${message}`, transient);
  const remembered = [
    failure('/api/auth/login answered HTTP 401'),
    failure('the login page moved to another origin: credentials were not sent'),
    new CredentialsError('no entry for company 7 in the credentials registry (L1_CREDENTIALS_JSON): add it'),
    new Error('something unforeseen'),
    'not even an error',
  ];
  for (const e of remembered) expect(rememberedLoginFailure(e), String(e)).toBe(true);
  expect(rememberedLoginFailure(failure('/api/auth/login answered HTTP 503', true))).toBe(false);
});

test('sessionKey: the scheme is part of the key, in a file-name-safe form', () => {
  const plain = sessionKey('http://127.0.0.1:4970', 'company:7');
  const secure = sessionKey('https://127.0.0.1:4970', 'company:7');
  expect(plain).not.toBe(secure);
  for (const key of [plain, secure]) expect(key).toMatch(/^[A-Za-z0-9][A-Za-z0-9._-]*$/);
  expect(secure.startsWith('https_127.0.0.1-4970')).toBe(true);
});

/** Until the returned function is called, a lock's pid file cannot be written: the disk is full. */
function failPidWrites(): () => void {
  const write = fs.writeFileSync;
  (fs as { writeFileSync: unknown }).writeFileSync = (file: fs.PathOrFileDescriptor, ...rest: unknown[]) => {
    if (String(file).endsWith(`${path.sep}pid`))
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    return (write as (...a: unknown[]) => void)(file, ...rest);
  };
  return () => {
    (fs as { writeFileSync: unknown }).writeFileSync = write;
  };
}

/**
 * The lock `holder` holds, refused after a wait of 100 ms: the message names the lock and its
 * holder (the owner still alive, the waiter itself, a third waiter, or 0 for a lock no one can be
 * told to hold).
 */
function expectRefusedFor(lock: string, holder: string | number): void {
  expect(() => withLockSync(lock, 100, () => 'taken')).toThrow(
    `waited 100 ms for ${path.basename(lock)} held by process ${holder}`,
  );
}

/**
 * A lock folder naming this process, made a day before it started: its owner was killed and the pid
 * given again since (a CI container numbers processes from 1), so it is taken over. Its path.
 */
function lockOfReusedPid(lock = path.join(tempDir('lock'), 'auth', 'company.lock')): string {
  fs.mkdirSync(lock, { recursive: true });
  fs.writeFileSync(path.join(lock, 'pid'), String(process.pid));
  const before = new Date(Date.now() - 24 * 3600_000);
  fs.utimesSync(lock, before, before);
  return lock;
}

/**
 * Until `restore` is called, the first rename or removal of `lock` is preceded by another waiter's
 * takeover of it: the lock it judged is removed, and (`fresh`) a fresh one taken by a live owner
 * (this process) in its place.
 */
function firstWaiterBetween(
  lock: string,
  { fresh } = { fresh: true },
): { restore: () => void; interleaved: () => boolean } {
  const { rmSync, renameSync } = fs;
  let interleaved = false;
  const firstWaiter = (target: fs.PathLike) => {
    if (interleaved || path.resolve(String(target)) !== lock) return;
    interleaved = true;
    rmSync(lock, { recursive: true, force: true });
    if (!fresh) return;
    fs.mkdirSync(lock);
    fs.writeFileSync(path.join(lock, 'pid'), String(process.pid));
  };
  const patched = fs as { rmSync: unknown; renameSync: unknown };
  patched.rmSync = (target: fs.PathLike, options?: fs.RmOptions) => {
    firstWaiter(target);
    rmSync(target, options);
  };
  patched.renameSync = (from: fs.PathLike, to: fs.PathLike) => {
    firstWaiter(from);
    renameSync(from, to);
  };
  return {
    restore: () => {
      patched.rmSync = rmSync;
      patched.renameSync = renameSync;
    },
    interleaved: () => interleaved,
  };
}

/**
 * Until `restore` is called, the first lock folder `lock` made is replaced at once, before its pid
 * is written, by a fresh lock of `owner` that a late waiter puts back from aside (`takeOver`: a
 * rename replaces an empty folder).
 */
function putBackOverMadeLock(lock: string, owner: string): { restore: () => void; putBack: () => boolean } {
  const { mkdirSync } = fs;
  let putBack = false;
  (fs as { mkdirSync: unknown }).mkdirSync = (dir: fs.PathLike, options?: fs.MakeDirectoryOptions) => {
    const made = mkdirSync(dir, options);
    if (putBack || path.resolve(String(dir)) !== lock) return made;
    putBack = true;
    const aside = path.join(path.dirname(lock), '.l1-lock-taken-1-aside');
    mkdirSync(aside);
    fs.writeFileSync(path.join(aside, 'pid'), owner);
    fs.renameSync(aside, lock);
    return made;
  };
  return {
    restore: () => {
      (fs as { mkdirSync: unknown }).mkdirSync = mkdirSync;
    },
    putBack: () => putBack,
  };
}

/**
 * Until the returned function is called, the first write of a pid into `lock` finds its folder
 * renamed aside by a late waiter's takeover, which puts it back right after (`takeOver`).
 */
function asideAtPidWrite(lock: string): () => void {
  const { writeFileSync } = fs;
  const write = writeFileSync as (...a: unknown[]) => void;
  let moved = false;
  (fs as { writeFileSync: unknown }).writeFileSync = (file: fs.PathOrFileDescriptor, ...rest: unknown[]) => {
    if (moved || String(file) !== path.join(lock, 'pid')) return write(file, ...rest);
    moved = true;
    const aside = path.join(path.dirname(lock), '.l1-lock-taken-1-late');
    fs.renameSync(lock, aside);
    try {
      return write(file, ...rest);
    } finally {
      fs.renameSync(aside, lock);
    }
  };
  return () => {
    (fs as { writeFileSync: unknown }).writeFileSync = writeFileSync;
  };
}

/** Until the returned function is called, a rename onto `lock` finds a lock of `owner` there. */
function thirdWaiterAtPutBack(lock: string, owner: string): () => void {
  const { renameSync } = fs;
  (fs as { renameSync: unknown }).renameSync = (from: fs.PathLike, to: fs.PathLike) => {
    if (path.resolve(String(to)) === lock) {
      fs.mkdirSync(lock);
      fs.writeFileSync(path.join(lock, 'pid'), owner);
    }
    renameSync(from, to);
  };
  return () => {
    (fs as { renameSync: unknown }).renameSync = renameSync;
  };
}

/**
 * Until the returned function is called, the first rename of `lock` is preceded by a pid of
 * `owner` written into it, its time set back to `at`: a fresh lock in the dead one's inode and
 * time (an inode reused within one tick of the file system's clock) that only its pid tells apart.
 */
function pidChangedBeforeRename(lock: string, owner: string, at: Date): () => void {
  const { renameSync } = fs;
  let changed = false;
  (fs as { renameSync: unknown }).renameSync = (from: fs.PathLike, to: fs.PathLike) => {
    if (!changed && path.resolve(String(from)) === lock) {
      changed = true;
      fs.writeFileSync(path.join(lock, 'pid'), owner);
      fs.utimesSync(lock, at, at);
    }
    renameSync(from, to);
  };
  return () => {
    (fs as { renameSync: unknown }).renameSync = renameSync;
  };
}

/**
 * Until the returned function is called, a try at making `lock` past the thousandth throws: a
 * waiter that tries again at once, forever, fails instead of hanging the runner.
 */
function boundTries(lock: string): () => void {
  const { mkdirSync } = fs;
  let tries = 0;
  (fs as { mkdirSync: unknown }).mkdirSync = (dir: fs.PathLike, options?: fs.MakeDirectoryOptions) => {
    if (path.resolve(String(dir)) === lock && ++tries > 1000) throw new Error(`${tries} tries at ${lock}`);
    return mkdirSync(dir, options);
  };
  return () => {
    (fs as { mkdirSync: unknown }).mkdirSync = mkdirSync;
  };
}

test.describe('the login lock (lib/run/state.ts withLock) after a write the disk refused or a kill (file-system audit)', () => {
  test("a lock whose owner's pid could not be written (a full disk) is not left behind: the next run of the account takes it at once, not after its wait and 'held by process 0'", async () => {
    const lock = path.join(tempDir('lock'), 'auth', 'company.lock');
    const restore = failPidWrites();
    try {
      await expect(withLock(lock, 200, async () => 'first')).rejects.toThrow(/ENOSPC/);
    } finally {
      restore();
    }
    expect(fs.existsSync(lock)).toBe(false);
    expect(await withLock(lock, 200, async () => 'second')).toBe('second');
  });

  test('a lock folder a killed process left without its pid is taken over once it is a few seconds old; a fresh one is waited for', async () => {
    const lock = path.join(tempDir('lock'), 'auth', 'company.lock');
    fs.mkdirSync(lock, { recursive: true });
    // Fresh: its owner may be writing its pid now.
    await expect(withLock(lock, 100, async () => 'taken')).rejects.toThrow(/waited 100 ms for company.lock/);
    const old = new Date(Date.now() - 60_000);
    fs.utimesSync(lock, old, old);
    expect(await withLock(lock, 100, async () => 'taken')).toBe('taken');
    expect(fs.existsSync(lock)).toBe(false);
  });

  test("a lock folder whose owner's pid a later process has (its owner killed, the pid given again: a CI container numbers processes from 1) is taken over, the login lock's and the output claim's; a live owner's is waited for (review of 2026-11-28)", async () => {
    const lock = path.join(tempDir('lock'), 'auth', 'company.lock');
    fs.mkdirSync(lock, { recursive: true });
    // This process has the pid, and runs: the owner's lock as it is taken.
    fs.writeFileSync(path.join(lock, 'pid'), String(process.pid));
    expectRefusedFor(lock, process.pid);
    // Taken a day ago: this process started after it, and is not the process that took it.
    expect(withLockSync(lockOfReusedPid(lock), 100, () => 'taken')).toBe('taken');
    expect(await withLock(lockOfReusedPid(lock), 100, async () => 'taken')).toBe('taken');
    expect(fs.existsSync(lock)).toBe(false);
  });

  test("two waiters that judged the same dead owner's lock: the one judging late removes that lock only, never the fresh lock the first took over meanwhile (review of 2026-11-28: both held it)", () => {
    const lock = lockOfReusedPid();
    // Between this waiter's judgement and its removal (a rename or a removal of the lock folder),
    // the first waiter removes the dead owner's lock and takes a fresh one, as a live owner does.
    const first = firstWaiterBetween(lock);
    try {
      expectRefusedFor(lock, process.pid);
    } finally {
      first.restore();
    }
    expect(first.interleaved()).toBe(true);
    expect(fs.readFileSync(path.join(lock, 'pid'), 'utf8')).toBe(String(process.pid));
    // Nothing left beside it.
    expect(fs.readdirSync(path.dirname(lock))).toEqual(['company.lock']);
  });

  test("two waiters that judged the same dead owner's lock, the first between its removal and its fresh lock: the late one finds none, and takes the lock", () => {
    const lock = lockOfReusedPid();
    const first = firstWaiterBetween(lock, { fresh: false });
    try {
      expect(withLockSync(lock, 100, () => fs.readFileSync(path.join(lock, 'pid'), 'utf8'))).toBe(
        String(process.pid),
      );
    } finally {
      first.restore();
    }
    expect(first.interleaved()).toBe(true);
    expect(fs.readdirSync(path.dirname(lock))).toEqual([]);
  });

  test('a fresh lock a late waiter put back over the empty lock folder another just made (a rename replaces an empty folder) is not written over: that other waits for its owner, never holds it beside it', () => {
    const lock = path.join(tempDir('lock'), 'auth', 'company.lock');
    const owner = String(process.ppid);
    const late = putBackOverMadeLock(lock, owner);
    try {
      expectRefusedFor(lock, owner);
    } finally {
      late.restore();
    }
    expect(late.putBack()).toBe(true);
    expect(fs.readFileSync(path.join(lock, 'pid'), 'utf8')).toBe(owner);
  });

  test("a fresh lock a late waiter renamed aside by mistake, and could not put back (a third waiter's lock is there): its folder aside is not left behind for good", () => {
    const lock = lockOfReusedPid();
    const first = firstWaiterBetween(lock);
    const third = String(process.ppid);
    // The second rename (the fresh lock back from aside) finds a third waiter's lock in its place.
    const restoreRename = thirdWaiterAtPutBack(lock, third);
    try {
      expectRefusedFor(lock, third);
    } finally {
      restoreRename();
      first.restore();
    }
    expect(first.interleaved()).toBe(true);
    expect(fs.readdirSync(path.dirname(lock))).toEqual(['company.lock']);
  });

  test("a dead owner's lock whose pid changed between its judgement and its rename aside, in the same folder and time (an inode reused within one tick): put back, never removed", () => {
    const lock = path.join(tempDir('lock'), 'auth', 'company.lock');
    fs.mkdirSync(lock, { recursive: true });
    // A process that has ended: its lock is left behind.
    fs.writeFileSync(path.join(lock, 'pid'), String(spawnSync(process.execPath, ['-e', '']).pid));
    const at = new Date();
    fs.utimesSync(lock, at, at);
    const restore = pidChangedBeforeRename(lock, String(process.pid), at);
    try {
      expectRefusedFor(lock, process.pid);
    } finally {
      restore();
    }
    expect(fs.readdirSync(path.dirname(lock))).toEqual(['company.lock']);
  });

  test('a lock path that is a broken symbolic link (no folder behind it, never gone) is waited for and refused, not tried again at once forever', () => {
    const lock = path.join(tempDir('lock'), 'auth', 'company.lock');
    fs.mkdirSync(path.dirname(lock), { recursive: true });
    fs.symlinkSync(path.join(path.dirname(lock), 'nowhere'), lock);
    const restore = boundTries(lock);
    try {
      expectRefusedFor(lock, 0);
    } finally {
      restore();
    }
  });

  test('a takeover that never ends (each dead lock put back, or taken by another each time) counts against the wait: refused at its end, never tried again at once forever (review of 2026-11-28)', async () => {
    const lock = path.join(tempDir('lock'), 'auth', 'company.lock');
    fs.mkdirSync(lock, { recursive: true });
    // A pid no process has (above Linux's largest pid_max): a dead owner, taken over at once.
    fs.writeFileSync(path.join(lock, 'pid'), String(2 ** 22 + 1));
    const { renameSync } = fs;
    (fs as { renameSync: unknown }).renameSync = () => {
      throw Object.assign(new Error('ENOENT: gone'), { code: 'ENOENT' });
    };
    const restore = boundTries(lock);
    try {
      expect(() => withLockSync(lock, 5, () => 'taken')).toThrow(
        'waited 5 ms for company.lock held by process 0',
      );
      await expect(withLock(lock, 5, async () => 'taken')).rejects.toThrow(
        'waited 5 ms for company.lock held by process 0',
      );
    } finally {
      restore();
      (fs as { renameSync: unknown }).renameSync = renameSync;
    }
  });

  test('a lock whose owner dies as the wait ends is taken, not refused as "held by process 0": the takeover that freed it past the wait gets its next try (review 58 of b5b1cbc)', async () => {
    const lock = path.join(tempDir('lock'), 'auth', 'company.lock');
    fs.mkdirSync(lock, { recursive: true });
    // Held by a live owner (this process) for the whole wait...
    fs.writeFileSync(path.join(lock, 'pid'), String(process.pid));
    const { now } = performance;
    // ...which dies during the waiter's last pause (its pid, then, one no process has: above
    // Linux's largest pid_max), the wait's monotonic clock past its end.
    const dies = setTimeout(() => {
      fs.writeFileSync(path.join(lock, 'pid'), String(2 ** 22 + 1));
      performance.now = () => now.call(performance) + 60_000;
    }, 10);
    try {
      expect(await withLock(lock, 100, async () => 'taken')).toBe('taken');
    } finally {
      clearTimeout(dies);
      performance.now = now;
    }
    expect(fs.readdirSync(path.dirname(lock))).toEqual([]);
  });

  test("a lock folder made here that a late waiter's takeover has aside as its pid is written (put back after) is waited for as a pid-less lock, never an ENOENT that failed the run (review of 2026-11-28)", () => {
    const lock = path.join(tempDir('lock'), 'auth', 'company.lock');
    const restore = asideAtPidWrite(lock);
    try {
      expectRefusedFor(lock, 0);
    } finally {
      restore();
    }
    // The folder put back stays, pid-less: taken over once a few seconds old, as one a kill left.
    expect(fs.readdirSync(lock)).toEqual([]);
    const old = new Date(Date.now() - 60_000);
    fs.utimesSync(lock, old, old);
    expect(withLockSync(lock, 100, () => 'taken')).toBe('taken');
    expect(fs.readdirSync(path.dirname(lock))).toEqual([]);
  });

  test("a lock that names another process when its body ends is that process's (a third waiter's, after a takeover race): its release leaves it", async () => {
    const lock = path.join(tempDir('lock'), 'auth', 'company.lock');
    const other = String(process.ppid);
    const taken = () => fs.writeFileSync(path.join(lock, 'pid'), other);
    expect(withLockSync(lock, 100, taken)).toBeUndefined();
    expect(fs.readFileSync(path.join(lock, 'pid'), 'utf8')).toBe(other);
    fs.rmSync(lock, { recursive: true });
    await withLock(lock, 100, async () => taken());
    expect(fs.readFileSync(path.join(lock, 'pid'), 'utf8')).toBe(other);
  });

  test("near miss: a live owner whose lock folder's time is half a minute before its start (a network share whose clock lags this machine's) is still its owner, waited for (review of 2026-11-28)", () => {
    const lock = path.join(tempDir('lock'), 'auth', 'company.lock');
    fs.mkdirSync(lock, { recursive: true });
    fs.writeFileSync(path.join(lock, 'pid'), String(process.pid));
    const lagging = new Date(processStartMs(process.pid)! - 30_000);
    fs.utimesSync(lock, lagging, lagging);
    expectRefusedFor(lock, process.pid);
    expect(fs.readFileSync(path.join(lock, 'pid'), 'utf8')).toBe(String(process.pid));
  });

  test('the wait for a held lock is measured on the monotonic clock: a wall clock stepped back an hour during it (NTP, a resumed VM) does not make it an hour longer (review of 2026-11-28)', async () => {
    test.setTimeout(10_000);
    const lock = path.join(tempDir('lock'), 'auth', 'company.lock');
    fs.mkdirSync(lock, { recursive: true });
    fs.writeFileSync(path.join(lock, 'pid'), String(process.pid));
    const wall = Date.now;
    const from = wall();
    // Each read an hour before the one before it. (The async lock only: a sync wait that never
    // ended would hold this worker past its test's timeout.)
    let reads = 0;
    Date.now = () => wall() - 3_600_000 * reads++;
    try {
      await expect(withLock(lock, 200, async () => 'taken')).rejects.toThrow('waited 200 ms');
      reads = 0;
      expect(() => withLockSync(lock, 200, () => 'taken')).toThrow('waited 200 ms');
    } finally {
      Date.now = wall;
    }
    expect(wall() - from).toBeLessThan(5_000);
  });
});
