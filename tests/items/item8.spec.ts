import { forEachRun, itemDetails, test } from '../../fixtures';
import { checkItem8 } from '../../lib/rules/shares';

forEachRun(() => {
  /**
   * @objective spec 7.3 with 「无时间」 removed (7.3.2). Aggregate and each platform.
   */
  test('item 8 · publish time shares', itemDetails(8, '@shares'), async ({ assertItem }) => {
    await assertItem(8, checkItem8);
  });
});
