import { forEachRun, itemDetails, test } from '../../fixtures';
import { checkItem12 } from '../../lib/rules/sources';

forEachRun(() => {
  /**
   * @objective spec 7.8.2-7.8.5: the title at each display ordinal; platform rows stably sorted by cite_count; a different title with an equal count is a tie swap and fails.
   */
  test(
    'item 12 · related sources: title at each ordinal',
    itemDetails(12, '@sources'),
    async ({ assertItem }) => {
      await assertItem(12, checkItem12);
    },
  );
});
