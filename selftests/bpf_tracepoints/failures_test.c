// SPDX-License-Identifier: GPL-2.0
/*
 * Failures: one record for each failed command, with what was asked and,
 * where the syscall layer refused, which check.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include "../kselftest_harness.h"
#include "test_helpers.h"

TEST(map_create_fail)
{
	char *trace;

	TP_BEGIN(FAIL_EVENTS);
	/* libbpf #770: max_entries 0 */
	ASSERT_EQ(-1, sys_map_create(BPF_MAP_TYPE_ARRAY, 4, 8, 0, 0));
	ASSERT_EQ(EINVAL, errno);
	ASSERT_EQ(-1, sys_map_create(9999, 4, 8, 1, 0));
	ASSERT_EQ(EINVAL, errno);
	ASSERT_EQ(-1, sys_map_create_named("bad-name", BPF_MAP_TYPE_HASH, 4, 8, 1, 0));
	ASSERT_EQ(EINVAL, errno);
	trace = tp_end();
	EXPECT_EVENT(trace, "bpf_cmd_refused: cmd=MAP_CREATE check=the map type's own checks of its attributes");
	EXPECT_EVENT(trace, fmt("bpf_map_create_fail: map type=ARRAY key=4 val=8 max=0 flags=0 name=%s err=-22(EINVAL)",
				MAP_NAME));
	EXPECT_EVENT(trace, "bpf_cmd_refused: cmd=MAP_CREATE check=unknown map_type");
	EXPECT_EVENT(trace, fmt("bpf_map_create_fail: map type=0x270f key=4 val=8 max=1 flags=0 name=%s err=-22(EINVAL)",
				MAP_NAME));
	EXPECT_EVENT(trace, "bpf_cmd_refused: cmd=MAP_CREATE check=map_name: up to 15 of [A-Za-z0-9_.]");
	EXPECT_EVENT(trace, "bpf_map_create_fail: map type=HASH key=4 val=8 max=1 flags=0 name=bad-name err=-22(EINVAL)");
	ASSERT_EQ(3 * gate_on, fail_records(trace)) TH_LOG("%s", trace);
}

TEST(prog_load_fail)
{
	char *trace;

	TP_BEGIN(FAIL_EVENTS);
	/* no exit: the verifier refuses */
	ASSERT_EQ(-1, sys_prog_load_ret(BPF_PROG_TYPE_SOCKET_FILTER, 0, 1));
	ASSERT_EQ(EINVAL, errno);
	ASSERT_EQ(-1, sys_prog_load_ret(BPF_PROG_TYPE_SOCKET_FILTER, 0, 0));
	ASSERT_EQ(E2BIG, errno);
	trace = tp_end();
	EXPECT_EVENT(trace, fmt("bpf_prog_load_fail: prog type=SOCKET_FILTER insns=1 expected_attach_type=none flags=0 name=%s err=-22(EINVAL)",
				PROG_NAME));
	EXPECT_EVENT(trace, fmt("bpf_prog_load_fail: prog type=SOCKET_FILTER insns=0 expected_attach_type=none flags=0 name=%s err=-7(E2BIG)",
				PROG_NAME));
	EXPECT_EVENT(trace, "bpf_cmd_refused: cmd=PROG_LOAD check=the verifier: last insn is not an exit or jmp");
	EXPECT_EVENT(trace, "bpf_cmd_refused: cmd=PROG_LOAD check=insn_cnt is 0 or over the limit");
	ASSERT_EQ(2 * gate_on, fail_records(trace)) TH_LOG("%s", trace);
}

/*
 * An expected attach type of 0 is BPF_CGROUP_INET_INGRESS for a cgroup
 * skb program alone: any other type prints none (prog_load_fail).
 */
TEST(prog_load_fail_cgroup_skb_attach_type)
{
	char *trace;

	TP_BEGIN(FAIL_EVENTS);
	ASSERT_EQ(-1, sys_prog_load_ret(BPF_PROG_TYPE_CGROUP_SKB, 0, 0));
	ASSERT_EQ(E2BIG, errno);
	trace = tp_end();
	EXPECT_EVENT(trace, fmt("bpf_prog_load_fail: prog type=CGROUP_SKB insns=0 expected_attach_type=CGROUP_INET_INGRESS flags=0 name=%s err=-7(E2BIG)",
				PROG_NAME));
	ASSERT_EQ(gate_on, fail_records(trace)) TH_LOG("%s", trace);
}

/*
 * The records show the attributes as the caller gave them: a map
 * create's flags before BPF_F_TOKEN_FD is cleared (6.12; 6.1 does not
 * know the flag and refuses it), and a program's expected attach type
 * before the fix-up for older loaders (a cgroup sock program's 0 is
 * none, not the BPF_CGROUP_INET_SOCK_CREATE it is loaded with).
 */
#define MAP_F_TOKEN_FD	0x10000U	/* BPF_F_TOKEN_FD, 1U << 16: not in 6.1 */

TEST(fail_records_show_attributes_as_given)
{
	char *trace;

	TP_BEGIN(FAIL_EVENTS);
	ASSERT_EQ(-1, sys_map_create(BPF_MAP_TYPE_ARRAY, 4, 8, 0, MAP_F_TOKEN_FD));
	ASSERT_EQ(EINVAL, errno);
	/* no exit: the verifier refuses, after the fix-up */
	ASSERT_EQ(-1, sys_prog_load_ret(BPF_PROG_TYPE_CGROUP_SOCK, 0, 1));
	ASSERT_EQ(EINVAL, errno);
	trace = tp_end();
	EXPECT_EVENT(trace, fmt("bpf_map_create_fail: map type=ARRAY key=4 val=8 max=0 flags=10000 name=%s err=-22(EINVAL)",
				MAP_NAME));
	EXPECT_EVENT(trace, fmt("bpf_prog_load_fail: prog type=CGROUP_SOCK insns=1 expected_attach_type=none flags=0 name=%s err=-22(EINVAL)",
				PROG_NAME));
	ASSERT_EQ(2 * gate_on, fail_records(trace)) TH_LOG("%s", trace);
}

TEST(cmd_fail)
{
	struct map_desc m;
	union bpf_attr attr;
	__u32 key = 7;
	__u64 val;
	char *trace;
	int fd;

	fd = sys_map_create(BPF_MAP_TYPE_HASH, 4, 8, 4, 0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, map_desc(fd, &m));
	TP_BEGIN(FAIL_EVENTS);
	ASSERT_EQ(-1, sys_map_elem(BPF_MAP_LOOKUP_ELEM, fd, &key, &val, 0));
	ASSERT_EQ(ENOENT, errno);
	ASSERT_EQ(-1, sys_map_elem(BPF_MAP_LOOKUP_ELEM, 999, &key, &val, 0));
	ASSERT_EQ(EBADF, errno);
	/* the u32 0xffffffff is an fd the caller passed, not "no fd" (-1) */
	ASSERT_EQ(-1, sys_map_elem(BPF_MAP_LOOKUP_ELEM, -1, &key, &val, 0));
	ASSERT_EQ(EBADF, errno);
	memset(&attr, 0, sizeof(attr));
	attr.map_id = 0x7ffffff0;
	ASSERT_EQ(-1, sys_bpf(BPF_MAP_GET_FD_BY_ID, &attr));
	ASSERT_EQ(ENOENT, errno);
	/* the command the kernel does not know */
	ASSERT_EQ(-1, sys_bpf(999, &attr));
	ASSERT_EQ(EINVAL, errno);
	/* refused before it resolved its fd: the record names no object */
	ASSERT_EQ(-1, sys_map_elem(BPF_MAP_LOOKUP_ELEM, fd, &key, &val, 1ULL << 5));
	ASSERT_EQ(EINVAL, errno);
	/* commands that work leave no failure record */
	val = 1;
	ASSERT_EQ(0, sys_map_elem(BPF_MAP_UPDATE_ELEM, fd, &key, &val, 0));
	ASSERT_EQ(0, sys_map_elem(BPF_MAP_LOOKUP_ELEM, fd, &key, &val, 0));
	trace = tp_end();
	EXPECT_EVENT(trace, fmt("bpf_cmd_fail: cmd=MAP_LOOKUP_ELEM err=-2(ENOENT) ufd=%d obj=map id=%u name=%s",
				fd, m.id, m.name));
	EXPECT_EVENT(trace, "bpf_cmd_fail: cmd=MAP_LOOKUP_ELEM err=-9(EBADF) ufd=999 obj=none id=0 name=");
	EXPECT_EVENT(trace, "bpf_cmd_fail: cmd=MAP_LOOKUP_ELEM err=-9(EBADF) ufd=4294967295 obj=none id=0 name=");
	EXPECT_EVENT(trace, "bpf_cmd_fail: cmd=MAP_GET_FD_BY_ID err=-2(ENOENT) ufd=-1 obj=by_id id=2147483632 name=");
	EXPECT_EVENT(trace, "bpf_cmd_fail: cmd=0x3e7 err=-22(EINVAL) ufd=-1 obj=none id=0 name=");
	EXPECT_EVENT(trace, fmt("bpf_cmd_fail: cmd=MAP_LOOKUP_ELEM err=-22(EINVAL) ufd=%d obj=none id=0 name=",
				fd));
	ASSERT_EQ(6 * gate_on, fail_records(trace)) TH_LOG("%s", trace);
	EXPECT_NO_EVENT(trace, "bpf_cmd_refused");
	close(fd);
}

/* Found before the attributes are copied: no object, whatever the command */
TEST(cmd_fail_before_the_copy)
{
	char big[sizeof(union bpf_attr) + 8] = { 0 };
	char *trace;

	big[sizeof(big) - 1] = 1;
	TP_BEGIN(FAIL_EVENTS);
	ASSERT_EQ(-1, syscall(__NR_bpf, BPF_MAP_CREATE, big, sizeof(big)));
	ASSERT_EQ(E2BIG, errno);
	ASSERT_EQ(-1, syscall(__NR_bpf, BPF_PROG_LOAD, (void *)8, sizeof(union bpf_attr)));
	ASSERT_EQ(EFAULT, errno);
	trace = tp_end();
	EXPECT_EVENT(trace, "bpf_cmd_fail: cmd=MAP_CREATE err=-7(E2BIG) ufd=-1 obj=none id=0 name=");
	EXPECT_EVENT(trace, "bpf_cmd_fail: cmd=PROG_LOAD err=-14(EFAULT) ufd=-1 obj=none id=0 name=");
	ASSERT_EQ(2 * gate_on, fail_records(trace)) TH_LOG("%s", trace);
}

/*
 * Random bad attributes (a fixed seed: a failure can be run again): each
 * call is marked in the trace (trace_marker), and between its mark and
 * the next there is exactly one failure record if it failed, none if it
 * worked, and at most one bpf_cmd_refused. Map creates, program loads,
 * and commands on an fd (one of the test's own fds or none).
 */
#define RANDOM_CALLS	300

TEST(random_bad_attributes_one_record_each)
{
	static const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	static const int fd_cmds[] = {
		BPF_MAP_LOOKUP_ELEM, BPF_MAP_UPDATE_ELEM, BPF_MAP_DELETE_ELEM,
		BPF_MAP_GET_NEXT_KEY, BPF_MAP_FREEZE, BPF_OBJ_GET_INFO_BY_FD,
		BPF_PROG_TEST_RUN, BPF_LINK_DETACH, BPF_MAP_LOOKUP_BATCH,
	};
	int i, fd, marker, failed = 0, worked = 0;
	bool fails[RANDOM_CALLS];
	union bpf_attr attr;
	const char *at;
	char *trace;

	srandom(26);
	TP_BEGIN(FAIL_EVENTS);
	marker = open(tracing("trace_marker"), O_WRONLY);
	ASSERT_LE(0, marker);
	for (i = 0; i < RANDOM_CALLS; i++) {
		int cmd = i % 3 == 0 ? BPF_PROG_LOAD : i % 3 == 1 ? BPF_MAP_CREATE :
			  fd_cmds[random() % ARRAY_SIZE(fd_cmds)];

		memset(&attr, 0, sizeof(attr));
		if (cmd == BPF_MAP_CREATE) {
			attr.map_type = random() % 40;
			attr.key_size = random() % 3 ? 4 : random() % 80;
			attr.value_size = random() % 3 ? 8 : random() % 80;
			attr.max_entries = random() % 4;
			attr.map_flags = random() % 2 ? 0 : 1u << (random() % 20);
			memcpy(attr.map_name, "tp_random", sizeof("tp_random"));
		} else if (cmd == BPF_PROG_LOAD) {
			attr.prog_type = random() % 40;
			attr.insns = (__u64)(unsigned long)insns;
			attr.insn_cnt = random() % 4;
			attr.license = (__u64)(unsigned long)"GPL";
			attr.prog_flags = random() % 2 ? 0 : 1u << (random() % 20);
			attr.expected_attach_type = random() % 60;
			memcpy(attr.prog_name, "tp_random", sizeof("tp_random"));
		} else {
			/* an fd of this test's (tracefs, the marker) or none; no buffers */
			attr.map_fd = random() % 8;
			attr.flags = random() % 2 ? 0 : 1u << (random() % 8);
		}
		dprintf(marker, "tp_random %d\n", i);
		fd = sys_bpf(cmd, &attr);
		fails[i] = fd < 0;
		if (fd < 0) {
			failed++;
		} else {
			worked++;
			if (cmd == BPF_MAP_CREATE || cmd == BPF_PROG_LOAD)
				close(fd);
		}
	}
	close(marker);
	trace = tp_end();
	ASSERT_LT(100, failed);
	TH_LOG("%d calls failed, %d worked", failed, worked);
	if (!gate_on)
		return;
	ASSERT_EQ(failed, fail_records(trace));
	for (i = 0; i < RANDOM_CALLS; i++) {
		const char *next;
		char *seg;

		at = strstr(trace, fmt("tracing_mark_write: tp_random %d\n", i));
		ASSERT_NE(NULL, at) TH_LOG("the mark of call %d is not in the trace", i);
		next = strstr(at, "tracing_mark_write: tp_random ");
		next = next ? strstr(next + 1, "tracing_mark_write: tp_random ") : NULL;
		seg = strndup(at, next ? (size_t)(next - at) : strlen(at));
		EXPECT_EQ(fails[i], fail_records(seg)) TH_LOG("call %d:\n%s", i, seg);
		/* one at most, and none for a call that worked */
		EXPECT_GE(fails[i], count_of(seg, " bpf_cmd_refused: "))
			TH_LOG("call %d:\n%s", i, seg);
		free(seg);
	}
}

/*
 * A syscall program asks the bpf_sys_bpf() helper for BPF_PROG_QUERY,
 * which is not on its allow-list: the refusal, before __sys_bpf(), has
 * its bpf_cmd_refused and its bpf_cmd_fail (no fd: the attributes are
 * not read). The test run itself worked, and records the -EINVAL the
 * program returned (the syscall runner measures no duration).
 */
TEST(sys_bpf_helper_refusal_one_record)
{
	struct bpf_insn insns[] = {
		/* *(u64 *)(r10 - 8) = 0: the attributes, 8 bytes */
		{ .code = BPF_ST | BPF_MEM | BPF_DW, .dst_reg = BPF_REG_10, .off = -8 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_1,
		  .imm = BPF_PROG_QUERY },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_X, .dst_reg = BPF_REG_2,
		  .src_reg = BPF_REG_10 },
		{ .code = BPF_ALU64 | BPF_ADD | BPF_K, .dst_reg = BPF_REG_2, .imm = -8 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_3, .imm = 8 },
		{ .code = BPF_JMP | BPF_CALL, .imm = BPF_FUNC_sys_bpf },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	union bpf_attr attr;
	struct prog_desc p;
	char *trace;
	int prog;

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_SYSCALL;
	attr.prog_flags = BPF_F_SLEEPABLE;
	attr.insns = (__u64)(unsigned long)insns;
	attr.insn_cnt = ARRAY_SIZE(insns);
	attr.license = (__u64)(unsigned long)"GPL";
	memcpy(attr.prog_name, PROG_NAME, sizeof(PROG_NAME));
	prog = sys_bpf(BPF_PROG_LOAD, &attr);
	ASSERT_LE(0, prog) TH_LOG("a syscall program: %s", strerror(errno));
	ASSERT_EQ(0, prog_desc(prog, &p));
	TP_BEGIN(FAIL_EVENTS ",bpf_prog_test_run");
	memset(&attr, 0, sizeof(attr));
	attr.test.prog_fd = prog;
	ASSERT_EQ(0, sys_bpf(BPF_PROG_TEST_RUN, &attr)) TH_LOG("BPF_PROG_TEST_RUN: %s",
							       strerror(errno));
	trace = tp_end();
	ASSERT_EQ(-EINVAL, (int)attr.test.retval);
	EXPECT_EVENT(trace, "bpf_cmd_refused: cmd=PROG_QUERY check=the bpf_sys_bpf() helper's allow-list");
	EXPECT_EVENT(trace, "bpf_cmd_fail: cmd=PROG_QUERY err=-22(EINVAL) ufd=-1 obj=none id=0 name=");
	EXPECT_EVENT(trace, fmt("bpf_prog_test_run: prog=%s type=SYSCALL repeat=0 data_size_in=0 ctx_size_in=0 flags=0 retval=%u duration=0 id=%u name=%s",
				p.tag, attr.test.retval, p.id, p.name));
	ASSERT_EQ(gate_on, fail_records(trace)) TH_LOG("%s", trace);
	ASSERT_EQ(gate_on, count_of(trace, " bpf_cmd_refused: ")) TH_LOG("%s", trace);
	close(prog);
}

/*
 * A failure record names what the command used, not what its fd names
 * by the time the record is made. A thread dup2()s map B (a hash that
 * holds key 100) and map A (an array of 4, where key 100 is out of
 * range) onto one fd in turn, while this one looks key 100 up through
 * that fd: a lookup that failed used A, and its record must name A.
 * The thread swaps again only once two lookups ended after its last
 * swap, so both maps are met even where the vCPUs take turns in one
 * host thread (6.1's neighbour guest), and each swap still lands while
 * a lookup is under way.
 */
#define SWAP_LOOKUPS	3000

struct swapper {
	int fd, a, b;
	int stop;		/* __atomic: set by the test, read by the thread */
	unsigned int lookups;	/* __atomic: lookups ended */
	unsigned long swaps;
};

static void swap_to(struct swapper *s, int to)
{
	unsigned int seen;

	dup2(to, s->fd);
	seen = __atomic_load_n(&s->lookups, __ATOMIC_ACQUIRE);
	while (__atomic_load_n(&s->lookups, __ATOMIC_ACQUIRE) - seen < 2 &&
	       !__atomic_load_n(&s->stop, __ATOMIC_RELAXED))
		sched_yield();
}

static void *swap_maps(void *arg)
{
	struct swapper *s = arg;

	while (!__atomic_load_n(&s->stop, __ATOMIC_RELAXED)) {
		swap_to(s, s->b);
		swap_to(s, s->a);
		s->swaps++;
	}
	return NULL;
}

TEST(fail_record_names_what_the_command_used)
{
	struct swapper s = { .stop = 0 };
	int i, failed = 0, worked = 0;
	__u64 val = 1, got;
	struct map_desc a, b;
	__u32 key = 100;
	char *trace;
	pthread_t t;

	s.a = sys_map_create(BPF_MAP_TYPE_ARRAY, 4, 8, 4, 0);
	ASSERT_LE(0, s.a);
	s.b = sys_map_create(BPF_MAP_TYPE_HASH, 4, 8, 4, 0);
	ASSERT_LE(0, s.b);
	ASSERT_EQ(0, sys_map_elem(BPF_MAP_UPDATE_ELEM, s.b, &key, &val, BPF_ANY));
	ASSERT_EQ(0, map_desc(s.a, &a));
	ASSERT_EQ(0, map_desc(s.b, &b));
	s.fd = dup(s.a);
	ASSERT_LE(0, s.fd);
	TP_BEGIN(FAIL_EVENTS);
	ASSERT_EQ(0, pthread_create(&t, NULL, swap_maps, &s));
	for (i = 0; i < SWAP_LOOKUPS; i++) {
		int err = sys_map_elem(BPF_MAP_LOOKUP_ELEM, s.fd, &key, &got, 0);

		__atomic_add_fetch(&s.lookups, 1, __ATOMIC_RELEASE);
		if (!err) {
			worked++;
			continue;
		}
		failed++;
		if (errno != ENOENT)
			break;
	}
	__atomic_store_n(&s.stop, 1, __ATOMIC_RELAXED);
	pthread_join(t, NULL);
	trace = tp_end();
	ASSERT_EQ(SWAP_LOOKUPS, i) TH_LOG("lookup %d: %s", i, strerror(errno));
	TH_LOG("%d lookups failed (map %u), %d worked (map %u), %lu swaps",
	       failed, a.id, worked, b.id, s.swaps);
	/* both maps were met: the swaps overlapped the lookups */
	ASSERT_LT(0, failed);
	ASSERT_LT(0, worked);
	ASSERT_EQ(failed * gate_on, fail_records(trace)) TH_LOG("%s", trace);
	EXPECT_EQ(failed * gate_on,
		  count_of(trace, fmt(" bpf_cmd_fail: cmd=MAP_LOOKUP_ELEM err=-2(ENOENT) ufd=%d obj=map id=%u name=%s\n",
				      s.fd, a.id, a.name)))
		TH_LOG("%s", trace);
	EXPECT_EQ(0, count_of(trace, fmt(" obj=map id=%u ", b.id))) TH_LOG("%s", trace);
	close(s.fd);
	close(s.a);
	close(s.b);
}

int main(int argc, char **argv)
{
	bpf_tracepoints_test_setup();
	return test_harness_run(argc, argv);
}
