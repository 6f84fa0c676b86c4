import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Where one invocation keeps what it must not share: sessions (live cookies), collected evidence
 * and the records of its item tests. Each invocation has its own folder, so two invocations in one
 * project never read each other's evidence (issue "one hostile report", case 7), and a run's
 * collection lives with the run, not in a setup project whose failure would skip every other run.
 *
 *   <L1_STATE_DIR or .l1/state>/invocations/<id>/{auth,evidence,records}/
 *
 * Folders are 0700, files 0600 (they hold cookies). The runner creates the id and passes it to its
 * workers through the environment (`L1_INVOCATION_ID`); the folder is removed when the invocation
 * ends unless `L1_KEEP_STATE=1`.
 */

export const INVOCATION_ENV = 'L1_INVOCATION_ID';

export function stateRoot(root: string, env: NodeJS.ProcessEnv = process.env): string {
  return env.L1_STATE_DIR ? path.resolve(root, env.L1_STATE_DIR) : path.join(root, '.l1', 'state');
}

/** The id of this invocation: made once by the runner (config load), inherited by its workers. */
export function invocationId(env: NodeJS.ProcessEnv = process.env): string {
  let id = env[INVOCATION_ENV];
  if (!id || !/^[\w.-]{1,80}$/.test(id)) {
    const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '');
    id = `${stamp}-${process.pid}-${crypto.randomBytes(3).toString('hex')}`;
    env[INVOCATION_ENV] = id;
  }
  return id;
}

export interface InvocationDirs {
  root: string;
  auth: string;
  evidence: string;
  records: string;
}

export function invocationDirs(
  root: string,
  id: string,
  env: NodeJS.ProcessEnv = process.env,
): InvocationDirs {
  const dir = path.join(stateRoot(root, env), 'invocations', id);
  return {
    root: dir,
    auth: path.join(dir, 'auth'),
    evidence: path.join(dir, 'evidence'),
    records: path.join(dir, 'records'),
  };
}

/** mkdir -p with 0700 on every folder it creates or owns (umask would widen it). */
export function privateDir(dir: string): string {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.chmodSync(dir, 0o700);
  return dir;
}

/** Writes a file readable by its owner only, atomically (temp file + rename). */
export function writePrivate(file: string, content: string | Buffer): void {
  privateDir(path.dirname(file));
  const tmp = `${file}.${process.pid}.${crypto.randomBytes(3).toString('hex')}.tmp`;
  fs.writeFileSync(tmp, content, { mode: 0o600 });
  fs.chmodSync(tmp, 0o600);
  fs.renameSync(tmp, file);
}

/** Writes a shared output atomically (temp file + rename): a reader never sees half a file. */
export function writeAtomic(file: string, content: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${crypto.randomBytes(3).toString('hex')}.tmp`;
  fs.writeFileSync(tmp, content);
  fs.renameSync(tmp, file);
}

/** Whether a process still runs (a lock or claim whose owner is gone may be taken over). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * A cross-process lock (mkdir is atomic). A lock whose owner process is gone is taken over.
 * `wait` bounds how long to wait for another owner; the returned function releases it.
 */
export async function withLock<T>(lockDir: string, waitMs: number, body: () => Promise<T>): Promise<T> {
  const started = Date.now();
  privateDir(path.dirname(lockDir));
  for (;;) {
    try {
      fs.mkdirSync(lockDir, { mode: 0o700 });
      fs.writeFileSync(path.join(lockDir, 'pid'), String(process.pid));
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const owner = Number(readOr(path.join(lockDir, 'pid'), '0'));
      if (owner && !processAlive(owner)) {
        fs.rmSync(lockDir, { recursive: true, force: true });
        continue;
      }
      if (Date.now() - started > waitMs)
        throw new Error(`waited ${waitMs} ms for ${path.basename(lockDir)} held by process ${owner}`, {
          cause: e,
        });
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  try {
    return await body();
  } finally {
    fs.rmSync(lockDir, { recursive: true, force: true });
  }
}

export function readOr(file: string, fallback: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return fallback;
  }
}

/** Removes invocation folders left by invocations that died more than a day ago. */
export function removeStaleInvocations(root: string, env: NodeJS.ProcessEnv = process.env): void {
  const dir = path.join(stateRoot(root, env), 'invocations');
  const dayAgo = Date.now() - 24 * 3600_000;
  for (const name of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
    const full = path.join(dir, name);
    try {
      if (fs.statSync(full).mtimeMs < dayAgo) fs.rmSync(full, { recursive: true, force: true });
    } catch {
      // another invocation removed it first
    }
  }
}
