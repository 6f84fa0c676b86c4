import { expect, test } from './test-type';
import { ITEM_RULES } from '../../lib/rules';
import { checkItem3 } from '../../lib/rules/kpi';
import { checkItem5 } from '../../lib/rules/ranking';
import { checkItem10, checkItem7, checkItem8 } from '../../lib/rules/shares';
import { checkItem11, checkItem12 } from '../../lib/rules/sources';
import { own } from '../../lib/rules/keyed';
import { passByNotes } from '../../lib/rules/results';
import {
  ITEM_NUMBERS,
  PASS_BY,
  type ComparisonRow,
  type ItemResult,
  type Profile,
  type RuleContext,
} from '../../lib/rules/types';
import type { Data, GroupEntry, SourceEntry } from '../../lib/schema/data';
import { metricsTables, type PlatformEvidence, type SourceRow } from '../../lib/schema/platform';
import {
  AI_KEYS,
  BRANDS,
  OWN_BRAND,
  competitorRow,
  context,
  failingKeys,
  row,
  setGroup,
  step,
  tmcRows,
} from './builders';

/**
 * The five places an independent audit found where a verdict or its report differed from the spec's
 * words, each with the spec sentence it proves and its near-miss (docs/rules.md § Passes by a special
 * clause, 9.5.5, §D13, §D15, §D17, § Values at the precision compared).
 */

const group = (...pairs: [string, number | null][]): GroupEntry[] =>
  pairs.map(([name, value]) => ({ name, value }));

interface Brand {
  name: string;
  html: number;
  platform: number;
}

/**
 * Replaces the ranking on both sides: the own brand (HTML 30.12, platform 30.1) first, then `brands` in
 * the HTML's order; the platform rows in `apiOrder` (equal platform rates keep that order, 7.6). Every
 * brand has the same rate 10 on each of the six platforms, so step 5.3 agrees.
 */
const ranking =
  (brands: Brand[], apiOrder: string[]) =>
  (d: Data, p: PlatformEvidence): void => {
    const perPlatform = AI_KEYS.map(() => 10);
    d.brand.summary.avg_exposure_rate = 30.12;
    d.brand.core_competitors = brands.map((b) => ({ name: b.name, avg_exposure_rate: b.html }));
    for (const key of AI_KEYS)
      d.brand.platforms[key]!.industry_ranking = [OWN_BRAND, ...brands.map((b) => b.name)].map((name) => ({
        name,
        exposure_rate: 10,
      }));
    const byName = new Map(brands.map((b) => [b.name, b]));
    p.competitor = [
      competitorRow(OWN_BRAND, 30.1, perPlatform),
      ...apiOrder.map((name) => competitorRow(name, byName.get(name)!.platform, perPlatform)),
    ];
  };

const allRows = (ctx: RuleContext) =>
  ITEM_NUMBERS.flatMap((n) => ITEM_RULES[n](ctx).steps.flatMap((s) => s.rows));

test.describe('1 · spec 9.5.5 "a swap of ranks is not a failure, and the report notes tie swap"', () => {
  /** 蓝鲸 20.04 and 极光 20.02 on the report, both printed 20.0 by the platform in the other order. */
  const tieSwap = ranking(
    [
      { name: '蓝鲸', html: 20.04, platform: 20 },
      { name: '极光', html: 20.02, platform: 20 },
    ],
    ['极光', '蓝鲸'],
  );

  test('9.5.5: Profile B item 5 passes, and the passing rows, step 5.2 and the item all say tie swap', () => {
    const result = checkItem5(context({ profile: 'B', edit: tieSwap }));
    expect(result.verdict).toBe('pass');
    for (const key of ['#2 name', '#3 name'])
      expect(row(result, '5.2', key)).toMatchObject({ verdict: 'pass', passBy: 'tie swap (spec 9.5.5)' });
    expect(row(result, '5.2', '#2 name').note).toContain(
      '「蓝鲸」 ↔ 「极光」 swapped ranks, tied within 0.05',
    );
    expect(step(result, '5.2').notes).toContain('1 tie swap within 0.05 (spec 9.5.5): 「蓝鲸」 ↔ 「极光」');
    expect(result.notes).toContain('passed by tie swap (spec 9.5.5): 2 rows (step 5.2)');
  });

  test('9.5.5 near miss: a clean pass carries no passBy and no "passed by" note, in either profile', () => {
    for (const profile of ['A', 'B'] as const) {
      const ctx = context({ profile });
      expect(allRows(ctx).filter((r) => r.passBy)).toEqual([]);
      for (const n of ITEM_NUMBERS)
        expect(ITEM_RULES[n](ctx).notes.join('\n'), `item ${n}`).not.toContain('passed by');
    }
  });

  test('docs/rules.md "Passes by a special clause": a step says one sentence a clause of the rows marked passBy, and only of them, naming at most 5 and counting the rest; "1 row" of one; a clean pass gives no sentence', () => {
    const marked = (i: number): ComparisonRow => ({
      key: `share 「${i}」`,
      html: 52.14,
      platform: 52,
      gap: 0.1,
      tolerance: '≤ 0.1 after round(x,1) (9.3)',
      verdict: 'pass',
      passBy: PASS_BY.roundedTenth,
    });
    const clean: ComparisonRow = {
      key: 'share 「图文」',
      html: 52,
      platform: 52,
      gap: 0,
      tolerance: '-',
      verdict: 'pass',
    };
    const named = (i: number) => `share 「${i}」 (HTML 52.14, platform 52)`;
    expect(passByNotes([clean])).toEqual([]);
    expect(passByNotes([marked(0), clean])).toEqual([`1 row passed by ${PASS_BY.roundedTenth}: ${named(0)}`]);
    expect(passByNotes(Array.from({ length: 6 }, (_, i) => marked(i)))).toEqual([
      `6 rows passed by ${PASS_BY.roundedTenth}: ${[0, 1, 2, 3, 4].map(named).join('; ')} and 1 more`,
    ]);
  });

  test('every special clause marks its row and its step: 7.3.5 double division, 9.3.2 0.1 after rounding, 7.3.1 equal shares', () => {
    const twice = checkItem7(
      context({
        edit: (d, p) =>
          setGroup(
            d,
            p,
            'all',
            'content_type',
            group(['图文', 52.1], ['视频', 30.06], ['问答', 18.04]),
            group(['图文', 52], ['视频', 30], ['问答', 18]),
          ),
      }),
    );
    expect(row(twice, 'all', 'share 「图文」')).toMatchObject({
      verdict: 'pass',
      passBy: 'double division (spec 7.3.5)',
    });
    expect(step(twice, 'all').notes.join('\n')).toContain(
      'passed by double division (spec 7.3.5): share 「图文」 (HTML 52.1, platform 52)',
    );
    const tenth = checkItem7(
      context({
        profile: 'B',
        edit: (d, p) =>
          setGroup(
            d,
            p,
            'all',
            'content_type',
            group(['图文', 52.1], ['视频', 30], ['问答', 17.9]),
            group(['图文', 52], ['视频', 30], ['问答', 18]),
          ),
      }),
    );
    expect(row(tenth, 'all', 'share 「图文」').passBy).toBe('0.1 after rounding (spec 9.3.2)');
    expect(row(tenth, 'all', 'share 「视频」').passBy).toBeUndefined();
    const equal = checkItem7(
      context({
        edit: (d, p) =>
          setGroup(
            d,
            p,
            'all',
            'content_type',
            group(['图文', 40], ['视频', 30], ['问答', 30]),
            group(['图文', 40], ['问答', 30], ['视频', 30]),
          ),
      }),
    );
    expect(row(equal, 'all', '#2 legend name').passBy).toBe(PASS_BY.equalShares);
  });

  test('7.1 near miss: a pass within the ordinary tolerance (23.44 against 23.4 in A; equal after rounding in B) is not marked', () => {
    for (const profile of ['A', 'B'] as const) {
      const result = checkItem7(
        context({
          profile,
          edit: (d, p) =>
            setGroup(
              d,
              p,
              'all',
              'content_type',
              group(['图文', 52.04], ['视频', 30], ['问答', 17.96]),
              group(['图文', 52], ['视频', 30], ['问答', 18]),
            ),
        }),
      );
      expect(step(result, 'all').verdict, profile).toBe('pass');
      expect(
        step(result, 'all').rows.filter((r) => r.passBy),
        profile,
      ).toEqual([]);
    }
  });
});

test.describe('2 · spec 9.5.5 "when rates are tied within 0.05, a swap of ranks is not a failure": the pair that swapped decides', () => {
  /** HTML 甲 > 乙 > 丙 > 丁, each neighbour within 0.05, 甲 and 丁 0.07 apart. */
  const chain = (platform: Record<string, number>): Brand[] =>
    [
      { name: '甲', html: 20.07 },
      { name: '乙', html: 20.05 },
      { name: '丙', html: 20.02 },
      { name: '丁', html: 20.0 },
    ].map((b) => ({ ...b, platform: platform[b.name]! }));
  /** The platform prints the chain alike (one decimal, 7.1.1): its order of the four is open. */
  const alike = chain({ 甲: 20, 乙: 20, 丙: 20, 丁: 20 });
  /** The platform orders 乙 ≥ 丁 > 甲 ≥ 丙 with 丁 0.06 above 甲: 甲 and 丁 apart on both sides, in opposite ways. */
  const reversed = chain({ 乙: 20.09, 丁: 20.08, 甲: 20.02, 丙: 20 });

  test('9.5.5: the platform puts 丁 above 甲, 0.07 apart on the report and 0.06 on the platform: step 5.2 fails in Profile B although every position pairs names tied on a side', () => {
    // Positions #2-#5 pair 甲/乙, 乙/丁, 丙/甲, 丁/丙: each tied on one side. 甲 and 丁 swapped and are tied on neither.
    const result = checkItem5(context({ profile: 'B', edit: ranking(reversed, ['乙', '丁', '甲', '丙']) }));
    expect(step(result, '5.1').verdict).toBe('pass');
    expect(step(result, '5.3').verdict).toBe('pass');
    expect(failingKeys(result, '5.2')).toEqual(['#2 name', '#3 name', '#4 name', '#5 name']);
    expect(row(result, '5.2', '#2 name').note).toContain(
      '「甲」 ↔ 「丁」 swapped ranks, not tied within 0.05 on either side (HTML 20.07 / 20, platform 20.02 / 20.08)',
    );
    expect(step(result, '5.2').notes).toContain(
      'swapped ranks not tied within 0.05: 「甲」 ↔ 「丁」 (9.5.5)',
    );
    expect(result.verdict).toBe('fail');
  });

  test('9.5.5 near miss: the same chain printed alike by the platform (all 20.0) in that order passes in Profile B: every swapped pair is tied on the platform side, which does not order them (7.6 "equal rates keep the order each side printed")', () => {
    const result = checkItem5(context({ profile: 'B', edit: ranking(alike, ['乙', '丁', '甲', '丙']) }));
    expect(result.verdict).toBe('pass');
    expect(row(result, '5.2', '#2 name').note).toContain(
      '「甲」 ↔ 「丁」 swapped ranks, tied within 0.05 on the platform side (HTML 20.07 / 20, platform 20 / 20)',
    );
    // Profile A has no tie-swap allowance (7.6): the same order fails there.
    const a = checkItem5(context({ profile: 'A', edit: ranking(alike, ['乙', '丁', '甲', '丙']) }));
    expect(failingKeys(a, '5.2')).toEqual(['#2 name', '#3 name', '#4 name', '#5 name']);
  });

  test('9.5.5 near miss: the same chain with only neighbours tied on both sides swapped (乙 甲 丁 丙) passes with two tie swaps', () => {
    const result = checkItem5(context({ profile: 'B', edit: ranking(alike, ['乙', '甲', '丁', '丙']) }));
    expect(result.verdict).toBe('pass');
    expect(step(result, '5.2').notes).toContain(
      '2 tie swaps within 0.05 (spec 9.5.5): 「甲」 ↔ 「乙」, 「丙」 ↔ 「丁」',
    );
  });

  test('9.5.5: a pair tied on the HTML side only (0.02 apart) is a tie swap even where the platform prints it 0.2 apart; the rates are still compared by name, and one beyond 9.3 fails step 5.1', () => {
    const edit = (platform: Record<string, number>) =>
      ranking(
        [
          { name: '蓝鲸', html: 20.04, platform: platform['蓝鲸']! },
          { name: '极光', html: 20.02, platform: platform['极光']! },
        ],
        ['极光', '蓝鲸'],
      );
    const result = checkItem5(context({ profile: 'B', edit: edit({ 蓝鲸: 19.9, 极光: 20.1 }) }));
    expect(failingKeys(result, '5.2')).toEqual([]);
    expect(row(result, '5.2', '#2 name').note).toContain('tied within 0.05 on the HTML side');
    expect(result.verdict).toBe('pass');
    // Near miss: 极光 printed 20.3 is 0.3 from the report's 20.0: step 5.1 fails, the item with it.
    const beyond = checkItem5(context({ profile: 'B', edit: edit({ 蓝鲸: 19.9, 极光: 20.3 }) }));
    expect(failingKeys(beyond, '5.1')).toEqual(['极光 · all-platform rate']);
    expect(beyond.verdict).toBe('fail');
  });
});

test.describe('3 · spec 7.3.3 / 7.3.4: a group whose sum is far below 99 is read as percentages, and says so (docs/rules.md §D17)', () => {
  const small = (api: GroupEntry[], profile: Profile = 'A') =>
    checkItem7(
      context({
        profile,
        edit: (d, p) =>
          setGroup(d, p, 'all', 'content_type', group(['图文', 14], ['视频', 4], ['问答', 2]), api),
      }),
    );

  test('7.3.4 "only when value is clearly a count … is the share value / sum of positive values × 100": counts 14/4/2 are used directly, and the rows and step say the reading', () => {
    const result = small(group(['图文', 70], ['视频', 20], ['问答', 10]));
    const share = row(result, 'all', 'share 「图文」');
    expect(share).toMatchObject({ html: 14, platform: 70, verdict: 'fail' });
    expect(share.note).toContain(
      "the HTML group's positive sum 20 is below the 99-101.5 window (7.3.3) and not clearly counts (7.3.4): read as percentages",
    );
    expect(share.note).toContain('read as counts it would be 70 (14 / 20 × 100), which matches the platform');
    expect(step(result, 'all').notes.join('\n')).toContain('positive sum 20 is below the 99-101.5 window');
  });

  test('7.3.3 near miss: the same reading against a platform that prints 14/4/2 passes, marked as a pass by the reading', () => {
    const result = small(group(['图文', 14], ['视频', 4], ['问答', 2]));
    expect(step(result, 'all').verdict).toBe('pass');
    expect(row(result, 'all', 'share 「图文」')).toMatchObject({ passBy: PASS_BY.smallGroup });
    expect(row(result, 'all', 'share 「图文」').note).toContain('which does not match the platform either');
  });

  test('7.3.3 near miss: a group in the window (99.5) and a clear count group (1400/400/200) carry no reading note', () => {
    const inWindow = checkItem7(
      context({
        edit: (d, p) => {
          const pct = group(['图文', 52], ['视频', 30], ['问答', 17.5]);
          setGroup(d, p, 'all', 'content_type', pct, pct);
        },
      }),
    );
    const counts = checkItem7(
      context({
        edit: (d, p) =>
          setGroup(
            d,
            p,
            'all',
            'content_type',
            group(['图文', 1400], ['视频', 400], ['问答', 200]),
            group(['图文', 70], ['视频', 20], ['问答', 10]),
          ),
      }),
    );
    for (const result of [inWindow, counts]) {
      expect(result.verdict).toBe('pass');
      expect(
        step(result, 'all')
          .rows.map((r) => r.note ?? '')
          .join('\n'),
      ).not.toContain('§D17');
    }
  });

  test('7.3.2 then 7.3.3: publish time is read on the group as the report holds it, 「无时间」 included', () => {
    // Percentages of the whole group: 75 + 25 (无时间). Without 无时间 the sum would be 75, below the window.
    const percent = checkItem8(
      context({
        edit: (d, p) =>
          setGroup(
            d,
            p,
            'all',
            'publish_time',
            group(['近一周', 45], ['近一月', 30], ['无时间', 25]),
            group(['近一周', 45], ['近一月', 30]),
          ),
      }),
    );
    expect(step(percent, 'all').verdict).toBe('pass');
    expect(step(percent, 'all').notes.join('\n')).toContain(
      'values are percentages (positive sum 100 before removal), used directly (7.3.3)',
    );
    // Counts: a large 「无时间」 count proves the group is counts; 14/4/2 then become 70/20/10.
    const counts = checkItem8(
      context({
        edit: (d, p) =>
          setGroup(
            d,
            p,
            'all',
            'publish_time',
            group(['近一周', 14], ['近一月', 4], ['更早', 2], ['无时间', 300]),
            group(['近一周', 70], ['近一月', 20], ['更早', 10]),
          ),
      }),
    );
    expect(step(counts, 'all').verdict).toBe('pass');
    expect(step(counts, 'all').notes.join('\n')).toContain('share = value / 20 × 100 (7.3.4)');
  });
});

test.describe('4 · spec 7.8.5 "states that it is a tie swap, not a missing title", at the cut-off too (docs/rules.md §D13)', () => {
  /** 29 sources with distinct counts, then X and Y both cited once. */
  const top29: SourceEntry[] = Array.from({ length: 29 }, (_, i) => ({
    title: `来源${i + 1}`,
    channel: '新闻',
    cite_count: 100 - i,
  }));
  const once = (title: string, count = 1): SourceEntry => ({ title, channel: '新闻', cite_count: count });
  const api = (entries: SourceEntry[]): SourceRow[] => entries.map((e, i) => ({ ...e, rank: i + 1 }));
  const cutOff = (htmlTail: SourceEntry[], apiTail: SourceEntry[]) =>
    context({
      edit: (d, p) => {
        d.brand.source_top30 = [...top29, ...htmlTail];
        p.sources['all'] = api([...top29, ...apiTail]);
      },
    });

  test("7.8.5: at ordinal 30 the HTML shows X and the platform Y, both cited once, Y being the HTML's 31st: item 12 fails and says tie swap", () => {
    const ctx = cutOff([once('X'), once('Y')], [once('Y'), once('X')]);
    const result = checkItem12(ctx);
    expect(failingKeys(result, 'all')).toEqual(['#30']);
    const at30 = row(result, 'all', '#30');
    expect(at30).toMatchObject({ html: 'X', platform: 'Y', verdict: 'fail' });
    expect(at30.note).toBe(
      "tie swap, not a missing title: #30 HTML 「X」, platform 「Y」, cited count 1 on both sides (7.8.5); 「X」 is the platform's #31, cited count 1, beyond the 30 compared; 「Y」 is the HTML's #31, cited count 1, beyond the 30 compared",
    );
    expect(at30.note).not.toContain('missing on');
    // Item 11 compares the sets of the first 30 (7.8.1): they differ, and the note locates the title.
    expect(row(checkItem11(ctx), 'all', 'title 「X」').note).toBe(
      "not in the platform top 30: 「X」 is the platform's #31, cited count 1, beyond the 30 compared",
    );
  });

  test('7.8.5: an HTML source_top30 of exactly 30 rows: the tie at #30 is still a tie swap', () => {
    const result = checkItem12(cutOff([once('X')], [once('Y'), once('X')]));
    expect(row(result, 'all', '#30').note).toMatch(
      /^tie swap, not a missing title: #30 HTML 「X」, platform 「Y」, cited count 1/,
    );
  });

  test('7.8.5 near miss: at ordinal 30 a different title with a different count is a missing title, not a tie swap', () => {
    const result = checkItem12(cutOff([once('X')], [once('Y', 2), once('X')]));
    const at30 = row(result, 'all', '#30');
    expect(at30.note).not.toContain('tie swap');
    expect(at30.note).toBe(
      '「X」 is missing on the platform side; 「Y」 is missing on the HTML side (7.8.1); cited count HTML 1, platform 2',
    );
  });
});

test.describe('5 · spec 9.3.4 "when the platform prints an integer": one reading for numbers and strings (docs/rules.md §D15)', () => {
  /** The snapshot `all` row as the platform's JSON text carries it, parsed by the real schema. */
  const judged = (brandExposureJson: string, html: number) => {
    const text = `{"rows":[{"platform":"all","exposure_rate":23.4,"top3_rate":12.5,"top5_rate":18,"first_position_rate":5.1,"top1_rate":4.4,"positive_rate":90,"brand_exposure_rate":${brandExposureJson},"product_link_rate":null}]}`;
    const snapshot = metricsTables.snapshot.parse(JSON.parse(text)).rows;
    const ctx = context({
      profile: 'B',
      edit: (d, p) => {
        d.overall = { brand_level_exposure_rate: html };
        p.snapshot = snapshot;
      },
    });
    return step(checkItem3(ctx), '品牌露出率 brand_exposure_rate').verdict;
  };

  test('9.3.4 "equality after rounding both sides to an integer also passes": 36.0 and "36.0", 36 and "36" give the same verdict', () => {
    for (const json of ['36.0', '"36.0"', '36', '"36"', '"36%"', '"36.00%"'])
      expect(judged(json, 35.6), `platform ${json}, HTML 35.6`).toBe('pass');
  });

  test('9.3.4 near miss: HTML 35.4 rounds to 35 and fails whatever the encoding; a platform 36.5 is no integer print', () => {
    for (const json of ['36.0', '"36.0"', '36', '"36"']) expect(judged(json, 35.4), json).toBe('fail');
    for (const json of ['36.5', '"36.5"']) expect(judged(json, 35.6), json).toBe('fail');
  });
});

test.describe('values at the precision compared: a computed share at two decimals in A, one in B, no binary noise (docs/rules.md § Values at the precision compared)', () => {
  test('7.3.4: counts 1000/2000/3000 give shares 16.67, 33.33 and 50 with gaps 0.03 in Profile A, 16.7 and 33.3 with gaps 0 in Profile B; never 16.666666666666668', () => {
    const judged = (profile: Profile) =>
      checkItem7(
        context({
          profile,
          edit: (d, p) =>
            setGroup(
              d,
              p,
              'all',
              'content_type',
              group(['图文', 1000], ['视频', 2000], ['问答', 3000]),
              group(['图文', 16.7], ['视频', 33.3], ['问答', 50]),
            ),
        }),
      );
    expect(row(judged('A'), 'all', 'share 「图文」')).toMatchObject({
      html: 16.67,
      gap: 0.03,
      verdict: 'pass',
    });
    expect(row(judged('A'), 'all', 'share 「视频」')).toMatchObject({
      html: 33.33,
      gap: 0.03,
      verdict: 'pass',
    });
    expect(row(judged('B'), 'all', 'share 「图文」')).toMatchObject({ html: 16.7, gap: 0, verdict: 'pass' });
  });

  test('7.5: a media share 1675.4983598 of 10000 is kept as 16.75 in Profile A (the two decimals the HTML prints)', () => {
    const result = checkItem10(
      context({
        edit: (d, p) =>
          setGroup(
            d,
            p,
            'all',
            'media_name',
            group(['人民网', 1675.4983598284127], ['新浪', 8324.501640171587]),
            group(['人民网', 16.8], ['新浪', 83.2]),
          ),
      }),
    );
    expect(row(result, 'all', 'share 「人民网」')).toMatchObject({ html: 16.75, gap: 0.05, verdict: 'pass' });
  });
});

test.describe('6 · docs/rules.md §D1 "a check never passes by default": an item where both sides show nothing everywhere compared nothing', () => {
  const NO_WORDS = (): Data['brand']['wordcloud'] => ({ words: [], positive: [], negative: [] });
  /** Every option's HTML group `[]` and no platform row of the dimension. */
  const emptyEverywhere =
    (dimension: 'content_type' | 'media_category') =>
    (d: Data, p: PlatformEvidence): void => {
      d.brand.tmc_aggregate[dimension] = [];
      for (const k of AI_KEYS) d.brand.platforms[k]!.citation[dimension] = [];
      p.tmc = p.tmc.filter((r) => r.dimension !== dimension);
    };
  const nothingCompared = (result: ItemResult) => ({
    verdict: result.verdict,
    last: result.steps.at(-1)?.rows.map((r) => `${r.key} ${r.verdict}`),
  });

  test('§D1: items 7 and 9 with `[]` on every option and no platform row fail "nothing compared", as the same groups left out do (§D2)', () => {
    const failing = { verdict: 'fail', last: ['(nothing compared) fail'] };
    expect(nothingCompared(ITEM_RULES[9](context({ edit: emptyEverywhere('media_category') })))).toEqual(
      failing,
    );
    expect(nothingCompared(ITEM_RULES[7](context({ edit: emptyEverywhere('content_type') })))).toEqual(
      failing,
    );
    const absent = context({
      edit: (d, p) => {
        d.brand.tmc_aggregate.content_type = undefined;
        for (const k of AI_KEYS) d.brand.platforms[k]!.citation.content_type = undefined;
        p.tmc = p.tmc.filter((r) => r.dimension !== 'content_type');
      },
    });
    expect(ITEM_RULES[7](absent).verdict).toBe('fail');
  });

  test('§D1: items 11 and 12 with no source on any option on either side fail, and item 6 with an empty word cloud on both sides', () => {
    const noSources = context({
      edit: (d, p) => {
        d.brand.source_top30 = [];
        for (const k of AI_KEYS) d.brand.platforms[k]!.citation.source_top30 = undefined;
        p.sources = { all: [] };
      },
    });
    expect(nothingCompared(ITEM_RULES[11](noSources)).verdict).toBe('fail');
    expect(nothingCompared(ITEM_RULES[12](noSources)).last).toEqual(['(nothing compared) fail']);
    const noWords = context({
      edit: (d, p) => {
        d.brand.wordcloud = NO_WORDS();
        p.wordcloud = NO_WORDS();
      },
    });
    expect(nothingCompared(ITEM_RULES[6](noWords))).toEqual({
      verdict: 'fail',
      last: ['(nothing compared) fail'],
    });
  });

  test('§D1 near miss: one option empty on both sides beside options that compare values passes, and so do no negative words on either side (7.7.2, 7.7.4) beside words compared', () => {
    const oneEmpty = context({
      edit: (d, p) => setGroup(d, p, AI_KEYS[0]!, 'media_category', [], []),
    });
    const result = ITEM_RULES[9](oneEmpty);
    expect(result.verdict).toBe('pass');
    expect(step(result, AI_KEYS[0]!).rows.map((r) => r.note)).toEqual(['both empty']);
    const noNegatives = context({
      edit: (d, p) => {
        d.brand.wordcloud.negative = [];
        p.wordcloud.negative = [];
      },
    });
    expect(ITEM_RULES[6](noNegatives).verdict).toBe('pass');
    const oneSourceEmpty = context({
      edit: (d, p) => {
        d.brand.platforms[AI_KEYS[0]!]!.citation.source_top30 = [];
        p.sources = { ...p.sources, [AI_KEYS[0]!]: [] };
      },
    });
    expect([ITEM_RULES[11](oneSourceEmpty).verdict, ITEM_RULES[12](oneSourceEmpty).verdict]).toEqual([
      'pass',
      'pass',
    ]);
  });

  test('contract §6 "a group that the HTML has and the platform lacks, or the reverse for the aggregate, fails": a side has the group when its chart shows it, on both sides alike', () => {
    const missing = (result: ItemResult, key: string) =>
      step(result, key).rows.map((r) => [r.key, r.verdict]);
    // The HTML shows 「新闻」 and the platform sends no row: the platform lacks the group.
    const lacks = ITEM_RULES[8](
      context({ edit: (d, p) => setGroup(d, p, AI_KEYS[0]!, 'publish_time', group(['近7天', 5]), []) }),
    );
    expect(missing(lacks, AI_KEYS[0]!)).toEqual([['group publish_time', 'fail']]);
    // Only 「无时间」 on the HTML side and no row: neither chart shows anything, as in the mirror case
    // below; both empty at that option, the item passes on the others.
    const onlyNoTime = ITEM_RULES[8](
      context({ edit: (d, p) => setGroup(d, p, AI_KEYS[0]!, 'publish_time', group(['无时间', 5]), []) }),
    );
    expect(step(onlyNoTime, AI_KEYS[0]!).rows.map((r) => r.note)).toEqual(['both empty']);
    expect(onlyNoTime.verdict).toBe('pass');
    // The mirror, for the aggregate: no HTML group, platform rows of only 「无时间」: not compared.
    const mirror = ITEM_RULES[8](
      context({
        edit: (d, p) => {
          d.brand.tmc_aggregate.publish_time = undefined;
          p.tmc = [
            ...p.tmc.filter((r) => !(r.platform === 'all' && r.dimension === 'publish_time')),
            ...tmcRows('all', 'publish_time', group(['无时间', 100])),
          ];
        },
      }),
    );
    expect(mirror.steps.map((s) => s.id)).not.toContain('all');
    expect(mirror.verdict).toBe('pass');
  });
});

test.describe('7 · spec 7.6 "matched by name" where a name is on two platform rows of different kinds (Profile A reads every kind, docs/rules.md §D9)', () => {
  /** A platform product row with a competitor brand's name. */
  const productNamedAs =
    (name: string) =>
    (_d: Data, p: PlatformEvidence): void => {
      p.competitor.push(
        competitorRow(
          name,
          99.95,
          AI_KEYS.map(() => 10),
          'product',
          99,
        ),
      );
    };

  test('7.6: a product row named as a competitor brand: step 5.1 says which row it compared and that the name is on two rows; step 5.2 fails', () => {
    const brand = BRANDS[1]!;
    const result = checkItem5(
      context({
        edit: productNamedAs(brand.name),
      }),
    );
    const compared = row(result, '5.1', `${brand.name} · all-platform rate`);
    expect(compared.note).toMatch(
      new RegExp(
        `^「${brand.name}」 is on 2 platform rows \\(#1 kind product, #\\d+ kind brand\\): compared with the first`,
      ),
    );
    // The row compares the row its note names: the first by rate, the product row's 99.95.
    expect(compared).toMatchObject({ html: brand.html, platform: 99.95, verdict: 'fail' });
    expect(step(result, '5.2').verdict).toBe('fail');
    expect(result.verdict).toBe('fail');
  });

  test('7.6 near miss: Profile B at brand level drops the product row, so the name is on one row and no note is made', () => {
    const brand = BRANDS[1]!;
    const result = checkItem5(
      context({
        profile: 'B',
        edit: productNamedAs(brand.name),
      }),
    );
    expect(row(result, '5.1', `${brand.name} · all-platform rate`).note ?? '').not.toContain('platform rows');
  });
});

test('docs/rules.md §D5 "looked up by own property only, so a key such as constructor can never reach Object": own() answers undefined for an inherited key and for no record, and the value for an own key', () => {
  const record: Record<string, number> = { doubao: 1 };
  expect(own(record, 'constructor')).toBeUndefined();
  expect(own(record, 'toString')).toBeUndefined();
  expect(own(undefined, 'doubao')).toBeUndefined();
  expect(own(record, 'doubao')).toBe(1);
});
