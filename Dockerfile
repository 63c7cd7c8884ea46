# Images of rmqgo laid out as the RocketMQ images they replace, so that a
# deployment changes its image and nothing else (make image builds the three
# below; distribution/image/ holds the layout script and the entrypoint):
#
#   LAYOUT=apache (apache/rocketmq:4.9.x and 5.x)    LAYOUT=foxiswho (foxiswho/rocketmq:4.8.0)
#   /home/rocketmq/rocketmq-<ver>/                    the same
#     bin/ mqnamesrv mqbroker mqshutdown mqadmin,     the same, and mqnamesrv, mqbroker,
#          the static binaries, docker-entrypoint.sh    mqshutdown, mqadmin linked into
#          (line 5: mqproxy, and rmqgo-proxy a link     /usr/local/bin
#          to rmqgo-broker, which runs the proxy
#          when started by that name; mqcontroller
#          and rmqgo-controller)
#     conf/ the release's conf files                  the same
#   ROCKETMQ_HOME, WORKDIR $ROCKETMQ_HOME/bin         the same
#   user rocketmq 3000:3000, HOME /home/rocketmq     the same
#   /home/rocketmq/{logs,store}                       the same, and /etc/rocketmq/
#   /opt/rocketmq-<ver>/conf/ (a mount point)
#   ENTRYPOINT docker-entrypoint.sh: nameserver,      no ENTRYPOINT
#     broker, controller (line 5), NODE_ROLE,
#     else exec "$@"
#   EXPOSE 9876 10909 10911 10912                     the same
#
# Build arguments: LAYOUT, ROCKETMQ_VERSION (the image replaced: 4.8.0,
# 4.9.8, 5.3.3...), LINE (4 or 5: the release line the broker speaks),
# BUILDER (an image with Go) and BASE (an image with a POSIX sh; busybox is
# enough: the binaries are static). Where no registry is reachable, pass
# BUILDER and BASE images made locally (distribution/image/bases.sh does).
# BINARIES names where the binaries come from: the build stage, or an image
# of it built once (--target build) for several images.

ARG BUILDER=docker.io/library/golang:1.26-bookworm
ARG BASE=docker.io/library/busybox:1.37
ARG LAYOUT=apache
ARG BINARIES=build

FROM ${BUILDER} AS build
WORKDIR /src
COPY . .
ENV CGO_ENABLED=0
RUN mkdir -p /out && for b in rmqgo-namesrv rmqgo-broker rmqgo-controller rmqadmin rmqbench rmqstore; do \
      go build -trimpath -ldflags "-s -w" -o /out/$b ./cmd/$b || exit 1; \
    done

FROM ${BINARIES} AS binaries

FROM ${BASE} AS common
ARG ROCKETMQ_VERSION=4.9.8
ARG LINE=4
ARG LAYOUT
ENV ROCKETMQ_VERSION=${ROCKETMQ_VERSION} \
    ROCKETMQ_HOME=/home/rocketmq/rocketmq-${ROCKETMQ_VERSION}
COPY --chown=3000:3000 --from=binaries /out/ ${ROCKETMQ_HOME}/bin/
COPY --chown=3000:3000 bin/mqnamesrv bin/mqbroker bin/mqproxy bin/mqcontroller bin/mqshutdown bin/mqadmin bin/rmqgo-exec.sh distribution/image/docker-entrypoint.sh ${ROCKETMQ_HOME}/bin/
COPY --chown=3000:3000 distribution/conf/ ${ROCKETMQ_HOME}/conf/
COPY --chown=3000:3000 distribution/conf-${LINE}/ ${ROCKETMQ_HOME}/conf/
COPY distribution/image/ /tmp/image/
RUN sh /tmp/image/layout.sh "${LAYOUT}" "${LINE}" && rm -rf /tmp/image
WORKDIR ${ROCKETMQ_HOME}/bin
USER 3000:3000
ENV HOME=/home/rocketmq
EXPOSE 9876 10909 10911 10912

FROM common AS layout-apache
ENTRYPOINT ["./docker-entrypoint.sh"]
CMD ["dummy"]

FROM common AS layout-foxiswho

FROM layout-${LAYOUT}
