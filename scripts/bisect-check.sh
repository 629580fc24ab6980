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
here=$(cd "$(dirname "$0")" && pwd)
defconfigs=$(cd "$here/../defconfigs" && pwd)
head=$(git -C "$tree" symbolic-ref -q --short HEAD || git -C "$tree" rev-parse HEAD)
trap 'git -C "$tree" checkout -q "$head"' EXIT

commits=$(git -C "$tree" rev-list --reverse base..HEAD~1)
echo "KTAP version 1"
echo "1..$(($(echo "$commits" | grep -c .) * $#))"
n=0
for c in $commits; do
	git -C "$tree" checkout -q "$c"
	subject=$(git -C "$tree" log -1 --format=%s "$c")
	for config in "$@"; do
		n=$((n + 1))
		if log=$("$here/build-kernel.sh" "$tree" "$buildprefix-$config" \
			"$defconfigs/base" "$defconfigs/$config" 2>&1); then
			echo "ok $n builds $config at: $subject"
		else
			echo "$log" | tail -20 | sed 's/^/# /'
			echo "not ok $n builds $config at: $subject"
		fi
	done
done
