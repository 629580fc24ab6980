// SPDX-License-Identifier: GPL-2.0
/*
 * Every bpf(2) command both trees have, from a table: for each, one call
 * that works and one that fails, each after a trace_marker mark of its
 * own. The bpf:* records this task left between a mark and the next are
 * exactly those the row names, in order (the rst's table of the events
 * per command and outcome): a command that worked has its own event or
 * none, one that failed its failure record, after a bpf_cmd_refused
 * where the syscall layer's checks refused, and nothing else.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include "../kselftest_harness.h"
#include "test_helpers.h"

#define CMD_PIN		BPFFS "/tp_cmd_map"

/* The objects the calls use, made before the marks */
struct objs {
	int hash, array, frozen, single;	/* maps */
	int prog, flow1, flow2, raw_tp;		/* programs */
	int btf, netns, raw_link, link;		/* and the links rows make */
	int iter_link;				/* an iterator's, with BTF */
	__u32 prog_id, map_id, btf_id, link_id;
};

struct row {
	const char *cmd;
	/* the call: 0 or -1 with errno, as bpf(2) */
	int (*call)(struct objs *o, bool fail);
	const char *ok;		/* the records of the call that works */
	int err;		/* the errno of the one that fails */
	const char *failed;	/* ... and its records */
	int err_6_1;		/* the errno on 6.1, where it differs */
	bool ok_needs_btf;	/* the call that works needs BTF */
};

/*
 * A call's new fd, closed after the trace: a close between the marks
 * would put its free (bpf_map_free, bpf_prog_put_rcu, bpf_btf_free) in
 * the call's records
 */
static int fds[64], nr_fds;

static int close_ret(int fd)
{
	if (fd < 0)
		return -1;
	if (nr_fds < (int)ARRAY_SIZE(fds))
		fds[nr_fds++] = fd;
	return 0;
}

static int map_create(struct objs *o, bool fail)
{
	return close_ret(sys_map_create(BPF_MAP_TYPE_ARRAY, 4, 8, fail ? 0 : 4, 0));
}

static int map_elem(int cmd, int fd, __u32 key, __u64 flags)
{
	__u64 val = 1;

	/* a delete takes no value */
	return sys_map_elem(cmd, fd, &key, cmd == BPF_MAP_DELETE_ELEM ? NULL : &val, flags);
}

static int lookup_elem(struct objs *o, bool fail)
{
	return map_elem(BPF_MAP_LOOKUP_ELEM, o->hash, fail ? 7 : 1, 0);
}

static int update_elem(struct objs *o, bool fail)
{
	return map_elem(BPF_MAP_UPDATE_ELEM, o->hash, 1, fail ? BPF_NOEXIST : BPF_ANY);
}

static int delete_elem(struct objs *o, bool fail)
{
	return map_elem(BPF_MAP_DELETE_ELEM, o->hash, fail ? 7 : 2, 0);
}

static int next_key(struct objs *o, bool fail)
{
	__u32 next;

	return sys_map_next_key(fail ? 999 : o->hash, NULL, &next);
}

static int prog_load(struct objs *o, bool fail)
{
	return close_ret(sys_prog_load_ret(BPF_PROG_TYPE_SOCKET_FILTER, 0, fail ? 0 : 2));
}

static int obj_pin(struct objs *o, bool fail)
{
	/* the second pin of the path finds it taken */
	return sys_obj_pin(o->hash, CMD_PIN);
}

static int obj_get(struct objs *o, bool fail)
{
	return close_ret(sys_obj_get(fail ? BPFFS "/tp_cmd_none" : CMD_PIN));
}

static int prog_attach_detach(int cmd, int prog)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.attach_bpf_fd = prog;
	attr.attach_type = BPF_FLOW_DISSECTOR;
	return sys_bpf(cmd, &attr);
}

static int prog_attach(struct objs *o, bool fail)
{
	/* the same program a second time is refused */
	return prog_attach_detach(BPF_PROG_ATTACH, o->flow1);
}

static int prog_detach(struct objs *o, bool fail)
{
	/* the second finds nothing attached */
	return prog_attach_detach(BPF_PROG_DETACH, o->flow1);
}

static int test_run(struct objs *o, bool fail)
{
	unsigned char data[64] = { 0 };
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.test.prog_fd = o->prog;
	attr.test.data_in = (__u64)(unsigned long)data;
	/* too little for an skb */
	attr.test.data_size_in = fail ? 2 : sizeof(data);
	return sys_bpf(BPF_PROG_TEST_RUN, &attr);
}

static int next_id(int cmd, bool fail)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.start_id = fail ? 0x7fffffff : 0;
	return sys_bpf(cmd, &attr);
}

static int prog_next_id(struct objs *o, bool fail)
{
	return next_id(BPF_PROG_GET_NEXT_ID, fail);
}

static int map_next_id(struct objs *o, bool fail)
{
	return next_id(BPF_MAP_GET_NEXT_ID, fail);
}

static int btf_next_id(struct objs *o, bool fail)
{
	return next_id(BPF_BTF_GET_NEXT_ID, fail);
}

static int link_next_id(struct objs *o, bool fail)
{
	return next_id(BPF_LINK_GET_NEXT_ID, fail);
}

static int fd_by_id(int cmd, __u32 id, bool fail)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.prog_id = fail ? 0x7ffffff0 : id;
	return close_ret(sys_bpf(cmd, &attr));
}

static int prog_fd_by_id(struct objs *o, bool fail)
{
	return fd_by_id(BPF_PROG_GET_FD_BY_ID, o->prog_id, fail);
}

static int map_fd_by_id(struct objs *o, bool fail)
{
	return fd_by_id(BPF_MAP_GET_FD_BY_ID, o->map_id, fail);
}

static int btf_fd_by_id(struct objs *o, bool fail)
{
	return fd_by_id(BPF_BTF_GET_FD_BY_ID, o->btf_id, fail);
}

static int link_fd_by_id(struct objs *o, bool fail)
{
	return fd_by_id(BPF_LINK_GET_FD_BY_ID, o->link_id, fail);
}

static int info_by_fd(struct objs *o, bool fail)
{
	struct bpf_map_info info = {};

	return sys_obj_info(fail ? 999 : o->hash, &info, sizeof(info));
}

static int prog_query(struct objs *o, bool fail)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.query.target_fd = o->netns;
	attr.query.attach_type = fail ? 999 : BPF_FLOW_DISSECTOR;
	return sys_bpf(BPF_PROG_QUERY, &attr);
}

/* A call's new fd, kept in @slot for the rows after it: 0, or -1 as bpf(2) */
static int keep_fd(int fd, int *slot)
{
	if (fd < 0)
		return -1;
	*slot = fd;
	return 0;
}

static int raw_tp_open(struct objs *o, bool fail)
{
	return keep_fd(sys_raw_tp_open(o->raw_tp, fail ? "tp_cmd_no_such" : "sched_switch"),
		       &o->raw_link);
}

static int btf_load(struct objs *o, bool fail)
{
	union bpf_attr attr;
	__u32 junk = 0;

	if (!fail) {
		__u32 size;

		return close_ret(sys_btf_load(&size));
	}
	/*
	 * four bytes that are no BTF header, and a byte set past the
	 * command's attributes: refused before the BTF verifier, which
	 * only 6.12's records quote (refusals_test)
	 */
	memset(&attr, 0, sizeof(attr));
	attr.btf = (__u64)(unsigned long)&junk;
	attr.btf_size = sizeof(junk);
	((char *)&attr)[sizeof(attr) - 1] = 1;
	return sys_bpf(BPF_BTF_LOAD, &attr);
}

static int task_fd_query(struct objs *o, bool fail)
{
	union bpf_attr attr;
	char buf[64];

	memset(&attr, 0, sizeof(attr));
	attr.task_fd_query.pid = getpid();
	attr.task_fd_query.fd = fail ? 999 : o->raw_link;
	attr.task_fd_query.buf = (__u64)(unsigned long)buf;
	attr.task_fd_query.buf_len = sizeof(buf);
	return sys_bpf(BPF_TASK_FD_QUERY, &attr);
}

static int lookup_and_delete_elem(struct objs *o, bool fail)
{
	return map_elem(BPF_MAP_LOOKUP_AND_DELETE_ELEM, o->hash, fail ? 7 : 3, 0);
}

static int map_freeze(struct objs *o, bool fail)
{
	/*
	 * the second finds it frozen: no longer writable by the syscall
	 * (6.12), or frozen (6.1 looks at that first)
	 */
	return sys_map_freeze(o->frozen);
}

static int batch(int cmd, int fd, __u32 count, __u64 flags, __u32 key)
{
	__u32 keys[8] = { key, key + 1 };
	__u64 vals[8] = { 10, 20 };

	return sys_map_batch(cmd, fd, keys, vals, &count, flags);
}

static int lookup_batch(struct objs *o, bool fail)
{
	/* two of four, or the walk to the end (ENOENT) */
	return batch(BPF_MAP_LOOKUP_BATCH, o->array, fail ? 8 : 2, 0, 0);
}

static int lookup_and_delete_batch(struct objs *o, bool fail)
{
	/* one of its two elements, then the walk of the other to the end */
	return batch(BPF_MAP_LOOKUP_AND_DELETE_BATCH, o->single, fail ? 8 : 1, 0, 0);
}

static int update_batch(struct objs *o, bool fail)
{
	return batch(BPF_MAP_UPDATE_BATCH, o->array, 2, fail ? 1ULL << 40 : 0, 0);
}

static int delete_batch(struct objs *o, bool fail)
{
	/* keys 4 and 5, then 99 and 100, which it does not hold */
	return batch(BPF_MAP_DELETE_BATCH, o->hash, 2, 0, fail ? 99 : 4);
}

static int link_create(struct objs *o, bool fail)
{
	/* the second finds the netns full: one flow dissector link */
	return keep_fd(sys_link_create(o->flow1, o->netns, BPF_FLOW_DISSECTOR), &o->link);
}

static int link_update(struct objs *o, bool fail)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.link_update.link_fd = o->link;
	/* a socket filter is no flow dissector */
	attr.link_update.new_prog_fd = fail ? o->prog : o->flow2;
	return sys_bpf(BPF_LINK_UPDATE, &attr);
}

static int enable_stats(struct objs *o, bool fail)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.enable_stats.type = fail ? 999 : BPF_STATS_RUN_TIME;
	return close_ret(sys_bpf(BPF_ENABLE_STATS, &attr));
}

static int iter_create(struct objs *o, bool fail)
{
	union bpf_attr attr;

	/* a flow dissector link is no iterator */
	memset(&attr, 0, sizeof(attr));
	attr.iter_create.link_fd = fail ? o->link : o->iter_link;
	return close_ret(sys_bpf(BPF_ITER_CREATE, &attr));
}

/* A bpf_map iterator's link: a program of no instruction but "return 0" */
static int sys_iter_link(__u32 btf_id)
{
	const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	union bpf_attr attr;
	int prog, link;

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_TRACING;
	attr.expected_attach_type = BPF_TRACE_ITER;
	attr.attach_btf_id = btf_id;
	attr.insns = (__u64)(unsigned long)insns;
	attr.insn_cnt = ARRAY_SIZE(insns);
	attr.license = (__u64)(unsigned long)"GPL";
	memcpy(attr.prog_name, PROG_NAME, sizeof(PROG_NAME));
	prog = sys_bpf(BPF_PROG_LOAD, &attr);
	if (prog < 0)
		return -1;
	link = sys_link_create(prog, 0, BPF_TRACE_ITER);
	close(prog);
	return link;
}

static int link_detach(struct objs *o, bool fail)
{
	union bpf_attr attr;

	/* a raw tracepoint link has no detach */
	memset(&attr, 0, sizeof(attr));
	attr.link_detach.link_fd = fail ? o->raw_link : o->link;
	return sys_bpf(BPF_LINK_DETACH, &attr);
}

static int prog_bind_map(struct objs *o, bool fail)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.prog_bind_map.prog_fd = o->prog;
	attr.prog_bind_map.map_fd = o->hash;
	attr.prog_bind_map.flags = fail;
	return sys_bpf(BPF_PROG_BIND_MAP, &attr);
}

#define FAIL	"bpf_cmd_fail"
#define BATCH_FAIL "bpf_map_batch_fail"

/*
 * In the order run: a row may need what one before it made (the link of
 * LINK_CREATE) or left (the pin). ITER_CREATE's call that works is made
 * only where the kernel has BTF (6.12's debug kernel): an iterator's
 * program names its target by its BTF id.
 * The rst's table of events per command is this one (check-docs.sh).
 */
static const struct row rows[] = {
	{ "MAP_CREATE", map_create, "bpf_map_create",
	  EINVAL, "bpf_cmd_refused,bpf_map_create_fail" },
	{ "MAP_LOOKUP_ELEM", lookup_elem, "bpf_map_lookup_elem", ENOENT, FAIL },
	{ "MAP_UPDATE_ELEM", update_elem, "bpf_map_update_elem", EEXIST, FAIL },
	{ "MAP_DELETE_ELEM", delete_elem, "bpf_map_delete_elem", ENOENT, FAIL },
	{ "MAP_GET_NEXT_KEY", next_key, "bpf_map_next_key", EBADF, FAIL },
	{ "PROG_LOAD", prog_load, "bpf_prog_load",
	  E2BIG, "bpf_cmd_refused,bpf_prog_load_fail" },
	{ "OBJ_PIN", obj_pin, "bpf_obj_pin_map", EEXIST, FAIL },
	{ "OBJ_GET", obj_get, "bpf_obj_get_map", ENOENT, FAIL },
	/* a take by type comes before the attach or detach is tried */
	{ "PROG_ATTACH", prog_attach, "bpf_prog_get_type,bpf_prog_attach",
	  EINVAL, "bpf_prog_get_type," FAIL },
	{ "PROG_DETACH", prog_detach, "bpf_prog_get_type,bpf_prog_detach",
	  ENOENT, "bpf_prog_get_type," FAIL },
	{ "PROG_TEST_RUN", test_run, "bpf_prog_test_run", EINVAL, FAIL },
	{ "PROG_GET_NEXT_ID", prog_next_id, "", EINVAL, FAIL },
	{ "MAP_GET_NEXT_ID", map_next_id, "", EINVAL, FAIL },
	{ "PROG_GET_FD_BY_ID", prog_fd_by_id, "", ENOENT, FAIL },
	{ "MAP_GET_FD_BY_ID", map_fd_by_id, "", ENOENT, FAIL },
	{ "OBJ_GET_INFO_BY_FD", info_by_fd, "", EBADFD, FAIL },
	{ "PROG_QUERY", prog_query, "", EINVAL, FAIL },
	{ "RAW_TRACEPOINT_OPEN", raw_tp_open, "bpf_link_create", ENOENT,
	  "bpf_cmd_refused," FAIL },
	{ "BTF_LOAD", btf_load, "bpf_btf_load", EINVAL, FAIL },
	{ "BTF_GET_FD_BY_ID", btf_fd_by_id, "", ENOENT, FAIL },
	{ "TASK_FD_QUERY", task_fd_query, "", EBADF, FAIL },
	{ "MAP_LOOKUP_AND_DELETE_ELEM", lookup_and_delete_elem,
	  "bpf_map_lookup_and_delete_elem", ENOENT, FAIL },
	{ "MAP_FREEZE", map_freeze, "bpf_map_freeze", EPERM, FAIL, EBUSY },
	{ "BTF_GET_NEXT_ID", btf_next_id, "", EINVAL, FAIL },
	{ "MAP_LOOKUP_BATCH", lookup_batch, "bpf_map_lookup_batch", ENOENT, BATCH_FAIL },
	{ "MAP_LOOKUP_AND_DELETE_BATCH", lookup_and_delete_batch,
	  "bpf_map_lookup_and_delete_batch", ENOENT, BATCH_FAIL },
	{ "MAP_UPDATE_BATCH", update_batch, "bpf_map_update_batch", EINVAL, BATCH_FAIL },
	{ "MAP_DELETE_BATCH", delete_batch, "bpf_map_delete_batch", ENOENT, BATCH_FAIL },
	{ "LINK_CREATE", link_create, "bpf_link_create", E2BIG, FAIL },
	{ "LINK_UPDATE", link_update, "bpf_link_update", EINVAL, FAIL },
	{ "LINK_GET_FD_BY_ID", link_fd_by_id, "", ENOENT, FAIL },
	{ "LINK_GET_NEXT_ID", link_next_id, "", EINVAL, FAIL },
	{ "ENABLE_STATS", enable_stats, "", EINVAL, FAIL },
	{ "ITER_CREATE", iter_create, "bpf_iter_create", EINVAL, FAIL, .ok_needs_btf = true },
	{ "LINK_DETACH", link_detach, "bpf_link_detach", EOPNOTSUPP, FAIL },
	{ "PROG_BIND_MAP", prog_bind_map, "", EINVAL, FAIL },
};

/* The bpf:* events this task recorded in @seg, comma separated */
static char *records_of(const char *seg)
{
	static char out[1024];
	const char *at = seg;

	out[0] = '\0';
	while ((at = strstr(at, ": bpf_"))) {
		const char *end = strchr(at + 2, ':');

		if (end && task_pid(seg, at) == getpid())
			snprintf(out + strlen(out), sizeof(out) - strlen(out), "%s%.*s",
				 out[0] ? "," : "", (int)(end - at - 2), at + 2);
		at += 2;
	}
	return out;
}

static void make_objs(struct __test_metadata *_metadata, struct objs *o)
{
	struct bpf_link_info linfo = {};
	struct bpf_btf_info binfo = {};
	struct bpf_map_info minfo = {};
	struct prog_desc p;
	__u32 size, key;
	__u64 val = 1;

	o->hash = sys_map_create(BPF_MAP_TYPE_HASH, 4, 8, 8, 0);
	o->array = sys_map_create(BPF_MAP_TYPE_ARRAY, 4, 8, 4, 0);
	o->frozen = sys_map_create(BPF_MAP_TYPE_ARRAY, 4, 8, 4, 0);
	/* zero seed: its two keys sit in the same buckets on every run */
	o->single = sys_map_create(BPF_MAP_TYPE_HASH, 4, 8, 64, BPF_F_ZERO_SEED);
	ASSERT_LE(0, o->hash);
	ASSERT_LE(0, o->array);
	ASSERT_LE(0, o->frozen);
	ASSERT_LE(0, o->single);
	/* 1 to look up and update, 2 to delete, 3 to take, 4 and 5 to batch delete */
	for (key = 1; key <= 5; key++)
		ASSERT_EQ(0, sys_map_elem(BPF_MAP_UPDATE_ELEM, o->hash, &key, &val, 0));
	for (key = 0; key <= 1; key++)
		ASSERT_EQ(0, sys_map_elem(BPF_MAP_UPDATE_ELEM, o->single, &key, &val, 0));
	ASSERT_EQ(0, sys_obj_info(o->hash, &minfo, sizeof(minfo)));
	o->map_id = minfo.id;

	o->prog = sys_prog_load();
	o->flow1 = sys_prog_load_ret(BPF_PROG_TYPE_FLOW_DISSECTOR, 0, 2);
	o->flow2 = sys_prog_load_ret(BPF_PROG_TYPE_FLOW_DISSECTOR, 0, 2);
	o->raw_tp = sys_prog_load_ret(BPF_PROG_TYPE_RAW_TRACEPOINT, 0, 2);
	ASSERT_LE(0, o->prog);
	ASSERT_LE(0, o->flow1);
	ASSERT_LE(0, o->flow2);
	ASSERT_LE(0, o->raw_tp) TH_LOG("a raw tracepoint program: %s", strerror(errno));
	ASSERT_EQ(0, prog_desc(o->prog, &p));
	o->prog_id = p.id;

	o->btf = sys_btf_load(&size);
	ASSERT_LE(0, o->btf) TH_LOG("BTF_LOAD: %s", strerror(errno));
	ASSERT_EQ(0, sys_obj_info(o->btf, &binfo, sizeof(binfo)));
	o->btf_id = binfo.id;
	o->netns = open("/proc/self/ns/net", O_RDONLY);
	ASSERT_LE(0, o->netns);
	/*
	 * a link of its own, for LINK_GET_FD_BY_ID: on another tracepoint
	 * than RAW_TRACEPOINT_OPEN's (6.1 refuses a program twice on one)
	 */
	o->raw_link = sys_raw_tp_open(o->raw_tp, "sched_process_exit");
	ASSERT_LE(0, o->raw_link) TH_LOG("RAW_TRACEPOINT_OPEN: %s", strerror(errno));
	ASSERT_EQ(0, sys_obj_info(o->raw_link, &linfo, sizeof(linfo)));
	o->link_id = linfo.id;
	o->link = -1;
	/* an iterator's link, where the kernel has BTF for its program */
	o->iter_link = -1;
	if (path_exists(VMLINUX_BTF)) {
		__u32 id = vmlinux_btf_func_id("bpf_iter_bpf_map");

		ASSERT_LT(0, id) TH_LOG("no bpf_iter_bpf_map in " VMLINUX_BTF);
		o->iter_link = sys_iter_link(id);
		ASSERT_LE(0, o->iter_link) TH_LOG("an iterator's link: %s", strerror(errno));
	}
}

TEST(every_command_works_once_and_fails_once)
{
	char events[4096] = "";
	struct objs o;
	char *trace;
	size_t i;
	int marker;

	/* a netns of its own: the flow dissectors attach to it alone */
	ASSERT_EQ(0, unshare(CLONE_NEWNET)) TH_LOG("unshare: %s", strerror(errno));
	ASSERT_EQ(0, bpffs_ready());
	unlink(CMD_PIN);
	make_objs(_metadata, &o);
	for (i = 0; i < NR_BPF_EVENTS; i++)
		snprintf(events + strlen(events), sizeof(events) - strlen(events), "%s%s",
			 i ? "," : "", bpf_events[i]);
	TP_BEGIN(events);
	marker = open(tracing("trace_marker"), O_WRONLY);
	ASSERT_LE(0, marker);
	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		const struct row *r = &rows[i];
		int ret, want;

		if (!r->ok_needs_btf || o.iter_link >= 0) {
			dprintf(marker, "tp_cmd %s ok\n", r->cmd);
			ret = r->call(&o, false);
			EXPECT_EQ(0, ret) TH_LOG("%s: %s", r->cmd, strerror(errno));
		}
		dprintf(marker, "tp_cmd %s failed\n", r->cmd);
		ret = r->call(&o, true);
		EXPECT_EQ(-1, ret) TH_LOG("%s worked where it should fail", r->cmd);
		want = r->err_6_1 && kernel_is_6_1() ? r->err_6_1 : r->err;
		EXPECT_EQ(want, errno) TH_LOG("%s: %s, want %s", r->cmd, strerror(errno),
					      strerror(want));
	}
	dprintf(marker, "tp_cmd end\n");
	close(marker);
	trace = tp_end();
	unlink(CMD_PIN);
	while (nr_fds)
		close(fds[--nr_fds]);
	if (!gate_on)
		return;
	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		const struct row *r = &rows[i];
		int outcome;

		for (outcome = 0; outcome < 2; outcome++) {
			const char *want = outcome ? r->failed : r->ok;
			const char *at, *next;
			char *seg;

			if (!outcome && r->ok_needs_btf && o.iter_link < 0)
				continue;
			at = strstr(trace, fmt("tracing_mark_write: tp_cmd %s %s\n", r->cmd,
					       outcome ? "failed" : "ok"));
			ASSERT_NE(NULL, at) TH_LOG("no mark for %s", r->cmd);
			next = strstr(at + 1, "tracing_mark_write: tp_cmd ");
			ASSERT_NE(NULL, next);
			seg = strndup(at, next - at);
			EXPECT_STREQ(want, records_of(seg))
				TH_LOG("%s %s:\n%s", r->cmd, outcome ? "failed" : "worked", seg);
			free(seg);
		}
	}
}

int main(int argc, char **argv)
{
	bpf_tracepoints_test_setup();
	return test_harness_run(argc, argv);
}
