#!/usr/bin/env bash
# The CI sequence of .github/workflows/l1-regression.yml, run locally against whatever runs are
# configured (the bundled demo when none): `bash scripts/ci/local-pipeline.sh [N] [GREP]`.
# N shards one after another (default 3), each with its own folders under
# reports/local-pipeline/shards/I/ and its own state folder (.l1/local-pipeline/I: sessions and
# evidence, as on separate machines), the guard after each shard, then the merge
# (reports/local-pipeline/: verdicts/, playwright-report/, junit/; Allure report as `npm run report`
# builds it), the guard again, the summary. Exit code: the merge's (0, 1 or 2), or 3 when a shard
# script, a report build or the redaction guard failed.
set -uo pipefail
cd "$(dirname "$0")/../.."
n="${1:-3}"
grep="${2:-}"
if ! [[ "$n" =~ ^[0-9]+$ ]] || [ "$n" -lt 1 ]; then
  echo "usage: bash scripts/ci/local-pipeline.sh [N] [GREP]" >&2
  exit 2
fi
base="reports/local-pipeline"
rm -rf "$base" .l1/local-pipeline
mkdir -p "$base"
problem=0
for i in $(seq 1 "$n"); do
  echo "=== shard ${i}/${n}"
  L1_SHARDS_DIR="${base}/shards" L1_SHARD_STATE_ROOT=".l1/local-pipeline" \
    bash scripts/ci/shard.sh "$i" "$n" "$grep" || problem=3
  bash scripts/ci/guard.sh "${base}/shards/${i}" || problem=3
done
echo "=== merge"
bash scripts/ci/merge.sh "${base}/shards" "$base" || problem=3
bash scripts/ci/guard.sh "$base" || problem=3
echo "=== summary"
bash scripts/ci/summary.sh "$base"
echo "=== result"
bash scripts/ci/finish.sh "$base"
code=$?
if [ "$problem" -ne 0 ]; then
  echo "local pipeline: a shard, a report or the redaction guard failed (see above): exit ${problem} instead of ${code}" >&2
  code=$problem
fi
exit "$code"
