#!/bin/bash
# Configures (tinyconfig's fragments + ours), checks and builds one kernel.
# Usage: build-kernel.sh TREE BUILDDIR FRAGMENT...
# BUILD_TARGET=vmlinux builds (and links) without the compressed image.
set -euo pipefail

tree=$(cd "${1:?usage: build-kernel.sh TREE BUILDDIR FRAGMENT...}" && pwd)
build=${2:?}
shift 2
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$build"
build=$(cd "$build" && pwd)

. "$here/kbuild-env.sh"

# A build with the inputs of this build dir's last one is not run again:
# make's walk of a tree where nothing changed costs 20 to 40 s. The inputs:
# the tree's commit, any edit or new file in it (an interrupted canary)
# but what the selftests' build leaves, the fragments' lines of config,
# the target, the toolchain, the environment make reads (not ccache's:
# another CCACHE_DIR changes no object) and these scripts' code. A tree
# that is not a git repository of its own has no key, and make decides.
target=${BUILD_TARGET:-bzImage}
output=vmlinux
[ "$target" != bzImage ] || output=arch/x86/boot/bzImage
# Every input must be read, or there is no key: set -e does not reach
# into this && list, so each step says whether it worked.
inputs=$build/.build-inputs
key=
if [ "$(git -C "$tree" rev-parse --show-toplevel 2>/dev/null)" = "$(cd "$tree" && pwd -P)" ] &&
   git -C "$tree" rev-parse -q --verify 'HEAD^{tree}' > "$inputs" &&
   echo "$* $target" >> "$inputs" &&
   git -C "$tree" diff --no-ext-diff --no-textconv --binary HEAD >> "$inputs" &&
   git -C "$tree" ls-files -o --exclude-standard -- . ':!tools/testing/selftests' >> "$inputs" &&
   git -C "$tree" ls-files -z -o --exclude-standard -- . ':!tools/testing/selftests' |
	(cd "$tree" && xargs -0 -r cat --) >> "$inputs" &&
   config_of "$@" >> "$inputs" &&
   code_of "$0" "$here/check-config.sh" "$here/kbuild-env.sh" >> "$inputs" &&
   { gcc --version && ld --version && { pahole --version || true; }; } 2>/dev/null >> "$inputs" &&
   env | { grep -E '^(KCFLAGS|KCPPFLAGS|KAFLAGS|KBUILD_[A-Z_]*|KCONFIG_[A-Z_]*|LOCALVERSION|HOSTCC|HOSTCFLAGS|CROSS_COMPILE|LLVM|LLVM_IAS)=' || true; } |
	sort >> "$inputs"; then
	# make's command line reaches this build through MAKEFLAGS (W=1, C=1)
	for word in ${MAKEFLAGS:-}; do
		case $word in W=*|C=*|LLVM=*|KCFLAGS=*|LOCALVERSION=*) echo "$word" ;; esac
	done >> "$inputs"
	key=$(sha256sum < "$inputs" | cut -c1-16)
fi
rm -f "$inputs"
if [ -n "$key" ] && [ -f "$build/$output" ] && [ "$(cat "$build/.build-rig" 2>/dev/null)" = "$key" ]; then
	echo "build-kernel: $build is up to date (the inputs of its last build, $key)"
	exit 0
fi
rm -f "$build/.build-rig"

# Making the config costs 15 s: it is made again only when the fragments
# changed or a Kconfig file or config fragment of the tree is newer than
# the last one made (a checkout, an edit).
stamp=$build/.config-rig
# The compiler is part of it: Kconfig records its version and features.
want="$(config_of "$@" | sha256sum | cut -c1-16) $* $(gcc --version | head -1)"
if [ -f "$build/.config" ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] &&
   [ -z "$(find "$tree" -path "$tree/.git" -prune -o \( -name 'Kconfig*' -o -name '*.config' \) \
	   -newer "$stamp" -print -quit)" ]; then
	:
else
	# Keep the old .config (and its mtime) when nothing changed: no rebuild.
	[ -f "$build/.config" ] && cp -p "$build/.config" "$build/.config.old-rig"
	# make tinyconfig, with our fragments merged beside tiny.config's:
	# Kconfig runs twice, where tinyconfig then olddefconfig ran it three
	# times (each run probes the compiler, about 7 s). The one difference
	# from merging after tinyconfig: the n allnoconfig gave a symbol that
	# tiny.config hid and a fragment shows again is kept, where
	# olddefconfig would give its default (SLAB_MERGE_DEFAULT when
	# SLUB_TINY goes: defconfigs/debug says it). The rig's six configs
	# came out byte-identical both ways.
	kmake KCONFIG_ALLCONFIG="$tree/kernel/configs/tiny-base.config" allnoconfig >/dev/null
	"$tree/scripts/kconfig/merge_config.sh" -m -O "$build" "$build/.config" \
		"$tree/kernel/configs/tiny.config" "$tree/arch/x86/configs/tiny.config" "$@" >/dev/null
	kmake olddefconfig
	if [ -f "$build/.config.old-rig" ] && cmp -s "$build/.config" "$build/.config.old-rig"; then
		mv "$build/.config.old-rig" "$build/.config"
	fi
	rm -f "$build/.config.old-rig"
	echo "$want" > "$stamp"
fi
"$here/check-config.sh" "$build/.config" "$@"

start=$(date +%s)
if ! kmake -j"$(nproc)" "$target" > "$build/build.log" 2>&1; then
	tail -40 "$build/build.log" >&2
	echo "build-kernel: build failed in $build, full log: $build/build.log" >&2
	exit 1
fi
secs=$(($(date +%s) - start))
echo "$secs" > "$build/build-seconds"
echo "build-kernel: $(kmake kernelrelease) in $build: $secs s ($*)"
[ -z "$key" ] || echo "$key" > "$build/.build-rig"
