import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from './test-type';
import { ROOT } from '../../lib/run/settings';
import { tempDir } from './fakes/temp';

/**
 * scripts/ensure-env.mjs (predemo, pretest, precheck and the CI setup) finds the browser the suite
 * will take before node_modules exists: without dotenv, so by Node's own reading of `.env`.
 */

const SCRIPT = path.join(ROOT, 'scripts', 'ensure-env.mjs');

/** Calls an export of the script in a plain Node process (it is an ES module) and returns its JSON answer. */
function call(expression: string): unknown {
  const r = spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `const m = await import(${JSON.stringify(SCRIPT)});` +
        `process.stdout.write(JSON.stringify(${expression}) ?? 'null');`,
    ],
    { encoding: 'utf8' },
  );
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

test('L1_CHROMIUM_PATH in .env is the browser, as the settings read it: the environment wins, a blank value there lets .env show through', () => {
  // The script read process.env only: with Chromium at the .env path alone it went to apt-get.
  const root = tempDir('ensure-env');
  fs.writeFileSync(
    path.join(root, '.env'),
    'L1_WORKERS=2\nL1_CHROMIUM_PATH=/opt/chrome/chrome  # the browser\n',
  );
  const setting = (env: Record<string, string>) =>
    call(`m.chromiumPathSetting(${JSON.stringify(env)}, ${JSON.stringify(root)})`);
  const fromFile = { path: '/opt/chrome/chrome', from: '.env' };
  expect(setting({})).toEqual(fromFile);
  expect(setting({ L1_CHROMIUM_PATH: '' })).toEqual(fromFile);
  expect(setting({ L1_CHROMIUM_PATH: '  ' })).toEqual(fromFile);
  expect(setting({ L1_CHROMIUM_PATH: ' /usr/bin/chromium ' })).toEqual({
    path: '/usr/bin/chromium',
    from: 'environment',
  });
  // Near miss: no .env, or one without the variable (or with it blank), sets nothing.
  expect(call(`m.chromiumPathSetting({}, ${JSON.stringify(tempDir('ensure-env'))})`)).toBeNull();
  fs.writeFileSync(path.join(root, '.env'), 'L1_CHROMIUM_PATH=\n');
  expect(setting({})).toBeNull();
});

test(".env written by Windows PowerShell 5 (UTF-16) is read as the settings read it, and a relative L1_CHROMIUM_PATH is the project root's, whatever folder npm runs in (inputs audit of 2026-11-28: read as UTF-8 it named no browser, while the settings took the one it names)", () => {
  const root = tempDir('ensure-env');
  const text = 'L1_CHROMIUM_PATH=/opt/chrome/chrome\r\n';
  const setting = () => call(`m.chromiumPathSetting({}, ${JSON.stringify(root)})`);
  fs.writeFileSync(
    path.join(root, '.env'),
    Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]),
  );
  expect(setting()).toEqual({ path: '/opt/chrome/chrome', from: '.env' });
  fs.writeFileSync(path.join(root, '.env'), `\ufeff${text}`);
  expect(setting()).toEqual({ path: '/opt/chrome/chrome', from: '.env' });
  fs.writeFileSync(path.join(root, '.env'), 'L1_CHROMIUM_PATH=browsers/chrome\n');
  expect(setting()).toEqual({ path: path.join(root, 'browsers', 'chrome'), from: '.env' });
});

test('.env is read alike by Node 20.12+ (util.parseEnv) and, on older Node 20, by the one-line reading', () => {
  const text = [
    '# a comment',
    'L1_CHROMIUM_PATH=/opt/chrome/chrome   # trailing comment',
    'L1_A="quoted # kept"',
    "L1_B='single'",
    'export L1_C=exported',
    'L1_D=',
    'L1_E=  spaced  ',
    'L1_F=a#b',
    'L1_G="q" # c',
  ].join('\n');
  const both = call(
    `[m.parseDotenv(${JSON.stringify(text)}), m.parseDotenv(${JSON.stringify(text)}, null)]`,
  ) as [Record<string, string>, Record<string, string>];
  expect(both[0].L1_CHROMIUM_PATH).toBe('/opt/chrome/chrome');
  expect(both[1]).toEqual(both[0]);
});

test('a browser it cannot make ready (L1_CHROMIUM_PATH naming no file) stops `npm run check` with 2, nothing was checked, as the main job says it, never 1 ("some item failed"), in the words of the failure-modes table (CLI audit of 2026-11-28)', () => {
  const r = spawnSync(process.execPath, [SCRIPT], {
    encoding: 'utf8',
    env: { ...process.env, L1_CHROMIUM_PATH: '/nonexistent/chromium' },
  });
  expect({ status: r.status, stderr: r.stderr.trim() }).toEqual({
    status: 2,
    stderr:
      "[ensure-env] L1_CHROMIUM_PATH /nonexistent/chromium: no such file (give the path of a Chromium executable, or unset it to use Debian's): nothing was checked (exit 2)",
  });
});
