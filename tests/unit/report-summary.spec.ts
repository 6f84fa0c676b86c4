import { expect, test } from '@playwright/test';
import { exitCodeOf, summaryGrid, summaryMarkdown } from '../../lib/report/summary';
import { displayWidth, hasUnsafeText } from '../../lib/report/text';
import type { Selection } from '../../lib/schema/verdict';
import { fakeVerdict } from './fakes/verdicts';

const selection: Selection = { filters: [], shard: null, complete: true };

const verdict = fakeVerdict;

const all = (v: 'pass' | 'fail') => Object.fromEntries([3, 4, 5, 6, 7, 8, 9, 10, 11, 12].map((i) => [i, v]));

test.describe('summaryGrid', () => {
  test('columns are items 3 … 12 in numeric order, cells pass / FAIL / ·, then the status', () => {
    // Items recorded out of order: the grid orders them.
    const v = verdict('run-a', { 12: 'pass', 3: 'fail', 10: 'pass', 4: 'pass' });
    const lines = summaryGrid([v]).split('\n');
    expect(lines[0]!.split(/\s+/)).toEqual([
      'run',
      '3',
      '4',
      '5',
      '6',
      '7',
      '8',
      '9',
      '10',
      '11',
      '12',
      'status',
    ]);
    expect(lines[1]!.split(/\s+/)).toEqual([
      'run-a',
      'FAIL',
      'pass',
      '·',
      '·',
      '·',
      '·',
      '·',
      'pass',
      '·',
      'pass',
      'checked',
    ]);
    expect(summaryGrid([v])).not.toMatch(/[✅❌]/);
  });

  test('lists the runs not checked with status and reason, capped at 300 characters', () => {
    const broken = verdict(
      'run-b',
      {},
      { status: 'error', reason: 'x'.repeat(400), failureKind: 'platform' },
    );
    const text = summaryGrid([verdict('run-a', all('pass')), broken]);
    expect(text).toContain('runs not checked:');
    const line = text.split('\n').find((l) => l.startsWith('  run-b · '))!;
    expect(line).toContain('error (platform)');
    expect(line).toContain(`${'x'.repeat(300)}… (100 more characters)`);
    expect(line).not.toContain('x'.repeat(301));
    expect(text).toContain('2 runs: 1 checked, 0 failing items in 0 runs, 1 not checked');
  });

  test('control characters in labels and reasons cannot clear the screen or fake a line', () => {
    const label = 'evil\u001b[2J\r\n✓ 1 passed';
    const reason = 'boom\n✓ 1 passed\r\u001b[2J\u202e';
    const text = summaryGrid([verdict(label, {}, { status: 'error', reason })]);
    expect(text.split('\n').filter(hasUnsafeText)).toEqual([]);
    // No line of the output starts with the planted "✓ 1 passed".
    expect(text.split('\n').some((l) => l.trimStart().startsWith('✓'))).toBe(false);
    expect(text).toContain('evil\\x1b[2J\\x0d\\x0a✓ 1 passed');
    expect(text).toContain('boom\\x0a✓ 1 passed\\x0d\\x1b[2J\\u202e');
  });

  test('Chinese labels line up with ASCII ones', () => {
    const lines = summaryGrid([verdict('森氧科技', all('pass')), verdict('abc', all('pass'))]).split('\n');
    // 4 wide characters take 8 terminal columns: the ASCII label is padded to 8 as well.
    expect(lines[1]!.startsWith('森氧科技 pass')).toBe(true);
    expect(lines[2]!.startsWith('abc      pass')).toBe(true);
    expect(displayWidth(lines[1]!)).toBe(displayWidth(lines[2]!));
  });

  test('an empty list says so', () => {
    expect(summaryGrid([])).toContain('no verdict');
  });
});

test.describe('summaryMarkdown', () => {
  test('a table with ✅ / ❌ / ·, the counts, the selection and the runs not checked', () => {
    const md = summaryMarkdown(
      [
        verdict('ok', all('pass')),
        verdict('bad', { 5: 'fail', 6: 'pass' }),
        verdict('down', {}, { status: 'needs-input', reason: 'ask | which <b>batch</b>' }),
      ],
      { filters: ['item5'], shard: null, complete: false },
    );
    expect(md).toContain('| run | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10 | 11 | 12 | status |');
    expect(md).toContain('| ok | ✅ | ✅ | ✅ | ✅ | ✅ | ✅ | ✅ | ✅ | ✅ | ✅ | checked |');
    expect(md).toContain('| bad | · | · | ❌ | ✅ | · | · | · | · | · | · | checked |');
    expect(md).toContain('| 3 | 2 | 1 | 1 |');
    expect(md).toContain('`item5`');
    expect(md).toContain('- **down** · needs-input · ask \\| which &lt;b&gt;batch&lt;/b&gt;');
    expect(md).not.toContain('<b>');
  });

  test('a label cannot add a column or a line', () => {
    const md = summaryMarkdown([verdict('a | b\n| x', all('pass'))], selection);
    const row = md.split('\n').find((l) => l.startsWith('| a'))!;
    expect(row.split(/(?<!\\)\|/)).toHaveLength(14);
  });
});

test.describe('exitCodeOf', () => {
  test('0 when every run is checked and passes', () => {
    expect(exitCodeOf([verdict('a', all('pass')), verdict('b', { 5: 'pass' })])).toBe(0);
  });

  test('1 when an item failed on checked data', () => {
    expect(exitCodeOf([verdict('a', all('pass')), verdict('b', { 5: 'fail' })])).toBe(1);
  });

  test('2 when a run is not checked, over 1', () => {
    expect(
      exitCodeOf([verdict('a', { 5: 'fail' }), verdict('b', {}, { status: 'error', reason: 'x' })]),
    ).toBe(2);
    expect(
      exitCodeOf([verdict('a', all('pass')), verdict('b', {}, { status: 'needs-input', reason: 'x' })]),
    ).toBe(2);
  });

  test('2 when there is nothing: no verdict, or no item at all', () => {
    expect(exitCodeOf([])).toBe(2);
    expect(exitCodeOf([verdict('a', {})])).toBe(2);
  });
});
