#!/bin/sh
# Builds the console images (make image-console) from the built
# rocketmq-dashboard jars, without a registry (POSIX sh; root, podman,
# debootstrap for the Java base):
#
#   CONSOLE_JARS=DIR sh distribution/image/console-image.sh [VERSION...]   # default: 1.0.0 2.1.0
#
#   localhost/rmqgo-console:1.0.0   for styletang/rocketmq-console-ng (the seed's console;
#                                   the 4.x line): listens on 8080
#   localhost/rmqgo-console:2.1.0   for apacherocketmq/rocketmq-dashboard (the 5.x
#                                   line): listens on 8082
#
# Each is distribution/image/console.Containerfile FROM the Java base
# (java-base.sh: Debian's Java 17 runtime, as the Java stand-ins are built;
# made once, when missing) with rocketmq-dashboard-<VERSION>.jar at /app.jar.
# CONSOLE_JARS names the folder holding the jars (they are not in this
# repository: the consoles are on no package registry). When it is unset,
# this says so in one line and builds nothing (exit 0); a version whose jar
# is missing there is skipped the same way, before any other step. Each image is built again on every run (a few
# seconds: one layer with the jar); the one it replaces is removed.

set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
PODMAN=${PODMAN:-podman --runtime /usr/sbin/runc --cgroup-manager=cgroupfs}
CONSOLE=localhost/rmqgo-console
[ $# -gt 0 ] || set -- 1.0.0 2.1.0

if [ -z "${CONSOLE_JARS:-}" ]; then
  echo "console-image: skipped: CONSOLE_JARS is not set (the folder holding rocketmq-dashboard-$1.jar)"
  exit 0
fi
for v in "$@"; do
  shift
  if [ -f "$CONSOLE_JARS/rocketmq-dashboard-$v.jar" ]; then
    set -- "$@" "$v"
  else
    echo "console-image: $CONSOLE:$v skipped: no rocketmq-dashboard-$v.jar in CONSOLE_JARS ($CONSOLE_JARS)"
  fi
done
[ $# -gt 0 ] || exit 0

if ! $PODMAN image exists localhost/rmqgo-base:java17 && ! command -v debootstrap >/dev/null 2>&1 && [ "$(id -u)" != 0 ]; then
  echo "console-image: skipped: the Java base needs debootstrap, and root to install it (apt-get install debootstrap)"
  exit 0
fi
eval "$(sh "$HERE/java-base.sh")"
# The build context: a folder holding the one jar (a copy: CONSOLE_JARS may
# hold links, which a build does not follow out of its context).
ctx=$(mktemp -d "${TMPDIR:-/var/tmp}/rmqgo-console.XXXXXX")
trap 'rm -rf "$ctx"' EXIT
for v in "$@"; do
  rm -f "$ctx"/*.jar
  cp -L "$CONSOLE_JARS/rocketmq-dashboard-$v.jar" "$ctx/"
  case $v in
    1.*) port=8080 ;;
    *) port=8082 ;;
  esac
  start=$(date +%s)
  old=$($PODMAN image inspect --format '{{.Id}}' "$CONSOLE:$v" 2>/dev/null || true)
  # (no layer cache: this podman keys steps by their unexpanded text, and
  # the one step is the jar's copy)
  $PODMAN build --quiet --no-cache -f "$ROOT/distribution/image/console.Containerfile" \
    --build-arg JAVA_BASE="$JAVA_BASE" --build-arg VERSION="$v" --build-arg PORT="$port" \
    -t "$CONSOLE:$v" "$ctx" >/dev/null
  new=$($PODMAN image inspect --format '{{.Id}}' "$CONSOLE:$v")
  [ -z "$old" ] || [ "$old" = "$new" ] || $PODMAN rmi "$old" >/dev/null 2>&1 || true
  echo "console-image: $CONSOLE:$v ($($PODMAN image inspect --format '{{.Size}}' "$CONSOLE:$v" |
    awk '{ printf "%.1f MB", $1 / 1000000 }')), built in $(($(date +%s) - start)) s"
done
