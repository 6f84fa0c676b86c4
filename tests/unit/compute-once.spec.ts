import { expect, test } from './test-type';
import type { z } from 'zod';
import { A_MONITOR, B_DIAGNOSIS } from '../../demo/runs';
import { collectRun } from '../../lib/platform/collect';
import { judge, readJudged, writeJudged } from '../../lib/report/judged';
import { ITEM_RULES } from '../../lib/rules';
import { ITEM_NUMBERS, type ItemNumber } from '../../lib/rules/types';
import { dataSchema } from '../../lib/schema/data';
import { batchList, metricsTables, wordcloudPayload } from '../../lib/schema/platform';
import { batchItem, configuredRun, fakeDeps, platformFor, viewsOf } from './fakes/platform';
import { tempDir } from './fakes/temp';

/**
 * Compute once (README.md § How it works): one parse of each payload and of DATA, one call of each
 * item's rule per run; the item tests then read the judged run back without parsing or judging.
 */

type Spied = { name: string; schema: z.ZodType };

function spyOn(targets: Spied[]): { counts: Record<string, number>; restore: () => void } {
  const counts: Record<string, number> = {};
  const restores: (() => void)[] = [];
  for (const { name, schema } of targets) {
    const s = schema as unknown as { safeParse: (v: unknown) => unknown };
    const original = s.safeParse;
    counts[name] = 0;
    s.safeParse = (v: unknown) => {
      counts[name]!++;
      return original.call(schema, v);
    };
    restores.push(() => (s.safeParse = original));
  }
  return { counts, restore: () => restores.forEach((r) => r()) };
}

for (const project of [A_MONITOR, B_DIAGNOSIS])
  test(`one parse of each payload and of DATA, one call of each rule per run; item tests read, never parse or judge (Profile ${project.spec.profile} ${project.spec.reportType})`, async () => {
    const { data, view } = viewsOf(project);
    const ids = [...project.spec.batchIds].reverse();
    const platform = platformFor(project, view, ids, [batchItem(project, ids)]);
    const parses = spyOn([
      { name: 'DATA', schema: dataSchema },
      { name: 'batch list', schema: batchList },
      { name: 'snapshot', schema: metricsTables.snapshot },
      { name: 'competitor', schema: metricsTables.competitor },
      { name: 'tmc', schema: metricsTables.tmc },
      { name: 'source', schema: metricsTables.source },
      { name: 'wordcloud', schema: wordcloudPayload },
    ]);
    const rules: Record<number, number> = {};
    const originals = { ...ITEM_RULES };
    for (const n of ITEM_NUMBERS) {
      rules[n] = 0;
      ITEM_RULES[n] = (ctx) => (rules[n]!++, originals[n](ctx));
    }
    try {
      const evidence = await collectRun(configuredRun(project), fakeDeps(platform, data).deps);
      expect(evidence.status, evidence.reason).toBe('checked');
      const dir = tempDir('once');
      writeJudged(dir, judge(evidence), evidence.parsed);
      // Ten item tests, each reading the run's judged result.
      for (const n of ITEM_NUMBERS) expect(readJudged(dir)!.items[n as ItemNumber]?.item).toBe(n);
      const sourceOptions = Object.keys(evidence.parsed!.platform.sources).length;
      expect(parses.counts).toEqual({
        DATA: 1,
        'batch list': 1,
        snapshot: 1,
        competitor: 1,
        tmc: 1,
        source: sourceOptions,
        wordcloud: 1,
      });
      expect(Object.values(rules)).toEqual(ITEM_NUMBERS.map(() => 1));
    } finally {
      parses.restore();
      Object.assign(ITEM_RULES, originals);
    }
  });
