# Build, boot and test rig for CONFIG_BPF_LOW_LEVEL_TRACEPOINTS.
#
#   make run    build both kernels, boot the on kernel, show bpf:* events
#   make test   check the series, build and boot both kernels, run all tests
#
# Everything is built under $(OUT), which git ignores.

KVER	?= 6.12
OUT	?= out
PATCHES	:= kernel-patches/$(KVER)
TREE	:= $(OUT)/linux-$(KVER)
BUILD	:= $(OUT)/build/$(KVER)
LOGS	:= $(OUT)/logs/$(KVER)
INITRD	:= $(OUT)/initramfs-$(KVER).cpio
TESTS	:= $(OUT)/selftests/$(KVER)/bpf_tracepoints_test \
	   $(OUT)/selftests/$(KVER)/bpf_tracepoints_stress \
	   $(OUT)/selftests/$(KVER)/bpf_tracepoints_bench
KCONFIG	:= Kconfig.debug
# base, then what this tree needs beside it (defconfigs/6.1)
BASECFG	:= defconfigs/base $(wildcard defconfigs/$(KVER))

# $(call boot,on|off,MODE[,-SUFFIX]): logs go to $(LOGS)/on|off[-SUFFIX].*
boot	= qemu/boot.sh $(BUILD)-$(1)/arch/x86/boot/bzImage $(INITRD) $(LOGS) $(1)$(3) \
	  RIG_MODE=$(2) BPF_TRACEPOINTS_EXPECT=$(1)
icount	= ACCEL=tcg QEMU_EXTRA="-icount shift=0,sleep=off"

.PHONY: all run test deps tree check-series check-docs bisect-check kernels zero-cost selftests initramfs \
	boot-on boot-off bench capture regen-kconfig-patch export-series clean

all: run

deps:
	@scripts/deps.sh $(KVER)

tree: deps
	@scripts/prepare-tree.sh $(KVER) $(PATCHES) $(TREE)

check-series: tree
	@mkdir -p $(LOGS)
	@scripts/check-series.sh $(PATCHES) $(TREE) $(KCONFIG) > $(LOGS)/series.out || true

check-docs: tree
	@mkdir -p $(LOGS)
	@scripts/check-docs.sh $(TREE) $(KCONFIG) > $(LOGS)/docs.out || true

# Every patch but the last, built in both configs; the last is 'kernels'.
bisect-check: tree
	@mkdir -p $(LOGS)
	@scripts/bisect-check.sh $(TREE) $(BUILD) on off > $(LOGS)/bisect.out || true

kernels: tree
	@scripts/build-kernel.sh $(TREE) $(BUILD)-on $(BASECFG) defconfigs/on
	@scripts/build-kernel.sh $(TREE) $(BUILD)-off $(BASECFG) defconfigs/off

# The off kernel against the unpatched tree: bytes, sections, symbols.
zero-cost: kernels
	@mkdir -p $(LOGS)
	@scripts/zero-cost-check.sh $(TREE) $(BUILD) > $(LOGS)/zero-cost.out || true

# Built with the kernel tree's own kselftest Makefile, as a drop-in.
selftests: tree
	@rm -rf $(TREE)/tools/testing/selftests/bpf_tracepoints
	@cp -r selftests/bpf_tracepoints $(TREE)/tools/testing/selftests/
	@mkdir -p $(OUT)/selftests/$(KVER)
	@$(MAKE) -s -C $(TREE)/tools/testing/selftests/bpf_tracepoints \
		OUTPUT=$(abspath $(OUT)/selftests/$(KVER)) LDFLAGS=-static

# The rst goes beside the tests: one checks its fields against tracefs.
initramfs: selftests
	@qemu/build-initramfs.sh $(INITRD) $(TESTS) $(TREE)/Documentation/bpf/low_level_tracepoints.rst

boot-on boot-off: boot-%: kernels initramfs
	@$(call boot,$*,test)

run: kernels initramfs
	@$(call boot,on,demo)
	@cat $(LOGS)/on.out

test: check-series check-docs bisect-check kernels zero-cost initramfs
	@rm -f $(LOGS)/on.out $(LOGS)/off.out
	@$(call boot,on,test) || true
	@$(call boot,off,test) || true
	@qemu/results.sh series=$(LOGS)/series.out bisect=$(LOGS)/bisect.out \
		zero-cost=$(LOGS)/zero-cost.out docs=$(LOGS)/docs.out \
		$(KVER)-on=$(LOGS)/on.out $(KVER)-off=$(LOGS)/off.out \
		boot-on=$(LOGS)/on.boot boot-off=$(LOGS)/off.boot

# Every event the selftests cause, as the on kernel prints it.
capture: kernels initramfs
	@$(call boot,on,capture,-capture)
	@cat $(LOGS)/on-capture.out

# Guest instructions per syscall under -icount (one guest ns each).
bench: kernels initramfs
	@$(icount) $(call boot,off,bench,-bench)
	@$(icount) $(call boot,on,bench,-bench)
	@qemu/bench-report.sh $(LOGS) $(BUILD) $(TREE)

# Both write the tree's commits (base..HEAD) back into $(PATCHES).
regen-kconfig-patch:
	@scripts/regen-kconfig-patch.sh $(TREE) $(PATCHES) $(KCONFIG)
	@scripts/prepare-tree.sh --adopt $(KVER) $(PATCHES) $(TREE)

export-series:
	@scripts/export-series.sh $(TREE) $(PATCHES)
	@scripts/prepare-tree.sh --adopt $(KVER) $(PATCHES) $(TREE)

clean:
	rm -rf $(OUT)/build $(OUT)/logs $(OUT)/selftests $(OUT)/initramfs-*
