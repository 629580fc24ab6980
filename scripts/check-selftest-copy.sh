#!/bin/sh
# Whether COMMIT (default HEAD) of TREE carries SELFTESTDIR byte for byte
# as tools/testing/selftests/bpf_tracepoints/: the same files, the same
# contents. Names what differs; exits 1 then.
# Usage: check-selftest-copy.sh TREE SELFTESTDIR [COMMIT]
set -eu

tree=${1:?usage: check-selftest-copy.sh TREE SELFTESTDIR [COMMIT]}
src=${2:?}
commit=${3:-HEAD}
dir=tools/testing/selftests/bpf_tracepoints

in_series=$(git -C "$tree" ls-tree -r --name-only "$commit" -- "$dir/" | sed "s|^$dir/||" | sort)
in_repo=$(cd "$src" && find . -type f | sed 's|^\./||' | sort)
bad=0
for f in $(printf '%s\n%s\n' "$in_series" "$in_repo" | sort -u); do
	if ! echo "$in_series" | grep -qxF "$f"; then
		echo "not in the series: $f"
	elif ! echo "$in_repo" | grep -qxF "$f"; then
		echo "only in the series: $f"
	elif ! git -C "$tree" show "$commit:$dir/$f" | cmp -s - "$src/$f"; then
		echo "differs: $f"
	else
		continue
	fi
	bad=1
done
[ -n "$in_series" ] || { echo "the series has no $dir"; bad=1; }
exit "$bad"
