// SPDX-License-Identifier: GPL-2.0
/*
 * The workloads the tools and clients tests trace, run as a program of
 * their own (the user's program a tracer is started around), each writing
 * the lines the events must print of it:
 *
 *   --workload OUT           a map, a socket filter, an update and a lookup
 *   --sock-example SECS OUT  the 2017 commit's sock_example
 *   --big-values OUT         element events on a 64 KiB and a per-CPU value
 *   --updates N              N updates of one array map (for bpftrace)
 */
#define _GNU_SOURCE
#include "test_helpers.h"

/*
 * The first three events of both workloads: an 8-byte array map of 256,
 * a socket filter, and its SO_ATTACH_BPF, as the on kernel prints them.
 */
static void write_setup_events(FILE *f, const struct map_desc *m, int map_fd,
			       const struct prog_desc *p, int prog_fd)
{
	fprintf(f, "bpf_map_create: %s key=4 val=8 max=256 flags=0 %s\n",
		map_head(m, map_fd), map_tail(m));
	fprintf(f, "bpf_prog_load: prog=%s type=SOCKET_FILTER ufd=%d id=%u name=%s\n",
		p->tag, prog_fd, p->id, p->name);
	fprintf(f, "bpf_prog_get_type: %s\n", prog_line(p));
}

/*
 * The workload of trace_cmd_record (and of perf and tracefs demos): a map,
 * a program attached to a socket, an update and a lookup, every line the
 * events must print written to @out.
 */
static int workload(const char *out)
{
	__u32 key = 1;
	__u64 val = 20, got;
	struct map_desc m;
	struct prog_desc p;
	int map_fd, prog_fd, sk;
	FILE *f;

	map_fd = sys_map_create(BPF_MAP_TYPE_ARRAY, 4, 8, 256, 0);
	prog_fd = sys_prog_load();
	sk = socket(AF_UNIX, SOCK_DGRAM, 0);
	if (map_fd < 0 || prog_fd < 0 || sk < 0 || map_desc(map_fd, &m) || prog_desc(prog_fd, &p) ||
	    setsockopt(sk, SOL_SOCKET, SO_ATTACH_BPF, &prog_fd, sizeof(prog_fd)) ||
	    sys_map_elem(BPF_MAP_UPDATE_ELEM, map_fd, &key, &val, BPF_ANY) ||
	    sys_map_elem(BPF_MAP_LOOKUP_ELEM, map_fd, &key, &got, 0))
		return 1;
	f = fopen(out, "w");
	if (!f)
		return 1;
	write_setup_events(f, &m, map_fd, &p, prog_fd);
	fprintf(f, "bpf_map_update_elem: %s key=[%s] val=[%s] %s\n",
		map_head(&m, map_fd), hex(&key, 4), hex(&val, 8), map_tail(&m));
	fprintf(f, "bpf_map_lookup_elem: %s key=[%s] val=[%s] %s\n",
		map_head(&m, map_fd), hex(&key, 4), hex(&got, 8), map_tail(&m));
	return fclose(f) ? 1 : 0;
}

/*
 * The sock_example of commit a67edbf4fb6d (the 2017 events), in raw
 * instructions: a socket filter on lo counts packets per IP protocol in an
 * array map; user space looks the counts up, and updates a slot of its
 * own, for @secs seconds. Every line the events must print is written to
 * @out, the last of each kind.
 */
static int sock_example(int secs, const char *out)
{
	__u32 keys[] = { IPPROTO_TCP, IPPROTO_UDP, IPPROTO_ICMP }, key, zero = 0;
	struct sockaddr_in lo = { .sin_family = AF_INET, .sin_port = htons(9),
				  .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	struct sockaddr_ll ll = { .sll_family = AF_PACKET, .sll_protocol = htons(ETH_P_ALL) };
	unsigned char icmp_echo[8] = { 8, 0, 0xf7, 0xff };	/* type 8, checksum */
	char lookups[3][LINE_MAX_LEN], update[LINE_MAX_LEN];
	__u64 count[3], ticks = 0;
	struct map_desc m;
	struct prog_desc p;
	int map_fd, prog_fd, sk, udp, icmp, i, round;
	long long end;
	FILE *f;

	if (link_up("lo"))
		return 1;
	map_fd = sys_map_create(BPF_MAP_TYPE_ARRAY, 4, 8, 256, 0);
	if (map_fd < 0 || map_desc(map_fd, &m))
		return 1;
	{
		struct bpf_insn insns[] = {
			/* r6 = skb; r0 = ip->protocol */
			{ .code = BPF_ALU64 | BPF_MOV | BPF_X, .dst_reg = 6, .src_reg = 1 },
			{ .code = BPF_LD | BPF_B | BPF_ABS,
			  .imm = ETH_HLEN + offsetof(struct iphdr, protocol) },
			/* *(u32 *)(fp - 4) = r0; r2 = fp - 4 */
			{ .code = BPF_STX | BPF_MEM | BPF_W, .dst_reg = 10, .src_reg = 0,
			  .off = -4 },
			{ .code = BPF_ALU64 | BPF_MOV | BPF_X, .dst_reg = 2, .src_reg = 10 },
			{ .code = BPF_ALU64 | BPF_ADD | BPF_K, .dst_reg = 2, .imm = -4 },
			/* r1 = map; r0 = bpf_map_lookup_elem(r1, r2) */
			{ .code = BPF_LD | BPF_DW | BPF_IMM, .dst_reg = 1,
			  .src_reg = BPF_PSEUDO_MAP_FD, .imm = map_fd },
			{ },
			{ .code = BPF_JMP | BPF_CALL, .imm = BPF_FUNC_map_lookup_elem },
			/* if (r0) lock *(u64 *)r0 += 1 */
			{ .code = BPF_JMP | BPF_JEQ | BPF_K, .dst_reg = 0, .off = 2, .imm = 0 },
			{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 1, .imm = 1 },
			{ .code = BPF_STX | BPF_ATOMIC | BPF_DW, .dst_reg = 0, .src_reg = 1,
			  .imm = BPF_ADD },
			/* return 0 */
			{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0, .imm = 0 },
			{ .code = BPF_JMP | BPF_EXIT },
		};
		union bpf_attr attr;

		memset(&attr, 0, sizeof(attr));
		attr.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
		attr.insns = (__u64)(unsigned long)insns;
		attr.insn_cnt = ARRAY_SIZE(insns);
		attr.license = (__u64)(unsigned long)"GPL";
		prog_fd = sys_bpf(BPF_PROG_LOAD, &attr);
	}
	if (prog_fd < 0 || prog_desc(prog_fd, &p))
		return 1;
	sk = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, htons(ETH_P_ALL));
	ll.sll_ifindex = if_nametoindex("lo");
	if (sk < 0 || bind(sk, (struct sockaddr *)&ll, sizeof(ll)) ||
	    setsockopt(sk, SOL_SOCKET, SO_ATTACH_BPF, &prog_fd, sizeof(prog_fd)))
		return 1;

	udp = socket(AF_INET, SOCK_DGRAM, 0);
	icmp = socket(AF_INET, SOCK_RAW, IPPROTO_ICMP);
	end = time(NULL) + secs;
	for (round = 0; time(NULL) < end || round < 3; round++) {
		for (i = 0; i < 5; i++) {
			sendto(udp, "x", 1, 0, (struct sockaddr *)&lo, sizeof(lo));
			sendto(icmp, icmp_echo, sizeof(icmp_echo), 0, (struct sockaddr *)&lo,
			       sizeof(lo));
		}
		usleep(100000);
		for (i = 0; i < 3; i++) {
			if (sys_map_elem(BPF_MAP_LOOKUP_ELEM, map_fd, &keys[i], &count[i], 0))
				return 1;
			snprintf(lookups[i], sizeof(lookups[i]),
				 "bpf_map_lookup_elem: %s key=[%s] val=[%s] %s",
				 map_head(&m, map_fd), hex(&keys[i], 4), hex(&count[i], 8),
				 map_tail(&m));
		}
		printf("TCP %llu UDP %llu ICMP %llu packets\n", (unsigned long long)count[0],
		       (unsigned long long)count[1], (unsigned long long)count[2]);
		ticks++;
		key = zero;
		if (sys_map_elem(BPF_MAP_UPDATE_ELEM, map_fd, &key, &ticks, BPF_ANY))
			return 1;
		snprintf(update, sizeof(update), "bpf_map_update_elem: %s key=[%s] val=[%s] %s",
			 map_head(&m, map_fd), hex(&key, 4), hex(&ticks, 8), map_tail(&m));
	}
	f = fopen(out, "w");
	if (!f)
		return 1;
	write_setup_events(f, &m, map_fd, &p, prog_fd);
	for (i = 0; i < 3; i++)
		fprintf(f, "%s\n", lookups[i]);
	fprintf(f, "%s\n", update);
	fprintf(f, "bpf_prog_put_rcu: %s\n", prog_line(&p));
	if (fclose(f))
		return 1;
	/* the socket's program is put after an RCU grace period: wait for it */
	close(sk);
	close(prog_fd);
	usleep(500000);
	return 0;
}

/*
 * What syzbot's WARNING in perf_trace_bpf_map_keyval came from in 2017:
 * element events on a 64 KiB value and on a per-CPU value, now recorded
 * through perf. The lines they must print are written to @out.
 */
static int big_values(const char *out)
{
	static unsigned char big[65536];
	int ncpus = sysconf(_SC_NPROCESSORS_CONF), afd, pfd;
	unsigned char *pcpu = calloc(ncpus, 16);
	struct map_desc a, p;
	__u32 zero = 0;
	FILE *f;

	memset(big, 0x5a, sizeof(big));
	memset(pcpu, 0xa5, 16 * ncpus);
	afd = sys_map_create(BPF_MAP_TYPE_ARRAY, 4, sizeof(big), 1, 0);
	pfd = sys_map_create(BPF_MAP_TYPE_PERCPU_HASH, 4, 16, 1, 0);
	if (afd < 0 || pfd < 0 || map_desc(afd, &a) || map_desc(pfd, &p) ||
	    sys_map_elem(BPF_MAP_UPDATE_ELEM, afd, &zero, big, BPF_ANY) ||
	    sys_map_elem(BPF_MAP_LOOKUP_ELEM, afd, &zero, big, 0) ||
	    sys_map_elem(BPF_MAP_UPDATE_ELEM, pfd, &zero, pcpu, BPF_ANY) ||
	    sys_map_elem(BPF_MAP_LOOKUP_ELEM, pfd, &zero, pcpu, 0))
		return 1;
	f = fopen(out, "w");
	if (!f)
		return 1;
	fprintf(f, "bpf_map_lookup_elem: %s key=[00 00 00 00] val=[%s] %s\n",
		map_head(&a, afd), hex(big, sizeof(big)), map_tail(&a));
	fprintf(f, "bpf_map_lookup_elem: %s key=[00 00 00 00] val=[%s] %s\n",
		map_head(&p, pfd), hex(pcpu, 16 * ncpus), map_tail(&p));
	return fclose(f) ? 1 : 0;
}

/* The workload of bpftrace_on_update: @n updates of one array map. */
static int map_updates(int n)
{
	struct map_desc m;
	__u32 key = 0;
	__u64 val;
	int fd = sys_map_create(BPF_MAP_TYPE_ARRAY, 4, 8, 1, 0), i;

	if (fd < 0 || map_desc(fd, &m))
		return 1;
	for (i = 0; i < n; i++) {
		val = i;
		if (sys_map_elem(BPF_MAP_UPDATE_ELEM, fd, &key, &val, BPF_ANY))
			return 1;
	}
	printf("map id %u fd %d updates %d\n", m.id, fd, n);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--workload"))
		return workload(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "--big-values"))
		return big_values(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "--updates"))
		return map_updates(atoi(argv[2]));
	if (argc == 4 && !strcmp(argv[1], "--sock-example"))
		return sock_example(atoi(argv[2]), argv[3]);
	fprintf(stderr, "usage: %s --workload OUT | --sock-example SECS OUT | --big-values OUT | --updates N\n",
		argv[0]);
	return 2;
}
