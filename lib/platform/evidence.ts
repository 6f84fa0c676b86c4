import type { Data } from '../schema/data';
import type { PlatformEvidence } from '../schema/platform';
import type { Level, Profile, ReportType } from '../schema/vocabulary';
import type { ConfiguredRun } from '../run/runs';
import { redactUrl } from '../redaction/url';
import type { FailureKind, RunStatus } from '../schema/verdict';
import type { RequestRecord } from './client';

export type { FailureKind, RunStatus };

/** The run section of the verdict file (docs/contract.md §7), known once the URLs are read. */
export interface RunInfo {
  label: string;
  htmlUrl: string;
  platformUrl: string;
  companyId: number | null;
  projectId: string | null;
  reportType: ReportType | null;
  batchDate: string | null;
  profile: Profile;
  batchIds: string[];
  dataSource: 'html' | 'cal_data_json';
  level: Level;
}

/**
 * Everything collected for one run, once (docs/contract.md §4, 6): DATA and every payload, each
 * parsed and validated once; the rules judge these parsed inputs (lib/report/judged.ts).
 */
export interface Evidence {
  run: RunInfo;
  status: RunStatus;
  reason?: string;
  failureKind?: FailureKind;
  /** What the collection decided along the way (profile rule, data source, batch resolution). */
  notes: string[];
  /** The validated inputs of the rules, when the run was checked. */
  parsed?: { data: Data; platform: PlatformEvidence };
  requests: RequestRecord[];
  pageLoads: number;
  durationMs: number;
}

/** The evidence of a run before anything is known: status error until collection says otherwise. */
export function initialEvidence(run: ConfiguredRun): Evidence {
  return {
    run: {
      label: run.label,
      htmlUrl: redactUrl(run.input.htmlUrl),
      platformUrl: redactUrl(run.input.platformUrl),
      companyId: null,
      projectId: null,
      reportType: null,
      batchDate: null,
      profile: 'A',
      batchIds: [],
      dataSource: 'html',
      level: run.input.level ?? 'brand',
    },
    status: 'error',
    failureKind: 'input',
    notes: [],
    requests: [],
    pageLoads: 0,
    durationMs: 0,
  };
}
