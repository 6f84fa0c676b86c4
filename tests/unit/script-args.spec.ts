import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from './test-type';
import { ROOT, tsScript } from '../../lib/run/settings';
import { tempDir } from './fakes/temp';

/**
 * The scripts that take no arguments refuse one (node:util parseArgs, strict): `npm test -- --grep
 * item5` ran every stage and said nothing. One line naming the script, exit 2; `--help`, the usage.
 */

/**
 * The plain-Node scripts, copied into a folder with no node_modules: whatever they were given, none
 * of them can start a stage, npm ci or apt-get there (a marker as fresh as the lockfile, and the
 * browser check ends on the machine's own).
 */
function bareScripts(): string {
  const dir = tempDir('script-args');
  fs.mkdirSync(path.join(dir, 'scripts'));
  for (const s of ['cli.mjs', 'test.mjs', 'stage.mjs', 'ensure-env.mjs', 'lint-workflows.mjs'])
    fs.copyFileSync(path.join(ROOT, 'scripts', s), path.join(dir, 'scripts', s));
  fs.writeFileSync(path.join(dir, 'package-lock.json'), '{}');
  fs.mkdirSync(path.join(dir, 'node_modules'));
  fs.writeFileSync(path.join(dir, 'node_modules', '.package-lock.json'), '{}');
  return dir;
}

const env = Object.fromEntries(
  Object.entries(process.env).filter(([k]) => !k.startsWith('L1_') && k !== 'GITHUB_ACTIONS'),
);

test('test.mjs, ensure-env.mjs, lint-workflows.mjs and ci/mask.ts refuse an unknown option or an argument in one line naming the script (exit 2), and print their usage for --help', () => {
  test.setTimeout(60_000); // eight short processes, two of them tsx
  const dir = bareScripts();
  const node = (script: string) => (args: string[]) =>
    spawnSync(process.execPath, [path.join(dir, 'scripts', script), ...args], {
      cwd: dir,
      env,
      encoding: 'utf8',
    });
  const scripts: [name: string, run: (args: string[]) => SpawnSyncReturns<string>][] = [
    ['scripts/test.mjs', node('test.mjs')],
    ['scripts/ensure-env.mjs', node('ensure-env.mjs')],
    ['scripts/lint-workflows.mjs', node('lint-workflows.mjs')],
    [
      'scripts/ci/mask.ts',
      (args) =>
        spawnSync(...tsScript(path.join(ROOT, 'scripts', 'ci', 'mask.ts'), args), {
          cwd: ROOT,
          env,
          encoding: 'utf8',
        }),
    ],
  ];
  for (const [name, run] of scripts) {
    const unknown = run(['--grep', 'item5']);
    expect(unknown.status, `${name} --grep`).toBe(2);
    expect(unknown.stdout, name).toBe('');
    // What is wrong in one line naming the script, then the usage (lib/util/args.ts parseArgsOrUsage).
    expect(unknown.stderr.split('\n')).toEqual([
      `${name}: Unknown option '--grep'`,
      expect.stringMatching(/^usage: /),
      '',
    ]);
    const extra = run(['item5']);
    expect(extra.status, `${name} item5`).toBe(2);
    expect(extra.stderr.split('\n')[0]).toMatch(new RegExp(`^${name}: Unexpected argument 'item5'`));
    const help = run(['--help']);
    expect(help.status, `${name} --help`).toBe(0);
    expect(help.stdout).toMatch(/^usage: .*no arguments/);
  }
  // Near miss: with no argument they run as before (the workflow lint finds no workflow here).
  expect(node('lint-workflows.mjs')([]).stdout).toBe('workflow lint: no workflow in .github/workflows/\n');
});

test("npm test's stages have a time bound: a stage past it is stopped (SIGINT, Playwright's own stop; SIGKILL when that is ignored) and fails with a line naming it, also when a process it started still holds its output; a stage within it is untouched (scripts/stage.mjs)", () => {
  const node = JSON.stringify(process.execPath);
  // Each stage in turn, with a bound of 1 s and a grace of 0.5 s: its result and what it printed.
  const stages = [
    ['quick', ['-e', 'process.stdout.write("done")']],
    ['hangs', ['-e', 'setInterval(() => {}, 1000)']],
    ['ignores SIGINT', ['-e', 'process.on("SIGINT", () => {}); setInterval(() => {}, 1000)']],
    [
      'leaves a child holding its output',
      [
        '-e',
        `require("child_process").spawn(${node}, ["-e", "setTimeout(() => {}, 8000)"], { stdio: "inherit" }); setInterval(() => {}, 1000)`,
      ],
    ],
  ];
  const r = spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `const { runStage, stageLine } = await import(${JSON.stringify(path.join(ROOT, 'scripts', 'stage.mjs'))});` +
        `const out = [];` +
        `for (const [name, args] of ${JSON.stringify(stages)}) {` +
        `  const stage = runStage([name, [process.execPath, ...args], { limitS: 1 }], { root: process.cwd(), foreground: false, graceMs: 500 });` +
        `  const result = await stage.ended;` +
        `  out.push({ ...result, s: undefined, line: stageLine(result).replace(/\\(\\d+\\.\\d s/, '(N s'), within: Number(result.s) < 3 });` +
        `}` +
        `process.stderr.write(JSON.stringify(out));` +
        // As scripts/test.mjs ends: the left child's pipe does not hold it.
        `process.exit(0);`,
    ],
    { encoding: 'utf8', timeout: 20_000 },
  );
  expect(JSON.parse(r.stderr)).toEqual([
    { name: 'quick', code: 0, line: '✅ quick (N s)', within: true },
    {
      name: 'hangs',
      code: 1,
      timedOut: 1,
      line: '❌ hangs (N s, stopped at its bound of 1 s)',
      within: true,
    },
    {
      name: 'ignores SIGINT',
      code: 1,
      timedOut: 1,
      line: '❌ ignores SIGINT (N s, stopped at its bound of 1 s)',
      within: true,
    },
    {
      name: 'leaves a child holding its output',
      code: 1,
      timedOut: 1,
      line: '❌ leaves a child holding its output (N s, stopped at its bound of 1 s)',
      within: true,
    },
  ]);
  // `within`: each stage ended under 3 s (a bound of 1 s, a grace of 0.5 s), not the 8 s the
  // left child holds the output pipe.
});
