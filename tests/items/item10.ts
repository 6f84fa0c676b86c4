import { itemDetails, test } from '../../fixtures';
import { checkItem10 } from '../../lib/rules/shares';

/** Declares item 10 for the run of the enclosing describe block (tests/checks.spec.ts). */
export function item10(): void {
  /**
   * @objective spec 7.5: shares after removing 「其他」「未知」, top 10, against the platform bar chart rule.
   */
  test('item 10 · media name shares', itemDetails(10, '@shares'), async ({ checkItem }) => {
    await checkItem(10, checkItem10);
  });
}
