import type { ItemNumber, Profile } from '../../lib/rules/types';
import type { TmcDimension } from '../../lib/schema/platform';
import { r1, render, shownShares, type Json, type Plain } from './render';
import { DIMENSIONS, OPTIONS_OF, type Truth } from './truth';

/**
 * Fault classes (each flips exactly its items) and named near-misses (each flips none), docs/rules.md
 * § Generated cases. `make` returns the plain case, or undefined when the truth does not allow it (the case is
 * then discarded, fc.pre).
 */
export interface Variation {
  name: string;
  /** The items that must fail; empty for a near-miss. */
  items(pick: number): ItemNumber[];
  profiles: Profile[];
  make(t: Truth, profile: Profile, pick: number): Plain | undefined;
}

const ITEM_OF: Record<TmcDimension, ItemNumber> = {
  content_type: 7,
  publish_time: 8,
  media_category: 9,
  media_name: 10,
};
export const dimensionOf = (pick: number) => DIMENSIONS[pick % 4]!;
export const optionOf = (t: Truth, pick: number) => OPTIONS_OF(t)[Math.floor(pick / 4) % 7]!;
export const add = (x: number, d: number) => Math.round((x + d) * 100) / 100;
export const lastPoint = (trend: Json[]) => trend.reduce((a, b) => (b.date >= a.date ? b : a));
export const brandRows = (p: Plain) => p.competitor.filter((r) => r.kind === 'brand');
/** A position i with i+1 inside the top 10 (spec 8.2). */
export const pair = (t: Truth, pick: number) => pick % Math.min(9, t.brands.length - 1);

/** More than the profile's tolerance: A 0.06 to 0.85; B 0.25 to 1.04 (0.2 or more after rounding). */
const offBy = (profile: Profile, pick: number) =>
  ((profile === 'A' ? 0.06 : 0.25) + (pick % 80) / 100) * (pick % 3 === 0 ? -1 : 1);

export const FAULTS: Variation[] = [
  {
    name: 'KPI card off by more than the tolerance (item 3)',
    items: () => [3],
    profiles: ['A', 'B'],
    make: (t, profile, pick) => {
      const p = render(t, profile);
      // Off by more than the tolerance from what the platform printed (7.1.2: > 0.05; 9.3.3: ≥ 0.2 rounded).
      const printed = p.snapshot.find((r) => r.platform === 'all').positive_rate;
      p.data.brand.summary.avg_positive_mention_rate = add(printed, offBy(profile, pick));
      return p;
    },
  },
  {
    name: 'KPI point of one platform off by more than the tolerance (item 4)',
    items: () => [4],
    profiles: ['A', 'B'],
    make: (t, profile, pick) => {
      const p = render(t, profile);
      const key = t.platforms[pick % 6]!.key;
      const platform = p.data.brand.platforms[key];
      const printed = p.snapshot.find((r) => r.platform === key).positive_rate;
      const point = lastPoint(platform.trend);
      point.positive_mention_rate = add(printed, offBy(profile, pick));
      platform.self.positive_mention_rate = point.positive_mention_rate;
      return p;
    },
  },
  {
    name: 'two ranks swapped beyond a tie (item 5)',
    items: () => [5],
    profiles: ['A', 'B'],
    make: (t, profile, pick) => {
      const p = render(t, profile);
      const rows = brandRows(p);
      const i = pair(t, pick);
      [rows[i].name, rows[i + 1].name] = [rows[i + 1].name, rows[i].name];
      return p;
    },
  },
  {
    name: 'a truncated name (item 5)',
    items: () => [5],
    profiles: ['A', 'B'],
    make: (t, profile, pick) => {
      const p = render(t, profile);
      const row = brandRows(p)[pick % Math.min(10, t.brands.length)];
      row.name = row.name.slice(0, -1);
      return p;
    },
  },
  {
    name: 'a dropped or an extra word (item 6)',
    items: () => [6],
    profiles: ['A', 'B'],
    make: (t, profile, pick) => {
      const p = render(t, profile);
      const list = ['words', 'positive', 'negative'][pick % 3]!;
      if (pick % 2 === 0 && p.wordcloud[list].length > 0)
        p.wordcloud[list].splice(pick % p.wordcloud[list].length, 1);
      else p.wordcloud[list].push({ word: '额外词', weight: 1 });
      return p;
    },
  },
  {
    name: 'a share off by 0.2 (items 7-10)',
    items: (pick) => [ITEM_OF[dimensionOf(pick)]],
    profiles: ['A', 'B'],
    make: (t, profile, pick) => {
      const p = render(t, profile);
      const [d, o] = [dimensionOf(pick), optionOf(t, pick)];
      const shown = shownShares(t.groups[o]![d], d, profile);
      const row = p.tmc.find((r) => r.platform === o && r.dimension === d && shown.has(r.name));
      if (!row) return undefined;
      row.value = r1(row.value + (pick % 2 ? 0.2 : -0.2));
      return p;
    },
  },
  {
    name: 'a missing group on the platform (items 7-10)',
    items: (pick) => [ITEM_OF[dimensionOf(pick)]],
    profiles: ['A', 'B'],
    make: (t, profile, pick) => {
      const p = render(t, profile);
      const [d, o] = [dimensionOf(pick), optionOf(t, pick)];
      if (shownShares(t.groups[o]![d], d, profile).size === 0) return undefined;
      p.tmc = p.tmc.filter((r) => !(r.platform === o && r.dimension === d));
      return p;
    },
  },
  {
    name: 'a source channel or cited count changed (item 11)',
    items: () => [11],
    profiles: ['A', 'B'],
    make: (t, profile, pick) => {
      const o = optionOf(t, pick);
      if (t.sources[o]!.length === 0) return undefined;
      const p = render(t, profile);
      const rows = p.sources[o]!;
      if (pick % 2) rows[pick % Math.min(30, rows.length)].channel = '别的渠道';
      else rows[0].cite_count += 1 + (pick % 5); // the first stays first: item 12 unchanged
      return p;
    },
  },
  {
    name: 'a tie swap in sources (item 12)',
    items: () => [12],
    profiles: ['A', 'B'],
    make: (t, profile, pick) => {
      const o = optionOf(t, pick);
      const n = Math.min(30, t.sources[o]!.length);
      if (n < 2) return undefined;
      const i = pick % (n - 1);
      const sources = t.sources[o]!.map((s) => ({ ...s }));
      sources[i + 1]!.count = sources[i]!.count;
      const p = render({ ...t, sources: { ...t.sources, [o]: sources } }, profile);
      const rows = p.sources[o]!;
      [rows[i], rows[i + 1]] = [rows[i + 1], rows[i]];
      return p;
    },
  },
  {
    name: 'a product row leaking into the Profile B brand ranking (item 5)',
    items: () => [5],
    profiles: ['B'],
    make: (t, profile) => {
      const p = render(t, profile);
      p.competitor.find((r) => r.kind === 'product').kind = 'brand';
      return p;
    },
  },
  {
    name: 'the Profile A media-type rule used in a Profile B report (item 9)',
    items: () => [9],
    profiles: ['B'],
    make: (t, profile, pick) => {
      const o = optionOf(t, pick);
      const group = t.groups[o]!.media_category;
      const a = shownShares(group, 'media_category', 'A');
      const b = shownShares(group, 'media_category', 'B');
      if (![...a].some(([name, x]) => Math.abs(r1(x) - r1(b.get(name)!)) >= 0.2)) return undefined;
      const p = render(t, profile);
      for (const r of p.tmc)
        if (r.platform === o && r.dimension === 'media_category' && a.has(r.name))
          r.value = r1(a.get(r.name)!);
      return p;
    },
  },
];
