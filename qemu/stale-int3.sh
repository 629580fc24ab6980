#!/bin/sh
# Was a guest's first splat the emulator's stale int3 (docs/int3-oops.md)?
# An "Oops: int3" (6.1: "int3: 0000 [#1]") whose Code line shows, just
# before the trap's RIP (the byte after the int3), a byte that is not
# 0xcc: the vCPU executed an int3 that memory no longer held, which x86
# forbids once text_poke_bp() has finished, and multi-threaded TCG does
# (QEMU 7.2 at once, 10.0.2 seldom). A real int3 (0xcc still there), an
# int3 that is not the first splat, or a log without its Code line is
# not this, and stays the guest's failure.
# Only the int3 report's own lines are read, from its header to its Call
# Trace: a report cut short must not lend a later one's RIP and Code.
# Prints "stale int3 at RIP: memory holds XX there" and exits 0, or exits
# 1 and prints why not.
# Usage: stale-int3.sh CONSOLE-LOG
set -eu
. "$(dirname "$0")/splats.sh"

console=${1:?usage: stale-int3.sh CONSOLE-LOG}
# boot.sh's splats, read from the console's text (splats.sh)
splat="$SPLAT_ERE|$INT3_OOPS_ERE"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
console_text "$console" > "$log"
first=$(grep -En "$splat" "$log" | head -1 || true)
case $first in
*int3:\ [0-9a-f][0-9a-f][0-9a-f][0-9a-f]\ \[#1\]*) ;;
"") echo "no splat"; exit 1 ;;
*) echo "the first splat is not an int3 Oops: ${first#*:}"; exit 1 ;;
esac
line=${first%%:*}
# the report: its header, up to the next splat line (its Call Trace)
next=$(sed -n "$((line + 1)),\$p" "$log" | grep -Enm1 "$splat" | cut -d: -f1 || true)
last=$((line + ${next:-40}))
rip=$(sed -n "$line,${last}s/^RIP: 0010:\([^ ]*\).*/\1/p" "$log" | head -1)
code=$(sed -n "$line,${last}s/^Code: //p" "$log" | head -1)
# "... 66 <90> c3 ...": the byte before the marked one
before=$(printf '%s\n' "$code" | sed -n 's/.*\([0-9a-f][0-9a-f]\) <[0-9a-f][0-9a-f]>.*/\1/p')
if [ -z "$rip" ] || [ -z "$before" ]; then
	echo "an int3 Oops without its RIP or Code line before its Call Trace"
	exit 1
fi
if [ "$before" = cc ]; then
	echo "a real int3 at $rip: memory still holds cc there"
	exit 1
fi
echo "stale int3 at $rip: memory holds $before there"
