import fs from 'node:fs';
import path from 'node:path';
import { test as playwrightTest } from '@playwright/test';
import { expect, test } from './test-type';
import { ROOT } from '../../lib/run/settings';
import { suiteBaseTest } from '../../fixtures/base';
import { test as checksTest } from '../../fixtures/index';

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

/**
 * The fixtures a test type declares as automatic (set up for every test), read from the fixture
 * lists Playwright keeps on each test type under its `testType` symbol (not a public API: a
 * Playwright release that keeps them elsewhere fails this test, to be read again).
 */
function autoFixtures(testType: object): string[] | undefined {
  const symbol = Object.getOwnPropertySymbols(testType).find((s) => s.description === 'testType');
  const impl =
    symbol && (testType as Record<symbol, { fixtures?: { fixtures: Record<string, unknown> }[] }>)[symbol];
  return impl?.fixtures?.flatMap((f) =>
    Object.entries(f.fixtures)
      .filter(([, v]) => Array.isArray(v) && (v[1] as { auto?: unknown } | undefined)?.auto)
      .map(([name]) => name),
  );
}

/**
 * The suite's tests stand on Playwright's root test type (`_baseTest`, fixtures/base.ts) so that no
 * test sets up Playwright's automatic browser fixtures (docs/decisions.md, Speed). `_baseTest` is
 * exported with an underscore: a Playwright release that gave it automatic fixtures would slow every
 * test of the suite and of the unit stage without failing one. The near miss: `test` of
 * @playwright/test, whose automatic fixtures this reads.
 */
test('the base test types of the suite (fixtures/base.ts suiteBaseTest) and of the unit tests declare no automatic fixture (the suite’s only one is its own, fixtures/index.ts `record`); `test` of @playwright/test declares Playwright’s', () => {
  expect(autoFixtures(suiteBaseTest)).toEqual([]);
  expect(autoFixtures(checksTest)).toEqual(['record']);
  expect(autoFixtures(test)).toEqual([]);
  expect(autoFixtures(playwrightTest)).toEqual(expect.arrayContaining(['_setupArtifacts']));
});
