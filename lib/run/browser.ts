import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { processVariables, ROOT } from './settings';
import { readOr, writePrivate } from './state';

/** Chromium flags this workplace needs: no sandbox as root, no background networking (closed network). */
const QUIET_FLAGS = [
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-gpu',
];

/**
 * Debian's packages, the headless shell first: it is what Playwright itself runs for
 * `headless: true` with its own browsers ("chromium-headless-shell"), the same Chromium version and
 * Blink as Debian's `chromium` without the desktop browser around it, and it starts and renders a
 * report for about a quarter of the CPU (docs/decisions.md, Speed). `chromium` stays the fallback.
 */
const DEBIAN_CHROMIUMS = [
  // The binary itself: /usr/bin/chromium-headless-shell is a shell script that runs it as a child.
  '/usr/lib/chromium/chromium-headless-shell',
  '/usr/bin/chromium',
];

function playwrightOwnChromium(): string | undefined {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { chromium } = require('playwright-core') as typeof import('playwright-core');
    const own = chromium.executablePath();
    return own && fs.existsSync(own) ? own : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Browser discovery: L1_CHROMIUM_PATH, then Debian's chromium-headless-shell, then
 * Debian's /usr/bin/chromium, then Playwright's own browser if one is installed. `undefined` lets
 * Playwright report its usual missing-browser error. `env` is a variable map of the settings
 * (Settings.env); by default this process's, read as the settings read it (environment over `.env`).
 */
export function findChromium(
  env: NodeJS.ProcessEnv = processVariables(),
  exists: (file: string) => boolean = fs.existsSync,
): string | undefined {
  const fromEnv = givenPath(env);
  if (fromEnv) return fromEnv;
  for (const exe of DEBIAN_CHROMIUMS) if (exists(exe)) return exe;
  return playwrightOwnChromium();
}

/**
 * Why L1_CHROMIUM_PATH cannot be the browser (no such file, a folder, not executable), or
 * undefined: said at start, before every run would fail to start it.
 */
/**
 * L1_CHROMIUM_PATH as a path, a relative one taken from the project root as every path in a
 * variable is (README.md § Settings): it was the working folder's, so `-c` from another folder
 * refused at start a browser the root holds, "no such file" (inputs audit of 2026-11-28).
 */
function givenPath(env: NodeJS.ProcessEnv): string | undefined {
  const given = env.L1_CHROMIUM_PATH?.trim();
  return given ? path.resolve(ROOT, given) : undefined;
}

export function chromiumPathProblem(env: NodeJS.ProcessEnv = processVariables()): string | undefined {
  const given = givenPath(env);
  if (!given) return undefined;
  let stat: fs.Stats;
  try {
    stat = fs.statSync(given);
  } catch {
    return `L1_CHROMIUM_PATH ${given}: no such file (give the path of a Chromium executable, or unset it to use Debian's)`;
  }
  if (!stat.isFile()) return `L1_CHROMIUM_PATH ${given}: not a file (give the path of a Chromium executable)`;
  try {
    fs.accessSync(given, fs.constants.X_OK);
  } catch {
    return `L1_CHROMIUM_PATH ${given}: not executable`;
  }
  return undefined;
}

/**
 * Flags of the report page's box (pages/box.ts, README.md § Security and limits): WebRTC sends no
 * UDP but through a proxy (there is none), wherever a page still finds a peer connection. No
 * `--disable-features` (Chromium 156 stops prerendering with
 * `Prerender2,Prerender2FallbackPrefetchSpecRules`, speculation-rules prefetch with no switch): a
 * second `--disable-features` replaces the list Playwright passes (measured: its
 * ThirdPartyStoragePartitioning came back), which holds features its request interception needs
 * off. The box removes speculation rules in the page instead (docs/decisions.md).
 */
const BOX_FLAGS = ['--force-webrtc-ip-handling-policy=disable_non_proxied_udp'];

export function chromiumLaunchOptions(env: NodeJS.ProcessEnv = processVariables()) {
  const executablePath = findChromium(env);
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const args = [...QUIET_FLAGS, ...BOX_FLAGS, ...(isRoot ? ['--no-sandbox'] : [])];
  return { ...(executablePath ? { executablePath } : {}), args };
}

/** The version the browser prints (`Chromium 156.0…`), for the report's environment block. */
export function chromiumVersion(env: NodeJS.ProcessEnv = processVariables(), cacheDir?: string): string {
  const exe = findChromium(env);
  if (!exe) return 'not found';
  // Asked once per browser binary: `--version` starts the browser, 30–120 ms before any test can
  // start (the global setup is serial). Kept by the binary's path, size and time.
  let stamp: string | undefined;
  try {
    const stat = fs.statSync(exe);
    stamp = `${exe}\n${stat.size}\n${stat.mtimeMs}`;
  } catch {
    // not a file we can see: asked every time
  }
  const cache = cacheDir && stamp ? path.join(cacheDir, 'browser-version.json') : undefined;
  if (cache) {
    try {
      const kept = JSON.parse(readOr(cache, '{}')) as { stamp?: unknown; version?: unknown };
      if (kept.stamp === stamp && typeof kept.version === 'string') return kept.version;
    } catch {
      // unreadable: asked again
    }
  }
  let version: string;
  try {
    version = execFileSync(exe, ['--version'], {
      encoding: 'utf8',
      timeout: 5000,
      stdio: ['ignore', 'pipe', 'ignore'],
    })
      .trim()
      .split('\n')
      .pop()!;
  } catch {
    return exe;
  }
  if (cache) {
    try {
      // Atomically: two invocations at once may both ask and both write.
      writePrivate(cache, JSON.stringify({ stamp, version }));
    } catch {
      // not kept: asked again next time
    }
  }
  return version;
}

/** Which browser the suite uses, for the start of an invocation: `Chromium 156.0… (/usr/bin/chromium, Debian)`. */
export function browserDescription(env: NodeJS.ProcessEnv = processVariables(), cacheDir?: string): string {
  const exe = findChromium(env);
  if (!exe) return "none found: Playwright's own will be asked for (npx playwright install chromium)";
  const kind = env.L1_CHROMIUM_PATH?.trim()
    ? 'L1_CHROMIUM_PATH'
    : DEBIAN_CHROMIUMS.includes(exe)
      ? `Debian's ${path.basename(exe)}`
      : "Playwright's own Chromium";
  return `${chromiumVersion(env, cacheDir)} (${exe}, ${kind})`;
}
