import fs from 'node:fs';
import path from 'node:path';
import type { ItemNumber } from '../rules/types';
import { overwritePrivate, writePrivate } from '../run/state';

/**
 * What each test of a run leaves in the run's folder of the invocation (lib/report/judged.ts
 * `runFolder`), by the test itself (fixtures/), so verdict files never depend on a reporter: when
 * it starts, its name in the run's `running.json` (`markRunning`); when it ends, its record with
 * Playwright's outcome. A test named there without a later record reads as `running`: after the
 * invocation stopped, a test the stop interrupted.
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

function recordFile(runDir: string, test: TestKey): string {
  return path.join(runDir, `test-${test}.json`);
}

const RUNNING = 'running.json';

/**
 * Names the test that starts, and its attempt, in the run's `running.json`, written in place: a
 * run's tests run one after another, so one file per run says which one is in flight, where a
 * `running` record per test was a file created and then replaced by the final record
 * (docs/decisions.md, Records). Two writes at once (`--repeat-each`) can leave it unreadable; it
 * then names nothing.
 */
export function markRunning(runDir: string, test: TestKey, retry = 0): void {
  overwritePrivate(path.join(runDir, RUNNING), JSON.stringify({ test, retry }));
}

/**
 * The test `running.json` names, if no record of that attempt or a later one exists: a record of an
 * earlier attempt is the one a retry started again. Told by attempt numbers, not file times (Linux
 * stamps files with a clock of one timer tick, docs/decisions.md, Speed).
 */
function stillRunning(runDir: string, records: TestRecord[]): TestKey | undefined {
  let mark: { test?: unknown; retry?: unknown };
  try {
    mark = JSON.parse(fs.readFileSync(path.join(runDir, RUNNING), 'utf8')) as typeof mark;
  } catch {
    return undefined;
  }
  const { test } = mark;
  if (test !== 'collection' && typeof test !== 'number') return undefined;
  const retry = typeof mark.retry === 'number' ? mark.retry : 0;
  const record = records.find((r) => r.test === test);
  return record && (record.retry ?? 0) >= retry ? undefined : (test as TestKey);
}

/**
 * Written atomically: `--repeat-each` can run the same test of a run in two workers at once, and
 * two writes in place could leave a record mixed from both (read as a test not finished).
 */
export function writeTestRecord(runDir: string, record: TestRecord): void {
  writePrivate(recordFile(runDir, record.test), JSON.stringify(record));
}

/** The records of a run, collection first, then items 3 … 12. */
export function readTestRecords(runDir: string): TestRecord[] {
  const records: TestRecord[] = [];
  let names: string[];
  try {
    names = fs.readdirSync(runDir);
  } catch {
    return records;
  }
  for (const name of names) {
    if (!/^test-(collection|\d+)\.json$/.test(name)) continue;
    try {
      records.push(JSON.parse(fs.readFileSync(path.join(runDir, name), 'utf8')) as TestRecord);
    } catch {
      // a record cut by a killed worker: the test counts as not finished
    }
  }
  const running = stillRunning(runDir, records);
  const all =
    running === undefined
      ? records
      : [
          ...records.filter((r) => r.test !== running),
          { test: running, status: 'running' as const, durationMs: 0 },
        ];
  const order = (k: TestKey) => (k === 'collection' ? 0 : k);
  return all.sort((a, b) => order(a.test) - order(b.test));
}
