#!/usr/bin/env bash
# Installs one Debian package for a test tier: as root, or through passwordless sudo; otherwise
# says what to run and exits 1.
# Usage: install-debian-package.sh PACKAGE "WHAT IT IS FOR" ["WHAT ELSE THE USER MAY DO"]
set -euo pipefail
package=$1
purpose=$2
alternative=${3:-}
if [ "$(id -u)" = 0 ]; then
  as_root=()
elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
  as_root=(sudo)
else
  echo "searchbook setup: $package is missing; install it with 'sudo apt-get install -y $package'" >&2
  echo "  ${alternative:+$alternative }$purpose" >&2
  exit 1
fi
echo "searchbook setup: installing $package $purpose" >&2
export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" apt-get install -y -qq "$package" >/dev/null 2>&1 ||
  { "${as_root[@]}" apt-get update -qq && "${as_root[@]}" apt-get install -y -qq "$package" >/dev/null; }
