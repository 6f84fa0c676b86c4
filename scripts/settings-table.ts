/**
 * `npm run settings-table [-- --write]`: prints the README's settings table from the one list of
 * variables (lib/run/variables.ts); `--write` replaces it in README.md between its markers.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgsOrUsage } from '../lib/util/args';
import { variablesTable } from '../lib/run/variables';

export const BEGIN = '<!-- settings-table: made by npm run settings-table -- --write -->';
export const END = '<!-- /settings-table -->';

const USAGE = 'usage: npm run settings-table [-- --write]';
const { values } = parseArgsOrUsage(
  { options: { write: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } },
  'settings-table',
  USAGE,
);
if (values.help) {
  process.stdout.write(
    `${USAGE}\nprints the settings table (lib/run/variables.ts); --write replaces it in README.md\n`,
  );
  process.exit(0);
}
const table = variablesTable();
if (!values.write) process.stdout.write(`${table}\n`);
else {
  const file = path.resolve(__dirname, '..', 'README.md');
  const text = fs.readFileSync(file, 'utf8');
  const a = text.indexOf(BEGIN);
  const b = text.indexOf(END);
  if (a < 0 || b < a) {
    process.stderr.write(`settings-table: README.md has no ${BEGIN} … ${END} markers\n`);
    process.exit(1);
  }
  const next = `${text.slice(0, a + BEGIN.length)}\n\n${table}\n\n${text.slice(b)}`;
  // Said as it is: "updated" for a README that already held the table sent a reader to look for
  // a change that was never made.
  if (next === text) process.stdout.write('settings-table: README.md already holds this table\n');
  else {
    fs.writeFileSync(file, next);
    process.stdout.write('settings-table: README.md updated\n');
  }
}
