import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Temporary names: unique per process (the pid, and a random tag for processes of other PID
 * namespaces sharing the folder) and per write (a counter): drawn once, not per write.
 */
const PROCESS_TAG = `${process.pid}.${crypto.randomBytes(3).toString('hex')}`;
let written = 0;

/**
 * The one atomic writer: the content goes to a temporary sibling, then a rename puts it in place,
 * so a reader (or a killed process) never sees half a file. `mode` 0o600 for private files
 * (sessions, evidence); folders are made as needed (0700 when private).
 */
export function writeAtomic(
  file: string,
  content: string | Buffer,
  options: { private?: boolean } = {},
): void {
  const tmp = `${file}.${PROCESS_TAG}.${(++written).toString(36)}.tmp`;
  // A file created 0600 stays at most 0600 (a umask only removes bits); a missing folder is made
  // on the first write that needs it, not checked on every write (records are written per test).
  const flags = options.private ? { mode: 0o600 } : {};
  try {
    try {
      fs.writeFileSync(tmp, content, flags);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      fs.mkdirSync(path.dirname(file), { recursive: true, ...(options.private ? { mode: 0o700 } : {}) });
      fs.writeFileSync(tmp, content, flags);
    }
    fs.renameSync(tmp, file);
  } catch (e) {
    try {
      fs.rmSync(tmp, { force: true });
    } catch {
      // The write's own error is the one to tell (a name too long fails the removal too).
    }
    throw naming(e, file);
  }
}

/**
 * The error of a write, naming the file when Node's does not: a full disk is `ENOSPC: no space
 * left on device, write`, with no path, and the night said neither which folder nor which file
 * (file-system audit of 2026-11-28). Its code, and its stack's frames, stay as they were.
 */
export function naming(e: unknown, file: string): unknown {
  const err = e as NodeJS.ErrnoException;
  if (!(err instanceof Error) || err.path !== undefined) return e;
  const before = err.message;
  // Read first: V8 formats a stack when it is first read, with the message of that moment.
  const stack = err.stack;
  err.message = `${before} (writing ${file})`;
  if (stack?.includes(before)) err.stack = stack.replace(before, err.message);
  return err;
}

/**
 * A staging path beside `target` for process `pid` (`<dir>/.<name>.building-<pid>`), written first
 * and moved onto `target` when whole, and the staging paths of `target` a killed process left
 * (`stale`), for the caller to remove. Used for the Allure report folder and the history file
 * (scripts/report.ts).
 */
export function stagingBeside(target: string, pid = process.pid): { path: string; stale: string[] } {
  const dir = path.dirname(target);
  const stem = `.${path.basename(target)}.building-`;
  const stale = fs.existsSync(dir)
    ? fs
        .readdirSync(dir)
        .filter((n) => n.startsWith(stem))
        .map((n) => path.join(dir, n))
    : [];
  return { path: path.join(dir, `${stem}${pid}`), stale };
}
