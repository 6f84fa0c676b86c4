import { itemDetails, test } from '../../fixtures';
import { checkItem12 } from '../../lib/rules/sources';

/** Declares item 12 for the run of the enclosing describe block (tests/checks.spec.ts). */
export function item12(): void {
  /**
   * @objective spec 7.8.2-7.8.5: the title at each display ordinal; platform rows stably sorted by cite_count; a different title with an equal count is a tie swap and fails.
   */
  test(
    'item 12 · related sources: title at each ordinal',
    itemDetails(12, '@sources'),
    async ({ checkItem }) => {
      await checkItem(12, checkItem12);
    },
  );
}
