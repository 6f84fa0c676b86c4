import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ITEM_NUMBERS } from '../../rules/types';
import { countsLine, failingItemsOf, notCheckedMessage, type GridRow, type NightSummary } from '../night';
import { safeText } from '../text';
import { csvField } from '../table';

/**
 * The night's run × item grid and its runs not checked, inside the Allure report itself
 * (README.md § Reading the Allure report), rendered from the one night summary (lib/report/night.ts).
 *
 * Allure 3 reads `<uuid>-globals.json` from the results folder: its attachments are listed under
 * "Global Attachments" and its errors under "Global Errors". The grid goes there as CSV (Allure 3
 * renders `text/csv` as a table, in full), the runs not checked as a second one, and each run not
 * checked becomes one global error, so its reason is read once, not ten times. The counts also go
 * to the report's variables (`nightVariables`), shown at the top of the overview.
 */

export const SUMMARY_TITLE = 'L1 summary · run × item grid';

/**
 * A run's status in the grid: `checked`, `needs-input` (its kind is its status: said once, as the
 * terminal and summary.md say it), or `error (platform)`.
 */
function statusCell(r: GridRow): string {
  if (r.status !== 'error') return r.status;
  return r.failureKind ? `${r.status} (${r.failureKind})` : r.status;
}

/** The grid as CSV: run, status, then items 3 … 12 headed `3` … `12`. */
export function gridCsv(rows: readonly GridRow[]): string {
  const head = ['run', 'status', ...ITEM_NUMBERS.map(String)];
  const lines = [
    head.join(','),
    ...rows.map((r) =>
      [r.shown, statusCell(r), ...ITEM_NUMBERS.map((n) => r.items[n])].map(csvField).join(','),
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
        [r.shown, r.status, r.failureKind ?? '-', safeText(r.reason ?? 'no reason recorded', 2000)]
          .map(csvField)
          .join(','),
      ),
  ];
  return `${lines.join('\r\n')}\r\n`;
}

/**
 * Adds the grid and one global error per run not checked to the results folder, replacing an
 * earlier summary (of this invocation or of merged shards). Returns the files written.
 */
export function writeAllureSummary(
  resultsDir: string,
  summary: NightSummary,
  title = SUMMARY_TITLE,
): string[] {
  fs.mkdirSync(resultsDir, { recursive: true });
  for (const name of fs.readdirSync(resultsDir))
    if (name.startsWith('l1-summary-')) fs.rmSync(path.join(resultsDir, name), { force: true });
  const id = randomUUID();
  const now = Date.now();
  const notChecked = summary.grid.filter((r) => r.status !== 'checked');
  const files: [string, string][] = [[`l1-summary-${id}-grid-attachment.csv`, gridCsv(summary.grid)]];
  if (notChecked.length)
    files.push([`l1-summary-${id}-not-checked-attachment.csv`, notCheckedCsv(summary.grid)]);
  const [gridFile, notCheckedFile] = files.map(([name]) => name);
  const globals = {
    attachments: [
      { name: `${title}: ${countsLine(summary)}`, source: gridFile, type: 'text/csv', timestamp: now },
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

/** Names of the first runs, then a count of the rest. */
function names(labels: string[], max = 5): string {
  const shownNames = labels.slice(0, max).map((l) => safeText(l, 40));
  return labels.length > max
    ? `${shownNames.join(', ')} +${labels.length - max} more`
    : shownNames.join(', ');
}

/**
 * The batch date as the report's overview shows it, in two entries when runs fixed other dates:
 * `batch date` the templated night, `other batch dates` the dates fixed in their URLs. The
 * overview cuts each value to about 35 characters with no way to read the rest, so one entry,
 * `2026-11-27 (yesterday in Asia/Shanghai); fixed in their URLs: 2025-11-10, …`, read
 * `2026-11-27 (yesterday in Asia/Shangha…` on a night where six of seven runs checked another day
 * (reader audit of 2026-11-28; the reader audit of 2026-11-26 had added those dates for it).
 */
export function batchDateEntries(
  summary: Pick<NightSummary, 'night' | 'batchDates' | 'batchDateText'>,
): Record<string, string> {
  const night = summary.night;
  if (!night) return { 'batch date': summary.batchDateText };
  const fixed = summary.batchDates.filter((d) => d !== night.batchDate);
  return {
    'batch date': night.describe,
    ...(fixed.length ? { 'other batch dates': `${fixed.join(', ')} (fixed in their URLs)` } : {}),
  };
}

/** The night at a glance, at the top of the report's overview (Allure 3 `variables`). */
export function nightVariables(summary: NightSummary): Record<string, string> {
  const c = summary.counts;
  const kinds = Object.entries(c.byKind)
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
  const failing = summary.grid.filter(
    (r) => r.status === 'checked' && Object.values(r.items).includes('FAIL'),
  );
  // Items that failed on compared data, in checked runs and in runs not checked whole.
  const onData = summary.verdicts.map(failingItemsOf);
  const items = new Map<number, number>();
  for (const list of onData) for (const i of list) items.set(i.item, (items.get(i.item) ?? 0) + 1);
  const cutShort = summary.grid.filter((r, n) => r.status !== 'checked' && onData[n]!.length > 0);
  const notChecked = summary.grid.filter((r) => r.status !== 'checked');
  return {
    checked: `${c.checked} of ${c.runs} runs`,
    failing:
      [
        ...(c.failing ? [`${c.failing} run(s): ${names(failing.map((r) => r.label))}`] : []),
        ...(cutShort.length
          ? [`${cutShort.length} run(s) not checked whole: ${names(cutShort.map((r) => r.label))}`]
          : []),
      ].join('; ') || 'none',
    'failing items': items.size
      ? [...items]
          .sort(([a], [b]) => a - b)
          .map(([n, k]) => `item ${n} ×${k}`)
          .join(', ')
      : 'none',
    'not checked': c.notChecked
      ? `${c.notChecked} run(s) (${kinds}): ${names(notChecked.map((r) => r.label))}`
      : 'none',
    ...batchDateEntries(summary),
    selection: summary.selection.complete ? 'every item' : `partial: ${summary.selection.filters.join(' ')}`,
  };
}
