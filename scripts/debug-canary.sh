#!/bin/bash
# Proves that the debug kernel catches an event that sleeps: puts a
# might_sleep() into bpf_map_create's TP_fast_assign, builds the debug
# kernel, boots it to create one map with that event on (init's canary
# mode: a map, not the whole suite, is what the event needs), and passes
# only if the boot fails on "BUG: sleeping function called from invalid
# context" in that event.
# The canary kernel builds in BUILDDIR-canary, begun as a copy of the
# debug kernel's BUILDDIR: it recompiles what the header reaches and
# links, and BUILDDIR is never built with the canary in it (no rebuild to
# undo it). The tree is put back whatever happens, an interrupt (SIGINT,
# SIGTERM) included. Prints one KTAP result.
# Usage: debug-canary.sh TREE BUILDDIR INITRAMFS LOGDIR FRAGMENT...
set -euo pipefail

tree=${1:?usage: debug-canary.sh TREE BUILDDIR INITRAMFS LOGDIR FRAGMENT...}
build=${2:?}
initrd=${3:?}
logdir=${4:?}
shift 4
here=$(cd "$(dirname "$0")" && pwd)
header=include/trace/events/bpf.h
. "$here/ktap.sh"
name="debug kernel fails on might_sleep() in bpf_map_create's assignment"

echo "KTAP version 1"
echo "1..1"
trap 'rm -f "$tree/$header.canary"; git -C "$tree" checkout -q -- "$header"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# the first statement of the assignment of the one event that has its own
awk '/^TRACE_EVENT_BPF\(bpf_map_create,/ { ev = 1 }
     ev && /TP_fast_assign\(/ { print; print "\t\tmight_sleep();"; ev = 0; next }
     { print }' "$tree/$header" > "$tree/$header.canary"
mv "$tree/$header.canary" "$tree/$header"
grep -q 'might_sleep' "$tree/$header" || { result FAIL "$name: could not insert it"; exit 1; }

if ! log=$("$here/seed-build.sh" "$build" "$build-canary" 2>&1 &&
	  "$here/build-kernel.sh" "$tree" "$build-canary" "$@" 2>&1); then
	result FAIL "$name: the canary kernel does not build: $(echo "$log" | tail -1)"
	exit 1
fi
if ACCEL=${ACCEL:-tcg} "$(dirname "$here")/qemu/boot.sh" "$build-canary/arch/x86/boot/bzImage" \
	"$initrd" "$logdir" debug-canary RIG_MODE=canary BPF_TRACEPOINTS_EXPECT=on \
	panic_on_warn=1 >/dev/null 2>&1; then
	result FAIL "$name: the boot passed"
elif grep -q 'BUG: sleeping function called from invalid context' "$logdir/debug-canary.console.log" &&
     grep -q 'trace_event_raw_event_bpf_map_create' "$logdir/debug-canary.console.log"; then
	result OK "$name"
else
	result FAIL "$name: the boot failed otherwise: $(sed -n '3p' "$logdir/debug-canary.boot")"
fi
ktap_status
