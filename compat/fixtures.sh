#!/bin/sh
# Regenerates the fixtures the Go tests compare with, all written by the real
# Java classes (POSIX sh). One entry point for every generator:
#
#   sh compat/fixtures.sh                  # every set, in the order below
#   sh compat/fixtures.sh bodies config    # only these sets, in the order given
#   sh compat/fixtures.sh -h               # this list
#
#   frames  testdata/frames/*.bin                       compat/framegen/gen.sh
#   bodies  internal/protocol/testdata/*_498.*, *_533.* compat/bodygen/gen.sh
#   config  internal/protocol/testdata/config/java-*/   compat/configgen/gen.sh
#   store   testdata/store/java-4.9.7/, java-5.3.3/     compat/store-fixture.sh 4, then 5
#   seeds   compat/fastjson/seeds/                      compat/fastjson/seeds.sh
#   rocksdb internal/rocksdb/testdata/java-*/           compat/rocksdbtool/gen.sh
#           internal/auth/testdata/java-broker/         compat/acl2-rocksdb.sh (make build first)
#
# Needs Java 17, Maven and sh; `store` also starts the Java name server and
# broker (compat/ref-servers.sh, a few minutes; NAMESRV_PORT, BROKER_PORT,
# BROKER_B_PORT, BOOT_TIMEOUT and MVN are passed on). The sets run one after
# the other (the Maven builds are never parallel). A set that fails is
# reported and the next one runs. At the end it prints `git status --short`
# of the directories of the sets it ran: a generator that reproduces its
# fixtures leaves nothing there (store files carry timestamps, so `store`
# always shows changes).
#
# Exit status: 0 if every set was regenerated, 1 if any failed, 2 on a bad
# argument.

set -u
COMPAT_DIR=$(cd "$(dirname "$0")" && pwd)
REPO=$(dirname "$COMPAT_DIR")
ALL="frames bodies config store seeds rocksdb"

usage() {
  sed -n '5,15p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}

log() { echo "fixtures: $*" >&2; }

# dirs <set>: where the set lands, relative to the repository.
dirs() {
  case $1 in
    frames) echo "testdata/frames" ;;
    bodies) echo "internal/protocol/testdata/*_498.* internal/protocol/testdata/*_533.*" ;;
    config) echo "internal/protocol/testdata/config" ;;
    store) echo "testdata/store" ;;
    seeds) echo "compat/fastjson/seeds" ;;
    rocksdb) echo "internal/rocksdb/testdata internal/auth/testdata/java-broker" ;;
  esac
}

# run <set>: regenerates one set.
run() {
  case $1 in
    frames) sh "$COMPAT_DIR/framegen/gen.sh" ;;
    bodies) sh "$COMPAT_DIR/bodygen/gen.sh" ;;
    config) sh "$COMPAT_DIR/configgen/gen.sh" ;;
    store) sh "$COMPAT_DIR/store-fixture.sh" 4 && sh "$COMPAT_DIR/store-fixture.sh" 5 ;;
    seeds) sh "$COMPAT_DIR/fastjson/seeds.sh" ;;
    rocksdb) sh "$COMPAT_DIR/rocksdbtool/gen.sh" &&
      ACL2RDB_FIXTURE=$REPO/internal/auth/testdata/java-broker sh "$COMPAT_DIR/acl2-rocksdb.sh" ;;
  esac
}

SETS=
for a in "$@"; do
  case $a in
    -h | --help) usage ;;
    all) SETS="$SETS $ALL" ;;
    frames | bodies | config | store | seeds | rocksdb) SETS="$SETS $a" ;;
    *) log "unknown fixture set: $a"; usage ;;
  esac
done
[ -n "$SETS" ] || SETS=$ALL

done_sets= failed_sets= paths=
for s in $SETS; do
  log "$s: regenerating $(dirs "$s")"
  if run "$s"; then
    log "$s: done"
    done_sets="$done_sets $s"
  else
    log "$s: FAILED"
    failed_sets="$failed_sets $s"
  fi
  paths="$paths $(dirs "$s")"
done

log "regenerated:${done_sets:- none}"
[ -n "$failed_sets" ] && log "failed:$failed_sets"

cd "$REPO" || exit 1
echo "fixtures: git status --short --$paths"
# The pathspecs hold globs (bodies) for git to expand, not the shell.
set -f
# shellcheck disable=SC2086
status=$(git status --short -- $paths) || status="(git status failed)"
set +f
if [ -n "$status" ]; then
  printf '%s\n' "$status"
else
  echo "(no changes)"
fi

[ -z "$failed_sets" ]
