#!/bin/bash
# Reads KCSAN's reports in a guest's console log (make kcsan) and says
# which are in code the series adds: a report whose racing functions
# (its title, "data-race in A / B") include an event of the series
# (include/trace/events/bpf.h's, as the compiler names them) or a
# function the series changes (the hunks of its diff, and the functions
# it adds). Prints each distinct race once with its count, the series'
# first, then the first whole report of each of the series' races.
# Exits 1 when one is the series', 0 when none is.
# Usage: kcsan-report.sh CONSOLE-LOG TREE
set -euo pipefail

log=${1:?usage: kcsan-report.sh CONSOLE-LOG TREE}
tree=${2:?}

# the series' functions, one per line
events=$(sed -n 's/^\(TRACE_EVENT_BPF\|DECLARE_EVENT_CLASS_BPF\)(\([a-z_0-9]*\),$/\2/p; s/^DEFINE_EVENT_BPF([a-z_0-9]*, \([a-z_0-9]*\),$/\1/p' \
	"$tree/include/trace/events/bpf.h" | sort -u)
[ -n "$events" ] || { echo "kcsan-report: no events in $tree/include/trace/events/bpf.h" >&2; exit 2; }
ours=$({
	for e in $events; do
		for p in trace_event_raw_event_ perf_trace_ __bpf_trace_ trace_raw_output_ \
			 trace_event_get_offsets_ __traceiter_ trace_; do
			echo "$p$e"
		done
	done
	# the function around each hunk, and each function a hunk adds
	git -C "$tree" diff -U0 base..HEAD -- kernel include/linux net |
		sed -n 's/^@@ [^@]* @@ .*[ *]\([a-z_][a-z_0-9]*\)(.*/\1/p; s/^+[a-z].*[ *]\([a-z_][a-z_0-9]*\)(.*/\1/p'
} | sort -u)

# no report proves nothing from a kernel whose KCSAN did not run
if ! tr -d '\r' < "$log" | grep -q 'kcsan: enabled early'; then
	echo "kcsan-report: no 'kcsan: enabled early' in $log: KCSAN did not run" >&2
	exit 2
fi

# one line per report: its title, "A / B" or "A"
titles=$(sed 's/^\[[ 0-9.]*\] //' "$log" | tr -d '\r' | sed -n 's/^BUG: KCSAN: //p')
total=$(echo "$titles" | grep -c . || true)
series=
others=
while read -r n title; do
	[ -n "$title" ] || continue
	mine=
	for f in $(echo "$title" | sed 's/^[a-z-]* in //; s/ \/ / /g; s/+0x[0-9a-f/x]*//g'); do
		echo "$ours" | grep -qxF "$f" && mine=1
	done
	if [ -n "$mine" ]; then series="$series$n $title"$'\n'; else others="$others$n $title"$'\n'; fi
done < <(echo "$titles" | grep . | sort | uniq -c | sort -rn | sed 's/^ *//')

echo "kcsan: $total reports, $(echo -n "$series$others" | grep -c . || true) distinct races, $(echo -n "$series" | grep -c . || true) in the series' code ($(echo "$ours" | wc -l) functions)"
echo "kcsan: the series':"
echo -n "${series:-none
}" | sed 's/^/  /'
echo "kcsan: elsewhere in the kernel:"
echo -n "${others:-none
}" | sed 's/^/  /'
[ -n "$series" ] || exit 0
echo "kcsan: the first report of each of the series' races:"
echo -n "$series" | while read -r _ title; do
	sed 's/^\[[ 0-9.]*\] //' "$log" | tr -d '\r' |
		awk -v t="BUG: KCSAN: $title" '$0 == t { on = 1 } on { print "  " $0 } on && /^=+$/ { exit }'
done
exit 1
