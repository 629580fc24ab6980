// SPDX-License-Identifier: GPL-2.0
/*
 * Stress run for the bpf:* low level tracepoints: bpf(2) commands in
 * several processes while tracefs is reconfigured under them. Bounded by a
 * count of rounds, not by time, so that every run issues the same commands.
 *
 * Workers each create a hash, a per-CPU hash and a 64 KiB-value array map,
 * and go through update, lookup, delete, next key, lookup and delete, the
 * four batch commands, freeze, pin and get of a map and of a program,
 * program load, SO_ATTACH_BPF and program free, checking every result.
 *
 * Phase "chaos": a toggler flips events/bpf/enable, rewrites set_event and
 * resizes buffer_size_kb while a reader drains trace_pipe. Events read must
 * never outnumber the commands that could have caused them.
 *
 * Phase "accounting": all bpf events stay enabled in a buffer large enough
 * for the phase, and the reader must see exactly one event per command that
 * succeeded (and none per command that failed), with no ring buffer overrun.
 *
 * With the gate off the same commands run and give the same results; no
 * event is read and the toggler's writes to the bpf events fail. Every
 * result, but no fd or id, goes into a digest printed as "# stress digest:"
 * so that the host can check that on, off and debug kernels agree.
 *
 * Three more tests need two online CPUs (they SKIP, saying so, on one) and
 * pin their processes or threads to CPU 0 and CPU 1 with sched_setaffinity:
 * - two_cpus_accounting: each CPU updates and looks up a map of its own,
 *   at the same time; every command gives one event, in that CPU's buffer;
 * - two_cpus_toggle_storm: CPU 0 reconfigures tracefs while CPU 1 issues
 *   bpf(2) commands until CPU 0 has made STORM_WRITES writes; the results
 *   of the first STORM_ROUNDS rounds go into "# storm digest:";
 * - two_cpus_close_races: CPU 1 closes the fds that CPU 0 gets from
 *   creating, loading, pinning and getting maps and programs, with every
 *   bpf event on (the events read the object after its fd exists); no
 *   map or program may outlive its fds. With
 *   BPF_TRACEPOINTS_RACE_UNTIL_WINDOW set (CPUs that run at once), it
 *   runs until a close returned before the maker's clock after the
 *   command that made the fd, and fails if none did (an off kernel meets
 *   that too: it shows the closer ran at the command's time).
 * A helper that cannot pin itself says so and stops the others: no test
 * waits for a partner that is not coming.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "bpf_tracepoints.h"

#define WORKERS		3
#define CHAOS_ROUNDS	60
#define ACCT_ROUNDS	10
#define BIG_VALUE	65536
#define HASH_MAX	64
#define ACCT_BUFFER_KB	"4096"
#define PAIR_BUFFER_KB	"8192"	/* per CPU: 2 * PAIR_OPS records of about 90 bytes */
#define DRAIN_SECS	20	/* for RCU-deferred bpf_prog_put_rcu events */
#define STORM_ROUNDS	400	/* hammer rounds folded into the storm digest */
#define STORM_WRITES	60	/* tracefs writes the hammer must run under: 10 toggler cycles */
#define STORM_SECS	300	/* ... or fail, if the toggler is that slow */
#define START_SECS	120	/* for a helper's first round or a partner's start */
#define RACE_ROUNDS	300	/* create, load, pin and get rounds under the closer */
#define PAIR_OPS	20000	/* update + lookup pairs per CPU: many vCPU switches */

enum phase { CHAOS, ACCT, NR_PHASES };
static const char phase_tag[NR_PHASES] = { 'c', 'a' };

enum toggle { T_ENABLE, T_DISABLE, T_SET_ONE, T_SET_ALL, T_RESIZE, T_SINGLE, NR_TOGGLES };
static const char * const toggle_name[NR_TOGGLES] = {
	"events/bpf/enable=1", "events/bpf/enable=0", "set_event one",
	"set_event bpf:*", "buffer_size_kb", "one event's enable",
};

/* The toggler's flips whose outcome the storm keeps (about 10 a second) */
#define FLIP_LOG	65536

/* Shared between the test and the processes it forks. */
struct shared {
	int stop_toggler, stop_reader;
	enum phase phase;
	unsigned long long ops[NR_PHASES][NR_BPF_EVENTS];	/* commands that should trace */
	unsigned long long seen[NR_PHASES][NR_BPF_EVENTS];	/* events read */
	unsigned long long commands, toggles_ok[NR_TOGGLES], toggles_failed[NR_TOGGLES];
	unsigned long long digest[NR_PHASES][WORKERS];
	unsigned long long unparsed, foreign;
	/* the two-CPU tests */
	int ready, gave_up, pair_failed[2];	/* gave_up: a helper stopped early */
	long long pair_start[2], pair_end[2];
	unsigned long long storm_digest, storm_commands, storm_failed, storm_rounds;
	unsigned long long storm_writes;	/* toggler writes while the hammer ran */
	unsigned long long flips_begun, flips_done;	/* the toggler's flips: flip() */
	unsigned char flip_ok[FLIP_LOG];	/* flip n worked (n < FLIP_LOG) */
	unsigned int flip_overlaps[FLIP_LOG];	/* hammer commands flip n overlapped */
	unsigned long long overlaps_unknown;	/* ... flips past FLIP_LOG */
};

static struct shared *sh;

static int event_index(const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < NR_BPF_EVENTS; i++)
		if (strlen(bpf_events[i]) == len && !strncmp(bpf_events[i], name, len))
			return i;
	return -1;
}

/* Counts a command that should leave one @event. */
static void count_op(enum phase phase, const char *event)
{
	int i = event_index(event, strlen(event));

	if (i < 0)
		abort();	/* a typo in this file */
	__atomic_fetch_add(&sh->ops[phase][i], 1, __ATOMIC_RELAXED);
}

/* One worker's state in one phase. */
struct worker {
	enum phase phase;
	int id, round, failed;
	unsigned long long digest;
};

static void fold(struct worker *w, const void *data, size_t len)
{
	const unsigned char *p = data;

	while (len--)	/* FNV-1a */
		w->digest = (w->digest ^ *p++) * 0x100000001b3ULL;
}

/*
 * Checks one command's result: @want_errno 0 means it must succeed. A
 * result as wanted counts @event, if given, as the record it leaves: the
 * command's event, or bpf_cmd_fail for a failure.
 */
static int check(struct worker *w, const char *what, const char *event, int ret, int want_errno)
{
	int err = ret < 0 ? errno : 0;

	__atomic_fetch_add(&sh->commands, 1, __ATOMIC_RELAXED);
	fold(w, &err, sizeof(err));
	if (err != want_errno) {
		fprintf(stderr, "# worker %d round %d: %s: %s, want %s\n", w->id, w->round,
			what, err ? strerror(err) : "success",
			want_errno ? strerror(want_errno) : "success");
		w->failed++;
	} else if (event) {
		count_op(w->phase, event);
	}
	return ret;
}

static void check_data(struct worker *w, const char *what, const void *got,
		       const void *want, size_t len)
{
	fold(w, got, len);
	if (memcmp(got, want, len)) {
		fprintf(stderr, "# worker %d round %d: %s: wrong data\n", w->id, w->round, what);
		w->failed++;
	}
}

/* A batch lookup that ended the map: the count it gave */
static void check_count(struct worker *w, const char *what, __u32 count, __u32 want)
{
	fold(w, &count, sizeof(count));
	if (count != want) {
		fprintf(stderr, "# worker %d round %d: %s: count %u, want %u\n",
			w->id, w->round, what, count, want);
		w->failed++;
	}
}

static int cmp_u32(const void *a, const void *b)
{
	return *(const __u32 *)a < *(const __u32 *)b ? -1 : *(const __u32 *)a > *(const __u32 *)b;
}

static int possible_cpus(void)
{
	return sysconf(_SC_NPROCESSORS_CONF);
}

static void map_round(struct worker *w, int hfd, int pfd, int bfd)
{
	__u32 key, keys[HASH_MAX], okeys[HASH_MAX], count, i, ncpus = possible_cpus();
	__u64 val, got, vals[HASH_MAX], ovals[HASH_MAX], *pcpu, *pgot;
	unsigned char *big, *bgot;

	for (key = 0; key < 8; key++) {
		val = w->round * 1000 + w->id * 100 + key;
		check(w, "update", "bpf_map_update_elem",
		      sys_map_elem(BPF_MAP_UPDATE_ELEM, hfd, &key, &val, BPF_ANY), 0);
	}
	key = 0;
	check(w, "update noexist", "bpf_cmd_fail",
	      sys_map_elem(BPF_MAP_UPDATE_ELEM, hfd, &key, &val, BPF_NOEXIST), EEXIST);
	for (key = 0; key < 8; key++) {
		val = w->round * 1000 + w->id * 100 + key;
		got = 0;
		check(w, "lookup", "bpf_map_lookup_elem",
		      sys_map_elem(BPF_MAP_LOOKUP_ELEM, hfd, &key, &got, 0), 0);
		check_data(w, "lookup", &got, &val, sizeof(val));
	}
	key = 3;
	check(w, "delete", "bpf_map_delete_elem",
	      sys_map_elem(BPF_MAP_DELETE_ELEM, hfd, &key, NULL, 0), 0);
	check(w, "lookup deleted", "bpf_cmd_fail",
	      sys_map_elem(BPF_MAP_LOOKUP_ELEM, hfd, &key, &got, 0), ENOENT);
	/* which key comes first depends on the map's hash seed: not folded */
	check(w, "next key", "bpf_map_next_key", sys_map_next_key(hfd, NULL, &key), 0);
	key = 5;
	val = w->round * 1000 + w->id * 100 + key;
	check(w, "lookup and delete", "bpf_map_lookup_and_delete_elem",
	      sys_map_elem(BPF_MAP_LOOKUP_AND_DELETE_ELEM, hfd, &key, &got, 0), 0);
	check_data(w, "lookup and delete", &got, &val, sizeof(val));

	/* per-CPU: one 8-byte slot per possible CPU */
	pcpu = calloc(ncpus, sizeof(*pcpu));
	pgot = calloc(ncpus, sizeof(*pgot));
	for (i = 0; i < ncpus; i++)
		pcpu[i] = w->round * 10 + i;
	key = 1;
	check(w, "percpu update", "bpf_map_update_elem",
	      sys_map_elem(BPF_MAP_UPDATE_ELEM, pfd, &key, pcpu, BPF_ANY), 0);
	check(w, "percpu lookup", "bpf_map_lookup_elem",
	      sys_map_elem(BPF_MAP_LOOKUP_ELEM, pfd, &key, pgot, 0), 0);
	check_data(w, "percpu lookup", pgot, pcpu, ncpus * sizeof(*pcpu));
	free(pcpu);
	free(pgot);

	/* 64 KiB value */
	big = malloc(BIG_VALUE);
	bgot = calloc(1, BIG_VALUE);
	for (i = 0; i < BIG_VALUE; i++)
		big[i] = i * 7 + w->round + w->id;
	key = 0;
	check(w, "64 KiB update", "bpf_map_update_elem",
	      sys_map_elem(BPF_MAP_UPDATE_ELEM, bfd, &key, big, BPF_ANY), 0);
	check(w, "64 KiB lookup", "bpf_map_lookup_elem",
	      sys_map_elem(BPF_MAP_LOOKUP_ELEM, bfd, &key, bgot, 0), 0);
	check_data(w, "64 KiB lookup", bgot, big, BIG_VALUE);
	check(w, "freeze", "bpf_map_freeze", sys_map_freeze(bfd), 0);
	check(w, "update frozen", "bpf_cmd_fail",
	      sys_map_elem(BPF_MAP_UPDATE_ELEM, bfd, &key, big, BPF_ANY), EPERM);
	free(big);
	free(bgot);

	/* batches: the hash holds keys 0 1 2 4 6 7, then 100..107 */
	for (i = 0; i < 8; i++) {
		keys[i] = 100 + i;
		vals[i] = w->round + i;
	}
	count = 8;
	check(w, "update batch", "bpf_map_update_batch",
	      sys_map_batch(BPF_MAP_UPDATE_BATCH, hfd, keys, vals, &count, 0), 0);
	/* the end of the map: -ENOENT, one failure record with the count */
	count = HASH_MAX;
	check(w, "lookup batch", "bpf_map_batch_fail",
	      sys_map_batch(BPF_MAP_LOOKUP_BATCH, hfd, okeys, ovals, &count, 0), ENOENT);
	check_count(w, "lookup batch", count, 14);
	qsort(okeys, count, sizeof(okeys[0]), cmp_u32);
	fold(w, okeys, count * sizeof(okeys[0]));
	count = 4;
	check(w, "delete batch", "bpf_map_delete_batch",
	      sys_map_batch(BPF_MAP_DELETE_BATCH, hfd, keys, NULL, &count, 0), 0);
	count = HASH_MAX;
	check(w, "lookup and delete batch", "bpf_map_batch_fail",
	      sys_map_batch(BPF_MAP_LOOKUP_AND_DELETE_BATCH, hfd, okeys, ovals, &count, 0),
	      ENOENT);
	check_count(w, "lookup and delete batch", count, 10);
	/* empty now: -ENOENT with nothing copied, its record counts 0 */
	count = HASH_MAX;
	check(w, "lookup batch of an empty map", "bpf_map_batch_fail",
	      sys_map_batch(BPF_MAP_LOOKUP_BATCH, hfd, okeys, ovals, &count, 0), ENOENT);
	check_count(w, "lookup batch of an empty map", count, 0);
}

static void obj_round(struct worker *w, int hfd)
{
	char mpath[64], ppath[64], name[16];
	int fd, pfd, sock;
	__u32 key = 42;
	__u64 val;

	snprintf(mpath, sizeof(mpath), BPFFS "/st%c%d_m%d", phase_tag[w->phase], w->id, w->round);
	snprintf(ppath, sizeof(ppath), BPFFS "/st%c%d_p%d", phase_tag[w->phase], w->id, w->round);
	snprintf(name, sizeof(name), "st%c%dg", phase_tag[w->phase], w->id);

	check(w, "pin map", "bpf_obj_pin_map", sys_obj_pin(hfd, mpath), 0);
	check(w, "pin map again", "bpf_cmd_fail", sys_obj_pin(hfd, mpath), EEXIST);
	fd = check(w, "get map", "bpf_obj_get_map", sys_obj_get(mpath), 0);
	check(w, "lookup through the pinned map", "bpf_cmd_fail",
	      sys_map_elem(BPF_MAP_LOOKUP_ELEM, fd, &key, &val, 0), ENOENT);
	close(fd);
	check(w, "unlink map", NULL, unlink(mpath), 0);

	pfd = check(w, "prog load", "bpf_prog_load",
		    sys_prog_load_named(name, BPF_PROG_TYPE_SOCKET_FILTER, 0, 2), 0);
	if (pfd < 0)
		return;
	/* each program loaded is freed in this round: one bpf_prog_put_rcu */
	count_op(w->phase, "bpf_prog_put_rcu");
	sock = socket(AF_UNIX, SOCK_DGRAM, 0);
	check(w, "SO_ATTACH_BPF", "bpf_prog_get_type",
	      setsockopt(sock, SOL_SOCKET, SO_ATTACH_BPF, &pfd, sizeof(pfd)), 0);
	close(sock);
	check(w, "pin prog", "bpf_obj_pin_prog", sys_obj_pin(pfd, ppath), 0);
	fd = check(w, "get prog", "bpf_obj_get_prog", sys_obj_get(ppath), 0);
	/* a path names no object: its bpf_cmd_fail has no name to count by */
	check(w, "get the unlinked map", NULL, sys_obj_get(mpath), ENOENT);
	close(fd);
	check(w, "unlink prog", NULL, unlink(ppath), 0);
	close(pfd);
}

static int worker_run(int id, enum phase phase, int rounds)
{
	struct worker w = { .phase = phase, .id = id, .digest = 0xcbf29ce484222325ULL };
	char name[16];
	int hfd, pfd, bfd;

	for (w.round = 0; w.round < rounds; w.round++) {
		snprintf(name, sizeof(name), "st%c%dh", phase_tag[phase], id);
		hfd = check(&w, "create hash", "bpf_map_create",
			    sys_map_create_named(name, BPF_MAP_TYPE_HASH, 4, 8, HASH_MAX, 0), 0);
		name[strlen(name) - 1] = 'p';
		pfd = check(&w, "create percpu hash", "bpf_map_create",
			    sys_map_create_named(name, BPF_MAP_TYPE_PERCPU_HASH, 4, 8, 8, 0), 0);
		name[strlen(name) - 1] = 'b';
		bfd = check(&w, "create 64 KiB array", "bpf_map_create",
			    sys_map_create_named(name, BPF_MAP_TYPE_ARRAY, 4, BIG_VALUE, 2, 0), 0);
		if (hfd < 0 || pfd < 0 || bfd < 0)
			return 1;
		map_round(&w, hfd, pfd, bfd);
		obj_round(&w, hfd);
		/* the last references: each close frees its map */
		close(hfd);
		close(pfd);
		close(bfd);
		count_op(phase, "bpf_map_free");
		count_op(phase, "bpf_map_free");
		count_op(phase, "bpf_map_free");
	}
	sh->digest[phase][id] = w.digest;
	return w.failed ? 1 : 0;
}

static void toggle(enum toggle t, int ret)
{
	__atomic_fetch_add(ret ? &sh->toggles_failed[t] : &sh->toggles_ok[t], 1, __ATOMIC_RELAXED);
}

/*
 * A flip: @val written to @path, a file that enables or disables bpf
 * events. It is counted in flips_begun before the part of it that flips
 * (the write; set_event's open too, whose O_TRUNC clears every event),
 * in flips_done once that returned, and in flip_ok[] when it worked: a
 * flip that failed (every one on an off kernel, which has no bpf events)
 * patched nothing, and the commands it overlapped met no flip.
 */
static int flip(const char *path, const char *val)
{
	bool open_flips = !!strstr(path, "/set_event");
	ssize_t len = strlen(val), written;
	unsigned long long n = 0;
	int fd, ret;

	if (open_flips)
		n = __atomic_fetch_add(&sh->flips_begun, 1, __ATOMIC_SEQ_CST);
	fd = open(path, O_WRONLY | O_TRUNC);
	if (fd >= 0 && !open_flips)
		n = __atomic_fetch_add(&sh->flips_begun, 1, __ATOMIC_SEQ_CST);
	if (fd < 0) {
		ret = -errno;
	} else {
		written = write(fd, val, len);
		ret = written == len ? 0 : written < 0 ? -errno : -EIO;
	}
	if (fd >= 0 || open_flips) {
		if (!ret && n < FLIP_LOG)
			sh->flip_ok[n] = 1;
		__atomic_fetch_add(&sh->flips_done, 1, __ATOMIC_SEQ_CST);
	}
	if (fd >= 0)
		close(fd);
	return ret;
}

/* Reconfigures tracefs under the workers until told to stop. */
static int toggler_run(void)
{
	static const char * const sizes[] = { "8", "64", "16", "256", "32" };
	unsigned int i;

	for (i = 0; !__atomic_load_n(&sh->stop_toggler, __ATOMIC_ACQUIRE); i++) {
		switch (i % 6) {
		case 0:
			toggle(T_ENABLE, flip(TRACEFS "/events/bpf/enable", "1"));
			break;
		case 1:
			toggle(T_SET_ONE, flip(TRACEFS "/set_event", "bpf:bpf_map_update_elem"));
			break;
		case 2:
			/* no flip: the buffer's size */
			toggle(T_RESIZE, write_file(TRACEFS "/buffer_size_kb",
						    sizes[(i / 6) % 5]));
			break;
		case 3:
			toggle(T_SET_ALL, flip(TRACEFS "/set_event", "bpf:*"));
			break;
		case 5:
			toggle(T_SINGLE, flip(TRACEFS "/events/bpf/bpf_map_lookup_elem/enable",
					      i % 12 == 5 ? "1" : "0"));
			break;
		default:
			toggle(T_DISABLE, flip(TRACEFS "/events/bpf/enable", "0"));
		}
		sched_yield();
	}
	return 0;
}

/* Counts one trace_pipe line: "COMM-PID [CPU] FLAGS TS: bpf_EVENT: ... name=stP..." */
static void count_line(const char *line)
{
	const char *ev = strstr(line, ": bpf_"), *end, *mark;
	int p, i;

	if (!ev)
		return;
	ev += 2;
	end = strchr(ev, ':');
	i = end ? event_index(ev, end - ev) : -1;
	mark = strstr(line, " name=st");
	/* "stc3g", "sta0h": the phase's tag and a worker's number */
	if (mark && !(mark[8] && isdigit((unsigned char)mark[9])))
		mark = NULL;
	/* the failed get of an unlinked path (obj_round()) */
	if (!mark && strstr(line, ": bpf_cmd_fail: cmd=OBJ_GET err=-2(ENOENT) ufd=-1 obj=none "))
		return;
	for (p = 0; p < NR_PHASES; p++)
		if (i >= 0 && mark && mark[8] == phase_tag[p]) {
			__atomic_fetch_add(&sh->seen[p][i], 1, __ATOMIC_RELAXED);
			return;
		}
	/*
	 * An event of no stress object: another task's (a machine's agents
	 * share the events), not ours to count. A stress line that lost its
	 * name is missed by the counts, which must match.
	 */
	if (i >= 0 && !mark) {
		sh->foreign++;
		return;
	}
	sh->unparsed++;
	fprintf(stderr, "# not a stress event: %s\n", line);
}

/* Drains trace_pipe until told to stop and the pipe is empty. */
static int reader_run(void)
{
	static char buf[1 << 16];
	size_t have = 0;
	char *nl, *line;
	ssize_t n;
	int fd;

	fd = open(TRACEFS "/trace_pipe", O_RDONLY | O_NONBLOCK);
	if (fd < 0)
		return 1;
	for (;;) {
		n = read(fd, buf + have, sizeof(buf) - 1 - have);
		if (n < 0 && errno != EAGAIN && errno != EINTR)
			return 1;
		if (n <= 0) {
			if (__atomic_load_n(&sh->stop_reader, __ATOMIC_ACQUIRE))
				return 0;
			usleep(1000);
			continue;
		}
		have += n;
		buf[have] = '\0';
		for (line = buf; (nl = strchr(line, '\n')); line = nl + 1) {
			*nl = '\0';
			count_line(line);
		}
		have -= line - buf;
		memmove(buf, line, have);
	}
}

/* Tells every helper of the test to stop: this one cannot go on. */
static void give_up(void)
{
	__atomic_store_n(&sh->gave_up, 1, __ATOMIC_RELEASE);
}

static bool gave_up(void)
{
	return __atomic_load_n(&sh->gave_up, __ATOMIC_ACQUIRE);
}

/* Pins the caller to @cpu; on failure says so and gives up. */
static int pin_or_stop(int cpu, const char *who)
{
	if (!pin_to_cpu(cpu))
		return 0;
	fprintf(stderr, "# %s: cannot pin to CPU %d: %s\n", who, cpu, strerror(errno));
	give_up();
	return -1;
}

/* All toggles of one kind, whether they worked or not. */
static unsigned long long toggles_done(enum toggle t)
{
	return __atomic_load_n(&sh->toggles_ok[t], __ATOMIC_RELAXED) +
	       __atomic_load_n(&sh->toggles_failed[t], __ATOMIC_RELAXED);
}

static unsigned long long all_toggles_done(void)
{
	unsigned long long n = 0;
	int t;

	for (t = 0; t < NR_TOGGLES; t++)
		n += toggles_done(t);
	return n;
}

/*
 * Waits until the toggler @pid has been round once (it disabled the events
 * once); false if it died or gave up first, or took over START_SECS.
 */
static bool toggler_started(pid_t pid)
{
	long long end = now_ns() + START_SECS * 1000000000LL;
	siginfo_t info;

	while (!toggles_done(T_DISABLE)) {
		/* WNOWAIT: an exited toggler stays for wait_clean() to report */
		info.si_pid = 0;
		if (gave_up() || now_ns() > end ||
		    waitid(P_PID, pid, &info, WEXITED | WNOHANG | WNOWAIT) || info.si_pid)
			return false;
		usleep(1000);
	}
	return true;
}

/*
 * A helper process: it dies with the test, so that a test that fails an
 * assertion leaves no toggler or reader running into the next test.
 */
static pid_t fork_helper(void)
{
	pid_t parent = getpid(), pid = fork();

	if (!pid && (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent))
		_exit(1);
	return pid;
}

static pid_t spawn(int (*fn)(void))
{
	pid_t pid = fork_helper();

	if (!pid)
		_exit(fn());
	return pid;
}

static int wait_clean(pid_t pid, const char *who)
{
	int status;

	if (waitpid(pid, &status, 0) != pid)
		return -1;
	if (WIFEXITED(status) && !WEXITSTATUS(status))
		return 0;
	fprintf(stderr, "# %s (pid %d) did not exit cleanly: status 0x%x\n", who, pid, status);
	return -1;
}

static int run_workers(enum phase phase, int rounds)
{
	pid_t pids[WORKERS];
	int i, failed = 0;

	for (i = 0; i < WORKERS; i++) {
		pids[i] = fork_helper();
		if (!pids[i])
			_exit(worker_run(i, phase, rounds));
	}
	for (i = 0; i < WORKERS; i++)
		failed |= wait_clean(pids[i], "worker");
	return failed;
}

static unsigned long long total(const unsigned long long *v)
{
	unsigned long long sum = 0;
	size_t i;

	for (i = 0; i < NR_BPF_EVENTS; i++)
		sum += v[i];
	return sum;
}

FIXTURE(stress) {
	bool gate_on;
};

FIXTURE_SETUP(stress)
{
	self->gate_on = expect_gate_on();
	ASSERT_EQ(0, bpffs_ready());
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, sh);
	memset(sh, 0, sizeof(*sh));
}

FIXTURE_TEARDOWN(stress)
{
	write_file(TRACEFS "/tracing_on", "0");
	write_file(TRACEFS "/set_event", "");
	/* the size the run found (bpf_tracepoints_host_setup()) */
	if (tracefs_saved_kb[0])
		write_file(TRACEFS "/buffer_size_kb", tracefs_saved_kb);
	write_file(TRACEFS "/trace", "");
	write_file(TRACEFS "/tracing_on", "1");
}

static int count_objects(int next_cmd, const char *prefix);

/*
 * Waits up to DRAIN_SECS for the maps and programs whose names begin with
 * @prefix to be freed (a program's last put runs after an RCU grace
 * period); 0 when none is left, else how many are.
 */
static int leftovers(const char *prefix)
{
	int maps = 0, progs = 0, waited;

	for (waited = 0; waited < DRAIN_SECS * 10; waited++) {
		maps = count_objects(BPF_MAP_GET_NEXT_ID, prefix);
		progs = count_objects(BPF_PROG_GET_NEXT_ID, prefix);
		if (maps <= 0 && progs <= 0)
			break;
		usleep(100000);
	}
	if (maps || progs)
		fprintf(stderr, "# %s*: %d maps, %d programs left after %d s\n", prefix, maps,
			progs, DRAIN_SECS);
	return maps < 0 || progs < 0 ? -1 : maps + progs;
}

static int phase_leftovers(int phase)
{
	char prefix[8];

	snprintf(prefix, sizeof(prefix), "st%c", phase_tag[phase]);
	return leftovers(prefix);
}

TEST_F_TIMEOUT(stress, workers_toggler_reader, 600)
{
	long long start = now_ns(), overrun;
	unsigned long long digest = 0xcbf29ce484222325ULL, toggles = 0;
	pid_t toggler, reader;
	int p, i, t, waited;

	/* chaos */
	ASSERT_EQ(0, write_file(TRACEFS "/trace", ""));
	ASSERT_EQ(0, write_file(TRACEFS "/tracing_on", "1"));
	reader = spawn(reader_run);
	toggler = spawn(toggler_run);
	/* the workers start once the toggler has been round once */
	ASSERT_TRUE(toggler_started(toggler));
	ASSERT_EQ(0, run_workers(CHAOS, CHAOS_ROUNDS));
	__atomic_store_n(&sh->stop_toggler, 1, __ATOMIC_RELEASE);
	ASSERT_EQ(0, wait_clean(toggler, "toggler"));
	write_file(TRACEFS "/set_event", "");
	__atomic_store_n(&sh->stop_reader, 1, __ATOMIC_RELEASE);
	ASSERT_EQ(0, wait_clean(reader, "reader"));

	for (t = 0; t < NR_TOGGLES; t++) {
		bool bpf_write = t != T_RESIZE;

		TH_LOG("toggler: %s: %llu ok, %llu failed", toggle_name[t],
		       sh->toggles_ok[t], sh->toggles_failed[t]);
		ASSERT_LT(0, sh->toggles_ok[t] + sh->toggles_failed[t]);
		/* on: every write works; off: those naming bpf events fail */
		ASSERT_EQ(0, self->gate_on || !bpf_write ? sh->toggles_failed[t] :
			     sh->toggles_ok[t]);
		toggles += sh->toggles_ok[t] + sh->toggles_failed[t];
	}
	for (i = 0; i < (int)NR_BPF_EVENTS; i++) {
		if (sh->seen[CHAOS][i] > sh->ops[CHAOS][i])
			TH_LOG("chaos: %s: %llu events read for %llu commands", bpf_events[i],
			       sh->seen[CHAOS][i], sh->ops[CHAOS][i]);
		ASSERT_LE(sh->seen[CHAOS][i], sh->ops[CHAOS][i]);
		if (!self->gate_on)
			ASSERT_EQ(0, sh->seen[CHAOS][i]);
	}
	if (self->gate_on)	/* the toggler had the events on for a while */
		ASSERT_LT(0, total(sh->seen[CHAOS]));
	/*
	 * An event's own reference, taken on one read of its enabled state
	 * and dropped on another, leaks an object or frees it early when
	 * the toggler flips the events in between: every object the workers
	 * made must be gone once they closed it.
	 */
	ASSERT_EQ(0, phase_leftovers(CHAOS));

	/* accounting: everything enabled, nothing lost */
	ASSERT_EQ(0, write_file(TRACEFS "/buffer_size_kb", ACCT_BUFFER_KB));
	ASSERT_EQ(0, write_file(TRACEFS "/trace", ""));
	ASSERT_EQ(self->gate_on ? 0 : -ENOENT,
		  write_file(TRACEFS "/events/bpf/enable", "1"));
	overrun = ring_counter("overrun:");
	__atomic_store_n(&sh->stop_reader, 0, __ATOMIC_RELEASE);
	reader = spawn(reader_run);
	ASSERT_EQ(0, run_workers(ACCT, ACCT_ROUNDS));
	/* pinned programs are freed after an RCU grace period */
	for (waited = 0; waited < DRAIN_SECS * 10 &&
	     total(sh->seen[ACCT]) < (self->gate_on ? total(sh->ops[ACCT]) : 0); waited++)
		usleep(100000);
	write_file(TRACEFS "/events/bpf/enable", "0");
	__atomic_store_n(&sh->stop_reader, 1, __ATOMIC_RELEASE);
	ASSERT_EQ(0, wait_clean(reader, "reader"));
	ASSERT_EQ(overrun, ring_counter("overrun:"));
	for (i = 0; i < (int)NR_BPF_EVENTS; i++) {
		unsigned long long want = self->gate_on ? sh->ops[ACCT][i] : 0;

		if (sh->seen[ACCT][i] != want)
			TH_LOG("accounting: %s: %llu events read, want %llu", bpf_events[i],
			       sh->seen[ACCT][i], want);
		EXPECT_EQ(want, sh->seen[ACCT][i]);
	}
	ASSERT_EQ(0, sh->unparsed);
	if (sh->foreign)
		TH_LOG("%llu lines of other tasks' objects skipped", sh->foreign);

	for (p = 0; p < NR_PHASES; p++)
		for (i = 0; i < WORKERS; i++)
			digest = (digest ^ sh->digest[p][i]) * 0x100000001b3ULL;
	ksft_print_msg("stress: %d workers x %d+%d rounds on %ld CPUs, %llu commands,\n",
		       WORKERS, CHAOS_ROUNDS, ACCT_ROUNDS, sysconf(_SC_NPROCESSORS_ONLN),
		       sh->commands);
	ksft_print_msg("stress: %llu events read (%llu in chaos), %llu tracefs writes, %lld s\n",
		       total(sh->seen[CHAOS]) + total(sh->seen[ACCT]), total(sh->seen[CHAOS]),
		       toggles, (now_ns() - start) / 1000000000LL);
	ksft_print_msg("stress digest: %016llx\n", digest);
}

/* The two-CPU tests: CPU 0 and CPU 1, pinned. */

#define TWO_CPUS_SKIP	"needs 2 online CPUs, this kernel runs on %ld"

/* One CPU's buffer as text, in a buffer of the caller's (NULL on error). */
static char *read_cpu_trace(int cpu, char *buf, size_t size)
{
	char path[128];

	snprintf(path, sizeof(path), TRACEFS "/per_cpu/cpu%d/trace", cpu);
	return read_into(path, buf, size);
}

/* Lines of @text that hold both @a and @b. */
static int count_lines(const char *text, const char *a, const char *b)
{
	const char *line, *end;
	int n = 0;

	for (line = text; *line; line = end + (*end == '\n')) {
		end = strchrnul(line, '\n');
		n += memmem(line, end - line, a, strlen(a)) &&
		     memmem(line, end - line, b, strlen(b));
	}
	return n;
}

/* PAIR_OPS updates and lookups of a map of this CPU's own, on @cpu only. */
static int pair_worker(int cpu)
{
	__u64 val, got;
	char name[16];
	long long end = now_ns() + START_SECS * 1000000000LL;
	__u32 key;
	int fd, i;

	snprintf(name, sizeof(name), "pair%d", cpu);
	if (pin_or_stop(cpu, "pair worker"))
		return 1;
	fd = sys_map_create_named(name, BPF_MAP_TYPE_ARRAY, 4, 8, 64, 0);
	if (fd < 0) {
		fprintf(stderr, "# pair worker %d: map create: %s\n", cpu, strerror(errno));
		give_up();
		return 1;
	}
	/* start together: each spins until both are pinned and ready */
	__atomic_add_fetch(&sh->ready, 1, __ATOMIC_ACQ_REL);
	while (__atomic_load_n(&sh->ready, __ATOMIC_ACQUIRE) < 2)
		if (gave_up() || now_ns() > end) {
			fprintf(stderr, "# pair worker %d: the other did not start\n", cpu);
			return 1;
		}
	sh->pair_start[cpu] = now_ns();
	for (i = 0; i < PAIR_OPS; i++) {
		key = i % 64;
		val = (__u64)cpu << 32 | i;
		if (sys_map_elem(BPF_MAP_UPDATE_ELEM, fd, &key, &val, BPF_ANY) ||
		    sys_map_elem(BPF_MAP_LOOKUP_ELEM, fd, &key, &got, 0) || got != val ||
		    sched_getcpu() != cpu)
			sh->pair_failed[cpu]++;
	}
	sh->pair_end[cpu] = now_ns();
	close(fd);
	return 0;
}

static int pair_worker0(void) { return pair_worker(0); }
static int pair_worker1(void) { return pair_worker(1); }

/*
 * Two CPUs at once, each on its own map, update and lookup events on: every
 * command gives exactly one event, in the buffer of the CPU that ran it,
 * and none is lost (no overrun).
 */
TEST_F_TIMEOUT(stress, two_cpus_accounting, 300)
{
	const char * const events[] = { " bpf_map_update_elem: ", " bpf_map_lookup_elem: " };
	long long overrun, first_end, last_start;
	pid_t w0, w1;
	int cpu, other, e;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP(return, TWO_CPUS_SKIP, sysconf(_SC_NPROCESSORS_ONLN));
	ASSERT_EQ(0, write_file(TRACEFS "/buffer_size_kb", PAIR_BUFFER_KB));
	ASSERT_EQ(0, write_file(TRACEFS "/trace", ""));
	ASSERT_EQ(0, write_file(TRACEFS "/tracing_on", "1"));
	for (e = 0; e < 2; e++) {
		char path[128];

		snprintf(path, sizeof(path), TRACEFS "/events/bpf/%.19s/enable", events[e] + 1);
		ASSERT_EQ(self->gate_on ? 0 : -ENOENT, write_file(path, "1"));
	}
	overrun = ring_counter("overrun:");
	w0 = spawn(pair_worker0);
	w1 = spawn(pair_worker1);
	e = wait_clean(w0, "CPU 0 worker");
	ASSERT_EQ(0, wait_clean(w1, "CPU 1 worker") | e);
	write_file(TRACEFS "/tracing_on", "0");
	ASSERT_EQ(0, sh->pair_failed[0]);
	ASSERT_EQ(0, sh->pair_failed[1]);
	/* they ran side by side, not one after the other */
	ASSERT_LT(sh->pair_start[1], sh->pair_end[0]);
	ASSERT_LT(sh->pair_start[0], sh->pair_end[1]);
	ASSERT_EQ(overrun, ring_counter("overrun:"));
	for (cpu = 0; cpu < 2; cpu++) {
		static char text[16 << 20];
		char mine[16], theirs[16];

		other = !cpu;
		snprintf(mine, sizeof(mine), " name=pair%d", cpu);
		snprintf(theirs, sizeof(theirs), " name=pair%d", other);
		ASSERT_NE(NULL, read_cpu_trace(cpu, text, sizeof(text)));
		for (e = 0; e < 2; e++) {
			int got = count_lines(text, events[e], mine);

			if (got != (self->gate_on ? PAIR_OPS : 0))
				TH_LOG("CPU %d:%s%d events of its own, want %d", cpu, events[e],
				       got, self->gate_on ? PAIR_OPS : 0);
			EXPECT_EQ(self->gate_on ? PAIR_OPS : 0, got);
			EXPECT_EQ(0, count_lines(text, events[e], theirs));
		}
	}
	first_end = sh->pair_end[0] < sh->pair_end[1] ? sh->pair_end[0] : sh->pair_end[1];
	last_start = sh->pair_start[0] > sh->pair_start[1] ? sh->pair_start[0] : sh->pair_start[1];
	ksft_print_msg("two CPUs: %d update+lookup pairs each, side by side for %lld ms\n",
		       PAIR_OPS, first_end / 1000000 - last_start / 1000000);
	write_file(TRACEFS "/events/bpf/enable", "0");
}

/*
 * @cmd, a bpf(2) command of the hammer, counted in flip_overlaps[n] for
 * each flip n of the toggler on CPU 0 that overlapped it: ran, in part,
 * while the command ran on CPU 1. The toggler flips one at a time: flip
 * n overlaps the command if it began before the command ended and had
 * not returned when it began (flips_done <= n < flips_begun). Whether
 * the flip worked, and so patched the events' static keys, is known
 * once it returned (storm_windows()).
 */
static void overlapped(unsigned long long done, unsigned long long begun)
{
	for (; done < begun; done++) {
		if (done < FLIP_LOG)
			sh->flip_overlaps[done]++;
		else
			sh->overlaps_unknown++;
	}
}

#define DURING_FLIPS(cmd) ({						\
	unsigned long long __done = __atomic_load_n(&sh->flips_done, __ATOMIC_SEQ_CST); \
	int __ret = (cmd);						\
									\
	overlapped(__done, __atomic_load_n(&sh->flips_begun, __ATOMIC_SEQ_CST)); \
	__ret;								\
})

/*
 * The hammer's commands that a flip which worked overlapped (one that two
 * such flips overlapped counts twice): none on an off kernel, whose
 * flips all fail.
 */
static unsigned long long storm_windows(void)
{
	unsigned long long n = 0;
	unsigned int i;

	for (i = 0; i < FLIP_LOG; i++)
		n += sh->flip_ok[i] ? sh->flip_overlaps[i] : 0;
	return n;
}

/*
 * bpf(2) commands on CPU 1 until the toggler on CPU 0 has made STORM_WRITES
 * writes since the hammer began, and at least STORM_ROUNDS rounds. Every
 * round's results are checked; those of the first STORM_ROUNDS rounds are
 * folded into the storm digest, the same on every kernel.
 */
static int storm_hammer(void)
{
	struct worker w = { .phase = CHAOS, .id = 0, .digest = 0xcbf29ce484222325ULL };
	unsigned long long first = all_toggles_done();
	long long end = now_ns() + STORM_SECS * 1000000000LL;
	__u64 val, got;
	__u32 key;
	int fd, hfd, pfd;

	if (pin_or_stop(1, "storm hammer"))
		return 1;
	hfd = check(&w, "create hash", NULL,
		    sys_map_create_named("stormh", BPF_MAP_TYPE_HASH, 4, 8, 64, 0), 0);
	if (hfd < 0)
		return 1;
	for (w.round = 0; w.round < STORM_ROUNDS || all_toggles_done() - first < STORM_WRITES;
	     w.round++) {
		if (gave_up() || now_ns() > end) {
			fprintf(stderr, "# storm hammer: %llu tracefs writes in %d s, want %d\n",
				all_toggles_done() - first, STORM_SECS, STORM_WRITES);
			w.failed++;
			break;
		}
		if (w.round == STORM_ROUNDS)
			sh->storm_digest = w.digest;
		key = w.round % 64;
		val = w.round;
		check(&w, "update", NULL,
		      DURING_FLIPS(sys_map_elem(BPF_MAP_UPDATE_ELEM, hfd, &key, &val, 0)), 0);
		check(&w, "lookup", NULL,
		      DURING_FLIPS(sys_map_elem(BPF_MAP_LOOKUP_ELEM, hfd, &key, &got, 0)), 0);
		check_data(&w, "lookup", &got, &val, sizeof(val));
		/* a NULL key gives the first key: the order is the hash seed's, not folded */
		check(&w, "first key", NULL, DURING_FLIPS(sys_map_next_key(hfd, NULL, &got)), 0);
		if (w.round % 2)
			check(&w, "delete", NULL,
			      DURING_FLIPS(sys_map_elem(BPF_MAP_DELETE_ELEM, hfd, &key, NULL, 0)),
			      0);
		if (w.round % 20)
			continue;
		fd = check(&w, "create", NULL,
			   DURING_FLIPS(sys_map_create_named("storma", BPF_MAP_TYPE_ARRAY, 4, 8,
							     4, 0)), 0);
		check(&w, "freeze", NULL, DURING_FLIPS(sys_map_freeze(fd)), 0);
		close(fd);
		pfd = check(&w, "prog load", NULL,
			    DURING_FLIPS(sys_prog_load_named("stormp", BPF_PROG_TYPE_SOCKET_FILTER,
							     0, 2)), 0);
		close(pfd);
	}
	close(hfd);
	if (w.round == STORM_ROUNDS)
		sh->storm_digest = w.digest;
	sh->storm_writes = all_toggles_done() - first;
	sh->storm_rounds = w.round;
	sh->storm_commands = sh->commands;
	sh->storm_failed = w.failed;
	return w.failed ? 1 : 0;
}

static int pinned_toggler(void)
{
	return pin_or_stop(0, "storm toggler") ? 1 : toggler_run();
}

/*
 * CPU 0 flips the bpf events (all, one, set_event) and resizes the buffer
 * while CPU 1 hammers bpf(2): no splat, every write works (fails, on an
 * off kernel, for those naming bpf events), and the results are those of
 * any kernel (the digest, compared by the host).
 */
TEST_F_TIMEOUT(stress, two_cpus_toggle_storm, STORM_SECS + 120)
{
	static char text[16 << 20];
	long long start = now_ns();
	unsigned long long writes = 0, windows;
	pid_t toggler, hammer;
	int t, events[2], e, failed;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP(return, TWO_CPUS_SKIP, sysconf(_SC_NPROCESSORS_ONLN));
	ASSERT_EQ(0, write_file(TRACEFS "/trace", ""));
	ASSERT_EQ(0, write_file(TRACEFS "/tracing_on", "1"));
	toggler = spawn(pinned_toggler);
	if (toggler_started(toggler)) {
		hammer = spawn(storm_hammer);
		failed = wait_clean(hammer, "CPU 1 hammer");
	} else {
		TH_LOG("the toggler did not start");
		failed = -1;
	}
	__atomic_store_n(&sh->stop_toggler, 1, __ATOMIC_RELEASE);
	failed |= wait_clean(toggler, "CPU 0 toggler");
	write_file(TRACEFS "/tracing_on", "0");
	write_file(TRACEFS "/set_event", "");
	ASSERT_EQ(0, failed);
	for (t = 0; t < NR_TOGGLES; t++) {
		TH_LOG("toggler: %s: %llu ok, %llu failed", toggle_name[t],
		       sh->toggles_ok[t], sh->toggles_failed[t]);
		ASSERT_LT(0, sh->toggles_ok[t] + sh->toggles_failed[t]);
		ASSERT_EQ(0, self->gate_on || t == T_RESIZE ? sh->toggles_failed[t] :
			     sh->toggles_ok[t]);
		writes += sh->toggles_ok[t] + sh->toggles_failed[t];
	}
	ASSERT_EQ(0, sh->storm_failed);
	/* the overlap: the hammer ran under the writes it waited for */
	ASSERT_LE(STORM_WRITES, sh->storm_writes);
	ASSERT_LE(STORM_ROUNDS, sh->storm_rounds);
	/*
	 * Every map and program the hammer made (storm*) is gone: an event
	 * whose reference outlives a flip between its two reads of the
	 * enabled state leaks the object.
	 */
	ASSERT_EQ(0, leftovers("storm"));
	/* what the events left: the hammer's, on CPU 1's buffer only (on) */
	for (e = 0; e < 2; e++) {
		ASSERT_NE(NULL, read_cpu_trace(e, text, sizeof(text)));
		events[e] = count_lines(text, ": bpf_", " name=storm");
	}
	EXPECT_EQ(0, events[0]);
	/* on: some; off: none */
	EXPECT_EQ(self->gate_on, events[1] > 0);
	ksft_print_msg("storm: %llu rounds, %llu bpf(2) commands on CPU 1 under %llu of %llu\n",
		       sh->storm_rounds, sh->storm_commands, sh->storm_writes, writes);
	ksft_print_msg("storm: tracefs writes on CPU 0, %d events left in CPU 1's buffer, %lld s\n",
		       events[1], (now_ns() - start) / 1000000000LL);
	ksft_print_msg("storm digest: %016llx\n", sh->storm_digest);
	/*
	 * last: the window was met, or the test proved nothing; and none on
	 * the off kernel, which has no key to flip (its flips all fail)
	 */
	windows = storm_windows();
	ksft_print_msg("storm: %llu commands on CPU 1 overlapped a flip that worked on CPU 0\n",
		       windows);
	ksft_print_msg("storm: %llu flips, %llu overlaps past the %d kept\n", sh->flips_done,
		       sh->overlaps_unknown, FLIP_LOG);
	ASSERT_EQ(self->gate_on, windows > 0)
		TH_LOG("want %s", self->gate_on ? "some" : "none (off: no key)");
}

#define RACE_LOG	65536	/* closes and failed uses a round of the race keeps */
#define RACE_SECS	180	/* rounds of RACE_ROUNDS until the window is met */

/* A close of the closer that worked: fd, and when it began and returned. */
struct race_close {
	int fd;
	long long start, end;
};

/* An fd the maker made and found closed at its next use. */
struct race_gone {
	int fd;
	long long made_start, made_end, used_end;
};

struct race {
	int first_fd, stop, pin_failed;
	long long deadline;	/* the maker stops there, whatever its round */
	unsigned long long rounds, ebadf, closed, unexpected;
	unsigned int nr_closes, nr_gone;
	struct race_close closes[RACE_LOG];
	struct race_gone gone[RACE_LOG];
};

/*
 * A failed command of the maker: EBADF is the closer's doing (counted),
 * and so is @also where not 0: EINVAL for a pin (bpf_fd_probe_obj() finds
 * no map, program or link behind a closed fd), ENOENT for the get after
 * such a pin. Any other error is a failure of its own.
 */
static void race_failed(struct race *r, const char *what, int also)
{
	if (errno == EBADF || (also && errno == also)) {
		r->ebadf++;
	} else {
		fprintf(stderr, "# close race round %llu: %s: %s\n", r->rounds, what,
			strerror(errno));
		r->unexpected++;
	}
}

/*
 * The fd @fd, made by a command that ran from @start to @end, was gone at
 * its next use, which failed with @err and returned at @used: kept for
 * race_window().
 */
static void race_gone(struct race *r, int fd, long long start, long long end, long long used,
		      int err)
{
	if (fd < 0 || !end || err != EBADF || r->nr_gone == RACE_LOG)
		return;
	r->gone[r->nr_gone++] = (struct race_gone){ fd, start, end, used };
}

/*
 * The closes that returned before the maker's clock did, after the
 * command that made the fd: inside the command (after the fd was
 * installed, before the command returned, where the 2017 events read the
 * object), or in the instant between its return and the clock's read,
 * which no clock in user space can tell apart. A made fd that was gone
 * at its next use (EBADF) was closed by the closer after it was
 * installed; when every close of that fd number that worked between the
 * command's start and the use had returned before the maker's clock,
 * the one that closed it did too. The off kernel meets this as well: it
 * shows that the closer ran at the command's own time, not that it met
 * an event's read (that is the leak check's and KASAN's). The clock is
 * CLOCK_MONOTONIC, one for all CPUs.
 */
static unsigned long long race_window(const struct race *r)
{
	unsigned long long n = 0;
	unsigned int g, c;

	for (g = 0; g < r->nr_gone; g++) {
		const struct race_gone *m = &r->gone[g];
		int inside = 0, after = 0;

		for (c = 0; c < r->nr_closes; c++) {
			const struct race_close *k = &r->closes[c];

			if (k->fd != m->fd || k->end < m->made_start || k->start > m->used_end)
				continue;
			if (k->end < m->made_end)
				inside++;
			else
				after++;
		}
		n += inside && !after;
	}
	return n;
}

/*
 * Maps (@next_cmd BPF_MAP_GET_NEXT_ID) or programs (BPF_PROG_GET_NEXT_ID)
 * whose names begin with @prefix that exist now; -1 if they cannot be
 * listed.
 */
static int count_objects(int next_cmd, const char *prefix)
{
	int by_id = next_cmd == BPF_MAP_GET_NEXT_ID ? BPF_MAP_GET_FD_BY_ID : BPF_PROG_GET_FD_BY_ID;
	struct bpf_map_info minfo;
	struct bpf_prog_info pinfo;
	union bpf_attr attr;
	__u32 id = 0;
	int n = 0, fd;

	for (;;) {
		memset(&attr, 0, sizeof(attr));
		attr.start_id = id;
		if (sys_bpf(next_cmd, &attr))
			return errno == ENOENT ? n : -1;
		id = attr.next_id;
		memset(&attr, 0, sizeof(attr));
		attr.map_id = id;	/* prog_id shares the field */
		fd = sys_bpf(by_id, &attr);
		if (fd < 0 && errno == ENOENT)
			continue;	/* freed meanwhile */
		if (fd < 0)
			return -1;
		memset(&attr, 0, sizeof(attr));
		memset(&minfo, 0, sizeof(minfo));
		memset(&pinfo, 0, sizeof(pinfo));
		attr.info.bpf_fd = fd;
		if (by_id == BPF_MAP_GET_FD_BY_ID) {
			attr.info.info_len = sizeof(minfo);
			attr.info.info = (__u64)(unsigned long)&minfo;
		} else {
			attr.info.info_len = sizeof(pinfo);
			attr.info.info = (__u64)(unsigned long)&pinfo;
		}
		if (sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &attr)) {
			close(fd);
			return -1;
		}
		n += !strncmp(by_id == BPF_MAP_GET_FD_BY_ID ? minfo.name : pinfo.name, prefix,
			      strlen(prefix));
		close(fd);
	}
}

/*
 * Pins @fd at @path (its first use, when made from @start to @end: see
 * race_gone()), gets it back, then drops both fds and the pin.
 */
static void race_pin_get(struct race *r, int fd, long long start, long long end,
			 const char *path)
{
	int got;

	if (sys_obj_pin(fd, path)) {
		race_gone(r, fd, start, end, now_ns(), errno);
		race_failed(r, "pin", EINVAL);
	}
	start = now_ns();
	got = sys_obj_get(path);
	end = now_ns();
	if (got < 0)
		race_failed(r, "get", ENOENT);
	unlink(path);
	/* the got fd's first use: its close (EBADF: the closer's) */
	if (got >= 0 && close(got))
		race_gone(r, got, start, end, now_ns(), errno);
	close(fd);
}

/* CPU 0: objects made, pinned and got, each fd used and closed. */
static void *race_maker(void *arg)
{
	struct race *r = arg;
	long long start, end;
	char path[64];
	__u32 key = 0;
	__u64 val = 1;
	int fd, i;

	if (pin_to_cpu(0)) {
		r->pin_failed = 1;
		goto out;
	}
	for (i = 0; i < RACE_ROUNDS && !__atomic_load_n(&r->stop, __ATOMIC_ACQUIRE) &&
	     now_ns() < r->deadline; i++) {
		snprintf(path, sizeof(path), BPFFS "/race_%d", i);
		start = now_ns();
		fd = sys_map_create_named("racem", BPF_MAP_TYPE_ARRAY, 4, 8, 1, 0);
		end = now_ns();
		if (fd < 0)
			race_failed(r, "map create", 0);
		if (sys_map_elem(BPF_MAP_UPDATE_ELEM, fd, &key, &val, BPF_ANY)) {
			race_gone(r, fd, start, end, now_ns(), errno);
			race_failed(r, "update", 0);
			/* the pin's EBADF is this one's: no second record */
			end = 0;
		}
		race_pin_get(r, fd, start, end, path);
		start = now_ns();
		fd = sys_prog_load_named("racep", BPF_PROG_TYPE_SOCKET_FILTER, 0, 2);
		end = now_ns();
		if (fd < 0)
			race_failed(r, "prog load", 0);
		race_pin_get(r, fd, start, end, path);
		r->rounds++;
	}
out:
	__atomic_store_n(&r->stop, 1, __ATOMIC_RELEASE);
	return NULL;
}

/*
 * CPU 1: closes the fds the maker is about to get or has just got, and
 * keeps each close that worked, with when it began and returned.
 */
static void *race_closer(void *arg)
{
	struct race *r = arg;
	long long start;
	int fd;

	if (pin_to_cpu(1)) {
		r->pin_failed = 1;
		__atomic_store_n(&r->stop, 1, __ATOMIC_RELEASE);
		return NULL;
	}
	while (!__atomic_load_n(&r->stop, __ATOMIC_ACQUIRE))
		for (fd = r->first_fd; fd < r->first_fd + 2; fd++) {
			start = now_ns();
			if (close(fd))
				continue;
			r->closed++;
			if (r->nr_closes < RACE_LOG)
				r->closes[r->nr_closes++] =
					(struct race_close){ fd, start, now_ns() };
		}
	return NULL;
}

/*
 * Objects whose fds vanish under the events that read them: the events of
 * map creation, program load, pin and get take their own reference while
 * enabled. Nothing may crash (the debug kernel's KASAN and lockdep watch)
 * or leak (no racem map or racep program outlives the test), and the race
 * must have happened: some fds the maker made were closed under it after
 * their install, before its next use of them (EBADF). How many of those
 * closes returned before the maker's clock after the command that made
 * the fd, inside it or just after (race_window()), is printed: with
 * vCPUs that run at once, rounds of RACE_ROUNDS run until one did, for up
 * to RACE_SECS; with one host thread for all (single-threaded TCG) it
 * takes a vCPU switch inside that window, and it is counted, not
 * asserted, and the test says so.
 */
TEST_F_TIMEOUT(stress, two_cpus_close_races, RACE_SECS + 120)
{
	static struct race r;
	unsigned long long rounds = 0, ebadf = 0, closed = 0, window = 0, gone = 0;
	long long end = now_ns() + RACE_SECS * 1000000000LL;
	/* asked for where vCPUs run at once: a close inside a command too */
	bool until_window = self->gate_on && getenv("BPF_TRACEPOINTS_RACE_UNTIL_WINDOW");
	pthread_t maker, closer;
	int waited, maps = -1, progs = -1, next_fd, batches = 0;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP(return, TWO_CPUS_SKIP, sysconf(_SC_NPROCESSORS_ONLN));
	ASSERT_EQ(0, write_file(TRACEFS "/trace", ""));
	ASSERT_EQ(0, write_file(TRACEFS "/tracing_on", "1"));
	ASSERT_EQ(self->gate_on ? 0 : -ENOENT, write_file(TRACEFS "/events/bpf/enable", "1"));
	/*
	 * Batches of RACE_ROUNDS; after the first, more to RACE_SECS until
	 * the race is met (on a busy machine, a neighbour on the last CPU or
	 * a loaded host, one batch can miss it), and its window where asked.
	 */
	do {
		memset(&r, 0, sizeof(r));
		/* the first batch runs whole: RACE_ROUNDS, whatever the time */
		r.deadline = batches ? end : LLONG_MAX;
		/* the two lowest free fds, next to each other: the maker's come from there */
		r.first_fd = dup(0);
		next_fd = dup(0);
		ASSERT_LE(0, r.first_fd);
		close(r.first_fd);
		close(next_fd);
		ASSERT_EQ(r.first_fd + 1, next_fd);
		ASSERT_EQ(0, pthread_create(&maker, NULL, race_maker, &r));
		ASSERT_EQ(0, pthread_create(&closer, NULL, race_closer, &r));
		pthread_join(maker, NULL);
		pthread_join(closer, NULL);
		ASSERT_EQ(0, r.pin_failed);
		if (!batches)
			ASSERT_EQ(RACE_ROUNDS, r.rounds);
		ASSERT_EQ(0, r.unexpected);
		batches++;
		rounds += r.rounds;
		ebadf += r.ebadf;
		closed += r.closed;
		gone += r.nr_gone;
		window += race_window(&r);
	} while (now_ns() < end && (!gone || (until_window && !window)));
	write_file(TRACEFS "/events/bpf/enable", "0");
	/* maps and programs are freed from a workqueue and after RCU */
	for (waited = 0; waited < DRAIN_SECS * 10; waited++) {
		maps = count_objects(BPF_MAP_GET_NEXT_ID, "racem");
		progs = count_objects(BPF_PROG_GET_NEXT_ID, "racep");
		if (maps <= 0 && progs <= 0)
			break;
		usleep(100000);
	}
	if (maps || progs)
		TH_LOG("left after %d s: %d racem maps, %d racep programs", DRAIN_SECS,
		       maps, progs);
	ASSERT_EQ(0, maps);
	ASSERT_EQ(0, progs);
	ksft_print_msg("close races: %llu rounds on CPU 0 (%d batches of up to %d),\n", rounds,
		       batches, RACE_ROUNDS);
	ksft_print_msg("close races: %llu fds closed from CPU 1, %llu commands met one,\n",
		       closed, ebadf);
	ksft_print_msg("close races: %llu fds made were gone at their next use,\n", gone);
	ksft_print_msg("close races: %llu closes returned before the maker's clock\n", window);
	ksft_print_msg("close races: after the command that made the fd\n");
	ASSERT_LT(0, closed);
	/* the race: met, or the test proved nothing */
	ASSERT_LT(0, gone) TH_LOG("no fd the maker made was closed under it");
	/* asked for (vCPUs that run at once): a close at the command's time */
	if (until_window) {
		ASSERT_LT(0, window) TH_LOG("no close returned before the maker's clock in %d s",
					    RACE_SECS);
	} else if (self->gate_on) {
		ksft_print_msg("close races: not asserted: vCPUs that share a host\n");
		ksft_print_msg("close races: thread (BPF_TRACEPOINTS_RACE_UNTIL_WINDOW unset)\n");
	}
}

int main(int argc, char **argv)
{
	bpf_tracepoints_host_setup();
	bpf_tracepoints_save_tracefs();
	return test_harness_run(argc, argv);
}
