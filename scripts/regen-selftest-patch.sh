#!/bin/sh
# Regenerates the patch that adds tools/testing/selftests/bpf_tracepoints/
# from the top-level selftests/bpf_tracepoints/, the one place the tests are
# edited: rewrites the directory in the commit that adds it (the later
# commits are replayed on top) and exports the series again.
# Usage: regen-selftest-patch.sh TREE PATCHDIR SELFTESTDIR
set -eu

tree=${1:?usage: regen-selftest-patch.sh TREE PATCHDIR SELFTESTDIR}
patchdir=${2:?}
src=$(cd "${3:?}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
dir=tools/testing/selftests/bpf_tracepoints
export GIT_COMMITTER_NAME=rig GIT_COMMITTER_EMAIL=rig@localhost

commit=$(git -C "$tree" log --format=%H --diff-filter=A base..HEAD -- "$dir/Makefile")
[ -n "$commit" ] || { echo "regen-selftest-patch: no commit adds $dir" >&2; exit 1; }
if "$here/check-selftest-copy.sh" "$tree" "$src" "$commit" >/dev/null; then
	echo "regen-selftest-patch: the series already carries $src"
	exit 0
fi
short=$(echo "$commit" | cut -c1-7)
GIT_SEQUENCE_EDITOR="sed -i 's/^pick $short/edit $short/'" git -C "$tree" rebase -q -i base
rm -rf "${tree:?}/$dir"
cp -r "$src" "$tree/$dir"
# Debian's top-level .gitignore ignores everything: add by force
git -C "$tree" add -f -A "$dir"
git -C "$tree" commit -q --amend --no-edit
git -C "$tree" rebase --continue >/dev/null
"$here/export-series.sh" "$tree" "$patchdir"
