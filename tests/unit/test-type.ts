/**
 * The unit tests' test type: Playwright's root test type, as the suite's own (fixtures/base.ts).
 * No unit test uses a fixture of @playwright/test's `test`: those that need Chromium launch it
 * themselves, as the Collector does. Its browser fixtures set up three automatic ones for every test,
 * each with a step and a captured, source-mapped stack, and instrument every call of the tests'
 * own browsers for traces and screenshots; on the root type the unit stage took 0.95 of the time
 * and CPU (three alternating pairs, docs/speed-log.md).
 */
export { _baseTest as test, expect } from '@playwright/test';
