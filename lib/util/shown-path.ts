import path from 'node:path';

/**
 * A path as the terminal shows it: relative to the folder the user ran the command in, so that it
 * opens from there, or absolute when it lies outside that folder (`npx playwright test -c
 * ../l1-verify/playwright.config.ts` from another folder shows where the outputs really are).
 */
export function shownPath(p: string, from: string = process.cwd()): string {
  const relative = path.relative(from, p);
  return relative === '' ? '.' : relative.startsWith('..') || path.isAbsolute(relative) ? p : relative;
}
