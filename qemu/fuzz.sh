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
		BOOT_TIMEOUT=${BOOT_TIMEOUT:-1200} "$here/boot.sh" "$kernel" "$initrd" "$logdir" "$name" \
			RIG_MODE=fuzz FUZZ_SEED="$seed" FUZZ_OPS="$ops" FUZZ_CHILDREN="$FUZZ_CHILDREN" \
			FUZZ_EVENTS="$events" panic_on_warn=1 > "$logdir/$name.boot-log" 2>&1 || rc=$?
		out=$(tr -d '\r' < "$logdir/$name.out" 2>/dev/null || true)
		# trinity's closing lines and its bpf row (--stats)
		summary=$(echo "$out" | grep -E '^fuzz: |Ran [0-9]+ syscalls|Successes|Failures' || true)
		bpf=$(echo "$out" | grep -iE '^ *bpf[ :]' | head -3 | tr -s ' ' | tr '\n' ';' || true)
		what="seed $seed, events $([ "$events" = 1 ] && echo on || echo off), $ops calls"
		[ -n "$bpf" ] || bpf="no bpf row in trinity's statistics"
		diag=$(echo "$summary"; echo "bpf: $bpf"; [ "$rc" = 0 ] || tail -5 "$logdir/$name.boot-log")
		if [ "$rc" = 0 ] && echo "$out" | grep -q '^fuzz: trinity exit=0$' &&
		   echo "$out" | grep -q '^fuzz: done$'; then
			result OK "trinity on $label: $what, no splat" "$diag"
		else
			result FAIL "trinity on $label: $what (logs: $logdir/$name.*)" "$diag"
		fi
	done
done
ktap_status
