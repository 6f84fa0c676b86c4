#!/usr/bin/env node
// Makes a fresh machine ready for `npm run demo` and `npm test`: npm packages from the lockfile,
// then a usable Chromium (L1_CHROMIUM_PATH, Debian's chromium-headless-shell or chromium, or
// Playwright's own), installing Debian's chromium-headless-shell, chromium and a CJK font where
// missing. Uses only Node built-ins: it runs before node_modules exists (so no dotenv: `.env` is
// read with Node's own parser).
import { execFileSync } from 'node:child_process';
import { Buffer } from 'node:buffer';
import fs from 'node:fs';
import path from 'node:path';
import util from 'node:util';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { readOptions } from './cli.mjs';

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

/**
 * A `.env` text as a map. Node's `util.parseEnv` (20.12 and later) reads the format dotenv reads
 * (quotes, `export`, a `#` comment, multi-line quoted values); older Node 20 (package.json engines
 * `>=20`) gets the one-line `NAME=value` lines, quoted or with a `#` comment.
 */
export function parseDotenv(text, parseEnv = util.parseEnv) {
  if (typeof parseEnv === 'function') return parseEnv(text);
  const out = {};
  for (const line of text.split(/\r?\n/)) {
    const m = /^\s*(?:export\s+)?([\w.-]+)\s*=\s*(.*)$/.exec(line);
    if (!m) continue;
    const quoted = /^(["'`])(.*?)\1(\s+#.*)?\s*$/.exec(m[2]);
    out[m[1]] = quoted ? quoted[2] : m[2].replace(/#.*$/, '').trim();
  }
  return out;
}

/**
 * A text file decoded by its byte order mark, as lib/util/json.ts `readTextFile` decodes it: UTF-16
 * as Windows PowerShell 5 writes it (`FF FE`), big-endian UTF-16 (`FE FF`), else UTF-8 without its
 * own mark. Read as UTF-8 alone, a UTF-16 `.env` named no browser here while the settings read it.
 */
function readTextFile(file) {
  const bytes = fs.readFileSync(file);
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return bytes.subarray(2).toString('utf16le');
  if (bytes[0] === 0xfe && bytes[1] === 0xff) {
    const swapped = Buffer.from(bytes.subarray(2, bytes.length - (bytes.length % 2)));
    return swapped.swap16().toString('utf16le');
  }
  const text = bytes.toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** The root's `.env` as a map, `{}` when there is none (lib/run/settings.ts `readDotenv`). */
function readDotenv(root) {
  try {
    return parseDotenv(readTextFile(path.join(root, '.env')));
  } catch {
    return {};
  }
}

/** Set as the settings read a variable: empty or only spaces is unset (lib/run/variables.ts `isSet`). */
const isSet = (value) => value !== undefined && value.trim() !== '';

/**
 * L1_CHROMIUM_PATH as the suite reads it (lib/run/settings.ts `mergeEnv`): the command line's
 * environment over `.env`, a blank value unset so `.env`'s shows through; trimmed and resolved
 * from the project root, as lib/run/browser.ts takes it. `undefined` when neither sets it.
 */
export function chromiumPathSetting(env, root) {
  // A relative path is the project root's, as lib/run/browser.ts reads it (README § Settings).
  const fromRoot = (p) => path.resolve(root, p.trim());
  if (isSet(env.L1_CHROMIUM_PATH)) return { path: fromRoot(env.L1_CHROMIUM_PATH), from: 'environment' };
  const fromFile = readDotenv(root).L1_CHROMIUM_PATH;
  if (isSet(fromFile)) return { path: fromRoot(fromFile), from: '.env' };
  return undefined;
}

function ensureBrowser() {
  const given = chromiumPathSetting(process.env, root);
  if (given) {
    if (!fs.existsSync(given.path))
      throw new Error(
        `L1_CHROMIUM_PATH ${given.path}${given.from === '.env' ? ' (in .env)' : ''}: no such file (give the path of a Chromium executable, or unset it to use Debian's)`,
      );
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

function main() {
  readOptions({
    script: 'scripts/ensure-env.mjs',
    usage: 'usage: node scripts/ensure-env.mjs, no arguments (npm runs it before demo, test and check)',
    about:
      "Installs the npm packages from package-lock.json (npm ci) when node_modules is older, and Debian's " +
      'chromium-headless-shell, chromium and a CJK font where missing (apt-get); L1_CHROMIUM_PATH, in the ' +
      'environment or .env, names a browser of your own instead.',
  });
  try {
    ensurePackages();
    ensureBrowser();
  } catch (e) {
    // 2, as the main job says "nothing was checked" (the exit table of README.md § Two commands on
    // a fresh machine): 1 reads as "some item failed on checked data" to a scheduler running
    // `npm run check` (CLI audit of 2026-11-28).
    process.stderr.write(`[ensure-env] ${e.message}: nothing was checked (exit 2)\n`);
    process.exit(2);
  }
}

// Run as a script, not when a test imports it for its functions (by real path: a checkout reached
// through a symlink is still this file).
if (process.argv[1] && fs.realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) main();
