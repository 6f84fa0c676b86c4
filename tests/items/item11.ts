import { itemDetails, test } from '../../fixtures';
import { checkItem11 } from '../../lib/rules/sources';

/** Declares item 11 for the run of the enclosing describe block (tests/checks.spec.ts). */
export function item11(): void {
  /**
   * @objective spec 7.8.1: aligned by title, channel and cited count compared; fewer than 30 platform rows compare as many as exist, only differing counts fail.
   */
  test(
    'item 11 · related sources: title, channel, cited count',
    itemDetails(11, '@sources'),
    async ({ checkItem }) => {
      await checkItem(11, checkItem11);
    },
  );
}
