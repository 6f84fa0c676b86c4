import { expect, test } from '@playwright/test';
import { findChromium } from '../../lib/run/browser';

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
});
