import fs from 'node:fs';
import path from 'node:path';
import type { KeptResult } from './verdict';
import { writePrivate } from '../run/state';

/**
 * What an item test leaves when it ends, written by the test itself (fixtures/item.ts) under the
 * invocation's folder: verdict files are built from these at the end of the invocation (global
 * teardown), whatever reporter the command line chose.
 */
export interface ItemRecord {
  item: number;
  /** Playwright's status of the test: only `passed` is a pass. */
  status: 'passed' | 'failed' | 'timedOut' | 'skipped' | 'interrupted';
  /** The rule's result when the rule ran (mismatches already capped). */
  result?: KeptResult;
  /** The first line of the test's error when the rule did not run. */
  error?: string;
  durationMs: number;
}

export function recordFile(recordsDir: string, slug: string, item: number): string {
  return path.join(recordsDir, slug, `item${item}.json`);
}

export function writeRecord(recordsDir: string, slug: string, record: ItemRecord): void {
  writePrivate(recordFile(recordsDir, slug, record.item), JSON.stringify(record));
}

export function readRecords(recordsDir: string, slug: string): ItemRecord[] {
  const dir = path.join(recordsDir, slug);
  const records: ItemRecord[] = [];
  for (const name of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
    if (!/^item\d+\.json$/.test(name)) continue;
    try {
      records.push(JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')) as ItemRecord);
    } catch {
      // a record cut by a killed worker: the item counts as not finished
    }
  }
  return records.sort((a, b) => a.item - b.item);
}
