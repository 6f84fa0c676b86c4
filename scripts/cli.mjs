// How the project's plain-Node scripts (test.mjs, ensure-env.mjs, lint-workflows.mjs,
// allure-generate.mjs) read their command line: node:util parseArgs, strict, as lib/util/args.ts
// `parseArgsOrUsage` reads the TypeScript scripts' (which these cannot import: ensure-env runs
// before node_modules exists). An unknown option or an argument is refused, never silently
// ignored: what is wrong in one line naming the script, then the usage, exit 2. --help prints the
// usage and what the script does.
import { parseArgs } from 'node:util';

/** The options given (`options` as parseArgs takes them; `--help`/`-h` is added), or the process ends. */
export function readOptions({ script, usage, about, options = {}, argv = process.argv.slice(2) }) {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (e) {
    process.stderr.write(`${script}: ${e.message}\n${usage}\n`);
    process.exit(2);
  }
  if (values.help) {
    process.stdout.write(`${usage}\n${about}\n`);
    process.exit(0);
  }
  return values;
}
