import { forEachRun, itemDetails, test } from '../../fixtures';
import { checkItem10 } from '../../lib/rules/shares';

forEachRun(() => {
  /**
   * @objective spec 7.5: shares after removing 「其他」「未知」, top 10, against the platform bar chart rule.
   */
  test('item 10 · media name shares', itemDetails(10, '@shares'), async ({ assertItem }) => {
    await assertItem(10, checkItem10);
  });
});
