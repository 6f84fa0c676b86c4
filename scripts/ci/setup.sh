#!/usr/bin/env bash
# Makes the machine ready: `bash scripts/ci/setup.sh` runs the project's own setup
# (scripts/ensure-env.mjs: npm packages from the lockfile, Debian's chromium and the CJK font
# fonts-wqy-microhei when no usable browser exists; apt-get needs root or sudo: the workflow runs
# in a Debian container as root). `--packages-only`: npm packages only (the merge job needs no browser).
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ "${1:-}" = "--packages-only" ]; then
  npm ci --no-audit --no-fund
else
  node scripts/ensure-env.mjs
fi
