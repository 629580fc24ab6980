# Build, boot and test rig for CONFIG_BPF_LOW_LEVEL_TRACEPOINTS.
#
#   make run    build both kernels, boot the on kernel, show bpf:* events
#   make test   for each tree (6.12, 6.1): check the series, build and boot
#               the on, off and debug kernels, run all tests
#
# Every target takes KVER=6.12 (default) or KVER=6.1.
#
# Everything is built under $(OUT), which git ignores.

KVER	?= 6.12
# make test covers every tree; the debug kernel's canary and trinity run
# on the first only
TREES	:= 6.12 6.1
DEBUG_TREE := 6.12
LOGS_DEBUG = $(OUT)/logs/$(DEBUG_TREE)
OUT	?= out
PATCHES	:= kernel-patches/$(KVER)
TREE	:= $(OUT)/linux-$(KVER)
BUILD	:= $(OUT)/build/$(KVER)
LOGS	:= $(OUT)/logs/$(KVER)
INITRD	:= $(OUT)/initramfs-$(KVER).cpio
# The selftests as kselftest installs them (run_kselftest.sh and all)
KSFT	:= $(OUT)/kselftest/$(KVER)
KCONFIG	:= Kconfig.debug
# base (the guest), the selftests' config (what the tests need: a line
# missing there is missing in the guests), then what this tree needs
# beside them (defconfigs/6.1)
BASECFG	:= defconfigs/base selftests/bpf_tracepoints/config $(wildcard defconfigs/$(KVER))

# $(call boot,on|off|debug,MODE[,-SUFFIX]): logs go to $(LOGS)/KERNEL[-SUFFIX].*
# A test guest (modes test, twice, neighbour) that booted the same
# kernel, initramfs, QEMU and arguments before, cleanly, is not booted
# again: its logs are kept in $(GUEST_CACHE) (qemu/boot.sh). GUEST_RERUN=1
# boots every guest again (the race guests, say, for another roll).
GUEST_CACHE := $(abspath $(OUT)/cache/guests)
# $(call kept_guest,NAME,OUTFILE,FILES): the command after it (a guest of
# its own script: the int3 storm, trinity) kept as the host steps are, by
# FILES (what it boots), QEMU and the rig's guest scripts; GUEST_RERUN=1
# runs it all the same
kept_guest = env CACHED_RERUN=$(GUEST_RERUN) scripts/cached.sh $(CACHE) $(1) $(2) "$(3) qemu $(QEMU)"
boot	= $(if $(filter test twice neighbour,$(2)),env GUEST_CACHE=$(GUEST_CACHE)) qemu/boot.sh $(BUILD)-$(1)/arch/x86/boot/bzImage $(if $(filter debug,$(1)),$(DEBUG_INITRD),$(INITRD)) $(LOGS) $(1)$(3) \
	  RIG_MODE=$(2) BPF_TRACEPOINTS_EXPECT=$(if $(filter off,$(1)),off,on) \
	  $(if $(RIG_TEST),RIG_TEST=$(RIG_TEST))
# $(call tree_results,KVER): results.sh arguments for one tree's logs
tree_results = $(foreach r,make make-boots make-mutants mutants series gates bisect zero-cost docs stress storm-int3 on off \
		   make-debug debug stress-debug neighbour, \
		 $(1)/$(r)=$(OUT)/logs/$(1)/$(r).out) \
	       $(foreach k,on off debug,$(1)/boot-$(k)=$(OUT)/logs/$(1)/$(k).boot) \
	       $(1)/on-neighbour=$(OUT)/logs/$(1)/on-neighbour.out $(1)/boot-neighbour=$(OUT)/logs/$(1)/on-neighbour.boot
# (-icount counts one vCPU thread's instructions: single-threaded TCG)
icount	= ACCEL=tcg TCG_THREAD=single QEMU_EXTRA="-icount shift=0,sleep=off"
# Host-side results are kept by their inputs (scripts/cached.sh, the walk)
CACHE	:= $(OUT)/cache/$(KVER)
# $(call timed,LABEL,COMMAND): COMMAND, then how long it took (to stderr
# and $(TIMES), which make test prints at the end)
TIMES	:= $(OUT)/logs/times
timed	= scripts/timed.sh $(TIMES) "$(KVER) $(1)" $(2)
# The guests' QEMU: bookworm-backports', unpacked under $(OUT) (make deps,
# scripts/fetch-qemu.sh). qemu/boot.sh runs each vCPU in a host thread of
# its own (QEMU 8.1 or later: 7.2's executes stale int3s), or all in one
# with TCG_THREAD=single; a boot that meets 10.0.2's rarer stale int3 is
# booted once more as before, and says so; a second fails (docs/int3-oops.md).
QEMU_DIR := $(abspath $(OUT)/qemu)
export QEMU ?= $(QEMU_DIR)/usr/bin/qemu-system-x86_64
# (its firmware, for it alone: another QEMU= has its own)
export QEMU_DATA ?= $(if $(filter $(QEMU_DIR)/%,$(QEMU)),$(QEMU_DIR)/usr/share/qemu)
# One KVM probe per host kernel and QEMU: where KVM hangs, every later
# boot goes straight to TCG (qemu/boot.sh says so, naming the probe's
# file; delete it to probe again). A new kernel or QEMU probes anew.
KVM_KEY	:= $(shell { uname -r; $(QEMU) --version 2>/dev/null | head -1; } | sha256sum | cut -c1-12)
PROBE	:= $(abspath $(OUT)/kvm-probe-$(KVM_KEY))
export KVM_PROBE_FILE ?= $(PROBE)

.PHONY: all run test rig-check typed-initramfs bench-btf test-tree test-host test-boots neighbour neighbour-guest test-mutants manifest test-debug debug-guest compare-debug debug-kernel deps tree check-series check-gates check-docs walk kernels zero-cost selftests initramfs \
	boot-on boot-off rerun kselftest-kernel kselftest-guest kcsan-kernel kcsan fuzz bench bench-verifier capture repro-int3 mutants regen-kconfig-patch regen-selftest-patch export-series clean

all: run

# Targets share the trees and build dirs (the walk checks out commits): one
# at a time, whatever -j says. Kernel builds take their own -j.
.NOTPARALLEL:

# A host check run alone fails when a result does; make test keeps going
# (RIG_KEEP_GOING=1) and counts the results from their KTAP instead.
keep_going = $(if $(RIG_KEEP_GOING),|| true)

# DEPS_TREES: the packages of several trees in one apt run (make test)
deps:
	@$(call timed,packages$(if $(DEPS_TREES), ($(DEPS_TREES))),scripts/deps.sh $(or $(DEPS_TREES),$(KVER)))
	@$(call timed,qemu,scripts/fetch-qemu.sh $(QEMU_DIR))

tree: deps
	@$(call timed,tree,scripts/prepare-tree.sh $(KVER) $(PATCHES) $(TREE))

check-series: tree
	@mkdir -p $(LOGS)
	@$(call timed,series,scripts/cached.sh $(CACHE) series $(LOGS)/series.out \
		"$(PATCHES) $(KCONFIG) $(TREE)/.git/rig-stamp scripts/check-series.sh scripts/check-selftest-copy.sh scripts/ktap.sh selftests" \
		scripts/check-series.sh $(PATCHES) $(TREE) $(KCONFIG)) $(keep_going)

# Before sending (scripts/check-gates.sh): W=1 and sparse on Debian's
# config against the unpatched tree, htmldocs, get_maintainer.pl.
check-gates: tree
	@mkdir -p $(LOGS)
	@$(call timed,gates,scripts/cached.sh $(CACHE) gates $(LOGS)/gates.out \
		"$(PATCHES) $(TREE)/.git/rig-stamp scripts/check-gates.sh scripts/check-config.sh scripts/build-warnings.sh scripts/objtool-args.sh scripts/compare-elf.sh scripts/compare-objs.sh scripts/ktap.sh selftests/bpf_tracepoints/config $(wildcard /usr/src/linux-config-$(KVER))" \
		scripts/check-gates.sh $(TREE) $(PATCHES) $(BUILD)-gates $(KVER)) $(keep_going)

check-docs: tree
	@mkdir -p $(LOGS)
	@$(call timed,docs,scripts/cached.sh $(CACHE) docs $(LOGS)/docs.out \
		"$(KCONFIG) $(TREE)/.git/rig-stamp scripts/check-docs.sh scripts/ktap.sh" \
		scripts/check-docs.sh $(TREE) $(KCONFIG)) $(keep_going)

# Bisectability and the kernels in one walk: the unpatched tree (off, the
# zero-cost baseline), then every prefix of the series, off and on, in
# the same two warm build trees; the last prefix is the on and off kernels.
walk: tree
	@mkdir -p $(LOGS)
	@$(call timed,walk (bisect + kernels),scripts/walk-series.sh $(TREE) $(BUILD) $(CACHE)/walk \
		defconfigs/on defconfigs/off defconfigs/zero-cost $(BASECFG)) > $(LOGS)/bisect.out $(keep_going)

# The kernels alone, for run, bench and capture (make test walks instead).
kernels: tree
	@scripts/build-kernel.sh $(TREE) $(BUILD)-on $(BASECFG) defconfigs/on
	@scripts/build-kernel.sh $(TREE) $(BUILD)-off $(BASECFG) defconfigs/off

# The off kernel against the unpatched tree: bytes, sections, symbols
# (kept by the three kernels, the series and the check).
zero-cost: walk
	@mkdir -p $(LOGS)
	@$(call timed,zero-cost,scripts/cached.sh $(CACHE) zero-cost $(LOGS)/zero-cost.out \
		"$(foreach k,baseline/zero-cost.vmlinux zero-cost/vmlinux baseline/vmlinux off/vmlinux on/vmlinux,$(BUILD)-$(k)) $(TREE)/.git/rig-stamp scripts/zero-cost-check.sh scripts/zero-cost-reasons scripts/compare-elf.sh scripts/ktap.sh $(wildcard /usr/src/linux-config-$(KVER))" \
		scripts/zero-cost-check.sh $(TREE) $(BUILD)) $(keep_going)

# Built and installed as CI systems do it: the kernel tree's kselftest
# Makefile, TARGETS=bpf_tracepoints, make install (run_kselftest.sh, the
# runner, the list, settings and TEST_FILES). Static: the guest has no libc.
# What is built is the series' copy (10/10), which check-series holds equal
# to selftests/: after editing selftests/, make regen-selftest-patch. The
# tree's tracked files are never written over.
selftests: tree
	@rm -rf $(KSFT)
	@$(MAKE) -s -C $(TREE)/tools/testing/selftests TARGETS=bpf_tracepoints \
		INSTALL_PATH=$(abspath $(KSFT)) LDFLAGS=-static VMLINUX_BTF= install >/dev/null
	@test -x $(KSFT)/run_kselftest.sh
	@progs=$$(sed -n 's/^bpf_tracepoints://p' $(KSFT)/kselftest-list.txt); \
	test -n "$$progs" || { echo "selftests: kselftest-list.txt lists no program" >&2; exit 1; }; \
	for p in $$progs bpf_tracepoints_workload; do \
		test -x $(KSFT)/bpf_tracepoints/$$p || { echo "selftests: $$p was not installed" >&2; exit 1; }; \
	done

# The installed kselftest directory goes in whole (the rst that one test
# reads is among its TEST_FILES).
initramfs: selftests
	@qemu/build-initramfs.sh $(INITRD) $(KSFT)

boot-on boot-off: boot-%: kernels initramfs
	@$(call boot,$*,test)

run: kernels initramfs
	@$(call boot,on,demo)
	@cat $(LOGS)/on.out

# The installed suite run twice in a row on one guest: both runs pass, or
# the tests left something behind (a veth pair, a pin, a tracefs setting).
rerun: kernels initramfs
	@$(call boot,on,twice,-twice)
	@MANIFEST=qemu/manifest qemu/results.sh $(KVER)/on=$(LOGS)/on-twice.out

# The installed suite twice in a row beside a noisy neighbour on the last
# CPU (qemu/init's neighbour mode: bpf_tracepoints_neighbour makes and
# frees maps and programs in a loop, as a machine's agents do): both runs
# pass, and the neighbour ran through them (qemu/neighbour-check.sh: one
# that did not start fails). make test boots it on the on kernels.
neighbour: kernels initramfs
	@$(MAKE) -s neighbour-guest
	@MANIFEST=qemu/manifest qemu/results.sh $(KVER)/on-neighbour=$(LOGS)/on-neighbour.out \
		$(KVER)/boot-neighbour=$(LOGS)/on-neighbour.boot $(KVER)/neighbour=$(LOGS)/neighbour.out

# 6.1's neighbour guest runs its 4 vCPUs in one host thread: under
# multi-threaded TCG on QEMU 10.0.2 it hung in 2 runs of 4 on
# 2026-12-06 (once in QEMU's stale int3 livelock, once frozen with an NMI
# sent and never answered; docs/int3-oops.md), where 6.12's passed 4 of
# 4. The neighbour is there to share the machine, not to race the
# suite's CPUs: the on and debug guests do that.
NEIGHBOUR_THREAD_6.1 := single
neighbour-guest:
	@rm -f $(LOGS)/on-neighbour.out
	@$(call timed,boot neighbour,$(if $(NEIGHBOUR_THREAD_$(KVER)),env TCG_THREAD=$(NEIGHBOUR_THREAD_$(KVER)) BOOT_TIMEOUT=1200) \
		$(call boot,on,neighbour,-neighbour)) || true
	@qemu/neighbour-check.sh $(LOGS)/on-neighbour.out > $(LOGS)/neighbour.out $(keep_going)

# One tree: host checks, then both kernels booted (side by side, unless
# PARALLEL_BOOTS=0), every selftest on each. make test runs the two
# halves apart, so that the debug kernel starts between them.
PARALLEL_BOOTS ?= 1
# the int3 storms' seconds in make test (make repro-int3: STORM_SECS); on
# 6.12, the second on QEMU 7.2 shows a stale int3 booted again (7.2 meets
# one there within seconds, not on 6.1)
STORM_TEST_SECS ?= 10
test-tree: test-host
	@$(MAKE) -s test-boots

test-host: check-series check-gates check-docs walk zero-cost initramfs

# The kernels and initramfs of test-host, booted (no prerequisites: a
# debug build beside it must not see the initramfs rebuilt).
test-boots:
	@rm -f $(LOGS)/on.out $(LOGS)/off.out
	@{ $(call timed,boot on,$(call boot,on,test)) || true; } $(if $(filter 1,$(PARALLEL_BOOTS)),&,;) \
	{ $(call timed,boot off,$(call boot,off,test)) || true; }; wait
	@qemu/compare-stress.sh $(KVER) $(LOGS)/on.out $(LOGS)/off.out > $(LOGS)/stress.out $(keep_going)
	@$(call timed,int3 storm,$(call kept_guest,storm-int3,$(LOGS)/storm-int3.out,$(BUILD)-on/arch/x86/boot/bzImage $(INITRD)) \
		qemu/storm-test.sh $(BUILD)-on/arch/x86/boot/bzImage $(INITRD) \
		$(LOGS)/storm $(KVER)-on $(STORM_TEST_SECS) $(if $(filter 6.12,$(KVER)),stale)) $(keep_going)
	@$(MAKE) -s neighbour-guest

# The debug kernel (lockdep, KASAN, atomic sleep, RCU heads): every
# selftest again, with panic_on_warn; its stress results must match; and
# a might_sleep() put into an event must make it fail (the canary).
debug-kernel: tree
	@$(call timed,debug kernel,scripts/build-kernel.sh $(TREE) $(BUILD)-debug $(BASECFG) $(DEBUGCFG))

# The default tree's debug kernel has BTF (defconfigs/btf): one kernel of
# the run for the typed clients (tp_btf, raw_tp, CO-RE, bpftrace without
# #define) and for fentry/fexit beside the events. Its guest gets them in
# a second cpio archive after the initramfs (the kernel unpacks both):
# they are built against that kernel's BTF, which exists only once it is
# built, after the initramfs.
DEBUGCFG = defconfigs/on defconfigs/debug $(if $(debug_extras),defconfigs/btf)
DEBUG_INITRD = $(if $(debug_extras),$(OUT)/initramfs-$(KVER)-typed.cpio,$(INITRD))
TYPED	= $(abspath $(OUT)/typed/$(KVER))
typed-initramfs:
	@$(if $(debug_extras),,echo "typed-initramfs: only $(DEBUG_TREE)'s debug kernel has BTF, not $(KVER)'s" >&2; exit 1)
	@test -f $(INITRD) || { echo "typed-initramfs: no $(INITRD) (make initramfs KVER=$(KVER))" >&2; exit 1; }
	@rm -rf $(TYPED) && mkdir -p $(TYPED)/kselftest/bpf_tracepoints
	@$(MAKE) -s -C $(TREE)/tools/testing/selftests/bpf_tracepoints \
		OUTPUT=$(TYPED)/kselftest/bpf_tracepoints VMLINUX_BTF=$(abspath $(BUILD)-debug/vmlinux) \
		$(TYPED)/kselftest/bpf_tracepoints/bpf_tracepoints_typed.bpf.o \
		$(TYPED)/kselftest/bpf_tracepoints/bpf_tracepoints_alt.bpf.o
	@find $(TYPED)/kselftest -exec touch -h -d @0 {} +
	@(cd $(TYPED) && find kselftest -type f | LC_ALL=C sort | cpio -o -H newc --quiet --reproducible) > $(TYPED).cpio
	@cat $(INITRD) $(TYPED).cpio > $(DEBUG_INITRD).tmp && mv $(DEBUG_INITRD).tmp $(DEBUG_INITRD)

# The canary builds the debug kernel with a might_sleep() in an event: its
# result is kept by the series, the fragments and the rig (a change to
# any runs it again).
# The stress comparison needs the on kernel's results ($(LOGS)/on.out).
test-debug: debug-kernel initramfs
	@$(MAKE) -s debug-guest
	@$(MAKE) -s compare-debug

compare-debug:
	@qemu/compare-stress.sh $(KVER)-debug $(LOGS)/on.out $(LOGS)/debug.out > $(LOGS)/stress-debug.out $(keep_going)

# The debug kernel booted with every selftest, and beside it the canary,
# which builds in a dir of its own (no initramfs prerequisite, as for
# test-boots). KASAN and lockdep under TCG: about 100 s alone, twice that
# beside a build. The canary and trinity run on the default tree's debug
# kernel (DEBUG_TREE) alone.
debug_extras = $(filter $(DEBUG_TREE),$(KVER))
# The BTF guest is built with the alternatives to the events
# (defconfigs/btf): alternatives_test fails on one missing there, not
# skips. Its audit records (AUDIT_BPF) go to its console: no auditd.
DEBUG_BOOT_ARGS = $(if $(debug_extras),audit=1 BPF_TRACEPOINTS_ALTERNATIVES=1)
debug-guest: export BOOT_TIMEOUT ?= 1200
debug-guest: $(if $(debug_extras),typed-initramfs)
	@rm -f $(LOGS)/debug.out
	@{ $(call timed,boot debug,$(call boot,debug,test) panic_on_warn=1 $(DEBUG_BOOT_ARGS)) || true; } & \
	rc=0; $(if $(debug_extras),$(call timed,canary,scripts/cached.sh $(CACHE) canary $(LOGS)/canary.out \
		"$(TREE)/.git/rig-stamp defconfigs scripts qemu selftests" \
		scripts/debug-canary.sh $(TREE) $(BUILD)-debug $(INITRD) $(LOGS) \
		$(BASECFG) $(DEBUGCFG)) || rc=$$?;) \
	wait; [ $$rc = 0 ] $(keep_going)
	$(if $(debug_extras),@$(call timed,fuzz,$(call kept_guest,fuzz,$(LOGS)/fuzz.out,$(BUILD)-debug/arch/x86/boot/bzImage $(INITRD)) \
		qemu/fuzz.sh $(BUILD)-debug/arch/x86/boot/bzImage \
		$(INITRD) $(LOGS)/fuzz $(KVER)-debug 1 $(FUZZ_TEST_OPS)) $(keep_going))

# trinity on the debug kernel (qemu/fuzz.sh): FUZZ_RUNS runs of FUZZ_OPS
# calls from new seeds (FUZZ_SEED= one of them again), each booted with
# the bpf events on and with them off; the logs under $(LOGS)/fuzz, named
# by seed. make test's debug guest step runs one of FUZZ_TEST_OPS calls.
FUZZ_RUNS ?= 3
FUZZ_OPS ?= 100000
FUZZ_TEST_OPS ?= 20000
fuzz: export BOOT_TIMEOUT ?= 1800
fuzz: debug-kernel initramfs
	@qemu/fuzz.sh $(BUILD)-debug/arch/x86/boot/bzImage $(INITRD) $(LOGS)/fuzz $(KVER)-debug \
		$(FUZZ_RUNS) $(FUZZ_OPS)

# $(call step,KVER,TARGETS,LOG[,VAR=VALUE[,NICENESS]]): make TARGETS KVER,
# logged to $(OUT)/logs/KVER/LOG.log, one KTAP result for it in LOG.out (a
# step that stops early, a patch that does not apply or a build that
# fails, is one failed result that names why); NICENESS is added to the
# step's (and to the builds' own, scripts/kbuild-env.sh)
step	= { $(if $(5),nice -n $(5)) $(MAKE) -s $(2) KVER=$(1) RIG_KEEP_GOING=1 $(4) || touch $(OUT)/logs/$(1)/$(3).failed; } 2>&1 | \
		tee $(OUT)/logs/$(1)/$(3).log; \
	scripts/step-result.sh "make $(2) KVER=$(1)" $(OUT)/logs/$(1)/$(3) > $(OUT)/logs/$(1)/$(3).out
# $(call boots,KVER,PARALLEL): the step that boots KVER's kernels, once its
# host steps ran (a tree that could not be made leaves no kernel of its
# own, and one of an earlier run must not boot in its place: no results)
boots	= [ -e $(OUT)/logs/$(1)/make.failed ] || { $(call step,$(1),test-boots,make-boots,PARALLEL_BOOTS=$(2)); }
# $(call mutants,KVER): the step that runs KVER's on and off mutants, once
# its host steps ran (they need its on kernel and its gates' objects)
mutants	= [ -e $(OUT)/logs/$(1)/make.failed ] || { $(call step,$(1),test-mutants,make-mutants,MUTANT_KERNELS="on off" MUTANT_GATE=1); }
# $(call debug,KVER): the step that builds and boots KVER's debug kernel,
# once its host steps ran; before its mutants, which patch its tree
debug	= [ -e $(OUT)/logs/$(1)/make.failed ] || { $(call step,$(1),debug-kernel debug-guest,make-debug); }
fresh_logs = rm -rf $(OUT)/logs/$(1); mkdir -p $(OUT)/logs/$(1)

# Every tree with its debug kernel, then one summary. The
# default tree's host steps come first: its walk leaves the tree at the
# full series and builds the initramfs. Then the debug kernel is built and
# booted beside everything else (its guest is the longest: KASAN and
# lockdep), while the default tree's kernels boot, one at a time: the
# debug guest and one other share the two host cores.
#
# The packages of every tree come first, in one apt run. The other trees'
# host steps (their own trees, build dirs and caches) run from the start
# beside the default tree's, niced by OTHER_NICE: their builds (niced 10
# more, scripts/kbuild-env.sh) run at 19, below the default tree's at 10,
# and take what those leave idle (a link, make's walk, a config); their
# other steps (extraction, checkpatch) at 9. The default tree's walk, which
# the debug kernel waits for, keeps the cores it can use. Their kernels
# boot once their host steps are done, one at a time, while their debug
# kernel is built and booted, and then their mutants run (they patch the
# tree it builds).
#
# Jobs a script starts with & ignore SIGINT: an interrupt or a TERM stops
# the whole process group with TERM (the walk and the gates put their
# trees back on it).
OTHER_TREES := $(filter-out $(DEBUG_TREE),$(TREES))
OTHER_NICE := 9
test:
	@rm -f $(TIMES); mkdir -p $(OUT)/logs; date +%s > $(OUT)/logs/test-start
	@$(MAKE) -s rig-check RIG_KEEP_GOING=1
	@$(foreach k,$(TREES),$(call fresh_logs,$(k));) \
	$(call step,$(DEBUG_TREE),deps,packages,DEPS_TREES="$(TREES)")
	@trap 'trap "" INT TERM; kill -TERM 0; exit 143' INT TERM; \
	$(if $(OTHER_TREES),{ $(foreach k,$(OTHER_TREES),$(call step,$(k),test-host,make,,$(OTHER_NICE));) } & others=$$!;) \
	$(call step,$(DEBUG_TREE),test-host,make); \
	{ $(call debug,$(DEBUG_TREE)); $(call mutants,$(DEBUG_TREE)); } & \
	$(call boots,$(DEBUG_TREE),0); \
	$(if $(OTHER_TREES),wait $$others; $(foreach k,$(OTHER_TREES),\
		{ $(call debug,$(k)); $(call mutants,$(k)); } & $(call boots,$(k),0);)) wait
	@$(foreach k,$(TREES),$(MAKE) -s compare-debug KVER=$(k) RIG_KEEP_GOING=1;)
	@scripts/times.sh $(TIMES) $(OUT)/logs/test-start
	@MANIFEST=qemu/manifest qemu/results.sh $(foreach k,$(TREES),$(call tree_results,$(k))) \
		$(foreach r,packages canary fuzz,$(DEBUG_TREE)/$(r)=$(LOGS_DEBUG)/$(r).out) \
		rig-check=$(OUT)/logs/rig-check.out

# The rig's own checks against planted input (scripts/rig-check.sh): each
# must refuse what would have fooled it, and take its control.
rig-check:
	@mkdir -p $(OUT)/logs
	@scripts/rig-check.sh > $(OUT)/logs/rig-check.out 2>&1 $(keep_going)
	@grep -c '^ok ' $(OUT)/logs/rig-check.out | sed 's/$$/ rig checks passed/'

# The manifest of the tests each guest run reports (qemu/manifest), written
# from the last make test's logs: review its diff before committing it. A
# new skip, another skip reason or a test gone is refused, listed, unless
# MANIFEST_ACCEPT=1 (qemu/write-manifest.sh).
manifest:
	@qemu/write-manifest.sh qemu/manifest $(foreach k,$(TREES),$(foreach r,on off debug on-neighbour,$(k)/$(r)=$(OUT)/logs/$(k)/$(r).out)) \
		> qemu/manifest.new
	@mv qemu/manifest.new qemu/manifest
	@git diff --stat -- qemu/manifest

# KCSAN: the on kernel with the data race detector (defconfigs/kcsan),
# booted with the stress run (its two-CPU tests among it) on 4 vCPUs
# under multi-threaded TCG. Its reports are collected, not a failed
# boot; qemu/kcsan-report.sh names those in the series' code, and fails
# on one. Not in make test: a kernel of its own, about 5 min cold here.
# KCSAN_STRICT=1: its strict mode (defconfigs/kcsan-strict), a kernel of
# its own.
KCSAN	:= kcsan$(if $(KCSAN_STRICT),-strict)
kcsan-kernel: tree
	@$(call timed,$(KCSAN) kernel,scripts/build-kernel.sh $(TREE) $(BUILD)-$(KCSAN) $(BASECFG) defconfigs/on \
		defconfigs/kcsan $(if $(KCSAN_STRICT),defconfigs/kcsan-strict))

kcsan: export BOOT_TIMEOUT ?= 1800
# races need CPUs that run at once: a stale int3 fails the boot, named,
# instead of booting again single-threaded
kcsan: export TCG_THREAD = multi
kcsan: export STALE_INT3_REBOOT = 0
kcsan: kcsan-kernel initramfs
	@$(call timed,boot $(KCSAN),env SPLAT_COLLECT='BUG: KCSAN: ' $(call boot,$(KCSAN),stress)) || true
	@rc=0; qemu/results.sh $(KVER)/$(KCSAN)=$(LOGS)/$(KCSAN).out \
		$(KVER)/boot-$(KCSAN)=$(LOGS)/$(KCSAN).boot || rc=$$?; \
	qemu/kcsan-report.sh $(LOGS)/$(KCSAN).console.log $(TREE) || rc=$$?; exit $$rc

# The kernel a kselftest CI system builds (x86_64_defconfig + make
# kselftest-merge: every selftest's config, PROVE_LOCKING, UBSAN...),
# booted with the installed suite. Not in make test: an hour of both
# cores cold (scripts/build-kselftest-kernel.sh).
kselftest-kernel: tree
	@$(call timed,kselftest kernel,scripts/build-kselftest-kernel.sh $(TREE) $(BUILD)-kselftest)

kselftest-guest: export BOOT_TIMEOUT ?= 1200
kselftest-guest: kselftest-kernel initramfs
	@$(call boot,kselftest,test)
	@MANIFEST=qemu/manifest qemu/results.sh $(KVER)/kselftest=$(LOGS)/kselftest.out \
		$(KVER)/boot-kselftest=$(LOGS)/kselftest.boot

# Every event the selftests cause, as the on kernel prints it.
capture: kernels initramfs
	@$(call boot,on,capture,-capture)
	@cat $(LOGS)/on-capture.out

# Guest instructions per syscall under -icount (one guest ns each), on
# one vCPU (SMP=1: what -icount counts is the loop's CPU alone). The
# controls: the off kernel booted twice (the noise floor), and the
# unpatched kernel the walk keeps (unpatched against off).
bench: walk initramfs
	@SMP=1 $(icount) $(call boot,off,bench,-bench)
	@SMP=1 $(icount) $(call boot,off,bench,-bench2) RIG_BENCH_LABEL=off2
	@SMP=1 $(icount) qemu/boot.sh $(BUILD)-baseline/bzImage $(INITRD) $(LOGS) unpatched-bench \
		RIG_MODE=bench BPF_TRACEPOINTS_EXPECT=off RIG_BENCH_LABEL=unpatched
	@SMP=1 $(icount) $(call boot,on,bench,-bench)
	@qemu/bench-report.sh $(LOGS) $(BUILD) $(TREE)

# What keeping the verifier's words costs a load (bpf_cmd_refused
# disabled and enabled), alone on the on kernel; make bench has it too.
bench-verifier: kernels initramfs
	@SMP=1 $(icount) $(call boot,on,bench,-bench-verifier) RIG_BENCH_ONLY=verifier
	@tr -d '\r' < $(LOGS)/on-bench-verifier.out | awk '/^verifier / { print; n++ } \
		/^verifier [^ ]* failed:/ { bad = 1 } END { exit bad || n != 4 }'

# The same on the BTF kernel (the default tree's debug kernel), where
# bpftrace's fentry and fexit on the functions nearest the events run
# beside them (docs/clients.md), and the alternatives to the events
# (docs/alternatives.md: fprobe events, syscalls' events, a BPF LSM
# program, a raw_tp program on a bare tracepoint; audit's syscall hooks
# in a second boot with audit=1): KASAN and lockdep make every figure
# larger, so they compare with each other, not with make bench's.
bench-btf: debug-kernel initramfs typed-initramfs
	@SMP=1 $(icount) $(call boot,debug,bench,-bench)
	@SMP=1 $(icount) $(call boot,debug,bench,-bench-audit) audit=1 RIG_BENCH_ONLY=audit
	@qemu/bench-btf-report.sh $(LOGS)/debug-bench.out $(LOGS)/debug-bench-audit.out

# The int3 Oops reproducer (docs/int3-oops.md): RUNS boots of the
# KERNEL (on or debug) while the guest flips TOGGLE (bpf, kmalloc or
# kprobe) for STORM_SECS seconds under load on both CPUs, with QEMU's
# TCG_THREAD (multi or single); prints how many runs oopsed.
KERNEL	?= on
RUNS	?= 3
TOGGLE	?= bpf
STORM_SECS ?= 20
TCG_THREAD ?= multi
repro-int3: $(if $(filter debug,$(KERNEL)),debug-kernel,kernels) initramfs
	@TCG_THREAD=$(TCG_THREAD) qemu/repro-int3.sh $(BUILD)-$(KERNEL)/arch/x86/boot/bzImage \
		$(INITRD) $(LOGS)/repro $(KVER)-$(KERNEL) $(RUNS) $(TOGGLE) $(STORM_SECS)

# Each check must be able to fail: the mutants of scripts/mutants/KVER
# (a lost CPU's events, a dropped or leaked reference, an event left real
# in the off build...) go into the on or debug kernel, which boots every
# selftest, or into the off objects of Debian's config, which the byte
# comparison of the gates holds to the unpatched ones; each must be
# killed (or, a control, survive). Exits non-zero when one is not, and
# names it. MUTANT_KERNELS picks the kinds, MUTANT_GATE=1 those marked
# "gate: make test": make test runs those of the on and off kinds
# (test-mutants, after the kernels and the gates it needs); a debug
# mutant costs a debug kernel's link and guest (minutes each).
MUTANT_KERNELS ?= on debug off
mutants: $(if $(filter on,$(MUTANT_KERNELS)),kernels) \
	 $(if $(filter debug,$(MUTANT_KERNELS)),debug-kernel) initramfs \
	 $(if $(filter debug,$(MUTANT_KERNELS)),$(if $(debug_extras),typed-initramfs)) check-gates
	@$(MAKE) -s test-mutants
	@qemu/results.sh $(KVER)/mutants=$(LOGS)/mutants.out

# A clean result is kept by its inputs, as the canary's is (the series,
# the fragments, the rig, the tests): an unchanged rerun boots none.
empty	:=
space	:= $(empty) $(empty)
test-mutants:
	@mkdir -p $(LOGS)
	@$(call timed,mutants,scripts/cached.sh $(CACHE) \
		mutants-$(subst $(space),_,$(MUTANT_KERNELS))$(if $(filter 1,$(MUTANT_GATE)),-gate) $(LOGS)/mutants.out \
		"$(TREE)/.git/rig-stamp defconfigs scripts qemu selftests" \
		env MUTANT_KERNELS="$(MUTANT_KERNELS)" MUTANT_GATE=$(MUTANT_GATE) GATES=$(BUILD)-gates \
		DEBUG_FRAGS="$(DEBUGCFG)" DEBUG_INITRD=$(DEBUG_INITRD) \
		MANIFEST=qemu/manifest MUTANT_TREE=$(KVER) \
		scripts/mutants.sh $(TREE) $(BUILD) $(INITRD) $(LOGS)/mutants scripts/mutants/$(KVER) \
		$(BASECFG)) || true

# Each writes the tree's commits (base..HEAD) back into $(PATCHES).
regen-kconfig-patch:
	@scripts/regen-kconfig-patch.sh $(TREE) $(PATCHES) $(KCONFIG)
	@scripts/prepare-tree.sh --adopt $(KVER) $(PATCHES) $(TREE)

regen-selftest-patch:
	@scripts/regen-selftest-patch.sh $(TREE) $(PATCHES) selftests/bpf_tracepoints
	@scripts/prepare-tree.sh --adopt $(KVER) $(PATCHES) $(TREE)

export-series:
	@scripts/export-series.sh $(TREE) $(PATCHES)
	@scripts/prepare-tree.sh --adopt $(KVER) $(PATCHES) $(TREE)

# (the cache too: a kept result would stand for builds that are gone,
# such as the gates' objects the off mutants compare with)
clean:
	rm -rf $(OUT)/build $(OUT)/logs $(OUT)/kselftest $(OUT)/initramfs-* $(OUT)/cache
