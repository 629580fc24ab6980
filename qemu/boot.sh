#!/bin/sh
# Boots one kernel with the initramfs in QEMU and keeps both serial ports:
# NAME.console.log (kernel console) and NAME.out (what init reports).
# KVM is tried only where it works: no kernel banner within KVM_PROBE_SECS
# and the guest is killed and booted again under TCG. Every boot is bounded
# by BOOT_TIMEOUT. A hang, a panic, a kernel splat, or a guest that sees
# fewer CPUs than the SMP it was given fails the boot. TCG runs the vCPUs
# in a host thread each (TCG_THREAD=multi) on QEMU 8.1 or later, in one
# (=single) before it or when asked: 7.2's multi-threaded TCG breaks the
# kernel's live code patching across vCPUs at once (docs/int3-oops.md).
# 10.0.2's still executes a stale int3 seldom (one boot of about 15): a
# boot whose first splat is that (qemu/stale-int3.sh), or that hung in it
# (qemu/int3-livelock.sh, as 6.1 does), is booted once more under the
# same conditions, and its verdict says so, with the first log kept as
# NAME.stale-int3.console.log; a second one fails the guest
# (STALE_INT3_REBOOT=0: the first fails it).
# KVM_PROBE_FILE, when set, keeps the probe's verdict for later boots
# (make keeps one per host kernel and QEMU version). QEMU names the
# qemu-system-x86_64 (make: bookworm-backports', scripts/fetch-qemu.sh),
# QEMU_DATA its firmware directory (-L), QEMU_EXTRA more options; SMP
# the vCPUs (4), MEM the memory (1G).
# The firmware is qboot (BIOS=): its MP table lists every CPU, so the
# guests need no ACPI (SeaBIOS's lists the boot CPU alone), and it starts
# the kernel sooner.
# The verdict is also written as KTAP to NAME.boot for results.sh.
# GUEST_CACHE, when set (make's guests), keeps a clean boot's logs by
# what it booted: the kernel, the initramfs, QEMU and its firmware, the
# kernel's arguments, the settings above and this script with the
# classifiers it runs. A boot with the same key takes them back instead
# of booting, and says so; GUEST_RERUN=1 boots all the same. Clean: the
# verdict ok, no stale int3 met, results and no failed or timed-out test
# among them, every suite run it announced ended.
# Usage: boot.sh BZIMAGE INITRAMFS LOGDIR NAME [KERNEL ARGS...]
set -eu
. "$(dirname "$0")/splats.sh"

kernel=${1:?usage: boot.sh BZIMAGE INITRAMFS LOGDIR NAME [ARGS...]}
initrd=${2:?}
logdir=${3:?}
name=${4:?}
shift 4
: "${ACCEL:=auto}" "${BOOT_TIMEOUT:=600}" "${KVM_PROBE_SECS:=15}" "${QEMU_EXTRA:=}"
: "${SMP:=4}" "${TCG_THREAD:=}" "${QEMU:=qemu-system-x86_64}" "${KVM_PROBE_FILE:=}"
: "${BIOS:=qboot.rom}" "${QEMU_DATA:=}" "${MEM:=1G}" "${STALE_INT3_REBOOT:=1}"

mkdir -p "$logdir"
console=$logdir/$name.console.log
out=$logdir/$name.out
# nothing of an earlier boot of this name may be read as this one's
rm -f "$logdir/$name.boot" "$logdir/$name.qemu.log" "$console" "$out" "$logdir/$name.seconds" \
	"$logdir/$name.stale-int3.console.log"* "$logdir/$name.stale-int3.out"
if [ ! -f "$kernel" ]; then
	# a build that failed deletes its image: say so, not qemu's complaint
	echo "boot: $name: no kernel at $kernel (did its build fail?)" >&2
	printf 'KTAP version 1\n1..1\nnot ok 1 boot %s: no kernel at %s (did its build fail?)\n' \
		"$name" "$kernel" > "$logdir/$name.boot"
	exit 1
fi
sound=0
qemu_version=$("$(dirname "$0")/qemu-version.sh" "$QEMU") || sound=$?
if [ "$sound" = 2 ]; then
	echo "boot: $name: $QEMU does not run, or is not QEMU (make deps unpacks the rig's)" >&2
	printf 'KTAP version 1\n1..1\nnot ok 1 boot %s: no QEMU at %s\n' "$name" "$QEMU" > "$logdir/$name.boot"
	exit 1
fi
# the key of what this boot boots, and a kept boot of the same key
cache_key=
if [ -n "${GUEST_CACHE:-}" ]; then
	here=$(dirname "$0")
	cache_key=$({
		sha256sum "$kernel" "$initrd" "$(command -v "$QEMU")" "$here/boot.sh" "$here/splats.sh" \
			"$here/stale-int3.sh" "$here/int3-livelock.sh" "$here/host-tsc-khz.c" | cut -d' ' -f1
		[ -z "$QEMU_DATA" ] || sha256sum "$QEMU_DATA/$BIOS" 2>/dev/null | cut -d' ' -f1
		# the accelerator it would try (KVM's probe, where it may run)
		if [ "$ACCEL" = tcg ] || [ ! -w /dev/kvm ] || { [ -n "$KVM_PROBE_FILE" ] && [ -f "$KVM_PROBE_FILE" ]; }; then
			echo tcg
		else
			echo kvm-probe
		fi
		printf '%s\n' "$qemu_version" "$ACCEL" "$BOOT_TIMEOUT" "$QEMU_EXTRA" "$SMP" "$MEM" \
			"${TCG_THREAD:-}" "${TCG_THREAD_FORCE:-}" "$BIOS" "$STALE_INT3_REBOOT" "$@"
	} | sha256sum | cut -c1-16)
	kept=$GUEST_CACHE/$name-$cache_key
	if [ "${GUEST_RERUN:-0}" != 1 ] && [ -f "$kept/boot" ]; then
		for f in console.log out seconds qemu.log; do
			cp "$kept/$f" "$logdir/$name.$f" 2>/dev/null || true
		done
		awk -v k="$cache_key" '/^ok 1 / { $0 = $0 " (kept: an earlier boot of the same kernel, initramfs, QEMU and arguments, key " k ")" } 1' \
			"$kept/boot" > "$logdir/$name.boot"
		echo "boot: $name: unchanged: $(tail -1 "$logdir/$name.boot" | sed 's/^ok 1 //') (GUEST_RERUN=1 boots it again)"
		exit 0
	fi
fi
if [ "${TCG_THREAD:-multi}" = multi ] && [ -z "${TCG_THREAD_FORCE:-}" ] && [ "$sound" != 0 ]; then
	TCG_THREAD=single
	echo "boot: $name: QEMU $qemu_version ($QEMU) predates the multi-threaded TCG fix of 8.1 (docs/int3-oops.md): its vCPUs run in one thread (TCG_THREAD_FORCE=1 to ask anyway)"
fi
: "${TCG_THREAD:=multi}"

# A TCG guest's RDTSC counts at the host's TSC rate, which its kernel
# cannot calibrate (no HPET or PM timer without ACPI, and TCG's PIT is
# too slow): without tsc_early_khz= it marks the TSC unstable, and its
# clocks, CLOCK_MONOTONIC and trace_clock's local alike, count jiffies.
# Given where the host's TSC is constant and does not stop; not with
# -icount, whose RDTSC counts instructions.
tsc_args=
tsc_khz() {	# (boots side by side build it side by side: each its own, then mv)
	bin=$logdir/.host-tsc-khz
	[ -x "$bin" ] || { cc -O2 -o "$bin.$$" "$(dirname "$0")/host-tsc-khz.c" && mv "$bin.$$" "$bin"; } ||
		return 1
	"$bin"
}
case " $QEMU_EXTRA " in
*" -icount "*) ;;
*)
	if grep -qw constant_tsc /proc/cpuinfo && grep -qw nonstop_tsc /proc/cpuinfo &&
	   khz=$(tsc_khz); then
		tsc_args="tsc_early_khz=$khz tsc=reliable"
	else
		echo "boot: $name: the host's TSC is not constant or could not be measured: the guest's clock counts jiffies"
	fi ;;
esac

qemu() {	# qemu ACCEL KERNEL-ARG...
	accel=$1
	shift
	rm -f "$console" "$out"
	echo "+ $QEMU -accel $accel (QEMU $qemu_version)" >> "$logdir/$name.qemu.log"
	# --foreground: QEMU stays in the caller's process group, so that an
	# interrupt of make test (TERM to the group) stops the guest too
	# shellcheck disable=SC2086
	exec timeout --foreground -k 5 "$BOOT_TIMEOUT" "$QEMU" -accel "$accel" \
		-nodefaults -no-user-config -display none -no-reboot \
		${QEMU_DATA:+-L "$QEMU_DATA"} -m "$MEM" -smp "$SMP" -bios "$BIOS" $QEMU_EXTRA \
		-kernel "$kernel" -initrd "$initrd" \
		-append "console=ttyS0 panic=-1 $*" \
		-serial "file:$console" -serial "file:$out" 2>>"$logdir/$name.qemu.log"
}

start=$(date +%s)
accel=tcg
rc=0
rebooted=
if [ -n "$KVM_PROBE_FILE" ] && [ -f "$KVM_PROBE_FILE" ] && [ "$ACCEL" != tcg ]; then
	echo "boot: $name: $(cat "$KVM_PROBE_FILE"), using TCG (to probe again: rm $KVM_PROBE_FILE)"
	ACCEL=tcg
fi
if [ "$ACCEL" != tcg ] && [ -w /dev/kvm ]; then
	(qemu kvm BPF_TRACEPOINTS_RACE_UNTIL_WINDOW=1 "$@") &
	pid=$!
	waited=0
	while [ "$waited" -lt "$KVM_PROBE_SECS" ] && kill -0 "$pid" 2>/dev/null &&
	      ! grep -q 'Linux version' "$console" 2>/dev/null; do
		sleep 1
		waited=$((waited + 1))
	done
	if grep -q 'Linux version' "$console" 2>/dev/null; then
		accel=kvm
		wait "$pid" || rc=$?
	else
		# a guest that ended by itself says nothing about KVM: not kept
		alive=
		kill -0 "$pid" 2>/dev/null && alive=1
		kill "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
		echo "boot: $name: no kernel banner under KVM within $KVM_PROBE_SECS s, falling back to TCG"
		[ -z "$KVM_PROBE_FILE" ] || [ -z "$alive" ] ||
			echo "KVM gave no kernel banner within $KVM_PROBE_SECS s when probed on $(date '+%F %T')" > "$KVM_PROBE_FILE"
	fi
fi
if [ "$accel" = tcg ]; then
	accel=tcg,thread=$TCG_THREAD
	# vCPUs that run at once: the close race must meet the events' own
	# window too (bpf_tracepoints_stress.c), as under KVM
	race_args=
	[ "$TCG_THREAD" = single ] || race_args=BPF_TRACEPOINTS_RACE_UNTIL_WINDOW=1
	# shellcheck disable=SC2086 # two arguments, or none; one, or none
	(qemu "$accel" $tsc_args $race_args "$@") || rc=$?
	# stale_int3: prints what QEMU's stale int3 this boot met, or fails:
	# an int3 Oops whose byte is no longer cc, or the same defect as a
	# livelock (6.1), a guest that hung with a vCPU taking the int3 again
	# and again while text_poke_bp() waits for it. Why a boot's int3 Oops
	# or hang is not that goes to stderr.
	stale_int3() {	# (run in $(...): its variables are its own)
		if grep -Eq "$INT3_OOPS_ERE" "$console" 2>/dev/null; then
			why=$("$(dirname "$0")/stale-int3.sh" "$console") && { echo "$why"; return 0; }
			echo "boot: $name: an int3 Oops, not QEMU's stale one: $why" >&2
		fi
		[ "$rc" = 124 ] || [ "$rc" = 137 ] || return 1
		why=$("$(dirname "$0")/int3-livelock.sh" "$console") && { echo "$why"; return 0; }
		echo "boot: $name: hung, and not in QEMU's stale int3: $why" >&2
		return 1
	}
	stale=
	if [ "$TCG_THREAD" = multi ] && [ "$STALE_INT3_REBOOT" = 1 ]; then
		stale=$(stale_int3) || stale=
	fi
	if [ -n "$stale" ]; then
		mv "$console" "$logdir/$name.stale-int3.console.log"
		mv "$out" "$logdir/$name.stale-int3.out" 2>/dev/null || true
		# what the first boot's tests had failed (the one the Oops
		# killed among them) is named, not lost: the second boot runs
		# them all again, and results.sh lists them by the reboot
		failed=$(tr -d '\r' < "$logdir/$name.stale-int3.out" 2>/dev/null |
			sed -n 's/^\(# \)*not ok [0-9]* \([^ ]*\).*/\2/p' | sort -u | tr '\n' ' ')
		rebooted="; first boot: QEMU's $stale (docs/int3-oops.md, log: $name.stale-int3.console.log${failed:+; its tests that failed: ${failed% }})"
		echo "boot: $name: $stale under $accel: QEMU's defect (docs/int3-oops.md); booting again as before"
		# Under the same conditions (threads, race window, timeout): a
		# real text-poke race that looks stale has the same chance to
		# come back, and a second one fails the guest.
		rc=0
		# shellcheck disable=SC2086
		(qemu "$accel" $tsc_args $race_args "$@") || rc=$?
		if again=$(stale_int3); then
			rebooted="$rebooted; booted again: $again"
			second_stale=1
		fi
	fi
fi
secs=$(($(date +%s) - start))

verdict() {	# verdict ok|not ok, DESCRIPTION
	printf 'KTAP version 1\n1..1\n%s 1 %s\n' "$1" "$2" > "$logdir/$name.boot"
}
fail() {
	echo "boot: $name: $*" >&2
	echo "boot: console log kept: $console" >&2
	verdict "not ok" "boot $name: $* (log: $console)$rebooted"
	exit 1
}
[ -z "${second_stale:-}" ] || fail "QEMU's stale int3 twice on one guest: no longer taken for QEMU's"
[ "$rc" != 124 ] && [ "$rc" != 137 ] || fail "guest hung: killed after $BOOT_TIMEOUT s ($accel)"
[ "$rc" = 0 ] || fail "qemu exited with $rc ($accel): $(tail -3 "$logdir/$name.qemu.log")"
# Any of these in the console fails the run, whatever the tests said;
# but for lines that match SPLAT_COLLECT (an ERE: make kcsan's reports,
# which a script of its own reads).
splat=$SPLAT_ERE
splats() {
	if [ -n "${SPLAT_COLLECT:-}" ]; then
		grep -En "$splat" "$console" | grep -Ev "$SPLAT_COLLECT" || true
	else
		grep -En "$splat" "$console" || true
	fi
}
if [ -n "$(splats)" ]; then
	# the first report whole (its call trace), then every report's line
	first=$(splats | head -1 | cut -d: -f1)
	sed -n "$first,$((first + 40))p" "$console" >&2
	echo "boot: $name: every report line:" >&2
	splats | grep -v 'Call Trace:' | head -20 >&2
	fail "kernel splat in the guest log: $(sed -n "${first}s/^\[[ 0-9.]*\] //p" "$console")"
fi
grep -q 'rig: guest done' "$console" || fail "init did not finish"
cpus=$(sed -n 's/.*rig: \([0-9]*\) CPUs online.*/\1/p' "$console" | head -1)
[ "$cpus" = "$SMP" ] || fail "the guest sees ${cpus:-no} CPUs, QEMU gave it $SMP ($accel)"
version=$(grep -o 'Linux version [^ ]*' "$console" | head -1)
clock=$(sed -n 's/.*clocksource: Switched to clocksource \([^ ]*\).*/\1/p' "$console" | tr -d '\r' | tail -1)
echo "boot: $name: $version under $accel (QEMU $qemu_version), $cpus CPUs, clock ${clock:-?}, $secs s$rebooted"
verdict ok "boot $name: $version under $accel (QEMU $qemu_version), $cpus CPUs, clock ${clock:-?}, no splat$rebooted"
echo "$secs" > "$logdir/$name.seconds"
# a clean boot is kept by its key (GUEST_CACHE): no reboot, results and
# no failed test among them, every suite run it announced ended with
# run_kselftest.sh's exit 0
clean() {
	[ -f "$out" ] || return 1
	tr -d '\r' < "$out" > "$out.clean"
	grep -Eq '^(# )*ok ' "$out.clean" &&
		! grep -Eq '^(# )*not ok |# *TIMEOUT' "$out.clean" &&
		want=$(sed -n 's/^# rig: suite runs \([0-9]*\)$/\1/p' "$out.clean") &&
		{ [ -z "$want" ] ||
		  [ "$(grep -c '^# rig: run_kselftest.sh took .*, exit=0$' "$out.clean")" = "$want" ]; }
	kept_ok=$?
	rm -f "$out.clean"
	return "$kept_ok"
}
if [ -n "$cache_key" ] && [ -z "$rebooted" ] && clean; then
	mkdir -p "$kept.tmp"
	for f in console.log out seconds qemu.log boot; do
		cp "$logdir/$name.$f" "$kept.tmp/${f}" 2>/dev/null || true
	done
	rm -rf "$kept"
	mv "$kept.tmp" "$kept"
fi
