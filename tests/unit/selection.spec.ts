import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from './test-type';
import { readTestArgv, selectionFromArgv, refusedCommandLine } from '../../lib/run/selection';
import {
  carryLastRun,
  lastFailedNoneFoundOf,
  lastFailedPlanOf,
  lastRunFile,
  lastRunSource,
  listingLastRun,
  nightOutputsProblem,
  outputDirFromArgv,
  readLastRun,
  raisedTimeoutNote,
  refusedAtLoad,
} from '../setup/cli';
import { tempDir } from './fakes/temp';
import { readSettings } from '../../lib/run/settings';

/** What an invocation selected, from the runner's command line (recorded in every verdict file). */

const argv = (...args: string[]) => ['/usr/bin/node', '/work/node_modules/.bin/playwright', 'test', ...args];

test.describe('selectionFromArgv', () => {
  test('no filter: complete, not a shard', () => {
    expect(selectionFromArgv(argv(), null)).toEqual({ filters: [], shard: null, complete: true });
  });

  test('--repeat-each N above 1 is an investigation, not a night (its repeats would be tests of their own in the history); 1 changes nothing', () => {
    expect(selectionFromArgv(argv('--repeat-each', '2'), null)).toEqual({
      filters: ['--repeat-each 2'],
      shard: null,
      complete: false,
    });
    expect(selectionFromArgv(argv('--repeat-each=3', '--grep', 'item5'), null).filters).toEqual([
      '--grep item5',
      '--repeat-each 3',
    ]);
    expect(selectionFromArgv(argv('--repeat-each', '1'), null).complete).toBe(true);
  });

  test('--grep item5, -g, --grep=…, --grep-invert and --project are filters, with their value', () => {
    expect(selectionFromArgv(argv('--grep', 'item5'), null)).toEqual({
      filters: ['--grep item5'],
      shard: null,
      complete: false,
    });
    expect(selectionFromArgv(argv('-g', 'item 7'), null).filters).toEqual(['-g item 7']);
    expect(selectionFromArgv(argv('--grep=item5'), null).filters).toEqual(['--grep=item5']);
    expect(selectionFromArgv(argv('--grep-invert', 'item6', '--project', 'checks'), null).filters).toEqual([
      '--grep-invert item6',
      '--project checks',
    ]);
  });

  test('--last-failed and --only-changed are filters without a value', () => {
    expect(selectionFromArgv(argv('--last-failed', 'tests/checks.spec.ts'), null).filters).toEqual([
      '--last-failed',
      'tests/checks.spec.ts',
    ]);
    expect(selectionFromArgv(argv('--only-changed'), null).complete).toBe(false);
  });

  test('a file or line filter is a filter', () => {
    expect(selectionFromArgv(argv('tests/checks.spec.ts:12'), null)).toMatchObject({
      filters: ['tests/checks.spec.ts:12'],
      complete: false,
    });
  });

  test('--shard is not a filter, and is recorded as i/n from the runner', () => {
    expect(selectionFromArgv(argv('--shard', '2/3'), { current: 2, total: 3 })).toEqual({
      filters: [],
      shard: '2/3',
      complete: true,
    });
    expect(selectionFromArgv(argv('--shard=1/3'), { current: 1, total: 3 }).complete).toBe(true);
  });

  test('options that take a value are skipped with it: --reporter=dot, --workers 2, -c, -j, --retries', () => {
    const selection = selectionFromArgv(
      argv(
        '--reporter=dot',
        '--workers',
        '2',
        '-c',
        'playwright.config.ts',
        '-j',
        '4',
        '--retries',
        '1',
        '-x',
      ),
      null,
    );
    expect(selection).toEqual({ filters: [], shard: null, complete: true });
    expect(selectionFromArgv(argv('--reporter', 'line', '--grep', 'item3'), null).filters).toEqual([
      '--grep item3',
    ]);
  });

  test('--update-snapshots takes its value only when one follows', () => {
    expect(selectionFromArgv(argv('--update-snapshots', '--grep', 'item4'), null).filters).toEqual([
      '--grep item4',
    ]);
    expect(selectionFromArgv(argv('--update-snapshots', 'all', 'tests/x.spec.ts'), null).filters).toEqual([
      'tests/x.spec.ts',
    ]);
  });

  test('a short option with its value attached is read as Playwright reads it: -gitem5, -Gfoo, -j2, -xgitem5', () => {
    expect(selectionFromArgv(argv('-gitem5'), null)).toEqual({
      filters: ['-gitem5'],
      shard: null,
      complete: false,
    });
    expect(selectionFromArgv(argv('-Gfoo'), null).filters).toEqual(['-Gfoo']);
    expect(selectionFromArgv(argv('-j2', '-cplaywright.config.ts'), null).complete).toBe(true);
    // Grouped short options: -x takes no value, so -xgitem5 is -x -g item5, and -xg takes the next.
    expect(selectionFromArgv(argv('-xgitem5'), null).filters).toEqual(['-gitem5']);
    expect(selectionFromArgv(argv('-xg', 'item5'), null).filters).toEqual(['-g item5']);
    expect(selectionFromArgv(argv('-xj', '2'), null).complete).toBe(true);
  });

  test('every option of `playwright test --help` (1.65) that takes a value takes it: it is not a file filter', () => {
    for (const [option, value] of [
      ['--add-reporter', 'dot'],
      ['--last-failed-file', '/tmp/last-run.json'],
      ['--run-agents', 'none'],
      ['--ui-host', '0.0.0.0'],
      ['--ui-port', '9323'],
      ['--browser', 'chromium'],
      ['--global-timeout', '60000'],
      ['--max-failures', '3'],
      ['--output', 'out'],
      ['--repeat-each', '1'],
      ['--timeout', '0'],
      ['--trace', 'on'],
      ['--tsconfig', 'tsconfig.json'],
      ['--update-source-method', 'patch'],
    ])
      expect(selectionFromArgv(argv(option!, value!), null), `${option} ${value}`).toEqual({
        filters: [],
        shard: null,
        complete: true,
      });
    expect(
      selectionFromArgv(argv('--fail-on-flaky-tests', '--forbid-only', '--headed', '--quiet', '--list'), null)
        .complete,
    ).toBe(true);
  });

  test('an optional value ([x]) is the next argument unless it starts with "-", as commander reads it', () => {
    // --shuffle takes what follows as its seed, a path too: Playwright then runs every test.
    expect(selectionFromArgv(argv('--shuffle', '42'), null).complete).toBe(true);
    expect(selectionFromArgv(argv('--shuffle', 'tests/checks/part-00.spec.ts'), null).complete).toBe(true);
    expect(selectionFromArgv(argv('--shuffle', '--grep', 'item5'), null).filters).toEqual(['--grep item5']);
    expect(selectionFromArgv(argv('--shuffle=7', 'tests/x.spec.ts'), null).filters).toEqual([
      'tests/x.spec.ts',
    ]);
    expect(selectionFromArgv(argv('--debug', 'cli'), null).complete).toBe(true);
    expect(selectionFromArgv(argv('--debug', '-x'), null).complete).toBe(true);
    expect(selectionFromArgv(argv('-u'), null).complete).toBe(true);
    expect(selectionFromArgv(argv('-u', 'all'), null).complete).toBe(true);
    expect(selectionFromArgv(argv('-uall', 'tests/x.spec.ts'), null).filters).toEqual(['tests/x.spec.ts']);
    expect(selectionFromArgv(argv('-u', '-gitem3'), null).filters).toEqual(['-gitem3']);
    // --only-changed is a filter, with its ref when one follows.
    expect(selectionFromArgv(argv('--only-changed', 'main'), null).filters).toEqual(['--only-changed main']);
    expect(selectionFromArgv(argv('--only-changed', '-x'), null).filters).toEqual(['--only-changed']);
    expect(selectionFromArgv(argv('--only-changed=HEAD~1'), null).filters).toEqual(['--only-changed=HEAD~1']);
  });

  test('--project takes every name that follows; after `--` nothing is a filter (Playwright drops it)', () => {
    expect(selectionFromArgv(argv('--project', 'checks', 'other', '-x'), null).filters).toEqual([
      '--project checks other',
    ]);
    expect(selectionFromArgv(argv('--project=checks', 'tests/x.spec.ts'), null).filters).toEqual([
      '--project=checks',
      'tests/x.spec.ts',
    ]);
    expect(selectionFromArgv(argv('--retries', '1', '--', '-weird.spec.ts'), null).filters).toEqual([]);
  });

  test('only what follows `test` is read (the node and runner paths are not file filters)', () => {
    expect(selectionFromArgv(['/usr/bin/node', 'cli.js', 'merge-reports', 'blob'], null).filters).toEqual([]);
  });
});

test.describe('outputDirFromArgv (tests/setup/cli.ts): where --last-failed reads .last-run.json', () => {
  test('--output DIR and --output=DIR replace the config folder, relative to the current folder', () => {
    expect(outputDirFromArgv(['node', 'playwright', 'test', '--output', 'out'], '/w')).toBe('/w/out');
    expect(outputDirFromArgv(['test', '--output=/tmp/o', '--last-failed'], '/w')).toBe('/tmp/o');
    expect(outputDirFromArgv(['test', '--output', '../x'], '/w/a')).toBe('/w/x');
    // Playwright has no -o: it refuses it, so it names no folder here either.
    expect(outputDirFromArgv(['test', '-o', '../x'], '/w/a')).toBeUndefined();
  });

  test('none given, or a flag without its value: the config folder stays', () => {
    expect(outputDirFromArgv(['test', '--last-failed'], '/w')).toBeUndefined();
    expect(outputDirFromArgv(['test', '--output'], '/w')).toBeUndefined();
    expect(outputDirFromArgv(['test', '--output-dir', 'x'], '/w')).toBeUndefined();
  });
});

test.describe('--last-failed (tests/setup/cli.ts): which file Playwright reads, and what it holds', () => {
  test('--last-failed-file, else PLAYWRIGHT_LAST_RUN_OUTPUT_FILE (from the current folder), else .last-run.json in the output folder', () => {
    const argv = ['node', 'playwright', 'test', '--last-failed'];
    expect(lastRunFile(argv, {}, '/w/test-results', '/w')).toEqual({
      file: '/w/test-results/.last-run.json',
      given: false,
    });
    const env = { PLAYWRIGHT_LAST_RUN_OUTPUT_FILE: 'runs/last.json' };
    expect(lastRunFile(argv, env, '/w/test-results', '/w')).toEqual({
      file: '/w/runs/last.json',
      given: true,
    });
    expect(lastRunFile([...argv, '--last-failed-file', '../l.json'], env, '/o', '/w/a').file).toBe(
      '/w/l.json',
    );
    expect(lastRunFile([...argv, '--last-failed-file=/tmp/l.json'], {}, '/o', '/w').file).toBe('/tmp/l.json');
  });

  test("a CI night's record beside its verdicts (the merged last-run.json of the downloaded verdicts artifact) is what --last-failed re-runs, carried into the investigation's folder; a file given still wins (audit: the morning after re-ran all 154 tests)", () => {
    const w = tempDir('last-run-ci');
    const verdicts = path.join(w, 'reports', 'verdicts');
    const night = path.join(w, 'test-results', 'checks');
    const argv = ['node', 'playwright', 'test', '--last-failed'];
    // Nothing downloaded: the checkout's own record, as before.
    expect(lastRunSource(argv, {}, night, verdicts, w)).toEqual({
      file: path.join(night, '.last-run.json'),
      given: false,
    });
    fs.mkdirSync(verdicts, { recursive: true });
    const merged = path.join(verdicts, 'last-run.json');
    fs.writeFileSync(merged, JSON.stringify({ status: 'failed', failedTests: ['a1-b2', 'c3-d4'] }));
    const source = lastRunSource(argv, {}, night, verdicts, w);
    expect(source).toEqual({ file: merged, given: false });
    expect(readLastRun(source.file).failed).toBe(2);
    const own = path.join(w, 'reports', 'partial', 'x', 'test-results');
    carryLastRun(argv, source, own);
    expect(JSON.parse(fs.readFileSync(path.join(own, '.last-run.json'), 'utf8'))).toEqual({
      status: 'failed',
      failedTests: ['a1-b2', 'c3-d4'],
    });
    // Playwright writes the investigation's own record there at the end: the night's stays.
    expect(fs.existsSync(merged)).toBe(true);
    // A file given on the command line, or no --last-failed: the CI record is not read.
    expect(lastRunSource([...argv, '--last-failed-file', 'l.json'], {}, night, verdicts, w)).toEqual({
      file: path.join(w, 'l.json'),
      given: true,
    });
    expect(lastRunSource(['node', 'playwright', 'test'], {}, night, verdicts, w).file).toBe(
      path.join(night, '.last-run.json'),
    );
  });

  test("--list --last-failed lists from the record --last-failed would run: a CI night's beside its verdicts is named to Playwright (PLAYWRIGHT_LAST_RUN_OUTPUT_FILE); none, or the checkout's own, needs nothing", () => {
    const w = tempDir('last-run-list');
    const verdicts = path.join(w, 'reports', 'verdicts');
    const night = path.join(w, 'test-results', 'checks');
    const argv = ['node', 'playwright', 'test', '--list', '--last-failed'];
    expect(listingLastRun(argv, {}, night, verdicts)).toBeUndefined();
    fs.mkdirSync(verdicts, { recursive: true });
    const merged = path.join(verdicts, 'last-run.json');
    fs.writeFileSync(merged, JSON.stringify({ status: 'failed', failedTests: ['a1-b2'] }));
    expect(listingLastRun(argv, {}, night, verdicts)).toBe(merged);
    // Near misses: a file given wins, and a listing without --last-failed reads no record.
    expect(
      listingLastRun([...argv, '--last-failed-file', path.join(w, 'l.json')], {}, night, verdicts),
    ).toBeUndefined();
    expect(listingLastRun(['node', 'playwright', 'test', '--list'], {}, night, verdicts)).toBeUndefined();
  });

  test('no last-run file: Playwright re-runs every test, so the invocation goes on and says why; none failed: nothing runs and nothing changes', () => {
    const dir = tempDir('last-run');
    const file = path.join(dir, '.last-run.json');
    const argv = ['node', 'playwright', 'test', '--last-failed'];
    // A first invocation, or a night that was killed before Playwright wrote the file.
    const missing = lastFailedPlanOf(argv, readLastRun(file));
    expect(missing).toEqual({ note: expect.stringContaining('so Playwright re-runs every test') });
    fs.writeFileSync(file, '{"status":"inter');
    expect(lastFailedPlanOf(argv, readLastRun(file))).toEqual(missing);
    // No list of failed tests: Playwright filters nothing either.
    for (const text of ['{"status":"passed"}', 'null', '{"failedTests":"a1"}']) {
      fs.writeFileSync(file, text);
      expect(lastFailedPlanOf(argv, readLastRun(file)), text).toEqual(missing);
    }
    fs.writeFileSync(file, JSON.stringify({ status: 'passed', failedTests: [] }));
    expect(lastFailedPlanOf(argv, readLastRun(file))).toEqual({
      nothing: expect.stringContaining('nothing to re-run'),
    });
    fs.writeFileSync(file, JSON.stringify({ status: 'failed', failedTests: ['a1-b2'] }));
    expect(lastFailedPlanOf(argv, readLastRun(file))).toBeUndefined();
    // A stopped night's record names the tests that failed before the stop only: said, with what to
    // run for the rest (night audit of 2026-11-28: the interrupted item was left out without a word).
    const stopped =
      /The last invocation was stopped: Playwright's record names the tests that failed and those the stop left unrun, not those it interrupted \(each one's run says so in its verdict, kind interrupted\); to check those, run the night again/;
    fs.writeFileSync(file, JSON.stringify({ status: 'interrupted', failedTests: ['a1-b2'] }));
    expect(lastFailedPlanOf(argv, readLastRun(file))).toEqual({
      note: expect.stringMatching(
        new RegExp(`^--last-failed: re-runs the 1 test\\(s\\) recorded\\. ${stopped.source}`),
      ),
    });
    fs.writeFileSync(file, JSON.stringify({ status: 'interrupted', failedTests: [] }));
    expect(lastFailedPlanOf(argv, readLastRun(file))).toEqual({
      nothing: expect.stringMatching(
        new RegExp(`nothing to re-run; no output was changed\\. ${stopped.source}`),
      ),
    });
    // Not asked for, or not remembered in this process: nothing to say.
    expect(
      lastFailedPlanOf(['node', 'playwright', 'test'], readLastRun(path.join(dir, 'none'))),
    ).toBeUndefined();
    expect(lastFailedPlanOf(argv, undefined)).toBeUndefined();
  });
});

test('--last-failed whose recorded failures are none of this invocation\'s tests (Playwright: "No tests found") says the record is of other runs; near misses: a test ran, nothing was recorded failed, no record, no --last-failed, another filter or a shard that may have left the recorded tests out, and a stop', () => {
  const argv = ['node', 'playwright', 'test', '--last-failed'];
  const alone = { filters: ['--last-failed'], shard: null };
  /** An invocation that ended by itself with no verdict. */
  const none = { verdicts: 0 };
  const file = path.join(tempDir('last-run-other'), '.last-run.json');
  expect(lastFailedNoneFoundOf(argv, alone, { file, failed: 3 }, none)).toMatch(
    /^--last-failed: none of the 3 failed test\(s\) recorded in .*\.last-run\.json is a test of this invocation's runs: the record is of other runs .*run it with the night's runs file/,
  );
  expect(lastFailedNoneFoundOf(argv, alone, { file, failed: 3 }, { verdicts: 1 })).toBeUndefined();
  expect(lastFailedNoneFoundOf(argv, alone, { file, failed: 0 }, none)).toBeUndefined();
  expect(lastFailedNoneFoundOf(argv, alone, { file, failed: 'none' }, none)).toBeUndefined();
  expect(lastFailedNoneFoundOf(argv, alone, undefined, none)).toBeUndefined();
  expect(
    lastFailedNoneFoundOf(
      ['node', 'playwright', 'test'],
      { filters: [], shard: null },
      { file, failed: 3 },
      none,
    ),
  ).toBeUndefined();
  // The invocation's own filters left the recorded tests out: the record may well be this configuration's.
  for (const selection of [
    { filters: ['--last-failed', '--grep @item5'], shard: null },
    { filters: ['--last-failed', 'tests/checks/part-03.spec.ts'], shard: null },
    { filters: ['--last-failed', '--project checks'], shard: null },
    { filters: ['--last-failed'], shard: '2/2' },
  ])
    expect(
      lastFailedNoneFoundOf(argv, selection, { file, failed: 3 }, none),
      JSON.stringify(selection),
    ).toBeUndefined();
  // A stop cut the invocation short: its tests wrote no verdict either, whatever the record holds.
  for (const interrupted of ['SIGINT', 'the first failure (-x)'])
    expect(
      lastFailedNoneFoundOf(argv, alone, { file, failed: 3 }, { interrupted, verdicts: 0 }),
    ).toBeUndefined();
  // What selectionFromArgv records for --last-failed alone is what the line needs.
  expect(selectionFromArgv(argv, null)).toMatchObject(alone);
});

test('UI mode (--ui, --ui-host, --ui-port) and a browser other than Chromium are refused as the config loads, saying what to use instead (CLI audit of 2026-11-28: UI mode waited for a person, --browser firefox was ignored); --browser chromium is not', () => {
  for (const args of [['--ui'], ['--ui-host', '127.0.0.1'], ['--ui-port=4719']])
    expect(refusedCommandLine(argv(...args)), args.join(' ')).toMatch(
      /^--ui(-host|-port)? is refused: Playwright's UI mode waits for a person .*--grep item5/,
    );
  expect(refusedCommandLine(argv('--browser', 'firefox'))).toMatch(
    /^--browser firefox is refused: the checks read every report page in Chromium/,
  );
  expect(refusedCommandLine(argv('--browser=all'))).toMatch(/^--browser all is refused/);
  expect(refusedCommandLine(argv('--browser', 'chromium'))).toBeUndefined();
});

test('--only-changed and --test-list match tests by a file that declares none here: refused, naming --grep; other filters are not', () => {
  expect(refusedCommandLine(argv('--only-changed'))).toMatch(/^--only-changed is refused: .*--grep item5/);
  expect(refusedCommandLine(argv('--only-changed=main'))).toMatch(/^--only-changed is refused/);
  expect(refusedCommandLine(argv('--test-list', 'list.txt'))).toMatch(
    /^--test-list is refused: .*select nothing/,
  );
  expect(refusedCommandLine(argv('--test-list-invert=l.txt'))).toMatch(/select everything/);
  // The declaring file, as the terminal prints its lines: refused with the same hint.
  for (const f of [
    'tests/checks.spec.ts:30',
    'tests/checks.spec.ts',
    'checks.spec.ts:30:7',
    'tests/checks.spec',
  ])
    expect(refusedCommandLine(argv(f)), f).toMatch(/^the file filter .* is refused: .*--grep item5/);
  // A grep whose text is that file name is a grep, not a file filter.
  expect(refusedCommandLine(argv('--grep=tests/checks.spec.ts'))).toBeUndefined();
  expect(refusedCommandLine(argv('-g', 'checks.spec.ts'))).toBeUndefined();
  for (const ok of [
    argv(),
    argv('--grep', 'item5'),
    argv('--last-failed'),
    argv('tests/checks/part-00.spec.ts'),
  ])
    expect(refusedCommandLine(ok)).toBeUndefined();
});

test("an investigation may not point Playwright at the night's outputs: --output at or above the night's folder, or the night's .last-run.json as its last-run file; a complete invocation may, and anything else is fine", () => {
  const root = tempDir('night-outputs');
  const night = path.join(root, 'test-results', 'checks');
  const none = { file: path.join(root, 'elsewhere', '.last-run.json'), given: false };
  const at = (dir: string) => path.join(root, dir);
  for (const given of [night, at('test-results')])
    expect(nightOutputsProblem(given, none, night, true, root), given).toMatch(
      /^--output .* is refused for a partial invocation: it is or holds the night's Playwright folder .*Leave --output out/,
    );
  expect(nightOutputsProblem(night, none, night, false, root)).toBeUndefined();
  expect(nightOutputsProblem(at('test-results/mine'), none, night, true, root)).toBeUndefined();
  expect(nightOutputsProblem(at('test-results/checks-other'), none, night, true, root)).toBeUndefined();
  // The project root (which Playwright would empty) is refused whatever the invocation.
  expect(nightOutputsProblem(root, none, night, false, root)).toMatch(/^--output is refused: .*project root/);
  const nightLastRun = { file: path.join(night, '.last-run.json'), given: true };
  expect(nightOutputsProblem(undefined, nightLastRun, night, true, root)).toMatch(
    /^the last-run file .* is refused for a partial invocation: it is the night's/,
  );
  expect(nightOutputsProblem(undefined, nightLastRun, night, false, root)).toBeUndefined();
  expect(
    nightOutputsProblem(undefined, { file: at('ci/.last-run.json'), given: true }, night, true, root),
  ).toBeUndefined();
});

test("--debug and PWDEBUG (Playwright's inspector, which waits for a person) are refused as the config loads, naming --grep; PWDEBUG=0 and the tests' own env are not", () => {
  for (const [args, env, named] of [
    [argv('--debug'), {}, '--debug'],
    [argv('--grep', 'item5', '--debug'), {}, '--debug'],
    [argv(), { PWDEBUG: '1' }, 'PWDEBUG=1'],
    [argv(), { PWDEBUG: 'console' }, 'PWDEBUG=console'],
  ] as const)
    expect(refusedCommandLine(args, env), named).toMatch(
      new RegExp(`^${named} is refused: .*L1_RUN_TIMEOUT_MS.*--grep item5`),
    );
  expect(refusedCommandLine(argv(), { PWDEBUG: '0' })).toBeUndefined();
  expect(refusedCommandLine(argv(), {})).toBeUndefined();
});

test("--last-failed of a partial invocation with an output folder of its own reads the night's failures, copied in; the night's file stays", () => {
  const dir = tempDir('last-run');
  const night = path.join(dir, 'test-results', '.last-run.json');
  fs.mkdirSync(path.dirname(night), { recursive: true });
  const text = JSON.stringify({ status: 'failed', failedTests: ['a1-b2'] });
  fs.writeFileSync(night, text);
  const own = path.join(dir, 'partial', 'x', 'test-results');
  const lastFailed = ['node', 'playwright', 'test', '--last-failed'];
  const found = (args: string[], env: NodeJS.ProcessEnv = {}) =>
    lastRunFile(args, env, path.dirname(night), dir);
  carryLastRun(['node', 'playwright', 'test', '--grep', 'item5'], found([]), own);
  expect(fs.existsSync(own)).toBe(false); // not --last-failed: nothing to carry
  carryLastRun(lastFailed, found([...lastFailed, '--last-failed-file', night]), own);
  carryLastRun(lastFailed, found(lastFailed, { PLAYWRIGHT_LAST_RUN_OUTPUT_FILE: night }), own);
  expect(fs.existsSync(own)).toBe(false); // the file given: Playwright reads it where it is
  carryLastRun(lastFailed, found(lastFailed), own);
  expect(fs.readFileSync(path.join(own, '.last-run.json'), 'utf8')).toBe(text);
  expect(fs.readFileSync(night, 'utf8')).toBe(text);
});

test('arguments after `--`, which Playwright 1.65 drops (its test action keeps only those before it), are refused: every check would run, as a complete invocation over the night', () => {
  expect(readTestArgv(argv('--', '--grep', 'item5'))).toEqual({
    options: new Map(),
    filters: [],
    dropped: ['--grep', 'item5'],
  });
  expect(readTestArgv(argv('--grep', 'A-monitor', '--', 'x')).filters).toEqual(['--grep A-monitor']);
  expect(refusedCommandLine(argv('--', '--grep', 'item5'))).toMatch(
    /^arguments after `--` are refused: Playwright drops them \(--grep item5\), so every check would run/,
  );
  expect(refusedCommandLine(argv('--', 'tests/checks/part-00.spec.ts'))).toMatch(/^arguments after `--`/);
  // A `--` with nothing after it drops nothing.
  expect(refusedCommandLine(argv('--grep', 'item5', '--'))).toBeUndefined();
});

test('merge-reports loading the suite config (-c) is refused: its reporters write the night’s Allure results, which the next npm run report would build with the blobs in them', () => {
  expect(
    refusedCommandLine([
      'node',
      '/repo/node_modules/.bin/playwright',
      'merge-reports',
      '-c',
      'playwright.config.ts',
      'blob-report',
    ]),
  ).toMatch(/^playwright merge-reports with the suite's config \(-c\) is refused: .*without -c/);
  // Near misses: the test command, with a grep that names merge-reports, and merge-reports as a filter.
  expect(refusedCommandLine(argv('--grep', 'merge-reports'))).toBeUndefined();
  expect(refusedCommandLine(argv('merge-reports'))).toBeUndefined();
});

test("--timeout under a second is refused at start, naming what to use: it could end a test before its fixtures raise it to the run's budget (audit of --timeout 1: every run read as a crashed collection); 1000 ms, longer ones and 0 (no timeout) are not", () => {
  const settings = readSettings({
    root: tempDir('timeout'),
    env: {},
    dotenv: {},
    now: new Date(),
    runsOptional: true,
  });
  const of = (timeout: number) => refusedAtLoad(argv('--timeout', String(timeout)), settings);
  expect(of(1)).toMatch(
    /^--timeout 1 is refused: under 1000 ms .*run without --timeout, or bound a run with L1_RUN_TIMEOUT_MS\.$/,
  );
  expect(of(999)).toMatch(/^--timeout 999 is refused/);
  expect([of(1000), of(90_000), of(0)]).toEqual([undefined, undefined, undefined]);
});

test("a --timeout of a second or more but under a check's own is said at start to be raised to the run's budget and a minute, and what bounds a run instead (CLI audit of 2026-11-28: raised without a word); the config's own, longer ones and 0 are not", () => {
  const outlast = 90_000;
  const of = (...timeouts: number[]) =>
    raisedTimeoutNote({ projects: timeouts.map((timeout) => ({ timeout })) as never }, outlast);
  expect(of(1500)).toBe(
    "--timeout 1500 is raised to 90000 ms for each check's test: its run's collection budget (L1_RUN_TIMEOUT_MS) and a minute, which bounds a run; to bound runs tighter, lower L1_RUN_TIMEOUT_MS",
  );
  expect([of(outlast), of(120_000), of(0), of(999)]).toEqual([undefined, undefined, undefined, undefined]);
});

test('the --last-failed line for a record of other runs sends the reader to a section README.md has (README audit 59b: it cited "§ Investigate without touching the night", a paragraph of § Run it nightly in CI)', () => {
  const argv = ['node', 'playwright', 'test', '--last-failed'];
  const file = path.join(tempDir('last-run-other'), '.last-run.json');
  const line = lastFailedNoneFoundOf(
    argv,
    { filters: ['--last-failed'], shard: null },
    { file, failed: 3 },
    { verdicts: 0 },
  );
  const cited = /README\.md § ([^)]+)\)$/.exec(line ?? '')?.[1];
  const headings = fs
    .readFileSync(path.join(__dirname, '..', '..', 'README.md'), 'utf8')
    .split('\n')
    .filter((l) => l.startsWith('## '))
    .map((l) => l.slice(3));
  expect(headings).toContain(cited);
});
