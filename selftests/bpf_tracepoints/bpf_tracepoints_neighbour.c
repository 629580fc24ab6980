// SPDX-License-Identifier: GPL-2.0
/*
 * A noisy neighbour for the tests (qemu/init's neighbour mode): what
 * systemd's cgroup programs and a monitoring agent do to a machine the
 * tests share. Pinned to one CPU, until SIGTERM it creates, updates,
 * looks up and frees hash maps, and loads socket filters, attaches each
 * to a socket and frees them, all named nb_*. Prints "neighbour:
 * running" once a first round worked, "neighbour: at round N" at each
 * SIGUSR1, and at SIGTERM its rounds; exits 0, or 1 at the first failed
 * command (named) or if it could not start.
 *
 * Usage: bpf_tracepoints_neighbour CPU
 */
#define _GNU_SOURCE
#include <signal.h>
#include "bpf_tracepoints.h"

/* Whether @sig, blocked from the start, is waiting; taken if so. */
static bool took(int sig)
{
	struct timespec now = { 0, 0 };
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, sig);
	return sigtimedwait(&set, NULL, &now) == sig;
}

/* One round: a map's life and a program's, attached. 0, or -errno. */
static int round_once(unsigned long long n)
{
	__u64 key = n, val = n * 3, got = 0;
	int map, prog, sk, ret = 0;

	map = sys_map_create_named("nb_map", BPF_MAP_TYPE_HASH, 8, 8, 64, 0);
	if (map < 0)
		return -errno;
	if (sys_map_elem(BPF_MAP_UPDATE_ELEM, map, &key, &val, BPF_ANY) ||
	    sys_map_elem(BPF_MAP_LOOKUP_ELEM, map, &key, &got, 0))
		ret = -errno;
	else if (got != val)
		ret = -EIO;
	close(map);
	if (ret)
		return ret;
	prog = sys_prog_load_named("nb_prog", BPF_PROG_TYPE_SOCKET_FILTER, 0, 2);
	if (prog < 0)
		return -errno;
	sk = socket(AF_INET, SOCK_DGRAM, 0);
	if (sk < 0 || setsockopt(sk, SOL_SOCKET, SO_ATTACH_BPF, &prog, sizeof(prog)))
		ret = -errno;
	if (sk >= 0)
		close(sk);
	close(prog);
	return ret;
}

int main(int argc, char **argv)
{
	unsigned long long rounds = 0;
	sigset_t term;
	int cpu, ret;

	if (argc != 2) {
		fprintf(stderr, "usage: %s CPU\n", argv[0]);
		return 2;
	}
	cpu = atoi(argv[1]);
	setvbuf(stdout, NULL, _IOLBF, 0);
	sigemptyset(&term);
	sigaddset(&term, SIGTERM);
	sigaddset(&term, SIGUSR1);
	sigprocmask(SIG_BLOCK, &term, NULL);
	if (pin_to_cpu(cpu)) {
		fprintf(stderr, "neighbour: cannot pin to CPU %d: %s\n", cpu, strerror(errno));
		return 1;
	}
	while (!took(SIGTERM)) {
		ret = round_once(rounds);
		if (ret) {
			printf("neighbour: round %llu failed: %s\n", rounds, strerror(-ret));
			return 1;
		}
		if (!rounds++)
			printf("neighbour: running on CPU %d\n", sched_getcpu());
		if (took(SIGUSR1))
			printf("neighbour: at round %llu\n", rounds);
	}
	printf("neighbour: %llu rounds on CPU %d\n", rounds, cpu);
	return 0;
}
