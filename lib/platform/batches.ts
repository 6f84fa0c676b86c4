import type { BatchItem, SnapshotRow } from '../schema/platform';
import { normalizeDate } from '../run/url';
import type { Profile, ReportType } from '../schema/vocabulary';

export type BatchResolution =
  | { kind: 'found'; batchIds: string[]; note: string }
  /** Spec 9.1.2: Profile B diagnosis without a batch: try the built id on the snapshot. */
  | { kind: 'build'; builtId: string; note: string }
  /** `configuration`: the suite's settings lack what the spec needs (the Profile B brand code). */
  | { kind: 'error'; reason: string; failure: 'platform' | 'configuration' };

/** Spec 9.1.2: <BRANDCODE>-HIST-{projectId}-{YYYYMMDD}-D, YYYYMMDD from batchDate. */
export function builtDiagnosisBatchId(brandCode: string, projectId: string, batchDate: string): string {
  return `${brandCode}-HIST-${projectId}-${batchDate.replace(/-/g, '')}-D`;
}

/**
 * Contract 4.1: the item whose batchDate and project equal the run's; its batch ids in order.
 * No item: Profile A → error; Profile B diagnosis → build the id (spec 9.1.2); otherwise error.
 */
export function resolveBatch(
  items: BatchItem[],
  run: { projectId: string; batchDate: string; reportType: ReportType; profile: Profile; brandCode?: string },
): BatchResolution {
  // A batch date with a time part ("2025-11-17 00:00:00") or as YYYYMMDD still names its day.
  const item = items.find(
    (i) =>
      normalizeDate(i.batchDate.slice(0, 10).replace(/^(\d{8}).*/, '$1')) === run.batchDate &&
      i.project === run.projectId,
  );
  if (item) {
    const batchIds = item.l1CrawlBatchIds.map((b) => b.batchId);
    if (batchIds.length === 0) {
      return {
        kind: 'error',
        reason: `batch list: the item for ${run.batchDate} / project ${run.projectId} has no l1CrawlBatchIds`,
        failure: 'platform',
      };
    }
    return {
      kind: 'found',
      batchIds,
      note: `batch list: ${batchIds.length} crawl batch id(s) for ${run.batchDate}`,
    };
  }
  const what = `no batch for batchDate ${run.batchDate} and project ${run.projectId} in the batch list (${items.length} item(s))`;
  if (run.profile === 'B' && run.reportType === 'diagnosis') {
    if (!run.brandCode) {
      return {
        kind: 'error',
        reason: `${what}; spec 9.1.2 builds the diagnosis batch id from the group's brand code, which the configuration lacks: set L1_PROFILE_B_BRAND_CODE or profileB.brandCode in the runs file`,
        failure: 'configuration',
      };
    }
    const builtId = builtDiagnosisBatchId(run.brandCode, run.projectId, run.batchDate);
    return { kind: 'build', builtId, note: `${what}: built ${builtId} (spec 9.1.2)` };
  }
  return {
    kind: 'error',
    reason: `${what}: check the batch date of the report URL and the project of the platform URL`,
    failure: 'platform',
  };
}

/**
 * Spec 9.1.2/9.1.3: the snapshot fetched with the built id decides. Rows present → the rows'
 * crawlBatchId is authoritative; rows empty → stop and ask (needs-input), no other prefix is tried.
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
  const ids = [...new Set(rows.map((r) => r.crawlBatchId).filter((id): id is string => !!id))];
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
