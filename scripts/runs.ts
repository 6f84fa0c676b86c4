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
import { holdsRegistryText } from '../lib/run/credentials';
import { safeText } from '../lib/report/text';
import { settings, SettingsError, useDefaultRuns } from '../lib/run/settings';
import { SECRET_VARIABLES, VARIABLES, type VariableName } from '../lib/run/variables';
import { parseArgsOrUsage } from '../lib/util/args';

/** Variables whose value is never shown; L1_CREDENTIALS_FILE neither when it holds the registry's text. */
const hidden = (name: VariableName, value: unknown): boolean =>
  SECRET_VARIABLES.has(name) || (name === 'L1_CREDENTIALS_FILE' && holdsRegistryText(String(value)));

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
  for (const run of s.runs) {
    lines.push(`${safeText(run.label, 120)}${run.templated ? ' (templated)' : ''}`);
    lines.push(`  html      ${safeText(redactUrl(run.input.htmlUrl), 300)}`);
    lines.push(`  platform  ${safeText(redactUrl(run.input.platformUrl), 300)}`);
    if (run.inputError) lines.push(`  error     ${safeText(run.inputError, 500)}`);
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
