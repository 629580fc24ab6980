#!/bin/bash
# Builds the kernel a kselftest CI system builds: x86_64_defconfig, then
# make kselftest-merge (every selftest's config merged in, ours among
# them), then bzImage. Checks that the merged config has every line of
# our selftests' config, naming any that did not come out as asked.
# Not part of make test: about an hour of both cores, cold.
# Usage: build-kselftest-kernel.sh TREE BUILDDIR
set -euo pipefail

tree=$(cd "${1:?usage: build-kselftest-kernel.sh TREE BUILDDIR}" && pwd)
build=${2:?}
here=$(cd "$(dirname "$0")" && pwd)
ksft_cfg=$tree/tools/testing/selftests/bpf_tracepoints/config
mkdir -p "$build"
build=$(cd "$build" && pwd)
[ -f "$ksft_cfg" ] || {
	echo "build-kselftest-kernel: $ksft_cfg missing: is the series applied?" >&2
	exit 1
}

. "$here/kbuild-env.sh"

# The config is made again only from a new tree commit. Measured: after
# a series change the rebuild recompiled every object (ccache hits, about
# 5 min) and relinked; a boot alone needs no rebuild: qemu/boot.sh.
want="$(git -C "$tree" rev-parse 'HEAD^{tree}') $(gcc --version | head -1)"
if [ "$(cat "$build/.config-rig" 2>/dev/null)" != "$want" ]; then
	kmake x86_64_defconfig > /dev/null
	kmake kselftest-merge > "$build/kselftest-merge.log" 2>&1 || {
		tail -20 "$build/kselftest-merge.log" >&2
		echo "build-kselftest-kernel: make kselftest-merge failed" >&2
		exit 1
	}
	echo "$want" > "$build/.config-rig"
fi
"$here/check-config.sh" "$build/.config" "$ksft_cfg"

start=$(date +%s)
if ! kmake -j"$(nproc)" bzImage > "$build/build.log" 2>&1; then
	tail -40 "$build/build.log" >&2
	echo "build-kselftest-kernel: build failed in $build, full log: $build/build.log" >&2
	exit 1
fi
echo "build-kselftest-kernel: $(kmake kernelrelease) in $build: $(($(date +%s) - start)) s," \
	"$(grep -c '=y$' "$build/.config") options =y"
