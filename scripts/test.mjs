#!/usr/bin/env node
// `npm test`: type check, ESLint, Prettier, workflow lint and the demo's sanity check side by side
// (each on its own, one core or less), then unit tests, self-tests against the demo platform, and the
// redaction guard over every output folder, one after another. Every stage runs; the exit code is
// 1 when any failed. Output of stages that run side by side is printed whole when each ends.
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readOptions } from './cli.mjs';

// No arguments: every stage runs. An argument was ignored without a word (`npm test -- --grep
// item5` ran the whole suite); it is refused before any stage starts.
readOptions({
  script: 'scripts/test.mjs',
  usage: 'usage: npm test (node scripts/test.mjs), no arguments',
  about:
    'Runs every stage: typecheck, ESLint, Prettier, workflow lint and demo sanity side by side, then unit tests, ' +
    'self-tests and the redaction guard; exit 1 when any failed. One stage alone: npm run typecheck, npm run lint, ' +
    'npm run test:unit -- FILE, npm run test:self -- --grep TITLE, npm run redaction.',
});

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/**
 * The project's own tools, as `npx` finds them, without npx's own start (lib/run/settings.ts
 * `projectTool` and `tsScript`, which this plain-Node script cannot import: it is TypeScript).
 */
const bin = (tool) => path.join(root, 'node_modules', '.bin', tool);
/**
 * TypeScript 7's `tsc`, by its path: both TypeScripts name their binary `tsc`, and which of them
 * node_modules/.bin/tsc is depends on how npm installed them.
 */
const TSC = path.join(root, 'node_modules', 'typescript-7', 'bin', 'tsc');
/** A TypeScript script of the project, as lib/run/settings.ts `tsScript` runs it: `node --require tsx/cjs`. */
const tsxCjs = createRequire(path.join(root, 'package.json')).resolve('tsx/cjs');
const ts = (script, ...args) => [process.execPath, '--require', tsxCjs, script, ...args];
/** How the stage headers name Node and tsx's hook. */
const SHORT = new Map([
  [process.execPath, 'node'],
  [tsxCjs, 'tsx/cjs'],
]);
/** Groups run one after another; the stages of a group at once. */
const groups = [
  [
    // TypeScript 7's native compiler (package `typescript-7`), about a quarter of 5.9's CPU for the same
    // program; 5.9 stays as `typescript` for typescript-eslint's parser (docs/decisions.md, Speed).
    ['typecheck', [TSC, '--noEmit', '-p', '.']],
    // `npm run lint` is these two one after the other; side by side here, without npm's own start.
    ['eslint', [bin('eslint'), '.', '--max-warnings', '0']],
    ['prettier', [bin('prettier'), '--check', '.']],
    ['workflow lint', ['node', 'scripts/lint-workflows.mjs']],
    [
      'demo sanity (bundled, scenario and generated runs through collectRun and the rules)',
      ts('demo/check-demo.ts'),
    ],
  ],
  [['unit tests', [bin('playwright'), 'test', '-c', 'playwright.unit.config.ts']]],
  [['self-tests', [bin('playwright'), 'test', '-c', 'playwright.selftest.config.ts']]],
  // Every default output folder, the self-tests' invocations' outputs (tests/selftest/harness.ts),
  // and the unit and self-test runners' own (their configs' outputDir).
  [['redaction guard', ts('scripts/redaction-scan.ts', 'selftest-results', '.l1/test-results')]],
];

function runStage([name, [cmd, ...args]], alone) {
  const shown = (a) => SHORT.get(a) ?? (a.startsWith(root + path.sep) ? path.relative(root, a) : a);
  const header = `\n=== ${name}: ${[cmd, ...args].map(shown).join(' ')}\n`;
  if (alone) process.stdout.write(header);
  const started = Date.now();
  const child = spawn(cmd, args, { cwd: root, env: process.env, stdio: alone ? 'inherit' : 'pipe' });
  const chunks = [];
  if (!alone) {
    child.stdout.on('data', (d) => chunks.push(d));
    child.stderr.on('data', (d) => chunks.push(d));
  }
  return new Promise((resolve) => {
    let ended = false;
    const done = (code) => {
      if (ended) return;
      ended = true;
      if (!alone) process.stdout.write(header + Buffer.concat(chunks).toString());
      resolve({ name, code, s: ((Date.now() - started) / 1000).toFixed(1) });
    };
    child.on('error', () => done(1));
    child.on('close', (code) => done(code ?? 1));
  });
}

const results = [];
const began = Date.now();
for (const group of groups)
  results.push(...(await Promise.all(group.map((s) => runStage(s, group.length === 1)))));
process.stdout.write('\n=== npm test summary\n');
for (const r of results) process.stdout.write(`${r.code === 0 ? '✅' : '❌'} ${r.name} (${r.s} s)\n`);
const failed = results.filter((r) => r.code !== 0).length;
process.stdout.write(
  `${results.length - failed} passed, ${failed} failed (${((Date.now() - began) / 1000).toFixed(1)} s)\n`,
);
process.exit(failed ? 1 : 0);
