import fs from 'node:fs';

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
    return { value: JSON.parse(text) as unknown };
  } catch (e) {
    return { why: `not valid JSON (${(e as Error).message})` };
  }
}
