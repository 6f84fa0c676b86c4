import { itemDetails, test } from '../../fixtures';
import { checkItem5 } from '../../lib/rules/ranking';

/** Declares item 5 for the run of the enclosing describe block (tests/checks.spec.ts). */
export function item5(): void {
  /**
   * @objective spec 7.6 / 9.5: the HTML 「行业露出率排行榜」 against the platform 「露出排行 · 各平台明细」, top 10 sorted by average exposure rate; 5.1 aggregate rates, 5.2 rank and name, 5.3 the six platform columns. All three steps must agree.
   */
  test('item 5 · industry exposure ranking', itemDetails(5, '@ranking'), async ({ checkItem }) => {
    await checkItem(5, checkItem5);
  });
}
