import { z } from 'zod';
import { expect, test } from './test-type';
import { batchList } from '../../demo/catalog';

/**
 * The demo implements ../shared/spec/contract.md exactly (its §4.1 batch list, read literally here, not
 * through the suite's lenient schema): what the suite accepts beyond the contract is tested by the
 * suite's own unit tests, never served by the demo as if the contract allowed it.
 */

/** Contract §4.1: `{"batchDate": "YYYY-MM-DD", "project": "<projectId>", "line"?: string, "l1CrawlBatchIds": [{"batchId": string}]}`. */
const contractItem = z.strictObject({
  batchDate: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  project: z.string().min(1),
  line: z.string().optional(),
  l1CrawlBatchIds: z.array(z.strictObject({ batchId: z.string().min(1) })),
});

const COMPANIES = [1001, 1002, 1003, 3100, 3101, 3102];

test('contract §4.1: every batch list the demo serves is items of the contract shape, the project a string (company 1002 answered it as a number)', () => {
  const offending = COMPANIES.flatMap((company) =>
    (['monitor', 'diagnosis'] as const).flatMap((type) =>
      batchList(company, type)
        .map((item, i) => ({ at: `${company} ${type} [${i}]`, result: contractItem.safeParse(item) }))
        .filter(({ result }) => !result.success)
        .map(
          ({ at, result }) =>
            `${at}: ${result.error?.issues.map((x) => `${x.path.join('.')} ${x.message}`).join('; ')}`,
        ),
    ),
  );
  expect(offending.slice(0, 5)).toEqual([]);
  expect(offending).toHaveLength(0);
});
