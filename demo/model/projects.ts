import fc from 'fast-check';
import type { Profile, ReportType } from '../../lib/rules/types';
import type { RunInput } from '../../lib/run/types';
import { A_MONITOR, B_MONITOR, runOf, type DemoProject } from '../runs';
import type { ScenarioExpectation } from '../scenario-kit';
import { encode, encodingArb, type Answers, type Encoding } from './encode';
import { FAULTS, type Variation } from './faults';
import { NEAR_MISSES } from './near-misses';
import { render } from './render';
import { PLATFORMS, truthArb, type Truth } from './truth';

/**
 * Model runs: the generated cases of the unit tests (docs/rules.md § Generated cases), served by
 * the demo over HTTP, so the one generator the unit families judge in memory also feeds the whole
 * suite (login, batch list, the page in Chromium, every endpoint, the verdict files).
 *
 * Project id `8<kind><index, 4 digits>`, nothing stored: the id alone fixes the case. `kind` 0 is
 * a clean truth (every item passes), 1 a fault class (exactly its items fail), 2 a near-miss
 * (every item passes), each drawn from the unit families' own lists (./faults.ts,
 * ./near-misses.ts). The truth, the encoding (envelopes, rate shapes, the form of "no value",
 * fields no check reads, the API's row order) and the variation are drawn by fast-check from a
 * seed made of the id (`fc.sample`), so a run is the same case on every start of the demo.
 *
 * What the id fixes besides (the batch list needs it before any case is drawn): the profile
 * (even index A on the main origin, company 1001 or 1002; odd index B on the group's portal,
 * company 3101), the report type and the page's DATA declaration. The pages are light (DATA only):
 * the chart script draws the bundled projects' DATA, and a model's DATA holds values of any shape
 * in the fields no check reads.
 */

export const MODEL_MAX = 100;
export const MODEL_DATE = '2025-11-24';
export type ModelKind = 0 | 1 | 2;
const KIND_NAMES = ['clean', 'fault', 'near-miss'] as const;
const DECLARATIONS = ['const', 'let', 'var', 'window'] as const;

/** The platform keys a model's DATA and source endpoint use (./truth.ts). */
export const MODEL_PLATFORM_KEYS: readonly string[] = PLATFORMS.map((p) => p.key);

export interface ModelCase {
  /** What the demo serves: DATA and each endpoint's answer, already encoded. */
  answers: Answers;
  expected: ScenarioExpectation;
  /** The variation's name (faults and near-misses), for the run's description. */
  variation?: string;
}

interface ModelProjectFacts {
  index: number;
  kind: ModelKind;
  profile: Profile;
  reportType: ReportType;
}

export function modelId(index: number, kind: ModelKind): string {
  return `8${kind}${String(index).padStart(4, '0')}`;
}

function parseModelId(projectId: string): ModelProjectFacts | undefined {
  const m = /^8([0-2])(\d{4})$/.exec(projectId);
  if (!m) return undefined;
  const index = Number(m[2]);
  if (index >= MODEL_MAX) return undefined;
  return {
    index,
    kind: Number(m[1]) as ModelKind,
    profile: index % 2 === 0 ? 'A' : 'B',
    reportType: Math.floor(index / 2) % 2 === 0 ? 'monitor' : 'diagnosis',
  };
}

export function isModelId(projectId: string): boolean {
  return parseModelId(projectId) !== undefined;
}

/**
 * The case of a model project: drawn again with the next seed while the variation does not apply
 * to the truth drawn (`make` gives undefined, as `fc.pre` discards it in the unit families).
 */
function drawCase({ index, kind, profile, reportType }: ModelProjectFacts): ModelCase {
  const variations: Variation[] = (kind === 1 ? FAULTS : kind === 2 ? NEAR_MISSES : []).filter((v) =>
    v.profiles.includes(profile),
  );
  const arb = fc.tuple(truthArb, encodingArb, fc.nat({ max: 100_000 }), fc.nat());
  for (let attempt = 0; attempt < 100; attempt++) {
    const seed = (index * 3 + kind) * 1_000 + attempt;
    const [drawn, enc, pick, which] = fc.sample(arb, { seed, numRuns: 1 })[0] as [
      Truth,
      Encoding,
      number,
      number,
    ];
    const truth = { ...drawn, reportType };
    if (kind === 0)
      return {
        answers: encode(render(truth, profile), enc, profile),
        expected: { status: 'checked', failingItems: [] },
      };
    const variation = variations[which % variations.length] as Variation;
    const plain = variation.make(truth, profile, pick);
    if (plain)
      return {
        answers: encode(plain, enc, profile),
        expected: { status: 'checked', failingItems: [...variation.items(pick)].sort((a, b) => a - b) },
        variation: variation.name,
      };
  }
  throw new Error(`demo model: no case drawn for project ${modelId(index, kind)} in 100 seeds`);
}

/** The case of a model project drawn afresh (not from the cache), or undefined for another id. */
export function drawModelCase(projectId: string): ModelCase | undefined {
  const facts = parseModelId(projectId);
  return facts ? drawCase(facts) : undefined;
}

/** Model projects by id, and their drawn cases (a few hundred bytes to a few hundred KB each). */
const projects = new Map<string, DemoProject>();
const cases = new Map<string, ModelCase>();
const CASE_CACHE_SIZE = 200;

/** The drawn case of a model project (drawn on first use, then kept in a bounded cache). */
export function modelCase(projectId: string): ModelCase | undefined {
  const facts = parseModelId(projectId);
  if (!facts) return undefined;
  let drawn = cases.get(projectId);
  if (!drawn) {
    drawn = drawModelCase(projectId)!;
    cases.set(projectId, drawn);
    if (cases.size > CASE_CACHE_SIZE) cases.delete(cases.keys().next().value as string);
  }
  return drawn;
}

/** The model project of a project id (`8<kind><index>`), or undefined; no case is drawn. */
export function modelProject(projectId: string): DemoProject | undefined {
  const facts = parseModelId(projectId);
  if (!facts) return undefined;
  const known = projects.get(projectId);
  if (known) return known;
  const { index, kind, profile, reportType } = facts;
  const base = profile === 'A' ? A_MONITOR : B_MONITOR;
  const companyId = profile === 'B' ? 3101 : Math.floor(index / 4) % 2 === 0 ? 1001 : 1002;
  const label = `model-${String(index).padStart(3, '0')}-${KIND_NAMES[kind]}-${profile}-${reportType}`;
  const project: DemoProject = {
    label,
    description: `a generated case of the unit families (${KIND_NAMES[kind]}), Profile ${profile} ${reportType}`,
    url: 'path',
    platformUrl: 'path',
    host: base.host,
    spec: {
      ...base.spec,
      projectId,
      companyId,
      profile,
      reportType,
      batchDate: MODEL_DATE,
      topic: `T${projectId}`,
      seed: `model#${projectId}`,
      batchIds: [`M-${projectId}-${MODEL_DATE.replace(/-/g, '')}`],
      listed: true,
      dataDecl: DECLARATIONS[index % DECLARATIONS.length]!,
      dataJsonParse: index % 3 === 0,
    },
    model: true,
  };
  projects.set(projectId, project);
  return project;
}

/** Every model project the batch lists name (all kinds of every index); none is drawn. */
export function* allModelProjects(): Generator<DemoProject> {
  for (let index = 0; index < MODEL_MAX; index++)
    for (const kind of [0, 1, 2] as const) yield modelProject(modelId(index, kind))!;
}

/**
 * `n` (≤ MODEL_MAX) model runs, kinds in turn (clean, fault, near-miss) so both profiles and both
 * report types come in each kind, with each run's expected outcome by label (the case is drawn here).
 */
export function modelRuns(
  n: number,
  options: { origin: string; portalBOrigin: string },
): { runs: RunInput[]; expected: Map<string, ScenarioExpectation> } {
  if (!Number.isInteger(n) || n < 0 || n > MODEL_MAX)
    throw new Error(`demo: modelRuns(n): n must be an integer from 0 to ${MODEL_MAX}, got ${n}`);
  const runs: RunInput[] = [];
  const expected = new Map<string, ScenarioExpectation>();
  for (let i = 0; i < n; i++) {
    const id = modelId(i, (i % 3) as ModelKind);
    const project = modelProject(id)!;
    runs.push(runOf(project, options.origin, options.portalBOrigin));
    expected.set(project.label, modelCase(id)!.expected);
  }
  return { runs, expected };
}
