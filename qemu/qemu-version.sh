#!/bin/sh
# A QEMU's version ("10.0.2"), and whether its multi-threaded TCG has the
# fix of 8.1 for the stale int3s of live code patching (docs/int3-oops.md):
# prints the version and exits 0 from 8.1 on, 1 before it, 2 when QEMU
# does not run or is not QEMU (nothing printed).
# Usage: qemu-version.sh QEMU
set -eu

qemu=${1:?usage: qemu-version.sh QEMU}
# "10.0.2" of "QEMU emulator version 10.0.2 (Debian ...)"
version=$("$qemu" --version 2>/dev/null | sed -n '1s/^QEMU emulator version \([0-9][0-9.]*\).*/\1/p')
[ -n "$version" ] || exit 2
echo "$version"
major=${version%%.*} minor=${version#*.}
minor=${minor%%.*}
[ "$major" -gt 8 ] || { [ "$major" = 8 ] && [ "$minor" -ge 1 ]; }
