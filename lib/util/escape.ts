const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/**
 * Text made inert inside HTML or XML, in element content and in quoted attribute values alike:
 * `& < > " '` become entities (`&#39;` is valid in both).
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);
}

/** Text that a RegExp built from it matches literally: each of `.*+?^${}()|[]\` escaped. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * C0 and C1 controls (every one: tab and newline too, since one line of a grid must stay one line),
 * DEL, the line and paragraph separators, the bidi embeddings, overrides and isolates, and the
 * characters that show as nothing: the soft hyphen, the zero-width space, joiners and direction
 * marks (U+200B–U+200F), the word joiner and invisible operators (U+2060–U+2064), the byte order
 * mark, the Mongolian vowel separator and the Arabic letter mark. Left as they were, `A-monitor`
 * and `A-monitor` with a zero-width space printed alike in every grid, with no `(run #N)` to tell
 * them apart (hostile audit of 2026-11-26).
 */
const UNSAFE =
  // eslint-disable-next-line no-control-regex -- finding these is the point
  /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;

function escapeChar(c: string): string {
  const code = c.charCodeAt(0);
  return code < 0x100
    ? `\\x${code.toString(16).padStart(2, '0')}`
    : `\\u${code.toString(16).padStart(4, '0')}`;
}

/**
 * `text` with every character of `UNSAFE` shown as a visible escape (`\x1b`, `\x0a`, `\u2028`,
 * `\u200b`): text from data printed where a reader trusts the layout (lib/report/text.ts
 * `safeText`), and a parser's message about a user's file (lib/util/json.ts).
 */
export function escapeUnsafe(text: string): string {
  return text.replace(UNSAFE, escapeChar);
}
