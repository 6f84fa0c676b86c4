import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from './test-type';
import { ROOT, tsScript } from '../../lib/run/settings';
import { tempDir } from './fakes/temp';
import { tsEval } from './fakes/ts-eval';

/**
 * scripts/run-ts.cjs, how the project starts its TypeScript scripts (lib/run/settings.ts
 * `tsScript`, package.json, scripts/ci/): from one esbuild bundle of each, built again whenever a
 * source changed. Each test runs it in a folder of its own, laid out as the project (its own
 * scripts/run-ts.cjs, tsconfig.json, and the project's packages), so no bundle of the project is
 * touched while other tests start them.
 */

/** A folder laid out as the project, with `files` (path → text) in it. */
function projectWith(files: Record<string, string>): string {
  const root = fs.realpathSync(tempDir('run-ts'));
  fs.mkdirSync(path.join(root, 'scripts'));
  fs.copyFileSync(path.join(ROOT, 'scripts', 'run-ts.cjs'), path.join(root, 'scripts', 'run-ts.cjs'));
  fs.copyFileSync(path.join(ROOT, 'tsconfig.json'), path.join(root, 'tsconfig.json'));
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(root, 'node_modules'));
  write(root, files);
  return root;
}

function write(root: string, files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
}

/** A source file's text: its lines, each ended by a newline. */
function source(...lines: string[]): string {
  return [...lines, ''].join('\n');
}

/** The runner's environment without FORCE_COLOR, which colours the paths of Node's stack traces. */
const plain = Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'FORCE_COLOR'));

/** `node scripts/run-ts.cjs SCRIPT ARG…` in `root`, as package.json starts a script. */
function start(root: string, script: string, args: string[] = []) {
  return spawnSync(process.execPath, [path.join(root, 'scripts', 'run-ts.cjs'), script, ...args], {
    cwd: root,
    encoding: 'utf8',
    env: plain,
  });
}

/** The bundle's file as it is: its inode and modification time say whether it was written again. */
function stamp(root: string, script: string): string {
  const s = fs.statSync(path.join(root, '.l1', 'build', `${script}.cjs`));
  return `${s.ino}:${s.mtimeMs}`;
}

/** A script that prints what it was given and what its modules see of their own places. */
const SHOW = {
  'scripts/show.ts': source(
    "import { where } from '../lib/deep/where';",
    'console.log(JSON.stringify({ argv: process.argv.slice(1), dir: __dirname, file: __filename, lib: where() }));',
    'process.exitCode = 3;',
  ),
  'lib/deep/where.ts': "export const where = (): string[] => [__dirname, __filename, 'one'];\n",
};

test('a script runs from its bundle with its arguments, each module with its own __dirname and __filename; its exit code is its own', () => {
  const root = projectWith(SHOW);
  const r = start(root, 'scripts/show.ts', ['--out', 'x y']);
  expect(r.stderr).toBe('');
  expect(r.status).toBe(3);
  expect(JSON.parse(r.stdout)).toEqual({
    argv: [path.join(root, 'scripts', 'show.ts'), '--out', 'x y'],
    dir: path.join(root, 'scripts'),
    file: path.join(root, 'scripts', 'show.ts'),
    lib: [path.join(root, 'lib', 'deep'), path.join(root, 'lib', 'deep', 'where.ts'), 'one'],
  });
  expect(fs.existsSync(path.join(root, '.l1', 'build', 'scripts', 'show.ts.cjs'))).toBe(true);
});

test('a bundle is never run stale: a changed, added or removed source is built again before the start; unchanged, it is not written again', () => {
  const root = projectWith(SHOW);
  const first = start(root, 'scripts/show.ts');
  expect(JSON.parse(first.stdout).lib[2]).toBe('one');
  const built = stamp(root, 'scripts/show.ts');
  expect(JSON.parse(start(root, 'scripts/show.ts').stdout).lib[2]).toBe('one');
  expect(stamp(root, 'scripts/show.ts')).toBe(built);
  // An imported module changed, with the same length (a stamp of size and time would need the time).
  write(root, { 'lib/deep/where.ts': SHOW['lib/deep/where.ts'].replace("'one'", "'two'") });
  expect(JSON.parse(start(root, 'scripts/show.ts').stdout).lib[2]).toBe('two');
  // A new module imported; then that module changed.
  write(root, {
    'lib/deep/where.ts': "export { where } from './other';\n",
    'lib/deep/other.ts': "export const where = (): string[] => ['', '', 'three'];\n",
  });
  expect(JSON.parse(start(root, 'scripts/show.ts').stdout).lib[2]).toBe('three');
  write(root, { 'lib/deep/other.ts': "export const where = (): string[] => ['', '', 'four'];\n" });
  expect(JSON.parse(start(root, 'scripts/show.ts').stdout).lib[2]).toBe('four');
  // A source of the bundle removed: built again, and esbuild names what is missing.
  fs.rmSync(path.join(root, 'lib', 'deep', 'other.ts'));
  const gone = start(root, 'scripts/show.ts');
  expect(gone.status).toBe(1);
  expect(gone.stderr).toContain('run-ts: cannot build scripts/show.ts:');
  expect(gone.stderr).toContain('lib/deep/where.ts:1:');
  expect(gone.stdout).toBe('');
});

test('a bundle whose first line names no source, or none at all, is built again, never run as fresh (a manifest cut short or edited by hand)', () => {
  const root = projectWith(SHOW);
  start(root, 'scripts/show.ts');
  const bundle = path.join(root, '.l1', 'build', 'scripts', 'show.ts.cjs');
  const [first, ...rest] = fs.readFileSync(bundle, 'utf8').split('\n');
  const manifest = JSON.parse(first!.replace('// l1-bundle ', '')) as { inputs?: unknown };
  const reruns = (inputs: unknown) => {
    fs.writeFileSync(bundle, [`// l1-bundle ${JSON.stringify({ ...manifest, inputs })}`, ...rest].join('\n'));
    const built = stamp(root, 'scripts/show.ts');
    const r = start(root, 'scripts/show.ts');
    return [r.status, r.stderr, stamp(root, 'scripts/show.ts') !== built];
  };
  expect(reruns({})).toEqual([3, '', true]);
  expect(reruns(undefined)).toEqual([3, '', true]);
  // Near miss: the manifest as written, untouched, is fresh.
  expect(reruns(manifest.inputs)).toEqual([3, '', false]);
});

test("a stack trace names the script's TypeScript file and line, at the build's start and from the kept bundle", () => {
  const root = projectWith({
    'scripts/throws.ts': source(
      'const n: number = 1;',
      'function fail(): never {',
      "  throw new Error('boom');",
      '}',
      'if (n) fail();',
    ),
  });
  const expectTrace = () => {
    const r = start(root, 'scripts/throws.ts');
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('Error: boom');
    expect(r.stderr).toContain(`at fail (${path.join(root, 'scripts', 'throws.ts')}:3:9)`);
  };
  expectTrace();
  expectTrace();
});

test('a script that does not compile fails with its file, line and column (from 1, in characters), on its first line too, exit 1', () => {
  const root = projectWith({
    'scripts/first.ts': 'const x: number = ;\n',
    'scripts/later.ts': 'const a = 1;\nconsole.log(a +);\n',
    'scripts/wide.ts': "const s = '→ · …';\nconst t = '→→'; const y: number = ;\n",
    'scripts/wide-first.ts': "const s = '→ · …'; const y: number = ;\n",
  });
  const first = start(root, 'scripts/first.ts');
  expect(first.status).toBe(1);
  expect(first.stderr).toBe(
    'run-ts: cannot build scripts/first.ts:\n  scripts/first.ts:1:19: Unexpected ";"\n',
  );
  const later = start(root, 'scripts/later.ts');
  expect(later.status).toBe(1);
  expect(later.stderr).toBe(
    'run-ts: cannot build scripts/later.ts:\n  scripts/later.ts:2:16: Unexpected ")"\n',
  );
  // Columns in characters, not bytes, on the first line and after it.
  expect(start(root, 'scripts/wide.ts').stderr).toBe(
    'run-ts: cannot build scripts/wide.ts:\n  scripts/wide.ts:2:35: Unexpected ";"\n',
  );
  expect(start(root, 'scripts/wide-first.ts').stderr).toContain('scripts/wide-first.ts:1:38: ');
  expect(fs.existsSync(path.join(root, '.l1', 'build', 'scripts', 'first.ts.cjs'))).toBe(false);
});

test('starts that build at once each run whole, and leave no half-written file, and no map apart from its bundle', async () => {
  const root = projectWith(SHOW);
  const runs = await Promise.all(
    Array.from(
      { length: 4 },
      () =>
        new Promise<{ code: number | null; out: string }>((resolve) => {
          const child = spawn(
            process.execPath,
            [path.join(root, 'scripts', 'run-ts.cjs'), 'scripts/show.ts'],
            {
              cwd: root,
              stdio: ['ignore', 'pipe', 'inherit'],
            },
          );
          let out = '';
          child.stdout.on('data', (d: Buffer) => (out += d.toString()));
          child.on('close', (code) => resolve({ code, out }));
        }),
    ),
  );
  expect(runs.map((r) => [r.code, JSON.parse(r.out).lib[2]])).toEqual(Array(4).fill([3, 'one']));
  // The map is in the bundle: one rename puts both in place, so two builds never pair one's map
  // with the other's code (review of 2026-11-28).
  expect(fs.readdirSync(path.join(root, '.l1', 'build', 'scripts'))).toEqual(['show.ts.cjs']);
  expect(fs.readFileSync(path.join(root, '.l1', 'build', 'scripts', 'show.ts.cjs'), 'utf8')).toMatch(
    /\n\/\/# sourceMappingURL=data:application\/json;base64,[A-Za-z0-9+/=]+\n$/,
  );
});

test("what a build killed between its write and its rename left beside the bundle is removed by the next build, and only when its process is gone (never a build's at work)", () => {
  const root = projectWith(SHOW);
  const dir = path.join(root, '.l1', 'build', 'scripts');
  fs.mkdirSync(dir, { recursive: true });
  // A process that is gone: a child that ran and ended.
  const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
    encoding: 'utf8',
  }).stdout;
  const dead = `show.ts.cjs.${gone}.0a1b2c3d.tmp`;
  const working = `show.ts.cjs.${process.pid}.0a1b2c3d.tmp`;
  const other = `other.ts.cjs.${gone}.0a1b2c3d.tmp`;
  for (const name of [dead, working, other]) fs.writeFileSync(path.join(dir, name), 'half');
  expect(start(root, 'scripts/show.ts').status).toBe(3);
  expect(fs.readdirSync(dir).sort()).toEqual([other, 'show.ts.cjs', working].sort());
});

test("a bundle that cannot be written (a file where .l1/build should be), said in one line, and a script outside the project run through tsx's hook", () => {
  const root = projectWith(SHOW);
  write(root, { '.l1/build': 'not a folder' });
  const r = start(root, 'scripts/show.ts', ['a']);
  // Said, with why: each such start builds and throws the bundle away.
  expect(r.stderr).toMatch(
    /^run-ts: no bundle for scripts\/show\.ts \(ENOTDIR: not a directory, [^\n]*\): it runs through tsx's hook\n$/,
  );
  expect(r.status).toBe(3);
  expect(JSON.parse(r.stdout).lib[2]).toBe('one');
  const outside = path.join(fs.realpathSync(tempDir('run-ts-outside')), 'solo.ts');
  fs.writeFileSync(outside, 'const n: number = 5;\nconsole.log(`solo ${n} ${process.argv[2]}`);\n');
  const o = start(root, outside, ['b']);
  expect(o.stderr).toBe('');
  expect(o.stdout).toBe('solo 5 b\n');
});

test("tsScript starts a project script through scripts/run-ts.cjs; a test's `-e` line goes through tsx's hook (tests/unit/fakes/ts-eval.ts)", () => {
  const [node, args] = tsScript('scripts/report.ts', ['--help']);
  expect([node, ...args]).toEqual([
    process.execPath,
    path.join(ROOT, 'scripts', 'run-ts.cjs'),
    'scripts/report.ts',
    '--help',
  ]);
  // A TypeScript module required from the line.
  const e = spawnSync(
    ...tsEval("console.log(String(require('./lib/util/calendar').realDate('2026-11-28')))"),
    {
      cwd: ROOT,
      encoding: 'utf8',
    },
  );
  expect(e.stderr).toBe('');
  expect(e.stdout).toBe('true\n');
});

/**
 * A preload that, right after the launcher first reads the bundle (whatever call it reads it
 * with), does what another start or a cleaner can do at that moment: renames an older build over
 * it (`RACE=FILE`) or removes .l1/build (`RACE=rm`).
 */
const RACE = source(
  "const fs = require('node:fs');",
  "const path = require('node:path');",
  "const bundle = path.join(process.cwd(), '.l1', 'build', 'scripts', 'show.ts.cjs');",
  'let done = false;',
  'const race = () => {',
  '  if (done) return;',
  '  done = true;',
  "  if (process.env.RACE === 'rm') return fs.rmSync(path.dirname(path.dirname(bundle)), { recursive: true });",
  "  fs.copyFileSync(process.env.RACE, bundle + '.t');",
  "  fs.renameSync(bundle + '.t', bundle);",
  '};',
  'const fds = new Set();',
  'const { openSync, closeSync, readFileSync } = fs;',
  'fs.openSync = (p, ...rest) => { const fd = openSync(p, ...rest); if (p === bundle) fds.add(fd); return fd; };',
  'fs.closeSync = (fd) => { closeSync(fd); if (fds.delete(fd)) race(); };',
  'fs.readFileSync = (p, ...rest) => { const r = readFileSync(p, ...rest); if (p === bundle) race(); return r; };',
);

test('what a start checks is what it runs: an older build renamed over the bundle, or .l1/build removed, after the check', () => {
  const root = projectWith(SHOW);
  start(root, 'scripts/show.ts');
  const older = path.join(root, 'older.cjs');
  fs.copyFileSync(path.join(root, '.l1', 'build', 'scripts', 'show.ts.cjs'), older);
  write(root, { 'lib/deep/where.ts': SHOW['lib/deep/where.ts'].replace("'one'", "'two'") });
  expect(JSON.parse(start(root, 'scripts/show.ts').stdout).lib[2]).toBe('two');
  write(root, { 'race.cjs': RACE });
  const raced = (race: string) =>
    spawnSync(
      process.execPath,
      ['--require', path.join(root, 'race.cjs'), path.join(root, 'scripts', 'run-ts.cjs'), 'scripts/show.ts'],
      { cwd: root, encoding: 'utf8', env: { ...plain, RACE: race } },
    );
  const renamed = raced(older);
  expect(renamed.stderr).toBe('');
  expect(JSON.parse(renamed.stdout).lib[2]).toBe('two');
  start(root, 'scripts/show.ts');
  const removed = raced('rm');
  expect(removed.stderr).toBe('');
  expect(removed.status).toBe(3);
  expect(JSON.parse(removed.stdout).lib[2]).toBe('two');
});

test('started from another working folder: a JSON source changed is built again, and a compile error names the file from the root, at its column', () => {
  const root = projectWith({
    'scripts/data.ts': "import data from '../lib/data.json';\nconsole.log(data.n);\n",
    'lib/data.json': '{ "n": 1 }\n',
    'scripts/first.ts': 'const x: number = ;\n',
  });
  const elsewhere = tempDir('run-ts-cwd');
  const away = (script: string) =>
    spawnSync(process.execPath, [path.join(root, 'scripts', 'run-ts.cjs'), path.join(root, script)], {
      cwd: elsewhere,
      encoding: 'utf8',
      env: plain,
    });
  expect(away('scripts/data.ts').stdout).toBe('1\n');
  write(root, { 'lib/data.json': '{ "n": 2 }\n' });
  expect(away('scripts/data.ts').stdout).toBe('2\n');
  const bad = away('scripts/first.ts');
  expect(bad.status).toBe(1);
  expect(bad.stderr).toBe(
    'run-ts: cannot build scripts/first.ts:\n  scripts/first.ts:1:19: Unexpected ";"\n',
  );
});

test('a bundle built by another version of the launcher (a checkout of another commit) is built again', () => {
  const root = projectWith(SHOW);
  start(root, 'scripts/show.ts');
  const built = stamp(root, 'scripts/show.ts');
  const launcher = path.join(root, 'scripts', 'run-ts.cjs');
  fs.writeFileSync(
    launcher,
    fs.readFileSync(launcher, 'utf8').replace("target: 'node20'", "target: 'node22'"),
  );
  const r = start(root, 'scripts/show.ts');
  expect(r.status).toBe(3);
  expect(stamp(root, 'scripts/show.ts')).not.toBe(built);
});

test("the start that builds leaves no esbuild service running beside the script (an 80-minute main job's process group, its stderr)", () => {
  const root = projectWith({
    'scripts/children.ts': source(
      "import { execFileSync } from 'node:child_process';",
      '// A moment into its run, as a script doing its work.',
      'setTimeout(() => {',
      "  const names = execFileSync('ps', ['-o', 'comm=', '--ppid', String(process.pid)], { encoding: 'utf8' });",
      "  console.log(JSON.stringify(names.split('\\n').filter((n) => n && n !== 'ps')));",
      '}, 300);',
    ),
  });
  const r = start(root, 'scripts/children.ts');
  expect(r.stderr).toBe('');
  expect(JSON.parse(r.stdout)).toEqual([]);
});

test("a script through tsx's hook is require.main, as `node --require tsx/cjs SCRIPT` made it: one guarded by `require.main === module` runs", () => {
  const root = projectWith({});
  const outside = path.join(fs.realpathSync(tempDir('run-ts-outside')), 'guarded.ts');
  fs.writeFileSync(
    outside,
    'const n: number = 1;\nif (require.main === module) console.log(`main ${n} ${process.argv[2]}`);\n',
  );
  const o = start(root, outside, ['b']);
  expect(o.stderr).toBe('');
  expect(o.stdout).toBe('main 1 b\n');
});
