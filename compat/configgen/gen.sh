#!/bin/sh
# Regenerates internal/protocol/testdata/config/java-4.9.7 and java-5.3.3
# with the real rocketmq-broker 4.9.7 and 5.3.3 classes from Maven Central
# (see README.md there). Needs Java 17 and Maven.
set -eu
cd "$(dirname "$0")"
out=${1:-../../internal/protocol/testdata/config}
for line in 4 5; do
    version=4.9.7
    [ "$line" = 5 ] && version=5.3.3
    t=target/line$line
    mvn -q -B -Dstyle.color=never -Prmq$line compile dependency:build-classpath -Dmdep.outputFile="$PWD/$t/classpath.txt"
    rm -rf "$out/java-$version"
    # user.home and the log root point into target/ so that nothing is written
    # to ~/logs; stdout is only 5.3.3's logback status chatter.
    java -Dfile.encoding=UTF-8 -Duser.home="$PWD/$t" -Drocketmq.log.root="$PWD/$t/logs" \
        -cp "$t/classes:$(cat "$t/classpath.txt")" org.rmqgo.configgen.ConfigGen "$out/java-$version" >/dev/null
    echo "configgen: wrote $out/java-$version"
done
