#!/bin/sh
# Where make test's time went: each step timed.sh recorded, their sum
# (steps of trees that run side by side overlap), and the wall time since
# the epoch in STARTFILE, when given.
# Usage: times.sh TIMES [STARTFILE]
set -eu
[ -f "${1:?usage: times.sh TIMES [STARTFILE]}" ] || exit 0
awk '{ secs = $NF; $NF = ""; printf "time: %-32s %5d s\n", $0, secs; total += secs }
     END { printf "time: %-32s %5d s (%d min)\n", "all steps, summed", total, total / 60 }' "$1"
if [ -n "${2:-}" ] && [ -f "$2" ]; then
	wall=$(($(date +%s) - $(cat "$2")))
	printf 'time: %-32s %5d s (%d min %d s)\n' "make test, wall clock" "$wall" $((wall / 60)) $((wall % 60))
fi
