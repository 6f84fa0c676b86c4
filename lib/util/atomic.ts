import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

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
  const dir = path.dirname(file);
  fs.mkdirSync(dir, { recursive: true, ...(options.private ? { mode: 0o700 } : {}) });
  const tmp = `${file}.${process.pid}.${crypto.randomBytes(3).toString('hex')}.tmp`;
  try {
    fs.writeFileSync(tmp, content, options.private ? { mode: 0o600 } : {});
    if (options.private) fs.chmodSync(tmp, 0o600);
    fs.renameSync(tmp, file);
  } catch (e) {
    fs.rmSync(tmp, { force: true });
    throw e;
  }
}
