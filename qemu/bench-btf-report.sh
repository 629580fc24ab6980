#!/bin/bash
# make bench-btf's report: guest instructions per 8-byte lookup and update
# on the BTF kernel, each way of seeing them against nothing at all (the
# events built but disabled), and the check that every row is there and
# each tracer attached and counted every command the loop issued.
# Usage: bench-btf-report.sh BENCH_OUT AUDIT_BENCH_OUT
set -euo pipefail

bench=${1:?usage: bench-btf-report.sh BENCH_OUT AUDIT_BENCH_OUT}
audit=${2:?usage: bench-btf-report.sh BENCH_OUT AUDIT_BENCH_OUT}

# the rows, in the order docs/alternatives.md reads them; the tracers
# among them (each prints a "traced" count)
rows="disabled event event-filtered kmalloc kfree kprobe strace bpftrace-kprobe bpftrace-event
      bpftrace-fentry bpftrace-fexit fprobe syscalls bpf-lsm raw-tp audit"
tracers="bpftrace-kprobe bpftrace-event bpftrace-fentry bpftrace-fexit bpf-lsm raw-tp"

grep -E '^(bench|traced) ' "$bench" "$audit" | sed 's/^[^:]*://'
echo
awk -v rows="$rows" -v tracers="$tracers" '
	/^bench .* failed/ { bad = 1; print "bench-btf: " $0; next }
	/^bench / && NF == 5 && $4 == 8 { ns[$2 " " $3] = $5 }
	/^ops / { ops[$2] = $3 }
	/^traced / { counted[$2] = $3 }
	END {
		n = split(rows, row, " ")
		for (i = 1; i <= n; i++)
			for (j = 0; j < 2; j++) {
				op = j ? "update" : "lookup"
				if (!((row[i] " " op) in ns)) { bad = 1; print "bench-btf: no " op " figure for " row[i] }
			}
		m = split(tracers, tracer, " ")
		for (i = 1; i <= m; i++) {
			t = tracer[i]
			if (!(t in ops) || !(t in counted) || counted[t] + 0 < ops[t] + 0 || ops[t] + 0 == 0) {
				bad = 1
				print "bench-btf: " t " counted " (t in counted ? counted[t] : "nothing") " of " (t in ops ? ops[t] : "no") " commands"
			}
		}
		if (bad)
			exit 1
		printf "%-16s %8s %8s %8s %8s\n", "8-byte value", "lookup", "update", "-nothing", "-nothing"
		for (i = 1; i <= n; i++) {
			l = row[i]
			printf "%-16s %8d %8d %8d %8d\n", l, ns[l " lookup"], ns[l " update"],
				ns[l " lookup"] - ns["disabled lookup"], ns[l " update"] - ns["disabled update"]
		}
	}' "$bench" "$audit"
