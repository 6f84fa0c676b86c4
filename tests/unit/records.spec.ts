import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { markRunning, readTestRecords, writeTestRecord } from '../../lib/report/records';
import { overwritePrivate } from '../../lib/run/state';
import { tempDir } from './fakes/temp';

/**
 * The records a run's tests leave (lib/report/records.ts): a test names itself in the run's
 * `running.json` when it starts and writes its record when it ends. What reads them (the verdict
 * of a run the stop cut short, docs/contract.md §7) must see the test in flight as `running`, and
 * no finished test as running.
 */

const statuses = (dir: string) => readTestRecords(dir).map((r) => `${String(r.test)}:${r.status}`);

/** Sets a file's modification time, in ms since the epoch. */
const touch = (file: string, ms: number) => fs.utimesSync(file, ms / 1000, ms / 1000);

test('the test named in running.json without a record is running; the ones before it are not', () => {
  const dir = tempDir('records');
  markRunning(dir, 'collection');
  writeTestRecord(dir, { test: 'collection', status: 'passed', durationMs: 5 });
  markRunning(dir, 3);
  writeTestRecord(dir, { test: 3, status: 'failed', durationMs: 2 });
  markRunning(dir, 4);
  expect(statuses(dir)).toEqual(['collection:passed', '3:failed', '4:running']);
  writeTestRecord(dir, { test: 4, status: 'passed', durationMs: 1 });
  expect(statuses(dir)).toEqual(['collection:passed', '3:failed', '4:passed']);
});

test('a record of an earlier attempt than the mark: the test a retry started again is running', () => {
  const dir = tempDir('records');
  markRunning(dir, 7, 0);
  writeTestRecord(dir, { test: 7, status: 'failed', durationMs: 3, retry: 0 });
  markRunning(dir, 7, 1);
  // Told by the attempt, not by file times: both files may carry the same timer tick.
  const tick = Math.floor(Date.now() / 1000) * 1000;
  touch(path.join(dir, 'running.json'), tick);
  touch(path.join(dir, 'test-7.json'), tick);
  expect(statuses(dir)).toEqual(['7:running']);
  // The retry's own record: finished, even when it is stamped before the mark.
  writeTestRecord(dir, { test: 7, status: 'failed', durationMs: 2, retry: 1 });
  touch(path.join(dir, 'test-7.json'), tick - 60_000);
  expect(statuses(dir)).toEqual(['7:failed']);
});

test('an unreadable or foreign running.json names nothing', () => {
  const dir = tempDir('records');
  writeTestRecord(dir, { test: 5, status: 'passed', durationMs: 1 });
  fs.writeFileSync(path.join(dir, 'running.json'), '{"test": 6}{"tes');
  expect(statuses(dir)).toEqual(['5:passed']);
  fs.writeFileSync(path.join(dir, 'running.json'), '{"test": "item 6"}');
  expect(statuses(dir)).toEqual(['5:passed']);
  fs.rmSync(path.join(dir, 'running.json'));
  expect(statuses(dir)).toEqual(['5:passed']);
});

test('a file written over in place reads back exactly what was written last, owner-only', () => {
  const file = path.join(tempDir('records'), 'staging.json');
  overwritePrivate(file, 'a'.repeat(5000));
  expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  overwritePrivate(file, '{"short":1}');
  expect(fs.readFileSync(file, 'utf8')).toBe('{"short":1}');
  overwritePrivate(file, '{"longer":"value"}');
  expect(fs.readFileSync(file, 'utf8')).toBe('{"longer":"value"}');
});
