import fs from 'node:fs';
import path from 'node:path';
import { sha256 } from '../util/hash';

/**
 * Session cookie values seen by the suite, kept only as SHA-256 hashes (never the values) in
 * `.l1/redaction/cookies.sha256`, so the redaction guard can recognise them in any output later,
 * even after `.auth/` has been cleared by the next invocation.
 */
export function seenCookiesFile(root: string): string {
  return path.join(root, '.l1', 'redaction', 'cookies.sha256');
}

/** Recorded cookie values are at least this long (shorter ones are not searched either). */
export const MIN_COOKIE_VALUE = 8;

/** Records the hashes of every cookie value of a Playwright storage-state file. */
export function recordCookieHashes(root: string, storageStatePath: string): void {
  const state = JSON.parse(fs.readFileSync(storageStatePath, 'utf8')) as {
    cookies?: { value?: string; httpOnly?: boolean }[];
  };
  const known = readCookieHashes(root);
  const hashes = [
    ...new Set(
      (state.cookies ?? [])
        // A cookie the login kept readable to pages is not a secret (lib/platform/login.ts keptCookies).
        .filter((c) => c.httpOnly !== false)
        .map((c) => c.value ?? '')
        .filter((v) => v.length >= MIN_COOKIE_VALUE)
        .map((v) => sha256(v)),
    ),
  ].filter((h) => !known.has(h)); // the file grows only by values not seen before
  if (hashes.length === 0) return;
  const file = seenCookiesFile(root);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.appendFileSync(file, hashes.map((h) => `${h}\n`).join(''));
}

export function readCookieHashes(root: string): Set<string> {
  try {
    return new Set(fs.readFileSync(seenCookiesFile(root), 'utf8').split('\n').filter(Boolean));
  } catch {
    return new Set();
  }
}
