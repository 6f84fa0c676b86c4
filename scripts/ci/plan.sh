#!/usr/bin/env bash
# The shard matrix: `bash scripts/ci/plan.sh [N]` (N shards, default 3, 1..20). Writes
# `matrix={"shard":[1,…,N]}` and `total=N` to $GITHUB_OUTPUT (to stdout when not in GitHub Actions).
set -euo pipefail
n="${1:-}"
[ -n "$n" ] || n=3
if ! [[ "$n" =~ ^[0-9]+$ ]] || [ "$n" -lt 1 ] || [ "$n" -gt 20 ]; then
  echo "plan: the shard count must be a whole number from 1 to 20, got '$n'" >&2
  exit 2
fi
shards="$(seq -s, 1 "$n")"
out="${GITHUB_OUTPUT:-/dev/stdout}"
{
  echo "matrix={\"shard\":[${shards}]}"
  echo "total=${n}"
} >>"$out"
echo "plan: ${n} shard(s)"
