/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the bpf_tracepoints tests and the stress run share: the events, the
 * side of the gate to expect, tracefs files, and raw bpf(2) commands that
 * return what the syscall returned.
 */
#ifndef BPF_TRACEPOINTS_H
#define BPF_TRACEPOINTS_H

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <linux/bpf.h>

#include "../kselftest.h"

#define TRACEFS		"/sys/kernel/tracing"
#define BPFFS		"/sys/fs/bpf"

static const char * const bpf_events[] = {
	"bpf_map_create", "bpf_prog_load", "bpf_prog_get_type",
	"bpf_prog_put_rcu", "bpf_map_lookup_elem", "bpf_map_update_elem",
	"bpf_map_delete_elem", "bpf_map_next_key",
	"bpf_map_lookup_and_delete_elem", "bpf_map_lookup_batch",
	"bpf_map_lookup_and_delete_batch", "bpf_map_update_batch",
	"bpf_map_delete_batch", "bpf_map_freeze", "bpf_obj_pin_prog",
	"bpf_obj_get_prog", "bpf_obj_pin_map", "bpf_obj_get_map",
	"bpf_obj_pin_link", "bpf_obj_get_link",
	/* the lifecycles of BTF, maps and links, attachments, test runs */
	"bpf_map_free", "bpf_btf_load", "bpf_btf_free", "bpf_link_create",
	"bpf_link_update", "bpf_link_detach", "bpf_link_free",
	"bpf_prog_attach", "bpf_prog_detach", "bpf_prog_test_run",
	"bpf_iter_create",
	/* failures */
	"bpf_cmd_refused", "bpf_map_create_fail", "bpf_prog_load_fail",
	"bpf_map_batch_fail", "bpf_cmd_fail",
};

#define NR_BPF_EVENTS	ARRAY_SIZE(bpf_events)

enum gate { GATE_UNKNOWN, GATE_ON, GATE_OFF };

static inline int sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(__NR_bpf, cmd, attr, sizeof(*attr));
}

#define BPF_TOKEN_CREATE_CMD	36	/* BPF_TOKEN_CREATE: not in 6.1's header */

/*
 * Whether bpf(2) has BPF_TOKEN_CREATE, asked of the kernel, not of its
 * version (a backport has it early): with no bpffs fd it fails on the
 * fd (EBADF), and where the command is unknown with EINVAL.
 */
static inline bool has_token_create(void)
{
	struct { __u32 flags, bpffs_fd; } token = { 0, -1U };
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	memcpy(&attr, &token, sizeof(token));
	return sys_bpf(BPF_TOKEN_CREATE_CMD, &attr) < 0 && errno == EBADF;
}

/*
 * Events of commands an older kernel does not have, with the release
 * that brought the command (the header has the event where the tree has
 * the command: scripts/check-docs.sh reads the release) and the probe
 * that asks the running kernel for it.
 */
static const struct {
	const char *event, *release;
	bool (*present)(void);
} bpf_events_since[] = {
	{ "bpf_token_create", "6.9", has_token_create },
};

static inline bool path_exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

/*
 * The running kernel's config (/proc/config.gz, CONFIG_IKCONFIG_PROC),
 * as text the caller frees; NULL without one or if zcat fails.
 */
static inline char *kernel_config(void)
{
	size_t len = 0, size = 1 << 20;
	char *config;
	FILE *f;

	if (!path_exists("/proc/config.gz"))
		return NULL;
	config = malloc(size);
	f = popen("zcat /proc/config.gz", "r");
	if (!config || !f) {
		free(config);
		if (f)
			pclose(f);
		return NULL;
	}
	while (len < size - 1 && fgets(config + len, size - len, f))
		len += strlen(config + len);
	if (pclose(f)) {
		free(config);
		return NULL;
	}
	return config;
}

/* Whether @config has @line ("CONFIG_X=y"), a whole line of its own. */
static inline bool config_has_line(const char *config, const char *line)
{
	size_t len = strlen(line);
	const char *at;

	for (at = strstr(config, line); at; at = strstr(at + 1, line))
		if ((at == config || at[-1] == '\n') && (at[len] == '\n' || !at[len]))
			return true;
	return false;
}

static inline enum gate gate_from_config(void)
{
	const char *env = getenv("BPF_TRACEPOINTS_EXPECT");
	enum gate gate;
	char *config;

	if (env && !strcmp(env, "on"))
		return GATE_ON;
	if (env && !strcmp(env, "off"))
		return GATE_OFF;
	config = kernel_config();
	if (!config)
		return GATE_UNKNOWN;
	/* Absent from the config: its dependencies are off, so is the gate. */
	gate = config_has_line(config, "CONFIG_BPF_LOW_LEVEL_TRACEPOINTS=y") ? GATE_ON : GATE_OFF;
	free(config);
	return gate;
}

/* The side of the gate this kernel was built with. */
static inline bool expect_gate_on(void)
{
	enum gate gate = gate_from_config();

	if (gate != GATE_UNKNOWN)
		return gate == GATE_ON;
	fprintf(stderr,
		"# neither BPF_TRACEPOINTS_EXPECT nor /proc/config.gz: inferring from tracefs\n");
	return path_exists(TRACEFS "/events/bpf/bpf_map_create");
}

/* Runs the calling thread on @cpu alone (callers define _GNU_SOURCE). */
static inline int pin_to_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

static inline int write_file(const char *path, const char *val)
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

/* Reads a whole file into @buf (NUL-terminated); NULL if it cannot. */
static inline char *read_into(const char *path, char *buf, size_t size)
{
	size_t len = 0;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return NULL;
	while (len < size - 1 && (n = read(fd, buf + len, size - 1 - len)) > 0)
		len += n;
	close(fd);
	buf[len] = '\0';
	return buf;
}

/*
 * Where the program traces: tracefs itself (the stress and bench programs,
 * whose point is the global switches), or an instance of its own
 * (bpf_tracepoints_instance(): the tests).
 */
static char tracing_dir[128] = TRACEFS;

/* @file of the buffer the program traces into ("trace", "set_event"...) */
static inline const char *tracing(const char *file)
{
	static char bufs[4][PATH_MAX];
	static int next;
	char *buf = bufs[next++ % 4];

	snprintf(buf, PATH_MAX, "%s/%s", tracing_dir, file);
	return buf;
}

/*
 * Host safety, first in main(). The programs need root and tracefs:
 * without them the run exits KSFT_SKIP, saying which. They run in a
 * network and a mount namespace of their own, so that their veth pair,
 * the lo they attach to and the bpffs they pin in go with them. The
 * tests trace in an instance of their own (bpf_tracepoints_instance());
 * the stress and bench programs in tracefs itself, and put back at exit
 * what they change there (bpf_tracepoints_save_tracefs()).
 */
static char tracefs_saved_on[8], tracefs_saved_kb[32], tracefs_saved_events[65536];
static char tracefs_saved_clock[512];

static inline void tracefs_put_back(void)
{
	char *ev, *save;
	int fd;

	write_file(TRACEFS "/tracing_on", "0");
	write_file(TRACEFS "/set_event", "");
	fd = open(TRACEFS "/set_event", O_WRONLY | O_APPEND);
	for (ev = strtok_r(tracefs_saved_events, "\n", &save); fd >= 0 && ev;
	     ev = strtok_r(NULL, "\n", &save))
		if (write(fd, ev, strlen(ev)) < 0)
			fprintf(stderr, "# could not enable %s again: %s\n", ev, strerror(errno));
	if (fd >= 0)
		close(fd);
	if (tracefs_saved_kb[0])
		write_file(TRACEFS "/buffer_size_kb", tracefs_saved_kb);
	if (tracefs_saved_clock[0])
		write_file(TRACEFS "/trace_clock", tracefs_saved_clock);
	write_file(TRACEFS "/tracing_on", tracefs_saved_on);
}

/* The clock in use, of trace_clock's list: "local" of "[local] global ...". */
static inline void tracefs_parse_clock(char *clock)
{
	char *open = strchr(clock, '['), *close = open ? strchr(open, ']') : NULL;

	if (!close) {
		clock[0] = '\0';
		return;
	}
	*close = '\0';
	memmove(clock, open + 1, strlen(open + 1) + 1);
}

/* Sets @name up, as "ip link set @name up" does. */
static inline int link_up(const char *name)
{
	struct ifreq ifr = {};
	int sk = socket(AF_INET, SOCK_DGRAM, 0), ret;

	if (sk < 0)
		return -errno;
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", name);
	ret = ioctl(sk, SIOCGIFFLAGS, &ifr);
	ifr.ifr_flags |= IFF_UP;
	if (!ret)
		ret = ioctl(sk, SIOCSIFFLAGS, &ifr);
	close(sk);
	return ret ? -errno : 0;
}

/*
 * The buffer size to put back, from buffer_size_kb as read: "1408", or
 * "7 (expanded: 1408)" for a buffer not yet allocated in full. "X" (CPUs
 * of different sizes) cannot be written back as one number: none.
 */
static inline void tracefs_parse_kb(char *kb)
{
	char *expanded = strstr(kb, "(expanded: ");

	if (expanded)
		memmove(kb, expanded + strlen("(expanded: "), strlen(expanded) + 1);
	kb[strspn(kb, "0123456789")] = '\0';
}

static inline void bpf_tracepoints_host_setup(void)
{
	/*
	 * A line at a time, also into the runner's pipe: a test's child
	 * leaves with _exit(), which would drop what stdio still holds.
	 */
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (geteuid() != 0)
		ksft_exit_skip("bpf_tracepoints needs root: bpf(2) and tracefs\n");
	if (unshare(CLONE_NEWNET | CLONE_NEWNS) ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) || link_up("lo"))
		ksft_exit_fail_msg("network and mount namespaces of its own: %s (CONFIG_NET_NS)\n",
				   strerror(errno));
	if (!path_exists(TRACEFS "/trace") &&
	    mount("tracefs", TRACEFS, "tracefs", 0, NULL))
		ksft_exit_skip("no tracefs at " TRACEFS " (CONFIG_FTRACE)\n");
}

/*
 * For the programs that trace in tracefs itself: what they change there
 * (tracing_on, the enabled events, the buffer size, the clock) is put
 * back at exit.
 */
static inline void bpf_tracepoints_save_tracefs(void)
{
	if (!read_into(TRACEFS "/tracing_on", tracefs_saved_on, sizeof(tracefs_saved_on)) ||
	    !read_into(TRACEFS "/set_event", tracefs_saved_events, sizeof(tracefs_saved_events)))
		ksft_exit_fail_msg("cannot read " TRACEFS "/tracing_on and set_event\n");
	if (strlen(tracefs_saved_events) == sizeof(tracefs_saved_events) - 1)
		ksft_exit_fail_msg("more events enabled than this test can put back\n");
	if (read_into(TRACEFS "/buffer_size_kb", tracefs_saved_kb, sizeof(tracefs_saved_kb)))
		tracefs_parse_kb(tracefs_saved_kb);
	if (read_into(TRACEFS "/trace_clock", tracefs_saved_clock, sizeof(tracefs_saved_clock)))
		tracefs_parse_clock(tracefs_saved_clock);
	atexit(tracefs_put_back);
}

static inline void tracing_instance_remove(void)
{
	if (rmdir(tracing_dir))
		fprintf(stderr, "# could not remove %s: %s\n", tracing_dir, strerror(errno));
}

/*
 * The tests trace into a tracefs instance of their own,
 * instances/bpf_tracepoints-PID, made here and removed at exit: its
 * buffer, enabled events, clock and tracing_on are theirs, and no
 * tracer's of the machine nor any global setting is touched. (Enabling
 * an event in it still turns the event's static key on for all.)
 */
static inline void bpf_tracepoints_instance(void)
{
	snprintf(tracing_dir, sizeof(tracing_dir), TRACEFS "/instances/bpf_tracepoints-%d",
		 (int)getpid());
	static const char * const options[] = {
		/* the columns the tests read, whatever the machine's defaults */
		"options/irq-info=1", "options/context-info=1", "options/latency-format=0",
		"options/markers=1", "options/overwrite=1", "buffer_size_kb=4096",
	};
	char file[64];
	size_t i;

	if (mkdir(tracing_dir, 0700))
		ksft_exit_fail_msg("cannot make the tracefs instance %s: %s\n", tracing_dir,
				   strerror(errno));
	atexit(tracing_instance_remove);
	/* an instance starts with the machine's trace options */
	for (i = 0; i < ARRAY_SIZE(options); i++) {
		snprintf(file, sizeof(file), "%.*s", (int)strcspn(options[i], "="), options[i]);
		if (write_file(tracing(file), strchr(options[i], '=') + 1))
			ksft_exit_fail_msg("cannot set %s in %s\n", options[i], tracing_dir);
	}
}

/* bpf(2) commands, each returning what the syscall returned. */

static inline int sys_map_create_named(const char *name, __u32 type, __u32 key,
				       __u32 val, __u32 max, __u32 flags)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.map_type = type;
	attr.key_size = key;
	attr.value_size = val;
	attr.max_entries = max;
	attr.map_flags = flags;
	memcpy(attr.map_name, name, strnlen(name, sizeof(attr.map_name) - 1));
	return sys_bpf(BPF_MAP_CREATE, &attr);
}

static inline int sys_map_elem(int cmd, int fd, const void *key, void *val, __u64 flags)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.map_fd = fd;
	attr.key = (__u64)(unsigned long)key;
	attr.value = (__u64)(unsigned long)val;
	attr.flags = flags;
	return sys_bpf(cmd, &attr);
}

static inline int sys_map_next_key(int fd, const void *key, void *next)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.map_fd = fd;
	attr.key = (__u64)(unsigned long)key;
	attr.next_key = (__u64)(unsigned long)next;
	return sys_bpf(BPF_MAP_GET_NEXT_KEY, &attr);
}

static inline int sys_map_batch(int cmd, int fd, void *keys, void *vals, __u32 *count, __u64 flags)
{
	union bpf_attr attr;
	__u64 out_batch = 0;
	int ret;

	memset(&attr, 0, sizeof(attr));
	attr.batch.map_fd = fd;
	attr.batch.keys = (__u64)(unsigned long)keys;
	attr.batch.values = (__u64)(unsigned long)vals;
	attr.batch.count = *count;
	attr.batch.elem_flags = flags;
	if (cmd == BPF_MAP_LOOKUP_BATCH || cmd == BPF_MAP_LOOKUP_AND_DELETE_BATCH)
		attr.batch.out_batch = (__u64)(unsigned long)&out_batch;
	ret = sys_bpf(cmd, &attr);
	*count = attr.batch.count;
	return ret;
}

static inline int sys_map_freeze(int fd)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.map_fd = fd;
	return sys_bpf(BPF_MAP_FREEZE, &attr);
}

/* A load's attributes: @insns, GPL, named @name (cut at 15 bytes) */
static inline void prog_load_attr(union bpf_attr *attr, const char *name, __u32 type,
				  const struct bpf_insn *insns, __u32 cnt)
{
	memset(attr, 0, sizeof(*attr));
	attr->prog_type = type;
	attr->insns = (__u64)(unsigned long)insns;
	attr->insn_cnt = cnt;
	attr->license = (__u64)(unsigned long)"GPL";
	memcpy(attr->prog_name, name, strnlen(name, sizeof(attr->prog_name) - 1));
}

static inline int sys_prog_load_insns(const char *name, __u32 type,
				      const struct bpf_insn *insns, __u32 cnt)
{
	union bpf_attr attr;

	prog_load_attr(&attr, name, type, insns, cnt);
	return sys_bpf(BPF_PROG_LOAD, &attr);
}

/* r0 = @ret; exit */
static inline int sys_prog_load_named(const char *name, __u32 type, int ret,
				      __u32 cnt)
{
	struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = ret },
		{ .code = BPF_JMP | BPF_EXIT },
	};

	return sys_prog_load_insns(name, type, insns, cnt);
}

static inline int sys_obj_pin(int fd, const char *path)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.bpf_fd = fd;
	attr.pathname = (__u64)(unsigned long)path;
	return sys_bpf(BPF_OBJ_PIN, &attr);
}

static inline int sys_obj_get(const char *path)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.pathname = (__u64)(unsigned long)path;
	return sys_bpf(BPF_OBJ_GET, &attr);
}

static inline int bpffs_ready(void)
{
	if (!path_exists(BPFFS))
		mkdir(BPFFS, 0755);
	if (mount("bpf", BPFFS, "bpf", 0, NULL) && errno != EBUSY)
		return -errno;
	return 0;
}

static inline long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/*
 * Sum of a per-CPU ring buffer counter ("bytes:", "entries:") over all
 * CPUs, of the buffer the program traces into.
 */
static inline long long ring_counter(const char *name)
{
	char path[PATH_MAX], line[128];
	long long sum = 0, v;
	int cpu;
	FILE *f;

	for (cpu = 0; cpu < 64; cpu++) {
		snprintf(path, sizeof(path), "%s/per_cpu/cpu%d/stats", tracing_dir, cpu);
		f = fopen(path, "r");
		if (!f)
			break;
		while (fgets(line, sizeof(line), f))
			if (!strncmp(line, name, strlen(name)) &&
			    sscanf(line + strlen(name), "%lld", &v) == 1)
				sum += v;
		fclose(f);
	}
	return sum;
}

#endif /* BPF_TRACEPOINTS_H */
