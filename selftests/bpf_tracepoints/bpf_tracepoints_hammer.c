// SPDX-License-Identifier: GPL-2.0
/*
 * Load for the static-key reproducer (make repro-int3): pinned to one CPU,
 * updates and looks up an array map in a loop for a number of seconds, so
 * that the call sites of bpf_map_{update,lookup}_elem's tracepoints (and
 * of kmalloc's, on the same path) run hot while another CPU patches them.
 * Prints how many commands it did; exits non-zero on any failed command
 * or if it did not run on the CPU it was given.
 *
 * Usage: bpf_tracepoints_hammer CPU SECONDS
 */
#define _GNU_SOURCE
#include "bpf_tracepoints.h"

int main(int argc, char **argv)
{
	unsigned long long ops = 0, errors = 0;
	long long end;
	__u64 val, got;
	__u32 key;
	int cpu, fd;

	if (argc != 3) {
		fprintf(stderr, "usage: %s CPU SECONDS\n", argv[0]);
		return 2;
	}
	cpu = atoi(argv[1]);
	end = now_ns() + atoll(argv[2]) * 1000000000LL;
	if (pin_to_cpu(cpu)) {
		fprintf(stderr, "hammer: cannot pin to CPU %d: %s\n", cpu, strerror(errno));
		return 1;
	}
	fd = sys_map_create_named("hammer", BPF_MAP_TYPE_ARRAY, 4, 8, 16, 0);
	if (fd < 0) {
		fprintf(stderr, "hammer: map create: %s\n", strerror(errno));
		return 1;
	}
	while (now_ns() < end) {
		for (key = 0; key < 16; key++) {
			val = ops + key;
			if (sys_map_elem(BPF_MAP_UPDATE_ELEM, fd, &key, &val, BPF_ANY) ||
			    sys_map_elem(BPF_MAP_LOOKUP_ELEM, fd, &key, &got, 0) || got != val)
				errors++;
			ops += 2;
		}
	}
	printf("hammer: cpu %d (ran on %d): %llu commands, %llu failed\n",
	       cpu, sched_getcpu(), ops, errors);
	return errors || sched_getcpu() != cpu;
}
