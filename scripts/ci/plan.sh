#!/usr/bin/env bash
# The shard matrix: `bash scripts/ci/plan.sh [N]`: N shards asked (default 3, 1..20), capped at the
# number of configured runs (npm run runs -- --count: a shard gets whole runs, so more shards
# than runs would only start machines with nothing to check). Writes `matrix={"shard":[1,…,n]}`,
# `total=n` and `batch_date=YYYY-MM-DD` (the night every job checks) to $GITHUB_OUTPUT (to stdout
# when not in GitHub Actions).
set -euo pipefail
cd "$(dirname "$0")/../.."
n="${1:-}"
[ -n "$n" ] || n=3
if ! [[ "$n" =~ ^[0-9]+$ ]] || [ "$n" -lt 1 ] || [ "$n" -gt 20 ]; then
  echo "plan: the shard count must be a whole number from 1 to 20, got '$n'" >&2
  exit 2
fi
runs="$(node scripts/run-ts.cjs scripts/runs.ts --count)" || {
  echo "plan: the runs could not be read (see above): create the runs file (copy runs/nightly.example.json to the path of L1_RUNS, README.md § Run it nightly in CI) or set the repository variable L1_RUNS_FILE" >&2
  exit 2
}
if [ "$runs" -lt 1 ]; then runs=1; fi
if [ "$n" -gt "$runs" ]; then
  echo "plan: ${n} shards asked for ${runs} run(s): ${runs} shard(s)" >&2
  n="$runs"
fi
# The night, resolved once here (`yesterday` in L1_TIME_ZONE): every shard and the merge take this
# date, so a job re-run on a later day checks the same night, never the next one.
batch_date="$(node scripts/run-ts.cjs scripts/runs.ts --batch-date)" || exit 2
shards="$(seq -s, 1 "$n")"
lines="matrix={\"shard\":[${shards}]}
total=${n}
batch_date=${batch_date}"
# In GitHub Actions to $GITHUB_OUTPUT; otherwise printed (no `>>/dev/stdout`: with stdout a file,
# that reopens it at its start and later output overwrites these lines).
if [ -n "${GITHUB_OUTPUT:-}" ]; then echo "$lines" >>"$GITHUB_OUTPUT"; else echo "$lines"; fi
echo "plan: ${n} shard(s) for ${runs} run(s)${batch_date:+, batch date ${batch_date}}" >&2
