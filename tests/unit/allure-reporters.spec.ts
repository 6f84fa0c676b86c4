import fs from 'node:fs';
import path from 'node:path';
import { FileSystemWriter } from 'allure-js-commons/sdk/reporter';
import { expect, test } from './test-type';
import {
  allureWriteGuard,
  incompleteResults,
  INCOMPLETE_STATE,
  isAllureWriteError,
  recordedIncomplete,
} from '../../lib/report/allure/write-guard';
import { tempDir } from './fakes/temp';
import {
  allureMessagesRead,
  allureWrites,
  misplacedAllure,
  reportOnStdout,
  type ReporterEntry,
} from '../../lib/report/allure/reporters';

/**
 * The invocation's reporters (lib/report/allure/reporters.ts), as Playwright hands them to global
 * setup and to the workers: the config's, or the command line's `--reporter`, which replaces them.
 * Global setup claims the Allure results folder only when allure-playwright writes there
 * (README.md § Results that survive every way Playwright is run); a worker sends Allure's runtime
 * messages only when a reporter may read them.
 */

const CONFIGURED: ReporterEntry[] = [['list'], ['allure-playwright', { resultsDir: 'allure-results' }]];

const cases: { reporters: ReporterEntry[]; writes: boolean; read: boolean; why: string }[] = [
  { reporters: CONFIGURED, writes: true, read: true, why: 'the configured reporters' },
  { reporters: [['dot']], writes: false, read: false, why: '--reporter=dot' },
  { reporters: [['line'], ['junit', {}]], writes: false, read: false, why: '--reporter=line,junit' },
  {
    reporters: [
      ['json', {}],
      ['html', {}],
    ],
    writes: false,
    read: false,
    why: 'json and html show them as attachments',
  },
  { reporters: [['blob']], writes: false, read: true, why: 'merge-reports can replay a blob into Allure' },
  {
    reporters: [['dot'], ['./reporters/ours.ts']],
    writes: false,
    read: true,
    why: "a reporter of the user's own",
  },
  {
    reporters: [['dot'], ['allure-playwright']],
    writes: true,
    read: true,
    why: '--reporter=dot,allure-playwright',
  },
];

for (const c of cases)
  test(`${c.why}: allure-playwright ${c.writes ? 'writes' : 'does not write'}, the messages are ${c.read ? '' : 'not '}read`, () => {
    expect(allureWrites(c.reporters)).toBe(c.writes);
    expect(allureMessagesRead(c.reporters)).toBe(c.read);
  });

test.describe('reportOnStdout: `--reporter=junit > results.xml` keeps the file a report (the suite writes to stderr)', () => {
  test('json and junit with no file named write to stdout', () => {
    expect(reportOnStdout([['junit']], {})).toBe('junit');
    expect(reportOnStdout([['dot'], ['json', {}]], {})).toBe('json');
  });

  test('a file named by option or by Playwright variable, or another reporter, leaves stdout to the suite', () => {
    expect(reportOnStdout(CONFIGURED, {})).toBeUndefined();
    expect(reportOnStdout([['dot'], ['line'], ['blob'], ['html']], {})).toBeUndefined();
    expect(reportOnStdout([['junit', { outputFile: 'junit.xml' }]], {})).toBeUndefined();
    expect(reportOnStdout([['json', { fileName: 'r.json' }]], {})).toBeUndefined();
    expect(reportOnStdout([['junit']], { PLAYWRIGHT_JUNIT_OUTPUT_FILE: 'j.xml' })).toBeUndefined();
    expect(reportOnStdout([['json']], { PLAYWRIGHT_JSON_OUTPUT_NAME: 'r.json' })).toBeUndefined();
    // The variable of the other reporter does not name this one's file.
    expect(reportOnStdout([['json']], { PLAYWRIGHT_JUNIT_OUTPUT_NAME: 'j.xml' })).toBe('json');
  });
});

test('an Allure reporter from the command line, which takes no options and writes to ./allure-results, is refused; the configured one is taken (CLI audit: a morning investigation joined the night)', () => {
  const dir = '/tmp/night/allure-results';
  expect(misplacedAllure([['list'], ['allure-playwright', { resultsDir: dir }]], dir)).toBeUndefined();
  expect(misplacedAllure([['list'], ['allure-playwright', { resultsDir: `${dir}/` }]], dir)).toBeUndefined();
  expect(misplacedAllure([['dot'], ['junit', {}]], dir)).toBeUndefined();
  for (const reporters of [
    [['list'], ['allure-playwright']],
    [['dot'], ['allure-playwright', {}]],
    [['allure-playwright', { resultsDir: 'allure-results' }]],
  ] as ReporterEntry[][])
    expect(misplacedAllure(reporters, dir)).toMatch(
      /^--reporter=allure-playwright is refused: from the command line it takes no options .*Run without --reporter/,
    );
});

/** The error allure-js-commons' own writer throws for an attachment it cannot write into `dir`. */
function allureWriteErrorIn(dir: string): unknown {
  try {
    new FileSystemWriter({ resultsDir: dir }).writeAttachment('x-attachment.txt', Buffer.from('x'));
  } catch (e) {
    return e;
  }
  throw new Error(`the writer wrote into ${dir}`);
}

/** Until the returned function is called, writes into `dir` fail as on a full disk (no chmod: root). */
function fullDiskUnder(dir: string): () => void {
  const write = fs.writeFileSync;
  (fs as { writeFileSync: unknown }).writeFileSync = (file: fs.PathOrFileDescriptor, ...rest: unknown[]) => {
    if (String(file).startsWith(dir))
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    return (write as (...a: unknown[]) => void)(file, ...rest);
  };
  return () => {
    (fs as { writeFileSync: unknown }).writeFileSync = write;
  };
}

test("a failed Allure write whose record the full results folder refuses is kept in the invocation's state folder, and in the process where that is full too (review of 2026-11-28: the record was lost with the write it records)", () => {
  const dir = tempDir('allure-guard-full');
  const blocked = path.join(dir, 'a-file');
  fs.writeFileSync(blocked, '');
  const failed = allureWriteErrorIn(path.join(blocked, 'results'));
  const results = path.join(dir, 'results');
  const invocationDir = path.join(dir, 'state', 'invocations', 'guarded-night-2');
  fs.mkdirSync(results);
  const resultsFull = fullDiskUnder(results);
  try {
    allureWriteGuard(results, 'guarded-night-2', () => {}, invocationDir)(failed);
  } finally {
    resultsFull();
  }
  expect(fs.readdirSync(results)).toEqual([]);
  expect(JSON.parse(fs.readFileSync(path.join(invocationDir, INCOMPLETE_STATE), 'utf8'))).toEqual({
    invocation: 'guarded-night-2',
    error: (failed as Error).message,
  });
  fs.rmSync(invocationDir, { recursive: true });
  expect(recordedIncomplete('guarded-night-2', invocationDir)).toBe((failed as Error).message);
  // Both full: this process keeps it, for its teardown.
  const allFull = fullDiskUnder(dir);
  try {
    allureWriteGuard(results, 'guarded-night-3', () => {}, invocationDir)(failed);
  } finally {
    allFull();
  }
  expect(fs.existsSync(path.join(invocationDir, INCOMPLETE_STATE))).toBe(false);
  expect(recordedIncomplete('guarded-night-3', invocationDir)).toBe((failed as Error).message);
  expect(recordedIncomplete('night-4', invocationDir)).toBeUndefined();
});

test("an Allure results write that fails (a full disk) is said once, recorded in the results folder for npm run report, and ends the runner no more; any other unhandled rejection still does (file-system audit: allure-playwright's unawaited attachment write ended the runner, and the night)", () => {
  const dir = tempDir('allure-guard');
  const blocked = path.join(dir, 'a-file');
  fs.writeFileSync(blocked, '');
  const failed = allureWriteErrorIn(path.join(blocked, 'results'));
  expect(isAllureWriteError(failed)).toBe(true);
  // Near misses: the same code from the suite's own code, and an error with no code.
  expect(isAllureWriteError(Object.assign(new Error('ENOSPC: no space left'), { code: 'ENOSPC' }))).toBe(
    false,
  );
  expect(isAllureWriteError(new Error('allure-js-commons said no'))).toBe(false);
  const results = path.join(dir, 'results');
  fs.mkdirSync(results);
  expect(incompleteResults(results)).toBeUndefined();
  const lines: string[] = [];
  const guard = allureWriteGuard(results, 'guarded-night-1', (line) => lines.push(line));
  guard(failed);
  guard(failed);
  expect(lines).toEqual([
    `allure-playwright could not write to ${results} (${(failed as Error).message}): the checks go on, and the Allure results of this invocation are incomplete (npm run report will not build a report of them)`,
  ]);
  expect(fs.readdirSync(results)).toEqual(['l1-incomplete-guarded-night-1.json']);
  expect(incompleteResults(results)).toBe(
    `allure-playwright could not write every result to ${results} (${(failed as Error).message}): a report of them would lack what it could not write`,
  );
  const other = new Error('a bug of the runner');
  expect(() => guard(other)).toThrow(other);
});

test('a guard that sees several failed Allure writes records the first error, once, in the results folder as in the state folder (review of 2026-11-28: rewritten with each later error)', () => {
  const dir = tempDir('allure-guard-first');
  const blocked = path.join(dir, 'a-file');
  fs.writeFileSync(blocked, '');
  const first = allureWriteErrorIn(path.join(blocked, 'results'));
  const later = allureWriteErrorIn(path.join(blocked, 'other-results'));
  const results = path.join(dir, 'results');
  const invocationDir = path.join(dir, 'state', 'invocations', 'guarded-first');
  fs.mkdirSync(results);
  const guard = allureWriteGuard(results, 'guarded-first', () => {}, invocationDir);
  guard(first);
  guard(later);
  const recorded = { invocation: 'guarded-first', error: (first as Error).message };
  expect((later as Error).message).not.toBe((first as Error).message);
  expect(JSON.parse(fs.readFileSync(path.join(results, 'l1-incomplete-guarded-first.json'), 'utf8'))).toEqual(
    recorded,
  );
  expect(JSON.parse(fs.readFileSync(path.join(invocationDir, INCOMPLETE_STATE), 'utf8'))).toEqual(recorded);
});

test("a results folder's record that names no error (written by hand, or by an older suite) is told as 'a write failed', as the state folder's is, never as 'undefined'", () => {
  const results = tempDir('allure-record-no-error');
  fs.writeFileSync(path.join(results, 'l1-incomplete-no-error.json'), '{"invocation":"no-error"}\n');
  expect(incompleteResults(results)).toBe(
    `allure-playwright could not write every result to ${results} (a write failed): a report of them would lack what it could not write`,
  );
  const invocationDir = tempDir('allure-state-no-error');
  fs.writeFileSync(path.join(invocationDir, INCOMPLETE_STATE), '{"invocation":"no-error-state"}\n');
  expect(recordedIncomplete('no-error-state', invocationDir)).toBe('a write failed');
});

test("a guard whose results folder's record the full disk refused writes it at a later failed write, once there is space, with the first error; and, written, never again (review 58 of 4ff452d: neither half was asserted)", () => {
  const dir = tempDir('allure-guard-retry');
  const blocked = path.join(dir, 'a-file');
  fs.writeFileSync(blocked, '');
  const [first, second, third] = ['one', 'two', 'three'].map((n) =>
    allureWriteErrorIn(path.join(blocked, n)),
  );
  const results = path.join(dir, 'results');
  fs.mkdirSync(results);
  const record = path.join(results, 'l1-incomplete-guarded-retry.json');
  const guard = allureWriteGuard(results, 'guarded-retry', () => {});
  const space = fullDiskUnder(results);
  try {
    guard(first);
  } finally {
    space();
  }
  expect(fs.existsSync(record)).toBe(false);
  guard(second);
  expect(JSON.parse(fs.readFileSync(record, 'utf8'))).toEqual({
    invocation: 'guarded-retry',
    error: (first as Error).message,
  });
  fs.rmSync(record);
  guard(third);
  expect(fs.existsSync(record)).toBe(false);
});
