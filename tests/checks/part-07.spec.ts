import { declareChecks } from '../checks.spec';

// Part 7 of the runs (lib/run/runs.ts runsOfPart); the tests themselves are in tests/checks.spec.ts.
declareChecks(7);
