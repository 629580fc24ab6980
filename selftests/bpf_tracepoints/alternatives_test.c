// SPDX-License-Identifier: GPL-2.0
/*
 * The alternatives a maintainer would name instead of the events, each on
 * the same calls as the events (docs/alternatives.md has the rows):
 *
 *   fprobe events with BTF arguments	set with echo into dynamic_events
 *   BPF LSM programs			on the bpf(2) security hooks
 *   syscalls:sys_enter_bpf/sys_exit_bpf	every command and its return
 *   audit's AUDIT_BPF records		program loads and unloads
 *   perf's PERF_RECORD_BPF_EVENT	program loads and unloads
 *
 * Each test holds what its alternative showed to the kernel's own answer
 * (BPF_OBJ_GET_INFO_BY_FD, the syscall's return) and, where the events
 * are built, to the events' records of the same calls. They run where
 * the typed clients run, on a kernel with BTF, which fprobe's BTF
 * arguments and BPF LSM need; without BTF they skip, saying so. An
 * alternative the kernel lacks skips, naming its config option, but fails
 * where BPF_TRACEPOINTS_ALTERNATIVES=1 says the kernel was built with them
 * all (the rig's BTF guest, as defconfigs/btf builds it and boots it with
 * audit=1): FPROBE_EVENTS, PROBE_EVENTS_BTF_ARGS, BPF_LSM with bpf among
 * the active LSMs, FTRACE_SYSCALLS, AUDIT.
 */
#define _GNU_SOURCE
#include <linux/perf_event.h>
#include "../kselftest_harness.h"
#include "test_helpers.h"

#define KERNEL_BTF	"/sys/kernel/btf/vmlinux"
#define DYNAMIC_EVENTS	TRACEFS "/dynamic_events"
#define LSM_LOADER	"bpf_tracepoints_libbpf"
#define LSM_OBJ		"bpf_tracepoints_alt.bpf.o"
#define KEY_1		1u
#define VALUE_1		0x1122334455667788ULL
#define NO_BPF_LSM	"no bpf_lsm_bpf_map_create: CONFIG_BPF_LSM is not set (or before 6.9)"
#define NO_BTF_ARGS	"no fprobe event on map->id: CONFIG_PROBE_EVENTS_BTF_ARGS (6.6)"
/* the events of a map's life, beside each alternative's records */
#define MAP_EVENTS	"bpf_map_create,bpf_map_update_elem,bpf_map_free,bpf_map_create_fail"
#define SYS_BPF_EVENTS	"syscalls:sys_enter_bpf,syscalls:sys_exit_bpf"

/* the others' fixture: none but their timeout (a free can take 10 s) */
FIXTURE(alternatives) {
};

FIXTURE_SETUP(alternatives)
{
}

FIXTURE_TEARDOWN(alternatives)
{
}

static bool alternatives_ready(struct __test_metadata *_metadata)
{
	if (access(KERNEL_BTF, R_OK))
		SKIP(return false,
		     "no BTF (%s): the alternatives are measured on the kernel with BTF",
		     KERNEL_BTF);
	return true;
}

/*
 * Whether the alternative is there: if not, @missing names what it needs,
 * as a failure where the kernel was built with them all, else as a skip
 */
static bool alternative_present(struct __test_metadata *_metadata, bool present,
				const char *missing)
{
	const char *all = getenv("BPF_TRACEPOINTS_ALTERNATIVES");

	if (present)
		return true;
	ASSERT_FALSE(all && !strcmp(all, "1"))
		TH_LOG("%s, on a kernel built with the alternatives", missing);
	SKIP(return false, "%s", missing);
}

/* Whether the kernel command line has the word @word */
static bool cmdline_has(const char *word)
{
	const char *line = read_file("/proc/cmdline") ?: "";
	size_t len = strlen(word);
	const char *at;

	for (at = line; (at = strstr(at, word)); at += len)
		if ((at == line || at[-1] == ' ') && strchr("\n ", at[len]))
			return true;
	return false;
}

/* The trace of the test's instance, every task's lines (kworkers' too) */
static char *instance_trace(void)
{
	char *trace = read_file(tracing("trace"));

	return trace ? strdup(trace) : NULL;
}

/* The lines of @text holding both @a and @b, of task @pid alone if not 0 */
static int lines_of_task(const char *text, const char *a, const char *b, pid_t pid)
{
	char *line;
	int n = 0;

	while ((line = next_line_with(&text, a, b))) {
		n += !pid || task_pid(line, line) == pid;
		free(line);
	}
	return n;
}

static int lines_of(const char *text, const char *a, const char *b)
{
	return lines_of_task(text, a, b, 0);
}

/* The same, of the test's own task alone (another task may run bpf(2)) */
static int my_lines_of(const char *text, const char *a, const char *b)
{
	return lines_of_task(text, a, b, getpid());
}

/* Logs each line of @text holding @a and @b, as @who's */
static void log_lines(struct __test_metadata *_metadata, const char *who, const char *text,
		      const char *a, const char *b)
{
	char *line;

	while ((line = next_line_with(&text, a, b))) {
		TH_LOG("%s: %.*s", who, (int)strcspn(line, "\n"), line);
		free(line);
	}
}

/* "NAME=VALUE" of @line, the value as a string (static), or "" */
static const char *field_of(const char *line, const char *name)
{
	static char value[64];
	const char *at = line ? strstr(line, fmt(" %s=", name)) : NULL;

	value[0] = '\0';
	if (at)
		snprintf(value, sizeof(value), "%.*s", (int)strcspn(at + strlen(name) + 2, "\n "),
			 at + strlen(name) + 2);
	return value;
}

static int sys_map_get_fd_by_id(__u32 id)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.map_id = id;
	return sys_bpf(BPF_MAP_GET_FD_BY_ID, &attr);
}

/* Whether /proc/kallsyms has the symbol @name */
static bool kallsyms_has(const char *name)
{
	char line[512], sym[256];
	bool found = false;
	FILE *f = fopen("/proc/kallsyms", "r");

	while (f && !found && fgets(line, sizeof(line), f))
		found = sscanf(line, "%*s %*s %255s", sym) == 1 && !strcmp(sym, name);
	if (f)
		fclose(f);
	return found;
}

/* Appends @def to dynamic_events, as echo >> does; 0 or -errno */
static int dynamic_event(const char *def)
{
	int fd = open(DYNAMIC_EVENTS, O_WRONLY | O_APPEND), ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, def, strlen(def)) != (ssize_t)strlen(def))
		ret = -errno;
	close(fd);
	return ret;
}

/*
 * A maintainer's fprobe events for a map's life, with the names BTF gives
 * the functions' arguments. bpf_map_new_fd() runs for every new fd of a
 * map (a create, GET_FD_BY_ID, OBJ_GET): the test keeps its own map's.
 * With the events built in, a create's fd is bpf_map_reserve_fd()'s
 * instead (its event fires before the fd is installed): map_fd probes
 * that, and map_get bpf_map_new_fd(). The free's id is 0
 * (bpf_map_free_id() cleared it): it joins by address.
 */
#define MAP_FD_PROBE	"%s%%return map=map id=map->id fd=$retval:s32"
#define MAP_RESERVE_FD	"bpf_map_reserve_fd"

static const char *const fprobe_defs[] = {
	"f:bpf_alt/map_fd " MAP_FD_PROBE,
	"f:bpf_alt/map_update bpf_map_update_value id=map->id key=+0(key):x32 value=+0(value):x64",
	"f:bpf_alt/map_free security_bpf_map_free map=map id=map->id",
	"f:bpf_alt/sys_bpf __sys_bpf%return cmd=cmd ret=$retval:s32",
};

/* Whether @fn is a function fprobes can attach to */
static bool function_traceable(const char *fn)
{
	FILE *f = fopen(TRACEFS "/available_filter_functions", "r");
	size_t cap = 0, len = strlen(fn);
	bool found = false;
	char *line = NULL;

	while (f && !found && getline(&line, &cap, f) > 0)
		found = !strncmp(line, fn, len) && (line[len] == ' ' || line[len] == '\n');
	free(line);
	if (f)
		fclose(f);
	return found;
}

FIXTURE(fprobe) {
	int defined;
};

FIXTURE_SETUP(fprobe)
{
	self->defined = 0;
}

FIXTURE_TEARDOWN(fprobe)
{
	write_file(tracing("events/bpf_alt/enable"), "0");
	dynamic_event("-:bpf_alt/map_get");
	/* each definition removed, as echo '-:bpf_alt/NAME' >> does */
	while (self->defined--) {
		const char *def = fprobe_defs[self->defined];

		dynamic_event(fmt("-:%.*s", (int)strcspn(def + 2, " "), def + 2));
	}
}

TEST_F_TIMEOUT(fprobe, map_life_beside_the_events, 120)
{
	__u32 key = KEY_1, i;
	__u64 value = VALUE_1;
	struct map_desc d;
	char *trace = NULL, *line, *fd_line;
	const char *map, *free_line, *get_event = " map_fd: ";
	int fd, fd2, bad, tries, ret;

	if (!alternatives_ready(_metadata))
		return;
	if (!alternative_present(_metadata, !access(DYNAMIC_EVENTS, W_OK),
				 "no " DYNAMIC_EVENTS ": CONFIG_FPROBE_EVENTS is not set"))
		return;
	/* a run that was killed left its definitions: gone first */
	dynamic_event("-:bpf_alt/check");
	for (i = 0; i < ARRAY_SIZE(fprobe_defs); i++)
		dynamic_event(fmt("-:%.*s", (int)strcspn(fprobe_defs[i] + 2, " "),
				  fprobe_defs[i] + 2));
	/*
	 * An fprobe alone, then with BTF's names at the entry, then at the
	 * return: which one is missing
	 */
	ret = dynamic_event("f:bpf_alt/check bpf_map_new_fd");
	if (!alternative_present(_metadata, !ret,
				 "no fprobe event (f:): CONFIG_FPROBE_EVENTS is not set"))
		return;
	dynamic_event("-:bpf_alt/check");
	ret = dynamic_event("f:bpf_alt/check bpf_map_new_fd id=map->id");
	if (!alternative_present(_metadata, !ret, NO_BTF_ARGS))
		return;
	dynamic_event("-:bpf_alt/check");
	dynamic_event("-:bpf_alt/map_get");
	if (function_traceable(MAP_RESERVE_FD)) {
		ret = dynamic_event(fmt("f:bpf_alt/map_get " MAP_FD_PROBE, "bpf_map_new_fd"));
		if (!alternative_present(_metadata, !ret,
					 "no entry argument at an fprobe's %return (Linux 6.10)"))
			return;
		/* the same probe as map_get's: it must take */
		ret = dynamic_event(fmt("f:bpf_alt/map_fd " MAP_FD_PROBE, MAP_RESERVE_FD));
		ASSERT_EQ(0, ret) TH_LOG("%s: %s", MAP_RESERVE_FD,
					 read_file(TRACEFS "/error_log") ?: "");
		get_event = " map_get: ";
	} else {
		ret = dynamic_event(fmt(fprobe_defs[0], "bpf_map_new_fd"));
	}
	if (!alternative_present(_metadata, !ret,
				 "no entry argument at an fprobe's %return (Linux 6.10)"))
		return;
	self->defined++;
	for (i = 1; i < ARRAY_SIZE(fprobe_defs); i++) {
		ret = dynamic_event(fprobe_defs[i]);
		ASSERT_EQ(0, ret) TH_LOG("%s: %s: %s", fprobe_defs[i], strerror(-ret),
					 read_file(TRACEFS "/error_log") ?: "");
		self->defined++;
	}
	TP_BEGIN(MAP_EVENTS ",bpf_cmd_refused,bpf_alt:*");
	fd = sys_map_create_named("tp_alt_fprobe", BPF_MAP_TYPE_ARRAY, 4, 8, 4, 0);
	ASSERT_LE(0, fd) TH_LOG("map create: %s", strerror(errno));
	ASSERT_EQ(0, map_desc(fd, &d));
	ASSERT_EQ(0, sys_map_elem(BPF_MAP_UPDATE_ELEM, fd, &key, &value, 0));
	bad = sys_map_create_named("tp_alt_bad", BPF_MAP_TYPE_ARRAY, 4, 8, 0, 0);
	ASSERT_EQ(-1, bad);
	ASSERT_EQ(EINVAL, errno);
	/* a second fd of the same map, no create: bpf_map_new_fd() runs all the same */
	fd2 = sys_map_get_fd_by_id(d.id);
	ASSERT_LE(0, fd2) TH_LOG("MAP_GET_FD_BY_ID %u: %s", d.id, strerror(errno));
	close(fd2);
	close(fd);
	trace = instance_trace();
	ASSERT_NE(NULL, trace);
	/* the create: the map's address, id and fd, as the kernel says */
	fd_line = line_of(trace, " map_fd: ", fmt(" id=%u fd=%d\n", d.id, fd));
	ASSERT_NE(NULL, fd_line) TH_LOG("no map_fd with id=%u fd=%d:\n%s", d.id, fd, trace);
	EXPECT_EQ(getpid(), task_pid(fd_line, fd_line)) TH_LOG("%s", fd_line);
	map = strdupa(field_of(fd_line, "map"));
	TH_LOG("fprobe: %.*s", (int)strcspn(fd_line, "\n"), fd_line);
	/* the second fd: the same map and id, another fd, and no create of ours */
	EXPECT_EQ(1, my_lines_of(trace, get_event, fmt(" map=%s id=%u fd=%d\n", map, d.id, fd2)))
		TH_LOG("%s", trace);
	log_lines(_metadata, "fprobe", trace, get_event, fmt(" fd=%d\n", fd2));
	/*
	 * The free: a kworker's, after the last put; the address is the
	 * map's, in a line after its create (an earlier map may have had it)
	 */
	free_line = fmt(" map=%s id=", map);
	for (tries = 0; tries < 300; tries++) {
		line = line_of(strstr(trace, fd_line) ?: "", " map_free: ", free_line);
		if (line)
			break;
		free(trace);
		usleep(100000);
		trace = instance_trace();
		ASSERT_NE(NULL, trace);
	}
	tp_end();
	ASSERT_NE(NULL, line) TH_LOG("no map_free of map=%s in 30 s:\n%s", map, trace);
	/* the id is gone by then (bpf_map_free_id()) */
	EXPECT_STREQ("0", field_of(line, "id")) TH_LOG("%s", line);
	TH_LOG("fprobe: %.*s", (int)strcspn(line, "\n"), line);
	free(line);
	/* the update: the kernel's copies of key and value */
	line = line_of(trace, " map_update: ", fmt(" id=%u ", d.id));
	ASSERT_NE(NULL, line) TH_LOG("%s", trace);
	EXPECT_STREQ("0x1", field_of(line, "key")) TH_LOG("%s", line);
	EXPECT_STREQ("0x1122334455667788", field_of(line, "value")) TH_LOG("%s", line);
	TH_LOG("fprobe: %.*s", (int)strcspn(line, "\n"), line);
	free(line);
	/* the failed create: its errno at __sys_bpf's return, and no why */
	EXPECT_EQ(1, my_lines_of(trace, " sys_bpf: ", " cmd=0 ret=-22\n")) TH_LOG("%s", trace);
	EXPECT_EQ(1, my_lines_of(trace, " sys_bpf: ", fmt(" cmd=0 ret=%d\n", fd)))
		TH_LOG("%s", trace);
	if (gate_on) {
		/* ours, on the same calls: the same id, fd, key and value */
		EXPECT_EQ(1, lines_of(trace, fmt(" bpf_map_create: map type=ARRAY ufd=%d ", fd),
				      fmt(" id=%u name=tp_alt_fprobe", d.id))) TH_LOG("%s", trace);
		EXPECT_EQ(1, lines_of(trace,
				      fmt(" bpf_map_update_elem: map type=ARRAY ufd=%d ", fd),
				      fmt("key=[01 00 00 00] val=[88 77 66 55 44 33 22 11] id=%u ",
					  d.id))) TH_LOG("%s", trace);
		EXPECT_EQ(1, lines_of(trace, " bpf_map_free: ",
				      fmt(" id=%u name=tp_alt_fprobe", d.id))) TH_LOG("%s", trace);
		EXPECT_EQ(1, lines_of(trace, " bpf_map_create_fail: ",
				      " max=0 flags=0 name=tp_alt_bad err=-22(EINVAL)"))
			TH_LOG("%s", trace);
		/* one create: the second fd is no map made */
		EXPECT_EQ(1, lines_of(trace, " bpf_map_create: ", " name=tp_alt_fprobe\n"))
			TH_LOG("%s", trace);
		log_lines(_metadata, "ours", trace, " bpf_map_create: ", " name=tp_alt_fprobe\n");
		log_lines(_metadata, "ours", trace, " bpf_map_update_elem: ",
			  " name=tp_alt_fprobe\n");
		log_lines(_metadata, "ours", trace, " bpf_map_free: ", " name=tp_alt_fprobe\n");
		log_lines(_metadata, "ours", trace, " bpf_cmd_refused: ", NULL);
		log_lines(_metadata, "ours", trace, " bpf_map_create_fail: ", " name=tp_alt_bad ");
	}
	log_lines(_metadata, "fprobe", trace, " sys_bpf: ", " cmd=0 ");
	free(fd_line);
	free(trace);
}

/* Runs @cmd, its output in @out (NUL-ended); its exit status, or -1 */
static int run_output(const char *cmd, char *out, size_t size)
{
	FILE *f = popen(cmd, "r");
	size_t len = 0, n;
	int status;

	out[0] = '\0';
	if (!f)
		return -1;
	while (len + 1 < size && (n = fread(out + len, 1, size - 1 - len, f)) > 0)
		len += n;
	out[len] = '\0';
	status = pclose(f);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/*
 * BPF LSM programs on the bpf(2) hooks (bpf_tracepoints_alt.bpf.c), as
 * bpf_tracepoints_libbpf --lsm loads them and does a loader's work: what
 * each hook saw, held to the kernel's ids and to the events' records.
 */
TEST_F_TIMEOUT(alternatives, bpf_lsm_beside_the_events, 120)
{
	static char out[16384];
	char tag[2 * BPF_TAG_SIZE + 1] = "", *trace, *line;
	unsigned int map_id = 0, prog_id = 0;
	int rc, map_fd = -1, prog_fd = -1, pid = -1;
	unsigned long long value = 0;
	unsigned int key = 0;
	const char *at;

	if (!alternatives_ready(_metadata))
		return;
	ASSERT_EQ(0, access(beside_self(LSM_OBJ), R_OK))
		TH_LOG("%s was not built (the build had no VMLINUX_BTF)", LSM_OBJ);
	/* the hooks the programs attach to: 6.9's (6.1 has others) */
	if (!alternative_present(_metadata, kallsyms_has("bpf_lsm_bpf_map_create"),
				 NO_BPF_LSM))
		return;
	TP_BEGIN(MAP_EVENTS ",bpf_prog_load,bpf_prog_put_rcu,bpf_link_create");
	rc = run_output(fmt("%s %s --lsm 2>&1", beside_self(LSM_LOADER), beside_self(LSM_OBJ)),
			out, sizeof(out));
	ASSERT_EQ(0, rc) TH_LOG("%s", out);
	/* attached, and no hook ran: the LSM is built but not active */
	if (!alternative_present(_metadata, strstr(out, "\nlsm bpf "),
				 "no BPF LSM hook ran: bpf is not among the active LSMs (lsm=)"))
		return;
	rc = sscanf(out, "pid %d", &pid);
	ASSERT_EQ(1, rc) TH_LOG("%s", out);
	at = strstr(out, "made map ");
	rc = sscanf(at ?: "", "made map id %u fd %d key %u value %llx", &map_id, &map_fd, &key,
		    &value);
	ASSERT_EQ(4, rc) TH_LOG("%s", out);
	at = strstr(out, "made prog ");
	rc = sscanf(at ?: "", "made prog id %u tag %16s fd %d", &prog_id, tag, &prog_fd);
	ASSERT_EQ(3, rc) TH_LOG("%s", out);
	TH_LOG("%s", out);
	/* the command, with the kernel's copy of its attributes */
	EXPECT_EQ(1, lines_of(out, "lsm bpf cmd 0 ",
			      " type 2 key 4 val 8 max 4 insns 0 name tp_lsm\n")) TH_LOG("%s", out);
	/* the map being made: before its id exists */
	EXPECT_EQ(1, lines_of(out, "lsm bpf_map_create cmd 0 id 0 ", " key 4 val 8 max 4 "))
		TH_LOG("%s", out);
	/* its fd's hook: the id */
	EXPECT_EQ(1, lines_of(out, fmt("lsm bpf_map cmd 0 id %u known_id %u ", map_id, map_id),
			      " name tp_lsm\n")) TH_LOG("%s", out);
	/* the free: the kernel cleared the id; the program kept it by address */
	EXPECT_EQ(1, lines_of(out, fmt("lsm bpf_map_free cmd 0 id 0 known_id %u ", map_id),
			      " name tp_lsm\n"))
		TH_LOG("%s", out);
	/* the failed create: its attributes, and nothing of how it ended */
	EXPECT_EQ(1, lines_of(out, "lsm bpf cmd 0 ", " max 0 insns 0 name tp_lsm_fail\n"))
		TH_LOG("%s", out);
	EXPECT_EQ(0, lines_of(out, "lsm bpf_map_create ", " max 0 ")) TH_LOG("%s", out);
	/* the program: before the verifier (no id), its fd, its free */
	EXPECT_EQ(1, lines_of(out, "lsm bpf_prog_load cmd 0 id 0 ", " name tp_lsm_prog\n"))
		TH_LOG("%s", out);
	EXPECT_EQ(1, lines_of(out, fmt("lsm bpf_prog cmd 0 id %u known_id %u ", prog_id, prog_id),
			      " name tp_lsm_prog\n")) TH_LOG("%s", out);
	EXPECT_EQ(1, lines_of(out, fmt("lsm bpf_prog_free cmd 0 id 0 known_id %u ", prog_id),
			      " name tp_lsm_prog\n"))
		TH_LOG("%s", out);
	if (!gate_on)
		return;
	/* the events of the same calls: the same ids and fds, and the errno */
	trace = trace_read();
	ASSERT_NE(NULL, trace);
	line = line_of(trace,
		       fmt(" bpf_map_create: map type=ARRAY ufd=%d key=4 val=8 max=4 ", map_fd),
		       fmt(" id=%u name=tp_lsm\n", map_id));
	EXPECT_NE(NULL, line) TH_LOG("%s", trace);
	TH_LOG("ours: %.*s", (int)strcspn(line ?: "", "\n"), line ?: "");
	free(line);
	EXPECT_EQ(1, lines_of(trace, " bpf_map_update_elem: ",
			      fmt("ufd=%d key=[01 00 00 00] val=[88 77 66 55 44 33 22 11] id=%u ",
				  map_fd, map_id))) TH_LOG("%s", trace);
	EXPECT_EQ(1, lines_of(trace, " bpf_map_free: ", fmt(" id=%u name=tp_lsm\n", map_id)))
		TH_LOG("%s", trace);
	EXPECT_EQ(1, lines_of(trace, " bpf_map_create_fail: ",
			      " max=0 flags=0 name=tp_lsm_fail err=-22(EINVAL)"))
		TH_LOG("%s", trace);
	EXPECT_EQ(1, lines_of(trace, fmt(" bpf_prog_load: prog=%s type=SOCKET_FILTER ufd=%d ",
					 tag, prog_fd),
			      fmt(" id=%u name=tp_lsm_prog", prog_id))) TH_LOG("%s", trace);
	EXPECT_EQ(1, lines_of(trace, fmt(" bpf_prog_put_rcu: prog=%s ", tag),
			      fmt(" id=%u ", prog_id))) TH_LOG("%s", trace);
	/* the 7 programs' links: each on its hook's function in vmlinux's BTF, id 1 */
	EXPECT_EQ(7, lines_of(trace, " bpf_link_create: link type=TRACING ", " prog_type=LSM "))
		TH_LOG("%s", trace);
	EXPECT_EQ(7, lines_of(trace, " bpf_link_create: link type=TRACING ",
			      " attach_btf_obj_id=1 target=bpf_lsm_")) TH_LOG("%s", trace);
	tp_end();
}

/*
 * syscalls:sys_enter_bpf and sys_exit_bpf: every command and its return,
 * with the attributes as a user address. A failed create and a good one.
 */
TEST_F_TIMEOUT(alternatives, syscall_events_beside_the_events, 120)
{
	struct map_desc d;
	char *trace;
	int fd, bad;

	if (!alternatives_ready(_metadata))
		return;
	if (!alternative_present(_metadata, path_exists(TRACEFS "/events/syscalls/sys_exit_bpf"),
				 "no syscalls:sys_exit_bpf: CONFIG_FTRACE_SYSCALLS is not set"))
		return;
	TP_BEGIN("bpf_map_create,bpf_map_create_fail,bpf_cmd_refused," SYS_BPF_EVENTS);
	bad = sys_map_create_named("tp_alt_bad", BPF_MAP_TYPE_ARRAY, 4, 8, 0, 0);
	ASSERT_EQ(-1, bad);
	fd = sys_map_create_named("tp_alt_sys", BPF_MAP_TYPE_ARRAY, 4, 8, 4, 0);
	ASSERT_LE(0, fd);
	trace = tp_end();
	ASSERT_NE(NULL, trace);
	trace = strdup(trace);
	ASSERT_EQ(0, map_desc(fd, &d));
	close(fd);
	/* the two commands, each its return: -EINVAL, then the fd */
	EXPECT_EQ(2, lines_of(trace, " sys_bpf(cmd: 0,", NULL)) TH_LOG("%s", trace);
	EXPECT_EQ(1, lines_of(trace, " sys_bpf -> 0xffffffffffffffea\n", NULL)) TH_LOG("%s", trace);
	EXPECT_EQ(1, lines_of(trace, fmt(" sys_bpf -> 0x%x\n", fd), NULL)) TH_LOG("%s", trace);
	log_lines(_metadata, "syscalls", trace, " sys_bpf", NULL);
	log_lines(_metadata, "ours", trace, " bpf_", NULL);
	if (gate_on) {
		EXPECT_EQ(1, lines_of(trace, " bpf_map_create_fail: ",
				      " name=tp_alt_bad err=-22(EINVAL)")) TH_LOG("%s", trace);
		EXPECT_EQ(1, lines_of(trace, fmt(" bpf_map_create: map type=ARRAY ufd=%d ", fd),
				      fmt(" id=%u name=tp_alt_sys", d.id))) TH_LOG("%s", trace);
	}
	free(trace);
}

/* /dev/kmsg's records from now on, read until @want is among them (30 s) */
static char *kmsg_until(int kmsg, const char *want)
{
	static char all[262144];
	size_t len = 0;
	int tries;

	all[0] = '\0';
	for (tries = 0; tries < 300; tries++) {
		char rec[2048];
		ssize_t n;

		while ((n = read(kmsg, rec, sizeof(rec) - 1)) > 0) {
			/* no record dropped unseen: a full buffer is no answer */
			if (len + n + 1 >= sizeof(all))
				return NULL;
			memcpy(all + len, rec, n);
			len += n;
			all[len] = '\0';
		}
		if (strstr(all, want))
			break;
		usleep(100000);
	}
	return all;
}

/* r0 = r2; exit: the verifier refuses it (r2 is never set) */
static int sys_prog_load_refused(const char *name)
{
	const struct bpf_insn bad[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_X, .dst_reg = BPF_REG_0, .src_reg = BPF_REG_2 },
		{ .code = BPF_JMP | BPF_EXIT },
	};

	return sys_prog_load_insns(name, BPF_PROG_TYPE_SOCKET_FILTER, bad, 2);
}

/*
 * The prog-ids of @text's AUDIT_BPF "op=@op" records that task @pid's
 * syscalls made: each joined by its serial, audit(TIME:SERIAL), to the
 * SYSCALL record (type=1300) of the same event, which names the pid.
 * Into @ids (space separated); how many.
 */
static int audit_records_of(const char *text, const char *op, pid_t pid, char *ids, size_t size)
{
	const char *p;
	int n = 0;

	ids[0] = '\0';
	for (p = text; (p = strstr(p, "type=1334 audit(")); p++) {
		const char *serial = p + strlen("type=1334 ");
		size_t serial_len = strcspn(serial, ")");
		char *line = strndup(p, strcspn(p, "\n")), *syscall = NULL;
		const char *at;

		if (line && strstr(line, fmt(" op=%s", op)) && strstr(line, " prog-id=")) {
			at = strstr(text, fmt("type=1300 %.*s)", (int)serial_len, serial));
			syscall = at ? strndup(at, strcspn(at, "\n")) : NULL;
		}
		if (syscall && strstr(syscall, fmt(" pid=%d ", pid))) {
			size_t len = strlen(ids);

			snprintf(ids + len, size - len, "%s%lld", n ? " " : "",
				 line_field(line, " prog-id="));
			n++;
		}
		free(syscall);
		free(line);
	}
	return n;
}

/*
 * audit's AUDIT_BPF records of a load and an unload, and none of a load
 * the verifier refused. With no auditd they go to the kernel log, limited
 * by printk_ratelimit: 0 for the test.
 */
TEST_F_TIMEOUT(alternatives, audit_records_beside_the_events, 120)
{
	char saved[32] = "5", ids[256], *trace, *kmsg_text;
	const char *put[2] = {};
	struct prog_desc p;
	int kmsg, fd;

	if (!alternatives_ready(_metadata))
		return;
	if (!alternative_present(_metadata, !access("/proc/self/loginuid", R_OK),
				 "no /proc/self/loginuid: CONFIG_AUDIT is not set") ||
	    !alternative_present(_metadata, cmdline_has("audit=1"),
				 "audit is off: no audit=1 on the command line"))
		return;
	kmsg = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	ASSERT_LE(0, kmsg);
	ASSERT_LE(0, lseek(kmsg, 0, SEEK_END));
	read_into("/proc/sys/kernel/printk_ratelimit", saved, sizeof(saved));
	ASSERT_EQ(0, write_file("/proc/sys/kernel/printk_ratelimit", "0"));
	TP_BEGIN("bpf_prog_load,bpf_prog_put_rcu");
	ASSERT_EQ(-1, sys_prog_load_refused("tp_alt_audit_bad"));
	fd = sys_prog_load_named("tp_alt_audit", BPF_PROG_TYPE_SOCKET_FILTER, 0, 2);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, prog_desc(fd, &p));
	close(fd);
	kmsg_text = kmsg_until(kmsg, fmt("prog-id=%u op=UNLOAD", p.id));
	write_file("/proc/sys/kernel/printk_ratelimit", saved);
	close(kmsg);
	ASSERT_NE(NULL, kmsg_text) TH_LOG("the kernel log's records outgrew the test's buffer");
	EXPECT_NE(NULL, strstr(kmsg_text, fmt("prog-id=%u op=LOAD", p.id)))
		TH_LOG("no AUDIT_BPF record (CONFIG_AUDIT, and audit=1 on the command line?):\n%s",
		       kmsg_text);
	EXPECT_NE(NULL, strstr(kmsg_text, fmt("prog-id=%u op=UNLOAD", p.id)))
		TH_LOG("%s", kmsg_text);
	/* the test's loads: the one that worked, none of the refused one */
	EXPECT_EQ(1, audit_records_of(kmsg_text, "LOAD", getpid(), ids, sizeof(ids)))
		TH_LOG("prog-ids %s:\n%s", ids, kmsg_text);
	EXPECT_STREQ(fmt("%u", p.id), ids);
	log_lines(_metadata, "audit", kmsg_text, fmt("prog-id=%u ", p.id), NULL);
	log_lines(_metadata, "audit", kmsg_text, "type=1300 ", fmt(" pid=%d ", getpid()));
	if (!gate_on)
		return;
	/* ours: the same id, with the tag, type and name audit does not give */
	put[0] = fmt("bpf_prog_put_rcu: %s\n", prog_line(&p));
	EXPECT_TRUE(trace_gets(put));
	trace = tp_end();
	ASSERT_NE(NULL, trace);
	EXPECT_EQ(1, lines_of(trace, fmt(" bpf_prog_load: prog=%s type=SOCKET_FILTER ", p.tag),
			      fmt(" id=%u name=tp_alt_audit", p.id))) TH_LOG("%s", trace);
	EXPECT_EQ(1, lines_of(trace, fmt(" bpf_prog_put_rcu: %s\n", prog_line(&p)), NULL))
		TH_LOG("%s", trace);
}

#define PERF_PAGES	8

/*
 * The PERF_RECORD_BPF_EVENT records of @ring, each as "event TYPE ID TAG PID\n"
 * (the pid of the task that made it: sample_id_all with PERF_SAMPLE_TID)
 */
static void perf_bpf_records(void *ring, long page, char *out, size_t size)
{
	struct perf_event_mmap_page *meta = ring;
	char *data = (char *)ring + page;
	__u64 head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE), pos;
	size_t len = strlen(out);

	for (pos = meta->data_tail; pos < head;) {
		struct {
			struct perf_event_header h;
			__u16 type, flags;
			__u32 id;
			__u8 tag[BPF_TAG_SIZE];
			__u32 pid, tid;
		} r;
		size_t i, off = pos % (PERF_PAGES * page);

		/* a record may wrap: copied a byte at a time */
		for (i = 0; i < sizeof(r); i++)
			((char *)&r)[i] = data[(off + i) % (PERF_PAGES * page)];
		if (!r.h.size)
			break;
		if (r.h.type == PERF_RECORD_BPF_EVENT && len + 64 < size) {
			len += snprintf(out + len, size - len, "event %u %u ", r.type, r.id);
			for (i = 0; i < BPF_TAG_SIZE; i++)
				len += snprintf(out + len, size - len, "%02x", r.tag[i]);
			len += snprintf(out + len, size - len, " %u\n", r.pid);
		}
		pos += r.h.size;
	}
	__atomic_store_n(&meta->data_tail, head, __ATOMIC_RELEASE);
}

/*
 * perf's PERF_RECORD_BPF_EVENT: a dummy event per CPU with bpf_event set
 * gets a record at each program's load and unload, with id and tag, and
 * none for a load the verifier refused.
 */
TEST_F_TIMEOUT(alternatives, perf_bpf_event_beside_the_events, 120)
{
	long page = sysconf(_SC_PAGESIZE), cpus = sysconf(_SC_NPROCESSORS_ONLN), cpu;
	static char seen[16384];
	struct perf_event_attr attr = {};
	void *rings[64] = {};
	int fds[64], fd, tries;
	const char *put[2] = {};
	struct prog_desc p;
	char *trace;

	if (!alternatives_ready(_metadata))
		return;
	ASSERT_GE(64, cpus);
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_DUMMY;
	attr.bpf_event = 1;
	attr.sample_id_all = 1;
	attr.sample_type = PERF_SAMPLE_TID;
	attr.watermark = 1;
	attr.wakeup_watermark = 1;
	for (cpu = 0; cpu < cpus; cpu++) {
		fds[cpu] = syscall(__NR_perf_event_open, &attr, -1, cpu, -1, 0);
		ASSERT_LE(0, fds[cpu])
			TH_LOG("perf_event_open: %s (CONFIG_PERF_EVENTS)", strerror(errno));
		rings[cpu] = mmap(NULL, (PERF_PAGES + 1) * page, PROT_READ | PROT_WRITE, MAP_SHARED,
				  fds[cpu], 0);
		ASSERT_NE(MAP_FAILED, rings[cpu]);
	}
	TP_BEGIN("bpf_prog_load,bpf_prog_put_rcu");
	ASSERT_EQ(-1, sys_prog_load_refused("tp_alt_perf_bad"));
	fd = sys_prog_load_named("tp_alt_perf", BPF_PROG_TYPE_SOCKET_FILTER, 0, 2);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, prog_desc(fd, &p));
	close(fd);
	/* the unload: after the last put, on whichever CPU ran it */
	for (tries = 0; tries < 300; tries++) {
		for (cpu = 0; cpu < cpus; cpu++)
			perf_bpf_records(rings[cpu], page, seen, sizeof(seen));
		if (strstr(seen, fmt("event %u %u %s ", PERF_BPF_EVENT_PROG_UNLOAD, p.id, p.tag)))
			break;
		usleep(100000);
	}
	for (cpu = 0; cpu < cpus; cpu++) {
		munmap(rings[cpu], (PERF_PAGES + 1) * page);
		close(fds[cpu]);
	}
	/* the load, in the test's task; the unload, wherever the last put ran */
	EXPECT_NE(NULL, strstr(seen, fmt("event %u %u %s %d\n", PERF_BPF_EVENT_PROG_LOAD,
					 p.id, p.tag, getpid())))
		TH_LOG("want load of id %u tag %s:\n%s", p.id, p.tag, seen);
	EXPECT_NE(NULL, strstr(seen, fmt("event %u %u %s ", PERF_BPF_EVENT_PROG_UNLOAD,
					 p.id, p.tag)))
		TH_LOG("want unload of id %u tag %s:\n%s", p.id, p.tag, seen);
	/* the test's loads: the one that worked, none of the refused one */
	EXPECT_EQ(1, lines_of(seen, fmt("event %u ", PERF_BPF_EVENT_PROG_LOAD),
			      fmt(" %d\n", getpid())))
		TH_LOG("%s", seen);
	TH_LOG("perf: PERF_RECORD_BPF_EVENT type id tag pid, all CPUs:\n%s", seen);
	if (!gate_on)
		return;
	put[0] = fmt("bpf_prog_put_rcu: %s\n", prog_line(&p));
	EXPECT_TRUE(trace_gets(put));
	trace = tp_end();
	ASSERT_NE(NULL, trace);
	EXPECT_EQ(1, lines_of(trace, fmt(" bpf_prog_load: prog=%s type=SOCKET_FILTER ", p.tag),
			      fmt(" id=%u name=tp_alt_perf", p.id))) TH_LOG("%s", trace);
}

int main(int argc, char **argv)
{
	bpf_tracepoints_test_setup();
	return test_harness_run(argc, argv);
}
