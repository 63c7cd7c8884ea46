#!/bin/sh
# Makes the Java base the images of Java programs here are built FROM,
# without a registry (POSIX sh; root, podman, debootstrap):
#
#   sh distribution/image/java-base.sh     # prints JAVA_BASE=... for the scripts that use it
#
#   localhost/rmqgo-base:java17   a Debian root file system (debootstrap
#                                 --variant=minbase of DEBIAN_SUITE, default
#                                 bookworm) with a Java runtime from Debian
#                                 (JAVA_PACKAGE, default openjdk-17-jre-headless:
#                                 Debian has no Java 8), less and openssl (the
#                                 extra packages of apache/rocketmq's image),
#                                 and the user rocketmq 3000:3000
#
# Used by java-standin.sh (the stand-ins for the Java servers' images) and
# console-image.sh (the console). The root file system is slimmed as slim
# and minimal base images are: no package lists, no downloaded packages, no
# docs but the copyright files, no man pages, no info pages, no
# translations. JAVA_HOME is Debian's Java 17 folder
# (/usr/lib/jvm/java-17-openjdk-amd64), whatever JAVA_PACKAGE names.
#
# Made only when missing (debootstrap fetches about 60 MB of packages; a few
# minutes): RMQGO_REBUILD_JAVA_BASE=1 makes it again. DEBIAN_MIRROR names
# the mirror (default: debootstrap's own). PODMAN names the podman command
# line (default: podman with runc and the cgroupfs manager, as this kind of
# machine needs). Its messages go to stderr, the JAVA_BASE line to stdout.

set -eu
PODMAN=${PODMAN:-podman --runtime /usr/sbin/runc --cgroup-manager=cgroupfs}
SUITE=${DEBIAN_SUITE:-bookworm}
JAVA_PACKAGE=${JAVA_PACKAGE:-openjdk-17-jre-headless}
JAVA_BASE=localhost/rmqgo-base:java17

if [ -n "${RMQGO_REBUILD_JAVA_BASE:-}" ] || ! $PODMAN image exists "$JAVA_BASE"; then
  work=$(mktemp -d "${TMPDIR:-/var/tmp}/rmqgo-javabase.XXXXXX")
  root=$work/root
  cleanup() {
    for m in proc sys dev/pts dev; do
      umount "$root/$m" 2>/dev/null || true
    done
    rm -rf --one-file-system "$work"
  }
  trap cleanup EXIT
  trap 'exit 1' INT TERM
  command -v debootstrap >/dev/null 2>&1 ||
    { apt-get install -y -q debootstrap >/dev/null 2>&1 ||
      { apt-get update -q >/dev/null && apt-get install -y -q debootstrap >/dev/null; }; }
  start=$(date +%s)
  echo "java-base: debootstrap $SUITE (minbase) with $JAVA_PACKAGE, less, openssl" >&2
  # shellcheck disable=SC2086 # the mirror is one word or none
  debootstrap --variant=minbase --include="$JAVA_PACKAGE,less,openssl" \
    "$SUITE" "$root" ${DEBIAN_MIRROR:-} > "$work/debootstrap.log" 2>&1 ||
    { tail -20 "$work/debootstrap.log" >&2; echo "java-base: debootstrap failed" >&2; exit 1; }
  chroot "$root" groupadd -g 3000 rocketmq
  chroot "$root" useradd -l -u 3000 -g 3000 -m -s /bin/bash rocketmq
  rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/cache/apt/*.bin "$root"/var/lib/apt/lists/* \
    "$root"/usr/share/man/* "$root"/usr/share/info/* "$root"/usr/share/locale/* "$root"/debootstrap
  find "$root/usr/share/doc" -type f ! -name copyright -exec rm -f {} +
  find "$root/usr/share/doc" -depth -type d -empty -exec rmdir {} +
  tar -C "$root" --numeric-owner -cf "$work/base.tar" .
  $PODMAN import --quiet \
    --change "ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" \
    --change "ENV JAVA_HOME=/usr/lib/jvm/java-17-openjdk-amd64" \
    --change 'CMD ["/bin/bash"]' \
    "$work/base.tar" "$JAVA_BASE" >/dev/null
  echo "java-base: $JAVA_BASE made in $(($(date +%s) - start)) s" >&2
fi
echo "JAVA_BASE=$JAVA_BASE"
