#!/bin/sh
# The noisy neighbour of a neighbour-mode guest (qemu/init), as KTAP: it
# must have started before the suite, done rounds during the first run
# (its count between the runs, SIGUSR1) and more during the second (its
# count at SIGTERM), and exited 0. A neighbour that could not start
# fails: the run is then no run beside one.
# Usage: neighbour-check.sh OUT
set -eu

out=${1:?usage: neighbour-check.sh OUT}
log=$(tr -d '\r' < "$out" 2>/dev/null | grep '^neighbour: ' || true)
echo "KTAP version 1"
echo "1..1"
echo "$log" | sed 's/^/# /'
rounds=$(echo "$log" | sed -n 's/^neighbour: \([0-9]*\) rounds on CPU .*/\1/p')
between=$(echo "$log" | sed -n 's/^neighbour: at round \([0-9]*\)$/\1/p' | head -1)
if echo "$log" | grep -q '^neighbour: running' && echo "$log" | grep -qx 'neighbour: exit=0' &&
   [ "${between:-0}" -gt 0 ] && [ "${rounds:-0}" -gt "${between:-0}" ]; then
	echo "ok 1 neighbour: $rounds rounds of map and program lives beside the suite's two runs ($between by the first's end)"
else
	why=$(echo "$log" | grep -E 'did not start|gone|failed|exit=|round' | tr '\n' ' ')
	echo "not ok 1 neighbour: ${why:-no neighbour lines in $out}"
	exit 1
fi
