// SPDX-License-Identifier: GPL-2.0
/*
 * Lifecycles: BTF, maps, links, attachments and test runs, each made,
 * changed and freed in one window.
 */
#define _GNU_SOURCE
#include "../kselftest_harness.h"
#include <signal.h>
#include <linux/perf_event.h>
#include <sys/prctl.h>
#include "test_helpers.h"

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

/*
 * No task reaches a new map before its create record: a child walks the
 * map ids (BPF_MAP_GET_NEXT_ID, BPF_MAP_GET_FD_BY_ID) and looks up the
 * test's maps it finds while the test creates them, and in the trace the
 * first line of each new map's id must be its bpf_map_create. An id
 * published before the event lets the child's lookup come first where
 * the gap is wide (the mutant's 20 ms); a gap of a few instructions, as
 * the unpatched order had, is rarely hit.
 */
#define HUNT_MAPS	32

static void hunt_map_ids(int stop)
{
	static __u32 seen[256];
	int nr_seen = 0, fd, i;
	struct map_desc d;
	union bpf_attr attr;
	__u32 id, key = 0;
	bool last;
	__u64 val;
	char c;

	/* never outlives the test, whatever stops it */
	prctl(PR_SET_PDEATHSIG, SIGKILL);

	fcntl(stop, F_SETFL, O_NONBLOCK);
	/* a last walk once told to stop: every map of the test made by then */
	for (last = false; !last; ) {
		last = read(stop, &c, 1) >= 0 || errno != EAGAIN;
		for (id = 0; ; ) {
			memset(&attr, 0, sizeof(attr));
			attr.start_id = id;
			if (sys_bpf(BPF_MAP_GET_NEXT_ID, &attr))
				break;
			id = attr.next_id;
			memset(&attr, 0, sizeof(attr));
			attr.map_id = id;
			fd = sys_bpf(BPF_MAP_GET_FD_BY_ID, &attr);
			if (fd < 0)
				continue;
			/* the test's own, whose value fits val, each once */
			if (!map_desc(fd, &d) && !strcmp(d.name, MAP_NAME) &&
			    d.key_size == sizeof(key) && d.value_size == sizeof(val)) {
				for (i = 0; i < nr_seen && seen[i] != id; i++)
					;
				if (i == nr_seen && nr_seen < (int)ARRAY_SIZE(seen)) {
					seen[nr_seen++] = id;
					sys_map_elem(BPF_MAP_LOOKUP_ELEM, fd, &key, &val, 0);
				}
			}
			close(fd);
		}
	}
	_exit(0);
}

TEST(map_use_never_precedes_its_create)
{
	int stop[2], fds[HUNT_MAPS], i, status;
	const char *pos;
	char *trace, *line;
	long long ids[HUNT_MAPS], id;
	int nr_ids = 0, early = 0, reached = 0;
	pid_t hunter;

	ASSERT_EQ(0, pipe(stop));
	TP_BEGIN("bpf_map_create,bpf_map_lookup_elem");
	hunter = fork();
	ASSERT_LE(0, hunter);
	if (!hunter) {
		close(stop[1]);
		hunt_map_ids(stop[0]);
	}
	close(stop[0]);
	usleep(100 * 1000);
	for (i = 0; i < HUNT_MAPS; i++) {
		fds[i] = sys_map_create(BPF_MAP_TYPE_ARRAY, 4, 8, 1, 0);
		ASSERT_LE(0, fds[i]) TH_LOG("BPF_MAP_CREATE: %s", strerror(errno));
	}
	ASSERT_EQ(1, write(stop[1], "x", 1));
	close(stop[1]);
	ASSERT_EQ(hunter, waitpid(hunter, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status)) TH_LOG("hunter: %#x", status);
	trace = tp_end();
	for (i = 0; i < HUNT_MAPS; i++)
		close(fds[i]);
	if (!gate_on)
		return;
	ASSERT_NE(NULL, trace);
	/* the test's creates, then the first line naming each one's id */
	for (pos = trace; nr_ids < HUNT_MAPS &&
	     (line = next_line_with(&pos, " bpf_map_create: ", NULL)); free(line))
		if (task_pid(line, line) == getpid())
			ids[nr_ids++] = line_field(line, " id=");
	ASSERT_EQ(HUNT_MAPS, nr_ids) TH_LOG("%s", trace);
	for (i = 0; i < nr_ids; i++) {
		line = line_of(trace, fmt(" id=%lld ", ids[i]), NULL);
		ASSERT_NE(NULL, line);
		if (!strstr(line, " bpf_map_create: ")) {
			TH_LOG("id %lld used first: %s", ids[i], line);
			early++;
		}
		free(line);
	}
	EXPECT_EQ(0, early);
	/* and the child did reach the test's maps: a check that can fail */
	for (pos = trace; (line = next_line_with(&pos, " bpf_map_lookup_elem: ", NULL));
	     free(line)) {
		id = line_field(line, " id=");
		for (i = 0; i < nr_ids && task_pid(line, line) == hunter; i++)
			reached += ids[i] == id;
	}
	EXPECT_LT(0, reached) TH_LOG("the child looked up none of the maps:\n%s", trace);
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
	EXPECT_EVENT(trace, fmt("bpf_link_create: link type=XDP ufd=%d id=%u prog=%s prog_type=XDP prog_id=%u prog_name=%s expected_attach_type=none attach_btf_id=0 attach_btf_obj_id=0 target=ifindex target_id=%u",
				link, info.id, p.tag, p.id, p.name, info.xdp.ifindex));
	EXPECT_EQ(if_nametoindex("lo"), info.xdp.ifindex);
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
	struct prog_desc p;
	int prog, link;
	char *trace;

	prog = sys_prog_load_ret(BPF_PROG_TYPE_RAW_TRACEPOINT, 0, 2);
	ASSERT_LE(0, prog) TH_LOG("raw_tp prog: %s", strerror(errno));
	ASSERT_EQ(0, prog_desc(prog, &p));
	TP_BEGIN("bpf_link_create,bpf_link_free");
	link = sys_raw_tp_open(prog, "sched_switch");
	ASSERT_LE(0, link) TH_LOG("BPF_RAW_TRACEPOINT_OPEN: %s", strerror(errno));
	ASSERT_EQ(0, sys_obj_info(link, &info, sizeof(info)));
	tp_own('l', info.id);
	close(link);
	trace = tp_end();
	EXPECT_EVENT(trace, fmt("bpf_link_create: link type=RAW_TRACEPOINT ufd=%d id=%u prog=%s prog_type=RAW_TRACEPOINT prog_id=%u prog_name=%s expected_attach_type=none attach_btf_id=0 attach_btf_obj_id=0 target=sched_switch target_id=0",
				link, info.id, p.tag, p.id, p.name));
	EXPECT_EVENT(trace, fmt("bpf_link_free: link type=RAW_TRACEPOINT id=%u prog_id=%u",
				info.id, p.id));
	close(prog);
}

/*
 * A link's target as its link type's fill_link_info() reports it: a
 * netns link's inode, a counter's PMU and config (a perf event that is
 * not a tracepoint).
 */
TEST(link_targets)
{
	struct bpf_link_info info = {};
	struct perf_event_attr pe = {};
	int flow, counted, nsfd, pfd, nlink, plink;
	struct prog_desc f, c;
	__u32 nid, pid;
	struct stat st;
	char *trace;

	ASSERT_EQ(0, unshare(CLONE_NEWNET)) TH_LOG("unshare: %s", strerror(errno));
	nsfd = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, nsfd);
	ASSERT_EQ(0, fstat(nsfd, &st));
	flow = sys_prog_load_ret(BPF_PROG_TYPE_FLOW_DISSECTOR, 0, 2);
	ASSERT_LE(0, flow) TH_LOG("flow dissector prog: %s", strerror(errno));
	counted = sys_prog_load_ret(BPF_PROG_TYPE_PERF_EVENT, 0, 2);
	ASSERT_LE(0, counted) TH_LOG("perf event prog: %s", strerror(errno));
	ASSERT_EQ(0, prog_desc(flow, &f));
	ASSERT_EQ(0, prog_desc(counted, &c));
	pe.size = sizeof(pe);
	pe.type = PERF_TYPE_SOFTWARE;
	/* 2: not a default 0; the clocks have PMUs of their own */
	pe.config = PERF_COUNT_SW_PAGE_FAULTS;
	pe.sample_period = 1000000;
	pe.disabled = 1;
	pfd = syscall(__NR_perf_event_open, &pe, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_LE(0, pfd) TH_LOG("perf_event_open: %s", strerror(errno));

	TP_BEGIN("bpf_link_create");
	nlink = sys_link_create(flow, nsfd, BPF_FLOW_DISSECTOR);
	ASSERT_LE(0, nlink) TH_LOG("netns link: %s", strerror(errno));
	plink = sys_link_create(counted, pfd, BPF_PERF_EVENT);
	ASSERT_LE(0, plink) TH_LOG("perf event link: %s", strerror(errno));
	ASSERT_EQ(0, sys_obj_info(nlink, &info, sizeof(info)));
	nid = info.id;
	/* what BPF_OBJ_GET_INFO_BY_FD says, and what fstat() says */
	EXPECT_EQ(st.st_ino, info.netns.netns_ino);
	memset(&info, 0, sizeof(info));
	ASSERT_EQ(0, sys_obj_info(plink, &info, sizeof(info)));
	pid = info.id;
	tp_own('l', nid);
	tp_own('l', pid);
	trace = tp_end();
	EXPECT_EVENT(trace, fmt("bpf_link_create: link type=NETNS ufd=%d id=%u prog=%s prog_type=FLOW_DISSECTOR prog_id=%u prog_name=%s expected_attach_type=none attach_btf_id=0 attach_btf_obj_id=0 target=netns_ino target_id=%llu",
				nlink, nid, f.tag, f.id, f.name,
				(unsigned long long)st.st_ino));
	EXPECT_EVENT(trace, fmt("bpf_link_create: link type=PERF_EVENT ufd=%d id=%u prog=%s prog_type=PERF_EVENT prog_id=%u prog_name=%s expected_attach_type=none attach_btf_id=0 attach_btf_obj_id=0 target=software target_id=%d",
				plink, pid, c.tag, c.id, c.name,
				PERF_COUNT_SW_PAGE_FAULTS));
	close(plink);
	close(nlink);
	close(pfd);
	close(counted);
	close(flow);
	close(nsfd);
}

#define TP_BPF_TCX_INGRESS	46	/* BPF_TCX_INGRESS: not in 6.1's header */

/* 6.12's tcx and sockmap links: an ifindex and a map id */
TEST(link_targets_tcx_sockmap)
{
	int cls, verdict, map, tlink, slink, lo;
	struct bpf_link_info info = {};
	struct prog_desc t, v;
	struct map_desc m;
	__u32 tid, sid;
	char *trace;

	if (kernel_is_6_1())
		SKIP(return, "6.1 has neither tcx nor sockmap links");
	ASSERT_EQ(0, unshare(CLONE_NEWNET)) TH_LOG("unshare: %s", strerror(errno));
	lo = if_nametoindex("lo");
	ASSERT_LT(0, lo);
	cls = sys_prog_load_ret(BPF_PROG_TYPE_SCHED_CLS, 0, 2);
	ASSERT_LE(0, cls) TH_LOG("sched_cls prog: %s", strerror(errno));
	verdict = sys_prog_load_ret(BPF_PROG_TYPE_SK_SKB, 1 /* SK_PASS */, 2);
	ASSERT_LE(0, verdict) TH_LOG("sk_skb prog: %s", strerror(errno));
	map = sys_map_create(BPF_MAP_TYPE_SOCKMAP, 4, 4, 1, 0);
	ASSERT_LE(0, map) TH_LOG("sockmap: %s", strerror(errno));
	ASSERT_EQ(0, prog_desc(cls, &t));
	ASSERT_EQ(0, prog_desc(verdict, &v));
	ASSERT_EQ(0, map_desc(map, &m));

	TP_BEGIN("bpf_link_create");
	tlink = sys_link_create(cls, lo, TP_BPF_TCX_INGRESS);
	ASSERT_LE(0, tlink) TH_LOG("tcx link: %s", strerror(errno));
	slink = sys_link_create(verdict, map, BPF_SK_SKB_STREAM_VERDICT);
	ASSERT_LE(0, slink) TH_LOG("sockmap link: %s", strerror(errno));
	ASSERT_EQ(0, sys_obj_info(tlink, &info, sizeof(info)));
	tid = info.id;
	memset(&info, 0, sizeof(info));
	ASSERT_EQ(0, sys_obj_info(slink, &info, sizeof(info)));
	sid = info.id;
	tp_own('l', tid);
	tp_own('l', sid);
	trace = tp_end();
	EXPECT_EVENT(trace, fmt("bpf_link_create: link type=TCX ufd=%d id=%u prog=%s prog_type=SCHED_CLS prog_id=%u prog_name=%s expected_attach_type=none attach_btf_id=0 attach_btf_obj_id=0 target=ifindex target_id=%d",
				tlink, tid, t.tag, t.id, t.name, lo));
	EXPECT_EVENT(trace, fmt("bpf_link_create: link type=SOCKMAP ufd=%d id=%u prog=%s prog_type=SK_SKB prog_id=%u prog_name=%s expected_attach_type=none attach_btf_id=0 attach_btf_obj_id=0 target=map_id target_id=%u",
				slink, sid, v.tag, v.id, v.name, m.id));
	close(slink);
	close(tlink);
	close(map);
	close(verdict);
	close(cls);
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
	/* the program netns_bpf_prog_detach() resolved */
	EXPECT_EVENT(trace, fmt("bpf_prog_detach: attach_type=FLOW_DISSECTOR target_fd=0 flags=0 prog_ufd=%d prog_id=%u",
				prog, p.id));
	close(prog);
}

TEST(prog_test_run)
{
	unsigned char data[64] = { 0 };
	__u32 retval, duration;
	union bpf_attr attr;
	struct prog_desc p;
	char *trace;
	int prog;

	/* returns 7: the record's retval is the run's */
	prog = sys_prog_load_ret(BPF_PROG_TYPE_SOCKET_FILTER, 7, 2);
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
	ASSERT_EQ(7, attr.test.retval);
	retval = attr.test.retval;
	duration = attr.test.duration;
	/* too little data for an skb: refused, no event */
	attr.test.data_size_in = 2;
	ASSERT_EQ(-1, sys_bpf(BPF_PROG_TEST_RUN, &attr));
	trace = tp_end();
	/* retval and duration as the run gave them back */
	EXPECT_EVENT(trace, fmt("bpf_prog_test_run: prog=%s type=SOCKET_FILTER repeat=3 data_size_in=64 ctx_size_in=0 flags=0 retval=%u duration=%u id=%u name=%s",
				p.tag, retval, duration, p.id, p.name));
	ASSERT_EQ(gate_on, count_of(trace, " bpf_prog_test_run: ")) TH_LOG("%s", trace);
	close(prog);
}

int main(int argc, char **argv)
{
	bpf_tracepoints_test_setup();
	return test_harness_run(argc, argv);
}
