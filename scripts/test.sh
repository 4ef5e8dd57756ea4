#!/usr/bin/env bash
# Runs every test: set-up, type check, jest (unit, property, wire, driver, sandbox), then the
# Python suites (jupyter_kernel_test conformance, nbclient notebooks). Ends with one line
# "searchbook: N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh || exit 1
bash scripts/setup-browser.sh || exit 1

mkdir -p test-results
status=0
npx tsc -p tsconfig.json --noEmit || status=1
npx tsc -p tsconfig.browser.json --noEmit || status=1
npx tsc -p extension/tsconfig.test.json || status=1
# --forceExit: jest runs in band on two cores, so one handle a test leaks would keep the run
# alive until CI kills it; the leak then shows as a test failure or warning, not a hang.
npx jest --ci --forceExit --json --outputFile=test-results/jest.json "$@" || status=1
.venv/bin/python -m pytest test/python -q --junitxml=test-results/pytest.xml || status=1
node scripts/summarize-tests.js test-results/jest.json test-results/pytest.xml || status=1
exit $status
