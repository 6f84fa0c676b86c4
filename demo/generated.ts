import type { RunInput } from '../lib/run/types';
import type { PlatformView } from './dataset';
import { A_DIAGNOSIS, A_MONITOR, B_DIAGNOSIS, B_MONITOR, runOf, type DemoProject } from './runs';
import { ERR, FAILS, num, printedLike, type ScenarioExpectation } from './scenario-kit';

/**
 * Generated runs for the benchmark (docs/decisions.md, Speed): up to GENERATED_MAX projects derived from the four
 * bundled ones, each with its own seed, served from the project id alone (nothing precomputed; the
 * catalog builds a project's views on first use and keeps a bounded cache).
 *
 * Project id `9<variant><index, 4 digits>`: variant 0 clean, 1 cannot be checked, 2 one drifted item.
 * The index picks the base (index % 4: A-monitor, A-diagnosis, B-monitor, B-diagnosis), the company
 * (Profile A alternates 1001 and 1002; Profile B keeps 3101 on the portal and 3100) and, by
 * `slot = floor(index / 4) % 3`, which fault or drift the variant carries.
 */

export const GENERATED_MAX = 300;
const BASES: readonly DemoProject[] = [A_MONITOR, A_DIAGNOSIS, B_MONITOR, B_DIAGNOSIS];
type Variant = 0 | 1 | 2;

interface Trouble {
  name: string;
  expected: ScenarioExpectation;
  apply: (p: DemoProject) => DemoProject;
}

const UNCHECKABLE: readonly Trouble[] = [
  {
    name: '403-competitor',
    expected: ERR('403', 'competitor'),
    apply: (p) => ({ ...p, fault: { kind: 'status', status: 403, table: 'competitor' } }),
  },
  {
    name: '500-snapshot',
    expected: ERR('500', 'snapshot'),
    apply: (p) => ({ ...p, fault: { kind: 'status', status: 500, table: 'snapshot' } }),
  },
  {
    name: 'page-no-data',
    expected: ERR('DATA'),
    apply: (p) => ({ ...p, fault: { kind: 'page-without-data' } }),
  },
];

const drift = (platform: (view: PlatformView) => void) => (p: DemoProject) => ({ ...p, platform });

const FAILING: readonly Trouble[] = [
  {
    name: 'drift-source-channel',
    expected: FAILS(11),
    apply: drift((view) => {
      const row = view.source.all?.[5];
      if (!row) throw new Error('demo generated: fewer than six sources');
      row.channel = row.channel === '知乎' ? '搜狐' : '知乎';
    }),
  },
  {
    name: 'drift-extra-word',
    expected: FAILS(6),
    apply: drift((view) => {
      view.wordcloud.words.push({ word: '平台独有词', weight: 12 });
    }),
  },
  {
    name: 'drift-rank-swap',
    expected: FAILS(5),
    apply: drift((view) => {
      const brands = view.competitor
        .filter((r) => r.kind === 'brand')
        .sort((a, b) => num(b.exposure_rate) - num(a.exposure_rate));
      const [first, second] = brands;
      if (!first || !second) throw new Error('demo generated: fewer than two brand rows');
      const [a, b] = [num(first.exposure_rate), num(second.exposure_rate)];
      first.exposure_rate = printedLike(first.exposure_rate, b);
      second.exposure_rate = printedLike(second.exposure_rate, a);
    }),
  },
];

export function generatedId(index: number, variant: Variant): string {
  return `9${variant}${String(index).padStart(4, '0')}`;
}

function parseId(projectId: string): { index: number; variant: Variant } | undefined {
  const m = /^9([0-2])(\d{4})$/.exec(projectId);
  if (!m) return undefined;
  const index = Number(m[2]);
  return index < GENERATED_MAX ? { index, variant: Number(m[1]) as Variant } : undefined;
}

export function isGeneratedId(projectId: string): boolean {
  return parseId(projectId) !== undefined;
}

interface Generated {
  project: DemoProject;
  expected: ScenarioExpectation;
}

const cache = new Map<string, Generated>();

function build(index: number, variant: Variant): Generated {
  const base = BASES[index % BASES.length] as DemoProject;
  const slot = Math.floor(index / BASES.length);
  const profileA = base.spec.profile === 'A';
  const companyId =
    profileA && slot % 2 === 1 ? (base.spec.companyId === 1001 ? 1002 : 1001) : base.spec.companyId;
  const projectId = generatedId(index, variant);
  const trouble = variant === 1 ? UNCHECKABLE[slot % 3] : variant === 2 ? FAILING[slot % 3] : undefined;
  const label = `gen-${String(index).padStart(3, '0')}-${base.label}-${companyId}${trouble ? `-${trouble.name}` : ''}`;
  const project: DemoProject = {
    label,
    description: `generated #${index} from ${base.label} (company ${companyId})${trouble ? `: ${trouble.name}` : ''}`,
    url: base.url,
    platformUrl: base.platformUrl,
    host: base.host,
    spec: {
      ...base.spec,
      projectId,
      companyId,
      topic: `T${projectId}`,
      seed: `${base.spec.seed}#gen-${index}`,
      // The 7.3.5 near-miss stays with the bundled A-diagnosis: a benchmark run exercises speed only.
      shape: { ...base.spec.shape, doubleDivision: undefined },
      batchIds: base.spec.batchIds.map((id) => id.replace(base.spec.projectId, projectId)),
    },
  };
  return { project: trouble ? trouble.apply(project) : project, expected: trouble?.expected ?? FAILS() };
}

function generated(index: number, variant: Variant): Generated {
  const id = generatedId(index, variant);
  let entry = cache.get(id);
  if (!entry) {
    entry = build(index, variant);
    cache.set(id, entry);
  }
  return entry;
}

/** The generated project of a project id (`9<variant><index>`), or undefined. */
export function generatedProject(projectId: string): DemoProject | undefined {
  const parsed = parseId(projectId);
  return parsed ? generated(parsed.index, parsed.variant).project : undefined;
}

/** Every generated project that could be asked for (for the batch lists): all variants of every index. */
export function* allGeneratedProjects(): Generator<DemoProject> {
  for (let index = 0; index < GENERATED_MAX; index++)
    for (const variant of [0, 1, 2] as const) yield generated(index, variant).project;
}

/** Positions 0..n-1 that get one of `count` marks, spread evenly (Bresenham). */
function spread(n: number, count: number): boolean[] {
  return Array.from({ length: n }, (_, i) => Math.floor(((i + 1) * count) / n) > Math.floor((i * count) / n));
}

export interface GeneratedOptions {
  origin: string;
  portalBOrigin: string;
  /** Share 0..1 of runs that cannot be checked (a 403 or a 500 on one table, or a page without DATA). */
  uncheckable?: number;
  /** Share 0..1 of runs with one drifted item. */
  failing?: number;
}

/** `n` (≤ GENERATED_MAX) generated runs with unique labels and each run's expected outcome by label. */
export function generatedRuns(
  n: number,
  options: GeneratedOptions,
): { runs: RunInput[]; expected: Map<string, ScenarioExpectation> } {
  if (!Number.isInteger(n) || n < 0 || n > GENERATED_MAX)
    throw new Error(`demo: generatedRuns(n): n must be an integer from 0 to ${GENERATED_MAX}, got ${n}`);
  const share = (x: number | undefined, what: string) => {
    if (x === undefined) return 0;
    if (!(x >= 0 && x <= 1))
      throw new Error(`demo: generatedRuns: ${what} must be a share from 0 to 1, got ${x}`);
    return x;
  };
  const uncheckable = Math.round(n * share(options.uncheckable, 'uncheckable'));
  const failing = Math.min(n - uncheckable, Math.round(n * share(options.failing, 'failing')));
  const isUncheckable = spread(n, uncheckable);
  const rest = n - uncheckable;
  const isFailing = spread(rest, failing);
  const runs: RunInput[] = [];
  const expected = new Map<string, ScenarioExpectation>();
  let j = 0;
  for (let i = 0; i < n; i++) {
    const variant: Variant = isUncheckable[i] ? 1 : isFailing[j++] ? 2 : 0;
    const g = generated(i, variant);
    runs.push(runOf(g.project, options.origin, options.portalBOrigin));
    expected.set(g.project.label, g.expected);
  }
  return { runs, expected };
}
