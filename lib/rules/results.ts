import type { ComparisonRow, ItemNumber, ItemResult, StepResult, Verdict } from './types';

/**
 * Builds a step: every row must pass for the step to pass (spec 1.3). A step with nothing compared
 * fails with the reason: a check never passes by default (docs/rules.md §D1).
 */
export function makeStep(id: string, name: string, rows: ComparisonRow[], notes: string[] = []): StepResult {
  if (rows.length === 0) {
    return {
      id,
      name,
      verdict: 'fail',
      rows: [
        {
          key: '(nothing compared)',
          html: null,
          platform: null,
          gap: null,
          tolerance: '-',
          verdict: 'fail',
          note: 'no values to compare: the check cannot be evaluated',
        },
      ],
      notes,
    };
  }
  const verdict: Verdict = rows.every((r) => r.verdict === 'pass') ? 'pass' : 'fail';
  return { id, name, verdict, rows, notes };
}

/** Builds an item: every step must pass (spec 1.3); an item without steps fails (docs/rules.md §D1). */
export function makeItem(
  item: ItemNumber,
  title: string,
  steps: StepResult[],
  notes: string[] = [],
): ItemResult {
  if (steps.length === 0) {
    return {
      item,
      title,
      verdict: 'fail',
      steps: [makeStep('-', 'no step could be evaluated', [])],
      notes,
    };
  }
  const verdict: Verdict = steps.every((s) => s.verdict === 'pass') ? 'pass' : 'fail';
  return { item, title, verdict, steps, notes };
}
