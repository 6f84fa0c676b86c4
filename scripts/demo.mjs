#!/usr/bin/env node
// `npm run demo`: the main job. Runs the report checks (the bundled demo platform unless runs are
// configured), then builds the Allure HTML report as one self-contained file and runs the
// redaction guard over every output. The terminal summary (run × item) is printed by the
// verdict reporter. Exit code: the first failure's.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const npx = (args) => spawnSync('npx', args, { cwd: root, stdio: 'inherit', env: process.env }).status ?? 1;

const checks = npx(['playwright', 'test', ...process.argv.slice(2)]);
fs.rmSync(path.join(root, 'allure-report'), { recursive: true, force: true });
const results = process.env.L1_ALLURE_RESULTS_DIR || 'allure-results';
// allurerc.mjs: one self-contained file, grouped by run (epic) and item (feature).
const report = fs.existsSync(path.resolve(root, results)) ? npx(['allure', 'generate', results]) : 1;
const redaction = npx(['tsx', 'scripts/redaction-scan.ts']);
const verdicts = path.relative(root, path.resolve(root, process.env.L1_VERDICTS_DIR || 'reports/verdicts'));
process.stdout.write(
  `\nAllure report: ${report === 0 ? 'allure-report/index.html' : 'not built (see above)'}\nVerdict files: ${verdicts}/\n`,
);
process.exit(checks || report || redaction);
