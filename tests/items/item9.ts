import { itemDetails, test } from '../../fixtures';
import { checkItem9 } from '../../lib/rules/shares';

/** Declares item 9 for the run of the enclosing describe block (tests/checks.spec.ts). */
export function item9(): void {
  /**
   * @objective spec 7.4 (Profile A: drop 「其他」「未知」 and recompute; platform top-10 bar with the 101.5 rule) and 9.4 (Profile B: the denominator includes 「其他」「未知」).
   */
  test('item 9 · media type shares', itemDetails(9, '@shares'), async ({ checkItem }) => {
    await checkItem(9, checkItem9);
  });
}
