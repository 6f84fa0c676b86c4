import { forEachRun, itemDetails, test } from '../../fixtures';
import { checkItem11 } from '../../lib/rules/sources';

forEachRun(() => {
  /**
   * @objective spec 7.8.1: aligned by title, channel and cited count compared; fewer than 30 platform rows compare as many as exist, only differing counts fail.
   */
  test(
    'item 11 · related sources: title, channel, cited count',
    itemDetails(11, '@sources'),
    async ({ assertItem }) => {
      await assertItem(11, checkItem11);
    },
  );
});
