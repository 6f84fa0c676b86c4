import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from '../run/config';

/** The suite's name and version, from package.json, for every verdict file and report. */
export function suiteInfo(): { name: string; version: string } {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    name: string;
    version: string;
  };
  return { name: pkg.name, version: pkg.version };
}
