#!/usr/bin/env bash
# Masks every phone and password of the credentials registry in the job log (scripts/ci/mask.ts):
# `bash scripts/ci/mask.sh`. Run it first, in every job that holds the registry secret.
set -euo pipefail
cd "$(dirname "$0")/../.."
node scripts/run-ts.cjs scripts/ci/mask.ts
