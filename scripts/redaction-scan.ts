/**
 * The redaction guard (README "Security and limits"): `npx tsx scripts/redaction-scan.ts [--root DIR] [--only] [paths…]`,
 * `npm run redaction`, and the last stage of `npm test`. Scans every output folder (and the extra
 * paths, and L1_REDACTION_EXTRA_PATHS) for phone numbers, passwords, session cookie values and tokens.
 * Prints where each one is, never the secret; exit code 1 when anything is found or something
 * could not be read (a zip over the size limit, data nested too deep, a file it may not read), 2 on
 * bad usage.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { formatFinding, scanOutputsReport, type Finding } from '../lib/redaction';
import { stopwatch } from '../lib/util/clock';

const USAGE = 'usage: npx tsx scripts/redaction-scan.ts [--root DIR] [--only] [paths…]';
/** Findings printed per file; the rest are counted. */
const PER_FILE = 20;

/**
 * `--only`: the given paths (and the folders the L1_* output variables name), not the default
 * output folders of the root: what one job wrote, as `scripts/ci/local-pipeline.sh` guards each
 * shard without reading the rest of the checkout.
 */
function options(argv: string[]): { root: string; extra: string[]; only: boolean } {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: { root: { type: 'string' }, only: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
  } catch (e) {
    fail((e as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  if (values.root === '') fail('--root needs a folder');
  if (values.only && positionals.length === 0) fail('--only needs the paths to scan');
  return {
    root: values.root ? path.resolve(values.root) : path.resolve(__dirname, '..'),
    extra: positionals.map((p) => path.resolve(p)),
    only: values.only ?? false,
  };
}

function fail(message: string): never {
  process.stderr.write(`redaction guard: ${message}\n${USAGE}\n`);
  process.exit(2);
}

function main(): number {
  const elapsed = stopwatch();
  const { root, extra, only } = options(process.argv.slice(2));
  const result = scanOutputsReport({ root, extraPaths: extra, defaultOutputs: !only });
  const seconds = (elapsed() / 1000).toFixed(1);
  for (const w of result.warnings) process.stderr.write(`redaction guard: warning: ${w}\n`);
  for (const u of result.unscanned) process.stdout.write(`${u}\n`);
  const files = `${result.filesScanned} file${result.filesScanned === 1 ? '' : 's'} scanned`;
  // What the guard could not read may hold a secret: it fails, as a finding does.
  const unread = result.unscanned.length
    ? `${result.unscanned.length} thing${result.unscanned.length === 1 ? '' : 's'} it could not read (above)`
    : '';
  if (result.findings.length === 0) {
    if (!unread) {
      process.stdout.write(`redaction guard: ${files}, no secret found\n`);
      return 0;
    }
    process.stdout.write(
      `redaction guard: ${files}, no secret found, but ${unread}: ` +
        'remove or split these outputs, since the guard does not pass what it did not read\n',
    );
    return 1;
  }
  const byFile = new Map<string, Finding[]>();
  for (const f of result.findings) byFile.set(f.file, [...(byFile.get(f.file) ?? []), f]);
  for (const [file, findings] of byFile) {
    for (const f of findings.slice(0, PER_FILE)) process.stdout.write(`${formatFinding(f)}\n`);
    if (findings.length > PER_FILE)
      process.stdout.write(`${file}: … and ${findings.length - PER_FILE} more\n`);
  }
  process.stdout.write(
    `redaction guard: ${result.findings.length} secret${result.findings.length === 1 ? '' : 's'} found in ` +
      `${byFile.size} file${byFile.size === 1 ? '' : 's'} (${files}, ${seconds} s)${unread ? `, and ${unread}` : ''}: ` +
      'remove these outputs and fix what wrote them\n',
  );
  return 1;
}

process.exitCode = main();
