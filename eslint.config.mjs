import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import playwright from 'eslint-plugin-playwright';

const LAYERS = ['util', 'schema', 'rules', 'run', 'redaction', 'platform', 'report'];
const OUTSIDE_LIB = ['demo', 'pages', 'fixtures', 'tests', 'scripts'];

/** One `no-restricted-imports` block per layer of lib/: later layers and everything outside lib/ are off limits. */
function layerRules() {
  return LAYERS.map((layer, i) => {
    const later = LAYERS.slice(i + 1);
    const patterns = [
      ...(later.length
        ? [
            {
              group: later.flatMap((l) => [`../${l}`, `../${l}/*`, `../../${l}`, `../../${l}/*`]),
              message: `lib/${layer} may import only ${LAYERS.slice(0, i + 1).join(', ')} (no arrow back up the layers)`,
            },
          ]
        : []),
      {
        group: OUTSIDE_LIB.flatMap((d) => [`../../${d}/*`, `../../../${d}/*`]),
        message: 'lib/ never imports demo/, pages/, fixtures/, tests/ or scripts/',
      },
    ];
    if (layer === 'rules')
      patterns.push({
        group: ['@playwright/*', 'playwright', 'playwright/*', 'allure-*', 'node:fs', 'fs'],
        message: 'The rules engine is pure: no Playwright, Allure or file system',
      });
    return { files: [`lib/${layer}/**/*.ts`], rules: { 'no-restricted-imports': ['error', { patterns }] } };
  });
}

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      '.auth/**',
      '.l1/**',
      'reports/**',
      'allure-results/**',
      'allure-report/**',
      'test-results/**',
      'selftest-results/**',
      'playwright-report/**',
      'blob-report/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        URL: 'readonly',
        fetch: 'readonly',
        setTimeout: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['tests/**/*.ts', 'fixtures/**/*.ts'],
    ...playwright.configs['flat/recommended'],
    rules: {
      ...playwright.configs['flat/recommended'].rules,
      // The checks assert through fixtures/check.ts: `checkCollection`, `checkItem` (one step per spec step);
      // generated cases through fast-check's `fc.assert`, which fails the test with the counterexample.
      'playwright/expect-expect': [
        'error',
        {
          assertFunctionNames: [
            'expect',
            'checkItem',
            'checkCollection',
            'assert',
            'expectNoSecretsIn',
            'expectSameAsRegex',
            'expectRefusedFor',
            'expectAnotherDay',
            'expectRunDay',
            'expectFamilyHolds',
          ],
        },
      ],
    },
  },
  {
    // scripts/run-ts.cjs, the one CommonJS script: it starts the TypeScript ones, so it is not one.
    files: ['**/*.cjs'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: {
        require: 'readonly',
        module: 'writable',
        __dirname: 'readonly',
        __filename: 'readonly',
        Buffer: 'readonly',
        setImmediate: 'readonly',
      },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // Setup tests never assert: a failing setup would skip every dependent run; failures become
    // the run's status instead (tests/setup/*.ts).
    files: ['tests/setup/**/*.ts'],
    rules: { 'playwright/expect-expect': 'off', 'playwright/no-conditional-in-test': 'off' },
  },
  {
    // Fixtures are the suite's machinery, not tests: they branch on evidence and verdicts.
    files: ['fixtures/**/*.ts'],
    rules: { 'playwright/no-conditional-in-test': 'off', 'playwright/valid-title': 'off' },
  },
  // Layers a linter can see (docs/decisions.md), as LAYERS lists them: util → schema → rules → run →
  // redaction → platform → report, each importing only layers before it (so lib/rules imports
  // nothing of lib/platform); nothing in lib/ imports demo/, pages/, fixtures/, tests/ or scripts/.
  // A shortcut fails `npm run lint`.
  ...layerRules(),
);
