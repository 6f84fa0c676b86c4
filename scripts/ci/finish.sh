#!/usr/bin/env bash
# The result of the night: `bash scripts/ci/finish.sh [OUT_DIR]` prints each shard's Playwright
# exit code (SHARDS_DIR/*/exit-code, SHARDS_DIR defaulting to OUT_DIR/shards) and exits with the
# merge's exit code (OUT_DIR/merge-exit-code): 0 every run checked and passing, 1 some item failed
# on checked data, 2 some run not checked or a merge problem. No recorded code: 2.
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
case "$code" in
  0) echo "result: every run checked, every item passed (exit 0)" ;;
  1) echo "result: some item failed on checked data (exit 1)" ;;
  *) echo "result: some run was not checked, or the merge found a problem (exit ${code})" ;;
esac
exit "$code"
