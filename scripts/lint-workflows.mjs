#!/usr/bin/env node
// Workflow lint (docs/decisions.md, deliver 6; a stage of `npm test`): every file of .github/workflows/ through
// `action-validator` (@action-validator/cli: the GitHub workflow schema), plus three project rules
// the schema cannot see, since the workflows must stay wiring only (logic lives in scripts/ci/):
//   - every `${{ … }}` is closed;
//   - no `${{ … }}` inside a `run:` command (an input or a secret spliced into a shell line can
//     inject commands or leak: pass it through `env:` and use "$VAR");
//   - every `run:` is one line calling a project script (`bash scripts/ci/…`);
//   - in a job that sets up the packages (`bash scripts/ci/setup.sh`), no other project script runs
//     before it but playwright-version.sh: they run on node_modules, which a fresh runner has only
//     after `npm ci` (the masking step once came first, and every night would have failed at it).
// Exit code 1 when any file has a problem, 0 otherwise (also when there is no workflow).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readOptions } from './cli.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dir = path.join(root, '.github', 'workflows');
const validator = path.join(root, 'node_modules', '.bin', 'action-validator');

/** Project scripts a job may run before its setup: they read files only, no package. */
const BEFORE_SETUP = new Set(['setup.sh', 'playwright-version.sh']);

/** Problems of the project rules, as `file:line: text`. */
export function projectRules(file, text) {
  const problems = [];
  const rel = path.relative(root, file);
  const lines = text.split('\n');
  // Per job (a key two spaces in under `jobs:`): the project scripts its steps run, in order.
  let inJobs = false;
  let job;
  const jobs = new Map();
  lines.forEach((line, i) => {
    if (/^\S/.test(line)) inJobs = /^jobs:\s*$/.test(line);
    const key = inJobs ? /^ {2}([\w-]+):\s*$/.exec(line) : null;
    if (key) jobs.set((job = key[1]), []);
    const script = /^\s*(?:-\s+)?run:\s*bash scripts\/ci\/([\w.-]+\.sh)/.exec(line);
    if (inJobs && job && script) jobs.get(job).push({ script: script[1], line: i + 1 });
  });
  for (const [name, scripts] of jobs) {
    const setup = scripts.findIndex((s) => s.script === 'setup.sh');
    for (const s of scripts.slice(0, Math.max(0, setup)))
      if (!BEFORE_SETUP.has(s.script))
        problems.push(
          `${rel}:${s.line}: job ${name} runs scripts/ci/${s.script} before scripts/ci/setup.sh: it needs the packages (npm ci), which a fresh runner has only after setup`,
        );
  }
  lines.forEach((line, i) => {
    const where = `${rel}:${i + 1}`;
    if (/^\s*#/.test(line)) return;
    const opened = line.split('${{').length - 1;
    const closed = line.split('}}').length - 1;
    if (opened !== closed) problems.push(`${where}: unbalanced \${{ … }}`);
    const run = /^\s*(?:-\s+)?run:\s*(.*)$/.exec(line);
    if (!run) return;
    const command = run[1].replace(/\s+#.*$/, '').trim();
    if (command.includes('${{'))
      problems.push(`${where}: \${{ … }} inside run: pass the value through env: and use "$NAME" instead`);
    if (/^[|>]/.test(command) || command === '')
      problems.push(`${where}: multi-line run: keep the logic in a script of scripts/ci/`);
    else if (!/^bash scripts\/ci\/[\w.-]+\.sh(\s|$)/.test(command))
      problems.push(`${where}: run: must call a project script (bash scripts/ci/NAME.sh …), got: ${command}`);
  });
  return problems;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();

function main() {
  readOptions({
    script: 'scripts/lint-workflows.mjs',
    usage: 'usage: node scripts/lint-workflows.mjs, no arguments',
    about:
      'Checks every file of .github/workflows/ with action-validator (the workflow schema) and the project ' +
      'rules (every ${{ … }} closed, none inside run:, each run: one call of a scripts/ci/ script, the ' +
      'package setup before the scripts that need it); exit 1 when any file has a problem.',
  });
  let files = [];
  try {
    files = fs
      .readdirSync(dir)
      .filter((n) => /\.ya?ml$/.test(n))
      .sort()
      .map((n) => path.join(dir, n));
  } catch {
    // no workflow folder
  }
  if (files.length === 0) {
    process.stdout.write('workflow lint: no workflow in .github/workflows/\n');
    process.exit(0);
  }
  if (!fs.existsSync(validator)) {
    process.stderr.write(
      'workflow lint: action-validator is not installed (npm ci installs @action-validator/cli)\n',
    );
    process.exit(1);
  }

  let failed = 0;
  for (const file of files) {
    const rel = path.relative(root, file);
    const r = spawnSync(validator, [file], { cwd: root, encoding: 'utf8' });
    const problems = projectRules(file, fs.readFileSync(file, 'utf8'));
    if (r.status !== 0) {
      failed++;
      process.stdout.write(
        `✗ ${rel}: action-validator (exit ${r.status ?? r.signal}):\n${r.stdout}${r.stderr}\n`,
      );
    }
    if (problems.length) {
      if (r.status === 0) failed++;
      for (const p of problems) process.stdout.write(`✗ ${p}\n`);
    }
    if (r.status === 0 && problems.length === 0) process.stdout.write(`✓ ${rel}\n`);
  }
  process.stdout.write(`workflow lint: ${files.length - failed} of ${files.length} file(s) valid\n`);
  process.exit(failed ? 1 : 0);
}
