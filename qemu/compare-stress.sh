#!/bin/sh
# The stress run prints digests of every bpf(2) result it got ("# stress
# digest:" for the workers, "# storm digest:" for the two-CPU toggle
# storm); tracing must not change a result, so the kernels of one tree
# must agree. Prints one KTAP result per digest.
# Usage: compare-stress.sh NAME FILE...   (FILE: a guest's test output)
set -eu

name=${1:?usage: compare-stress.sh NAME FILE...}
shift
. "$(dirname "$0")/../scripts/ktap.sh"
echo "KTAP version 1"
echo "1..2"
for kind in stress storm; do
	digests=
	for f in "$@"; do
		d=$([ ! -f "$f" ] || tr -d '\r' < "$f" | sed -n "s/^\(# \)*# $kind digest: \([0-9a-f]*\)\$/\2/p" | tail -1)
		digests="$digests $(basename "$f" .out)=${d:-none}"
	done
	if [ "$(echo "$digests" | tr ' ' '\n' | sed -n 's/.*=//p' | sort -u | wc -l)" = 1 ] &&
	   ! echo "$digests" | grep -q '=none'; then
		result OK "$name: $kind syscall results agree:$digests"
	else
		result FAIL "$name: $kind syscall results differ:$digests"
	fi
done
ktap_status
