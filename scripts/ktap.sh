# KTAP helpers for the host-side checks; sourced, not run.
# Each check script prints "KTAP version 1" and its plan, then one line
# per check through these, and ends with ktap_status.

ktap_n=0
ktap_failed=0

# result OK|FAIL NAME [DIAGNOSTIC]: one numbered result, the diagnostic
# (if any) before it as "# " lines
result() {
	ktap_n=$((ktap_n + 1))
	[ -z "${3:-}" ] || printf '%s\n' "$3" | sed 's/^/# /'
	if [ "$1" = OK ]; then
		echo "ok $ktap_n $2"
	else
		ktap_failed=$((ktap_failed + 1))
		echo "not ok $ktap_n $2"
	fi
}

# ktap_status: fails if a result did (call it last: the script's status,
# so that a check run alone fails; make test reads the KTAP instead)
ktap_status() {
	[ "$ktap_failed" -eq 0 ]
}

# check NAME WANT GOT: ok when GOT is WANT, else both as the diagnostic
check() {
	if [ "$2" = "$3" ]; then result OK "$1"; else result FAIL "$1" "want: $2
got:  $3"; fi
}
