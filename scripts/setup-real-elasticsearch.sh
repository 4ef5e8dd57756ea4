#!/usr/bin/env bash
# Builds the launchers of the real Elasticsearch and OpenSearch nodes (real-elasticsearch/, jars
# from Maven Central into each module's git-ignored target/). Installs Debian's Maven when mvn
# is missing and this user may install packages, as setup-browser.sh does for Chromium. Exits 3
# when Java is missing: the real-node tier is then skipped, not failed.
# Elasticsearch 9.x and OpenSearch 3.x need a JDK 21 or later (looked for in JAVA_HOME, java on
# PATH and the usual JDK folders); Elasticsearch 9.x also native zstd (Debian's libzstd1).
# Without them only those nodes are skipped, with the reason in
# real-elasticsearch/<module>/target/skipped.txt (es-9.5, opensearch-3.3).
# `--find-jdk21` only prints the JDK 21+ those nodes would use (exit 0), or why there is none
# (exit 4): test files ask it to know whether to skip their suites, without building.
set -euo pipefail
cd "$(dirname "$0")/../real-elasticsearch"

if [ "${1:-}" != --find-jdk21 ] && ! command -v java >/dev/null; then
  echo "searchbook setup: no java on PATH; the tests against real Elasticsearch nodes are skipped" >&2
  echo "  (install Java 17 or later, e.g. 'sudo apt-get install -y openjdk-17-jre-headless')" >&2
  exit 3
fi

if ! command -v mvn >/dev/null; then
  bash ../scripts/install-debian-package.sh maven "to build the real Elasticsearch nodes the tests start"
fi

# The feature release of the JDK in $1 (from its release file, else by asking its java), or 0.
jdk_feature() {
  local home=$1 version=
  [ -x "$home/bin/java" ] && [ -x "$home/bin/javac" ] || { echo 0; return; }
  if [ -f "$home/release" ]; then
    version=$(sed -n 's/^JAVA_VERSION="\([^"]*\)".*/\1/p' "$home/release")
  fi
  if [ -z "$version" ]; then
    version=$("$home/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = //p')
  fi
  version=${version#1.}
  version=${version%%[.+-]*}
  [[ $version =~ ^[0-9]+$ ]] && echo "$version" || echo 0
}

# A JDK 21 or later (it compiles and runs the 9.x launcher); the newest of those found.
find_jdk21() {
  local candidates=() best= best_feature=0 home feature
  [ -n "${JAVA_HOME:-}" ] && candidates+=("$JAVA_HOME")
  command -v java >/dev/null && candidates+=("$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")")
  for home in /usr/lib/jvm/* /usr/local/lib/jvm/* /opt/java/* /opt/jdk* "$HOME"/.jdks/* "$HOME"/.sdkman/candidates/java/*; do
    [ -d "$home" ] && candidates+=("$home")
  done
  for home in "${candidates[@]}"; do
    home=$(readlink -f "$home")
    feature=$(jdk_feature "$home")
    if [ "$feature" -ge 21 ] && [ "$feature" -gt "$best_feature" ]; then
      best=$home
      best_feature=$feature
    fi
  done
  echo "$best"
}

NO_JDK21="no JDK 21 or later found (looked at JAVA_HOME, java on PATH, /usr/lib/jvm and the usual JDK folders); the Elasticsearch 9.x and OpenSearch 3.x nodes need one: install e.g. Eclipse Temurin 21, or set JAVA_HOME to one"
if [ "${1:-}" = --find-jdk21 ]; then
  jdk21=$(find_jdk21)
  [ -n "$jdk21" ] || { echo "$NO_JDK21" >&2; exit 4; }
  echo "$jdk21"
  exit 0
fi

# Debian's libzstd.so.1 (Elasticsearch 9.x loads zstd natively), installing libzstd1 when missing.
find_libzstd() {
  local lib
  lib=$(/sbin/ldconfig -p 2>/dev/null | awk '/libzstd\.so\.1 .*x86-64|libzstd\.so\.1 .*AArch64/ { print $NF; exit }')
  [ -z "$lib" ] && lib=$(ls /usr/lib/*-linux-gnu/libzstd.so.1 /usr/lib/libzstd.so.1 2>/dev/null | head -1 || true)
  echo "$lib"
}

es9_target=es-9.5/target
es9_skipped=
# OpenSearch 3.x needs the JDK 21+ only (it loads no native library).
os3_target=opensearch-3.3/target
os3_skipped=
jdk21=$(find_jdk21)
libzstd=
if [ -z "$jdk21" ]; then
  es9_skipped=$NO_JDK21
  os3_skipped=$NO_JDK21
else
  libzstd=$(find_libzstd)
  if [ -z "$libzstd" ]; then
    bash ../scripts/install-debian-package.sh libzstd1 "for the Elasticsearch 9.x nodes (native zstd)" || true
    libzstd=$(find_libzstd)
  fi
  [ -z "$libzstd" ] && es9_skipped="no libzstd.so.1 (Debian's libzstd1): the Elasticsearch 9.x nodes load zstd natively; install it with 'sudo apt-get install -y libzstd1'"
fi
if [ -n "$es9_skipped" ]; then
  echo "searchbook setup: $es9_skipped" >&2
fi

# One build at a time (a test run and a hand-started node may both ask), and only when a pom or
# a launcher source is newer than the last build, a module's output is missing, or the JDK 21
# found differs from the one the 9.x and 3.x launchers were built with.
exec 9>.build.lock
flock 9
stamp=.built
up_to_date() {
  [ -f "$stamp" ] || return 1
  [ -z "$(find . -path '*/target' -prune -o \( -name '*.xml' -o -name '*.java' \) -newer "$stamp" -print -quit)" ] || return 1
  local module
  for module in es-7.17 es-8.19 opensearch-2.19; do
    [ -f "$module/target/$module-1.jar" ] || return 1
  done
  if [ -n "$es9_skipped" ]; then
    [ -f "$es9_target/skipped.txt" ] && [ "$(cat "$es9_target/skipped.txt")" = "$es9_skipped" ] || return 1
  else
    [ -f "$es9_target/es-9.5-1.jar" ] && [ "$(cat "$es9_target/java-home" 2>/dev/null)" = "$jdk21" ] &&
      [ "$(readlink "$es9_target/nativelibs/libzstd.so")" = "$libzstd" ] || return 1
  fi
  if [ -n "$os3_skipped" ]; then
    [ -f "$os3_target/skipped.txt" ] && [ "$(cat "$os3_target/skipped.txt")" = "$os3_skipped" ]
  else
    [ -f "$os3_target/opensearch-3.3-1.jar" ] && [ "$(cat "$os3_target/java-home" 2>/dev/null)" = "$jdk21" ]
  fi
}
if up_to_date; then
  exit 0
fi
echo "searchbook setup: building the real Elasticsearch and OpenSearch launchers (Maven Central; first time about a minute)" >&2
rm -f "$stamp" "$es9_target/skipped.txt" "$es9_target/java-home" "$os3_target/skipped.txt" "$os3_target/java-home"
# -Djava21.home turns on the parent pom's java21 profile (es-9.5, opensearch-3.3); -pl leaves
# es-9.5 out when only zstd is missing.
java21_build=()
if [ -n "$jdk21" ]; then
  java21_build=("-Djava21.home=$jdk21")
  [ -n "$es9_skipped" ] && java21_build+=(-pl '!es-9.5')
fi
mvn -q -B -Dstyle.color=never "${java21_build[@]}" package
mkdir -p "$es9_target"
if [ -n "$es9_skipped" ]; then
  echo "$es9_skipped" >"$es9_target/skipped.txt"
else
  # The folder -Des.nativelibs.path names: Elasticsearch looks for libzstd.so, Debian ships .so.1.
  mkdir -p "$es9_target/nativelibs"
  ln -sfn "$libzstd" "$es9_target/nativelibs/libzstd.so"
  echo "$jdk21" >"$es9_target/java-home"
fi
mkdir -p "$os3_target"
if [ -n "$os3_skipped" ]; then
  echo "$os3_skipped" >"$os3_target/skipped.txt"
else
  echo "$jdk21" >"$os3_target/java-home"
fi
touch "$stamp"
