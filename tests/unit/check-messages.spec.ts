import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from './test-type';
import {
  CheckFailure,
  MISMATCH_LINES_SHOWN,
  comparedValuesFile,
  writeComparedValues,
  itemDescription,
  stepFailure,
} from '../../fixtures/check';
import type { ComparisonRow, StepResult } from '../../lib/rules/types';
import { ITEM_RULES } from '../../lib/rules';
import { ITEMS, itemTestTitle, itemTitle, objectiveOf } from '../../lib/rules/items';
import { ITEM_NUMBERS } from '../../lib/rules/types';
import { context, setGroup } from './builders';
import { tempDir } from './fakes/temp';

/** The failure message of a step: what a reviewer reads first when an item fails (fixtures/check.ts). */

function row(i: number, verdict: 'pass' | 'fail'): ComparisonRow {
  return { key: `媒体${i}`, html: 10 + i, platform: '9.5%', gap: 0.5, tolerance: '≤ 0.1', verdict };
}

function step(failing: number, passing = 0, notes: string[] = []): StepResult {
  const rows = [
    ...Array.from({ length: passing }, (_, i) => row(100 + i, 'pass')),
    ...Array.from({ length: failing }, (_, i) => row(i, 'fail')),
  ];
  return { id: '7.3', name: 'media names', verdict: failing ? 'fail' : 'pass', rows, notes };
}

const where = 'run A-monitor · item 10';

test.describe('stepFailure: the message of a step that disagrees', () => {
  test('names run, item and step, then each mismatch as key: HTML · platform · gap · tolerance (strings in 「」)', () => {
    expect(stepFailure(step(2, 3), where).split('\n')).toEqual([
      'run A-monitor · item 10 · step 7.3 · media names: 2 mismatch(es) of 5 compared',
      '  ✗ 媒体0: HTML 10 · platform 「9.5%」 · gap 0.5 · tolerance ≤ 0.1',
      '  ✗ 媒体1: HTML 11 · platform 「9.5%」 · gap 0.5 · tolerance ≤ 0.1',
    ]);
  });

  test(`the first ${MISMATCH_LINES_SHOWN} mismatches, then "and N more"; notes after them`, () => {
    const lines = stepFailure(step(27, 0, ['a note']), where).split('\n');
    const shown = lines.filter((l) => l.startsWith('  ✗ '));
    expect(shown).toHaveLength(20);
    expect(shown.at(-1)).toContain('媒体19:');
    expect(lines).toContain('  … and 7 more mismatch(es) (all rows: the "compared values" attachment)');
    expect(lines.at(-1)).toBe('  note: a note');
  });

  test('over 5,000 mismatches the "more" line says the attachment holds the first 5,000, not all rows (review 59k: 50,000 missing words)', () => {
    const lines = stepFailure(step(5_021), where).split('\n');
    expect(lines).toContain(
      '  … and 5001 more mismatch(es) (the first 5,000: the "compared values" attachment)',
    );
    expect(stepFailure(step(5_000), where)).toContain('(all rows: the "compared values" attachment)');
  });

  test('exactly 20 mismatches: no "more" line', () => {
    expect(stepFailure(step(20), where)).not.toContain('more mismatch');
  });

  test('control characters from the data cannot fake a line or clear the terminal', () => {
    const s = step(1);
    s.rows[0]!.key = 'k\n✓ 1 passed\u001b[2J';
    const message = stepFailure(s, where);
    expect(message.split('\n')).toHaveLength(2);
    expect(message).toContain('k\\x0a✓ 1 passed\\x1b[2J');
  });

  test('a failure is shown without a code frame: its stack is its message', () => {
    const error = new CheckFailure('run X · item 5: 1 of 3 step(s) differ', 'ValuesDiffer');
    expect(error.stack).toBe(error.message);
    expect(error.name).toBe('ValuesDiffer');
  });
});

test('the Allure description of a failed item says its rows that passed by a special clause as rows, never "Passed by" in bold above a red test; a passed item keeps it', () => {
  const passedBy: ComparisonRow = {
    key: 'exposure_rate',
    html: 88.1,
    platform: 88,
    gap: 0.1,
    tolerance: '≤ 0.1 after round(x,1) (9.3)',
    verdict: 'pass',
    passBy: '0.1 after rounding (spec 9.3.2)',
  };
  const failed: ComparisonRow = {
    ...passedBy,
    key: 'top3_rate',
    html: 29.64,
    platform: 29.8,
    gap: 0.2,
    verdict: 'fail',
  };
  delete failed.passBy;
  const item = (rows: ComparisonRow[], verdict: 'pass' | 'fail') => ({
    item: 3 as const,
    title: 'KPI cards, aggregate',
    verdict,
    steps: [{ id: 'all', name: 'cards', verdict: 'pass' as const, rows, notes: [] }],
    notes: ['an item note'],
  });
  const red = itemDescription('the objective', item([passedBy, failed], 'fail'), ['a run note']);
  expect(red).not.toContain('**Passed by');
  expect(red).toContain(
    'Rows that passed by a special clause (the item fails on others): 0.1 after rounding (spec 9.3.2)',
  );
  expect(red.startsWith('the objective')).toBe(true);
  expect(itemDescription('the objective', item([passedBy], 'pass'), [])).toContain(
    '**Passed by a special clause:** 0.1 after rounding (spec 9.3.2)',
  );
});

test('an item test describes what its run’s profile compares: Profile A’s text for an A run, Profile B’s for a B run, one text where the profiles compare alike', () => {
  const item3 = ITEMS.find((i) => i.item === 3)!;
  expect(objectiveOf(item3, 'A')).toMatch(/^Spec 7\.2: /);
  expect(objectiveOf(item3, 'A')).not.toContain('9.2');
  expect(objectiveOf(item3, 'B')).toMatch(/^Spec 9\.2: .*9\.3\.4/);
  const item9 = ITEMS.find((i) => i.item === 9)!;
  expect([objectiveOf(item9, 'A'), objectiveOf(item9, 'B')].map((t) => t.slice(0, 9))).toEqual([
    'Spec 7.4:',
    'Spec 9.4:',
  ]);
  // Near miss: an item the profiles compare alike has one text for both.
  const item6 = ITEMS.find((i) => i.item === 6)!;
  expect(objectiveOf(item6, 'B')).toBe(objectiveOf(item6, 'A'));
});

test('the item table is the one source of an item’s number, title and tag: every rule’s result, JUnit’s test names and the test titles read it', () => {
  expect(ITEMS.map((i) => i.item)).toEqual([...ITEM_NUMBERS]);
  for (const profile of ['A', 'B'] as const) {
    const ctx = context({ profile });
    for (const spec of ITEMS) {
      const result = ITEM_RULES[spec.item](ctx);
      expect({ item: result.item, title: result.title }).toEqual({ item: spec.item, title: spec.title });
      expect(spec.tags[0]).toBe(`@item${spec.item}`);
      expect(itemTestTitle(spec)).toBe(`item ${spec.item} · ${itemTitle(spec.item)}`);
    }
  }
});

test('compared values: one file per item test in one folder per run, the attempt and --repeat-each index in the name, so no attempt writes over another', () => {
  const outputDir = tempDir('compared-values');
  const info = (retry: number, repeatEachIndex: number) => ({
    retry,
    repeatEachIndex,
    project: { outputDir } as Parameters<typeof comparedValuesFile>[0]['project'],
  });
  const run = { slug: 'A-monitor' };
  const files = [
    comparedValuesFile(info(0, 0), run, 5),
    comparedValuesFile(info(1, 0), run, 5),
    comparedValuesFile(info(0, 2), run, 5),
    comparedValuesFile(info(1, 2), run, 5),
    comparedValuesFile(info(0, 0), run, 12),
    comparedValuesFile(info(0, 0), { slug: 'B-monitor' }, 5),
  ];
  expect(files.map((f) => path.relative(outputDir, f))).toEqual([
    'compared-values/A-monitor/item-5.json',
    'compared-values/A-monitor/item-5-retry1.json',
    'compared-values/A-monitor/item-5-repeat2.json',
    'compared-values/A-monitor/item-5-retry1-repeat2.json',
    'compared-values/A-monitor/item-12.json',
    'compared-values/B-monitor/item-5.json',
  ]);
  // Each run's folder is there to write in, and private.
  for (const slug of ['A-monitor', 'B-monitor']) {
    const stat = fs.statSync(path.join(outputDir, 'compared-values', slug));
    expect(stat.mode & 0o777, slug).toBe(0o700);
  }
});

test("an item's compared values that cannot be written (a full disk, whose error names no path) fail its test naming the file, so the run's reason says which folder is full (file-system audit)", () => {
  const file = path.join(tempDir('compared'), 'compared-values', 'A-monitor', 'item-5.json');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const write = fs.writeFileSync;
  (fs as { writeFileSync: unknown }).writeFileSync = () => {
    throw Object.assign(new Error('ENOSPC: no space left on device, write'), {
      code: 'ENOSPC',
      syscall: 'write',
    });
  };
  let thrown: unknown;
  try {
    writeComparedValues(file, '{}');
  } catch (e) {
    thrown = e;
  } finally {
    (fs as { writeFileSync: unknown }).writeFileSync = write;
  }
  expect((thrown as Error).message).toBe(`ENOSPC: no space left on device, write (writing ${file})`);
  expect((thrown as NodeJS.ErrnoException).code).toBe('ENOSPC');
  writeComparedValues(file, '{"a":1}');
  expect(fs.readFileSync(file, 'utf8')).toBe('{"a":1}');
  expect(fs.statSync(file).mode & 0o777).toBe(0o600);
});

test('item 12: a title at an ordinal that the other side lacks is said missing in the message, with source titles of 70 characters (review 59k: every output cut the note before its "not on the platform side at all")', () => {
  const title = (end: string) =>
    `空气净化器选购指南：从滤网、风量、噪音到耗材成本，${'一篇文章讲清楚如何挑选适合家庭使用的净化器'.repeat(2)}汇总${end}`;
  const result = ITEM_RULES[12](
    context({
      edit: (d, p) => {
        d.brand.source_top30[2]!.title = title('A');
        p.sources['all']![2] = { title: title('B'), channel: '问答', cite_count: 5, rank: 8 };
      },
    }),
  );
  const step = result.steps.find((s) => s.id === 'all')!;
  const message = stepFailure(step, 'run A-monitor · item 12');
  expect([title('A'), title('B')].map((t) => t.length)).toEqual([70, 70]);
  expect(message).toContain(`「${title('A')}」 is not on the platform side at all`);
  expect(message).toContain(`「${title('B')}」 is not on the HTML side at all (item 11 lists it)`);
});

test('item 6: the failure counts the words compared, not the rows (review 59k: 33 matched words and one missing read "1 mismatch(es) of 2 compared")', () => {
  const result = ITEM_RULES[6](
    context({
      edit: (d, p) => {
        d.brand.wordcloud.words.push({ word: '新鲜', weight: 1 }, { word: '包装', weight: 1 });
        p.wordcloud.words.push({ word: '包装', weight: 1 }, { word: '奶香', weight: 1 });
      },
    }),
  );
  const words = result.steps.find((s) => s.id === '7.7.1')!;
  // HTML 品质 口感 价格 新鲜 包装, platform 价格 品质 口感 包装 奶香: six words, two on one side only.
  expect(stepFailure(words, 'run A-monitor · item 6').split('\n')[0]).toBe(
    'run A-monitor · item 6 · step 7.7.1 · all words: 2 mismatch(es) of 6 compared',
  );
});

test('a note naming the rows that passed by a special clause shows their values as the mismatch lines do: names in 「」 (review 59k: "(HTML 视频, platform 问答)")', () => {
  const result = ITEM_RULES[7](
    context({
      edit: (d, p) =>
        setGroup(
          d,
          p,
          'all',
          'content_type',
          [
            { name: '图文', value: 50 },
            { name: '视频', value: 25 },
            { name: '问答', value: 25 },
          ],
          [
            { name: '图文', value: 50 },
            { name: '问答', value: 25 },
            { name: '视频', value: 25 },
          ],
        ),
    }),
  );
  const all = result.steps.find((s) => s.id === 'all')!;
  expect(all.verdict).toBe('pass');
  expect(all.notes.at(-1)).toBe(
    '2 rows passed by equal shares in either order (spec 7.3.1, docs/rules.md §D10): #2 legend name (HTML 「视频」, platform 「问答」); #3 legend name (HTML 「问答」, platform 「视频」)',
  );
});
