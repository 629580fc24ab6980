#!/bin/bash
# The static-key reproducer (docs/int3-oops.md): boots one kernel RUNS
# times in init's storm mode (two hammers pinned to the two CPUs, the
# shell flipping TOGGLE for SECS seconds) and counts how each run ended:
# "Oops: int3", a hang (killed at its timeout), survived (flips made,
# both hammers succeeded, no splat), or other (another splat, no flips,
# a hammer that failed). Prints one line per run and a summary. Exits 0
# when it reproduced (some run oopsed), 3 when it did not (said so: the
# expected answer under thread=single or a fixed QEMU, yet never a pass),
# and 1 when a run hung or ended otherwise.
# Usage: repro-int3.sh BZIMAGE INITRAMFS LOGDIR LABEL RUNS TOGGLE SECS
# TCG_THREAD=multi|single picks QEMU's TCG threading (default multi).
set -euo pipefail

kernel=${1:?usage: repro-int3.sh BZIMAGE INITRAMFS LOGDIR LABEL RUNS TOGGLE SECS}
initrd=${2:?} logdir=${3:?} label=${4:?} runs=${5:?} toggle=${6:?} secs=${7:?}
export TCG_THREAD=${TCG_THREAD:-multi}
# the reproducer asks for multi-threaded TCG on any QEMU: 7.2's is the
# point; and its Oops is the result, not a boot to do again
export TCG_THREAD_FORCE=1 STALE_INT3_REBOOT=0
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$logdir"

oops=0 survived=0 hung=0 other=0 flips=0 ops=0
setting="$label toggle=$toggle tcg,thread=$TCG_THREAD"
for run in $(seq 1 "$runs"); do
	name=storm-$label-$toggle-$TCG_THREAD-$run
	console=$logdir/$name.console.log
	# a storm boots in seconds; what is left of the timeout is the hang
	ACCEL=tcg BOOT_TIMEOUT=$((secs + 120)) "$here/boot.sh" "$kernel" "$initrd" \
		"$logdir" "$name" RIG_MODE=storm STORM_TOGGLE="$toggle" STORM_SECS="$secs" \
		> "$logdir/$name.boot-log" 2>&1 || true
	how=$("$here/storm-verdict.sh" "$logdir" "$name" || true)
	case $how in
	oops:*) oops=$((oops + 1)) ;;
	hung:*) hung=$((hung + 1)) ;;
	survived:*)
		survived=$((survived + 1))
		read -r _ f _ n _ <<< "$how"
		flips=$((flips + f)) ops=$((ops + n)) ;;
	*) other=$((other + 1)) ;;
	esac
	echo "repro-int3: $setting run $run/$runs: $how (log: $console)"
done

summary="$oops of $runs runs oopsed (int3), $survived survived ($flips flips, $ops commands), $hung hung, $other other"
echo "repro-int3: $setting: $summary"
if [ "$hung" != 0 ] || [ "$other" != 0 ]; then
	exit 1
elif [ "$oops" = 0 ]; then
	# the expected answer under thread=single or a fixed QEMU, but never a pass
	echo "repro-int3: $setting: NOT REPRODUCED within $runs runs of $secs s"
	exit 3
fi
