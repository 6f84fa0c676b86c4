import { checkCollection, checkItem, forEachRun, ITEMS, test } from '../fixtures';
import { COLLECTION_TITLE } from '../lib/report/allure/test-ids';
import { itemTestTitle } from '../lib/rules/items';

/**
 * The report checks (docs/contract.md §6, 8): per configured run, its collection and items 3 to 12,
 * in this order, as one group. The items come from one table (lib/rules/items.ts: title, tags,
 * objective, spec sections); each test asserts its item's judged result, one step per spec step.
 * `--grep item5` runs item 5 alone, which collects and judges what it needs itself.
 *
 * Declared here, loaded through tests/checks/part-NN.spec.ts: each of those files declares one part
 * of the runs (lib/run/runs.ts `runsOfPart`, RUN_PARTS), so a Playwright worker copies one part's
 * tests per group, not the whole night's (docs/decisions.md, Speed). The tests keep this file as
 * their location: terminal lines, `--list` and Allure's test ids (which join nights) are those of
 * one file, `tests/checks.spec.ts`, whatever part a run is in. This file is not a test file itself
 * (playwright.config.ts `testMatch` takes the parts).
 */
export function declareChecks(part: number): void {
  forEachRun(part, () => {
    /**
     * @objective spec 1.2, docs/contract.md §4: log in, read the report's DATA once and call every
     * endpoint once, each validated, then judge every item once; the run is checked only when all of
     * it succeeded.
     */
    test(COLLECTION_TITLE, { tag: ['@collect'] }, async ({ run, judged, folder }) => {
      await checkCollection(run, judged, folder);
    });

    for (const spec of ITEMS)
      test(
        // eslint-disable-next-line playwright/valid-title -- the title comes from the items table
        itemTestTitle(spec),
        { tag: [...spec.tags] },
        async ({ run, judged, folder }, testInfo) => {
          await checkItem(run, judged, spec, folder, testInfo);
        },
      );
  });
}
