#!/bin/sh
# disk-room.sh WHO DIR: exits 2, saying why, when the disk holding DIR is
# more than 80 % used (POSIX sh). The kill tests run it before they start:
# past diskSpaceCleanForciblyRatio (85 %) a broker's retention deletes
# commitlog files whatever their age, files of the current round included,
# Java's and ours alike, so a round's acks would be lost to the disk, not
# to a kill (a run that began at 87 % lost one round whole). The margin is
# for what the test writes. WHO prefixes the message.
set -u
mkdir -p "$2"
used=$(df -P "$2" | awk 'NR == 2 { sub("%", "", $5); print $5 }')
if [ "${used:-0}" -gt 80 ]; then
  echo "$1: the disk holding $2 is ${used}% used; past 85% (diskSpaceCleanForciblyRatio) the brokers delete commitlog files whatever their age, so acks could be lost to the disk: free some space first" >&2
  exit 2
fi
