#!/bin/sh
# Prints "<name>: N passed, N failed, N skipped" from the Surefire reports in
# DIR, on a line of its own (Debian's Maven 3.8 may end its output without a
# newline); with no report, a line that says Maven failed before the tests,
# and exit status 1 (POSIX sh). Above the count, a line for each test that
# failed, "<name>: FAILED Class.method: message", so that the last lines of
# a long log (all CI shows) name it.
#
#   sh compat/surefire-summary.sh NAME DIR
set -u
name=$1 dir=$2
printf '\n'
set -- "$dir"/TEST-*.xml
if [ ! -f "$1" ]; then
  echo "$name: 0 passed, 1 failed, 0 skipped (no test reports: Maven failed before running tests, see above)"
  exit 1
fi
# <testcase name="m" classname="c" ...> then <failure message="..." or
# <error message="..."; the test named is the file's last <testcase>, or
# the file's class when none came before the error.
awk -v name="$name" '
  function attr(line, key) {
    if (!match(line, key "=\"[^\"]*\"")) return ""
    return substr(line, RSTART + length(key) + 2, RLENGTH - length(key) - 3)
  }
  FNR == 1 { test = FILENAME; sub(/.*\/TEST-/, "", test); sub(/\.xml$/, "", test) }
  /<testcase / { test = attr($0, "classname") "." attr($0, "name") }
  /<(failure|error)[ >]/ {
    msg = attr($0, "message")
    gsub(/&lt;/, "<", msg); gsub(/&gt;/, ">", msg); gsub(/&quot;/, "\"", msg)
    gsub(/&#10;/, " ", msg); gsub(/&amp;/, "\\&", msg)
    if (length(msg) > 200) msg = substr(msg, 1, 200) "..."
    printf "%s: FAILED %s: %s\n", name, test, msg
  }' "$@"
sed -n 's/.*<testsuite \(.*\)>.*/\1/p' "$@" | awk -v name="$name" '
  {
    for (i = 1; i <= NF; i++) {
      split($i, kv, "=")
      gsub(/"/, "", kv[2])
      if (kv[1] == "tests") t += kv[2]
      else if (kv[1] == "failures") f += kv[2]
      else if (kv[1] == "errors") f += kv[2]
      else if (kv[1] == "skipped") s += kv[2]
    }
  }
  END { printf "%s: %d passed, %d failed, %d skipped\n", name, t - f - s, f, s }'
