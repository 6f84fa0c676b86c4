import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from './test-type';
import {
  clearEarlierInvocation,
  finishAtExit,
  stopReason,
  stoppedEarly,
  type Claim,
} from '../../lib/report/finish';
import { runFolder } from '../../lib/report/judged';
import { INTERRUPTED_MARK, interruption } from '../../lib/report/run-verdict';
import {
  failedAttempts,
  firstErrorLine,
  markRunning,
  readTestRecords,
  writeTestRecord,
  type TestKey,
  type TestRecord,
} from '../../lib/report/records';
import { ITEMS } from '../../lib/rules/items';
import { appendPrivate } from '../../lib/run/state';
import { tempDir } from './fakes/temp';
import { tsEval } from './fakes/ts-eval';

/**
 * The records a run's tests leave (lib/report/records.ts): a test appends its start to the run's
 * `tests.jsonl` when it starts and its record when it ends. What reads them (the verdict of a run
 * the stop cut short, docs/contract.md §7) must see the test in flight as `running`, and no
 * finished test as running.
 */

const statuses = (dir: string) => readTestRecords(dir).map((r) => `${String(r.test)}:${r.status}`);
const log = (dir: string) => path.join(dir, 'tests.jsonl');

test('the test of the last start without a record is running; the ones before it are not', () => {
  const dir = tempDir('records');
  expect(readTestRecords(dir)).toEqual([]);
  markRunning(dir, 'collection');
  writeTestRecord(dir, { test: 'collection', status: 'passed', durationMs: 5 });
  markRunning(dir, 3);
  writeTestRecord(dir, { test: 3, status: 'failed', durationMs: 2 });
  markRunning(dir, 4);
  expect(statuses(dir)).toEqual(['collection:passed', '3:failed', '4:running']);
  writeTestRecord(dir, { test: 4, status: 'passed', durationMs: 1 });
  expect(statuses(dir)).toEqual(['collection:passed', '3:failed', '4:passed']);
  expect(fs.statSync(log(dir)).mode & 0o777).toBe(0o600);
});

test('a record of an earlier attempt than the last start: the test a retry started again is running', () => {
  const dir = tempDir('records');
  markRunning(dir, 7, 0);
  writeTestRecord(dir, { test: 7, status: 'failed', durationMs: 3, retry: 0 });
  markRunning(dir, 7, 1);
  expect(statuses(dir)).toEqual(['7:running']);
  // The retry's own record: finished, and the one that counts.
  writeTestRecord(dir, { test: 7, status: 'passed', durationMs: 2, retry: 1 });
  expect(readTestRecords(dir)).toEqual([{ test: 7, status: 'passed', durationMs: 2, retry: 1 }]);
});

test('a start that is not the last one names nothing: a crashed test is not read as running', () => {
  const dir = tempDir('records');
  markRunning(dir, 5);
  // The worker died in item 5 without its record; its next worker went on with item 6.
  markRunning(dir, 6);
  writeTestRecord(dir, { test: 6, status: 'passed', durationMs: 1 });
  expect(statuses(dir)).toEqual(['6:passed']);
});

test('a line cut by a killed worker, or a foreign one, is skipped', () => {
  const dir = tempDir('records');
  writeTestRecord(dir, { test: 5, status: 'passed', durationMs: 1 });
  // A worker killed in the middle of its line: the next line is still whole.
  appendPrivate(log(dir), '\n{"started": 6, "ret');
  expect(statuses(dir)).toEqual(['5:passed']);
  markRunning(dir, 6);
  expect(statuses(dir)).toEqual(['5:passed', '6:running']);
  appendPrivate(log(dir), '\n{"started": "item 7"}\nnull\n[7]\n{"test": 7}');
  expect(statuses(dir)).toEqual(['5:passed', '6:running']);
});

test('two processes appending records at once each add whole lines; the last record of each test counts', async () => {
  const dir = tempDir('records');
  // Each writer is the module itself in its own process, as two workers under `--repeat-each`.
  const records = JSON.stringify(path.resolve(__dirname, '..', '..', 'lib', 'report', 'records.ts'));
  const writer = (item: number) =>
    new Promise<void>((resolve, reject) => {
      const script = `const { writeTestRecord } = require(${records});
for (let i = 0; i < 500; i++)
  writeTestRecord(${JSON.stringify(dir)}, { test: ${item}, status: 'passed', durationMs: i, error: 'x'.repeat(200) });`;
      spawn(...tsEval(script), { stdio: 'ignore' })
        .on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`writer exited ${code}`))))
        .on('error', reject);
    });
  await Promise.all([writer(3), writer(4)]);
  const lines = fs.readFileSync(log(dir), 'utf8').split('\n').filter(Boolean);
  expect(lines, 'whole lines in the log').toHaveLength(1000);
  const broken = lines.filter((line) => {
    try {
      JSON.parse(line);
      return false;
    } catch {
      return true;
    }
  });
  expect(broken).toEqual([]);
  expect(readTestRecords(dir).map((r) => [r.test, r.durationMs])).toEqual([
    [3, 499],
    [4, 499],
  ]);
});

test.describe("Playwright's own stops (-x, --max-failures, --global-timeout): lib/report/finish.ts", () => {
  /** A claim of two runs, `a` and `b`, whose folders are under a temp folder. */
  function claimOf(pid = process.pid): Claim {
    const dir = tempDir('stops');
    return {
      pid,
      invocation: {
        dir,
        runs: path.join(dir, 'runs'),
        selection: { filters: [], shard: null, complete: true },
      },
      runs: [{ slug: 'a' }, { slug: 'b' }],
    } as unknown as Claim;
  }
  const folder = (claim: Claim, slug: string) => {
    const dir = runFolder(claim.invocation.runs, slug);
    fs.mkdirSync(dir, { recursive: true });
    return dir;
  };
  const none = { maxFailures: 0, globalTimeoutMs: 0 };

  test('failed attempts: every failed or timed-out attempt, retries too, as Playwright counts them for --max-failures', () => {
    const dir = tempDir('records');
    expect(failedAttempts(dir)).toBe(0);
    markRunning(dir, 5, 0);
    writeTestRecord(dir, { test: 5, status: 'failed', durationMs: 1, retry: 0 });
    markRunning(dir, 5, 1);
    writeTestRecord(dir, { test: 5, status: 'timedOut', durationMs: 1, retry: 1 });
    writeTestRecord(dir, { test: 6, status: 'skipped', durationMs: 1 });
    writeTestRecord(dir, { test: 7, status: 'interrupted', durationMs: 1 });
    writeTestRecord(dir, { test: 8, status: 'passed', durationMs: 1 });
    appendPrivate(log(dir), '\nnull\n{"status":"fai');
    expect(failedAttempts(dir)).toBe(2);
  });

  test('-x / --max-failures reached over the runs: the invocation stopped there; below it, nothing is said', () => {
    const claim = claimOf();
    writeTestRecord(folder(claim, 'a'), { test: 3, status: 'failed', durationMs: 1 });
    expect(stoppedEarly(claim, { ...none, maxFailures: 2 })).toBeUndefined();
    writeTestRecord(folder(claim, 'b'), { test: 'collection', status: 'failed', durationMs: 1 });
    expect(stoppedEarly(claim, { ...none, maxFailures: 2 })).toBe(
      'the invocation stopped at --max-failures=2',
    );
    expect(stoppedEarly(claim, none)).toBeUndefined();
  });

  /** Every test of runs a and b, each ended with the status `statusOf` gives it. */
  const ALL_TESTS: TestKey[] = ['collection', ...ITEMS.map((i) => i.item)];
  const recordAll = (claim: Claim, statusOf: (slug: string, test: TestKey) => TestRecord['status']) => {
    for (const slug of ['a', 'b'])
      for (const test of ALL_TESTS)
        writeTestRecord(folder(claim, slug), { test, status: statusOf(slug, test), durationMs: 1 });
  };

  test('-x reached by the very last test stopped nothing: every test of every run ended, so the night does not say it stopped', () => {
    const claim = claimOf();
    recordAll(claim, (slug, test) => (slug === 'b' && test === 12 ? 'failed' : 'passed'));
    expect(stoppedEarly(claim, { ...none, maxFailures: 1 })).toBeUndefined();
    // One test of a run that never ran (the stop came before it): stopped.
    const cut = claimOf();
    for (const test of ALL_TESTS.slice(0, -1))
      writeTestRecord(folder(cut, 'a'), { test, status: 'failed', durationMs: 1 });
    for (const test of ALL_TESTS)
      writeTestRecord(folder(cut, 'b'), { test, status: 'passed', durationMs: 1 });
    expect(stoppedEarly(cut, { ...none, maxFailures: 1 })).toBe('the invocation stopped at --max-failures=1');
    // A partial selection or a shard cannot be told: said as before.
    const partial = claimOf();
    partial.invocation.selection = { filters: ['--grep item5'], shard: null, complete: false };
    recordAll(partial, () => 'failed');
    expect(stoppedEarly(partial, { ...none, maxFailures: 1 })).toBe(
      'the invocation stopped at --max-failures=1',
    );
  });

  test('-x reached while a test was cut short: the stop is -x, though every test has a record (an interrupted one has not ended)', () => {
    const claim = claimOf();
    recordAll(claim, (slug, test) =>
      slug === 'a' && test === 3 ? 'failed' : slug === 'b' && test === 12 ? 'interrupted' : 'passed',
    );
    expect(stoppedEarly(claim, { ...none, maxFailures: 1 })).toBe(
      'the invocation stopped at --max-failures=1',
    );
  });

  test('a test that never ended (Playwright interrupted it at its stop) cuts the invocation short', () => {
    const claim = claimOf();
    markRunning(folder(claim, 'a'), 4);
    expect(stoppedEarly(claim, none)).toBe('the invocation stopped before every test ended');
    expect(stoppedEarly(claim, { ...none, globalTimeoutMs: 60_000 })).toBe(
      'the invocation stopped at its --global-timeout (60000 ms)',
    );
    writeTestRecord(folder(claim, 'a'), { test: 4, status: 'interrupted', durationMs: 1 });
    expect(stoppedEarly(claim, none)).toBe('the invocation stopped before every test ended');
    writeTestRecord(folder(claim, 'a'), { test: 4, status: 'passed', durationMs: 1 });
    expect(stoppedEarly(claim, none)).toBeUndefined();
  });

  test('the reason of a stop: at the teardown only what the records show; at exit with no teardown, the global timeout, else an end the teardown never saw', () => {
    const claim = claimOf();
    folder(claim, 'a');
    expect(stopReason(claim, none, false)).toBeUndefined();
    expect(stopReason(claim, { ...none, globalTimeoutMs: 9000 }, false)).toBeUndefined();
    expect(stopReason(claim, { ...none, globalTimeoutMs: 9000 }, true)).toBe(
      'the invocation stopped at its --global-timeout (9000 ms)',
    );
    expect(stopReason(claim, none, true)).toBe('the invocation ended before its global teardown ran');
    writeTestRecord(folder(claim, 'a'), { test: 3, status: 'failed', durationMs: 1 });
    expect(stopReason(claim, { ...none, maxFailures: 1 }, false)).toBe(
      'the invocation stopped at --max-failures=1',
    );
  });

  test("at exit, only this process's claim that no teardown finished is finished", () => {
    expect(finishAtExit(tempDir('stops'), none)).toBeUndefined(); // no claim
    const other = claimOf(process.pid + 1);
    fs.writeFileSync(path.join(other.invocation.dir, 'claimed.json'), JSON.stringify(other));
    expect(finishAtExit(other.invocation.dir, none)).toBeUndefined();
    const finished = claimOf();
    fs.writeFileSync(path.join(finished.invocation.dir, 'claimed.json'), JSON.stringify(finished));
    fs.writeFileSync(path.join(finished.invocation.dir, 'finished'), 'by the teardown');
    expect(finishAtExit(finished.invocation.dir, none)).toBeUndefined();
  });

  test('at exit, a night that cannot be written (a full disk, a verdict folder that cannot be made) is said with the error, not thrown (Node drops what an exit handler throws as the process dies on an error), and stays for npm run report (file-system audit)', () => {
    const claim = claimOf();
    const blocked = path.join(tempDir('blocked'), 'a-file');
    fs.writeFileSync(blocked, 'x');
    const verdicts = path.join(blocked, 'verdicts');
    const unwritable = {
      ...claim,
      runs: [],
      invocation: { ...claim.invocation, outputs: { verdicts, allureResults: '', partial: false } },
    } as unknown as Claim;
    fs.writeFileSync(path.join(claim.invocation.dir, 'claimed.json'), JSON.stringify(unwritable));
    const result = finishAtExit(claim.invocation.dir, none);
    expect(result).toEqual({
      failed: expect.stringMatching(
        /^L1 verdicts: the night could not be finished as the runner exited \(ENOTDIR: .*\): run npm run report once its folders can be written/,
      ) as unknown as string,
    });
    expect(fs.existsSync(path.join(claim.invocation.dir, 'finished'))).toBe(false);
  });
});

test("an invocation id used again (L1_INVOCATION_ID with L1_KEEP_STATE) starts afresh: the earlier one's runs and its finished and interrupted marks are gone", () => {
  const dir = tempDir('again');
  const runs = path.join(dir, 'runs');
  writeTestRecord(path.join(runs, 'a'), { test: 3, status: 'passed', durationMs: 1 });
  fs.writeFileSync(path.join(dir, 'finished'), 'earlier');
  fs.writeFileSync(path.join(dir, INTERRUPTED_MARK), JSON.stringify({ signal: 'SIGTERM' }));
  const invocation = { dir } as Claim['invocation'];
  expect(interruption(invocation)).toBe('the invocation was interrupted by SIGTERM');
  clearEarlierInvocation(dir, runs);
  expect(fs.readdirSync(dir)).toEqual([]);
  // Tonight's runs would otherwise all read as stopped by the earlier night's SIGTERM.
  expect(interruption(invocation)).toBeUndefined();
});

test("a record keeps the first line of the test's first error, without the colour codes Playwright puts in its own messages (they showed as \\x1b[31m escapes in a verdict's reason)", () => {
  expect(
    firstErrorLine([
      { message: '' },
      {
        message: '\u001b[31mTest timeout of 1ms exceeded while setting up "judged".\u001b[39m\n  at fixture',
      },
      { message: 'later' },
    ]),
  ).toBe('Test timeout of 1ms exceeded while setting up "judged".');
  expect(firstErrorLine([])).toBeUndefined();
});
