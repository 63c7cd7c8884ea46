#!/bin/sh
# Makes the two images the Dockerfile builds FROM, without a registry
# (POSIX sh; needs podman, apt-get and the Go toolchain of this machine):
#
#   sh distribution/image/bases.sh        # prints BASE=... BUILDER=... for make image
#
#   localhost/rmqgo-base:busybox   a root file system with Debian's busybox-static
#                                  (/bin/sh and the applets, /etc/passwd with root,
#                                  /tmp): the small base with a POSIX sh
#   localhost/rmqgo-builder:go     the same plus this machine's GOROOT at
#                                  /usr/local/go, GOPROXY=off, GOTOOLCHAIN=local:
#                                  the build stage, which make image runs with
#                                  the module cache mounted read-only
#
# Each is imported (podman import) only when missing; RMQGO_REBUILD_BASES=1
# makes them again. PODMAN names the podman command line (default: podman
# with runc and the cgroupfs manager, as this kind of machine needs).

set -eu
PODMAN=${PODMAN:-podman --runtime /usr/sbin/runc --cgroup-manager=cgroupfs}
BASE=localhost/rmqgo-base:busybox
BUILDER=localhost/rmqgo-builder:go

have() { $PODMAN image exists "$1"; }

if [ -n "${RMQGO_REBUILD_BASES:-}" ] || ! have "$BASE" || ! have "$BUILDER"; then
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  # (apt-get update first where the package lists are too old to have it)
  (cd "$work" && { apt-get download busybox-static >/dev/null 2>&1 ||
    { apt-get update -q >/dev/null && apt-get download busybox-static >/dev/null; }; })
  root=$work/root
  mkdir -p "$root/bin" "$root/etc" "$root/tmp" "$root/root" "$root/usr/bin" "$root/sbin" "$root/usr/sbin"
  dpkg-deb -x "$work"/busybox-static_*.deb "$work/pkg"
  cp "$work/pkg/bin/busybox" "$root/bin/busybox"
  for applet in $("$root/bin/busybox" --list-full); do
    [ "$applet" = bin/busybox ] || ln -sf /bin/busybox "$root/$applet"
  done
  chmod 1777 "$root/tmp"
  echo 'root:x:0:0:root:/root:/bin/sh' > "$root/etc/passwd"
  echo 'root:x:0:' > "$root/etc/group"
  tar -C "$root" -cf "$work/base.tar" .
  $PODMAN import --change 'CMD ["/bin/sh"]' "$work/base.tar" "$BASE" >/dev/null
  mkdir -p "$root/usr/local"
  cp -a "$(go env GOROOT)" "$root/usr/local/go"
  tar -C "$root" -cf "$work/builder.tar" .
  $PODMAN import \
    --change 'ENV PATH=/usr/local/go/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'ENV GOPROXY=off' --change 'ENV GOTOOLCHAIN=local' --change 'ENV GOFLAGS=-mod=mod' \
    --change 'ENV GOCACHE=/tmp/gocache' --change 'ENV GOMODCACHE=/go/pkg/mod' \
    --change 'CMD ["/bin/sh"]' "$work/builder.tar" "$BUILDER" >/dev/null
fi
echo "BASE=$BASE BUILDER=$BUILDER"
