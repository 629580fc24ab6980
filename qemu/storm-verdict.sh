#!/bin/sh
# How one storm boot ended (qemu/init's storm mode; the logs qemu/boot.sh
# keeps), as one line on stdout: "oops: int3 at RIP: stale or not",
# "hung: ...: QEMU's stale int3 livelock ..." (or "not QEMU's ..."),
# "survived: F flips, N bpf(2) commands", or "other: ..." (another
# splat, no flips, a hammer that failed, a boot that failed).
# A survivor must have flipped and both hammers must have worked: else it
# proves nothing.
# The guest's serial lines end in CR LF (the tty's ONLCR): the CRs go
# before anything is matched. Exits 0 for a survivor, 1 otherwise.
# Usage: storm-verdict.sh LOGDIR NAME
set -eu
. "$(dirname "$0")/splats.sh"

logdir=${1:?usage: storm-verdict.sh LOGDIR NAME}
name=${2:?}
console=$logdir/$name.console.log
clean() { tr -d '\r' < "$1" 2>/dev/null || true; }

storm=$(clean "$logdir/$name.out" | grep '^storm: toggle=' || true)
flips=$(echo "$storm" | sed -n 's/.* flips=\([0-9]*\) .*/\1/p')
boot=$(sed -n 's/^\(not \)\{0,1\}ok 1 boot [^ ]*: //p' "$logdir/$name.boot" 2>/dev/null || true)
if clean "$console" | grep -Eq "$INT3_OOPS_ERE"; then
	rip=$(clean "$console" | grep -o 'RIP: 0010:[^ ]*' | head -1 | cut -d: -f3)
	# stale (the emulator's) or not (qemu/stale-int3.sh)
	why=$("$(dirname "$0")/stale-int3.sh" "$console" || true)
	echo "oops: int3 at ${rip:-an address the log does not give}: $why"
	exit 1
fi
case $boot in
*"guest hung"*)
	# QEMU's stale int3 as 6.1 meets it, a livelock (docs/int3-oops.md),
	# or not; the boot's own "(log: ...)" goes: the caller names the log
	if why=$("$(dirname "$0")/int3-livelock.sh" "$console"); then
		echo "hung: ${boot% (log: *}: QEMU's $why"
	else
		echo "hung: ${boot% (log: *}: not QEMU's stale int3 livelock: $why"
	fi
	exit 1 ;;
esac
if [ "${flips:-0}" -gt 0 ] && echo "$storm" | grep -q ' hammers=ok$' &&
   grep -q '^ok 1 ' "$logdir/$name.boot" 2>/dev/null; then
	n=$(clean "$logdir/$name.out" | awk '/^hammer: / { s += $7 } END { print s + 0 }')
	echo "survived: $flips flips, $n bpf(2) commands"
	exit 0
fi
echo "other: ${storm:-no storm line}; ${boot:-no boot verdict}"
exit 1
