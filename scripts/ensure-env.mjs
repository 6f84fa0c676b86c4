#!/usr/bin/env node
// Makes a fresh machine ready for `npm run demo` and `npm test`: npm packages from the lockfile,
// then a usable Chromium (L1_CHROMIUM_PATH, /usr/bin/chromium, or Playwright's own), installing
// Debian's chromium and a CJK font when none exists. Uses only Node built-ins: it runs before
// node_modules exists.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const log = (line) => process.stdout.write(`[ensure-env] ${line}\n`);
const run = (cmd, args, opts = {}) => execFileSync(cmd, args, { stdio: 'inherit', cwd: root, ...opts });

function ensurePackages() {
  const marker = path.join(root, 'node_modules', '.package-lock.json');
  const lock = path.join(root, 'package-lock.json');
  if (fs.existsSync(marker) && fs.statSync(marker).mtimeMs >= fs.statSync(lock).mtimeMs) return;
  log('installing npm packages from package-lock.json (npm ci)');
  run('npm', ['ci', '--no-audit', '--no-fund']);
}

function playwrightOwnChromium() {
  try {
    const require = createRequire(path.join(root, 'package.json'));
    const exe = require('playwright-core').chromium.executablePath();
    return exe && fs.existsSync(exe) ? exe : undefined;
  } catch {
    return undefined;
  }
}

function aptInstall(packages) {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const apt = ['/usr/bin/apt-get', '/bin/apt-get'].find((p) => fs.existsSync(p));
  if (!apt)
    throw new Error(`apt-get not found: install ${packages.join(' ')} yourself or set L1_CHROMIUM_PATH`);
  const sudo = isRoot ? [] : ['sudo'];
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const exec = (args) => (sudo.length ? run('sudo', [apt, ...args], { env }) : run(apt, args, { env }));
  exec(['update', '-qq']);
  exec(['install', '-y', '-qq', '--no-install-recommends', ...packages]);
}

function ensureBrowser() {
  const fromEnv = process.env.L1_CHROMIUM_PATH;
  if (fromEnv) {
    if (!fs.existsSync(fromEnv)) throw new Error(`L1_CHROMIUM_PATH=${fromEnv} does not exist`);
    return;
  }
  const hasFont = fs.existsSync('/usr/share/fonts/truetype/wqy/wqy-microhei.ttc');
  if (fs.existsSync('/usr/bin/chromium')) {
    if (!hasFont) {
      try {
        log('installing a CJK font (fonts-wqy-microhei) so Chinese text is readable in screenshots');
        aptInstall(['fonts-wqy-microhei']);
      } catch (e) {
        log(`could not install the CJK font (${e.message}); continuing`);
      }
    }
    return;
  }
  if (playwrightOwnChromium()) return;
  log("no usable Chromium: installing Debian's chromium and fonts-wqy-microhei (apt-get)");
  aptInstall(['chromium', 'fonts-wqy-microhei']);
  if (!fs.existsSync('/usr/bin/chromium')) throw new Error('chromium did not install to /usr/bin/chromium');
}

try {
  ensurePackages();
  ensureBrowser();
} catch (e) {
  process.stderr.write(`[ensure-env] ${e.message}\n`);
  process.exit(1);
}
