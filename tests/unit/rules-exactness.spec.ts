import { expect, test } from './test-type';
import { atComparedPrecision, comparePercent, isIntegerPrint, round1 } from '../../lib/rules/percent';
import { checkItem5 } from '../../lib/rules/ranking';
import { checkItem7, checkItem8, checkItem9, valueIsPercentage } from '../../lib/rules/shares';
import { checkItem12 } from '../../lib/rules/sources';
import type { Profile } from '../../lib/rules/types';
import type { GroupEntry } from '../../lib/schema/data';
import type { TmcDimension } from '../../lib/schema/platform';
import { context, failingKeys, row, setGroup, step } from './builders';

/** Decisions of docs/rules.md (§D6, §D11, §D13, §D15) and spec thresholds: one minimal case each, with its near-misses. */

const group = (...pairs: [string, number | null][]): GroupEntry[] =>
  pairs.map(([name, value]) => ({ name, value }));
const aggregate = (dimension: TmcDimension, html: GroupEntry[], api: GroupEntry[], profile: Profile = 'A') =>
  context({ profile, edit: (d, p) => setGroup(d, p, 'all', dimension, html, api) });

test.describe('spec 7.3.5 "a gap of about 0.1 point caused by dividing twice" is bounded', () => {
  test('7.3.5: HTML percentages 60.9 / 40.6 (sum 101.5) against 60.0 / 40.0 fail: gaps 0.9 and 0.6 are not "about 0.1"', () => {
    for (const profile of ['A', 'B'] as const) {
      const result = checkItem7(
        aggregate(
          'content_type',
          group(['图文', 60.9], ['视频', 40.6]),
          group(['图文', 60], ['视频', 40]),
          profile,
        ),
      );
      expect(result.verdict, profile).toBe('fail');
      expect(row(result, 'all', 'share 「图文」')).toMatchObject({ gap: 0.9, verdict: 'fail' });
      expect(row(result, 'all', 'share 「图文」').note ?? '').not.toContain('7.3.5');
    }
  });

  test('7.3.5: HTML 50 / 49 against platform 50.5 / 49.5 fails (nothing was divided twice on the platform)', () => {
    const result = checkItem7(
      aggregate('content_type', group(['图文', 50], ['视频', 49]), group(['图文', 50.5], ['视频', 49.5])),
    );
    expect(failingKeys(result, 'all')).toEqual(['share 「图文」', 'share 「视频」']);
  });

  test('7.3.5 is for HTML percentage groups only (7.3.3): counts 400 / 350 / 无时间 50 / 200 against 40 / 35 / 20 fail', () => {
    const result = checkItem8(
      aggregate(
        'publish_time',
        group(['近一周', 400], ['近一月', 350], ['无时间', 50], ['更早', 200]),
        group(['近一周', 40], ['近一月', 35], ['更早', 20]),
      ),
    );
    expect(result.verdict).toBe('fail');
    expect(row(result, 'all', 'share 「近一周」')).toMatchObject({ platform: 40, verdict: 'fail' });
    expect(row(result, 'all', 'share 「近一周」').html).toBeCloseTo(42.1, 1);
  });

  test('7.3.5 near miss "52.1 against 52" keeps passing in A; a 0.2 gap that re-dividing explains still fails', () => {
    const pass = checkItem7(
      aggregate(
        'content_type',
        group(['图文', 52.1], ['视频', 30.06], ['问答', 18.04]),
        group(['图文', 52], ['视频', 30], ['问答', 18]),
      ),
    );
    expect(pass.verdict).toBe('pass');
    expect(row(pass, 'all', 'share 「图文」').note).toContain('7.3.5 double division');
    // 52.2 / 100.385 × 100 = 52.0: explained, but the gap is 0.2 after rounding.
    const tooFar = checkItem7(
      aggregate(
        'content_type',
        group(['图文', 52.2], ['视频', 48.185]),
        group(['图文', 52], ['视频', 48.185]),
      ),
    );
    expect(row(tooFar, 'all', 'share 「图文」')).toMatchObject({ gap: 0.2, verdict: 'fail' });
  });
});

test.describe('spec 7.6 step 1: an empty cell against 「-」 is not a difference in every column', () => {
  const emptyBoth = (html: boolean, platform: boolean) =>
    context({
      edit: (d, p) => {
        if (html) d.brand.core_competitors.find((c) => c.name === '青禾')!.avg_exposure_rate = null;
        if (platform) p.competitor.find((r) => r.name === '青禾')!.exposure_rate = null;
      },
    });

  test('7.6: HTML empty all-platform rate against platform 「-」 passes 5.1 (both empty)', () => {
    const result = checkItem5(emptyBoth(true, true));
    expect(row(result, '5.1', '青禾 · all-platform rate')).toMatchObject({ verdict: 'pass' });
    expect(row(result, '5.1', '青禾 · all-platform rate').note).toContain('both empty');
    expect(result.verdict).toBe('pass');
  });

  test('7.6 near miss: an empty HTML rate against a platform value (or the reverse) still fails', () => {
    expect(row(checkItem5(emptyBoth(true, false)), '5.1', '青禾 · all-platform rate').verdict).toBe('fail');
    expect(row(checkItem5(emptyBoth(false, true)), '5.1', '青禾 · all-platform rate').verdict).toBe('fail');
  });
});

test.describe('spec 2.2 / 9.4.1: platform tmc values are percentages, never re-divided', () => {
  test('2.2: HTML counts 600 / 500 (54.55 / 45.45) against platform 60 / 50 fail item 7 in A (no count detection on the platform)', () => {
    const result = checkItem7(
      aggregate('content_type', group(['图文', 600], ['视频', 500]), group(['图文', 60], ['视频', 50])),
    );
    expect(row(result, 'all', 'share 「图文」')).toMatchObject({ platform: 60, verdict: 'fail' });
    expect(step(result, 'all').notes.join('\n')).toContain('printed as they are');
  });

  test('9.4.1 / 1.4: item 9 in B prints platform 60 / 50 as they are (the 7.4 bar-sum rule is Profile A only) and fails', () => {
    const result = checkItem9(
      aggregate(
        'media_category',
        group(['新闻', 600], ['自媒体', 500]),
        group(['新闻', 60], ['自媒体', 50]),
        'B',
      ),
    );
    expect(row(result, 'all', 'share 「新闻」')).toMatchObject({ platform: 60, verdict: 'fail' });
  });

  test('7.4 near miss: the same platform bars in Profile A sum above 101.5 and are divided (60 / 110 → 54.55): pass', () => {
    const result = checkItem9(
      aggregate(
        'media_category',
        group(['新闻', 600], ['自媒体', 500]),
        group(['新闻', 60], ['自媒体', 50]),
        'A',
      ),
    );
    expect(result.verdict).toBe('pass');
  });
});

test.describe('spec 8.2 thresholds on decimal values, never on binary sums', () => {
  test('7.4 / 8.2: bars 69.9 / 31.4 / 0.2 sum to exactly 101.5 and are printed directly (not divided)', () => {
    const result = checkItem9(
      aggregate(
        'media_category',
        group(['新闻', 699], ['自媒体', 314], ['百科', 2]),
        group(['新闻', 69.9], ['自媒体', 31.4], ['百科', 0.2]),
      ),
    );
    expect(row(result, 'all', 'share 「新闻」').platform).toBe(69.9);
    expect(step(result, 'all').notes.join('\n')).toContain('≤ 101.5: printed directly');
    expect(valueIsPercentage(group(['a', 69.9], ['b', 31.4], ['c', 0.2]))).toBe(true);
    expect(valueIsPercentage(group(['a', 69.9], ['b', 31.4], ['c', 0.2000001]))).toBe(false);
  });

  test('7.1.2: 52.1500004 against 52.1 is more than 0.05 apart (fails in A); exactly 0.05 passes', () => {
    expect(comparePercent(52.1500004, 52.1, 'A').verdict).toBe('fail');
    expect(comparePercent(52.15, 52.1, 'A').verdict).toBe('pass');
    expect(comparePercent(23.45, 23.4, 'A')).toMatchObject({ verdict: 'pass', gap: 0.05 });
    expect(comparePercent(0.1 + 0.2 + 0.05, 0.3, 'A').verdict).toBe('pass');
  });

  test('9.3.1: round(x + 1e-9, 1) on decimals: 0.15 rounds to 0.2 (a 0.2 gap fails), 0.14 to 0.1 (passes)', () => {
    expect(comparePercent(0.15, 0, 'B')).toMatchObject({ gap: 0.2, verdict: 'fail' });
    expect(comparePercent(0.14, 0, 'B')).toMatchObject({ gap: 0.1, verdict: 'pass' });
    expect(comparePercent(1.005 * 10, 10, 'B').verdict).toBe('pass');
  });

  test('9.3.1 "round(x + 1e-9, 1)": a value 1e-9 below a half rounds up as the half does (23.449999999 → 23.5), one 2e-9 below does not; the same 1e-9 in Profile A’s two decimals and in 9.3.4’s integers', () => {
    expect(round1(23.449999999)).toBe(23.5);
    expect(round1(23.449999998)).toBe(23.4);
    expect(comparePercent(23.449999999, 23.6, 'B')).toMatchObject({ gap: 0.1, verdict: 'pass' });
    // docs/rules.md § Values at the precision compared: Profile A keeps round(x + 1e-9, 2).
    expect(atComparedPrecision(12.344999999, 'A')).toBe(12.35);
    expect(atComparedPrecision(12.344999998, 'A')).toBe(12.34);
    // 9.3.4 "equality after rounding both sides to an integer", as Math.round(x + 1e-9).
    expect(comparePercent(35.499999999, 36, 'B', { integerRule: true })).toMatchObject({
      verdict: 'pass',
      passBy: 'integer print (spec 9.3.4)',
    });
    expect(comparePercent(35.499999998, 36, 'B', { integerRule: true }).verdict).toBe('fail');
  });
});

test.describe('spec 9.3.4 "when the platform prints an integer" is read by value (docs/rules.md §D15)', () => {
  test('9.3.4: 36, 36.0, "36", "36.0", "36%" and "36.00%" are integer prints; 36.5 and "36.5" are not', () => {
    for (const whole of [36, 36.0, '36', '36.0', '36%', '36.00%', ' 36 '])
      expect(isIntegerPrint(whole)).toBe(true);
    for (const decimal of [36.5, '36.5', '36.05%', 'x', null]) expect(isIntegerPrint(decimal)).toBe(false);
  });

  test('9.3.4 on decimal values (§D6): binary noise around a whole number is an integer print, a real decimal is not', () => {
    // 0.1 × 3 × 100 is 30.000000000000004 in binary floating point: the platform's value is 30.
    for (const noisy of [0.1 * 3 * 100, 29.999999999999996, 36.00000000000001, '30.000000000000004'])
      expect(isIntegerPrint(noisy), String(noisy)).toBe(true);
    expect(comparePercent(29.6, 0.1 * 3 * 100, 'B', { integerRule: true })).toMatchObject({
      verdict: 'pass',
      passBy: 'integer print (spec 9.3.4)',
    });
    // Near misses: a hundredth or a nano-point's worth more is no whole number; infinities are none.
    for (const decimal of [30.01, 30.000000002, Infinity, Number.NaN])
      expect(isIntegerPrint(decimal), String(decimal)).toBe(false);
    expect(comparePercent(29.4, 30.01, 'B', { integerRule: true }).verdict).toBe('fail');
  });

  test('9.3.4: HTML 35.6 against a platform 36 passes by integer rounding, printed "36" or "36.0" alike, marked integer print', () => {
    for (const printed of ['36', '36.0']) {
      const c = comparePercent(35.6, 36, 'B', { integerRule: true, platformPrinted: printed });
      expect(c, printed).toMatchObject({ verdict: 'pass', passBy: 'integer print (spec 9.3.4)' });
      expect(c.note).toContain(`the platform prints an integer (${printed})`);
    }
  });

  test('9.3.4 near miss: HTML 35.4 rounds to 35, and a platform 36.5 is no integer: both fail and say why', () => {
    const lower = comparePercent(35.4, 36, 'B', { integerRule: true });
    expect(lower).toMatchObject({ verdict: 'fail' });
    expect(lower.note).toContain('35.4 rounds to 35');
    const half = comparePercent(36.4, 36.5, 'B', { integerRule: true });
    expect(half).toMatchObject({ verdict: 'pass' }); // 36.4 against 36.5: 0.1 after rounding (9.3.2)
    const notWhole = comparePercent(35.6, 36.3, 'B', { integerRule: true, platformPrinted: '36.3' });
    expect(notWhole).toMatchObject({ verdict: 'fail' });
    expect(notWhole.note).toContain('9.3.4 does not apply');
  });
});

test.describe('spec 7.8.5 decides by the ordinal and the counts (docs/rules.md §D13)', () => {
  test('7.8.5: a title the platform lacks, at an ordinal with an equal count, is reported as a tie swap by the counts, and as absent', () => {
    const result = checkItem12(
      context({
        edit: (_, p) =>
          (p.sources['all']![2] = { title: '别的来源', channel: '问答', cite_count: 5, rank: 8 }),
      }),
    );
    const third = row(result, 'all', '#3');
    expect(third).toMatchObject({ html: '哪款牛奶好', platform: '别的来源', verdict: 'fail' });
    // The spec's statement, and what a reader needs besides: neither title is on the other side.
    expect(third.note).toBe(
      '「哪款牛奶好」 is not on the platform side at all, and 「别的来源」 is not on the HTML side at all (item 11 lists it); cited count 5 on both sides at #3: a tie swap by the counts all the same (7.8.5: equal cited counts at an ordinal are a tie swap, not a missing title)',
    );
  });

  test('7.8.5 near miss: a different title with a different count is no tie swap and names the missing titles', () => {
    const result = checkItem12(
      context({
        edit: (_, p) =>
          (p.sources['all']![2] = { title: '别的来源', channel: '问答', cite_count: 4, rank: 8 }),
      }),
    );
    const third = row(result, 'all', '#3');
    expect(third.note).not.toContain('tie swap');
    expect(third.note).toContain('「哪款牛奶好」 is missing on the platform side');
    expect(third.note).toContain('「别的来源」 is missing on the HTML side');
    expect(third.note).toContain('cited count HTML 5, platform 4');
  });

  test('7.8.5: two present titles swapped with equal counts get the tie-swap note', () => {
    const result = checkItem12(context({ edit: (_, p) => p.sources['all']!.reverse() }));
    expect(row(result, 'all', '#2').note).toContain('tie swap, not a missing title');
  });
});
