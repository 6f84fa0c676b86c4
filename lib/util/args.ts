import { parseArgs, type ParseArgsConfig } from 'node:util';

/**
 * `parseArgs` for a script's command line: an unknown or malformed option prints what is wrong and
 * the usage, and exits `code` (2, bad usage, unless the script's codes give 2 another meaning),
 * never Node's stack trace (its 1 reads as "some item failed" downstream).
 *
 * @example const { values } = parseArgsOrUsage({ options: { out: { type: 'string' } } }, 'merge', USAGE);
 */
export function parseArgsOrUsage<T extends ParseArgsConfig>(
  config: T,
  name: string,
  usage: string,
  code = 2,
): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config);
  } catch (e) {
    process.stderr.write(`${name}: ${e instanceof Error ? e.message : String(e)}\n${usage}\n`);
    process.exit(code);
  }
}
