import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from './test-type';
import { ROOT } from '../../lib/run/settings';
import { tempDir } from './fakes/temp';
import { tsEval } from './fakes/ts-eval';

/**
 * README.md § Settings: "A relative folder or file in a variable is taken from the project's root
 * … wherever the command runs", L1_CHROMIUM_PATH too: the check at start and the browser launched.
 */

/** findChromium and chromiumPathProblem of L1_CHROMIUM_PATH=`given`, in a process run in `cwd`. */
function fromFolder(cwd: string, given: string): [string | null, string | null] {
  const code = [
    `const browser = require(${JSON.stringify(path.join(ROOT, 'lib', 'run', 'browser.ts'))});`,
    `const env = { L1_CHROMIUM_PATH: ${JSON.stringify(given)} };`,
    'process.stdout.write(JSON.stringify([browser.findChromium(env) ?? null, browser.chromiumPathProblem(env) ?? null]));',
  ].join('\n');
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('L1_')));
  const r = spawnSync(...tsEval(code), { cwd, env, encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as [string | null, string | null];
}

test("a relative L1_CHROMIUM_PATH is the project root's, run from another folder too (-c): the browser the root holds is taken, not refused as no such file", () => {
  test.setTimeout(60_000); // two tsx processes
  const elsewhere = tempDir('inputs');
  // An executable file under the root, standing in for a browser the project keeps.
  const inRoot = path.join('node_modules', '.bin', 'playwright');
  expect(fromFolder(elsewhere, inRoot)).toEqual([path.join(ROOT, inRoot), null]);
  // Near miss: a file only the working folder holds is not the one meant, and is said missing.
  fs.writeFileSync(path.join(elsewhere, 'chrome'), '', { mode: 0o755 });
  expect(fromFolder(elsewhere, 'chrome')).toEqual([
    path.join(ROOT, 'chrome'),
    `L1_CHROMIUM_PATH ${path.join(ROOT, 'chrome')}: no such file (give the path of a Chromium executable, or unset it to use Debian's)`,
  ]);
});
