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
	# 6.12 prints "Oops: int3: 0000 [#1]", 6.1 "int3: 0000 [#1]"
	storm=$(grep '^storm: toggle=' "$logdir/$name.out" 2>/dev/null || true)
	f=$(echo "$storm" | sed -n 's/.* flips=\([0-9]*\).*/\1/p')
	if grep -Eq '(Oops: )?int3: [0-9a-f]{4} \[#' "$console"; then
		oops=$((oops + 1))
		rip=$(grep -o 'RIP: 0010:[^ ]*' "$console" | head -1 | cut -d: -f3 || true)
		how="Oops: int3 at ${rip:-an address the log does not give}"
	elif grep -q 'guest hung' "$logdir/$name.boot-log"; then
		hung=$((hung + 1))
		how="hung, killed after $((secs + 120)) s"
	elif [ "${f:-0}" -gt 0 ] && echo "$storm" | grep -q ' hammers=ok$' &&
	     grep -q "^boot: $name: Linux version" "$logdir/$name.boot-log"; then
		# a survivor must have flipped and hammered: else it proves nothing
		survived=$((survived + 1))
		n=$(awk '/^hammer: / { s += $7 } END { print s + 0 }' "$logdir/$name.out")
		flips=$((flips + f)) ops=$((ops + n))
		how="survived: $f flips, $n bpf(2) commands"
	else
		other=$((other + 1))
		how="other: ${storm:-no storm line}; $(grep -E '^boot: ' "$logdir/$name.boot-log" | tail -1 || true)"
	fi
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
