#!/bin/sh
# Extracts Debian's linux-source-KVER into a git tree and applies the series
# with git am. Reuses the tree only when it was made from the same package
# version and the same series; otherwise resets it to the pristine commit.
# Usage: prepare-tree.sh [--adopt] KVER PATCHDIR TREE
# --adopt records that the tree as it is holds the series (after the series
# was exported from it) instead of making the tree anew.
set -eu

adopt=
[ "${1:-}" != --adopt ] || { adopt=1; shift; }
kver=${1:?usage: prepare-tree.sh [--adopt] KVER PATCHDIR TREE}
patchdir=${2:?}
tree=${3:?}
tarball=/usr/src/linux-source-$kver.tar.xz

[ -f "$tarball" ] || { echo "prepare-tree: $tarball is missing (package linux-source-$kver)" >&2; exit 1; }
[ -f "$patchdir/series" ] || { echo "prepare-tree: $patchdir/series is missing" >&2; exit 1; }
pkgver=$(dpkg-query -W -f='${Version}' "linux-source-$kver" 2>/dev/null || echo unknown)

export GIT_COMMITTER_NAME=rig GIT_COMMITTER_EMAIL=rig@localhost
export GIT_AUTHOR_NAME=rig GIT_AUTHOR_EMAIL=rig@localhost
git_tree() { git -C "$tree" "$@"; }

# What the tree must be made of: the package version and every patch.
want=$(cd "$patchdir" && { echo "linux-source-$kver $pkgver"; grep -v '^#' series | xargs cat series; } | sha256sum | cut -d' ' -f1)
if [ -n "$adopt" ]; then
	echo "$want $(git_tree rev-parse HEAD)" > "$tree/.git/rig-stamp"
	exit 0
fi

# The stamp names the series and the commit it gave; a tree left at
# another commit (an interrupted bisect check) or edited is made anew.
if [ -f "$tree/.git/rig-stamp" ] &&
   [ "$(cat "$tree/.git/rig-stamp")" = "$want $(git_tree rev-parse HEAD)" ] &&
   [ -z "$(git_tree status --porcelain --untracked-files=no)" ]; then
	echo "prepare-tree: $tree is up to date (linux-source-$kver $pkgver + series)"
	exit 0
fi

# Never throw away work: commits or edits made in the tree since the rig
# applied the series must be exported (make export-series) first.
if [ -f "$tree/.git/rig-stamp" ]; then
	applied=$(cut -d' ' -f2 "$tree/.git/rig-stamp")
	if ! git_tree merge-base --is-ancestor HEAD "$applied" 2>/dev/null ||
	   [ -n "$(git_tree status --porcelain --untracked-files=no)" ]; then
		echo "prepare-tree: $tree has commits or changes that are not in $patchdir:" >&2
		git_tree log --oneline "$applied..HEAD" >&2 || true
		git_tree status --short --untracked-files=no >&2
		echo "prepare-tree: export them (make export-series) or discard them, then run again" >&2
		exit 1
	fi
fi

if [ -f "$tree/.git/rig-base" ] && [ "$(cat "$tree/.git/rig-base")" = "$pkgver" ]; then
	echo "prepare-tree: resetting $tree to pristine linux-source-$kver $pkgver"
	git_tree am --abort >/dev/null 2>&1 || true
	git_tree reset -q --hard base
	git_tree clean -q -fdx
else
	echo "prepare-tree: extracting $tarball ($pkgver)"
	rm -rf "$tree" "$tree.tmp"
	mkdir -p "$tree.tmp"
	tar -C "$tree.tmp" -xJf "$tarball"
	mv "$tree.tmp/linux-source-$kver" "$tree"
	rmdir "$tree.tmp"
	git_tree init -q
	# Objects stored as they are: zlib is most of git add's time (6.12:
	# 18 s, 28 s compressed). And no automatic gc: the commit below would
	# start one in the background, which packs the 80,000 objects again
	# (6.12: 88 s of CPU, beside the steps that follow). .git takes
	# 1.6 GiB where it took 0.3 once packed.
	git_tree config core.looseCompression 0
	git_tree config gc.auto 0
	# Debian's top-level .gitignore ignores everything: add by force.
	git_tree add -f -A .
	git_tree commit -q -m "linux-source-$kver $pkgver"
	git_tree tag base
	echo "$pkgver" > "$tree/.git/rig-base"
fi

kernelversion=$(make -s -C "$tree" kernelversion)
# Until the whole series is in, the stamp names the last commit the rig
# made ("applying COMMIT"): a run after a failed or interrupted apply may
# reset that much, but never a commit or edit the developer made since.
applying() { echo "applying $(git_tree rev-parse HEAD)" > "$tree/.git/rig-stamp"; }
applying
for patch in $(grep -v '^#' "$patchdir/series"); do
	if ! log=$(git_tree am "$(cd "$patchdir" && pwd)/$patch" 2>&1); then
		echo "$log" >&2
		git_tree am --abort >/dev/null 2>&1 || true
		git_tree reset -q --hard base
		applying
		echo "prepare-tree: $patch does not apply to linux-source-$kver $pkgver ($kernelversion)" >&2
		exit 1
	fi
	echo "prepare-tree: applied $patch"
	applying
done
echo "$want $(git_tree rev-parse HEAD)" > "$tree/.git/rig-stamp"
echo "prepare-tree: $tree is linux-source-$kver $pkgver ($kernelversion) + $(grep -vc '^#' "$patchdir/series") patches"
