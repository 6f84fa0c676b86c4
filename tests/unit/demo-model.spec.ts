import { expect, test } from './test-type';
import { batchList } from '../../demo/catalog';
import { A_MONITOR } from '../../demo/runs';
import {
  allModelProjects,
  caseSeed,
  drawModelCase,
  isModelId,
  MODEL_MAX,
  modelAnswers,
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

const judgedKind = (kind: ModelKind): Judged[] =>
  Array.from({ length: MODEL_MAX }, (_, index) => judgedInMemory(index, kind));
const mismatches = (all: Judged[]) =>
  all.filter(differs).map((c) => `${c.id} (${c.variation}): failing ${c.failing}, expected ${c.want}`);

for (const [kind, name] of [
  [0, 'clean'],
  [2, 'near-miss'],
] as const)
  test(`every ${name} model project the demo can serve is judged in memory as its expectation says: all ten items pass`, () => {
    const all = judgedKind(kind);
    expect(mismatches(all)).toEqual([]);
    expect(all.filter(expectsFailure)).toEqual([]);
  });

test('every fault model project the demo can serve is judged in memory as its expectation says: exactly its items fail, and the faults reach every item', () => {
  const all = judgedKind(1);
  expect(mismatches(all)).toEqual([]);
  expect(all.filter((c) => !expectsFailure(c))).toEqual([]);
  // The faults reach every item (each fault class flips its own).
  expect([...new Set(all.flatMap((c) => c.failing))].sort((a, b) => a - b)).toEqual([...ITEM_NUMBERS]);
});

test('a model project that cannot be checked serves a clean case behind its trouble (a 403, a 500, a page without DATA), and expects that error, not a failing item', () => {
  const all = judgedKind(3);
  // Its answers pass all ten items in memory: the run's error can only come from the trouble.
  expect(all.filter((c) => c.failing.length > 0).map((c) => c.id)).toEqual([]);
  const troubles = new Map<string, string[]>();
  // Asserted once for all of them (an expect each would be 600 Playwright steps, quadratic in time).
  const ids = Array.from({ length: MODEL_MAX }, (_, index) => modelId(index, 3));
  expect(
    ids.filter((id) => modelCase(id)!.expected.status !== 'error' || modelProject(id)!.fault === undefined),
  ).toEqual([]);
  for (const id of ids) {
    const project = modelProject(id)!;
    const { variation } = modelCase(id)!;
    const seen = troubles.get(variation!) ?? [];
    seen.push(`${project.spec.profile}-${project.spec.reportType}`);
    troubles.set(variation!, seen);
  }
  expect([...troubles.keys()].sort()).toEqual(['403-competitor', '500-snapshot', 'page-no-data']);
  for (const [name, seen] of troubles) expect(new Set(seen).size, name).toBe(4);
});

test('no two model projects draw from one seed: each id has its own range of seeds', () => {
  const seeds = new Set<number>();
  for (let index = 0; index < MODEL_MAX; index++)
    for (const kind of [0, 1, 2, 3] as const)
      for (const attempt of [0, 99]) seeds.add(caseSeed(index, kind, attempt));
  expect(seeds.size).toBe(MODEL_MAX * 4 * 2);
  // The ranges do not touch: the last seed of one id is below the first of the next.
  expect(caseSeed(0, 0, 99)).toBeLessThan(caseSeed(0, 1, 0));
  expect(caseSeed(0, 3, 99)).toBeLessThan(caseSeed(1, 0, 0));
});

test('a model project is the same case on every draw: its id alone fixes truth, encoding and variation', () => {
  for (const id of [modelId(0, 0), modelId(7, 1), modelId(42, 2), modelId(MODEL_MAX - 1, 1)])
    expect(JSON.stringify(drawModelCase(id)), id).toBe(JSON.stringify(modelCase(id)));
  expect(drawModelCase('101101')).toBeUndefined();
  // What the demo's handlers serve is that case's answers; a project of another kind has none.
  expect(modelAnswers(modelProject(modelId(7, 1))!)).toBe(modelCase(modelId(7, 1))!.answers);
  expect(() => modelAnswers(A_MONITOR)).toThrow(/not a model project/);
});

test('model ids: 8<kind><index>, below MODEL_MAX; the batch lists name every one once, by company and report type', () => {
  expect(isModelId(modelId(0, 0))).toBe(true);
  expect(isModelId(modelId(MODEL_MAX - 1, 2))).toBe(true);
  expect(isModelId(modelId(MODEL_MAX - 1, 3))).toBe(true);
  expect(isModelId(`84${String(0).padStart(4, '0')}`)).toBe(false);
  expect(isModelId(`80${String(MODEL_MAX).padStart(4, '0')}`)).toBe(false);
  expect(isModelId('101101')).toBe(false);
  // Listed under another company, report type or batch: collected, then asserted once (1,200
  // projects: an expect each is a Playwright step each, and steps cost the test quadratic time).
  const misplaced: string[] = [];
  const listed = [1001, 1002, 3101].flatMap((company) =>
    (['monitor', 'diagnosis'] as const).flatMap((type) =>
      batchList(company, type)
        .filter((item) => isModelId(String(item.project)))
        .map((item) => {
          const project = modelProject(String(item.project))!;
          const batches = item.l1CrawlBatchIds.map((b) => b.batchId);
          if (
            project.spec.companyId !== company ||
            project.spec.reportType !== type ||
            JSON.stringify(batches) !== JSON.stringify(project.spec.batchIds)
          )
            misplaced.push(`${item.project}: listed for ${company} ${type} ${batches.join(',')}`);
          return String(item.project);
        }),
    ),
  );
  expect(misplaced).toEqual([]);
  const all = [...allModelProjects()].map((p) => p.spec.projectId);
  expect(all).toHaveLength(4 * MODEL_MAX);
  expect(listed.sort()).toEqual([...all].sort());
});

const ORIGINS = { origin: 'http://127.0.0.1:1', portalBOrigin: 'http://127.0.0.1:2' };
/** A model run's kind, profile and report type, from its label (`model-<index>-<kind>-<profile>-<type>`). */
const factsOf = (label: string) => label.split('-').slice(2).join('-');

test('modelRuns: as many runs that cannot be checked and that fail as the shares say, spread over both profiles; clean and near-miss in both profiles; unique labels; n and shares are checked', () => {
  const { runs, expected } = modelRuns(16, { ...ORIGINS, uncheckable: 3 / 16, failing: 0.25 });
  expect(new Set(runs.map((r) => r.label)).size).toBe(16);
  const facts = runs.map((r) => factsOf(r.label!));
  const of = (kind: string) => facts.filter((f) => f.startsWith(`${kind}-`));
  expect(of('not-checkable')).toHaveLength(3);
  expect([...expected.values()].filter((e) => e.status === 'error')).toHaveLength(3);
  expect(of('fault')).toHaveLength(4);
  expect([...expected.values()].filter((e) => (e.failingItems ?? []).length > 0)).toHaveLength(4);
  for (const kind of ['clean', 'near-miss', 'fault', 'not-checkable'])
    expect(new Set(of(kind).map((f) => f.split('-').at(-2))), kind).toEqual(new Set(['A', 'B']));
  expect(runs.filter((r) => r.htmlUrl.startsWith('http://127.0.0.1:2/'))).toHaveLength(8);
  // Default shares: a third with a fault class, none that cannot be checked.
  const byDefault = modelRuns(12, ORIGINS).runs.map((r) => factsOf(r.label!));
  expect(byDefault.filter((f) => f.startsWith('fault-'))).toHaveLength(4);
  expect(byDefault.filter((f) => f.startsWith('not-checkable-'))).toHaveLength(0);
  // A night without faults: clean and near-miss each meet both profiles and both report types.
  const passing = modelRuns(8, { ...ORIGINS, failing: 0 }).runs.map((r) => factsOf(r.label!));
  expect(passing.filter((f) => f.startsWith('clean-'))).toHaveLength(4);
  expect(new Set(passing)).toHaveProperty('size', 8);
  expect(() => modelRuns(MODEL_MAX + 1, ORIGINS)).toThrow(/from 0 to/);
  expect(() => modelRuns(4, { ...ORIGINS, failing: 1.5 })).toThrow(/share from 0 to 1/);
});
