#!/usr/bin/env bash
# The redaction guard before anything leaves the machine: `bash scripts/ci/guard.sh [--only] [PATH…]`
# runs scripts/redaction-scan.ts (from its bundle, scripts/run-ts.cjs), which scans every default
# output folder (reports/, allure-results/, allure-report/, test-results/, playwright-report/,
# blob-report/, .l1/evidence/) plus the given paths (with `--only`: the given paths and the folders
# L1_* variables name), for the secrets of the credentials registry (L1_CREDENTIALS_JSON in CI),
# phone numbers, cookies and tokens. Non-zero when anything is found: the upload steps then do not
# run.
set -euo pipefail
cd "$(dirname "$0")/../.."
node scripts/run-ts.cjs scripts/redaction-scan.ts "$@"
