# Functions of compat/mqadmin-compare.sh, shared by its three modes (the
# common commands, --acl1, --acl2; POSIX sh; sourced, not run). The caller
# sets LOG_TAG (the log prefix), COMPAT_DIR, OUT (the outputs' dir), LINE
# (4|5), MQADMIN_TIMEOUT, RUN_DIR and CLIENTS_PID (empty when none), and
# defines mask_entry SIDE NAME (a filter: the masking of one output of one
# side) for compare_entry; mqa reads NAMESRV_ADDR from the servers' env.sh.

log() { echo "$LOG_TAG: $*" >&2; }

# stop_side: the clients (if any) and the side's servers down.
stop_side() {
  if [ -n "$CLIENTS_PID" ]; then
    kill -TERM "$CLIENTS_PID" 2>/dev/null
    wait "$CLIENTS_PID" 2>/dev/null
    CLIENTS_PID=""
  fi
  if [ -n "$RUN_DIR" ]; then
    RUN_DIR=$RUN_DIR sh "$COMPAT_DIR/ref-servers.sh" stop
    RUN_DIR=""
  fi
}

# GOADMIN_COMMANDS: the commands this project's mqadmin (cmd/rmqadmin,
# bin/mqadmin) has; MQA_ADMIN=go runs these with it.
GOADMIN_COMMANDS="updateTopic deleteTopic updateSubGroup deleteSubGroup updateBrokerConfig topicRoute
topicStatus topicClusterList brokerStatus consumerProgress clusterList topicList getBrokerConfig
queryMsgByKey queryMsgByUniqueKey queryMsgById consumerConnection producerConnection resetOffsetByTime"

# goadmin_has COMMAND: whether COMMAND is one of GOADMIN_COMMANDS.
goadmin_has() {
  for c in $GOADMIN_COMMANDS; do
    [ "$c" = "$1" ] && return 0
  done
  return 1
}

# mqa SIDE_DIR NAME ARGS...: runs one mqadmin command, output to
# SIDE_DIR/NAME.out: Java's (compat/mqadmin.sh), or, when MQA_ADMIN=go and
# it has the command, this project's (bin/mqadmin, the distribution's
# script, with RMQGO_LINE=LINE; make build first).
mqa() {
  dir=$1 name=$2; shift 2
  # In DIR: consumerStatus writes the running info files under the cwd.
  if [ "${MQA_ADMIN:-java}" = go ] && goadmin_has "$1"; then
    (cd "$dir" && RMQGO_LINE=$LINE timeout "$MQADMIN_TIMEOUT" sh "$COMPAT_DIR/../bin/mqadmin" "$@" -n "$NAMESRV_ADDR") >"$dir/$name.out" 2>&1
  else
    (cd "$dir" && RMQ_LINE=$LINE timeout "$MQADMIN_TIMEOUT" sh "$COMPAT_DIR/mqadmin.sh" "$@" -n "$NAMESRV_ADDR") >"$dir/$name.out" 2>&1
  fi
  echo "rc=$?" >>"$dir/$name.out"
}

# wait_for FILE PATTERN SECONDS [PID]: polls FILE until a line matches PATTERN;
# fails when the time is up or PID has exited.
wait_for() {
  deadline=$(( $(date +%s) + $3 ))
  while ! grep -q "$2" "$1" 2>/dev/null; do
    if [ -n "${4:-}" ] && ! kill -0 "$4" 2>/dev/null; then return 1; fi
    [ "$(date +%s)" -ge "$deadline" ] && return 1
    sleep 0.2
  done
}

# mask_generic < raw > masked: what differs between any two runs, whichever
# servers answer: message ids, the port of any IPv4 address, dates, epoch
# milliseconds. Not mqadmin's output: the classpath resolution note of a
# first run, and the colour resets Maven leaves in it.
mask_generic() {
  sed -E \
    -e '/^mqadmin\.sh: resolving /d' \
    -e 's/\x1b\[[0-9;]*m//g' \
    -e 's/[0-9A-F]{32,}/<MSGID>/g' \
    -e 's/(([0-9]{1,3}\.){3}[0-9]{1,3}):[0-9]{2,5}/\1:<PORT>/g' \
    -e 's/[0-9]{4}-[0-9]{2}-[0-9]{2}[ T#][0-9]{2}:[0-9]{2}:[0-9]{2}([,.:][0-9]{3})?/<DATE>/g' \
    -e 's/1[0-9]{12}/<MILLIS>/g'
}

# mask_line: the 4.x reference servers are 4.9.7 (Maven Central has no
# 4.9.8 broker or name server) while ours speak as 4.9.8, the version of the
# 4.x clients and tools; 5.x is 5.3.3 on both sides.
mask_line() {
  if [ "$LINE" = 4 ]; then
    sed -E -e 's/V4_9_[78]/V4_9_x/g' -e 's/^(brokerVersion +: )40[79]$/\1<VERSION>/'
  else
    cat
  fi
}

# sort_body: the first line (a header) as it is, the others sorted.
sort_body() {
  IFS= read -r first
  printf '%s\n' "$first"
  sort
}

# compare_entry RAW MASKED NAME: masks OUT/A/RAW and OUT/B/RAW (A and B:
# CMP_A and CMP_B, default java and go) into MASKED (mask_entry SIDE NAME;
# a side without RAW reads "(not run)"), diffs them into
# OUT/diff/[B-]NAME.diff (the B- prefix when B is not go; kept only when
# they differ), prints NAME's table row (ROW_WIDTH, 22, the name column's
# width); fails when they differ.
compare_entry() {
  cmp_a=${CMP_A:-java} cmp_b=${CMP_B:-go}
  dname=$3.diff
  [ "$cmp_b" = go ] || dname=$cmp_b-$3.diff
  for side in $cmp_a $cmp_b; do
    mkdir -p "$OUT/$side"
    if [ -f "$OUT/$side/$1" ]; then
      mask_entry "$side" "$3" <"$OUT/$side/$1" >"$OUT/$side/$2"
    else
      echo "(not run)" >"$OUT/$side/$2"
    fi
  done
  if diff -u "$OUT/$cmp_a/$2" "$OUT/$cmp_b/$2" >"$OUT/diff/$dname"; then
    rm -f "$OUT/diff/$dname"
    printf "%-${ROW_WIDTH:-22}s %s\n" "$3" same
  else
    printf "%-${ROW_WIDTH:-22}s %s\n" "$3" "DIFFERENT (diff/$dname)"
    return 1
  fi
}
