#!/usr/bin/env bash
# The shard matrix: `bash scripts/ci/plan.sh [N]`: N shards asked (default 3, 1..20), capped at the
# number of configured runs (npm run runs -- --count: a shard gets whole runs, so more shards
# than runs would only start machines with nothing to check). Writes `matrix={"shard":[1,…,n]}`
# and `total=n` to $GITHUB_OUTPUT (to stdout when not in GitHub Actions).
set -euo pipefail
cd "$(dirname "$0")/../.."
n="${1:-}"
[ -n "$n" ] || n=3
if ! [[ "$n" =~ ^[0-9]+$ ]] || [ "$n" -lt 1 ] || [ "$n" -gt 20 ]; then
  echo "plan: the shard count must be a whole number from 1 to 20, got '$n'" >&2
  exit 2
fi
runs="$(node_modules/.bin/tsx scripts/runs.ts --count)" || {
  echo "plan: the runs could not be read (see above): create the runs file (copy runs/nightly.example.json to the path of L1_RUNS, README.md § Run it nightly in CI) or set the repository variable L1_RUNS_FILE" >&2
  exit 2
}
if [ "$runs" -lt 1 ]; then runs=1; fi
if [ "$n" -gt "$runs" ]; then
  echo "plan: ${n} shards asked for ${runs} run(s): ${runs} shard(s)" >&2
  n="$runs"
fi
shards="$(seq -s, 1 "$n")"
out="${GITHUB_OUTPUT:-/dev/stdout}"
{
  echo "matrix={\"shard\":[${shards}]}"
  echo "total=${n}"
} >>"$out"
echo "plan: ${n} shard(s) for ${runs} run(s)" >&2
