import fs from 'node:fs';
import path from 'node:path';
import type { ItemNumber } from '../rules/types';
import { writePrivate } from '../run/state';

/**
 * What each test of a run leaves in the run's folder of the invocation (lib/report/judged.ts
 * `runFolder`): written `running` when the test starts and with Playwright's outcome when it
 * ends, by the test itself (fixtures/), so verdict files never depend on a reporter. A record
 * still `running` after the invocation stopped is a test the stop interrupted.
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
  const order = (k: TestKey) => (k === 'collection' ? 0 : k);
  return records.sort((a, b) => order(a.test) - order(b.test));
}
