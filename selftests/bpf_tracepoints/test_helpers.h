/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the bpf_tracepoints test programs share, one program per topic (a
 * file per topic, as tools/testing/selftests/bpf/prog_tests/ has): tracing
 * into the program's own tracefs instance and reading back the lines that
 * are the test's own, the bpf(2) commands the tests issue, and what the
 * events must print of the maps and programs they make.
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
 *
 * A topic is a program of its own, a *_test.c each, as other suites on
 * the harness have them: kselftest_harness.h keeps a program's tests in
 * static lists, so the files cannot be linked into one program as
 * prog_tests/ are into test_progs. Each program is one translation unit
 * (bpf_tracepoints.h's tracing_dir, the program's instance, is one per
 * unit), and the helpers are static inline, as in bpf_tracepoints.h, so
 * that a program that uses a few draws no warning for the rest. The
 * includer defines _GNU_SOURCE first; EXPECT_EVENT(), EXPECT_NO_EVENT()
 * and TP_BEGIN() need kselftest_harness.h (which bpf_tracepoints_workload,
 * a program but not a test, does without).
 */
#ifndef TEST_HELPERS_H
#define TEST_HELPERS_H

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
#include <sys/utsname.h>
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
#include "bpf_tracepoints.h"

#define TRACE_BUF_SIZE	(1024 * 1024)
#define TRACE_BYTES	16	/* key and value bytes an event carries */
#define MAP_NAME	"tp_test_map"
#define PROG_NAME	"tp_test_prog"
#define LINE_MAX_LEN	512
/* the workloads the tools and clients tests run: bpf_tracepoints_workload.c */
#define WORKLOAD	"bpf_tracepoints_workload"

static bool gate_on;
/* BPF_TRACEPOINTS_EXPECT said which kernel this is */
static bool gate_expected;

/*
 * For a test that checks what the events print: on a kernel without them
 * that nobody said to expect (a CI config that lost the option), it skips
 * and says why, rather than pass on the off-side checks alone.
 */
#define OPTION_NOT_SET	"CONFIG_BPF_LOW_LEVEL_TRACEPOINTS is not set"

static inline bool events_absent_unexpected(void)
{
	return !gate_on && !gate_expected;
}

/*
 * Whether @tool is installed (found in PATH, executable). A tool that is
 * installed but does not run (a missing library: exit 127) is a failure
 * of the test that needs it, never a skip.
 */
static inline bool tool_installed(const char *tool)
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
static inline char *beside_self(const char *name)
{
	static char bufs[2][PATH_MAX];
	static int next;
	char *buf = bufs[next++ % 2];
	const char *slash = strrchr(self_exe, '/');

	snprintf(buf, PATH_MAX, "%.*s/%s", slash ? (int)(slash - self_exe) : 1,
		 slash ? self_exe : ".", name);
	return buf;
}

static inline char *read_file(const char *path)
{
	static char buf[TRACE_BUF_SIZE];

	return read_into(path, buf, sizeof(buf));
}

static inline int count_of(const char *text, const char *needle)
{
	int count = 0;

	while (text && (text = strstr(text, needle))) {
		count++;
		text += strlen(needle);
	}
	return count;
}

/* "06 00 00 00", with " ..." when the event cut the bytes at 16. */
static inline char *hex(const void *data, size_t len)
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
static inline int tp_begin(const char *events)
{
	char set[1024], path[PATH_MAX], *ev, *save;
	int ret;

	snprintf(set, sizeof(set), "%s", events);
	for (ev = strtok_r(set, ",", &save); ev; ev = strtok_r(NULL, ",", &save)) {
		/* another group's event (xdp:, syscalls:): not the gate's */
		if (strchr(ev, ':'))
			continue;
		snprintf(path, sizeof(path), TRACEFS "/events/bpf/%s", ev);
		if (path_exists(path) != gate_on)
			return -EEXIST;
	}
	if (!gate_on && !strchr(events, ':'))
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

		if (!gate_on && !strchr(ev, ':'))
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

static inline char *trace_read(void);

static inline char *tp_end(void)
{
	write_file(tracing("tracing_on"), "0");
	write_file(tracing("set_event"), "");
	return trace_read();
}

/* The pid in the task column ("comm-pid" or "<...>-pid") of @at's line. */
static inline pid_t task_pid(const char *trace, const char *at)
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
/* one more than owned[] holds: trace_read() then says so and fails */
static bool owned_cut;

static inline void tp_own(char kind, __u32 id)
{
	if (nr_owned < (int)ARRAY_SIZE(owned)) {
		owned[nr_owned].kind = kind;
		owned[nr_owned++].id = id;
	} else {
		owned_cut = true;
	}
}

static inline bool is_owned(char kind, __u32 id)
{
	int i;

	for (i = 0; i < nr_owned; i++)
		if (owned[i].kind == kind && owned[i].id == id)
			return true;
	return false;
}

/* The event's name of a trace line ("bpf_map_create"), into @name. */
static inline void line_event(const char *line, char *name, size_t size)
{
	const char *ev = strstr(line, ": ");

	snprintf(name, size, "%.*s", ev ? (int)strcspn(ev + 2, ":") : 0, ev ? ev + 2 : "");
}

/* The kind of object a trace line's " id=" is: from obj=, else its event's name. */
static inline char line_kind(const char *line)
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
static inline bool line_deferred(const char *line)
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
static inline long long line_field(const char *line, const char *field)
{
	const char *at = strstr(line, field);

	return at ? strtoll(at + strlen(field), NULL, 10) : -1;
}

/*
 * Whether @line was recorded in an interrupt (the third character of its
 * flags column, "..s.." or "d.h..": softirq, hardirq, NMI), where the
 * task column names whichever task the interrupt came upon.
 */
static inline bool line_in_irq(const char *line)
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
 * time, twice (the test's tasks and objects, then its lines). Where a
 * cap is met (the result's size, the tasks or objects it can follow) it
 * says which and returns NULL: no line is dropped unseen.
 */
static inline char *trace_read(void)
{
	static char out[TRACE_BUF_SIZE];
	static pid_t pids[1024];
	size_t len = 0, cap = 0;
	int nr_pids = 1, pass, i;
	const char *cut = NULL;
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

				for (i = 0; pass == 0 && i < nr_pids; i++) {
					if (pids[i] != parent)
						continue;
					if (nr_pids == (int)ARRAY_SIZE(pids))
						cut = "the test's tasks";
					else
						pids[nr_pids++] = child;
				}
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
			} else {
				cut = "the result's size";
			}
		}
		fclose(f);
	}
	free(line);
	if (owned_cut)
		cut = "the test's objects";
	if (cut) {
		ksft_print_msg("%s: more lines than %s allow: not read\n", __func__, cut);
		return NULL;
	}
	return out;
}

/*
 * The trace holds every line of @want (NULL-ended), waiting up to 30 s
 * for those an RCU callback or a workqueue writes after the loader exits
 * (the last puts of programs, of BTF with the maps that held it; lazy
 * RCU may hold a callback 10 s).
 */
static inline bool trace_gets(const char *const *want)
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

/*
 * The next line of *@pos holding both @a and @b (a copy, its newline with
 * it: a needle may end in one), or NULL; *@pos moves past it
 */
static inline char *next_line_with(const char **pos, const char *a, const char *b)
{
	const char *p = *pos;

	while (p && *p) {
		size_t len = strcspn(p, "\n") + (p[strcspn(p, "\n")] == '\n');
		char *line = strndup(p, len);

		p += len;
		if (line && strstr(line, a) && (!b || strstr(line, b))) {
			*pos = p;
			return line;
		}
		free(line);
	}
	*pos = p;
	return NULL;
}

/* The first line of @text holding both @a and @b (a copy), or NULL */
static inline char *line_of(const char *text, const char *a, const char *b)
{
	return next_line_with(&text, a, b);
}

static inline char *fmt(const char *f, ...)
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

static inline int make_tmpdir(void)
{
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/bpf_tracepoints.XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static inline int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(path);
}

static inline void remove_tmpdir(void)
{
	if (tmpdir[0])
		nftw(tmpdir, remove_entry, 8, FTW_DEPTH | FTW_PHYS);
	tmpdir[0] = '\0';
}

/* @name in the test's directory */
static inline const char *tmp_file(const char *name)
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
		const char *__at;					\
									\
		ASSERT_NE(NULL, __t);					\
		__at = strstr(__t, __l);				\
									\
		if (!__at || count_of(__t, __l) != 1)			\
			TH_LOG("want once: %s--- trace:\n%s", __l, __t); \
		ASSERT_NE(NULL, __at);					\
		ASSERT_EQ(1, count_of(__t, __l));			\
		ASSERT_EQ(' ', __at[-1]);				\
		ASSERT_EQ(getpid(), task_pid(__t, __at));		\
	}								\
} while (0)

/*
 * With the gate on, @trace holds no line of @event. A deferred event (a
 * free, a last put) is in @trace only for objects the test knows by id
 * (trace_read()): for one it never learned, count the instance's lines
 * by the object's name instead (progs_test.c, count_named_anywhere()).
 */
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

static inline int sys_map_create(__u32 type, __u32 key, __u32 val, __u32 max, __u32 flags)
{
	return sys_map_create_named(MAP_NAME, type, key, val, max, flags);
}

static inline int sys_prog_load_ret(__u32 type, int ret, __u32 cnt)
{
	return sys_prog_load_named(PROG_NAME, type, ret, cnt);
}

static inline int sys_prog_load(void)
{
	return sys_prog_load_ret(BPF_PROG_TYPE_SOCKET_FILTER, 0, 2);
}

/* The smallest BTF: one 4 byte int, "int" (45 bytes) */
static inline int sys_btf_load(__u32 *size)
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

static inline int sys_xdp_link_create(int prog_fd, int ifindex, __u32 flags)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.link_create.prog_fd = prog_fd;
	attr.link_create.target_ifindex = ifindex;
	attr.link_create.attach_type = BPF_XDP;
	attr.link_create.flags = flags;
	return sys_bpf(BPF_LINK_CREATE, &attr);
}

static inline int sys_link_create(int prog_fd, int target, __u32 attach_type)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.link_create.prog_fd = prog_fd;
	attr.link_create.target_fd = target;	/* target_ifindex too */
	attr.link_create.attach_type = attach_type;
	return sys_bpf(BPF_LINK_CREATE, &attr);
}

#define VMLINUX_BTF	"/sys/kernel/btf/vmlinux"

/*
 * The BTF id of the function @name in vmlinux's BTF, 0 if the kernel has
 * no BTF or no such function: a walk of the types, each kind's size as
 * include/uapi/linux/btf.h lays it out.
 */
static inline __u32 vmlinux_btf_func_id(const char *name)
{
	const struct btf_header *h;
	size_t len = 0, cap = 0;
	const char *p, *end, *strs;
	char *buf = NULL;
	__u32 id = 1, found = 0;
	ssize_t n;
	int fd;

	fd = open(VMLINUX_BTF, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	do {
		if (len == cap) {
			cap = cap ? 2 * cap : 1 << 22;
			buf = realloc(buf, cap);
			if (!buf)
				break;
		}
		n = read(fd, buf + len, cap - len);
		len += n > 0 ? n : 0;
	} while (n > 0);
	close(fd);
	if (!buf || len < sizeof(*h))
		goto out;
	h = (const struct btf_header *)buf;
	if (h->magic != BTF_MAGIC || h->hdr_len + h->str_off + h->str_len > len ||
	    h->hdr_len + h->type_off + h->type_len > len)
		goto out;
	p = buf + h->hdr_len + h->type_off;
	end = p + h->type_len;
	strs = buf + h->hdr_len + h->str_off;
	for (; p + sizeof(struct btf_type) <= end; id++) {
		const struct btf_type *t = (const struct btf_type *)p;
		__u32 vlen = BTF_INFO_VLEN(t->info);
		size_t size = sizeof(*t);

		switch (BTF_INFO_KIND(t->info)) {
		case BTF_KIND_INT:
			size += sizeof(__u32);
			break;
		case BTF_KIND_ARRAY:
			size += sizeof(struct btf_array);
			break;
		case BTF_KIND_STRUCT:
		case BTF_KIND_UNION:
			size += vlen * sizeof(struct btf_member);
			break;
		case BTF_KIND_ENUM:
			size += vlen * sizeof(struct btf_enum);
			break;
		case BTF_KIND_ENUM64:
			size += vlen * sizeof(struct btf_enum64);
			break;
		case BTF_KIND_FUNC_PROTO:
			size += vlen * sizeof(struct btf_param);
			break;
		case BTF_KIND_VAR:
			size += sizeof(struct btf_var);
			break;
		case BTF_KIND_DATASEC:
			size += vlen * sizeof(struct btf_var_secinfo);
			break;
		case BTF_KIND_DECL_TAG:
			size += sizeof(struct btf_decl_tag);
			break;
		default:	/* PTR, FWD, TYPEDEF, the modifiers, FUNC, FLOAT */
			break;
		}
		if (BTF_INFO_KIND(t->info) == BTF_KIND_FUNC && t->name_off < h->str_len &&
		    !strcmp(strs + t->name_off, name)) {
			found = id;
			break;
		}
		p += size;
	}
out:
	free(buf);
	return found;
}

static inline int sys_raw_tp_open(int prog_fd, const char *name)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.raw_tracepoint.name = (__u64)(unsigned long)name;
	attr.raw_tracepoint.prog_fd = prog_fd;
	return sys_bpf(BPF_RAW_TRACEPOINT_OPEN, &attr);
}

/* The tree a feature only 6.12 of the two has is missing from */
static inline bool kernel_is_6_1(void)
{
	struct utsname u;

	return !uname(&u) && !strncmp(u.release, "6.1.", 4);
}

static inline int sys_obj_info(int fd, void *info, __u32 len)
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

static inline const char *map_type_name(__u32 type)
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

static inline const char *prog_type_name(__u32 type)
{
	switch (type) {
	case BPF_PROG_TYPE_SOCKET_FILTER: return "SOCKET_FILTER";
	case BPF_PROG_TYPE_XDP: return "XDP";
	case BPF_PROG_TYPE_RAW_TRACEPOINT: return "RAW_TRACEPOINT";
	case BPF_PROG_TYPE_FLOW_DISSECTOR: return "FLOW_DISSECTOR";
	default: return "?";
	}
}

static inline int map_desc(int fd, struct map_desc *d)
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

static inline int prog_desc(int fd, struct prog_desc *d)
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
static inline char *map_head(const struct map_desc *m, int ufd)
{
	return fmt("map type=%s ufd=%d", m->type, ufd);
}

static inline char *map_tail(const struct map_desc *m)
{
	return fmt("id=%u name=%s", m->id, m->name);
}

static inline char *prog_line(const struct prog_desc *p)
{
	return fmt("prog=%s type=%s id=%u name=%s", p->tag, p->type, p->id, p->name);
}

#define FAIL_EVENTS \
	"bpf_cmd_refused,bpf_map_create_fail,bpf_prog_load_fail,bpf_map_batch_fail,bpf_cmd_fail"

/* The lines of @event in @trace that task @pid emitted */
static inline int count_of_pid(const char *trace, const char *event, pid_t pid)
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
static inline int fail_records_of(const char *trace, pid_t pid)
{
	return count_of_pid(trace, " bpf_map_create_fail: ", pid) +
	       count_of_pid(trace, " bpf_prog_load_fail: ", pid) +
	       count_of_pid(trace, " bpf_map_batch_fail: ", pid) +
	       count_of_pid(trace, " bpf_cmd_fail: ", pid);
}

/* The failure records of the test's own task */
static inline int fail_records(const char *trace)
{
	return fail_records_of(trace, getpid());
}

/*
 * First in a test program's main(): root, namespaces and tracefs
 * (bpf_tracepoints_host_setup()), the program's own tracefs instance, and
 * which side of the gate to expect.
 */
static inline void bpf_tracepoints_test_setup(void)
{
	static char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n > 0)
		exe[n] = '\0';
	self_exe = exe;
	bpf_tracepoints_host_setup();
	bpf_tracepoints_instance();
	gate_expected = getenv("BPF_TRACEPOINTS_EXPECT");
	gate_on = expect_gate_on();
}

#endif
