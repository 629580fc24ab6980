#!/bin/bash
# Proves that the tests can fail: each mutant (scripts/mutants/KVER/*.diff,
# a small change to the patched tree with a header saying which kernel it
# goes into and what must happen) is applied, that kernel rebuilt and
# booted with every selftest, and the tree put back. "killed" means some
# test or the boot check failed; "survives" that all passed.
#   expect: killed    the mutant must be killed
#   expect: survives  a control: it must pass
#   expect: measured  reported either way (a race that may or may not hit)
#   killed-by: TEXT   a killed mutant must have this among its failures
#                     (the results or the boot's splat line): the test
#                     meant to catch it did
# Prints KTAP, one result per mutant, with the failures that killed it.
# The kernels are rebuilt from the clean tree at the end, whatever happens.
# Usage: mutants.sh TREE BUILDPREFIX INITRAMFS LOGDIR MUTANTDIR BASE-FRAGMENT...
set -euo pipefail

tree=${1:?usage: mutants.sh TREE BUILDPREFIX INITRAMFS LOGDIR MUTANTDIR BASE-FRAGMENT...}
prefix=${2:?} initrd=${3:?} logdir=${4:?} mutantdir=${5:?}
shift 5
basefrags=("$@")
here=$(cd "$(dirname "$0")" && pwd)
. "$here/ktap.sh"
mkdir -p "$logdir"

# the fragments of each kernel, as the Makefile builds them
frags() {
	case "$1" in
	on) echo "${basefrags[*]} defconfigs/on" ;;
	debug) echo "${basefrags[*]} defconfigs/on defconfigs/debug" ;;
	*) echo "mutants: unknown kernel '$1'" >&2; return 1 ;;
	esac
}

touched=()
restore() {
	git -C "$tree" checkout -q -- .
	for k in $(printf '%s\n' "${touched[@]}" | sort -u); do
		# shellcheck disable=SC2046
		"$here/build-kernel.sh" "$tree" "$prefix-$k" $(frags "$k") >/dev/null ||
			echo "mutants: could not rebuild the clean $k kernel" >&2
	done
}
trap restore EXIT
# bash runs the EXIT trap when INT or TERM ends it this way
trap 'exit 130' INT
trap 'exit 143' TERM

[ -z "$(git -C "$tree" status --porcelain --untracked-files=no)" ] ||
	{ echo "mutants: $tree has changes of its own; not touching it" >&2; exit 1; }

mutants=("$mutantdir"/*.diff)
echo "KTAP version 1"
echo "1..${#mutants[@]}"
for diff in "${mutants[@]}"; do
	name=$(basename "$diff" .diff)
	kernel=$(sed -n 's/^kernel: //p' "$diff")
	expect=$(sed -n 's/^expect: //p' "$diff")
	by=$(sed -n 's/^killed-by: //p' "$diff")
	if ! git -C "$tree" apply "$(cd "$(dirname "$diff")" && pwd)/$(basename "$diff")"; then
		result FAIL "mutant $name: does not apply to $tree"
		continue
	fi
	touched+=("$kernel")
	echo "mutants: $name: building the $kernel kernel" >&2
	# shellcheck disable=SC2046
	if ! log=$("$here/build-kernel.sh" "$tree" "$prefix-$kernel" $(frags "$kernel") 2>&1); then
		git -C "$tree" checkout -q -- .
		result FAIL "mutant $name: does not build" "$(echo "$log" | tail -5)"
		continue
	fi
	git -C "$tree" checkout -q -- .
	echo "mutants: $name: booting it" >&2
	extra=()
	[ "$kernel" != debug ] || extra=(panic_on_warn=1)
	ACCEL=tcg "$(dirname "$here")/qemu/boot.sh" "$prefix-$kernel/arch/x86/boot/bzImage" \
		"$initrd" "$logdir" "$name" RIG_MODE=test BPF_TRACEPOINTS_EXPECT=on "${extra[@]}" \
		> "$logdir/$name.boot-log" 2>&1 || true
	verdict=$("$(dirname "$here")/qemu/results.sh" "$name=$logdir/$name.out" \
		"$name/boot=$logdir/$name.boot" || true)
	killed_by=$(echo "$verdict" | grep ': not ok ' | sed 's/^ *//' | sort -u || true)
	if [ -n "$killed_by" ]; then got=killed; else got=survives; fi
	shown=$(echo "$killed_by" | head -8)
	if [ -n "$by" ] && ! echo "$killed_by" | grep -qF "$by"; then
		result FAIL "mutant $name ($kernel): $got, but not by '$by'" "$shown"
		continue
	fi
	[ -z "$by" ] || shown=$(printf 'killed by: %s\n%s' "$(echo "$killed_by" | grep -F "$by" | head -1)" "$shown")
	case "$expect" in
	measured) result OK "mutant $name ($kernel): $got (measured)" "$shown" ;;
	"$got") result OK "mutant $name ($kernel): $got, as it must" "$shown" ;;
	*) result FAIL "mutant $name ($kernel): $got, but it must be $expect" "$shown" ;;
	esac
done
