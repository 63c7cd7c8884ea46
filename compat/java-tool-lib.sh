# Sourced by the run.sh of the small Java tools (bench/benchtool; compat/fastjson,
# hatool, storetool, rocksdbtool; POSIX sh), which run a main class of a
# Maven project with its dependencies from Maven Central:
#
#   java_tool_usage       the run.sh's usage (its header's "sh ..." lines)
#   java_tool_classpath   builds the project, its runtime classpath in CP
#   java_tool_prepare     the line and class arguments checked, that line built
#   java_tool_exec_client runs a rocketmq-client tool's class (benchtool, hatool)

# java_tool_usage: prints the usage lines of the calling run.sh's header
# comment (those that begin "#   sh ", without the "#") on stderr; exits 2.
java_tool_usage() {
  sed -n '/^#   sh /s/^# *//p' "$0" >&2
  exit 2
}

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

# java_tool_prepare NAME DIR "CLASSES" LINE CLASS [ARGS...]: the start of a
# run.sh taking "4|5 CLASS ...": LINE must be 4 (rocketmq 4.x, the pom's
# default profile) or 5 (Maven profile rmq5) and CLASS one of the
# blank-separated CLASSES or build, else java_tool_usage. Builds DIR for
# that line into OUT=DIR/target/line<LINE> (java_tool_classpath NAME; CP
# set), then exits 0 if CLASS is build; sets LINE, CLASS and OUT. The
# caller shifts its two arguments itself.
java_tool_prepare() {
  jt_name=$1 jt_dir=$2 jt_classes=$3
  shift 3
  [ $# -ge 2 ] || java_tool_usage
  LINE=$1 CLASS=$2
  case $LINE in
    4) jt_profile="" ;;
    5) jt_profile="-Prmq5" ;;
    *) java_tool_usage ;;
  esac
  jt_known=0
  for jt_class in $jt_classes build; do
    [ "$CLASS" != "$jt_class" ] || jt_known=1
  done
  [ $jt_known = 1 ] || java_tool_usage
  OUT=$jt_dir/target/line$LINE
  # shellcheck disable=SC2086 # jt_profile: no word or one
  java_tool_classpath "$jt_name" "$jt_dir" "$OUT" $jt_profile
  if [ "$CLASS" = build ]; then exit 0; fi
}

# java_tool_exec_client NAME HOME [ARGS...]: execs java on org.rmqgo.NAME.CLASS
# (java_tool_prepare's CLASS, OUT and CP) with ARGS, JAVA_HEAP then
# JAVA_OPTS as JVM flags, user.home HOME and rocketmq-client's logs (WARN
# and up) in HOME/logs.
java_tool_exec_client() {
  jt_name=$1 jt_home=$2
  shift 2
  mkdir -p "$jt_home/logs"
  # shellcheck disable=SC2086 # JAVA_HEAP, JAVA_OPTS: flags, split on blanks
  exec java $JAVA_HEAP ${JAVA_OPTS:-} \
    -Duser.home="$jt_home" \
    -Drocketmq.client.logRoot="$jt_home/logs" \
    -Drocketmq.client.logLevel=WARN \
    -cp "$OUT/classes:$(cat "$CP")" "org.rmqgo.$jt_name.$CLASS" "$@"
}
