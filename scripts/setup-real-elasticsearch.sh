#!/usr/bin/env bash
# Builds the launchers of the real Elasticsearch nodes (real-elasticsearch/, jars from Maven
# Central into each module's git-ignored target/). Installs Debian's Maven when mvn is missing
# and this user may install packages, as setup-browser.sh does for Chromium. Exits 3 when Java
# is missing: the real-node tier is then skipped, not failed.
set -euo pipefail
cd "$(dirname "$0")/../real-elasticsearch"

if ! command -v java >/dev/null; then
  echo "searchbook setup: no java on PATH; the tests against real Elasticsearch nodes are skipped" >&2
  echo "  (install Java 17 or later, e.g. 'sudo apt-get install -y openjdk-17-jre-headless')" >&2
  exit 3
fi

if ! command -v mvn >/dev/null; then
  if [ "$(id -u)" = 0 ]; then
    as_root=()
  elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
    as_root=(sudo)
  else
    echo "searchbook setup: mvn is missing; install it with 'sudo apt-get install -y maven'" >&2
    echo "  to build the real Elasticsearch nodes the tests start" >&2
    exit 1
  fi
  echo "searchbook setup: installing Maven for the real Elasticsearch nodes" >&2
  export DEBIAN_FRONTEND=noninteractive
  "${as_root[@]}" apt-get install -y -qq maven >/dev/null 2>&1 ||
    { "${as_root[@]}" apt-get update -qq && "${as_root[@]}" apt-get install -y -qq maven >/dev/null; }
fi

# Rebuilt only when a pom or a launcher source is newer than the last build.
stamp=.built
if [ -f "$stamp" ] && [ -z "$(find . -path '*/target' -prune -o \( -name '*.xml' -o -name '*.java' \) -newer "$stamp" -print -quit)" ]; then
  exit 0
fi
echo "searchbook setup: building the real Elasticsearch launchers (Maven Central; first time about a minute)" >&2
mvn -q -B -Dstyle.color=never package
touch "$stamp"
