import { redactText } from '../redaction/url';
import { escapeUnsafe } from '../util/escape';

/**
 * Text that comes from data (run labels, reasons, keys, values) printed where a reader trusts the
 * layout: a terminal, a markdown job summary, a JUnit file. A label holding `\u001b[2J` would clear
 * the reviewer's terminal, a `\r` or a newline could print a fake "✓ 1 passed" line, a bidi
 * override could reorder what is read. Such characters are shown as visible escapes instead.
 */

/**
 * How much of a text longer than `max` is read: `4 × max + READ_MARGIN` UTF-16 units (a code point
 * takes at most two), so a text of tens of MB (a page's error message) costs what its start costs.
 * The margin keeps a secret or a mobile number that straddles the shown part whole for redaction;
 * where redaction shortened the part read below that margin past the cut, more is read.
 */
const READ_MARGIN = 1024;

/** The UTF-16 index after the first `n` code points of `s` (or its length). */
function afterCodePoints(s: string, n: number): number {
  let i = 0;
  for (let k = 0; k < n && i < s.length; k++) i += isPair(s, i) ? 2 : 1;
  return i;
}

/** Code points of `s` from `from` on, counted without copying it. */
function codePointsFrom(s: string, from: number): number {
  let n = 0;
  for (let i = from; i < s.length; i += isPair(s, i) ? 2 : 1) n++;
  return n;
}

function isPair(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  if (c < 0xd800 || c > 0xdbff || i + 1 >= s.length) return false;
  const d = s.charCodeAt(i + 1);
  return d >= 0xdc00 && d <= 0xdfff;
}

/**
 * `s` with every unsafe character replaced by a visible escape (`\x1b`, `\x0a`, `\u2028`, `\u202e`),
 * cut to its first `max` characters (code points, so a surrogate pair is never split) followed by
 * `… (N more characters)`, where that is shorter than the whole text. The cut is made before escaping: `max` counts the original text.
 * Secret-looking URL query values are masked first (lib/report/redact.ts). Of a text far longer
 * than `max` only the start is read (`READ_MARGIN`); the rest is counted, not masked.
 */
export function safeText(s: string, max?: number): string {
  if (max === undefined) return escapeUnsafe(redactText(s));
  const keep = Math.max(0, max);
  let read = Math.min(s.length, 4 * keep + READ_MARGIN);
  for (;;) {
    if (read < s.length && isPair(s, read - 1)) read--; // never split a pair at the cut
    const text = redactText(read < s.length ? s.slice(0, read) : s);
    const end = afterCodePoints(text, keep);
    if (read < s.length && text.length - end < READ_MARGIN) {
      read = Math.min(s.length, Math.max(read * 2, read + READ_MARGIN));
      continue;
    }
    const rest = codePointsFrom(text, end) + (read < s.length ? codePointsFrom(s, read) : 0);
    if (rest === 0) return escapeUnsafe(text);
    const cut = `${escapeUnsafe(text.slice(0, end))}… (${rest} more character${rest === 1 ? '' : 's'})`;
    // A cut is made only where it shortens the text: "… (3 more characters)" saved nothing and hid
    // the end of a reason (reviewer audit of 2026-11-27).
    if (read >= s.length) {
      const whole = escapeUnsafe(text);
      if (whole.length <= cut.length) return whole;
    }
    return cut;
  }
}

/**
 * Columns a string takes in a monospace terminal: East Asian wide and fullwidth characters take two
 * (labels are often Chinese), combining marks none. Approximate (no full Unicode width table), but
 * right for CJK, Hangul, fullwidth forms and ASCII.
 */
export function displayWidth(s: string): number {
  let width = 0;
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if ((cp >= 0x0300 && cp <= 0x036f) || (cp >= 0x200b && cp <= 0x200f) || cp === 0xfe0f) continue;
    width += isWide(cp) ? 2 : 1;
  }
  return width;
}

function isWide(cp: number): boolean {
  return (
    (cp >= 0x1100 && cp <= 0x115f) ||
    (cp >= 0x2e80 && cp <= 0x303e) ||
    (cp >= 0x3041 && cp <= 0x33ff) ||
    (cp >= 0x3400 && cp <= 0x4dbf) ||
    (cp >= 0x4e00 && cp <= 0x9fff) ||
    (cp >= 0xa000 && cp <= 0xa4cf) ||
    (cp >= 0xac00 && cp <= 0xd7a3) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0xfe30 && cp <= 0xfe4f) ||
    (cp >= 0xff00 && cp <= 0xff60) ||
    (cp >= 0xffe0 && cp <= 0xffe6) ||
    (cp >= 0x1f300 && cp <= 0x1f64f) ||
    (cp >= 0x1f900 && cp <= 0x1f9ff) ||
    (cp >= 0x20000 && cp <= 0x3fffd)
  );
}

/** `s` padded with spaces to `width` terminal columns. */
export function padDisplay(s: string, width: number): string {
  return s + ' '.repeat(Math.max(0, width - displayWidth(s)));
}

/**
 * Data text inside GitHub-flavoured markdown (a table cell or a list item): made safe, then every
 * character markdown or HTML would interpret is escaped, so a label cannot add a column, a link,
 * an image or HTML to the job summary.
 */
export function markdownText(s: string, max?: number): string {
  return (
    safeText(s, max)
      .replace(/[\\`*_[\]|~]/g, (c) => `\\${c}`)
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      // No link, mail link or emoji from data: GitHub autolinks `https://…`, `www.…` and `a@b.c`,
      // and turns `:code:` into an icon; the character references read the same and do neither.
      // Only those colons: every colon as `&#58;` made the raw file hard to read (`item 7&#58;`,
      // reader audit of 2026-11-26).
      .replace(/:(?=\/\/|[\w+-]+:)/g, '&#58;')
      .replace(/@/g, '&#64;')
      .replace(/\bwww\./gi, (w) => `${w.slice(0, 3)}&#46;`)
  );
}

/**
 * A run's title in Playwright and Allure (its test group, its epic): the label as `safeText` shows
 * it, cut at 200 characters. When that changed the label (a mobile number or a `token=` value
 * masked, a cut, an escape), the run's number in the runs file is added: two labels shown alike
 * (`acme-13800138000` and `acme-13900139000` both show `acme-1**********`) must not share a title,
 * or Playwright refuses the duplicate and loads no test of any run. A label that ends as such a
 * title does (` (run #1)`) is numbered too. `number` is the run's place in the invocation's runs,
 * from 1 (labels are unique: lib/run/runs.ts configureRuns).
 */
export function runTitle(label: string, number: number): string {
  const shown = safeText(label, 200);
  // A label that already ends as a numbered title (`acme-1********** (run #1)`, another run's shown
  // title written out) is numbered too: kept as it is, it shared that run's title (review 59q).
  return shown === label && !RUN_NUMBERED.test(shown) ? shown : `${shown} (run #${number})`;
}

/** The end runTitle gives a label it changed; a title shown as its label never ends so. */
const RUN_NUMBERED = / \(run #\d+\)$/;
