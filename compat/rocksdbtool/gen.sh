#!/bin/sh
# Regenerates internal/rocksdb/testdata/java-{clean,kill,mixed}/ (POSIX sh):
# each a database written by the 5.3.3 broker's ConfigRocksDBStorage
# (compat/rocksdbtool/run.sh gen, see there for the modes) in db/, and what
# Java read back (the keys it wrote) in expected.txt. Replaces them whole.
#
#   sh compat/rocksdbtool/gen.sh
set -eu
DIR=$(cd "$(dirname "$0")" && pwd)
TESTDATA=$(cd "$DIR/../.." && pwd)/internal/rocksdb/testdata
for mode in clean kill mixed; do
  out=$TESTDATA/java-$mode
  rm -rf "$out"
  mkdir -p "$out"
  sh "$DIR/run.sh" gen "$out/db" "$mode" >"$out/expected.txt"
  rm -f "$out/db/LOCK"
  # (no path of this machine in the fixture: db_log_dir from the repository root)
  sed -i "s|db_log_dir=$(cd "$DIR/../.." && pwd)/|db_log_dir=|" "$out"/db/OPTIONS-*
  echo "rocksdbtool: $out: $(ls "$out/db" | tr '\n' ' ')" >&2
done
