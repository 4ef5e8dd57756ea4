#!/usr/bin/env bash
# Starts searchbook on a fresh clone: set-up, the kernelspec and JupyterLab extension installed
# into .venv, then scripts/lab-with-sandbox.sh: the sandbox engines with sample data and
# JupyterLab opened on examples/, all stopped by one Ctrl-C.
# The sandbox stays off with SEARCHBOOK_SANDBOX=0, or when the user has saved connection
# profiles (their own clusters) and has not asked for it with SEARCHBOOK_SANDBOX=1.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh

# The kernelspec names this clone and this Node.js: written again when either changed, or the
# build did.
installed=.venv/.searchbook-installed
this_install="$(command -v node) $PWD"
if [ ! -f "$installed" ] || [ "$(cat "$installed")" != "$this_install" ] ||
  [ labextension/package.json -nt "$installed" ] || [ ! -d .venv/share/jupyter/kernels/searchbook ]; then
  node bin/searchbook.js install --prefix .venv >/dev/null
  # `%load_ext searchbook` in a Python notebook imports the clone's python/ package, as the
  # wheel's would be.
  site_packages=$(.venv/bin/python -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
  echo "$PWD/python" >"$site_packages/searchbook-clone.pth"
  echo "$this_install" >"$installed"
fi
# The example notebooks' own packages (pandas) install once JupyterLab is up: JupyterLab does
# not wait for them, and a Python notebook that needs them says what is missing meanwhile.
examples=.venv/.requirements-examples-installed
if [ ! -f "$examples" ] || [ requirements-examples.txt -nt "$examples" ]; then
  echo "searchbook: installing pandas for examples/python.ipynb in the background" >&2
  (
    if nice -n 10 .venv/bin/python -m pip install --quiet --disable-pip-version-check \
      --requirement=requirements-examples.txt >.venv/examples-install.log 2>&1; then
      touch "$examples"
    else
      echo "searchbook: pandas could not be installed (see .venv/examples-install.log)" >&2
    fi
  ) &
fi
# Asking JupyterLab whether it sees the extension costs a few seconds of Python: it is asked
# once per build, beside JupyterLab's own start rather than before it.
checked=.venv/.searchbook-extension-checked
if [ ! -f "$checked" ] || [ labextension/package.json -nt "$checked" ]; then
  (
    if .venv/bin/jupyter labextension list 2>&1 | grep -q 'searchbook.*OK'; then
      touch "$checked"
    else
      echo "searchbook: warning: JupyterLab does not list the searchbook extension as OK" >&2
    fi
  ) &
fi

exec bash scripts/lab-with-sandbox.sh "$@"
