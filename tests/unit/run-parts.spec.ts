import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from './test-type';
import { RUN_PARTS, runsOfPart } from '../../lib/run/runs';

/**
 * The checks are declared in RUN_PARTS test files (tests/checks/part-NN.spec.ts), each with one part
 * of the runs (docs/decisions.md, Speed). A run in no part would never be checked, a run in two
 * would be checked twice: every run must be in exactly one, in its configured order.
 */

const partsOf = (n: number) => {
  const runs = Array.from({ length: n }, (_, i) => i);
  return Array.from({ length: RUN_PARTS }, (_, part) => runsOfPart(runs, part));
};

test.describe('runsOfPart', () => {
  test('every run is in exactly one part, and the parts in order are the runs in order', () => {
    for (const n of [0, 1, 2, 3, 15, 16, 17, 31, 33, 100, 300, 3000]) {
      const parts = partsOf(n);
      expect(parts.flat(), `${n} runs`).toEqual(Array.from({ length: n }, (_, i) => i));
    }
  });

  test('the parts are as even as the count allows: sizes differ by one at most', () => {
    for (const n of [16, 17, 31, 100, 300, 3000]) {
      const sizes = partsOf(n).map((p) => p.length);
      expect(Math.max(...sizes) - Math.min(...sizes), `${n} runs: ${sizes.join(',')}`).toBeLessThanOrEqual(1);
    }
  });

  test('fewer runs than parts: one run a part, the rest empty', () => {
    const parts = partsOf(4);
    expect(parts.filter((p) => p.length === 1)).toHaveLength(4);
    expect(parts.filter((p) => p.length === 0)).toHaveLength(RUN_PARTS - 4);
  });

  test('a part outside 0 … RUN_PARTS − 1 is refused, not an empty part', () => {
    expect(() => runsOfPart([1, 2], RUN_PARTS)).toThrow(
      `part must be an integer from 0 to ${RUN_PARTS - 1}, got ${RUN_PARTS}`,
    );
    expect(() => runsOfPart([1, 2], -1)).toThrow(/got -1/);
    expect(() => runsOfPart([1, 2], 1.5)).toThrow(/got 1.5/);
  });
});

test('tests/checks holds one file per part, each declaring its own part and nothing else', () => {
  const dir = path.resolve(__dirname, '..', 'checks');
  const files = fs.readdirSync(dir).sort();
  const expected = Array.from({ length: RUN_PARTS }, (_, k) => `part-${String(k).padStart(2, '0')}.spec.ts`);
  expect(files).toEqual(expected);
  for (const [k, file] of files.entries()) {
    const text = fs.readFileSync(path.join(dir, file), 'utf8');
    expect(text.match(/declareChecks\((\d+)\)/g), file).toEqual([`declareChecks(${k})`]);
  }
});
