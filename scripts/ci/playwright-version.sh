#!/usr/bin/env bash
# The Playwright version of the lockfile, as a step output (`version=1.65.1`), so the browser cache
# is keyed by the Playwright version the browsers belong to: `bash scripts/ci/playwright-version.sh`.
set -euo pipefail
cd "$(dirname "$0")/../.."
version="$(node -p "require('./package-lock.json').packages['node_modules/@playwright/test'].version")"
# In GitHub Actions to $GITHUB_OUTPUT; otherwise printed (no `>>/dev/stdout`: with stdout a file,
# that reopens it at its start and the next line overwrites this one).
if [ -n "${GITHUB_OUTPUT:-}" ]; then echo "version=${version}" >>"$GITHUB_OUTPUT"; else echo "version=${version}"; fi
echo "playwright-version: ${version}"
