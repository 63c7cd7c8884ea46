# Sourced by the run.sh of the small Java tools (bench/benchtool; compat/fastjson,
# hatool, storetool, rocksdbtool; POSIX sh), which run a main class of a
# Maven project with its dependencies from Maven Central.

# java_tool_classpath NAME DIR OUT [MAVEN FLAGS...]: compiles the Maven
# project in DIR (its classes land in OUT/classes, as its pom.xml puts
# them) and writes its runtime classpath to OUT/classpath.txt, unless both
# are there and newer than DIR/src, DIR/pom.xml and JT_SHARED_SRC (the
# shared source folders the pom adds, e.g. compat/testsupport/src); then
# CP names that file. Maven's output goes to stderr; a failed build exits 2. MVN names
# Maven (mvn).
java_tool_classpath() {
  jt_name=$1 jt_dir=$2 jt_out=$3
  shift 3
  CP=$jt_out/classpath.txt
  # shellcheck disable=SC2086 # JT_SHARED_SRC: folders, split on blanks
  if [ -s "$CP" ] && [ -d "$jt_out/classes" ] &&
    [ -z "$(find "$jt_dir/src" "$jt_dir/pom.xml" ${JT_SHARED_SRC:-} -newer "$CP" 2>/dev/null | head -1)" ]; then
    return 0
  fi
  echo "$jt_name: building $jt_out (mvn compile dependency:build-classpath)" >&2
  mkdir -p "$jt_out"
  "${MVN:-mvn}" -q -B -Dstyle.color=never -f "$jt_dir/pom.xml" "$@" compile dependency:build-classpath \
    -Dmdep.includeScope=runtime -Dmdep.outputFile="$CP.tmp" >&2 || { echo "$jt_name: build failed" >&2; exit 2; }
  mv "$CP.tmp" "$CP"
}
