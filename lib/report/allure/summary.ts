import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ITEM_NUMBERS } from '../../rules/types';
import { safeText } from '../text';
import type { VerdictFile } from '../../schema/verdict';
import { escapeHtml } from '../../util/escape';

/**
 * The run × item grid and the runs not checked, inside the Allure report itself (README.md § Reading the Allure report).
 *
 * Allure 3 reads `<uuid>-globals.json` from the results folder (allure2 reader): its attachments
 * are listed under the report's "Global Attachments" tab and its errors under "Global Errors".
 * The grid goes there as a CSV table (Allure 3 renders `text/csv` as a table, in full; an HTML
 * attachment is shown in a 150 px frame), with the runs not checked as a second one; each run not
 * checked also becomes one global error, so its reason is read once, not ten times. Nothing here is a test result:
 * the report's counts stay the counts of the item tests.
 */

export const SUMMARY_TITLE = 'L1 summary · run × item grid';

type Mark = 'pass' | 'FAIL' | '·';

export interface GridRow {
  label: string;
  status: VerdictFile['status'];
  failureKind?: VerdictFile['failureKind'];
  reason?: string;
  items: Record<number, Mark>;
}

/** One row per run, in the order given; item cells `pass`, `FAIL` or `·` (did not run). */
export function gridRows(verdicts: readonly VerdictFile[]): GridRow[] {
  return verdicts.map((v) => {
    const items: Record<number, Mark> = {};
    for (const n of ITEM_NUMBERS) {
      const item = v.items.find((i) => i.item === n);
      items[n] = item ? (item.verdict === 'pass' ? 'pass' : 'FAIL') : '·';
    }
    return { label: v.run.label, status: v.status, failureKind: v.failureKind, reason: v.reason, items };
  });
}

/** The message of a run not checked, as the item tests and the categories spell it. */
export function notCheckedMessage(row: Pick<GridRow, 'label' | 'status' | 'failureKind' | 'reason'>): string {
  const kind =
    row.status === 'needs-input' ? 'needs-input' : `${row.status}, ${row.failureKind ?? 'platform'}`;
  return `run ${safeText(row.label, 200)} not checked (${kind}): ${safeText(row.reason ?? 'no reason recorded', 2000)}`;
}

function csvField(text: string): string {
  let t = text;
  if (/^[=+@\t\r]|^-[^\d\s.]/.test(t)) t = `'${t}`;
  return /[",\r\n]|^\s|\s$/.test(t) ? `"${t.replace(/"/g, '""')}"` : t;
}

function counts(rows: readonly GridRow[]): string {
  const checked = rows.filter((r) => r.status === 'checked');
  const failed = checked.filter((r) => Object.values(r.items).includes('FAIL')).length;
  return `${rows.length} run(s): ${checked.length - failed} all pass, ${failed} with failing items, ${rows.length - checked.length} not checked`;
}

/** The grid as a self-contained HTML page (text marks, no emoji: no emoji font is installed). */
export function gridHtml(rows: readonly GridRow[], title = SUMMARY_TITLE): string {
  const head = ['run', 'status', ...ITEM_NUMBERS.map(String)];
  const body = rows
    .map((r) => {
      const cells = ITEM_NUMBERS.map((n) => {
        const mark = r.items[n] ?? '·';
        const cls = mark === 'pass' ? 'p' : mark === 'FAIL' ? 'f' : 'n';
        return `<td class="${cls}">${mark}</td>`;
      }).join('');
      const statusCls = r.status === 'checked' ? '' : ' class="f"';
      return `<tr><th>${escapeHtml(safeText(r.label, 200))}</th><td${statusCls}>${r.status}</td>${cells}</tr>`;
    })
    .join('\n');
  const notChecked = rows.filter((r) => r.status !== 'checked');
  const list = notChecked.length
    ? `<h4>Runs not checked</h4><table><thead><tr><th>run</th><th>status</th><th>kind</th><th>reason</th></tr></thead><tbody>
${notChecked
  .map(
    (r) =>
      `<tr><th>${escapeHtml(safeText(r.label, 200))}</th><td>${r.status}</td><td>${r.failureKind ?? '-'}</td><td>${escapeHtml(safeText(r.reason ?? 'no reason recorded', 2000))}</td></tr>`,
  )
  .join('\n')}
</tbody></table>`
    : '';
  return `<!doctype html><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>body{font:13px system-ui,sans-serif}table{border-collapse:collapse;margin-bottom:12px}td,th{border:1px solid #ccc;padding:3px 8px;text-align:left;vertical-align:top}thead th{background:#f3f3f3}td.p{color:#17692e}td.f{background:#fde8e8;color:#b00;font-weight:bold}td.n{color:#888;text-align:center}</style>
<h3>${escapeHtml(title)}</h3><p>${escapeHtml(counts(rows))}. Items 3 to 12: pass, FAIL, or · (did not run).</p>
<table><thead><tr>${head.map((h) => `<th>${h}</th>`).join('')}</tr></thead><tbody>
${body}
</tbody></table>${list}`;
}

/** The grid as CSV (Allure shows it as a table): run, status, then items 3 … 12 headed `3` … `12`. */
export function gridCsv(rows: readonly GridRow[]): string {
  const head = ['run', 'status', ...ITEM_NUMBERS.map(String)];
  const lines = [
    head.join(','),
    ...rows.map((r) =>
      [safeText(r.label, 200), r.status, ...ITEM_NUMBERS.map((n) => r.items[n] ?? '·')]
        .map(csvField)
        .join(','),
    ),
  ];
  return `${lines.join('\r\n')}\r\n`;
}

/** The runs not checked as CSV: run, status, kind, reason (one line per run). */
export function notCheckedCsv(rows: readonly GridRow[]): string {
  const lines = [
    'run,status,kind,reason',
    ...rows
      .filter((r) => r.status !== 'checked')
      .map((r) =>
        [
          safeText(r.label, 200),
          r.status,
          r.failureKind ?? '-',
          safeText(r.reason ?? 'no reason recorded', 2000),
        ]
          .map(csvField)
          .join(','),
      ),
  ];
  return `${lines.join('\r\n')}\r\n`;
}

export interface AllureSummaryInput {
  verdicts: VerdictFile[];
  title?: string;
}

/**
 * Adds the grid (HTML and CSV global attachments) and one global error per run not checked to the
 * results folder. Call it once, after every verdict file is written; calling it again replaces
 * the earlier summary. Returns the files written.
 */
export function writeAllureSummary(resultsDir: string, input: AllureSummaryInput): string[] {
  fs.mkdirSync(resultsDir, { recursive: true });
  for (const name of fs.readdirSync(resultsDir)) {
    if (name.startsWith('l1-summary-')) fs.rmSync(path.join(resultsDir, name), { force: true });
  }
  const title = input.title ?? SUMMARY_TITLE;
  const rows = gridRows(input.verdicts);
  const id = randomUUID();
  const now = Date.now();
  const notChecked = rows.filter((r) => r.status !== 'checked');
  // CSV: Allure 3 shows it as a full table; an HTML attachment sits in a 150 px frame.
  const files: [string, string][] = [[`l1-summary-${id}-grid-attachment.csv`, gridCsv(rows)]];
  if (notChecked.length) files.push([`l1-summary-${id}-not-checked-attachment.csv`, notCheckedCsv(rows)]);
  const [gridFile, notCheckedFile] = files.map(([name]) => name);
  const globals = {
    attachments: [
      { name: `${title}: ${counts(rows)}`, source: gridFile, type: 'text/csv', timestamp: now },
      ...(notCheckedFile
        ? [
            {
              name: `runs not checked (${notChecked.length})`,
              source: notCheckedFile,
              type: 'text/csv',
              timestamp: now,
            },
          ]
        : []),
    ],
    errors: notChecked.map((r) => ({ message: notCheckedMessage(r), timestamp: now })),
  };
  files.push([`l1-summary-${id}-globals.json`, JSON.stringify(globals, null, 2)]);
  return files.map(([name, body]) => {
    const file = path.join(resultsDir, name);
    fs.writeFileSync(file, body, 'utf8');
    return file;
  });
}
