import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from './test-type';
import { ROOT, tsScript } from '../../lib/run/settings';
import { tempDir } from './fakes/temp';
import { nightResult } from '../../lib/report/night-result';

/**
 * The nightly job's scripts (README.md § Run it nightly in CI, .github/workflows/l1-regression.yml),
 * each where a static review of the workflow found it would fail on GitHub's runners (CI review of
 * 2026-11-27). The whole sequence runs in tests/selftest/shards.spec.ts (scripts/ci/local-pipeline.sh).
 */

/** A copy of `scripts` of scripts/ci/ in a folder with no node_modules, as a fresh runner's checkout before setup. */
function bareCheckout(...scripts: string[]): string {
  const dir = tempDir('ci-bare');
  fs.mkdirSync(path.join(dir, 'scripts', 'ci'), { recursive: true });
  for (const s of scripts)
    fs.copyFileSync(path.join(ROOT, 'scripts', 'ci', s), path.join(dir, 'scripts', 'ci', s));
  return dir;
}

test('workflow lint: a job that runs a project script before its setup (npm ci) is refused, naming the job and the line', () => {
  const workflow = (steps: string[]) =>
    [
      'on: push',
      'jobs:',
      '  shard:',
      '    runs-on: ubuntu-latest',
      '    steps:',
      ...steps.map((s) => `      - run: bash scripts/ci/${s}`),
    ].join('\n');
  const problems = (text: string): string[] =>
    JSON.parse(
      spawnSync(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `const { projectRules } = await import(${JSON.stringify(path.join(ROOT, 'scripts', 'lint-workflows.mjs'))});` +
            `process.stdout.write(JSON.stringify(projectRules(${JSON.stringify(path.join(ROOT, '.github', 'workflows', 'w.yml'))}, ${JSON.stringify(text)})));`,
        ],
        { encoding: 'utf8' },
      ).stdout,
    ) as string[];
  // The masking step first, as the workflow had it: every night would have failed there.
  expect(problems(workflow(['playwright-version.sh', 'mask.sh', 'setup.sh', 'shard.sh 1 2']))).toEqual([
    '.github/workflows/w.yml:7: job shard runs scripts/ci/mask.sh before scripts/ci/setup.sh: it needs the packages (npm ci), which a fresh runner has only after setup',
  ]);
  // Near miss: what reads files only may come first; a job with no setup is not judged by it.
  expect(problems(workflow(['playwright-version.sh', 'setup.sh', 'mask.sh', 'shard.sh 1 2']))).toEqual([]);
  expect(problems(workflow(['plan.sh 3']))).toEqual([]);
});

test('finish.sh without node_modules (the job setup failed) exits 3, never Node\'s 1, which reads as "some item failed"', () => {
  const dir = bareCheckout('finish.sh');
  const r = spawnSync('bash', [path.join(dir, 'scripts', 'ci', 'finish.sh'), 'reports'], {
    encoding: 'utf8',
  });
  expect(r.status).toBe(3);
  expect(r.stderr).toContain("no node_modules (the job's setup failed) (exit 3)");
});

/** This environment without the workflow's outcomes, which scripts/ci/finish.ts reads. */
const withoutOutcomes = () =>
  Object.fromEntries(
    Object.entries(process.env).filter(
      ([k]) => !['SHARDS_RESULT', 'MERGE_OUTCOME', 'GUARD_OUTCOME'].includes(k),
    ),
  );

/**
 * What scripts/ci/finish.ts OUT_DIR exits with and prints, given the workflow's outcomes `env`:
 * the function it runs (lib/report/night-result.ts), as the script calls it.
 */
const finishOf = (out: string) => (env: Record<string, string>) => {
  const r = nightResult(out, path.join(out, 'shards'), env);
  const of = (to: 'stdout' | 'stderr') =>
    r.lines
      .filter((l) => l.to === to)
      .map((l) => l.text)
      .join('');
  return { status: r.code, stdout: of('stdout'), stderr: of('stderr') };
};

test('finish.ts: a shard job cancelled (past its own time) counts as failed, 3; success or no value is not', () => {
  const out = tempDir('ci-finish');
  fs.writeFileSync(path.join(out, 'merge-exit-code'), '0\n');
  // The script itself once (its folders, its environment, its exit code and lines), the rest through
  // the function it runs: each case was a tsx process of its own (docs/speed-log.md).
  const script = (env: Record<string, string>) =>
    spawnSync(...tsScript(path.join(ROOT, 'scripts', 'ci', 'finish.ts'), [out]), {
      encoding: 'utf8',
      env: { ...withoutOutcomes(), ...env },
    });
  const cancelled = script({
    SHARDS_RESULT: 'cancelled',
    MERGE_OUTCOME: 'success',
    GUARD_OUTCOME: 'success',
  });
  expect(cancelled.status, cancelled.stderr).toBe(3);
  expect(cancelled.stdout).toContain('failed: a shard job');
  const finish = finishOf(out);
  expect(
    finish({ SHARDS_RESULT: 'success', MERGE_OUTCOME: 'success', GUARD_OUTCOME: 'success' }).status,
  ).toBe(0);
  expect(finish({}).status).toBe(0);
  // A shard whose checks were killed wrote no exit code: its job failed for that, named as such.
  fs.mkdirSync(path.join(out, 'shards', 'shard-2'), { recursive: true });
  const killed = finish({ SHARDS_RESULT: 'failure', MERGE_OUTCOME: 'success', GUARD_OUTCOME: 'success' });
  expect(killed.status).toBe(3);
  expect(killed.stdout).toContain(
    'failed: a shard job (shard-2: its checks were killed or timed out, no exit code recorded)',
  ); // By hand (local-pipeline.sh: no workflow outcomes), the same shard fails the night the same way:
  // it passed, 0, on the merge's code alone (review 58).
  const byHand = finish({});
  expect(byHand.status).toBe(3);
  expect(byHand.stdout).toContain(
    'failed: a shard job (shard-2: its checks were killed or timed out, no exit code recorded)',
  );
});

test("finish.ts: with every job a success the night's code is the merge's (0, 1, 2); with no merge code it is 3, the checks alone 2 (README.md § Run it nightly in CI)", () => {
  const out = tempDir('ci-finish');
  const ok = { SHARDS_RESULT: 'success', MERGE_OUTCOME: 'success', GUARD_OUTCOME: 'success' };
  const finish = finishOf(out);
  for (const code of [0, 1, 2]) {
    fs.writeFileSync(path.join(out, 'merge-exit-code'), `${code}\n`);
    expect(finish(ok).status, `merge-exit-code ${code}`).toBe(code);
  }
  // A step that did not run has an empty outcome: not a failure.
  expect(finish({ ...ok, GUARD_OUTCOME: '' }).status).toBe(2);
  // An empty code is none recorded (the shell truncates the file before `echo` writes it: a merge
  // killed between, or a full disk), never Number('') = 0, a night that passes.
  fs.writeFileSync(path.join(out, 'merge-exit-code'), '\n');
  const empty = finish(ok);
  expect(empty.status).toBe(3);
  expect(empty.stderr).toContain('the merge did not run to its end');
  fs.rmSync(path.join(out, 'merge-exit-code'));
  const unmerged = finish(ok);
  expect(unmerged.status).toBe(3);
  expect(unmerged.stdout).toContain('failed: the reports; the checks alone would exit 2');
  // The script itself, its two streams in one log as a CI job shows them: each shard's line, then
  // the merge's missing code, then the result (the order of the script before nightResult).
  fs.mkdirSync(path.join(out, 'shards', '1'), { recursive: true });
  fs.writeFileSync(path.join(out, 'shards', '1', 'exit-code'), '0\n');
  const log = path.join(out, 'finish.log');
  const fd = fs.openSync(log, 'w');
  const script = spawnSync(...tsScript(path.join(ROOT, 'scripts', 'ci', 'finish.ts'), [out]), {
    env: { ...withoutOutcomes(), ...ok },
    stdio: ['ignore', fd, fd],
  });
  fs.closeSync(fd);
  const logged = fs.readFileSync(log, 'utf8');
  expect(script.status, logged).toBe(3);
  expect(logged.split('\n').map((l) => l.split(':')[0])).toEqual(['shard 1', 'finish', 'result', '']);
});

test("finish.ts: a night whose verdicts all pass but where a shard's Playwright failed exits 1, as the main job does, never 0 (one rule: lib/report/night.ts jobExitCode)", () => {
  const out = tempDir('ci-finish');
  const ok = { SHARDS_RESULT: 'success', MERGE_OUTCOME: 'success', GUARD_OUTCOME: 'success' };
  fs.writeFileSync(path.join(out, 'merge-exit-code'), '0\n');
  for (const [shard, code] of [
    ['1', '0'],
    ['2', '1'],
  ] as const) {
    fs.mkdirSync(path.join(out, 'shards', shard), { recursive: true });
    fs.writeFileSync(path.join(out, 'shards', shard, 'exit-code'), `${code}\n`);
  }
  const finish = () => finishOf(out)(ok);
  const failed = finish();
  expect(failed.status, failed.stdout + failed.stderr).toBe(1);
  expect(failed.stdout).toContain('every verdict passes, but Playwright failed a shard (2: 1:');
  // The same verdicts with every shard's Playwright passing: 0.
  fs.writeFileSync(path.join(out, 'shards', '2', 'exit-code'), '0\n');
  expect(finish().status).toBe(0);
});

test("finish.ts: a shard's empty exit-code is no code recorded, as the merge's is: its killed checks named, never Playwright's failure of a code ''", () => {
  // shard.sh writes it as merge.sh does (echo "$code" >file, which the shell empties first): a
  // shard killed in between, or a full disk, leaves it empty (review 58 of eca50db).
  const out = tempDir('ci-finish');
  fs.writeFileSync(path.join(out, 'merge-exit-code'), '0\n');
  fs.mkdirSync(path.join(out, 'shards', '1'), { recursive: true });
  fs.writeFileSync(path.join(out, 'shards', '1', 'exit-code'), '\n');
  const killed = finishOf(out)({
    SHARDS_RESULT: 'failure',
    MERGE_OUTCOME: 'success',
    GUARD_OUTCOME: 'success',
  });
  expect(killed.status).toBe(3);
  expect(killed.stdout).toContain('shard 1: no exit code recorded');
  expect(killed.stdout).toContain(
    'failed: a shard job (1: its checks were killed or timed out, no exit code recorded)',
  );
  const byHand = finishOf(out)({});
  expect(byHand.status).toBe(3);
  expect(byHand.stdout).not.toContain('playwright exit code');
  expect(byHand.stdout).not.toContain('Playwright failed');
});

/**
 * The `::add-mask::` lines scripts/ci/mask.ts prints in GitHub Actions for a registry given as
 * L1_CREDENTIALS_JSON, with no L1_* of this shell (a blank L1_CREDENTIALS_FILE would not hide one in
 * .env: README.md § Settings); it must exit 0.
 */
function maskLines(registry: unknown): string[] {
  const r = spawnSync(...tsScript(path.join(ROOT, 'scripts', 'ci', 'mask.ts')), {
    encoding: 'utf8',
    env: {
      ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('L1_'))),
      GITHUB_ACTIONS: 'true',
      L1_CREDENTIALS_JSON: JSON.stringify(registry),
    },
  });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout.split('\n').filter((l) => l.startsWith('::add-mask::'));
}

test('mask.ts writes each value as workflow command data: %, CR and LF escaped, so the runner masks the value itself', () => {
  // Not a credential of anyone: a phone-shaped number and a password with a % and a newline.
  const registry = { companies: { '1001': { phone: '13800000000', password: 'a%b\nc' } } };
  const masked = maskLines(registry);
  // As written, URL-encoded (a%25b%0Ac) and JSON-escaped (a%b\nc), each escaped once more.
  expect(masked).toContain('::add-mask::a%25b%0Ac');
  expect(masked).toContain('::add-mask::a%2525b%250Ac');
  expect(masked).toContain('::add-mask::a%25b\\nc');
  expect(masked.every((l) => !/\r/.test(l))).toBe(true);
});

test('mask.ts masks every text form of a value the redaction guard looks for: a phone spaced and dashed, a password form-encoded and HTML-escaped (leak audit of 2026-11-28)', () => {
  // Not a credential of anyone: a phone-shaped number and a password with a space and an ampersand.
  const [a, b, c] = ['138', '0000', '0000'];
  const registry = { companies: { '1001': { phone: [a, b, c].join(''), password: 'x y&z' } } };
  const masked = maskLines(registry);
  // As workflow command data: the form-encoded x+y%26z is written x+y%2526z.
  expect(masked).toEqual(
    expect.arrayContaining(
      [[a, b, c].join(' '), [a, b, c].join('-'), 'x+y%2526z', 'x y&amp;z'].map((v) => `::add-mask::${v}`),
    ),
  );
});

test('shard.sh stops the checks itself at L1_SHARD_MINUTES (Playwright --global-timeout), and refuses a value that is not whole minutes or past what a timer can wait', () => {
  // No node_modules here: the command line is printed, then Playwright cannot start (its code recorded).
  const dir = bareCheckout('shard.sh');
  const shard = (minutes: string) =>
    spawnSync('bash', [path.join(dir, 'scripts', 'ci', 'shard.sh'), '1', '2'], {
      encoding: 'utf8',
      env: { ...process.env, L1_SHARD_MINUTES: minutes, L1_SHARDS_DIR: path.join(dir, 'shards') },
    });
  const timed = shard('70');
  expect(timed.stdout).toContain('npx playwright test --shard 1/2 --global-timeout 4200000');
  expect(fs.existsSync(path.join(dir, 'shards', '1', 'exit-code'))).toBe(true);
  const bad = shard('70m');
  expect(bad.status).toBe(2);
  expect(bad.stderr).toContain('L1_SHARD_MINUTES must be a whole number of minutes, got: 70m');
  expect(shard('').stdout).not.toContain('--global-timeout');
  // Past 2^31 - 1 ms a Node timer fires at once: the longest deadline that is one, and none past it
  // (99999 minutes, "no limit", stopped every check at once; time audit of 2026-11-28).
  expect(shard('35791').stdout).toContain('--global-timeout 2147460000');
  for (const huge of ['35792', '99999', '99999999999999999999']) {
    const refused = shard(huge);
    expect(refused.status, huge).toBe(2);
    expect(refused.stderr).toContain(`L1_SHARD_MINUTES must be at most 35791`);
  }
});

test('shard.sh passes a signal sent to it alone on as it came: SIGTERM as SIGTERM (a scheduler, `timeout`: the verdicts say SIGTERM), SIGINT as SIGINT', async () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    const dir = bareCheckout('shard.sh');
    // A stand-in for Playwright's runner that says which signal reached it (Node, as the runner is:
    // a background job of a script starts with SIGINT ignored, which Node's handlers override).
    const got = path.join(dir, 'signal');
    const bin = path.join(dir, 'node_modules', '.bin');
    fs.mkdirSync(bin, { recursive: true });
    fs.writeFileSync(
      path.join(bin, 'playwright'),
      [
        '#!/usr/bin/env node',
        "const fs = require('node:fs');",
        `for (const s of ['SIGTERM', 'SIGINT']) process.on(s, () => { fs.writeFileSync(${JSON.stringify(got)}, s.slice(3)); process.exit(130); });`,
        `fs.writeFileSync(${JSON.stringify(`${got}.started`)}, '');`,
        'setInterval(() => {}, 1000);',
      ].join('\n'),
      { mode: 0o755 },
    );
    const child = spawn('bash', [path.join(dir, 'scripts', 'ci', 'shard.sh'), '1', '2'], {
      env: { ...process.env, L1_SHARDS_DIR: path.join(dir, 'shards') },
      stdio: 'ignore',
    });
    const ended = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    await expect.poll(() => fs.existsSync(`${got}.started`), { timeout: 10_000 }).toBe(true);
    child.kill(signal);
    expect(await ended).toBe(0);
    expect(fs.readFileSync(got, 'utf8').trim()).toBe(signal.slice(3));
    expect(fs.readFileSync(path.join(dir, 'shards', '1', 'exit-code'), 'utf8').trim()).toBe('130');
  }
});

test("headless-shell.sh finds Playwright's headless shell in the folder Playwright names for it, and prints nothing without one (setup.sh then takes the full browser)", () => {
  const browsers = tempDir('ci-browsers');
  const find = () =>
    spawnSync('bash', [path.join(ROOT, 'scripts', 'ci', 'headless-shell.sh')], {
      encoding: 'utf8',
      env: { ...process.env, PLAYWRIGHT_BROWSERS_PATH: browsers },
    });
  expect(find().stdout).toBe('');
  // Where `playwright install chromium` puts it: the folder of its revision (playwright-core's
  // browsers.json, which `install --dry-run` reads too).
  const { browsers: list } = JSON.parse(
    fs.readFileSync(path.join(ROOT, 'node_modules', 'playwright-core', 'browsers.json'), 'utf8'),
  ) as { browsers: { name: string; revision: string }[] };
  const revision = list.find((b) => b.name === 'chromium-headless-shell')!.revision;
  const folder = path.join(browsers, `chromium_headless_shell-${revision}`);
  const exe = path.join(folder, 'chrome-headless-shell-linux64', 'chrome-headless-shell');
  fs.mkdirSync(path.dirname(exe), { recursive: true });
  fs.writeFileSync(exe, '#!/bin/sh\n', { mode: 0o755 });
  expect(find().stdout.trim()).toBe(exe);
});

test("finish.ts: the headline of a night's 3 names what a CI night can fail on, a shard job too, never 'the report or the redaction guard' for a shard whose checks were killed (README audit 59b)", () => {
  const out = tempDir('ci-finish');
  fs.writeFileSync(path.join(out, 'merge-exit-code'), '0\n');
  fs.mkdirSync(path.join(out, 'shards', '2'), { recursive: true });
  const ok = { SHARDS_RESULT: 'success', MERGE_OUTCOME: 'success', GUARD_OUTCOME: 'success' };
  const killed = finishOf(out)(ok);
  expect(killed.status).toBe(3);
  expect(killed.stdout).toContain(
    'result: a shard job, the reports or the redaction guard failed (this wins over 2 and 1) (exit 3): failed: a shard job (2: ',
  );
  expect(killed.stdout).not.toContain('the report or the redaction guard failed');
  const leak = finishOf(tempDir('ci-finish'))({ ...ok, GUARD_OUTCOME: 'failure' });
  expect(leak.status).toBe(3);
  expect(leak.stdout).toContain('failed: the reports, the redaction guard;');
});
