#!/bin/sh
# Runs Apache RocketMQ's mqadmin (org.apache.rocketmq.tools.command.MQAdminStartup
# from rocketmq-tools on Maven Central) against any name server:
#
#   sh compat/mqadmin.sh clusterList -n 127.0.0.1:19876
#   RMQ_LINE=5 sh compat/mqadmin.sh topicRoute -n 127.0.0.1:19876 -t TopicTest
#   sh compat/mqadmin.sh            # the list of sub-commands
#   sh compat/mqadmin.sh help getKVConfig
#
# RMQ_LINE=4 (default) uses rocketmq-tools 4.9.8, RMQ_LINE=5 uses 5.3.3: the
# same versions as the suite's default and rmq5 profiles (compat/pom.xml).
# ROCKETMQ_HOME is a directory under compat/target/ with no conf/tools.yml, so
# requests are not ACL-signed; tools logs go under that directory too.
# MQADMIN_HOME replaces that directory; MQADMIN_TOOLS_YML names a file copied
# to its conf/tools.yml (removed there when unset or empty): MQAdminStartup
# then signs every request (AclUtils.getAclRPCHook reads the accessKey and
# secretKey of ${rocketmq.home.dir, else ROCKETMQ_HOME}/conf/tools.yml;
# compat/mqadmin-compare.sh --acl1 and --acl2).
# Note that mqadmin itself exits 0 even when a sub-command fails; read its
# output.
set -u

COMPAT_DIR=$(cd "$(dirname "$0")" && pwd)
MVN=${MVN:-mvn}
RMQ_LINE=${RMQ_LINE:-4}
case $RMQ_LINE in
  4) profile="" ;;
  5) profile="-Prmq5" ;;
  *) echo "mqadmin.sh: RMQ_LINE must be 4 or 5, not $RMQ_LINE" >&2; exit 2 ;;
esac

CP_DIR=$COMPAT_DIR/target/cp
cpfile=$CP_DIR/tools-$RMQ_LINE.cp
mkdir -p "$CP_DIR"
if [ ! -s "$cpfile" ] || [ "$COMPAT_DIR/pom.xml" -nt "$cpfile" ]; then
  echo "mqadmin.sh: resolving rocketmq-tools (line $RMQ_LINE) from Maven Central" >&2
  # shellcheck disable=SC2086
  "$MVN" -q -B -Dstyle.color=never -f "$COMPAT_DIR/pom.xml" $profile dependency:build-classpath \
    -Dmdep.includeScope=runtime -Dmdep.outputFile="$cpfile.tmp" >&2 || {
    echo "mqadmin.sh: mvn could not resolve rocketmq-tools" >&2; exit 1; }
  mv "$cpfile.tmp" "$cpfile"
fi

home=${MQADMIN_HOME:-$COMPAT_DIR/target/mqadmin-home-$RMQ_LINE}
mkdir -p "$home/conf"
# 4.9.8's MQAdminStartup loads $ROCKETMQ_HOME/conf/logback_tools.xml and does
# nothing without it; 5.3.3 carries its own rmq.tools.logback.xml.
[ -f "$home/conf/logback_tools.xml" ] || cp "$COMPAT_DIR/../distribution/conf-4/logback_tools.xml" "$home/conf/"
if [ -n "${MQADMIN_TOOLS_YML:-}" ]; then
  cp "$MQADMIN_TOOLS_YML" "$home/conf/tools.yml" || exit 1
else
  rm -f "$home/conf/tools.yml"
fi

ROCKETMQ_HOME=$home
export ROCKETMQ_HOME
exec java -Xms64m -Xmx256m -Duser.home="$home" -Drocketmq.client.logRoot="$home/logs/rocketmqlogs" \
  -Drmq.logback.configurationFile=rmq.tools.logback.xml \
  -cp "$(cat "$cpfile")" org.apache.rocketmq.tools.command.MQAdminStartup "$@"
