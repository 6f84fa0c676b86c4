#!/usr/bin/env bash
# The run × item grid for the job page: `bash scripts/ci/summary.sh [OUT_DIR]` appends
# OUT_DIR/verdicts/summary.md (OUT_DIR defaults to `reports`) to $GITHUB_STEP_SUMMARY, or prints it
# when not in GitHub Actions. The file is the merge's: labels and reasons in it are already escaped.
set -euo pipefail
cd "$(dirname "$0")/../.."
out="${1:-reports}"
file="${out}/verdicts/summary.md"
# scripts/ci/merge.sh marks its start: a summary older than the mark is an earlier night's.
started="${out}/.merge-started"
emit() {
  if [ -f "$file" ] && { [ ! -e "$started" ] || [ "$file" -nt "$started" ]; }; then
    cat "$file"
  else
    printf '## L1 report checks\n\nNo summary: the merge did not write %s.\n' "$file"
  fi
}
# Appended to the job page in GitHub Actions; printed otherwise (no /dev/stdout: it may not exist).
if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then emit >>"$GITHUB_STEP_SUMMARY"; else emit; fi
