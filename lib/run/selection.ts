import type { Selection } from '../schema/verdict';
import { escapeUnsafe } from '../util/escape';

/**
 * How an option of `playwright test` (Playwright 1.65, `npx playwright test --help`) takes its value:
 * `value` always the next argument (`<x>`), `optional` the next argument unless it starts with `-`
 * (`[x]`), `variadic` every following argument up to one that starts with `-` (`<x...>`), `flag`
 * none. This is how commander, Playwright's parser, reads them: `--shuffle tests/x.spec.ts` takes
 * the file as its seed and runs every test, `-u tests/x.spec.ts` is refused as an invalid mode (so
 * nothing runs), and `--only-changed main` compares with `main`. Read the same way here, an
 * argument is a file filter exactly when Playwright takes it as one.
 */
type Arity = 'flag' | 'value' | 'optional' | 'variadic';

/** The options of `playwright test`: how each takes its value, and whether it selects tests. */
const OPTIONS: Record<string, { arity: Arity; filter?: true }> = {
  '--add-reporter': { arity: 'value' },
  '--browser': { arity: 'value' },
  '--config': { arity: 'value' },
  '--debug': { arity: 'optional' },
  '--fail-on-flaky-tests': { arity: 'flag' },
  '--forbid-only': { arity: 'flag' },
  '--fully-parallel': { arity: 'flag' },
  '--global-timeout': { arity: 'value' },
  '--grep': { arity: 'value', filter: true },
  '--grep-invert': { arity: 'value', filter: true },
  '--headed': { arity: 'flag' },
  '--help': { arity: 'flag' },
  '--ignore-snapshots': { arity: 'flag' },
  '--last-failed': { arity: 'flag', filter: true },
  '--last-failed-file': { arity: 'value' },
  '--list': { arity: 'flag' },
  '--max-failures': { arity: 'value' },
  '--no-deps': { arity: 'flag' },
  '--only-changed': { arity: 'optional', filter: true },
  '--output': { arity: 'value' },
  '--pass-with-no-tests': { arity: 'flag' },
  '--project': { arity: 'variadic', filter: true },
  '--quiet': { arity: 'flag' },
  '--repeat-each': { arity: 'value' },
  '--reporter': { arity: 'value' },
  '--retries': { arity: 'value' },
  '--run-agents': { arity: 'value' },
  '--shard': { arity: 'value' },
  '--shuffle': { arity: 'optional' },
  '--test-list': { arity: 'value', filter: true },
  '--test-list-invert': { arity: 'value', filter: true },
  '--timeout': { arity: 'value' },
  '--trace': { arity: 'value' },
  '--tsconfig': { arity: 'value' },
  '--ui': { arity: 'flag' },
  '--ui-host': { arity: 'value' },
  '--ui-port': { arity: 'value' },
  '--update-snapshots': { arity: 'optional' },
  '--update-source-method': { arity: 'value' },
  '--workers': { arity: 'value' },
  '-x': { arity: 'flag' },
};

/** The short names: `-gitem5` is `-g item5`, `-xj2` is `-x -j 2`, as commander reads them. */
const SHORT: Record<string, string> = {
  '-c': '--config',
  '-g': '--grep',
  '-G': '--grep-invert',
  '-h': '--help',
  '-j': '--workers',
  '-u': '--update-snapshots',
  '-x': '-x',
};

/** Commander's test for an argument that is an option rather than a value (`-5` is a value). */
const isOption = (arg: string) =>
  arg.length > 1 && arg.startsWith('-') && !/^-(\d+|\d*\.\d+)(e[+-]?\d+)?$/.test(arg);

/** The runner's command line as Playwright reads it: each option's values, and the test filters. */
export interface TestArgv {
  /** By long name (`-g` is `--grep`): the values given, in order (a flag has none). */
  options: Map<string, string[]>;
  /** Each filter as written: `--grep item5`, `-gitem5`, `--last-failed`, a file or line filter. */
  filters: string[];
  /**
   * What follows a `--`: Playwright 1.65 drops it (its `test` action passes on only the arguments
   * before `--`), so it is neither an option nor a filter of the invocation.
   */
  dropped: string[];
}

/**
 * Reads the arguments after `test` the way commander, Playwright's parser, does (see `Arity`). The
 * one reader of the command line: the selection, the shard and `--output` all come from it. An
 * option this list does not know is passed over with no value (Playwright refuses it: nothing runs).
 */
export function readTestArgv(argv: readonly string[]): TestArgv {
  const i = argv.indexOf('test');
  const args = i >= 0 ? argv.slice(i + 1) : [];
  const options = new Map<string, string[]>();
  const filters: string[] = [];
  const dropped: string[] = [];
  let k = 0;
  /** The value of an option written apart from it, if it takes one here. */
  const value = (arity: Arity): string[] => {
    if (arity === 'value') return k < args.length ? [args[k++]!] : [];
    if (arity === 'optional') return k < args.length && !isOption(args[k]!) ? [args[k++]!] : [];
    const values: string[] = [];
    if (arity === 'variadic') while (k < args.length && !isOption(args[k]!)) values.push(args[k++]!);
    return values;
  };
  /** One option read: its values kept, its written form a filter when it selects tests. */
  const seen = (long: string, written: string[], values: string[]) => {
    options.set(long, [...(options.get(long) ?? []), ...values]);
    if (OPTIONS[long]!.filter) filters.push(written.join(' '));
  };
  while (k < args.length) {
    const arg = args[k++]!;
    if (arg === '--') {
      dropped.push(...args.slice(k));
      break;
    }
    if (!isOption(arg)) {
      filters.push(arg); // a file or line filter
      continue;
    }
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const long = OPTIONS[arg] ? arg : eq > 0 ? arg.slice(0, eq) : undefined;
    if (long !== undefined) {
      if (!OPTIONS[long]) continue;
      if (eq > 0 && long !== arg) seen(long, [arg], [arg.slice(eq + 1)]);
      else {
        const values = value(OPTIONS[long].arity);
        seen(long, [arg, ...values], values);
      }
      continue;
    }
    // Short options, grouped as commander groups them: `-gitem5`, `-j2`, `-xgitem5`.
    let rest = arg.slice(1);
    while (rest) {
      const name = SHORT[`-${rest[0]}`];
      const option = name ? OPTIONS[name] : undefined;
      if (!name || !option) break;
      const attached = rest.slice(1);
      if (option.arity === 'flag') {
        seen(name, [`-${rest[0]}`], []);
        rest = attached;
        continue;
      }
      if (attached) seen(name, [`-${rest[0]}${attached}`], [attached]);
      else {
        const values = value(option.arity);
        seen(name, [`-${rest[0]}`, ...values], values);
      }
      break;
    }
  }
  return { options, filters, dropped };
}

/**
 * What an invocation selected, read from the runner's command line (Playwright gives global setup
 * and teardown the config, not the CLI filters). `complete` is true when nothing narrowed the
 * items: a verdict of such an invocation lists every item of its runs.
 */
export function selectionFromArgv(
  argv: string[],
  shard: { current: number; total: number } | null,
): Selection {
  const { filters, options } = readTestArgv(argv);
  // `--repeat-each N` runs each test N times: not a night (each repeat would be a test of its own in
  // the night's history, under an id no other night has; CLI audit of 2026-11-27), but an
  // investigation like a filter. Its repeats assert the run's one judged result again (as a retry of
  // a checked run does); to collect a flaky platform again, --retries.
  const repeat = Number(options.get('--repeat-each')?.at(-1) ?? 1);
  const all = repeat > 1 ? [...filters, `--repeat-each ${repeat}`] : filters;
  return {
    filters: all,
    shard: shard ? `${shard.current}/${shard.total}` : null,
    complete: all.length === 0,
  };
}

/** The last value the command line gives an option (`--shard 2/3`, `--output=DIR`), if any. */
export function lastValue(argv: readonly string[], long: string): string | undefined {
  return readTestArgv(argv).options.get(long)?.at(-1);
}

/** `--shard i/n` (or `--shard=i/n`) of the runner's command line. */
export function shardFromArgv(argv: string[]): { current: number; total: number } | null {
  return parseShard(lastValue(argv, '--shard') ?? '');
}

/** `i/n` as `--shard` and a verdict's `selection.shard` write it, or null for anything else. */
export function parseShard(text: string): { current: number; total: number } | null {
  const m = /^(\d+)\/(\d+)$/.exec(text);
  return m ? { current: Number(m[1]), total: Number(m[2]) } : null;
}

/**
 * Why the runner's command line (and `PWDEBUG`) is refused as the config loads, saying what to use
 * instead, or undefined. Refused: `merge-reports` loading this config, whose reporters write the
 * night's outputs; Playwright's inspector (`--debug`, `PWDEBUG`), which waits for a person; arguments after `--`, which Playwright drops; and filters that match a test by the file
 * it is declared in, which here is never a test file: every check is declared in
 * tests/checks.spec.ts and loaded by the part files (tests/checks/part-NN.spec.ts, docs/decisions.md
 * § Speed). A file filter naming tests/checks.spec.ts, `--only-changed` (a test whose declaring
 * file changed) and `--test-list` (a line naming both files) selected nothing, and the invocation
 * passed with exit 0 having checked nothing (`--test-list-invert` excluded nothing).
 */
export function refusedCommandLine(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  // The config's reporters write the night's Allure results: `merge-reports -c playwright.config.ts`
  // put a morning's blob into them, and the next `npm run report` built one report and one history
  // point of both (the audit of a 300-run night, 2026-11-27). scripts/ci/merge.sh merges without -c.
  if (argv[2] === 'merge-reports')
    return "playwright merge-reports with the suite's config (-c) is refused: its reporters write the night's Allure results, so the merged blobs would join the night's report and its history. Merge blob reports without -c (npx playwright merge-reports --reporter html,junit <folder>, as scripts/ci/merge.sh does); the Allure report is built by npm run report";
  const { options, dropped, filters } = readTestArgv(argv);
  // Playwright's inspector pauses every test for a person at a display (and implies -x and one
  // worker): each run's collection waited out its budget and was reported as the platform's fault,
  // and the night's outputs were replaced (CLI audit of 2026-11-27).
  const debug = options.has('--debug')
    ? '--debug'
    : env.PWDEBUG && env.PWDEBUG !== '0'
      ? `PWDEBUG=${escapeUnsafe(env.PWDEBUG).slice(0, 20)}`
      : undefined;
  if (debug)
    return `${debug} is refused: Playwright's inspector pauses each test until a person resumes it, and the checks run headless with a budget per run, so every run would wait out L1_RUN_TIMEOUT_MS and be reported as the platform's failure. Look at a run with --grep (e.g. --grep item5) and its failure message, mismatch table and section pictures in the Allure report`;
  // UI mode runs tests when a person clicks them, in a window the checks have no use for (no test
  // opens a page of its own), and `--ui-host`/`--ui-port` serve it until stopped: the invocation
  // waited, its night's outputs claimed (CLI audit of 2026-11-28).
  const ui = ['--ui', '--ui-host', '--ui-port'].find((o) => options.has(o));
  if (ui)
    return `${ui} is refused: Playwright's UI mode waits for a person to run each test, and the checks open no page of their own to watch (each run's collection reads its report page headless, within a budget). Look at a run with --grep (e.g. --grep item5) and its failure message, mismatch table and section pictures in the Allure report`;
  // The Collector reads every report page in Chromium (its box, its memory watch: README.md
  // § Security and limits): another browser was ignored without a word (CLI audit of 2026-11-28).
  const browser = options.get('--browser')?.find((b) => b !== 'chromium');
  if (browser !== undefined)
    return `--browser ${escapeUnsafe(browser).slice(0, 40)} is refused: the checks read every report page in Chromium (the browser the suite boxes and measures; L1_CHROMIUM_PATH names which), so another browser would be ignored. Run without --browser`;
  // Playwright would run every check, and a complete invocation writes over the night's outputs:
  // `npx playwright test -- --grep item5` the morning after would replace the night with a re-run.
  if (dropped.length > 0)
    return `arguments after \`--\` are refused: Playwright drops them (${escapeUnsafe(dropped.join(' ')).slice(0, 200)}), so every check would run instead of the ones they name. Write them without \`--\` (npx playwright test --grep item5; npm run demo -- --grep item5 passes them on already)`;
  // The lines the terminal and Allure show are in tests/checks.spec.ts, which declares every check but
  // is not a test file: Playwright found no test and a partial folder was left (CLI audit of 2026-11-27).
  const declaring = filters.find((f) => !f.startsWith('-') && /(^|[\\/])checks\.spec(\.ts)?(:\d+)*$/.test(f));
  if (declaring)
    return `the file filter ${escapeUnsafe(declaring).slice(0, 100)} is refused: tests/checks.spec.ts declares every check but is not a test file (the tests run from tests/checks/part-NN.spec.ts), so it would select none. Filter by run or item with --grep (e.g. --grep item5, --grep A-monitor)`;
  if (options.has('--only-changed'))
    return '--only-changed is refused: it keeps the tests whose declaring file changed, and every check is declared in tests/checks.spec.ts, which is not a test file, so it would select none and pass. Filter by run or item with --grep (e.g. --grep item5, --grep A-monitor)';
  for (const flag of ['--test-list', '--test-list-invert'])
    if (options.has(flag))
      return `${flag} is refused: it matches a test by its declaring file, tests/checks.spec.ts, and by its test file, tests/checks/part-NN.spec.ts, which one line cannot both name, so it would select ${flag.endsWith('invert') ? 'everything' : 'nothing'}. Filter by run or item with --grep, or re-run failures with --last-failed`;
  return undefined;
}
