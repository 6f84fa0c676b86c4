/**
 * `npm run runs [-- --count]`: the runs an invocation would check now, and why (README.md §
 * Settings): where they come from, the batch date filled in, the Profile B settings and where
 * each came from, every L1_* variable that is set (environment or .env; values of secrets are
 * never printed). `--count` prints only the number of runs (the CI plan caps its shards with it);
 * `--batch-date` only the night's batch date, YYYY-MM-DD (the CI plan fixes it for every job).
 * Exit 2 when the settings cannot be read, with the reason.
 */
import { demoCredentialsFile, demoProfileB, demoRuns } from '../demo/runs.js';
import { redactUrl } from '../lib/redaction/url';
import { holdsRegistryText } from '../lib/run/variables';
import { runTitle, safeText } from '../lib/report/text';
import type { ConfiguredRun } from '../lib/run/runs';
import { settings, SettingsError, useDefaultRuns } from '../lib/run/settings';
import { readUrls, RunInputError } from '../lib/run/url';
import { shownPath } from '../lib/util/shown-path';
import { SECRET_VARIABLES, VARIABLES, type VariableName } from '../lib/run/variables';
import { parseArgsOrUsage } from '../lib/util/args';

/** Variables whose value is never shown; L1_CREDENTIALS_FILE neither when it holds the registry's text. */
const hidden = (name: VariableName, value: unknown): boolean =>
  SECRET_VARIABLES.has(name) || (name === 'L1_CREDENTIALS_FILE' && holdsRegistryText(String(value)));

/**
 * What the night will read from a run (docs/contract.md §1.1), or why it will stop it: its input
 * error, else the error of its URLs (a report URL with no report type, a platform URL with no
 * project), which was otherwise first said when the run failed at night, its label a bare `run-N`.
 */
function readRun(run: ConfiguredRun): { facts: string } | { error: string } {
  if (run.inputError) return { error: run.inputError };
  try {
    const f = readUrls(run.input);
    return {
      facts: `company ${f.companyId} · project ${f.projectId} · ${f.reportType} · ${f.batchDate}${f.topic !== undefined ? ` · topic ${f.topic}` : ''} · base ${redactUrl(f.baseUrl).replace(/\/$/, '')}`,
    };
  } catch (e) {
    if (!(e instanceof RunInputError)) throw e;
    return { error: e.message };
  }
}

function main(): number {
  const usage = 'usage: npm run runs [-- --count | --batch-date]';
  const { values } = parseArgsOrUsage(
    {
      options: {
        count: { type: 'boolean' },
        'batch-date': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    },
    'npm run runs',
    usage,
  );
  if (values.help) {
    process.stdout.write(`${usage}\n`);
    return 0;
  }
  useDefaultRuns((port) => ({
    runs: demoRuns(`http://127.0.0.1:${port}`, `http://127.0.0.1:${port + 1}`),
    profileB: demoProfileB(`127.0.0.1:${port + 1}`),
    credentialsFile: demoCredentialsFile(port),
  }));
  let s;
  try {
    s = settings();
  } catch (e) {
    if (!(e instanceof SettingsError)) throw e;
    process.stderr.write(`runs: ${e.message}\n`);
    return 2;
  }
  if (values.count) {
    process.stdout.write(`${s.runs.length}\n`);
    return 0;
  }
  if (values['batch-date']) {
    // The night's date as YYYY-MM-DD (empty when no run is templated and L1_BATCH_DATE is unset):
    // the CI plan fixes it once for every shard and the merge, so a job re-run the next day checks
    // the same night (scripts/ci/plan.sh).
    process.stdout.write(`${s.night?.batchDate ?? ''}\n`);
    return 0;
  }
  const lines = [
    `runs: ${s.runsFrom}`,
    `Profile B: ${s.profileBFrom}`,
    ...s.warnings.map((w) => `warning: ${w}`),
    '',
  ];
  for (const [i, run] of s.runs.entries()) {
    // Named as its tests are (fixtures/check.ts): two labels the mask shows alike (two mobile
    // numbers) carry their place in the runs, `(run #2)`, here as in their titles.
    lines.push(`${runTitle(run.label, i + 1)}${run.templated ? ' (templated)' : ''}`);
    lines.push(`  html      ${safeText(redactUrl(run.input.htmlUrl), 300)}`);
    lines.push(`  platform  ${safeText(redactUrl(run.input.platformUrl), 300)}`);
    const read = readRun(run);
    if ('error' in read) lines.push(`  error     ${safeText(read.error, 500)}`);
    else lines.push(`  reads     ${safeText(read.facts, 300)}`);
    // What else the run gives, filled as the night fills it: a run that names its crawl batch or
    // reads cal_data_json from a file looked like any other here (review 59a).
    const { level, batchId, calDataJson } = run.input;
    if (level) lines.push(`  level     ${level}`);
    if (batchId) lines.push(`  batch id  ${safeText(batchId, 200)}`);
    if (calDataJson) lines.push(`  cal data  ${safeText(shownPath(calDataJson), 300)}`);
  }
  const set = (Object.keys(VARIABLES) as VariableName[]).filter((n) => s.from[n]);
  lines.push('', 'variables set:');
  for (const name of set)
    lines.push(
      `  ${name}=${hidden(name, s.values[name]) ? '(set, not shown)' : safeText(String(s.values[name]), 200)} (${s.from[name]})`,
    );
  if (set.length === 0) lines.push('  none: every default applies');
  process.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}

process.exitCode = main();
