#!/usr/bin/env node
// `npm test`: unit tests, self-tests against the demo platform and the redaction guard over every
// output folder, one after another; beside them, from the start, the static checks (type check,
// ESLint, Prettier and workflow lint at the lowest CPU priority; the demo's sanity check at the
// tests' own). Every stage runs, in a process group of its own and within a time bound (a stage past
// it is stopped with all it started, and fails; scripts/stage.mjs); a Ctrl-C or SIGTERM is passed on
// to the stages and starts no more (exit 128 + its number: 130 for Ctrl-C). The exit code is 1 when any failed. A static check's output is
// printed whole between the stages after it ended.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readOptions } from './cli.mjs';
import { runAll } from './stage.mjs';

// No arguments: every stage runs. An argument was ignored without a word (`npm test -- --grep
// item5` ran the whole suite); it is refused before any stage starts.
readOptions({
  script: 'scripts/test.mjs',
  usage: 'usage: npm test (node scripts/test.mjs), no arguments',
  about:
    'Runs every stage: unit tests, self-tests and the redaction guard one after another, and beside them from the ' +
    'start typecheck, ESLint, Prettier and workflow lint (at nice 19) and demo sanity; each stage within a time ' +
    'bound (unit tests 15 min, self-tests 30, the others 10), stopped and failed past it; exit 1 when any failed, ' +
    '130 or 143 when a Ctrl-C or SIGTERM stopped them. ' +
    'One stage alone: npm run typecheck, npm run lint, ' +
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
/** A TypeScript script of the project, as lib/run/settings.ts `tsScript` runs it: from its bundle. */
const runTs = path.join(root, 'scripts', 'run-ts.cjs');
const ts = (script, ...args) => [process.execPath, runTs, script, ...args];
/** How the stage headers name Node. */
const SHORT = new Map([[process.execPath, 'node']]);
/**
 * Each stage's time bound, in seconds (scripts/stage.mjs: SIGINT, then SIGKILL): several times
 * what each takes on two cores (unit tests 70–120 s, self-tests 80–130 s, each check 3–20 s alone
 * and up to 100 s at nice 19 beside the tests), and together under an hour, so a hung stage fails
 * with its name well inside CI's 90 minutes and the other stages still report.
 */
const CHECK_S = 600;
/**
 * The static checks. They run beside the unit tests and self-tests, at nice 19 but the demo's
 * sanity check: the tests leave about a quarter of the two cores idle while they wait on their
 * child invocations, browsers and sockets (1.57 of 2 cores over the unit stage), which is about
 * what the static checks need (27 CPU s). At nice 19 they take mostly what the tests leave: the
 * unit stage took 5–10 % longer beside them, where side by side before the tests they took 14–16 s
 * of `npm test`'s wall time (docs/speed-log.md, 2026-11-27).
 */
const background = [
  // TypeScript 7's native compiler (package `typescript-7`), about a quarter of 5.9's CPU for the same
  // program; 5.9 stays as `typescript` for typescript-eslint's parser (docs/decisions.md, Speed).
  ['typecheck', [TSC, '--noEmit', '-p', '.'], { limitS: CHECK_S }],
  // `npm run lint` is these two one after the other; side by side here, without npm's own start.
  ['eslint', [bin('eslint'), '.', '--max-warnings', '0'], { limitS: CHECK_S }],
  ['prettier', [bin('prettier'), '--check', '.'], { limitS: CHECK_S }],
  ['workflow lint', ['node', 'scripts/lint-workflows.mjs'], { limitS: CHECK_S }],
  // At the tests' own priority: it serves and reads the demo in one process, and its timeouts
  // (fault-slow's 1.5 s request timeout) are a claim of its own. Niced, a busy unit stage starved
  // its server, and a request that should have answered at once timed out (2026-11-27).
  [
    'demo sanity (bundled, scenario and generated runs through collectRun and the rules)',
    ts('demo/check-demo.ts'),
    { nice: false, limitS: CHECK_S },
  ],
];
/** The tests, one after another, their output as it comes. */
const stages = [
  ['unit tests', [bin('playwright'), 'test', '-c', 'playwright.unit.config.ts'], { limitS: 900 }],
  ['self-tests', [bin('playwright'), 'test', '-c', 'playwright.selftest.config.ts'], { limitS: 1800 }],
  // Every default output folder, the self-tests' invocations' outputs (tests/selftest/harness.ts),
  // and the unit and self-test runners' own (their configs' outputDir).
  [
    'redaction guard',
    ts('scripts/redaction-scan.ts', 'selftest-results', '.l1/test-results'),
    { limitS: CHECK_S },
  ],
];
const shown = (a) => SHORT.get(a) ?? (a.startsWith(root + path.sep) ? path.relative(root, a) : a);
process.exit(await runAll(background, stages, { root, shown }));
