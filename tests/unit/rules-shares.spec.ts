import { expect, test } from './test-type';
import { ITEM_RULES } from '../../lib/rules';
import {
  checkItem10,
  checkItem7,
  checkItem8,
  checkItem9,
  groupReading,
  positiveSum,
  valueIsPercentage,
} from '../../lib/rules/shares';
import type { Data, GroupEntry } from '../../lib/schema/data';
import type { PlatformEvidence, TmcDimension } from '../../lib/schema/platform';
import { PASS_BY, type Profile } from '../../lib/rules/types';
import { AI_KEYS, context, failingKeys, row, setGroup, step, tmcRows } from './builders';

const group = (...pairs: [string, number | null][]): GroupEntry[] =>
  pairs.map(([name, value]) => ({ name, value }));

/** A context where the aggregate group of `dimension` is `html` on the report and `api` on the platform. */
const aggregate = (dimension: TmcDimension, html: GroupEntry[], api: GroupEntry[], profile: Profile = 'A') =>
  context({ profile, edit: (d, p) => setGroup(d, p, 'all', dimension, html, api) });

test.describe('items 7 to 10 · share charts (spec 7.3 to 7.5, 9.3.5, 9.4)', () => {
  test('one step per platform option, the aggregate first; all four items pass when both sides agree, A and B', () => {
    for (const profile of ['A', 'B'] as const) {
      for (const check of [checkItem7, checkItem8, checkItem9, checkItem10]) {
        const result = check(context({ profile }));
        expect(result.steps.map((s) => s.id)).toEqual(['all', ...AI_KEYS]);
        expect(result.verdict, `item ${result.item} profile ${profile}`).toBe('pass');
      }
    }
  });

  test.describe('7.3.3 / 7.3.4 percentage or count', () => {
    test('7.3.3: a positive sum of about 99 to 101.5 is a percentage; 7.3.4: a sum far above 100 or an entry above 100 is a count', () => {
      expect(valueIsPercentage(group(['a', 52], ['b', 30], ['c', 18]))).toBe(true);
      expect(valueIsPercentage(group(['a', 52], ['b', 30], ['c', 17.8]))).toBe(true);
      expect(valueIsPercentage(group(['a', 52], ['b', 30], ['c', 19.5]))).toBe(true);
      expect(valueIsPercentage(group(['a', 52], ['b', 30], ['c', 19.6]))).toBe(false);
      expect(valueIsPercentage(group(['a', 520], ['b', 300], ['c', 180]))).toBe(false);
      expect(valueIsPercentage(group(['a', 101]))).toBe(false);
    });

    test('7.3.3 "every entry between 0 and 100": an entry of exactly 100 (sum 101) is a percentage; 7.3.4 "a single entry far above 100": one above 100 is a count even when the sum (101.5) is in the window', () => {
      expect(valueIsPercentage(group(['a', 100], ['b', 1]))).toBe(true);
      expect(valueIsPercentage(group(['a', 99.5], ['b', 1.5]))).toBe(true);
      expect(valueIsPercentage(group(['a', 101], ['b', 0.5]))).toBe(false);
    });

    test('7.3.4 "value / sum of positive values × 100": a negative entry and an empty one stay out of the denominator (图文 520 of 1000 → 52 beside 更正 -50)', () => {
      expect(
        positiveSum(group(['图文', 520], ['视频', 300], ['问答', 180], ['更正', -50], ['空', null])),
      ).toBe(1000);
      const result = checkItem7(
        aggregate(
          'content_type',
          group(['图文', 520], ['视频', 300], ['问答', 180], ['更正', -50]),
          group(['图文', 52], ['视频', 30], ['问答', 18], ['更正', -5]),
        ),
      );
      expect(row(result, 'all', 'share 「图文」')).toMatchObject({ html: 52, platform: 52, verdict: 'pass' });
      expect(step(result, 'all').verdict).toBe('pass');
    });

    test('7.3.3 / 7.3.4 with docs/rules.md §D17 "a positive sum above 0 and below 99, with no entry above 100, meets neither sentence": however small the sum (1, 0.5), the group is below the window; a group with no positive value (sum 0) is read as percentages, not below the window', () => {
      expect(groupReading(group(['a', 0.6], ['b', 0.4]))).toEqual({ reading: 'below the window', sum: 1 });
      expect(groupReading(group(['a', 0.5]))).toEqual({ reading: 'below the window', sum: 0.5 });
      expect(groupReading(group(['a', 0], ['b', null]))).toEqual({ reading: 'percentage', sum: 0 });
    });

    test('docs/rules.md §D17 with 7.3.2: a publish-time group below the window only through 「无时间」 (50), whose kept entries sum to 0, has no count reading to offer: its rows give no "read as counts" share, never 0 / 0', () => {
      const result = checkItem8(
        aggregate('publish_time', group(['近一周', 0], ['无时间', 50]), group(['近一周', 0])),
      );
      const share = row(result, 'all', 'share 「近一周」');
      expect(share).toMatchObject({ html: 0, platform: 0, verdict: 'pass' });
      expect(share.note).toBeUndefined();
    });

    test('7.3.4 "only when clearly a count": a sum of 95 (publish time after 「无时间」) is still a percentage', () => {
      expect(valueIsPercentage(group(['近一周', 40], ['近一月', 35], ['更早', 20]))).toBe(true);
    });

    test('7.3.3: percentages summing to 99.5 are used directly, not divided by the sum again', () => {
      const pct = group(['图文', 52], ['视频', 30], ['问答', 17.5]);
      const result = checkItem7(aggregate('content_type', pct, pct));
      expect(row(result, 'all', 'share 「图文」')).toMatchObject({ html: 52, platform: 52, verdict: 'pass' });
    });

    test('7.3.4: counts become value / sum of positive values × 100 (图文 520 of 1000 → 52)', () => {
      const result = checkItem7(context());
      expect(row(result, 'all', 'share 「图文」')).toMatchObject({ html: 52, platform: 52, verdict: 'pass' });
      expect(step(result, 'all').notes[0]).toContain('counts (positive sum 1000)');
    });
  });

  test.describe('7.3.1 / 7.3.2 legend', () => {
    test('7.3.2: 「无时间」 is removed on both sides, also when only the HTML has it', () => {
      const result = checkItem8(
        aggregate(
          'publish_time',
          group(['近一周', 40], ['无时间', 5], ['近一月', 35], ['更早', 20]),
          group(['近一周', 40], ['近一月', 35], ['更早', 20]),
        ),
      );
      expect(step(result, 'all').verdict).toBe('pass');
      expect(step(result, 'all').rows.some((r) => r.key.includes('无时间'))).toBe(false);
    });

    test('7.3.2: with counts, 「无时间」 leaves the denominator too (400 of 950 → 42.11, at the two decimals the HTML prints)', () => {
      const result = checkItem8(
        aggregate(
          'publish_time',
          group(['近一周', 400], ['近一月', 350], ['无时间', 5000], ['更早', 200]),
          group(['近一周', 42.1], ['近一月', 36.8], ['更早', 21.1]),
        ),
      );
      expect(step(result, 'all').verdict).toBe('pass');
      expect(row(result, 'all', 'share 「近一周」')).toMatchObject({ html: 42.11, gap: 0.01 });
    });

    test('7.3.1: at most 8 legend entries; entries 9 and 10 that differ are not compared', () => {
      const names = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
      const html = group(
        ...names.map((n, i) => [n, 200 - i * 10] as [string, number]),
        ['只在报告', 20],
        ['只在报告2', 10],
      );
      const sum = html.reduce((s, e) => s + (e.value ?? 0), 0);
      const api = group(
        ...names.map((n, i) => [n, Math.round(((200 - i * 10) / sum) * 1000) / 10] as [string, number]),
        ['只在平台', 1.2],
      );
      const result = checkItem7(aggregate('content_type', html, api));
      expect(step(result, 'all').rows.filter((r) => r.key.endsWith('legend name'))).toHaveLength(8);
      expect(step(result, 'all').verdict).toBe('pass');
    });

    test('7.3.1: a legend one entry shorter on the platform fails at that position, and the row names the side without an entry (docs/rules.md §D3)', () => {
      const result = checkItem7(
        aggregate(
          'content_type',
          group(['图文', 520], ['视频', 300], ['问答', 180]),
          group(['图文', 52], ['视频', 30]),
        ),
      );
      expect(row(result, 'all', '#3 legend name')).toMatchObject({
        html: '问答',
        platform: null,
        verdict: 'fail',
        note: 'no entry at #3 on the platform side',
      });
    });

    test('7.3.1 / docs/rules.md §D3 "the note names the side", the other way: a legend one entry shorter in the HTML says the HTML side lacks the entry, and a position both sides fill carries no such note', () => {
      const result = checkItem7(
        aggregate(
          'content_type',
          group(['图文', 60], ['视频', 40]),
          group(['图文', 60], ['视频', 35], ['问答', 5]),
        ),
      );
      expect(row(result, 'all', '#3 legend name')).toMatchObject({
        html: null,
        platform: '问答',
        verdict: 'fail',
        note: 'no entry at #3 on the HTML side',
      });
      expect(row(result, 'all', '#1 legend name')).toMatchObject({
        html: '图文',
        platform: '图文',
        verdict: 'pass',
      });
      expect(row(result, 'all', '#1 legend name').note).toBeUndefined();
    });

    test('7.3.1: legend order by value: a name at another position fails at that position', () => {
      const result = checkItem7(
        aggregate(
          'content_type',
          group(['图文', 520], ['视频', 300], ['问答', 180]),
          group(['图文', 52], ['视频', 18], ['问答', 30]),
        ),
      );
      expect(failingKeys(result, 'all')).toEqual([
        '#2 legend name',
        '#3 legend name',
        'share 「视频」',
        'share 「问答」',
      ]);
    });

    test('9.3.5 / 9.3.2 in the legend order: in Profile B shares 0.1 apart are equal (40.1 and 40.0), so the two may stand in either order; near misses: 0.2 apart in B, and 0.1 apart in A, fail the position', () => {
      const swapped = (profile: Profile, high: number) =>
        checkItem7(
          aggregate(
            'content_type',
            group(['图文', high], ['视频', 40], ['问答', 60 - high]),
            group(['视频', high], ['图文', 40], ['问答', 60 - high]),
            profile,
          ),
        );
      expect(row(swapped('B', 40.1), 'all', '#1 legend name')).toMatchObject({
        html: '图文',
        platform: '视频',
        verdict: 'pass',
        passBy: PASS_BY.equalShares,
      });
      expect(row(swapped('B', 40.2), 'all', '#1 legend name')).toMatchObject({ verdict: 'fail' });
      expect(row(swapped('A', 40.1), 'all', '#1 legend name')).toMatchObject({ verdict: 'fail' });
    });

    test('7.3.1: entries with equal shares on both sides may stand in either order (ordered by value leaves ties open)', () => {
      const result = checkItem7(
        aggregate(
          'content_type',
          group(['图文', 40], ['视频', 30], ['问答', 30]),
          group(['图文', 40], ['问答', 30], ['视频', 30]),
        ),
      );
      expect(step(result, 'all').verdict).toBe('pass');
      expect(row(result, 'all', '#2 legend name')).toMatchObject({
        html: '视频',
        platform: '问答',
        verdict: 'pass',
      });
      expect(row(result, 'all', '#2 legend name').note).toContain('equal shares');
    });

    test('7.3.1 / 7.1.1: shares the HTML tells apart (18.73, 18.67) that the platform prints alike (18.7, 18.7, one decimal) may stand in either order: the platform side does not order them (docs/rules.md §D10)', () => {
      // Counts as a report has them: 281 and 280 of 1500 are 18.73 and 18.67 (7.3.4).
      const result = checkItem8(
        aggregate(
          'publish_time',
          group(['一年以上', 281], ['近7天', 280], ['近30天', 278], ['近90天', 661]),
          group(
            ['近7天', '18.7' as unknown as number],
            ['一年以上', 18.7],
            ['近30天', 18.5],
            ['近90天', 44.1],
          ),
        ),
      );
      expect(step(result, 'all').verdict).toBe('pass');
      expect(row(result, 'all', '#2 legend name')).toMatchObject({
        html: '一年以上',
        platform: '近7天',
        verdict: 'pass',
        note: 'equal shares on the platform side, where their order is open (7.3.1 orders by value)',
      });
      // Profile B reads the same pair alike too.
      const b = checkItem8(
        aggregate(
          'publish_time',
          group(['一年以上', 281], ['近7天', 280], ['近30天', 278], ['近90天', 661]),
          group(['近7天', 18.7], ['一年以上', 18.7], ['近30天', 18.5], ['近90天', 44.1]),
          'B',
        ),
      );
      expect(step(b, 'all').verdict).toBe('pass');
    });

    test('7.3.1 near-miss: a swap of shares apart on both sides fails at both positions, even when the gap is small (and a share with it: with one tolerance for ties and for values, two sides cannot order a pair apart in opposite ways while each share agrees)', () => {
      for (const profile of ['A', 'B'] as const) {
        const result = checkItem7(
          aggregate(
            'content_type',
            group(['图文', 40], ['视频', 30.2], ['问答', 29.8]),
            group(['图文', 40], ['问答', 30.2], ['视频', 29.8]),
            profile,
          ),
        );
        expect(failingKeys(result, 'all'), profile).toEqual([
          '#2 legend name',
          '#3 legend name',
          'share 「视频」',
          'share 「问答」',
        ]);
      }
    });

    test('7.3.1 "ordered by value, highest first", with 7.1.2 / 9.3.2: a name that moved past two neighbours, tied with one on each side, leaves every pair in the same order or tied, and every share within the tolerance: no position fails (docs/rules.md §D10, judged by pairs)', () => {
      // Profile A: the report prints 自媒体 and 论坛 alike (0.15, 0.15; its exact shares were 0.1451
      // and 0.1549), a platform computing from the counts prints 0.1 and 0.2, and 0.08 as 0.1 in API
      // order before 自媒体. 自媒体 went from #2 to #4; 论坛 and 网易 keep their order on both sides.
      const a = checkItem7(
        aggregate(
          'content_type',
          group(['图文', 99.62], ['自媒体', 0.15], ['论坛', 0.15], ['网易', 0.08]),
          group(['图文', 99.6], ['论坛', 0.2], ['网易', 0.1], ['自媒体', 0.1]),
        ),
      );
      // Profile B, 0.1 apart after rounding passing (9.3.2): the same move with shares of 20.
      const b = checkItem7(
        aggregate(
          'content_type',
          group(['图文', 40.2], ['自媒体', 20], ['论坛', 20], ['网易', 19.8]),
          group(['图文', 40.2], ['论坛', 20.1], ['网易', 19.9], ['自媒体', 19.9]),
          'B',
        ),
      );
      for (const [profile, result] of [
        ['A', a],
        ['B', b],
      ] as const) {
        expect(failingKeys(result, 'all'), profile).toEqual([]);
        expect(row(result, 'all', '#3 legend name'), profile).toMatchObject({
          html: '论坛',
          platform: '网易',
          verdict: 'pass',
          passBy: PASS_BY.equalShares,
        });
        expect(row(result, 'all', '#3 legend name').note, profile).toContain(
          '「自媒体」 ↔ 「论坛」 equal on the HTML side; 「自媒体」 ↔ 「网易」 equal on the platform side',
        );
      }
    });

    test('7.3.1 near-miss of the pair reading: a name that moved past a neighbour it is tied with nowhere fails at each position it moved through, though another pair of that position is tied', () => {
      const result = checkItem7(
        aggregate(
          'content_type',
          group(['图文', 40], ['视频', 30.2], ['问答', 20], ['论坛', 9.8]),
          group(['图文', 40], ['问答', 30.2], ['论坛', 20], ['视频', 9.8]),
        ),
      );
      expect(failingKeys(result, 'all').filter((k) => k.includes('legend'))).toEqual([
        '#2 legend name',
        '#3 legend name',
        '#4 legend name',
      ]);
    });

    test('7.3.1 near-miss of the pair reading (docs/rules.md §D10: a position passes when "every swap either took part in is of names equal on some side"): 图文 at #1 swapped with 视频 (equal, 40 and 39.98) and with 问答 (apart on both sides), so #1 fails, its equal swap notwithstanding', () => {
      const result = checkItem7(
        aggregate(
          'content_type',
          group(['图文', 40], ['视频', 39.98], ['问答', 20]),
          group(['问答', 45], ['视频', 39.99], ['图文', 39.97]),
        ),
      );
      expect(row(result, 'all', '#1 legend name')).toMatchObject({
        html: '图文',
        platform: '问答',
        verdict: 'fail',
      });
      expect(row(result, 'all', '#1 legend name').passBy).toBeUndefined();
    });

    test('7.3.1 near-miss of the pair reading: a name the other side does not list takes part in no swap, so its position fails, though the name facing it swapped only with a name of equal share', () => {
      const result = checkItem7(
        aggregate(
          'content_type',
          group(['视频', 31], ['问答', 30], ['图文', 29], ['论坛', 10]),
          group(['图文', 30], ['问答', 30], ['新闻', 30], ['论坛', 10]),
        ),
      );
      expect(row(result, 'all', '#1 legend name')).toMatchObject({
        html: '视频',
        platform: '图文',
        verdict: 'fail',
      });
      expect(row(result, 'all', '#2 legend name').verdict).toBe('pass');
    });
  });

  test.describe('7.3.5 double division', () => {
    // The HTML group is a percentage group (7.3.3, sum 100.2); the platform divided it a second time:
    // 52.1 / 100.2 × 100 = 52.0, printed as 52.
    const htmlPct = group(['图文', 52.1], ['视频', 30.06], ['问答', 18.04]);
    const platformTwice = group(['图文', 52], ['视频', 30], ['问答', 18]);

    test('7.3.5 "52.1 against 52": HTML percentages re-divided by their sum 100.2 explain the 0.1 gap: not a failure in Profile A (note says so)', () => {
      const result = checkItem7(aggregate('content_type', htmlPct, platformTwice));
      const share = row(result, 'all', 'share 「图文」');
      expect(share).toMatchObject({ html: 52.1, platform: 52, gap: 0.1, verdict: 'pass' });
      expect(share.note).toContain('7.3.5 double division');
      expect(row(result, 'all', 'share 「视频」').verdict).toBe('pass');
      expect(result.verdict).toBe('pass');
    });

    test('7.3.5 with 「无时间」 (7.3.2): a publish-time percentage group re-divided by its whole sum 100.2 is not a failure in Profile A', () => {
      // The percentages are shares of the whole group, 「无时间」 included (sum 100.2); the platform
      // divided 52.1 by that whole a second time. 7.3.2 then removes 「无时间」 on both sides.
      const html = group(['近一周', 52.1], ['更早', 38], ['无时间', 10.1]);
      const api = group(['近一周', 52], ['更早', 37.9], ['无时间', 10.1]);
      const result = checkItem8(aggregate('publish_time', html, api, 'A'));
      const share = row(result, 'all', 'share 「近一周」');
      expect(share).toMatchObject({ html: 52.1, platform: 52, verdict: 'pass' });
      expect(share.note).toContain('52.1 / 100.2 × 100 = 52');
      expect(result.verdict).toBe('pass');
      // Near miss: a 0.2 gap is more than "about 0.1 point", whatever sum explains it.
      const far = checkItem8(
        aggregate('publish_time', html, group(['近一周', 51.9], ['更早', 38], ['无时间', 10.1]), 'A'),
      );
      expect(row(far, 'all', 'share 「近一周」').verdict).toBe('fail');
    });

    test('7.3.5 near miss: a 0.1 gap that dividing twice does not explain (platform sum 100) fails in Profile A, and the row says why 7.3.5 did not hold (rules audit of 2026-11-28)', () => {
      const html = group(['图文', 52.1], ['视频', 30], ['问答', 17.9]);
      const api = group(['图文', 52], ['视频', 30], ['问答', 18]);
      const a = checkItem7(aggregate('content_type', html, api, 'A'));
      // The spec's own example "52.1 against 52" failing with only "gap 0.1 · tolerance ≤ 0.05"
      // read as 7.3.5 ignored: the row names the re-division that fails to explain it.
      expect(row(a, 'all', 'share 「图文」')).toMatchObject({
        gap: 0.1,
        verdict: 'fail',
        note: "not 7.3.5 double division: re-dividing the HTML percentage gives 52.1 / 100 × 100 = 52.1, not the platform's 52 (docs/rules.md §D11)",
      });
      // Near miss: a gap beyond "about 0.1" gets no such note; a pass within 0.05 none either.
      expect(row(a, 'all', 'share 「视频」').note).toBeUndefined();
      const far = checkItem7(
        aggregate('content_type', html, group(['图文', 51.9], ['视频', 30], ['问答', 18.1]), 'A'),
      );
      expect(row(far, 'all', 'share 「图文」')).toMatchObject({ gap: 0.2, verdict: 'fail' });
      expect(row(far, 'all', 'share 「图文」').note).toBeUndefined();
    });

    test('7.3.5 "caused by dividing twice": a count group (7.3.4) was divided once, and its 0.1 gap fails in Profile A saying so (rules audit of 2026-11-28)', () => {
      const counts = group(['图文', 521], ['视频', 300], ['问答', 179]); // 52.1, 30, 17.9 of 1000
      const a = checkItem7(
        aggregate('content_type', counts, group(['图文', 52], ['视频', 30], ['问答', 18]), 'A'),
      );
      expect(row(a, 'all', 'share 「图文」')).toMatchObject({
        html: 52.1,
        platform: 52,
        verdict: 'fail',
        note: 'not 7.3.5 double division: the HTML values are counts, divided once (7.3.4, docs/rules.md §D11)',
      });
    });

    test('7.3.5 at the 101.5 window top (8.2): 95.5 / 6 (sum 101.5, percentages) re-divided gives 5.91 and passes against 5.91; 95.6 / 6 (sum 101.6, counts) gives 5.91 whose re-division 5.82 matches the platform, yet counts were divided once: fails', () => {
      const percentages = checkItem7(
        aggregate(
          'content_type',
          group(['图文', 95.5], ['视频', 6]),
          group(['图文', 95.5], ['视频', 5.91]),
          'A',
        ),
      );
      expect(row(percentages, 'all', 'share 「视频」')).toMatchObject({
        html: 6,
        platform: 5.91,
        verdict: 'pass',
        passBy: PASS_BY.doubleDivision,
      });
      const counts = checkItem7(
        aggregate(
          'content_type',
          group(['图文', 95.6], ['视频', 6]),
          group(['图文', 94.09], ['视频', 5.82]),
          'A',
        ),
      );
      expect(row(counts, 'all', 'share 「视频」')).toMatchObject({
        html: 5.91,
        platform: 5.82,
        verdict: 'fail',
        note: 'not 7.3.5 double division: the HTML values are counts, divided once (7.3.4, docs/rules.md §D11)',
      });
    });

    test('9.3.5: the same unexplained 0.1 gap passes in Profile B by 9.3.2, not by 7.3.5', () => {
      const html = group(['图文', 52.1], ['视频', 30], ['问答', 17.9]);
      const api = group(['图文', 52], ['视频', 30], ['问答', 18]);
      const share = row(checkItem7(aggregate('content_type', html, api, 'B')), 'all', 'share 「图文」');
      expect(share).toMatchObject({
        gap: 0.1,
        verdict: 'pass',
        tolerance: '≤ 0.1 after round(x,1) (9.3)',
        passBy: '0.1 after rounding (spec 9.3.2)',
      });
      expect(share.note).toContain('0.1 apart passes (9.3.2)');
      expect(share.note).not.toContain('7.3.5');
    });

    test('9.3.3 in items 7-10: a 0.2 gap after rounding fails in Profile B', () => {
      const result = checkItem8(
        aggregate(
          'publish_time',
          group(['近一周', 40.2], ['更早', 59.8]),
          group(['近一周', 40], ['更早', 60]),
          'B',
        ),
      );
      expect(row(result, 'all', 'share 「近一周」')).toMatchObject({ gap: 0.2, verdict: 'fail' });
    });
  });

  test.describe('docs/rules.md §D2 · groups present on one side', () => {
    test('a platform whose HTML citation has no content_type is not compared, with an item note', () => {
      const result = checkItem7(
        context({ edit: (d) => delete d.brand.platforms['deepseek']!.citation.content_type }),
      );
      expect(result.steps.map((s) => s.id)).not.toContain('deepseek');
      expect(result.notes.join('\n')).toContain(
        'DeepSeek (deepseek): the HTML has no citation.content_type; not compared',
      );
      expect(result.verdict).toBe('pass');
    });

    test('contract §6 "or the reverse for the aggregate, fails": the aggregate without tmc_aggregate.content_type fails when the platform has the group', () => {
      const result = checkItem7(context({ edit: (d) => delete d.brand.tmc_aggregate.content_type }));
      expect(row(result, 'all', 'group content_type')).toMatchObject({ html: null, verdict: 'fail' });
      expect(result.verdict).toBe('fail');
    });

    test('contract §5/§6: an aggregate group on neither side (optional in DATA, no tmc rows of platform all) is not compared, with a note; the platforms decide', () => {
      const neither = (d: Data, p: PlatformEvidence) => {
        delete d.brand.tmc_aggregate.content_type;
        p.tmc = p.tmc.filter((r) => !(r.platform === 'all' && r.dimension === 'content_type'));
      };
      const result = checkItem7(context({ edit: neither }));
      expect(result.steps.map((s) => s.id)).not.toContain('all');
      expect(result.steps.length).toBeGreaterThan(0);
      expect(result.notes.join('\n')).toContain(
        'aggregate (all): neither the HTML (tmc_aggregate.content_type) nor the platform (tmc rows of platform all) has the group; not compared',
      );
      expect(result.verdict).toBe('pass');
      // Rows of platform all that show nothing (every value empty) are the group on neither side too.
      const nulls = checkItem7(
        context({
          edit: (d, p) => {
            delete d.brand.tmc_aggregate.content_type;
            for (const r of p.tmc) if (r.platform === 'all' && r.dimension === 'content_type') r.value = null;
          },
        }),
      );
      expect(nulls.steps.map((s) => s.id)).not.toContain('all');
      expect(nulls.verdict).toBe('pass');
      // Near-miss the other way: a platform step that differs still fails the item.
      const drift = checkItem7(
        context({
          edit: (d, p) => {
            neither(d, p);
            for (const r of p.tmc) if (r.platform === 'kimi' && r.dimension === 'content_type') r.value = 0;
          },
        }),
      );
      expect(drift.verdict).toBe('fail');
      // And with no group on any side for any option, nothing is compared: the item fails (§D1).
      const none = checkItem7(
        context({
          edit: (d, p) => {
            delete d.brand.tmc_aggregate.content_type;
            for (const key of Object.keys(d.brand.platforms))
              delete d.brand.platforms[key]!.citation.content_type;
            p.tmc = p.tmc.filter((r) => r.dimension !== 'content_type');
          },
        }),
      );
      expect(none.verdict).toBe('fail');
    });

    test('contract §6 "a group that the HTML has and the platform lacks, or the reverse for the aggregate, fails", read by what each chart shows (docs/rules.md §D2): a publish-time group of only 「无时间」 against a platform legend fails, and so does a legend against platform rows that all have no value; neither is "both empty"', () => {
      const legend = group(['近一周', 40], ['近一月', 35], ['更早', 25]);
      const platformShows = checkItem8(
        context({ edit: (d, p) => setGroup(d, p, 'kimi', 'publish_time', group(['无时间', 100]), legend) }),
      );
      expect(step(platformShows, 'kimi').verdict).toBe('fail');
      expect(row(platformShows, 'kimi', '#1 legend name')).toMatchObject({
        html: null,
        platform: '近一周',
        verdict: 'fail',
      });
      const nullRows = group(['近一周', null], ['近一月', null], ['更早', null]);
      const htmlShows = checkItem8(
        context({ edit: (d, p) => setGroup(d, p, 'kimi', 'publish_time', legend, nullRows) }),
      );
      expect(step(htmlShows, 'kimi').verdict).toBe('fail');
      expect(row(htmlShows, 'kimi', '#1 legend name')).toMatchObject({
        html: '近一周',
        platform: null,
        verdict: 'fail',
      });
      expect(step(htmlShows, 'kimi').rows.some((r) => r.bothEmpty)).toBe(false);
    });

    test('contract §6 "or the reverse for the aggregate, fails" with the smallest group: the aggregate without tmc_aggregate.content_type fails when the platform sends a single row for it', () => {
      const result = checkItem7(
        context({
          edit: (d, p) => {
            delete d.brand.tmc_aggregate.content_type;
            p.tmc = [
              ...p.tmc.filter((r) => !(r.platform === 'all' && r.dimension === 'content_type')),
              ...tmcRows('all', 'content_type', group(['图文', 100])),
            ];
          },
        }),
      );
      expect(row(result, 'all', 'group content_type')).toMatchObject({
        html: null,
        platform: '1 rows',
        verdict: 'fail',
      });
      expect(result.verdict).toBe('fail');
    });

    test('a group the HTML has and the platform lacks fails', () => {
      const result = checkItem9(
        context({
          edit: (_, p) =>
            (p.tmc = p.tmc.filter((r) => !(r.platform === 'kimi' && r.dimension === 'media_category'))),
        }),
      );
      expect(row(result, 'kimi', 'group media_category')).toMatchObject({ platform: null, verdict: 'fail' });
    });

    test('a missing value fails naming the side: platform share empty', () => {
      const result = checkItem7(
        aggregate(
          'content_type',
          group(['图文', 520], ['视频', 300], ['问答', 180]),
          group(['图文', 52], ['视频', 30], ['问答', null]),
        ),
      );
      expect(row(result, 'all', 'share 「问答」')).toMatchObject({
        html: 18,
        platform: null,
        verdict: 'fail',
        note: 'no value on the platform side',
      });
    });

    test('docs/rules.md §D3 "a value missing on either side fails, and the note names the side": a count entry with no value has no share, never 0, so a platform 0 does not match it', () => {
      const result = checkItem7(
        aggregate(
          'content_type',
          group(['图文', 520], ['视频', 480], ['问答', null]),
          group(['图文', 52], ['视频', 48], ['问答', 0]),
        ),
      );
      expect(row(result, 'all', 'share 「问答」')).toMatchObject({
        html: null,
        platform: 0,
        verdict: 'fail',
        note: 'no value on the HTML side',
      });
    });

    test('contract §5 / spec 7.3.1: an entry with no value draws no slice, so it is no legend entry on either side: valueless on both sides, or on one side and absent from the other, passes; near misses: a value on one side only fails naming the other (platform audit of 2026-11-28: "no value on either side" failed items 7 and 8)', () => {
      const both = checkItem8(
        aggregate(
          'publish_time',
          group(['1年内', 600], ['1-3年', 400], ['3年以上', null]),
          group(['1年内', 60], ['1-3年', 40], ['3年以上', null]),
        ),
      );
      expect(both.verdict).toBe('pass');
      expect(both.steps[0]!.notes.join(' ')).toContain(
        '「3年以上」 with no value (no slice, no bar: not compared)',
      );
      const htmlOnly = checkItem8(
        aggregate(
          'publish_time',
          group(['1年内', 600], ['1-3年', 400], ['3年以上', null]),
          group(['1年内', 60], ['1-3年', 40]),
        ),
      );
      expect(htmlOnly.verdict).toBe('pass');
      // Near miss: the platform draws the slice the HTML leaves without a value.
      const drawnThere = checkItem8(
        aggregate(
          'publish_time',
          group(['1年内', 600], ['1-3年', 400], ['3年以上', null]),
          group(['1年内', 57], ['1-3年', 38], ['3年以上', 5]),
        ),
      );
      expect(drawnThere.verdict).toBe('fail');
      expect(row(drawnThere, 'all', 'share 「3年以上」')).toMatchObject({
        html: null,
        platform: 5,
        note: 'no value on the HTML side',
      });
    });

    test('a name on one side only fails, naming the side', () => {
      const result = checkItem7(
        aggregate('content_type', group(['图文', 520], ['视频', 480]), group(['图文', 52], ['音频', 48])),
      );
      expect(row(result, 'all', 'share 「视频」').note).toContain('「视频」 not in the platform group');
      expect(row(result, 'all', 'share 「音频」').note).toContain('「音频」 not in the HTML group');
    });
  });

  test.describe('item 9 · media type, 7.4 (Profile A) against 9.4 (Profile B)', () => {
    const htmlCounts = group(['新闻', 500], ['自媒体', 300], ['其他', 150], ['未知', 50]);
    const platformB = group(['新闻', 50], ['自媒体', 30], ['其他', 15], ['未知', 5]); // value / 1000 incl. 其他 and 未知
    const platformA = group(['新闻', 62.5], ['自媒体', 37.5]); // value / 800 after removing them

    test('9.4.2: Profile B divides by the whole group including 「其他」「未知」 (新闻 500 of 1000 → 50) and passes', () => {
      const result = checkItem9(aggregate('media_category', htmlCounts, platformB, 'B'));
      expect(row(result, 'all', 'share 「新闻」')).toMatchObject({ html: 50, platform: 50, verdict: 'pass' });
      expect(result.verdict).toBe('pass');
    });

    test('contract §5: a media entry with no value draws no bar, on either side: valueless on both sides passes, in both profiles (review of 2026-11-28, as for the legends of items 7 and 8); near miss: a value on one side only fails', () => {
      const html = group(['新闻', 500], ['自媒体', 300], ['其他', 150], ['未知', 50], ['论坛', null]);
      for (const [profile, platform] of [
        ['A', platformA],
        ['B', platformB],
      ] as const) {
        const result = checkItem9(
          aggregate('media_category', html, [...platform, ...group(['论坛', null])], profile),
        );
        expect(result.verdict, profile).toBe('pass');
      }
      const oneSide = checkItem9(
        aggregate('media_category', html, group(['新闻', 60], ['自媒体', 35], ['论坛', 5]), 'A'),
      );
      expect(row(oneSide, 'all', 'share 「论坛」')).toMatchObject({
        html: null,
        platform: 5,
        verdict: 'fail',
        note: 'no value on the HTML side',
      });
    });

    test('7.4: Profile A recomputes on the remaining sum (新闻 500 of 800 → 62.5), so the 9.4 platform values fail in A', () => {
      const result = checkItem9(aggregate('media_category', htmlCounts, platformB, 'A'));
      expect(row(result, 'all', 'share 「新闻」')).toMatchObject({
        html: 62.5,
        platform: 50,
        verdict: 'fail',
      });
      expect(checkItem9(aggregate('media_category', htmlCounts, platformA, 'A')).verdict).toBe('pass');
    });

    test('7.4 / 9.4.2 / 7.3.2 "drop the entries 「其他」 (other) and 「未知」 (unknown)", 「无时间」 removed: a name printed with whitespace around it (「其他 」, 「未知」 after an ideographic space U+3000, 「无时间 」) is that entry, removed on either side, in both profiles (HTML-side audit 59f: kept as a bar and in the denominator, item 9 failed); near miss: 「其他渠道」 is another name and stays', () => {
      const padded = group(['新闻', 500], ['自媒体', 300], ['其他 ', 150], ['\u3000未知', 50]);
      expect(checkItem9(aggregate('media_category', padded, platformA, 'A')).verdict).toBe('pass');
      expect(checkItem9(aggregate('media_category', padded, platformB, 'B')).verdict).toBe('pass');
      const platformPadded = group(['新闻', 62.5], ['其他 ', 20], ['自媒体', 37.5]);
      expect(checkItem9(aggregate('media_category', htmlCounts, platformPadded, 'A')).verdict).toBe('pass');
      const noTime = checkItem8(
        aggregate(
          'publish_time',
          group(['近一周', 40], ['无时间 ', 5], ['近一月', 35], ['更早', 20]),
          group(['近一周', 40], ['近一月', 35], ['更早', 20]),
        ),
      );
      expect(step(noTime, 'all').verdict).toBe('pass');
      const other = group(['新闻', 500], ['自媒体', 300], ['其他渠道', 200]);
      expect(
        row(checkItem9(aggregate('media_category', other, platformA, 'A')), 'all', 'share 「其他渠道」'),
      ).toMatchObject({ html: 20, platform: null, verdict: 'fail' });
    });

    test('the HTML side says what its sum held, in this group: 「其他」「未知」 named only when the group has them, and once (reader audit: "included" for a group without them)', () => {
      const htmlNote = (html: GroupEntry[], profile: Profile) =>
        step(checkItem9(aggregate('media_category', html, platformB, profile)), 'all').notes.find((n) =>
          n.startsWith('HTML: '),
        );
      expect(htmlNote(htmlCounts, 'B')).toBe(
        'HTML: share = value / 1000 × 100 (9.4.2: the sum includes 「其他」, 「未知」, removed after)',
      );
      expect(htmlNote(htmlCounts, 'A')).toBe(
        'HTML: share = value / 800 × 100 (7.4 / 7.5: 「其他」, 「未知」 removed first)',
      );
      const without = group(['新闻', 500], ['自媒体', 300]);
      expect(htmlNote(without, 'B')).toBe(
        'HTML: share = value / 800 × 100 (9.4.2: the whole group, which holds no 「其他」 or 「未知」)',
      );
      expect(htmlNote(without, 'A')).toBe(
        'HTML: share = value / 800 × 100 (7.4 / 7.5: the group holds no 「其他」 or 「未知」)',
      );
    });

    test('9.4.2 is Profile B only and B never inherits 7.4: platform values computed the 7.4 way fail in B', () => {
      const result = checkItem9(aggregate('media_category', htmlCounts, platformA, 'B'));
      expect(row(result, 'all', 'share 「新闻」')).toMatchObject({
        html: 50,
        platform: 62.5,
        verdict: 'fail',
      });
    });

    test('9.4.2 "removing them first creates a false gap of about 0.1": 其他 3 of 1002 gives 59.9 vs 60.1, a 0.2 gap that fails in B', () => {
      // HTML counts; the platform printed the shares computed the 7.4 way (600 / 999 = 60.06 → 60.1).
      const html = group(['新闻', 600], ['自媒体', 399], ['其他', 3]);
      const removedFirst = group(['新闻', 60.1], ['自媒体', 39.9]);
      const share = row(
        checkItem9(aggregate('media_category', html, removedFirst, 'B')),
        'all',
        'share 「新闻」',
      );
      expect(share).toMatchObject({ html: 59.9, platform: 60.1, gap: 0.2, verdict: 'fail' });
    });

    test('9.4.2 / 9.3.2 near miss: 其他 1 of 1000 gives 60.0 vs 60.1, a false gap of 0.1 that passes in B but fails in A', () => {
      const html = group(['新闻', 600], ['自媒体', 399], ['其他', 1]);
      const asPrinted = group(['新闻', 60], ['自媒体', 39.9]); // the 9.4 way
      expect(
        row(
          checkItem9(aggregate('media_category', html, group(['新闻', 60.1], ['自媒体', 39.9]), 'B')),
          'all',
          'share 「新闻」',
        ),
      ).toMatchObject({ gap: 0.1, verdict: 'pass' });
      expect(
        row(checkItem9(aggregate('media_category', html, asPrinted, 'A')), 'all', 'share 「新闻」'),
      ).toMatchObject({ verdict: 'fail' });
    });

    test('7.4: 「其他」 and 「未知」 on the platform side are not compared, even as the largest bar, nor counted in the bar sum', () => {
      const html = group(['新闻', 500], ['自媒体', 300], ['百科', 200]);
      const api = group(['其他', 40], ['新闻', 50], ['未知', 10], ['自媒体', 30], ['百科', 20]);
      const result = checkItem9(aggregate('media_category', html, api, 'A'));
      expect(row(result, 'all', '#1 bar name')).toMatchObject({
        html: '新闻',
        platform: '新闻',
        verdict: 'pass',
      });
      expect(row(result, 'all', 'share 「新闻」')).toMatchObject({ platform: 50, verdict: 'pass' });
      expect(step(result, 'all').notes.join('\n')).toContain('「其他」, 「未知」 removed');
    });

    test('7.4 bar-sum rule: top-10 platform values summing above 101.5 are divided by that sum (500 of 1000 → 50)', () => {
      const result = checkItem9(
        aggregate(
          'media_category',
          group(['新闻', 500], ['自媒体', 300], ['百科', 200]),
          group(['新闻', 500], ['自媒体', 300], ['百科', 200]),
        ),
      );
      expect(row(result, 'all', 'share 「新闻」')).toMatchObject({ platform: 50, verdict: 'pass' });
      expect(step(result, 'all').notes.join('\n')).toContain('> 101.5');
    });

    test('7.4: a media group whose every value is 0 has no sum to divide by: each share stays 0 and agrees with a platform 0 (never NaN)', () => {
      const result = checkItem9(
        aggregate(
          'media_category',
          group(['新闻', 0], ['自媒体', 0]),
          group(['新闻', 0], ['自媒体', 0]),
          'A',
        ),
      );
      expect(row(result, 'all', 'share 「新闻」')).toMatchObject({
        html: 0,
        platform: 0,
        gap: 0,
        verdict: 'pass',
      });
      expect(step(result, 'all').verdict).toBe('pass');
    });

    test('8.2 media bars: top 10 only; bars 11 and 12 that differ are not compared', () => {
      const ten = Array.from({ length: 10 }, (_, i) => [`媒体${i}`, 100 - i] as [string, number]);
      const html = group(...ten, ['只在报告', 1]);
      const api = group(...ten, ['只在平台', 1]);
      const result = checkItem9(aggregate('media_category', html, api, 'A'));
      expect(step(result, 'all').rows.filter((r) => r.key.endsWith('bar name'))).toHaveLength(10);
      expect(step(result, 'all').verdict).toBe('pass');
    });

    test('7.4 "when the sum of those 10 values is at most 101.5 the value is printed directly": bars 11 and 12 stay out of the bar sum (ten of 10 beside two of 1: 100, printed)', () => {
      const html = group(...Array.from({ length: 10 }, (_, i) => [`媒体${i}`, 100] as [string, number]));
      const ten = Array.from({ length: 10 }, (_, i) => [`媒体${i}`, 10] as [string, number]);
      const result = checkItem9(
        aggregate('media_category', html, group(...ten, ['十一', 1], ['十二', 1]), 'A'),
      );
      expect(row(result, 'all', 'share 「媒体0」')).toMatchObject({
        html: 10,
        platform: 10,
        verdict: 'pass',
      });
      expect(step(result, 'all').notes.join('\n')).toContain('sum to 100 ≤ 101.5');
      // Near miss on the other side of 101.5: a top ten of 10.2 each sums to 102 and is divided.
      const divided = group(...Array.from({ length: 10 }, (_, i) => [`媒体${i}`, 10.2] as [string, number]));
      const over = checkItem9(aggregate('media_category', html, divided, 'A'));
      expect(row(over, 'all', 'share 「媒体0」')).toMatchObject({ platform: 10, verdict: 'pass' });
      expect(step(over, 'all').notes.join('\n')).toContain('sum to 102 > 101.5');
    });

    test('7.4 "takes the top 10 by value": the bar sum is of the ten largest bars, not of the first ten rows the API returns (a small bar first: 10 × 10.2 sum 102, divided)', () => {
      const html = group(...Array.from({ length: 10 }, (_, i) => [`媒体${i}`, 100] as [string, number]));
      const big = Array.from({ length: 10 }, (_, i) => [`媒体${i}`, 10.2] as [string, number]);
      const result = checkItem9(aggregate('media_category', html, group(['小', 0.5], ...big), 'A'));
      expect(row(result, 'all', 'share 「媒体9」')).toMatchObject({
        html: 10,
        platform: 10,
        verdict: 'pass',
      });
      expect(step(result, 'all').notes.join('\n')).toContain('sum to 102 > 101.5');
    });

    test('7.4 / 7.3.1 "by value, highest first": HTML counts 101 and 100 of 1,500 (6.73 and 6.67 as the report prints them) that Profile B keeps at one decimal alike (6.7, 6.7) stand in the order of their values, even printed smaller first: at the top-10 cut-off the report shows 101 as its #10, as a platform that sends its ten bars does; near miss: a platform that sends all eleven in the other order passes as before', () => {
      const nine: [string, number][] = [
        ['新闻', 200],
        ['自媒体', 180],
        ['百科', 160],
        ['论坛', 150],
        ['视频', 140],
        ['问答', 130],
        ['博客', 120],
        ['门户', 110],
        ['政务', 109],
      ];
      // The report's array holds the smaller count first; its tiles are ordered by value (7.4).
      const html = group(...nine, ['电商', 100], ['官网', 101]);
      const ten = group(...nine.map(([n, v]): [string, number] => [n, Math.round(v / 1.5) / 10]), [
        '官网',
        6.7,
      ]);
      for (const profile of ['A', 'B'] as const) {
        const result = checkItem9(aggregate('media_category', html, ten, profile));
        expect(result.verdict, profile).toBe('pass');
        expect(row(result, 'all', '#10 bar name'), profile).toMatchObject({ html: '官网', platform: '官网' });
        expect(row(result, 'all', '#10 bar name').passBy, profile).toBeUndefined();
      }
      // The platform's API order puts the smaller first; equal on its side, either order passes (§D10).
      const all = [{ name: '电商', value: 6.7 }, ...ten];
      expect(checkItem9(aggregate('media_category', html, all, 'B')).verdict).toBe('pass');
    });
  });

  test.describe('item 10 · media name, 7.5', () => {
    test('7.5 "value / sum of the group\'s values × 100, after removing 「其他」 and 「未知」, then taking the top 10": the denominator holds entries 11 and 12 (ten of 90 and two of 50: 90 / 1000 → 9), not only the ten bars shown; near miss: the same ten alone give 10', () => {
      const ten = Array.from({ length: 10 }, (_, i) => [`网站${i}`, 90] as [string, number]);
      const nine = Array.from({ length: 10 }, (_, i) => [`网站${i}`, 9] as [string, number]);
      const twelve = checkItem10(
        aggregate('media_name', group(...ten, ['十一', 50], ['十二', 50]), group(...nine), 'A'),
      );
      expect(row(twelve, 'all', 'share 「网站0」')).toMatchObject({ html: 9, platform: 9, verdict: 'pass' });
      const alone = checkItem10(aggregate('media_name', group(...ten), group(...nine), 'A'));
      expect(row(alone, 'all', 'share 「网站0」')).toMatchObject({ html: 10, platform: 9, verdict: 'fail' });
    });

    test('7.5 "the share is value / sum of the group\'s values × 100" whatever the sum: values that sum to 1 are divided too (0.6 of 1 → 60), never printed as they are', () => {
      const result = checkItem10(
        aggregate('media_name', group(['新浪', 0.6], ['网易', 0.4]), group(['新浪', 60], ['网易', 40])),
      );
      expect(row(result, 'all', 'share 「新浪」')).toMatchObject({ html: 60, platform: 60, verdict: 'pass' });
      expect(step(result, 'all').verdict).toBe('pass');
    });

    test("7.5: share = value / sum after removing 「未知」 (600 of 900 → 66.67; 66.7 at Profile B's one decimal), in Profile B too (no 9.4 denominator)", () => {
      for (const profile of ['A', 'B'] as const) {
        const share = row(checkItem10(context({ profile })), 'all', 'share 「人民网」');
        expect(share.html).toBe(profile === 'A' ? 66.67 : 66.7);
        expect(share.verdict).toBe('pass');
      }
    });

    test('7.5 / 9.3.5: the same in both profiles except the tolerance: 66.67 against 66.6 fails in A, passes in B', () => {
      const api = group(['人民网', 66.6], ['新浪', 33.4]);
      const html = group(['人民网', 600], ['新浪', 300], ['未知', 100]);
      expect(
        row(checkItem10(aggregate('media_name', html, api, 'A')), 'all', 'share 「人民网」').verdict,
      ).toBe('fail');
      expect(
        row(checkItem10(aggregate('media_name', html, api, 'B')), 'all', 'share 「人民网」').verdict,
      ).toBe('pass');
    });
  });
});

test('docs/contract.md §5 "the first six are the AI answer platforms": items 4, 5 and 7 to 12, which go platform by platform, say which platforms of DATA.meta.platforms they leave out; with six, no such note (clean-room audit)', () => {
  const seven = context();
  const six = context({ edit: (data) => void data.meta.platforms.splice(6) });
  for (const n of [4, 5, 7, 8, 9, 10, 11, 12] as const) {
    expect(ITEM_RULES[n](seven).notes, `item ${n}`).toContain(
      'DATA.meta.platforms lists 7 platforms: the first 6 are the AI answer platforms compared (docs/contract.md §5); not compared: 百度搜索 (search)',
    );
    expect(
      ITEM_RULES[n](six).notes.filter((note) => note.startsWith('DATA.meta.platforms lists')),
      `item ${n}`,
    ).toEqual([]);
    // The seventh platform changes nothing but the note.
    expect(ITEM_RULES[n](six).verdict, `item ${n}`).toBe(ITEM_RULES[n](seven).verdict);
  }
  // These contexts are built for items 5 and 7 to 12 (item 4 has its own, tests/unit/rules-kpi.spec.ts).
  for (const n of [5, 7, 8, 9, 10, 11, 12] as const)
    expect(ITEM_RULES[n](six).verdict, `item ${n}`).toBe('pass');
});
