#!/bin/sh
# Runs a host-side check whose KTAP depends only on its inputs, or reuses
# what it printed last time the inputs were the same. Only a clean result
# is kept (exit 0, its plan met, no failure, no skip): any other runs again.
# The key is the inputs' paths and contents and the versions of the tools
# the checks run (gcc, ld, sparse, Sphinx, QEMU, pahole, clang): a new
# tool checks again. An input that is missing is an error, never a
# smaller key.
# CACHED_RERUN=1 runs the command all the same (and keeps a clean result).
# Usage: cached.sh CACHEDIR NAME OUTFILE "INPUT..." COMMAND...
# (INPUT: files or directories)
# Exits with the command's status (0 for a kept result), 2 for a missing
# input.
set -eu

cachedir=${1:?usage: cached.sh CACHEDIR NAME OUTFILE "INPUT..." COMMAND...}
name=${2:?} outfile=${3:?} inputs=${4:?}
shift 4
for input in $inputs; do
	[ -e "$input" ] && continue
	echo "cached: $name: input $input is missing: no key" >&2
	printf 'KTAP version 1\n1..1\nnot ok 1 %s: input %s is missing (no cache key)\n' \
		"$name" "$input" > "$outfile"
	exit 2
done
# a tool that is not installed is keyed as such (its check then fails)
tools() {
	for tool in gcc ld sparse sphinx-build qemu-system-x86_64 pahole clang; do
		if command -v "$tool" >/dev/null; then
			echo "$tool: $("$tool" --version 2>&1 | head -1)"
		else
			echo "$tool: missing"
		fi
	done
}
# shellcheck disable=SC2086
key=$({ find $inputs -type f -print0 | sort -z | xargs -0 sha256sum; tools; } |
	sha256sum | cut -c1-16)
kept=$cachedir/$name-$key.out
mkdir -p "$cachedir"
if [ -f "$kept" ] && [ "${CACHED_RERUN:-0}" != 1 ]; then
	{ echo "# cached: the inputs are those of an earlier run (key $key)"; cat "$kept"; } > "$outfile"
	echo "cached: $name: unchanged inputs, result of an earlier run (key $key)" >&2
	exit 0
fi
rc=0
"$@" > "$outfile" || rc=$?
# the plan's count against the results printed, and nothing skipped
awk '/^1\.\.[0-9]+/ { plan += substr($1, 4) }
     /^ok [0-9]+ / { ok++ }
     /^not ok / || /^ok .*# *[Ss][Kk][Ii][Pp]/ { bad++ }
     END { exit !(plan > 0 && ok == plan && !bad) }' "$outfile" && [ "$rc" = 0 ] && cp "$outfile" "$kept"
exit "$rc"
