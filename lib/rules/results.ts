import { itemTitle } from './items';
import type { Cell, ComparisonRow, ItemNumber, ItemResult, StepResult, Verdict } from './types';

/** Rows named in one pass-by sentence; the rest are counted. */
const NAMED_ROWS = 5;

/**
 * A value as every mismatch line shows it, and the pass-by sentences too (lib/report/table.ts
 * imports it): names in 「」, `(no value)`. Bare, two legend names that passed in either order read
 * `(HTML 视频, platform 问答)` beside the row's `HTML 「视频」` (review 59k).
 */
export function cellText(value: Cell): string {
  if (value === null) return '(no value)';
  return typeof value === 'number' ? String(value) : `「${value}」`;
}

/**
 * One sentence per special clause the passing rows of a step passed by (`passBy`), e.g.
 * `1 row passed by 0.1 after rounding (spec 9.3.2): share 「图文」 (HTML 52.14, platform 52)`, so a reader
 * of the step tells a clean pass from a pass by a clause. Clauses in `described` are left out: the rule
 * has said them in its own words (e.g. step 5.2 names the brands of each tie swap).
 */
export function passByNotes(rows: readonly ComparisonRow[], described: readonly string[] = []): string[] {
  const byClause = new Map<string, ComparisonRow[]>();
  for (const r of rows)
    if (r.verdict === 'pass' && r.passBy && !described.includes(r.passBy))
      byClause.set(r.passBy, [...(byClause.get(r.passBy) ?? []), r]);
  return [...byClause].map(([clause, passed]) => {
    const named = passed
      .slice(0, NAMED_ROWS)
      .map((r) => `${r.key} (HTML ${cellText(r.html)}, platform ${cellText(r.platform)})`);
    const more = passed.length > NAMED_ROWS ? ` and ${passed.length - NAMED_ROWS} more` : '';
    const rowsWord = passed.length === 1 ? 'row' : 'rows';
    return `${passed.length} ${rowsWord} passed by ${clause}: ${named.join('; ')}${more}`;
  });
}

/**
 * Builds a step: every row must pass for the step to pass (spec 1.3). A step with nothing compared
 * fails with the reason: a check never passes by default (docs/rules.md §D1). Rows that passed by a
 * special clause are said in the notes (`passByNotes`), except the clauses in `described`.
 */
export function makeStep(
  id: string,
  name: string,
  rows: ComparisonRow[],
  notes: string[] = [],
  described: readonly string[] = [],
): StepResult {
  if (rows.length === 0)
    return nothingStep(id, name, 'no values to compare: the check cannot be evaluated', notes);
  const verdict: Verdict = rows.every((r) => r.verdict === 'pass') ? 'pass' : 'fail';
  return { id, name, verdict, rows, notes: [...notes, ...passByNotes(rows, described)] };
}

/** `tie swap (spec 9.5.5) ×2 (step 5.2)`: the special clauses an item's rows passed by, with their steps. */
function itemPassByNotes(steps: readonly StepResult[]): string[] {
  const byClause = new Map<string, { count: number; steps: string[] }>();
  for (const step of steps)
    for (const r of step.rows) {
      if (r.verdict !== 'pass' || !r.passBy) continue;
      const seen = byClause.get(r.passBy) ?? { count: 0, steps: [] };
      seen.count++;
      if (!seen.steps.includes(step.id)) seen.steps.push(step.id);
      byClause.set(r.passBy, seen);
    }
  return [...byClause].map(
    ([clause, { count, steps: ids }]) =>
      `passed by ${clause}: ${count} ${count === 1 ? 'row' : 'rows'} (${ids.length === 1 ? 'step' : 'steps'} ${ids.join(', ')})`,
  );
}

/** The failing row of a check that compared nothing, saying why (docs/rules.md §D1). */
export function nothingComparedRow(note: string): ComparisonRow {
  return {
    key: '(nothing compared)',
    html: null,
    platform: null,
    gap: null,
    tolerance: '-',
    verdict: 'fail',
    note,
  };
}

/** A step that compared nothing: it fails with one row saying why (docs/rules.md §D1). */
function nothingStep(id: string, name: string, note: string, notes: string[] = []): StepResult {
  return { id, name, verdict: 'fail', rows: [nothingComparedRow(note)], notes };
}

/**
 * Builds an item: every step must pass (spec 1.3); an item without steps fails, and so does an item
 * whose every row only says that both sides show nothing (`bothEmptyRow`): it compared no value
 * (docs/rules.md §D1). The special clauses its rows passed by are said in the item notes, naming the
 * steps.
 */
export function makeItem(item: ItemNumber, steps: StepResult[], notes: string[] = []): ItemResult {
  const title = itemTitle(item);
  if (steps.length === 0) {
    return {
      item,
      title,
      verdict: 'fail',
      steps: [makeStep('-', 'no step could be evaluated', [])],
      notes,
    };
  }
  if (steps.every((s) => s.rows.every((r) => r.bothEmpty)))
    return {
      item,
      title,
      verdict: 'fail',
      steps: [
        ...steps,
        nothingStep(
          '-',
          'nothing compared on any option',
          'both sides show nothing in every step: the check cannot be evaluated',
        ),
      ],
      notes,
    };
  const verdict: Verdict = steps.every((s) => s.verdict === 'pass') ? 'pass' : 'fail';
  return { item, title, verdict, steps, notes: [...notes, ...itemPassByNotes(steps)] };
}
