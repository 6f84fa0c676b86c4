import { expect, test } from '@playwright/test';
import { batchList } from '../../demo/catalog';
import {
  allModelProjects,
  drawModelCase,
  isModelId,
  MODEL_MAX,
  modelCase,
  modelId,
  modelProject,
  modelRuns,
  type ModelKind,
} from '../../demo/model/projects';
import { ITEM_RULES } from '../../lib/rules';
import { ITEM_NUMBERS, type Profile } from '../../lib/rules/types';
import { toContext } from './generated/context';

/**
 * The demo's model projects (demo/model/projects.ts): the unit families' generated cases
 * (docs/rules.md § Generated cases) served over HTTP. What the demo serves for each must be judged by
 * the rules as its expectation says, or the catalogue self-test and demo/check-demo.ts, which hold
 * the whole suite to those expectations, would test nothing.
 */

interface Judged {
  id: string;
  kind: ModelKind;
  variation: string;
  failing: number[];
  want: number[];
}

/** A model project's case judged in memory, as the unit families judge theirs. */
function judgedInMemory(index: number, kind: ModelKind): Judged {
  const id = modelId(index, kind);
  const { spec } = modelProject(id)!;
  const drawn = modelCase(id)!;
  const ctx = toContext(drawn.answers, spec.profile as Profile, 'brand', spec.reportType);
  const failing = ITEM_NUMBERS.filter((n) => ITEM_RULES[n](ctx).verdict === 'fail');
  return {
    id,
    kind,
    variation: drawn.variation ?? 'clean',
    failing,
    want: drawn.expected.failingItems ?? [],
  };
}

const differs = (c: Judged) => JSON.stringify(c.failing) !== JSON.stringify(c.want);
const expectsFailure = (c: Judged) => c.want.length > 0;

test('every model project the demo can serve is judged in memory as its expectation says: clean and near-miss cases pass all ten items, a fault fails exactly its items', () => {
  const all: Judged[] = [];
  for (let index = 0; index < MODEL_MAX; index++)
    for (const kind of [0, 1, 2] as const) all.push(judgedInMemory(index, kind));
  expect(all).toHaveLength(3 * MODEL_MAX);
  expect(
    all.filter(differs).map((c) => `${c.id} (${c.variation}): failing ${c.failing}, expected ${c.want}`),
  ).toEqual([]);
  // Clean cases and near-misses expect every item to pass; every fault expects its items to fail.
  expect(all.filter((c) => c.kind !== 1).filter(expectsFailure)).toEqual([]);
  expect(all.filter((c) => c.kind === 1).filter((c) => !expectsFailure(c))).toEqual([]);
  // The faults reach every item (each fault class flips its own).
  expect([...new Set(all.flatMap((c) => c.failing))].sort((a, b) => a - b)).toEqual([...ITEM_NUMBERS]);
});

test('a model project is the same case on every draw: its id alone fixes truth, encoding and variation', () => {
  for (const id of [modelId(0, 0), modelId(7, 1), modelId(42, 2), modelId(MODEL_MAX - 1, 1)])
    expect(JSON.stringify(drawModelCase(id)), id).toBe(JSON.stringify(modelCase(id)));
  expect(drawModelCase('101101')).toBeUndefined();
});

test('model ids: 8<kind><index>, below MODEL_MAX; the batch lists name every one once, by company and report type', () => {
  expect(isModelId(modelId(0, 0))).toBe(true);
  expect(isModelId(modelId(MODEL_MAX - 1, 2))).toBe(true);
  expect(isModelId(`83${String(0).padStart(4, '0')}`)).toBe(false);
  expect(isModelId(`80${String(MODEL_MAX).padStart(4, '0')}`)).toBe(false);
  expect(isModelId('101101')).toBe(false);
  const listed = [1001, 1002, 3101].flatMap((company) =>
    (['monitor', 'diagnosis'] as const).flatMap((type) =>
      batchList(company, type)
        .filter((item) => isModelId(String(item.project)))
        .map((item) => {
          const project = modelProject(String(item.project))!;
          expect(project.spec.companyId, String(item.project)).toBe(company);
          expect(project.spec.reportType, String(item.project)).toBe(type);
          expect(item.l1CrawlBatchIds.map((b) => b.batchId)).toEqual(project.spec.batchIds);
          return String(item.project);
        }),
    ),
  );
  const all = [...allModelProjects()].map((p) => p.spec.projectId);
  expect(all).toHaveLength(3 * MODEL_MAX);
  expect(listed.sort()).toEqual([...all].sort());
});

test('modelRuns: kinds in turn, both profiles and report types in each kind, unique labels; n is checked', () => {
  const { runs, expected } = modelRuns(12, {
    origin: 'http://127.0.0.1:1',
    portalBOrigin: 'http://127.0.0.1:2',
  });
  expect(new Set(runs.map((r) => r.label)).size).toBe(12);
  const facts = runs.map((r) => r.label!.split('-').slice(2).join('-'));
  for (const kind of ['clean', 'fault', 'near-miss'])
    expect(new Set(facts.filter((f) => f.startsWith(`${kind}-`))).size, kind).toBe(4);
  expect([...expected.values()].filter((e) => (e.failingItems ?? []).length > 0)).toHaveLength(4);
  expect(runs.filter((r) => r.htmlUrl.startsWith('http://127.0.0.1:2/'))).toHaveLength(6);
  expect(() => modelRuns(MODEL_MAX + 1, { origin: 'x', portalBOrigin: 'y' })).toThrow(/from 0 to/);
});
