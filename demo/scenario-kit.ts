import type { DataInput, PlatformView, ProjectSpec, SnapshotRowInput, TmcRowInput } from './dataset';
import type { Hostile } from './hostile-kinds';
import { round1 } from './prng';
import type { DemoProject, Fault } from './runs';

/**
 * What every scenario is made of: a copy of a bundled project (same seed, same numbers) under its own
 * project id, with one fault, one drift or one hostile behaviour, and its expected outcome.
 */
export interface ScenarioExpectation {
  status: 'checked' | 'error' | 'needs-input';
  /** The items whose verdict is fail; every other item passes. Given for status `checked`. */
  failingItems?: number[];
  /** Case-insensitive fragments the run's reason contains (endpoint, status, code or field). */
  reasonIncludes?: string[];
}

export interface Scenario extends DemoProject {
  description: string;
  expected: ScenarioExpectation;
  /** Run level (docs/contract.md §1): `product` compares the Profile B product ranking (spec 9.5.1). */
  level?: 'product';
}

interface Derived {
  label: string;
  projectId: string;
  description: string;
  expected: ScenarioExpectation;
  companyId?: number;
  host?: 'main' | 'portalB';
  line?: string;
  batchIds?: string[];
  listed?: boolean;
  fault?: Fault;
  html?: (data: DataInput) => unknown;
  platform?: (view: PlatformView) => void;
  level?: 'product';
  hostile?: Hostile;
  runExtras?: DemoProject['runExtras'];
  /** Spec fields to change besides the ids (a brand name, a declaration form). */
  spec?: Partial<ProjectSpec>;
}

/** A copy of a bundled project: same seed (same numbers), new project id, its own batch ids. */
export function derive(base: DemoProject, d: Derived): Scenario {
  const { projectId } = d;
  const batchIds = d.batchIds ?? base.spec.batchIds.map((id) => id.replace(base.spec.projectId, projectId));
  return {
    label: d.label,
    url: base.url,
    platformUrl: base.platformUrl,
    host: d.host ?? base.host,
    description: d.description,
    expected: d.expected,
    spec: {
      ...base.spec,
      projectId,
      topic: `T${projectId}`,
      companyId: d.companyId ?? base.spec.companyId,
      line: d.line ?? base.spec.line,
      batchIds,
      listed: d.listed ?? base.spec.listed,
      ...d.spec,
    },
    ...(d.fault ? { fault: d.fault } : {}),
    ...(d.html ? { html: d.html } : {}),
    ...(d.platform ? { platform: d.platform } : {}),
    ...(d.level ? { level: d.level } : {}),
    ...(d.hostile ? { hostile: d.hostile } : {}),
    ...(d.runExtras ? { runExtras: d.runExtras } : {}),
  };
}

// --- helpers for drifts: numbers in, the platform's own print format out -------------------------

export function num(value: unknown): number {
  return typeof value === 'number' ? value : Number.parseFloat(String(value));
}

/** `value` printed like `like` (number, "23.4" or "23.4%"), one decimal. */
export function printedLike(like: unknown, value: number): string | number {
  if (typeof like === 'number') return round1(value);
  return `${round1(value).toFixed(1)}${String(like).trim().endsWith('%') ? '%' : ''}`;
}

export function allRow(view: PlatformView): SnapshotRowInput {
  const row = view.snapshot.find((r) => r.platform === 'all');
  if (!row) throw new Error('demo scenario: no snapshot row all');
  return row;
}

export function tmcGroup(
  view: PlatformView,
  platform: string,
  dimension: TmcRowInput['dimension'],
): TmcRowInput[] {
  return view.tmc.filter((r) => r.platform === platform && r.dimension === dimension);
}

/** Profile A: the own brand's aggregate exposure rate is HTML x.x4 (dataset.ts), platform x.x. */
export function platformAggregateGap(by: number) {
  return (view: PlatformView) => {
    const row = allRow(view);
    row.exposure_rate = printedLike(row.exposure_rate, num(row.exposure_rate) + by);
  };
}

export const ERR = (...reasonIncludes: string[]): ScenarioExpectation => ({
  status: 'error',
  reasonIncludes,
});
export const FAILS = (...failingItems: number[]): ScenarioExpectation => ({
  status: 'checked',
  failingItems,
});
