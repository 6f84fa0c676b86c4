/**
 * The demo's named runs (bundled runs and every scenario family) and how a `--scenario` list picks
 * them: demo/runs-file.ts writes their runs file, and the main job (`npm run demo -- --scenario …`)
 * checks the names before it starts the demo.
 */
import { escapeRegExp } from '../lib/util/escape';
import { BUNDLED, type DemoProject } from './runs';
import type { ScenarioExpectation } from './scenario-kit';
import { ALL_SCENARIOS } from './scenarios';

export interface ScenarioEntry {
  name: string;
  description: string;
  project: DemoProject;
  expected: ScenarioExpectation;
  level?: 'product';
}

export const SCENARIO_ENTRIES: readonly ScenarioEntry[] = [
  ...BUNDLED.map((p) => ({
    name: p.label,
    description: p.description ?? '',
    project: p,
    expected: { status: 'checked', failingItems: [] } as ScenarioExpectation,
  })),
  ...ALL_SCENARIOS.map((s) => ({
    name: s.label,
    description: s.description,
    project: s,
    expected: s.expected,
    ...(s.level ? { level: s.level } : {}),
  })),
];

/**
 * One line per name a `--scenario` list takes, with its description, and `extra` rows after them
 * in the same columns: `npm run demo -- --scenarios` prints these alone, demo/runs-file.ts `--list`
 * adds its `--model` line.
 */
export function scenarioListLines(extra: readonly { name: string; description: string }[] = []): string[] {
  const rows = [...SCENARIO_ENTRIES, ...extra];
  const width = Math.max(...rows.map((e) => e.name.length));
  return rows.map((e) => `${e.name.padEnd(width)}  ${e.description}`);
}

/**
 * The entries a `--scenario` list names (`all`, names, `*` as the one wildcard), in catalogue order;
 * a string saying what is wrong when the list is empty or names a run the demo does not have.
 */
export function selectScenarios(spec: string): ScenarioEntry[] | string {
  const names = spec
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean);
  if (names.length === 0) return '--scenario needs at least one name';
  if (names.includes('all')) return [...SCENARIO_ENTRIES];
  const chosen = new Set<ScenarioEntry>();
  const unknown: string[] = [];
  for (const name of names) {
    // `*` is the one wildcard: escaped with the rest, then turned back into `.*`.
    const pattern = new RegExp(`^${escapeRegExp(name).replaceAll('\\*', '.*')}$`);
    const hits = SCENARIO_ENTRIES.filter((e) => pattern.test(e.name));
    if (hits.length === 0) unknown.push(name);
    for (const hit of hits) chosen.add(hit);
  }
  if (unknown.length > 0)
    return `unknown scenario ${unknown.map((n) => `"${n}"`).join(', ')} (the ${SCENARIO_ENTRIES.length} names: npm run demo -- --scenarios)`;
  return SCENARIO_ENTRIES.filter((e) => chosen.has(e));
}
