import fs from 'node:fs';
import path from 'node:path';
import { EXIT_MEANINGS, jobExitCode, playwrightFailedMeaning } from './night';
import { readOr } from '../run/state';

/** What the night's last CI step says and exits with (scripts/ci/finish.ts, `nightResult`). */
export interface NightResult {
  code: 0 | 1 | 2 | 3;
  /** Every line in the order the script writes it, each to its stream: one CI log interleaves both. */
  lines: { to: 'stdout' | 'stderr'; text: string }[];
}

/**
 * The result of the night (`bash scripts/ci/finish.sh [OUT_DIR] [SHARDS_DIR]`): each shard's
 * Playwright exit code, then one exit code by the same rule as `npm run check`
 * (lib/report/night.ts `jobExitCode`): 3 when a shard job (its setup, its killed checks or its guard:
 * SHARDS_RESULT failure or cancelled; a shard folder without an exit code, by hand too), the
 * reports (MERGE_OUTCOME) or the final redaction guard (GUARD_OUTCOME) did not succeed — 3 wins —,
 * else the merge's code (OUT_DIR/merge-exit-code: 0, 1, or 2 for a run not checked or a merge
 * problem); 3 when none was recorded (the merge did not end). A merge code of 0 with a shard whose
 * Playwright failed is 1, as in the main job. `env` holds the workflow's outcomes (SHARDS_RESULT,
 * MERGE_OUTCOME, GUARD_OUTCOME).
 */
export function nightResult(out: string, shards: string, env: NodeJS.ProcessEnv): NightResult {
  const lines: NightResult['lines'] = [];
  const say = (to: 'stdout' | 'stderr', text: string) => lines.push({ to, text });
  const shardFolders = fs.existsSync(shards)
    ? fs
        .readdirSync(shards, { withFileTypes: true })
        .filter((e) => e.isDirectory())
        .map((e) => e.name)
        .sort()
    : [];
  /** Shard folders with no exit code (none, or empty): their checks were killed or timed out. */
  const unrecorded: string[] = [];
  /** Shards whose Playwright failed (`shard 2: 1`): with every verdict passing, the night is 1, never 0. */
  const playwrightFailed: string[] = [];
  for (const shard of shardFolders) {
    // Read once: the line, the failure and the missing code all come of the same reading. Empty
    // is none recorded, as the merge's code below: shard.sh writes it with echo "$code" >file too.
    const file = path.join(shards, shard, 'exit-code');
    const recorded = readOr(file, '').trim();
    if (recorded === '') {
      unrecorded.push(shard);
      say(
        'stdout',
        `shard ${shard}: no exit code recorded (the shard was killed, or its job timed out, before its checks ended)\n`,
      );
      continue;
    }
    if (recorded !== '0') playwrightFailed.push(`${shard}: ${recorded}`);
    say('stdout', `shard ${shard}: playwright exit code ${recorded}\n`);
  }
  let checks: 0 | 1 | 2 = 2;
  const mergeCode = path.join(out, 'merge-exit-code');
  let text: string | undefined;
  try {
    text = fs.readFileSync(mergeCode, 'utf8').trim();
  } catch {
    // none: said below
  }
  // No code: the merge never ran, or was killed before it ended (scripts/ci/merge.sh removes the
  // code of an earlier merge first), or before `echo` filled the file the shell had emptied (a full
  // disk too): empty, it read as Number('') = 0, a night that passes. The night has no merged
  // result: the reports failed (3).
  const merged = text !== undefined && text !== '';
  if (merged) {
    const recorded = Number(text);
    checks = recorded === 0 || recorded === 1 ? recorded : 2;
  } else
    say(
      'stderr',
      `finish: ${text === '' ? `${mergeCode} is empty` : `no ${mergeCode}`}: the merge did not run to its end\n`,
    );
  // A job or step that did not succeed failed, cancelled too (a shard job past its own time is
  // cancelled, not failed): only `success`, or nothing given (a step that did not run), is not.
  const failed = (name: string) => !['', 'success', undefined].includes(env[name]);
  const code = jobExitCode({
    checks,
    playwrightFailed: playwrightFailed.length > 0,
    // A shard with no exit code is a shard job that failed, whether or not the workflow says so:
    // finish.sh run by hand (local-pipeline.sh) has no SHARDS_RESULT, and its night passed.
    reportFailed: !merged || failed('MERGE_OUTCOME') || failed('SHARDS_RESULT') || unrecorded.length > 0,
    guardFailed: failed('GUARD_OUTCOME'),
  });
  // As the main job says it: 1 for a night whose verdicts all pass is Playwright's failure, not values.
  // A CI night's 3 has one more cause than the main job's, a shard job: the main job's words ("the
  // report or the redaction guard failed") headed a night whose shard was killed (README audit 59b).
  const meaning =
    code === 1 && checks === 0
      ? playwrightFailedMeaning('a shard', playwrightFailed.join(', '), 'see its log')
      : code === 3
        ? 'a shard job, the reports or the redaction guard failed (this wins over 2 and 1)'
        : EXIT_MEANINGS[code];
  const steps = [
    // A shard job fails when its setup or its guard fails, or when its checks are killed (a step
    // killed by a signal, no exit code written): that one is named, not blamed on the others
    // (nightly audit of 2026-11-27: a SIGKILLed checks step read "its setup or its redaction guard").
    unrecorded.length
      ? `a shard job (${unrecorded.join(', ')}: its checks were killed or timed out, no exit code recorded)`
      : failed('SHARDS_RESULT')
        ? 'a shard job (its setup or its redaction guard)'
        : '',
    failed('MERGE_OUTCOME') || !merged ? 'the reports' : '',
    failed('GUARD_OUTCOME') ? 'the redaction guard' : '',
  ].filter(Boolean);
  say(
    'stdout',
    `result: ${meaning} (exit ${code})${steps.length ? `: failed: ${steps.join(', ')}; the checks alone would exit ${checks}` : ''}\n`,
  );
  return { code, lines };
}
