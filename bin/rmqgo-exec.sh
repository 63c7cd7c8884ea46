# Sourced by bin/mqnamesrv and bin/mqbroker (RMQGO_SCRIPT and RMQGO_BINARY
# set): runs the Go binary that sits next to the script with the script's
# arguments, as Apache RocketMQ's scripts run the JVM. ROCKETMQ_HOME defaults
# to the distribution directory (the parent of bin/), as the Java scripts
# require it set; JAVA_OPT_EXT (-Duser.home=...) and NAMESRV_ADDR are read by
# the binary itself. A distribution (make dist) names the release line its
# broker speaks in bin/rmqgo-line (4 or 5), which RMQGO_LINE overrides.
rmqgo_bin_dir=$(cd "$(dirname "$RMQGO_SCRIPT")" && pwd)
if [ -z "${ROCKETMQ_HOME:-}" ]; then
  ROCKETMQ_HOME=$(cd "$rmqgo_bin_dir/.." && pwd)
fi
export ROCKETMQ_HOME
if [ -z "${RMQGO_LINE:-}" ] && [ -f "$rmqgo_bin_dir/rmqgo-line" ]; then
  RMQGO_LINE=$(cat "$rmqgo_bin_dir/rmqgo-line")
  export RMQGO_LINE
fi
if [ ! -x "$rmqgo_bin_dir/$RMQGO_BINARY" ]; then
  echo "$RMQGO_BINARY is not built next to $RMQGO_SCRIPT: run make build" >&2
  exit 1
fi
exec "$rmqgo_bin_dir/$RMQGO_BINARY" "$@"
