#!/bin/bash
# Builds the series as a bisect would meet it, in two output trees that
# stay warm: every prefix (each patch with those before it) with the
# option off and on, oldest first, so that each checkout changes only what
# one patch changed and each build recompiles only that, plus one link;
# the off and on builds of a prefix run side by side.
# The walk starts at the unpatched tree, built with the off config (kept
# as BUILDPREFIX-baseline/vmlinux and bzImage: make bench boots it), and
# ends at the full series, which is the on and off kernels the guests
# boot. The zero-cost pair is built beside them in BUILDPREFIX-zero-cost:
# the unpatched tree and the full series, off, with the zero-cost
# fragment last (no IKCONFIG: the embedded .config names the option),
# kept as BUILDPREFIX-baseline/zero-cost.vmlinux and
# BUILDPREFIX-zero-cost/vmlinux (scripts/zero-cost-check.sh).
#
# A prefix's result is cached by what it was built from: the source tree
# at that commit, the fragments, the build scripts and the compiler. An
# unchanged prefix is not built again; a patch that changed rebuilds from
# there on. A patch that touches only Documentation/, tools/ or
# MAINTAINERS leaves the kernel as the prefix before built it: its result
# is that one's.
#
# Prints KTAP, one result per prefix and config; a failure names the
# patch and the config, with the build log's tail. Progress goes to stderr.
# Usage: walk-series.sh TREE BUILDPREFIX CACHEDIR ON-FRAGMENT OFF-FRAGMENT
#        ZERO-COST-FRAGMENT BASE-FRAGMENT...
set -euo pipefail

tree=$(cd "${1:?usage: walk-series.sh TREE BUILDPREFIX CACHEDIR ON OFF ZERO-COST BASE...}" && pwd)
prefix=${2:?} cachedir=${3:?} on=${4:?} off=${5:?} zc=${6:?}
shift 6
basefrags=("$@")
here=$(cd "$(dirname "$0")" && pwd)
. "$here/ktap.sh"
. "$here/kbuild-env.sh"
mkdir -p "$cachedir"

commits=$(git -C "$tree" rev-list --reverse base..HEAD)
last=$(git -C "$tree" rev-parse HEAD)
home=$(git -C "$tree" symbolic-ref -q --short HEAD || echo "$last")
tmp=$(mktemp -d)
# A walk that stops before its last prefix (interrupted, or the script
# failed) leaves the build dirs at an older prefix: no kernel of theirs
# may boot as the series' (the last prefix makes them again).
walked=
trap 'rm -rf "$tmp"; [ -n "$walked" ] || rm -f "$prefix"-{on,off}/arch/x86/boot/bzImage
	git -C "$tree" checkout -q "$home"' EXIT
# bash runs the EXIT trap when INT or TERM ends it this way
trap 'exit 130' INT
trap 'exit 143' TERM

# what a build's result depends on, besides the source tree: the
# fragments' lines of config and the rig's scripts' code (a reworded
# comment keeps every result), and the toolchain (compiler, linker, pahole)
recipe=$({ config_of "$@" "$on" "$off" "$zc"; code_of "$0" "$here/build-kernel.sh" \
	"$here/check-config.sh" "$here/kbuild-env.sh"; } | sha256sum)
recipe="$recipe $(gcc --version | head -1) $(ld --version | head -1) $(pahole --version 2>/dev/null || true)"
key() {	# key COMMIT CONFIG
	printf '%s %s %s\n' "$(git -C "$tree" rev-parse "$1^{tree}")" "$2" "$recipe" |
		sha256sum | cut -c1-16
}

# build COMMIT CONFIG TARGET: checks the tree out at COMMIT (when it is not
# there) and builds TARGET into BUILDPREFIX-CONFIG; on failure the first
# errors and the log's tail. CONFIG zero-cost is off with the zero-cost
# fragment after it, seeded from off.
build() {
	local frags=("$on") other=off start
	case $2 in
	off) frags=("$off") other=on ;;
	# its vmlinux and key must never be taken for the other commit's
	zero-cost) frags=("$off" "$zc") other=off; rm -f "$prefix-zero-cost/vmlinux" "$prefix-zero-cost/key" ;;
	esac
	[ "$(git -C "$tree" rev-parse HEAD)" = "$1" ] || git -C "$tree" checkout -q "$1"
	# a new output tree begins as a copy of the other config's: only what
	# the option changes is compiled
	"$here/seed-build.sh" "$prefix-$other" "$prefix-$2" || { echo "walk: could not seed $prefix-$2"; return 1; }
	start=$(date +%s)
	if log=$(BUILD_TARGET=$3 "$here/build-kernel.sh" "$tree" "$prefix-$2" "${basefrags[@]}" "${frags[@]}" 2>&1); then
		echo "walk: $(git -C "$tree" log -1 --format=%s "$1" | cut -c1-50): $2 built in $(($(date +%s) - start)) s" >&2
		return 0
	fi
	echo "walk: $(git -C "$tree" log -1 --format=%s "$1" | cut -c1-50): $2 FAILED" >&2
	# the compiler's first errors (the tail may hold only their notes)
	echo "$log" | grep -E ': (fatal )?error: ' | head -5 || true
	echo "$log" | tail -20
	return 1
}

echo "KTAP version 1"
echo "1..$((2 + $(echo "$commits" | wc -l) * 2))"

# the unpatched tree: the baseline of the zero-cost check
base=$(git -C "$tree" rev-parse base)
k=$(key "$base" off)
if [ -f "$prefix-baseline/vmlinux" ] && [ -f "$prefix-baseline/bzImage" ] &&
   [ -f "$prefix-baseline/zero-cost.vmlinux" ] &&
   [ "$(cat "$prefix-baseline/key" 2>/dev/null)" = "$k" ]; then
	result OK "unpatched tree builds with the off config, and without IKCONFIG (cached)"
elif log=$(build "$base" off bzImage) && log=$(build "$base" zero-cost vmlinux); then
	mkdir -p "$prefix-baseline"
	cp "$prefix-off/vmlinux" "$prefix-baseline/vmlinux"
	# make bench boots it: the noise floor of unpatched against off
	cp "$prefix-off/arch/x86/boot/bzImage" "$prefix-baseline/bzImage"
	cp "$prefix-zero-cost/vmlinux" "$prefix-baseline/zero-cost.vmlinux"
	echo "$k" > "$prefix-baseline/key"
	result OK "unpatched tree builds with the off config, and without IKCONFIG"
else
	result FAIL "unpatched tree builds with the off config" "$log"
fi

# builds COMMIT OFF-TARGET ON-TARGET (an empty target: no build): each
# build's log to $tmp/CONFIG.log and its status to $tmp/CONFIG.rc. Off and
# on build side by side: a prefix recompiles a few files, and most of its
# time is the link, one core's work. A tree not yet begun is seeded
# first from the other as it stands (on from the baseline, at the first
# prefix), so that the two build side by side there too: a seeded tree
# compiles what differs, whichever commit its copy was built at.
build_to() {	# CONFIG COMMIT TARGET
	if build "$2" "$1" "$3" > "$tmp/$1.log"; then echo 0; else echo 1; fi > "$tmp/$1.rc"
}
builds() {
	local pid
	[ "$(git -C "$tree" rev-parse HEAD)" = "$1" ] || git -C "$tree" checkout -q "$1"
	rm -f "$tmp"/*.rc "$tmp"/*.log
	# (a seed that fails is tried again, and reported, by build)
	if [ -n "$2" ] && [ -n "$3" ]; then
		"$here/seed-build.sh" "$prefix-off" "$prefix-on" || true
		"$here/seed-build.sh" "$prefix-on" "$prefix-off" || true
	fi
	# side by side only when neither tree is still to be seeded
	if [ -n "$2" ] && [ -n "$3" ] && [ -f "$prefix-on/.config" ] && [ -f "$prefix-off/.config" ]; then
		build_to off "$1" "$2" &
		pid=$!
		build_to on "$1" "$3"
		wait "$pid"
	else
		[ -z "$2" ] || build_to off "$1" "$2"
		[ -z "$3" ] || build_to on "$1" "$3"
	fi
}

declare -A verdict	# per config: the last prefix's result
declare -A target	# per config: what this prefix must build, if anything
declare -A keys	# per config: this prefix's cache key
n=0
for c in $commits; do
	n=$((n + 1))
	subject=$(git -C "$tree" log -1 --format=%s "$c")
	code=$(git -C "$tree" diff --name-only "$c~1" "$c" | grep -Ev '^(Documentation|tools)/|^MAINTAINERS$' || true)
	for config in off on; do
		target[$config]=
		keys[$config]=$(key "$c" "$config")
		if [ "$c" = "$last" ]; then
			# the kernels the guests boot: always made, a no-op when current
			target[$config]=bzImage
		elif [ ! -f "$cachedir/${keys[$config]}" ] &&
		     { [ -n "$code" ] || [ -z "${verdict[$config]:-}" ]; }; then
			target[$config]=vmlinux
		fi
	done
	builds "$c" "${target[off]}" "${target[on]}"
	for config in off on; do
		name="builds $config at $n: $subject"
		if [ -z "${target[$config]}" ] && [ -f "$cachedir/${keys[$config]}" ]; then
			result OK "$name (cached)"
			verdict[$config]=OK
		elif [ -z "${target[$config]}" ]; then
			result "${verdict[$config]}" "$name (no kernel code: as the prefix before)"
		elif [ "$(cat "$tmp/$config.rc")" = 0 ]; then
			result OK "$name"
			verdict[$config]=OK
			[ "$c" = "$last" ] || echo "$name" > "$cachedir/${keys[$config]}"
		else
			# no stale kernel of an earlier run may boot in its place
			[ "$c" != "$last" ] ||
				rm -f "$prefix-$config/arch/x86/boot/bzImage" "$prefix-$config/vmlinux"
			result FAIL "$name" "$(cat "$tmp/$config.log")"
			verdict[$config]=FAIL
		fi
	done
done

# the series' half of the zero-cost pair, where the off kernel built
# (the unpatched half, at the start); cached by its key, as the baseline
k=$(key "$last" zero-cost)
name="the full series builds off without IKCONFIG (the zero-cost pair)"
if [ "${verdict[off]:-}" != OK ]; then
	result FAIL "$name" "the off kernel did not build"
elif [ -f "$prefix-zero-cost/vmlinux" ] && [ "$(cat "$prefix-zero-cost/key" 2>/dev/null)" = "$k" ]; then
	result OK "$name (cached)"
elif log=$(build "$last" zero-cost vmlinux); then
	echo "$k" > "$prefix-zero-cost/key"
	result OK "$name"
else
	rm -f "$prefix-zero-cost/vmlinux"
	result FAIL "$name" "$log"
fi
walked=1
ktap_status
