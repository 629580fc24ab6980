#!/bin/sh
# Writes the commits on top of the pristine tree (base..HEAD) back into the
# series: one git format-patch file per commit, and the series file.
# The hand-written cover letter (0000-cover-letter.patch) is kept.
# Usage: export-series.sh TREE PATCHDIR
set -eu

tree=${1:?usage: export-series.sh TREE PATCHDIR}
patchdir=$(cd "${2:?}" && pwd)

find "$patchdir" -maxdepth 1 -name '[0-9]*.patch' ! -name '0000-*' -delete
# The patches carry the cover letter's subject prefix ("PATCH 6.1").
prefix=$(sed -n 's/^Subject: \[\(.*\) 0\/[0-9]*\].*/\1/p' "$patchdir/0000-cover-letter.patch" 2>/dev/null)
# the abbreviation the series has always had (git picks by object count)
git -C "$tree" -c core.abbrev=9 format-patch -q --no-signature --zero-commit --subject-prefix="${prefix:-PATCH}" \
	-o "$patchdir" base..HEAD
(cd "$patchdir" && ls [0-9]*.patch | grep -v '^0000-') > "$patchdir/series"
echo "export-series: $(wc -l < "$patchdir/series") patches written to $patchdir"
