import { add, optionOf, pair, type Variation } from './faults';
import { r1, render, shownShares } from './render';

/** Named near-misses (docs/rules.md § Generated cases): each must flip no item. */
export const NEAR_MISSES: Variation[] = [
  {
    name: '0.05 in Profile A (7.1.2)',
    items: () => [],
    profiles: ['A'],
    make: (t, profile) => {
      const p = render(t, profile);
      const all = p.snapshot.find((r) => r.platform === 'all');
      p.data.brand.summary.avg_positive_mention_rate = add(all.positive_rate, 0.05);
      return p;
    },
  },
  {
    name: '0.1 after rounding in Profile B (9.3.2)',
    items: () => [],
    profiles: ['B'],
    make: (t, profile, pick) => {
      const p = render(t, profile);
      const all = p.snapshot.find((r) => r.platform === 'all');
      p.data.brand.summary.avg_positive_mention_rate = add(all.positive_rate, 0.1 + (pick % 5) / 100);
      return p;
    },
  },
  {
    name: '9.3.4: the platform prints an integer brand exposure rate',
    items: () => [],
    profiles: ['B'],
    make: (t, profile, pick) => {
      const p = render(t, profile);
      const html = Math.floor(t.kpi['all']!.brandExposure) + 0.6 + (pick % 4) / 10; // .6 to .9
      p.data.overall.brand_level_exposure_rate = html;
      p.snapshot.find((r) => r.platform === 'all').brand_exposure_rate = Math.round(html);
      return p;
    },
  },
  {
    name: '7.3.5: 52.1 against 52 (an HTML percentage group divided twice on the platform)',
    items: () => [],
    profiles: ['A', 'B'],
    make: (t, profile) => {
      const p = render(t, profile);
      const group = t.groups['all']!.content_type;
      const values = group.entries.map((e) => e.tenths / 10);
      values[values.indexOf(Math.max(...values))]! += 0.2;
      const sum = values.reduce((a, b) => a + b, 0);
      p.data.brand.tmc_aggregate.content_type = group.entries.map((e, i) => ({
        name: e.name,
        value: values[i],
      }));
      const printed = values.map((v) => r1((v / sum) * 100));
      if (values.some((v, i) => Math.abs(r1(v) - printed[i]!) > 0.1 + 1e-9)) return undefined;
      for (const r of p.tmc)
        if (r.platform === 'all' && r.dimension === 'content_type')
          r.value = printed[group.entries.findIndex((e) => e.name === r.name)];
      return p;
    },
  },
  {
    name: '7.6: an empty HTML cell against 「-」',
    items: () => [],
    profiles: ['A', 'B'],
    make: (t, profile, pick) => {
      const j = pick % 6;
      const b = pick % Math.min(10, t.brands.length);
      const brands = t.brands.map((x, i) =>
        i === b ? { ...x, perPlatform: x.perPlatform.map((v, k) => (k === j ? null : v)) } : x,
      );
      return render({ ...t, brands }, profile);
    },
  },
  {
    name: '7.3.2: 「无时间」 on either side',
    items: () => [],
    profiles: ['A', 'B'],
    make: (t, profile, pick) => {
      const o = optionOf(t, pick);
      const group = t.groups[o]!.publish_time;
      const entries = [...group.entries.filter((e) => e.name !== '无时间')];
      const p = render(
        { ...t, groups: { ...t.groups, [o]: { ...t.groups[o]!, publish_time: { ...group, entries } } } },
        profile,
      );
      const html = o === 'all' ? p.data.brand.tmc_aggregate : p.data.brand.platforms[o].citation;
      // The HTML's 「无时间」 is of the group's kind (docs/rules.md §D17 reads the group with it): any count
      // in a count group; in a percentage group its own share, so the whole group sums to about 100.
      const keptSum = entries.reduce((a, e) => a + e.tenths, 0) / 10;
      const noTime =
        group.mode === 'count' ? 1 + (pick % 5000) : keptSum < 100 ? r1(100 - keptSum) : (pick % 15) / 10;
      html.publish_time = [...html.publish_time, { name: '无时间', value: noTime }];
      if (pick % 2)
        p.tmc.push({ platform: o, dimension: 'publish_time', name: '无时间', value: r1((pick % 900) / 10) });
      // Renormalise what the platform prints: 无时间 was part of the drawn group only in the truth.
      const shown = shownShares({ ...group, entries }, 'publish_time', profile);
      for (const r of p.tmc)
        if (r.platform === o && r.dimension === 'publish_time' && shown.has(r.name))
          r.value = r1(shown.get(r.name)!);
      return p;
    },
  },
  {
    name: '7.7.2: both negative lists empty (「未监测到负面词」 = 「中正面率100%,暂无负面词」)',
    items: () => [],
    profiles: ['A', 'B'],
    make: (t, profile) => render({ ...t, words: { ...t.words, negative: [] } }, profile),
  },
  {
    name: '9.5.5: a Profile B tie swap within 0.05',
    items: () => [],
    profiles: ['B'],
    make: (t, profile, pick) => {
      const i = pair(t, pick);
      const brands = t.brands.map((b) => ({ ...b }));
      brands[i + 1]!.rate = add(brands[i]!.rate, -0.03);
      const p = render({ ...t, brands }, profile);
      const rows = p.competitor;
      rows[i + 1].exposure_rate = rows[i].exposure_rate;
      [rows[i], rows[i + 1]] = [rows[i + 1], rows[i]];
      return p;
    },
  },
  {
    name: 'contract §5/§6: an optional aggregate group on neither side (not compared)',
    items: () => [],
    profiles: ['A', 'B'],
    make: (t, profile, pick) => {
      const p = render(t, profile);
      const dimension = (['content_type', 'publish_time', 'media_name'] as const)[pick % 3]!;
      delete p.data.brand.tmc_aggregate[dimension];
      p.tmc = p.tmc.filter((r) => !(r.platform === 'all' && r.dimension === dimension));
      return p;
    },
  },
  {
    name: '7.6: equal rates in printed order',
    items: () => [],
    profiles: ['A', 'B'],
    make: (t, profile, pick) => {
      const i = pair(t, pick);
      if (t.brands[i]!.name === t.brand || t.brands[i + 1]!.name === t.brand) return undefined;
      const brands = t.brands.map((b) => ({ ...b }));
      brands[i + 1]!.rate = brands[i]!.rate;
      return render({ ...t, brands }, profile);
    },
  },
];
