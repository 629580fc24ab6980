#!/bin/bash
# The rig's own checks, each fed planted input it must refuse, and a
# control it must take: results.sh (a header-only run, a skip or death
# hidden behind another program, a second run missing, a skip for another
# reason), write-manifest.sh, killed-by.sh (substrings, timeouts, a
# flake), compare-elf.sh (a 64 KiB .bss, the symbol table),
# build-warnings.sh (warnings without a column), bench-btf-report.sh (a
# row missing, a tracer that counted fewer), stale-int3.sh and
# int3-livelock.sh (a real int3, a deadlock), and boot.sh's stale int3
# reboot and storm-test.sh's storm once more after a livelock, against a
# stand-in QEMU that replays planted consoles. Needs
# nothing built. Prints KTAP; exits non-zero when a check fails.
# Usage: rig-check.sh
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
qemu=$(cd "$here/../qemu" && pwd)
. "$here/ktap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "KTAP version 1"

# expect NAME WANT-STATUS PATTERN COMMAND...: COMMAND exits WANT-STATUS
# (0, or "fail" for any other) and its output (both streams) matches the
# ERE PATTERN
expect() {
	local name=$1 want=$2 pattern=$3 got rc=0
	shift 3
	got=$("$@" 2>&1) || rc=$?
	if { [ "$want" = 0 ] && [ "$rc" != 0 ]; } || { [ "$want" = fail ] && [ "$rc" = 0 ]; }; then
		result FAIL "$name" "exit $rc, want ${want/fail/non-zero}:
$got"
	elif ! grep -Eq -- "$pattern" <<< "$got"; then
		result FAIL "$name" "no line matches /$pattern/ in:
$got"
	else
		result OK "$name"
	fi
}

# ksft RUN-LINES...: run_kselftest.sh's TAP of programs, each given as
# "PROG:RESULT..." where RESULT is ok:TEST, skip:TEST:REASON, fail:TEST,
# exit:N (the program's status; 0 by default) or whole-skip:REASON
ksft() {
	local i=0 p
	echo "TAP version 13"
	echo "1..$#"
	for p in "$@"; do
		i=$((i + 1))
		awk -v spec="$p" -v i="$i" 'BEGIN {
			n = split(spec, r, ","); prog = r[1]; rc = 0; k = 0
			print "# selftests: bpf_tracepoints: " prog
			for (j = 2; j <= n; j++) {
				split(r[j], f, ":")
				if (f[1] == "exit") rc = f[2]
				else if (f[1] == "whole-skip") { print "# TAP version 13"; print "# 1..0 # SKIP " f[2]; rc = 4 }
				else if (f[1] != "none") t++
			}
			if (t) { print "# TAP version 13"; print "# 1.." t }
			for (j = 2; j <= n; j++) {
				split(r[j], f, ":")
				if (f[1] == "ok") print "# ok " ++k " " f[2]
				else if (f[1] == "skip") print "# ok " ++k " " f[2] " # SKIP " f[3]
				else if (f[1] == "fail") { print "# # " f[2] ": Test failed"; print "# not ok " ++k " " f[2]; if (!rc) rc = 1 }
			}
			if (rc == 4) print "ok " i " selftests: bpf_tracepoints: " prog " # SKIP"
			else if (rc) print "not ok " i " selftests: bpf_tracepoints: " prog " # exit=" rc
			else print "ok " i " selftests: bpf_tracepoints: " prog
		}'
	done
}
suite() {	# suite [RUNS]: one run of a two-program suite, RUNS announced
	[ -z "${1:-}" ] || echo "# rig: suite runs $1"
}
took() { echo "# rig: run_kselftest.sh took 9 s, exit=0"; }

# --- results.sh ------------------------------------------------------
cat > "$tmp/manifest" <<'EOF'
# planted
t/on ok a.one
t/on ok a.two
t/on skip b.three no BPF_F_PATH_FD here
EOF
good() { ksft "a_test,ok:a.one,ok:a.two" "b_test,skip:b.three:no BPF_F_PATH_FD here"; took; }
{ suite 2; good; good; } > "$tmp/twice.out"
expect "results: the control, two runs held to the manifest, passes" 0 '^2 passed, 0 failed, 1 skipped$|^4 passed, 0 failed, 2 skipped$' \
	env MANIFEST="$tmp/manifest" "$qemu/results.sh" t/on="$tmp/twice.out"
printf 'KTAP version 1\n' > "$tmp/header.out"
expect "results: a run that is a KTAP header alone fails" fail 'KTAP with no results' \
	"$qemu/results.sh" t/x="$tmp/header.out"
expect "results: ... and fails where the manifest covers it" fail 'KTAP with no results' \
	env MANIFEST="$tmp/manifest" "$qemu/results.sh" t/on="$tmp/header.out"
{ suite 1; ksft "a_test,ok:a.one" "b_test,none,exit:4"; took; } > "$tmp/progskip.out"
expect "results: a program that skips whole after another's results is a skip" fail 'unexpected skip of b_test' \
	"$qemu/results.sh" t/x="$tmp/progskip.out"
{ suite 1; ksft "a_test,fail:a.one" "b_test,none,exit:139"; took; } > "$tmp/died.out"
expect "results: a program that dies unreported after another's failure is named" fail 'not ok b_test exited 139' \
	"$qemu/results.sh" t/x="$tmp/died.out"
{ suite 2; good; } > "$tmp/onepass.out"
expect "results: a second run missing altogether fails" fail 'ran 1 of the 2 times' \
	env MANIFEST="$tmp/manifest" "$qemu/results.sh" t/on="$tmp/onepass.out"
{ suite 2; good; ksft "a_test,ok:a.one" "b_test,skip:b.three:no BPF_F_PATH_FD here"; took; } > "$tmp/lost.out"
expect "results: a test missing from the second run fails" fail 'a.two is missing from 1 of the suite.s 2 runs' \
	env MANIFEST="$tmp/manifest" "$qemu/results.sh" t/on="$tmp/lost.out"
{ suite 1; ksft "a_test,ok:a.one,ok:a.two" "b_test,skip:b.three:option is not set"; took; } > "$tmp/reason.out"
expect "results: a skip for another reason than the manifest's fails" fail 'b.three skipped for another reason' \
	env MANIFEST="$tmp/manifest" "$qemu/results.sh" t/on="$tmp/reason.out"
printf 't/on ok a.one\nt/on ok a.two\nt/on skip b.three\n' > "$tmp/noreason"
expect "results: a manifest skip without a reason holds a test that gives one" fail 'b.three skipped for another reason' \
	env MANIFEST="$tmp/noreason" "$qemu/results.sh" t/on="$tmp/reason.out"
{ good; good; } > "$tmp/unannounced.out"
expect "results: a guest that runs the suite without announcing how often fails" fail 'never said how many' \
	"$qemu/results.sh" t/x="$tmp/unannounced.out"

# --- write-manifest.sh -------------------------------------------------
expect "write-manifest: the control, nothing changed, writes the reasons" 0 '^t/on skip b.three no BPF_F_PATH_FD here$' \
	"$qemu/write-manifest.sh" "$tmp/manifest" t/on="$tmp/twice.out"
{ suite 1; ksft "a_test,ok:a.one" "b_test,skip:b.three:no BPF_F_PATH_FD here"; took; } > "$tmp/gone.out"
expect "write-manifest: a test gone is refused" fail 'gone: t/on ok a.two' \
	"$qemu/write-manifest.sh" "$tmp/manifest" t/on="$tmp/gone.out"
expect "write-manifest: a skip for another reason is refused" fail 'skip: t/on skip b.three option is not set' \
	"$qemu/write-manifest.sh" "$tmp/manifest" t/on="$tmp/reason.out"
expect "write-manifest: ... unless MANIFEST_ACCEPT=1" 0 '^t/on skip b.three option is not set$' \
	env MANIFEST_ACCEPT=1 "$qemu/write-manifest.sh" "$tmp/manifest" t/on="$tmp/reason.out"
{ cat "$tmp/manifest"; echo "u/on ok c.four"; } > "$tmp/manifest2"
expect "write-manifest: a run not given keeps its lines" 0 '^u/on ok c.four$' \
	"$qemu/write-manifest.sh" "$tmp/manifest2" t/on="$tmp/twice.out"

# --- killed-by.sh ------------------------------------------------------
kb() { printf '%b\n' "$1" | "$here/killed-by.sh" "${@:2}"; }
expect "killed-by: a test by its whole name kills" 0 'not ok global.cmd_fail$' \
	kb '6.12/on: not ok global.cmd_fail\n\t# x' 'not ok global.cmd_fail'
expect "killed-by: another test whose name starts with it does not" fail '^$' \
	kb '6.12/on: not ok global.cmd_fail_before_the_copy' 'not ok global.cmd_fail'
expect "killed-by: the named test's timeout is no failure of it" fail '^$' \
	kb '6.12/on: not ok global.cmd_fail\n\t# global.cmd_fail: Test terminated by timeout' 'not ok global.cmd_fail'
expect "killed-by: ... but kills where the header names the timeout" 0 'global.cmd_fail' \
	kb '6.12/on: not ok global.cmd_fail\n\t# global.cmd_fail: Test terminated by timeout' 'timeout global.cmd_fail'
expect "killed-by: the close races' flake is not its leak check" fail '^$' \
	kb '6.12/on: not ok stress.two_cpus_close_races\n\t# stress.c:1347:two_cpus_close_races:no fd the maker made was closed under it' \
	'not ok stress.two_cpus_close_races: left after'
expect "killed-by: ... and the leak check kills" 0 'close_races' \
	kb '6.12/on: not ok stress.two_cpus_close_races\n\t# stress.c:1334:two_cpus_close_races:left after 10 s: 3 racem maps, 0 racep programs' \
	'not ok stress.two_cpus_close_races: left after'
expect "killed-by: a hang kills only a header that names it" fail '^$' \
	kb 'm/boot: not ok boot m: guest hung: killed after 300 s (tcg)\n6.12/on: not ok global.map_create is missing: the manifest lists it (ok)' \
	'not ok global.map_create'
expect "killed-by: a splat kills by its text" 0 'KASAN: use-after-free' \
	kb 'm/boot: not ok boot m: kernel splat in the guest log: BUG: KASAN: use-after-free in trace_event_raw_event_bpf_map_create' \
	'kernel splat in the guest log: KASAN: use-after-free in trace_event_raw_event_bpf_map_create'
expect "killed-by: an object's section by its whole name" fail '^$' \
	kb 'zero-cost: kernel/bpf/syscall.o: .text.unlikely: 3 bytes differ in f' 'zero-cost: kernel/bpf/syscall.o: .text'
expect "killed-by: a kill the rig cannot read is refused" fail 'cannot read' \
	"$here/killed-by.sh" --check 'global.cmd_fail'

# --- compare-elf.sh ----------------------------------------------------
printf 'int f(int x) { return x + 1; }\nint keep[4];\nint *g(void) { return keep; }\n' > "$tmp/a.c"
{ cat "$tmp/a.c"; printf 'static char planted[65536] __attribute__((used));\n'; } > "$tmp/bss.c"
{ cat "$tmp/a.c"; printf 'int planted_sym __attribute__((weak));\n'; } > "$tmp/sym.c"
# a section named with no dot, as 6.12's runtime_ptr_USER_PTR_MAX: its
# relocations are in .rela + its name, found by type (not by a ".rela.")
{ cat "$tmp/a.c"; printf 'int *nodot __attribute__((section("runtime_ptr_X"), used)) = keep;\n'; } > "$tmp/nodot.c"
{ cat "$tmp/a.c"; printf 'int *nodot __attribute__((section("runtime_ptr_X"), used)) = keep + 1;\n'; } > "$tmp/nodot2.c"
mkdir -p "$tmp/base" "$tmp/bss" "$tmp/sym" "$tmp/nodot" "$tmp/nodot2"
# each compiled as x.c: the file's name is a symbol too
for d in base bss sym nodot nodot2; do
	src=$tmp/a.c
	[ "$d" = base ] || src=$tmp/$d.c
	cp "$src" "$tmp/$d/x.c"
	(cd "$tmp/$d" && gcc -O2 -c x.c -o x.o)
done
printf 'CONFIG_X=y\n' > "$tmp/config"
expect "compare-objs: the control, one object against itself, is equal" 0 '^$' \
	"$here/compare-objs.sh" "$tmp/base" "$tmp/base" "$tmp/config" x.o
expect "compare-objs: a planted 64 KiB .bss differs" fail '^x.o: .bss: .* \(a size that differs' \
	"$here/compare-objs.sh" "$tmp/base" "$tmp/bss" "$tmp/config" x.o
expect "compare-objs: a planted symbol in no section's bytes differs" fail '^x.o: symbols: .*planted_sym' \
	"$here/compare-objs.sh" "$tmp/base" "$tmp/sym" "$tmp/config" x.o
expect "compare-objs: a section named with no dot, against itself, is equal" 0 '^$' \
	"$here/compare-objs.sh" "$tmp/nodot" "$tmp/nodot" "$tmp/config" x.o
# (exit 1, one line: not 2, a failed objcopy, nor its relocations' bytes)
expect "compare-objs: a relocation that differs there differs, and no other line" 0 \
	'^exit 1: x.o: runtime_ptr_X relocations: [^|]*$' \
	sh -c 'out=$("$@" 2>&1); echo "exit $?: $(echo "$out" | paste -sd "|")"' sh \
	"$here/compare-objs.sh" "$tmp/nodot" "$tmp/nodot2" "$tmp/config" x.o

# --- build-warnings.sh -------------------------------------------------
printf '%s\n' "/t/kernel/bpf/syscall.c:12:5: warning: unused variable 'x' [-Wunused-variable]" \
	"/t/kernel/bpf/syscall.c:99: warning: Function parameter or struct member 'y' not described in 'z'" \
	"kernel/bpf/syscall.o: warning: objtool: __sys_bpf+0x1c3: call to foo() with UACCESS enabled" \
	"  CC      kernel/bpf/syscall.o" > "$tmp/build.log"
expect "build-warnings: kernel-doc's warning, without a column, is one" 0 "^kernel/bpf/syscall.c: warning: Function parameter" \
	"$here/build-warnings.sh" /t < "$tmp/build.log"
expect "build-warnings: objtool's, without a line, is one (its offset read as one)" 0 '^kernel/bpf/syscall.o: warning: objtool: __sys_bpf\+0x\?: call' \
	"$here/build-warnings.sh" /t < "$tmp/build.log"
expect "build-warnings: gcc's keeps its text" 0 "^kernel/bpf/syscall.c: warning: unused variable 'x'" \
	"$here/build-warnings.sh" /t < "$tmp/build.log"

# --- stale-int3.sh, int3-livelock.sh -----------------------------------
oops() {	# oops BYTE: an int3 Oops whose trap is after BYTE
	cat <<EOF
[    5.1] Oops: int3: 0000 [#1] SMP
[    5.1] CPU: 1 UID: 0 PID: 259 Comm: bpf_tracepoints Not tainted 6.12.118+ #1
[    5.1] RIP: 0010:__sys_bpf+0x58a/0x1f5b
[    5.1] Code: 8b 7b 10 e8 33 b8 ff ff $1 <05> 48 8b
[    5.1] Call Trace:
EOF
}
oops eb > "$tmp/stale.log"
oops cc > "$tmp/real.log"
expect "stale-int3: the control, a trap byte that is no longer cc, is QEMU's" 0 '^stale int3 at __sys_bpf' \
	"$qemu/stale-int3.sh" "$tmp/stale.log"
expect "stale-int3: cc still at the trap is a real int3" fail 'a real int3' \
	"$qemu/stale-int3.sh" "$tmp/real.log"
stall() {	# stall CPU RIP: one RCU stall report with a CPU at RIP
	cat <<EOF
[   60.0] rcu: INFO: rcu_sched self-detected stall on CPU
[   60.0] CPU: $1 PID: 0 Comm: swapper/$1 Not tainted 6.1.192 #1
[   60.0] RIP: 0010:$2
[   60.0] Call Trace:
[   60.0]  smp_call_function_many_cond+0x1/0x2
[   60.0]  text_poke_bp_batch+0x1/0x2
EOF
}
{ stall 0 'queued_spin_lock_slowpath+0x1/0x2'; stall 2 'asm_exc_int3+0x0/0x30'; stall 0 'queued_spin_lock_slowpath+0x1/0x2'; } > "$tmp/deadlock.log"
{ stall 2 'asm_exc_int3+0x0/0x30'; stall 2 'asm_exc_int3+0x0/0x30'; stall 2 'asm_exc_int3+0x0/0x30'; } > "$tmp/livelock.log"
expect "int3-livelock: a deadlock with one int3 sample is no livelock" fail 'caught entering the int3 handler once' \
	"$qemu/int3-livelock.sh" "$tmp/deadlock.log"
# one report whose NMI backtrace prints CPU 2's registers twice
{ stall 2 'asm_exc_int3+0x0/0x30'; printf '[   60.1] CPU: 2 PID: 0 Comm: swapper/2\n[   60.1] RIP: 0010:asm_exc_int3+0x0/0x30\n'; } > "$tmp/twice-in-one.log"
expect "int3-livelock: one report that prints a CPU twice is one sample" fail 'caught entering the int3 handler once' \
	"$qemu/int3-livelock.sh" "$tmp/twice-in-one.log"
expect "int3-livelock: the control, one CPU at the handler again and again, is" 0 '^stale int3 livelock: CPU 2 .*3 stall reports' \
	"$qemu/int3-livelock.sh" "$tmp/livelock.log"

# --- boot.sh's reboot, against a stand-in QEMU -------------------------
# It writes the console of boot N from $PLANTED/N (or a clean one), and
# logs its command line: the reboot must run as the first boot did.
cat > "$tmp/qemu" <<'EOF'
#!/bin/sh
[ "$1" != --version ] || { echo "QEMU emulator version 10.0.2"; exit 0; }
n=$(($(cat "$PLANTED/count" 2>/dev/null || echo 0) + 1))
echo "$n" > "$PLANTED/count"
echo "$*" >> "$PLANTED/args"
console= out=
for a in "$@"; do
	case $a in file:*) if [ -z "$console" ]; then console=${a#file:}; else out=${a#file:}; fi ;; esac
done
if [ -f "$PLANTED/$n" ]; then cat "$PLANTED/$n" > "$console"; else
	printf 'Linux version 6.12.118+\nrig: 4 CPUs online\nrig: guest done\n' > "$console"
fi
if [ -f "$PLANTED/$n.out" ]; then cat "$PLANTED/$n.out" > "$out"; else
	printf 'KTAP version 1\n1..1\nok 1 t\n' > "$out"
fi
# 124: what timeout(1) gives boot.sh for a guest it killed
[ ! -f "$PLANTED/$n.hung" ] || exit 124
EOF
chmod +x "$tmp/qemu"
boot() {	# boot NAME [PLANTED-CONSOLE...]: boot.sh with those consoles
	local name=$1 i=0 f
	shift
	rm -rf "$tmp/$name.planted"
	mkdir -p "$tmp/$name.planted"
	for f in "$@"; do
		i=$((i + 1))
		{ printf 'Linux version 6.12.118+\nrig: 4 CPUs online\n'; cat "$f"; printf 'rig: guest done\n'; } > "$tmp/$name.planted/$i"
	done
	PLANTED=$tmp/$name.planted QEMU=$tmp/qemu ACCEL=tcg TCG_THREAD=multi KVM_PROBE_FILE= \
		"$qemu/boot.sh" "$tmp/a.c" "$tmp/a.c" "$tmp/logs" "$name" x=1 || true
	cat "$tmp/logs/$name.boot"
	sed 's/^/args: /' "$tmp/$name.planted/args"
}
expect "boot: the control, a clean boot, is ok" 0 '^ok 1 boot clean: .*tcg,thread=multi' boot clean
expect "boot: a stale int3 then a clean boot is ok, named" 0 "^ok 1 boot once: .*; first boot: QEMU's stale int3" boot once "$tmp/stale.log"
expect "boot: ... booted again multi-threaded with the race window" 0 \
	'^args: -accel tcg,thread=multi .*BPF_TRACEPOINTS_RACE_UNTIL_WINDOW=1' boot once2 "$tmp/stale.log"
if [ "$(grep -c 'thread=multi.*RACE_UNTIL_WINDOW' "$tmp/once2.planted/args")" = 2 ]; then
	result OK "boot: both boots under the same conditions"
else
	result FAIL "boot: both boots under the same conditions" "$(cat "$tmp/once2.planted/args")"
fi
expect "boot: a second stale int3 on the same guest fails it" 0 "^not ok 1 boot twice: QEMU's stale int3 twice on one guest" \
	boot twice "$tmp/stale.log" "$tmp/stale.log"
expect "boot: a real int3 is no reboot" 0 "^not ok 1 boot real: kernel splat" boot real "$tmp/real.log"
# the guests' cache: a clean boot kept, taken back for the same key,
# booted again when asked or when the kernel changed; a failed one not kept
cached_boot() {	# cached_boot NAME KERNEL [ENV...]: boot.sh with GUEST_CACHE
	local name=$1 kernel=$2
	shift 2
	env "$@" GUEST_CACHE="$tmp/guests" PLANTED="$tmp/cache.planted" QEMU="$tmp/qemu" ACCEL=tcg \
		TCG_THREAD=multi KVM_PROBE_FILE= "$qemu/boot.sh" "$kernel" "$tmp/a.c" "$tmp/logs" "$name" x=1 || true
	echo "qemu ran $(cat "$tmp/cache.planted/count") times"
	cat "$tmp/logs/$name.boot"
}
mkdir -p "$tmp/cache.planted"
cp "$tmp/a.c" "$tmp/kernel"
expect "guest cache: the first boot boots" 0 '^qemu ran 1 times' cached_boot g "$tmp/kernel"
expect "guest cache: the same boot again is kept, and says so" 0 '^ok 1 boot g: .*\(kept: an earlier boot' \
	cached_boot g "$tmp/kernel"
expect "guest cache: ... without QEMU" 0 '^qemu ran 1 times' cached_boot g "$tmp/kernel"
expect "guest cache: GUEST_RERUN=1 boots it again" 0 '^qemu ran 2 times' cached_boot g "$tmp/kernel" GUEST_RERUN=1
echo changed >> "$tmp/kernel"
expect "guest cache: another kernel boots" 0 '^qemu ran 3 times' cached_boot g "$tmp/kernel"
cp "$tmp/real.log" "$tmp/cache.planted/4"
expect "guest cache: a failed boot ..." 0 '^not ok 1 boot f: kernel splat' cached_boot f "$tmp/kernel"
expect "guest cache: ... is not kept" 0 '^qemu ran 5 times' cached_boot f "$tmp/kernel"
# storm-verdict.sh and storm-test.sh: a hung storm is QEMU's livelock
# (once more) or the guest's own hang (a failure, its console's tail shown)
mkdir -p "$tmp/verdict"
hung_storm() {	# hung_storm CONSOLE: storm-verdict.sh of a hung boot with it
	cp "$1" "$tmp/verdict/s.console.log"
	echo "not ok 1 boot s: guest hung: killed after 130 s (tcg,thread=multi) (log: x)" > "$tmp/verdict/s.boot"
	"$qemu/storm-verdict.sh" "$tmp/verdict" s
}
expect "storm-verdict: a hung storm in the livelock is QEMU's" fail \
	"^hung: guest hung: killed after 130 s \\(tcg,thread=multi\\): QEMU's stale int3 livelock: CPU 2" \
	hung_storm "$tmp/livelock.log"
expect "storm-verdict: a hung storm in a deadlock is not" fail \
	"^hung: guest hung: killed after 130 s \\(tcg,thread=multi\\): not QEMU's stale int3 livelock: .*once" \
	hung_storm "$tmp/deadlock.log"
storm_test() {	# storm_test NAME HUNG-CONSOLE...: storm-test.sh, those boots hung
	local name=$1 i=0 f
	shift
	rm -rf "$tmp/$name.planted" "$tmp/$name.logs"
	mkdir -p "$tmp/$name.planted"
	for f in "$@"; do
		i=$((i + 1))
		{ printf 'Linux version 6.1.192+\nrig: 4 CPUs online\n'; cat "$f"; } > "$tmp/$name.planted/$i"
		touch "$tmp/$name.planted/$i.hung"
	done
	for i in 1 2 3; do
		printf 'hammer: cpu 0 (ran on 0): 5 commands, 0 failed\nhammer: cpu 1 (ran on 1): 5 commands, 0 failed\nstorm: toggle=bpf secs=1 flips=3 hammers=ok\n' \
			> "$tmp/$name.planted/$i.out"
	done
	PLANTED=$tmp/$name.planted QEMU=$tmp/qemu KVM_PROBE_FILE='' \
		"$qemu/storm-test.sh" "$tmp/a.c" "$tmp/a.c" "$tmp/$name.logs" t 1 || true
	ls "$tmp/$name.logs" | sed 's/^/kept: /'
	echo "qemu ran $(cat "$tmp/$name.planted/count") times"
}
expect "storm-test: the control, a storm that survives, is ok" 0 '^ok 1 int3 storm: t, multi-threaded TCG, 1 s: survived: 3 flips, 10' \
	storm_test calm
expect "storm-test: QEMU's livelock, then a survivor, is ok ..." 0 '^ok 1 int3 storm: .*survived' storm_test livelock "$tmp/livelock.log"
expect "storm-test: ... and the first storm's console kept" 0 '^kept: storm-t-bpf-multi-1.first.console.log$' \
	storm_test livelock2 "$tmp/livelock.log"
expect "storm-test: QEMU's livelock twice fails" 0 "^not ok 1 int3 storm: .*hung: .*: QEMU's stale int3 livelock" \
	storm_test livelock-twice "$tmp/livelock.log" "$tmp/livelock.log"
expect "storm-test: a deadlock fails at once, its console's tail shown" 0 \
	'^# console: .*queued_spin_lock_slowpath' storm_test deadlock "$tmp/deadlock.log"
expect "storm-test: ... with no second storm" 0 '^qemu ran 1 times' storm_test deadlock2 "$tmp/deadlock.log"
expect "results: a reboot is counted in the summary" 0 "^QEMU's stale int3: 1 of 1 boots booted once more" \
	"$qemu/results.sh" t/boot="$tmp/logs/once.boot"

# --- the Makefile: what timed.sh runs is a command ---------------------
# (timed.sh runs "$@": a leading VAR=VALUE is no command; make -n shows
# what each step would run, without running it)
# 6.1: its debug guest needs no BTF archive, which -n cannot make
made=$(make -s -n -C "$here/.." test-boots debug-guest KVER=6.1 OUT="$tmp/make-out" 2>&1 | grep 'scripts/timed.sh' || true)
bad=$(echo "$made" | sed 's/.*scripts\/timed.sh [^ ]* "[^"]*" *//' | awk '$1 ~ /^[A-Za-z_][A-Za-z0-9_]*=/')
missing=
for step in "boot on" "boot off" "boot debug" "boot neighbour"; do
	echo "$made" | grep -qF "\"6.1 $step\"" || missing="$missing $step;"
done
if [ -z "$bad$missing" ]; then
	result OK "Makefile: the guests' timed steps (on, off, debug, neighbour) each run a command"
else
	result FAIL "Makefile: the guests' timed steps each run a command" "${bad}${missing:+not seen:$missing}"
fi

# --- bench-btf-report.sh: every row there, every tracer counted ---------
bench_rows() {	# bench_rows LABEL...: a bench output with those labels' rows
	local l
	for l in "$@"; do
		printf 'bench %s lookup 8 %d\nbench %s update 8 %d\nops %s 100\n' "$l" 1000 "$l" 1100 "$l"
	done
}
tracers="bpftrace-kprobe bpftrace-event bpftrace-fentry bpftrace-fexit bpf-lsm raw-tp"
{ bench_rows disabled event event-filtered kmalloc kfree kprobe strace fprobe syscalls $tracers
  for t in $tracers; do echo "traced $t 100"; done; } > "$tmp/bench.out"
bench_rows audit > "$tmp/bench-audit.out"
expect "bench-btf-report: the control" 0 '^raw-tp +1000 +1100 +0 +0' \
	"$qemu/bench-btf-report.sh" "$tmp/bench.out" "$tmp/bench-audit.out"
grep -v '^bench fprobe update' "$tmp/bench.out" > "$tmp/bench-norow.out"
expect "bench-btf-report: a row missing one op" fail 'no update figure for fprobe' \
	"$qemu/bench-btf-report.sh" "$tmp/bench-norow.out" "$tmp/bench-audit.out"
sed 's/^traced raw-tp 100/traced raw-tp 99/' "$tmp/bench.out" > "$tmp/bench-few.out"
expect "bench-btf-report: a tracer that counted fewer" fail 'raw-tp counted 99 of 100' \
	"$qemu/bench-btf-report.sh" "$tmp/bench-few.out" "$tmp/bench-audit.out"
grep -v '^ops bpf-lsm' "$tmp/bench.out" > "$tmp/bench-noops.out"
expect "bench-btf-report: a tracer's loop that reported nothing" fail 'bpf-lsm counted 100 of no' \
	"$qemu/bench-btf-report.sh" "$tmp/bench-noops.out" "$tmp/bench-audit.out"
echo "bench audit failed: no CONFIG_AUDIT, or no audit=1" > "$tmp/bench-noaudit.out"
expect "bench-btf-report: an audit boot without audit" fail 'bench audit failed' \
	"$qemu/bench-btf-report.sh" "$tmp/bench.out" "$tmp/bench-noaudit.out"

# (the plan last: the checks are counted as they run)
echo "1..$ktap_n"
ktap_status
