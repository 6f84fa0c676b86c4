import fs from 'node:fs';
import path from 'node:path';
import type { Evidence, RunStatus } from '../platform/evidence';
import type { ConfiguredRun } from '../run/inputs';
import { ITEM_NUMBERS, type ComparisonRow, type ItemResult, type Verdict } from '../rules/types';
import { redactUrl } from './redact';
import { stepTitle } from './table';

/** The attachment an item test leaves for the verdict reporter: the rule's result (fixtures/item.ts). */
export const ITEM_RESULT_ATTACHMENT = 'l1-item-result.json';

/** Contract section 7: the verdict file of one run. */
export interface VerdictFile {
  run: {
    label: string;
    htmlUrl: string;
    platformUrl: string;
    companyId: number | null;
    projectId: string | null;
    reportType: string | null;
    batchDate: string | null;
    profile: 'A' | 'B';
    batchIds: string[];
    dataSource: 'html' | 'cal_data_json';
  };
  status: RunStatus;
  reason?: string;
  notes: string[];
  items: VerdictItem[];
}

export interface VerdictItem {
  item: number;
  verdict: Verdict;
  steps: { name: string; verdict: Verdict; mismatches: ComparisonRow[] }[];
  notes: string[];
}

/** What a finished item test left: its outcome, and the rule's result when the rule ran. */
export interface ItemOutcome {
  item: number;
  passed: boolean;
  result?: ItemResult;
  error?: string;
}

export function verdictsDir(root: string, env: NodeJS.ProcessEnv = process.env): string {
  return path.resolve(root, env.L1_VERDICTS_DIR || path.join('reports', 'verdicts'));
}

/** Builds the file; each item's verdict is its Playwright test's outcome (contract 7). */
export function buildVerdict(run: ConfiguredRun, evidence: Evidence, outcomes: ItemOutcome[]): VerdictFile {
  const info = evidence.run;
  const items = [...outcomes]
    .sort((a, b) => a.item - b.item)
    .map((o): VerdictItem => {
      const verdict: Verdict = o.passed ? 'pass' : 'fail';
      const notes = [...(o.result?.notes ?? [])];
      if (o.error) notes.push(o.error);
      if (o.result && o.result.verdict !== verdict)
        notes.push(`the rule said ${o.result.verdict}, the test ended ${verdict}`);
      return {
        item: o.item,
        verdict,
        steps: (o.result?.steps ?? []).map((s) => ({
          name: stepTitle(s),
          verdict: s.verdict,
          mismatches: s.rows.filter((r) => r.verdict === 'fail'),
        })),
        notes,
      };
    });
  return {
    run: {
      label: run.label,
      htmlUrl: redactUrl(run.input.htmlUrl),
      platformUrl: redactUrl(run.input.platformUrl),
      companyId: info.companyId,
      projectId: info.projectId,
      reportType: info.reportType,
      batchDate: info.batchDate,
      profile: info.profile,
      batchIds: info.batchIds,
      dataSource: info.dataSource,
    },
    status: evidence.status,
    ...(evidence.reason ? { reason: evidence.reason } : {}),
    notes: evidence.notes,
    items,
  };
}

export function writeVerdict(dir: string, slug: string, verdict: VerdictFile): string {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${slug}.json`);
  fs.writeFileSync(file, `${JSON.stringify(verdict, null, 2)}\n`);
  return file;
}

/** The terminal summary: run × item, ✅/❌, '·' for an item not run in this invocation. */
export function summaryTable(verdicts: VerdictFile[]): string {
  const width = Math.max(5, ...verdicts.map((v) => v.run.label.length));
  const head = `${'run'.padEnd(width)}  ${'status'.padEnd(11)} ${ITEM_NUMBERS.map((i) => String(i).padStart(2)).join(' ')}`;
  const lines = verdicts.map((v) => {
    const cells = ITEM_NUMBERS.map((i) => {
      const item = v.items.find((x) => x.item === i);
      return item ? (item.verdict === 'pass' ? '✅' : '❌') : ' ·';
    });
    return `${v.run.label.padEnd(width)}  ${v.status.padEnd(11)} ${cells.join(' ')}`;
  });
  const reasons = verdicts
    .filter((v) => v.status !== 'checked')
    .map((v) => `  ${v.run.label}: ${v.reason ?? ''}`);
  return [head, ...lines, ...(reasons.length ? ['', 'runs not checked:', ...reasons] : [])].join('\n');
}
