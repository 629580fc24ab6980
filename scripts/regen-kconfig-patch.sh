#!/bin/sh
# Regenerates the patch that adds kernel/bpf/Kconfig.debug from the
# top-level Kconfig.debug: rewrites that file in the commit that adds it
# (the later commits are replayed on top) and exports the series again.
# Usage: regen-kconfig-patch.sh TREE PATCHDIR KCONFIG
set -eu

tree=${1:?usage: regen-kconfig-patch.sh TREE PATCHDIR KCONFIG}
patchdir=${2:?}
kconfig=$(cd "$(dirname "${3:?}")" && pwd)/$(basename "$3")
here=$(cd "$(dirname "$0")" && pwd)
export GIT_COMMITTER_NAME=rig GIT_COMMITTER_EMAIL=rig@localhost

commit=$(git -C "$tree" log --format=%H --diff-filter=A base..HEAD -- kernel/bpf/Kconfig.debug)
[ -n "$commit" ] || { echo "regen-kconfig-patch: no commit adds kernel/bpf/Kconfig.debug" >&2; exit 1; }
if git -C "$tree" show "$commit:kernel/bpf/Kconfig.debug" | cmp -s - "$kconfig"; then
	echo "regen-kconfig-patch: the series already carries $kconfig"
	exit 0
fi
# Mark that commit 'edit' and rewrite the file there; the rest replays.
GIT_SEQUENCE_EDITOR="sed -i 's/^pick ${commit%"${commit#???????}"}/edit ${commit%"${commit#???????}"}/'" \
	git -C "$tree" rebase -q -i base
cp "$kconfig" "$tree/kernel/bpf/Kconfig.debug"
git -C "$tree" commit -q --amend --no-edit kernel/bpf/Kconfig.debug
git -C "$tree" rebase --continue >/dev/null
"$here/export-series.sh" "$tree" "$patchdir"
