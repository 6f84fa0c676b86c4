import { expect, test } from '@playwright/test';
import fc from 'fast-check';
import { ITEM_RULES } from '../../lib/rules';
import { ITEM_NUMBERS, type ItemNumber, type Profile, type RuleContext } from '../../lib/rules/types';
import { encode, encodingArb, PLAIN, toContext, type Encoding } from './generated/encode';
import { FAULTS, type Variation } from './generated/faults';
import { NEAR_MISSES } from './generated/near-misses';
import { render, type Plain } from './generated/render';
import { truthArb, type Truth } from './generated/truth';

/**
 * Generated cases (docs/rules.md, Deliver 2): one truth per case, rendered into DATA and platform answers,
 * encoded every way the contract permits, parsed by the real schemas and judged by the rules directly
 * (no browser). fc.assert prints the seed and the shrunk counterexample of a failing case: replay with
 * `fc.assert(..., { seed, path })`. The counts of passed cases are printed at the end.
 */

const RUNS = { invariance: 300, sensitivity: 400, nearMiss: 240 };
const passed = { invariance: 0, sensitivity: 0, nearMiss: 0 };

/** The failing items of a case: its verdicts, reduced to what the properties compare. */
function failing(ctx: RuleContext): ItemNumber[] {
  return ITEM_NUMBERS.filter((n) => ITEM_RULES[n](ctx).verdict === 'fail');
}

function judge(t: Truth, plain: Plain, enc: Encoding, profile: Profile): ItemNumber[] {
  return failing(toContext(encode(plain, enc, profile), profile, 'brand', t.reportType));
}

const profileArb = fc.constantFrom<Profile>('A', 'B');

/** A variation with a profile it applies to, and a pick for its choices. */
const variationArb = (variations: Variation[]) =>
  fc
    .record({ v: fc.constantFrom(...variations), profile: profileArb, pick: fc.nat({ max: 100_000 }) })
    .filter(({ v, profile }) => v.profiles.includes(profile));

test.describe('generated cases (fast-check): invariance, sensitivity, near-misses', () => {
  test.describe.configure({ mode: 'default' });
  test.setTimeout(60_000);

  test.afterAll(() => {
    console.log(
      `generated: invariance ${passed.invariance} cases passed, sensitivity ${passed.sensitivity} cases passed, near-miss ${passed.nearMiss} passed`,
    );
  });

  test('invariance: a clean truth passes all ten items in both profiles, under every permitted encoding (docs/contract.md §4, 4.2, 5)', () => {
    fc.assert(
      fc.property(truthArb, encodingArb, profileArb, (t, enc, profile) => {
        const plain = render(t, profile);
        const plainVerdict = judge(t, plain, PLAIN, profile);
        expect(plainVerdict, `plain encoding, profile ${profile}`).toEqual([]);
        expect(judge(t, plain, enc, profile), `encoding ${JSON.stringify({ ...enc, unused: '…' })}`).toEqual(
          plainVerdict,
        );
        passed.invariance++;
      }),
      { numRuns: RUNS.invariance },
    );
  });

  test('sensitivity: each fault class flips exactly its item (spec 7.1-7.8, 9.2-9.5)', () => {
    fc.assert(
      fc.property(truthArb, encodingArb, variationArb(FAULTS), (t, enc, { v, profile, pick }) => {
        const plain = v.make(t, profile, pick);
        fc.pre(plain !== undefined);
        expect(judge(t, plain!, enc, profile), `${v.name}, profile ${profile}`).toEqual(v.items(pick));
        passed.sensitivity++;
      }),
      { numRuns: RUNS.sensitivity },
    );
  });

  test('near-misses flip nothing: 0.05 in A, 0.1 after rounding in B, 9.3.4, 52.1 vs 52, 「-」 vs empty, 无时间, 7.7.2, B tie swaps, equal rates', () => {
    fc.assert(
      fc.property(truthArb, encodingArb, variationArb(NEAR_MISSES), (t, enc, { v, profile, pick }) => {
        const plain = v.make(t, profile, pick);
        fc.pre(plain !== undefined);
        expect(judge(t, plain!, enc, profile), `${v.name}, profile ${profile}`).toEqual([]);
        passed.nearMiss++;
      }),
      { numRuns: RUNS.nearMiss },
    );
  });

  test('every fault class and near-miss was drawn (no family silently empty)', () => {
    const drawn = fc.sample(fc.tuple(variationArb([...FAULTS, ...NEAR_MISSES])), 2000).map(([x]) => x.v.name);
    for (const v of [...FAULTS, ...NEAR_MISSES]) expect(drawn, v.name).toContain(v.name);
  });
});
