#!/usr/bin/env bash
# Makes a CI machine ready, the way Playwright teams run it: `bash scripts/ci/setup.sh [--packages-only]`.
#   1. npm packages from the lockfile (npm ci).
#   2. The browser Playwright is built for: `npx playwright install --with-deps chromium` (the
#      workflow caches ~/.cache/ms-playwright by Playwright version, so a night downloads nothing),
#      its headless shell taken where it has one (scripts/ci/headless-shell.sh).
#      Where nothing can be downloaded (a closed network, as on the project's own machines), the
#      project's setup installs Debian's chromium instead (scripts/ensure-env.mjs, apt-get as root:
#      Debian machines only; Ubuntu has no chromium package but a snap).
#   3. L1_CHROMIUM_PATH set to the browser chosen, for every later step ($GITHUB_ENV in GitHub
#      Actions), and said: which browser, which version.
# `--packages-only`: step 1 only (the merge job needs no browser). L1_CI_BROWSER=system skips step 2's
# download and uses the system's chromium directly.
set -euo pipefail
cd "$(dirname "$0")/../.."
npm ci --no-audit --no-fund
[ "${1:-}" = "--packages-only" ] && exit 0

exe=""
if [ "${L1_CI_BROWSER:-playwright}" != "system" ]; then
  if npx playwright install --with-deps chromium; then
    # Its headless shell (installed with it) where there is one; else the suite's own discovery
    # below, which ends at Playwright's full browser.
    exe="$(bash scripts/ci/headless-shell.sh)"
  else
    echo "setup: Playwright's own chromium could not be installed (no download here?): falling back to the system's chromium" >&2
  fi
fi
if [ -z "$exe" ]; then
  node scripts/ensure-env.mjs
  # The browser the suite itself would take now (lib/run/browser.ts findChromium): ensure-env may
  # have found Playwright's own, or Debian's headless shell, rather than /usr/bin/chromium.
  exe="$(node --require tsx/cjs -e "process.stdout.write(require('./lib/run/browser').findChromium() ?? '')")"
fi
if [ -z "$exe" ] || [ ! -x "$exe" ]; then
  echo "setup: no browser to run the checks with (${exe:-none found}): install Playwright's chromium or set L1_CHROMIUM_PATH" >&2
  exit 1
fi
if [ -n "${GITHUB_ENV:-}" ]; then echo "L1_CHROMIUM_PATH=${exe}" >>"$GITHUB_ENV"; fi
echo "setup: browser ${exe} ($("$exe" --version 2>/dev/null | tail -n 1 || echo 'version unknown'))"
