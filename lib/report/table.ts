import type { ComparisonRow, StepResult } from '../rules/types';
import { cellText } from '../rules/results';
import { safeText } from './text';

export { cellText };

/** A step's title: `5.2 · rank and name of the top 10`, or the name alone when it holds the id. */
export function stepTitle(step: { id: string; name: string }): string {
  return step.name.includes(step.id) ? step.name : `${step.id} · ${step.name}`;
}

/**
 * One mismatch line, as every failure message prints it: key, HTML, platform, gap, tolerance, note.
 * JUnit prints a verdict file's mismatches with it too (lib/report/junit.ts).
 */
export function rowLine(
  row: Pick<ComparisonRow, 'key' | 'html' | 'platform' | 'gap' | 'tolerance' | 'note'>,
): string {
  const gap = row.gap === null ? '-' : String(row.gap);
  const note = row.note ? ` · ${row.note}` : '';
  return `${row.key}: HTML ${cellText(row.html)} · platform ${cellText(row.platform)} · gap ${gap} · tolerance ${row.tolerance}${note}`;
}

/** The columns of every mismatch table (CSV and HTML). Verdicts are words: no emoji font is installed. */
export const TABLE_COLUMNS = [
  'key',
  'HTML value',
  'platform value',
  'gap',
  'tolerance',
  'verdict',
  'note',
] as const;

/** Rows a table shows by default; the rest are counted on its last line (README.md § Security and limits). */
export const TABLE_MAX_ROWS = 200;

/** Longest text of one cell in a table; longer texts are cut with a count of the rest. */
const CELL_MAX = 300;

/** `pass`, `FAIL`, or `pass by tie swap (spec 9.5.5)` for a row that passed only by a special clause. */
function verdictText(row: Pick<ComparisonRow, 'verdict' | 'passBy'>): string {
  if (row.verdict !== 'pass') return 'FAIL';
  return row.passBy ? `pass by ${row.passBy}` : 'pass';
}

function rowCells(r: ComparisonRow): string[] {
  return [
    r.key,
    cellText(r.html),
    cellText(r.platform),
    r.gap === null ? '-' : String(r.gap),
    r.tolerance,
    verdictText(r),
    r.note ?? '',
  ].map((c) => safeText(c, CELL_MAX));
}

/**
 * The rows a table shows: all of them when they fit; otherwise the failing rows first (in their
 * order), then passing ones, up to `max`. `rest` says what was left out.
 */
export function tableRows(
  step: StepResult,
  max = TABLE_MAX_ROWS,
): { rows: ComparisonRow[]; rest: { total: number; failing: number } } {
  const limit = Math.max(0, Math.floor(max));
  if (step.rows.length <= limit) return { rows: step.rows, rest: { total: 0, failing: 0 } };
  const failing = step.rows.filter((r) => r.verdict !== 'pass');
  const passing = step.rows.filter((r) => r.verdict === 'pass');
  const shown = [...failing, ...passing].slice(0, limit);
  const failingShown = Math.min(failing.length, limit);
  return {
    rows: shown,
    rest: { total: step.rows.length - shown.length, failing: failing.length - failingShown },
  };
}

function restLine(rest: { total: number; failing: number }): string {
  return `… ${rest.total} more row(s) not shown (${rest.failing} of them failing); the compared-values JSON attachment holds up to ${COMPARED_MAX_ROWS} a step`;
}

/**
 * Rows a step keeps in an item's compared-values attachment, the failing ones first; the rest are
 * counted on the step. One run's DATA must not make the night's report unreadable: 1.8 million
 * words made a 356 MB attachment, a 500 MB report and a guard that could not read it (hostile
 * audit of 2026-11-27).
 */
export const COMPARED_MAX_ROWS = 5_000;

/** Longest text of one value or note in the compared-values attachment; longer ones are cut with a count. */
const COMPARED_TEXT_MAX = 2_000;

/** A text as every output shows data: control and bidirectional characters escaped, cut at 2,000. */
const cutText = <T>(value: T): T =>
  (typeof value === 'string' ? safeText(value, COMPARED_TEXT_MAX) : value) as T;

/**
 * An item's compared values, as its attachment holds them: every step, with up to `max` rows (the
 * failing ones first, as `tableRows` picks them) and `rowsLeftOut` / `failingRowsLeftOut` counting
 * the rest; each text as `safeText` shows it (a U+202E from DATA reordered the JSON viewer's lines)
 * and cut at 2,000 characters.
 */
export function comparedValues(steps: readonly StepResult[], max = COMPARED_MAX_ROWS): unknown[] {
  return steps.map((step) => {
    const { rows, rest } = tableRows(step, max);
    return {
      ...step,
      notes: step.notes.map(cutText),
      rows: rows.map((r) => ({
        ...r,
        key: cutText(r.key),
        html: cutText(r.html),
        platform: cutText(r.platform),
        ...(r.note === undefined ? {} : { note: cutText(r.note) }),
      })),
      ...(rest.total > 0 ? { rowsLeftOut: rest.total, failingRowsLeftOut: rest.failing } : {}),
    };
  });
}

/** A CSV field: spreadsheet formulas defused, quoted when it holds a comma, quote, or edge space. */
export function csvField(text: string): string {
  let t = text;
  // A field a spreadsheet would run as a formula (`=HYPERLINK(…)`, `-1+cmd|…`, `@SUM(…)` from a
  // hostile DATA key): any field that starts with = + - @ tab or CR, unless it is a plain number or
  // the lone "-" of no value.
  if (/^[=+\-@\t\r]/.test(t) && !/^(?:[-+]?\d+(?:\.\d+)?%?|-)$/.test(t)) t = `'${t}`;
  return /[",\r\n]|^\s|\s$/.test(t) ? `"${t.replace(/"/g, '""')}"` : t;
}

/**
 * The mismatch table of one step as CSV (Allure 3 shows a `text/csv` attachment as a table):
 * header + at most `max` rows (failing rows first when capped) + a last line counting the rest.
 * Control characters from data are shown as escapes.
 */
export function stepTableCsv(step: StepResult, max = TABLE_MAX_ROWS): string {
  const { rows, rest } = tableRows(step, max);
  const lines = [TABLE_COLUMNS.join(','), ...rows.map((r) => rowCells(r).map(csvField).join(','))];
  if (rest.total > 0) lines.push(csvField(restLine(rest)));
  return `${lines.join('\r\n')}\r\n`;
}

/**
 * The rows of a passing step that passed only by a special clause of the spec (a tie swap, 9.3.2's
 * 0.1 after rounding, 9.3.4's integer print, 7.3.5's double division), as a CSV table like a
 * mismatch table, or `undefined` when it has none. An item marked pass* said which clauses and how
 * many rows (`passed by tie swap (spec 9.5.5): 2 rows (step 5.2)`), never which: the brands that
 * swapped were in the compared-values JSON alone (reader audit of 2026-11-28).
 */
export function clauseTableCsv(step: StepResult, max = TABLE_MAX_ROWS): string | undefined {
  if (step.verdict !== 'pass') return undefined;
  const rows = step.rows.filter((r) => r.verdict === 'pass' && r.passBy);
  if (rows.length === 0) return undefined;
  return stepTableCsv({ ...step, rows }, max);
}
