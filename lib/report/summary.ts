import { ITEM_NUMBERS } from '../rules/types';
import type { Selection, VerdictFile } from '../schema/verdict';
import { displayWidth, markdownText, padDisplay, safeText } from './text';

/**
 * The run × item summary, for a terminal (`summaryGrid`) and for a markdown job summary
 * (`summaryMarkdown`), and the exit code a scheduler acts on (`exitCodeOf`). Pure functions of the
 * verdict files: every invocation, shard and merge prints the same grid for the same verdicts.
 */

/** Characters of a reason shown in a summary; the verdict file has the whole text. */
export const REASON_MAX = 300;
/** Characters of a label shown in the grid (the list of runs not checked repeats it in full up to the cap). */
const LABEL_MAX = 60;

type Cell = 'pass' | 'fail' | 'not run';

function cellOf(v: VerdictFile, item: number): Cell {
  const found = v.items.find((x) => x.item === item);
  return found ? found.verdict : 'not run';
}

function notChecked(verdicts: VerdictFile[]): VerdictFile[] {
  return verdicts.filter((v) => v.status !== 'checked');
}

function failingItems(verdicts: VerdictFile[]): { items: number; runs: number } {
  let items = 0;
  let runs = 0;
  for (const v of verdicts) {
    if (v.status !== 'checked') continue;
    const n = v.items.filter((i) => i.verdict === 'fail').length;
    items += n;
    if (n) runs++;
  }
  return { items, runs };
}

function countsLine(verdicts: VerdictFile[]): string {
  const checked = verdicts.length - notChecked(verdicts).length;
  const failing = failingItems(verdicts);
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  return (
    `${plural(verdicts.length, 'run')}: ${checked} checked, ` +
    `${plural(failing.items, 'failing item')} in ${plural(failing.runs, 'run')}, ` +
    `${notChecked(verdicts).length} not checked`
  );
}

/**
 * The terminal grid: one row per run, columns items 3 … 12 in numeric order with `pass`, `FAIL` or
 * `·` (not run in this invocation), then the run's status; then the runs not checked, one line each
 * with label, status and the first 300 characters of the reason. Plain text only (terminals and
 * fonts may lack emoji); every label and reason is passed through `safeText`.
 */
export function summaryGrid(verdicts: VerdictFile[]): string {
  if (verdicts.length === 0) return 'no verdict: no run was checked';
  const labels = verdicts.map((v) => safeText(v.run.label, LABEL_MAX));
  const width = Math.max(3, ...labels.map(displayWidth));
  const show: Record<Cell, string> = { pass: 'pass', fail: 'FAIL', 'not run': '·' };
  const head = [padDisplay('run', width), ...ITEM_NUMBERS.map((i) => String(i).padEnd(4)), 'status'];
  const rows = verdicts.map((v, n) =>
    [padDisplay(labels[n]!, width), ...ITEM_NUMBERS.map((i) => show[cellOf(v, i)].padEnd(4)), v.status].join(
      ' ',
    ),
  );
  const missing = notChecked(verdicts).map(
    (v) =>
      `  ${safeText(v.run.label, LABEL_MAX)} · ${v.status}${v.failureKind ? ` (${v.failureKind})` : ''} · ` +
      safeText(v.reason ?? '(no reason given)', REASON_MAX),
  );
  return [
    head.join(' '),
    ...rows,
    '',
    countsLine(verdicts),
    ...(missing.length ? ['runs not checked:', ...missing] : ['runs not checked: none']),
  ].join('\n');
}

function describeSelection(selection: Selection): string {
  const parts: string[] = [];
  parts.push(selection.complete ? 'every item of every run' : 'some items only');
  if (selection.filters.length)
    parts.push(
      `filters ${selection.filters.map((f) => `\`${safeText(f, 80).replace(/`/g, "'")}\``).join(', ')}`,
    );
  if (selection.shard) parts.push(`shard ${safeText(selection.shard, 20)}`);
  return parts.join(' · ');
}

/**
 * The same grid as a GitHub-flavoured markdown table (✅ / ❌ / · : GitHub renders emoji), with
 * the counts (runs, checked, failing items, not checked), the invocation's selection and the runs
 * not checked. No timestamp: the same verdicts give the same text (a sharded and an unsharded
 * invocation can be compared byte for byte).
 */
export function summaryMarkdown(verdicts: VerdictFile[], selection: Selection): string {
  const show: Record<Cell, string> = { pass: '✅', fail: '❌', 'not run': '·' };
  const failing = failingItems(verdicts);
  const lines = [
    '## L1 report checks',
    '',
    `| runs | checked | failing items | not checked |`,
    `| ---: | ---: | ---: | ---: |`,
    `| ${verdicts.length} | ${verdicts.length - notChecked(verdicts).length} | ${failing.items} | ${notChecked(verdicts).length} |`,
    '',
    `Selection: ${describeSelection(selection)}. Exit code ${exitCodeOf(verdicts)}.`,
    '',
  ];
  if (verdicts.length === 0) {
    lines.push('No verdict: no run was checked.');
  } else {
    lines.push(
      `| run | ${ITEM_NUMBERS.join(' | ')} | status |`,
      `| --- | ${ITEM_NUMBERS.map(() => ':-:').join(' | ')} | --- |`,
    );
    for (const v of verdicts) {
      const cells = ITEM_NUMBERS.map((i) => show[cellOf(v, i)]);
      lines.push(`| ${markdownText(v.run.label, LABEL_MAX)} | ${cells.join(' | ')} | ${v.status} |`);
    }
  }
  const missing = notChecked(verdicts);
  lines.push('', '### Runs not checked', '');
  if (missing.length === 0) lines.push('None.');
  for (const v of missing) {
    lines.push(
      `- **${markdownText(v.run.label, LABEL_MAX)}** · ${v.status}${v.failureKind ? ` (${v.failureKind})` : ''} · ` +
        markdownText(v.reason ?? '(no reason given)', REASON_MAX),
    );
  }
  return `${lines.join('\n')}\n`;
}

/**
 * The exit code a scheduler acts on (docs/decisions.md, deliver 8): 0 when every run was checked and every
 * item that ran passed; 1 when some item failed on checked data; 2 when some run could not be
 * checked (`error` or `needs-input`). 2 wins over 1. No verdict at all, or no item at all, is 2:
 * nothing was checked, and nothing passes by default.
 */
export function exitCodeOf(verdicts: VerdictFile[]): 0 | 1 | 2 {
  if (verdicts.length === 0) return 2;
  if (verdicts.some((v) => v.status !== 'checked')) return 2;
  if (verdicts.every((v) => v.items.length === 0)) return 2;
  return verdicts.some((v) => v.items.some((i) => i.verdict === 'fail')) ? 1 : 0;
}
