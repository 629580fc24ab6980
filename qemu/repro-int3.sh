#!/bin/bash
# The static-key reproducer (docs/int3-oops.md): boots one kernel RUNS
# times in init's storm mode (two hammers pinned to the two CPUs, the
# shell flipping TOGGLE for SECS seconds) and counts how each run ended:
# "Oops: int3", another splat, a hang (killed at its timeout), or
# survived. Prints one line per run and a summary; exits non-zero when a
# run hung, panicked otherwise, or no run could be classified. Oopses are
# what it measures, not a failure of its own.
# Usage: repro-int3.sh BZIMAGE INITRAMFS LOGDIR LABEL RUNS TOGGLE SECS
# TCG_THREAD=multi|single picks QEMU's TCG threading (default multi).
set -euo pipefail

kernel=${1:?usage: repro-int3.sh BZIMAGE INITRAMFS LOGDIR LABEL RUNS TOGGLE SECS}
initrd=${2:?} logdir=${3:?} label=${4:?} runs=${5:?} toggle=${6:?} secs=${7:?}
export TCG_THREAD=${TCG_THREAD:-multi}
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
	if grep -q 'Oops: int3' "$console"; then
		oops=$((oops + 1))
		how="Oops: int3 at $(grep -o 'RIP: 0010:[^ ]*' "$console" | head -1 | cut -d: -f3)"
	elif grep -q 'guest hung' "$logdir/$name.boot-log"; then
		hung=$((hung + 1))
		how="hung, killed after $((secs + 120)) s"
	elif grep -q '^storm: ' "$logdir/$name.out" 2>/dev/null &&
	     grep -q "^boot: $name: .* no splat\|^boot: $name: Linux" "$logdir/$name.boot-log"; then
		survived=$((survived + 1))
		f=$(sed -n 's/^storm: .* flips=\([0-9]*\).*/\1/p' "$logdir/$name.out")
		n=$(awk '/^hammer: / { s += $7 } END { print s + 0 }' "$logdir/$name.out")
		flips=$((flips + f)) ops=$((ops + n))
		how="survived: $f flips, $n bpf(2) commands"
	else
		other=$((other + 1))
		how="other: $(grep -E '^boot: ' "$logdir/$name.boot-log" | tail -1)"
	fi
	echo "repro-int3: $setting run $run/$runs: $how (log: $console)"
done

summary="$oops of $runs runs oopsed (int3), $survived survived ($flips flips, $ops commands), $hung hung, $other other"
if [ "$oops" = 0 ] && [ "$TCG_THREAD" = multi ]; then
	summary="$summary: did not reproduce within $runs runs of $secs s"
fi
echo "repro-int3: $setting: $summary"
[ "$hung" = 0 ] && [ "$other" = 0 ]
