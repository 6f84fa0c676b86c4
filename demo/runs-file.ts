/**
 * Scenario selection for newcomers (README.md § Reading the Allure report): which demo runs to check, as an L1_RUNS file.
 *
 *   npx tsx demo/runs-file.ts --list
 *   npx tsx demo/runs-file.ts --scenario NAME[,NAME…]|all --origin http://127.0.0.1:4173 --out FILE
 *   npx tsx demo/runs-file.ts --model N [--uncheckable 0.2] [--failing 0.1] --origin … --out FILE
 *
 * Names are those of `--list` (bundled runs, fault-*, b-*, drift-*, hostile-*); `*` matches any
 * characters (`--scenario 'drift-*'`). The file holds those runs and nothing else; stdout then holds
 * the environment the runs need, as KEY=value lines (nothing secret: the credentials file is a path).
 * `--model N` takes the demo's generated runs (demo/model/projects.ts; `--generated N`, its old
 * name, is the same).
 * `--expected FILE` also writes each run's expected outcome by label. Exit 2 on a usage error.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { RunInput } from '../lib/run/types';
import { MODEL_MAX, modelRuns } from './model/projects';
import { demoCredentialsFile, demoProfileB, runOf, TEMPLATE } from './runs';
import type { ScenarioExpectation } from './scenario-kit';
import { scenarioListLines, selectScenarios, type ScenarioEntry } from './scenario-select';

class Usage extends Error {}

const USAGE = `usage:
  npx tsx demo/runs-file.ts --list
  npx tsx demo/runs-file.ts --scenario NAME[,NAME…]|all --origin URL --out FILE [--expected FILE]
  npx tsx demo/runs-file.ts --model N [--uncheckable SHARE] [--failing SHARE] --origin URL --out FILE [--expected FILE]`;

function parseArgs(argv: string[]): Map<string, string> {
  const args = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const eq = arg.indexOf('=');
    const key = eq > 0 ? arg.slice(0, eq) : arg;
    if (
      ![
        '--list',
        '--scenario',
        '--generated',
        '--model',
        '--uncheckable',
        '--failing',
        '--origin',
        '--out',
        '--expected',
        '--help',
      ].includes(key)
    )
      throw new Usage(`unknown option ${key}`);
    if (key === '--list' || key === '--help') args.set(key, '');
    else if (eq > 0) args.set(key, arg.slice(eq + 1));
    else {
      const value = argv[++i];
      if (value === undefined || value.startsWith('--')) throw new Usage(`${key} needs a value`);
      args.set(key, value);
    }
  }
  return args;
}

function select(spec: string): ScenarioEntry[] {
  const chosen = selectScenarios(spec);
  if (typeof chosen === 'string') throw new Usage(chosen);
  return chosen;
}

function share(args: Map<string, string>, key: string): number | undefined {
  const raw = args.get(key);
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!(value >= 0 && value <= 1)) throw new Usage(`${key} must be a share from 0 to 1, got "${raw}"`);
  return value;
}

function origins(args: Map<string, string>): { origin: string; portalBOrigin: string; port: number } {
  const raw = args.get('--origin') ?? 'http://127.0.0.1:4173';
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Usage(`--origin is not a URL: "${raw}"`);
  }
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  const portalB = new URL(url.origin);
  portalB.port = String(port + 1);
  return { origin: url.origin, portalBOrigin: portalB.origin, port };
}

function writeJson(file: string, value: unknown): string {
  const out = path.resolve(file);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, `${JSON.stringify(value, null, 2)}\n`);
  return out;
}

function main(argv: string[]): void {
  const args = parseArgs(argv);
  if (args.has('--help')) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (args.has('--list')) {
    const model = {
      name: 'model',
      description: `--model N: N ≤ ${MODEL_MAX} generated cases of the unit families (clean and near-miss; --failing share with a fault class, default 1/3; --uncheckable share that cannot be checked, default 0)`,
    };
    for (const line of scenarioListLines([model])) process.stdout.write(`${line}\n`);
    return;
  }
  const scenario = args.get('--scenario');
  const generated = args.get('--generated');
  if (generated !== undefined && args.has('--model'))
    throw new Usage('--generated is the old name of --model: give one of them');
  const model = args.get('--model') ?? generated;
  if ([scenario, model].filter((x) => x !== undefined).length !== 1)
    throw new Usage('give one of --scenario or --model (or --list)');
  const out = args.get('--out');
  if (!out) throw new Usage('--out FILE is required');
  const { origin, portalBOrigin, port } = origins(args);
  let runs: RunInput[];
  let expected: Map<string, ScenarioExpectation>;
  if (scenario !== undefined) {
    const entries = select(scenario);
    runs = entries.map((e) => {
      // Projects served every night are templated: L1_BATCH_DATE picks the night (demo/dates.ts).
      const run = runOf(e.project, origin, portalBOrigin, e.project.nightly ? TEMPLATE : undefined);
      return e.level ? { ...run, level: e.level } : run;
    });
    expected = new Map(entries.map((e) => [e.name, e.expected]));
  } else {
    const n = Number(model);
    if (!Number.isInteger(n) || n < 1 || n > MODEL_MAX)
      throw new Usage(`--model needs a whole number from 1 to ${MODEL_MAX}, got "${model ?? ''}"`);
    const uncheckable = share(args, '--uncheckable');
    const failing = share(args, '--failing');
    ({ runs, expected } = modelRuns(n, {
      origin,
      portalBOrigin,
      ...(uncheckable !== undefined ? { uncheckable } : {}),
      ...(failing !== undefined ? { failing } : {}),
    }));
  }
  const runsFile = writeJson(out, runs);
  const expectedFile = args.get('--expected');
  if (expectedFile) writeJson(expectedFile, Object.fromEntries(expected));
  const profileB = demoProfileB(new URL(portalBOrigin).host);
  const env: [string, string | number][] = [
    ['L1_RUNS', runsFile],
    ['L1_CREDENTIALS_FILE', demoCredentialsFile(port)],
    ['L1_PROFILE_B_HOST', profileB.host],
    ['L1_PROFILE_B_GROUP_NAME', profileB.groupName],
    ['L1_PROFILE_B_COMPANY_ID', profileB.companyId],
    ['L1_PROFILE_B_BRAND_CODE', profileB.brandCode],
  ];
  for (const [key, value] of env) process.stdout.write(`${key}=${value}\n`);
  process.stderr.write(
    `runs-file: ${runs.length} run(s) → ${runsFile}; start the demo with L1_DEMO_PORT=${port} npx tsx demo/server.ts\n`,
  );
}

try {
  main(process.argv.slice(2));
} catch (e) {
  if (!(e instanceof Usage)) throw e;
  process.stderr.write(`runs-file: ${e.message}\n${USAGE}\n`);
  process.exit(2);
}
