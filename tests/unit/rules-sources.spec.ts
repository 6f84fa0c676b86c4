import { expect, test } from './test-type';
import { checkItem11, checkItem12, platformSourceOrder } from '../../lib/rules/sources';
import { countRow } from '../../lib/rules/rows';
import type { SourceEntry } from '../../lib/schema/data';
import type { SourceRow } from '../../lib/schema/platform';
import { AI_KEYS, context, failingKeys, row, step } from './builders';

const html = (n: number, count = (i: number) => 100 - i): SourceEntry[] =>
  Array.from({ length: n }, (_, i) => ({ title: `来源${i + 1}`, channel: '新闻', cite_count: count(i) }));
const api = (entries: SourceEntry[]): SourceRow[] =>
  entries.map((e, i) => ({ ...e, rank: entries.length - i }));

/** Same sources on both sides for the aggregate. */
const sameSources = (n: number) =>
  context({ edit: (d, p) => ((d.brand.source_top30 = html(n)), (p.sources['all'] = api(html(n)))) });

test.describe('items 11 and 12 · related sources (spec 7.8)', () => {
  test('7.8: one step per platform option (aggregate and the six AI platforms); both items pass when the sources agree', () => {
    for (const check of [checkItem11, checkItem12]) {
      const result = check(context());
      expect(result.steps.map((s) => s.id)).toEqual(['all', ...AI_KEYS]);
      expect(result.steps[1]!.name).toBe('豆包 (doubao)');
      expect(result.verdict).toBe('pass');
    }
  });

  test('7.8.4: platform rows are stably sorted by cite_count; equal counts keep API order; rank is never used', () => {
    const rows: SourceRow[] = [
      { title: 'b', channel: 'x', cite_count: 5, rank: 1 },
      { title: 'a', channel: 'x', cite_count: 9, rank: 3 },
      { title: 'c', channel: 'x', cite_count: 5, rank: 2 },
    ];
    expect(platformSourceOrder(rows).map((r) => r.title)).toEqual(['a', 'b', 'c']);
  });

  test('7.8.3 "HTML order: the order of the source_top30 array": the HTML side is never re-sorted by cited count, so an HTML list printed out of count order fails item 12 where the platform sorts (7.8.4); near miss: the same list in count order passes', () => {
    const printed = (order: number[]) => {
      const sources = html(3); // cited counts 100, 99, 98
      return checkItem12(
        context({
          edit: (d, p) => {
            d.brand.source_top30 = order.map((i) => sources[i]!);
            p.sources['all'] = api(sources);
          },
        }),
      );
    };
    const swapped = printed([1, 0, 2]);
    expect(row(swapped, 'all', '#1')).toMatchObject({ html: '来源2', platform: '来源1', verdict: 'fail' });
    expect(row(swapped, 'all', '#2')).toMatchObject({ html: '来源1', platform: '来源2', verdict: 'fail' });
    expect(step(printed([0, 1, 2]), 'all').verdict).toBe('pass');
  });

  test('7.8.3 / 7.8.4: only the first 30 are compared on each side (rows 31 and 32 differ and are not reported)', () => {
    const result = checkItem12(
      context({
        edit: (d, p) => {
          d.brand.source_top30 = [...html(30), { title: '只在报告', channel: '新闻', cite_count: 1 }];
          p.sources['all'] = api([...html(30), { title: '只在平台', channel: '新闻', cite_count: 1 }]);
        },
      }),
    );
    expect(step(result, 'all').rows).toHaveLength(30);
    expect(step(result, 'all').verdict).toBe('pass');
  });

  test('7.8.1 "fewer than 30 rows: compare as many as exist": 25 on both sides passes with a note', () => {
    const count = row(checkItem11(sameSources(25)), 'all', 'row count');
    expect(count).toMatchObject({ html: 25, platform: 25, verdict: 'pass' });
    expect(count.note).toContain('fewer than 30 rows');
  });

  test('7.8.1 "only differing counts on the two sides fail": HTML 30 against platform 25 fails the count and the 5 titles', () => {
    const result = checkItem11(
      context({ edit: (d, p) => ((d.brand.source_top30 = html(30)), (p.sources['all'] = api(html(25)))) }),
    );
    expect(row(result, 'all', 'row count')).toMatchObject({
      html: 30,
      platform: 25,
      gap: 5,
      verdict: 'fail',
    });
    expect(row(result, 'all', 'title 「来源26」')).toMatchObject({
      platform: null,
      verdict: 'fail',
      note: 'not in the platform top 30',
    });
  });

  test('7.8.1 "align by title" with a title listed twice: each occurrence pairs with the next unpaired one of the same title (docs/rules.md §D13)', () => {
    const twice = (): SourceEntry[] => [
      { title: '重复标题', channel: '新闻', cite_count: 9 },
      { title: '重复标题', channel: '百科', cite_count: 5 },
    ];
    const result = checkItem11(
      context({ edit: (d, p) => ((d.brand.source_top30 = twice()), (p.sources['all'] = api(twice()))) }),
    );
    expect(step(result, 'all').verdict).toBe('pass');
    expect(step(result, 'all').rows.filter((r) => r.key === 'title 「重复标题」 cited count')).toHaveLength(
      2,
    );
  });

  test('7.8.1 "same set means pass" with a title the HTML lists twice and the platform once: item 11 fails, and the unpaired occurrence is not called "not in the platform top 30" (rules audit of 2026-11-28)', () => {
    const listed = (...titles: string[]): SourceEntry[] =>
      titles.map((title) => ({ title, channel: '新闻', cite_count: 5 }));
    const result = checkItem11(
      context({
        edit: (d, p) => (
          (d.brand.source_top30 = listed('重复标题', '重复标题', '其他来源')),
          (p.sources['all'] = api(listed('重复标题', '只在平台', '其他来源')))
        ),
      }),
    );
    expect(failingKeys(result, 'all')).toEqual(['title 「重复标题」', 'title 「只在平台」']);
    expect(row(result, 'all', 'title 「重复标题」')).toMatchObject({
      html: '重复标题',
      platform: null,
      note: "listed 2 times in the HTML top 30 and once in the platform's: this occurrence has no partner on the platform side (7.8.1, docs/rules.md §D13)",
    });
    // Near miss: a title the other side does not list at all is still said so.
    expect(row(result, 'all', 'title 「只在平台」').note).toBe('not in the HTML top 30');
  });

  test('7.8.1 "align by title, not the row number": a tie swap of two titles passes item 11', () => {
    const result = checkItem11(context({ edit: (_, p) => p.sources['all']!.reverse() }));
    expect(step(result, 'all').verdict).toBe('pass');
  });

  test('7.8.5: same ordinal, different titles, equal cited counts: item 12 fails and says tie swap, not a missing title', () => {
    const result = checkItem12(context({ edit: (_, p) => p.sources['all']!.reverse() }));
    const swapped = row(result, 'all', '#2');
    expect(swapped).toMatchObject({ html: '乳业百科', platform: '哪款牛奶好', verdict: 'fail' });
    expect(swapped.note).toBe(
      'tie swap, not a missing title: #2 HTML 「乳业百科」, platform 「哪款牛奶好」, cited count 5 on both sides (7.8.5)',
    );
    expect(failingKeys(result, 'all')).toEqual(['#2', '#3']);
  });

  test('7.8.2: a different title at an ordinal with a different count fails without the tie-swap note', () => {
    const result = checkItem12(
      context({
        edit: (_, p) =>
          (p.sources['all']![1] = { title: '清泉乳业获奖啦', channel: '新闻', cite_count: 10, rank: 1 }),
      }),
    );
    const changed = row(result, 'all', '#1');
    expect(changed).toMatchObject({ html: '清泉乳业获奖', platform: '清泉乳业获奖啦', verdict: 'fail' });
    expect(changed.note).not.toContain('tie swap');
  });

  test('7.8.2 / 8.1.2 "reported with the mismatching values": at an ordinal with different counts, a title the platform lists first that the HTML lacks is named missing on the HTML side, and only it (the HTML title is on the platform, one ordinal down)', () => {
    const result = checkItem12(
      context({
        edit: (_, p) =>
          p.sources['all']!.unshift({ title: '新来源', channel: '新闻', cite_count: 99, rank: 9 }),
      }),
    );
    const first = row(result, 'all', '#1');
    expect(first).toMatchObject({ html: '清泉乳业获奖', platform: '新来源', verdict: 'fail' });
    expect(first.note).toBe(
      '「新来源」 is missing on the HTML side (7.8.1); cited count HTML 9, platform 99',
    );
  });

  test('7.8.5 at the cut-off: a tie swap at #30 whose HTML title the platform lists at #31 says where that title is, though the platform title is on no HTML row at all', () => {
    const titles = html(30, () => 1);
    const result = checkItem12(
      context({
        edit: (d, p) => {
          d.brand.source_top30 = titles;
          p.sources['all'] = api([
            ...titles.slice(0, 29),
            { title: 'Y', channel: '新闻', cite_count: 1 },
            titles[29]!,
          ]);
        },
      }),
    );
    expect(row(result, 'all', '#30')).toMatchObject({ html: '来源30', platform: 'Y', verdict: 'fail' });
    expect(row(result, 'all', '#30').note).toBe(
      "tie swap, not a missing title: #30 HTML 「来源30」, platform 「Y」, cited count 1 on both sides (7.8.5); 「来源30」 is the platform's #31, cited count 1, beyond the 30 compared",
    );
  });

  test('7.8.2 "compare the title at each display ordinal": an ordinal the platform does not reach fails item 12, naming the side', () => {
    const result = checkItem12(
      context({
        edit: (_, p) => (p.sources['all'] = p.sources['all']!.filter((r) => r.title !== '哪款牛奶好')),
      }),
    );
    expect(row(result, 'all', '#3')).toMatchObject({
      html: '哪款牛奶好',
      platform: null,
      verdict: 'fail',
      note: 'no source at #3 on the platform side',
    });
    expect(result.verdict).toBe('fail');
  });

  test('7.8.1: a different channel or cited count for the same title fails', () => {
    const result = checkItem11(
      context({
        edit: (_, p) => {
          p.sources['all']![0]!.channel = '论坛';
          p.sources['all']![1]!.cite_count = 8;
        },
      }),
    );
    expect(row(result, 'all', 'title 「乳业百科」 channel')).toMatchObject({
      html: '百科',
      platform: '论坛',
      verdict: 'fail',
    });
    expect(row(result, 'all', 'title 「清泉乳业获奖」 cited count')).toMatchObject({
      html: 9,
      platform: 8,
      gap: 1,
      verdict: 'fail',
    });
  });

  test('7.8.1: a title on one side only fails, naming the side', () => {
    const result = checkItem11(context({ edit: (_, p) => (p.sources['kimi']![2]!.title = '新来源') }));
    expect(row(result, 'kimi', 'title 「哪款牛奶好」')).toMatchObject({
      platform: null,
      verdict: 'fail',
      note: 'not in the platform top 30',
    });
    expect(row(result, 'kimi', 'title 「新来源」')).toMatchObject({
      html: null,
      verdict: 'fail',
      note: 'not in the HTML top 30',
    });
  });

  test('docs/rules.md §D2: platform source rows not fetched for a platform the HTML has sources for fails', () => {
    const result = checkItem11(context({ edit: (_, p) => delete p.sources['doubao'] }));
    expect(row(result, 'doubao', 'source rows')).toMatchObject({
      verdict: 'fail',
      note: 'platform source rows not fetched',
    });
    expect(checkItem12(context({ edit: (_, p) => delete p.sources['all'] })).verdict).toBe('fail');
  });

  test('docs/rules.md §D2: a platform whose HTML citation has no source_top30 is not compared, with an item note', () => {
    const result = checkItem12(
      context({ edit: (d) => delete d.brand.platforms['qwen']!.citation.source_top30 }),
    );
    expect(result.steps.map((s) => s.id)).not.toContain('qwen');
    expect(result.notes.join('\n')).toContain(
      '通义 (qwen): the HTML has no citation.source_top30; not compared',
    );
    expect(result.verdict).toBe('pass');
  });

  test('7.8.1 "only differing counts on the two sides fail": no HTML source against three platform rows fails items 11 and 12, and so does the reverse; one empty side is not "both empty"', () => {
    for (const [htmlRows, platformRows] of [
      [0, 3],
      [3, 0],
    ] as const) {
      const oneSided = context({
        edit: (d, p) => (
          (d.brand.source_top30 = html(htmlRows)),
          (p.sources['all'] = api(html(platformRows)))
        ),
      });
      expect(row(checkItem11(oneSided), 'all', 'row count')).toMatchObject({
        html: htmlRows,
        platform: platformRows,
        verdict: 'fail',
      });
      expect(step(checkItem12(oneSided), 'all').verdict).toBe('fail');
      expect(step(checkItem12(oneSided), 'all').rows.some((r) => r.bothEmpty)).toBe(false);
    }
  });

  test('7.8.1 "when the platform has fewer than 30 rows": exactly 30 rows is not fewer, so the row count carries no such note', () => {
    const count = row(checkItem11(sameSources(30)), 'all', 'row count');
    expect(count).toMatchObject({ html: 30, platform: 30, verdict: 'pass' });
    expect(count.note).toBeUndefined();
  });

  test('spec 1.3 "every step must agree for a pass" with one step: sources only for the aggregate (no platform citation has source_top30, docs/rules.md §D2) pass items 11 and 12 on that step alone', () => {
    const onlyAggregate = context({
      edit: (d) => {
        for (const key of AI_KEYS) delete d.brand.platforms[key]!.citation.source_top30;
      },
    });
    for (const check of [checkItem11, checkItem12]) {
      const result = check(onlyAggregate);
      expect(result.steps.map((s) => s.id)).toEqual(['all']);
      expect(result.verdict).toBe('pass');
    }
  });

  test('both sides without sources agree, never "nothing compared"', () => {
    const empty = context({ edit: (d, p) => ((d.brand.source_top30 = []), (p.sources['all'] = [])) });
    expect(step(checkItem11(empty), 'all').verdict).toBe('pass');
    expect(step(checkItem12(empty), 'all').verdict).toBe('pass');
  });
});

test('a count row (7.8.1 "compare the channel and the cited count") says which side has no value only when one has none: two counts carry no such note, equal or not', () => {
  expect(countRow('来源1 · cited count', 3, 3)).toMatchObject({ verdict: 'pass', gap: 0 });
  expect(countRow('来源1 · cited count', 3, 3).note).toBeUndefined();
  expect(countRow('来源1 · cited count', 3, 4).note).toBeUndefined();
  expect(countRow('来源1 · cited count', 3, null)).toMatchObject({
    verdict: 'fail',
    note: 'no value on the platform side',
  });
  expect(countRow('来源1 · cited count', null, 4)).toMatchObject({
    verdict: 'fail',
    note: 'no value on the HTML side',
  });
  expect(countRow('来源1 · cited count', null, 4, 'a title the platform lists twice').note).toBe(
    'no value on the HTML side; a title the platform lists twice',
  );
});
