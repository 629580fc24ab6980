#!/bin/sh
# Runs a host-side check whose KTAP depends only on its inputs, or reuses
# what it printed last time the inputs were the same. Only a clean result
# is kept (exit 0, its plan met, no failure, no skip): any other runs again.
# Usage: cached.sh CACHEDIR NAME OUTFILE "INPUT..." COMMAND...
# (INPUT: files or directories; their paths and contents make the key)
# Exits with the command's status (0 for a kept result).
set -eu

cachedir=${1:?usage: cached.sh CACHEDIR NAME OUTFILE "INPUT..." COMMAND...}
name=${2:?} outfile=${3:?} inputs=${4:?}
shift 4
# shellcheck disable=SC2086
key=$(find $inputs -type f -print0 | sort -z | xargs -0 sha256sum | sha256sum | cut -c1-16)
kept=$cachedir/$name-$key.out
mkdir -p "$cachedir"
if [ -f "$kept" ]; then
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
