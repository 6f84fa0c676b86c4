import type { Cell, ComparisonRow, StepResult } from '../rules/types';

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );
}

export function cellText(value: Cell): string {
  if (value === null) return '(no value)';
  return typeof value === 'number' ? String(value) : `「${value}」`;
}

/** A step's title: `5.2 · rank and name of the top 10`, or the name alone when it holds the id. */
export function stepTitle(step: { id: string; name: string }): string {
  return step.name.includes(step.id) ? step.name : `${step.id} · ${step.name}`;
}

/** One mismatch line, as every failure message prints it: key, HTML, platform, gap, tolerance, note. */
export function rowLine(row: ComparisonRow): string {
  const gap = row.gap === null ? '-' : String(row.gap);
  const note = row.note ? ` · ${row.note}` : '';
  return `${row.key}: HTML ${cellText(row.html)} · platform ${cellText(row.platform)} · gap ${gap} · tolerance ${row.tolerance}${note}`;
}

/** A datacompy-like mismatch table of one step, as a self-contained HTML attachment. */
export function stepTableHtml(title: string, step: StepResult): string {
  const head = ['key', 'HTML value', 'platform value', 'gap', 'tolerance', 'verdict', 'note'];
  const rows = step.rows
    .map((r) => {
      const cells = [
        r.key,
        cellText(r.html),
        cellText(r.platform),
        r.gap === null ? '-' : String(r.gap),
        r.tolerance,
        r.verdict === 'pass' ? '✅ pass' : '❌ fail',
        r.note ?? '',
      ];
      const style = r.verdict === 'pass' ? '' : ' style="background:#fde8e8"';
      return `<tr${style}>${cells.map((c) => `<td>${escapeHtml(c)}</td>`).join('')}</tr>`;
    })
    .join('\n');
  const notes = step.notes.length
    ? `<ul>${step.notes.map((n) => `<li>${escapeHtml(n)}</li>`).join('')}</ul>`
    : '';
  return `<!doctype html><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>body{font:13px system-ui,sans-serif}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:3px 6px;text-align:left}th{background:#f3f3f3}</style>
<h3>${escapeHtml(title)} — ${step.verdict === 'pass' ? '✅ pass' : '❌ fail'}</h3>${notes}
<table><thead><tr>${head.map((h) => `<th>${h}</th>`).join('')}</tr></thead><tbody>
${rows}
</tbody></table>`;
}
