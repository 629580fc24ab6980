#!/bin/bash
# Proves that the checks can fail: each mutant (scripts/mutants/KVER/*.diff,
# a small change to the patched tree with a header saying which kernel it
# goes into and what must happen) is applied, built, checked, and the tree
# put back. Prints KTAP, one result per mutant: "killed" with what killed
# it, or the mutant that survived, named; exits non-zero when a result
# is not what the mutant's header asks.
#   kernel: on        the on kernel is built with it and boots every
#                     selftest; killed: a test or the boot check failed
#   kernel: debug     the same with the debug kernel (panic_on_warn)
#   kernel: off       the objects the series touches are built with it on
#                     Debian's config, option off (as scripts/check-gates.sh
#                     builds them); killed: one differs from the unpatched
#                     one in a section or relocation (compare-objs.sh)
#   expect: killed    the mutant must be killed
#   expect: survives  a control: it must pass
#   expect: measured  reported either way (a race that may or may not hit)
#   killed-by: KILL   a killed mutant must have this among its failures:
#                     a test by its whole name, a timeout, a hang, a
#                     splat or an object's section, each only where it
#                     is named (scripts/killed-by.sh: the forms); the
#                     check meant to catch it did (several lines: any
#                     one of them)
#   gate: make test   make test runs it (MUTANT_GATE=1): a set within the
#                     run's budget (docs/rig.md, "Mutants"); make
#                     mutants runs them all
# MUTANT_KERNELS (default "on debug off") picks which kinds run; make test
# runs "on off" (a debug mutant costs a debug kernel's link and guest).
# The on and debug mutants build in BUILDPREFIX-mutant-KERNEL, begun as a
# copy of BUILDPREFIX-KERNEL (scripts/seed-build.sh): each recompiles what
# its diff touches and links, and the kernels the rig boots are never
# built with a mutant in them. The off mutants build in the gates'
# Debian build dir (GATES, default BUILDPREFIX-gates), against the
# unpatched objects the gates kept.
# MANIFEST and MUTANT_TREE (the tree's name in it, 6.12) read a mutant's
# run as the manifest lists that kernel's tests. DEBUG_FRAGS and
# DEBUG_INITRD are the debug kernel's fragments and initramfs as the
# Makefile's debug kernel has them (BTF and the typed clients, 6.12).
# Usage: mutants.sh TREE BUILDPREFIX INITRAMFS LOGDIR MUTANTDIR BASE-FRAGMENT...
set -euo pipefail

tree=${1:?usage: mutants.sh TREE BUILDPREFIX INITRAMFS LOGDIR MUTANTDIR BASE-FRAGMENT...}
prefix=${2:?} initrd=${3:?} logdir=${4:?} mutantdir=${5:?}
shift 5
basefrags=("$@")
here=$(cd "$(dirname "$0")" && pwd)
: "${MUTANT_KERNELS:=on debug off}" "${GATES:=$prefix-gates}"
# absolute: make -C TREE O=DIR takes DIR from the tree
[ ! -d "$GATES" ] || GATES=$(cd "$GATES" && pwd)
. "$here/ktap.sh"
mkdir -p "$logdir"

# the fragments of each kernel, as the Makefile builds them
frags() {
	case "$1" in
	on) echo "${basefrags[*]} defconfigs/on" ;;
	debug) echo "${basefrags[*]} ${DEBUG_FRAGS:-defconfigs/on defconfigs/debug}" ;;
	*) echo "mutants: unknown kernel '$1'" >&2; return 1 ;;
	esac
}

[ -z "$(git -C "$tree" status --porcelain --untracked-files=no)" ] ||
	{ echo "mutants: $tree has changes of its own; not touching it" >&2; exit 1; }
# (set once the tree is known to be clean: it puts back what a mutant changed)
trap 'git -C "$tree" checkout -q -- .' EXIT
# bash runs the EXIT trap when INT or TERM ends it this way
trap 'exit 130' INT
trap 'exit 143' TERM

# build_on_kernel NAME KERNEL: the kernel with the mutant in it, booted
# with every selftest; prints what failed (nothing: it survived)
build_on_kernel() {
	local name=$1 kernel=$2 build=$prefix-mutant-$2 log extra=() verdict rc
	"$here/seed-build.sh" "$prefix-$kernel" "$build"
	# shellcheck disable=SC2046
	if ! log=$("$here/build-kernel.sh" "$tree" "$build" $(frags "$kernel") 2>&1); then
		echo "BUILD: $(echo "$log" | grep -E ': (fatal )?error: ' | head -3)"
		return
	fi
	git -C "$tree" checkout -q -- .
	echo "mutants: $name: booting it" >&2
	rm -f "$logdir/$name.out" "$logdir/$name.boot"
	# An Oops ends the guest at once (oops=panic; panic=-1 reboots and
	# QEMU exits): a mutant that frees an object early may oops a test's
	# process, and the guest would otherwise sit out its whole timeout.
	# The suite takes under a minute; 300 s bounds a hang with room for
	# a loaded host. The debug kernel as make debug-guest boots it.
	extra=(oops=panic)
	boot_initrd=$initrd
	if [ "$kernel" = debug ]; then
		extra+=(panic_on_warn=1)
		# the debug guest's, with the typed clients where it has BTF
		boot_initrd=${DEBUG_INITRD:-$initrd}
		export BOOT_TIMEOUT=${BOOT_TIMEOUT:-1200}
	else
		export BOOT_TIMEOUT=${BOOT_TIMEOUT:-300}
	fi
	ACCEL=tcg "$(dirname "$here")/qemu/boot.sh" "$build/arch/x86/boot/bzImage" \
		"$boot_initrd" "$logdir" "$name" RIG_MODE=test BPF_TRACEPOINTS_EXPECT=on "${extra[@]}" \
		> "$logdir/$name.boot-log" 2>&1 || true
	# read as the on kernel's run is (MANIFEST, MUTANT_TREE; the debug
	# kernel runs the same tests): a skip the rig expects is no kill, a
	# missing test is one
	rc=0
	verdict=$("$(dirname "$here")/qemu/results.sh" "${MUTANT_TREE:-$name}/on=$logdir/$name.out" \
		"$name/boot=$logdir/$name.boot") || rc=$?
	# 1 is "something failed"; anything else, or no verdict, read nothing
	if [ "$rc" -gt 1 ] || ! echo "$verdict" | grep -q '^[0-9]* passed, [0-9]* failed'; then
		echo "BUILD: the results could not be read ($rc): $(echo "$verdict" | tail -1)"
		return
	fi
	# each failure with its diagnostics, tab-led (scripts/killed-by.sh
	# reads them), from results.sh's list of the failures
	echo "$verdict" | sed -n '/^failures:$/,/^[0-9]* passed, /{s/^    /\t/p; s/^  \([^ ]\)/\1/p}' || true
}

# build_off_objects NAME: the series' objects built on Debian's config,
# option off, with the mutant in them, against the unpatched ones; prints
# what differs (nothing: it survived)
build_off_objects() {
	local name=$1 out=$GATES/debian objs d rc=0
	if [ ! -f "$GATES/off.config" ] || [ ! -d "$GATES/base.objs" ]; then
		echo "NO BASELINE: $GATES has no off.config or base.objs (make check-gates)"
		return
	fi
	objs=$(cd "$GATES/base.objs" && find . -name '*.o' | sed 's|^\./||' | sort)
	if ! cp "$GATES/off.config" "$out/.config" ||
	   ! make -s -C "$tree" O="$out" olddefconfig > "$logdir/$name.build.log" 2>&1; then
		echo "BUILD: Debian's off config: $(tail -1 "$logdir/$name.build.log" 2>/dev/null)"
		return
	fi
	# shellcheck disable=SC2086
	if ! nice make -C "$tree" O="$out" -j"$(nproc)" W=1 $objs >> "$logdir/$name.build.log" 2>&1; then
		echo "BUILD: $(grep -E ': (fatal )?error: ' "$logdir/$name.build.log" | head -3)"
		return
	fi
	# shellcheck disable=SC2086
	d=$("$here/compare-objs.sh" "$GATES/base.objs" "$out" "$GATES/off.config" $objs 2>&1) || rc=$?
	if [ "${rc:-0}" -ge 2 ]; then
		echo "BUILD: the comparison failed: $(echo "$d" | tail -1)"
		return
	fi
	[ -z "$d" ] || echo "$d" | grep -v ': __bug_table: line numbers only' | sed 's/^/zero-cost: /' || true
}

# Every header is checked before anything is built: a mutant whose header
# the script cannot read would otherwise drop out of the run unseen.
shopt -s nullglob
mutants=() bad=()
for diff in "$mutantdir"/*.diff; do
	kernel=$(sed -n 's/^kernel: //p' "$diff")
	expect=$(sed -n 's/^expect: //p' "$diff")
	case "$kernel:$expect" in
	on:killed|on:survives|on:measured|debug:killed|debug:survives|debug:measured|off:killed|off:survives) ;;
	*) bad+=("$(basename "$diff"): kernel '$kernel', expect '$expect'"); continue ;;
	esac
	if [ "$expect" = killed ] && ! grep -q '^killed-by: .' "$diff"; then
		bad+=("$(basename "$diff"): killed, but by what (no killed-by:)")
		continue
	fi
	mapfile -t by < <(sed -n 's/^killed-by: //p' "$diff")
	if [ ${#by[@]} -gt 0 ] && ! why=$("$here/killed-by.sh" --check "${by[@]}" 2>&1); then
		bad+=("$(basename "$diff"): $why")
		continue
	fi
	if grep '^gate:' "$diff" | grep -vqx 'gate: make test'; then
		bad+=("$(basename "$diff"): $(grep '^gate:' "$diff")")
		continue
	fi
	[ "${MUTANT_GATE:-0}" != 1 ] || grep -qx 'gate: make test' "$diff" || continue
	case " $MUTANT_KERNELS " in
	*" $kernel "*) mutants+=("$diff") ;;
	esac
done
echo "KTAP version 1"
echo "1..$(( ${#mutants[@]} + ${#bad[@]} + (${#mutants[@]} + ${#bad[@]} == 0) ))"
[ $(( ${#mutants[@]} + ${#bad[@]} )) -gt 0 ] ||
	result FAIL "mutants: none in $mutantdir for kernels '$MUTANT_KERNELS'${MUTANT_GATE:+ (gate)}"
for b in "${bad[@]}"; do
	result FAIL "mutant $b: a header the rig cannot read"
done
for diff in "${mutants[@]}"; do
	name=$(basename "$diff" .diff)
	kernel=$(sed -n 's/^kernel: //p' "$diff")
	expect=$(sed -n 's/^expect: //p' "$diff")
	# one or more killed-by: lines, any of which will do
	mapfile -t by < <(sed -n 's/^killed-by: //p' "$diff")
	if ! git -C "$tree" apply "$(cd "$(dirname "$diff")" && pwd)/$(basename "$diff")"; then
		result FAIL "mutant $name: does not apply to $tree"
		continue
	fi
	echo "mutants: $name: building it ($kernel)" >&2
	start=$(date +%s)
	case "$kernel" in
	off) killed_by=$(build_off_objects "$name") ;;
	*) killed_by=$(build_on_kernel "$name" "$kernel") ;;
	esac
	git -C "$tree" checkout -q -- .
	secs=$(($(date +%s) - start))
	if echo "$killed_by" | grep -q '^\(BUILD\|NO BASELINE\): '; then
		result FAIL "mutant $name ($kernel): not checked: $(echo "$killed_by" | head -1)"
		continue
	fi
	if [ -n "$killed_by" ]; then got=killed; else got=survives; fi
	shown=$(echo "$killed_by" | grep -v '^	' | head -8)
	# the kill: the failure the header names (scripts/killed-by.sh), else
	# the first
	kill=
	if [ ${#by[@]} -gt 0 ]; then
		kill=$(echo "$killed_by" | "$here/killed-by.sh" "${by[@]}") || true
	else
		kill=$(echo "$shown" | head -1)
	fi
	kill=$(echo "$kill" | sed 's/^[^ ]*: not ok //' | cut -c1-120)
	if [ ${#by[@]} -gt 0 ] && [ "$got" = killed ] && [ -z "$kill" ]; then
		result FAIL "mutant $name ($kernel): killed, but not by '$(printf '%s\n' "${by[@]}" | paste -sd '|' -)'" "$shown"
		continue
	fi
	what=$got
	[ "$got" != killed ] || what="killed by $kill"
	case "$expect" in
	measured) result OK "mutant $name ($kernel): $what (measured, $secs s)" "$shown" ;;
	"$got") result OK "mutant $name ($kernel): $what, as it must ($secs s)" "$shown" ;;
	*) result FAIL "mutant $name ($kernel): $what, but it must be $expect" "$shown" ;;
	esac
done
ktap_status
