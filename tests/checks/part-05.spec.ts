import { declareChecks } from '../checks.spec';

// Part 5 of the runs (lib/run/runs.ts runsOfPart); the tests themselves are in tests/checks.spec.ts.
declareChecks(5);
