// SPDX-License-Identifier: GPL-2.0
/*
 * Cost of BPF_MAP_LOOKUP_ELEM and BPF_MAP_UPDATE_ELEM on an array map with
 * 8-byte and 64 KiB values, in nanoseconds of guest time per syscall. Run
 * under qemu -icount shift=0,sleep=off, a guest nanosecond is one guest
 * instruction and the figures repeat exactly. A benchmark, not a test: it
 * prints figures and asserts nothing.
 *
 * Usage: bpf_tracepoints_bench LABEL
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

int main(int argc, char **argv)
{
	const char *label = argc > 1 ? argv[1] : "run";
	int err = 0;

	err |= measure(label, BPF_MAP_LOOKUP_ELEM, 8, 2000);
	err |= measure(label, BPF_MAP_UPDATE_ELEM, 8, 2000);
	err |= measure(label, BPF_MAP_LOOKUP_ELEM, 65536, 200);
	err |= measure(label, BPF_MAP_UPDATE_ELEM, 65536, 200);
	printf("ops %s %lld\n", label, ops);
	return err;
}
