#!/bin/sh
# One KTAP result for a rig step run as
#   { make STEP || touch PREFIX.failed; } 2>&1 | tee PREFIX.log
# so that a step that stopped early (a patch that does not apply, a build
# that fails) is counted, with the line that says why.
# Usage: step-result.sh NAME PREFIX
set -eu

name=${1:?usage: step-result.sh NAME PREFIX}
prefix=${2:?}
. "$(dirname "$0")/ktap.sh"
echo "KTAP version 1"
echo "1..1"
if [ -e "$prefix.failed" ]; then
	# the rig's own last word, else make's
	why=$(grep -E '^(deps|prepare-tree|build-kernel|check-config|boot): ' "$prefix.log" |
	      grep -Ev 'is up to date|: applied |extracting|resetting|in [0-9]+ s' | tail -1)
	[ -n "$why" ] || why=$(grep -E '^make(\[[0-9]+\])?: ' "$prefix.log" | tail -1)
	result FAIL "$name: ${why:-failed, see $prefix.log}"
else
	result OK "$name"
fi
