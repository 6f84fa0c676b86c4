import { expect, test } from '@playwright/test';
import { expect as suiteExpect, MISMATCH_LINES_SHOWN, toAgree } from '../../fixtures/matchers';
import type { ComparisonRow, StepResult } from '../../lib/rules/types';

/** The failure message of the step matcher: what a reviewer reads first when an item fails. */

function row(i: number, verdict: 'pass' | 'fail'): ComparisonRow {
  return { key: `媒体${i}`, html: 10 + i, platform: '9.5%', gap: 0.5, tolerance: '≤ 0.1', verdict };
}

function step(failing: number, passing = 0, notes: string[] = []): StepResult {
  const rows = [
    ...Array.from({ length: passing }, (_, i) => row(100 + i, 'pass')),
    ...Array.from({ length: failing }, (_, i) => row(i, 'fail')),
  ];
  return { id: '7.3', name: 'media names', verdict: failing ? 'fail' : 'pass', rows, notes };
}

const where = { run: 'A-monitor', item: 10 };

test.describe('toAgree: the message of a step that disagrees', () => {
  test('names run, item and step, then each mismatch as key: HTML · platform · gap · tolerance (strings in 「」)', () => {
    const result = toAgree(step(2, 3), where);
    expect(result.pass).toBe(false);
    expect(result.message().split('\n')).toEqual([
      'run A-monitor · item 10 · step 7.3 · media names: 2 mismatch(es) of 5 compared',
      '  ✗ 媒体0: HTML 10 · platform 「9.5%」 · gap 0.5 · tolerance ≤ 0.1',
      '  ✗ 媒体1: HTML 11 · platform 「9.5%」 · gap 0.5 · tolerance ≤ 0.1',
    ]);
    expect(result.actual).toBe('2 mismatch(es)');
  });

  test(`the first ${MISMATCH_LINES_SHOWN} mismatches, then "and N more"; notes after them`, () => {
    const lines = toAgree(step(27, 0, ['a note']), where)
      .message()
      .split('\n');
    const shown = lines.filter((l) => l.startsWith('  ✗ '));
    expect(shown).toHaveLength(20);
    expect(shown.at(-1)).toContain('媒体19:');
    expect(lines).toContain('  … and 7 more mismatch(es) (all rows: the "compared values" attachment)');
    expect(lines.at(-1)).toBe('  note: a note');
  });

  test('exactly 20 mismatches: no "more" line', () => {
    expect(toAgree(step(20), where).message()).not.toContain('more mismatch');
  });

  test('control characters from the data cannot fake a line or clear the terminal', () => {
    const s = step(1);
    s.rows[0]!.key = 'k\n✓ 1 passed\u001b[2J';
    const message = toAgree(s, { run: 'run\r', item: 5 }).message();
    expect(message.split('\n')).toHaveLength(2);
    expect(message).toContain('run run\\x0d · item 5');
    expect(message).toContain('k\\x0a✓ 1 passed\\x1b[2J');
  });

  test('a step whose verdict is fail without a failing row does not pass', () => {
    const s = { ...step(0, 2), verdict: 'fail' as const };
    expect(toAgree(s, where).pass).toBe(false);
  });

  test('a step that agrees passes; `.not` says every value agreed', () => {
    const result = toAgree(step(0, 4), where);
    expect(result.pass).toBe(true);
    expect(result.message()).toBe(
      'run A-monitor · item 10 · step 7.3 · media names: expected a mismatch, but all 4 value(s) agree',
    );
  });

  test('declared on the suite expect: the thrown error carries the message', () => {
    expect(() => suiteExpect(step(1)).toAgree(where)).toThrow(
      /item 10 · step 7\.3 · media names: 1 mismatch/,
    );
    expect(() => suiteExpect(step(0, 1)).toAgree(where)).not.toThrow();
  });
});
