#!/bin/sh
# Regenerates the body fixtures of internal/protocol/testdata/ (*_498.* and
# *_533.*) with the real RocketMQ 4.9.8 and 5.3.3 classes from Maven Central
# (see README.md). Needs Java 17 and Maven.
set -eu
cd "$(dirname "$0")"
out=${1:-../../internal/protocol/testdata}
for line in 4 5; do
    version=4.9.8
    [ "$line" = 5 ] && version=5.3.3
    t=target/line$line
    mvn -q -B -Dstyle.color=never -Prmq$line compile dependency:build-classpath -Dmdep.outputFile="$PWD/$t/classpath.txt"
    # user.home and the log roots point into target/ so that nothing is
    # written to ~/logs; stdout is only 5.3.3's logback status chatter.
    java -Dfile.encoding=UTF-8 -Duser.home="$PWD/$t" -Drocketmq.log.root="$PWD/$t/logs" \
        -Drocketmq.client.logRoot="$PWD/$t/logs" \
        -cp "$t/classes:$(cat "$t/classpath.txt")" org.rmqgo.bodygen.BodyGen "$out" >/dev/null
    echo "bodygen: wrote $out/*_$(echo "$version" | tr -d .).*"
done
