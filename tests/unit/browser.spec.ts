import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from './test-type';
import {
  chromiumLaunchOptions,
  chromiumPathProblem,
  chromiumVersion,
  findChromium,
} from '../../lib/run/browser';
import { ROOT } from '../../lib/run/settings';
import { tempDir } from './fakes/temp';
import { tsEval } from './fakes/ts-eval';

test.describe('browser discovery (lib/run/browser.ts, docs/decisions.md: Debian’s headless shell)', () => {
  const only =
    (...present: string[]) =>
    (file: string) =>
      present.includes(file);

  test('L1_CHROMIUM_PATH wins over every installed browser', () => {
    const all = only('/usr/lib/chromium/chromium-headless-shell', '/usr/bin/chromium');
    expect(findChromium({ L1_CHROMIUM_PATH: ' /opt/chrome/chrome ' }, all)).toBe('/opt/chrome/chrome');
  });

  test('Debian’s headless shell before Debian’s chromium', () => {
    expect(findChromium({}, only('/usr/lib/chromium/chromium-headless-shell', '/usr/bin/chromium'))).toBe(
      '/usr/lib/chromium/chromium-headless-shell',
    );
    expect(findChromium({}, only('/usr/bin/chromium'))).toBe('/usr/bin/chromium');
  });

  test('neither Debian browser: Playwright’s own, or none (Playwright then says it is missing)', () => {
    const found = findChromium({}, only());
    expect(found === undefined || !/^\/usr\/(bin|lib\/chromium)\//.test(found)).toBe(true);
  });

  test('the version is asked of a browser once, and again when the binary changes', () => {
    const dir = tempDir('browser');
    const calls = path.join(dir, 'calls');
    const exe = path.join(dir, 'chrome');
    const writeBrowser = (version: string) =>
      fs.writeFileSync(exe, `#!/bin/sh\necho x >> '${calls}'\necho 'Chromium ${version}'\n`, {
        mode: 0o755,
      });
    const asked = () => fs.readFileSync(calls, 'utf8').split('\n').filter(Boolean).length;
    writeBrowser('1.0');
    const env = { L1_CHROMIUM_PATH: exe };
    const cache = path.join(dir, 'state');
    expect(chromiumVersion(env, cache)).toBe('Chromium 1.0');
    expect(chromiumVersion(env, cache)).toBe('Chromium 1.0');
    expect(asked()).toBe(1);
    writeBrowser('2.0.1');
    expect(chromiumVersion(env, cache)).toBe('Chromium 2.0.1');
    expect(asked()).toBe(2);
    // Without a folder to keep it in, every call asks.
    expect(chromiumVersion(env)).toBe('Chromium 2.0.1');
    expect(asked()).toBe(3);
  });
});

test('L1_CHROMIUM_PATH that cannot be a browser is said at start: no such file, a folder, not executable', () => {
  const dir = tempDir('chromium');
  const plain = path.join(dir, 'plain');
  fs.writeFileSync(plain, '', { mode: 0o644 });
  const exe = path.join(dir, 'chrome');
  fs.writeFileSync(exe, '', { mode: 0o755 });
  expect(chromiumPathProblem({})).toBeUndefined();
  expect(chromiumPathProblem({ L1_CHROMIUM_PATH: path.join(dir, 'none') })).toContain('no such file');
  expect(chromiumPathProblem({ L1_CHROMIUM_PATH: dir })).toContain('not a file');
  expect(chromiumPathProblem({ L1_CHROMIUM_PATH: exe })).toBeUndefined();
  // root may run anything whose mode has any x bit; a file with none is refused even to root
  expect(chromiumPathProblem({ L1_CHROMIUM_PATH: plain })).toContain('not executable');
});

test('the box’s launch flags: no WebRTC UDP but through a proxy; no feature list, which would replace Playwright’s own', () => {
  const { args } = chromiumLaunchOptions({});
  expect(args).toContain('--force-webrtc-ip-handling-policy=disable_non_proxied_udp');
  // Chromium keeps the last --disable-features / --enable-features: Playwright's would be lost.
  expect(args.filter((a) => /^--(?:disable|enable)-features/.test(a))).toEqual([]);
});

test('with no variable map given, L1_CHROMIUM_PATH is read as the settings read it: from .env too, a blank value on the command line unset', () => {
  // The default was process.env alone: scripts/screenshots.ts, the demo's pictures, the bench and
  // the CI setup took another browser than the checks (playwright.config.ts passes Settings.env).
  // A process of its own whose project .env names the browser, read through a stand-in for the file.
  const dotenv = path.join(ROOT, '.env');
  const code = [
    "const fs = require('node:fs');",
    'const read = fs.readFileSync;',
    `fs.readFileSync = (file, ...rest) => file === ${JSON.stringify(dotenv)} ? Buffer.from('L1_CHROMIUM_PATH=/opt/chrome/chrome\\n') : read(file, ...rest);`,
    `const browser = require(${JSON.stringify(path.join(ROOT, 'lib', 'run', 'browser.ts'))});`,
    'process.stdout.write(JSON.stringify([browser.findChromium(), browser.chromiumLaunchOptions().executablePath, browser.chromiumPathProblem()]));',
  ].join('\n');
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('L1_')));
  const r = spawnSync(...tsEval(code), {
    cwd: ROOT,
    env: { ...env, L1_CHROMIUM_PATH: '' },
    encoding: 'utf8',
  });
  expect(r.status, r.stderr).toBe(0);
  expect(JSON.parse(r.stdout)).toEqual([
    '/opt/chrome/chrome',
    '/opt/chrome/chrome',
    "L1_CHROMIUM_PATH /opt/chrome/chrome: no such file (give the path of a Chromium executable, or unset it to use Debian's)",
  ]);
});
