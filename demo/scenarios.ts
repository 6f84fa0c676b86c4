import type { RunInput } from '../lib/run/types';
import { runOf, TEMPLATE } from './runs';
import type { Scenario } from './scenario-kit';
import { DRIFT_SCENARIOS, NIGHTLY_SCENARIOS } from './scenarios-drift';
import { FAULT_SCENARIOS } from './scenarios-faults';
import { HOSTILE_SCENARIOS, PAGE_SIDE_HOSTILE } from './scenarios-hostile';

/**
 * Extra demo projects for self-tests: each is a copy of a bundled project under its own project id
 * with one fault (docs/contract.md §4 errors), one drift (exactly one thing changed on one side, so exactly
 * the named items fail) or one hostile behaviour (README.md § Security and limits). None of them is in the bundled runs;
 * `scenarioRuns` gives each its run.
 *
 * `SCENARIOS` holds the fault and drift families (what the scenario self-test and check-demo walk);
 * `NIGHTLY_SCENARIOS` the ones served every night (templated runs); `HOSTILE_SCENARIOS` the
 * `hostile-*` family; `ALL_SCENARIOS` all of them.
 */

export type { Scenario, ScenarioExpectation } from './scenario-kit';
export { HOSTILE_SCENARIOS, NIGHTLY_SCENARIOS, PAGE_SIDE_HOSTILE };

export const SCENARIOS: readonly Scenario[] = [...FAULT_SCENARIOS, ...DRIFT_SCENARIOS];
export const ALL_SCENARIOS: readonly Scenario[] = [...SCENARIOS, ...NIGHTLY_SCENARIOS, ...HOSTILE_SCENARIOS];

export function scenarioByLabel(label: string): Scenario | undefined {
  return ALL_SCENARIOS.find((s) => s.label === label);
}

/** Each scenario's run (every family), by label (the run's label is the scenario's). */
export function scenarioRuns(origin: string, portalBOrigin: string): Record<string, RunInput> {
  return Object.fromEntries(
    ALL_SCENARIOS.map((s) => {
      const run = runOf(s, origin, portalBOrigin, s.nightly ? TEMPLATE : undefined);
      return [s.label, s.level ? { ...run, level: s.level } : run];
    }),
  );
}
