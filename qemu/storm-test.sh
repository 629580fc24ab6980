#!/bin/sh
# make test's int3 storm (docs/int3-oops.md), as KTAP: one run of the
# reproducer (qemu/repro-int3.sh) on the on kernel, on the rig's QEMU,
# with the guests' TCG threading (single, unless TCG_THREAD=multi). It
# must survive and be reported as a survivor (the reproducer then says
# NOT REPRODUCED and exits 3): this keeps its verdicts
# (qemu/storm-verdict.sh) from rotting, and shows the events' static keys
# flipped under bpf(2) on two vCPUs. An Oops, a hang or any other end
# fails, named, with its log.
# Usage: storm-test.sh BZIMAGE INITRAMFS LOGDIR LABEL SECS
set -eu

kernel=${1:?usage: storm-test.sh BZIMAGE INITRAMFS LOGDIR LABEL SECS}
initrd=${2:?} logdir=${3:?} label=${4:?} secs=${5:?}
here=$(cd "$(dirname "$0")" && pwd)
export TCG_THREAD="${TCG_THREAD:-single}"

echo "KTAP version 1"
echo "1..1"
# multi-threaded TCG before QEMU 8.1 oopses (docs/int3-oops.md): that is
# QEMU's defect, not a result about the kernel
version=$("${QEMU:-qemu-system-x86_64}" --version 2>/dev/null |
	sed -n '1s/^QEMU emulator version \([0-9]*\)\.\([0-9]*\).*/\1 \2/p')
# shellcheck disable=SC2086 # major and minor, or nothing
set -- $version
if [ "$TCG_THREAD" = multi ] && { [ $# != 2 ] || [ "$1" -lt 8 ] || { [ "$1" = 8 ] && [ "$2" -lt 1 ]; }; }; then
	echo "ok 1 int3 storm: $label # SKIP QEMU ${1:-?}.${2:-?} (${QEMU:-qemu-system-x86_64}) predates the multi-threaded TCG fix of 8.1"
	exit 0
fi
rc=0
out=$("$here/repro-int3.sh" "$kernel" "$initrd" "$logdir" "$label" 1 bpf "$secs" 2>&1) || rc=$?
echo "$out" | sed 's/^/# /'
run=$(echo "$out" | sed -n 's/^repro-int3: .* run 1\/1: //p')
case "$rc:$run" in
3:survived:*) echo "ok 1 int3 storm: $label, $TCG_THREAD-threaded TCG, $secs s: $run" ;;
*) echo "not ok 1 int3 storm: $label, $secs s: ${run:-no verdict} (repro-int3 exited $rc)"; exit 1 ;;
esac
