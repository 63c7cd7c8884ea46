#!/bin/sh
# The web console in a real browser (POSIX sh; make compat-console): the
# console of a line, run from its built jar, driven through its pages by
# headless Chromium (the Go test beside this file, chromedp), first against
# the Java servers of the line and then against ours, and each page's text
# compared between the two (masked for run-to-run values):
#
#   CONSOLE_JARS=DIR sh compat/console/run.sh 4   # rocketmq-dashboard 1.0.0, Java 4.9.7 servers, ours as 4.x
#   CONSOLE_JARS=DIR sh compat/console/run.sh 5   # rocketmq-dashboard 2.1.0, Java 5.3.3 servers, ours as 5.x
#
# 2.1.0's pages call http://localhost:8082 whatever serves them (the API
# address is built into its scripts), so that console runs on port 8082
# and the browser opens it as localhost:8082; the run stops with a clear
# line when 8082 is taken. 1.0.0 takes the first free port from 18080.
# On line 5 the broker has ACL 2.0's local metadata providers (users and
# ACLs kept in its store, requests not checked), so that the ACL pages
# have a broker to manage.
#
# CONSOLE_JARS names the folder holding rocketmq-dashboard-1.0.0.jar and
# -2.1.0.jar (not on any package registry, so not in this repository);
# unset, or the jar missing, or no Chromium here, the run is skipped in one
# line that says why. SIDES (default "java go") picks the servers; the
# comparison runs when both ran. RMQGO_NAMESRV_BIN and RMQGO_BROKER_BIN name
# our servers (make build).
#
# Everything lands in compat/target/console-<line>/: <side>/pages/*.txt
# (what each page shows, masked), <side>/shots/*.png (screenshots, kept as
# CI artifacts), <side>/test.log, <side>/console.log, and <side>/run/ (the
# servers, compat/ref-servers.sh, kept for a look at their stores and
# logs). The servers of a side start on a fresh store, so both sides start
# from the same state.

set -u
HERE=$(cd "$(dirname "$0")" && pwd)
COMPAT_DIR=$(cd "$HERE/.." && pwd)
LINE=${1:-}
case $LINE in
  4) VERSION=1.0.0 TEST=TestDashboard1 ;;
  5) VERSION=2.1.0 TEST=TestDashboard2
     BROKER_CONF_EXTRA="authenticationMetadataProvider=org.apache.rocketmq.auth.authentication.provider.LocalAuthenticationMetadataProvider
authorizationMetadataProvider=org.apache.rocketmq.auth.authorization.provider.LocalAuthorizationMetadataProvider
${BROKER_CONF_EXTRA:-}"
     export BROKER_CONF_EXTRA ;;
  *) echo "usage: CONSOLE_JARS=DIR sh compat/console/run.sh 4|5" >&2; exit 2 ;;
esac
SIDES=${SIDES:-java go}
OUT=$COMPAT_DIR/target/console-$LINE
JAR=${CONSOLE_JARS:-}/rocketmq-dashboard-$VERSION.jar
log() { echo "console-$LINE: $*"; }

if [ -z "${CONSOLE_JARS:-}" ] || [ ! -f "$JAR" ]; then
  log "skipped: no rocketmq-dashboard-$VERSION.jar (CONSOLE_JARS names the folder of the built console jars)"
  exit 0
fi
if ! command -v chromium >/dev/null 2>&1 && [ -z "${CHROMIUM:-}" ]; then
  log "skipped: no Chromium here (apt-get install chromium, or set CHROMIUM)"
  exit 0
fi

# port_free PORT: no listening or connected TCP socket has PORT locally.
port_free() {
  hex=$(printf ':%04X' "$1")
  ! cat /proc/net/tcp /proc/net/tcp6 2>/dev/null | awk -v h="$hex" '$2 ~ h"$" && $4 != "06" { f = 1 } END { exit !f }'
}

console_pid=""
cleanup() {
  [ -n "$console_pid" ] && kill "$console_pid" 2>/dev/null && wait "$console_pid" 2>/dev/null
  console_pid=""
  [ -n "${side:-}" ] && RUN_DIR=$OUT/$side/run sh "$COMPAT_DIR/ref-servers.sh" stop >/dev/null 2>&1
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# start_console SIDE: the console jar on its port, its data in the
# side's folder; sets CONSOLE_URL.
start_console() {
  case $VERSION in
    1.0.0)
      port=18080
      while ! port_free $port; do port=$((port + 1)); done
      CONSOLE_URL=http://127.0.0.1:$port
      set -- --add-opens java.base/java.nio=ALL-UNNAMED --add-opens java.base/jdk.internal.misc=ALL-UNNAMED \
        -jar "$JAR" --rocketmq.config.namesrvAddr="$NAMESRV_ADDR" ;;
    *)
      port=8082
      port_free $port || { log "port 8082 is taken: rocketmq-dashboard $VERSION's pages call localhost:8082, so it runs there"; exit 1; }
      CONSOLE_URL=http://localhost:$port
      set -- -jar "$JAR" --rocketmq.config.namesrvAddrs="$NAMESRV_ADDR" ;;
  esac
  java -Xms128m -Xmx512m -Duser.home="$OUT/$side" "$@" --server.port=$port \
    --rocketmq.config.dataPath="$OUT/$side/console-data" >"$OUT/$side/console.log" 2>&1 &
  console_pid=$!
  log "rocketmq-dashboard $VERSION on $CONSOLE_URL (pid $console_pid), log $OUT/$side/console.log"
}

status=0
for side in $SIDES; do
  rm -rf "${OUT:?}/$side"
  mkdir -p "$OUT/$side"
  log "$side servers"
  NAMESRV_IMPL=$side BROKER_IMPL=$side COMPAT_BROKER_B=0 RUN_DIR=$OUT/$side/run \
    sh "$COMPAT_DIR/ref-servers.sh" start "$LINE" >"$OUT/$side/servers.log" 2>&1 ||
    { log "the $side servers did not start: $OUT/$side/servers.log"; tail -20 "$OUT/$side/servers.log"; exit 1; }
  . "$OUT/$side/run/env.sh"
  start_console "$side"
  # (the test waits for the console's first page itself, bounded)
  (cd "$HERE" && CONSOLE_URL=$CONSOLE_URL CONSOLE_VERSION=$VERSION CONSOLE_OUT=$OUT/$side \
    go test -count=1 -timeout 15m -run "^$TEST\$" -v . >"$OUT/$side/test.log" 2>&1)
  rc=$?
  grep -E '^(=== RUN|--- |    [a-z_0-9]+_test.go:[0-9]+: page )' "$OUT/$side/test.log" | sed "s/^/console-$LINE $side: /"
  if [ $rc != 0 ]; then
    log "$side: the browser test FAILED (rc $rc), $OUT/$side/test.log:"
    tail -40 "$OUT/$side/test.log"
    status=1
  fi
  cleanup
done

case " $SIDES " in *" java "*) case " $SIDES " in *" go "*)
    [ $status = 0 ] || exit $status
    (cd "$HERE" && CONSOLE_VERSION=$VERSION CONSOLE_COMPARE_JAVA=$OUT/java CONSOLE_COMPARE_GO=$OUT/go \
      go test -count=1 -run TestPagesMatchJava -v . >"$OUT/compare.log" 2>&1)
    rc=$?
    grep -vE '^(=== RUN|PASS|ok )' "$OUT/compare.log" | sed "s/^/console-$LINE compare: /"
    [ $rc = 0 ] || status=1
    ;;
esac ;; esac
if [ $status = 0 ]; then log "passed (pages in $OUT/*/pages, screenshots in $OUT/*/shots)"; else log "FAILED"; fi
exit $status
