import fs from 'node:fs';
import { writeAtomic } from '../../util/atomic';
import { isRecord } from '../../util/json';
import { shownPath } from '../../util/shown-path';
import type { NightSummary } from '../night';
import { safeText } from '../text';

/**
 * The Allure history kept from night to night (`history.jsonl`, one JSON line a night), bounded:
 * each line keeps only what the report reads, and the file only the newest nights that fit a byte
 * budget (docs/decisions.md § History that joins nights: "A history of bounded size").
 *
 * Allure 3.18 reads of a history test result, besides the key it is filed under (the history id):
 * - the History tab (plugin-awesome's web app): `status`, `start`, `stop`, `duration`, `url`
 *   (and `error`, which no history line has: Allure writes `message` and `trace` instead);
 * - the test's transition and flakiness (core/dist/utils/new.js, flaky.js): `status`;
 * - the charts (web-commons/dist/charts): `historyId`, `status`, `start`, `stop`, `duration`,
 *   and for the coverage diff map the `epic`, `feature` and `story` labels, `id` and `name` of
 *   the nearest night's tests; `environment` (or the labels) only with several environments.
 * Nothing reads `fullName`, `message`, `trace`, the other labels nor the night's
 * `knownTestCaseIds`: those were 60 % of a line (at 300 runs, 2.5 of 4.2 MB).
 */
const KEPT_FIELDS = [
  'id',
  'name',
  'environment',
  'status',
  'start',
  'stop',
  'duration',
  'historyId',
  'url',
  'reportLinks',
] as const;
const KEPT_LABELS = new Set(['epic', 'feature', 'story']);

/** Allure's own limit (allurerc.mjs `historyLimit`): it reads no more lines than these. */
export const HISTORY_NIGHTS = 60;

type Json = Record<string, unknown>;

/** One test's history entry with only what the report reads. */
function slimEntry(entry: Json): Json {
  const slim: Json = {};
  for (const field of KEPT_FIELDS) if (entry[field] !== undefined) slim[field] = entry[field];
  if (Array.isArray(entry.labels))
    slim.labels = entry.labels.filter((l) => isRecord(l) && KEPT_LABELS.has(l.name as string));
  return slim;
}

/** A line of the history as JSON, or undefined when it is not a JSON object (a write cut short). */
function parsePoint(line: string): Json | undefined {
  try {
    const point: unknown = JSON.parse(line);
    return isRecord(point) ? point : undefined;
  } catch {
    return undefined;
  }
}

/**
 * One line of the history with only what the report reads: the same text when there was nothing to
 * remove (a point without a `testResults` object is kept as it is), undefined when the line is not a
 * JSON object (a write cut short by a kill, which `boundHistory` drops).
 */
export function slimHistoryLine(line: string): string | undefined {
  const point = parsePoint(line);
  if (!point) return undefined;
  if (!isRecord(point.testResults)) return line;
  const testResults: Json = {};
  for (const [historyId, entry] of Object.entries(point.testResults))
    testResults[historyId] = isRecord(entry) ? slimEntry(entry) : entry;
  const slim = JSON.stringify({ ...point, knownTestCaseIds: [], testResults });
  return slim.length < line.length ? slim : line;
}

/** The lines of a file, one at a time (a night's line is megabytes; the file was 251 MB). */
function* linesOf(file: string): Generator<string> {
  const fd = fs.openSync(file, 'r');
  try {
    const chunk = Buffer.alloc(1 << 20);
    let parts: Buffer[] = [];
    for (let n = fs.readSync(fd, chunk); n > 0; n = fs.readSync(fd, chunk)) {
      const read = chunk.subarray(0, n);
      let start = 0;
      for (let end = read.indexOf(10); end !== -1; end = read.indexOf(10, start)) {
        parts.push(Buffer.from(read.subarray(start, end)));
        yield Buffer.concat(parts).toString('utf8');
        parts = [];
        start = end + 1;
      }
      if (start < n) parts.push(Buffer.from(read.subarray(start)));
    }
    if (parts.length) yield Buffer.concat(parts).toString('utf8');
  } finally {
    fs.closeSync(fd);
  }
}

export interface HistoryBound {
  /** Nights (lines) in the file before. */
  nights: number;
  /** Nights kept: the newest that fit. */
  kept: number;
  /** Lines that held more than the report reads (written before this bound, or Allure's own). */
  slimmed: number;
  /**
   * Lines removed as not a JSON object (not counted in `nights`): Allure stops on the first one
   * (a SyntaxError, and no report), and a write cut short by a kill leaves one at the end.
   */
  torn: number;
  bytesBefore: number;
  bytesAfter: number;
}

/**
 * Bounds the history file: a line that is not a JSON object removed (`torn`), every other one
 * slimmed (`slimHistoryLine`), then only the newest lines whose bytes together fit `budgetBytes`, at
 * most `maxNights` of them; the older ones are removed from the file for good, as Allure's own
 * limit of nights removes them. The file is written again (whole, atomically) only when something
 * changed. It reads one line at a time, so a large file (251 MB at 60 nights of 300 runs, before
 * lines were slimmed) costs no more than its largest line.
 */
export function boundHistory(
  file: string,
  budgetBytes: number,
  maxNights: number = HISTORY_NIGHTS,
): HistoryBound | undefined {
  if (!fs.existsSync(file)) return undefined;
  const bytesBefore = fs.statSync(file).size;
  // The newest lines that fit so far: never more than the budget and one line is held.
  const kept: string[] = [];
  let keptBytes = 0;
  let nights = 0;
  let slimmed = 0;
  let torn = 0;
  for (const line of linesOf(file)) {
    if (line.trim() === '') continue;
    const slim = slimHistoryLine(line);
    if (slim === undefined) {
      torn++;
      continue;
    }
    nights++;
    if (slim !== line) slimmed++;
    kept.push(slim);
    keptBytes += Buffer.byteLength(slim) + 1;
    while (kept.length > 0 && (keptBytes > budgetBytes || kept.length > maxNights))
      keptBytes -= Buffer.byteLength(kept.shift()!) + 1;
  }
  if (slimmed === 0 && torn === 0 && kept.length === nights && keptBytes === bytesBefore)
    return { nights, kept: nights, slimmed, torn, bytesBefore, bytesAfter: bytesBefore };
  writeAtomic(file, kept.map((l) => `${l}\n`).join(''));
  return { nights, kept: kept.length, slimmed, torn, bytesBefore, bytesAfter: keptBytes };
}

/**
 * The field of a night's point that names the night (scripts/report.ts `nightId`), so that the
 * history itself says a night is in: `history.jsonl.nights` is a second file, written after the
 * point, and a kill between the two added the night's point again at the next build (audit of
 * 2026-11-27). Allure reads no such field; slimming keeps it (`slimHistoryLine` keeps a point's own fields).
 */
export const NIGHT_FIELD = 'l1Night';

/** Whether a point of the history names the night `id` (`NIGHT_FIELD`). */
export function historyHasNight(file: string, id: string): boolean {
  if (!fs.existsSync(file)) return false;
  for (const line of linesOf(file))
    if (line.includes(id) && parsePoint(line)?.[NIGHT_FIELD] === id) return true;
  return false;
}

/** The text of the newest point of a history file (its last non-blank line), or undefined. */
function newestPoint(file: string): string | undefined {
  if (!fs.existsSync(file)) return undefined;
  let last: string | undefined;
  for (const line of linesOf(file)) if (line.trim() !== '') last = line;
  return last;
}

/** The identity of a point: Allure's `uuid` of the report that wrote it, else its text. */
function pointKey(line: string): string {
  const point = parsePoint(line);
  return typeof point?.uuid === 'string' ? `uuid:${point.uuid}` : `text:${line}`;
}

/**
 * Puts tonight's history in place: `work`, the copy of `file` Allure appended the night's point to,
 * with that point (its newest line, when it is not `file`'s newest, which is still the history as
 * it was: Allure keeps 60 points and drops the oldest, so a count cannot tell) naming the night,
 * replaces `file` in one rename, and `work` is gone. A kill before the rename leaves the history as
 * it was (the night is not in; the next build adds it), after it the history with the night in:
 * never the point without its name. Returns whether the point was named (false: Allure appended
 * none).
 */
export function commitNight(work: string, file: string, id: string): boolean {
  const before = newestPoint(file);
  const lines: string[] = [];
  for (const line of linesOf(work)) if (line.trim() !== '') lines.push(line);
  const newest = lines.at(-1);
  const appended =
    newest !== undefined && (before === undefined || pointKey(newest) !== pointKey(before))
      ? parsePoint(newest)
      : undefined;
  if (appended) lines[lines.length - 1] = JSON.stringify({ ...appended, [NIGHT_FIELD]: id });
  writeAtomic(work, lines.map((l) => `${l}\n`).join(''));
  fs.renameSync(work, file);
  return appended !== undefined;
}

/** Whether the night is in the history: listed in `.nights`, or named by a point of its own. */
export function alreadyInHistory(history: string, id: string): boolean {
  try {
    if (fs.readFileSync(`${history}.nights`, 'utf8').split('\n').includes(id)) return true;
  } catch {
    // no list yet
  }
  return historyHasNight(history, id);
}

/**
 * Whether tonight's build adds a point to the history, and the report's `history:` line saying
 * so. A point only for a complete night (a partial invocation is not the night), not one shard of
 * it (each shard added a point of its own tests for the same night: CLI audit of 2026-11-26; the
 * merged night adds it), where no run was interrupted and that was not stopped (a point would show
 * the items that did not run as broken: docs/decisions.md § History that joins nights; its stop
 * says so even where no run could be marked interrupted, a merged night missing a shard whose runs
 * are not known), and that is not in the history yet (asked last: it reads the history file).
 */
export function historyPoint(
  night: NightSummary | undefined,
  history: string,
  inHistory: () => boolean,
): { append: boolean; line: string } {
  const none = (why: string, after = '') => ({ append: false, line: `${why}: no point added${after}` });
  // The night's summary alone (none: a folder of no verdict): it holds the verdicts and the stop.
  if (!night?.selection.complete) return none('partial invocation');
  const shard = night.selection.shard ?? null;
  const interrupted = night.verdicts.filter((v) => v.failureKind === 'interrupted').length;
  if (shard) return none(`shard ${shard} of the night`, ' (the night merged from its shards adds one)');
  if (interrupted)
    return none(`${interrupted} run(s) interrupted`, ' (it would show the items that did not run as broken)');
  if (night.stopped) return none(safeText(night.stopped, 300));
  if (inHistory()) return none(`this night is already in ${shownPath(history)}`);
  return { append: true, line: `this night added to ${shownPath(history)}` };
}
