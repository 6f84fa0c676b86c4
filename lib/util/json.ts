import fs from 'node:fs';

/**
 * JSON text without a leading byte order mark, which RFC 8259 §8.1 lets a parser ignore and which
 * Windows tools write (PowerShell 5's `Out-File -Encoding utf8`, Notepad before 2019, .NET
 * servers): `JSON.parse` alone refuses it with an invisible "Unexpected token".
 */
export function parseJson(text: string): unknown {
  return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text) as unknown;
}

/**
 * A JSON file read for a message that names what went wrong: `{ value }`, or `{ why }` such as
 * `not valid JSON (Unexpected token …)` or `cannot be read (ENOENT)`. The one place that reads JSON
 * files given by a user (runs files, verdict folders, calibration data).
 */
export function readJsonFile(file: string): { value: unknown; why?: undefined } | { why: string } {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    return { why: `cannot be read (${(e as NodeJS.ErrnoException).code ?? 'error'})` };
  }
  try {
    return { value: parseJson(text) };
  } catch (e) {
    return { why: `not valid JSON (${(e as Error).message})` };
  }
}
