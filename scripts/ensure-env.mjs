#!/usr/bin/env node
// Makes a fresh machine ready for `npm run demo` and `npm test`: npm packages from the lockfile,
// then a usable Chromium (L1_CHROMIUM_PATH, Debian's chromium-headless-shell or chromium, or
// Playwright's own), installing Debian's chromium-headless-shell, chromium and a CJK font where
// missing. Uses only Node built-ins: it runs before node_modules exists.
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

/** Debian's headless shell (what the suite prefers: lib/run/browser.ts) and the full browser. */
const SHELL = '/usr/lib/chromium/chromium-headless-shell';
const CHROMIUM = '/usr/bin/chromium';
const FONT = '/usr/share/fonts/truetype/wqy/wqy-microhei.ttc';

function ensureBrowser() {
  const fromEnv = process.env.L1_CHROMIUM_PATH;
  if (fromEnv) {
    if (!fs.existsSync(fromEnv)) throw new Error(`L1_CHROMIUM_PATH=${fromEnv} does not exist`);
    return;
  }
  const debian = fs.existsSync(SHELL) || fs.existsSync(CHROMIUM);
  if (!debian && playwrightOwnChromium()) return;
  // The headless shell starts and renders for about a quarter of chromium's CPU; a machine set up
  // with chromium alone gets it too. The CJK font makes Chinese text readable in screenshots.
  const missing = [
    ...(fs.existsSync(SHELL) ? [] : ['chromium-headless-shell']),
    ...(debian ? [] : ['chromium']),
    ...(fs.existsSync(FONT) ? [] : ['fonts-wqy-microhei']),
  ];
  if (missing.length === 0) return;
  log(`installing Debian's ${missing.join(', ')} (apt-get)`);
  try {
    aptInstall(missing);
  } catch (e) {
    // With a browser already there, a failed install only costs speed or readable screenshots.
    if (!debian) throw e;
    log(`could not install ${missing.join(', ')} (${e.message}); continuing with the browser installed`);
  }
  if (!fs.existsSync(SHELL) && !fs.existsSync(CHROMIUM))
    throw new Error(`neither ${SHELL} nor ${CHROMIUM} is installed`);
}

try {
  ensurePackages();
  ensureBrowser();
} catch (e) {
  process.stderr.write(`[ensure-env] ${e.message}\n`);
  process.exit(1);
}
