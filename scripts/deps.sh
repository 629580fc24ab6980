#!/bin/sh
# Installs the host packages the rig needs for the trees named (one apt
# run for all), or names them when not root.
# Usage: deps.sh KVER...   (KVER is the linux-source version, e.g. 6.12)
set -eu

[ $# -gt 0 ] || { echo "usage: deps.sh KVER..." >&2; exit 2; }

# package:file-it-provides, so an installed package costs nothing
need=
for kver in "$@"; do
	need="$need
linux-source-$kver:/usr/src/linux-source-$kver.tar.xz
linux-config-$kver:/usr/src/linux-config-$kver"
done
need="$need
gcc:/usr/bin/gcc
make:/usr/bin/make
libc6-dev:/usr/lib/x86_64-linux-gnu/libc.a
bc:/usr/bin/bc
bison:/usr/bin/bison
flex:/usr/bin/flex
libelf-dev:/usr/include/libelf.h
libssl-dev:/usr/include/openssl/ssl.h
cpio:/usr/bin/cpio
xz-utils:/usr/bin/xz
ccache:/usr/bin/ccache
git:/usr/bin/git
perl:/usr/bin/perl
python3-ply:/usr/lib/python3/dist-packages/ply
python3-git:/usr/lib/python3/dist-packages/git
python3-docutils:/usr/lib/python3/dist-packages/docutils
python3-sphinx:/usr/lib/python3/dist-packages/sphinx
sparse:/usr/bin/sparse
rsync:/usr/bin/rsync
qemu-system-x86:/usr/bin/qemu-system-x86_64
busybox-static:/bin/busybox
trace-cmd:/usr/bin/trace-cmd
linux-perf:/usr/bin/perf
bpftool:/usr/sbin/bpftool
bpftrace:/usr/bin/bpftrace
strace:/usr/bin/strace
clang:/usr/bin/clang
libbpf-dev:/usr/include/bpf/libbpf.h
pkg-config:/usr/bin/pkg-config
zlib1g-dev:/usr/lib/x86_64-linux-gnu/libz.a
"

missing=
for entry in $need; do
	[ -e "${entry#*:}" ] || missing="$missing ${entry%%:*}"
done
[ -n "$missing" ] || exit 0

if [ "$(id -u)" != 0 ]; then
	echo "deps: missing packages:$missing" >&2
	echo "deps: install them with:" >&2
	echo "  sudo apt-get update && sudo apt-get install --no-install-recommends$missing" >&2
	exit 1
fi

echo "deps: installing:$missing"
export DEBIAN_FRONTEND=noninteractive
# One update per run is enough; a failed update still lets cached lists work.
apt-get update -q >/dev/null || echo "deps: apt-get update failed, trying the cached lists" >&2
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends $missing >/dev/null

for entry in $need; do
	if [ ! -e "${entry#*:}" ]; then
		echo "deps: ${entry%%:*} installed but ${entry#*:} is missing" >&2
		exit 1
	fi
done
