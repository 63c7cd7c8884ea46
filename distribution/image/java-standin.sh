#!/bin/sh
# Stand-ins for the Java images ours replace, built here to measure sizes
# (make image-size; POSIX sh; root, podman, debootstrap, mvn):
#
#   sh distribution/image/java-standin.sh [VERSION...]   # default: 5.3.3 4.9.7
#
# apache/rocketmq:<ver> cannot be pulled on this kind of machine, so each
# stand-in is made of the same kinds of parts (docs/image-size.md says what
# the real one holds, from its Dockerfile): the Java base of java-base.sh,
# localhost/rmqgo-base:java17, made once (a Debian root file system,
# debootstrap --variant=minbase of DEBIAN_SUITE, default bookworm, with a
# Java runtime from Debian, JAVA_PACKAGE, default openjdk-17-jre-headless:
# Debian has no Java 8, and the JRE rather than the JDK the real image ships
# keeps the stand-in on the small side; less and openssl, the real image's
# extra packages; the user rocketmq 3000:3000; slimmed as slim base images
# are), and the server's jars with all their dependencies from Maven Central
# (java-standin/pom.xml: namesrv, broker, tools, and on the 5.x line the
# proxy) in /home/rocketmq/rocketmq-<ver>/lib, with this repo's conf files
# beside them.
#
#   localhost/rmqgo-java-standin:5.3.3   for apache/rocketmq:5.3.3
#   localhost/rmqgo-java-standin:4.9.7   for apache/rocketmq:4.9.x (Maven Central
#                                        has no broker 4.9.8) and, the nearest,
#                                        foxiswho/rocketmq:4.8.0
#
# Each image is made only when missing (RMQGO_REBUILD_STANDIN=1 makes it
# again); each is checked on every run: its name server must print "The Name Server
# boot success" (java -cp 'lib/*' org.apache.rocketmq.namesrv.NamesrvStartup,
# in a container named rmqgo-javaimg-namesrv-<ver>, removed after). Then
# the sizes: each image's (podman image inspect {{.Size}}), the Java
# runtime and the jars alone (uncompressed: what an image of these servers
# with this runtime holds on top of its base), and localhost/rmqgo:* (make
# image) against them. JAVA_HOME and the runtime measured are Debian's Java
# 17 folder (/usr/lib/jvm/java-17-openjdk-amd64), whatever JAVA_PACKAGE names.

set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
PODMAN=${PODMAN:-podman --runtime /usr/sbin/runc --cgroup-manager=cgroupfs}
STANDIN=localhost/rmqgo-java-standin
# (the limits this kind of machine lets a container have, as compat/container/seed-test.sh)
ULIMITS="--ulimit nofile=20000:20000 --ulimit nproc=1000:1000"
[ $# -gt 0 ] || set -- 5.3.3 4.9.7

work=""
trap '[ -z "$work" ] || rm -rf "$work"' EXIT
trap 'exit 1' INT TERM

# base: the Java base (java-base.sh, made when missing) and a work folder, once.
base() {
  [ -z "$work" ] || return 0
  eval "$(sh "$HERE/java-base.sh")"
  work=$(mktemp -d "${TMPDIR:-/var/tmp}/rmqgo-javaimg.XXXXXX")
}

# standin VERSION: builds $STANDIN:VERSION and checks its name server boots.
standin() {
  v=$1
  case $v in
    5.*) line=5 profile=-Pline-5 ;;
    *) line=4 profile= ;;
  esac
  base
  stage=$work/stage-$v
  home=$stage/home/rocketmq/rocketmq-$v
  mkdir -p "$home/conf"
  echo "java-standin: the $v jars (java-standin/pom.xml, mvn dependency:copy-dependencies)"
  # shellcheck disable=SC2086 # profile is empty or one word
  mvn -q -B -f "$HERE/java-standin/pom.xml" -Drmq.version="$v" $profile \
    dependency:copy-dependencies -DincludeScope=runtime -DoutputDirectory="$home/lib" > "$work/mvn.log" 2>&1 ||
    { cat "$work/mvn.log" >&2; exit 1; }
  cp -R "$ROOT/distribution/conf/." "$ROOT/distribution/conf-$line/." "$home/conf/"
  echo "java-standin: podman build $STANDIN:$v (FROM $JAVA_BASE)"
  cat > "$stage/Containerfile" <<EOF
FROM $JAVA_BASE
COPY --chown=3000:3000 home/rocketmq/rocketmq-$v /home/rocketmq/rocketmq-$v
ENV ROCKETMQ_VERSION=$v ROCKETMQ_HOME=/home/rocketmq/rocketmq-$v HOME=/home/rocketmq
WORKDIR /home/rocketmq/rocketmq-$v
USER 3000:3000
EXPOSE 9876 10909 10911 10912
CMD ["/bin/bash"]
EOF
  $PODMAN build --quiet --no-cache -t "$STANDIN:$v" "$stage" >/dev/null
  rm -rf "$stage"
}

# check VERSION: the stand-in's name server prints its boot line (60 s).
check() {
  c=rmqgo-javaimg-namesrv-$(echo "$1" | tr . -)
  $PODMAN rm -f "$c" >/dev/null 2>&1 || true
  $PODMAN run -d --name "$c" --network none $ULIMITS "$STANDIN:$1" \
    timeout 90 java -cp "/home/rocketmq/rocketmq-$1/lib/*" org.apache.rocketmq.namesrv.NamesrvStartup >/dev/null
  i=0
  until $PODMAN logs "$c" 2>&1 | grep -q "The Name Server boot success"; do
    i=$((i + 1))
    if [ $i -gt 120 ]; then
      $PODMAN logs "$c" 2>&1 | tail -20 >&2
      $PODMAN rm -f "$c" >/dev/null 2>&1 || true
      echo "java-standin: $STANDIN:$1: no boot line from its name server in 60 s" >&2
      exit 1
    fi
    sleep 0.5
  done
  echo "java-standin: $STANDIN:$1: $($PODMAN logs "$c" 2>&1 | grep -m1 "The Name Server boot success")"
  $PODMAN rm -f "$c" >/dev/null 2>&1 || true
}

for v in "$@"; do
  if [ -n "${RMQGO_REBUILD_STANDIN:-}" ] || ! $PODMAN image exists "$STANDIN:$v"; then
    standin "$v"
  fi
  check "$v"
done

# The table. mb BYTES: in MB (10^6 bytes, as podman prints sizes).
mb() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1000000 }'; }
size() { $PODMAN image inspect --format '{{.Size}}' "$1" 2>/dev/null || echo 0; }
echo
echo "java-standin: sizes (uncompressed, MB = 10^6 bytes; podman image inspect --format '{{.Size}}')"
printf '%-38s %9s\n' image MB
for v in "$@"; do
  s=$(size "$STANDIN:$v")
  # The Java runtime and the jars alone: what an image of these Java
  # servers with this runtime holds on top of its base.
  parts=$($PODMAN run --rm --network none $ULIMITS --user 0 "$STANDIN:$v" \
    du -sb /usr/lib/jvm/java-17-openjdk-amd64 "/home/rocketmq/rocketmq-$v/lib" 2>/dev/null | awk '{ printf "%s ", $1 }')
  jre=${parts%% *}
  jars=${parts#* }
  jars=${jars%% *}
  printf '%-38s %9s\n' "$STANDIN:$v" "$(mb "$s")"
  printf '%-38s %9s\n' "  its Java runtime (/usr/lib/jvm)" "$(mb "$jre")"
  printf '%-38s %9s\n' "  its jars (lib/)" "$(mb "$jars")"
  printf '%-38s %9s\n' "  Java runtime + jars" "$(mb $((jre + jars)))"
done
echo
printf '%-24s %9s   %-38s %9s %12s\n' ours MB "stand-in for the image replaced" MB ours/theirs
for pair in 5.3.3:5.3.3 4.9.8:4.9.7 4.8.0:4.9.7; do
  o=${pair%%:*}
  t=${pair#*:}
  os=$(size "localhost/rmqgo:$o")
  ts=$(size "$STANDIN:$t")
  if [ "$os" = 0 ] || [ "$ts" = 0 ]; then
    printf '%-24s %9s   %-38s %9s %12s\n' "localhost/rmqgo:$o" "$(mb "$os")" "$STANDIN:$t" "$(mb "$ts")" "(missing)"
    continue
  fi
  printf '%-24s %9s   %-38s %9s %12s\n' "localhost/rmqgo:$o" "$(mb "$os")" "$STANDIN:$t" "$(mb "$ts")" \
    "$(awk -v a="$os" -v b="$ts" 'BEGIN { printf "%.3f (1/%.0f)", a / b, b / a }')"
done
