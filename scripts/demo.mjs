#!/usr/bin/env node
// `npm run demo`: the main job. Runs the report checks (the bundled demo platform unless runs are
// configured), then builds the Allure HTML report as one self-contained file. The terminal
// summary (run × item) is printed by the verdict reporter. Exit code: the checks'.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const npx = (args) => spawnSync('npx', args, { cwd: root, stdio: 'inherit', env: process.env }).status ?? 1;

const checks = npx(['playwright', 'test', ...process.argv.slice(2)]);
fs.rmSync(path.join(root, 'allure-report'), { recursive: true, force: true });
const report = fs.existsSync(path.join(root, 'allure-results'))
  ? npx(['allure', 'awesome', 'allure-results', '--single-file', '-o', 'allure-report'])
  : 1;
const verdicts = path.relative(root, path.resolve(root, process.env.L1_VERDICTS_DIR || 'reports/verdicts'));
process.stdout.write(
  `\nAllure report: ${report === 0 ? 'allure-report/index.html' : 'not built (see above)'}\nVerdict files: ${verdicts}/\n`,
);
process.exit(checks || report);
