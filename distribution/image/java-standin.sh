#!/bin/sh
# Stand-ins for the Java images ours replace, built here to measure sizes
# (make image-size; POSIX sh; root, podman, debootstrap, mvn):
#
#   sh distribution/image/java-standin.sh [VERSION...]   # default: 5.3.3 4.9.7
#
# apache/rocketmq:<ver> cannot be pulled on this kind of machine, so each
# stand-in is made of the same kinds of parts (docs/image-size.md says what
# the real one holds, from its Dockerfile): a Debian root file system
# (debootstrap --variant=minbase of DEBIAN_SUITE, default bookworm), a Java
# runtime from Debian (JAVA_PACKAGE, default openjdk-17-jre-headless: Debian
# has no Java 8, and the JRE rather than the JDK the real image ships keeps
# the stand-in on the small side), less and openssl (the real image's extra
# packages), the user rocketmq 3000:3000, and the server's jars with all
# their dependencies from Maven Central (java-standin/pom.xml: namesrv,
# broker, tools, and on the 5.x line the proxy) in
# /home/rocketmq/rocketmq-<ver>/lib, with this repo's conf files beside them.
# The root file system is slimmed as slim and minimal base images are: no
# package lists, no downloaded packages, no docs but the copyright files,
# no man pages, no info pages, no translations.
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
SUITE=${DEBIAN_SUITE:-bookworm}
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
JAVA_PACKAGE=${JAVA_PACKAGE:-openjdk-17-jre-headless}
STANDIN=localhost/rmqgo-java-standin
# (the limits this kind of machine lets a container have, as compat/container/seed-test.sh)
ULIMITS="--ulimit nofile=20000:20000 --ulimit nproc=1000:1000"
[ $# -gt 0 ] || set -- 5.3.3 4.9.7

work=""
root=""
cleanup() {
  if [ -n "$work" ]; then
    for m in proc sys dev/pts dev; do
      umount "$root/$m" 2>/dev/null || true
    done
    rm -rf --one-file-system "$work"
  fi
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# base: the root file system with Java, once, as $work/base.tar.
base() {
  [ -z "$work" ] || return 0
  work=$(mktemp -d "${TMPDIR:-/var/tmp}/rmqgo-javaimg.XXXXXX")
  root=$work/root
  command -v debootstrap >/dev/null 2>&1 ||
    { apt-get install -y -q debootstrap >/dev/null 2>&1 ||
      { apt-get update -q >/dev/null && apt-get install -y -q debootstrap >/dev/null; }; }
  echo "java-standin: debootstrap $SUITE (minbase) with $JAVA_PACKAGE, less, openssl"
  debootstrap --variant=minbase --include="$JAVA_PACKAGE,less,openssl" \
    "$SUITE" "$root" "$MIRROR" > "$work/debootstrap.log" 2>&1 ||
    { tail -20 "$work/debootstrap.log" >&2; echo "java-standin: debootstrap failed" >&2; exit 1; }
  chroot "$root" groupadd -g 3000 rocketmq
  chroot "$root" useradd -l -u 3000 -g 3000 -m -s /bin/bash rocketmq
  rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/cache/apt/*.bin "$root"/var/lib/apt/lists/* \
    "$root"/usr/share/man/* "$root"/usr/share/info/* "$root"/usr/share/locale/* "$root"/debootstrap
  find "$root/usr/share/doc" -type f ! -name copyright -exec rm -f {} +
  find "$root/usr/share/doc" -depth -type d -empty -exec rmdir {} +
  tar -C "$root" --numeric-owner -cf "$work/base.tar" .
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
  cp "$work/base.tar" "$work/image-$v.tar"
  tar -C "$stage" --owner=3000 --group=3000 --numeric-owner -rf "$work/image-$v.tar" ./home/rocketmq/rocketmq-$v
  echo "java-standin: podman import $STANDIN:$v"
  $PODMAN import --quiet \
    --change "ENV JAVA_HOME=/usr/lib/jvm/java-17-openjdk-amd64" \
    --change "ENV ROCKETMQ_VERSION=$v" \
    --change "ENV ROCKETMQ_HOME=/home/rocketmq/rocketmq-$v" \
    --change "ENV HOME=/home/rocketmq" \
    --change "WORKDIR /home/rocketmq/rocketmq-$v" \
    --change "USER 3000:3000" \
    --change "EXPOSE 9876" --change "EXPOSE 10909" --change "EXPOSE 10911" --change "EXPOSE 10912" \
    --change 'CMD ["/bin/bash"]' \
    "$work/image-$v.tar" "$STANDIN:$v" >/dev/null
  rm -rf "$stage" "$work/image-$v.tar"
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
