import fs from 'node:fs';
import path from 'node:path';
import { redactUrl } from '../../redaction/url';
import { safeText } from '../text';

/**
 * The environment block of the Allure report. Allure 3 reads `environment.properties` from the
 * results folder (its allure2 reader) and the awesome report shows it under "Environment"
 * (`widgets/allure_environment.json`). The allurerc `environment` key is something else: the name
 * of one environment when several are merged.
 */
export const ENVIRONMENT_FILE = 'environment.properties';

/** Java properties escaping: `\`, separators and leading spaces in keys; line breaks, controls as `\uXXXX`. */
function escapeProperty(text: string, isKey: boolean): string {
  let out = '';
  for (const [i, ch] of Array.from(text).entries()) {
    const code = ch.codePointAt(0) ?? 0;
    if (ch === '\\') out += '\\\\';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else if ((isKey && /[ =:#!]/.test(ch)) || (i === 0 && /[ #!]/.test(ch))) out += `\\${ch}`;
    else out += ch;
  }
  return out;
}

/** A value safe to show: URLs with secret-looking query values masked, controls escaped, length capped. */
function safeValue(value: string): string {
  const masked = value.replace(/\bhttps?:\/\/[^\s,;]+/gi, (url) => redactUrl(url));
  return safeText(masked, 2000);
}

/**
 * Writes `environment.properties` into the results folder: one line per entry, in the given order
 * (the report lists them in that order). Never pass a secret: values are URL-masked as a second
 * line of defence, not as the first. Returns the file written.
 */
export function writeAllureEnvironment(resultsDir: string, info: Record<string, string>): string {
  fs.mkdirSync(resultsDir, { recursive: true });
  const lines = Object.entries(info)
    .filter(([key]) => key.trim() !== '')
    .map(
      ([key, value]) =>
        `${escapeProperty(safeText(key, 200), true)}=${escapeProperty(safeValue(String(value)), false)}`,
    );
  const file = path.join(resultsDir, ENVIRONMENT_FILE);
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, `${lines.join('\n')}\n`, 'utf8');
  fs.renameSync(tmp, file);
  return file;
}
