import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from '../run/settings';

let cached: { name: string; version: string } | undefined;

/** The suite's name and version, from package.json, for every verdict file and report. */
export function suiteInfo(): { name: string; version: string } {
  if (!cached) {
    try {
      const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
        name: string;
        version: string;
      };
      cached = { name: String(pkg.name), version: String(pkg.version) };
    } catch {
      cached = { name: 'l1-verify', version: 'unknown' };
    }
  }
  return cached;
}
