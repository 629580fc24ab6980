#!/bin/bash
# Starts a new kernel build dir as a copy of another one's, so that its
# first build compiles only what differs (a fresh dir is a full build:
# ccache misses every object whose autoconf.h differs). objtool's build
# records absolute paths, and every object depends on objtool: they are
# rewritten, or objtool and then everything rebuilds.
# Does nothing when TO has a config already or FROM has no vmlinux.
# Usage: seed-build.sh FROM TO
set -euo pipefail

from=${1:?usage: seed-build.sh FROM TO}
to=${2:?}
[ ! -f "$to/.config" ] && [ -f "$from/vmlinux" ] || exit 0
# copied beside TO and moved in once whole: an interrupted copy leaves
# no TO that looks seeded
rm -rf "$to" "$to.seeding"
cp -a "$from" "$to.seeding"
# physical paths: those make (and so objtool's build) recorded
from=$(cd "$from" && pwd -P)
to=$(cd "$(dirname "$to")" && pwd -P)/$(basename "$to")
{ grep -rlI --null -F "$from" "$to.seeding/tools" || true; } | xargs -0 -r sed -i "s|$from|$to|g"
rm -f "$to.seeding/.build-rig"
mv "$to.seeding" "$to"
echo "seed-build: $to seeded from $from" >&2
