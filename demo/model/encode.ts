import fc from 'fast-check';
import { mulberry32, shuffle, shuffleKeepingTies } from '../prng';
import {
  ENVELOPES,
  NO_VALUES,
  printRate,
  RATE_SHAPES,
  wrap as wrapIn,
  type Envelope,
  type NoValue,
  type RateShape,
} from '../spec';
import type { Profile } from '../../lib/rules/types';
import type { Json, Plain } from './render';

/**
 * Every encoding the contract permits (docs/contract.md §4, 4.2, 5), chosen per case. A clean truth must give
 * the same verdicts under each of them as under the plain one (docs/rules.md, invariance family).
 */
export interface Encoding {
  /**
   * `fixed`: a whole number as a string with one decimal (`"36.0"`), the way a one-decimal formatter prints
   * it; JSON numbers cannot carry that form (36.0 parses as 36), strings can (spec 9.3.4, docs/rules.md §D15).
   */
  rate: RateShape | 'fixed';
  /** How "no value" is written (demo/spec.ts NO_VALUES); `absent` drops the key where the contract lets it be. */
  empty: NoValue;
  /** Per answer: an envelope of the contract (demo/spec.ts ENVELOPES), or the code as the text "0". */
  wraps: (Envelope | 'code0-text')[];
  shuffle: number[];
  rankScramble: boolean;
  /** Optional DATA fields present (docs/contract.md §5) or left out. */
  optionalPresent: boolean;
  /** Values placed in fields no check reads, any shape. */
  unused: unknown[];
}

export const PLAIN: Encoding = {
  rate: 'number',
  empty: null,
  wraps: ['bare'],
  shuffle: [],
  rankScramble: false,
  optionalPresent: true,
  unused: [],
};

export const encodingArb: fc.Arbitrary<Encoding> = fc.record({
  rate: fc.constantFrom(...RATE_SHAPES, 'fixed' as const),
  empty: fc.constantFrom(...NO_VALUES),
  wraps: fc.array(fc.constantFrom(...ENVELOPES, 'code0-text' as const), { minLength: 5, maxLength: 5 }),
  shuffle: fc.array(fc.nat(), { minLength: 8, maxLength: 8 }),
  rankScramble: fc.boolean(),
  optionalPresent: fc.boolean(),
  unused: fc.array(fc.anything({ maxDepth: 2 }), { minLength: 6, maxLength: 6 }),
});

/** Rate keys whose key must stay present (docs/contract.md §5 / lib/schema): "no value" is written, not dropped. */
const REQUIRED = new Set([
  'exposure_rate',
  'positive_mention_rate',
  'avg_exposure_rate',
  'avg_positive_mention_rate',
  'value',
]);
const RATE_KEYS = new Set([
  ...REQUIRED,
  'top3_rate',
  'top5_rate',
  'first_position_rate',
  'top1_rate',
  'positive_rate',
  'brand_exposure_rate',
  'product_link_rate',
  'avg_first_position_rate',
  'avg_top3_rate',
  'avg_top5_rate',
  'product_link',
  'brand_level_exposure_rate',
  'rate',
]);

/**
 * Rate keys the contract lets a payload or DATA leave out (`?` in ../shared/spec/contract.md §5, and
 * every snapshot rate, §4.2). A competitor's platform `rate` is not one of them: under `contract`
 * its "no value" is written as `null`, the suite's reading of a missing one is its own leniency.
 */
const MAY_BE_ABSENT_IN_CONTRACT = (key: string) => key !== 'rate';

/** Rewrites every rate of `node` in the chosen encoding (numbers as they print, String(x)). */
function encodeRates(node: Json, enc: Encoding, contract = false): Json {
  if (Array.isArray(node)) return node.map((x) => encodeRates(x, enc, contract));
  if (node === null || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    if (!RATE_KEYS.has(key)) out[key] = encodeRates(value, enc, contract);
    else if (value === null) {
      const mayDrop = !REQUIRED.has(key) && (!contract || MAY_BE_ABSENT_IN_CONTRACT(key));
      if (enc.empty === 'absent' && mayDrop) continue;
      out[key] = enc.empty === 'absent' ? null : enc.empty;
    } else if (typeof value === 'number') {
      // `fixed`: a string, with a whole number written to one decimal (the demo's way, demo/spec.ts).
      out[key] =
        enc.rate === 'fixed'
          ? printRate(Number.isInteger(value) ? value.toFixed(1) : String(value), 'string')
          : printRate(String(value), enc.rate);
    } else out[key] = value;
  }
  return out;
}

/**
 * Reorders rows (any order is the API's right), keeping the relative order of rows with an equal
 * key: the API order among equal rates (7.6) and equal cited counts (7.8.4) is meaningful. The
 * demo's tie-keeping shuffle (demo/prng.ts), seeded by the case.
 */
function reorder<T>(rows: T[], seed: number, keyOf?: (row: T) => unknown): T[] {
  const rng = mulberry32(`generated case ${seed}`);
  return keyOf ? shuffleKeepingTies(rng, rows, keyOf) : shuffle(rng, rows);
}

/**
 * The contract's envelopes (demo/spec.ts ENVELOPES, as the demo serves them), and one the suite
 * takes beyond the contract: the code as the text "0" with an empty message.
 */
function wrapAs(payload: unknown, how: Encoding['wraps'][number] | undefined, contract = false): unknown {
  // Under `contract` the drawn text code is served as the contract's number, the message kept empty.
  if (how === 'code0-text') return { code: contract ? 0 : '0', message: '', data: payload };
  return wrapIn(how ?? 'bare', payload);
}

/**
 * Optional DATA fields and fields no check reads, in the case's shapes, written into `d` (a copy of
 * its own: encodeRates makes every object and array anew).
 */
function decorateData(d: Json, enc: Encoding, profile: Profile, contract = false): Json {
  const [a, b, c, e, f, g] = enc.unused;
  if (enc.optionalPresent) {
    // meta.line is read (spec 9.1.1: it names Profile B's group), so it is text or no value.
    const line = typeof f === 'string' ? f : null;
    Object.assign(d.meta, { report_type: a, topic: 'T1', company_id: b, mode: c, batch_date: e, line });
    d.meta.platforms.forEach((p: Json) => (p.short_name = g));
    d.brand.wordcloud.words.forEach((w: Json) => (w.weight = a));
    d.brand.source_top30.forEach((s: Json) => (s.url = b));
    // Contract §5 types these (mode "full" | "simple", line a string, the product fields their
    // lists): under `contract` a drawn value of another shape is not written.
    if (!contract) Object.assign(d, { core_product_competitors: c, product_ranking: e });
    if (contract && c !== 'full' && c !== 'simple') delete d.meta.mode;
    if (contract && line === null) delete d.meta.line;
    d.extra = f;
  } else {
    if (d.meta.position_metric === 'top3') delete d.meta.position_metric; // docs/contract.md §5: default top3
    if (profile === 'A') delete d.overall;
    for (const key of Object.keys(d.brand.platforms)) {
      const citation = d.brand.platforms[key].citation;
      // Contract 6: a group the HTML lacks for a platform is not compared (items 7-12).
      if (citation.source_top30.length === 0) delete citation.source_top30;
    }
  }
  return d;
}

export interface Answers {
  data: unknown;
  snapshot: unknown;
  competitor: unknown;
  tmc: unknown;
  sources: Record<string, unknown>;
  wordcloud: unknown;
}

/**
 * `contract`: only what ../shared/spec/contract.md allows (what the demo serves, demo/model/projects.ts);
 * without it the unit families also get what the suite takes beyond it (a text code, a snapshot
 * `position_rate` of any shape, a competitor's platform rate left out, typed DATA fields of any shape).
 */
export function encode(plain: Plain, enc: Encoding, profile: Profile, contract = false): Answers {
  const [s0 = 0, s1 = 0, s2 = 0, s3 = 0] = enc.shuffle;
  const junk = enc.unused[0];
  const rank = (rows: Json[]) =>
    enc.rankScramble ? rows.map((r, i) => ({ ...r, rank: (i * 7919 + 13) % 97 })) : rows;
  // Contract §4.2 types a snapshot's position_rate as a rate: under `contract` it is left as rendered.
  const junkRate = contract ? {} : { position_rate: junk };
  const unusedRowFields = (rows: Json[]) =>
    enc.unused.length ? rows.map((r) => ({ ...r, ...junkRate, extra_field: enc.unused[1] })) : rows;
  const rows = (table: Json[]) => ({ rows: encodeRates(table, enc, contract) });
  const wrap = (payload: unknown, how: Encoding['wraps'][number] | undefined) =>
    wrapAs(payload, how, contract);
  return {
    // Decorated after its rates are encoded, into the copy encodeRates made (a deep clone first was
    // a sixth of the generated families' time): what decorateData adds holds no rate a check reads.
    data: decorateData(encodeRates(plain.data, enc, contract), enc, profile, contract),
    snapshot: wrap(rows(unusedRowFields(reorder(plain.snapshot, s0))), enc.wraps[0]),
    competitor: wrap(
      rows(rank(reorder(plain.competitor, s1, (r) => `${r.kind}:${r.exposure_rate}`))),
      enc.wraps[1],
    ),
    tmc: wrap(rows(reorder(plain.tmc, s2)), enc.wraps[2]),
    sources: Object.fromEntries(
      Object.entries(plain.sources).map(([k, v]) => [
        k,
        wrap(rows(rank(reorder(v, s3 + k.length, (r) => r.cite_count))), enc.wraps[3]),
      ]),
    ),
    wordcloud: wrap(plain.wordcloud, enc.wraps[4]),
  };
}
