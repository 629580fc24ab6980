#!/bin/sh
# The noisy neighbour of a neighbour-mode guest (qemu/init), as KTAP: it
# must have started before the suite, run through both of the suite's
# runs and ended at SIGTERM with exit 0, having done rounds. A neighbour
# that could not start fails: the run is then no run beside one.
# Usage: neighbour-check.sh OUT
set -eu

out=${1:?usage: neighbour-check.sh OUT}
log=$(tr -d '\r' < "$out" 2>/dev/null | grep '^neighbour: ' || true)
echo "KTAP version 1"
echo "1..1"
echo "$log" | sed 's/^/# /'
rounds=$(echo "$log" | sed -n 's/^neighbour: \([0-9]*\) rounds on CPU .*/\1/p')
if echo "$log" | grep -q '^neighbour: running' && echo "$log" | grep -qx 'neighbour: exit=0' &&
   [ "${rounds:-0}" -gt 0 ]; then
	echo "ok 1 neighbour: $rounds rounds of map and program lives beside the suite's two runs"
else
	why=$(echo "$log" | grep -E 'did not start|gone|failed|exit=' | tr '\n' ' ')
	echo "not ok 1 neighbour: ${why:-no neighbour lines in $out}"
	exit 1
fi
