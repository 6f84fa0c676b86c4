#!/usr/bin/env node
// `npm test`: type check, lint, unit tests, the demo's sanity check, self-tests against the demo
// platform, then the redaction guard over every output folder. Every stage runs; the exit code is the first failure's.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const stages = [
  ['typecheck', ['npx', 'tsc', '--noEmit', '-p', '.']],
  ['lint', ['npm', 'run', '-s', 'lint']],
  ['workflow lint', ['node', 'scripts/lint-workflows.mjs']],
  ['unit tests', ['npx', 'playwright', 'test', '-c', 'playwright.unit.config.ts']],
  [
    'demo sanity (bundled, scenario and generated runs through collectRun and the rules)',
    ['npx', 'tsx', 'demo/check-demo.ts'],
  ],
  ['self-tests', ['npx', 'playwright', 'test', '-c', 'playwright.selftest.config.ts']],
  ['redaction guard', ['npx', 'tsx', 'scripts/redaction-scan.ts']],
];

const results = [];
for (const [name, [cmd, ...args]] of stages) {
  process.stdout.write(`\n=== ${name}: ${[cmd, ...args].join(' ')}\n`);
  const started = Date.now();
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: process.env });
  results.push({ name, code: r.status ?? 1, s: ((Date.now() - started) / 1000).toFixed(1) });
}
process.stdout.write('\n=== npm test summary\n');
for (const r of results) process.stdout.write(`${r.code === 0 ? '✅' : '❌'} ${r.name} (${r.s} s)\n`);
const failed = results.filter((r) => r.code !== 0).length;
process.stdout.write(`${results.length - failed} passed, ${failed} failed\n`);
process.exit(failed ? 1 : 0);
