#!/bin/sh
# The stress run prints a digest of every bpf(2) result it got; tracing
# must not change a result, so the kernels of one tree must agree. Prints
# one KTAP result.
# Usage: compare-stress.sh NAME FILE...   (FILE: a guest's test output)
set -eu

name=${1:?usage: compare-stress.sh NAME FILE...}
shift
. "$(dirname "$0")/../scripts/ktap.sh"
echo "KTAP version 1"
echo "1..1"
digests=
for f in "$@"; do
	d=$([ ! -f "$f" ] || tr -d '\r' < "$f" | sed -n 's/^# stress digest: \([0-9a-f]*\)$/\1/p' | tail -1)
	digests="$digests $(basename "$f" .out)=${d:-none}"
done
if [ "$(echo "$digests" | tr ' ' '\n' | sed -n 's/.*=//p' | sort -u | wc -l)" = 1 ] &&
   ! echo "$digests" | grep -q '=none'; then
	result OK "$name: stress syscall results agree:$digests"
else
	result FAIL "$name: stress syscall results differ:$digests"
fi
