#!/bin/sh
# Runs one step of make test and says how long it took, as it goes, on
# stderr and in TIMES (LABEL SECONDS lines, for docs/rig.md's breakdown).
# Exits with the step's status.
# Usage: timed.sh TIMES LABEL COMMAND...
set -u

times=${1:?usage: timed.sh TIMES LABEL COMMAND...}
label=${2:?}
shift 2
start=$(date +%s)
echo "step: $label ..." >&2
rc=0
"$@" || rc=$?
secs=$(($(date +%s) - start))
mkdir -p "$(dirname "$times")"
echo "$label $secs" >> "$times"
if [ "$rc" = 0 ]; then
	echo "step: $label: $secs s" >&2
else
	echo "step: $label: failed ($rc) after $secs s" >&2
fi
exit "$rc"
