#!/usr/bin/env bash
# The browser tests drive Debian's Chromium (playwright-core downloads no browser). Installs it
# when it is missing and this user may install packages; otherwise says what to do.
set -euo pipefail
CHROMIUM=${SEARCHBOOK_CHROMIUM:-/usr/bin/chromium}
[ -x "$CHROMIUM" ] && exit 0

if [ "$(id -u)" = 0 ]; then
  as_root=()
elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
  as_root=(sudo)
else
  echo "searchbook setup: $CHROMIUM is missing; install it with 'sudo apt-get install -y chromium'" >&2
  echo "  (or point SEARCHBOOK_CHROMIUM at a Chromium binary) to run the browser tests" >&2
  exit 1
fi
echo "searchbook setup: installing Chromium for the browser tests" >&2
export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" apt-get install -y -qq chromium >/dev/null 2>&1 ||
  { "${as_root[@]}" apt-get update -qq && "${as_root[@]}" apt-get install -y -qq chromium >/dev/null; }
