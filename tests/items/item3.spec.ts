import { forEachRun, itemDetails, test } from '../../fixtures';
import { checkItem3 } from '../../lib/rules/kpi';

forEachRun(() => {
  /**
   * @objective spec 7.2 (Profile A: exposure, top-3 and positive rates of `summary` against the snapshot `all` row, 7.1 tolerance) and 9.2 (Profile B: the five fixed cards, 9.3 rounding; 9.3.4 integer rule for brand exposure; position_rate never used).
   */
  test('item 3 · KPI cards, aggregate', itemDetails(3, '@kpi'), async ({ assertItem }) => {
    await assertItem(3, checkItem3);
  });
});
