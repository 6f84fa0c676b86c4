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
}

function recordFile(runDir: string, test: TestKey): string {
  return path.join(runDir, `test-${test}.json`);
}

const RUNNING = 'running.json';

/**
 * Names the test that starts in the run's `running.json`, written in place: a run's tests run one
 * after another, so one file per run says which one is in flight, where a `running` record per
 * test was a file created and then replaced by the final record (docs/decisions.md, Records). Two
 * writes at once (`--repeat-each`) can leave it unreadable; it then names nothing.
 */
export function markRunning(runDir: string, test: TestKey): void {
  overwritePrivate(path.join(runDir, RUNNING), JSON.stringify({ test }));
}

/** The test `running.json` names if it has no record written since (its mtime is not older). */
function stillRunning(runDir: string, records: TestRecord[]): TestKey | undefined {
  let test: TestKey;
  let marked: number;
  try {
    const file = path.join(runDir, RUNNING);
    marked = fs.statSync(file).mtimeMs;
    test = (JSON.parse(fs.readFileSync(file, 'utf8')) as { test: TestKey }).test;
  } catch {
    return undefined;
  }
  if (test !== 'collection' && typeof test !== 'number') return undefined;
  if (!records.some((r) => r.test === test)) return test;
  try {
    // A record older than the mark is an earlier attempt's (a retry started the test again).
    return fs.statSync(recordFile(runDir, test)).mtimeMs < marked ? test : undefined;
  } catch {
    return test;
  }
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
