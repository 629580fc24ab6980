#!/bin/sh
# Host-side checks of the patch series, printed as KTAP: the series file
# names every patch, each patch is checkpatch --strict clean and signed
# off, and the top-level Kconfig.debug is byte for byte the one the series
# adds (kernel/bpf/Kconfig.debug in the patched tree), as the top-level
# selftests/bpf_tracepoints/ is tools/testing/selftests/bpf_tracepoints/.
# The only checkpatch findings allowed are the cover letter's
# "  allow: TYPE FILE" lines (FILE "-" for findings without a file), each
# of which the cover letter explains.
# Usage: check-series.sh PATCHDIR TREE KCONFIG
set -eu

patchdir=$(cd "${1:?usage: check-series.sh PATCHDIR TREE KCONFIG}" && pwd)
tree=${2:?}
kconfig=${3:?}
patches=$(grep -v '^#' "$patchdir/series")
. "$(dirname "$0")/ktap.sh"

echo "KTAP version 1"
echo "1..$(($(echo "$patches" | wc -l) * 2 + 3))"

listed=$(echo "$patches" | sort)
present=$(cd "$patchdir" && ls [0-9]*.patch | grep -v '^0000-' | sort)
if [ "$listed" = "$present" ]; then
	result OK "series lists every patch"
else
	result FAIL "series lists every patch" "$(printf 'series:\n%s\nfiles:\n%s' "$listed" "$present")"
fi

allowed=$(sed -n 's/^  allow: \([A-Z0-9_]* [^ ]*\)$/\1/p' "$patchdir/0000-cover-letter.patch" 2>/dev/null)

# "TYPE FILE" for each finding in checkpatch's (non-terse) output
findings() {
	awk '/^(ERROR|WARNING|CHECK):[A-Z0-9_]+:/ {
		if (type != "") print type, file
		split($0, f, ":"); type = f[2]; file = "-"; head = 1; next
	}
	head && /^#[0-9]+: FILE: / { file = $3; sub(/:.*/, "", file) }
	{ head = 0 }
	END { if (type != "") print type, file }'
}

for p in $patches; do
	# spdxcheck.py runs on "env python3": Debian's, which has python3-ply
	log=$(cd "$tree" && PATH=/usr/bin:$PATH perl scripts/checkpatch.pl --strict --show-types "$patchdir/$p" 2>&1) || true
	bad=$(echo "$log" | findings | while read -r finding; do
		echo "$allowed" | grep -qxF "$finding" || echo "$finding"
	done)
	# a checker that crashed (spdxcheck without python3-ply) is no pass
	if [ -z "$bad" ] && echo "$log" | grep -q '^total: ' && ! echo "$log" | grep -q Traceback; then
		result OK "checkpatch --strict $p"
	else
		result FAIL "checkpatch --strict $p" "$(echo "$bad" | sed 's/^/not allowed: /'; echo "$log")"
	fi
	if grep -q '^Signed-off-by: .* <.*@.*>$' "$patchdir/$p"; then
		result OK "signed off $p"
	else
		result FAIL "signed off $p"
	fi
done

if git -C "$tree" show HEAD:kernel/bpf/Kconfig.debug 2>/dev/null | cmp -s - "$kconfig"; then
	result OK "Kconfig.debug matches the series"
else
	result FAIL "Kconfig.debug matches the series" \
		"$kconfig differs from kernel/bpf/Kconfig.debug in the series: run 'make regen-kconfig-patch'"
fi

selftests=$(dirname "$0")/../selftests/bpf_tracepoints
if why=$("$(dirname "$0")/check-selftest-copy.sh" "$tree" "$selftests"); then
	result OK "selftests/bpf_tracepoints/ matches the series"
else
	result FAIL "selftests/bpf_tracepoints/ matches the series" \
		"$why
run 'make regen-selftest-patch'"
fi
ktap_status
