#!/bin/sh
# Builds the three images (make image) from the Dockerfile without a
# registry (POSIX sh, podman):
#
#   localhost/rmqgo:4.8.0   LAYOUT=foxiswho, line 4 (the seed's foxiswho/rocketmq:4.8.0)
#   localhost/rmqgo:4.9.8   LAYOUT=apache,   line 4 (apache/rocketmq:4.9.x)
#   localhost/rmqgo:5.3.3   LAYOUT=apache,   line 5 (apache/rocketmq:5.x)
#
# BASE and BUILDER name the images to build FROM; unset, bases.sh makes
# local ones (busybox, and busybox with this machine's Go). The module cache
# ($(go env GOMODCACHE)) is mounted read-only into the build stage, which
# has no network. Prints each image's size at the end.

set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
PODMAN=${PODMAN:-podman --runtime /usr/sbin/runc --cgroup-manager=cgroupfs}
if [ -z "${BASE:-}" ] || [ -z "${BUILDER:-}" ]; then
  eval "$(sh "$HERE/bases.sh")"
fi
echo "build-images: the binaries (the build stage, as localhost/rmqgo-build:latest)"
$PODMAN build --quiet --target build --build-arg BUILDER="$BUILDER" \
  --volume "$(go env GOMODCACHE):/go/pkg/mod:ro" -t localhost/rmqgo-build:latest "$ROOT" >/dev/null
# Each image without the layer cache: this podman's cache keys the
# layout's steps by their unexpanded text, so one image's layers would
# stand in for another's.
for spec in foxiswho:4.8.0:4 apache:4.9.8:4 apache:5.3.3:5; do
  layout=${spec%%:*}
  rest=${spec#*:}
  version=${rest%%:*}
  line=${rest#*:}
  echo "build-images: localhost/rmqgo:$version (layout $layout, line $line)"
  $PODMAN build --quiet --no-cache \
    --build-arg BASE="$BASE" --build-arg BINARIES=localhost/rmqgo-build:latest \
    --build-arg LAYOUT="$layout" --build-arg ROCKETMQ_VERSION="$version" --build-arg LINE="$line" \
    -t "localhost/rmqgo:$version" "$ROOT" >/dev/null
done
$PODMAN images --format '{{.Repository}}:{{.Tag}} {{.Size}}' localhost/rmqgo
