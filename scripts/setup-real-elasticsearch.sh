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
  bash ../scripts/install-debian-package.sh maven "to build the real Elasticsearch nodes the tests start"
fi

# One build at a time (a test run and a hand-started node may both ask), and only when a pom
# or a launcher source is newer than the last build.
exec 9>.build.lock
flock 9
stamp=.built
if [ -f "$stamp" ] && [ -z "$(find . -path '*/target' -prune -o \( -name '*.xml' -o -name '*.java' \) -newer "$stamp" -print -quit)" ]; then
  exit 0
fi
echo "searchbook setup: building the real Elasticsearch launchers (Maven Central; first time about a minute)" >&2
mvn -q -B -Dstyle.color=never package
touch "$stamp"
