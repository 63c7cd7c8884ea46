#!/bin/sh
# Runs the Spring starter compat suite against servers that are already up
# (POSIX sh): it sources $RUN_DIR/env.sh, written by compat/ref-servers.sh
# start, and runs mvn test with NAMESRV_ADDR from it.
#
#   sh compat/spring/run.sh [4|5] [extra mvn args...]
#
#   4 (default): rocketmq-spring-boot-starter 2.2.2 (rocketmq-client 4.9.3), Spring Boot 2.5.9
#   5:           rocketmq-spring-boot-starter 2.3.5 (rocketmq-client 5.3.2), Spring Boot 2.7.18 (-Pline5)
#
# RUN_DIR: the servers' run directory (compat/target/run, as for ref-servers.sh).
# MVN (mvn); MVN_TEST_FLAGS replaces the default Maven flags (-B -ntp).
# Example:
#   RUN_DIR=/tmp/spring-run sh compat/spring/run.sh 5 -Dtest=OrderlyTest
#
# Last line printed: "spring: N passed, N failed, N skipped" (from the
# Surefire reports); exits with Maven's status (non-zero on any failure).

set -u
SPRING_DIR=$(cd "$(dirname "$0")" && pwd)
COMPAT_DIR=$(dirname "$SPRING_DIR")
MVN=${MVN:-mvn}
RUN_DIR=${RUN_DIR:-$COMPAT_DIR/target/run}
LINE=${1:-4}
[ $# -gt 0 ] && shift
case $LINE in
  4) profile="" ;;
  5) profile="-Pline5" ;;
  *) echo "usage: $0 [4|5] [mvn args...]" >&2; exit 2 ;;
esac

if [ ! -r "$RUN_DIR/env.sh" ]; then
  echo "spring: no $RUN_DIR/env.sh: start the servers first (compat/ref-servers.sh start $LINE)" >&2
  exit 2
fi
# shellcheck disable=SC1091
. "$RUN_DIR/env.sh"
export NAMESRV_ADDR
echo "spring: line $LINE against NAMESRV_ADDR=$NAMESRV_ADDR" \
  "(namesrv ${NAMESRV_IMPL:-?}, broker ${BROKER_IMPL:-?})"

rm -rf "$SPRING_DIR/target/surefire-reports"
# shellcheck disable=SC2086
"$MVN" ${MVN_TEST_FLAGS:--B -ntp} -Dstyle.color=never -f "$SPRING_DIR/pom.xml" $profile test "$@"
status=$?

summary=$(sh "$SPRING_DIR/../surefire-summary.sh" spring "$SPRING_DIR/target/surefire-reports") || { [ $status -eq 0 ] && status=1; }
echo "$summary"
exit $status
