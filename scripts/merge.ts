/**
 * `npm run merge -- SHARD_VERDICT_DIR...` (docs/decisions.md, deliver 5): merges the verdict folders of n
 * shards into `L1_VERDICTS_DIR` (default `reports/verdicts`, from the project root; `.env` is
 * read too), emptied of earlier verdict files first (only `*.json` and index.json, summary.md,
 * junit.xml). Writes every verdict, index.json, summary.md and junit.xml, prints the run × item
 * grid and every problem: a run found in two shards, a run of L1_RUNS found in none, a folder that
 * is missing or holds no verdict, a file that is not a verdict.
 *
 * Exit code: that of the merged verdicts (0 all checked and passing, 1 some item failed, 2 some
 * run not checked), or 2 when the merge itself found a problem.
 */
import fs from 'node:fs';
import path from 'node:path';
import dotenv from 'dotenv';
import { knownRunLabels, mergeVerdictFolders } from '../lib/report/merge';
import { exitCodeOf, summaryGrid } from '../lib/report/summary';
import { safeText } from '../lib/report/text';
import { emptyVerdictFolder, writeVerdictFolder } from '../lib/report/verdict-folder';

const ROOT = path.resolve(__dirname, '..');
const USAGE = 'usage: npm run merge -- SHARD_VERDICT_DIR... (into L1_VERDICTS_DIR, default reports/verdicts)';

function environment(): NodeJS.ProcessEnv {
  let fromFile: Record<string, string> = {};
  try {
    fromFile = dotenv.parse(fs.readFileSync(path.join(ROOT, '.env')));
  } catch {
    // no .env
  }
  return { ...fromFile, ...process.env };
}

function main(argv: string[]): number {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const dirs = argv.filter((a) => a !== '--');
  if (dirs.length === 0) {
    process.stderr.write(`merge: no shard verdict folder given\n${USAGE}\n`);
    return 2;
  }
  const env = environment();
  const out = path.resolve(ROOT, env.L1_VERDICTS_DIR || path.join('reports', 'verdicts'));
  const known = knownRunLabels(env, ROOT);
  const merged = mergeVerdictFolders(dirs, known.labels);
  const problems = [...known.problems, ...merged.problems];
  const notes = [...known.notes, ...merged.notes];

  emptyVerdictFolder(out);
  writeVerdictFolder(out, merged.entries, merged.selection);
  const verdicts = merged.entries.map((e) => e.verdict);

  const shards = `${dirs.length} shard folder${dirs.length === 1 ? '' : 's'}`;
  process.stdout.write(
    `\nmerge: ${merged.entries.length} run(s) from ${shards} into ${path.relative(process.cwd(), out) || '.'}\n\n`,
  );
  process.stdout.write(`${summaryGrid(verdicts)}\n`);
  for (const n of notes) process.stdout.write(`merge: note: ${safeText(n, 1000)}\n`);
  for (const p of problems) process.stdout.write(`merge: PROBLEM: ${safeText(p, 1000)}\n`);
  const code = problems.length ? 2 : exitCodeOf(verdicts);
  process.stdout.write(
    `merge: exit code ${code}${problems.length ? ` (${problems.length} problem${problems.length === 1 ? '' : 's'} in the merge)` : ''}\n`,
  );
  return code;
}

process.exitCode = main(process.argv.slice(2));
