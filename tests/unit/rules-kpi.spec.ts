import { expect, test } from './test-type';
import { checkItem3, checkItem4, snapshotPosition } from '../../lib/rules/kpi';
import type { Data, PlatformData } from '../../lib/schema/data';
import type { SnapshotRow } from '../../lib/schema/platform';
import type { Profile, RuleContext } from '../../lib/rules/types';
import { failingSteps, row } from './builders';

const KEYS = ['doubao', 'deepseek', 'kimi', 'yuanbao', 'qianwen', 'wenxin'];

function snap(platform: string, over: Partial<SnapshotRow> = {}): SnapshotRow {
  return {
    platform,
    exposure_rate: 23.4,
    top3_rate: 12.5,
    top5_rate: 18,
    first_position_rate: 5.1,
    top1_rate: 4.4,
    position_rate: 99,
    positive_rate: 88.8,
    brand_exposure_rate: 31,
    product_link_rate: null,
    crawlBatchId: 'b1',
    ...over,
  };
}

function platformData(over: Partial<PlatformData['self']> = {}): PlatformData {
  const self = {
    exposure_rate: 23.44,
    top3_rate: 12.46,
    top5_rate: 18.02,
    first_position_rate: 5.12,
    positive_mention_rate: 88.81,
    brand_exposure_rate: 30.6,
    product_link_rate: null,
    ...over,
  };
  return {
    self,
    trend: [
      {
        date: '2026-11-19',
        exposure_rate: 1,
        top3_rate: 1,
        top5_rate: 1,
        first_position_rate: 1,
        positive_mention_rate: 1,
        brand_exposure_rate: 1,
      },
      { ...self, date: '2026-11-20' },
      {
        date: '2026-11-18',
        exposure_rate: 2,
        top3_rate: 2,
        top5_rate: 2,
        first_position_rate: 2,
        positive_mention_rate: 2,
        brand_exposure_rate: 2,
      },
    ],
    industry_ranking: [],
    citation: { media_category: [] },
  };
}

function context(
  profile: Profile,
  opts: { reportType?: 'monitor' | 'diagnosis'; metric?: 'first' | 'top3' | 'top5' } = {},
): RuleContext {
  const data: Data = {
    meta: {
      platforms: KEYS.map((key) => ({ key, name: key.toUpperCase() })),
      ...(opts.metric ? { position_metric: opts.metric } : {}),
    },
    overall: { brand_level_exposure_rate: 30.6 },
    brand: {
      name: '清泉乳业',
      summary: {
        avg_exposure_rate: 23.44,
        avg_positive_mention_rate: 88.81,
        avg_first_position_rate: 5.12,
        avg_top3_rate: 12.46,
        avg_top5_rate: 18.02,
        product_link: null,
      },
      tmc_aggregate: { media_category: [] },
      source_top30: [],
      core_competitors: [],
      wordcloud: { words: [], positive: [], negative: [] },
      platforms: Object.fromEntries(KEYS.map((k) => [k, platformData()])),
    },
  };
  return {
    profile,
    level: 'brand',
    reportType: opts.reportType ?? 'monitor',
    data,
    platform: {
      snapshot: ['all', ...KEYS].map((p) => snap(p)),
      competitor: [],
      tmc: [],
      sources: {},
      wordcloud: { words: [], positive: [], negative: [] },
    },
  };
}

const keysOf = (r: ReturnType<typeof checkItem3>) => r.steps.flatMap((s) => s.rows.map((x) => x.key));

test.describe('item 3 · KPI cards, aggregate', () => {
  test('7.2 + docs/rules.md §D4, Profile A: exposure, top-3 and positive rates; HTML 23.44 vs platform 23.4 passes (7.1)', () => {
    const r = checkItem3(context('A'));
    expect(r.verdict).toBe('pass');
    expect(keysOf(r)).toEqual(['露出率 exposure_rate', '前三率 top3_rate', '中正面提及率 positive_rate']);
  });

  test('7.1.2, Profile A: a 0.06 gap on one card fails that card only, with both values and the gap', () => {
    const ctx = context('A');
    ctx.data.brand.summary.avg_top3_rate = 12.56;
    const r = checkItem3(ctx);
    expect(r.verdict).toBe('fail');
    const failing = r.steps.filter((s) => s.verdict === 'fail');
    expect(failing).toHaveLength(1);
    expect(failing[0]?.rows[0]).toMatchObject({ html: 12.56, platform: 12.5, gap: 0.06, verdict: 'fail' });
  });

  test('9.2, Profile B: the five cards, brand exposure present; product link only when the aggregate card has a value', () => {
    const ctx = context('B');
    let r = checkItem3(ctx);
    expect(keysOf(r)).toEqual([
      '品牌露出率 brand_exposure_rate',
      '露出率 exposure_rate',
      '前三率 top3_rate',
      '中正面提及率 positive_rate',
    ]);
    expect(r.notes.join()).toContain('商品链接露出率');
    ctx.data.brand.summary.product_link = 7.25;
    ctx.platform.snapshot[0] = snap('all', { product_link_rate: 7.3 });
    r = checkItem3(ctx);
    expect(keysOf(r)).toContain('商品链接露出率 product_link_rate');
    expect(r.verdict).toBe('pass');
  });

  test('9.3.4: brand exposure 30.6 against a platform integer 31 passes by integer rounding', () => {
    const r = checkItem3(context('B'));
    const row = r.steps[0]?.rows[0];
    expect(row).toMatchObject({ key: '品牌露出率 brand_exposure_rate', verdict: 'pass' });
    expect(row?.note).toContain('9.3.4');
  });

  test('9.2.1: brand_level_exposure_rate is compared with brand_exposure_rate, never with exposure_rate', () => {
    const ctx = context('B');
    ctx.platform.snapshot[0] = snap('all', { brand_exposure_rate: null });
    const r = checkItem3(ctx);
    expect(r.steps[0]?.rows[0]).toMatchObject({
      html: 30.6,
      platform: null,
      verdict: 'fail',
      note: 'no value on the platform side',
    });
  });

  test('9.2.1 "brand_level_exposure_rate must never be compared with the designated-words exposure rate": a report without overall has no 品牌露出率 and fails naming the HTML side, even when avg_exposure_rate equals the snapshot brand_exposure_rate', () => {
    const ctx = context('B');
    delete ctx.data.overall;
    ctx.platform.snapshot[0] = snap('all', { brand_exposure_rate: 23.44 });
    expect(
      row(checkItem3(ctx), '品牌露出率 brand_exposure_rate', '品牌露出率 brand_exposure_rate'),
    ).toMatchObject({
      html: null,
      platform: 23.44,
      verdict: 'fail',
      note: 'no value on the HTML side',
    });
  });

  test('9.2: position_metric=first compares first_position_rate; top1_rate stands in when it is empty', () => {
    const ctx = context('B', { metric: 'first' });
    expect(keysOf(checkItem3(ctx))).toContain('首位率 first_position_rate');
    ctx.platform.snapshot[0] = snap('all', { first_position_rate: null, top1_rate: 5.1 });
    const row = checkItem3(ctx)
      .steps.flatMap((s) => s.rows)
      .find((x) => x.key.startsWith('首位率'));
    expect(row).toMatchObject({ platform: 5.1, verdict: 'pass' });
    expect(row?.note).toContain('top1_rate stands in');
  });

  test('9.2.2: position_rate is never used, even when it would match', () => {
    expect(
      snapshotPosition(
        snap('all', { first_position_rate: null, top1_rate: null, position_rate: 5.12 }),
        'first',
      ).value,
    ).toBeNull();
    const ctx = context('B', { metric: 'first' });
    ctx.platform.snapshot[0] = snap('all', {
      first_position_rate: null,
      top1_rate: null,
      position_rate: 5.12,
    });
    expect(checkItem3(ctx).verdict).toBe('fail');
  });

  test('9.2: top5 metric compares avg_top5_rate with top5_rate', () => {
    const ctx = context('B', { metric: 'top5' });
    const row = checkItem3(ctx)
      .steps.flatMap((s) => s.rows)
      .find((x) => x.key.startsWith('前五率'));
    expect(row).toMatchObject({ html: 18.02, platform: 18, verdict: 'pass' });
  });

  test('9.3 is Profile B only: a 0.1 gap passes in B and fails in A', () => {
    const a = context('A');
    const b = context('B');
    a.data.brand.summary.avg_exposure_rate = 23.5;
    b.data.brand.summary.avg_exposure_rate = 23.5;
    expect(checkItem3(a).verdict).toBe('fail');
    expect(checkItem3(b).verdict).toBe('pass');
  });

  test('a missing snapshot "all" row fails; a missing HTML value fails, never passes by default', () => {
    const ctx = context('A');
    ctx.platform.snapshot = ctx.platform.snapshot.filter((r) => r.platform !== 'all');
    expect(checkItem3(ctx).verdict).toBe('fail');
    const ctx2 = context('A');
    ctx2.data.brand.summary.avg_top3_rate = null;
    expect(checkItem3(ctx2).verdict).toBe('fail');
  });

  test('7.2 / 8.1.2: a snapshot figure left empty fails naming the platform side, never passes by default (Profile A top3_rate)', () => {
    const ctx = context('A');
    ctx.platform.snapshot[0] = snap('all', { top3_rate: null });
    expect(row(checkItem3(ctx), '前三率 top3_rate', '前三率 top3_rate')).toMatchObject({
      html: 12.46,
      platform: null,
      verdict: 'fail',
      note: 'no value on the platform side',
    });
  });

  test('9.2 "compared when the aggregate card has a value": an HTML 商品链接露出率 against an empty snapshot product_link_rate fails naming the platform side; near miss: no HTML value, not compared', () => {
    const ctx = context('B');
    ctx.data.brand.summary.product_link = 7.25;
    const r = checkItem3(ctx);
    expect(row(r, '商品链接露出率 product_link_rate', '商品链接露出率 product_link_rate')).toMatchObject({
      html: 7.25,
      platform: null,
      verdict: 'fail',
      note: 'no value on the platform side',
    });
    expect(r.notes.join()).not.toContain('has no value');
    const none = checkItem3(context('B'));
    expect(keysOf(none)).not.toContain('商品链接露出率 product_link_rate');
    expect(none.verdict).toBe('pass');
  });
});

/** A trend point with no value at all, as a chart padded to the end of its axis draws it. */
const emptyPoint = (date: string) => ({
  date,
  exposure_rate: null,
  top3_rate: null,
  top5_rate: null,
  first_position_rate: null,
  positive_mention_rate: null,
  brand_exposure_rate: null,
});

test.describe('item 4 · KPI points per platform', () => {
  test('7.2: the last monitoring-day point by date (not the last printed) against each platform snapshot', () => {
    const r = checkItem4(context('A'));
    expect(r.verdict).toBe('pass');
    expect(r.steps).toHaveLength(6);
    expect(r.steps[0]?.notes).toContain('HTML side: trend point 2026-11-20');
  });

  test('7.2 "the last monitoring-day point": a point dated after the report\'s batch date is no monitoring day of it: a chart padded to the end of its axis with empty points passes in both profiles (platform audit of 2026-11-28: item 4 failed every platform in A, "no value on the HTML side"); near misses: the point on the batch date is compared, and one that differs fails', () => {
    const padded = (profile: Profile) => {
      const ctx = { ...context(profile), batchDate: '2026-11-20' };
      for (const k of KEYS) ctx.data.brand.platforms[k]!.trend.push(emptyPoint('2026-11-21'));
      return ctx;
    };
    for (const profile of ['A', 'B'] as const) {
      const r = checkItem4(padded(profile));
      expect(r.verdict, profile).toBe('pass');
      expect(r.steps[0]?.notes.join(' '), profile).toContain('trend point 2026-11-20');
    }
    const differs = padded('A');
    differs.data.brand.platforms.kimi!.trend[1]!.exposure_rate = 30;
    expect(failingSteps(checkItem4(differs))).toEqual(['kimi']);
    // Without a batch date (a context built without one), the latest point, as before.
    const { batchDate: _dropped, ...undated } = padded('A');
    expect(checkItem4(undated).steps[0]?.notes.join(' ')).toContain('trend point 2026-11-21');
    // Near misses (review of the fix): a later point with values is the last one, and compared: it
    // fails where it differs; with no point on the batch date, the latest before it is compared and
    // the step says the batch date had none.
    const later = padded('A');
    Object.assign(later.data.brand.platforms.kimi!.trend[3]!, {
      exposure_rate: 40,
      top3_rate: 30,
      positive_mention_rate: 70,
    });
    const laterResult = checkItem4(later);
    expect(failingSteps(laterResult)).toEqual(['kimi']);
    expect(laterResult.steps.find((st) => st.id === 'kimi')?.notes.join(' ')).toContain(
      "trend point 2026-11-21 (after the batch date 2026-11-20, whose snapshot it is compared with: the trend's last monitoring day)",
    );
    const missing = padded('A');
    for (const k of KEYS) missing.data.brand.platforms[k]!.trend.splice(1, 1); // the 11-20 point
    expect(checkItem4(missing).steps[0]?.notes.join(' ')).toContain(
      'trend point 2026-11-19 (none on the batch date 2026-11-20; the empty points after it are no monitoring days)',
    );
    // 9.2.3: a Profile B diagnosis of one monitoring day and axis padding has no multi-period trend.
    const oneDay = { ...padded('B'), reportType: 'diagnosis' as const };
    for (const k of KEYS)
      oneDay.data.brand.platforms[k]!.trend.splice(0, 3, oneDay.data.brand.platforms[k]!.trend[1]!);
    expect(checkItem4(oneDay).steps[0]?.notes.join(' ')).toContain(
      'self (diagnosis without a multi-period trend, 9.2.3)',
    );
  });

  test('7.2 "the last monitoring-day point" with 2.1: an empty point printed for a later day than the batch date is axis padding even where that day also has a point with values: the point with values is compared alone, no second point of the day (mutation sweep 60: the points of the day were read from the unfiltered trend and no test told)', () => {
    for (const profile of ['A', 'B'] as const) {
      const ctx = { ...context(profile), batchDate: '2026-11-20' };
      const kimi = ctx.data.brand.platforms.kimi!;
      kimi.trend.push(emptyPoint('2026-11-21'), { ...kimi.trend[1]!, date: '2026-11-21' });
      const r = checkItem4(ctx);
      expect(r.verdict, profile).toBe('pass');
      const notes = r.steps.find((st) => st.id === 'kimi')?.notes.join(' ');
      expect(notes, profile).toContain('trend point 2026-11-21 (after the batch date 2026-11-20');
      expect(notes, profile).not.toContain('with different figures');
    }
  });

  test('7.2: one platform differing on its last point fails that platform step only', () => {
    const ctx = context('A');
    ctx.data.brand.platforms.kimi!.trend[1]!.positive_mention_rate = 80;
    const r = checkItem4(ctx);
    expect(failingSteps(r)).toEqual(['kimi']);
  });

  test('7.2: the aggregate covers all six platforms: a missing platform on either side fails', () => {
    const ctx = context('A');
    delete ctx.data.brand.platforms.wenxin;
    ctx.platform.snapshot = ctx.platform.snapshot.filter((r) => r.platform !== 'qianwen');
    const r = checkItem4(ctx);
    expect(failingSteps(r)).toEqual(['qianwen', 'wenxin']);
  });

  test('7.2 "for all six platforms": a report listing five platforms fails item 4 with a count row, in both profiles, though the five agree; near miss: six pass', () => {
    for (const profile of ['A', 'B'] as const) {
      const ctx = context(profile);
      ctx.data.meta.platforms = ctx.data.meta.platforms.slice(0, 5);
      const r = checkItem4(ctx);
      expect(failingSteps(r), profile).toEqual(['platforms']);
      expect(row(r, 'platforms', 'DATA.meta.platforms')).toMatchObject({ html: 5, platform: 6 });
      expect(checkItem4(context(profile)).verdict, profile).toBe('pass');
    }
  });

  test('9.2.3: Profile B diagnosis without a multi-period trend compares self', () => {
    const ctx = context('B', { reportType: 'diagnosis' });
    for (const p of Object.values(ctx.data.brand.platforms)) p.trend = [];
    const r = checkItem4(ctx);
    expect(r.verdict).toBe('pass');
    expect(r.steps[0]?.notes.join()).toContain('9.2.3');
  });

  test('9.2.3 near miss: a Profile B diagnosis whose trend has two monitoring days has a multi-period trend: its last point is compared, not self', () => {
    const ctx = context('B', { reportType: 'diagnosis' });
    for (const p of Object.values(ctx.data.brand.platforms))
      p.trend = p.trend.filter((point) => point.date !== '2026-11-18');
    ctx.data.brand.platforms.kimi!.trend[1]!.exposure_rate = 25; // 2026-11-20; self keeps 23.44
    const r = checkItem4(ctx);
    const kimi = r.steps.find((s) => s.id === 'kimi')!;
    expect(kimi.notes).toContain('HTML side: trend point 2026-11-20');
    expect(kimi.rows.find((x) => x.verdict === 'fail')).toMatchObject({
      key: 'kimi · 露出率 exposure_rate',
      html: 25,
      platform: 23.4,
    });
    expect(failingSteps(r)).toEqual(['kimi']);
  });

  test('7.2 "the last monitoring-day point" when that day has two points (docs/rules.md §D4 "equal dates: the last printed"): the later printed one is compared, and the other where it differs (2.1)', () => {
    const kimiStep = (firstOfDay: number, lastOfDay: number) => {
      const ctx = context('A');
      const kimi = ctx.data.brand.platforms.kimi!;
      kimi.trend.push({ ...kimi.trend[1]!, exposure_rate: lastOfDay }); // a second 2026-11-20 point
      kimi.trend[1]!.exposure_rate = firstOfDay;
      return checkItem4(ctx).steps.find((s) => s.id === 'kimi')!;
    };
    // Until audit 59f the earlier point of the day was never looked at, and this passed.
    expect(kimiStep(25, 23.44).rows.find((x) => x.verdict === 'fail')).toMatchObject({
      key: 'kimi · 露出率 exposure_rate (another point of the day)',
      html: 25,
    });
    // Near miss: the last printed point of that day differs from the snapshot, and it fails.
    expect(kimiStep(23.44, 25).rows.find((x) => x.verdict === 'fail')).toMatchObject({
      key: 'kimi · 露出率 exposure_rate',
      html: 25,
    });
  });

  test('7.2: an empty trend in Profile A fails (self is a Profile B diagnosis allowance)', () => {
    const ctx = context('A', { reportType: 'diagnosis' });
    for (const p of Object.values(ctx.data.brand.platforms)) p.trend = [];
    expect(checkItem4(ctx).verdict).toBe('fail');
  });

  test('9.2 "HTML per platform: self.…" and 1.4 "Profile B must never inherit Profile A assumptions": a Profile B monitor trend with no point compares self, as a trend of only empty points did; 7.2 is Profile A’s (rules audit of 2026-11-28)', () => {
    // Before: "the HTML trend series has no point (spec 7.2)" failed every platform, while the
    // same report with one empty point after its batch date compared self and passed.
    const empty = context('B');
    for (const p of Object.values(empty.data.brand.platforms)) p.trend = [];
    const padded = context('B');
    for (const p of Object.values(padded.data.brand.platforms)) p.trend = [emptyPoint('2026-11-30')];
    const r = checkItem4(empty);
    expect(r.verdict).toBe('pass');
    expect(r.steps[0]?.notes[0]).toBe(
      'HTML side: self (the trend series has no point; spec 9.2 names self as the per-platform figure)',
    );
    expect(checkItem4({ ...padded, batchDate: '2026-11-28' }).verdict).toBe('pass');
    // Near miss: self is compared, not waved through: a self that differs from the snapshot fails.
    empty.data.brand.platforms.kimi!.self.exposure_rate = 25;
    expect(failingSteps(checkItem4(empty))).toEqual(['kimi']);
  });

  test('9.2: per platform, the snapshot product_link_rate decides; without a separate HTML card only the aggregate is reported', () => {
    const ctx = context('B');
    ctx.platform.snapshot = ctx.platform.snapshot.map((r) =>
      r.platform === 'kimi' ? { ...r, product_link_rate: 3.3 } : r,
    );
    let r = checkItem4(ctx);
    expect(r.verdict).toBe('pass');
    expect(r.steps.find((s) => s.id === 'kimi')?.notes.join()).toContain('only the aggregate is reported');
    ctx.data.brand.platforms.kimi!.self.product_link_rate = 3.6;
    r = checkItem4(ctx);
    expect(r.steps.find((s) => s.id === 'kimi')?.rows.at(-1)).toMatchObject({
      key: 'kimi · 商品链接露出率 product_link_rate',
      verdict: 'fail',
    });
  });

  test('2.1 "the trend series of a platform holds one point per monitoring day", 7.2: two points of the last day with different figures are each compared, so the one printed first cannot differ unseen (HTML-side audit 59f: it passed); near misses: a repeated identical point, and two that both agree within 0.05, pass', () => {
    for (const profile of ['A', 'B'] as const) {
      const ctx = context(profile);
      const kimi = ctx.data.brand.platforms.kimi!;
      kimi.trend.splice(1, 0, { ...kimi.trend[1]!, exposure_rate: 60 }); // printed first, same day
      const r = checkItem4(ctx);
      expect(failingSteps(r), profile).toEqual(['kimi']);
      expect(row(r, 'kimi', 'kimi · 露出率 exposure_rate (another point of the day)'), profile).toMatchObject(
        {
          html: 60,
          platform: 23.4,
          verdict: 'fail',
        },
      );
      expect(r.steps.find((s) => s.id === 'kimi')?.notes.join(' '), profile).toContain(
        'the trend prints 2 points dated 2026-11-20 with different figures (spec 2.1: one point per monitoring day): each is compared',
      );
      const same = context(profile);
      same.data.brand.platforms.kimi!.trend.push({ ...same.data.brand.platforms.kimi!.trend[1]! });
      expect(checkItem4(same).verdict, profile).toBe('pass');
      const close = context(profile);
      const k = close.data.brand.platforms.kimi!;
      k.trend.splice(1, 0, { ...k.trend[1]!, exposure_rate: 23.42 });
      const closeResult = checkItem4(close);
      expect(closeResult.verdict, profile).toBe('pass');
      expect(row(closeResult, 'kimi', 'kimi · 露出率 exposure_rate (another point of the day)').html).toBe(
        23.42,
      );
    }
  });

  test('2.1 with docs/rules.md §D6: two points of the last day equal as decimal values (23.4 and 23.400000000000002, what a sum of doubles serialises) are one point, no "different figures" note and no second row (review 59i)', () => {
    for (const profile of ['A', 'B'] as const) {
      const ctx = context(profile);
      const kimi = ctx.data.brand.platforms.kimi!;
      kimi.trend[1]!.exposure_rate = 23.4;
      kimi.trend.splice(1, 0, { ...kimi.trend[1]!, exposure_rate: 23.400000000000002 });
      const step = checkItem4(ctx).steps.find((s) => s.id === 'kimi')!;
      expect(step.notes.join(' '), profile).not.toContain('with different figures');
      expect(
        step.rows.map((x) => x.key).filter((key) => key.endsWith('(another point of the day)')),
        profile,
      ).toEqual([]);
    }
  });

  test("2.1 \"one point per monitoring day\" with 7.1.2 and 9.3.2: another point of the last day is compared by its own profile's rule: 23.5 against the snapshot 23.4 fails in Profile A (a gap above 0.05) and passes in Profile B (0.1 apart after rounding) (mutation sweep 60: the other point's rows took either profile's rule and no test told)", () => {
    const verdicts = (['A', 'B'] as const).map((profile) => {
      const ctx = context(profile);
      const kimi = ctx.data.brand.platforms.kimi!;
      kimi.trend.splice(1, 0, { ...kimi.trend[1]!, exposure_rate: 23.5 });
      return row(checkItem4(ctx), 'kimi', 'kimi · 露出率 exposure_rate (another point of the day)');
    });
    expect(verdicts[0]).toMatchObject({
      html: 23.5,
      platform: 23.4,
      verdict: 'fail',
      tolerance: '≤ 0.05 (7.1.2)',
    });
    expect(verdicts[1]).toMatchObject({ html: 23.5, platform: 23.4, verdict: 'pass' });
    expect(verdicts[1]!.tolerance).toBe('≤ 0.1 after round(x,1) (9.3)');
  });

  test('2.1 with docs/rules.md §D6: another point of the last day that differs in one figure (exposure 60) is compared on that figure only; a figure it prints with binary noise (top3 12.460000000000003 against 12.46) is the same figure, no second row (mutation sweep 60: the cells were compared as doubles)', () => {
    for (const profile of ['A', 'B'] as const) {
      const ctx = context(profile);
      const kimi = ctx.data.brand.platforms.kimi!;
      kimi.trend.splice(1, 0, { ...kimi.trend[1]!, exposure_rate: 60, top3_rate: 12.460000000000003 });
      const step = checkItem4(ctx).steps.find((s) => s.id === 'kimi')!;
      expect(
        step.rows.map((x) => x.key).filter((key) => key.endsWith('(another point of the day)')),
        profile,
      ).toEqual(['kimi · 露出率 exposure_rate (another point of the day)']);
    }
  });

  test('2.1 "one point per monitoring day", 9.2: another point of the last day printing a brand exposure rate of 0 where the compared point prints none is a point with different figures: its 0 is compared and fails against the snapshot 31 (Profile B), never taken for the empty one (mutation sweep 60: 0 and no value were one figure to no test)', () => {
    const ctx = context('B');
    const kimi = ctx.data.brand.platforms.kimi!;
    kimi.trend[1]!.brand_exposure_rate = null;
    kimi.trend.splice(1, 0, { ...kimi.trend[1]!, brand_exposure_rate: 0 });
    const result = checkItem4(ctx);
    expect(failingSteps(result)).toEqual(['kimi']);
    expect(
      row(result, 'kimi', 'kimi · 品牌露出率 brand_exposure_rate (another point of the day)'),
    ).toMatchObject({
      html: 0,
      platform: 31,
      verdict: 'fail',
    });
    expect(row(result, 'kimi', 'kimi · 品牌露出率 brand_exposure_rate')).toMatchObject({
      html: 30.6,
      verdict: 'pass',
    });
  });
});

test.describe('item 4 · Profile B: self (9.2) and the last trend point (docs/rules.md §D4)', () => {
  test('9.2 names self as the HTML per-platform figure: a self that differs from the snapshot fails even when the trend agrees', () => {
    const ctx = context('B');
    ctx.data.brand.platforms.kimi!.self.exposure_rate = 25;
    const r = checkItem4(ctx);
    expect(failingSteps(r)).toEqual(['kimi']);
    expect(r.steps.find((s) => s.id === 'kimi')?.rows.find((x) => x.verdict === 'fail')).toMatchObject({
      key: 'kimi · 露出率 exposure_rate (self)',
      html: 25,
      platform: 23.4,
    });
  });

  test('docs/rules.md §D4: the last trend point differing from the snapshot fails though self agrees', () => {
    const ctx = context('B');
    ctx.data.brand.platforms.kimi!.trend[1]!.exposure_rate = 25;
    expect(failingSteps(checkItem4(ctx))).toEqual(['kimi']);
  });

  test('9.2 / docs/rules.md §D4 near miss: a card that self leaves empty while the last trend point has it adds no (self) row; only a self value that differs is compared', () => {
    const ctx = context('B');
    ctx.data.brand.platforms.kimi!.self.top3_rate = null; // the trend point keeps 12.46
    const r = checkItem4(ctx);
    const kimi = r.steps.find((s) => s.id === 'kimi')!;
    expect(kimi.rows.map((x) => x.key)).toContain('kimi · 前三率 top3_rate');
    expect(kimi.rows.map((x) => x.key)).not.toContain('kimi · 前三率 top3_rate (self)');
    expect(r.verdict).toBe('pass');
  });

  test('Profile A reads the trend only (7.2): its self is not compared', () => {
    const ctx = context('A');
    ctx.data.brand.platforms.kimi!.self.exposure_rate = 25;
    expect(checkItem4(ctx).verdict).toBe('pass');
  });

  test('9.2.3 is Profile B only (1.4): a Profile A diagnosis with one monitoring day still compares its trend point, never self; the same report in Profile B compares self', () => {
    const oneDay = (profile: Profile) => {
      const ctx = context(profile, { reportType: 'diagnosis' });
      for (const p of Object.values(ctx.data.brand.platforms)) p.trend = [p.trend[1]!];
      ctx.data.brand.platforms.kimi!.self.exposure_rate = 25;
      return ctx;
    };
    const a = checkItem4(oneDay('A'));
    expect(a.verdict).toBe('pass');
    expect(a.steps.find((s) => s.id === 'kimi')?.notes).toContain('HTML side: trend point 2026-11-20');
    expect(failingSteps(checkItem4(oneDay('B')))).toEqual(['kimi']);
  });

  test('7.2 "the last monitoring-day point": a point on the batch date is a monitoring day even with no value, so it is compared and fails; only points after the batch date are axis padding (docs/rules.md §D4)', () => {
    const emptyOn = (date: string) => {
      const ctx = { ...context('A'), batchDate: '2026-11-20' };
      const kimi = ctx.data.brand.platforms.kimi!;
      kimi.trend = [{ ...kimi.self, date: '2026-11-19' }, emptyPoint(date)];
      return checkItem4(ctx);
    };
    const onBatchDate = emptyOn('2026-11-20');
    expect(failingSteps(onBatchDate)).toEqual(['kimi']);
    expect(row(onBatchDate, 'kimi', 'kimi · 露出率 exposure_rate')).toMatchObject({
      html: null,
      verdict: 'fail',
      note: 'no value on the HTML side',
    });
    expect(emptyOn('2026-11-21').verdict).toBe('pass');
  });
});

test.describe('docs/rules.md §D4 · item 4 Profile B: self (9.2) fills the trend point; nothing dropped silently', () => {
  test('9.2: brand_exposure_rate missing from the last trend point is taken from self, not "no value on the HTML side"', () => {
    const ctx = context('B');
    for (const key of KEYS) ctx.data.brand.platforms[key]!.trend[1]!.brand_exposure_rate = null;
    const r = checkItem4(ctx);
    expect(r.verdict).toBe('pass');
    const kimi = r.steps.find((s) => s.id === 'kimi')!;
    expect(kimi.rows.find((x) => x.key === 'kimi · 品牌露出率 brand_exposure_rate')).toMatchObject({
      html: 30.6,
      verdict: 'pass',
    });
    expect(kimi.notes.join()).toContain('brandExposureRate from self');
  });

  test('9.2 with 2.1: another point of the last day missing brand_exposure_rate is filled from self as the compared point is, not a second row with no value on the HTML side', () => {
    const ctx = context('B');
    const kimi = ctx.data.brand.platforms.kimi!;
    kimi.trend[1]!.brand_exposure_rate = null;
    kimi.trend.splice(1, 0, { ...kimi.trend[1]!, exposure_rate: 23.42 }); // printed first, same day
    const r = checkItem4(ctx);
    expect(r.verdict).toBe('pass');
    expect(row(r, 'kimi', 'kimi · 露出率 exposure_rate (another point of the day)')).toMatchObject({
      html: 23.42,
      verdict: 'pass',
    });
    expect(
      r.steps
        .find((x) => x.id === 'kimi')!
        .rows.map((x) => x.key)
        .filter((key) => key.startsWith('kimi · 品牌露出率')),
    ).toEqual(['kimi · 品牌露出率 brand_exposure_rate']);
  });

  test('9.2: with position_metric first, a trend point without first_position_rate uses self.first_position_rate', () => {
    const ctx = context('B', { metric: 'first' });
    for (const key of KEYS) ctx.data.brand.platforms[key]!.trend[1]!.first_position_rate = null;
    expect(checkItem4(ctx).verdict).toBe('pass');
  });

  test('9.2 near miss: a card missing from both the trend point and self still fails naming the HTML side', () => {
    const ctx = context('B');
    ctx.data.brand.platforms.kimi!.trend[1]!.brand_exposure_rate = null;
    ctx.data.brand.platforms.kimi!.self.brand_exposure_rate = null;
    const kimi = checkItem4(ctx).steps.find((s) => s.id === 'kimi')!;
    expect(kimi.verdict).toBe('fail');
    expect(kimi.rows.find((x) => x.verdict === 'fail')?.note).toContain('no value on the HTML side');
  });

  test('7.2 near miss: Profile A never fills the trend point from self', () => {
    const ctx = context('A');
    ctx.data.brand.platforms.kimi!.trend[1]!.exposure_rate = null;
    expect(checkItem4(ctx).steps.find((s) => s.id === 'kimi')?.verdict).toBe('fail');
  });

  test('9.2: self.product_link_rate with a value against an empty snapshot value is said in the item notes', () => {
    const ctx = context('B');
    ctx.data.brand.platforms.kimi!.self.product_link_rate = 3.6;
    const r = checkItem4(ctx);
    expect(r.verdict).toBe('pass');
    expect(r.notes.join('\n')).toContain(
      'kimi · 商品链接露出率: the HTML self has 3.6 but the snapshot product_link_rate is empty',
    );
    expect(checkItem4(context('B')).notes.join('\n')).not.toContain('商品链接露出率');
  });
});

test.describe('docs/rules.md §D15 · 9.3.4 read by value (item 3)', () => {
  test('9.3.4: brand exposure 30.6 against a snapshot 31 passes whether it was printed "31" or "31.0"; 31.5 fails', () => {
    const ctx = context('B');
    for (const printed of ['31', '31.0']) {
      ctx.platform.snapshot[0] = snap('all', {
        brand_exposure_rate: 31,
        brand_exposure_rate_printed: printed,
      });
      expect(checkItem3(ctx).steps[0]?.rows[0], printed).toMatchObject({
        key: '品牌露出率 brand_exposure_rate',
        verdict: 'pass',
        passBy: 'integer print (spec 9.3.4)',
      });
    }
    ctx.platform.snapshot[0] = snap('all', {
      brand_exposure_rate: 31.5,
      brand_exposure_rate_printed: '31.5',
    });
    expect(checkItem3(ctx).steps[0]?.rows[0]?.verdict).toBe('fail');
  });

  test('9.3.4 "when the platform prints an integer": the note shows the value as the platform printed it (snapshot brand_exposure_rate_printed "31.0"), not as JSON parsed it (31) (mutation sweep 60: the printed form was dropped and no test told)', () => {
    const ctx = context('B');
    ctx.platform.snapshot[0] = snap('all', { brand_exposure_rate: 31, brand_exposure_rate_printed: '31.0' });
    expect(checkItem3(ctx).steps[0]?.rows[0]?.note).toBe(
      'the platform prints an integer (31.0); 30.6 and 31 are equal after rounding to an integer (9.3.4)',
    );
  });
});
