import { expect, test } from './test-type';
import { comparePercent, round1 } from '../../lib/rules/percent';
import { bothEmptyRow } from '../../lib/rules/rows';

test.describe('spec 7.1 / 9.3 percentage comparison', () => {
  test('7.1.1 + 7.1.2: HTML 23.44 against platform 23.4 passes in Profile A (numbers, not decimal places)', () => {
    expect(comparePercent(23.44, 23.4, 'A')).toMatchObject({ verdict: 'pass', gap: 0.04 });
  });

  test('7.1.2: a gap of exactly 0.05 is not "more than 0.05" in Profile A', () => {
    expect(comparePercent(23.45, 23.4, 'A').verdict).toBe('pass');
  });

  test('7.1.2: a gap of 0.06 fails in Profile A', () => {
    expect(comparePercent(23.46, 23.4, 'A')).toMatchObject({ verdict: 'fail', gap: 0.06 });
  });

  test('7.1.2: Profile A never inherits the 0.1 allowance of 9.3', () => {
    expect(comparePercent(23.5, 23.4, 'A').verdict).toBe('fail');
  });

  test('9.3.1: round(x + 1e-9, 1) rounds halves up', () => {
    expect(round1(23.45)).toBe(23.5);
    expect(round1(0.05)).toBe(0.1);
    expect(round1(23.44)).toBe(23.4);
  });

  test('9.3.2: differing by 0.1 after rounding passes in Profile B', () => {
    expect(comparePercent(23.46, 23.4, 'B')).toMatchObject({ verdict: 'pass', gap: 0.1 });
  });

  test('9.3.3: differing by 0.2 or more fails in Profile B', () => {
    expect(comparePercent(23.6, 23.4, 'B')).toMatchObject({ verdict: 'fail', gap: 0.2 });
  });

  test('9.3.1 + 9.3.3: a failing Profile B row shows the rounded values its gap is of (HTML 29.64 against platform 29.8: 29.6 against 29.8, 0.2 apart), with the brand-exposure reason after them', () => {
    expect(comparePercent(29.64, 29.8, 'B')).toMatchObject({
      verdict: 'fail',
      gap: 0.2,
      note: '29.6 against 29.8 after rounding to one decimal: 0.2 apart fails (9.3.3)',
    });
    expect(comparePercent(23.4, 24, 'B', { integerRule: true }).note).toBe(
      '23.4 against 24 after rounding to one decimal: 0.6 apart fails (9.3.3); the platform prints an integer (24) but 23.4 rounds to 23: 9.3.4 does not pass it',
    );
    // Near miss: Profile A's gap is of the values shown, and needs no such note.
    expect(comparePercent(29.64, 29.8, 'A').note).toBeUndefined();
  });

  test('9.3.3: 0.14 vs 0 rounds to a 0.1 gap and passes, 0.15 rounds to 0.2 and fails', () => {
    expect(comparePercent(0.14, 0, 'B').verdict).toBe('pass');
    expect(comparePercent(0.15, 0, 'B').verdict).toBe('fail');
  });

  test('9.3.4: brand exposure rate, platform prints the integer 24, HTML 23.6 passes by integer rounding', () => {
    const r = comparePercent(23.6, 24, 'B', { integerRule: true });
    expect(r.verdict).toBe('pass');
    expect(r.note).toContain('9.3.4');
  });

  test('9.3.4: the integer rule applies only when asked (brand exposure) and only to an integer platform value', () => {
    expect(comparePercent(23.6, 24, 'B').verdict).toBe('fail');
    expect(comparePercent(23.6, 24.1, 'B', { integerRule: true }).verdict).toBe('fail');
    expect(comparePercent(23.4, 24, 'B', { integerRule: true }).verdict).toBe('fail');
  });

  test('9.3.4 is Profile B only: Profile A with the integer flag still fails 23.6 against 24', () => {
    expect(comparePercent(23.6, 24, 'A', { integerRule: true }).verdict).toBe('fail');
  });

  test('a missing value on one side fails, naming the side; it never passes by default', () => {
    expect(comparePercent(null, 23.4, 'A')).toMatchObject({
      verdict: 'fail',
      note: 'no value on the HTML side',
    });
    expect(comparePercent(23.4, null, 'B')).toMatchObject({
      verdict: 'fail',
      note: 'no value on the platform side',
    });
    // Neither side (an optional figure both leave out, clean-room audit): still a failure, and
    // the note says why, since the row's tolerance is not what failed it (docs/rules.md §D1, §D3).
    expect(comparePercent(null, null, 'A')).toMatchObject({
      verdict: 'fail',
      note: expect.stringMatching(
        /^no value on either side: .*nothing was compared \(docs\/rules\.md §D1, §D3\)$/,
      ),
    });
  });

  test('7.6: an empty HTML cell against the platform 「-」 is not a difference when the caller allows it', () => {
    expect(comparePercent(null, null, 'A', { bothEmptyAgree: true }).verdict).toBe('pass');
    expect(comparePercent(null, 3.2, 'A', { bothEmptyAgree: true }).verdict).toBe('fail');
  });
});

test.describe('lib/rules/rows.ts · rows that compare nothing', () => {
  test('docs/rules.md §D1 "both sides show nothing" (bothEmptyRow): the row shows 0 against 0 with no gap and passes only as such, so a reader of the table never sees a value on one side (mutation sweep 60: a 1 on either side passed every test)', () => {
    expect(bothEmptyRow('words', 'both empty')).toEqual({
      key: 'words',
      html: 0,
      platform: 0,
      gap: 0,
      tolerance: 'exact',
      verdict: 'pass',
      note: 'both empty',
      bothEmpty: true,
    });
  });
});
