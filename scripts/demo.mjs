#!/usr/bin/env node
// `npm run demo` / `npm run check`: the main job. Runs the report checks (the bundled demo runs
// unless runs are configured), builds the Allure report (one offline HTML file), runs the
// redaction guard over every output, and exits with a code a scheduler can use:
//   0  every run was checked and every item passed
//   1  some item failed on checked data
//   2  some run could not be checked (status error or needs-input), or no verdict was written
//   3  the job itself failed after the checks (the Allure report or the redaction guard)
// Arguments after `--` go to `playwright test` (e.g. `--grep item5`, `--shard 1/3`), except:
//   --scenarios           list the demo's scenarios by name and stop
//   --scenario NAME[,…]   check these demo scenarios (or `all`, or `hostile-*`) instead of the bundled runs
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const say = (line) => process.stdout.write(`${line}\n`);
const npx = (args, env = process.env) =>
  spawnSync('npx', args, { cwd: root, stdio: 'inherit', env }).status ?? 1;

const args = process.argv.slice(2);
if (args.includes('--scenarios')) process.exit(npx(['tsx', 'demo/runs-file.ts', '--list']));

const env = { ...process.env };
let demo;
function stopDemo() {
  if (!demo) return;
  try {
    process.kill(-demo.pid, 'SIGTERM');
  } catch {
    // already gone
  }
}
const at = args.findIndex((a) => a === '--scenario' || a.startsWith('--scenario='));
if (at >= 0) {
  const name = args[at].includes('=') ? args[at].split('=')[1] : args[at + 1];
  args.splice(at, args[at].includes('=') ? 1 : 2);
  if (!name) {
    say('usage: npm run demo -- --scenario NAME[,NAME…]|all   (names: npm run demo -- --scenarios)');
    process.exit(2);
  }
  const port = Number(env.L1_DEMO_PORT ?? 4173);
  const origin = `http://127.0.0.1:${port}`;
  // The scenarios live on the demo platform: start it unless one already answers on the port.
  const up = await fetch(`${origin}/healthz`).then(
    (r) => r.ok,
    () => false,
  );
  if (!up) {
    // Its own process group, so stopping it also stops the node process npx starts.
    demo = spawn('npx', ['tsx', 'demo/server.ts'], {
      cwd: root,
      env: { ...env, L1_DEMO_PORT: String(port) },
      stdio: 'ignore',
      detached: true,
    });
    for (
      let i = 0;
      i < 120 &&
      !(await fetch(`${origin}/healthz`).then(
        (r) => r.ok,
        () => false,
      ));
      i++
    )
      await new Promise((r) => setTimeout(r, 250));
  }
  const file = path.join(root, 'reports', 'scenario-runs.json');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const made = spawnSync(
    'npx',
    ['tsx', 'demo/runs-file.ts', '--scenario', name, '--origin', origin, '--out', file],
    {
      cwd: root,
      env,
      encoding: 'utf8',
    },
  );
  if (made.status !== 0) {
    process.stderr.write(made.stderr || made.stdout);
    stopDemo();
    process.exit(2);
  }
  for (const line of made.stdout.split('\n')) {
    const m = /^(L1_[A-Z0-9_]+)=(.*)$/.exec(line.trim());
    if (m) env[m[1]] = m[2];
  }
  say(`demo scenarios ${name}: ${file}`);
}

npx(['playwright', 'test', ...args], env);
stopDemo();

const report =
  spawnSync(process.execPath, ['scripts/report.mjs'], { cwd: root, stdio: 'inherit', env }).status ?? 1;
const redaction = npx(['tsx', 'scripts/redaction-scan.ts'], env);
const verdicts = path.resolve(root, env.L1_VERDICTS_DIR || 'reports/verdicts');

let code = 2;
try {
  const index = JSON.parse(fs.readFileSync(path.join(verdicts, 'index.json'), 'utf8'));
  const runs = index.runs ?? [];
  const notChecked = runs.some((r) => r.status !== 'checked');
  const failing = runs.some((r) => Object.values(r.items ?? {}).includes('fail'));
  code = runs.length === 0 || notChecked ? 2 : failing ? 1 : 0;
} catch {
  say(`no verdict index in ${path.relative(root, verdicts)}: the checks did not finish`);
}
if (code !== 2 && (report !== 0 || redaction !== 0)) code = 3;
say(
  `\nAllure report: ${report === 0 ? 'allure-report/index.html' : 'not built (see above)'}\nVerdict files: ${path.relative(root, verdicts)}/ (summary.md, index.json, junit.xml)\nExit code ${code}: ${['every run checked, every item passed', 'some item failed on checked data', 'some run could not be checked', 'the report or the redaction guard failed'][code]}`,
);
process.exit(code);
