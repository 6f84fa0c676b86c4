import { parseArgs, type ParseArgsConfig } from 'node:util';

/**
 * `parseArgs` for a script's command line: an unknown or malformed option prints what is wrong and
 * the usage, and exits 2 (bad usage), never Node's stack trace.
 *
 * @example const { values } = parseArgsOrUsage({ options: { out: { type: 'string' } } }, 'merge', USAGE);
 */
export function parseArgsOrUsage<T extends ParseArgsConfig>(
  config: T,
  name: string,
  usage: string,
): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config);
  } catch (e) {
    process.stderr.write(`${name}: ${e instanceof Error ? e.message : String(e)}\n${usage}\n`);
    process.exit(2);
  }
}
