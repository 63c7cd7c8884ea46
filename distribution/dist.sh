#!/bin/sh
# Builds the binary distribution of one release line, laid out as Apache
# RocketMQ's binary release (POSIX sh):
#
#   sh distribution/dist.sh 4|5 [outdir]     # make dist runs both
#
# writes <outdir>/rmqgo-<version>-bin.tar.gz (outdir: dist/), whose one top
# folder is rocketmq-all-<version>-bin-release/ (version 4.9.8 for line 4,
# 5.3.3 for line 5), as the Java release's zip unpacks:
#
#   rocketmq-all-<version>-bin-release/
#     bin/   mqnamesrv mqbroker mqshutdown mqadmin (the scripts of bin/ in this
#            repo; 5.x also mqproxy and mqcontroller), rmqgo-exec.sh, the static binaries
#            rmqgo-namesrv rmqgo-broker rmqadmin rmqbench rmqstore (5.x also rmqgo-proxy and
#            rmqgo-controller), and rmqgo-line
#            (the line the broker speaks unless RMQGO_LINE says otherwise)
#     conf/  distribution/conf/ plus distribution/conf-<line>/
#     README.md
#
# so that, unpacked, `sh bin/mqnamesrv` and `sh bin/mqbroker -n
# 127.0.0.1:9876 -c conf/broker.conf` run as they do in the Java release.
# GO names the Go command (default go). The binaries are static
# (CGO_ENABLED=0) and stripped, for any Linux of the machine's architecture;
# the tarball is GNU tar's, its entries sorted and owned by 0:0.

set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
LINE=${1:-}
OUT=${2:-$ROOT/dist}
GO=${GO:-go}
case $LINE in
  4) VERSION=4.9.8 ;;
  5) VERSION=5.3.3 ;;
  *) echo "usage: $0 4|5 [outdir]" >&2; exit 2 ;;
esac
NAME=rocketmq-all-$VERSION-bin-release
STAGE=$(mktemp -d)
trap 'rm -rf "$STAGE"' EXIT
REL=$STAGE/$NAME

mkdir -p "$REL/bin" "$REL/conf" "$OUT"
# 5.x releases have the proxy (bin/mqproxy; mqbroker --enable-proxy) and the
# controller (bin/mqcontroller; enableControllerInNamesrv) too
PROXY_BIN= PROXY_SCRIPT=
[ "$LINE" = 5 ] && PROXY_BIN="rmqgo-proxy rmqgo-controller" PROXY_SCRIPT="mqproxy mqcontroller"
for b in rmqgo-namesrv rmqgo-broker $PROXY_BIN rmqadmin rmqbench rmqstore; do
  (cd "$ROOT" && CGO_ENABLED=0 "$GO" build -trimpath -ldflags "-s -w" -o "$REL/bin/$b" "./cmd/$b")
done
for s in mqnamesrv mqbroker $PROXY_SCRIPT mqshutdown mqadmin rmqgo-exec.sh; do
  cp "$ROOT/bin/$s" "$REL/bin/$s"
done
echo "$LINE" > "$REL/bin/rmqgo-line"
cp -R "$ROOT/distribution/conf/." "$REL/conf/"
cp -R "$ROOT/distribution/conf-$LINE/." "$REL/conf/"
cat > "$REL/README.md" <<EOF
# rmqgo $VERSION

The Go name server and broker for Apache RocketMQ, laid out as the
RocketMQ $VERSION binary release. From this folder:

    nohup sh bin/mqnamesrv &
    nohup sh bin/mqbroker -n 127.0.0.1:9876 -c conf/broker.conf &
    sh bin/mqadmin clusterList -n 127.0.0.1:9876
    sh bin/mqshutdown broker
    sh bin/mqshutdown namesrv

Logs go to ~/logs/rocketmqlogs/, the store to ~/store/ (JAVA_OPT_EXT=
-Duser.home=<dir> moves both). The broker speaks as a $VERSION broker
(bin/rmqgo-line; RMQGO_LINE=4 or 5 overrides it). bin/mqadmin has the
most used commands of Apache RocketMQ's mqadmin, printing as the
$VERSION tools do (sh bin/mqadmin lists them); the others need Apache
RocketMQ's rocketmq-tools.
EOF
chmod 755 "$REL/bin/"*
chmod 644 "$REL/bin/rmqgo-line"
tar --sort=name --owner=0 --group=0 --numeric-owner -C "$STAGE" -czf "$OUT/rmqgo-$VERSION-bin.tar.gz" "$NAME"
echo "dist: $OUT/rmqgo-$VERSION-bin.tar.gz"
