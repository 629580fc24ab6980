#!/bin/sh
# Prints the benchmark's table from the bench boots' output (on one
# vCPU): guest instructions per syscall for (a) the off kernel, (b) the on kernel with
# events disabled, (c) with the bpf event enabled, (d) with a kprobe event
# instead, and what users would pick instead: (e) strace, bpftrace on (f)
# a kprobe and (g) the events; the controls (the off kernel booted
# twice, the unpatched kernel against off); the kernel's own kmem events
# beside ours, per event; the differences against their targets (met /
# not met: findings, not failures); the recorded size of one event (8 B
# and 64 KiB values); what keeping the verifier's words costs a load;
# the on kernel's extra bytes; the rig's own times;
# and the disassembly that the disabled sites add.
# Usage: bench-report.sh LOGDIR BUILDPREFIX TREE
set -eu

logs=${1:?usage: bench-report.sh LOGDIR BUILDPREFIX TREE}
build=${2:?}
tree=${3:?}
for f in off-bench off-bench2 unpatched-bench on-bench; do
	[ -f "$logs/$f.out" ] || { echo "bench-report: $logs/$f.out is missing (make bench)" >&2; exit 1; }
done
rc=0
cat "$logs/off-bench.out" "$logs/off-bench2.out" "$logs/unpatched-bench.out" "$logs/on-bench.out" | tr -d '\r' | awk '
	$1 == "bench" { ns[$2 " " $3 " " $4] = $5; seen[$3 " " $4] = 1 }
	$1 == "recsize" && $2 == "event" { rec[$3 " " $4] = $5 }
	$1 == "events" { evs[$2 " " $3 " " $4] = $5 }
	$1 == "ops" { ops[$2] = $3 }
	$1 == "traced" { traced[$2] = $3 }
	$1 == "bench" && $3 == "failed:" { print; bad = 1 }
	$1 == "verifier" && $3 == "failed:" { print; bad = 1 }
	$1 == "verifier" && $3 != "failed:" { vns[$3 " " $4] = $5 }
	function met(ok) { return ok ? "met" : "NOT MET" }
	# (b)-(a) = x against a target of <= 2 and its row'"'"'s floor fl: inside
	# the floor it says nothing; below it, it is unexplained
	function floor_verdict(x, fl) {
		if (fl > 0 && x >= -fl && x <= fl) return "within the noise floor: no figure"
		if (x < -fl) return "NOT MET: below the floor, unexplained"
		return met(x <= 2)
	}
	END {
		print "Guest instructions per syscall (qemu -icount shift=0: one guest ns each),"
		print "array map, one element:"
		print ""
		printf "%-7s %6s %8s %8s %8s %8s %8s %8s %8s\n", "op", "value", "(a)off", "(b)on", \
			"(c)event", "(d)kprobe", "(b)-(a)", "(c)-(b)", "(d)-(b)"
		n = split("lookup 8,update 8,lookup 65536,update 65536", rows, ",")
		for (i = 1; i <= n; i++) {
			r = rows[i]
			if (!(r in seen)) { print "missing figures for " r; bad = 1; continue }
			a = ns["off " r]; b = ns["disabled " r]; c = ns["event " r]; d = ns["kprobe " r]
			split(r, f, " ")
			printf "%-7s %6s %8d %8d %8d %8d %8d %8d %8d\n", f[1], f[2], a, b, c, d, b - a, c - b, d - b
			ba[r] = b - a; cb[r] = c - b; db[r] = d - b
		}
		print ""
		print "Controls: the noise floor, read before any figure above. The off kernel"
		print "booted twice, and the unpatched kernel (the walk'"'"'s baseline) against off:"
		print ""
		printf "%-7s %6s %8s %8s %8s %12s %14s\n", "op", "value", "off", "off again", "unpatched", \
			"again - off", "unpatched - off"
		for (i = 1; i <= n; i++) {
			r = rows[i]
			a = ns["off " r]; a2 = ns["off2 " r]; u = ns["unpatched " r]
			if (a2 == "" || u == "") { print "missing control figures for " r; bad = 1; continue }
			split(r, f, " ")
			printf "%-7s %6s %8d %8d %8d %12d %14d\n", f[1], f[2], a, a2, u, a2 - a, u - a
			fl = a2 - a; if (fl < 0) fl = -fl
			fu = u - a; if (fu < 0) fu = -fu
			floor_of[r] = fl > fu ? fl : fu
		}
		print ""
		print "Our events beside the kernel'"'"'s own on the same loop (on kernel), per event:"
		print "(c) the two bpf events; (c'"'"') the same with a filter that rejects every"
		print "record (common_pid == 0); kmem:kmalloc, kmem:kfree alone (events/syscall)"
		print ""
		printf "%-7s %6s %8s %9s %9s %9s %7s %7s\n", "op", "value", "(c)-(b)", "(c'"'"')-(b)", \
			"kmalloc", "kfree", "c/kmal", "c/kfree"
		for (i = 1; i <= n; i++) {
			r = rows[i]
			b = ns["disabled " r]; c = ns["event " r]; cf = ns["event-filtered " r]
			km = ns["kmalloc " r]; kf = ns["kfree " r]
			nkm = evs["kmalloc " r]; nkf = evs["kfree " r]
			if (cf == "" || km == "" || kf == "" || !nkm || !nkf || km == b || kf == b) {
				print "missing kmem figures for " r; bad = 1; continue
			}
			pkm = (km - b) / nkm; pkf = (kf - b) / nkf
			split(r, f, " ")
			printf "%-7s %6s %8d %9d %5d (%.2fx) %5d (%.2fx) %7.2f %7.2f\n", f[1], f[2], c - b, cf - b, \
				pkm, nkm, pkf, nkf, (c - b) / pkm, (c - b) / pkf
		}
		print ""
		print "What users would pick instead, on the same loop (on kernel, events disabled):"
		print "(e) strace -e trace=bpf, bpftrace on (f) kprobe:__sys_bpf, (g) the two events"
		print ""
		printf "%-7s %6s %8s %8s %8s %8s %8s %8s\n", "op", "value", "(e)strace", "(f)bt-kp", \
			"(g)bt-ev", "(e)-(b)", "(f)-(b)", "(g)-(b)"
		for (i = 1; i <= n; i++) {
			r = rows[i]
			b = ns["disabled " r]; st = ns["strace " r]; bk = ns["bpftrace-kprobe " r]
			be = ns["bpftrace-event " r]
			if (st == "" || bk == "" || be == "") { print "missing client figures for " r; bad = 1; continue }
			split(r, x, " ")
			printf "%-7s %6s %8d %8d %8d %8d %8d %8d\n", x[1], x[2], st, bk, be, st - b, bk - b, be - b
		}
		# a probe that missed commands measured less than it claims
		split("bpftrace-kprobe bpftrace-event", tracers, " ")
		for (t = 1; t <= 2; t++) {
			l = tracers[t]
			ok = traced[l] != "" && traced[l] >= ops[l]
			printf "  %s counted %s of the %s lookups and updates: %s\n", l, \
				traced[l] == "" ? "nothing" : traced[l], ops[l], ok ? "all" : "NOT ALL"
			if (!ok) bad = 1
		}
		print ""
		print "Targets, (b)-(a) against the noise floor of its row (the larger of the"
		print "controls'"'"' differences: two boots of one kernel, two kernels alike): a"
		print "difference inside the floor says nothing, one below it is no saving but"
		print "a figure unexplained; (c) and (d) are measured on (b)'"'"'s boot, no floor:"
		for (i = 1; i <= n; i++) {
			r = rows[i]
			fl = floor_of[r]
			printf "  %-13s (b)-(a) = %4d <= 2, floor %d: %s;  (c)-(b) = %4d <= 600: %s;  (c)-(b) < (d)-(b) = %d: %s\n", \
				r, ba[r], fl, floor_verdict(ba[r], fl), cb[r], met(cb[r] <= 600), db[r], met(cb[r] < db[r])
		}
		for (op = 1; op <= 2; op++) {
			o = op == 1 ? "lookup" : "update"
			small = cb[o " 8"]; large = cb[o " 65536"]
			diff = small ? (large - small) * 100 / small : 0
			printf "  %s: (c)-(b) 8 B = %d, 64 KiB = %d, %+.1f%%: within 5%%: %s\n", \
				o, small, large, diff, met(diff <= 5 && diff >= -5)
		}
		print ""
		print "Recorded size of one event, 4 byte key (ring buffer bytes / entries):"
		for (op = 1; op <= 2; op++) {
			o = op == 1 ? "lookup" : "update"
			# the 64 KiB value is cut to 16 bytes: 8 more than the 8 byte one
			printf "  bpf_map_%s_elem: 8 B value %d bytes, 64 KiB value %d bytes: cut at 16 B: %s\n", o, \
				rec[o " 8"], rec[o " 65536"], met(rec[o " 65536"] - rec[o " 8"] == 8)
		}
		print ""
		print "Keeping the verifier'"'"'s words (on kernel, bpf_cmd_refused disabled and"
		print "enabled), guest instructions per load of 4000 instructions, no log:"
		for (k = 1; k <= 2; k++) {
			o = k == 1 ? "passed" : "refused"
			if (!((o " disabled") in vns) || !((o " enabled") in vns)) {
				print "missing verifier figures for " o; bad = 1; continue
			}
			printf "  %-7s %10d disabled %10d enabled %+8d\n", o, vns[o " disabled"], \
				vns[o " enabled"], vns[o " enabled"] - vns[o " disabled"]
		}
		exit bad
	}' || rc=$?

echo
events=$(grep -c '^\(TRACE_EVENT_BPF\|DEFINE_EVENT_BPF\)(' "$tree/include/trace/events/bpf.h")
total=$("$tree/scripts/bloat-o-meter" "$build-off/vmlinux" "$build-on/vmlinux" | sed -n 's/.*up\/down: \([0-9]*\)\/.*/\1/p')
echo "The on kernel against the off one (bloat-o-meter): +$total bytes for $events events, $((total / events)) per event"
size "$build-off/vmlinux" "$build-on/vmlinux" | sed 's/^/  /'
echo
echo "Rig times on this machine: last build of the on kernel $(cat "$build-on/build-seconds" 2>/dev/null || echo ?) s," \
	"of the off kernel $(cat "$build-off/build-seconds" 2>/dev/null || echo ?) s;" \
	"bench boots (icount) $(cat "$logs/off-bench.seconds") s and $(cat "$logs/on-bench.seconds") s"

# What a disabled site adds: the bpf(2) commands' code (inlined into
# __sys_bpf) in both kernels, addresses and displacements taken out, side
# by side. Each site of the on kernel is a static branch, a 2- or 5-byte
# NOP while the event is disabled (xchg %ax,%ax or nopl 0x0(%rax,%rax,1)),
# with its out-of-line code after it; around them, what the compiler's
# register allocation moved.
echo
fn=__sys_bpf
for k in off on; do
	objdump -d --no-show-raw-insn --disassemble="$fn" "$build-$k/vmlinux" |
		sed -n '/^ *[0-9a-f]*:/{s/^ *[0-9a-f]*:[[:space:]]*//; s/ *#.*//;
			s/0x[0-9a-f]\{6,\}/ADDR/g; s/[0-9a-f]\{16\}/ADDR/g;
			s/<\([^>+]*\)+0x[0-9a-f]*>/<\1+.>/g; p}' > "$logs/$fn.$k.s"
done
nops() { grep -cE '^(xchg +%ax,%ax|nopl +0x0\(%rax,%rax,1\))$' "$1" || true; }
echo "$fn: $(wc -l < "$logs/$fn.off.s") instructions off, $(wc -l < "$logs/$fn.on.s") on;" \
	"NOPs (static branches) $(nops "$logs/$fn.off.s") off, $(nops "$logs/$fn.on.s") on."
echo "What on adds (>) and changes (<), in order ($logs/$fn.{off,on}.s):"
diff "$logs/$fn.off.s" "$logs/$fn.on.s" | grep '^[<>]' | sed 's/^/  /' || true
# a figure missing or a probe that missed: the report says which, above
exit "$rc"
