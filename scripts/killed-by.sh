#!/bin/bash
# Which failure, if any, is the kill a mutant's header asks for (its
# "killed-by:" lines, any one of which will do)? A kill is named whole,
# never by a substring of another name:
#   not ok TEST          TEST failed (whole name), not by the harness's
#                        timeout
#   not ok TEST: TEXT    the same, and TEXT is in its diagnostics (a leak
#                        check's words, where the test can fail otherwise)
#   timeout TEST         TEST was ended by the harness's timeout
#   guest hung           the mutant's guest was killed at its timeout
#   kernel splat in the guest log[: TEXT]
#                        the boot failed on a splat (whose line has TEXT)
#   zero-cost: OBJ: SECTION
#                        the off object OBJ differs in SECTION
# A test that went missing, was skipped, or died unreported is never a
# kill: a hung or crashed guest reports none of its tests.
# FAILURES (stdin) are what mutants.sh gathered: results.sh's "RUN: not
# ok ..." lines, each followed by its diagnostics (tab-led), and
# compare-objs.sh's lines prefixed "zero-cost: ".
# Prints the failure that is the kill and exits 0; exits 1 when none is,
# 2 when a BY line is none of the forms above (--check BY...: only that).
# Usage: killed-by.sh [--check] BY... < FAILURES
set -euo pipefail

check_only=
if [ "${1:-}" = --check ]; then
	check_only=1
	shift
fi
[ $# -gt 0 ] || { echo "usage: killed-by.sh [--check] BY... < FAILURES" >&2; exit 2; }
for by in "$@"; do
	case $by in
	"not ok "[!\ ]*|"timeout "[!\ ]*|"guest hung"|"kernel splat in the guest log"|\
	"kernel splat in the guest log: "?*|"zero-cost: "?*": "?*) ;;
	*) echo "killed-by: a kill the rig cannot read: '$by'" >&2; exit 2 ;;
	esac
done
[ -z "$check_only" ] || exit 0

by_lines=$(printf '%s\n' "$@")
awk -v by_lines="$by_lines" '
	function fail_test(s,  t) {	# the test a "RUN: not ok TEST ..." line names
		t = s; sub(/^[^ ]*: not ok /, "", t); sub(/ .*/, "", t)
		return t
	}
	# a line that says a test was lost, not that it failed
	function lost(s) {
		return s ~ / is missing: the manifest lists it| is not in the manifest | skipped, the manifest says | skipped for another reason| planned, [0-9]+ reported| exited [0-9]+$|: not ok unexpected skip of /
	}
	/^\t/ { if (n) diag[n] = diag[n] "\n" substr($0, 2); next }
	{ line[++n] = $0; diag[n] = "" }
	END {
		nb = split(by_lines, by, "\n")
		for (b = 1; b <= nb; b++) {
			want = by[b]; text = ""
			for (i = 1; i <= n; i++) {
				s = line[i]
				if (want ~ /^(not ok|timeout) /) {
					kind = want ~ /^timeout / ? "timeout" : "fail"
					name = want; sub(/^(not ok|timeout) /, "", name)
					if (kind == "fail" && (c = index(name, ": "))) {
						text = substr(name, c + 2); name = substr(name, 1, c - 1)
					}
					if (s !~ /: not ok / || s ~ /: not ok boot / || lost(s) || fail_test(s) != name)
						continue
					timed_out = index(diag[i], "Test terminated by timeout") > 0
					if ((kind == "timeout") != timed_out)
						continue
					if (text != "" && !index(diag[i], text))
						continue
				} else if (want == "guest hung") {
					if (s !~ /: not ok boot [^ ]*: guest hung: /)
						continue
				} else if (want ~ /^kernel splat in the guest log/) {
					if (s !~ /: not ok boot [^ ]*: kernel splat in the guest log: /)
						continue
					text = want; sub(/^kernel splat in the guest log(: )?/, "", text)
					if (text != "" && !index(s, text))
						continue
				} else if (index(s, want ":") != 1)
					continue	# zero-cost: OBJ: SECTION, then ": ..."
				print s
				exit 0
			}
		}
		exit 1
	}'
