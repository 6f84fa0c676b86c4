import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import playwright from 'eslint-plugin-playwright';

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
      'playwright-report/**',
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
      // Item tests assert through the `checkItem` fixture (soft `toAgree` per step, fixtures/item.ts).
      'playwright/expect-expect': ['error', { assertFunctionNames: ['expect', 'checkItem', 'unless'] }],
    },
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
  {
    // The rules engine is pure: it never imports Playwright (DEVELOPERS.md).
    files: ['lib/rules/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: ['@playwright/*', 'playwright', 'playwright/*', 'allure-*', 'node:fs', 'fs'] },
      ],
    },
  },
);
