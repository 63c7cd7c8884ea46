#!/bin/sh
# Runs the ali-ons (Node.js) compat tests against the servers that
# compat/ref-servers.sh started (POSIX sh):
#
#   RUN_DIR=/tmp/run sh compat/node/run.sh
#
# It installs the pinned packages with `npm ci` when node_modules is missing
# or older than package.json / package-lock.json, sources $RUN_DIR/env.sh
# (default compat/target/run, as ref-servers.sh), runs every test/*.test.js
# with `node --test`, and prints as its last line
#   node: N passed, N failed, N skipped
# exiting non-zero when a test failed (or none ran).
set -u

NODE_DIR=$(cd "$(dirname "$0")" && pwd)
COMPAT_DIR=$(dirname "$NODE_DIR")
RUN_DIR=${RUN_DIR:-$COMPAT_DIR/target/run}
TEST_TIMEOUT_MS=${TEST_TIMEOUT_MS:-120000}
cd "$NODE_DIR" || exit 2

summary() {
  echo "node: $1 passed, $2 failed, $3 skipped"
}

stamp=node_modules/.package-lock.json
if [ ! -f "$stamp" ] || [ package-lock.json -nt "$stamp" ] || [ package.json -nt "$stamp" ]; then
  echo "node/run.sh: npm ci" >&2
  if ! npm ci --no-audit --no-fund >&2; then
    echo "node/run.sh: npm ci failed" >&2
    summary 0 0 0
    exit 1
  fi
fi

if [ -f "$RUN_DIR/env.sh" ]; then
  # shellcheck disable=SC1091
  . "$RUN_DIR/env.sh"
else
  echo "node/run.sh: no $RUN_DIR/env.sh: start the servers with compat/ref-servers.sh (same RUN_DIR); the tests will fail" >&2
fi

tap=$(mktemp "${TMPDIR:-/tmp}/node-compat.XXXXXX")
trap 'rm -f "$tap"' EXIT INT TERM

node --test --test-timeout="$TEST_TIMEOUT_MS" \
  --test-reporter=spec --test-reporter-destination=stdout \
  --test-reporter=tap --test-reporter-destination="$tap" \
  test/*.test.js
status=$?

count() {
  sed -n "s/^# $1 \([0-9][0-9]*\)\$/\1/p" "$tap" | tail -n 1
}
passed=$(count pass)
failed=$(count fail)
cancelled=$(count cancelled)
skipped=$(count skipped)
todo=$(count todo)
passed=${passed:-0}
failed=$((${failed:-0} + ${cancelled:-0}))
skipped=$((${skipped:-0} + ${todo:-0}))

if [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then
  echo "node/run.sh: node --test exited $status" >&2
  failed=1
fi
summary "$passed" "$failed" "$skipped"
if [ "$failed" -ne 0 ] || [ "$passed" -eq 0 ]; then
  exit 1
fi
exit 0
