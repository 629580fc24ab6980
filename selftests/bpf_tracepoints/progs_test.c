// SPDX-License-Identifier: GPL-2.0
/*
 * Programs: loading, taking one by fd for an attach (bpf_prog_get_type),
 * the last put after RCU, and no event for a load that failed.
 */
#define _GNU_SOURCE
#include "../kselftest_harness.h"
#include "test_helpers.h"

TEST(prog_load)
{
	struct prog_desc p;
	char *trace;
	int fd;

	TP_BEGIN("bpf_prog_load");
	fd = sys_prog_load();
	ASSERT_LE(0, fd) TH_LOG("BPF_PROG_LOAD: %s", strerror(errno));
	trace = tp_end();
	ASSERT_EQ(0, prog_desc(fd, &p));
	EXPECT_EVENT(trace, fmt("bpf_prog_load: prog=%s type=SOCKET_FILTER ufd=%d id=%u name=%s",
				p.tag, fd, p.id, p.name));
	ASSERT_EQ(gate_on, count_of(trace, " bpf_prog_load: ")) TH_LOG("%s", trace);
	close(fd);
}

/*
 * The lines of @event in the test's instance that end in " name=@name",
 * from any task and context: trace_read() keeps another task's deferred
 * line only for an object the test knows by id, and a program the
 * verifier refused never had one. -1 if the trace cannot be read.
 */
static int count_named_anywhere(const char *event, const char *name)
{
	const char *head = fmt(" %s: ", event), *tail = fmt(" name=%s\n", name);
	FILE *f = fopen(tracing("trace"), "r");
	char *line = NULL;
	size_t cap = 0;
	int n = 0;

	if (!f)
		return -1;
	while (getline(&line, &cap, f) > 0)
		n += strstr(line, head) && strstr(line, tail);
	free(line);
	fclose(f);
	return n;
}

#define REFUSED_PROG	"tp_refused_prog"

TEST(prog_load_failed_leaves_no_event)
{
	struct prog_desc p;
	const char *put;
	char *trace;
	int fd, i;

	TP_BEGIN("bpf_prog_load,bpf_prog_put_rcu");
	/* without its exit instruction the verifier refuses the program */
	ASSERT_EQ(-1, sys_prog_load_named(REFUSED_PROG, BPF_PROG_TYPE_SOCKET_FILTER, 0, 1));
	ASSERT_EQ(EINVAL, errno);
	/* the control, in the same window: a load that works is traced */
	fd = sys_prog_load();
	ASSERT_LE(0, fd) TH_LOG("BPF_PROG_LOAD: %s", strerror(errno));
	ASSERT_EQ(0, prog_desc(fd, &p));
	close(fd);
	/*
	 * and so is its last put, queued after anything the refused load
	 * left to run later: once it is in the trace, a put of the refused
	 * program would be there too, from whatever context
	 */
	put = fmt(" bpf_prog_put_rcu: %s\n", prog_line(&p));
	for (i = 0; gate_on && i < 250 && count_of(trace_read(), put) != 1; i++)
		usleep(20000);
	trace = tp_end();
	EXPECT_EVENT(trace, fmt("bpf_prog_load: prog=%s type=SOCKET_FILTER ufd=%d id=%u name=%s",
				p.tag, fd, p.id, p.name));
	if (gate_on) {
		ASSERT_EQ(1, count_of(trace, put)) TH_LOG("want once: %s%s", put, trace);
		/* the refused one: no load event, no put, in any task */
		ASSERT_EQ(1, count_of(trace, " bpf_prog_load: ")) TH_LOG("%s", trace);
		ASSERT_EQ(0, count_named_anywhere("bpf_prog_load", REFUSED_PROG));
		ASSERT_EQ(0, count_named_anywhere("bpf_prog_put_rcu", REFUSED_PROG));
	}
}

/*
 * A socket filter of @cnt instructions (r0 = 0, ..., exit): one too large
 * for the socket's option memory when attached (optmem_max, 128 KiB on 6.12
 * and 20 KiB on 6.1, against 8 bytes an instruction).
 */
static int sys_prog_load_long(__u32 cnt)
{
	struct bpf_insn *insns = calloc(cnt, sizeof(*insns));
	__u32 i;
	int fd;

	if (!insns)
		return -1;
	for (i = 0; i + 1 < cnt; i++)
		insns[i] = (struct bpf_insn){ .code = BPF_ALU64 | BPF_MOV | BPF_K,
					      .dst_reg = BPF_REG_0 };
	insns[cnt - 1] = (struct bpf_insn){ .code = BPF_JMP | BPF_EXIT };
	fd = sys_prog_load_insns(PROG_NAME, BPF_PROG_TYPE_SOCKET_FILTER, insns, cnt);
	free(insns);
	return fd;
}

TEST(prog_get_type)
{
	struct prog_desc p;
	int fd, map_fd, sk;
	char *trace;

	fd = sys_prog_load();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, prog_desc(fd, &p));
	map_fd = sys_map_create(BPF_MAP_TYPE_ARRAY, 4, 8, 1, 0);
	ASSERT_LE(0, map_fd);
	sk = socket(AF_UNIX, SOCK_DGRAM, 0);
	ASSERT_LE(0, sk);

	TP_BEGIN("bpf_prog_get_type");
	/* a map fd is no program: refused before any program is taken */
	ASSERT_EQ(-1, setsockopt(sk, SOL_SOCKET, SO_ATTACH_BPF, &map_fd, sizeof(map_fd)));
	ASSERT_EQ(0, setsockopt(sk, SOL_SOCKET, SO_ATTACH_BPF, &fd, sizeof(fd)))
		TH_LOG("SO_ATTACH_BPF: %s", strerror(errno));
	trace = tp_end();
	EXPECT_EVENT(trace, fmt("bpf_prog_get_type: %s", prog_line(&p)));
	close(sk);
	close(map_fd);
	close(fd);
}

/*
 * bpf_prog_get_type records the take, which comes before the use is tried:
 * an attach that fails after it (the filter is larger than the socket may
 * charge: -ENOMEM) leaves the event, as documented, and puts the program
 * back. A take that fails (a map fd) leaves none, in the same window.
 */
TEST(prog_get_type_then_failed_attach)
{
	struct prog_desc p;
	int fd, map_fd, sk;
	char *trace;

	fd = sys_prog_load_long(20000);
	ASSERT_LE(0, fd) TH_LOG("BPF_PROG_LOAD of 20000 insns: %s", strerror(errno));
	ASSERT_EQ(0, prog_desc(fd, &p));
	map_fd = sys_map_create(BPF_MAP_TYPE_ARRAY, 4, 8, 1, 0);
	ASSERT_LE(0, map_fd);
	sk = socket(AF_UNIX, SOCK_DGRAM, 0);
	ASSERT_LE(0, sk);

	TP_BEGIN("bpf_prog_get_type");
	ASSERT_EQ(-1, setsockopt(sk, SOL_SOCKET, SO_ATTACH_BPF, &map_fd, sizeof(map_fd)));
	ASSERT_EQ(EINVAL, errno);
	ASSERT_EQ(-1, setsockopt(sk, SOL_SOCKET, SO_ATTACH_BPF, &fd, sizeof(fd)));
	ASSERT_EQ(ENOMEM, errno);
	trace = tp_end();
	EXPECT_EVENT(trace, fmt("bpf_prog_get_type: %s", prog_line(&p)));
	ASSERT_EQ(gate_on, count_of(trace, " bpf_prog_get_type: ")) TH_LOG("%s", trace);
	close(sk);
	close(map_fd);
	close(fd);
}

TEST(prog_put_rcu)
{
	struct prog_desc p;
	char *trace = NULL;
	int fd, i;

	fd = sys_prog_load();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, prog_desc(fd, &p));
	TP_BEGIN("bpf_prog_put_rcu");
	close(fd);
	/* the last put may run from a work item: give it a moment */
	for (i = 0; i < 50; i++) {
		trace = trace_read();
		if (!gate_on || strstr(trace, " bpf_prog_put_rcu: "))
			break;
		usleep(20000);
	}
	usleep(100000);
	trace = tp_end();
	if (gate_on) {
		const char *line = fmt(" bpf_prog_put_rcu: %s\n", prog_line(&p));

		ASSERT_EQ(1, count_of(trace, line)) TH_LOG("want once: %s%s", line, trace);
		ASSERT_EQ(1, count_of(trace, " bpf_prog_put_rcu: ")) TH_LOG("%s", trace);
	}
}

/*
 * A create or a load that fails after its id was reserved (no fd left:
 * EMFILE) was never published: it leaves its failure record and nothing
 * else, no free record of an object the trace never saw made. The last
 * puts run in this task, within the commands; any task's are counted by
 * name too. A BTF load takes its fd before its id: it fails with no id,
 * and leaves its failure record alone as well.
 */
#define EMFILE_MAP	"tp_emfile_map"
#define EMFILE_PROG	"tp_emfile_prog"
#define EMFILE_EVENTS	"bpf_map_create,bpf_map_free,bpf_prog_load,bpf_prog_put_rcu," \
			"bpf_btf_load,bpf_btf_free," FAIL_EVENTS

TEST(failed_after_the_id_leaves_no_free)
{
	struct rlimit old, low;
	int next, fd[3], err[3], i;
	__u32 size;
	char *trace;

	next = open("/dev/null", O_RDONLY);
	ASSERT_LE(0, next);
	close(next);
	ASSERT_EQ(0, getrlimit(RLIMIT_NOFILE, &old));
	low = old;
	low.rlim_cur = next;

	TP_BEGIN(EMFILE_EVENTS);
	ASSERT_EQ(0, setrlimit(RLIMIT_NOFILE, &low));
	fd[0] = sys_map_create_named(EMFILE_MAP, BPF_MAP_TYPE_ARRAY, 4, 8, 1, 0);
	err[0] = errno;
	fd[1] = sys_prog_load_named(EMFILE_PROG, BPF_PROG_TYPE_SOCKET_FILTER, 0, 2);
	err[1] = errno;
	fd[2] = sys_btf_load(&size);
	err[2] = errno;
	ASSERT_EQ(0, setrlimit(RLIMIT_NOFILE, &old));
	trace = tp_end();
	for (i = 0; i < 3; i++) {
		ASSERT_EQ(-1, fd[i]) TH_LOG("command %d", i);
		ASSERT_EQ(EMFILE, err[i]) TH_LOG("command %d", i);
	}
	EXPECT_EVENT(trace, fmt("bpf_map_create_fail: map type=ARRAY key=4 val=8 max=1 flags=0 name=%s err=-24(EMFILE)",
				EMFILE_MAP));
	EXPECT_EVENT(trace, fmt("bpf_prog_load_fail: prog type=SOCKET_FILTER insns=2 expected_attach_type=none flags=0 name=%s err=-24(EMFILE)",
				EMFILE_PROG));
	EXPECT_EVENT(trace, "bpf_cmd_fail: cmd=BTF_LOAD err=-24(EMFILE) ufd=-1 obj=none id=0 name=");
	ASSERT_EQ(3 * gate_on, fail_records_of(trace, getpid())) TH_LOG("%s", trace);
	EXPECT_NO_EVENT(trace, "bpf_map_create");
	EXPECT_NO_EVENT(trace, "bpf_map_free");
	EXPECT_NO_EVENT(trace, "bpf_prog_load");
	EXPECT_NO_EVENT(trace, "bpf_prog_put_rcu");
	EXPECT_NO_EVENT(trace, "bpf_btf_load");
	EXPECT_NO_EVENT(trace, "bpf_btf_free");
	if (gate_on) {
		EXPECT_EQ(0, count_named_anywhere("bpf_map_free", EMFILE_MAP));
		EXPECT_EQ(0, count_named_anywhere("bpf_prog_put_rcu", EMFILE_PROG));
	}
}

int main(int argc, char **argv)
{
	bpf_tracepoints_test_setup();
	return test_harness_run(argc, argv);
}
