#!/bin/sh
# Regenerates testdata/frames/*.bin from the real Java 4.9.8 classes.
# Needs Java 17 and Maven (dependencies come from Maven Central).
set -eu
cd "$(dirname "$0")"
out=${1:-../../testdata/frames}
mvn -q -B compile dependency:build-classpath -Dmdep.outputFile=target/classpath.txt
# user.home and the log roots point into target/ so that nothing is written to ~/logs.
java -Duser.home="$PWD/target" -Drocketmq.client.logRoot="$PWD/target/logs" \
    -cp "target/classes:$(cat target/classpath.txt)" org.rmqgo.framegen.FrameGen "$out"
