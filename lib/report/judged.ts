import fs from 'node:fs';
import path from 'node:path';
import type { Evidence, FailureKind, RunInfo, RunStatus } from '../platform/evidence';
import type { RequestRecord } from '../platform/client';
import { ITEM_RULES } from '../rules';
import { ITEM_NUMBERS, type ItemNumber, type ItemResult } from '../rules/types';
import { writePrivate } from '../run/state';
import { safeText } from './text';

/**
 * A judged run (datacompy's "compute once, then query"): the run's facts, status and notes, and
 * the result of every item's rule over the inputs collected and validated once. Written once by the
 * test that collects the run; every item test, section picture, record and verdict file reads it.
 * No rule runs twice; no payload is parsed twice.
 */
export interface JudgedRun {
  run: RunInfo;
  status: RunStatus;
  reason?: string;
  failureKind?: FailureKind;
  /** What the collection decided along the way (profile rule, data source, batch resolution). */
  notes: string[];
  /** Each item's result (all rows); present when the run was checked. */
  items: Partial<Record<ItemNumber, JudgedItem>>;
  requests: RequestRecord[];
  /** Loads of the report page by the check itself (one, or two after a new login). */
  pageLoads: number;
  /** Loads of the report page for its section pictures (one when a picture was wanted, else 0). */
  pictureLoads: number;
  /** The collection and judging, in ms. */
  durationMs: number;
  /** Items whose report section was pictured (`shotFile`). */
  shots: ItemNumber[];
}

/** An item's rule result; `error` when the rule itself could not be evaluated (never a pass). */
export type JudgedItem = ItemResult & { error?: string };

/** Runs every item's rule once over the collected inputs. A rule that throws fails its item only. */
export function judge(evidence: Evidence, durationMs = evidence.durationMs): JudgedRun {
  const items: Partial<Record<ItemNumber, JudgedItem>> = {};
  const { parsed, run } = evidence;
  if (evidence.status === 'checked' && parsed && run.reportType) {
    const context = {
      profile: run.profile,
      level: run.level,
      reportType: run.reportType,
      data: parsed.data,
      platform: parsed.platform,
      ...(run.batchDate ? { batchDate: run.batchDate } : {}),
    };
    for (const item of ITEM_NUMBERS) {
      try {
        items[item] = ITEM_RULES[item](context);
      } catch (e) {
        const message = safeText(e instanceof Error ? e.message : String(e), 2000);
        items[item] = {
          item,
          title: '',
          verdict: 'fail',
          steps: [],
          notes: [],
          error: `the rule could not be evaluated: ${message}`,
        };
      }
    }
  }
  return {
    run: evidence.run,
    status: evidence.status,
    ...(evidence.reason !== undefined ? { reason: evidence.reason } : {}),
    ...(evidence.failureKind !== undefined ? { failureKind: evidence.failureKind } : {}),
    notes: evidence.notes,
    items,
    requests: evidence.requests,
    pageLoads: evidence.pageLoads,
    pictureLoads: 0,
    durationMs,
    shots: [],
  };
}

/** The items a judged run fails on, by its rules (to picture their sections). */
export function failingItems(judged: JudgedRun): ItemNumber[] {
  return ITEM_NUMBERS.filter((n) => judged.items[n]?.verdict === 'fail');
}

/** A run's own folder in the invocation: `judged.json`, `inputs.json`, its test records, pictures. */
export function runFolder(runsDir: string, slug: string): string {
  return path.join(runsDir, slug);
}

const JUDGED = 'judged.json';
const INPUTS = 'inputs.json';

/**
 * Stores a judged run (0600, atomically) and the parsed inputs its rules read. A result too large to
 * store becomes the run's error instead of an exception that would take the test with it.
 */
export function writeJudged(dir: string, judged: JudgedRun, inputs?: Evidence['parsed']): JudgedRun {
  let text: string;
  try {
    text = JSON.stringify(judged);
  } catch (e) {
    judged = {
      ...judged,
      status: 'error',
      failureKind: 'platform',
      reason: `the result of this run is too large to store (${(e as Error).message}): lower L1_MAX_ANSWER_MB`,
      items: {},
    };
    text = JSON.stringify(judged);
  }
  if (inputs) {
    try {
      writePrivate(path.join(dir, INPUTS), JSON.stringify(inputs));
    } catch {
      // the inputs are kept for a reader's inspection only; the judged result is what counts
    }
  }
  writePrivate(path.join(dir, JUDGED), text);
  return judged;
}

/** When the run's judged result was written (ms since the epoch), if it was. */
export function judgedAt(dir: string): number | undefined {
  try {
    return fs.statSync(path.join(dir, JUDGED)).mtimeMs;
  } catch {
    return undefined;
  }
}

export function readJudged(dir: string): JudgedRun | undefined {
  try {
    return JSON.parse(fs.readFileSync(path.join(dir, JUDGED), 'utf8')) as JudgedRun;
  } catch {
    return undefined;
  }
}
