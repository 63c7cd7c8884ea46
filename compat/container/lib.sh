# Sourced by seed-test.sh and compose-test.sh (POSIX sh): what both do.
# They set ROOT (the checkout), WORK (their temporary folder) and TEST (the
# name their messages start with) first.

# fail MESSAGE: says why, shows the end of both servers' output, exits 1.
fail() {
  echo "$TEST: FAILED: $*" >&2
  for c in rmqnamesrv rmqbroker; do
    echo "--- podman logs $c" >&2
    podman logs "$c" 2>&1 | tail -20 >&2 || true
  done
  exit 1
}

# RMQBENCH: this checkout's load tool, built into WORK.
RMQBENCH=$WORK/rmqbench
(cd "$ROOT" && go build -o "$RMQBENCH" ./cmd/rmqbench)

# send100 TOPIC: 100 messages through the name server on 127.0.0.1:9876,
# every one acknowledged.
send100() {
  "$RMQBENCH" produce -n 127.0.0.1:9876 -t "$1" -count 100 -w 4 -progress 0 > "$WORK/produce.out" 2>&1 ||
    fail "rmqbench produce: $(cat "$WORK/produce.out")"
  grep -q '"messages":100,"failed":0' "$WORK/produce.out" || fail "100 messages not all sent: $(cat "$WORK/produce.out")"
}

# consume100 TOPIC GROUP: the 100 messages again, from the first offset.
consume100() {
  "$RMQBENCH" consume -n 127.0.0.1:9876 -t "$1" -g "$2" -from first -count 100 -d 60s -progress 0 > "$WORK/consume.out" 2>&1 ||
    fail "rmqbench consume: $(cat "$WORK/consume.out")"
  grep -q '"messages":100,' "$WORK/consume.out" || fail "100 messages not all consumed ($2): $(cat "$WORK/consume.out")"
}
