import { forEachRun, itemDetails, test } from '../../fixtures';
import { checkItem7 } from '../../lib/rules/shares';

forEachRun(() => {
  /**
   * @objective spec 7.3: at most 8 legend entries by value; percentage-or-count decision (7.3.3, 7.3.4); a 0.1 gap from dividing twice is not a failure (7.3.5). Aggregate and each platform.
   */
  test('item 7 · content type shares', itemDetails(7, '@shares'), async ({ assertItem }) => {
    await assertItem(7, checkItem7);
  });
});
