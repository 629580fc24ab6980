// SPDX-License-Identifier: GPL-2.0
/*
 * Tests for the bpf:* low level tracepoints (CONFIG_BPF_LOW_LEVEL_TRACEPOINTS).
 *
 * Every test issues raw bpf(2) commands and checks both sides of the gate:
 * with the option on, each successful command leaves exactly one event in
 * the trace buffer with the values the test knows, and a failed command
 * leaves none; with the option off, the bpf event directory does not exist
 * and the same commands give the same results.
 *
 * Which side to expect comes from BPF_TRACEPOINTS_EXPECT=on|off, else from
 * /proc/config.gz; only if neither exists is it inferred from tracefs.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/bpf.h>

#include "../kselftest_harness.h"

#define TRACEFS		"/sys/kernel/tracing"
#define TRACE_BUF_SIZE	(1 << 20)
#define MAP_NAME	"tp_test_map"
#define PROG_NAME	"tp_test_prog"

enum gate { GATE_UNKNOWN, GATE_ON, GATE_OFF };

static int sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(__NR_bpf, cmd, attr, sizeof(*attr));
}

static bool path_exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

static enum gate gate_from_config(void)
{
	const char *env = getenv("BPF_TRACEPOINTS_EXPECT");
	char line[256];
	enum gate gate = GATE_UNKNOWN;
	FILE *f;

	if (env && !strcmp(env, "on"))
		return GATE_ON;
	if (env && !strcmp(env, "off"))
		return GATE_OFF;
	if (!path_exists("/proc/config.gz"))
		return GATE_UNKNOWN;
	f = popen("zcat /proc/config.gz", "r");
	if (!f)
		return GATE_UNKNOWN;
	while (fgets(line, sizeof(line), f)) {
		if (!strcmp(line, "CONFIG_BPF_LOW_LEVEL_TRACEPOINTS=y\n"))
			gate = GATE_ON;
		else if (!strcmp(line, "# CONFIG_BPF_LOW_LEVEL_TRACEPOINTS is not set\n"))
			gate = GATE_OFF;
	}
	if (pclose(f))
		return GATE_UNKNOWN;
	/* Absent from the config: its dependencies are off, so is the gate. */
	return gate == GATE_UNKNOWN ? GATE_OFF : gate;
}

/* The side of the gate this kernel was built with. */
static enum gate expected_gate(void)
{
	enum gate gate = gate_from_config();

	if (gate != GATE_UNKNOWN)
		return gate;
	return path_exists(TRACEFS "/events/bpf/bpf_map_create") ? GATE_ON : GATE_OFF;
}

static int write_file(const char *path, const char *val)
{
	ssize_t len = strlen(val);
	int fd, ret;

	fd = open(path, O_WRONLY | O_TRUNC);
	if (fd < 0)
		return -errno;
	ret = write(fd, val, len) == len ? 0 : -errno;
	close(fd);
	return ret;
}

/* Reads a whole file into a NUL-terminated static buffer. */
static const char *read_file(const char *path)
{
	static char buf[TRACE_BUF_SIZE];
	size_t len = 0;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return NULL;
	while (len < sizeof(buf) - 1 &&
	       (n = read(fd, buf + len, sizeof(buf) - 1 - len)) > 0)
		len += n;
	close(fd);
	buf[len] = '\0';
	return buf;
}

static int count_lines_with(const char *text, const char *needle)
{
	int count = 0;

	while ((text = strstr(text, needle))) {
		count++;
		text += strlen(needle);
	}
	return count;
}

/* Empties the trace buffer and enables exactly one bpf event. */
static int trace_start(const char *event)
{
	char path[PATH_MAX];
	int ret;

	ret = write_file(TRACEFS "/tracing_on", "0");
	if (!ret)
		ret = write_file(TRACEFS "/set_event", "");
	if (!ret)
		ret = write_file(TRACEFS "/trace", "");
	snprintf(path, sizeof(path), TRACEFS "/events/bpf/%s/enable", event);
	if (!ret)
		ret = write_file(path, "1");
	if (!ret)
		ret = write_file(TRACEFS "/tracing_on", "1");
	return ret;
}

/* Stops tracing and returns what the buffer holds. */
static const char *trace_stop(void)
{
	write_file(TRACEFS "/tracing_on", "0");
	write_file(TRACEFS "/set_event", "");
	return read_file(TRACEFS "/trace");
}

static int do_map_create(__u32 type, __u32 key, __u32 val, __u32 max)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.map_type = type;
	attr.key_size = key;
	attr.value_size = val;
	attr.max_entries = max;
	strncpy(attr.map_name, MAP_NAME, sizeof(attr.map_name) - 1);
	return sys_bpf(BPF_MAP_CREATE, &attr);
}

/* r0 = 0; exit: the smallest program the verifier accepts. */
static const struct bpf_insn ret0_insns[] = {
	{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
	{ .code = BPF_JMP | BPF_EXIT },
};

static int do_prog_load(__u32 type, const struct bpf_insn *insns, __u32 cnt)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = type;
	attr.insns = (__u64)(unsigned long)insns;
	attr.insn_cnt = cnt;
	attr.license = (__u64)(unsigned long)"GPL";
	strncpy(attr.prog_name, PROG_NAME, sizeof(attr.prog_name) - 1);
	return sys_bpf(BPF_PROG_LOAD, &attr);
}

static int obj_info(int fd, void *info, __u32 len)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.info.bpf_fd = fd;
	attr.info.info_len = len;
	attr.info.info = (__u64)(unsigned long)info;
	return sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &attr);
}

/* The line bpf_map_create must print for @fd, built from what the kernel reports. */
static void expected_map_create(int fd, char *buf, size_t len)
{
	struct bpf_map_info info = {};

	if (obj_info(fd, &info, sizeof(info)))
		snprintf(buf, len, "(BPF_OBJ_GET_INFO_BY_FD failed: %d)", errno);
	else
		snprintf(buf, len,
			 "bpf_map_create: map type=ARRAY ufd=%d key=%u val=%u max=%u flags=%x id=%u name=%s\n",
			 fd, info.key_size, info.value_size, info.max_entries,
			 info.map_flags, info.id, info.name);
}

/* The line bpf_prog_load must print for @fd: the tag is the kernel's own. */
static void expected_prog_load(int fd, char *buf, size_t len)
{
	struct bpf_prog_info info = {};
	char tag[2 * BPF_TAG_SIZE + 1];
	int i;

	if (obj_info(fd, &info, sizeof(info))) {
		snprintf(buf, len, "(BPF_OBJ_GET_INFO_BY_FD failed: %d)", errno);
		return;
	}
	for (i = 0; i < BPF_TAG_SIZE; i++)
		sprintf(tag + 2 * i, "%02x", info.tag[i]);
	snprintf(buf, len,
		 "bpf_prog_load: prog=%s type=SOCKET_FILTER ufd=%d id=%u name=%s\n",
		 tag, fd, info.id, info.name);
}

/* The task column that starts the line holding @at: "comm-pid" or "<...>-pid". */
static pid_t task_pid(const char *trace, const char *at)
{
	const char *col;

	while (at > trace && at[-1] != '\n')
		at--;
	col = at + strspn(at, " ");
	col += strcspn(col, " \n");
	while (col > at && col[-1] != '-')
		col--;
	return col > at ? atoi(col) : -1;
}

/* Asserts that @trace holds @line once, emitted by this process. */
#define ASSERT_ONE_EVENT(trace, line) do {				\
	const char *__at;						\
									\
	ASSERT_NE(NULL, trace);						\
	__at = strstr(trace, line);					\
	if (!__at || count_lines_with(trace, line) != 1)		\
		TH_LOG("want once: %s--- trace:\n%s", line, trace);	\
	ASSERT_NE(NULL, __at);						\
	ASSERT_EQ(1, count_lines_with(trace, line));			\
	ASSERT_EQ(getpid(), task_pid(trace, __at));			\
} while (0)

TEST(gate_matches_config)
{
	const char *events;

	events = read_file(TRACEFS "/available_events");
	ASSERT_NE(NULL, events) TH_LOG("no tracefs at " TRACEFS);

	if (expected_gate() == GATE_ON) {
		ASSERT_TRUE(path_exists(TRACEFS "/events/bpf/bpf_map_create/format"));
		ASSERT_TRUE(path_exists(TRACEFS "/events/bpf/bpf_prog_load/format"));
		ASSERT_NE(NULL, strstr(events, "bpf:bpf_map_create\n"));
		ASSERT_NE(NULL, strstr(events, "bpf:bpf_prog_load\n"));
	} else {
		ASSERT_FALSE(path_exists(TRACEFS "/events/bpf"));
		ASSERT_EQ(NULL, strstr(events, "bpf_map_create"));
		ASSERT_EQ(NULL, strstr(events, "bpf_prog_load"));
	}
}

TEST(map_create)
{
	bool on = expected_gate() == GATE_ON;
	char want[256];
	const char *trace;
	int fd;

	if (on)
		ASSERT_EQ(0, trace_start("bpf_map_create"));
	fd = do_map_create(BPF_MAP_TYPE_ARRAY, 4, 8, 256);
	ASSERT_LE(0, fd) TH_LOG("BPF_MAP_CREATE: %s", strerror(errno));
	if (!on) {
		ASSERT_FALSE(path_exists(TRACEFS "/events/bpf/bpf_map_create"));
		return;
	}
	trace = trace_stop();
	expected_map_create(fd, want, sizeof(want));
	ASSERT_NE(NULL, strstr(want, " key=4 val=8 max=256 flags=0 ")) TH_LOG("%s", want);
	ASSERT_ONE_EVENT(trace, want);
	close(fd);
}

TEST(map_create_failed_leaves_no_event)
{
	bool on = expected_gate() == GATE_ON;
	const char *trace;

	if (on)
		ASSERT_EQ(0, trace_start("bpf_map_create"));
	/* an array map's key is always 4 bytes */
	ASSERT_EQ(-1, do_map_create(BPF_MAP_TYPE_ARRAY, 8, 8, 256));
	ASSERT_EQ(EINVAL, errno);
	if (!on)
		return;
	trace = trace_stop();
	ASSERT_NE(NULL, trace);
	ASSERT_EQ(NULL, strstr(trace, "bpf_map_create:")) TH_LOG("%s", trace);
}

TEST(prog_load)
{
	bool on = expected_gate() == GATE_ON;
	char want[256];
	const char *trace;
	int fd;

	if (on)
		ASSERT_EQ(0, trace_start("bpf_prog_load"));
	fd = do_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, ret0_insns, 2);
	ASSERT_LE(0, fd) TH_LOG("BPF_PROG_LOAD: %s", strerror(errno));
	if (!on) {
		ASSERT_FALSE(path_exists(TRACEFS "/events/bpf/bpf_prog_load"));
		return;
	}
	trace = trace_stop();
	expected_prog_load(fd, want, sizeof(want));
	ASSERT_ONE_EVENT(trace, want);
	close(fd);
}

TEST(prog_load_failed_leaves_no_event)
{
	bool on = expected_gate() == GATE_ON;
	const char *trace;

	if (on)
		ASSERT_EQ(0, trace_start("bpf_prog_load"));
	/* without its exit instruction the verifier refuses the program */
	ASSERT_EQ(-1, do_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, ret0_insns, 1));
	ASSERT_EQ(EINVAL, errno);
	if (!on)
		return;
	trace = trace_stop();
	ASSERT_NE(NULL, trace);
	ASSERT_EQ(NULL, strstr(trace, "bpf_prog_load:")) TH_LOG("%s", trace);
}

/*
 * trace-cmd records a child that creates a map and loads a program, and
 * prints the lines those events must show; the report must hold them.
 */
static const char *self_exe;

static int workload(const char *out)
{
	char map_line[256], prog_line[256];
	int map_fd, prog_fd;
	FILE *f;

	map_fd = do_map_create(BPF_MAP_TYPE_ARRAY, 4, 8, 256);
	prog_fd = do_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, ret0_insns, 2);
	if (map_fd < 0 || prog_fd < 0)
		return 1;
	expected_map_create(map_fd, map_line, sizeof(map_line));
	expected_prog_load(prog_fd, prog_line, sizeof(prog_line));
	f = fopen(out, "w");
	if (!f)
		return 1;
	/* trace-cmd report puts the event name and the fields apart */
	fprintf(f, "%s%s", strchr(map_line, ' ') + 1, strchr(prog_line, ' ') + 1);
	return fclose(f) ? 1 : 0;
}

static bool have_trace_cmd(void)
{
	return system("trace-cmd -h >/dev/null 2>&1") != 127 << 8;
}

TEST(trace_cmd_record)
{
	char cmd[PATH_MAX * 2], line[256];
	bool on = expected_gate() == GATE_ON;
	const char *report;
	FILE *want;
	int n = 0;

	if (!have_trace_cmd())
		SKIP(return, "trace-cmd is not installed");
	if (!on) {
		/* the off kernel has no such event for trace-cmd to record */
		ASSERT_NE(0, system("trace-cmd list -e 2>/dev/null | grep -q '^bpf:bpf_'"));
		ASSERT_EQ(0, workload("/tmp/tp_test.want"));
		return;
	}
	snprintf(cmd, sizeof(cmd),
		 "cd /tmp && trace-cmd record -q -o /tmp/tp_test.dat "
		 "-e bpf:bpf_map_create -e bpf:bpf_prog_load %s --workload /tmp/tp_test.want "
		 ">/tmp/tp_test.log 2>&1 && "
		 "trace-cmd report -i /tmp/tp_test.dat >/tmp/tp_test.report 2>>/tmp/tp_test.log",
		 self_exe);
	ASSERT_EQ(0, system(cmd)) TH_LOG("%s", read_file("/tmp/tp_test.log"));
	want = fopen("/tmp/tp_test.want", "r");
	ASSERT_NE(NULL, want);
	report = read_file("/tmp/tp_test.report");
	ASSERT_NE(NULL, report);
	while (fgets(line, sizeof(line), want)) {
		/* report lines end in the fields: match them up to the newline */
		line[strcspn(line, "\n")] = '\0';
		EXPECT_EQ(1, count_lines_with(report, line))
			TH_LOG("want once in report: %s\n%s", line, report);
		n++;
	}
	fclose(want);
	ASSERT_EQ(2, n);
	ASSERT_NE(NULL, strstr(report, "bpf_map_create:"));
	ASSERT_NE(NULL, strstr(report, "bpf_prog_load:"));
}

int main(int argc, char **argv)
{
	static char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n > 0)
		exe[n] = '\0';
	self_exe = exe;
	if (argc == 3 && !strcmp(argv[1], "--workload"))
		return workload(argv[2]);
	return test_harness_run(argc, argv);
}
