import type { Selection } from '../schema/verdict';

/** CLI options of `playwright test` that take a value but do not select tests. */
const VALUE_OPTIONS = new Set([
  '-c',
  '--config',
  '--reporter',
  '-j',
  '--workers',
  '--shard',
  '--retries',
  '--timeout',
  '--max-failures',
  '--trace',
  '--output',
  '--repeat-each',
  '--global-timeout',
  '--tsconfig',
  '--browser',
  '--update-source-method',
  '--update-snapshots',
]);
/** CLI options that select tests; each takes a value. */
const FILTER_VALUE_OPTIONS = new Set([
  '-g',
  '--grep',
  '-G',
  '--grep-invert',
  '--project',
  '--test-list',
  '--test-list-invert',
]);
/** CLI options that select tests without a value. */
const FILTER_FLAGS = new Set(['--last-failed', '--only-changed']);

/**
 * What an invocation selected, read from the runner's command line (Playwright gives global setup
 * and teardown the config, not the CLI filters). `complete` is true when nothing narrowed the
 * items: a verdict of such an invocation lists every item of its runs.
 */
export function selectionFromArgv(
  argv: string[],
  shard: { current: number; total: number } | null,
): Selection {
  const i = argv.findIndex((a) => a === 'test');
  const args = i >= 0 ? argv.slice(i + 1) : [];
  const filters: string[] = [];
  for (let k = 0; k < args.length; k++) {
    const arg = args[k]!;
    const [name, inline] =
      arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg] : [arg, undefined];
    if (FILTER_VALUE_OPTIONS.has(name)) {
      filters.push(inline ?? `${name} ${args[++k] ?? ''}`.trim());
    } else if (FILTER_FLAGS.has(name)) {
      filters.push(inline ?? name);
    } else if (VALUE_OPTIONS.has(name)) {
      if (inline === undefined && !(name === '--update-snapshots' && args[k + 1]?.startsWith('-'))) k++;
    } else if (!arg.startsWith('-')) {
      filters.push(arg); // a file or line filter
    }
  }
  return { filters, shard: shard ? `${shard.current}/${shard.total}` : null, complete: filters.length === 0 };
}

/** `--shard i/n` (or `--shard=i/n`) of the runner's command line. */
export function shardFromArgv(argv: string[]): { current: number; total: number } | null {
  for (let k = 0; k < argv.length; k++) {
    const arg = argv[k]!;
    const value = arg === '--shard' ? argv[k + 1] : arg.startsWith('--shard=') ? arg.slice(8) : undefined;
    const m = value ? /^(\d+)\/(\d+)$/.exec(value) : null;
    if (m) return { current: Number(m[1]), total: Number(m[2]) };
  }
  return null;
}
