/**
 * The result of the night (`bash scripts/ci/finish.sh [OUT_DIR] [SHARDS_DIR]`): each shard's
 * Playwright exit code, then one exit code by the same rule as `npm run check`
 * (lib/report/night.ts `jobExitCode`): 3 when a shard job (its setup, its killed checks or its guard:
 * SHARDS_RESULT failure or cancelled), the reports (MERGE_OUTCOME) or the final redaction guard
 * (GUARD_OUTCOME) did not succeed — 3 wins —, else the merge's code (OUT_DIR/merge-exit-code: 0, 1,
 * or 2 for a run not checked or a merge problem); 3 when none was recorded (the merge did not end).
 * A merge code of 0 with a shard whose Playwright failed is 1, as in the main job. The rule and its
 * lines: lib/report/night-result.ts `nightResult`.
 */
import path from 'node:path';
import { nightResult } from '../../lib/report/night-result';
import { parseArgsOrUsage } from '../../lib/util/args';

// Bad usage is 3, as for a step of the pipeline that did not succeed: 1 and 2 are verdicts' codes.
const { positionals } = parseArgsOrUsage(
  { allowPositionals: true },
  'finish',
  'usage: bash scripts/ci/finish.sh [OUT_DIR] [SHARDS_DIR]',
  3,
);
const out = positionals[0] ?? 'reports';
const shards = positionals[1] ?? path.join(out, 'shards');
const result = nightResult(out, shards, process.env);
// Line by line, each to its stream, in the order they were decided: a CI log interleaves both, and
// the merge's missing code is said between the shards' lines and the result, as before nightResult.
for (const line of result.lines) (line.to === 'stdout' ? process.stdout : process.stderr).write(line.text);
process.exitCode = result.code;
