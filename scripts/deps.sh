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
trinity:/usr/bin/trinity
clang:/usr/bin/clang
dwarves:/usr/bin/pahole
libbpf-dev:/usr/include/bpf/libbpf.h
pkg-config:/usr/bin/pkg-config
zlib1g-dev:/usr/lib/x86_64-linux-gnu/libz.a
"

missing=
for entry in $need; do
	[ -e "${entry#*:}" ] || missing="$missing ${entry%%:*}"
done
# bookworm-backports in the apt sources, for its QEMU, which
# scripts/fetch-qemu.sh unpacks under out/ (nothing is installed from
# it: a backports suite has priority 100, and upgrades nothing by itself)
backports=
if [ "$(. /etc/os-release && echo "${VERSION_CODENAME:-}")" = bookworm ] &&
   ! apt-cache madison qemu-system-x86 2>/dev/null | grep -q 'bookworm-backports/main'; then
	backports=/etc/apt/sources.list.d/rig-bookworm-backports.sources
fi
[ -n "$missing" ] || [ -n "$backports" ] || exit 0

if [ "$(id -u)" != 0 ]; then
	[ -z "$missing" ] || echo "deps: missing packages:$missing" >&2
	[ -z "$backports" ] || echo "deps: bookworm-backports is not in the apt sources (for QEMU)" >&2
	echo "deps: as root:" >&2
	[ -z "$backports" ] ||
		printf '  %s\n' "printf 'Types: deb\\nURIs: http://deb.debian.org/debian\\nSuites: bookworm-backports\\nComponents: main\\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\\n' > $backports" >&2
	echo "  apt-get update${missing:+ && apt-get install --no-install-recommends$missing}" >&2
	exit 1
fi

export DEBIAN_FRONTEND=noninteractive
if [ -n "$backports" ]; then
	echo "deps: adding bookworm-backports to the apt sources ($backports)"
	printf '%s\n' "Types: deb" "URIs: http://deb.debian.org/debian" "Suites: bookworm-backports" \
		"Components: main" "Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg" > "$backports"
fi
# One update per run is enough; a failed update still lets cached lists work.
apt-get update -q >/dev/null || echo "deps: apt-get update failed, trying the cached lists" >&2
[ -n "$missing" ] || exit 0
echo "deps: installing:$missing"
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends $missing >/dev/null

for entry in $need; do
	if [ ! -e "${entry#*:}" ]; then
		echo "deps: ${entry%%:*} installed but ${entry#*:} is missing" >&2
		exit 1
	fi
done
