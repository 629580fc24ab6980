// SPDX-License-Identifier: GPL-2.0
/*
 * Tests for the bpf:* low level tracepoints (CONFIG_BPF_LOW_LEVEL_TRACEPOINTS)
 * and for xdp:xdp_exception beside them.
 *
 * Every test issues raw bpf(2) commands and checks both sides of the gate:
 * with the option on, each successful command leaves exactly one event in
 * the trace buffer, printed with the values the test knows (fds, ids and
 * tags as the kernel reports them, key and value bytes), and the failing
 * form of the same command leaves none; with the option off, the events do
 * not exist and the same commands give the same results.
 *
 * Which side to expect comes from BPF_TRACEPOINTS_EXPECT=on|off, else from
 * /proc/config.gz; only if neither exists is it inferred from tracefs.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <linux/btf.h>
#include <linux/if_ether.h>
#include <linux/if_link.h>
#include <linux/if_packet.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <linux/ip.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/veth.h>

#include "../kselftest_harness.h"
#include "bpf_tracepoints.h"

#define TRACE_BUF_SIZE	(1024 * 1024)
#define TRACE_BYTES	16	/* key and value bytes an event carries */
#define MAP_NAME	"tp_test_map"
#define PROG_NAME	"tp_test_prog"
#define LINE_MAX_LEN	512

static bool gate_on;
/* BPF_TRACEPOINTS_EXPECT said which kernel this is */
static bool gate_expected;

/*
 * For a test that checks what the events print: on a kernel without them
 * that nobody said to expect (a CI config that lost the option), it skips
 * and says why, rather than pass on the off-side checks alone.
 */
#define OPTION_NOT_SET	"CONFIG_BPF_LOW_LEVEL_TRACEPOINTS is not set"

static bool events_absent_unexpected(void)
{
	return !gate_on && !gate_expected;
}

/*
 * Whether @tool is installed (found in PATH, executable). A tool that is
 * installed but does not run (a missing library: exit 127) is a failure
 * of the test that needs it, never a skip.
 */
static bool tool_installed(const char *tool)
{
	char dirs[PATH_MAX], path[PATH_MAX], *dir, *save;
	const char *env = getenv("PATH");

	snprintf(dirs, sizeof(dirs), "%s", env ? env : "/usr/bin:/bin");
	for (dir = strtok_r(dirs, ":", &save); dir; dir = strtok_r(NULL, ":", &save)) {
		snprintf(path, sizeof(path), "%s/%s", dir, tool);
		if (!access(path, X_OK))
			return true;
	}
	return false;
}

static const char *self_exe;

/* A file beside this test, as make install puts them (TEST_FILES, objects) */
static char *beside_self(const char *name)
{
	static char bufs[2][PATH_MAX];
	static int next;
	char *buf = bufs[next++ % 2];
	const char *slash = strrchr(self_exe, '/');

	snprintf(buf, PATH_MAX, "%.*s/%s", slash ? (int)(slash - self_exe) : 1,
		 slash ? self_exe : ".", name);
	return buf;
}

static char *read_file(const char *path)
{
	static char buf[TRACE_BUF_SIZE];

	return read_into(path, buf, sizeof(buf));
}

static int count_of(const char *text, const char *needle)
{
	int count = 0;

	while (text && (text = strstr(text, needle))) {
		count++;
		text += strlen(needle);
	}
	return count;
}

/* "06 00 00 00", with " ..." when the event cut the bytes at 16. */
static char *hex(const void *data, size_t len)
{
	static char bufs[4][TRACE_BYTES * 3 + 8];
	static int next;
	char *buf = bufs[next++ % 4], *p = buf;
	size_t i;

	*p = '\0';
	for (i = 0; i < len && i < TRACE_BYTES; i++)
		p += sprintf(p, "%s%02x", i ? " " : "", ((const unsigned char *)data)[i]);
	if (len > TRACE_BYTES)
		memcpy(p, " ...", sizeof(" ..."));
	return buf;
}

/*
 * Tracing: tp_begin() empties the buffer and enables the events named
 * (comma separated), tp_end() stops and returns the buffer. With the gate
 * off there is nothing to enable, and tp_begin() instead checks that the
 * events are absent.
 */
static int tp_begin(const char *events)
{
	char set[1024], path[PATH_MAX], *ev, *save;
	int ret;

	snprintf(set, sizeof(set), "%s", events);
	for (ev = strtok_r(set, ",", &save); ev; ev = strtok_r(NULL, ",", &save)) {
		if (!strncmp(ev, "xdp:", 4))
			continue;
		snprintf(path, sizeof(path), TRACEFS "/events/bpf/%s", ev);
		if (path_exists(path) != gate_on)
			return -EEXIST;
	}
	if (!gate_on && !strstr(events, "xdp:"))
		return 0;
	ret = write_file(tracing("tracing_on"), "0");
	/*
	 * The order of the lines is the order of the events, whichever CPU
	 * (a kworker's, an RCU callback's) recorded them: the local clock
	 * orders one CPU's alone, and where it counts jiffies (a guest with
	 * no TSC) ties across CPUs fall anywhere.
	 */
	if (!ret)
		ret = write_file(tracing("trace_clock"), "counter");
	/* no pid filter left by a test that was killed */
	if (!ret)
		ret = write_file(tracing("set_event_pid"), "");
	if (!ret)
		ret = write_file(tracing("trace"), "");
	snprintf(set, sizeof(set), "%s", events);
	if (!ret)
		ret = write_file(tracing("set_event"), "");
	for (ev = strtok_r(set, ",", &save); ev && !ret; ev = strtok_r(NULL, ",", &save)) {
		char name[128];
		int fd;

		if (!gate_on && strncmp(ev, "xdp:", 4))
			continue;
		snprintf(name, sizeof(name), "%s%s", strchr(ev, ':') ? "" : "bpf:", ev);
		/* one event per write, appended */
		fd = open(tracing("set_event"), O_WRONLY | O_APPEND);
		if (fd < 0 || write(fd, name, strlen(name)) != (ssize_t)strlen(name))
			ret = -errno;
		if (fd >= 0)
			close(fd);
	}
	/* the test's children, for trace_read() */
	if (!ret && gate_on) {
		int fd = open(tracing("set_event"), O_WRONLY | O_APPEND);

		if (fd < 0 || write(fd, "sched:sched_process_fork", 24) != 24)
			ret = -errno;
		if (fd >= 0)
			close(fd);
	}
	if (!ret)
		ret = write_file(tracing("tracing_on"), "1");
	return ret;
}

static char *trace_read(void);

static char *tp_end(void)
{
	write_file(tracing("tracing_on"), "0");
	write_file(tracing("set_event"), "");
	return trace_read();
}

/* The pid in the task column ("comm-pid" or "<...>-pid") of @at's line. */
static pid_t task_pid(const char *trace, const char *at)
{
	const char *col;

	while (at > trace && at[-1] != '\n')
		at--;
	col = at + strspn(at, " ");
	col += strcspn(col, "\n ");
	while (col > at && col[-1] != '-')
		col--;
	return col > at ? atoi(col) : -1;
}

/*
 * The objects the test made, by kind ('m'ap, 'p'rog, 'l'ink, 'b'tf) and
 * id: map_desc() and prog_desc() add theirs, tests their links' and
 * BTF's (tp_own()).
 */
static struct { char kind; __u32 id; } owned[256];
static int nr_owned;

static void tp_own(char kind, __u32 id)
{
	if (nr_owned < (int)ARRAY_SIZE(owned)) {
		owned[nr_owned].kind = kind;
		owned[nr_owned++].id = id;
	}
}

static bool is_owned(char kind, __u32 id)
{
	int i;

	for (i = 0; i < nr_owned; i++)
		if (owned[i].kind == kind && owned[i].id == id)
			return true;
	return false;
}

/* The event's name of a trace line ("bpf_map_create"), into @name. */
static void line_event(const char *line, char *name, size_t size)
{
	const char *ev = strstr(line, ": ");

	snprintf(name, size, "%.*s", ev ? (int)strcspn(ev + 2, ":") : 0, ev ? ev + 2 : "");
}

/* The kind of object a trace line's " id=" is: from obj=, else its event's name. */
static char line_kind(const char *line)
{
	const char *obj = strstr(line, " obj=");
	char name[64];

	if (obj) {
		obj += 5;
		return !strncmp(obj, "map ", 4) ? 'm' : !strncmp(obj, "prog ", 5) ? 'p' :
		       !strncmp(obj, "link ", 5) ? 'l' : !strncmp(obj, "btf ", 4) ? 'b' : 0;
	}
	line_event(line, name, sizeof(name));
	if (strstr(name, "link"))
		return 'l';
	if (strstr(name, "btf"))
		return 'b';
	if (strstr(name, "prog") || strstr(name, "xdp"))
		return 'p';
	if (strstr(name, "map"))
		return 'm';
	return 0;
}

/*
 * Whether the line's event is one the kernel records outside the task
 * that caused it: a last put or free (a kworker, an RCU callback), or
 * XDP's from NAPI. Only these are the test's by the object they name.
 */
static bool line_deferred(const char *line)
{
	static const char * const deferred[] = {
		"bpf_map_free", "bpf_prog_put_rcu", "bpf_btf_free", "bpf_link_free",
		"xdp_exception",
	};
	char name[64];
	size_t i;

	line_event(line, name, sizeof(name));
	for (i = 0; i < ARRAY_SIZE(deferred); i++)
		if (!strcmp(name, deferred[i]))
			return true;
	return false;
}

/* The number after @field (" id=") in @line, or -1. */
static long long line_field(const char *line, const char *field)
{
	const char *at = strstr(line, field);

	return at ? strtoll(at + strlen(field), NULL, 10) : -1;
}

/*
 * Whether @line was recorded in an interrupt (the third character of its
 * flags column, "..s.." or "d.h..": softirq, hardirq, NMI), where the
 * task column names whichever task the interrupt came upon.
 */
static bool line_in_irq(const char *line)
{
	const char *cpu = strstr(line, "] ");

	return cpu && strlen(cpu + 2) > 2 && cpu[4] != ' ' && strchr("shHzZ", cpu[4]);
}

/*
 * The trace of the test's own instance, cut to the test's lines: the
 * machine is shared (a systemd, a monitoring agent: qemu/init's
 * neighbour mode plays one), and their objects' events land in every
 * buffer that enables the event. A line is the test's when its task is
 * the test or one it forked (the sched_process_fork lines tp_begin()
 * records), outside an interrupt; or when it is a free, a last put or
 * XDP's (recorded wherever the kernel does it) of an object the test
 * made: one it owns (tp_own()) or one that the test's lines named. The
 * fork lines and tracefs's # header go. The file is read a line at a
 * time, twice (the test's tasks and objects, then its lines), with no
 * cap but the result's.
 */
static char *trace_read(void)
{
	static char out[TRACE_BUF_SIZE];
	static pid_t pids[1024];
	size_t len = 0, cap = 0;
	int nr_pids = 1, pass, i;
	char *line = NULL;
	ssize_t n;
	FILE *f;

	pids[0] = getpid();
	out[0] = '\0';
	for (pass = 0; pass < 2; pass++) {
		f = fopen(tracing("trace"), "r");
		if (!f) {
			free(line);
			return NULL;
		}
		while ((n = getline(&line, &cap, f)) > 0) {
			const char *fork = strstr(line, " sched_process_fork: ");
			long long id, prog_id;
			bool mine = false;
			pid_t pid;
			char kind;

			if (line[0] == '#')
				continue;
			pid = task_pid(line, line);
			for (i = 0; i < nr_pids && !mine; i++)
				mine = pid == pids[i];
			mine = mine && !line_in_irq(line);
			if (fork) {
				long long parent = line_field(fork, " pid=");
				long long child = line_field(fork, " child_pid=");

				for (i = 0; pass == 0 && i < nr_pids; i++)
					if (pids[i] == parent && nr_pids < (int)ARRAY_SIZE(pids))
						pids[nr_pids++] = child;
				continue;
			}
			kind = line_kind(line);
			id = line_field(line, " id=");
			prog_id = line_field(line, " prog_id=");
			if (pass == 0) {
				if (mine && kind && id >= 0 && !is_owned(kind, id))
					tp_own(kind, id);
				if (mine && prog_id >= 0 && !is_owned('p', prog_id))
					tp_own('p', prog_id);
				continue;
			}
			if (!mine && !(line_deferred(line) &&
				       ((kind && id >= 0 && is_owned(kind, id)) ||
					(prog_id >= 0 && is_owned('p', prog_id)))))
				continue;
			if (len + n + 1 < sizeof(out)) {
				memcpy(out + len, line, n);
				len += n;
				out[len] = '\0';
			}
		}
		fclose(f);
	}
	free(line);
	return out;
}

static char *fmt(const char *f, ...)
{
	static char bufs[4][LINE_MAX_LEN];
	static int next;
	char *buf = bufs[next++ % 4];
	va_list ap;

	va_start(ap, f);
	vsnprintf(buf, LINE_MAX_LEN, f, ap);
	va_end(ap);
	return buf;
}

/*
 * A directory of the running test's own (mkdtemp) for the files a tool
 * writes: no fixed name under /tmp that another run, or another user,
 * could hold. Made by a fixture's setup, removed by its teardown.
 */
static char tmpdir[32];

static int make_tmpdir(void)
{
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/bpf_tracepoints.XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(path);
}

static void remove_tmpdir(void)
{
	if (tmpdir[0])
		nftw(tmpdir, remove_entry, 8, FTW_DEPTH | FTW_PHYS);
	tmpdir[0] = '\0';
}

/* @name in the test's directory */
static const char *tmp_file(const char *name)
{
	return fmt("%s/%s", tmpdir, name);
}

/*
 * With the gate on, @trace holds @line (event name to end of line) exactly
 * once, in a line of its own, emitted by this process.
 */
#define EXPECT_EVENT(trace, line) do {					\
	const char *__t = (trace);					\
									\
	if (gate_on) {							\
		const char *__l = fmt("%s\n", line);			\
		const char *__at = strstr(__t, __l);			\
									\
		if (!__at || count_of(__t, __l) != 1)			\
			TH_LOG("want once: %s--- trace:\n%s", __l, __t); \
		ASSERT_NE(NULL, __at);					\
		ASSERT_EQ(1, count_of(__t, __l));			\
		ASSERT_EQ(' ', __at[-1]);				\
		ASSERT_EQ(getpid(), task_pid(__t, __at));		\
	}								\
} while (0)

/* With the gate on, @trace holds no line of @event. */
#define EXPECT_NO_EVENT(trace, event) do {				\
	const char *__t = (trace);					\
									\
	if (gate_on) {							\
		ASSERT_NE(NULL, __t);					\
		ASSERT_EQ(0, count_of(__t, fmt(" %s: ", event)))	\
			TH_LOG("%s", __t);				\
	}								\
} while (0)

#define TP_BEGIN(events) do {						\
	const char *__ev = (events);					\
									\
	ASSERT_EQ(0, tp_begin(__ev))					\
		TH_LOG("tracing %s on a %s kernel", __ev,		\
		       gate_on ? "gate on" : "gate off");		\
} while (0)

/* bpf(2) commands beside those in bpf_tracepoints.h */

static int sys_map_create(__u32 type, __u32 key, __u32 val, __u32 max, __u32 flags)
{
	return sys_map_create_named(MAP_NAME, type, key, val, max, flags);
}

static int sys_prog_load_ret(__u32 type, int ret, __u32 cnt)
{
	return sys_prog_load_named(PROG_NAME, type, ret, cnt);
}

static int sys_prog_load(void)
{
	return sys_prog_load_ret(BPF_PROG_TYPE_SOCKET_FILTER, 0, 2);
}

static int sys_xdp_link_create(int prog_fd, int ifindex, __u32 flags)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.link_create.prog_fd = prog_fd;
	attr.link_create.target_ifindex = ifindex;
	attr.link_create.attach_type = BPF_XDP;
	attr.link_create.flags = flags;
	return sys_bpf(BPF_LINK_CREATE, &attr);
}

static int sys_obj_info(int fd, void *info, __u32 len)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.info.bpf_fd = fd;
	attr.info.info_len = len;
	attr.info.info = (__u64)(unsigned long)info;
	return sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &attr);
}

/* What the events print of a map or a program, from what the kernel reports. */
struct map_desc {
	char type[32];
	__u32 id;
	char name[BPF_OBJ_NAME_LEN];
	__u32 key_size, value_size, max_entries, map_flags;
};

struct prog_desc {
	char tag[2 * BPF_TAG_SIZE + 1];
	char type[32];
	__u32 id;
	char name[BPF_OBJ_NAME_LEN];
};

static const char *map_type_name(__u32 type)
{
	switch (type) {
	case BPF_MAP_TYPE_HASH: return "HASH";
	case BPF_MAP_TYPE_ARRAY: return "ARRAY";
	case BPF_MAP_TYPE_PERCPU_HASH: return "PERCPU_HASH";
	case BPF_MAP_TYPE_PERCPU_ARRAY: return "PERCPU_ARRAY";
	case BPF_MAP_TYPE_QUEUE: return "QUEUE";
	default: return "?";
	}
}

static const char *prog_type_name(__u32 type)
{
	switch (type) {
	case BPF_PROG_TYPE_SOCKET_FILTER: return "SOCKET_FILTER";
	case BPF_PROG_TYPE_XDP: return "XDP";
	case BPF_PROG_TYPE_RAW_TRACEPOINT: return "RAW_TRACEPOINT";
	case BPF_PROG_TYPE_FLOW_DISSECTOR: return "FLOW_DISSECTOR";
	default: return "?";
	}
}

static int map_desc(int fd, struct map_desc *d)
{
	struct bpf_map_info info = {};

	if (sys_obj_info(fd, &info, sizeof(info)))
		return -1;
	snprintf(d->type, sizeof(d->type), "%s", map_type_name(info.type));
	d->id = info.id;
	tp_own('m', info.id);
	memcpy(d->name, info.name, sizeof(d->name));
	d->key_size = info.key_size;
	d->value_size = info.value_size;
	d->max_entries = info.max_entries;
	d->map_flags = info.map_flags;
	return 0;
}

static int prog_desc(int fd, struct prog_desc *d)
{
	struct bpf_prog_info info = {};
	int i;

	if (sys_obj_info(fd, &info, sizeof(info)))
		return -1;
	for (i = 0; i < BPF_TAG_SIZE; i++)
		sprintf(d->tag + 2 * i, "%02x", info.tag[i]);
	snprintf(d->type, sizeof(d->type), "%s", prog_type_name(info.type));
	d->id = info.id;
	tp_own('p', info.id);
	memcpy(d->name, info.name, sizeof(d->name));
	return 0;
}

/* "map type=ARRAY ufd=3", the start of every map event */
static char *map_head(const struct map_desc *m, int ufd)
{
	return fmt("map type=%s ufd=%d", m->type, ufd);
}

static char *map_tail(const struct map_desc *m)
{
	return fmt("id=%u name=%s", m->id, m->name);
}

static char *prog_line(const struct prog_desc *p)
{
	return fmt("prog=%s type=%s id=%u name=%s", p->tag, p->type, p->id, p->name);
}

/*
 * A page the kernel cannot write: a command's copy of its result out to
 * it fails with EFAULT after the command itself has worked, and must
 * leave no event. NULL if it cannot be had.
 */
static void *unwritable_page(void)
{
	void *p = mmap(NULL, getpagesize(), PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

/* A map of @type with one element @key -> @val, described in @m. */
static int map_with_elem(__u32 type, __u32 ksize, __u32 vsize, const void *key,
			 const void *val, struct map_desc *m)
{
	int fd = sys_map_create(type, ksize, vsize, 4, 0);

	if (fd < 0 || map_desc(fd, m) ||
	    sys_map_elem(BPF_MAP_UPDATE_ELEM, fd, key, (void *)val, BPF_ANY)) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

static bool gate_events_match(const char *events)
{
	char path[PATH_MAX];
	size_t i;

	for (i = 0; i < NR_BPF_EVENTS; i++) {
		snprintf(path, sizeof(path), TRACEFS "/events/bpf/%s/format", bpf_events[i]);
		if (path_exists(path) != gate_on ||
		    !!strstr(events, fmt("bpf:%s\n", bpf_events[i])) != gate_on)
			return false;
	}
	/* an event of a newer command: there with the gate, on a kernel that has it */
	for (i = 0; i < ARRAY_SIZE(bpf_events_since); i++) {
		bool want = gate_on && bpf_events_since[i].present();

		snprintf(path, sizeof(path), TRACEFS "/events/bpf/%s/format",
			 bpf_events_since[i].event);
		if (path_exists(path) != want ||
		    !!strstr(events, fmt("bpf:%s\n", bpf_events_since[i].event)) != want)
			return false;
	}
	return true;
}

TEST(gate_matches_config)
{
	const char *events = read_file(TRACEFS "/available_events");

	TH_LOG("CONFIG_BPF_LOW_LEVEL_TRACEPOINTS is %s on this kernel", gate_on ? "on" : "off");
	ASSERT_NE(NULL, events) TH_LOG("no tracefs at " TRACEFS);
	ASSERT_TRUE(gate_events_match(events))
		TH_LOG("want every bpf event %s", gate_on ? "present" : "absent");
	if (!gate_on) {
		ASSERT_FALSE(path_exists(TRACEFS "/events/bpf"));
		ASSERT_EQ(0, count_of(events, "bpf:"));
	}
	/* xdp:xdp_exception is not behind the gate */
	ASSERT_TRUE(path_exists(TRACEFS "/events/xdp/xdp_exception/format"));
}

/*
 * The kernel has what the config file beside this test (installed with
 * it) asks for, as /proc/config.gz says: a kernel built from a config
 * that lost a line fails here, naming the option, before any test fails
 * for want of it. Only on a kernel said to be without the events
 * (BPF_TRACEPOINTS_EXPECT=off) is their own option expected off.
 */
TEST(kernel_has_what_the_config_asks)
{
	const char *path = beside_self("config");
	char want[LINE_MAX_LEN];
	int asked = 0, missing = 0;
	char *config;
	FILE *f;

	if (!path_exists("/proc/config.gz"))
		SKIP(return, "no /proc/config.gz (CONFIG_IKCONFIG_PROC): the kernel's options cannot be read");
	f = fopen(path, "r");
	ASSERT_NE(NULL, f) TH_LOG("%s is not installed beside the test", path);
	config = kernel_config();
	ASSERT_NE(NULL, config) TH_LOG("/proc/config.gz is there but zcat could not read it");
	while (fgets(want, sizeof(want), f)) {
		if (strncmp(want, "CONFIG_", 7))
			continue;
		want[strcspn(want, "\n")] = '\0';
		asked++;
		/* off only where it is expected off: lost, it fails here */
		if (gate_expected && !gate_on &&
		    !strcmp(want, "CONFIG_BPF_LOW_LEVEL_TRACEPOINTS=y"))
			continue;
		if (config_has_line(config, want))
			continue;
		missing++;
		TH_LOG("%s asks for %s: this kernel does not have it", path, want);
	}
	fclose(f);
	free(config);
	ASSERT_LT(0, asked);
	ASSERT_EQ(0, missing);
}

/* Each event's format file describes the fields its line prints. */
TEST(format_files_describe_fields)
{
	if (events_absent_unexpected())
		SKIP(return, OPTION_NOT_SET);
	static const struct { const char *event, *fields[8]; } want[] = {
		{ "bpf_map_create", { "type", "size_key", "size_value", "max_entries", "flags",
				      "ufd", "id", "name" } },
		{ "bpf_prog_load", { "prog_tag", "type", "ufd", "id", "name" } },
		{ "bpf_prog_put_rcu", { "prog_tag", "type", "id", "name" } },
		/* keys and values: as long as they are, up to 16 bytes */
		{ "bpf_map_lookup_elem", { "__data_loc u8[] key", "key_trunc", "__data_loc u8[] val",
					   "val_trunc", "ufd", "id" } },
		{ "bpf_map_next_key", { "__data_loc u8[] key", "__data_loc u8[] next", "next_trunc",
					"ufd", "id" } },
		{ "bpf_map_update_batch", { "type", "ufd", "count", "id", "name" } },
		{ "bpf_obj_pin_map", { "__data_loc char[] path", "type", "ufd", "id", "name" } },
		{ "bpf_obj_get_link", { "__data_loc char[] path", "type", "ufd", "id",
					"prog_id" } },
	};
	char buf[8192], path[PATH_MAX];
	size_t i, j;

	for (i = 0; i < ARRAY_SIZE(want); i++) {
		snprintf(path, sizeof(path), TRACEFS "/events/bpf/%s/format", want[i].event);
		if (!gate_on) {
			ASSERT_FALSE(path_exists(path));
			continue;
		}
		ASSERT_NE(NULL, read_into(path, buf, sizeof(buf))) TH_LOG("%s", path);
		for (j = 0; j < 8 && want[i].fields[j]; j++) {
			const char *f = want[i].fields[j];

			/* "field:u32 id;" or "field:char name[16];" */
			EXPECT_TRUE(strstr(buf, fmt(" %s;", f)) || strstr(buf, fmt(" %s[", f)) ||
				    strstr(buf, fmt(":%s;", f)))
				TH_LOG("%s has no field %s:\n%s", path, f, buf);
		}
	}
}

/*
 * Ring buffer bytes of one bpf_map_update_elem record for an array map
 * with a 4 byte key and a @vsize byte value, or -1 if none was recorded.
 */
static long long update_record_bytes(struct __test_metadata *_metadata, unsigned int vsize)
{
	long long bytes, entries;
	unsigned int key = 0;
	void *val = calloc(1, vsize);
	int fd;

	fd = sys_map_create(BPF_MAP_TYPE_ARRAY, 4, vsize, 1, 0);
	EXPECT_LE(0, fd) TH_LOG("BPF_MAP_CREATE %u byte values: %s", vsize, strerror(errno));
	EXPECT_NE(NULL, val);
	if (fd < 0 || !val)
		return -1;
	EXPECT_EQ(0, tp_begin("bpf_map_update_elem"));
	/* the buffer's counters: the test's task's records alone */
	EXPECT_EQ(0, write_file(tracing("set_event_pid"), fmt("%d", getpid())));
	bytes = ring_counter("bytes:");
	entries = ring_counter("entries:");
	EXPECT_EQ(0, sys_map_elem(BPF_MAP_UPDATE_ELEM, fd, &key, val, BPF_ANY));
	entries = ring_counter("entries:") - entries;
	bytes = ring_counter("bytes:") - bytes;
	tp_end();
	write_file(tracing("set_event_pid"), "");
	free(val);
	close(fd);
	EXPECT_EQ(gate_on, entries) TH_LOG("%lld records for one update", entries);
	return entries == 1 ? bytes : -1;
}

/*
 * An element event records up to 16 bytes of a value: an 8 byte value
 * costs less than a 16 byte one, and a 64 KiB one no more.
 */
TEST(element_record_is_capped)
{
	if (events_absent_unexpected())
		SKIP(return, OPTION_NOT_SET);
	long long r8 = update_record_bytes(_metadata, 8);
	long long r16 = update_record_bytes(_metadata, 16);
	long long r64k = update_record_bytes(_metadata, 65536);

	if (!gate_on)
		return;
	TH_LOG("record bytes: 8 B value %lld, 16 B %lld, 64 KiB %lld", r8, r16, r64k);
	ASSERT_LT(0, r8);
	ASSERT_LT(r8, r16);
	ASSERT_EQ(r16, r64k);
}

/* Does the format file of bpf:@event describe a field named @field? */
static bool format_has_field(const char *event, const char *field)
{
	char path[PATH_MAX], buf[8192];

	snprintf(path, sizeof(path), TRACEFS "/events/bpf/%s/format", event);
	if (!read_into(path, buf, sizeof(buf)))
		return false;
	return strstr(buf, fmt(" %s;", field)) || strstr(buf, fmt(" %s[", field));
}

/*
 * Documentation/bpf/low_level_tracepoints.rst, installed beside this test:
 * every field it documents for an event is in that event's format file.
 * Sections are titled with the events they cover ("bpf_a, bpf_b" over a
 * line of '-'); fields are the lines that are one ``name``.
 */
TEST(documented_fields_are_in_format)
{
	char line[LINE_MAX_LEN], title[LINE_MAX_LEN] = "", prev[LINE_MAX_LEN] = "";
	const char *doc = beside_self("low_level_tracepoints.rst");
	int sections = 0, fields = 0;
	FILE *f;

	if (events_absent_unexpected())
		SKIP(return, OPTION_NOT_SET);
	f = fopen(doc, "r");
	/* make install puts it beside the test (TEST_FILES): it must be there */
	ASSERT_NE(NULL, f) TH_LOG("%s is not installed (TEST_FILES)", doc);
	while (fgets(line, sizeof(line), f)) {
		char name[64], *ev, *save, events[LINE_MAX_LEN];

		line[strcspn(line, "\n")] = '\0';
		if (line[0] == '-' && strspn(line, "-") == strlen(line) &&
		    !strncmp(prev, "bpf_", 4)) {
			snprintf(title, sizeof(title), "%s", prev);
			sections++;
		} else if (line[0] == '-' || line[0] == '=') {
			if (strncmp(prev, "bpf_", 4))
				title[0] = '\0';
		}
		snprintf(prev, sizeof(prev), "%s", line);
		if (!title[0] || sscanf(line, "``%63[a-z_]``", name) != 1 ||
		    strlen(line) != strlen(name) + 4)
			continue;
		fields++;
		snprintf(events, sizeof(events), "%s", title);
		for (ev = strtok_r(events, ", ", &save); ev; ev = strtok_r(NULL, ", ", &save)) {
			if (gate_on) {
				EXPECT_TRUE(format_has_field(ev, name))
					TH_LOG("%s documents field %s of %s: not in its format",
					       doc, name, ev);
			} else {
				EXPECT_FALSE(format_has_field(ev, name));
			}
		}
	}
	fclose(f);
	ASSERT_LT(10, sections) TH_LOG("%s: %d event sections", doc, sections);
	ASSERT_LT(50, fields);
}

TEST(map_create)
{
	struct map_desc m;
	char *trace;
	int fd;

	TP_BEGIN("bpf_map_create");
	fd = sys_map_create(BPF_MAP_TYPE_ARRAY, 4, 8, 256, 0);
	ASSERT_LE(0, fd) TH_LOG("BPF_MAP_CREATE: %s", strerror(errno));
	trace = tp_end();
	ASSERT_EQ(0, map_desc(fd, &m));
	ASSERT_EQ(8, m.value_size);
	EXPECT_EVENT(trace, fmt("bpf_map_create: %s key=4 val=8 max=256 flags=0 %s",
				map_head(&m, fd), map_tail(&m)));
	ASSERT_EQ(gate_on, count_of(trace, " bpf_map_create: ")) TH_LOG("%s", trace);
	close(fd);
}

TEST(map_create_flags)
{
	struct map_desc m;
	char *trace;
	int fd;

	TP_BEGIN("bpf_map_create");
	fd = sys_map_create(BPF_MAP_TYPE_HASH, 20, 12, 16, BPF_F_NO_PREALLOC);
	ASSERT_LE(0, fd) TH_LOG("BPF_MAP_CREATE: %s", strerror(errno));
	trace = tp_end();
	ASSERT_EQ(0, map_desc(fd, &m));
	EXPECT_EVENT(trace, fmt("bpf_map_create: %s key=20 val=12 max=16 flags=%x %s",
				map_head(&m, fd), BPF_F_NO_PREALLOC, map_tail(&m)));
	ASSERT_EQ(gate_on, count_of(trace, " bpf_map_create: ")) TH_LOG("%s", trace);
	close(fd);
}

TEST(map_create_failed_leaves_no_event)
{
	struct map_desc m;
	char *trace;
	int fd;

	TP_BEGIN("bpf_map_create");
	/* an array map's key is always 4 bytes */
	ASSERT_EQ(-1, sys_map_create(BPF_MAP_TYPE_ARRAY, 8, 8, 256, 0));
	ASSERT_EQ(EINVAL, errno);
	/* the control, in the same window: a create that works is traced */
	fd = sys_map_create(BPF_MAP_TYPE_ARRAY, 4, 8, 256, 0);
	ASSERT_LE(0, fd) TH_LOG("BPF_MAP_CREATE: %s", strerror(errno));
	trace = tp_end();
	ASSERT_EQ(0, map_desc(fd, &m));
	EXPECT_EVENT(trace, fmt("bpf_map_create: %s key=4 val=8 max=256 flags=0 %s",
				map_head(&m, fd), map_tail(&m)));
	/* and it is the only one: nothing for key=8 */
	ASSERT_EQ(gate_on, count_of(trace, " bpf_map_create: ")) TH_LOG("%s", trace);
	close(fd);
}

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

TEST(prog_load_failed_leaves_no_event)
{
	struct prog_desc p;
	char *trace;
	int fd;

	TP_BEGIN("bpf_prog_load,bpf_prog_put_rcu");
	/* without its exit instruction the verifier refuses the program */
	ASSERT_EQ(-1, sys_prog_load_ret(BPF_PROG_TYPE_SOCKET_FILTER, 0, 1));
	ASSERT_EQ(EINVAL, errno);
	/* the control, in the same window: a load that works is traced */
	fd = sys_prog_load();
	ASSERT_LE(0, fd) TH_LOG("BPF_PROG_LOAD: %s", strerror(errno));
	trace = tp_end();
	ASSERT_EQ(0, prog_desc(fd, &p));
	EXPECT_EVENT(trace, fmt("bpf_prog_load: prog=%s type=SOCKET_FILTER ufd=%d id=%u name=%s",
				p.tag, fd, p.id, p.name));
	/* the refused one has no load event, and never had an id to put */
	ASSERT_EQ(gate_on, count_of(trace, " bpf_prog_load: ")) TH_LOG("%s", trace);
	EXPECT_NO_EVENT(trace, "bpf_prog_put_rcu");
	close(fd);
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
 * A load that fails after its program got an id (no fd left: EMFILE) has
 * no bpf_prog_load event, and its program is put once, by name, while the
 * command returns: bpf_prog_put_rcu is per program that got an id, as
 * perf's PROG_UNLOAD and audit's UNLOAD records are.
 */
#define EMFILE_PROG	"tp_emfile_prog"

TEST(prog_load_failed_with_emfile_is_put_once)
{
	struct prog_desc p;
	struct rlimit old, low;
	int next, fd, err;
	char *trace;

	next = open("/dev/null", O_RDONLY);
	ASSERT_LE(0, next);
	close(next);
	ASSERT_EQ(0, getrlimit(RLIMIT_NOFILE, &old));
	low = old;
	low.rlim_cur = next;

	TP_BEGIN("bpf_prog_load,bpf_prog_put_rcu");
	ASSERT_EQ(0, setrlimit(RLIMIT_NOFILE, &low));
	fd = sys_prog_load_named(EMFILE_PROG, BPF_PROG_TYPE_SOCKET_FILTER, 0, 2);
	err = errno;
	ASSERT_EQ(0, setrlimit(RLIMIT_NOFILE, &old));
	ASSERT_EQ(-1, fd);
	ASSERT_EQ(EMFILE, err);
	/* the last put ran in this task, within the command */
	trace = tp_end();
	EXPECT_NO_EVENT(trace, "bpf_prog_load");
	/*
	 * Earlier tests' programs may be put in this window too, from RCU
	 * callbacks: count this one's, by its name, in this task.
	 */
	/* the same instructions loaded again: the tag to expect, a later id */
	fd = sys_prog_load_named(EMFILE_PROG, BPF_PROG_TYPE_SOCKET_FILTER, 0, 2);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, prog_desc(fd, &p));
	close(fd);
	if (gate_on) {
		const char *name = fmt(" name=%s\n", EMFILE_PROG);
		const char *head = fmt(" bpf_prog_put_rcu: prog=%s type=SOCKET_FILTER id=", p.tag);
		const char *at = strstr(trace, name), *line = at, *put;
		unsigned int id;
		int n;

		ASSERT_EQ(1, count_of(trace, name)) TH_LOG("%s", trace);
		ASSERT_EQ(getpid(), task_pid(trace, at));
		while (line > trace && line[-1] != '\n')
			line--;
		put = strstr(line, head);
		ASSERT_TRUE(put && put < at) TH_LOG("want %s...%s in:\n%s", head, name, trace);
		n = sscanf(put + strlen(head), "%u", &id);
		ASSERT_EQ(1, n);
		ASSERT_LT(0, id);
		ASSERT_GT(p.id, id);
	}
}

TEST(map_lookup_elem)
{
	__u32 key = 3, missing = 7;
	__u64 val = 0x1400000000000000ULL, got = 0;
	struct map_desc m;
	void *nowhere;
	char *trace;
	int fd, hfd;

	fd = map_with_elem(BPF_MAP_TYPE_ARRAY, 4, 8, &key, &val, &m);
	ASSERT_LE(0, fd);
	hfd = sys_map_create(BPF_MAP_TYPE_HASH, 4, 8, 4, 0);
	ASSERT_LE(0, hfd);
	nowhere = unwritable_page();
	ASSERT_NE(NULL, nowhere);
	TP_BEGIN("bpf_map_lookup_elem");
	ASSERT_EQ(0, sys_map_elem(BPF_MAP_LOOKUP_ELEM, fd, &key, &got, 0));
	ASSERT_EQ(val, got);
	/* failing forms: a key the hash map does not hold; a value the
	 * kernel found but cannot copy out
	 */
	ASSERT_EQ(-1, sys_map_elem(BPF_MAP_LOOKUP_ELEM, hfd, &missing, &got, 0));
	ASSERT_EQ(ENOENT, errno);
	ASSERT_EQ(-1, sys_map_elem(BPF_MAP_LOOKUP_ELEM, fd, &key, nowhere, 0));
	ASSERT_EQ(EFAULT, errno);
	trace = tp_end();
	munmap(nowhere, getpagesize());
	EXPECT_EVENT(trace, fmt("bpf_map_lookup_elem: %s key=[%s] val=[%s] %s", map_head(&m, fd),
				hex(&key, 4), hex(&val, 8), map_tail(&m)));
	ASSERT_EQ(gate_on, count_of(trace, " bpf_map_lookup_elem: "));
	close(hfd);
	close(fd);
}

TEST(map_update_elem)
{
	__u32 key = 1;
	__u64 val = 0x0807060504030201ULL;
	struct map_desc m;
	char *trace;
	int fd;

	fd = sys_map_create(BPF_MAP_TYPE_ARRAY, 4, 8, 4, 0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, map_desc(fd, &m));
	TP_BEGIN("bpf_map_update_elem");
	ASSERT_EQ(0, sys_map_elem(BPF_MAP_UPDATE_ELEM, fd, &key, &val, BPF_ANY));
	/* failing form: an array's elements always exist */
	ASSERT_EQ(-1, sys_map_elem(BPF_MAP_UPDATE_ELEM, fd, &key, &val, BPF_NOEXIST));
	ASSERT_EQ(EEXIST, errno);
	trace = tp_end();
	EXPECT_EVENT(trace, fmt("bpf_map_update_elem: %s key=[01 00 00 00] val=[01 02 03 04 05 06 07 08] %s",
				map_head(&m, fd), map_tail(&m)));
	ASSERT_EQ(gate_on, count_of(trace, " bpf_map_update_elem: "));
	close(fd);
}

TEST(map_delete_elem)
{
	__u32 key = 0x0a0b0c0d;
	__u64 val = 1;
	struct map_desc m;
	char *trace;
	int fd;

	fd = map_with_elem(BPF_MAP_TYPE_HASH, 4, 8, &key, &val, &m);
	ASSERT_LE(0, fd);
	TP_BEGIN("bpf_map_delete_elem");
	ASSERT_EQ(0, sys_map_elem(BPF_MAP_DELETE_ELEM, fd, &key, NULL, 0));
	/* failing form: it is gone */
	ASSERT_EQ(-1, sys_map_elem(BPF_MAP_DELETE_ELEM, fd, &key, NULL, 0));
	ASSERT_EQ(ENOENT, errno);
	trace = tp_end();
	EXPECT_EVENT(trace, fmt("bpf_map_delete_elem: %s key=[0d 0c 0b 0a] %s",
				map_head(&m, fd), map_tail(&m)));
	ASSERT_EQ(gate_on, count_of(trace, " bpf_map_delete_elem: "));
	close(fd);
}

TEST(map_next_key)
{
	__u32 key = 3, next = 0;
	__u64 val = 1;
	struct map_desc m;
	void *nowhere;
	char *trace;
	int fd;

	fd = map_with_elem(BPF_MAP_TYPE_HASH, 4, 8, &key, &val, &m);
	ASSERT_LE(0, fd);
	nowhere = unwritable_page();
	ASSERT_NE(NULL, nowhere);
	TP_BEGIN("bpf_map_next_key");
	/* no key asks for the first one */
	ASSERT_EQ(0, sys_map_next_key(fd, NULL, &next));
	ASSERT_EQ(key, next);
	/* failing forms: there is none after the last; a next key the
	 * kernel found but cannot copy out
	 */
	ASSERT_EQ(-1, sys_map_next_key(fd, &next, &next));
	ASSERT_EQ(ENOENT, errno);
	ASSERT_EQ(-1, sys_map_next_key(fd, NULL, nowhere));
	ASSERT_EQ(EFAULT, errno);
	trace = tp_end();
	munmap(nowhere, getpagesize());
	EXPECT_EVENT(trace, fmt("bpf_map_next_key: %s key=[] next=[03 00 00 00] %s",
				map_head(&m, fd), map_tail(&m)));
	ASSERT_EQ(gate_on, count_of(trace, " bpf_map_next_key: "));
	close(fd);
}

TEST(map_lookup_and_delete_elem)
{
	__u32 key = 9;
	__u64 val = 0xffULL, got = 0;
	struct map_desc m, q;
	char *trace;
	int fd, qfd;

	fd = map_with_elem(BPF_MAP_TYPE_HASH, 4, 8, &key, &val, &m);
	ASSERT_LE(0, fd);
	qfd = sys_map_create(BPF_MAP_TYPE_QUEUE, 0, 8, 4, 0);
	ASSERT_LE(0, qfd);
	ASSERT_EQ(0, map_desc(qfd, &q));
	ASSERT_EQ(0, sys_map_elem(BPF_MAP_UPDATE_ELEM, qfd, NULL, &val, BPF_ANY));
	TP_BEGIN("bpf_map_lookup_and_delete_elem");
	ASSERT_EQ(0, sys_map_elem(BPF_MAP_LOOKUP_AND_DELETE_ELEM, fd, &key, &got, 0));
	ASSERT_EQ(val, got);
	/* a queue has no key: pop */
	ASSERT_EQ(0, sys_map_elem(BPF_MAP_LOOKUP_AND_DELETE_ELEM, qfd, NULL, &got, 0));
	/* failing forms: both are empty now */
	ASSERT_EQ(-1, sys_map_elem(BPF_MAP_LOOKUP_AND_DELETE_ELEM, fd, &key, &got, 0));
	ASSERT_EQ(ENOENT, errno);
	ASSERT_EQ(-1, sys_map_elem(BPF_MAP_LOOKUP_AND_DELETE_ELEM, qfd, NULL, &got, 0));
	ASSERT_EQ(ENOENT, errno);
	trace = tp_end();
	EXPECT_EVENT(trace, fmt("bpf_map_lookup_and_delete_elem: %s key=[09 00 00 00] val=[ff 00 00 00 00 00 00 00] %s",
				map_head(&m, fd), map_tail(&m)));
	EXPECT_EVENT(trace, fmt("bpf_map_lookup_and_delete_elem: %s key=[] val=[ff 00 00 00 00 00 00 00] %s",
				map_head(&q, qfd), map_tail(&q)));
	ASSERT_EQ(2 * gate_on, count_of(trace, " bpf_map_lookup_and_delete_elem: "));
	close(qfd);
	close(fd);
}

/* A 64 KiB value and a 20-byte key: 16 bytes of each, then " ...". */
TEST(large_key_and_value_are_cut)
{
	static unsigned char big[65536], got[65536];
	unsigned char key[20];
	struct map_desc a, h;
	__u32 zero = 0;
	char *trace;
	int afd, hfd;
	size_t i;

	for (i = 0; i < sizeof(big); i++)
		big[i] = i * 7;
	for (i = 0; i < sizeof(key); i++)
		key[i] = 0xa0 + i;
	afd = sys_map_create(BPF_MAP_TYPE_ARRAY, 4, sizeof(big), 1, 0);
	ASSERT_LE(0, afd) TH_LOG("64 KiB array: %s", strerror(errno));
	ASSERT_EQ(0, map_desc(afd, &a));
	hfd = sys_map_create(BPF_MAP_TYPE_HASH, sizeof(key), 4, 4, 0);
	ASSERT_LE(0, hfd);
	ASSERT_EQ(0, map_desc(hfd, &h));
	TP_BEGIN("bpf_map_update_elem,bpf_map_lookup_elem");
	ASSERT_EQ(0, sys_map_elem(BPF_MAP_UPDATE_ELEM, afd, &zero, big, BPF_ANY));
	ASSERT_EQ(0, sys_map_elem(BPF_MAP_LOOKUP_ELEM, afd, &zero, got, 0));
	ASSERT_EQ(0, memcmp(big, got, sizeof(big)));
	ASSERT_EQ(0, sys_map_elem(BPF_MAP_UPDATE_ELEM, hfd, key, &zero, BPF_ANY));
	trace = tp_end();
	EXPECT_EVENT(trace, fmt("bpf_map_update_elem: %s key=[00 00 00 00] val=[%s] %s",
				map_head(&a, afd), hex(big, sizeof(big)), map_tail(&a)));
	EXPECT_EVENT(trace, fmt("bpf_map_lookup_elem: %s key=[00 00 00 00] val=[%s] %s",
				map_head(&a, afd), hex(big, sizeof(big)), map_tail(&a)));
	EXPECT_EVENT(trace, fmt("bpf_map_update_elem: %s key=[%s] val=[00 00 00 00] %s",
				map_head(&h, hfd), hex(key, sizeof(key)), map_tail(&h)));
	close(hfd);
	close(afd);
}

/* A per-CPU value is one slot per possible CPU: the event shows its start. */
TEST(percpu_value_is_cut)
{
	int ncpus = sysconf(_SC_NPROCESSORS_CONF), fd, i;
	unsigned char *val, *got;
	struct map_desc m;
	__u32 key = 2;
	size_t size;
	char *trace;

	ASSERT_LT(0, ncpus);
	size = 16 * ncpus;	/* value_size 12, rounded up to 16 per CPU */
	val = calloc(1, size);
	got = calloc(1, size);
	ASSERT_NE(NULL, val);
	ASSERT_NE(NULL, got);
	for (i = 0; i < ncpus; i++)
		memset(val + 16 * i, 0x10 + i, 12);
	fd = sys_map_create(BPF_MAP_TYPE_PERCPU_HASH, 4, 12, 4, 0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, map_desc(fd, &m));
	TP_BEGIN("bpf_map_update_elem,bpf_map_lookup_elem");
	ASSERT_EQ(0, sys_map_elem(BPF_MAP_UPDATE_ELEM, fd, &key, val, BPF_ANY));
	ASSERT_EQ(0, sys_map_elem(BPF_MAP_LOOKUP_ELEM, fd, &key, got, 0));
	ASSERT_EQ(0, memcmp(val, got, size));
	trace = tp_end();
	EXPECT_EVENT(trace, fmt("bpf_map_update_elem: %s key=[02 00 00 00] val=[%s] %s",
				map_head(&m, fd), hex(val, size), map_tail(&m)));
	EXPECT_EVENT(trace, fmt("bpf_map_lookup_elem: %s key=[02 00 00 00] val=[%s] %s",
				map_head(&m, fd), hex(val, size), map_tail(&m)));
	close(fd);
	free(val);
	free(got);
}

/*
 * A per-CPU value of 16 bytes fits the event on one CPU; on two the copy
 * is 32 bytes, and the event shows CPU 0's 16 and the cut.
 */
TEST(percpu_value_of_16_bytes_is_cut_on_two_cpus)
{
	int ncpus = sysconf(_SC_NPROCESSORS_CONF), fd, i;
	unsigned char *val, *got;
	char *trace, want[128];
	struct map_desc m;
	__u32 key = 7;

	if (ncpus < 2)
		SKIP(return, "one possible CPU: a 16-byte per-CPU value is not cut");
	val = calloc(ncpus, 16);
	got = calloc(ncpus, 16);
	ASSERT_NE(NULL, val);
	ASSERT_NE(NULL, got);
	for (i = 0; i < 16 * ncpus; i++)
		val[i] = 0x40 + i;
	fd = sys_map_create(BPF_MAP_TYPE_PERCPU_ARRAY, 4, 16, 8, 0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, map_desc(fd, &m));
	TP_BEGIN("bpf_map_update_elem");
	ASSERT_EQ(0, sys_map_elem(BPF_MAP_UPDATE_ELEM, fd, &key, val, BPF_ANY));
	trace = tp_end();
	ASSERT_EQ(0, sys_map_elem(BPF_MAP_LOOKUP_ELEM, fd, &key, got, 0));
	ASSERT_EQ(0, memcmp(val, got, 16 * ncpus));
	/* spelled out, not through hex(): CPU 0's slot, then the cut */
	snprintf(want, sizeof(want), "val=[%s ...]",
		 "40 41 42 43 44 45 46 47 48 49 4a 4b 4c 4d 4e 4f");
	if (gate_on)
		ASSERT_NE(NULL, strstr(trace, want)) TH_LOG("want %s in:\n%s", want, trace);
	EXPECT_EVENT(trace, fmt("bpf_map_update_elem: %s key=[07 00 00 00] val=[%s] %s",
				map_head(&m, fd), hex(val, 16 * ncpus), map_tail(&m)));
	close(fd);
	free(val);
	free(got);
}

TEST(map_batch)
{
	__u32 keys[4] = { 1, 2, 3, 4 }, okeys[8], count;
	__u64 vals[4] = { 10, 20, 30, 40 }, ovals[8];
	struct map_desc m;
	char *trace;
	int fd;

	fd = sys_map_create(BPF_MAP_TYPE_HASH, 4, 8, 8, 0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, map_desc(fd, &m));
	TP_BEGIN("bpf_map_lookup_batch,bpf_map_lookup_and_delete_batch,"
		 "bpf_map_update_batch,bpf_map_delete_batch");
	/* failing forms: unknown element flags; a lookup of an empty map */
	count = 4;
	ASSERT_EQ(-1, sys_map_batch(BPF_MAP_UPDATE_BATCH, fd, keys, vals, &count, 1ULL << 40));
	ASSERT_EQ(EINVAL, errno);
	count = 8;
	ASSERT_EQ(-1, sys_map_batch(BPF_MAP_LOOKUP_BATCH, fd, okeys, ovals, &count, 0));
	ASSERT_EQ(ENOENT, errno);
	ASSERT_EQ(0, count);

	count = 4;
	ASSERT_EQ(0, sys_map_batch(BPF_MAP_UPDATE_BATCH, fd, keys, vals, &count, 0));
	ASSERT_EQ(4, count);
	/* the whole map in one go: -ENOENT says the walk is over */
	count = 8;
	ASSERT_EQ(-1, sys_map_batch(BPF_MAP_LOOKUP_BATCH, fd, okeys, ovals, &count, 0));
	ASSERT_EQ(ENOENT, errno);
	ASSERT_EQ(4, count);
	count = 2;
	ASSERT_EQ(0, sys_map_batch(BPF_MAP_DELETE_BATCH, fd, keys, NULL, &count, 0));
	ASSERT_EQ(2, count);
	count = 8;
	ASSERT_EQ(-1, sys_map_batch(BPF_MAP_LOOKUP_AND_DELETE_BATCH, fd, okeys, ovals, &count, 0));
	ASSERT_EQ(ENOENT, errno);
	ASSERT_EQ(2, count);
	trace = tp_end();
	EXPECT_EVENT(trace, fmt("bpf_map_update_batch: %s count=4 %s",
				map_head(&m, fd), map_tail(&m)));
	EXPECT_EVENT(trace, fmt("bpf_map_lookup_batch: %s count=4 %s",
				map_head(&m, fd), map_tail(&m)));
	EXPECT_EVENT(trace, fmt("bpf_map_delete_batch: %s count=2 %s",
				map_head(&m, fd), map_tail(&m)));
	EXPECT_EVENT(trace, fmt("bpf_map_lookup_and_delete_batch: %s count=2 %s",
				map_head(&m, fd), map_tail(&m)));
	ASSERT_EQ(4 * gate_on, count_of(trace, "_batch: ")) TH_LOG("%s", trace);
	close(fd);
}

/*
 * An array map's lookup batch runs the generic code, not the hash map's:
 * a lookup of 2 of its 4 elements succeeds and counts 2; one of 8 ends
 * the map (-ENOENT) and counts the 4 it copied, not the 8 asked for; one
 * that asks for none does nothing and leaves no event.
 */
TEST(map_batch_array)
{
	__u32 okeys[8], count;
	__u64 ovals[8];
	struct map_desc m;
	char *trace;
	int fd;

	fd = sys_map_create(BPF_MAP_TYPE_ARRAY, 4, 8, 4, 0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, map_desc(fd, &m));
	TP_BEGIN("bpf_map_lookup_batch");
	count = 0;
	ASSERT_EQ(0, sys_map_batch(BPF_MAP_LOOKUP_BATCH, fd, okeys, ovals, &count, 0));
	ASSERT_EQ(0, count);
	count = 2;
	ASSERT_EQ(0, sys_map_batch(BPF_MAP_LOOKUP_BATCH, fd, okeys, ovals, &count, 0))
		TH_LOG("BPF_MAP_LOOKUP_BATCH: %s", strerror(errno));
	ASSERT_EQ(2, count);
	/* more asked for than there is: the walk ends (-ENOENT) after 4 */
	count = 8;
	ASSERT_EQ(-1, sys_map_batch(BPF_MAP_LOOKUP_BATCH, fd, okeys, ovals, &count, 0));
	ASSERT_EQ(ENOENT, errno);
	ASSERT_EQ(4, count);
	trace = tp_end();
	EXPECT_EVENT(trace, fmt("bpf_map_lookup_batch: %s count=2 %s",
				map_head(&m, fd), map_tail(&m)));
	EXPECT_EVENT(trace, fmt("bpf_map_lookup_batch: %s count=4 %s",
				map_head(&m, fd), map_tail(&m)));
	ASSERT_EQ(2 * gate_on, count_of(trace, "_batch: ")) TH_LOG("%s", trace);
	close(fd);
}

TEST(map_freeze)
{
	struct map_desc m;
	char *trace;
	int fd;

	fd = sys_map_create(BPF_MAP_TYPE_ARRAY, 4, 8, 4, 0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, map_desc(fd, &m));
	TP_BEGIN("bpf_map_freeze");
	ASSERT_EQ(0, sys_map_freeze(fd));
	/*
	 * failing form: a frozen map cannot be frozen again; 6.1 says EBUSY,
	 * 6.12 first checks for write permission, which a frozen map has
	 * lost, and says EPERM
	 */
	ASSERT_EQ(-1, sys_map_freeze(fd));
	ASSERT_TRUE(errno == EPERM || errno == EBUSY) TH_LOG("errno %d", errno);
	trace = tp_end();
	EXPECT_EVENT(trace, fmt("bpf_map_freeze: %s %s", map_head(&m, fd), map_tail(&m)));
	ASSERT_EQ(gate_on, count_of(trace, " bpf_map_freeze: "));
	close(fd);
}

TEST(obj_pin_get_map)
{
	const char *path = BPFFS "/tp_test_map";
	struct map_desc m;
	int fd, got;
	char *trace;

	ASSERT_EQ(0, bpffs_ready());
	unlink(path);
	fd = sys_map_create(BPF_MAP_TYPE_ARRAY, 4, 8, 4, 0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, map_desc(fd, &m));
	TP_BEGIN("bpf_obj_pin_map,bpf_obj_get_map");
	ASSERT_EQ(0, sys_obj_pin(fd, path)) TH_LOG("BPF_OBJ_PIN: %s", strerror(errno));
	got = sys_obj_get(path);
	ASSERT_LE(0, got);
	/* failing forms: the path is taken; nothing is pinned there */
	ASSERT_EQ(-1, sys_obj_pin(fd, path));
	ASSERT_EQ(EEXIST, errno);
	ASSERT_EQ(-1, sys_obj_get(BPFFS "/tp_test_none"));
	ASSERT_EQ(ENOENT, errno);
	trace = tp_end();
	EXPECT_EVENT(trace, fmt("bpf_obj_pin_map: %s path=%s %s",
				map_head(&m, fd), path, map_tail(&m)));
	EXPECT_EVENT(trace, fmt("bpf_obj_get_map: %s path=%s %s",
				map_head(&m, got), path, map_tail(&m)));
	ASSERT_EQ(2 * gate_on, count_of(trace, "_map: "));
	unlink(path);
	close(got);
	close(fd);
}

/*
 * BPF_OBJ_PIN and BPF_OBJ_GET's attr as of Linux 6.5, which added pinning
 * relative to a directory fd; 6.1's uapi header has neither field nor flag.
 */
struct obj_attr_path_fd {
	__aligned_u64 pathname;
	__u32 bpf_fd;
	__u32 file_flags;
	__s32 path_fd;
};

#define OBJ_F_PATH_FD	0x4000U		/* BPF_F_PATH_FD, 1U << 14 */

static int sys_obj_at(int cmd, int dirfd, int fd, const char *path)
{
	struct obj_attr_path_fd obj = {
		.pathname = (__u64)(unsigned long)path,
		.bpf_fd = fd,
		.file_flags = OBJ_F_PATH_FD,
		.path_fd = dirfd,
	};
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	memcpy(&attr, &obj, sizeof(obj));
	return sys_bpf(cmd, &attr);
}

/*
 * Whether bpf(2) takes BPF_F_PATH_FD, asked of the kernel: a get with it
 * and no path fails on the path (EFAULT), and where the flag is unknown
 * on the flag (EINVAL). (A pin would fail on its fd first: EINVAL.)
 */
static bool has_path_fd(void)
{
	return sys_obj_at(BPF_OBJ_GET, -1, 0, NULL) < 0 && errno != EINVAL;
}

/* Relative to a directory fd the events show the path as given. */
TEST(obj_pin_get_map_path_fd)
{
	struct map_desc m;
	int dir, fd, got;
	char *trace;

	if (!has_path_fd())
		SKIP(return, "bpf(2) on this kernel has no BPF_F_PATH_FD (Linux 6.5)");
	ASSERT_EQ(0, bpffs_ready());
	unlink(BPFFS "/tp_test_at");
	dir = open(BPFFS, O_RDONLY | O_DIRECTORY);
	ASSERT_LE(0, dir);
	fd = sys_map_create(BPF_MAP_TYPE_ARRAY, 4, 8, 4, 0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, map_desc(fd, &m));
	TP_BEGIN("bpf_obj_pin_map,bpf_obj_get_map");
	ASSERT_EQ(0, sys_obj_at(BPF_OBJ_PIN, dir, fd, "tp_test_at"))
		TH_LOG("BPF_OBJ_PIN with BPF_F_PATH_FD: %s", strerror(errno));
	got = sys_obj_at(BPF_OBJ_GET, dir, 0, "tp_test_at");
	ASSERT_LE(0, got);
	/* failing form: the path is taken */
	ASSERT_EQ(-1, sys_obj_at(BPF_OBJ_PIN, dir, fd, "tp_test_at"));
	ASSERT_EQ(EEXIST, errno);
	trace = tp_end();
	/* the path as d_path() forms it: absolute */
	EXPECT_EVENT(trace, fmt("bpf_obj_pin_map: %s path=" BPFFS "/tp_test_at %s",
				map_head(&m, fd), map_tail(&m)));
	EXPECT_EVENT(trace, fmt("bpf_obj_get_map: %s path=" BPFFS "/tp_test_at %s",
				map_head(&m, got), map_tail(&m)));
	ASSERT_EQ(2 * gate_on, count_of(trace, "_map: "));
	unlink(BPFFS "/tp_test_at");
	close(got);
	close(fd);
	close(dir);
}

TEST(obj_pin_get_prog)
{
	const char *path = BPFFS "/tp_test_prog", *alias = BPFFS "/tp_test_prog_ln";
	struct prog_desc p;
	int fd, got, via;
	char *trace;

	ASSERT_EQ(0, bpffs_ready());
	unlink(path);
	unlink(alias);
	fd = sys_prog_load();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, prog_desc(fd, &p));
	/* relative to the working directory: the event shows it absolute */
	ASSERT_EQ(0, chdir(BPFFS));
	TP_BEGIN("bpf_obj_pin_prog,bpf_obj_get_prog");
	ASSERT_EQ(0, sys_obj_pin(fd, "tp_test_prog")) TH_LOG("BPF_OBJ_PIN: %s", strerror(errno));
	got = sys_obj_get(path);
	ASSERT_LE(0, got);
	/* through a symlink: the event names the pinned file */
	ASSERT_EQ(0, symlink("tp_test_prog", alias)) TH_LOG("symlink: %s", strerror(errno));
	via = sys_obj_get(alias);
	ASSERT_LE(0, via) TH_LOG("BPF_OBJ_GET via %s: %s", alias, strerror(errno));
	ASSERT_EQ(-1, sys_obj_pin(fd, path));
	ASSERT_EQ(EEXIST, errno);
	trace = tp_end();
	EXPECT_EVENT(trace, fmt("bpf_obj_pin_prog: prog=%s path=%s ufd=%d type=SOCKET_FILTER id=%u name=%s",
				p.tag, path, fd, p.id, p.name));
	EXPECT_EVENT(trace, fmt("bpf_obj_get_prog: prog=%s path=%s ufd=%d type=SOCKET_FILTER id=%u name=%s",
				p.tag, path, got, p.id, p.name));
	EXPECT_EVENT(trace, fmt("bpf_obj_get_prog: prog=%s path=%s ufd=%d type=SOCKET_FILTER id=%u name=%s",
				p.tag, path, via, p.id, p.name));
	ASSERT_EQ(3 * gate_on, count_of(trace, "_prog: "));
	unlink(alias);
	unlink(path);
	close(via);
	close(got);
	close(fd);
}

/*
 * Waits up to 10 s for link @id to be freed (its last put frees it from a
 * work item): 0 once BPF_LINK_GET_FD_BY_ID no longer finds it.
 */
static int link_freed(__u32 id)
{
	union bpf_attr attr;
	int i, fd;

	for (i = 0; i < 100; i++) {
		memset(&attr, 0, sizeof(attr));
		attr.link_id = id;
		fd = sys_bpf(BPF_LINK_GET_FD_BY_ID, &attr);
		if (fd < 0 && errno == ENOENT)
			return 0;
		if (fd >= 0)
			close(fd);
		usleep(100000);
	}
	return -1;
}

TEST(obj_pin_get_link)
{
	const char *path = BPFFS "/tp_test_link";
	struct bpf_link_info info = {};
	struct prog_desc p;
	int prog, link, got;
	char *trace;

	ASSERT_EQ(0, bpffs_ready());
	unlink(path);
	prog = sys_prog_load_ret(BPF_PROG_TYPE_XDP, 2 /* XDP_PASS */, 2);
	ASSERT_LE(0, prog) TH_LOG("XDP prog: %s", strerror(errno));
	ASSERT_EQ(0, prog_desc(prog, &p));
	/* generic XDP on lo: a link that any kernel with XDP can make */
	link = sys_xdp_link_create(prog, if_nametoindex("lo"), XDP_FLAGS_SKB_MODE);
	ASSERT_LE(0, link) TH_LOG("BPF_LINK_CREATE: %s", strerror(errno));
	ASSERT_EQ(0, sys_obj_info(link, &info, sizeof(info)));
	tp_own('l', info.id);
	ASSERT_EQ(p.id, info.prog_id);
	TP_BEGIN("bpf_obj_pin_link,bpf_obj_get_link");
	ASSERT_EQ(0, sys_obj_pin(link, path)) TH_LOG("BPF_OBJ_PIN: %s", strerror(errno));
	got = sys_obj_get(path);
	ASSERT_LE(0, got);
	ASSERT_EQ(-1, sys_obj_pin(link, path));
	ASSERT_EQ(EEXIST, errno);
	trace = tp_end();
	EXPECT_EVENT(trace, fmt("bpf_obj_pin_link: link type=XDP ufd=%d path=%s id=%u prog_id=%u",
				link, path, info.id, p.id));
	EXPECT_EVENT(trace, fmt("bpf_obj_get_link: link type=XDP ufd=%d path=%s id=%u prog_id=%u",
				got, path, info.id, p.id));
	ASSERT_EQ(2 * gate_on, count_of(trace, "_link: "));
	unlink(path);
	close(got);
	close(link);
	close(prog);
	/* the events' own references are dropped: the link goes */
	ASSERT_EQ(0, link_freed(info.id)) TH_LOG("link %u outlives its fds and pin", info.id);
}

/*
 * The lifecycles: BTF, maps, links, attachments and test runs. Each
 * object is made, changed and freed in one window; every line must be
 * there once, with the ids bpftool would show for it.
 */

TEST(map_free)
{
	struct map_desc m;
	char *trace;
	int fd, got;

	fd = sys_map_create(BPF_MAP_TYPE_ARRAY, 4, 8, 4, 0);
	ASSERT_LE(0, fd) TH_LOG("BPF_MAP_CREATE: %s", strerror(errno));
	ASSERT_EQ(0, map_desc(fd, &m));
	got = dup(fd);
	TP_BEGIN("bpf_map_free");
	close(fd);
	/* another fd holds it: not the last reference */
	trace = tp_end();
	EXPECT_NO_EVENT(trace, "bpf_map_free");
	TP_BEGIN("bpf_map_free");
	close(got);
	trace = tp_end();
	EXPECT_EVENT(trace, fmt("bpf_map_free: map type=ARRAY id=%u name=%s", m.id, m.name));
}

/* The smallest BTF: one 4 byte int, "int" (45 bytes) */
static int sys_btf_load(__u32 *size)
{
	const struct btf_header hdr = {
		.magic = BTF_MAGIC, .version = BTF_VERSION,
		.hdr_len = sizeof(hdr),
		.type_off = 0, .type_len = 16, .str_off = 16, .str_len = 5,
	};
	/* name_off 1, BTF_KIND_INT, 4 bytes, 32 bits */
	const __u32 type[4] = { 1, BTF_KIND_INT << 24, 4, 32 };
	static unsigned char btf[sizeof(hdr) + sizeof(type) + 5];
	union bpf_attr attr;

	memcpy(btf, &hdr, sizeof(hdr));
	memcpy(btf + sizeof(hdr), type, sizeof(type));
	memcpy(btf + sizeof(hdr) + sizeof(type), "\0int", 5);
	memset(&attr, 0, sizeof(attr));
	attr.btf = (__u64)(unsigned long)btf;
	attr.btf_size = sizeof(btf);
	*size = sizeof(btf);
	return sys_bpf(BPF_BTF_LOAD, &attr);
}

TEST(btf_load_free)
{
	struct bpf_btf_info info = {};
	char *trace;
	__u32 size;
	int fd;

	TP_BEGIN("bpf_btf_load,bpf_btf_free");
	fd = sys_btf_load(&size);
	ASSERT_LE(0, fd) TH_LOG("BPF_BTF_LOAD: %s", strerror(errno));
	ASSERT_EQ(0, sys_obj_info(fd, &info, sizeof(info)));
	tp_own('b', info.id);
	close(fd);
	trace = tp_end();
	EXPECT_EVENT(trace, fmt("bpf_btf_load: btf id=%u size=%u ufd=%d", info.id, size, fd));
	EXPECT_EVENT(trace, fmt("bpf_btf_free: btf id=%u size=%u name=", info.id, size));
}

static int sys_link_update(int link, int prog, int old, __u32 flags)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.link_update.link_fd = link;
	attr.link_update.new_prog_fd = prog;
	attr.link_update.old_prog_fd = old;
	attr.link_update.flags = flags;
	return sys_bpf(BPF_LINK_UPDATE, &attr);
}

static int sys_link_detach(int link)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.link_detach.link_fd = link;
	return sys_bpf(BPF_LINK_DETACH, &attr);
}

/* A link's life on lo's generic XDP: create, update, detach, free */
TEST(link_lifecycle)
{
	struct bpf_link_info info = {};
	struct prog_desc p, q;
	int prog, prog2, link;
	char *trace;

	prog = sys_prog_load_ret(BPF_PROG_TYPE_XDP, 2 /* XDP_PASS */, 2);
	ASSERT_LE(0, prog) TH_LOG("XDP prog: %s", strerror(errno));
	prog2 = sys_prog_load_ret(BPF_PROG_TYPE_XDP, 2, 2);
	ASSERT_LE(0, prog2);
	ASSERT_EQ(0, prog_desc(prog, &p));
	ASSERT_EQ(0, prog_desc(prog2, &q));
	TP_BEGIN("bpf_link_create,bpf_link_update,bpf_link_detach,bpf_link_free");
	link = sys_xdp_link_create(prog, if_nametoindex("lo"), XDP_FLAGS_SKB_MODE);
	ASSERT_LE(0, link) TH_LOG("BPF_LINK_CREATE: %s", strerror(errno));
	ASSERT_EQ(0, sys_obj_info(link, &info, sizeof(info)));
	tp_own('l', info.id);
	ASSERT_EQ(0, sys_link_update(link, prog2, prog, BPF_F_REPLACE))
		TH_LOG("BPF_LINK_UPDATE: %s", strerror(errno));
	/* the old program is no longer the link's: a replace of it fails */
	ASSERT_EQ(-1, sys_link_update(link, prog, prog, BPF_F_REPLACE));
	ASSERT_EQ(EPERM, errno);
	ASSERT_EQ(0, sys_link_detach(link)) TH_LOG("BPF_LINK_DETACH: %s", strerror(errno));
	close(link);
	trace = tp_end();
	EXPECT_EVENT(trace, fmt("bpf_link_create: link type=XDP ufd=%d id=%u prog=%s prog_type=XDP prog_id=%u prog_name=%s expected_attach_type=CGROUP_INET_INGRESS attach_btf_id=0 target= target_id=0",
				link, info.id, p.tag, p.id, p.name));
	EXPECT_EVENT(trace, fmt("bpf_link_update: link type=XDP id=%u old_prog_id=%u prog_id=%u",
				info.id, p.id, q.id));
	EXPECT_EVENT(trace, fmt("bpf_link_detach: link type=XDP id=%u prog_id=%u", info.id, q.id));
	EXPECT_EVENT(trace, fmt("bpf_link_free: link type=XDP id=%u prog_id=%u", info.id, q.id));
	/* the failed update changed nothing: one update event */
	ASSERT_EQ(gate_on, count_of(trace, " bpf_link_update: "));
	close(prog);
	close(prog2);
}

/* BPF_RAW_TRACEPOINT_OPEN makes a link too: its target is the tracepoint */
TEST(raw_tracepoint_link)
{
	struct bpf_link_info info = {};
	union bpf_attr attr;
	struct prog_desc p;
	int prog, link;
	char *trace;

	prog = sys_prog_load_ret(BPF_PROG_TYPE_RAW_TRACEPOINT, 0, 2);
	ASSERT_LE(0, prog) TH_LOG("raw_tp prog: %s", strerror(errno));
	ASSERT_EQ(0, prog_desc(prog, &p));
	TP_BEGIN("bpf_link_create,bpf_link_free");
	memset(&attr, 0, sizeof(attr));
	attr.raw_tracepoint.name = (__u64)(unsigned long)"sched_switch";
	attr.raw_tracepoint.prog_fd = prog;
	link = sys_bpf(BPF_RAW_TRACEPOINT_OPEN, &attr);
	ASSERT_LE(0, link) TH_LOG("BPF_RAW_TRACEPOINT_OPEN: %s", strerror(errno));
	ASSERT_EQ(0, sys_obj_info(link, &info, sizeof(info)));
	tp_own('l', info.id);
	close(link);
	trace = tp_end();
	EXPECT_EVENT(trace, fmt("bpf_link_create: link type=RAW_TRACEPOINT ufd=%d id=%u prog=%s prog_type=RAW_TRACEPOINT prog_id=%u prog_name=%s expected_attach_type=CGROUP_INET_INGRESS attach_btf_id=0 target=sched_switch target_id=0",
				link, info.id, p.tag, p.id, p.name));
	EXPECT_EVENT(trace, fmt("bpf_link_free: link type=RAW_TRACEPOINT id=%u prog_id=%u",
				info.id, p.id));
	close(prog);
}

/* BPF_PROG_ATTACH and BPF_PROG_DETACH: a flow dissector on this netns */
TEST(prog_attach_detach)
{
	union bpf_attr attr;
	struct prog_desc p;
	char *trace;
	int prog;

	/* a netns of its own: a test that stops half way leaves nothing attached */
	ASSERT_EQ(0, unshare(CLONE_NEWNET)) TH_LOG("unshare: %s", strerror(errno));
	prog = sys_prog_load_ret(BPF_PROG_TYPE_FLOW_DISSECTOR, 0 /* BPF_OK */, 2);
	ASSERT_LE(0, prog) TH_LOG("flow dissector: %s", strerror(errno));
	ASSERT_EQ(0, prog_desc(prog, &p));
	TP_BEGIN("bpf_prog_attach,bpf_prog_detach");
	memset(&attr, 0, sizeof(attr));
	attr.attach_bpf_fd = prog;
	attr.attach_type = BPF_FLOW_DISSECTOR;
	ASSERT_EQ(0, sys_bpf(BPF_PROG_ATTACH, &attr)) TH_LOG("BPF_PROG_ATTACH: %s",
							     strerror(errno));
	/* a second one is refused: no event */
	ASSERT_EQ(-1, sys_bpf(BPF_PROG_ATTACH, &attr));
	ASSERT_EQ(0, sys_bpf(BPF_PROG_DETACH, &attr)) TH_LOG("BPF_PROG_DETACH: %s",
							     strerror(errno));
	trace = tp_end();
	EXPECT_EVENT(trace, fmt("bpf_prog_attach: prog=%s type=FLOW_DISSECTOR attach_type=FLOW_DISSECTOR target_fd=0 flags=0 id=%u name=%s",
				p.tag, p.id, p.name));
	ASSERT_EQ(gate_on, count_of(trace, " bpf_prog_attach: ")) TH_LOG("%s", trace);
	EXPECT_EVENT(trace, fmt("bpf_prog_detach: attach_type=FLOW_DISSECTOR target_fd=0 flags=0 prog_ufd=%d prog_id=0",
				prog));
	close(prog);
}

TEST(prog_test_run)
{
	unsigned char data[64] = { 0 };
	union bpf_attr attr;
	struct prog_desc p;
	char *trace;
	int prog;

	prog = sys_prog_load();
	ASSERT_LE(0, prog);
	ASSERT_EQ(0, prog_desc(prog, &p));
	TP_BEGIN("bpf_prog_test_run");
	memset(&attr, 0, sizeof(attr));
	attr.test.prog_fd = prog;
	attr.test.data_in = (__u64)(unsigned long)data;
	attr.test.data_size_in = sizeof(data);
	attr.test.repeat = 3;
	ASSERT_EQ(0, sys_bpf(BPF_PROG_TEST_RUN, &attr)) TH_LOG("BPF_PROG_TEST_RUN: %s",
							       strerror(errno));
	/* too little data for an skb: refused, no event */
	attr.test.data_size_in = 2;
	ASSERT_EQ(-1, sys_bpf(BPF_PROG_TEST_RUN, &attr));
	trace = tp_end();
	EXPECT_EVENT(trace, fmt("bpf_prog_test_run: prog=%s type=SOCKET_FILTER repeat=3 data_in=64 ctx_in=0 flags=0 id=%u name=%s",
				p.tag, p.id, p.name));
	ASSERT_EQ(gate_on, count_of(trace, " bpf_prog_test_run: ")) TH_LOG("%s", trace);
	close(prog);
}

/*
 * Failures: one record for each failed command, with what was asked and,
 * where the syscall layer refused, which check.
 */
#define FAIL_EVENTS "bpf_cmd_refused,bpf_map_create_fail,bpf_prog_load_fail,bpf_cmd_fail"

/* The lines of @event in @trace that task @pid emitted */
static int count_of_pid(const char *trace, const char *event, pid_t pid)
{
	const char *at = trace;
	int count = 0;

	while (at && (at = strstr(at, event))) {
		count += task_pid(trace, at) == pid;
		at += strlen(event);
	}
	return count;
}

/* The failure records of task @pid: one event per failed command */
static int fail_records_of(const char *trace, pid_t pid)
{
	return count_of_pid(trace, " bpf_map_create_fail: ", pid) +
	       count_of_pid(trace, " bpf_prog_load_fail: ", pid) +
	       count_of_pid(trace, " bpf_cmd_fail: ", pid);
}

static int fail_records(const char *trace)
{
	return fail_records_of(trace, getpid());
}

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
	EXPECT_EVENT(trace, fmt("bpf_map_create_fail: map type=ARRAY key=4 val=8 max=0 flags=0 name=%s err=EINVAL",
				MAP_NAME));
	EXPECT_EVENT(trace, "bpf_cmd_refused: cmd=MAP_CREATE check=unknown map_type");
	EXPECT_EVENT(trace, fmt("bpf_map_create_fail: map type=0x270f key=4 val=8 max=1 flags=0 name=%s err=EINVAL",
				MAP_NAME));
	EXPECT_EVENT(trace, "bpf_cmd_refused: cmd=MAP_CREATE check=map_name: up to 15 of [A-Za-z0-9_.]");
	EXPECT_EVENT(trace, "bpf_map_create_fail: map type=HASH key=4 val=8 max=1 flags=0 name=bad-name err=EINVAL");
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
	EXPECT_EVENT(trace, fmt("bpf_prog_load_fail: prog type=SOCKET_FILTER insns=1 expected_attach_type=CGROUP_INET_INGRESS flags=0 name=%s err=EINVAL",
				PROG_NAME));
	EXPECT_EVENT(trace, fmt("bpf_prog_load_fail: prog type=SOCKET_FILTER insns=0 expected_attach_type=CGROUP_INET_INGRESS flags=0 name=%s err=E2BIG",
				PROG_NAME));
	EXPECT_EVENT(trace, "bpf_cmd_refused: cmd=PROG_LOAD check=the verifier (its log says why)");
	EXPECT_EVENT(trace, "bpf_cmd_refused: cmd=PROG_LOAD check=insn_cnt is 0 or over the limit");
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
	memset(&attr, 0, sizeof(attr));
	attr.map_id = 0x7ffffff0;
	ASSERT_EQ(-1, sys_bpf(BPF_MAP_GET_FD_BY_ID, &attr));
	ASSERT_EQ(ENOENT, errno);
	/* the command the kernel does not know */
	ASSERT_EQ(-1, sys_bpf(999, &attr));
	ASSERT_EQ(EINVAL, errno);
	/* commands that work leave no failure record */
	val = 1;
	ASSERT_EQ(0, sys_map_elem(BPF_MAP_UPDATE_ELEM, fd, &key, &val, 0));
	ASSERT_EQ(0, sys_map_elem(BPF_MAP_LOOKUP_ELEM, fd, &key, &val, 0));
	trace = tp_end();
	EXPECT_EVENT(trace, fmt("bpf_cmd_fail: cmd=MAP_LOOKUP_ELEM err=ENOENT ufd=%d obj=map id=%u name=%s",
				fd, m.id, m.name));
	EXPECT_EVENT(trace, "bpf_cmd_fail: cmd=MAP_LOOKUP_ELEM err=EBADF ufd=999 obj=none id=0 name=");
	EXPECT_EVENT(trace, "bpf_cmd_fail: cmd=MAP_GET_FD_BY_ID err=ENOENT ufd=-1 obj=by_id id=2147483632 name=");
	EXPECT_EVENT(trace, "bpf_cmd_fail: cmd=0x3e7 err=EINVAL ufd=-1 obj=none id=0 name=");
	ASSERT_EQ(4 * gate_on, fail_records(trace)) TH_LOG("%s", trace);
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
	EXPECT_EVENT(trace, "bpf_cmd_fail: cmd=MAP_CREATE err=E2BIG ufd=-1 obj=none id=0 name=");
	EXPECT_EVENT(trace, "bpf_cmd_fail: cmd=PROG_LOAD err=EFAULT ufd=-1 obj=none id=0 name=");
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

/* rtnetlink: appends an attribute to @nh; rta_end() closes a nest. */
static struct rtattr *rta_add(struct nlmsghdr *nh, int type, const void *data, int len)
{
	struct rtattr *rta = (struct rtattr *)((char *)nh + NLMSG_ALIGN(nh->nlmsg_len));

	rta->rta_type = type;
	rta->rta_len = RTA_LENGTH(len);
	if (data)
		memcpy(RTA_DATA(rta), data, len);
	nh->nlmsg_len = NLMSG_ALIGN(nh->nlmsg_len) + RTA_ALIGN(rta->rta_len);
	return rta;
}

static void rta_end(struct nlmsghdr *nh, struct rtattr *rta)
{
	rta->rta_len = (char *)nh + nh->nlmsg_len - (char *)rta;
}

/* A veth pair @a <-> @b, made as "ip link add a type veth peer name b" does. */
static int veth_add(const char *a, const char *b)
{
	struct {
		struct nlmsghdr nh;
		struct ifinfomsg ifi;
		char attrs[512];
	} req = {};
	struct rtattr *linkinfo, *data, *peer;
	char reply[4096];
	int sk, ret;

	req.nh.nlmsg_len = NLMSG_LENGTH(sizeof(req.ifi));
	req.nh.nlmsg_type = RTM_NEWLINK;
	req.nh.nlmsg_flags = NLM_F_REQUEST | NLM_F_CREATE | NLM_F_EXCL | NLM_F_ACK;
	rta_add(&req.nh, IFLA_IFNAME, a, strlen(a) + 1);
	linkinfo = rta_add(&req.nh, IFLA_LINKINFO, NULL, 0);
	rta_add(&req.nh, IFLA_INFO_KIND, "veth", 4);
	data = rta_add(&req.nh, IFLA_INFO_DATA, NULL, 0);
	/* the peer's own ifinfomsg (zeroed), then its attributes */
	peer = rta_add(&req.nh, VETH_INFO_PEER, NULL, sizeof(struct ifinfomsg));
	rta_add(&req.nh, IFLA_IFNAME, b, strlen(b) + 1);
	rta_end(&req.nh, peer);
	rta_end(&req.nh, data);
	rta_end(&req.nh, linkinfo);

	sk = socket(AF_NETLINK, SOCK_RAW, NETLINK_ROUTE);
	if (sk < 0)
		return -errno;
	ret = send(sk, &req, req.nh.nlmsg_len, 0) < 0 ? -errno : 0;
	if (!ret && recv(sk, reply, sizeof(reply), 0) > 0) {
		struct nlmsgerr *err = NLMSG_DATA((struct nlmsghdr *)reply);

		ret = err->error;
	}
	close(sk);
	return ret;
}

/* One broadcast frame out of @dev. */
static int send_frame(const char *dev)
{
	struct sockaddr_ll addr = {
		.sll_family = AF_PACKET,
		.sll_ifindex = if_nametoindex(dev),
		.sll_halen = ETH_ALEN,
	};
	unsigned char frame[60] = {
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02, 0, 0, 0, 0, 1, 0x88, 0xb5,
	};
	int sk = socket(AF_PACKET, SOCK_RAW, 0), ret;

	if (sk < 0)
		return -errno;
	memset(addr.sll_addr, 0xff, ETH_ALEN);
	ret = sendto(sk, frame, sizeof(frame), 0, (struct sockaddr *)&addr, sizeof(addr));
	close(sk);
	return ret == sizeof(frame) ? 0 : -errno;
}

/*
 * xdp:xdp_exception is upstream's and outside the gate: it works on both
 * kernels. A native XDP program on a veth returns XDP_ABORTED for a frame.
 */
TEST(xdp_exception)
{
	struct prog_desc p;
	int prog, link, i, ifindex, err;
	char *trace = NULL;

	err = veth_add("tpv0", "tpv1");
	ASSERT_EQ(0, err) TH_LOG("veth pair: %s (CONFIG_VETH)", strerror(-err));
	/* no IPv6 chatter (DAD, router solicitations): our frame only */
	write_file("/proc/sys/net/ipv6/conf/tpv0/disable_ipv6", "1");
	write_file("/proc/sys/net/ipv6/conf/tpv1/disable_ipv6", "1");
	ASSERT_EQ(0, link_up("tpv0"));
	ASSERT_EQ(0, link_up("tpv1"));
	ifindex = if_nametoindex("tpv1");
	ASSERT_LT(0, ifindex);
	prog = sys_prog_load_ret(BPF_PROG_TYPE_XDP, 0 /* XDP_ABORTED */, 2);
	ASSERT_LE(0, prog) TH_LOG("XDP prog: %s", strerror(errno));
	ASSERT_EQ(0, prog_desc(prog, &p));
	link = sys_xdp_link_create(prog, ifindex, XDP_FLAGS_DRV_MODE);
	ASSERT_LE(0, link) TH_LOG("native XDP on veth: %s", strerror(errno));
	ASSERT_EQ(0, tp_begin("xdp:xdp_exception"));
	ASSERT_EQ(0, send_frame("tpv0")) TH_LOG("AF_PACKET send: %s", strerror(errno));
	/* the peer runs XDP from NAPI: give it a moment */
	for (i = 0; i < 100; i++) {
		trace = trace_read();
		if (strstr(trace, " xdp_exception: "))
			break;
		usleep(20000);
	}
	trace = tp_end();
	ASSERT_EQ(1, count_of(trace, fmt(" xdp_exception: prog_id=%u action=ABORTED ifindex=%d\n",
					 p.id, ifindex)))
		TH_LOG("want prog_id=%u action=ABORTED ifindex=%d in:\n%s", p.id, ifindex, trace);
	close(link);
	close(prog);
}

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

/* Lines of @report with event @name whose fields are @fields, to the end. */
static int count_report_lines(const char *report, const char *name, const char *fields)
{
	char line[LINE_MAX_LEN];
	const char *p = report;
	int count = 0;

	while (*p) {
		size_t len = strcspn(p, "\n");
		char *ev;

		snprintf(line, sizeof(line), "%.*s", (int)len, p);
		p += len + !!p[len];
		ev = strstr(line, fmt(" %s: ", name));
		if (!ev || strlen(line) < strlen(fields))
			continue;
		/* trace-cmd pads the event name with spaces before the fields */
		ev += strlen(name) + 3;
		ev += strspn(ev, " ");
		count += !strcmp(ev, fields);
	}
	return count;
}

/*
 * The tools, each run as a user would around a workload of its own: on a
 * debug kernel under emulation they take longer than the harness's 30 s.
 */
FIXTURE(tools) {
};

FIXTURE_SETUP(tools)
{
	ASSERT_EQ(0, make_tmpdir()) TH_LOG("mkdtemp: %s", strerror(errno));
}

FIXTURE_TEARDOWN(tools)
{
	remove_tmpdir();
}

TEST_F_TIMEOUT(tools, trace_cmd_record, 300)
{
	char cmd[PATH_MAX * 2], line[LINE_MAX_LEN], rec_log[4096];
	const char *report;
	int n = 0, got, bad = 0;
	FILE *want;

	if (events_absent_unexpected())
		SKIP(return, OPTION_NOT_SET);
	if (!tool_installed("trace-cmd"))
		SKIP(return, "trace-cmd is not installed");
	ASSERT_NE(127 << 8, system("trace-cmd -h >/dev/null 2>&1"))
		TH_LOG("trace-cmd is installed but does not run (a missing library?)");
	if (!gate_on) {
		/* the off kernel has no bpf event for trace-cmd to record */
		ASSERT_NE(0, system("trace-cmd list -e 2>/dev/null | grep -q '^bpf:'"));
		ASSERT_EQ(0, workload(tmp_file("want")));
		return;
	}
	/*
	 * Into an instance of trace-cmd's own (-B, removed when it is done),
	 * not the top buffer: nothing global changes, and on 6.1 the top
	 * buffer is still its boot size, 7 KiB a CPU, once any instance was
	 * resized (one flag says "expanded" for all), and a record into it
	 * came back empty.
	 */
	snprintf(cmd, sizeof(cmd),
		 "cd %1$s && trace-cmd record -q -o %1$s/rec.dat -B bpf_tracepoints-rec-%3$d -e bpf "
		 "%2$s --workload %1$s/want >%1$s/rec.log 2>&1 && "
		 "trace-cmd report -i %1$s/rec.dat >%1$s/report 2>>%1$s/rec.log",
		 tmpdir, self_exe, getpid());
	ASSERT_EQ(0, system(cmd)) TH_LOG("%s", read_file(tmp_file("rec.log")));
	want = fopen(tmp_file("want"), "r");
	ASSERT_NE(NULL, want);
	report = read_file(tmp_file("report"));
	ASSERT_NE(NULL, report);
	while (fgets(line, sizeof(line), want)) {
		char *fields = strchr(line, ' ') + 1;

		line[strcspn(line, "\n")] = '\0';
		fields[-2] = '\0';	/* "name: fields" -> "name", "fields" */
		got = count_report_lines(report, line, fields);
		EXPECT_EQ(1, got)
			TH_LOG("want once in report: %s: %s\n%s", line, fields, report);
		bad |= got != 1;
		n++;
	}
	if (bad) {	/* what trace-cmd said while recording, and what it left */
		TH_LOG("trace-cmd record:\n%s",
		       read_into(tmp_file("rec.log"), rec_log, sizeof(rec_log)));
		system(fmt("{ ls -l %1$s; cd " TRACEFS " && grep -H . tracing_on trace_clock "
			   "set_event_pid buffer_size_kb events/bpf/enable; ls instances; } "
			   "2>&1 | sed 's/^/# /'", tmpdir));
	}
	fclose(want);
	ASSERT_EQ(5, n);
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

/*
 * Commit a67edbf4fb6d's own demonstration: perf record -a -e 'bpf:*' around
 * sock_example, then perf script, of which the lines the workload must
 * have caused are kept (the machine's other tasks' fill it too). The off
 * kernel has no such events: perf refuses the event list, and the
 * workload runs all the same.
 */
TEST_F_TIMEOUT(tools, perf_record, 300)
{
	char cmd[PATH_MAX * 2], line[LINE_MAX_LEN];
	const char *script;
	FILE *want;
	int n = 0;

	if (events_absent_unexpected())
		SKIP(return, OPTION_NOT_SET);
	if (!tool_installed("perf"))
		SKIP(return, "perf is not installed");
	ASSERT_EQ(0, system("perf version >/dev/null 2>&1"))
		TH_LOG("perf is installed but does not run (a missing library?)");
	if (!gate_on) {
		ASSERT_NE(0, system(fmt("perf record -q -a -e 'bpf:*' -o %1$s/perf.data -- true "
					">%1$s/perf.log 2>&1", tmpdir)));
		script = read_file(tmp_file("perf.log"));
		ASSERT_TRUE(strstr(script, "event syntax error") ||
			    strstr(script, "nknown tracepoint"))
			TH_LOG("want perf's own error, got: %s", script);
		ASSERT_EQ(0, sock_example(1, tmp_file("want")));
		return;
	}
	/* of the machine's events, the lines the workload must have caused */
	snprintf(cmd, sizeof(cmd),
		 "cd %1$s && perf record -q -a -e 'bpf:*' -o %1$s/perf.data -- "
		 "sh -c '%2$s --sock-example 2 %1$s/want && %2$s --big-values %1$s/big' "
		 ">%1$s/perf.log 2>&1 && cat %1$s/big >> %1$s/want && "
		 "perf script -i %1$s/perf.data >%1$s/perf.script 2>>%1$s/perf.log && "
		 "sed 's/^/bpf:/' %1$s/want >%1$s/patterns && "
		 "{ grep -F -f %1$s/patterns %1$s/perf.script >%1$s/perf.mine || true; }",
		 tmpdir, self_exe);
	ASSERT_EQ(0, system(cmd)) TH_LOG("%s", read_file(tmp_file("perf.log")));
	want = fopen(tmp_file("want"), "r");
	ASSERT_NE(NULL, want);
	script = read_file(tmp_file("perf.mine"));
	ASSERT_NE(NULL, script);
	while (fgets(line, sizeof(line), want)) {
		/* perf script prints "bpf:<name>: <fields>" */
		EXPECT_LE(1, count_of(script, fmt(" bpf:%s", line)))
			TH_LOG("want in perf script: bpf:%s%s", line, script);
		n++;
	}
	fclose(want);
	ASSERT_EQ(10, n);
}

/*
 * Real clients: bpftool, a libbpf loader and bpftrace, as developers run
 * them. The events must show exactly what each client did (its keys,
 * values, ids, tags and fds), and what a BPF program attached to them
 * reads. A client that is not installed skips (the rig fails any skip it
 * does not expect); one that is installed but does not run fails.
 */
#define CLIENT_OBJ	"bpf_tracepoints_clients.bpf.o"
#define CLIENT_LOADER	"bpf_tracepoints_libbpf"
#define BPFTOOL_MAP	BPFFS "/tp_bpftool_map"
#define BPFTOOL_PROG	BPFFS "/tp_bpftool_prog"
#define ZEROES_16	"00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00"

/* @cmd's exit status (-1 if it did not exit), its output in the test's client.out */
static int run_client(const char *cmd)
{
	int status = system(fmt("%s >%s/client.out 2>&1", cmd, tmpdir));

	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static const char *client_out(void)
{
	static char buf[65536];

	return read_into(tmp_file("client.out"), buf, sizeof(buf)) ?: "";
}

/*
 * Whether the test can go on with @tool: false after a SKIP (no events
 * nobody expected, or @tool not installed); a failure if @tool is
 * installed but @version_cmd does not run.
 */
static bool client_ready(struct __test_metadata *_metadata, const char *tool,
			 const char *version_cmd)
{
	if (events_absent_unexpected())
		SKIP(return false, OPTION_NOT_SET);
	if (tool && !tool_installed(tool))
		SKIP(return false, "%s is not installed", tool);
	if (version_cmd) {
		int rc = run_client(version_cmd);

		EXPECT_EQ(0, rc) TH_LOG("%s is installed but does not run: %s", tool, client_out());
		return !rc;
	}
	return true;
}

/* The number after @name (JSON "name":N, bpftrace's "@name: N"), or -1 */
static long long value_after(const char *text, const char *name)
{
	const char *at = text ? strstr(text, name) : NULL;

	return at ? strtoll(at + strlen(name), NULL, 10) : -1;
}

/* The string after @name up to the next '"' (JSON "name":"...") */
static char *string_after(const char *text, const char *name)
{
	static char buf[LINE_MAX_LEN];
	const char *at = strstr(text, name);

	if (!at)
		return "";
	at += strlen(name);
	snprintf(buf, sizeof(buf), "%.*s", (int)strcspn(at, "\""), at);
	return buf;
}

/*
 * The lines of @trace of @event whose fields are @want, where "ufd=*" in
 * @want stands for any fd; the last such line's pid and fd are kept.
 */
struct event_match {
	int count;
	pid_t pid;
	int ufd;
};

static struct event_match match_event(const char *trace, const char *event, const char *want)
{
	char line[LINE_MAX_LEN], fields[LINE_MAX_LEN], name[128];
	struct event_match m = { 0, -1, -1 };
	const char *star, *p = trace;
	size_t head;

	/* copies: @want may be one of fmt()'s buffers, which it reuses */
	snprintf(fields, sizeof(fields), "%s", want);
	snprintf(name, sizeof(name), " %s: ", event);
	star = strstr(fields, "ufd=*");
	head = star ? (size_t)(star - fields) + strlen("ufd=") : strlen(fields);
	while (p && *p) {
		size_t len = strcspn(p, "\n");
		const char *at = p, *f;
		char *end;
		long ufd = -1;

		snprintf(line, sizeof(line), "%.*s", (int)len, p);
		p += len + !!p[len];
		f = strstr(line, name);
		if (!f)
			continue;
		f += strlen(name);
		if (strncmp(f, fields, head))
			continue;
		if (star) {
			/* a plain fd: digits, nothing before them */
			if (!isdigit((unsigned char)f[head]))
				continue;
			ufd = strtol(f + head, &end, 10);
			if (strcmp(end, star + strlen("ufd=*")))
				continue;
		} else if (f[head]) {
			continue;
		}
		m.count++;
		m.pid = task_pid(trace, at + (f - line));
		m.ufd = ufd;
	}
	return m;
}

/* The names of the events in @trace, in order: "name name ..." */
static char *event_names(const char *trace)
{
	static char buf[4096];
	const char *p = trace;
	size_t n = 0;

	buf[0] = '\0';
	while ((p = strstr(p, " bpf_")) && n < sizeof(buf) - 64) {
		size_t len = strcspn(p + 1, ":\n ");

		if (p[1 + len] == ':')
			n += snprintf(buf + n, sizeof(buf) - n, "%s%.*s", n ? " " : "",
				      (int)len, p + 1);
		p += 1 + len;
	}
	return buf;
}

/* A copy of the trace (tp_end()'s buffer is reused), NULL if off */
static char *trace_copy(struct __test_metadata *_metadata)
{
	const char *trace;

	if (!gate_on)
		return NULL;
	trace = tp_end();
	EXPECT_NE(NULL, trace) TH_LOG("could not read %s", tracing("trace"));
	return strdup(trace ?: "");
}

FIXTURE(clients) {
};

FIXTURE_SETUP(clients)
{
	ASSERT_EQ(0, bpffs_ready());
	/* last: a setup that fails has no teardown */
	ASSERT_EQ(0, make_tmpdir()) TH_LOG("mkdtemp: %s", strerror(errno));
	unlink(BPFTOOL_MAP);
	unlink(BPFTOOL_PROG);
}

FIXTURE_TEARDOWN(clients)
{
	unlink(BPFTOOL_MAP);
	unlink(BPFTOOL_PROG);
	remove_tmpdir();
}

#define BPFTOOL_MAP_EVENTS	"bpf_map_create,bpf_obj_pin_map,bpf_obj_get_map," \
				"bpf_map_update_elem,bpf_map_lookup_elem," \
				"bpf_map_delete_elem,bpf_map_next_key,bpf_map_lookup_batch"

/* Runs bpftool @args; with the gate on, returns the events it caused. */
static char *bpftool_traced(struct __test_metadata *_metadata, const char *args)
{
	char cmd[LINE_MAX_LEN];

	snprintf(cmd, sizeof(cmd), "bpftool %s", args);
	EXPECT_EQ(0, tp_begin(BPFTOOL_MAP_EVENTS));
	EXPECT_EQ(0, run_client(cmd)) TH_LOG("%s: %s", cmd, client_out());
	return trace_copy(_metadata);
}

/* "map type=HASH ufd=* " + @kv + " id=@id name=tp_bpftool_map" */
static char *bpftool_map_line(const char *kv, long long id)
{
	return fmt("map type=HASH ufd=* %s id=%lld name=tp_bpftool_map", kv, id);
}

/*
 * bpftool map create (pinned), update, lookup, dump and delete: the events
 * carry bpftool's own keys and values, the id that bpftool map show
 * prints, and in each bpftool process the fd it got from the pin.
 */
TEST_F_TIMEOUT(clients, bpftool_map, 300)
{
	const char *key1 = "key=[01 00 00 00]", *val1 = "val=[01 02 03 04 05 06 07 08]";
	char *create, *update1, *update2, *lookup, *dump, *del, kv[LINE_MAX_LEN];
	struct event_match made, pin, get, upd, look, dumped, gone;
	long long id;
	int walk;

	if (!client_ready(_metadata, "bpftool", "bpftool version"))
		return;
	create = bpftool_traced(_metadata, "map create " BPFTOOL_MAP
				" type hash key 4 value 8 entries 4 name tp_bpftool_map");
	update1 = bpftool_traced(_metadata, "map update pinned " BPFTOOL_MAP
				 " key 1 0 0 0 value 1 2 3 4 5 6 7 8");
	update2 = bpftool_traced(_metadata, "map update pinned " BPFTOOL_MAP
				 " key 2 0 0 0 value 0x11 0 0 0 0 0 0 0x22");
	lookup = bpftool_traced(_metadata, "map lookup pinned " BPFTOOL_MAP " key 1 0 0 0");
	ASSERT_NE(NULL, strstr(client_out(), "01 02 03 04 05 06 07 08"))
		TH_LOG("bpftool map lookup: %s", client_out());
	dump = bpftool_traced(_metadata, "map dump pinned " BPFTOOL_MAP);
	ASSERT_NE(NULL, strstr(client_out(), "Found 2 elements")) TH_LOG("%s", client_out());
	del = bpftool_traced(_metadata, "map delete pinned " BPFTOOL_MAP " key 1 0 0 0");
	ASSERT_EQ(0, run_client("bpftool map dump pinned " BPFTOOL_MAP));
	ASSERT_NE(NULL, strstr(client_out(), "Found 1 element")) TH_LOG("%s", client_out());
	ASSERT_EQ(0, run_client("bpftool -j map show pinned " BPFTOOL_MAP));
	id = value_after(client_out(), "\"id\":");
	ASSERT_LT(0, id) TH_LOG("bpftool map show: %s", client_out());
	if (!gate_on) {
		TH_LOG("off kernel: no bpf events; bpftool's results checked");
		return;
	}

	made = match_event(create, "bpf_map_create",
			   bpftool_map_line("key=4 val=8 max=4 flags=0", id));
	pin = match_event(create, "bpf_obj_pin_map",
			  bpftool_map_line("path=" BPFTOOL_MAP, id));
	EXPECT_EQ(1, made.count) TH_LOG("%s", create);
	EXPECT_EQ(1, pin.count) TH_LOG("%s", create);
	EXPECT_EQ(made.pid, pin.pid);
	EXPECT_EQ(made.ufd, pin.ufd);
	/* an fd bpftool could have: past stdio, and not the id */
	EXPECT_LE(3, made.ufd);
	EXPECT_NE(id, made.ufd);
	EXPECT_EQ(2, count_of(create, ": map type="));

	snprintf(kv, sizeof(kv), "%s %s", key1, val1);
	upd = match_event(update1, "bpf_map_update_elem", bpftool_map_line(kv, id));
	get = match_event(update1, "bpf_obj_get_map", bpftool_map_line("path=" BPFTOOL_MAP, id));
	EXPECT_EQ(1, upd.count) TH_LOG("%s", update1);
	EXPECT_EQ(1, get.count) TH_LOG("%s", update1);
	/* the update's fd is the one this bpftool got from the pin */
	EXPECT_EQ(get.pid, upd.pid);
	EXPECT_EQ(get.ufd, upd.ufd);
	EXPECT_NE(made.pid, upd.pid);
	EXPECT_EQ(1, match_event(update2, "bpf_map_update_elem",
				 bpftool_map_line("key=[02 00 00 00] val=[11 00 00 00 00 00 00 22]",
						  id)).count) TH_LOG("%s", update2);
	look = match_event(lookup, "bpf_map_lookup_elem", bpftool_map_line(kv, id));
	get = match_event(lookup, "bpf_obj_get_map", bpftool_map_line("path=" BPFTOOL_MAP, id));
	EXPECT_EQ(1, look.count) TH_LOG("%s", lookup);
	EXPECT_EQ(get.pid, look.pid);
	EXPECT_EQ(get.ufd, look.ufd);

	/* What bpftool map dump issues: one get, then key by key */
	TH_LOG("bpftool map dump issued: %s", event_names(dump));
	get = match_event(dump, "bpf_obj_get_map", bpftool_map_line("path=" BPFTOOL_MAP, id));
	dumped = match_event(dump, "bpf_map_lookup_elem", bpftool_map_line(kv, id));
	EXPECT_EQ(1, dumped.count) TH_LOG("%s", dump);
	EXPECT_EQ(get.ufd, dumped.ufd);
	EXPECT_EQ(1, match_event(dump, "bpf_map_lookup_elem",
				 bpftool_map_line("key=[02 00 00 00] val=[11 00 00 00 00 00 00 22]",
						  id)).count) TH_LOG("%s", dump);
	/* the walk: from no key to one of the two, from it to the other */
	walk = match_event(dump, "bpf_map_next_key",
			   bpftool_map_line("key=[] next=[01 00 00 00]", id)).count;
	walk += match_event(dump, "bpf_map_next_key",
			    bpftool_map_line("key=[] next=[02 00 00 00]", id)).count;
	EXPECT_EQ(1, walk) TH_LOG("%s", dump);
	walk = match_event(dump, "bpf_map_next_key",
			   bpftool_map_line("key=[01 00 00 00] next=[02 00 00 00]", id)).count;
	walk += match_event(dump, "bpf_map_next_key",
			    bpftool_map_line("key=[02 00 00 00] next=[01 00 00 00]", id)).count;
	EXPECT_EQ(1, walk) TH_LOG("%s", dump);
	EXPECT_EQ(1, count_of(dump, " bpf_obj_get_map: "));
	EXPECT_EQ(2, count_of(dump, " bpf_map_next_key: ")) TH_LOG("%s", dump);
	EXPECT_EQ(2, count_of(dump, " bpf_map_lookup_elem: ")) TH_LOG("%s", dump);
	EXPECT_EQ(0, count_of(dump, " bpf_map_lookup_batch: ")) TH_LOG("%s", dump);

	gone = match_event(del, "bpf_map_delete_elem", bpftool_map_line(key1, id));
	get = match_event(del, "bpf_obj_get_map", bpftool_map_line("path=" BPFTOOL_MAP, id));
	EXPECT_EQ(1, gone.count) TH_LOG("%s", del);
	EXPECT_EQ(get.pid, gone.pid);
	EXPECT_EQ(get.ufd, gone.ufd);
	EXPECT_EQ(1, count_of(del, " bpf_map_delete_elem: "));
	free(create);
	free(update1);
	free(update2);
	free(lookup);
	free(dump);
	free(del);
}

/*
 * bpftool prog load of the clang-built object: the program's event has
 * the tag, id and name bpftool prog show prints, and the pin its fd.
 */
TEST_F_TIMEOUT(clients, bpftool_prog_load, 300)
{
	char tag[64], *trace = NULL, show[4096], want[LINE_MAX_LEN];
	struct event_match load, pin;
	const char *map_ids;
	long long id, map_id;
	int own = 0;

	if (!client_ready(_metadata, "bpftool", "bpftool version"))
		return;
	TP_BEGIN("bpf_prog_load,bpf_obj_pin_prog,bpf_map_create");
	ASSERT_EQ(0, run_client(fmt("bpftool prog load %s " BPFTOOL_PROG,
				    beside_self(CLIENT_OBJ)))) TH_LOG("%s", client_out());
	trace = trace_copy(_metadata);
	ASSERT_EQ(0, run_client("bpftool -j prog show pinned " BPFTOOL_PROG));
	snprintf(show, sizeof(show), "%s", client_out());
	id = value_after(show, "\"id\":");
	/* a longer string than a tag is cut, and fails the length check */
	snprintf(tag, sizeof(tag), "%.63s", string_after(show, "\"tag\":\""));
	ASSERT_LT(0, id) TH_LOG("bpftool prog show: %s", show);
	ASSERT_EQ(16, strlen(tag)) TH_LOG("bpftool prog show: %s", show);
	ASSERT_NE(NULL, strstr(show, "\"name\":\"count_creates\"")) TH_LOG("%s", show);
	if (!gate_on) {
		TH_LOG("off kernel: no bpf events; bpftool's results checked");
		return;
	}
	snprintf(want, sizeof(want), "prog=%s type=TRACEPOINT ufd=* id=%lld name=count_creates",
		 tag, id);
	load = match_event(trace, "bpf_prog_load", want);
	snprintf(want, sizeof(want),
		 "prog=%s path=" BPFTOOL_PROG " ufd=* type=TRACEPOINT id=%lld name=count_creates",
		 tag, id);
	pin = match_event(trace, "bpf_obj_pin_prog", want);
	EXPECT_EQ(1, load.count) TH_LOG("want tag %s id %lld:\n%s", tag, id, trace);
	EXPECT_EQ(1, pin.count) TH_LOG("%s", trace);
	EXPECT_EQ(load.pid, pin.pid);
	EXPECT_EQ(load.ufd, pin.ufd);
	EXPECT_LE(3, load.ufd);
	/* the object's own map, among those bpftool created for the program */
	map_ids = strstr(show, "\"map_ids\":[");
	ASSERT_NE(NULL, map_ids) TH_LOG("%s", show);
	map_ids += strlen("\"map_ids\":[");
	while (*map_ids && *map_ids != ']') {
		char *end;

		map_id = strtoll(map_ids, &end, 10);
		ASSERT_NE(map_ids, end) TH_LOG("map_ids: %s", show);
		map_ids = end + strspn(end, ",");
		ASSERT_EQ(0, run_client(fmt("bpftool -j map show id %lld", map_id)));
		if (!strstr(client_out(), "\"name\":\"tp_clients_ids\""))
			continue;
		snprintf(want, sizeof(want),
			 "map type=HASH ufd=* key=4 val=4 max=16 flags=0 id=%lld name=tp_clients_ids",
			 map_id);
		own += match_event(trace, "bpf_map_create", want).count;
	}
	EXPECT_EQ(1, own) TH_LOG("%s", trace);
	free(trace);
}

/*
 * The fields of a map libbpf reports, as the create must print them:
 * libbpf's internal maps are mmapable arrays of one element (.rodata
 * also read-only to programs: BPF_F_RDONLY_PROG | BPF_F_MMAPABLE), the
 * object's own map is as declared. The kernel keeps 15 characters of a
 * name.
 */
struct libbpf_map {
	char name[64];
	long long id;
	int fd;
};

static const char *libbpf_map_type(const struct libbpf_map *m)
{
	return strstr(m->name, ".rodata") || strstr(m->name, ".bss") ? "ARRAY" : "HASH";
}

static char *libbpf_map_line(const struct libbpf_map *m)
{
	const char *spec = "key=4 val=4 max=16 flags=0";

	if (strstr(m->name, ".rodata"))
		spec = "key=4 val=8 max=1 flags=480";
	else if (strstr(m->name, ".bss"))
		spec = "key=4 val=16 max=1 flags=400";
	return fmt("map type=%s ufd=%d %s id=%lld name=%.15s", libbpf_map_type(m), m->fd,
		   spec, m->id, m->name);
}

/*
 * The events of one map libbpf made, all from the loader (@pid) on the
 * fd libbpf reports: .rodata written with the constant and frozen, .bss
 * written (with zeroes, libbpf 1.1) and not frozen, the object's own map
 * created and nothing else.
 */
static void check_libbpf_map(struct __test_metadata *_metadata, const char *trace,
			     const struct libbpf_map *m, pid_t pid)
{
	char head[LINE_MAX_LEN], tail[LINE_MAX_LEN];
	struct event_match made, upd = { 0 }, frozen;
	const char *val = NULL;
	int want_frozen = 0;

	made = match_event(trace, "bpf_map_create", libbpf_map_line(m));
	EXPECT_EQ(1, made.count) TH_LOG("libbpf's map %s id %lld fd %d:\n%s",
					m->name, m->id, m->fd, trace);
	EXPECT_EQ(pid, made.pid);
	snprintf(head, sizeof(head), "map type=%s ufd=%d", libbpf_map_type(m), m->fd);
	snprintf(tail, sizeof(tail), "id=%lld name=%.15s", m->id, m->name);
	if (strstr(m->name, ".rodata")) {
		val = "01 00 00 00 00 00 00 00";
		want_frozen = 1;
	} else if (strstr(m->name, ".bss")) {
		val = ZEROES_16;
	}
	if (val) {
		upd = match_event(trace, "bpf_map_update_elem",
				  fmt("%s key=[00 00 00 00] val=[%s] %s", head, val, tail));
		EXPECT_EQ(1, upd.count) TH_LOG("%s", trace);
		EXPECT_EQ(pid, upd.pid);
	}
	frozen = match_event(trace, "bpf_map_freeze", fmt("%s %s", head, tail));
	EXPECT_EQ(want_frozen, frozen.count) TH_LOG("%s", trace);
	if (want_frozen)
		EXPECT_EQ(pid, frozen.pid);
	/* and no other event of this map */
	EXPECT_EQ(1 + !!val + want_frozen, count_of(trace, fmt(" %s\n", tail)))
		TH_LOG("%s", trace);
}

/*
 * A libbpf loader (bpf_tracepoints_libbpf) opening and loading the object:
 * the events show what libbpf did that the object's author never wrote,
 * held against what libbpf reports (names and ids): the .bss and .rodata
 * maps, their contents written, .rodata frozen, and the program by its
 * name. Feature probes, maps and programs libbpf made and dropped, are
 * counted.
 */
TEST_F_TIMEOUT(clients, libbpf_loader, 300)
{
	char tag[64], name[64], *trace, *loaded;
	int maps = 0, progs = 0, probes, fd, n;
	struct event_match load;
	struct libbpf_map m;
	const char *p;
	pid_t pid = -1;
	long long id;

	if (!client_ready(_metadata, NULL, NULL))
		return;
	TP_BEGIN("bpf_map_create,bpf_map_update_elem,bpf_map_freeze,bpf_prog_load");
	ASSERT_EQ(0, run_client(fmt("%s %s", beside_self(CLIENT_LOADER),
				    beside_self(CLIENT_OBJ)))) TH_LOG("%s", client_out());
	trace = trace_copy(_metadata);
	loaded = strdup(client_out());
	ASSERT_NE(NULL, strstr(loaded, ".rodata id ")) TH_LOG("no .rodata map: %s", loaded);
	ASSERT_NE(NULL, strstr(loaded, ".bss id ")) TH_LOG("no .bss map: %s", loaded);
	n = sscanf(loaded, "pid %d", &pid);
	ASSERT_EQ(1, n) TH_LOG("%s", loaded);
	for (p = loaded; *p; p += strcspn(p, "\n"), p += !!*p) {
		if (sscanf(p, "map %63s id %lld fd %d", m.name, &m.id, &m.fd) == 3) {
			maps++;
			if (gate_on)
				check_libbpf_map(_metadata, trace, &m, pid);
		} else if (sscanf(p, "prog %63s id %lld tag %63s fd %d",
				  name, &id, tag, &fd) == 4) {
			progs++;
			if (!gate_on)
				continue;
			load = match_event(trace, "bpf_prog_load",
					   fmt("prog=%s type=TRACEPOINT ufd=%d id=%lld name=%s",
					       tag, fd, id, name));
			EXPECT_EQ(1, load.count) TH_LOG("%s", trace);
			EXPECT_EQ(pid, load.pid);
		}
	}
	ASSERT_EQ(3, maps) TH_LOG("%s", loaded);
	ASSERT_EQ(1, progs) TH_LOG("%s", loaded);
	if (gate_on) {
		probes = count_of(trace, " bpf_map_create: ") +
			 count_of(trace, " bpf_prog_load: ") - maps - progs;
		TH_LOG("libbpf also made %d feature probes (maps and programs made and dropped)",
		       probes);
	} else {
		TH_LOG("off kernel: no bpf events; what libbpf reports checked");
	}
	free(trace);
	free(loaded);
}

/*
 * A BPF program consuming an event: the loader attaches count_creates to
 * bpf:bpf_map_create, which counts the maps created and keeps the id
 * field of the last record. On a kernel without the events the loader
 * must say that the tracepoint does not exist.
 */
TEST_F_TIMEOUT(clients, libbpf_program_on_map_create, 300)
{
	unsigned int last = 0, want = 0, ufd = 0;
	unsigned long long counted = 0;
	int n = 0, want_fd = -1, rc;
	const char *out;

	if (!client_ready(_metadata, NULL, NULL))
		return;
	rc = run_client(fmt("%s %s --count 3", beside_self(CLIENT_LOADER),
			    beside_self(CLIENT_OBJ)));
	out = client_out();
	if (!gate_on) {
		ASSERT_EQ(2, rc) TH_LOG("%s", out);
		ASSERT_NE(NULL, strstr(out, "tracepoint bpf:bpf_map_create does not exist"))
			TH_LOG("%s", out);
		TH_LOG("the loader on the off kernel: %s", strstr(out, "tracepoint bpf:"));
		return;
	}
	ASSERT_EQ(0, rc) TH_LOG("%s", out);
	rc = sscanf(strstr(out, "counted ") ?: "",
		    "counted %llu of %d last_id %u want %u ufd %u want %d",
		    &counted, &n, &last, &want, &ufd, &want_fd);
	ASSERT_EQ(6, rc) TH_LOG("%s", out);
	EXPECT_EQ(3, counted) TH_LOG("%s", out);
	EXPECT_EQ(want, last) TH_LOG("%s", out);
	EXPECT_NE(0, want);
	/* the ufd field the program read is the fd bpf_map_create() returned */
	EXPECT_EQ(want_fd, ufd) TH_LOG("%s", out);
	EXPECT_LE(3, want_fd);
	out = strstr(out, "counted ");
	TH_LOG("the loader printed: %.*s", (int)strcspn(out, "\n"), out);
}

/*
 * The trace holds every line of @want (NULL-ended), waiting up to 30 s
 * for those an RCU callback or a workqueue writes after the loader exits
 * (the last puts of programs, of BTF with the maps that held it; lazy
 * RCU may hold a callback 10 s).
 */
static bool trace_gets(const char *const *want)
{
	int tries, i;

	for (tries = 0; tries < 300; tries++) {
		const char *trace = trace_read();

		for (i = 0; trace && want[i] && strstr(trace, want[i]); i++)
			;
		if (trace && !want[i])
			return true;
		usleep(100000);
	}
	return false;
}

/* Where the first line of @trace holding both @a and @b is, or -1 */
static long line_with(const char *trace, const char *a, const char *b)
{
	const char *p;

	for (p = trace; *p; p += strcspn(p, "\n"), p += !!*p) {
		const char *end = p + strcspn(p, "\n");
		const char *at = strstr(p, a);

		if (at && at < end && strstr(at, b) && strstr(at, b) < end)
			return p - trace;
	}
	return -1;
}

/* Where @line is in @trace, or -1 */
static long line_at(const char *trace, const char *line)
{
	const char *at = strstr(trace, line);

	return at ? at - trace : -1;
}

#define STORY_EVENTS "bpf_btf_load,bpf_btf_free,bpf_map_create,bpf_map_free,bpf_prog_load," \
		     "bpf_prog_put_rcu,bpf_link_create,bpf_link_free"

/*
 * A loader's whole story (make run shows it): libbpf loads the object's
 * BTF, makes its maps with it, loads the program, attaches it with a
 * perf event link to bpf:bpf_map_create, detaches and exits. Every object
 * libbpf reports has its create and its free, in that order, with the
 * ids libbpf got; the link names its program and its tracepoint.
 */
TEST_F_TIMEOUT(clients, libbpf_loader_lifecycle, 300)
{
	long long btf_id = -1, link_id = -1, prog_id = -1, id, map_ids[3];
	char tag[64] = "", name[64], *trace, *out;
	int btf_fd = -1, link_fd = -1, fd, maps = 0, rc;
	const char *want[16], *p;
	long created;

	if (!client_ready(_metadata, NULL, NULL))
		return;
	TP_BEGIN(STORY_EVENTS);
	rc = run_client(fmt("%s %s --count 1", beside_self(CLIENT_LOADER),
			    beside_self(CLIENT_OBJ)));
	ASSERT_EQ(gate_on ? 0 : 2, rc) TH_LOG("%s", client_out());
	out = strdup(client_out());
	for (p = out; *p; p += strcspn(p, "\n"), p += !!*p) {
		if (sscanf(p, "btf id %lld fd %d", &btf_id, &btf_fd) == 2 ||
		    sscanf(p, "link id %lld fd %d", &link_id, &link_fd) == 2)
			continue;
		if (sscanf(p, "prog %63s id %lld tag %63s fd %d", name, &prog_id, tag, &fd) == 4)
			ASSERT_STREQ("count_creates", name);
		if (sscanf(p, "map %63s id %lld fd %d", name, &id, &fd) == 3 && maps < 3) {
			/* each map: made, then freed when the loader closes it */
			/* (the kernel's name of .bss is libbpf's prefix.bss) */
			want[2 * maps] = strdup(fmt("bpf_map_create: map type=%s ufd=%d ",
						    strcmp(name, "tp_clients_ids") ? "ARRAY" : "HASH",
						    fd));
			map_ids[maps] = id;
			want[2 * maps + 1] = strdup(fmt("bpf_map_free: map type=%s id=%lld name=",
							strcmp(name, "tp_clients_ids") ? "ARRAY" : "HASH",
							id));
			maps++;
		}
	}
	ASSERT_LT(0, btf_id) TH_LOG("the loader printed no BTF: %s", out);
	ASSERT_EQ(3, maps) TH_LOG("%s", out);
	if (!gate_on) {
		/* the off kernel: the loader ran, the events are not there */
		ASSERT_EQ(-1, link_id);
		return;
	}
	ASSERT_LT(0, link_id) TH_LOG("%s", out);
	want[6] = strdup(fmt("bpf_btf_load: btf id=%lld size=", btf_id));
	want[7] = strdup(fmt("bpf_btf_free: btf id=%lld size=", btf_id));
	want[8] = strdup(fmt("bpf_prog_load: prog=%s type=TRACEPOINT ufd=", tag));
	want[9] = strdup(fmt("bpf_link_create: link type=PERF_EVENT ufd=%d id=%lld prog=%s prog_type=TRACEPOINT prog_id=%lld prog_name=count_creates expected_attach_type=CGROUP_INET_INGRESS attach_btf_id=0 target=bpf_map_create target_id=0\n",
			     link_fd, link_id, tag, prog_id));
	want[10] = strdup(fmt("bpf_link_free: link type=PERF_EVENT id=%lld prog_id=%lld\n",
			      link_id, prog_id));
	want[11] = strdup(fmt("bpf_prog_put_rcu: prog=%s type=TRACEPOINT id=%lld name=count_creates\n",
			      tag, prog_id));
	want[12] = NULL;
	EXPECT_TRUE(trace_gets(want)) TH_LOG("%s", trace_read());
	trace = tp_end();
	ASSERT_NE(NULL, trace);
	/* in order: the BTF first, the maps made with it, the program, its link */
	created = line_at(trace, want[6]);
	EXPECT_LE(0, created);
	for (fd = 0; fd < 3; fd++) {
		/* the create of that map: the line with its fd and its id */
		long made = line_with(trace, want[2 * fd], fmt(" id=%lld name=", map_ids[fd]));

		EXPECT_LE(0, made) TH_LOG("no %s... id=%lld", want[2 * fd], map_ids[fd]);
		EXPECT_LT(created, made) TH_LOG("%s", want[2 * fd]);
		EXPECT_LT(made, line_at(trace, want[2 * fd + 1]))
			TH_LOG("%s after %s", want[2 * fd + 1], want[2 * fd]);
		EXPECT_LT(line_at(trace, want[2 * fd + 1]), line_at(trace, want[7]))
			TH_LOG("the BTF outlives the maps made with it");
	}
	EXPECT_LT(line_at(trace, want[8]), line_at(trace, want[9]));
	EXPECT_LT(line_at(trace, want[9]), line_at(trace, want[10]));
	EXPECT_LT(line_at(trace, want[10]), line_at(trace, want[11]));
	EXPECT_EQ(1, count_of(trace, want[9])) TH_LOG("%s", trace);
	EXPECT_EQ(1, count_of(trace, " bpf_link_create: ")) TH_LOG("%s", trace);
	free(out);
}

/*
 * A loader's three mistakes (make run shows them): a map create the
 * kernel refuses, a program the verifier refuses, an attach to a
 * tracepoint that does not exist. Each leaves its one failure record
 * saying which command failed and why; the loader reports what libbpf
 * told it.
 */
TEST_F_TIMEOUT(clients, libbpf_loader_fails, 300)
{
	long long raw_fd = -1;
	char *trace, *out;
	const char *at;
	pid_t pid = -1;
	int n;

	if (!client_ready(_metadata, NULL, NULL))
		return;
	TP_BEGIN(FAIL_EVENTS);
	ASSERT_EQ(0, run_client(fmt("%s --fail", beside_self(CLIENT_LOADER))))
		TH_LOG("%s", client_out());
	trace = trace_copy(_metadata);
	out = strdup(client_out());
	n = sscanf(out, "pid %d", &pid);
	ASSERT_EQ(1, n) TH_LOG("%s", out);
	ASSERT_NE(NULL, strstr(out, "fail map_create Invalid argument\n")) TH_LOG("%s", out);
	ASSERT_NE(NULL, strstr(out, "fail prog_load Permission denied R2 !read_ok\n"))
		TH_LOG("%s", out);
	ASSERT_NE(NULL, strstr(out, "fail raw_tracepoint_open No such file or directory\n"))
		TH_LOG("%s", out);
	at = strstr(out, "prog tp_fail_raw_tp fd ");
	ASSERT_NE(NULL, at);
	n = sscanf(at, "prog tp_fail_raw_tp fd %lld", &raw_fd);
	ASSERT_EQ(1, n);
	if (!gate_on)
		return;
	for (n = 0; n < 4; n++) {
		static const char * const lines[] = {
			"bpf_cmd_refused: cmd=MAP_CREATE check=the map type's own checks of its attributes\n",
			"bpf_map_create_fail: map type=ARRAY key=4 val=8 max=0 flags=0 name=tp_fail_map err=EINVAL\n",
			"bpf_cmd_refused: cmd=PROG_LOAD check=the verifier (its log says why)\n",
			"bpf_prog_load_fail: prog type=SOCKET_FILTER insns=2 expected_attach_type=CGROUP_INET_INGRESS flags=0 name=tp_fail_prog err=EACCES\n",
		};

		EXPECT_EQ(1, count_of(trace, lines[n])) TH_LOG("%s--- trace:\n%s", lines[n], trace);
	}
	/* the program the attach named is gone: its id from the record's own line */
	at = strstr(trace, fmt("bpf_cmd_fail: cmd=RAW_TRACEPOINT_OPEN err=ENOENT ufd=%lld obj=prog id=",
			       raw_fd));
	EXPECT_NE(NULL, at) TH_LOG("%s", trace);
	if (at)
		EXPECT_NE(NULL, strstr(at, " name=tp_fail_raw_tp\n"));
	EXPECT_EQ(pid, at ? task_pid(trace, at) : -1);
	/* the three, and nothing else of the loader's failed */
	EXPECT_EQ(3, fail_records_of(trace, pid)) TH_LOG("%s", trace);
	free(out);
	free(trace);
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

/*
 * bpftrace compiles a struct from the format file with the kernel's type
 * names (u32, bool); on a kernel without BTF and without its headers
 * installed, as in the rig's guests, the script names them itself.
 */
#define BPFTRACE_TYPES	"#define u32 unsigned int\n#define bool _Bool\n"
#define BPFTRACE_PROBE	"tracepoint:bpf:bpf_map_update_elem /pid == cpid/ " \
			"{ @updates = count(); @id = args->id; @ufd = args->ufd; }"

/*
 * bpftrace on tracepoint:bpf:bpf_map_update_elem, reading fields through
 * the format file: the count equals the updates done, the id is the
 * map's, the fd the workload's. On a kernel without the events bpftrace
 * must refuse the probe.
 */
TEST_F_TIMEOUT(clients, bpftrace_on_update, 600)
{
	char maps[LINE_MAX_LEN], *nl;
	const char *out;
	long long id;
	int rc;

	if (!client_ready(_metadata, "bpftrace", "bpftrace --version"))
		return;
	rc = run_client(fmt("bpftrace -e '" BPFTRACE_TYPES BPFTRACE_PROBE "' -c '%s --updates 5'",
			    self_exe));
	out = client_out();
	if (!gate_on) {
		ASSERT_NE(0, rc) TH_LOG("%s", out);
		ASSERT_NE(NULL, strstr(out, "tracepoint not found: bpf:bpf_map_update_elem"))
			TH_LOG("%s", out);
		TH_LOG("bpftrace on the off kernel: %.*s", (int)strcspn(out, "\n"), out);
		return;
	}
	ASSERT_EQ(0, rc) TH_LOG("%s", out);
	id = value_after(out, "map id ");
	ASSERT_LT(0, id) TH_LOG("%s", out);
	EXPECT_EQ(5, value_after(out, "@updates: ")) TH_LOG("%s", out);
	EXPECT_EQ(id, value_after(out, "@id: ")) TH_LOG("%s", out);
	EXPECT_EQ(value_after(out, " fd "), value_after(out, "@ufd: ")) TH_LOG("%s", out);
	EXPECT_LE(3, value_after(out, "@ufd: ")) TH_LOG("%s", out);
	snprintf(maps, sizeof(maps), "%s", strstr(out, "@") ?: out);
	for (nl = strchr(maps, '\n'); nl; nl = strchr(nl, '\n'))
		*nl = ' ';
	TH_LOG("bpftrace printed: %s", maps);
}

/*
 * Typed clients, as today's BPF tools attach: through the kernel's BTF.
 * On a kernel without it they skip, naming what is missing, and so they
 * do where the selftests' build had no BTF to build the typed object
 * against (VMLINUX_BTF). The rig's manifest holds them to ok on its BTF
 * kernel, so that a skip there fails the run.
 */
#define KERNEL_BTF	"/sys/kernel/btf/vmlinux"
#define TYPED_OBJ	"bpf_tracepoints_typed.bpf.o"
#define NO_BTF		"this kernel has no BTF (" KERNEL_BTF ": CONFIG_DEBUG_INFO_BTF is not set)"

static bool typed_ready(struct __test_metadata *_metadata)
{
	if (!client_ready(_metadata, NULL, NULL))
		return false;
	if (access(KERNEL_BTF, R_OK))
		SKIP(return false, "%s: tp_btf and CO-RE need it", NO_BTF);
	if (access(beside_self(TYPED_OBJ), R_OK))
		SKIP(return false, "%s was not built (the build had no VMLINUX_BTF)", TYPED_OBJ);
	return true;
}

/*
 * The typed object was built against this kernel's BTF, as a CO-RE
 * program's vmlinux.h is made: bpftool btf dump file KERNEL_BTF format c.
 */
TEST_F_TIMEOUT(clients, typed_object_built_against_this_kernel, 300)
{
	if (!typed_ready(_metadata))
		return;
	ASSERT_EQ(0, access(beside_self("vmlinux.h"), R_OK))
		TH_LOG("no vmlinux.h beside %s", TYPED_OBJ);
	ASSERT_EQ(0, run_client("bpftool btf dump file " KERNEL_BTF " format c"))
		TH_LOG("%s", client_out());
	/* CO-RE runs on another kernel all the same: that is no failure */
	if (system(fmt("cmp -s %s/client.out %s", tmpdir, beside_self("vmlinux.h"))))
		SKIP(return, "%s was built against another kernel's BTF", TYPED_OBJ);
}

/* The whole line of @text that holds @needle (a copy), or "" */
static const char *whole_line(const char *text, const char *needle)
{
	static char line[LINE_MAX_LEN];
	const char *at = text ? strstr(text, needle) : NULL, *start = at;

	if (!at)
		return "";
	while (start > text && start[-1] != '\n')
		start--;
	snprintf(line, sizeof(line), "%.*s", (int)strcspn(start, "\n"), start);
	return line;
}

/* "SEC EVENT hits H id ID ufd FD key_size KS value_size VS name NAME ..." */
struct typed_seen {
	unsigned long long hits, value;
	unsigned int id, key_size, value_size, key;
	int ufd;
	char name[32];
};

static int typed_seen(const char *out, const char *how, const char *event,
		      struct typed_seen *s)
{
	const char *at = strstr(out, fmt("%s %s hits ", how, event));

	int n;

	memset(s, 0, sizeof(*s));
	if (!at)
		return -1;
	n = sscanf(strstr(at, "hits "),
		   "hits %llu id %u ufd %d key_size %u value_size %u name %31s key %u value %llx",
		   &s->hits, &s->id, &s->ufd, &s->key_size, &s->value_size, s->name,
		   &s->key, &s->value);
	return n;
}

/*
 * tp_btf and raw_tp programs (CO-RE, built against vmlinux.h) on
 * bpf_map_create and bpf_map_update_elem read the events' arguments, the
 * struct bpf_map and the kernel's copies of key and value: what each saw
 * is what the tracefs records of the same calls say.
 */
TEST_F_TIMEOUT(clients, typed_tp_btf_and_raw_tp, 300)
{
	unsigned int id = 0, key = 0;
	unsigned long long value = 0;
	struct event_match create, update;
	struct typed_seen btf_create, raw_create, btf_update;
	char *trace, *out;
	int fd = -1, pid = -1, rc;

	if (!typed_ready(_metadata))
		return;
	ASSERT_EQ(0, tp_begin("bpf_map_create,bpf_map_update_elem"));
	rc = run_client(fmt("%s %s --typed", beside_self(CLIENT_LOADER), beside_self(TYPED_OBJ)));
	trace = trace_copy(_metadata);
	out = strdup(client_out());
	if (!gate_on) {
		/* no btf_trace_bpf_map_create in the BTF: the load fails */
		ASSERT_NE(0, rc) TH_LOG("%s", out);
		TH_LOG("the typed object on the off kernel: %.*s", (int)strcspn(out, "\n"), out);
		return;
	}
	ASSERT_EQ(0, rc) TH_LOG("%s", out);
	rc = sscanf(out, "pid %d", &pid);
	ASSERT_EQ(1, rc) TH_LOG("%s", out);
	rc = sscanf(strstr(out, "made map ") ?: "", "made map id %u fd %d key %u value %llx",
		    &id, &fd, &key, &value);
	ASSERT_EQ(4, rc) TH_LOG("%s", out);
	create = match_event(trace, "bpf_map_create",
			     fmt("map type=ARRAY ufd=%d key=4 val=8 max=4 flags=0 id=%u name=tp_typed",
				 fd, id));
	update = match_event(trace, "bpf_map_update_elem",
			     fmt("map type=ARRAY ufd=%d key=[%s] val=[%s] id=%u name=tp_typed",
				 fd, hex(&key, 4), hex(&value, 8), id));
	EXPECT_EQ(1, create.count) TH_LOG("%s--- trace:\n%s", out, trace);
	EXPECT_EQ(pid, create.pid);
	EXPECT_EQ(1, update.count) TH_LOG("%s--- trace:\n%s", out, trace);
	EXPECT_EQ(pid, update.pid);

	ASSERT_EQ(6, typed_seen(out, "tp_btf", "bpf_map_create", &btf_create)) TH_LOG("%s", out);
	ASSERT_EQ(6, typed_seen(out, "raw_tp", "bpf_map_create", &raw_create)) TH_LOG("%s", out);
	ASSERT_EQ(8, typed_seen(out, "tp_btf", "bpf_map_update_elem", &btf_update))
		TH_LOG("%s", out);
	/* each program ran once, on the call the records are of */
	EXPECT_EQ(1, btf_create.hits) TH_LOG("%s", out);
	EXPECT_EQ(1, raw_create.hits) TH_LOG("%s", out);
	EXPECT_EQ(1, btf_update.hits) TH_LOG("%s", out);
	EXPECT_EQ(id, btf_create.id);
	EXPECT_EQ(id, raw_create.id);
	EXPECT_EQ(id, btf_update.id);
	EXPECT_EQ(fd, btf_create.ufd);
	EXPECT_EQ(fd, raw_create.ufd);
	EXPECT_EQ(fd, btf_update.ufd);
	EXPECT_STREQ("tp_typed", btf_create.name);
	EXPECT_STREQ("tp_typed", raw_create.name);
	EXPECT_STREQ("tp_typed", btf_update.name);
	EXPECT_EQ(4, btf_create.key_size);
	EXPECT_EQ(8, btf_create.value_size);
	EXPECT_EQ(4, raw_create.key_size);
	EXPECT_EQ(8, raw_create.value_size);
	EXPECT_EQ(4, btf_update.key_size);
	/* the kernel's copies of key and value, as the record printed them */
	EXPECT_EQ(key, btf_update.key);
	EXPECT_EQ(value, btf_update.value);
	EXPECT_EQ(8, btf_update.value_size);
	/* side by side: each program's line under the record of the same call */
	TH_LOG("%s", whole_line(trace, fmt(" bpf_map_create: map type=ARRAY ufd=%d ", fd)));
	TH_LOG("%s", whole_line(out, "tp_btf bpf_map_create "));
	TH_LOG("%s", whole_line(out, "raw_tp bpf_map_create "));
	TH_LOG("%s", whole_line(trace, fmt(" bpf_map_update_elem: map type=ARRAY ufd=%d ", fd)));
	TH_LOG("%s", whole_line(out, "tp_btf bpf_map_update_elem "));
	free(out);
	free(trace);
}

/* @text's lines joined by spaces (a copy), for one log line */
static const char *one_line(const char *text)
{
	static char buf[LINE_MAX_LEN];
	char *nl;

	snprintf(buf, sizeof(buf), "%s", text);
	for (nl = strchr(buf, '\n'); nl; nl = strchr(nl, '\n'))
		*nl = ' ';
	return buf;
}

/*
 * Runs bpftrace's @script around 5 updates of one array map, on a kernel
 * with BTF, and holds its maps @<prefix>updates, @<prefix>id and
 * @<prefix>ufd to the workload's. Returns bpftrace's output, or NULL
 * where the test ends: a skip (no BTF, a bpftrace that does not know the
 * probe type), the off kernel (bpftrace must refuse), a failure.
 */
static const char *bpftrace_updates(struct __test_metadata *_metadata, const char *script,
				    const char *prefix)
{
	const char *out;
	long long id;
	int rc;

	if (!client_ready(_metadata, "bpftrace", "bpftrace --version"))
		return NULL;
	if (access(KERNEL_BTF, R_OK))
		SKIP(return NULL, "%s: bpftrace needs it for the kernel's types", NO_BTF);
	rc = run_client(fmt("bpftrace -e '%s' -c '%s --updates 5'", script, self_exe));
	out = client_out();
	if (rc && (strstr(out, "Invalid probe type") || strstr(out, "Unknown probe type") ||
		   strstr(out, "Invalid provider")))
		SKIP(return NULL, "this bpftrace does not know the probe type: %.*s",
		     (int)strcspn(out, "\n"), out);
	if (!gate_on) {
		EXPECT_NE(0, rc) TH_LOG("%s", out);
		return NULL;
	}
	EXPECT_EQ(0, rc) TH_LOG("%s", out);
	id = value_after(out, "map id ");
	EXPECT_LT(0, id) TH_LOG("%s", out);
	if (rc || id <= 0)
		return NULL;
	EXPECT_EQ(5, value_after(out, fmt("@%supdates: ", prefix))) TH_LOG("%s", out);
	EXPECT_EQ(id, value_after(out, fmt("@%sid: ", prefix))) TH_LOG("%s", out);
	EXPECT_EQ(value_after(out, " fd "), value_after(out, fmt("@%sufd: ", prefix)))
		TH_LOG("%s", out);
	TH_LOG("bpftrace printed: %s", one_line(strstr(out, "@") ?: out));
	return out;
}

/*
 * bpftrace as it runs where BTF is: tracepoint:bpf:* fields with no
 * #define (bpftrace resolves u32 and bool from the BTF).
 */
TEST_F_TIMEOUT(clients, bpftrace_typed, 600)
{
	bpftrace_updates(_metadata, "tracepoint:bpf:bpf_map_update_elem /pid == cpid/ "
			 "{ @updates = count(); @id = args->id; @ufd = args->ufd; }", "");
}

/*
 * bpftrace's rawtracepoint:bpf_map_update_elem, the struct bpf_map and
 * the kernel's copy of the value read through casts to the BTF's types.
 * A bpftrace that has no rawtracepoint probes (Debian 12's 0.17 has
 * none) refuses the probe type: a skip that names it.
 */
TEST_F_TIMEOUT(clients, bpftrace_rawtracepoint_typed, 600)
{
	const char *out = bpftrace_updates(_metadata, "rawtracepoint:bpf_map_update_elem "
					   "/pid == cpid/ { @raw_updates = count(); "
					   "@raw_id = ((struct bpf_map *)arg0)->id; @raw_ufd = arg1; "
					   "@raw_val = *(uint64 *)arg3; }", "raw_");

	/* the last update's value (map_updates() writes 0 to 4) */
	if (out)
		EXPECT_EQ(4, value_after(out, "@raw_val: ")) TH_LOG("%s", out);
}

/*
 * "Why not fentry/fexit": the kernel function nearest each event, as
 * bpf_tracepoints_libbpf --fentry reports it (kallsyms, ftrace, BTF, an
 * fexit program attached for real, the prototype: what it could see).
 * docs/clients.md holds the table this prints, and what it means.
 */
static const char *const nearest_functions[] = {
	"map_create", "bpf_map_new_fd", "bpf_map_free_deferred", "bpf_map_put",
	"bpf_prog_load", "bpf_prog_new_fd", "bpf_prog_get_type_dev", "__bpf_prog_put_rcu",
	"bpf_prog_put", "map_lookup_elem", "bpf_map_copy_value", "map_update_elem",
	"bpf_map_update_value", "map_delete_elem", "map_get_next_key",
	"map_lookup_and_delete_elem", "bpf_map_do_batch", "generic_map_lookup_batch",
	"generic_map_update_batch", "generic_map_delete_batch", "map_freeze",
	"bpf_obj_pin_user", "bpf_obj_get_user", "bpf_btf_load", "btf_new_fd", "btf_free_rcu",
	"btf_put", "link_create", "bpf_link_settle", "link_update", "link_detach",
	"bpf_link_free", "bpf_prog_attach", "bpf_prog_detach", "bpf_prog_test_run",
	"bpf_iter_new_fd", "bpf_token_create", "__sys_bpf",
};

TEST_F_TIMEOUT(clients, fexit_beside_the_events, 300)
{
	size_t i, j, len = 0;
	char *out = NULL;

	if (!client_ready(_metadata, NULL, NULL))
		return;
	if (access(KERNEL_BTF, R_OK))
		SKIP(return, "%s: fentry and fexit need it", NO_BTF);
	/* a few at a time: a command line stays within fmt()'s lines */
	for (i = 0; i < ARRAY_SIZE(nearest_functions); i += 4) {
		char cmd[LINE_MAX_LEN / 2];
		const char *got;
		size_t n;

		n = snprintf(cmd, sizeof(cmd), "%s --fentry", beside_self(CLIENT_LOADER));
		for (j = i; j < i + 4 && j < ARRAY_SIZE(nearest_functions); j++)
			n += snprintf(cmd + n, sizeof(cmd) - n, " %s", nearest_functions[j]);
		ASSERT_GT(sizeof(cmd), n);
		ASSERT_EQ(0, run_client(cmd)) TH_LOG("%s", client_out());
		got = client_out();
		out = realloc(out, len + strlen(got) + 1);
		ASSERT_NE(NULL, out);
		memcpy(out + len, got, strlen(got) + 1);
		len += strlen(got);
	}
	for (i = 0; i < ARRAY_SIZE(nearest_functions); i++) {
		const char *at = strstr(out, fmt("fentry %s symbol ", nearest_functions[i]));
		char line[LINE_MAX_LEN], sym[64], ftrace[8], btf[8], attach[64];
		int n;

		EXPECT_NE(NULL, at) TH_LOG("no line for %s:\n%s", nearest_functions[i], out);
		if (!at)
			continue;
		snprintf(line, sizeof(line), "%.*s", (int)strcspn(at, "\n"), at);
		TH_LOG("%s", line);
		n = sscanf(strstr(line, " symbol ") ?: "", " symbol %63s ftrace %7s btf %7s attach %63[^:]",
			   sym, ftrace, btf, attach);
		if (!strcmp(sym, "clone"))	/* "clone NAME": one word more */
			n = sscanf(strstr(line, " ftrace ") ?: "", " ftrace %7s btf %7s attach %63[^:]",
				   ftrace, btf, attach) + 1;
		EXPECT_EQ(4, n) TH_LOG("%s", line);
		/* the sources agree: no symbol, no ftrace entry nor BTF FUNC */
		if (!strcmp(sym, "-"))
			EXPECT_TRUE(!strcmp(ftrace, "no") && !strcmp(btf, "-")) TH_LOG("%s", line);
		/* where ftrace and BTF both have it, fexit attaches */
		if (!strcmp(ftrace, "yes") && !strcmp(btf, "yes"))
			EXPECT_STREQ("ok", attach) TH_LOG("%s", line);
	}
	/* a global function ftrace can patch: fexit must attach there */
	EXPECT_NE(NULL, strstr(out, "fentry bpf_map_new_fd symbol T ftrace yes btf yes attach ok"))
		TH_LOG("%s", out);
	free(out);
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
	if (argc == 3 && !strcmp(argv[1], "--big-values"))
		return big_values(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "--updates"))
		return map_updates(atoi(argv[2]));
	if (argc == 4 && !strcmp(argv[1], "--sock-example"))
		return sock_example(atoi(argv[2]), argv[3]);
	bpf_tracepoints_host_setup();
	bpf_tracepoints_instance();
	gate_expected = getenv("BPF_TRACEPOINTS_EXPECT");
	gate_on = expect_gate_on();
	return test_harness_run(argc, argv);
}
