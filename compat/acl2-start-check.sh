#!/bin/sh
# Whether a broker starts when broker.conf names ACL 2.0 strategy or
# provider classes it does not have (POSIX sh). 5.3.3's BrokerController
# loads them at start whether ACL 2.0 is on or not (Class.forName; then
# BrokerStartup prints the exception and exits -1), so the line-5 broker
# must not boot, and must name the class; 4.9.7 has no ACL 2.0 and ignores
# keys it does not know, so the line-4 broker must boot.
#
#   sh compat/acl2-start-check.sh                 # the Java brokers
#   BROKER_IMPL=go RMQGO_BROKER_BIN=$PWD/bin/rmqgo-broker sh compat/acl2-start-check.sh
#
# Cases (ref-servers.sh start with these BROKER_CONF_EXTRA lines, broker-a alone):
#   5  authenticationEnabled=false, an unknown authenticationStrategy   no boot
#   5  authorizationEnabled=true, an unknown authorizationProvider      no boot
#   4  both unknown classes, both enabled                               boot
#
# NAMESRV_IMPL, BROKER_IMPL, RMQGO_*_BIN, NAMESRV_PORT and BROKER_PORT are
# passed on as ref-servers.sh reads them; RUN_DIR defaults to
# compat/target/run-acl2-start (each case's output: RUN_DIR.<n>.log).
# Prints one line per case, then "acl2-start-check: N passed, N failed";
# exits 1 when a case failed.

set -u
COMPAT_DIR=$(cd "$(dirname "$0")" && pwd)
RUN_DIR=${RUN_DIR:-$COMPAT_DIR/target/run-acl2-start}
export RUN_DIR
STRATEGY=org.example.NoSuchAuthenticationStrategy
PROVIDER=org.example.NoSuchAuthorizationProvider
passed=0
failed=0
n=0

# check LINE WANT CLASS EXTRA: starts LINE's servers with EXTRA appended to
# broker.conf and stops them; WANT is boot, or no-boot with CLASS named in
# the broker's last output.
check() {
  line=$1 want=$2 class=$3 extra=$4
  n=$((n + 1))
  log=$RUN_DIR.$n.log
  mkdir -p "$(dirname "$RUN_DIR")"
  got=no-boot
  if BROKER_CONF_EXTRA=$extra COMPAT_BROKER_B=0 sh "$COMPAT_DIR/ref-servers.sh" start "$line" >"$log" 2>&1; then
    got=boot
  fi
  sh "$COMPAT_DIR/ref-servers.sh" stop >>"$log" 2>&1
  ok=0
  if [ "$got" = "$want" ]; then
    ok=1
    if [ "$want" = no-boot ] && ! grep -q -F "$class" "$log"; then ok=0; got="no-boot, $class not named"; fi
  fi
  if [ $ok = 1 ]; then passed=$((passed + 1)); verdict=ok; else failed=$((failed + 1)); verdict=FAILED; fi
  why=""
  [ "$want" = no-boot ] && why=$(grep -m1 -F "$class" "$log" | cut -c1-160)
  echo "acl2-start-check: line $line, $(echo "$extra" | tr '\n' ' '): want $want, got $got: $verdict${why:+ ($why)}"
}

check 5 no-boot "$STRATEGY" "authenticationEnabled=false
authenticationStrategy=$STRATEGY"
check 5 no-boot "$PROVIDER" "authorizationEnabled=true
authorizationProvider=$PROVIDER"
check 4 boot "" "authenticationEnabled=true
authorizationEnabled=true
authenticationStrategy=$STRATEGY
authorizationProvider=$PROVIDER"

echo "acl2-start-check: $passed passed, $failed failed"
[ $failed = 0 ]
