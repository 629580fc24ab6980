// SPDX-License-Identifier: GPL-2.0
/*
 * Cost of BPF_MAP_LOOKUP_ELEM and BPF_MAP_UPDATE_ELEM on an array map with
 * 8-byte and 64 KiB values, in nanoseconds of guest time per syscall. Run
 * under qemu -icount shift=0,sleep=off, a guest nanosecond is one guest
 * instruction and the figures repeat exactly. A benchmark, not a test: it
 * prints figures and asserts nothing.
 *
 * Usage: bpf_tracepoints_bench LABEL [verifier]
 * Prints "bench LABEL CMD VALUE_SIZE NS_PER_SYSCALL" lines and, while events
 * are being recorded, "recsize LABEL CMD VALUE_SIZE BYTES_PER_EVENT" (one
 * command's record, alone in an emptied buffer) and "events LABEL CMD
 * VALUE_SIZE EVENTS_PER_SYSCALL", the records the measured loops wrote
 * (the ring buffer's entries and overruns, read before and after them)
 * over their commands: the kernel's kmem events fire more than once a
 * syscall, and reading the buffer's counters fires them too, so they are
 * read outside the loops, not around one command.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <linux/bpf.h>

#include "bpf_tracepoints.h"

#define ROUNDS	3

/* lookups and updates issued, for a tracer's count to be held against */
static long long ops;

static int measure(const char *label, int cmd, unsigned int vsize, int iters)
{
	long long best = -1, bytes, entries, written, t;
	const char *op_name = cmd == BPF_MAP_LOOKUP_ELEM ? "lookup" : "update";
	union bpf_attr create = {}, op = {};
	unsigned int key = 0;
	void *val = calloc(1, vsize);
	int fd, i, r;

	create.map_type = BPF_MAP_TYPE_ARRAY;
	create.key_size = 4;
	create.value_size = vsize;
	create.max_entries = 1;
	fd = sys_bpf(BPF_MAP_CREATE, &create);
	if (fd < 0 || !val) {
		perror("BPF_MAP_CREATE");
		return 1;
	}
	op.map_fd = fd;
	op.key = (unsigned long)&key;
	op.value = (unsigned long)val;
	/* one command's record, alone in an emptied buffer (no page padding) */
	write_file(TRACEFS "/trace", "");
	bytes = ring_counter("bytes:");
	entries = ring_counter("entries:");
	sys_bpf(cmd, &op);
	ops++;
	entries = ring_counter("entries:") - entries;
	bytes = ring_counter("bytes:") - bytes;
	for (i = 0; i < iters / 10; i++)	/* warm caches and paths */
		sys_bpf(cmd, &op);
	ops += iters / 10 + ROUNDS * iters;

	written = ring_counter("entries:") + ring_counter("overrun:");
	for (r = 0; r < ROUNDS; r++) {
		t = now_ns();
		for (i = 0; i < iters; i++)
			if (sys_bpf(cmd, &op)) {
				perror(op_name);
				return 1;
			}
		t = now_ns() - t;
		if (best < 0 || t < best)
			best = t;
	}
	written = ring_counter("entries:") + ring_counter("overrun:") - written;
	printf("bench %s %s %u %lld\n", label, op_name, vsize, best / iters);
	if (entries > 0)
		printf("recsize %s %s %u %lld\n", label, op_name, vsize, bytes / entries);
	if (written > 0)
		printf("events %s %s %u %.2f\n", label, op_name, vsize,
		       (double)written / (ROUNDS * iters));
	close(fd);
	free(val);
	return 0;
}

/*
 * What keeping the verifier's words costs (bpf_cmd_refused enabled, the
 * kernel's copy of the last line logged): guest ns per load of a program
 * of VERIFIER_INSNS instructions that the verifier passes, and of one it
 * refuses at its last instruction (R6 never written), with the event
 * disabled and enabled. The loader passes no log. Prints "verifier
 * LABEL passed|refused disabled|enabled NS_PER_LOAD".
 */
#define VERIFIER_INSNS	4000
#define VERIFIER_LOADS	10

/* The program, and its load's attributes, made once before the loops */
static void large_prog_attr(union bpf_attr *attr, int refused)
{
	static struct bpf_insn insns[VERIFIER_INSNS];
	int i;

	for (i = 0; i < VERIFIER_INSNS - 2; i++)
		insns[i] = (struct bpf_insn){ .code = BPF_ALU64 | BPF_ADD | BPF_K,
					      .dst_reg = BPF_REG_0, .imm = 1 };
	/* r0 = 0 first, then r0 = r6 (refused: R6 !read_ok) or r0 += 1 */
	insns[0] = (struct bpf_insn){ .code = BPF_ALU64 | BPF_MOV | BPF_K };
	insns[i] = refused ?
		(struct bpf_insn){ .code = BPF_ALU64 | BPF_MOV | BPF_X, .src_reg = BPF_REG_6 } :
		(struct bpf_insn){ .code = BPF_ALU64 | BPF_ADD | BPF_K, .imm = 1 };
	insns[i + 1] = (struct bpf_insn){ .code = BPF_JMP | BPF_EXIT };
	memset(attr, 0, sizeof(*attr));
	attr->prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
	attr->insns = (unsigned long)insns;
	attr->insn_cnt = VERIFIER_INSNS;
	attr->license = (unsigned long)"GPL";
}

static int measure_verifier(const char *label, int refused, const char *event)
{
	const char *enable = TRACEFS "/events/bpf/bpf_cmd_refused/enable";
	long long best = -1, t;
	int i, r, fd, loaded;
	union bpf_attr attr;

	if (write_file(enable, strcmp(event, "enabled") ? "0" : "1")) {
		printf("verifier %s failed: no bpf_cmd_refused\n", label);
		return 1;
	}
	large_prog_attr(&attr, refused);
	for (r = 0; r < ROUNDS; r++) {
		t = now_ns();
		for (i = 0; i < VERIFIER_LOADS; i++) {
			fd = sys_bpf(BPF_PROG_LOAD, &attr);
			loaded = fd >= 0;
			if (loaded == refused) {
				printf("verifier %s failed: load %s\n", label,
				       fd < 0 ? "refused" : "passed");
				return 1;
			}
			if (fd >= 0)
				close(fd);
		}
		t = now_ns() - t;
		if (best < 0 || t < best)
			best = t;
	}
	write_file(enable, "0");
	printf("verifier %s %s %s %lld\n", label, refused ? "refused" : "passed",
	       event, best / VERIFIER_LOADS);
	return 0;
}

int main(int argc, char **argv)
{
	const char *label = argc > 1 ? argv[1] : "run";
	int err = 0;

	if (argc > 2 && !strcmp(argv[2], "verifier")) {
		err |= measure_verifier(label, 0, "disabled");
		err |= measure_verifier(label, 0, "enabled");
		err |= measure_verifier(label, 1, "disabled");
		err |= measure_verifier(label, 1, "enabled");
		return err;
	}

	err |= measure(label, BPF_MAP_LOOKUP_ELEM, 8, 2000);
	err |= measure(label, BPF_MAP_UPDATE_ELEM, 8, 2000);
	err |= measure(label, BPF_MAP_LOOKUP_ELEM, 65536, 200);
	err |= measure(label, BPF_MAP_UPDATE_ELEM, 65536, 200);
	printf("ops %s %lld\n", label, ops);
	return err;
}
