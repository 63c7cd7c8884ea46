#!/bin/sh
# Regenerates the Java seeds and runs every seed file through the oracle of
# both lines (POSIX sh):
#
#   sh compat/fastjson/seeds.sh            # java4.tsv, java5.tsv, then every seeds/*.out4 and *.out5
#   sh compat/fastjson/seeds.sh outputs    # only the .out4/.out5 files
#
# A seed file holds "<Kind>\t<raw JSON on one line>" lines and '#' comment
# lines. seeds/<name>.out4 (.out5) has one line per line of seeds/<name>.tsv:
# comment and blank lines copied as they are, each seed replaced by the
# oracle's answer ("ok\t<canonical JSON>" or "err\t<Exception>: <message>"),
# so `paste` or a line number pairs a seed with its answer.

set -eu
DIR=$(cd "$(dirname "$0")" && pwd)
SEEDS=$DIR/seeds
TAB=$(printf '\t')

if [ "${1:-}" != outputs ]; then
  for line in 4 5; do
    sh "$DIR/run.sh" "$line" SeedGen > "$SEEDS/java$line.tsv.tmp"
    mv "$SEEDS/java$line.tsv.tmp" "$SEEDS/java$line.tsv"
  done
fi

# requests <file.tsv>: the oracle's input lines for the seeds of one file.
requests() {
  while IFS= read -r l || [ -n "$l" ]; do
    case $l in
      '#'* | '') ;;
      *)
        kind=${l%%"$TAB"*}
        json=${l#*"$TAB"}
        printf '%s\t%s\n' "$kind" "$(printf '%s' "$json" | base64 | tr -d '\n')"
        ;;
    esac
  done < "$1"
}

for line in 4 5; do
  sh "$DIR/run.sh" "$line" build
  for f in "$SEEDS"/*.tsv; do
    out=${f%.tsv}.out$line
    requests "$f" > "$out.in"
    sh "$DIR/run.sh" "$line" < "$out.in" > "$out.answers"
    # Interleave: comments and blank lines as they are, the next answer for each seed.
    awk -v answers="$out.answers" '
      /^#/ || /^$/ { print; next }
      { if ((getline a < answers) <= 0) { print "seeds.sh: missing answer" > "/dev/stderr"; exit 1 } print a }
    ' "$f" > "$out.tmp"
    rm -f "$out.in" "$out.answers"
    mv "$out.tmp" "$out"
    echo "fastjson: $(basename "$out"): $(grep -c '^ok' "$out" || true) ok, $(grep -c '^err' "$out" || true) err" >&2
  done
done
