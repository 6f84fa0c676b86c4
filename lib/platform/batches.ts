import { batchItem, type SnapshotRow } from '../schema/platform';
import { describeIssues } from '../schema/issues';
import { dateIn } from '../run/night';
import { normalizeDate } from '../run/url';
import type { Profile, ReportType } from '../schema/vocabulary';

export type BatchResolution =
  /**
   * `aside`: a note naming the other items of the run's day and project, with other ids, that the
   * choice left aside (docs/contract.md §4.1), for a reviewer to see.
   */
  | { kind: 'found'; batchIds: string[]; note: string; aside?: string }
  /** Spec 9.1.2: Profile B diagnosis without a batch: try the built id on the snapshot. */
  | { kind: 'build'; builtId: string; note: string }
  /** `configuration`: the suite's settings lack what the spec needs (the Profile B brand code). */
  | { kind: 'error'; reason: string; failure: 'platform' | 'configuration' };

/** Spec 9.1.2: <BRANDCODE>-HIST-{projectId}-{YYYYMMDD}-D, YYYYMMDD from batchDate. */
export function builtDiagnosisBatchId(brandCode: string, projectId: string, batchDate: string): string {
  return `${brandCode}-HIST-${projectId}-${batchDate.replace(/-/g, '')}-D`;
}

/** A batchDate: YYYY-MM-DD or YYYYMMDD, alone or followed by a time part only (`T23:00:00Z`, ` 23:00:00`). */
const BATCH_DATE =
  /^(?<date>\d{4}-\d{2}-\d{2}|\d{8})(?<time>[T ](?<clock>\d{2}:\d{2}(?::\d{2}(?<fraction>\.\d+)?)?)(?<zone>Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * The day an instant written with its zone (`2026-11-19T16:00:00.000Z`, `…+08:00`) falls on in
 * `timeZone`, the zone the suite's days are in (L1_TIME_ZONE): Java serialises Beijing midnight
 * of 11-20 as 11-19T16:00Z, whose written date is the UTC day (foolproof audit of 2026-11-28).
 * Undefined when the time or the offset is not one (`25:00`, `+99:00`).
 */
function dayOfInstant(day: string, clock: string, fraction: string, zone: string, timeZone: string) {
  const offset = zone === 'Z' ? zone : `${zone.slice(0, 3)}:${zone.slice(-2)}`;
  const seconds = clock.length === 5 ? `${clock}:00` : clock.slice(0, 8);
  const instant = new Date(`${day}T${seconds}${fraction.slice(0, 4)}${offset}`);
  return Number.isNaN(instant.getTime()) ? undefined : dateIn(timeZone, instant);
}

/**
 * The day a batchDate names (docs/contract.md §4.1): a date or a local date-time its written day, an
 * instant with a zone its day in `timeZone` (`zoned`); undefined when it is none of these. DATA's
 * `meta.batch_date` is read the same way (lib/platform/collect.ts `sameDayOrStop`).
 */
export function dayOfBatchDate(
  text: string,
  timeZone: string,
): { day: string; exact: boolean; zoned: boolean } | undefined {
  const parts = BATCH_DATE.exec(text)?.groups;
  const written = parts && normalizeDate(parts['date']!);
  if (!parts || !written) return undefined;
  const { clock, fraction = '', zone } = parts;
  const day = zone ? dayOfInstant(written, clock!, fraction, zone, timeZone) : written;
  return day ? { day, exact: parts['time'] === undefined, zoned: !!zone } : undefined;
}

/** The endpoint of docs/contract.md §4.1, as the client names it in every error. */
export const BATCH_LIST = 'GET /api/geo_label/project/batch';

/** `timeZone`: the zone the suite's days are in (L1_TIME_ZONE), where an instant with a zone is read. */
type Run = { projectId: string; batchDate: string; timeZone: string };
type Candidate = { raw: unknown; index: number; exact: boolean; zoned: boolean };

/**
 * The day and project an item names, read from batchDate and project alone (contract 4.1), so an item
 * of another project or day is never validated further; `exact` when its batchDate has no time part.
 * A date or a local date-time names its written day; an instant with a zone (`Z`, `±hh:mm`) names
 * its day in `timeZone` (`zoned`).
 */
function keyOf(
  raw: unknown,
  timeZone: string,
): { day: string; project: string; exact: boolean; zoned: boolean } | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const { batchDate, project } = raw as Record<string, unknown>;
  if (typeof project !== 'string' && typeof project !== 'number') return undefined;
  const read = typeof batchDate === 'string' ? dayOfBatchDate(batchDate, timeZone) : undefined;
  return read && { ...read, project: String(project) };
}

/**
 * The run's item, validated strictly (docs/contract.md §4.1): its ids, or the field at fault.
 * `parsed` is the item's one validation, which `resolveBatch` also reads (whether it lists no id).
 */
function fromItem(
  { index, exact, zoned }: Candidate,
  parsed: ReturnType<typeof batchItem.safeParse>,
  run: Run,
): BatchResolution {
  const forRun = `the item for ${run.batchDate} / project ${run.projectId}`;
  if (!parsed.success) {
    const issues = describeIssues(parsed.error, `payload[${index}]`).join('; ');
    return {
      kind: 'error',
      reason: `${BATCH_LIST}: ${forRun} does not match the contract: ${issues}`,
      failure: 'platform',
    };
  }
  const batchIds = parsed.data.l1CrawlBatchIds.map((b) => b.batchId);
  if (batchIds.length === 0)
    return { kind: 'error', reason: `${BATCH_LIST}: ${forRun} has no l1CrawlBatchIds`, failure: 'platform' };
  const inZone = zoned ? `, ${run.batchDate} in ${run.timeZone}` : '';
  const dated = exact ? '' : ` (item dated ${JSON.stringify(parsed.data.batchDate)}${inZone})`;
  return {
    kind: 'found',
    batchIds,
    note: `batch list: ${batchIds.length} crawl batch id(s) for ${run.batchDate}${dated}`,
  };
}

/** How many items left aside a note names (a list of a thousand for one day stays one line). */
const ASIDE_NAMED = 5;
/** How many ids of an item left aside the note names, and how long each (README § Bounded outputs). */
const ASIDE_IDS = 3;
const ASIDE_ID_MAX = 100;

/**
 * Ids as a note or a reason names them, bounded (the first three, each cut at 100 characters, the rest
 * counted): notes are shown cut at 500 characters and reasons at 2,000, and what follows the ids says
 * what they mean.
 */
export function namedIds(ids: readonly string[]): string {
  if (ids.length === 0) return 'no id';
  const cut = (id: string) =>
    id.length > ASIDE_ID_MAX ? `${id.slice(0, ASIDE_ID_MAX)}… (${id.length} characters)` : id;
  const named = ids.slice(0, ASIDE_IDS).map(cut).join(',');
  return ids.length > ASIDE_IDS ? `${named} and ${ids.length - ASIDE_IDS} more id(s)` : named;
}

/**
 * The choice among two items of the run's day and project with different ids is kept (docs/contract.md
 * §4.1), but no longer silent: a note names each other item, its date and its ids, so a reviewer sees
 * the batch a rerun or a correction may have listed (foolproof audit of 2026-11-28: the first won
 * and its note did not mention the other). An item with the same ids in the same order changes
 * nothing and is not named; one whose ids cannot be read is named as such (only the chosen item is
 * validated).
 */
function withAside(resolution: BatchResolution, others: readonly Candidate[]): BatchResolution {
  if (resolution.kind !== 'found') return resolution;
  const aside = asideNote(others, resolution.batchIds, `${namedIds(resolution.batchIds)} was chosen`);
  return aside ? { ...resolution, aside } : resolution;
}

/**
 * The note naming `others` whose ids are not `chosenIds` (`withAside`), or undefined. Also when the
 * chosen item lists none and the id is built (spec 9.1.2): an item of the day with ids was left
 * aside in silence there (review 59i), `chosenIds` empty, an item listing none alike not named.
 */
function asideNote(others: readonly Candidate[], chosenIds: readonly string[], chosen: string) {
  const described = others.flatMap(({ raw, index }) => {
    const parsed = batchItem.safeParse(raw);
    const ids = parsed.success ? parsed.data.l1CrawlBatchIds.map((b) => b.batchId) : undefined;
    if (ids?.join(',') === chosenIds.join(',')) return [];
    const dated = JSON.stringify((raw as Record<string, unknown>)['batchDate']);
    return [`payload[${index}] dated ${dated} with ${ids ? namedIds(ids) : 'ids that cannot be read'}`];
  });
  if (described.length === 0) return undefined;
  return `batch list: ${described.length} other item(s) for the same day and project left aside: ${described.slice(0, ASIDE_NAMED).join('; ')}${described.length > ASIDE_NAMED ? ` and ${described.length - ASIDE_NAMED} more` : ''}; ${chosen} (an item dated exactly wins over a timed one, and among equals the first listed: docs/contract.md §4.1)`;
}

/**
 * Contract 4.1: the item whose batchDate and project equal the run's; its batch ids in order.
 * No item: Profile A → error; Profile B diagnosis → build the id (spec 9.1.2); otherwise error.
 */
export function resolveBatch(
  items: readonly unknown[],
  run: Run & { reportType: ReportType; profile: Profile; brandCode?: string },
): BatchResolution {
  const keys = items.map((raw) => keyOf(raw, run.timeZone));
  const candidates = keys.flatMap((k, index) =>
    k?.day === run.batchDate && k.project === run.projectId
      ? [{ raw: items[index], index, exact: k.exact, zoned: k.zoned }]
      : [],
  );
  // An item dated the run's day exactly wins over one dated with a time of that day, wherever each
  // stands: the contract writes batchDate "YYYY-MM-DD", so the exact item is the day's batch and a
  // timed one at most another batch of that day. Among equals the first, in the list's order.
  const chosen = candidates.find((c) => c.exact) ?? candidates[0];
  const diagnosisB = run.profile === 'B' && run.reportType === 'diagnosis';
  // Spec 4.1 / 9.1.2: "for reportType=diagnosis the list may be empty": an item of the run's day and
  // project whose l1CrawlBatchIds is empty lists no batch, as an empty batch list does, so a Profile B
  // diagnosis builds the id (review 59e: the run was a platform error, never checked).
  const parsed = chosen && batchItem.safeParse(chosen.raw);
  const listsNone = parsed?.data?.l1CrawlBatchIds.length === 0;
  if (chosen && parsed && !(diagnosisB && listsNone))
    return withAside(
      fromItem(chosen, parsed, run),
      candidates.filter((c) => c !== chosen),
    );
  const unread = keys.filter((k) => !k).length;
  const what = chosen
    ? `the batch list's item for batchDate ${run.batchDate} and project ${run.projectId} (payload[${chosen.index}]) lists no l1CrawlBatchIds`
    : `no batch for batchDate ${run.batchDate} and project ${run.projectId} in the batch list (${items.length} item(s)${unread ? `, ${unread} whose batchDate or project cannot be read` : ''})`;
  if (diagnosisB) {
    if (!run.brandCode) {
      return {
        kind: 'error',
        reason: `${what}; spec 9.1.2 builds the diagnosis batch id from the group's brand code, which the configuration lacks: set L1_PROFILE_B_BRAND_CODE or profileB.brandCode in the runs file`,
        failure: 'configuration',
      };
    }
    const builtId = builtDiagnosisBatchId(run.brandCode, run.projectId, run.batchDate);
    const others = candidates.filter((c) => c !== chosen);
    const aside = chosen ? asideNote(others, [], 'the built id was tried') : undefined;
    return {
      kind: 'build',
      builtId,
      note: `${what}: built ${builtId} (spec 9.1.2)${aside ? `; ${aside}` : ''}`,
    };
  }
  return {
    kind: 'error',
    reason: `${what}: check the batch date of the report URL and the project of the platform URL`,
    failure: 'platform',
  };
}

/**
 * The ids one batch id text names: the ids go as one comma-joined `batchIds` (§4.1), so a row may
 * name them joined (an aggregate row echoing the parameter) and a run's `batchId` may be several
 * (review of 2026-11-28: a row naming "A,B" for batchIds=A,B was "another batch").
 */
export const idParts = (id: string): string[] =>
  id
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);

/**
 * Spec 9.1.2/9.1.3: the snapshot fetched with the built id decides. Rows present → the rows'
 * crawlBatchId is authoritative; rows empty → stop and ask (needs-input), no other prefix is tried.
 * Rows naming the built id confirm it, whatever else they name: another id beside it is a platform
 * that mixed batches, which the collection stops (`sameBatchOrStop`), never a second id every table
 * is asked with (review 59e: rows of the built id and of an older day's made the run ask every
 * table, and the word cloud, for both, the older first), as for a batch id the run gives.
 */
export function confirmBuiltBatch(
  builtId: string,
  rows: SnapshotRow[],
): { kind: 'found'; batchIds: string[]; note: string } | { kind: 'needs-input'; reason: string } {
  if (rows.length === 0) {
    return {
      kind: 'needs-input',
      reason: `spec 9.1.2 / 8.1.1: the batch list has no batch and the snapshot of the built id ${builtId} has no rows: stop and ask which crawl batch id to use (set batchId on the run); no other prefix is tried`,
    };
  }
  const built = new Set(idParts(builtId));
  if (rows.some((r) => idParts(r.crawlBatchId ?? '').some((part) => built.has(part))))
    return {
      kind: 'found',
      batchIds: [builtId],
      note: `snapshot rows of ${builtId} name it as their crawlBatchId: the built id is confirmed (spec 9.1.3)`,
    };
  // Part by part, as `sameBatchOrStop` reads them: an aggregate row echoing the parameter names the
  // ids joined (`A,B`), which is two ids, never one the word cloud is asked with (review 59e).
  const ids = [...new Set(rows.flatMap((r) => idParts(r.crawlBatchId ?? '')))];
  if (ids.length === 0)
    return {
      kind: 'found',
      batchIds: [builtId],
      note: `snapshot rows of ${builtId} carry no crawlBatchId: using the built id`,
    };
  return {
    kind: 'found',
    batchIds: ids,
    note: `authoritative crawlBatchId from the snapshot: ${ids.join(',')} (spec 9.1.3)`,
  };
}
