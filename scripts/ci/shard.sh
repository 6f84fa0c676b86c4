#!/usr/bin/env bash
# One shard of the checks: `bash scripts/ci/shard.sh I N [GREP]` runs
# `npx playwright test --shard I/N [--grep GREP]` with the config's reporters (list, Allure, and blob
# since PLAYWRIGHT_BLOB_OUTPUT_DIR is set: playwright.config.ts) and its outputs under
# `${L1_SHARDS_DIR:-reports/shards}/I/`: verdicts/ (L1_VERDICTS_DIR), allure-results/
# (L1_ALLURE_RESULTS_DIR), blob/ (PLAYWRIGHT_BLOB_OUTPUT_DIR), and `shard` (`I/N`, written first:
# scripts/ci/merge.sh names the shards whose blob report is missing). Playwright's record of the
# failed tests (.last-run.json in L1_TEST_RESULTS_DIR, which stays on this machine) is copied to
# verdicts/last-run.json, so the merge can give `--last-failed` the night's failures. The runs come
# from the environment as for any invocation (L1_RUNS, credentials in L1_CREDENTIALS_JSON: never
# printed here).
# `L1_SHARD_STATE_ROOT=DIR` gives each shard its own L1_STATE_DIR (DIR/I), as separate machines have.
#
# Failing items must not fail the job (the artifacts still have to be guarded and uploaded): the
# exit code of Playwright is recorded in `I/exit-code` and this script exits 0. It exits 2 only on
# bad arguments.
set -uo pipefail
cd "$(dirname "$0")/../.."
i="${1:-}"
n="${2:-}"
grep="${3:-}"
if ! [[ "$i" =~ ^[0-9]+$ && "$n" =~ ^[0-9]+$ ]] || [ "$i" -lt 1 ] || [ "$i" -gt "$n" ]; then
  echo "usage: bash scripts/ci/shard.sh I N [GREP]   (1 <= I <= N)" >&2
  exit 2
fi
out="${L1_SHARDS_DIR:-reports/shards}/${i}"
rm -rf "$out"
mkdir -p "$out"
echo "${i}/${n}" >"${out}/shard"
export L1_VERDICTS_DIR="${out}/verdicts"
export L1_ALLURE_RESULTS_DIR="${out}/allure-results"
export PLAYWRIGHT_BLOB_OUTPUT_DIR="${out}/blob"
if [ -n "${L1_SHARD_STATE_ROOT:-}" ]; then
  export L1_STATE_DIR="${L1_SHARD_STATE_ROOT}/${i}"
  mkdir -p "$L1_STATE_DIR"
fi
# No --reporter here: a CLI reporter would replace the Allure reporter of the config.
args=(playwright test --shard "${i}/${n}")
if [ -n "$grep" ]; then args+=(--grep "$grep"); fi
# A deadline of the checks' own (L1_SHARD_MINUTES): Playwright's --global-timeout stops the tests
# and the invocation still writes its night files, the runs cut short marked interrupted. A CI
# step past its own time cannot do that for it: GitHub signals only the step's shell, which waits
# for this script without passing the signal on, and kills everything 10 s later.
if [ -n "${L1_SHARD_MINUTES:-}" ]; then
  if ! [[ "$L1_SHARD_MINUTES" =~ ^[1-9][0-9]*$ ]]; then
    echo "shard: L1_SHARD_MINUTES must be a whole number of minutes, got: ${L1_SHARD_MINUTES}" >&2
    exit 2
  fi
  # Past 2^31 - 1 ms (35791 minutes, 24.8 days) Node's timer under --global-timeout fires at once:
  # 99999, meant as "no limit", stopped every check before it began ("Timed out waiting").
  if [ "${#L1_SHARD_MINUTES}" -gt 5 ] || [ "$L1_SHARD_MINUTES" -gt 35791 ]; then
    echo "shard: L1_SHARD_MINUTES must be at most 35791 (24.8 days: past it Playwright's --global-timeout fires at once), got: ${L1_SHARD_MINUTES}; leave it unset for no limit" >&2
    exit 2
  fi
  args+=(--global-timeout "$((L1_SHARD_MINUTES * 60000))")
fi
echo "shard ${i}/${n}: npx ${args[*]} (outputs under ${out})"
# Playwright in the background so that a signal sent to this script alone (`timeout`, a scheduler
# that signals its child only) is passed on to it, and its code is still recorded once it has
# written what it could: without this, the script died at once, left Playwright running on its
# own, and recorded no code (scripts/ci/finish.sh then left the shard out).
node_modules/.bin/"${args[@]}" &
child=$!
# Each passed on as it came, as the main job does: the config takes SIGTERM as Ctrl-C (the workers
# stop, the teardown writes the night files) and the verdicts name the first signal. `timeout` and
# most schedulers send SIGTERM, which read "interrupted by SIGINT" when passed on as SIGINT (nightly
# audit of 2026-11-27); GitHub Actions sends a cancelled or timed-out step SIGINT first, then
# SIGTERM, so a shard stopped there says SIGINT.
trap 'kill -TERM "$child" 2>/dev/null' TERM
trap 'kill -INT "$child" 2>/dev/null' INT
wait "$child"
code=$?
# A trapped signal ends `wait` early (code > 128): wait again until Playwright itself has ended.
while kill -0 "$child" 2>/dev/null; do
  wait "$child"
  code=$?
done
trap - TERM INT
# This invocation's record only (newer than the shard's folder, made above): never an earlier one's.
last_run="${L1_TEST_RESULTS_DIR:-test-results/checks}/.last-run.json"
if [ -f "$last_run" ] && [ "$last_run" -nt "${out}/shard" ] && [ -d "$L1_VERDICTS_DIR" ]; then
  cp "$last_run" "${L1_VERDICTS_DIR}/last-run.json"
else
  echo "shard ${i}/${n}: Playwright wrote no ${last_run} (killed?): the merged night has no record for --last-failed" >&2
fi
echo "$code" >"${out}/exit-code"
echo "shard ${i}/${n}: playwright exit code ${code}, recorded in ${out}/exit-code (the merge decides the result)"
exit 0
