#!/bin/sh
# The entrypoint of the apache/rocketmq layout (the apache/rocketmq images'
# docker-entrypoint.sh does the same): the first argument "nameserver",
# "broker" or "controller" (5.x images), or NODE_ROLE set to one of them,
# starts that server with the other arguments; anything else runs as
# given, so a compose file's `command: sh mqnamesrv`, `sh mqbroker -c ...`
# or `sh mqcontroller -c ...` works unchanged. exec, so that docker stop's
# SIGTERM reaches the server.
role=${NODE_ROLE:-}
case ${1:-} in
  nameserver|broker|controller) role=$1; shift ;;
esac
case $role in
  nameserver) exec ./mqnamesrv "$@" ;;
  broker) exec ./mqbroker "$@" ;;
  controller)
    [ -x ./mqcontroller ] || { echo "docker-entrypoint: a 4.x image has no controller (mqcontroller)" >&2; exit 1; }
    exec ./mqcontroller "$@" ;;
esac
exec "$@"
