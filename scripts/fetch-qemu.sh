#!/bin/bash
# Unpacks Debian's QEMU from bookworm-backports (qemu-system-x86, and
# qemu-system-data for its firmware) into DIR, beside the machine's own:
# bookworm's QEMU 7.2 has the multi-threaded TCG defect of
# docs/int3-oops.md, fixed in 8.1. Nothing is installed and nothing on the
# machine changes; 7.2 stays for the reproducer's control. The version is
# the one the apt lists offer (backports moves on: DIR/version says which
# one was unpacked, and a newer one replaces it). Nothing is fetched when
# DIR holds it already.
# Usage: fetch-qemu.sh DIR   (DIR/usr/bin/qemu-system-x86_64,
#        DIR/usr/share/qemu: qemu/boot.sh's QEMU and QEMU_DATA)
set -euo pipefail

dir=${1:?usage: fetch-qemu.sh DIR}
suite=bookworm-backports
min=1:8.1	# the first QEMU with the fix (docs/int3-oops.md)

want=$(apt-cache madison qemu-system-x86 2>/dev/null |
	awk -F' *[|] *' -v s="$suite/main" 'index($3, s) { print $2; exit }')
have=$(cat "$dir/version" 2>/dev/null || true)
if [ -z "$want" ]; then
	echo "fetch-qemu: no qemu-system-x86 of $suite in the apt lists: 'make deps' as root adds" >&2
	echo "fetch-qemu: the suite (scripts/deps.sh), or add it yourself and apt-get update" >&2
	[ -n "$have" ] && [ -x "$dir/usr/bin/qemu-system-x86_64" ] || exit 1
	echo "fetch-qemu: keeping the QEMU unpacked in $dir ($have)" >&2
	exit 0
fi
if ! dpkg --compare-versions "$want" ge "$min"; then
	echo "fetch-qemu: $suite offers qemu-system-x86 $want, older than $min (the MTTCG fix)" >&2
	exit 1
fi
if [ "$have" = "$want" ] && [ -x "$dir/usr/bin/qemu-system-x86_64" ] &&
   [ -f "$dir/usr/share/qemu/qboot.rom" ]; then
	exit 0
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$dir.new"' EXIT
rm -rf "$dir.new"
# apt-get download as root drops to _apt, which must be able to write here
chmod 755 "$tmp"
(cd "$tmp" && apt-get download -qq "qemu-system-x86=$want" "qemu-system-data=$want" 2>&1) |
	grep -v '^W: Download is performed unsandboxed' || true
if ! ls "$tmp"/qemu-system-x86_*.deb "$tmp"/qemu-system-data_*.deb >/dev/null 2>&1; then
	echo "fetch-qemu: apt-get download of qemu-system-x86 $want failed" >&2
	# offline, with a sound one unpacked already: that one
	[ -n "$have" ] && [ -x "$dir/usr/bin/qemu-system-x86_64" ] || exit 1
	echo "fetch-qemu: keeping the QEMU unpacked in $dir ($have)" >&2
	exit 0
fi
mkdir -p "$dir.new"
for deb in "$tmp"/*.deb; do
	dpkg-deb -x "$deb" "$dir.new"
done
# the libraries it links come from the machine (bookworm's, as its own
# QEMU's): one it lacks is named
missing=$(ldd "$dir.new/usr/bin/qemu-system-x86_64" | awk '/not found/ { print $1 }')
if [ -n "$missing" ]; then
	echo "fetch-qemu: QEMU $want needs libraries this machine lacks: $(echo "$missing" | tr "\n" " ")" >&2
	echo "fetch-qemu: apt-get install qemu-system-x86 (bookworm's) brings most of them" >&2
	exit 1
fi
"$dir.new/usr/bin/qemu-system-x86_64" --version | head -1 >&2
echo "$want" > "$dir.new/version"
rm -rf "$dir"
mv "$dir.new" "$dir"
echo "fetch-qemu: qemu-system-x86 $want unpacked in $dir"
