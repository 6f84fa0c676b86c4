#!/usr/bin/env bash
# The result of the night: `bash scripts/ci/finish.sh [OUT_DIR] [SHARDS_DIR]` prints each shard's
# Playwright exit code (SHARDS_DIR/*/exit-code, SHARDS_DIR defaulting to OUT_DIR/shards) and exits
# with one code (the same rule as `npm run check`, lib/report/night.ts jobExitCode):
#   3  a step of the night failed: a shard job (setup or its redaction guard: SHARDS_RESULT=failure),
#      the reports (MERGE_OUTCOME=failure) or the final redaction guard (GUARD_OUTCOME=failure);
#      3 wins, so a leak is never hidden by another code
#   2  some run not checked, or the merge found a problem (OUT_DIR/merge-exit-code)
#   1  some item failed on checked data
#   0  every run checked, every item passed
# No recorded merge code: 2.
set -uo pipefail
cd "$(dirname "$0")/../.."
out="${1:-reports}"
shards="${2:-${out}/shards}"
for f in "$shards"/*/exit-code; do
  [ -f "$f" ] && echo "shard $(basename "$(dirname "$f")"): playwright exit code $(cat "$f")"
done
if [ -f "${out}/merge-exit-code" ]; then
  code="$(cat "${out}/merge-exit-code")"
  [[ "$code" =~ ^[0-9]+$ ]] || code=2
else
  echo "finish: no ${out}/merge-exit-code: the merge did not run" >&2
  code=2
fi
failed=()
[ "${SHARDS_RESULT:-success}" = "failure" ] && failed+=("a shard job (its setup or its redaction guard)")
[ "${MERGE_OUTCOME:-success}" = "failure" ] && failed+=("the reports")
[ "${GUARD_OUTCOME:-success}" = "failure" ] && failed+=("the redaction guard")
if [ "${#failed[@]}" -gt 0 ]; then
  echo "result: failed: ${failed[*]} (exit 3; the checks alone would exit ${code})"
  exit 3
fi
case "$code" in
  0) echo "result: every run checked, every item passed (exit 0)" ;;
  1) echo "result: some item failed on checked data (exit 1)" ;;
  *) echo "result: some run was not checked, or the merge found a problem (exit ${code})" ;;
esac
exit "$code"
