import { spawn, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from './test-type';
import { ROOT, tsScript } from '../../lib/run/settings';
import { tempDir } from './fakes/temp';
import { freeTriple } from '../../scripts/bench/demo-server';

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

/** Where Linux schedules by autogroup, a niced stage's group has nice 19 (scripts/stage.mjs). */
const AUTOGROUP = fs.existsSync('/proc/self/autogroup') ? /nice 19/ : /^none$/;

/** The pids a stage test's stages wrote, one a line. */
const pidsIn = (file: string): number[] =>
  fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim().split('\n').map(Number) : [];

/** Those still alive: not gone, and not a zombie no parent has reaped yet (killed, it is dead). */
function living(pids: number[]): number[] {
  return pids.filter((pid) => {
    try {
      return !/\) Z /.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
    } catch {
      return false;
    }
  });
}

/**
 * What the stages left alive, then killed (a test that failed before its stages ended leaves none
 * behind), the number of pids they wrote, and the driver's results.
 */
function stagesOutcome(r: SpawnSyncReturns<string>, pidsFile: string): unknown {
  const pids = pidsIn(pidsFile);
  const alive = living(pids);
  for (const pid of pids)
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone, as it should be
    }
  try {
    return { alive, count: pids.length, results: JSON.parse(r.stderr) as unknown };
  } catch {
    throw new Error(
      `the stages' driver gave no answer (signal ${r.signal}): ${r.stdout.slice(-2000)} ${r.stderr.slice(-2000)}`,
    );
  }
}

test("npm test's stages have a time bound: a stage past it is stopped with its whole process group (SIGINT, Playwright's own stop; SIGKILL when that is ignored) and fails with a line naming it, whatever its exit code; a stage that exits is not held by what it left holding its output, nor outlived by it, and its output is printed whole; a stage within its bound is untouched; niced stages started together each get autogroup nice 19 (scripts/stage.mjs)", () => {
  const dir = tempDir('stages');
  const file = (name: string) => JSON.stringify(path.join(dir, name));
  // Each stage writes the pids of what it starts; none may be alive once the stages ended.
  const child = (code: string, stdio: string) =>
    `const c = require("child_process").spawn(process.execPath, ["-e", ${JSON.stringify(code)}], { stdio: "${stdio}" });` +
    `require("fs").appendFileSync(${file('pids')}, c.pid + "\\n");`;
  const HANG = 'setInterval(() => {}, 1000);';
  const DEAF = 'process.on("SIGINT", () => {});';
  // Read after a second: the writes of a user who is not root are queued 110 ms apart.
  const niced = (n: number) =>
    `setTimeout(() => { let g = "none"; try { g = require("fs").readFileSync("/proc/self/autogroup", "utf8"); } catch {} require("fs").writeFileSync(${file(`autogroup-${n}`)}, g); }, 1000);`;
  // [name, node -e code, bound s, foreground, niced]
  const stages: [string, string, number, boolean, boolean?][] = [
    ['quick', 'process.stdout.write("done")', 30, false],
    ['hangs', HANG, 1, false],
    ['ignores SIGINT', DEAF + HANG, 1, false],
    ['exits 0 on SIGINT', 'process.on("SIGINT", () => process.exit(0));' + HANG, 1, false],
    // Its worker, in its group, is told too (the SIGINT reaches the group, not the leader alone).
    [
      'a runner whose worker ignores SIGINT',
      DEAF +
        child(
          `process.on("SIGINT", () => require("fs").writeFileSync(${file('worker-sigint')}, "")); setInterval(() => {}, 1000);`,
          'ignore',
        ) +
        HANG,
      1,
      false,
    ],
    ['exits at once, its child holding its output', child(HANG, 'inherit') + 'process.exit(0);', 30, false],
    ['in the foreground, hangs', HANG, 1, true],
    [
      'writes 200 KB, then its last line, and fails',
      'process.stdout.write("x".repeat(200000) + "\\nLAST LINE\\n"); process.exitCode = 1;',
      30,
      false,
    ],
    // Its own session is weighed as one by Linux's autogroups, whatever nice says inside it; the
    // kernel takes one write a 100 ms from a user who is not root.
    ...[1, 2, 3, 4].map((n): [string, string, number, boolean, boolean] => [
      `niced ${n}`,
      niced(n),
      30,
      false,
      true,
    ]),
  ];
  const r = spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `const { runStage, stageLine } = await import(${JSON.stringify(path.join(ROOT, 'scripts', 'stage.mjs'))});` +
        `const runs = ${JSON.stringify(stages)}.map(([name, code, limitS, foreground, nice]) =>` +
        `  runStage([name, [process.execPath, '-e', code], { limitS, nice: !!nice }], { root: process.cwd(), foreground, graceMs: 500 }));` +
        `const results = await Promise.all(runs.map((run) => run.ended));` +
        `for (const run of runs) await run.report();` +
        // Time for the SIGKILLs to land before the pids are looked at.
        `await new Promise((r) => setTimeout(r, 300));` +
        `process.stderr.write(JSON.stringify(results.map((r) => ({ ...r, s: undefined, line: stageLine(r).replace(/\\(\\d+\\.\\d s/, '(N s'), within: Number(r.s) < 8 }))));` +
        // As scripts/test.mjs ends.
        `process.exit(0);`,
    ],
    { encoding: 'utf8', timeout: 30_000 },
  );
  const out = stagesOutcome(r, path.join(dir, 'pids'));
  const stopped = (name: string) => ({
    name,
    code: 1,
    timedOut: 1,
    line: `❌ ${name} (N s, stopped at its bound of 1 s)`,
    within: true,
  });
  const passed = (name: string) => ({ name, code: 0, line: `✅ ${name} (N s)`, within: true });
  expect(out).toEqual({
    alive: [],
    count: 2,
    results: [
      passed('quick'),
      stopped('hangs'),
      stopped('ignores SIGINT'),
      // A stop is a failure, whatever the stopped process says.
      stopped('exits 0 on SIGINT'),
      stopped('a runner whose worker ignores SIGINT'),
      passed('exits at once, its child holding its output'),
      stopped('in the foreground, hangs'),
      {
        name: 'writes 200 KB, then its last line, and fails',
        code: 1,
        line: '❌ writes 200 KB, then its last line, and fails (N s)',
        within: true,
      },
      ...[1, 2, 3, 4].map((n) => passed(`niced ${n}`)),
    ],
  });
  expect(fs.existsSync(path.join(dir, 'worker-sigint'))).toBe(true);
  expect([1, 2, 3, 4].map((n) => fs.readFileSync(path.join(dir, `autogroup-${n}`), 'utf8'))).toEqual(
    [1, 2, 3, 4].map(() => expect.stringMatching(AUTOGROUP)),
  );
  // `within`: under 8 s (a bound of 1 s, a grace of 0.5 s, 3 s for the output of one that exited),
  // not the 20 s a left child holds the pipe. The foreground stage says so where its output goes;
  // a background stage's output is printed whole when it is reported.
  expect(r.stdout).toContain('=== in the foreground, hangs: still running after its bound of 1 s: stopped');
  expect(r.stdout).toMatch(/x{200000}\nLAST LINE\n/);
});

/** runAll over three waiting stages (one in the background), stopped by `signal` sent to its process alone. */
async function stoppedRunAll(signal: NodeJS.Signals): Promise<unknown> {
  const dir = tempDir('run-all');
  const pidsFile = path.join(dir, 'pids');
  // Each stage records its pid and what it was sent, then waits.
  const stage = (name: string) => [
    name,
    [
      process.execPath,
      '-e',
      `const fs = require("fs"); fs.appendFileSync(${JSON.stringify(pidsFile)}, process.pid + "\\n");` +
        `for (const s of ["SIGINT", "SIGTERM"]) process.on(s, () => { fs.writeFileSync(${JSON.stringify(dir)} + "/${name}-" + s, ""); process.exit(1); });` +
        'setInterval(() => {}, 1000);',
    ],
    { limitS: 60, nice: false },
  ];
  const { code, stdout } = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
    const child = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const { runAll } = await import(${JSON.stringify(path.join(ROOT, 'scripts', 'stage.mjs'))});` +
          `process.exit(await runAll(${JSON.stringify([stage('check')])}, ${JSON.stringify([stage('tests'), stage('later')])}, { root: process.cwd() }));`,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    // Once both running stages have started, the signal goes to the driver alone.
    const poll = setInterval(() => {
      if (pidsIn(pidsFile).length >= 2) {
        clearInterval(poll);
        child.kill(signal);
      }
    }, 50);
    child.on('close', (c) => resolve({ code: c, stdout: out }));
  });
  const alive = living(pidsIn(pidsFile));
  return {
    code,
    summary: stdout.slice(stdout.indexOf('=== npm test summary')).replace(/\d+\.\d s/g, 'N s'),
    told: fs
      .readdirSync(dir)
      .filter((f) => f.includes('-SIG'))
      .sort(),
    alive,
  };
}

test("npm test stopped by a SIGINT or a SIGTERM of its own process (its stages are out of its group's reach) stops every running stage as Ctrl-C does, starts no more, says which, and exits 128 + the signal's number; nothing of its stages is left (scripts/stage.mjs runAll)", async () => {
  const expected = (signal: string, code: number) => ({
    code,
    summary: [
      '=== npm test summary',
      `❌ check (N s, stopped by ${signal})`,
      `❌ tests (N s, stopped by ${signal})`,
      `❌ later (not run: ${signal})`,
      `0 passed, 3 failed (N s), stopped by ${signal}`,
      '',
    ].join('\n'),
    // Stopped as Ctrl-C stops them: a SIGTERM would end Playwright's runner at once.
    told: ['check-SIGINT', 'tests-SIGINT'],
    alive: [],
  });
  expect([await stoppedRunAll('SIGINT'), await stoppedRunAll('SIGTERM')]).toEqual([
    expected('SIGINT', 130),
    expected('SIGTERM', 143),
  ]);
});

test("a self-test worker that ends (npm test's bound or a Ctrl-C stopped the self-tests) takes the invocations it was running with it, each in its process group out of the stop's reach (tests/selftest/harness.ts)", async () => {
  test.setTimeout(60_000);
  const dir = tempDir('harness-exit');
  const pidsFile = path.join(dir, 'pids');
  const name = `harness-exit-${process.pid}`;
  // A self-test whose invocation never ends: its shell and the shell's child write their pids.
  fs.writeFileSync(
    path.join(dir, 'held.spec.ts'),
    [
      `import { runSuite, test } from ${JSON.stringify(path.join(ROOT, 'tests', 'selftest', 'harness'))};`,
      `test('held', async () => {`,
      `  await runSuite({ name: ${JSON.stringify(name)}, command: ['bash', '-c', ${JSON.stringify(`echo $$ >> ${pidsFile}; sleep 600 & echo $! >> ${pidsFile}; wait`)}], timeoutMs: 600_000 });`,
      `});`,
    ].join('\n'),
  );
  fs.writeFileSync(
    path.join(dir, 'playwright.config.ts'),
    "export default { testDir: '.', workers: 1, reporter: 'line', timeout: 600_000 };\n",
  );
  const cli = path.join(ROOT, 'node_modules', '@playwright', 'test', 'cli.js');
  const runner = spawn(process.execPath, [cli, 'test', '-c', dir], {
    cwd: ROOT,
    env: { ...env, L1_SELFTEST_DEMO_PORT: String(await freeTriple(5620)), FORCE_COLOR: '0' },
    detached: true,
  });
  let out = '';
  runner.stdout.on('data', (d: Buffer) => (out += d.toString()));
  runner.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const closed = new Promise<number | null>((resolve) => runner.on('close', resolve));
  try {
    await expect.poll(() => pidsIn(pidsFile).length, { timeout: 30_000 }).toBe(2);
    // Ctrl-C at a terminal: SIGINT to the runner's group, its worker in it; the invocation's is apart.
    process.kill(-runner.pid!, 'SIGINT');
    // Bounded: a runner that ignored the stop fails the test here, and `finally` kills what it left.
    const ended = await Promise.race([
      closed.then(() => true),
      new Promise<false>((resolve) => setTimeout(() => resolve(false), 30_000)),
    ]);
    expect(ended, `the runner did not end within 30 s of its SIGINT: ${out.slice(-1000)}`).toBe(true);
    await expect.poll(() => living(pidsIn(pidsFile)), { timeout: 5_000, message: out }).toEqual([]);
  } finally {
    for (const pid of [runner.pid!, ...pidsIn(pidsFile)])
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // gone, as it should be
      }
    for (const d of [path.join(ROOT, 'selftest-results', name), path.join(ROOT, '.l1', 'selftest', name)])
      fs.rmSync(d, { recursive: true, force: true });
  }
});
