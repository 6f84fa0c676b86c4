/**
 * `bash scripts/ci/mask.sh`: the first step of every CI job that holds the credentials registry.
 * The registry stays one secret (L1_CREDENTIALS_JSON or the file named by L1_CREDENTIALS_FILE); a
 * CI's log masking hides that whole JSON text, not the phones and passwords inside it. In GitHub
 * Actions this step registers each phone and password of the registry — as written and in every
 * text form the redaction guard looks for (`forms`) — with `::add-mask::`, before any later step can print one.
 * Elsewhere it prints nothing secret, only how many values it would mask. Exit 1 when the registry
 * cannot be read (naming the source, never a value).
 */
import { credentialSource, loadRegistry, registrySecrets } from '../../lib/run/credentials';
import { mergeEnv, readDotenv } from '../../lib/run/settings';
import { prepareSecret } from '../../lib/redaction/secrets';
import { parseArgsOrUsage } from '../../lib/util/args';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');

// No arguments: one is refused (exit 2), never ignored; --help says what the step does.
const USAGE = 'usage: bash scripts/ci/mask.sh (node scripts/run-ts.cjs scripts/ci/mask.ts), no arguments';
const { values: given } = parseArgsOrUsage(
  { options: { help: { type: 'boolean', short: 'h' } } },
  'scripts/ci/mask.ts',
  USAGE,
);
if (given.help) {
  process.stdout.write(
    `${USAGE}\nIn GitHub Actions, registers each phone and password of the credentials registry ` +
      '(L1_CREDENTIALS_FILE or L1_CREDENTIALS_JSON, environment over .env) with ::add-mask::; elsewhere says ' +
      'how many values it would mask, printing none.\n',
  );
  process.exit(0);
}
const env = mergeEnv(process.env, readDotenv(ROOT));

/**
 * A value as a workflow command's data: the runner reads `%25`, `%0D` and `%0A` back as `%`, CR and
 * LF (@actions/core `escapeData`), so a password `a%25b` (URL-encoded `a%b`) written as it is
 * would mask `a%b` and leave `a%25b` in clear.
 */
function commandData(value: string): string {
  return value.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/**
 * Every text form the redaction guard and the console's mask know (lib/redaction/secrets.ts
 * `prepareSecret`: URL-, form-, JSON- and HTML-escaped, a phone spaced or dashed), base64 aside:
 * the leak audit of 2026-11-28 found only three of them masked here, so a later step that printed
 * a registry phone as `1xx-xxxx-xxxx` or a password with a space form-encoded (`+`) printed it in
 * clear, where the night's own console masks it.
 */
function forms(value: string): string[] {
  const prepared = prepareSecret({ value, label: '', detector: 'registry' });
  return [
    ...new Set([value, ...prepared.forms.filter((f) => !f.base64).map((f) => f.bytes.toString('utf8'))]),
  ];
}

try {
  const values = registrySecrets(loadRegistry(env, ROOT)).flatMap(({ value }) => forms(value));
  if (env.GITHUB_ACTIONS === 'true')
    for (const v of values) process.stdout.write(`::add-mask::${commandData(v)}\n`);
  process.stdout.write(
    `mask: ${values.length} value(s) of the credentials registry (${credentialSource(env, ROOT).where}) ${env.GITHUB_ACTIONS === 'true' ? "masked in this job's log" : 'would be masked in GitHub Actions (nothing printed here)'}\n`,
  );
} catch (e) {
  process.stderr.write(`mask: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
}
