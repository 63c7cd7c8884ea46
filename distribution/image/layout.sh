#!/bin/sh
# Lays out an image's file system as the RocketMQ image it replaces
# (Dockerfile's RUN; POSIX sh, busybox is enough):
#
#   sh layout.sh apache|foxiswho <line>
#
# both: the user rocketmq (uid and gid 3000, HOME /home/rocketmq) written
# into /etc/passwd and /etc/group, /home/rocketmq/{logs,store} owned by it,
# ROCKETMQ_HOME's bin/rmqgo-line (the broker's line), line 5's
# bin/rmqgo-proxy (a link to rmqgo-broker) or line 4's mqproxy, mqcontroller
# and rmqgo-controller removed (4.x has neither); the Dockerfile copied
# ROCKETMQ_HOME's files as 3000:3000 already (a chown here would copy them
# into another layer);
# apache: /opt/rocketmq-$ROCKETMQ_VERSION/conf/, where the compose templates
# mount broker.conf (bin/docker-entrypoint.sh is the Dockerfile's; foxiswho
# images have it too, unused);
# foxiswho: /etc/rocketmq/ (its compose file's broker.conf) and the scripts
# linked into /usr/local/bin.
set -eu
LAYOUT=$1
LINE=$2

grep -q '^rocketmq:' /etc/group 2>/dev/null || echo 'rocketmq:x:3000:' >> /etc/group
grep -q '^rocketmq:' /etc/passwd 2>/dev/null || echo 'rocketmq:x:3000:3000::/home/rocketmq:/bin/sh' >> /etc/passwd
mkdir -p /home/rocketmq/logs /home/rocketmq/store
echo "$LINE" > "$ROCKETMQ_HOME/bin/rmqgo-line"
# 5.x images have the stand-alone proxy (sh mqproxy): rmqgo-broker started
# as rmqgo-proxy, and the controller (sh mqcontroller); 4.x ones have
# neither, as Apache's have none.
if [ "$LINE" = 5 ]; then
  ln -s rmqgo-broker "$ROCKETMQ_HOME/bin/rmqgo-proxy"
else
  rm -f "$ROCKETMQ_HOME/bin/mqproxy" "$ROCKETMQ_HOME/bin/mqcontroller" "$ROCKETMQ_HOME/bin/rmqgo-controller"
fi
case $LAYOUT in
  apache)
    mkdir -p "/opt/rocketmq-$ROCKETMQ_VERSION/conf"
    chown -R 3000:3000 "/opt/rocketmq-$ROCKETMQ_VERSION"
    ;;
  foxiswho)
    mkdir -p /etc/rocketmq /usr/local/bin
    for s in mqnamesrv mqbroker mqshutdown mqadmin; do
      ln -s "$ROCKETMQ_HOME/bin/$s" "/usr/local/bin/$s"
    done
    chown -R 3000:3000 /etc/rocketmq
    ;;
  *) echo "layout.sh: no layout $LAYOUT (apache or foxiswho)" >&2; exit 2 ;;
esac
chown 3000:3000 /home/rocketmq /home/rocketmq/logs /home/rocketmq/store "$ROCKETMQ_HOME/bin/rmqgo-line"
