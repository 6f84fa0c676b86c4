#!/usr/bin/env node
// Workflow lint (docs/decisions.md, deliver 6; a stage of `npm test`): every file of .github/workflows/ through
// `action-validator` (@action-validator/cli: the GitHub workflow schema), plus three project rules
// the schema cannot see, since the workflows must stay wiring only (logic lives in scripts/ci/):
//   - every `${{ … }}` is closed;
//   - no `${{ … }}` inside a `run:` command (an input or a secret spliced into a shell line can
//     inject commands or leak: pass it through `env:` and use "$VAR");
//   - every `run:` is one line calling a project script (`bash scripts/ci/…`).
// Exit code 1 when any file has a problem, 0 otherwise (also when there is no workflow).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dir = path.join(root, '.github', 'workflows');
const validator = path.join(root, 'node_modules', '.bin', 'action-validator');

/** Problems of the project rules, as `file:line: text`. */
function projectRules(file, text) {
  const problems = [];
  const rel = path.relative(root, file);
  text.split('\n').forEach((line, i) => {
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
