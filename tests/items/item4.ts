import { itemDetails, test } from '../../fixtures';
import { checkItem4 } from '../../lib/rules/kpi';

/** Declares item 4 for the run of the enclosing describe block (tests/checks.spec.ts). */
export function item4(): void {
  /**
   * @objective spec 7.2: the last monitoring-day point of each of the six platforms against that platform's snapshot row; Profile B (9.2): the five cards per platform, `self` for a diagnosis without a multi-period trend (9.2.3).
   */
  test('item 4 · KPI points per platform', itemDetails(4, '@kpi'), async ({ checkItem }) => {
    await checkItem(4, checkItem4);
  });
}
