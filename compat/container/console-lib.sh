# Sourced by seed-test.sh and compose-test.sh (POSIX sh, curl) after
# lib.sh: the console's checks. The console images are made by
# distribution/image/console-image.sh (make image-console) from jars this repository does not
# hold, so a test without them skips the console, saying so in one line.

# console_image IMAGE: whether IMAGE is here; if not, one line saying the
# console is skipped and why.
console_image() {
  if ! command -v curl >/dev/null 2>&1; then
    echo "$TEST: the console: skipped, no curl here (apt-get install curl)"
    return 1
  fi
  podman image exists "$1" && return 0
  echo "$TEST: the console: skipped, no $1 here (make image-console, with CONSOLE_JARS naming the folder of the rocketmq-dashboard jars)"
  return 1
}

# console_fail CONTAINER MESSAGE: fail, with the end of the console's output.
console_fail() {
  echo "--- podman logs $1" >&2
  podman logs "$1" 2>&1 | tail -30 >&2 || true
  fail "the console: $2"
}

# console_check PORT CONTAINER TITLE BROKER: through the published port, the
# console's index page (HTML whose <title> is TITLE), then the REST call
# its cluster page makes, GET /cluster/list.query, until its JSON lists
# BROKER (the name server's cluster info) with the broker's runtime stats
# (the console reached the broker too). Polled, CONSOLE_WAIT seconds in all
# (default 180: a Spring Boot start on a busy machine).
console_check() {
  url=http://127.0.0.1:$1
  t0=$(date +%s)
  deadline=$((t0 + ${CONSOLE_WAIT:-180}))
  until ctype=$(curl -fsS --max-time 5 -w '%{http_code} %{content_type}' -o "$WORK/console-index.html" "$url/" 2>"$WORK/console-curl.err"); do
    [ "$(date +%s)" -lt "$deadline" ] || console_fail "$2" "GET $url/ did not answer in ${CONSOLE_WAIT:-180} s: $(cat "$WORK/console-curl.err")"
    sleep 1
  done
  title=$(tr -d '\n' < "$WORK/console-index.html" | grep -o '<title>[^<]*</title>' | head -1)
  [ "$title" = "<title>$3</title>" ] || console_fail "$2" "GET $url/: no <title>$3</title> in the page (${title:-no title}): $(head -c 300 "$WORK/console-index.html")"
  case $ctype in
    "200 text/html"*) ;;
    *) console_fail "$2" "GET $url/: $ctype, not 200 text/html" ;;
  esac
  echo "$TEST: the console: GET $url/ -> $ctype, $title"
  until curl -fsS --max-time 15 -o "$WORK/console-cluster.json" "$url/cluster/list.query" 2>"$WORK/console-curl.err" &&
    grep -q '"status":0' "$WORK/console-cluster.json" &&
    grep -q "\"brokerAddrTable\":{[^}]*\"$4\":{" "$WORK/console-cluster.json" &&
    grep -q "\"brokerServer\":{\"$4\":{\"0\":{" "$WORK/console-cluster.json"; do
    [ "$(date +%s)" -lt "$deadline" ] ||
      console_fail "$2" "GET $url/cluster/list.query does not list $4 (${CONSOLE_WAIT:-180} s): $(cat "$WORK/console-curl.err" "$WORK/console-cluster.json" 2>/dev/null | head -c 600)"
    sleep 1
  done
  echo "$TEST: the console: GET $url/cluster/list.query -> $(grep -o '"status":0' "$WORK/console-cluster.json"), $(grep -o '"brokerAddrTable":{[^}]*}[^}]*}}' "$WORK/console-cluster.json"), runtime stats of $4 with $(grep -o '"brokerVersionDesc":"[^"]*"' "$WORK/console-cluster.json" | head -1)"
  started=$(podman inspect --format '{{.State.StartedAt.Unix}}' "$2" 2>/dev/null || echo "$t0")
  echo "$TEST: the console: checked $(($(date +%s) - started)) s after its container started ($(($(date +%s) - t0)) s of polling here)"
}
