#!/usr/bin/env bash
# The running part of `npm start` (scripts/start.sh does the set-up first): the sandbox engines
# unless they are not wanted, then JupyterLab on examples/. One Ctrl-C (or SIGTERM) stops
# everything in order: JupyterLab first, without its "Shut down (y/[n])?" question, shutting
# its kernels down, then the sandbox. Arguments go to JupyterLab.
set -euo pipefail
cd "$(dirname "$0")/.."
# Each background job gets its own process group, so a Ctrl-C reaches only this script, which
# then stops them in order; otherwise the sandbox would die at once under a running JupyterLab.
set -m

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
lab_pid=""
stop_all() {
  trap '' INT TERM
  if [ -n "$lab_pid" ] && kill -0 "$lab_pid" 2>/dev/null; then
    echo "searchbook: stopping JupyterLab and its kernels" >&2
    # SIGTERM is JupyterLab's stop without a question; it shuts its kernels down first.
    kill -TERM "$lab_pid" 2>/dev/null || true
    wait "$lab_pid" 2>/dev/null || true
  fi
  if [ -n "$sandbox_pid" ] && kill -0 "$sandbox_pid" 2>/dev/null; then
    echo "searchbook: stopping the sandbox engines" >&2
    kill -TERM "$sandbox_pid" 2>/dev/null || true
    wait "$sandbox_pid" 2>/dev/null || true
  fi
}
trap 'stop_all; exit 130' INT
trap 'stop_all; exit 143' TERM
trap stop_all EXIT

if [ "$want_sandbox" != "0" ]; then
  export ES_PASSWORD="${ES_PASSWORD:-sandbox-password}" TYPESENSE_API_KEY="${TYPESENSE_API_KEY:-sandbox-api-key}"
  # SEARCHBOOK_SANDBOX_ARGS: more sandbox options, such as --es-port 9201 (searchbook-sandbox --help).
  # The sandbox engines are a package of their own (sandbox/), run by its bin.
  # shellcheck disable=SC2086
  addresses="$(mktemp -d)/sandbox-addresses"
  node sandbox/bin/searchbook-sandbox.js --es-password "$ES_PASSWORD" --ts-api-key "$TYPESENSE_API_KEY" --addresses "$addresses" ${SEARCHBOOK_SANDBOX_ARGS:-} &
  sandbox_pid=$!
  # The examples connect to ${env:SEARCHBOOK_ES_URL} and ${env:SEARCHBOOK_TYPESENSE_URL}: the
  # addresses the sandbox listens on (other ports when SEARCHBOOK_SANDBOX_ARGS says so), known
  # once it has started, and exported before JupyterLab starts so its kernels inherit them.
  for _ in $(seq 1 1200); do
    [ -s "$addresses" ] && break
    if ! kill -0 "$sandbox_pid" 2>/dev/null; then
      echo "searchbook: the sandbox engines did not start (see above)" >&2
      exit 1
    fi
    sleep 0.1
  done
  if [ -s "$addresses" ]; then
    set -a
    # shellcheck disable=SC1090
    . "$addresses"
    set +a
    rm -rf "$(dirname "$addresses")"
  else
    echo "searchbook: the sandbox did not say its addresses within 2 minutes; the examples' first cells will say what to set" >&2
  fi
fi

# JUPYTER_PATH makes the kernelspec in .venv visible even to a Jupyter started elsewhere.
export JUPYTER_PATH="$PWD/.venv/share/jupyter${JUPYTER_PATH:+:$JUPYTER_PATH}"
lab_args=(--notebook-dir=examples --ServerApp.answer_yes=True)
if [ "$(id -u)" = 0 ]; then
  # Containers and CI machines often run as root, where JupyterLab refuses to start without this.
  echo "searchbook: running as root, so JupyterLab is started with --allow-root" >&2
  lab_args+=(--allow-root)
fi
# In the background (its own process group) so this script alone takes the terminal's Ctrl-C.
.venv/bin/jupyter lab "${lab_args[@]}" "$@" &
lab_pid=$!
# `wait` returns early when a trapped signal arrives; the trap then stops everything.
status=0
wait "$lab_pid" || status=$?
lab_pid=""
exit "$status"
