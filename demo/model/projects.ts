import fc from 'fast-check';
import type { Profile, ReportType } from '../../lib/rules/types';
import type { RunInput } from '../../lib/run/types';
import { A_MONITOR, B_MONITOR, runOf, type DemoProject, type Fault } from '../runs';
import { ERR, type ScenarioExpectation } from '../scenario-kit';
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
 * They are also the demo's generated runs: the benchmark's nights, the catalogue self-test's and
 * demo/check-demo.ts's generated runs and the quick runs of the signal self-tests all come from
 * here (`modelRuns`), so there is one data generator for the demo and the generated tests.
 *
 * Project id `8<kind><index, 4 digits>`, nothing stored: the id alone fixes the case. `kind` 0 is
 * a clean truth (every item passes), 1 a fault class (exactly its items fail), 2 a near-miss
 * (every item passes), each drawn from the unit families' own lists (./faults.ts,
 * ./near-misses.ts), 3 a run that cannot be checked (a clean truth behind a 403, a 500 or a page
 * without DATA, by index: NOT_CHECKABLE). The truth, the encoding (envelopes, rate shapes, the
 * form of "no value", fields no check reads, the API's row order) and the variation are drawn by
 * fast-check from a seed made of the id (`fc.sample`), so a run is the same case on every start of
 * the demo.
 *
 * What the id fixes besides (the batch list needs it before any case is drawn): the profile
 * (even index A on the main origin, company 1001 or 1002; odd index B on the group's portal,
 * company 3101), the report type and the page's DATA declaration. The page draws its charts as
 * the bundled ones do (light with `?charts=0` or L1_DEMO_CHARTS=0); a section whose DATA holds
 * values of a shape the chart script cannot draw says so in its place (demo/assets/report.js).
 */

export const MODEL_MAX = 300;
export const MODEL_DATE = '2025-11-24';
export type ModelKind = 0 | 1 | 2 | 3;

/** A model project's one crawl batch id: its batch list item's, and its snapshot rows' crawlBatchId. */
export function modelBatchId(projectId: string): string {
  return `M-${projectId}-${MODEL_DATE.replace(/-/g, '')}`;
}
const KINDS: readonly ModelKind[] = [0, 1, 2, 3];
const KIND_NAMES = ['clean', 'fault', 'near-miss', 'not-checkable'] as const;

/** What a run that cannot be checked meets (kind 3), by `floor(index / 4) % 3`: every profile and report type meets each. */
const NOT_CHECKABLE: readonly { name: string; fault: Fault; expected: ScenarioExpectation }[] = [
  {
    name: '403-competitor',
    fault: { kind: 'status', status: 403, table: 'competitor' },
    expected: ERR('403', 'competitor'),
  },
  {
    name: '500-snapshot',
    fault: { kind: 'status', status: 500, table: 'snapshot' },
    expected: ERR('500', 'snapshot'),
  },
  { name: 'page-no-data', fault: { kind: 'page-without-data' }, expected: ERR('DATA') },
];
const notCheckable = (index: number) => NOT_CHECKABLE[Math.floor(index / 4) % NOT_CHECKABLE.length]!;
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
  const m = /^8([0-3])(\d{4})$/.exec(projectId);
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

/** Seeds a project may draw from: the next while a variation does not apply to the truth drawn. */
const ATTEMPTS = 100;

/**
 * The fast-check seed of a project's `attempt`th draw: one range of ATTEMPTS seeds per id, so no
 * two projects ever draw the same truth.
 */
export function caseSeed(index: number, kind: ModelKind, attempt: number): number {
  return (index * KINDS.length + kind) * ATTEMPTS + attempt;
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
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const seed = caseSeed(index, kind, attempt);
    const [drawn, enc, pick, which] = fc.sample(arb, { seed, numRuns: 1 })[0] as [
      Truth,
      Encoding,
      number,
      number,
    ];
    // The rows name the project's own batch (contract §4.2 crawlBatchId), the one its batch list gives.
    const truth = { ...drawn, reportType, batchId: modelBatchId(modelId(index, kind)) };
    // A clean truth; behind its trouble for a run that cannot be checked.
    if (kind === 0 || kind === 3) {
      const trouble = kind === 3 ? notCheckable(index) : undefined;
      return {
        answers: encode(render(truth, profile), enc, profile, true),
        expected: trouble?.expected ?? { status: 'checked', failingItems: [] },
        ...(trouble ? { variation: trouble.name } : {}),
      };
    }
    const variation = variations[which % variations.length] as Variation;
    const plain = variation.make(truth, profile, pick);
    if (plain)
      return {
        answers: encode(plain, enc, profile, true),
        expected: { status: 'checked', failingItems: [...variation.items(pick)].sort((a, b) => a - b) },
        variation: variation.name,
      };
  }
  throw new Error(`demo model: no case drawn for project ${modelId(index, kind)} in ${ATTEMPTS} seeds`);
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

/** What a model project serves (DATA and each endpoint's answer, already encoded and wrapped). */
export function modelAnswers(project: DemoProject): Answers {
  const drawn = project.model ? modelCase(project.spec.projectId) : undefined;
  if (!drawn) throw new Error(`demo: modelAnswers(${project.spec.projectId}): not a model project`);
  return drawn.answers;
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
    description: `a generated case of the unit families (${KIND_NAMES[kind]}${kind === 3 ? `: ${notCheckable(index).name}` : ''}), Profile ${profile} ${reportType}`,
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
      batchIds: [modelBatchId(projectId)],
      listed: true,
      dataDecl: DECLARATIONS[index % DECLARATIONS.length]!,
      dataJsonParse: index % 3 === 0,
    },
    model: true,
    ...(kind === 3 ? { fault: notCheckable(index).fault } : {}),
  };
  projects.set(projectId, project);
  return project;
}

/** Every model project the batch lists name (all kinds of every index); none is drawn. */
export function* allModelProjects(): Generator<DemoProject> {
  for (let index = 0; index < MODEL_MAX; index++)
    for (const kind of KINDS) yield modelProject(modelId(index, kind))!;
}

const GOLDEN = (Math.sqrt(5) - 1) / 2;
/**
 * Indices 0..n-1 in the order of the golden-ratio sequence frac((i + 1) · 0.618…): any first k of
 * them are spread over the night, never in step with a period (an even spacing would put every
 * mark on one profile, which the index's parity fixes).
 */
function goldenOrder(n: number): number[] {
  const frac = (i: number) => ((i + 1) * GOLDEN) % 1;
  return Array.from({ length: n }, (_, i) => i).sort((a, b) => frac(a) - frac(b));
}

/**
 * The kinds of a profile's passing runs in turn. The index's parity fixes the profile and
 * floor(index / 2) the report type, so a profile's runs alternate report types: in this order
 * each kind meets both report types of the profile (8 runs without faults: all four with each kind).
 */
const PASSING: readonly ModelKind[] = [0, 0, 2, 2];

export interface ModelRunsOptions {
  origin: string;
  portalBOrigin: string;
  /** Share 0..1 of runs that cannot be checked (kind 3: a 403 or a 500 on one table, or a page without DATA). Default 0. */
  uncheckable?: number;
  /** Share 0..1 of runs with a fault class (kind 1: exactly its items fail). Default 1/3. */
  failing?: number;
}

/**
 * `n` (≤ MODEL_MAX) model runs, index 0 to n-1, with each run's expected outcome by label (the case
 * is drawn here). The runs that cannot be checked and those with a fault, as many as their shares
 * say, are spread over the night (goldenOrder); the others are clean and near-miss by PASSING. So
 * each kind comes in both profiles once n is large enough: 16 runs with the catalogue self-test's
 * shares; 8 runs without faults meet every profile and report type with clean and near-miss.
 */
export function modelRuns(
  n: number,
  options: ModelRunsOptions,
): { runs: RunInput[]; expected: Map<string, ScenarioExpectation> } {
  if (!Number.isInteger(n) || n < 0 || n > MODEL_MAX)
    throw new Error(`demo: modelRuns(n): n must be an integer from 0 to ${MODEL_MAX}, got ${n}`);
  const share = (x: number, what: string) => {
    if (!(x >= 0 && x <= 1))
      throw new Error(`demo: modelRuns: ${what} must be a share from 0 to 1, got ${x}`);
    return x;
  };
  const uncheckable = Math.round(n * share(options.uncheckable ?? 0, 'uncheckable'));
  const failing = Math.min(n - uncheckable, Math.round(n * share(options.failing ?? 1 / 3, 'failing')));
  const troubled = new Map<number, ModelKind>(
    goldenOrder(n)
      .slice(0, uncheckable + failing)
      .map((index, k) => [index, k < uncheckable ? 3 : 1]),
  );
  const runs: RunInput[] = [];
  const expected = new Map<string, ScenarioExpectation>();
  const passing = [0, 0];
  for (let i = 0; i < n; i++) {
    const kind = troubled.get(i) ?? PASSING[passing[i % 2]!++ % PASSING.length]!;
    const id = modelId(i, kind);
    const project = modelProject(id)!;
    runs.push(runOf(project, options.origin, options.portalBOrigin));
    expected.set(project.label, modelCase(id)!.expected);
  }
  return { runs, expected };
}
