import fc from 'fast-check';
import type { Profile } from '../../../lib/rules/types';
import { RATE_MAX } from '../../../lib/schema/rate';
import { FAULTS, type Variation } from '../../../demo/model/faults';
import { r1, render, type Json, type Plain } from '../../../demo/model/render';
import { DIMENSIONS, OPTIONS_OF, truthArb, type Source, type Truth } from '../../../demo/model/truth';

/**
 * Generated cases for the special clauses an audit found judged against the spec's words (docs/rules.md
 * 9.5.5, §D13, §D17): each builds on a generated truth (./truth.ts) and says what must hold.
 */

/** A permutation of 0 … n-1 from a list of random keys (stable for equal keys). */
const permutation = (keys: readonly number[], n: number): number[] =>
  Array.from({ length: n }, (_, i) => i).sort((a, b) => (keys[a] ?? 0) - (keys[b] ?? 0) || a - b);

/** A run of brands of the truth's ranking, inside the top 10: first index and length. */
function runOf(t: Truth, start: number, length: number): { i: number; k: number } | undefined {
  const k = Math.min(length, t.brands.length, 10);
  if (k < 2) return undefined;
  return { i: start % (Math.min(10, t.brands.length) - k + 1), k };
}

/**
 * The brands of `run` get the HTML rates `base - offsets[j]` (offsets in hundredths), and the platform
 * rows come in the API order `apiOrder` (indexes into the run). `platform: 'alike'` prints them all as
 * one value, round1 of the run's top rate (a platform that prints one decimal, 7.1.1); `'chain'` gives
 * the brand at API position m the rate `base - offsets[m]`, so the platform orders them as the API does,
 * each pair as far apart as on the HTML side. The truth keeps its rates 0.31 apart, so no brand outside
 * the run ties with it.
 */
function withRun(
  t: Truth,
  profile: Profile,
  run: { i: number; k: number },
  offsets: number[],
  apiOrder: number[],
  platform: 'alike' | 'chain' = 'alike',
): Plain {
  const base = t.brands[run.i]!.rate;
  const at = (m: number) => Math.round(base * 100 - offsets[m]!) / 100;
  const brands = t.brands.map((b, j) =>
    j >= run.i && j < run.i + run.k ? { ...b, rate: at(j - run.i) } : b,
  );
  const p = render({ ...t, brands }, profile);
  const rows: Json[] = p.competitor.slice(run.i, run.i + run.k);
  const ordered = apiOrder.map((j) => rows[j]!);
  ordered.forEach((r, m) => (r.exposure_rate = platform === 'alike' ? r1(base) : at(m)));
  p.competitor.splice(run.i, run.k, ...ordered);
  return p;
}

/**
 * Spec 9.5.5 (Profile B): brands whose HTML rates are within 0.09 of each other (pairs within 0.05 and
 * pairs apart) and that the platform prints alike, in any order on either side: the platform side does
 * not order them, so every swap is a tie swap, and each rate is within 9.3 of the one print (0.09 below
 * a rate never rounds more than 0.1 below its round1). `baseline` is the same run unpermuted.
 */
export const tiedRunArb = fc
  .record({
    t: truthArb,
    start: fc.nat(),
    length: fc.integer({ min: 2, max: 5 }),
    offsets: fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 5, maxLength: 5 }),
    htmlKeys: fc.array(fc.nat(), { minLength: 5, maxLength: 5 }),
    apiKeys: fc.array(fc.nat(), { minLength: 5, maxLength: 5 }),
  })
  .map(({ t, start, length, offsets, htmlKeys, apiKeys }) => {
    const run = runOf(t, start, length);
    if (!run) return undefined;
    const sorted = offsets.slice(0, run.k).sort((a, b) => a - b);
    const shuffled = permutation(htmlKeys, run.k).map((j) => sorted[j]!);
    const identity = Array.from({ length: run.k }, (_, j) => j);
    return {
      t,
      run,
      baseline: withRun(t, 'B', run, sorted, identity),
      permuted: withRun(t, 'B', run, shuffled, permutation(apiKeys, run.k)),
    };
  });

/**
 * Spec 9.5.5: a chain of brands, each within 0.05 of its HTML neighbour, whose first and last are more
 * than 0.05 apart (span 0.06 to 0.09); the platform gives the same chain of rates in the API order,
 * which swaps at least one pair more than 0.05 apart on both sides. Wherever the other brands of the
 * chain lie, step 5.2 must fail.
 */
export const untiedSwapArb = fc
  .record({
    t: truthArb,
    profile: fc.constantFrom<Profile>('A', 'B'),
    start: fc.nat(),
    length: fc.integer({ min: 3, max: 5 }),
    steps: fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 4, maxLength: 4 }),
    apiKeys: fc.array(fc.nat(), { minLength: 5, maxLength: 5 }),
  })
  .map(({ t, profile, start, length, steps, apiKeys }) => {
    const run = runOf(t, start, length);
    if (!run || run.k < 3) return undefined;
    const offsets = [0];
    for (const s of steps.slice(0, run.k - 1)) offsets.push(offsets.at(-1)! + s);
    const span = offsets.at(-1)!;
    if (span <= 5 || span > 9) return undefined;
    const order = permutation(apiKeys, run.k);
    const at = (j: number) => order.indexOf(j);
    // x above y on the HTML side and below it on the platform side, more than 0.05 apart on each.
    const untied = offsets.flatMap((a, x) =>
      offsets.flatMap((b, y) =>
        x < y && b - a > 5 && at(x) > at(y) && offsets[at(x)]! - offsets[at(y)]! > 5 ? [[x, y]] : [],
      ),
    );
    if (untied.length === 0) return undefined;
    return { t, profile, run, offsets, order, plain: withRun(t, profile, run, offsets, order, 'chain') };
  });

/**
 * Spec 9.5.5 and 7.6: the chain of `untiedSwapArb` printed alike by the platform (one decimal), in an
 * API order that swaps a pair more than 0.05 apart on the HTML side: the platform side does not order
 * them, so step 5.2 passes by tie swaps in Profile B, and fails in Profile A, which has no allowance.
 */
export const alikeSwapArb = untiedSwapArb.map((c) =>
  c ? { ...c, plain: withRun(c.t, c.profile, c.run, c.offsets, c.order, 'alike') } : undefined,
);

/** Items 7-10: a share fault or none, so the property covers failing verdicts too. */
const SHARE_FAULTS: (Variation | undefined)[] = [
  undefined,
  ...FAULTS.filter((f) => f.items(0).some((n) => n >= 7 && n <= 10)),
];

/**
 * Spec 7.3.4: every count of every HTML count group (total 1000 × factor, far above 100) multiplied by
 * k ≥ 1. Count groups stay counts and their shares stay the same; `scaled` is `plain` so changed.
 */
export const scaledCountsArb = fc
  .record({
    t: truthArb,
    profile: fc.constantFrom<Profile>('A', 'B'),
    fault: fc.constantFrom(...SHARE_FAULTS),
    pick: fc.nat({ max: 100_000 }),
    k: fc.oneof(fc.integer({ min: 1, max: 100 }), fc.double({ min: 1, max: 100, noNaN: true })),
  })
  .map(({ t, profile, fault, pick, k }) => {
    const plain = fault ? fault.make(t, profile, pick) : render(t, profile);
    if (!plain) return undefined;
    const scaled = structuredClone(plain);
    const groups: Json[][] = [];
    for (const option of OPTIONS_OF(t))
      for (const d of DIMENSIONS) {
        if (t.groups[option]![d].mode !== 'count') continue;
        const html =
          option === 'all' ? scaled.data.brand.tmc_aggregate : scaled.data.brand.platforms[option].citation;
        groups.push(html[d]);
      }
    // Any k ≥ 1 that keeps every count within half of what a value may be (lib/schema/rate.ts
    // RATE_MAX: beyond it a count is refused; half, so that binary rounding never crosses it).
    const largest = Math.max(1, ...groups.flatMap((g) => g.map((e) => Math.abs(Number(e.value)) || 0)));
    const factor = Math.max(1, Math.min(k, RATE_MAX / 2 / largest));
    for (const g of groups) for (const e of g) e.value = e.value * factor;
    return { t, profile, k: factor, fault: fault?.name ?? 'none', plain, scaled };
  });

/**
 * Spec 7.8.5: one platform option's sources with ties, the rows at ordinals `ordinal` and `ordinal + 1`
 * given equal cited counts and swapped by the platform (API order). `ordinal` runs from 1 to 30; at 30
 * the second title is the 31st, beyond the compared rows.
 */
export const sourceTieArb = fc
  .record({
    t: truthArb,
    profile: fc.constantFrom<Profile>('A', 'B'),
    option: fc.nat({ max: 6 }),
    ordinal: fc.oneof(fc.constant(30), fc.integer({ min: 1, max: 29 })),
    extra: fc.integer({ min: 0, max: 10 }),
    gaps: fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 41, maxLength: 41 }),
  })
  .map(({ t, profile, option, ordinal, extra, gaps }) => {
    const o = OPTIONS_OF(t)[option]!;
    const n = ordinal + 1 + extra;
    let count = 1 + gaps.slice(0, n).reduce((a, g) => a + g, 0);
    const sources: Source[] = gaps.slice(0, n).map((g, i) => {
      const s = { title: `${o}·来源${i + 1}`, channel: '新闻', count };
      count -= g;
      return s;
    });
    sources[ordinal]!.count = sources[ordinal - 1]!.count;
    const p = render({ ...t, sources: { ...t.sources, [o]: sources } }, profile);
    const rows = p.sources[o]!;
    [rows[ordinal - 1], rows[ordinal]] = [rows[ordinal], rows[ordinal - 1]];
    return { t, profile, option: o, ordinal, plain: p };
  });

/**
 * Spec 7.3.3 / 7.3.4 (docs/rules.md §D17): one legend group of the report (content type or publish time,
 * 「无时间」 included) with values whose positive sum is 1 to 98, far below the window; the platform prints
 * the truth's shares. Whatever the verdict, the reading must be said on that step and on its share rows.
 */
export const smallGroupArb = fc
  .record({
    t: truthArb,
    profile: fc.constantFrom<Profile>('A', 'B'),
    option: fc.nat({ max: 6 }),
    dimension: fc.constantFrom('content_type' as const, 'publish_time' as const),
    sum: fc.integer({ min: 1, max: 98 }),
  })
  .map(({ t, profile, option, dimension, sum }) => {
    const o = OPTIONS_OF(t)[option]!;
    const p = render(t, profile);
    const html = o === 'all' ? p.data.brand.tmc_aggregate : p.data.brand.platforms[o].citation;
    html[dimension] = t.groups[o]![dimension].entries.map((e) => ({
      name: e.name,
      value: Math.round((e.tenths * sum) / 10) / 100,
    }));
    return { t, profile, option: o, dimension, sum, plain: p };
  });
