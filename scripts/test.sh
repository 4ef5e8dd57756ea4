#!/usr/bin/env bash
# Runs every test: set-up, type check, import layers, lint and format, jest (unit, property, wire, driver, sandbox), then the
# Python suites (jupyter_kernel_test conformance, nbclient notebooks). Ends with one line
# "searchbook: N passed, N failed", after the seconds each tier took (also in test-results/tiers.txt).
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p test-results
: >test-results/tiers.txt
tier_started=$SECONDS
# Records how long the tier that just ended took, for test-results/tiers.txt and the closing lines.
tier_done() {
  printf '%-10s %5d s\n' "$1" $((SECONDS - tier_started)) >>test-results/tiers.txt
  tier_started=$SECONDS
}

# Runs the given commands (one per argument, through bash) at once and prints each one's output
# after it ends, in the order given; fails when any failed. The checks are single-threaded, so
# side by side they use both cores; their caches live in node_modules/.cache (never committed).
side_by_side() {
  local dir command pid pids=() failed=0 i=0
  dir=$(mktemp -d)
  for command in "$@"; do
    i=$((i + 1))
    bash -c "$command" >"$dir/$i" 2>&1 &
    pids+=("$!")
  done
  i=0
  for pid in "${pids[@]}"; do
    i=$((i + 1))
    wait "$pid" || failed=1
    cat "$dir/$i"
  done
  rm -rf "$dir"
  return $failed
}

bash scripts/setup.sh --for-tests || exit 1
bash scripts/setup-browser.sh || exit 1
tier_done setup

status=0
# Four programs, checked side by side; --incremental keeps what tsc learnt for the next run.
tsc_cache=node_modules/.cache/tsc
side_by_side \
  "npx tsc -p contracts/tsconfig.json --incremental --tsBuildInfoFile $tsc_cache/contracts.tsbuildinfo" \
  "npx tsc -p tsconfig.json --noEmit --incremental --tsBuildInfoFile $tsc_cache/node.tsbuildinfo" \
  "npx tsc -p tsconfig.browser.json --noEmit --incremental --tsBuildInfoFile $tsc_cache/browser.tsbuildinfo" \
  "npx tsc -p extension/tsconfig.test.json --incremental --tsBuildInfoFile $tsc_cache/extension.tsbuildinfo" ||
  status=1
tier_done typecheck
# The layers of docs/architecture.md (no cycle, no import running up), then ESLint and Prettier.
side_by_side \
  "npm run --silent check:imports" \
  "npx eslint --cache --cache-location node_modules/.cache/eslint/ ." \
  "npx prettier --check --cache --cache-location node_modules/.cache/prettier/.prettier-cache ." ||
  status=1
tier_done lint
# --forceExit: jest runs in band on two cores, so one handle a test leaks would keep the run
# alive until CI kills it; the leak then shows as a test failure or warning, not a hang.
# And a watchdog: a test stuck past every timeout ends the run with a message here, well inside CI's limit.
rm -f test-results/temp-left.txt
timeout --kill-after=30s 60m npx jest --ci --forceExit --json --outputFile=test-results/jest.json "$@"
jest_status=$?
if [ "$jest_status" -eq 124 ] || [ "$jest_status" -eq 137 ]; then echo "searchbook: jest was stopped after 60 minutes; the last suite it printed was still running" >&2; fi
[ "$jest_status" -eq 0 ] || status=1
# What the tests left in the run's temporary folder (the jest teardown lists it): the suites' own
# folders fail the run; other programs' entries (Python's tmp*) are named, to be traced.
if [ -s test-results/temp-left.txt ]; then
  if grep -q '^searchbook-' test-results/temp-left.txt; then
    echo "searchbook: the tests left these in the temporary directory: $(tr '\n' ' ' <test-results/temp-left.txt)" >&2
    status=1
  else
    echo "searchbook: programs the tests started left these in the temporary directory: $(tr '\n' ' ' <test-results/temp-left.txt)" >&2
  fi
fi
tier_done jest
.venv/bin/python -m pytest test/python -q --junitxml=test-results/pytest.xml || status=1
tier_done python
cat test-results/tiers.txt
node scripts/summarize-tests.js test-results/jest.json test-results/pytest.xml || status=1
exit $status
