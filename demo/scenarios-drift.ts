import { round2 } from './prng';
import { A_DIAGNOSIS, A_MONITOR, B_MONITOR } from './runs';
import {
  derive,
  FAILS,
  num,
  platformAggregateGap,
  printedLike,
  tmcGroup,
  type Scenario,
} from './scenario-kit';
import { OTHER, UNKNOWN } from './vocab';

/** Drift scenarios: exactly one thing changed on one side, so exactly the named items fail. */

export const DRIFT_SCENARIOS: readonly Scenario[] = [
  // --- drifts: exactly one thing changed on one side -------------------------------------------------
  derive(A_MONITOR, {
    label: 'drift-a-kpi-gap-006',
    projectId: '101301',
    description:
      'Profile A: snapshot all.exposure_rate 0.06 above the HTML card (a card of x.x4 against x.x + 0.1)',
    platform: platformAggregateGap(0.1),
    expected: FAILS(3),
  }),
  derive(B_MONITOR, {
    label: 'drift-b-kpi-gap-01',
    projectId: '310102',
    description:
      'Profile B: snapshot all.exposure_rate 0.1 above the HTML card after rounding: passes (9.3.2)',
    platform: platformAggregateGap(0.1),
    expected: FAILS(),
  }),
  derive(B_MONITOR, {
    label: 'drift-b-kpi-gap-02',
    projectId: '310103',
    description:
      'Profile B: snapshot all.exposure_rate 0.2 above the HTML card after rounding: fails (9.3.3)',
    platform: platformAggregateGap(0.2),
    expected: FAILS(3),
  }),
  derive(A_MONITOR, {
    label: 'drift-a-trend-last-point',
    projectId: '101302',
    description: 'the last trend point (by date) of DeepSeek in the HTML is 0.8 above the snapshot',
    html: (data) => {
      const trend = data.brand.platforms.deepseek?.trend ?? [];
      const last = trend.reduce((a, b) => (b.date >= a.date ? b : a));
      last.exposure_rate = round2(num(last.exposure_rate) + 0.8);
      return data;
    },
    expected: FAILS(4),
  }),
  derive(A_MONITOR, {
    label: 'drift-a-rank-swap',
    projectId: '101303',
    description: 'the platform swaps the all-platform rates of #1 and #2 (not a tie)',
    platform: (view) => {
      const [first, second] = view.competitor;
      if (!first || !second) throw new Error('demo scenario: fewer than two competitor rows');
      [first.exposure_rate, second.exposure_rate] = [second.exposure_rate, first.exposure_rate];
    },
    expected: FAILS(5),
  }),
  derive(A_MONITOR, {
    label: 'drift-a-truncated-name',
    projectId: '101304',
    description:
      'the platform shows 「森氧」 for the HTML 「森氧科技」 (a truncated name is a different name, 7.6)',
    platform: (view) => {
      const row = view.competitor.find((r) => r.name === '森氧科技');
      if (!row) throw new Error('demo scenario: no competitor 森氧科技');
      row.name = '森氧';
    },
    expected: FAILS(5),
  }),
  derive(A_MONITOR, {
    label: 'drift-a-missing-negative-word',
    projectId: '101305',
    description: 'the platform word cloud lacks one negative word',
    platform: (view) => {
      view.wordcloud.negative.pop();
    },
    expected: FAILS(6),
  }),
  derive(A_MONITOR, {
    label: 'drift-a-legend-order',
    projectId: '101306',
    description: 'content type, aggregate: the platform swaps the shares of legend #2 and #3',
    platform: (view) => {
      const [, second, third] = tmcGroup(view, 'all', 'content_type');
      if (!second || !third) throw new Error('demo scenario: short content type group');
      [second.value, third.value] = [third.value, second.value];
    },
    expected: FAILS(7),
  }),
  derive(A_DIAGNOSIS, {
    label: 'drift-a-no-time-kept',
    projectId: '102301',
    description:
      'publish time, aggregate: the platform keeps 「无时间」 in its denominator, so every dated share is ~8 % lower',
    platform: (view) => {
      const group = tmcGroup(view, 'all', 'publish_time');
      const noTime = group.find((r) => r.name === '无时间');
      if (!noTime) throw new Error('demo scenario: no 无时间 row');
      const keep = 1 - num(noTime.value) / 100;
      for (const row of group) if (row !== noTime) row.value = printedLike(row.value, num(row.value) * keep);
    },
    expected: FAILS(8),
  }),
  derive(B_MONITOR, {
    label: 'drift-b-media-type-a-way',
    projectId: '310104',
    description:
      'Profile B: the HTML media type (aggregate) was computed the Profile A way (其他/未知 dropped, recomputed)',
    html: (data) => {
      const media = data.brand.tmc_aggregate.media_category.filter(
        (e) => e.name !== OTHER && e.name !== UNKNOWN,
      );
      const sum = media.reduce((s, e) => s + num(e.value), 0);
      data.brand.tmc_aggregate.media_category = media.map((e) => ({
        name: e.name,
        value: round2((num(e.value) / sum) * 100),
      }));
      return data;
    },
    expected: FAILS(9),
  }),
  derive(A_MONITOR, {
    label: 'drift-a-media-name-value',
    projectId: '101307',
    description: 'media name, aggregate: the platform share of the top media name is 1 point higher',
    platform: (view) => {
      const [top] = tmcGroup(view, 'all', 'media_name');
      if (!top) throw new Error('demo scenario: no media name rows');
      top.value = printedLike(top.value, num(top.value) + 1);
    },
    expected: FAILS(10),
  }),
  derive(A_MONITOR, {
    label: 'drift-a-source-channel',
    projectId: '101308',
    description: 'related sources, aggregate: the platform names another channel for the 6th title',
    platform: (view) => {
      const row = view.source.all?.[5];
      if (!row) throw new Error('demo scenario: fewer than six sources');
      row.channel = row.channel === '知乎' ? '搜狐' : '知乎';
    },
    expected: FAILS(11),
  }),
  derive(A_MONITOR, {
    label: 'drift-a-source-tie-swap',
    projectId: '101309',
    description:
      'related sources, aggregate: the HTML prints two titles with equal cited counts (#4, #5) in swapped order',
    html: (data) => {
      const list = data.brand.source_top30;
      const [a, b] = [list[3], list[4]];
      if (!a || !b || a.cite_count !== b.cite_count) throw new Error('demo scenario: #4 and #5 are not tied');
      [list[3], list[4]] = [b, a];
      return data;
    },
    expected: FAILS(12),
  }),
];

/**
 * Nightly scenarios (README.md § Run it nightly in CI): served on every date of the demo's window
 * like the bundled runs (demo/dates.ts), templated with `{batchDate}`, and drifting only from
 * L1_DEMO_BREAK_FROM (default yesterday) on. `expected` is the outcome on a broken night; on the
 * nights before (and on its own fixed date) every item passes.
 */
export const NIGHTLY_SCENARIOS: readonly Scenario[] = [
  {
    ...derive(A_MONITOR, {
      label: 'nightly-drift-ranking',
      projectId: '101501',
      description:
        'Profile A monitor served every night; from L1_DEMO_BREAK_FROM on the platform swaps the rates of #1 and #2 (item 5)',
      expected: FAILS(5),
    }),
    nightly: {
      breaks: {
        platform: (view) => {
          const [first, second] = view.competitor;
          if (!first || !second) throw new Error('demo scenario: fewer than two competitor rows');
          [first.exposure_rate, second.exposure_rate] = [second.exposure_rate, first.exposure_rate];
        },
      },
    },
  },
];
