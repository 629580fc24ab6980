#!/bin/bash
# trinity on one kernel (qemu/init's fuzz mode), as KTAP: RUNS runs, each
# from a new seed, each booted twice, with every bpf event enabled and with
# none. A run passes when the guest shows no splat (qemu/boot.sh: KASAN,
# lockdep, a WARNING, with panic_on_warn) and trinity ran its calls to the
# end. Each run's logs stay in LOGDIR, named by its seed, so that a
# failing one can be run again (FUZZ_SEED=). Prints what trinity did:
# its calls, and bpf(2)'s successes and failures.
# Usage: fuzz.sh BZIMAGE INITRAMFS LOGDIR LABEL RUNS OPS
set -euo pipefail

kernel=${1:?usage: fuzz.sh BZIMAGE INITRAMFS LOGDIR LABEL RUNS OPS}
initrd=${2:?} logdir=${3:?} label=${4:?} runs=${5:?} ops=${6:?}
: "${FUZZ_CHILDREN:=4}" "${FUZZ_SEED:=}"
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../scripts/ktap.sh"
mkdir -p "$logdir"

echo "KTAP version 1"
echo "1..$((runs * 2))"
for _ in $(seq 1 "$runs"); do
	seed=${FUZZ_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
	for events in 1 0; do
		name=fuzz-$label-$seed-events$events
		rc=0
		# trinity's children map and fill memory: 1 GiB beside KASAN's
		# shadow and the initramfs met the OOM killer
		MEM=${FUZZ_MEM:-3G} BOOT_TIMEOUT=${BOOT_TIMEOUT:-1200} "$here/boot.sh" "$kernel" "$initrd" \
			"$logdir" "$name" RIG_MODE=fuzz FUZZ_SEED="$seed" FUZZ_OPS="$ops" \
			FUZZ_CHILDREN="$FUZZ_CHILDREN" FUZZ_EVENTS="$events" panic_on_warn=1 \
			> "$logdir/$name.boot-log" 2>&1 || rc=$?
		out=$(tr -d '\r' < "$logdir/$name.out" 2>/dev/null || true)
		# what trinity did: its calls in all, each syscall's counts (--stats)
		ran=$(echo "$out" | sed -n 's/^\[main\] Ran \([0-9]*\) syscalls.*/\1/p')
		bpf=$(echo "$out" | sed -n 's/^bpf: (attempted:\([0-9]*\)\. success:\([0-9]*\)\. failures:\([0-9]*\)\./\1 \2 \3/p')
		read -r bpf_calls bpf_ok bpf_failed <<< "${bpf:-0 0 0}"
		read_events=$(echo "$out" | sed -n 's/^fuzz: \([0-9]*\) bpf events read.*/\1/p')
		what="seed $seed, events $([ "$events" = 1 ] && echo on || echo off), $ops calls"
		diag=$(echo "$out" | grep -E '^\[main\] Ran |^[a-z0-9_]+: \(attempted:|^fuzz: '
			[ "$rc" = 0 ] || tail -5 "$logdir/$name.boot-log")
		why=
		if [ "$rc" != 0 ]; then
			why="the guest: $(grep -E '^boot: ' "$logdir/$name.boot-log" | tail -1)"
		elif ! echo "$out" | grep -q '^fuzz: done$'; then
			why="the fuzz mode did not finish"
		elif [ "${ran:-0}" -lt "$ops" ]; then
			why="trinity ran ${ran:-no} syscalls of $ops"
		elif [ "$bpf_calls" = 0 ]; then
			why="trinity made no bpf(2) call (no bpf row in its statistics)"
		elif [ "$events" = 1 ] && [ "${read_events:-0}" = 0 ]; then
			why="no bpf event read with the events on"
		elif [ "$events" = 0 ] && [ "${read_events:-1}" != 0 ]; then
			why="${read_events:-no count of} bpf events read with the events off"
		fi
		if [ -z "$why" ]; then
			result OK "trinity on $label: $what: $ran syscalls, bpf(2) $bpf_calls ($bpf_ok worked, $bpf_failed failed), ${read_events} events read, no splat" "$diag"
		else
			result FAIL "trinity on $label: $what: $why (logs: $logdir/$name.*)" "$diag"
		fi
	done
done
ktap_status
