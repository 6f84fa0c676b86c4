import { itemDetails, test } from '../../fixtures';
import { checkItem8 } from '../../lib/rules/shares';

/** Declares item 8 for the run of the enclosing describe block (tests/checks.spec.ts). */
export function item8(): void {
  /**
   * @objective spec 7.3 with 「无时间」 removed (7.3.2). Aggregate and each platform.
   */
  test('item 8 · publish time shares', itemDetails(8, '@shares'), async ({ checkItem }) => {
    await checkItem(8, checkItem8);
  });
}
