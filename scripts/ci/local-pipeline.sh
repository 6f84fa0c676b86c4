#!/usr/bin/env bash
# The CI sequence of .github/workflows/l1-regression.yml, run locally against whatever runs are
# configured (the bundled demo when none): `bash scripts/ci/local-pipeline.sh [N] [GREP]`.
# N shards one after another (default 3), each with its own folders under
# reports/local-pipeline/shards/I/ (Playwright's outputs too) and its own state folder
# (.l1/local-pipeline/I: sessions and evidence, as on separate machines), the guard after each
# shard, then the merge (reports/local-pipeline/: verdicts/, playwright-report/, playwright-junit/,
# junit/, allure-results/ and allure-report/ as `npm run report` builds it; the configured history),
# the guard again, the summary. The checkout's night folders are left as they are. Exit code: as in CI (scripts/ci/finish.sh): 3 when a
# shard script, a report build or the redaction guard failed (3 wins), else the merge's (0, 1 or 2).
set -uo pipefail
cd "$(dirname "$0")/../.."
n="${1:-3}"
grep="${2:-}"
if ! [[ "$n" =~ ^[0-9]+$ ]] || [ "$n" -lt 1 ]; then
  echo "usage: bash scripts/ci/local-pipeline.sh [N] [GREP]" >&2
  exit 2
fi
# Ctrl-C or a TERM stops the pipeline, not only the step in flight, and says so.
trap 'echo "local-pipeline: interrupted: no merge, no result" >&2; exit 130' INT TERM
# As the plan job does: no more shards than runs, and one batch date for every shard and the merge
# (a pipeline that runs past midnight still checks one night).
plan="$(GITHUB_OUTPUT= bash scripts/ci/plan.sh "$n")" || exit 2
n="$(sed -n 's/^total=//p' <<<"$plan")"
[ -n "$n" ] || exit 2
batch_date="$(sed -n 's/^batch_date=//p' <<<"$plan")"
[ -z "$batch_date" ] || export L1_BATCH_DATE="$batch_date"
base="reports/local-pipeline"
rm -rf "$base" .l1/local-pipeline
mkdir -p "$base"
# The guard reads what this pipeline wrote — a shard's folder, the merge's — and the output folders
# the L1_* variables name (it adds those itself), as each CI job's guard reads its own fresh machine;
# not the rest of the checkout, whose other outputs are not this pipeline's.
guard() { bash scripts/ci/guard.sh --only "$@"; }
shards_result=success
for i in $(seq 1 "$n"); do
  echo "=== shard ${i}/${n}"
  # Playwright's outputs of each shard (which it empties at start) go into that shard's folder, as
  # on its own CI machine, never over the checkout's night in test-results/checks.
  results="${L1_TEST_RESULTS_DIR:-${base}/shards/${i}/test-results}"
  L1_TEST_RESULTS_DIR="$results" L1_SHARDS_DIR="${base}/shards" L1_SHARD_STATE_ROOT=".l1/local-pipeline" \
    bash scripts/ci/shard.sh "$i" "$n" "$grep" || shards_result=failure
  guard "${base}/shards/${i}" "$results" "${L1_PARTIAL_DIR:-reports/partial}" || shards_result=failure
done
echo "=== merge"
# The merged Allure results and report go beside the merged verdicts, unless folders are given:
# never into the checkout's night (allure-results/, allure-report/), whose verdicts stay in
# reports/verdicts (a pipeline's report there beside another night's verdicts showed two nights,
# and npm run report then refused them: night audit of 2026-11-28). The history is the configured
# one (L1_ALLURE_HISTORY_PATH), where the pipeline's complete night adds its point.
export L1_ALLURE_RESULTS_DIR="${L1_ALLURE_RESULTS_DIR:-${base}/allure-results}"
export L1_ALLURE_REPORT_DIR="${L1_ALLURE_REPORT_DIR:-${base}/allure-report}"
merge_outcome=success
bash scripts/ci/merge.sh "${base}/shards" "$base" "$n" || merge_outcome=failure
guard_outcome=success
history="${L1_ALLURE_HISTORY_PATH:-allure-history/history.jsonl}"
# The history file and its list of nights, not their folder: L1_ALLURE_HISTORY_PATH=history.jsonl
# would make that folder the checkout, whose credentials files are not outputs.
guard "$base" "${L1_ALLURE_REPORT_DIR:-allure-report}" "$history" "${history}.nights" || guard_outcome=failure
echo "=== summary"
bash scripts/ci/summary.sh "$base"
echo "=== result"
SHARDS_RESULT="$shards_result" MERGE_OUTCOME="$merge_outcome" GUARD_OUTCOME="$guard_outcome" \
  bash scripts/ci/finish.sh "$base"
