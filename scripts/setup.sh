#!/usr/bin/env bash
# Installs what searchbook needs, idempotently: npm packages, the build, and a Python
# virtual environment (.venv, git-ignored) with Jupyter. Every entry command runs it first.
set -euo pipefail
cd "$(dirname "$0")/.."

stamp() { [ -f "$1" ] && [ "$1" -nt "$2" ]; }

# The Python environment installs while npm works: they compete for neither cores (both wait on
# the network and the disk) nor files, and the two together were most of a first start.
# requirements.txt is what running needs (JupyterLab); requirements-dev.txt adds the test
# tools, as package.json's two lists do below, and requirements-examples.txt what the example
# notebooks use (pandas), which `npm start` installs once JupyterLab is up (scripts/start.sh).
for_tests=false
[ "${1:-}" = "--for-tests" ] && for_tests=true
requirement_files=(requirements.txt)
python_stamp=.venv/.requirements-installed
if $for_tests; then
  requirement_files+=(requirements-examples.txt requirements-dev.txt)
  python_stamp=.venv/.requirements-dev-installed
fi
python_log=$(mktemp)
(
  if [ ! -x .venv/bin/python ]; then
    echo "searchbook setup: creating the Python environment (.venv)" >&2
    python3 -m venv .venv
  fi
  installed=true
  for file in "${requirement_files[@]}"; do
    stamp "$python_stamp" "$file" || installed=false
  done
  if ! $installed; then
    echo "searchbook setup: installing Jupyter into .venv" >&2
    .venv/bin/python -m pip install --quiet --disable-pip-version-check \
      "${requirement_files[@]/#/--requirement=}"
    touch "$python_stamp"
    # What the tests install holds what a start needs, the examples' packages too.
    if $for_tests; then
      touch .venv/.requirements-installed .venv/.requirements-examples-installed
    fi
  fi
) >"$python_log" 2>&1 &
python_setup=$!
# A failure below ends set-up at once; the Python install must not outlive it.
trap 'kill "$python_setup" 2>/dev/null || true' EXIT

# package.json's dependencies are what running searchbook needs, its build included;
# devDependencies add what only the tests and checks use (jest, eslint, Playwright, the
# engines' official clients, ...), more than half of the packages. `npm start` installs the
# first only; `npm test` (--for-tests) all of them.
runtime_only=node_modules/.searchbook-runtime-only
if ! stamp node_modules/.package-lock.json package-lock.json ||
  { $for_tests && [ -f "$runtime_only" ]; }; then
  echo "searchbook setup: installing npm packages" >&2
  # `npm ci` installs exactly what package-lock.json says and never rewrites it, so set-up
  # leaves the working tree as it found it.
  if $for_tests; then
    npm ci --no-audit --no-fund --loglevel=error
  else
    npm ci --omit=dev --no-audit --no-fund --loglevel=error
    touch "$runtime_only"
  fi
fi

# The build is skipped when none of the files it reads changed since the last build that
# succeeded (as make decides, by modification time): a second `npm start` then costs nothing.
# The stamp is taken before building, so a file saved during the build counts as changed.
build_inputs=(contracts kernel extension test bench sandbox/src sandbox/bin packaging style bin
  package.json sandbox/package.json package-lock.json tsconfig.json tsconfig.browser.json webpack.config.js
  scripts/transpile.mjs)
built=dist/.build-complete
changed=""
if [ -f "$built" ] && [ -d lib ] && [ -d labextension ]; then
  # Sources only: pytest's caches and the like under test/ are not read by the build.
  changed=$(find "${build_inputs[@]}" -type f -newer "$built" \
    \( -name '*.ts' -o -name '*.js' -o -name '*.mjs' -o -name '*.cjs' -o -name '*.json' \
    -o -name '*.css' -o -name '*.svg' \) -print -quit 2>/dev/null)
else
  changed="no earlier build"
fi
if [ -n "$changed" ]; then
  echo "searchbook setup: building" >&2
  mkdir -p dist
  touch "$built.next"
  npm run --silent build
  mv "$built.next" "$built"
else
  echo "searchbook setup: the build is up to date" >&2
fi

python_status=0
wait "$python_setup" || python_status=$?
cat "$python_log" >&2
rm -f "$python_log"
if [ "$python_status" -ne 0 ]; then
  echo "searchbook setup: the Python environment (.venv) could not be installed" >&2
  exit "$python_status"
fi
echo "searchbook setup: done" >&2
