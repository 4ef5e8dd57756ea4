#!/usr/bin/env bash
# The browser tests drive Debian's Chromium (playwright-core downloads no browser): its headless
# shell (chromium-headless-shell, the same engine in less CPU) and, for the benchmarks and the
# docs' pictures, the full browser (chromium). Installs them when missing and this user may
# install packages; otherwise says what to do. Without the shell the tests run the full browser.
set -euo pipefail
CHROMIUM=${SEARCHBOOK_CHROMIUM:-/usr/bin/chromium}
if [ ! -x "$CHROMIUM" ]; then
  bash "$(dirname "$0")/install-debian-package.sh" chromium "to run the browser tests" \
    "(or point SEARCHBOOK_CHROMIUM at a Chromium binary)"
fi
if [ -z "${SEARCHBOOK_CHROMIUM:-}" ] && [ ! -x /usr/lib/chromium/chromium-headless-shell ]; then
  bash "$(dirname "$0")/install-debian-package.sh" chromium-headless-shell \
    "for the browser tests (they run the full chromium without it)" || true
fi
