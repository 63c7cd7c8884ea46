#!/bin/sh
# What make test needs beyond Go, Java 17 and Maven, checked before any
# suite runs (POSIX sh; the first step of make test):
#
#   sh compat/needs.sh          # install what is missing where it can, then report
#   NEEDS_INSTALL=0 sh compat/needs.sh   # report only
#
# The tools and the suites that use them (Debian's package names):
#
#   podman, runc, busybox-static   make container-test (the images, the seed's commands)
#   debootstrap                    make image-console (the consoles' Java base)
#   podman-compose                 the compose files in make container-test
#   curl                           the console checks of make container-test
#   chromium                       make compat-console (the consoles in a browser)
#
# As root on a machine with apt-get, the missing ones are installed
# (apt-get update first). Otherwise, or when an install fails, it says at
# the start which suites will be skipped and why, and make test goes on:
# each of those suites skips itself, in one line, when its tool is absent.
# Without Go, Java or Maven nothing can run: that alone fails.

set -u
log() { echo "needs: $*"; }

for tool in go java mvn; do
  command -v $tool >/dev/null 2>&1 || { log "$tool is missing: make test needs Go 1.26, Java 17 and Maven"; exit 1; }
done

# have TOOL: the tool is on PATH (or, for runc, where podman is told to find it).
have() {
  case $1 in
    runc) [ -x /usr/sbin/runc ] || command -v runc >/dev/null 2>&1 ;;
    busybox-static) [ -x /bin/busybox ] || command -v busybox >/dev/null 2>&1 ;;
    *) command -v "$1" >/dev/null 2>&1 ;;
  esac
}

PACKAGES="podman runc busybox-static debootstrap podman-compose curl chromium"
missing() {
  out=""
  for p in $PACKAGES; do have "$p" || out="$out $p"; done
  echo "$out"
}

todo=$(missing)
if [ -n "$todo" ] && [ "${NEEDS_INSTALL:-1}" != 0 ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  log "installing with apt-get:$todo"
  apt-get update -q >/dev/null 2>&1
  # shellcheck disable=SC2086
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q $todo >/dev/null 2>&1 || log "apt-get install failed for some of:$todo"
  todo=$(missing)
fi

if [ -z "$todo" ]; then
  log "every tool is here ($PACKAGES)"
  exit 0
fi
for p in $todo; do
  case $p in
    podman|runc|busybox-static) log "no $p: make container-test will be skipped (the images and the seed's docker commands)" ;;
    debootstrap) log "no debootstrap: the console images (make image-console) will be skipped, and with them the container tests' consoles" ;;
    podman-compose) log "no podman-compose: the compose files of make container-test will be skipped" ;;
    curl) log "no curl: the console checks of make container-test will be skipped" ;;
    chromium) log "no chromium: make compat-console (the consoles in a browser) will be skipped" ;;
  esac
done
log "(as root with apt-get, make test installs them: apt-get install$todo)"
exit 0
