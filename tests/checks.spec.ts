import { forEachRun, labelRun, RunNotChecked, test } from '../fixtures';
import { item3 } from './items/item3';
import { item4 } from './items/item4';
import { item5 } from './items/item5';
import { item6 } from './items/item6';
import { item7 } from './items/item7';
import { item8 } from './items/item8';
import { item9 } from './items/item9';
import { item10 } from './items/item10';
import { item11 } from './items/item11';
import { item12 } from './items/item12';

/**
 * The report checks (docs/contract.md §6, 8): per configured run, its collection and items 3 to 12, in this
 * order, as one group (fixtures/index.ts `forEachRun`). The collection test shows in red, once,
 * why a run could not be checked; each item test of such a run fails with the same one-line
 * reason. `--grep item5` runs item 5 alone, which collects what it needs itself.
 */
forEachRun(() => {
  /**
   * @objective spec 1.2, docs/contract.md §4: log in, read the report's DATA once and call every endpoint
   * once, each validated; the run is checked only when all of it succeeded.
   */
  test('collection · report page and endpoints, once', { tag: ['@collect'] }, async ({ run, evidence }) => {
    await labelRun(run, evidence, 'item 00 · collection (page and endpoints, once)');
    await RunNotChecked.unless(run, evidence);
  });

  item3();
  item4();
  item5();
  item6();
  item7();
  item8();
  item9();
  item10();
  item11();
  item12();
});
