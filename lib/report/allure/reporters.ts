/**
 * Which reporters an invocation runs, as Playwright hands them to global setup and to each worker
 * (`config.reporter`: the config's, or the command line's `--reporter`, which replaces them all).
 * One place for the questions the suite asks of them.
 */

/** A reporter as Playwright lists it: a built-in's name, a package or a path, then its options. */
export type ReporterEntry = readonly [string, unknown?];

/** Playwright's own reporters: none reads Allure's runtime messages (`blob` is kept apart below). */
const PLAYWRIGHT_REPORTERS = new Set(['dot', 'line', 'list', 'junit', 'json', 'html', 'github', 'null']);

/** Whether allure-playwright writes results in this invocation (so its results folder is claimed). */
export function allureWrites(reporters: readonly ReporterEntry[]): boolean {
  return reporters.some(([name]) => name.includes('allure'));
}

/**
 * Whether any reporter may read Allure's runtime messages: allure-playwright, a `blob` (which
 * `merge-reports` can replay into Allure) or a reporter of the user's own. With only Playwright's
 * own reporters none does, and `html` and `json` would show each message as an attachment.
 */
export function allureMessagesRead(reporters: readonly ReporterEntry[]): boolean {
  return reporters.some(([name]) => !PLAYWRIGHT_REPORTERS.has(name));
}

/**
 * The reporter that writes its report to stdout, if any: Playwright's `json` and `junit` do when no
 * file is named for it (its `outputFile` or `fileName` option, `PLAYWRIGHT_<NAME>_OUTPUT_FILE` or
 * `PLAYWRIGHT_<NAME>_OUTPUT_NAME`), as in `npx playwright test --reporter=junit > results.xml`. The
 * suite's own lines (where the runs come from, the grid) then go to stderr, so that what lands in
 * the file is the report and nothing else.
 */
export function reportOnStdout(
  reporters: readonly ReporterEntry[],
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  for (const [name, options] of reporters) {
    if (name !== 'json' && name !== 'junit') continue;
    const NAME = name.toUpperCase();
    const o = (options ?? {}) as { outputFile?: unknown; fileName?: unknown };
    const named =
      env[`PLAYWRIGHT_${NAME}_OUTPUT_FILE`] ||
      o.outputFile ||
      env[`PLAYWRIGHT_${NAME}_OUTPUT_NAME`] ||
      o.fileName;
    if (!named) return name;
  }
  return undefined;
}
