#!/usr/bin/env bash
# The merge of n shards: `bash scripts/ci/merge.sh SHARDS_DIR [OUT_DIR] [N]`, where SHARDS_DIR holds
# one folder per shard (each with verdicts/, allure-results/, blob/ and `shard`, as
# scripts/ci/shard.sh writes them, or as the shard artifacts download), OUT_DIR defaults to
# `reports`, and N is the number of shards the night was split into (the plan's; without it, the
# count the shards name). A shard of the N whose job left no artifact is named in steps 1 and 2:
#   1. the Playwright blob reports → `npx playwright merge-reports --reporter html,junit`:
#      OUT_DIR/playwright-report/ (HTML) and OUT_DIR/playwright-junit/playwright.xml (its tests;
#      not in OUT_DIR/junit/, which holds the night's one JUnit file, verdicts.xml of step 2, so a
#      CI test reporter reading junit/*.xml counts the night once)
#      (merge-reports takes one folder: the blobs are first gathered in OUT_DIR/blob-reports/);
#      a shard with no blob (killed before Playwright wrote it, or no artifact) is named, and the
#      script exits 3: these reports lack its tests;
#   2. the verdict folders → `npm run merge -- --shards N SHARDS_DIR/*/verdicts` into
#      OUT_DIR/verdicts (index.json, summary.md, junit.xml, and last-run.json, the night's failed
#      tests for `--last-failed`; junit.xml copied to OUT_DIR/junit/verdicts.xml: every configured
#      run, a run no shard checked too), printing the run × item grid;
#   3. the Allure results of every shard copied into ${L1_ALLURE_RESULTS_DIR:-allure-results}/
#      (claimed and emptied by step 2, as any output folder),
#      then `npm run report` over them and the merged verdicts: one Allure report for the night,
#      with one environment block (all shards' base URLs, the date, n shards) and one grid (its
#      history file, allure-history/, is restored and saved around this step by the workflow).
# The exit code of step 2 (0 pass, 1 items failed, 2 runs not checked or merge problems, 3 an
# output folder refused: nothing merged) is
# recorded in OUT_DIR/merge-exit-code for scripts/ci/finish.sh. This script exits 0 when every
# step ran, 3 when a report could not be built (so that the job shows it), 2 on bad arguments.
set -uo pipefail
cd "$(dirname "$0")/../.."
shards="${1:-}"
out="${2:-reports}"
total="${3:-}"
if [ -z "$shards" ] || [ ! -d "$shards" ] || ! [[ "$total" =~ ^([1-9][0-9]*)?$ ]]; then
  echo "usage: bash scripts/ci/merge.sh SHARDS_DIR [OUT_DIR] [N]   (SHARDS_DIR must exist; N shards, 1 or more)" >&2
  mkdir -p "$out" && echo 2 >"${out}/merge-exit-code"
  exit 2
fi
mkdir -p "$out"
out="$(cd "$out" && pwd)"
tooling=0
# Whether DIR holds a file matching PATTERN: the folder is quoted, so brackets or stars in its path
# are not read as a pattern (compgen -G "$dir/*" would be).
has_files() {
  local f
  for f in "$1"/$2; do
    [ -e "$f" ] && return 0
  done
  return 1
}
# A merge that fails, is refused or is killed must not leave an earlier night's code and summary
# looking like tonight's (a reused workspace): the code is recorded afresh below, and files of the
# verdict folder count as this merge's only when newer than this mark (scripts/ci/summary.sh).
rm -f "${out}/merge-exit-code"
started="${out}/.merge-started"
touch "$started"

# Each shard's folder (a job that left no artifact has none) and the shard it says it is (`I/N`).
shard_dirs=()
declare -A shard_of=()
for dir in "$shards"/*/; do
  [ -d "$dir" ] || continue
  dir="${dir%/}"
  shard_dirs+=("$dir")
  [ -f "${dir}/shard" ] && shard_of["$dir"]="$(head -c 32 "${dir}/shard" | tr -d '[:space:]')"
done
# N not given: the one count the shards' folders name (none or several: the verdict merge says which).
if [ -z "$total" ]; then
  counts="$(for d in "${!shard_of[@]}"; do echo "${shard_of[$d]#*/}"; done | sort -u)"
  [[ "$counts" =~ ^[1-9][0-9]*$ ]] && total="$counts"
fi

echo "== 1. Playwright blob reports → HTML + JUnit"
blobs="${out}/blob-reports"
rm -rf "$blobs" "${out}/playwright-report" "${out}/playwright-junit" "${out}/junit"
mkdir -p "$blobs" "${out}/playwright-junit" "${out}/junit"
for zip in "$shards"/*/blob/*.zip; do
  [ -f "$zip" ] || continue
  shard="$(basename "$(dirname "$(dirname "$zip")")")"
  cp "$zip" "${blobs}/${shard}-$(basename "$zip")"
done
if has_files "$blobs" '*.zip'; then
  PLAYWRIGHT_HTML_OUTPUT_DIR="${out}/playwright-report" PLAYWRIGHT_HTML_OPEN=never \
    PLAYWRIGHT_JUNIT_OUTPUT_NAME="${out}/playwright-junit/playwright.xml" \
    node_modules/.bin/playwright merge-reports --reporter html,junit "$blobs" || {
    echo "merge: playwright merge-reports failed" >&2
    tooling=3
  }
else
  echo "merge: no blob report in ${shards}/*/blob: no Playwright HTML report" >&2
  tooling=3
fi
# Every shard of the night must have given its blob, or the HTML report and playwright.xml lack its
# tests with no sign of it (audit: one shard's checks SIGKILLed, the merged reports read whole).
if [ -n "$total" ]; then
  missing=()
  for i in $(seq 1 "$total"); do
    found=""
    for d in "${!shard_of[@]}"; do
      [ "${shard_of[$d]}" = "${i}/${total}" ] && has_files "${d}/blob" '*.zip' && found=1
    done
    [ -n "$found" ] || missing+=("${i}/${total}")
  done
  if [ "${#missing[@]}" -gt 0 ]; then
    echo "merge: no blob report of shard ${missing[*]} (its checks were killed before Playwright wrote it, or its job left no artifact): ${out}/playwright-report and playwright-junit/playwright.xml lack its tests" >&2
    tooling=3
  fi
else
  echo "merge: the number of shards is not known (no N given, and no shard folder says it): a shard's missing blob report cannot be told" >&2
fi

echo "== 2. verdict folders → one verdict folder, summary, JUnit"
# The Allure results folder of step 3 is claimed and emptied here, as any output folder is
# (lib/report/outputs.ts claimOutputs: never the checkout, a parent or the home folder; only what
# the suite and Allure wrote there is removed).
results="${L1_ALLURE_RESULTS_DIR:-allure-results}"
# Every shard folder's verdicts/, there or not: a folder without one is a problem the merge names,
# never a shard left out unsaid (a glob of */verdicts dropped it).
verdict_dirs=()
for dir in "${shard_dirs[@]}"; do verdict_dirs+=("${dir}/verdicts"); done
node scripts/run-ts.cjs scripts/merge.ts --out "${out}/verdicts" --allure-results "$results" \
  ${total:+--shards "$total"} "${verdict_dirs[@]}"
code=$?
if [ "${out}/verdicts/index.json" -nt "$started" ]; then
  cp "${out}/verdicts/junit.xml" "${out}/junit/verdicts.xml" 2>/dev/null || true
else
  echo "merge: the merge wrote no verdict folder (see above)" >&2
  [ "$code" -eq 0 ] || [ "$code" -eq 1 ] && code=2
fi
echo "$code" >"${out}/merge-exit-code"

echo "== 3. Allure results of every shard → one Allure report"
if [ "$code" -eq 3 ] || [ ! -f "${results}/.l1-outputs.json" ]; then
  # Step 2 refused an output folder (see above), whose mark may be another invocation's: nothing is
  # copied into it.
  echo "merge: ${results} was not claimed by the merge (see above): no Allure report" >&2
  tooling=3
else
  # Each shard's folder carries its own mark, which its copy would lay over the merge's: the folder
  # keeps the merge's mark, the invocation its merged verdict folder names too. So a later
  # `npm run report` over it with another night's verdicts is refused, not a report of two nights
  # mixed, and the next night claims it as the suite's folder (audit of 2026-11-27: with no mark,
  # one file a killed night left there made every later night refuse it).
  mark="${results}/.l1-outputs.json"
  kept_mark="${out}/.merge-allure-mark"
  cp -p "$mark" "$kept_mark"
  for dir in "$shards"/*/allure-results; do
    [ -d "$dir" ] && cp -R "$dir"/. "$results"/
  done
  mv -f "$kept_mark" "$mark"
  if has_files "$results" '*'; then
    # One report for the night: one environment (every shard's facts) and one grid (the merged verdicts).
    node scripts/run-ts.cjs scripts/report.ts --results "$results" --verdicts "${out}/verdicts" --quiet || {
      echo "merge: npm run report (Allure) failed" >&2
      tooling=3
    }
  else
    echo "merge: no Allure result in ${shards}/*/allure-results: no Allure report" >&2
    tooling=3
  fi
fi

echo "merge: verdict exit code ${code} (in ${out}/merge-exit-code)$([ "$tooling" -ne 0 ] && echo '; a report could not be built (see above)')"
exit "$tooling"
