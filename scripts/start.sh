#!/usr/bin/env bash
# Starts searchbook on a fresh clone: set-up, the kernelspec installed into .venv, the sandbox
# engines with sample data (unless SEARCHBOOK_SANDBOX=0), and JupyterLab opened on examples/.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh

node bin/searchbook.js install --prefix .venv >/dev/null

sandbox_pid=""
if [ "${SEARCHBOOK_SANDBOX:-1}" != "0" ]; then
  export ES_PASSWORD="${ES_PASSWORD:-sandbox-password}" TYPESENSE_API_KEY="${TYPESENSE_API_KEY:-sandbox-api-key}"
  node bin/searchbook.js sandbox --es-password "$ES_PASSWORD" --ts-api-key "$TYPESENSE_API_KEY" &
  sandbox_pid=$!
  trap '[ -n "$sandbox_pid" ] && kill "$sandbox_pid" 2>/dev/null' EXIT
fi

# JUPYTER_PATH makes the kernelspec in .venv visible even to a Jupyter started elsewhere.
export JUPYTER_PATH="$PWD/.venv/share/jupyter${JUPYTER_PATH:+:$JUPYTER_PATH}"
lab_args=(--notebook-dir=examples)
if [ "$(id -u)" = 0 ]; then
  # Containers and CI machines often run as root, where JupyterLab refuses to start without this.
  echo "searchbook: running as root, so JupyterLab is started with --allow-root" >&2
  lab_args+=(--allow-root)
fi
.venv/bin/jupyter lab "${lab_args[@]}" "$@"
