#!/usr/bin/env bash
# Runs every test: set-up, then jest (unit, property, wire, driver, sandbox and browser suites) in two
# workers while, beside it, the type check, import layers, lint and format, then the Python suites
# (jupyter_kernel_test conformance, nbclient notebooks) run one after the other. Ends with one line
# "searchbook: N passed, N failed", after the seconds each tier took (also in test-results/tiers.txt).
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p test-results
: >test-results/tiers.txt
run_started=$SECONDS
# Appends how long a tier took, from the SECONDS value it started at, and what it ran beside.
tier_done() {
  printf '%-10s %5d s%s\n' "$1" $((SECONDS - $2)) "${3:+  ($3)}" >>"${4:-test-results/tiers.txt}"
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
tier_done setup "$run_started"

# The real nodes' launchers, which a clean clone's first real-node suite (a minute into jest)
# would otherwise wait for while Maven builds them: built from the start, beside everything.
# That suite's own build then waits for this one (the script takes a lock) and finds everything
# up to date; a build that fails here fails there again, with its message. Where Maven or Java is
# missing, the suite's build installs or skips as before (two package installs at once would clash).
launchers_pid=
if [ "${SEARCHBOOK_REAL_ES:-}" != 0 ] && command -v mvn >/dev/null && command -v java >/dev/null; then
  bash scripts/setup-real-elasticsearch.sh >/dev/null 2>&1 &
  launchers_pid=$!
fi

# Beside jest, one after the other: the type check, the import layers, lint and format, then the
# Python suites. They run niced, so they take only the CPU jest's suites leave (which wait on
# kernels, servers, nodes and browsers much of the time) and never squeeze a jest suite's timing;
# what they print is kept and shown after jest's output, each tier's seconds in tiers.txt.
beside=$(mktemp -d)
(
  renice -n 10 -p "$BASHPID" >/dev/null
  failed=0
  started=$SECONDS
  # Four programs, checked side by side; --incremental keeps what tsc learnt for the next run.
  tsc_cache=node_modules/.cache/tsc
  side_by_side \
    "npx tsc -p contracts/tsconfig.json --incremental --tsBuildInfoFile $tsc_cache/contracts.tsbuildinfo" \
    "npx tsc -p tsconfig.json --noEmit --incremental --tsBuildInfoFile $tsc_cache/node.tsbuildinfo" \
    "npx tsc -p tsconfig.browser.json --noEmit --incremental --tsBuildInfoFile $tsc_cache/browser.tsbuildinfo" \
    "npx tsc -p extension/tsconfig.test.json --incremental --tsBuildInfoFile $tsc_cache/extension.tsbuildinfo" ||
    failed=1
  tier_done typecheck $started "beside jest, niced" "$beside/tiers"
  started=$SECONDS
  # The layers of docs/architecture.md (no cycle, no import running up), then ESLint and Prettier.
  side_by_side \
    "npm run --silent check:imports" \
    "npx eslint --cache --cache-location node_modules/.cache/eslint/ ." \
    "npx prettier --check --cache --cache-location node_modules/.cache/prettier/.prettier-cache ." ||
    failed=1
  tier_done lint $started "beside jest, niced" "$beside/tiers"
  started=$SECONDS
  .venv/bin/python -m pytest test/python -q --junitxml=test-results/pytest.xml || failed=1
  tier_done python $started "beside jest, niced" "$beside/tiers"
  exit $failed
) >"$beside/output" 2>&1 &
beside_pid=$!

status=0
started=$SECONDS
# Two jest workers, one a core (12 minutes on two cores instead of 15 with one), unless
# SEARCHBOOK_TEST_WORKERS says otherwise. The real nodes, the real Typesense server and the
# run's temporary folder are shared by both (test/support/global-setup.ts), each worker runs the
# browser suites it is given on a JupyterLab and Chromium of its own, and the longest files
# start first (test/support/longest-first-sequencer.js) so both end together.
# --forceExit: one handle a test leaks would keep the run alive until CI kills it; the leak then
# shows as a test failure or warning, not a hang. And a watchdog: a test stuck past every
# timeout ends the run with a message here, well inside CI's limit.
rm -f test-results/temp-left.txt
timeout --kill-after=30s 60m npx jest --ci --forceExit --maxWorkers="${SEARCHBOOK_TEST_WORKERS:-2}" --json --outputFile=test-results/jest.json "$@"
jest_status=$?
if [ "$jest_status" -eq 124 ] || [ "$jest_status" -eq 137 ]; then echo "searchbook: jest was stopped after 60 minutes; the last suite it printed was still running" >&2; fi
[ "$jest_status" -eq 0 ] || status=1
# What the tests, and every program they started, left in the run's temporary folder (the jest
# teardown lists it) fails the run: each must remove what it makes.
if [ -s test-results/temp-left.txt ]; then
  echo "searchbook: the tests left these in the temporary directory: $(tr '\n' ' ' <test-results/temp-left.txt)" >&2
  status=1
fi
tier_done jest $started
[ -z "$launchers_pid" ] || wait "$launchers_pid" || true
wait "$beside_pid" || status=1
cat "$beside/output"
cat "$beside/tiers" >>test-results/tiers.txt 2>/dev/null
rm -rf "$beside"
tier_done total "$run_started" "wall clock, set-up to the end"
cat test-results/tiers.txt
node scripts/summarize-tests.js test-results/jest.json test-results/pytest.xml || status=1
exit $status
