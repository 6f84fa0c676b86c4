#!/usr/bin/env node
// `node scripts/allure-generate.mjs --results DIR --config FILE --output DIR`: what `allure generate
// DIR --config FILE --output DIR` does (allure 3.18, dist/commands/commons/generate.js), through
// @allurereport/core's own API: read the config, read the one results folder, write the report
// (allurerc.mjs: the awesome plugin, one file). scripts/report.ts starts it in place of Allure's
// CLI, which loads every command it has (agents, Jira, Slack, TestOps, the dev server) before it
// reads its arguments: 0.3 CPU s of its 1.4 s per report, and `npm test` builds some 30 reports
// (docs/speed-log.md). Exit 0 with the report written, 1 when Allure failed (its message on
// stderr), 2 on bad usage (scripts/cli.mjs readOptions, as the other plain-Node scripts).
import fs from 'node:fs';
import path from 'node:path';
import { readOptions } from './cli.mjs';

const USAGE = 'usage: node scripts/allure-generate.mjs --results DIR --config FILE --output DIR';
const values = readOptions({
  script: 'allure-generate',
  usage: USAGE,
  about:
    "Builds the Allure report of one results folder as `allure generate` does, through Allure's core API " +
    '(scripts/report.ts starts it; npm run report is the command for people).',
  options: { results: { type: 'string' }, config: { type: 'string' }, output: { type: 'string' } },
});
if (!values.results || !values.config || !values.output) {
  process.stderr.write(`allure-generate: --results, --config and --output are all needed\n${USAGE}\n`);
  process.exit(2);
}
const results = path.resolve(values.results);
// As the CLI, which finds no folder to read and says so.
if (!fs.statSync(results, { throwIfNoEntry: false })?.isDirectory()) {
  process.stderr.write(`No test results directories found matching pattern: ${results}\n`);
  process.exit(1);
}
// Loaded once the arguments are known good: 0.4 s of the start.
const { AllureReport, readConfig } = await import('@allurereport/core');
try {
  // The CLI reads the config from its --cwd, the results folder: allurerc.mjs takes its paths from
  // its own folder, not from there.
  const config = await readConfig(results, path.resolve(values.config), {
    output: path.resolve(values.output),
  });
  const report = new AllureReport(config);
  await report.start();
  await report.readDirectory(results);
  await report.done();
} catch (e) {
  process.stderr.write(`Failed to generate report: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
}
