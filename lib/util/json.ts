import fs from 'node:fs';
import { escapeUnsafe } from './escape';

/** A JSON object (not null, not an array): what a parsed value's fields can be read from. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * JSON text without a leading byte order mark, which RFC 8259 §8.1 lets a parser ignore and which
 * Windows tools write (PowerShell 5's `Out-File -Encoding utf8`, Notepad before 2019, .NET
 * servers): `JSON.parse` alone refuses it with an invisible "Unexpected token".
 */
export function parseJson(text: string): unknown {
  return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text) as unknown;
}

/**
 * A text file a user gives (a runs file, a credentials registry, calibration data), decoded by its
 * byte order mark: UTF-16 as Windows PowerShell 5 writes with `>` and `Out-File` (little-endian,
 * `FF FE`), big-endian UTF-16 (`FE FF`), else UTF-8 (its own mark is left to `parseJson`). Read as
 * UTF-8, a UTF-16 file was "not valid JSON" with NUL characters in the message (encodings audit).
 */
export function readTextFile(file: string): string {
  const bytes = fs.readFileSync(file);
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return bytes.subarray(2).toString('utf16le');
  if (bytes[0] === 0xfe && bytes[1] === 0xff) {
    const swapped = Buffer.from(bytes.subarray(2, bytes.length - (bytes.length % 2)));
    return swapped.swap16().toString('utf16le');
  }
  return bytes.toString('utf8');
}

/**
 * A JSON file read for a message that names what went wrong: `{ value }`, or `{ why }` such as
 * `not valid JSON (Unexpected token …)` or `cannot be read (ENOENT)`. The one place that reads JSON
 * files given by a user (runs files, verdict folders, calibration data).
 */
export function readJsonFile(file: string): { value: unknown; why?: undefined } | { why: string } {
  let text: string;
  try {
    text = readTextFile(file);
  } catch (e) {
    return { why: `cannot be read (${(e as NodeJS.ErrnoException).code ?? 'error'})` };
  }
  try {
    return { value: parseJson(text) };
  } catch (e) {
    // Where it breaks, never the file's own text (a run's reason goes to the terminal and the CI
    // log): `jsonSyntaxError`.
    return { why: `not valid JSON (${escapeUnsafe(jsonSyntaxError(e as Error, text))})` };
  }
}

/**
 * What JSON.parse says of a file a user gives, where it says it (line and column), and never the
 * file's own text: V8 quotes the ten characters either side of an unexpected token
 * (`..."3456789"},]"`), or the whole text when it is short, and a runs file's URLs hold tokens and
 * phone numbers (spec 1.5) that a CI log would keep (inputs audit of 2026-11-28). The token itself
 * is one character.
 */
export function jsonSyntaxError(error: Error, text: string, options: { token?: boolean } = {}): string {
  // The credentials registry: not even the one character (an unquoted password's first).
  const what = (token: string) =>
    options.token === false ? 'Unexpected token' : `Unexpected token ${JSON.stringify(token)}`;
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const at = (pos: number) => {
    const before = body.slice(0, pos).split(/\r\n|\r|\n/);
    return `line ${before.length}, column ${before[before.length - 1]!.length + 1}`;
  };
  // `… in JSON at position N`, and `Unexpected non-whitespace character after JSON at position N`
  // (a brace too many, two objects pasted one after the other), which was "a syntax error" alone.
  const position = /^(.*) (in|after) JSON at position (\d+)/s.exec(error.message);
  if (position)
    return `${position[1]}${position[2] === 'after' ? ' after the JSON value' : ''} at ${at(Number(position[3]))}`;
  const quoted = /^Unexpected token '(.+?)', (\.\.\.)?"(.*)"(\.\.\.)? is not valid JSON$/s.exec(
    error.message,
  );
  if (!quoted) return error.message.startsWith('Unexpected end') ? error.message : 'a syntax error';
  const [, token, cutBefore, shown, cutAfter] = quoted;
  // Placed only where the quote is found once: a file of repeated entries could put it elsewhere.
  const once = body.indexOf(shown!) === body.lastIndexOf(shown!);
  const start = !cutBefore ? 0 : once ? body.indexOf(shown!) : -1;
  // The token's place in the text V8 quoted: ten characters after its start when it cut before,
  // else ten before its end when it cut after, else the token's one place in a short text.
  const pos = cutBefore
    ? start + 10
    : cutAfter
      ? shown!.length - 10
      : body.indexOf(token!) === body.lastIndexOf(token!)
        ? body.indexOf(token!)
        : -1;
  const found = start >= 0 && pos >= 0 && body.slice(pos, pos + token!.length) === token;
  return `${what(token!)}${found ? ` at ${at(pos)}` : ''}`;
}
