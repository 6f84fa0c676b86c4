import { itemDetails, test } from '../../fixtures';
import { checkItem7 } from '../../lib/rules/shares';

/** Declares item 7 for the run of the enclosing describe block (tests/checks.spec.ts). */
export function item7(): void {
  /**
   * @objective spec 7.3: at most 8 legend entries by value; percentage-or-count decision (7.3.3, 7.3.4); a 0.1 gap from dividing twice is not a failure (7.3.5). Aggregate and each platform.
   */
  test('item 7 · content type shares', itemDetails(7, '@shares'), async ({ checkItem }) => {
    await checkItem(7, checkItem7);
  });
}
