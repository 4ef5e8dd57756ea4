#!/usr/bin/env bash
# The browser tests drive Debian's Chromium (playwright-core downloads no browser). Installs it
# when it is missing and this user may install packages; otherwise says what to do.
set -euo pipefail
CHROMIUM=${SEARCHBOOK_CHROMIUM:-/usr/bin/chromium}
[ -x "$CHROMIUM" ] && exit 0

bash "$(dirname "$0")/install-debian-package.sh" chromium "to run the browser tests" \
  "(or point SEARCHBOOK_CHROMIUM at a Chromium binary)"
