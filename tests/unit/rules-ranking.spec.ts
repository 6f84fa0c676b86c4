import { Worker } from 'node:worker_threads';
import { expect, test } from './test-type';
import { checkItem5 } from '../../lib/rules/ranking';
import { PASS_BY, type ItemResult } from '../../lib/rules/types';
import { BRANDS, OWN_BRAND, competitorRow, context, failingKeys, row, step, type Edit } from './builders';

const names = (result: ReturnType<typeof checkItem5>, side: 'html' | 'platform') =>
  step(result, '5.2').rows.map((r) => r[side]);

test.describe('item 5 · industry exposure ranking (spec 7.6, 9.5)', () => {
  test('7.6: three steps 5.1, 5.2, 5.3, all pass when both sides agree, in Profile A and Profile B', () => {
    for (const profile of ['A', 'B'] as const) {
      const result = checkItem5(context({ profile }));
      expect(result.steps.map((s) => s.id)).toEqual(['5.1', '5.2', '5.3']);
      expect(result.verdict, `profile ${profile}`).toBe('pass');
    }
  });

  test('7.6 "the API field rank is never used": scrambled rank values and API order do not change the screen order', () => {
    const result = checkItem5(
      context({
        edit: (_, p) => {
          p.competitor.forEach((r, i) => (r.rank = 100 - i));
          p.competitor.reverse();
        },
      }),
    );
    expect(names(result, 'platform')).toEqual([OWN_BRAND, '蓝山乳业', '白云牧场', '青禾']);
    expect(result.verdict).toBe('pass');
  });

  test('7.6 "equal rates keep the order each side printed": HTML own brand first, platform in API order', () => {
    const tie = (apiOwnBrandFirst: boolean) =>
      checkItem5(
        context({
          edit: (d, p) => {
            d.brand.core_competitors[0]!.avg_exposure_rate = 30.12; // 蓝山乳业 tied with the own brand
            p.competitor = p.competitor.filter((r) => r.name !== '蓝山乳业' && r.name !== OWN_BRAND);
            const own = competitorRow(OWN_BRAND, 30.1, BRANDS[0]!.perPlatform);
            const lanshan = competitorRow('蓝山乳业', 30.1, BRANDS[1]!.perPlatform);
            p.competitor.unshift(...(apiOwnBrandFirst ? [own, lanshan] : [lanshan, own]));
          },
        }),
      );
    expect(names(tie(true), 'html').slice(0, 2)).toEqual([OWN_BRAND, '蓝山乳业']);
    expect(tie(true).verdict).toBe('pass');
    expect(names(tie(false), 'platform').slice(0, 2)).toEqual(['蓝山乳业', OWN_BRAND]);
    expect(failingKeys(tie(false), '5.2')).toEqual(['#1 name', '#2 name']);
  });

  test('7.6 "equal rates keep the order each side printed", equal as decimals (docs/rules.md §D6): a platform rate serialised with binary noise (0.1 × 3 × 100 = 30.000000000000004) equals 30 and keeps the API order, so Profile A passes (review 59e: the noise ordered the platform side, a swap that failed 5.2); near miss: 30.01 is above 30 and fails', () => {
    const tie = (lanshan: number) =>
      checkItem5(
        context({
          edit: (d, p) => {
            d.brand.summary.avg_exposure_rate = 30;
            d.brand.core_competitors[0]!.avg_exposure_rate = 30;
            p.competitor = p.competitor.filter((r) => r.name !== '蓝山乳业' && r.name !== OWN_BRAND);
            p.competitor.unshift(
              competitorRow(OWN_BRAND, 30, BRANDS[0]!.perPlatform),
              competitorRow('蓝山乳业', lanshan, BRANDS[1]!.perPlatform),
            );
          },
        }),
      );
    const noisy = tie(0.1 * 3 * 100);
    expect(names(noisy, 'platform').slice(0, 2)).toEqual([OWN_BRAND, '蓝山乳业']);
    expect(step(noisy, '5.2').verdict).toBe('pass');
    expect(names(tie(30.01), 'platform').slice(0, 2)).toEqual(['蓝山乳业', OWN_BRAND]);
    expect(failingKeys(tie(30.01), '5.2')).toEqual(['#1 name', '#2 name']);
  });

  test('7.6 / 7.1.2 step 5.1: HTML 30.12 against platform 30.1 passes; 30.12 against 30.0 (gap 0.12) fails in A', () => {
    const result = checkItem5(
      context({ edit: (_, p) => (p.competitor.find((r) => r.name === OWN_BRAND)!.exposure_rate = 30) }),
    );
    expect(row(result, '5.1', `${OWN_BRAND} · all-platform rate`)).toMatchObject({
      html: 30.12,
      platform: 30,
      gap: 0.12,
      verdict: 'fail',
    });
    expect(step(result, '5.2').verdict).toBe('pass');
  });

  test('a missing value fails naming the side: HTML aggregate rate empty', () => {
    const result = checkItem5(
      context({ edit: (d) => (d.brand.core_competitors[2]!.avg_exposure_rate = null) }),
    );
    expect(row(result, '5.1', '青禾 · all-platform rate')).toMatchObject({
      verdict: 'fail',
      note: 'no value on the HTML side',
    });
  });

  test('7.6 "a truncated name counts as a different name": 蓝山 against 蓝山乳业 fails 5.1 and 5.2', () => {
    const result = checkItem5(
      context({ edit: (_, p) => (p.competitor.find((r) => r.name === '蓝山乳业')!.name = '蓝山') }),
    );
    expect(row(result, '5.2', '#2 name')).toMatchObject({
      html: '蓝山乳业',
      platform: '蓝山',
      verdict: 'fail',
      note: 'a truncated name is a different name (7.6)',
    });
    expect(row(result, '5.1', '蓝山乳业 · all-platform rate').verdict).toBe('fail');
    expect(result.verdict).toBe('fail');
  });

  test('7.6.2 "same percentage, different spelling" does not apply: equal rates but another spelling fails, even in B', () => {
    const result = checkItem5(
      context({
        profile: 'B',
        edit: (_, p) => (p.competitor.find((r) => r.name === '青禾')!.name = '青禾乳业'),
      }),
    );
    expect(row(result, '5.2', '#4 name')).toMatchObject({
      html: '青禾',
      platform: '青禾乳业',
      verdict: 'fail',
    });
  });

  /** HTML 白云牧场 20.04 and 蓝山乳业 20.02 (tied within 0.05); the platform prints both 20.0 in API order 蓝山, 白云. */
  const tiedSwap =
    (htmlLanshan: number): Edit =>
    (d, p) => {
      d.brand.core_competitors[0]!.avg_exposure_rate = htmlLanshan;
      p.competitor = p.competitor.filter((r) => r.name !== '蓝山乳业');
      const baiyun = p.competitor.findIndex((r) => r.name === '白云牧场');
      p.competitor.splice(baiyun, 0, competitorRow('蓝山乳业', 20, BRANDS[1]!.perPlatform));
    };

  test('9.5.5 tie swap: names swapped at #2/#3 with rates tied within 0.05 pass in Profile B with the note "tie swap"', () => {
    const result = checkItem5(context({ profile: 'B', edit: tiedSwap(20.02) }));
    const swapped = row(result, '5.2', '#2 name');
    expect(swapped).toMatchObject({ html: '白云牧场', platform: '蓝山乳业', verdict: 'pass' });
    expect(swapped.note).toContain('tie swap');
    expect(result.verdict).toBe('pass');
  });

  test('9.5.5 "when rates are tied within 0.05, a swap of ranks is not a failure" is judged pair by pair: a tie swap at #2/#3 passes in Profile B beside an untied swap of two other brands at #5/#6, which alone fails (mutation sweep 60: a position that read every swap of the list failed the tied pair with the untied one)', () => {
    const result = checkItem5(
      context({
        profile: 'B',
        edit: (d, p) => {
          tiedSwap(20.02)(d, p);
          d.brand.core_competitors.push(
            { name: 'X', avg_exposure_rate: 10 },
            { name: 'Y', avg_exposure_rate: 5 },
          );
          p.competitor.push(competitorRow('Y', 10), competitorRow('X', 5));
        },
      }),
    );
    expect(names(result, 'html')).toEqual([OWN_BRAND, '白云牧场', '蓝山乳业', '青禾', 'X', 'Y']);
    expect(names(result, 'platform')).toEqual([OWN_BRAND, '蓝山乳业', '白云牧场', '青禾', 'Y', 'X']);
    expect(row(result, '5.2', '#2 name')).toMatchObject({ verdict: 'pass', passBy: PASS_BY.tieSwap });
    expect(row(result, '5.2', '#3 name')).toMatchObject({ verdict: 'pass', passBy: PASS_BY.tieSwap });
    expect(failingKeys(result, '5.2')).toEqual(['#5 name', '#6 name']);
    expect(row(result, '5.2', '#5 name').note).toContain('not tied within 0.05 on either side');
  });

  test('9.5.5 "the report notes \'tie swap\'": step 5.2 notes each kind of swap in its profile\'s words, and no swap note where nothing swapped: a tie swap is "1 tie swap" in Profile B and "swapped ranks tied … Profile B\'s" in Profile A (mutation sweep 60: notes with empty lists, and both profiles\' words at once, passed)', () => {
    const base = 'both top-10 lists sorted by exposure rate, stable; the API field rank is never used (7.6)';
    for (const profile of ['A', 'B'] as const)
      expect(step(checkItem5(context({ profile })), '5.2').notes, profile).toEqual([base]);
    expect(step(checkItem5(context({ profile: 'B', edit: tiedSwap(20.02) })), '5.2').notes).toEqual([
      base,
      '1 tie swap within 0.05 (spec 9.5.5): 「白云牧场」 ↔ 「蓝山乳业」',
    ]);
    expect(step(checkItem5(context({ profile: 'A', edit: tiedSwap(20.02) })), '5.2').notes).toEqual([
      base,
      "swapped ranks tied within 0.05: 「白云牧场」 ↔ 「蓝山乳业」; the tie-swap allowance is Profile B's (9.5.5)",
    ]);
  });

  test('9.5.5 / 7.6: two brands whose names share a prefix (蒙牛, 蒙牛特仑苏), both on both sides, tie-swap in B; no "truncated name"', () => {
    const prefixSwap: Edit = (d, p) => {
      d.brand.core_competitors[0]!.name = '蒙牛';
      d.brand.core_competitors[0]!.avg_exposure_rate = 20.02;
      d.brand.core_competitors[1]!.name = '蒙牛特仑苏';
      const renamed = new Map([
        ['蓝山乳业', '蒙牛'],
        ['白云牧场', '蒙牛特仑苏'],
      ]);
      for (const platform of Object.values(d.brand.platforms))
        platform.industry_ranking = platform.industry_ranking.map((e) => ({
          ...e,
          name: renamed.get(e.name) ?? e.name,
        }));
      p.competitor = p.competitor.filter((r) => r.name !== '蓝山乳业');
      const baiyun = p.competitor.findIndex((r) => r.name === '白云牧场');
      p.competitor[baiyun]!.name = '蒙牛特仑苏';
      p.competitor.splice(baiyun, 0, competitorRow('蒙牛', 20, BRANDS[1]!.perPlatform));
    };
    const b = checkItem5(context({ profile: 'B', edit: prefixSwap }));
    expect(row(b, '5.2', '#2 name')).toMatchObject({ html: '蒙牛特仑苏', platform: '蒙牛', verdict: 'pass' });
    expect(row(b, '5.2', '#2 name').note).toContain('tie swap');
    expect(b.verdict).toBe('pass');
    // Near miss: in Profile A the same swap fails as a swap, not as a truncated name.
    const a = checkItem5(context({ profile: 'A', edit: prefixSwap }));
    expect(failingKeys(a, '5.2')).toEqual(['#2 name', '#3 name']);
    expect(row(a, '5.2', '#2 name').note).toContain('Profile B allowance');
  });

  test('9.5.5 / 7.6: two brands with no rate on either side, printed in other orders, are tied: a tie swap in B, a failure in A', () => {
    const emptyPair: Edit = (d, p) => {
      d.brand.core_competitors = [
        { name: 'X', avg_exposure_rate: null },
        { name: 'Y', avg_exposure_rate: null },
      ];
      for (const platform of Object.values(d.brand.platforms))
        platform.industry_ranking = (platform.industry_ranking ?? []).filter((e) => e.name === OWN_BRAND);
      p.competitor = [
        p.competitor.find((r) => r.name === OWN_BRAND)!,
        competitorRow('Y', null),
        competitorRow('X', null),
      ];
    };
    const b = checkItem5(context({ profile: 'B', edit: emptyPair }));
    expect(row(b, '5.2', '#2 name')).toMatchObject({ html: 'X', platform: 'Y', verdict: 'pass' });
    expect(row(b, '5.2', '#2 name').note).toContain('tie swap');
    const a = checkItem5(context({ profile: 'A', edit: emptyPair }));
    expect(failingKeys(a, '5.2')).toEqual(['#2 name', '#3 name']);
    // Near miss: X has a rate on the HTML side and Y on the platform side: each side orders the two,
    // in opposite ways, so the swap is tied on neither side and fails in B too.
    const oneRated = checkItem5(
      context({
        profile: 'B',
        edit: (d, p) => {
          emptyPair(d, p);
          d.brand.core_competitors[0]!.avg_exposure_rate = 0.3;
          p.competitor[1] = competitorRow('Y', 0.3);
        },
      }),
    );
    expect(row(oneRated, '5.2', '#2 name').verdict).toBe('fail');
    expect(row(oneRated, '5.2', '#2 name').note).toContain('not tied within 0.05 on either side');
  });

  test('9.5.5 "when rates are tied within 0.05": a brand with no rate is tied only with another without one (docs/rules.md 9.5.5), never with a rate, however small: X at 0.03 above Y with none on the HTML side, Y at 0.03 above X with none on the platform side, swapped, fails in Profile B (mutation sweep 60: no test had a rate within 0.05 of 0)', () => {
    const result = checkItem5(
      context({
        profile: 'B',
        edit: (d, p) => {
          d.brand.core_competitors = [
            { name: 'X', avg_exposure_rate: 0.03 },
            { name: 'Y', avg_exposure_rate: null },
          ];
          for (const platform of Object.values(d.brand.platforms))
            platform.industry_ranking = (platform.industry_ranking ?? []).filter((e) => e.name === OWN_BRAND);
          p.competitor = [
            p.competitor.find((r) => r.name === OWN_BRAND)!,
            competitorRow('Y', 0.03),
            competitorRow('X', null),
          ];
        },
      }),
    );
    expect(row(result, '5.2', '#2 name')).toMatchObject({ html: 'X', platform: 'Y', verdict: 'fail' });
    expect(row(result, '5.2', '#2 name').note).toContain('not tied within 0.05 on either side');
  });

  test('9.5.5 is Profile B only: the same tied swap fails in Profile A', () => {
    const result = checkItem5(context({ profile: 'A', edit: tiedSwap(20.02) }));
    expect(failingKeys(result, '5.2')).toEqual(['#2 name', '#3 name']);
    expect(row(result, '5.2', '#2 name').note).toContain('Profile B allowance');
    expect(result.verdict).toBe('fail');
  });

  /**
   * 蓝山乳业 above 白云牧场 on the report (HTML rates `html`), 白云牧场 first on the platform (its
   * rates `platform`), each brand's per-platform rates as they were.
   */
  const swapped =
    (html: [number, number], platform: [number, number]): Edit =>
    (d, p) => {
      d.brand.core_competitors[0]!.avg_exposure_rate = html[0];
      d.brand.core_competitors[1]!.avg_exposure_rate = html[1];
      p.competitor = p.competitor.filter((r) => r.name !== '蓝山乳业' && r.name !== '白云牧场');
      p.competitor.push(competitorRow('白云牧场', platform[1], BRANDS[2]!.perPlatform));
      p.competitor.push(competitorRow('蓝山乳业', platform[0], BRANDS[1]!.perPlatform));
    };

  /**
   * Step 5.2's rank-2 row after 蓝山乳业 and 白云牧场 changed places (step 5.1 agreeing): its verdict is
   * the item's, a pass is by the tie-swap clause; the row's note, for the test to read.
   */
  const swapAt2 = (result: ItemResult, verdict: 'pass' | 'fail'): string => {
    expect(step(result, '5.1').verdict).toBe('pass');
    const r = row(result, '5.2', '#2 name');
    expect(r).toMatchObject({
      html: '蓝山乳业',
      platform: '白云牧场',
      verdict,
      ...(verdict === 'pass' ? { passBy: 'tie swap (spec 9.5.5)' } : {}),
    });
    expect(result.verdict).toBe(verdict);
    return r.note ?? '';
  };

  test("7.6.2 Profile A: a swap of ranks is said to fail as any swap does, with both sides' rates, never by 9.5.5's \"tied on neither side\", which read as if a tied one would pass (reader audit of 2026-11-28); near miss: Profile B keeps 9.5.5's words", () => {
    const a = checkItem5(context({ profile: 'A', edit: swapped([25, 20], [20, 25]) }));
    expect(row(a, '5.2', '#2 name')).toMatchObject({
      html: '蓝山乳业',
      platform: '白云牧场',
      verdict: 'fail',
    });
    expect(row(a, '5.2', '#2 name').note).toBe(
      '「蓝山乳业」 ↔ 「白云牧场」 swapped ranks (HTML 25 / 20, platform 20 / 25): any swap of ranks fails in Profile A (7.6.2)',
    );
    expect(step(a, '5.2').notes).toContain('swapped ranks: 「蓝山乳业」 ↔ 「白云牧场」 (7.6.2)');
    const b = checkItem5(context({ profile: 'B', edit: swapped([25, 20], [20, 25]) }));
    expect(row(b, '5.2', '#2 name').note).toContain(
      'a swap of brands tied on neither side fails (7.6.2, 9.5.5)',
    );
  });

  test('9.5.5: HTML rates 20.2 and 20.04 that the platform prints alike (20.1, 20.1) in the other order: a tie swap on the platform side, which does not order them (7.1.1 one decimal, 7.6 equal rates keep the printed order)', () => {
    const result = checkItem5(context({ profile: 'B', edit: swapped([20.2, 20.04], [20.1, 20.1]) }));
    expect(swapAt2(result, 'pass')).toContain(
      '「蓝山乳业」 ↔ 「白云牧场」 swapped ranks, tied within 0.05 on the platform side (HTML 20.2 / 20.04, platform 20.1 / 20.1)',
    );
  });

  test('9.5.5 near miss: two brands apart on both sides (HTML 20.07 / 20, platform 20 / 20.1), each rate within 9.3 of its own, swapped: step 5.2 fails in Profile B', () => {
    const result = checkItem5(context({ profile: 'B', edit: swapped([20.07, 20], [20, 20.1]) }));
    expect(swapAt2(result, 'fail')).toContain('not tied within 0.05 on either side');
  });

  test('9.5.5 "tied within 0.05": HTML rates exactly 0.05 apart (20.05 / 20) are tied, so the platform’s other order (20 / 20.1) is a tie swap in Profile B', () => {
    const result = checkItem5(context({ profile: 'B', edit: swapped([20.05, 20], [20, 20.1]) }));
    expect(swapAt2(result, 'pass')).toContain('tied within 0.05 on the HTML side');
  });

  test('a ranking of any length is judged in one pass (hostile audit of 2026-11-27: 200,000 names took 9.5 minutes, past every budget, since judging is synchronous)', async () => {
    // Not a speed measurement but a bound: the pair and repeat searches were quadratic, and over
    // 50,000 names on each side they take over a minute; linear, under a second (and about 2 s to
    // start the thread). The judging runs in a worker thread, ended at the bound, so a quadratic
    // search fails here instead of hanging the unit stage.
    test.setTimeout(30_000);
    const worker = new Worker(require.resolve('./fakes/large-ranking.ts'), {
      workerData: { n: 50_000 },
      execArgv: ['--require', require.resolve('tsx/cjs')],
    });
    let timer: NodeJS.Timeout | undefined;
    try {
      const keys = await Promise.race([
        new Promise<string[]>((resolve, reject) => worker.once('message', resolve).once('error', reject)),
        new Promise<'bound'>((resolve) => (timer = setTimeout(() => resolve('bound'), 15_000))),
      ]);
      expect(keys, 'item 5 over 50,000 brands a side did not end within 15 s').not.toBe('bound');
      expect(keys).toContain('#1 name');
    } finally {
      clearTimeout(timer);
      await worker.terminate();
    }
  });

  test('7.6.2: lists of different length fail at the missing positions', () => {
    const result = checkItem5(
      context({ edit: (_, p) => p.competitor.push(competitorRow('绿原', 5, [1, 1, 1, 1, 1, 1])) }),
    );
    expect(row(result, '5.2', '#5 name')).toMatchObject({
      html: null,
      platform: '绿原',
      verdict: 'fail',
      note: 'no brand at #5 on the HTML side',
    });
  });

  test('7.6 "only the top 10 is compared": ranks 11 and 12 that differ are not reported', () => {
    const extra = Array.from({ length: 8 }, (_, i) => ({ name: `品牌${i}`, rate: 10 - i }));
    const result = checkItem5(
      context({
        edit: (d, p) => {
          for (const e of extra) {
            d.brand.core_competitors.push({ name: e.name, avg_exposure_rate: e.rate });
            p.competitor.push(competitorRow(e.name, e.rate));
          }
          d.brand.core_competitors.push({ name: '只在报告', avg_exposure_rate: 1 });
          p.competitor.push(competitorRow('只在平台', 1));
        },
      }),
    );
    expect(step(result, '5.2').rows).toHaveLength(10);
    expect(result.verdict).toBe('pass');
  });

  test('9.5.2: kind=product rows are dropped in Profile B; Profile A keeps every row as the API returns it and fails', () => {
    const withProduct = (profile: 'A' | 'B') =>
      checkItem5(
        context({
          profile,
          edit: (_, p) =>
            p.competitor.push(competitorRow('清泉纯牛奶 250ml', 50, [50, 50, 50, 50, 50, 50], 'product')),
        }),
      );
    expect(withProduct('B').verdict).toBe('pass');
    const a = withProduct('A');
    expect(row(a, '5.2', '#1 name')).toMatchObject({
      html: OWN_BRAND,
      platform: '清泉纯牛奶 250ml',
      verdict: 'fail',
    });
  });

  test('9.5.3: a core_competitors placeholder with rate 0 is skipped in Profile B only', () => {
    const placeholder = (profile: 'A' | 'B') =>
      checkItem5(
        context({
          profile,
          edit: (d) => d.brand.core_competitors.push({ name: '清泉乳业(子品牌)', avg_exposure_rate: 0 }),
        }),
      );
    expect(placeholder('B').verdict).toBe('pass');
    const a = placeholder('A');
    expect(row(a, '5.2', '#5 name')).toMatchObject({
      html: '清泉乳业(子品牌)',
      platform: null,
      verdict: 'fail',
    });
    expect(row(a, '5.1', '清泉乳业(子品牌) · all-platform rate').verdict).toBe('fail');
  });

  test('9.5.3 "the maximum rate kept for equal names": a name listed first with no rate and again with 25.5 keeps 25.5 in Profile B (a rate is above no rate), in either order', () => {
    const listed = (rates: (number | null)[]) =>
      checkItem5(
        context({
          profile: 'B',
          edit: (d) => {
            d.brand.core_competitors = [
              ...rates.map((rate) => ({ name: '蓝山乳业', avg_exposure_rate: rate })),
              ...d.brand.core_competitors.filter((c) => c.name !== '蓝山乳业'),
            ];
          },
        }),
      );
    for (const rates of [
      [null, 25.5],
      [25.5, null],
    ]) {
      const result = listed(rates);
      expect(row(result, '5.1', '蓝山乳业 · all-platform rate'), String(rates)).toMatchObject({
        html: 25.5,
        verdict: 'pass',
      });
      expect(result.verdict, String(rates)).toBe('pass');
    }
  });

  test('9.5.3: the maximum rate is kept for equal names in Profile B; Profile A lists the duplicate and fails', () => {
    const duplicate = (profile: 'A' | 'B') =>
      checkItem5(
        context({
          profile,
          edit: (d) => d.brand.core_competitors.push({ name: '蓝山乳业', avg_exposure_rate: 3 }),
        }),
      );
    expect(duplicate('B').verdict).toBe('pass');
    expect(row(duplicate('A'), '5.2', '#5 name')).toMatchObject({
      html: '蓝山乳业',
      platform: null,
      verdict: 'fail',
    });
    // The own brand listed again: the positions after it shift, and the rows say why (no brand is missing).
    const own = checkItem5(
      context({
        profile: 'A',
        edit: (d) =>
          d.brand.core_competitors.unshift({
            name: OWN_BRAND,
            avg_exposure_rate: d.brand.summary.avg_exposure_rate,
          }),
      }),
    );
    const shifted = step(own, '5.2').rows.filter((r) => r.verdict === 'fail');
    expect(shifted.length).toBeGreaterThan(0);
    for (const r of shifted) expect(r.note).not.toContain('a brand one side lacks');
    expect(
      shifted.some((r) => r.note?.includes(`the HTML ranking lists 「${OWN_BRAND}」 more than once`)),
    ).toBe(true);
  });

  test('9.5.3 "the maximum rate kept for equal names": a brand listed first with the lower rate (3) and again with 25.5 keeps 25.5 in Profile B', () => {
    const result = checkItem5(
      context({
        profile: 'B',
        edit: (d) => d.brand.core_competitors.unshift({ name: '蓝山乳业', avg_exposure_rate: 3 }),
      }),
    );
    expect(row(result, '5.1', '蓝山乳业 · all-platform rate')).toMatchObject({ html: 25.5, verdict: 'pass' });
    expect(result.verdict).toBe('pass');
  });

  test('7.6 step 3, a brand listed twice in one platform’s industry_ranking: Profile B keeps the maximum (9.5.3); Profile A, which never inherits 9.5.3, the first printed', () => {
    const twice: Edit = (d) =>
      d.brand.platforms['doubao']!.industry_ranking.unshift({ name: '蓝山乳业', exposure_rate: 3 });
    const b = checkItem5(context({ profile: 'B', edit: twice }));
    expect(row(b, '5.3', '蓝山乳业 · 豆包')).toMatchObject({ html: 30, platform: 30, verdict: 'pass' });
    const a = checkItem5(context({ profile: 'A', edit: twice }));
    expect(row(a, '5.3', '蓝山乳业 · 豆包')).toMatchObject({ html: 3, platform: 30, verdict: 'fail' });
  });

  test('7.6 step 3, a brand listed again in one platform’s industry_ranking at another rate: Profile A fails the cell naming every rate, even when the first is right; Profile B keeps the maximum (9.5.3) and says so (foolproof audit of 2026-11-28: a wrong second rate passed in A)', () => {
    const again =
      (rate: number): Edit =>
      (d) =>
        d.brand.platforms['doubao']!.industry_ranking.push({ name: '白云牧场', exposure_rate: rate });
    const a = checkItem5(context({ profile: 'A', edit: again(99) }));
    expect(row(a, '5.3', '白云牧场 · 豆包')).toMatchObject({
      html: 21,
      platform: 21,
      verdict: 'fail',
      note: "「白云牧场」 is listed 2 times in this platform's HTML ranking, at 21, 99: the first was compared, and one rate would silently win over the other",
    });
    expect(failingKeys(a, '5.3')).toEqual(['白云牧场 · 豆包']);
    const b = checkItem5(context({ profile: 'B', edit: again(3) }));
    expect(row(b, '5.3', '白云牧场 · 豆包')).toMatchObject({
      html: 21,
      platform: 21,
      verdict: 'pass',
      note: "「白云牧场」 is listed 2 times in this platform's HTML ranking, at 21, 3: the maximum is kept (9.5.3)",
    });
    // Near miss: listed again at the same rate, it is one cell, and passes in both profiles; the
    // same rate as decimal values too, 21 and what 0.7 × 3 × 10 serialises (20.999999999999996,
    // docs/rules.md §D6: the binary noise made it a second rate and failed Profile A, review 59e).
    for (const profile of ['A', 'B'] as const)
      for (const rate of [21, 0.7 * 3 * 10]) {
        const same = row(checkItem5(context({ profile, edit: again(rate) })), '5.3', '白云牧场 · 豆包');
        expect(same, `${profile} ${rate}`).toMatchObject({ html: 21, verdict: 'pass' });
        expect(same.note, `${profile} ${rate}`).toBeUndefined();
      }
  });

  test('7.6 / docs/rules.md §D1: item 5 with no exposure rate on either side anywhere compared only names: steps 5.1 and 5.3 fail "(nothing compared)", as item 3 fails such a report (foolproof audit of 2026-11-28: it passed); near miss: one platform whose every cell is empty beside platforms with rates passes', () => {
    const noRates: Edit = (d, p) => {
      d.brand.summary.avg_exposure_rate = null;
      for (const c of d.brand.core_competitors) c.avg_exposure_rate = null;
      for (const platform of Object.values(d.brand.platforms)) platform.industry_ranking = [];
      p.competitor = [OWN_BRAND, '蓝山乳业', '白云牧场', '青禾'].map((name) =>
        p.competitor.find((c) => c.name === name)!,
      );
      for (const c of p.competitor) {
        c.exposure_rate = null;
        c.platform_rates = c.platform_rates.map((x) => ({ ...x, rate: null }));
      }
    };
    for (const profile of ['A', 'B'] as const) {
      const result = checkItem5(context({ profile, edit: noRates }));
      expect(result.verdict, profile).toBe('fail');
      expect(failingKeys(result, '5.1'), profile).toEqual(['(nothing compared)']);
      expect(failingKeys(result, '5.3'), profile).toEqual(['(nothing compared)']);
      expect(row(result, '5.3', '(nothing compared)').note).toBe(
        'every cell of the step is an empty HTML cell against 「-」: no exposure rate was compared (7.6, docs/rules.md §D1)',
      );
    }
    const oneEmptyPlatform = checkItem5(
      context({
        edit: (d, p) => {
          d.brand.platforms['doubao']!.industry_ranking = [];
          for (const c of p.competitor) c.platform_rates[0] = { ...c.platform_rates[0]!, rate: null };
        },
      }),
    );
    expect(step(oneEmptyPlatform, '5.3').verdict).toBe('pass');
  });

  test('7.6 "the HTML cell is empty and the platform cell shows 「-」; this is not a difference": a brand listed with no rate in a platform’s industry_ranking is such an empty cell, in both profiles', () => {
    const listedEmpty: Edit = (d) =>
      d.brand.platforms['doubao']!.industry_ranking.push({ name: '青禾', exposure_rate: null });
    for (const profile of ['A', 'B'] as const) {
      const cell = row(checkItem5(context({ profile, edit: listedEmpty })), '5.3', '青禾 · 豆包');
      expect(cell, profile).toMatchObject({ html: null, platform: null, verdict: 'pass' });
    }
  });

  test('7.6 "sorted by average exposure rate, highest first": a brand with no rate ranks below one at 0 on both sides, whatever order each printed (Profile A)', () => {
    const result = checkItem5(
      context({
        edit: (d, p) => {
          d.brand.core_competitors.push(
            { name: '无数据', avg_exposure_rate: null },
            { name: '零露出', avg_exposure_rate: 0 },
          );
          p.competitor.push(competitorRow('零露出', 0), competitorRow('无数据', null));
        },
      }),
    );
    expect(names(result, 'html')).toEqual([OWN_BRAND, '蓝山乳业', '白云牧场', '青禾', '零露出', '无数据']);
    expect(step(result, '5.2').verdict).toBe('pass');
    expect(result.verdict).toBe('pass');
  });

  test('7.6.1 "matched by name": an HTML brand with an empty rate and no platform row fails 5.1 (no row to be 「-」); near miss: the same empty rate against a platform row printing 「-」 passes', () => {
    const emptyRate = (platformRow: boolean) =>
      checkItem5(
        context({
          edit: (d, p) => {
            d.brand.core_competitors.find((c) => c.name === '青禾')!.avg_exposure_rate = null;
            if (platformRow) p.competitor.find((r) => r.name === '青禾')!.exposure_rate = null;
            else p.competitor = p.competitor.filter((r) => r.name !== '青禾');
          },
        }),
      );
    expect(row(emptyRate(false), '5.1', '青禾 · all-platform rate')).toMatchObject({
      html: null,
      platform: null,
      verdict: 'fail',
      note: 'no value on either side: a figure the item compares must be on both sides, and nothing was compared (docs/rules.md §D1, §D3); no platform competitor row named 「青禾」',
    });
    expect(row(emptyRate(true), '5.1', '青禾 · all-platform rate')).toMatchObject({ verdict: 'pass' });
  });

  test('9.5.5 "a swap of ranks is not a failure" is about two brands both sides list: at a position where the HTML shows a brand the platform lacks, the platform brand there being half of a tie swap does not pass it (7.6: a name one side lacks differs)', () => {
    const tieSwap = (htmlOnly: boolean) =>
      checkItem5(
        context({
          profile: 'B',
          edit: (d, p) => {
            d.brand.core_competitors.find((c) => c.name === '白云牧场')!.avg_exposure_rate = 25.5;
            if (htmlOnly) d.brand.core_competitors.push({ name: '只在报告', avg_exposure_rate: 27 });
            const baiyun = p.competitor.find((r) => r.name === '白云牧场')!;
            baiyun.exposure_rate = 25.5;
            p.competitor = [baiyun, ...p.competitor.filter((r) => r !== baiyun)];
          },
        }),
      );
    const result = tieSwap(true);
    expect(names(result, 'html').slice(0, 4)).toEqual([OWN_BRAND, '只在报告', '蓝山乳业', '白云牧场']);
    expect(names(result, 'platform').slice(0, 3)).toEqual([OWN_BRAND, '白云牧场', '蓝山乳业']);
    expect(row(result, '5.2', '#2 name')).toMatchObject({
      html: '只在报告',
      platform: '白云牧场',
      verdict: 'fail',
      note: '「只在报告」 is not in the platform ranking',
    });
    // The positions after it shift: 白云牧场 against 青禾 is no swap of those two, though 白云牧场
    // is in the tie swap with 蓝山乳业 (defect found by the mutation audit: this row passed).
    expect(row(result, '5.2', '#4 name')).toMatchObject({
      html: '白云牧场',
      platform: '青禾',
      verdict: 'fail',
      note: '「白云牧场」 and 「青禾」 did not swap ranks: the lists differ by a brand one side lacks',
    });
    // Near miss: without the HTML-only brand, the same pair at #2 is a tie swap and passes (9.5.5).
    expect(row(tieSwap(false), '5.2', '#2 name')).toMatchObject({
      html: '蓝山乳业',
      platform: '白云牧场',
      verdict: 'pass',
      passBy: PASS_BY.tieSwap,
    });
  });

  test('9.5.4: Profile B 5.1 compares the intersection of the two top-10 lists; Profile A fails a brand the platform lacks', () => {
    const edit: Edit = (_, p) => (p.competitor = p.competitor.filter((r) => r.name !== '青禾'));
    const b = checkItem5(context({ profile: 'B', edit }));
    expect(step(b, '5.1').rows.map((r) => r.key)).not.toContain('青禾 · all-platform rate');
    expect(step(b, '5.1').verdict).toBe('pass');
    expect(step(b, '5.2').verdict).toBe('fail');
    const a = checkItem5(context({ profile: 'A', edit }));
    expect(row(a, '5.1', '青禾 · all-platform rate')).toMatchObject({ verdict: 'fail', platform: null });
  });

  /**
   * 9.5.4 (5.1: "the intersection of the two top 10 lists") with 9.5.5 (a tie swap "is not a
   * failure") and 7.6.1 ("the aggregate average exposure rate against the all-platform column,
   * matched by name"): a tie swap across #10/#11 leaves each brand of the pair in one top 10 only.
   * Each side's pair is tied within 0.05, so 5.2 passes; the pair's rates across the sides must
   * still be compared somewhere, or a report could show 10.0 where the platform says 5.0.
   */
  const crossing = (x: [number, number], y: [number, number]): Edit => {
    const top9 = ['B2', 'B3', 'B4', 'B5', 'B6', 'B7', 'B8', 'B9'].map((name, i) => ({
      name,
      rate: 85 - i * 5,
    }));
    return (d, p) => {
      d.brand.summary.avg_exposure_rate = 90;
      d.brand.core_competitors = [
        ...top9.map((b) => ({ name: b.name, avg_exposure_rate: b.rate })),
        { name: 'X', avg_exposure_rate: x[0] },
        { name: 'Y', avg_exposure_rate: y[0] },
      ];
      // Step 5.3 compares the own brand on its first platform only (a step of empty cells alone
      // compared nothing, docs/rules.md §D1).
      for (const key of Object.keys(d.brand.platforms)) d.brand.platforms[key]!.industry_ranking = [];
      d.brand.platforms[Object.keys(d.brand.platforms)[0]!]!.industry_ranking = [
        { name: OWN_BRAND, exposure_rate: 90 },
      ];
      p.competitor = [
        competitorRow(OWN_BRAND, 90, [90, null, null, null, null, null]),
        ...top9.map((b) => competitorRow(b.name, b.rate)),
        competitorRow('Y', y[1]),
        competitorRow('X', x[1]),
      ];
    };
  };

  test('9.5.4 + 9.5.5: a tie swap across #10/#11 still compares both brands’ rates by name; 10.0 against 5.0 fails 5.1', () => {
    const fooled = checkItem5(context({ profile: 'B', edit: crossing([10, 5], [9.98, 5.03]) }));
    expect(step(fooled, '5.2').verdict).toBe('pass'); // each side's pair is tied within 0.05
    expect(row(fooled, '5.1', 'X · all-platform rate')).toMatchObject({
      html: 10,
      platform: 5,
      verdict: 'fail',
    });
    expect(row(fooled, '5.1', 'Y · all-platform rate')).toMatchObject({
      html: 9.98,
      platform: 5.03,
      verdict: 'fail',
    });
    expect(row(fooled, '5.1', 'X · all-platform rate').note).toContain('#11 on the platform');
    expect(fooled.verdict).toBe('fail');
  });

  test('9.5.5 near miss: a tie swap across #10/#11 whose rates agree across the sides passes, both brands compared', () => {
    const swap = checkItem5(context({ profile: 'B', edit: crossing([10, 10], [9.98, 10]) }));
    expect(step(swap, '5.1').rows.map((r) => r.key)).toEqual(
      expect.arrayContaining(['X · all-platform rate', 'Y · all-platform rate']),
    );
    expect(row(swap, '5.2', '#10 name').passBy).toBe('tie swap (spec 9.5.5)');
    expect(swap.verdict).toBe('pass');
  });

  test('7.6.1 / 9.5.7: HTML 25.56 against platform 25.5 fails in Profile A (gap 0.06) and passes in Profile B (9.3)', () => {
    const edit: Edit = (d) => (d.brand.core_competitors[0]!.avg_exposure_rate = 25.56);
    expect(
      row(checkItem5(context({ profile: 'A', edit })), '5.1', '蓝山乳业 · all-platform rate'),
    ).toMatchObject({ gap: 0.06, verdict: 'fail' });
    expect(
      row(checkItem5(context({ profile: 'B', edit })), '5.1', '蓝山乳业 · all-platform rate'),
    ).toMatchObject({ gap: 0.1, verdict: 'pass' });
  });

  test('7.6.3: each of the 10 brands on the six platforms; the seventh meta platform is not a column', () => {
    const result = checkItem5(context());
    expect(step(result, '5.3').rows).toHaveLength(4 * 6);
    expect(step(result, '5.3').rows.some((r) => r.key.includes('百度搜索'))).toBe(false);
  });

  test('7.6 "HTML empty cell, platform 「-」 is not a difference": 清泉乳业 on 元宝 passes with the note both empty', () => {
    const cell = row(checkItem5(context()), '5.3', `${OWN_BRAND} · 元宝`);
    expect(cell).toMatchObject({ html: null, platform: null, verdict: 'pass' });
    expect(cell.note).toContain('both empty');
  });

  test('7.6 near miss: an empty HTML cell against a platform value fails, and a value against 「-」 fails', () => {
    const htmlEmpty = checkItem5(
      context({
        edit: (_, p) => (p.competitor.find((r) => r.name === OWN_BRAND)!.platform_rates[2]!.rate = 3.2),
      }),
    );
    expect(row(htmlEmpty, '5.3', `${OWN_BRAND} · 元宝`)).toMatchObject({
      html: null,
      platform: 3.2,
      verdict: 'fail',
    });
    const platformDash = checkItem5(
      context({
        edit: (_, p) => (p.competitor.find((r) => r.name === OWN_BRAND)!.platform_rates[0]!.rate = null),
      }),
    );
    expect(row(platformDash, '5.3', `${OWN_BRAND} · 豆包`)).toMatchObject({
      html: 40,
      platform: null,
      verdict: 'fail',
    });
  });

  test('7.6 "short names of columns 3 to 5 correspond by position": 文心 against 「文心一言」 is matched by position', () => {
    const result = checkItem5(context());
    const cell = row(result, '5.3', '蓝山乳业 · 通义');
    expect(cell).toMatchObject({ html: 22.22, platform: 22.22, verdict: 'pass' });
    expect(cell.note).toContain('「通义千问」 matched by position');
    const shifted = checkItem5(
      context({ edit: (_, p) => p.competitor.forEach((r) => r.platform_rates.reverse()) }),
    );
    expect(step(shifted, '5.3').verdict).toBe('fail');
  });

  /**
   * The platform table in another order than the report: column 1 named `name` (the HTML's column
   * 2 is 「DeepSeek」) holds 豆包's rates, column 2 is named 豆包, and the HTML's 豆包 ranking is
   * DeepSeek's, so every cell of the swapped columns agrees by rate and only the names tell.
   */
  const columnOneNamed =
    (name: string): Edit =>
    (d, p) => {
      d.brand.platforms['doubao']!.industry_ranking = structuredClone(
        d.brand.platforms['deepseek']!.industry_ranking,
      );
      for (const r of p.competitor) {
        r.platform_rates[0]!.rate = r.platform_rates[1]!.rate;
        r.platform_rates[0]!.name = name;
        r.platform_rates[1]!.name = '豆包';
      }
    };

  test('7.6 "six platform columns in a fixed order (the first six AI answer platforms of the report)": a platform column named exactly as another of the six (column 1 「DeepSeek」, column 2 「豆包」) is a table in another order, and fails 5.3 naming both columns even where the rates happen to agree (review 59e: it passed, its note saying "matched by position (7.6)"); near miss: the longer names of columns 3 to 5 still pass by position', () => {
    const result = checkItem5(context({ edit: columnOneNamed('DeepSeek') }));
    const cell = row(result, '5.3', `${OWN_BRAND} · 豆包`);
    expect(cell).toMatchObject({ html: 35.5, platform: 35.5, verdict: 'fail' });
    expect(cell.note).toContain(
      'platform column 1 is 「DeepSeek」, the name of the HTML platform column 2: the platform table is in another order than the report (7.6 fixed order)',
    );
    expect(failingKeys(result, '5.3').filter((k) => !/豆包|DeepSeek/.test(k))).toEqual([]);
    expect(row(result, '5.3', '蓝山乳业 · 通义')).toMatchObject({ verdict: 'pass' });
  });

  test('7.6 "six platform columns in a fixed order": a platform column named as another of the six with whitespace around the name or in another case (「DeepSeek 」, 「deepseek」) is a table in another order too, and fails 5.3 naming both columns (review 59i: matched by position and passed where the rates agreed)', () => {
    for (const name of ['DeepSeek ', '\u3000DeepSeek', 'deepseek']) {
      const result = checkItem5(context({ edit: columnOneNamed(name) }));
      const cell = row(result, '5.3', `${OWN_BRAND} · 豆包`);
      expect(cell, name).toMatchObject({ html: 35.5, platform: 35.5, verdict: 'fail' });
      expect(cell.note, name).toContain(
        `platform column 1 is 「${name}」, the name of the HTML platform column 2: the platform table is in another order than the report (7.6 fixed order)`,
      );
    }
  });

  test('7.6 "six platform columns in a fixed order (the first six AI answer platforms of the report)": a column named as the first of the six (column 2 「豆包」) is a table in another order too, and fails 5.3 at every brand even where the rates agree (mutation sweep 60: a guard that counted from the second platform passed it)', () => {
    const result = checkItem5(
      context({ edit: (_, p) => p.competitor.forEach((r) => (r.platform_rates[1]!.name = '豆包')) }),
    );
    const cell = row(result, '5.3', `${OWN_BRAND} · DeepSeek`);
    expect(cell).toMatchObject({ html: 35.5, platform: 35.5, verdict: 'fail' });
    expect(cell.note).toContain(
      'platform column 2 is 「豆包」, the name of the HTML platform column 1: the platform table is in another order than the report (7.6 fixed order)',
    );
    expect(failingKeys(result, '5.3')).toEqual(BRANDS.map((b) => `${b.name} · DeepSeek`));
  });

  test('7.6 "six platform columns in a fixed order": a platform column named loosely as its own platform is matched by position even where the name also reads as another of the six (column 2 「DeepSeek 」 where the sixth platform\'s short name is 「deepseek」: labels that collide), never taken for a table in another order (review 59r: the guard in step 5.3\'s column matching had no test)', () => {
    const result = checkItem5(
      context({
        edit: (d, p) => {
          d.meta.platforms[5]!.short_name = 'deepseek';
          for (const r of p.competitor) r.platform_rates[1]!.name = 'DeepSeek ';
        },
      }),
    );
    const cell = row(result, '5.3', `${OWN_BRAND} · DeepSeek`);
    expect(cell).toMatchObject({ verdict: 'pass' });
    expect(cell.note).toBe('platform column 2 「DeepSeek 」 matched by position (7.6)');
    expect(failingKeys(result, '5.3')).toEqual([]);
  });

  test('7.6 "six platform columns": DATA.meta.platforms with only five AI platforms fails 5.3', () => {
    const result = checkItem5(context({ edit: (d) => (d.meta.platforms = d.meta.platforms.slice(0, 5)) }));
    expect(row(result, '5.3', 'AI platforms')).toMatchObject({ html: 5, platform: 6, verdict: 'fail' });
  });

  test('7.6 step 3 "each of the six platforms": a platform block the HTML lacks fails 5.3 (the "not compared" of docs/rules.md §D2 is items 7-12 only)', () => {
    for (const profile of ['A', 'B'] as const) {
      const result = checkItem5(context({ profile, edit: (d) => delete d.brand.platforms['kimi'] }));
      expect(result.verdict).toBe('fail');
      expect(failingKeys(result, '5.3')).toEqual(['DATA.brand.platforms.kimi.industry_ranking']);
      expect(row(result, '5.3', 'DATA.brand.platforms.kimi.industry_ranking').note).toContain(
        'each of the six platforms (7.6)',
      );
      expect(step(result, '5.1').verdict).toBe('pass');
    }
  });

  test('9.5.1: Profile B product level compares core_product_competitors and product_ranking with kind=product rows', () => {
    const products = [
      { name: '纯牛奶', rate: 40, perPlatform: [40, 40, 40, 40, 40, null] },
      { name: '酸奶', rate: 20, perPlatform: [20, 20, 20, 20, 20, 20] },
    ];
    const edit: Edit = (d, p) => {
      d.core_product_competitors = [
        ...products.map((x) => ({ name: x.name, avg_exposure_rate: x.rate })),
        { name: '占位', avg_exposure_rate: 0 },
      ];
      d.product_ranking = Object.fromEntries(
        ['doubao', 'deepseek', 'yuanbao', 'wenxin', 'qwen', 'kimi'].map((k, i) => [
          k,
          products
            .filter((x) => x.perPlatform[i] !== null)
            .map((x) => ({ name: x.name, exposure_rate: x.perPlatform[i]! })),
        ]),
      );
      p.competitor.push(...products.map((x) => competitorRow(x.name, x.rate, x.perPlatform, 'product')));
    };
    const result = checkItem5(context({ profile: 'B', level: 'product', edit }));
    expect(names(result, 'html')).toEqual(['纯牛奶', '酸奶']);
    expect(step(result, '5.3').rows).toHaveLength(2 * 6);
    expect(result.verdict).toBe('pass');
    const brandLevel = checkItem5(context({ profile: 'B', level: 'brand', edit }));
    expect(names(brandLevel, 'platform')).toEqual([OWN_BRAND, '蓝山乳业', '白云牧场', '青禾']);
    expect(brandLevel.verdict).toBe('pass');
  });

  test('9.5.1 "product level … only when the user explicitly asks" is a Profile B option: Profile A asked for the product level compares the brand ranking and says so; near miss: Profile B asked for it reads the product level', () => {
    const a = checkItem5(context({ profile: 'A', level: 'product' }));
    expect(a.verdict).toBe('pass');
    expect(a.notes).toContain(
      'level=product is a Profile B option (9.5.1); Profile A compares the brand ranking',
    );
    expect(names(a, 'html')).toEqual([OWN_BRAND, '蓝山乳业', '白云牧场', '青禾']);
    expect(checkItem5(context({ profile: 'B', level: 'product' })).verdict).toBe('fail');
  });

  test('9.5.1: the product level without core_product_competitors fails instead of passing by default', () => {
    const result = checkItem5(context({ profile: 'B', level: 'product' }));
    expect(result.verdict).toBe('fail');
    expect(step(result, '5.1').rows[0]!.key).toBe('(nothing compared)');
    // The item says why nothing was compared, naming the field 9.5.1 reads; a brand-level run does not.
    expect(result.notes).toContain(
      'DATA has no core_product_competitors: the product ranking cannot be compared (9.5.1)',
    );
    expect(checkItem5(context({ profile: 'B' })).notes.join('\n')).not.toContain('core_product_competitors');
  });

  test('9.5.1 "product level (core_product_competitors, product_ranking) only when the user explicitly asks": a product-level run whose DATA was not read at the product level fails item 5 with one step naming the field, and compares no ranking (mutation sweep 60: nothing pinned the item number or the step)', () => {
    const ctx = context({ profile: 'B' });
    ctx.level = 'product';
    const result = checkItem5(ctx);
    expect(result).toMatchObject({ item: 5, verdict: 'fail' });
    expect(result.steps.map((s) => s.id)).toEqual(['DATA']);
    expect(step(result, 'DATA').rows).toEqual([
      expect.objectContaining({
        key: 'DATA.product_ranking',
        verdict: 'fail',
        note: expect.stringContaining('DATA was not read at the product level'),
      }),
    ]);
    expect(checkItem5(context({ profile: 'B' })).item).toBe(5);
  });
});
