#!/bin/sh
# Slow-loris run against this project's name server and broker (POSIX sh):
# starts both on loopback (compat/ref-servers.sh with NAMESRV_IMPL=go and
# BROKER_IMPL=go, RUN_DIR bench/target/slowloris), then for each server runs
# `rmqbench slowloris`: SLOWLORIS_CONNS connections that each announce a
# large frame and trickle a byte a second for SLOWLORIS_SECS, while a normal
# client keeps calling; it prints the server's VmRSS and RssAnon before,
# during and after, and whether the normal client was served. Stops only
# the servers it started (their pid files in RUN_DIR).
#
#   make slowloris
#   SLOWLORIS_CONNS=5000 SLOWLORIS_SECS=60 sh bench/slowloris.sh
#
# Needs RMQGO_NAMESRV_BIN, RMQGO_BROKER_BIN and RMQBENCH_BIN (make slowloris
# sets them). SLOWLORIS_CHUNK is the bytes per connection per second (1);
# SLOWLORIS_ARGS more rmqbench slowloris flags. The open-file limit must
# cover the connections on both ends: it is raised to the hard limit, and
# the run stops if that is not enough.

set -u

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
RUN_DIR=${RUN_DIR:-$HERE/target/slowloris}
CONNS=${SLOWLORIS_CONNS:-2000}
SECS=${SLOWLORIS_SECS:-30}
CHUNK=${SLOWLORIS_CHUNK:-1}
ARGS=${SLOWLORIS_ARGS:-}
export RUN_DIR

log() { echo "slowloris: $*" >&2; }

for v in RMQGO_NAMESRV_BIN RMQGO_BROKER_BIN RMQBENCH_BIN; do
  eval "b=\${$v:-}"
  [ -x "$b" ] || { log "$v=$b is not executable"; exit 1; }
done

need=$((CONNS + 200))
if [ "$(ulimit -n)" != unlimited ] && [ "$(ulimit -n)" -lt "$need" ]; then
  ulimit -n "$(ulimit -Hn)" 2>/dev/null
  if [ "$(ulimit -n)" != unlimited ] && [ "$(ulimit -n)" -lt "$need" ]; then
    log "open-file limit $(ulimit -n) is below the $need this run needs (lower SLOWLORIS_CONNS)"
    exit 1
  fi
fi

cleanup() { sh "$ROOT/compat/ref-servers.sh" stop >/dev/null 2>&1; }
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

NAMESRV_IMPL=go BROKER_IMPL=go COMPAT_BROKER_B=0 NAMESRV_PORT=${NAMESRV_PORT:-19976} BROKER_PORT=${BROKER_PORT:-21011} \
  sh "$ROOT/compat/ref-servers.sh" start 4 >/dev/null || { log "the servers did not start"; exit 1; }
. "$RUN_DIR/env.sh"
NAMESRV_PID=$(cat "$RUN_DIR/namesrv/pid")
BROKER_PID=$(cat "$RUN_DIR/broker-a/pid")
log "name server $NAMESRV_ADDR (pid $NAMESRV_PID), broker $BROKER_ADDR (pid $BROKER_PID), open-file limit $(ulimit -n)"

status=0
echo "== name server"
# shellcheck disable=SC2086
"$RMQBENCH_BIN" slowloris -addr "$NAMESRV_ADDR" -pid "$NAMESRV_PID" -c "$CONNS" -d "${SECS}s" -chunk "$CHUNK" $ARGS || status=1
echo "== broker"
# shellcheck disable=SC2086
"$RMQBENCH_BIN" slowloris -addr "$BROKER_ADDR" -pid "$BROKER_PID" -c "$CONNS" -d "${SECS}s" -chunk "$CHUNK" -code 28 $ARGS || status=1
exit $status
