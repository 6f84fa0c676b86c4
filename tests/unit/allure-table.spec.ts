import { expect, test } from './test-type';
import type { ComparisonRow, StepResult } from '../../lib/rules/types';
import {
  cellText,
  clauseTableCsv,
  comparedValues,
  COMPARED_MAX_ROWS,
  csvField,
  rowLine,
  stepTableCsv,
  stepTitle,
} from '../../lib/report/table';

function row(i: number, verdict: 'pass' | 'fail'): ComparisonRow {
  return {
    key: `k${i}`,
    html: i,
    platform: verdict === 'pass' ? i : i + 1,
    gap: verdict === 'pass' ? 0 : 1,
    tolerance: 'exact',
    verdict,
  };
}

test.describe('mismatch tables (README.md § Reading the Allure report)', () => {
  test('CSV: the seven columns, text verdicts, RFC 4180 quoting, formulas defused', () => {
    const step: StepResult = {
      id: '5.2',
      name: 'top 10',
      verdict: 'fail',
      notes: [],
      rows: [
        {
          key: 'a, "quoted"',
          html: 'x\ny',
          platform: -1.5,
          gap: null,
          tolerance: '≤ 0.05',
          verdict: 'fail',
          note: 'n',
        },
        {
          key: '=HYPERLINK("http://x")',
          html: null,
          platform: 0,
          gap: 0,
          tolerance: 'exact',
          verdict: 'pass',
        },
        { key: '-', html: '-', platform: '-', gap: null, tolerance: 'exact', verdict: 'pass' },
      ],
    };
    expect(stepTableCsv(step).split('\r\n')).toEqual([
      'key,HTML value,platform value,gap,tolerance,verdict,note',
      '"a, ""quoted""",「x\\x0ay」,-1.5,-,≤ 0.05,FAIL,n',
      `"'=HYPERLINK(""http://x"")",(no value),0,0,exact,pass,`,
      '-,「-」,「-」,-,exact,pass,',
      '',
    ]);
  });

  test('a passing step whose rows passed by a special clause gets a table of those rows, each saying its clause; the item said only how many (reader audit of 2026-11-28)', () => {
    const tie = (n: number, html: string, platform: string): ComparisonRow => ({
      key: `#${n} name`,
      html,
      platform,
      gap: null,
      tolerance: 'exact',
      verdict: 'pass',
      note: 'tie swap: 「锐视」 ↔ 「青松」 swapped ranks, tied within 0.05 on both sides (9.5.5)',
      passBy: 'tie swap (spec 9.5.5)',
    });
    const step: StepResult = {
      id: '5.2',
      name: 'rank and name of the top 10',
      verdict: 'pass',
      notes: [],
      rows: [row(1, 'pass'), tie(5, '锐视', '青松'), tie(6, '青松', '锐视'), row(7, 'pass')],
    };
    const csv = clauseTableCsv(step)!.trim().split('\r\n');
    expect(csv).toHaveLength(3);
    expect(csv[1]).toBe(
      '#5 name,「锐视」,「青松」,-,exact,pass by tie swap (spec 9.5.5),"tie swap: 「锐视」 ↔ 「青松」 swapped ranks, tied within 0.05 on both sides (9.5.5)"',
    );
    // A failing step's mismatch table says the clause of such a row too.
    expect(
      stepTableCsv({ ...step, verdict: 'fail', rows: [row(2, 'fail'), tie(5, '锐视', '青松')] }),
    ).toContain(',pass by tie swap (spec 9.5.5),');
    // Near misses: a clean pass, and a failing step, get no clause table.
    expect(clauseTableCsv({ ...step, rows: [row(1, 'pass')] })).toBeUndefined();
    expect(
      clauseTableCsv({ ...step, verdict: 'fail', rows: [row(2, 'fail'), tie(5, '锐视', '青松')] }),
    ).toBeUndefined();
  });

  test('CSV and HTML: at most max rows, failing rows first, a last line counting the rest', () => {
    const rows = Array.from({ length: 10 }, (_, i) => row(i, i === 7 || i === 9 ? 'fail' : 'pass'));
    const step: StepResult = { id: 'all', name: 'all', verdict: 'fail', rows, notes: [] };
    const csv = stepTableCsv(step, 3).trim().split('\r\n');
    expect(csv.slice(1, 4).map((l) => l.split(',')[0])).toEqual(['k7', 'k9', 'k0']);
    expect(csv[4]).toBe(
      '… 7 more row(s) not shown (0 of them failing); the compared-values JSON attachment holds up to 5000 a step',
    );
    expect(stepTableCsv(step).trim().split('\r\n')).toHaveLength(11); // all rows fit: spec order kept
    expect(stepTableCsv(step).split('\r\n')[1]?.startsWith('k0,')).toBe(true);
  });

  test('the compared-values attachment: up to 5,000 rows a step, failing ones first, the rest counted; long texts cut (1.8 million words made a 356 MB attachment)', () => {
    const many = Array.from({ length: COMPARED_MAX_ROWS + 3 }, (_, i) =>
      row(i, i === COMPARED_MAX_ROWS + 1 ? 'fail' : 'pass'),
    );
    const long = 'w'.repeat(10_000);
    const steps: StepResult[] = [
      { id: 'all', name: 'words', verdict: 'fail', rows: many, notes: [long] },
      { id: 'doubao', name: 'few', verdict: 'pass', rows: [{ ...row(1, 'pass'), html: long }], notes: [] },
    ];
    const [big, small] = comparedValues(steps) as (StepResult & {
      rowsLeftOut?: number;
      failingRowsLeftOut?: number;
    })[];
    expect(big!.rows).toHaveLength(COMPARED_MAX_ROWS);
    expect(big!.rows[0]!.key).toBe(`k${COMPARED_MAX_ROWS + 1}`); // the failing row first
    expect(big).toMatchObject({ rowsLeftOut: 3, failingRowsLeftOut: 0 });
    expect(big!.notes[0]).toBe(`${'w'.repeat(2_000)}… (8000 more characters)`);
    expect(small!.rows[0]!.html).toBe(`${'w'.repeat(2_000)}… (8000 more characters)`);
    expect(small).not.toHaveProperty('rowsLeftOut');
    // A bidirectional override from DATA is shown escaped, as in every other output.
    const rtl = comparedValues([
      { id: 'all', name: 'x', verdict: 'fail', rows: [{ ...row(1, 'fail'), html: 'a\u202eb' }], notes: [] },
    ]) as StepResult[];
    expect(rtl[0]!.rows[0]!.html).toBe('a\\u202eb');
    // Under the cap, a step is as the rules gave it.
    const few: StepResult[] = [
      { id: 'all', name: 'few', verdict: 'pass', rows: [row(0, 'pass')], notes: ['n'] },
    ];
    expect(comparedValues(few)).toEqual(few);
  });

  test('CSV: every formula prefix is defused, plain numbers and the lone "-" are not', () => {
    for (const formula of ["-1+cmd|' /C calc'!A0", '+1+1', '@SUM(A1)', '=1', '\t=1', '\r=1', '-x'])
      expect(csvField(formula).replace(/^"/, '').startsWith("'"), formula).toBe(true);
    for (const plain of ['-1.5', '+2', '12.5%', '-', '0', 'text']) expect(csvField(plain), plain).toBe(plain);
  });

  test('the shared helpers keep their contract', () => {
    expect(cellText(null)).toBe('(no value)');
    expect(cellText('a')).toBe('「a」');
    expect(stepTitle({ id: '5.2', name: 'top 10' })).toBe('5.2 · top 10');
    expect(rowLine(row(1, 'fail'))).toBe('k1: HTML 1 · platform 2 · gap 1 · tolerance exact');
  });
});
