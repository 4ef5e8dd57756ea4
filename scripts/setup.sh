#!/usr/bin/env bash
# Installs what searchbook needs, idempotently: npm packages, the build, and a Python
# virtual environment (.venv, git-ignored) with Jupyter. Every entry command runs it first.
set -euo pipefail
cd "$(dirname "$0")/.."

stamp() { [ -f "$1" ] && [ "$1" -nt "$2" ]; }

if ! stamp node_modules/.package-lock.json package-lock.json; then
  echo "searchbook setup: installing npm packages" >&2
  # `npm install`, not `npm ci`: npm omits optional platform packages (swc's, for one) from
  # the lock under some configurations, and `npm ci` then refuses the lock as out of sync.
  npm install --no-audit --no-fund --loglevel=error
fi

echo "searchbook setup: building" >&2
npm run --silent build

if [ ! -x .venv/bin/python ]; then
  echo "searchbook setup: creating the Python environment (.venv)" >&2
  python3 -m venv .venv
fi
if ! stamp .venv/.requirements-installed requirements-dev.txt; then
  echo "searchbook setup: installing Jupyter into .venv" >&2
  .venv/bin/python -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
  touch .venv/.requirements-installed
fi
