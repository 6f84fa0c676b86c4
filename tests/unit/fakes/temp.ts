import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * A fresh folder under the system's temp folder for one unit test, removed when the test worker
 * exits (a worker Playwright replaces after a failure exits too): `npm test` leaves nothing in /tmp.
 */
const made: string[] = [];
process.once('exit', () => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

export function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `l1-${prefix}-`));
  made.push(dir);
  return dir;
}
