#!/usr/bin/env bash
# Runs every test: set-up, type check, import layers, lint and format, jest (unit, property, wire, driver, sandbox), then the
# Python suites (jupyter_kernel_test conformance, nbclient notebooks). Ends with one line
# "searchbook: N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --for-tests || exit 1
bash scripts/setup-browser.sh || exit 1

mkdir -p test-results
status=0
npx tsc -p contracts/tsconfig.json || status=1
npx tsc -p tsconfig.json --noEmit || status=1
npx tsc -p tsconfig.browser.json --noEmit || status=1
npx tsc -p extension/tsconfig.test.json || status=1
# The layers of docs/architecture.md (no cycle, no import running up), then ESLint and Prettier.
npm run --silent check:imports || status=1
npm run --silent lint || status=1
# --forceExit: jest runs in band on two cores, so one handle a test leaks would keep the run
# alive until CI kills it; the leak then shows as a test failure or warning, not a hang.
# And a watchdog: a test stuck past every timeout ends the run with a message here, well inside CI's limit.
timeout --kill-after=30s 60m npx jest --ci --forceExit --json --outputFile=test-results/jest.json "$@"
jest_status=$?
if [ "$jest_status" -eq 124 ] || [ "$jest_status" -eq 137 ]; then echo "searchbook: jest was stopped after 60 minutes; the last suite it printed was still running" >&2; fi
[ "$jest_status" -eq 0 ] || status=1
.venv/bin/python -m pytest test/python -q --junitxml=test-results/pytest.xml || status=1
node scripts/summarize-tests.js test-results/jest.json test-results/pytest.xml || status=1
exit $status
