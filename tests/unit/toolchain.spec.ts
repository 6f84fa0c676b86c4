import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from './test-type';
import { ROOT } from '../../lib/run/settings';

/**
 * `npm test` type-checks with TypeScript 7 (package `typescript-7`); editors and typescript-eslint
 * use TypeScript 5.9 (package `typescript`). Their defaults differ where TypeScript 6 changed them,
 * so tsconfig.json sets each such option itself and both compilers report the same errors
 * (docs/decisions.md, Speed). A `for … of` over a `NodeList` type-checked under 7 alone, whose
 * `DOM` holds what 5.9 keeps in `DOM.Iterable`, and failed under 5.9.
 */
test('tsconfig.json sets every option whose default TypeScript 5.9 and 7 do not share', () => {
  const { compilerOptions: o } = JSON.parse(fs.readFileSync(path.join(ROOT, 'tsconfig.json'), 'utf8')) as {
    compilerOptions: Record<string, unknown>;
  };
  const lib = new Set(((o.lib as string[] | undefined) ?? []).map((l) => l.toLowerCase()));
  // The page code needs DOM; TypeScript 6+ folds dom.iterable and dom.asynciterable into it, 5.9 does not.
  const libs = ['dom', 'dom.iterable', 'dom.asynciterable'];
  // Defaults TypeScript 6 changed.
  const keys = ['strict', 'target', 'module', 'types', 'noUncheckedSideEffectImports', 'libReplacement'];
  expect({
    libsMissing: libs.filter((l) => !lib.has(l)),
    leftToTheDefault: keys.filter((k) => !(k in o)),
    // TypeScript 6+ cannot turn it off.
    esModuleInterop: o.esModuleInterop,
  }).toEqual({ libsMissing: [], leftToTheDefault: [], esModuleInterop: true });
});
