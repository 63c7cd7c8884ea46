#!/bin/sh
# Runs the C++-client compat tests (the Apache C++ client, librocketmq.so, as
# the rocketmq-client-python wheel ships it, driven from Python) against the
# servers that compat/ref-servers.sh started (POSIX sh):
#
#   RUN_DIR=/tmp/run sh compat/python/run.sh [NAME_PART ...]
#
# It makes a venv in compat/python/target/venv from PyPI (requirements.txt,
# pinned by version and hash) when it is missing or older than
# requirements.txt, sources $RUN_DIR/env.sh (default compat/target/run, as
# ref-servers.sh), runs every test in tests/ (or those whose id contains a
# NAME_PART), each in its own process, and prints as its last line
#   python: N passed, N failed, N skipped
# exiting non-zero when a test failed (or none ran). The C++ client logs to
# compat/python/target/client-home/logs/rocketmq-cpp/.
set -u

PY_DIR=$(cd "$(dirname "$0")" && pwd)
COMPAT_DIR=$(dirname "$PY_DIR")
RUN_DIR=${RUN_DIR:-$COMPAT_DIR/target/run}
PYTHON=${PYTHON:-python3}
VENV=$PY_DIR/target/venv
cd "$PY_DIR" || exit 2

summary() {
  echo "python: $1 passed, $2 failed, $3 skipped"
}

stamp=$VENV/.requirements.txt
if [ ! -f "$stamp" ] || ! cmp -s requirements.txt "$stamp"; then
  echo "python/run.sh: making $VENV" >&2
  rm -rf "$VENV"
  if ! "$PYTHON" -m venv "$VENV" >&2 ||
     ! "$VENV/bin/python" -m pip install --disable-pip-version-check --no-deps \
         --only-binary=:all: --require-hashes -r requirements.txt >&2; then
    echo "python/run.sh: could not install requirements.txt into $VENV" >&2
    summary 0 0 0
    exit 1
  fi
  cp requirements.txt "$stamp"
fi

if [ -f "$RUN_DIR/env.sh" ]; then
  # shellcheck disable=SC1091
  . "$RUN_DIR/env.sh"
else
  echo "python/run.sh: no $RUN_DIR/env.sh: start the servers with compat/ref-servers.sh (same RUN_DIR); the tests will fail" >&2
fi

# The C++ client writes its logs (and broadcasting offsets) under $HOME.
HOME=$PY_DIR/target/client-home
PYTHONPYCACHEPREFIX=$PY_DIR/target/pycache
export HOME PYTHONPYCACHEPREFIX
mkdir -p "$HOME"
exec "$VENV/bin/python" suite.py "$@"
