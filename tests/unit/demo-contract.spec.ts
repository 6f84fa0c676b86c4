import { z } from 'zod';
import { expect, test } from './test-type';
import { batchList } from '../../demo/catalog';
import { allModelProjects, modelAnswers } from '../../demo/model/projects';

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

/** Contract §4.2 rates: a number, a numeric string with an optional `%`, or one of the kinds of empty. */
const rate = z.union([
  z.number().finite(),
  z.string().regex(/^-?\d+(\.\d+)?([eE][-+]?\d+)?%?$/),
  z.null(),
  z.literal(''),
  z.literal('-'),
]);
/** Contract §4: bare, or wrapped with code 0 | 200 (numbers) and `msg` | `message`. */
const answer = (payload: z.ZodType) =>
  z.union([
    payload,
    z.object({ code: z.union([z.literal(0), z.literal(200)]), msg: z.string(), data: payload }),
    z.object({ code: z.union([z.literal(0), z.literal(200)]), message: z.string(), data: payload }),
  ]);
const rows = (row: z.ZodType) => answer(z.object({ rows: z.array(row) }));
const snapshotRow = z.object({
  platform: z.string(),
  ...Object.fromEntries(
    [
      'exposure_rate',
      'top3_rate',
      'top5_rate',
      'first_position_rate',
      'top1_rate',
      'position_rate',
      'positive_rate',
      'brand_exposure_rate',
      'product_link_rate',
    ].map((key) => [key, rate.optional()]),
  ),
  crawlBatchId: z.string(),
});
const competitorRow = z.object({
  kind: z.enum(['brand', 'product']),
  name: z.string(),
  rank: z.number().int(),
  exposure_rate: rate,
  platform_rates: z.array(z.object({ name: z.string(), rate })).length(6),
});
const word = z.object({ word: z.string(), weight: z.number() });
const named = (key: string) => z.array(z.object({ name: z.string(), [key]: rate }));
/** Contract §5: the typed fields a generated case could draw in another shape. */
const dataTyped = z.object({
  meta: z.object({ mode: z.enum(['full', 'simple']).optional(), line: z.string().optional() }),
  core_product_competitors: named('avg_exposure_rate').optional(),
  product_ranking: z.union([named('exposure_rate'), z.record(z.string(), named('exposure_rate'))]).optional(),
});
const served = {
  snapshot: rows(snapshotRow),
  competitor: rows(competitorRow),
  tmc: rows(
    z.object({
      platform: z.string(),
      dimension: z.enum(['content_type', 'publish_time', 'media_category', 'media_name']),
      name: z.string(),
      value: rate,
    }),
  ),
  wordcloud: answer(z.object({ words: z.array(word), positive: z.array(word), negative: z.array(word) })),
  data: dataTyped,
};
const sourceRows = rows(
  z.object({
    title: z.string(),
    channel: z.string(),
    cite_count: z.number().int(),
    rank: z.number().int(),
    url: z.string().optional(),
  }),
);

test('contract §4.2-§5: the generated (model) projects the demo serves answer only what the contract allows (a text code "0", a snapshot position_rate of any shape, a platform rate left out and typed DATA fields of any shape were served)', () => {
  // Every third model project of each kind: 400 cases, each drawn in its own encoding.
  const sample = [...allModelProjects()].filter((_, i) => i % 3 === 0);
  const problems = sample.flatMap((project) => {
    const answers = modelAnswers(project);
    const checked = [
      ...Object.entries(served).map(([what, schema]) => ({
        what,
        result: schema.safeParse(answers[what as keyof typeof served]),
      })),
      ...Object.entries(answers.sources).map(([key, body]) => ({
        what: `source ${key}`,
        result: sourceRows.safeParse(body),
      })),
    ];
    return checked
      .filter(({ result }) => !result.success)
      .map(
        ({ what, result }) => `${project.spec.projectId} ${what}: ${result.error?.issues[0]?.path.join('.')}`,
      );
  });
  expect(sample.length).toBeGreaterThan(300);
  expect(problems.slice(0, 5)).toEqual([]);
  expect(problems).toHaveLength(0);
});
