#!/usr/bin/env bash
# The result of the night: `bash scripts/ci/finish.sh [OUT_DIR] [SHARDS_DIR]` (scripts/ci/finish.ts):
# 3 when a shard job, the reports or the final redaction guard failed (SHARDS_RESULT, MERGE_OUTCOME,
# GUARD_OUTCOME = failure; 3 wins, a leak is never hidden), else the merge's exit code (0, 1, 2).
set -uo pipefail
cd "$(dirname "$0")/../.."
# Without the packages (the job's setup failed) the result cannot be read: 3, never Node's 1, which
# would read as "some item failed".
if [ ! -d node_modules/esbuild ]; then
  echo "result: the night's result could not be read: no node_modules (the job's setup failed) (exit 3)" >&2
  exit 3
fi
node scripts/run-ts.cjs scripts/ci/finish.ts "$@"
