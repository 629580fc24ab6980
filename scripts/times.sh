#!/bin/sh
# Where make test's time went: each step timed.sh recorded, and the total.
# Usage: times.sh TIMES
set -eu
[ -f "${1:?usage: times.sh TIMES}" ] || exit 0
awk '{ secs = $NF; $NF = ""; printf "time: %-32s %5d s\n", $0, secs; total += secs }
     END { printf "time: %-32s %5d s (%d min)\n", "all steps", total, total / 60 }' "$1"
