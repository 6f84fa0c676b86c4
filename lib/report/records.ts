import fs from 'node:fs';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import type { ItemNumber } from '../rules/types';
import { appendPrivate } from '../run/state';

/**
 * What each test of a run leaves in the run's folder of the invocation (lib/report/judged.ts
 * `runFolder`), by the test itself (fixtures/), so verdict files never depend on a reporter: one
 * line when it starts (`markRunning`), one line with Playwright's outcome when it ends
 * (`writeTestRecord`), both appended to the run's `tests.jsonl`. A test whose start is the run's
 * last one and that has no later record of that attempt reads as `running`: after the invocation
 * stopped, a test the stop interrupted.
 *
 * One file per run, appended to, where each test created a record file and renamed it into place
 * beside a mark written over in place: one file a run instead of twelve (docs/decisions.md,
 * Records).
 */
export type TestKey = 'collection' | ItemNumber;

export interface TestRecord {
  test: TestKey;
  /** Playwright's status of the test (only `passed` is a pass), or `running`. */
  status: 'running' | 'passed' | 'failed' | 'timedOut' | 'skipped' | 'interrupted';
  durationMs: number;
  /** The first line of the test's error when no rule result explains it. */
  error?: string;
  /** Playwright's attempt (`testInfo.retry`: 0, then 1 for the first retry …). */
  retry?: number;
}

/** A test's start, as its line in the log: the test and its attempt. */
interface Start {
  started: TestKey;
  retry: number;
}

const LOG = 'tests.jsonl';

/**
 * Appends one line in a single write to a file opened for appending: two workers that append at
 * once (`--repeat-each` runs the same test of a run in two workers) each add whole lines. The line
 * begins with its newline, so a line cut by a killed worker stays a line of its own that does not
 * parse, which `readTestRecords` skips, and never swallows the next one.
 */
function append(runDir: string, line: Start | TestRecord): void {
  appendPrivate(path.join(runDir, LOG), `\n${JSON.stringify(line)}`);
}

/**
 * The first line of a test's first error, as its record keeps it: without the colour codes
 * Playwright puts in its own messages (a timeout's), which showed as `\x1b[31m` escapes.
 */
export function firstErrorLine(errors: readonly { message?: string }[]): string | undefined {
  return errors.map((e) => stripVTControlCharacters(e.message ?? '').split('\n')[0]).find(Boolean);
}

/** Names the test that starts, and its attempt. */
export function markRunning(runDir: string, test: TestKey, retry = 0): void {
  append(runDir, { started: test, retry });
}

/** The test's outcome; the last record of a test is the one that counts. */
export function writeTestRecord(runDir: string, record: TestRecord): void {
  append(runDir, record);
}

const isKey = (v: unknown): v is TestKey =>
  v === 'collection' || (typeof v === 'number' && Number.isInteger(v));

/**
 * The records of a run, collection first, then items 3 … 12: the last record of each test, and
 * the test of the last start as `running` if no record of that attempt or a later one exists (a
 * record of an earlier attempt is the one a retry started again). Told by the order of lines and
 * attempt numbers, never by file times (Linux stamps files with a clock of one timer tick,
 * docs/decisions.md, Speed).
 */
export function readTestRecords(runDir: string): TestRecord[] {
  const records = new Map<TestKey, TestRecord>();
  let last: Start | undefined;
  for (const entry of logLines(runDir)) {
    if (isKey(entry.started))
      last = { started: entry.started, retry: typeof entry.retry === 'number' ? entry.retry : 0 };
    else if (isKey(entry.test) && typeof entry.status === 'string')
      records.set(entry.test, entry as TestRecord);
  }
  if (last) {
    const record = records.get(last.started);
    if (!record || (record.retry ?? 0) < last.retry)
      records.set(last.started, { test: last.started, status: 'running', durationMs: 0 });
  }
  const order = (k: TestKey) => (k === 'collection' ? 0 : k);
  return [...records.values()].sort((a, b) => order(a.test) - order(b.test));
}

/**
 * The attempts of a run's tests that failed (`failed` or `timedOut`, every attempt of a retried test
 * counted), as Playwright counts them against `--max-failures`.
 */
export function failedAttempts(runDir: string): number {
  return logLines(runDir).filter((e) => e.status === 'failed' || e.status === 'timedOut').length;
}

/** The lines of a run's log that parse, in order (none when there is no log yet). */
function logLines(runDir: string): Partial<Start & TestRecord>[] {
  let text: string;
  try {
    text = fs.readFileSync(path.join(runDir, LOG), 'utf8');
  } catch {
    return [];
  }
  const lines: Partial<Start & TestRecord>[] = [];
  for (const line of text.split('\n')) {
    try {
      const entry = JSON.parse(line) as unknown;
      if (entry !== null && typeof entry === 'object') lines.push(entry as Partial<Start & TestRecord>);
    } catch {
      continue; // an empty line, or a line cut by a killed worker
    }
  }
  return lines;
}
