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
    return { why: `not valid JSON (${escapeUnsafe((e as Error).message)})` };
  }
}
