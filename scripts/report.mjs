#!/usr/bin/env node
// `npm run report [-- resultsDir] [--output dir] [--history file]`: the Allure report of the last
// invocation as ONE self-contained HTML file that calls nobody when opened (README.md § Security and limits, case 14).
//
// 1. `allure generate` with allurerc.mjs (awesome plugin, singleFile, categories, history).
// 2. Every reference to an external host is removed from the output: the analytics script the
//    awesome plugin hard-codes (allure3 issue #476), the trace-viewer and "Powered by" hosts of its
//    bundle, any other URL to a host that is neither loopback nor a configured run's host
//    (lib/report/allure/offline.ts).
// 3. The output is checked: every embedded payload is decoded and scanned; if any external host
//    is left, the report is deleted and the command fails naming the hosts.
//
// The results folder defaults to L1_ALLURE_RESULTS_DIR or `allure-results`, resolved against the
// project root (not the cwd). The history file (allurerc.mjs `historyPath`, default
// `allure-history/history.jsonl`, or L1_ALLURE_HISTORY_PATH) is never removed: it carries the
// trends and per-test history from one night to the next.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const shown = (p) => (path.relative(root, p).startsWith('..') ? p : path.relative(root, p));
const fail = (message) => {
  process.stderr.write(`report: ${message}\n`);
  process.exit(1);
};

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { output: { type: 'string' }, history: { type: 'string' } },
});
const results = path.resolve(root, positionals[0] || process.env.L1_ALLURE_RESULTS_DIR || 'allure-results');
const output = path.resolve(root, values.output || 'allure-report');
const env = { ...process.env, ALLURE_NO_ANALYTICS: 'true' };
if (values.history) env.L1_ALLURE_HISTORY_PATH = path.resolve(process.cwd(), values.history);

if (!fs.existsSync(results) || !fs.statSync(results).isDirectory()) {
  fail(`no Allure results folder at ${shown(results)}: run the checks first`);
}

const { tsImport } = await import('tsx/esm/api');
const offlineModule = await tsImport('../lib/report/allure/offline.ts', import.meta.url);
const offline = offlineModule.makeOffline ? offlineModule : offlineModule.default;

/** Hosts of the configured runs: a link to the company's own report page is not a third party. */
function configuredHosts() {
  const urls = [
    process.env.L1_HTML_URL,
    process.env.L1_PLATFORM_URL,
    process.env.L1_BASE_URL,
    process.env.L1_PROFILE_B_HOST && !/^https?:/i.test(process.env.L1_PROFILE_B_HOST)
      ? `https://${process.env.L1_PROFILE_B_HOST}`
      : process.env.L1_PROFILE_B_HOST,
  ];
  const verdicts = path.resolve(root, process.env.L1_VERDICTS_DIR || 'reports/verdicts');
  if (fs.existsSync(verdicts)) {
    for (const name of fs.readdirSync(verdicts)) {
      if (!name.endsWith('.json')) continue;
      try {
        const run = JSON.parse(fs.readFileSync(path.join(verdicts, name), 'utf8'))?.run;
        if (run) urls.push(run.htmlUrl, run.platformUrl, run.baseUrl);
      } catch {
        // not a verdict file: it names no host
      }
    }
  }
  if (process.env.L1_RUNS) {
    try {
      const runs = JSON.parse(fs.readFileSync(path.resolve(root, process.env.L1_RUNS), 'utf8'));
      if (Array.isArray(runs)) for (const r of runs) urls.push(r?.htmlUrl, r?.platformUrl, r?.baseUrl);
    } catch {
      // the checks report an unreadable runs file; here it only allows no host
    }
  }
  const extra = (process.env.L1_REPORT_ALLOWED_HOSTS || '')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
  return [...new Set([...offline.runHosts(urls.filter((u) => typeof u === 'string')), ...extra])].filter(
    (h) => !offline.isLoopbackHost(h),
  );
}

// 1. Generate (the history file lives outside the output folder and is kept).
fs.rmSync(output, { recursive: true, force: true });
const cli = path.join(root, 'node_modules', 'allure', 'cli.js');
const generated = spawnSync(
  process.execPath,
  [cli, 'generate', results, '--config', path.join(root, 'allurerc.mjs'), '--output', output, '--cwd', root],
  { cwd: root, env, stdio: 'inherit' },
);
if (generated.status !== 0) fail(`allure generate failed (exit ${generated.status ?? generated.signal})`);
const index = path.join(output, 'index.html');
if (!fs.existsSync(index)) fail(`allure generate wrote no ${shown(index)}`);

// 2. Clean, 3. verify: every text file of the output.
const options = { allowedHosts: configuredHosts() };
const textFile = /\.(html?|json|jsonl|js|mjs|css|txt|csv|md|xml|svg)$/i;
const files = fs.readdirSync(output, { recursive: true }).map((f) => path.join(output, String(f)));
const removed = [];
const problems = [];
for (const file of files) {
  if (!fs.statSync(file).isFile() || !textFile.test(file)) continue;
  const rel = shown(file);
  const { html, removed: done } = offline.makeOffline(fs.readFileSync(file, 'utf8'), options);
  fs.writeFileSync(file, html, 'utf8');
  removed.push(...done.map((d) => `${rel}: ${d}`));
  const left = offline.findExternalUrls(html, options);
  if (left.length) problems.push(`${rel}:\n${offline.describeExternalUrls(left)}`);
}
if (problems.length) {
  fs.rmSync(output, { recursive: true, force: true });
  fail(
    `the generated report still names external hosts, so it was deleted (a report of confidential figures must not call out):\n${problems.join('\n')}`,
  );
}
process.stdout.write(
  `Allure report: ${shown(index)} (self-contained; names no external host${
    options.allowedHosts.length ? ` besides the configured runs' ${options.allowedHosts.join(', ')}` : ''
  })\n${removed.length ? `Removed: ${removed.join('; ')}\n` : ''}`,
);
