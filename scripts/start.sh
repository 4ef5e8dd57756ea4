#!/usr/bin/env bash
# Starts searchbook on a fresh clone: set-up, the kernelspec and JupyterLab extension installed
# into .venv, the sandbox engines with sample data, and JupyterLab opened on examples/.
# The sandbox stays off with SEARCHBOOK_SANDBOX=0, or when the user has saved connection
# profiles (their own clusters) and has not asked for it with SEARCHBOOK_SANDBOX=1.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh

node bin/searchbook.js install --prefix .venv >/dev/null
.venv/bin/jupyter labextension list 2>&1 | grep -q 'searchbook.*OK' ||
  echo "searchbook: warning: JupyterLab does not list the searchbook extension as OK" >&2

want_sandbox="${SEARCHBOOK_SANDBOX:-auto}"
if [ "$want_sandbox" = auto ]; then
  read -r profile_count profile_file < <(node scripts/profile-count.js)
  if [ "$profile_count" -gt 0 ]; then
    echo "searchbook: $profile_count saved connection profile(s) in $profile_file, so the sandbox engines" >&2
    echo "  are not started (SEARCHBOOK_SANDBOX=1 starts them anyway)" >&2
    want_sandbox=0
  fi
fi

sandbox_pid=""
if [ "$want_sandbox" != "0" ]; then
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
