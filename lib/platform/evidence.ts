import fs from 'node:fs';
import path from 'node:path';
import type { Level, Profile, ReportType } from '../schema/vocabulary';
import type { ConfiguredRun } from '../run/inputs';
import { writePrivate } from '../run/state';
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

/** Every payload as the endpoint answered it (envelope removed), already validated once. */
export interface RawPlatform {
  snapshot: unknown;
  competitor: unknown;
  tmc: unknown;
  /** Per source option: `all` and each platform key the HTML has sources for. */
  sources: Record<string, unknown>;
  wordcloud: unknown;
}

/**
 * Everything collected for one run, once (docs/contract.md §4, 6): read by every item test of the run.
 * DATA and payloads are kept as they came and parsed again on reading, so what the rules see is
 * exactly what the schemas make of the platform's answer, in every worker.
 */
export interface Evidence {
  run: RunInfo;
  status: RunStatus;
  reason?: string;
  failureKind?: FailureKind;
  /** What the collection decided along the way (profile rule, data source, batch resolution). */
  notes: string[];
  raw?: { data: unknown; platform: RawPlatform };
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

export function evidenceFile(dir: string, slug: string): string {
  return path.join(dir, `${slug}.json`);
}

/**
 * Stores a run's evidence (0600, atomically). Evidence too large to store becomes the run's error
 * instead of an exception that would take the test with it.
 */
export function writeEvidence(dir: string, slug: string, evidence: Evidence): Evidence {
  let text: string;
  try {
    text = JSON.stringify(evidence);
  } catch (e) {
    const stored: Evidence = {
      ...evidence,
      status: 'error',
      failureKind: 'platform',
      reason: `the evidence of this run is too large to store (${(e as Error).message}): lower L1_MAX_ANSWER_MB`,
    };
    delete stored.raw;
    text = JSON.stringify(stored);
    evidence = stored;
  }
  writePrivate(evidenceFile(dir, slug), text);
  return evidence;
}

export function readEvidence(dir: string, slug: string): Evidence | undefined {
  try {
    return JSON.parse(fs.readFileSync(evidenceFile(dir, slug), 'utf8')) as Evidence;
  } catch {
    return undefined;
  }
}
