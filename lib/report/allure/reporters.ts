import path from 'node:path';

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
 * Why an Allure reporter of this invocation is refused, if one is: given on the command line
 * (`--reporter=dot,allure-playwright`) it takes no options, and allure-js-commons then writes to
 * `./allure-results` under the folder the command ran in, which may be the night's results folder
 * or a folder nothing claims. A morning's `--grep item5 --reporter=list,allure-playwright` joined
 * the night's report and history that way, and the main job, finding no results where the
 * invocation's go, exited 3 (CLI audit of 2026-11-26). Only the configured reporter, which writes
 * to `resultsDir`, is taken.
 */
export function misplacedAllure(
  reporters: readonly ReporterEntry[],
  resultsDir: string,
  flag: '--reporter' | '--add-reporter' = '--reporter',
): string | undefined {
  for (const [name, options] of reporters) {
    if (!name.includes('allure')) continue;
    const dir = (options as { resultsDir?: unknown } | undefined)?.resultsDir;
    if (typeof dir === 'string' && path.resolve(dir) === path.resolve(resultsDir)) continue;
    const shown = name.includes('allure-playwright') ? 'allure-playwright' : path.basename(name);
    return `${flag}=${shown} is refused: from the command line it takes no options and would write its results to ./allure-results of the folder the command ran in, not to this invocation's results folder (a partial run's would join the night's report). Run without ${flag}=${shown}: the configured reporters are list and Allure, each writing where the invocation's outputs go; or name Playwright's own reporters only (--reporter=dot) and build no Allure report`;
  }
  return undefined;
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
