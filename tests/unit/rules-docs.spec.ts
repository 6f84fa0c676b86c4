import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from './test-type';
import { ROOT } from '../../lib/run/settings';
import { tempDir } from './fakes/temp';

/**
 * The "spec clause → file → function" tables of docs/rules.md and lib/rules/README.md tell a reader
 * where each clause is implemented. A function renamed in the code and not in the tables sends the
 * reader to a name that does not exist (rules audit of 2026-11-28: 7.8.3 and 7.8.4 named
 * `htmlSourceTop30` and `platformSourceTop30`, which sources.ts had long called `htmlSources` and
 * `platformSourceOrder`). This test reads each row's linked files and finds each name there.
 */

const TABLES = ['docs/rules.md', 'lib/rules/README.md'];

interface Named {
  where: string;
  name: string;
  files: string[];
}

/** Every `name` of the Function column, with the files the row links to (paths from the repo root). */
function namedFunctions(doc: string): Named[] {
  const text = fs.readFileSync(path.join(ROOT, doc), 'utf8');
  return text.split('\n').flatMap((line) => {
    const cells = line.split('|').map((c) => c.trim());
    // | clause | what it says | file links | functions |
    if (cells.length < 6 || !/^\d/.test(cells[1] ?? '')) return [];
    const files = [...(cells[3] ?? '').matchAll(/\]\(([^)#]+\.ts)\)/g)].map((m) =>
      path.relative(ROOT, path.resolve(ROOT, path.dirname(doc), m[1]!)),
    );
    const names = [...(cells[4] ?? '').matchAll(/`([A-Za-z_][A-Za-z0-9_]*)`/g)].map((m) => m[1]!);
    return files.length === 0 ? [] : names.map((name) => ({ where: `${doc} ${cells[1]}`, name, files }));
  });
}

/**
 * The names a table gives that none of the row's files declares: a function, a constant or a class
 * of that name, not a word of a comment (review of 2026-11-28: a name a history comment mentioned
 * passed).
 */
function unknownNames(named: Named[]): string[] {
  return named
    .filter(({ name, files }) => {
      const declared = new RegExp(
        `\\b(?:function\\*?|const|let|class)\\s+${name}\\b|^\\s*(?:readonly\\s+)?${name}\\??:`,
        'm',
      );
      return !files.some((f) => declared.test(fs.readFileSync(path.join(ROOT, f), 'utf8')));
    })
    .map(({ where, name, files }) => `${where}: ${name} is in none of ${files.join(', ')}`);
}

test('docs/rules.md and lib/rules/README.md: every function the clause tables name is in the file the row links to', () => {
  const named = TABLES.flatMap(namedFunctions);
  expect(named.length).toBeGreaterThan(100); // both tables read (about 70 names each)
  expect(unknownNames(named)).toEqual([]);
  // Near miss: a name only a comment or a string mentions is unknown; an option field is known.
  const file = path.join(tempDir('rules-docs'), 'rule.ts');
  fs.writeFileSync(
    file,
    "// htmlSourceTop30 was renamed\nconst note = 'platformSourceTop30';\ninterface O {\n  bothEmptyAgree?: boolean;\n}\n",
  );
  const files = [path.relative(ROOT, file)];
  expect(
    unknownNames(
      ['htmlSourceTop30', 'platformSourceTop30', 'bothEmptyAgree'].map((name) => ({
        where: 'a row',
        name,
        files,
      })),
    ),
  ).toEqual([
    `a row: htmlSourceTop30 is in none of ${files[0]}`,
    `a row: platformSourceTop30 is in none of ${files[0]}`,
  ]);
});
