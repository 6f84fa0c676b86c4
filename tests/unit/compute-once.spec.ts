import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from './test-type';
import type { z } from 'zod';
import { A_MONITOR, B_DIAGNOSIS, B_MONITOR } from '../../demo/runs';
import { collectRun } from '../../lib/platform/collect';
import { judge, readJudged, writeJudged } from '../../lib/report/judged';
import { ITEM_RULES } from '../../lib/rules';
import { ITEM_NUMBERS, type ItemNumber } from '../../lib/rules/types';
import { ROOT } from '../../lib/run/settings';
import { dataSchema } from '../../lib/schema/data';
import {
  batchItem as batchItemSchema,
  batchList,
  COMPETITOR_TABLES,
  metricsTables,
  wordcloudPayload,
} from '../../lib/schema/platform';
import { productLevelSchema } from '../../lib/schema/product';
import { batchItem, configuredRun, fakeDeps, platformFor, viewsOf } from './fakes/platform';
import { demoCollector, lightDemo } from './fakes/demo';
import { tempDir } from './fakes/temp';

/**
 * Compute once (README.md § How it works): one parse of each payload and of DATA, one call of each
 * item's rule per run; the item tests then read the judged run back without parsing or judging.
 */

type Spied = { name: string; schema: z.ZodType };

/**
 * Counts every parse with each schema: every entry point of zod (the methods `parse`, `safeParse`,
 * `decode` and their async forms, `z.parse(schema, v)`) runs the schema's `_zod.run` once, so that
 * is what is wrapped (zod's internal, not its API: a zod release that moves it fails these tests, to
 * be read again). A run inside another spied schema's is part of that parse, not one of its own:
 * DATA holds a wordcloud of the payload's shape (lib/schema/data.ts `wordcloud`). Spying on the
 * methods alone let a `safeDecode` parse twice unseen (review of 2026-11-27).
 */
function spyOn(targets: Spied[]): { counts: Record<string, number>; restore: () => void } {
  const counts: Record<string, number> = {};
  const restores: (() => void)[] = [];
  let depth = 0; // spied runs under way: zod parses these schemas synchronously
  for (const { name, schema } of targets) {
    counts[name] = 0;
    const zod = (schema as unknown as { _zod: { run: (...args: unknown[]) => unknown } })._zod;
    const original = zod.run;
    zod.run = (...args: unknown[]) => {
      if (depth === 0) counts[name]!++;
      depth++;
      try {
        return original.apply(zod, args);
      } finally {
        depth--;
      }
    };
    restores.push(() => (zod.run = original));
  }
  return { counts, restore: () => restores.forEach((r) => r()) };
}

/** Every payload's schema and DATA's. */
const SCHEMAS: Spied[] = [
  { name: 'DATA', schema: dataSchema },
  { name: 'batch list', schema: batchList },
  // The run's item of the list, validated strictly: once, though lib/platform/batches.ts reads it
  // twice (whether it lists no id, then its ids), as it did before the review of 2026-11-28.
  { name: 'batch list item', schema: batchItemSchema },
  { name: 'snapshot', schema: metricsTables.snapshot },
  // One per profile and level (Profile B reads the rows of one kind: spec 9.5.2); a run uses one.
  ...[COMPETITOR_TABLES.A, COMPETITOR_TABLES.B.brand, COMPETITOR_TABLES.B.product].map((schema) => ({
    name: 'competitor',
    schema,
  })),
  { name: 'tmc', schema: metricsTables.tmc },
  { name: 'source', schema: metricsTables.source },
  { name: 'wordcloud', schema: wordcloudPayload },
];

/** Counts the calls of each item's rule (lib/rules ITEM_RULES, which `judge` calls). */
function spyOnRules(): { calls: Record<number, number>; restore: () => void } {
  const calls: Record<number, number> = {};
  const originals = { ...ITEM_RULES };
  for (const n of ITEM_NUMBERS) {
    calls[n] = 0;
    ITEM_RULES[n] = (ctx) => (calls[n]!++, originals[n](ctx));
  }
  return { calls, restore: () => Object.assign(ITEM_RULES, originals) };
}

/** One parse of each, the source table once per platform option the run has. */
const onceEach = (sourceOptions: number) => ({
  DATA: 1,
  'batch list': 1,
  'batch list item': 1,
  snapshot: 1,
  competitor: 1,
  tmc: 1,
  source: sourceOptions,
  wordcloud: 1,
});

for (const project of [A_MONITOR, B_DIAGNOSIS])
  test(`one parse of each payload and of DATA, one call of each rule per run; item tests read, never parse or judge (Profile ${project.spec.profile} ${project.spec.reportType})`, async () => {
    const { data, view } = viewsOf(project);
    const ids = [...project.spec.batchIds].reverse();
    const platform = platformFor(project, view, ids, [batchItem(project, ids)]);
    const parses = spyOn(SCHEMAS);
    const rules = spyOnRules();
    try {
      const evidence = await collectRun(configuredRun(project), fakeDeps(platform, data).deps);
      expect(evidence.status, evidence.reason).toBe('checked');
      const dir = tempDir('once');
      writeJudged(dir, judge(evidence), evidence.parsed);
      // Ten item tests, each reading the run's judged result.
      for (const n of ITEM_NUMBERS) expect(readJudged(dir)!.items[n as ItemNumber]?.item).toBe(n);
      expect(parses.counts).toEqual(onceEach(Object.keys(evidence.parsed!.platform.sources).length));
      expect(Object.values(rules.calls)).toEqual(ITEM_NUMBERS.map(() => 1));
    } finally {
      parses.restore();
      rules.restore();
    }
  });

/**
 * A product-level run (spec 9.5.1) parses its product fields with DATA, once (lib/schema/data.ts
 * `dataSchemaFor('product')`, into `Data.product`); the item 5 rule reads them and parses nothing.
 * It used to parse them again: the collection validated them and dropped what it parsed, and the
 * rule parsed the raw fields a second time (conformance audit of issue 16, 2026-11-28).
 */
test('a product-level run: its product fields are parsed once, with DATA; the item 5 rule parses nothing (Profile B monitor, level product)', async () => {
  const project = B_MONITOR;
  const { data, view } = viewsOf(project);
  const ids = [...project.spec.batchIds].reverse();
  const platform = platformFor(project, view, ids, [batchItem(project, ids)]);
  const parses = spyOn([...SCHEMAS, { name: 'product level', schema: productLevelSchema }]);
  const rules = spyOnRules();
  try {
    const run = configuredRun(project, { level: 'product' });
    const evidence = await collectRun(run, fakeDeps(platform, data).deps);
    expect(evidence.status, evidence.reason).toBe('checked');
    const judged = judge(evidence);
    // The rule read the parsed product ranking (it names its form), not DATA's raw fields.
    expect(judged.items[5]?.notes.join('\n')).toMatch(/DATA\.product_ranking is (a list|keyed by platform)/);
    const sources = Object.keys(evidence.parsed!.platform.sources).length;
    expect(parses.counts).toEqual({ ...onceEach(sources), 'product level': 1 });
    expect(Object.values(rules.calls)).toEqual(ITEM_NUMBERS.map(() => 1));
  } finally {
    parses.restore();
    rules.restore();
  }
});

/**
 * The same count through the collector a worker of the checks uses (fixtures/collector.ts), over the
 * demo platform on HTTP and the report page in Chromium, with every item's section pictured
 * (L1_SCREENSHOTS=all: the page is loaded again for the pictures, and must not be parsed or judged
 * again): ten item tests ask for the run, five in one worker and five in the next one Playwright
 * starts after a failed test (a new Collector over the same invocation folder).
 */
test('through the collector, pictures and a worker restart included: one parse of each payload and of DATA, one call of each rule per run (Profile A monitor, Profile B diagnosis)', async () => {
  test.setTimeout(60_000);
  const dir = tempDir('once-collector');
  const demo = await lightDemo(dir);
  const { settings, collector: worker } = demoCollector(demo, dir, { env: { L1_SCREENSHOTS: 'all' } });
  const parses = spyOn(SCHEMAS);
  const rules = spyOnRules();
  try {
    // The demo's Profile B diagnosis lists no batch for its day, so its id is built (spec 9.1.2)
    // and no item of the list is validated.
    for (const [project, listItemParses] of [
      [A_MONITOR, 1],
      [B_DIAGNOSIS, 0],
    ] as const) {
      const run = settings.runs.find((r) => r.label === project.label)!;
      expect(run, project.label).toBeDefined();
      for (const counts of [parses.counts, rules.calls]) for (const k in counts) counts[k] = 0;
      const seen = [];
      for (const workerTests of [ITEM_NUMBERS.slice(0, 5), ITEM_NUMBERS.slice(5)]) {
        const collector = worker();
        try {
          for (const n of workerTests) {
            const judged = await collector.judgedFor(run);
            expect(judged.items[n as ItemNumber]?.item).toBe(n);
            seen.push(judged);
          }
        } finally {
          await collector.close();
        }
      }
      const judged = seen[0]!;
      expect(judged.status, judged.reason).toBe('checked');
      // The page was loaded again for the pictures, and they were taken.
      expect(judged.pictureLoads, project.label).toBe(1);
      expect(
        [...judged.shots].sort((a, b) => a - b),
        `${project.label}: ${judged.notes.join('; ')}`,
      ).toEqual(ITEM_NUMBERS);
      // The parsed inputs the rules read, stored beside the judged run (lib/report/judged.ts).
      const inputs = JSON.parse(fs.readFileSync(path.join(worker().folder(run), 'inputs.json'), 'utf8')) as {
        platform: { sources: Record<string, unknown> };
      };
      expect(parses.counts, project.label).toEqual({
        ...onceEach(Object.keys(inputs.platform.sources).length),
        'batch list item': listItemParses,
      });
      expect(Object.values(rules.calls), project.label).toEqual(ITEM_NUMBERS.map(() => 1));
    }
  } finally {
    parses.restore();
    rules.restore();
    await demo.close();
  }
});

/** Every `.ts` file under `dir` (recursive), relative to the root. */
function sources(dir: string): string[] {
  return fs
    .readdirSync(path.join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => path.join(dir, f));
}

/**
 * Where a file names a rule's function other than in its declaration, or ITEM_RULES other than where
 * the table is made and where `judge` calls it (comments left out: a comment may name either).
 */
function ruleUsesOutsideJudge(files: string[], ruleNames: string[]): string[] {
  const allowed: Record<string, number> = {
    [path.join('lib', 'rules', 'index.ts')]: Infinity,
    [path.join('lib', 'report', 'judged.ts')]: 2,
  };
  const found: string[] = [];
  for (const file of files) {
    const text = fs
      .readFileSync(path.join(ROOT, file), 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/^\s*\/\/.*$/gm, '');
    const own = file === path.join('lib', 'rules', 'index.ts');
    for (const name of ruleNames) {
      const uses = text.match(new RegExp(`\\b${name}\\b`, 'g'))?.length ?? 0;
      const declared = new RegExp(`export function ${name}\\(`).test(text) ? 1 : 0;
      if (uses > declared && !own) found.push(`${file}: ${name}`);
    }
    const table = text.match(/\bITEM_RULES\b/g)?.length ?? 0;
    if (table > (allowed[file] ?? 0)) found.push(`${file}: ITEM_RULES ×${table}`);
  }
  return found;
}

/**
 * What the spies cannot see: a rule called by its own function rather than through ITEM_RULES (as
 * `judge` calls it) would run again unseen, so the code a run goes through names a rule's function
 * nowhere but in the table, and the table nowhere but in `judge` (conformance audit of issue 16: a
 * second `checkItem5(context)` in `judge` passed every test above). The demo's sanity check and the
 * bench call the rules themselves, outside any run.
 */
test('in the code a run goes through, a rule is called only through ITEM_RULES, and ITEM_RULES only by judge (lib/report/judged.ts)', () => {
  const ruleNames = Object.values(ITEM_RULES).map((rule) => rule.name);
  expect(ruleNames).toEqual(ITEM_NUMBERS.map((n) => `checkItem${n}`));
  const files = [
    ...sources('lib'),
    ...sources('fixtures'),
    ...sources('pages'),
    ...sources('tests/setup'),
    'tests/checks.spec.ts',
    'playwright.config.ts',
  ];
  expect(ruleUsesOutsideJudge(files, ruleNames)).toEqual([]);
});
