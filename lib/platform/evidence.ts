import fs from 'node:fs';
import path from 'node:path';
import type { Data } from '../schema/data';
import type { PlatformEvidence } from '../schema/platform';
import type { Level, Profile, ReportType, RuleContext } from '../rules/types';
import type { ConfiguredRun } from '../run/inputs';
import { redactUrl } from '../report/redact';
import type { RequestRecord } from './client';

/** The run section of the verdict file (contract section 7), known once the URLs are read. */
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

export type RunStatus = 'checked' | 'needs-input' | 'error';

/** Everything collected for one run, once (contract 4, 6): read by every item test of the run. */
export interface Evidence {
  run: RunInfo;
  status: RunStatus;
  reason?: string;
  /** What the collection decided along the way (profile rule, data source, batch resolution). */
  notes: string[];
  data?: Data;
  platform?: PlatformEvidence;
  requests: RequestRecord[];
  pageLoads: number;
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
    notes: [],
    requests: [],
    pageLoads: 0,
  };
}

/** No evidence file: the collect setup of the run did not finish. Its items fail with this reason. */
export function missingEvidence(run: ConfiguredRun): Evidence {
  return {
    ...initialEvidence(run),
    reason: `no evidence for this run: its "collect · ${run.label}" setup did not finish (see that test)`,
  };
}

/** What the rules see of a run: its validated DATA and payloads. `undefined` unless it was checked. */
export function ruleContext(evidence: Evidence): RuleContext | undefined {
  const { run, data, platform } = evidence;
  if (evidence.status !== 'checked' || !data || !platform) return undefined;
  return { profile: run.profile, level: run.level, reportType: run.reportType ?? 'monitor', data, platform };
}

export function evidenceDir(root: string): string {
  return path.join(root, '.l1', 'evidence');
}

export function evidenceFile(root: string, slug: string): string {
  return path.join(evidenceDir(root), `${slug}.json`);
}

export function writeEvidence(root: string, slug: string, evidence: Evidence): void {
  fs.mkdirSync(evidenceDir(root), { recursive: true });
  const file = evidenceFile(root, slug);
  fs.writeFileSync(`${file}.tmp`, JSON.stringify(evidence));
  fs.renameSync(`${file}.tmp`, file);
}

export function readEvidence(root: string, slug: string): Evidence | undefined {
  try {
    return JSON.parse(fs.readFileSync(evidenceFile(root, slug), 'utf8')) as Evidence;
  } catch {
    return undefined;
  }
}
