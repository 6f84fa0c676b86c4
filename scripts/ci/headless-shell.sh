#!/usr/bin/env bash
# Prints the path of Playwright's own headless shell when it is installed, else nothing:
# `bash scripts/ci/headless-shell.sh`. `npx playwright install chromium` installs it beside the full
# browser, and it is what Playwright itself runs headless, for about a quarter of the full
# browser's CPU (README.md § Speed); scripts/ci/setup.sh prefers it. Its folder is the one
# Playwright names (`install --dry-run`, PLAYWRIGHT_BROWSERS_PATH honoured), its file
# `chrome-headless-shell` (Chrome for Testing builds) or `headless_shell` (older builds).
set -uo pipefail
cd "$(dirname "$0")/../.."
dir="$(node_modules/.bin/playwright install --dry-run chromium 2>/dev/null |
  awk '/chromium-headless-shell/ { found = 1 } found && /Install location:/ { print $3; exit }')"
[ -n "$dir" ] && [ -d "$dir" ] || exit 0
find "$dir" -maxdepth 3 -type f \( -name chrome-headless-shell -o -name headless_shell \) -perm -u+x 2>/dev/null |
  sort | head -n 1
