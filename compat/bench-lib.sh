# Functions shared by the benchmark scripts (compat/broker-bench.sh,
# ha-bench.sh, backlog-bench.sh; POSIX sh, sourced, not run).

# label KEY=VALUE...: prints the JSON lines of stdin with these string
# keys added first (other lines are dropped).
label() {
  prefix=""
  for kv in "$@"; do prefix="$prefix\"${kv%%=*}\":\"${kv#*=}\","; done
  sed -n "s/^{/{$prefix/p"
}
