#!/bin/sh
# Did a guest that hung meet the emulator's stale int3 as a livelock
# (docs/int3-oops.md)? What 6.1 under multi-threaded TCG on QEMU 10.0.2
# showed, where 6.12 oopses: text_poke_bp() waits for every CPU to sync
# while one vCPU takes an int3 again and again, and the RCU stall reports
# catch it at the handler's first instruction (RIP asm_exc_int3+0x0).
# It is this only if the console's first report is an RCU stall, one
# CPU is caught at asm_exc_int3+0x0 in two reports or more, and a report
# has text_poke_bp in its Call Trace; anything else (an Oops, a WARNING, a stall elsewhere) first
# is the guest's own hang. Prints "stale int3 livelock ..." and exits 0,
# or exits 1 and prints why not.
# Usage: int3-livelock.sh CONSOLE-LOG
set -eu
. "$(dirname "$0")/splats.sh"

console=${1:?usage: int3-livelock.sh CONSOLE-LOG}
stall='rcu: INFO: rcu_(sched|preempt) self-detected stall|rcu: INFO: rcu_(sched|preempt) detected stalls'
log=$(mktemp)
trap 'rm -f "$log"' EXIT
console_text "$console" > "$log"
first=$(grep -En "$stall|$SPLAT_ERE" "$log" | head -1 || true)
[ -n "$first" ] || { echo "no RCU stall"; exit 1; }
if ! printf '%s\n' "$first" | grep -Eq "$stall"; then
	echo "the first report is not an RCU stall: ${first#*:}"
	exit 1
fi
# the livelock's own sign, which no deadlock gives: one CPU caught at
# the handler's first instruction in two reports or more (it enters it
# again and again; a CPU stuck on a lock is caught in the lock's code)
int3_cpu=$(awk -v stall="$stall" '
	$0 ~ stall { report++ }
	/^CPU: [0-9]+ / { cpu = $2 }
	# once a report per CPU: a report that prints its registers twice
	# is still one sample
	/^RIP: 0010:asm_exc_int3\+0x0\// && cpu != "" && report && !((report, cpu) in seen) {
		seen[report, cpu] = 1
		n[cpu]++
	}
	END { for (c in n) if (n[c] > best) { best = n[c]; at = c } if (best) print at, best }' "$log")
if [ -z "$int3_cpu" ]; then
	echo "an RCU stall, but no CPU caught entering the int3 handler"
	exit 1
fi
if [ "${int3_cpu#* }" -lt 2 ]; then
	echo "an RCU stall, and CPU ${int3_cpu% *} caught entering the int3 handler once: no sign that it enters it again and again"
	exit 1
fi
if ! grep -Eq '^ (\? )?text_poke_bp(_batch)?\+' "$log"; then
	echo "an RCU stall, but nothing waits in text_poke_bp"
	exit 1
fi
echo "stale int3 livelock: CPU ${int3_cpu% *} re-enters the int3 handler (${int3_cpu#* } stall reports) while text_poke_bp waits"
