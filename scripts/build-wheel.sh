#!/usr/bin/env bash
# `npm run build:wheel`: builds the JS, stages the bundled kernel, its native addons, the
# kernelspec and the labextension under python/, and writes the wheel into dist/wheel/.
# `--no-js-build` reuses the current build (the tests run after set-up has built).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" != "--no-js-build" ]; then
  npm run --silent build
fi
node dist/packaging/stage-wheel.js
python=python3
if [ -x .venv/bin/python ]; then python=.venv/bin/python; fi
rm -rf dist/wheel
"$python" -m pip wheel --quiet --disable-pip-version-check --no-deps --wheel-dir dist/wheel ./python
ls dist/wheel/*.whl
