import { itemDetails, test } from '../../fixtures';
import { checkItem6 } from '../../lib/rules/wordcloud';

/** Declares item 6 for the run of the enclosing describe block (tests/checks.spec.ts). */
export function item6(): void {
  /**
   * @objective spec 7.7: one aggregate word set on both sides whatever the platform option; all, positive and negative words compared as sets; the empty-state texts of 7.7.2 are equivalent.
   */
  test('item 6 · word cloud', itemDetails(6, '@wordcloud'), async ({ checkItem }) => {
    await checkItem(6, checkItem6);
  });
}
