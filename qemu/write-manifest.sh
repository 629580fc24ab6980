#!/bin/sh
# Writes the manifest qemu/results.sh checks runs against (MANIFEST=):
# every test each guest run reported, as "RUN ok TEST" or "RUN skip TEST
# REASON" (the reason word for word), from the runs' logs. Refuses when
# a run failed: a manifest records what passes. Against the manifest it
# replaces (OLD), it refuses too, listing them, when a skip is new or
# gives another reason, or a test OLD lists is gone from the runs: each
# is a change to what the rig proves, and MANIFEST_ACCEPT=1 says it was
# read and meant.
# Usage: write-manifest.sh OLD NAME=FILE... > qemu/manifest
set -eu

here=$(dirname "$0")
old=${1:?usage: write-manifest.sh OLD NAME=FILE...}
shift
verdict=$(MANIFEST='' "$here/results.sh" "$@" || true)
failed=$(echo "$verdict" | grep ': not ok ' | grep -v ': not ok unexpected skip of ' || true)
if [ -n "$failed" ]; then
	echo "write-manifest: runs that failed make no manifest:" >&2
	echo "$failed" | sed 's/^/  /' >&2
	exit 1
fi
new=$(echo "$verdict" | awk '
	# "RUN: ok TEST", "RUN: skip TEST (REASON)", "RUN: not ok unexpected skip of TEST (REASON)"
	function reason(s) { s = substr(s, index(s, "(") + 1); sub(/\)$/, "", s); return s }
	{ run = $1; sub(/:$/, "", run) }
	$2 == "ok" { print run, "ok", $3 }
	function skip(test, why) { print run " skip " test (why == "" ? "" : " " why) }
	$2 == "skip" { skip($3, reason($0)) }
	$2 == "not" && $3 == "ok" && $4 == "unexpected" { skip($7, reason($0)) }' |
	sort -u)
# what changed against OLD: new or other skips, and tests gone
runs=$(echo "$new" | awk '{ print $1 }' | sort -u)
old_lines=$(grep -v '^#' "$old" 2>/dev/null | grep . || true)
changes=$(printf '%s\n' "$old_lines" | grep . | awk -v runs="$runs" -v new="$new" '
	BEGIN {
		n = split(runs, r, "\n"); for (i = 1; i <= n; i++) ran[r[i]] = 1
		n = split(new, l, "\n")
		for (i = 1; i <= n; i++) { split(l[i], f, " "); now[f[1] " " f[3]] = l[i] }
	}
	{ was[$1 " " $3] = $0 }
	($1 in ran) && !(($1 " " $3) in now) { print "gone: " $0 }
	END {
		for (k in now) {
			split(now[k], f, " ")
			if (f[2] != "skip")
				continue
			if (!(k in was))
				print "skip: " now[k] "   (new)"
			else if (was[k] != now[k])
				print "skip: " now[k] "   (was: " was[k] ")"
		}
	}' | sort)
if [ -n "$changes" ] && [ "${MANIFEST_ACCEPT:-0}" != 1 ]; then
	echo "write-manifest: against $old, these change what the rig proves:" >&2
	echo "$changes" | sed 's/^/  /' >&2
	echo "write-manifest: read them; MANIFEST_ACCEPT=1 writes the manifest all the same" >&2
	exit 1
fi
echo "# The tests each guest run must report, and how (written by"
echo "# qemu/write-manifest.sh: make manifest). qemu/results.sh fails a run"
echo "# that reports a test not listed, leaves one out (in any of the suite's"
echo "# runs), skips one listed as ok (and the other way round), or skips one"
echo "# for another reason than the one listed. Skips, and why:"
echo "# 6.1 has no BPF_F_PATH_FD (Linux 6.5): obj_pin_get_map_path_fd."
echo "# 6.1 has no tcx or sockmap links (Linux 6.6, 6.10): link_targets_tcx_sockmap."
echo "# Only 6.12's debug kernel has BTF (defconfigs/btf): the typed clients and"
echo "# fentry skip on the others. Debian 12's bpftrace 0.17 has no rawtracepoint."
echo "$new"
# the runs not given keep their lines (make manifest TREES=6.12, say)
printf '%s\n' "$old_lines" | grep . | awk -v runs="$runs" '
	BEGIN { n = split(runs, r, "\n"); for (i = 1; i <= n; i++) ran[r[i]] = 1 }
	!($1 in ran)'
