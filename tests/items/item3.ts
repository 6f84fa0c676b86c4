import { itemDetails, test } from '../../fixtures';
import { checkItem3 } from '../../lib/rules/kpi';

/** Declares item 3 for the run of the enclosing describe block (tests/checks.spec.ts). */
export function item3(): void {
  /**
   * @objective spec 7.2 (Profile A: exposure, top-3 and positive rates of `summary` against the snapshot `all` row, 7.1 tolerance) and 9.2 (Profile B: the five fixed cards, 9.3 rounding; 9.3.4 integer rule for brand exposure; position_rate never used).
   */
  test('item 3 · KPI cards, aggregate', itemDetails(3, '@kpi'), async ({ checkItem }) => {
    await checkItem(3, checkItem3);
  });
}
