#!/bin/sh
# Builds every prefix of the series (each patch with those before it) in
# every config given, as KTAP, so that the series is bisectable. The last
# patch is left to the main build. The tree is put back at its HEAD.
# Usage: bisect-check.sh TREE BUILDPREFIX CONFIG...
# (builds BUILDPREFIX-CONFIG from defconfigs/base + defconfigs/CONFIG)
set -eu

tree=${1:?usage: bisect-check.sh TREE BUILDPREFIX CONFIG...}
buildprefix=${2:?}
shift 2
. "$(dirname "$0")/ktap.sh"
. "$(dirname "$0")/build-at.sh"

commits=$(git -C "$tree" rev-list --reverse base..HEAD~1)
echo "KTAP version 1"
echo "1..$(($(echo "$commits" | grep -c .) * $#))"
for c in $commits; do
	tree_at "$tree" "$c"
	subject=$(git -C "$tree" log -1 --format=%s "$c")
	for config in "$@"; do
		build_result "builds $config at: $subject" "$tree" "$buildprefix-$config" "$config"
	done
done
