#!/bin/sh
# Collects the KTAP results of every run given (guests and host checks),
# prints one line per test, the failures again (each with the last
# DIAG_LINES lines its test printed, so that a CI log's tail says why),
# and the closing line "N passed, N failed[, N skipped]". Exits non-zero on any failure, on a
# test binary that died or exited non-zero, on a plan not met, or on a
# run with no results.
# With MANIFEST=FILE ("RUN ok|skip TEST" lines, # comments; RUN as named
# here, TREE/KERNEL), every run the manifest names must report exactly
# the tests it lists, each as listed: a test missing (deleted, renamed,
# or never reached), a test it does not list, a skip where it says ok or
# an ok where it says skip, each fails. A program that skips whole
# ("1..0 # SKIP") is a skip of the program's name. In a run the manifest
# does not name, any skip fails: the rig knows which tests its kernels
# skip, and any other skip hides something (the on kernel reporting off,
# a tool that went missing). `make manifest` writes it from a run's logs.
# Usage: [MANIFEST=FILE] results.sh NAME=FILE...
set -eu
: "${DIAG_LINES:=12}"
: "${MANIFEST:=}"
[ -z "$MANIFEST" ] || [ -f "$MANIFEST" ] || { echo "results: no manifest $MANIFEST" >&2; exit 2; }

[ $# -gt 0 ] || { echo "usage: results.sh NAME=FILE..." >&2; exit 2; }

# run_kselftest.sh's TAP nests each program's KTAP under "# " and follows
# it with the program's own line ("ok 1 selftests: DIR: PROG", or "not ok
# ... # exit=RC" or "# TIMEOUT"). Unnested: the program's lines as it
# printed them, then "# rig: PROG exit=RC" (TIMEOUT 124, SKIP 4). Other
# files pass unchanged.
unnest() {
	awk '{ sub(/\r$/, ""); l[++n] = $0 } /^# selftests: / { ksft = 1 }
	END {
		for (i = 1; i <= n; i++) {
			s = l[i]
			if (!ksft) { print s; continue }
			if (s ~ /^TAP version / || s ~ /^1\.\.[0-9]+$/) continue
			if (s ~ /^(not )?ok [0-9]+ selftests: /) {
				prog = s
				sub(/^(not )?ok [0-9]+ selftests: [^:]*: /, "", prog)
				sub(/ .*/, "", prog)
				rc = 0
				if (s ~ /^not ok/) {
					rc = 1
					if (match(s, /exit=[0-9]+/)) rc = substr(s, RSTART + 5, RLENGTH - 5)
					if (s ~ /# *TIMEOUT/) rc = 124
				} else if (s ~ /# *[Ss][Kk][Ii][Pp]/) rc = 4
				print "# rig: " prog " exit=" rc
				continue
			}
			if (substr(s, 1, 2) == "# ") s = substr(s, 3)
			else if (s == "#") s = ""
			print s
		}
	}'
}

# the runs' names, for the manifest's check that each reported
given=
for run in "$@"; do
	given="$given ${run%%=*}"
done

for run in "$@"; do
	name=${run%%=*}
	file=${run#*=}
	[ -f "$file" ] || { echo "$name: not ok (no results: $file is missing)"; continue; }
	unnest < "$file" | awk -v name="$name" -v keep="$DIAG_LINES" '
		function flush() {
			if (plan >= 0 && seen < plan)
				printf "%s: not ok %d planned, %d reported (a test died?)\n", name, plan, seen
		}
		{ sub(/\r$/, "") }
		# 6.1'"'"'s harness prints "ok N # SKIP reason" without the name
		# what a test printed since the last result: its diagnostics
		function diag(	i) {
			for (i = (nd > keep ? nd - keep : 0) + 1; i <= nd; i++)
				printf "\t%s\n", substr(d[i], 1, 200)
		}
		/^# +RUN +/ { run = $3; nd = 0 }
		# a program of its own: nothing of the one before (its results,
		# its failures, its plan) may speak for it
		/^selftests: [^:]*: [^ ]+$/ { flush(); prog = $3; plan = -1; seen = 0; failed = 0; progskip = 0 }
		# init says how many times it runs the suite (twice, neighbour)
		# and says when each run ends: a run left out is a failure
		/^rig: suite runs [0-9]+$/ { runs_want = $4 + 0; printf "\001passes %s %d\n", name, runs_want }
		/^rig: run_kselftest\.sh took / { runs_done++ }
		/^#/ && !/^# +(RUN|OK|FAIL) / { d[++nd] = $0 }
		/^(K?TAP version)/ { flush(); plan = -1; seen = 0; failed = 0; blocks++; next }
		/^(not )?ok [0-9]+ / { results++ }
		/^1\.\.[0-9]+/ {
			plan = substr($1, 4) + 0
			# a program that skips whole: its name is the test
			if (plan == 0 && $0 ~ /# *[Ss][Kk][Ii][Pp]/) {
				reason = $0; sub(/.*# *[Ss][Kk][Ii][Pp] */, "", reason)
				printf "%s: skip %s (%s)\n", name, prog != "" ? prog : "(program)", reason
				progskip = 1
				results++
			}
			next
		}
		/^(not )?ok [0-9]+ / {
			seen++
			line = $0
			sub(/^(not )?ok [0-9]+ /, "", line)
			if ($1 == "not") {
				failed++
				printf "%s: not ok %s\n", name, line
				diag(); nd = 0
				next
			}
			nd = 0
			if (line ~ /# *[Ss][Kk][Ii][Pp]/) {
				test = line; sub(/ *# *[Ss][Kk][Ii][Pp].*/, "", test)
				if (test == "") test = run
				reason = line; sub(/.*# *[Ss][Kk][Ii][Pp] */, "", reason)
				printf "%s: skip %s (%s)\n", name, test, reason
				next
			}
			printf "%s: ok %s\n", name, line
			next
		}
		/^# rig: .* exit=[0-9]+$/ {
			code = $NF; sub(/exit=/, "", code)
			# a non-zero exit with no failed test means it died unreported
			if (code != 0 && code != 4 && !failed)
				printf "%s: not ok %s exited %s\n", name, $3, code
			# a skip (4) with no test reported and no "1..0 # SKIP":
			# the program skipped whole all the same
			if (code == 4 && !seen && !progskip) {
				printf "%s: skip %s (exit 4, nothing reported)\n", name, $3
				results++
			}
			progskip = 0
		}
		END {
			flush()
			if (!blocks) printf "%s: not ok (no KTAP in the results)\n", name
			# a header and nothing after it is no run that passed
			else if (!results) printf "%s: not ok (KTAP with no results)\n", name
			# init announces the count wherever it runs the suite:
			# without it, a run left out would go unseen
			if (runs_done && !runs_want)
				printf "%s: not ok the guest ran the suite %d times and never said how many it would\n", name, runs_done
			if (runs_want && runs_done != runs_want)
				printf "%s: not ok the suite ran %d of the %d times init announced\n", name, runs_done, runs_want
		}'
done | awk -v manifest="$MANIFEST" -v given="$given" '
	BEGIN {
		while (manifest != "" && (getline l < manifest) > 0) {
			sub(/\r$/, "", l)
			if (l ~ /^#/ || l == "")
				continue
			# "RUN ok TEST", or "RUN skip TEST REASON": the reason the
			# test gives, word for word (a skip for another reason is
			# another skip). A line the reader cannot take fails,
			# never drops out.
			n = split(l, f, " ")
			if (!(n == 3 && f[2] == "ok") && !(n >= 3 && f[2] == "skip")) {
				bad_manifest[++nbad] = l
				continue
			}
			key = f[1] " " f[3]
			want[key] = f[2]
			# (no reason after the name: the test gave none)
			if (f[2] == "skip") {
				r = l
				sub(/^[^ ]+ +skip +[^ ]+ */, "", r)
				want_reason[key] = r
			}
			covered[f[1]] = 1
		}
		split(given, g, " ")
	}
	# how many times a run ran the suite (results.sh itself, above)
	/^\001passes / { passes[$2] = $3; next }
	# a failure'"'"'s diagnostics (tab-led) are kept for the summary only
	/^\t/ { failed[fail] = failed[fail] "\n    " substr($0, 2); next }
	# "RUN: ok TEST" and "RUN: skip TEST (reason)" against the manifest
	$2 == "ok" || $2 == "skip" {
		run = $1; sub(/:$/, "", run)
		key = run " " $3
		reason = ""
		if ($2 == "skip") {
			reason = substr($0, index($0, "(") + 1)
			sub(/\)$/, "", reason)
		}
		if (run in covered) {
			count[key]++
			if (!(key in want))
				$0 = run ": not ok " $3 " is not in the manifest (it reported " $2 ")"
			else if (want[key] != $2)
				$0 = run ": not ok " $3 " " ($2 == "ok" ? "passed" : "skipped") ", the manifest says " want[key] \
					($2 == "skip" ? " (" reason ")" : "")
			else if ($2 == "skip" && reason != want_reason[key])
				$0 = run ": not ok " $3 " skipped for another reason: \"" reason "\", the manifest says \"" want_reason[key] "\""
		} else if ($2 == "skip")
			$0 = run ": not ok unexpected skip of " $3 " (" reason ")"
	}
	# a test that failed was reported all the same
	$2 == "not" && $3 == "ok" { run = $1; sub(/:$/, "", run); count[run " " $4]++ }
	{
		run = $1; sub(/:$/, "", run)
		# a kernel'"'"'s run the manifest knows nothing of would pass
		# whatever tests it lost
		if (manifest != "" && !(run in reported) && run ~ /\/(on|off|debug|on-neighbour)$/ && !(run in covered)) {
			print run ": not ok the manifest lists no tests for " run
			failed[++fail] = run ": not ok the manifest lists no tests for " run
		}
		reported[run] = 1
	}
	{ print }
	# the boots, and those QEMU'"'"'s stale int3 made boot once more
	# (qemu/boot.sh), with what their first boot had failed
	/: (not )?ok boot / { boots++ }
	/: (not )?ok boot .*; first boot: QEMU'"'"'s / {
		r = $0; sub(/.*; first boot: /, "", r)
		restale[++nre] = $1 " " r
	}
	/: ok / { pass++ }
	/: skip / { skip++ }
	/: not ok / { failed[++fail] = $0 }
	END {
		for (i = 1; i <= nbad; i++) {
			line = "manifest: not ok a line it cannot read: " bad_manifest[i]
			print line
			failed[++fail] = line
		}
		# a run given that the manifest covers and that reported
		# nothing at all (no line of its own) has lost every test
		for (i in g)
			if ((g[i] in covered) && !(g[i] in reported)) {
				line = g[i] ": not ok reported nothing: the manifest lists its tests"
				print line
				failed[++fail] = line
			}
		# what a run that reported anything left out, in any of its
		# passes (a run with no results at all has failed already)
		for (k in want) {
			split(k, f, " ")
			if (!(f[1] in reported))
				continue
			want_n = (f[1] in passes) ? passes[f[1]] : 1
			if (!(k in count))
				line = f[1] ": not ok " f[2] " is missing: the manifest lists it (" want[k] ")"
			else if (count[k] < want_n)
				line = f[1] ": not ok " f[2] " is missing from " want_n - count[k] " of the suite'"'"'s " want_n " runs"
			else
				continue
			print line
			failed[++fail] = line
		}
		if (boots)
			printf "QEMU'"'"'s stale int3: %d of %d boots booted once more\n", nre, boots
		for (i = 1; i <= nre; i++) print "  " restale[i]
		# the failures again, next to the verdict, where a log tail shows them
		if (fail) print "failures:"
		for (i = 1; i <= fail; i++) print "  " failed[i]
		line = sprintf("%d passed, %d failed", pass, fail)
		if (skip) line = line sprintf(", %d skipped", skip)
		print line
		exit fail ? 1 : 0
	}'
