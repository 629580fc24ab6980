// SPDX-License-Identifier: GPL-2.0
/*
 * The gate itself: which events exist on which side of it, what their
 * format files describe, what a record may hold, and that the rst documents
 * only fields the formats have.
 */
#define _GNU_SOURCE
#include "../kselftest_harness.h"
#include "test_helpers.h"

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
		{ "bpf_map_batch_fail", { "cmd", "err", "type", "ufd", "count", "id", "name" } },
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

/*
 * A raw_tp program on every event, each counting its runs in a hash map
 * of its own key (a lookup, then an atomic add or an update: map work in
 * whatever context the event fires in, RCU callbacks included), while
 * commands_test makes every command work once and fail once. The kernel
 * must say nothing (the debug guest panics on a lockdep report, a
 * warning or a KASAN report), commands_test must pass beside them, and
 * each event its commands (and a pin and get of a program and a link)
 * fire must have run its program. With the gate off there is no
 * tracepoint to attach to.
 */
static int load_counter(int map, __u32 key)
{
	struct bpf_insn insns[] = {
		/* *(u32 *)(r10 - 4) = key; r0 = lookup(map, r10 - 4) */
		{ .code = BPF_ST | BPF_MEM | BPF_W, .dst_reg = BPF_REG_10, .off = -4,
		  .imm = key },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_X, .dst_reg = BPF_REG_2,
		  .src_reg = BPF_REG_10 },
		{ .code = BPF_ALU64 | BPF_ADD | BPF_K, .dst_reg = BPF_REG_2, .imm = -4 },
		{ .code = BPF_LD | BPF_DW | BPF_IMM, .dst_reg = BPF_REG_1,
		  .src_reg = BPF_PSEUDO_MAP_FD, .imm = map },
		{ },
		{ .code = BPF_JMP | BPF_CALL, .imm = BPF_FUNC_map_lookup_elem },
		/* if (r0) { lock *(u64 *)r0 += 1; return 0; } */
		{ .code = BPF_JMP | BPF_JEQ | BPF_K, .dst_reg = BPF_REG_0, .off = 3 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_1, .imm = 1 },
		{ .code = BPF_STX | BPF_ATOMIC | BPF_DW, .dst_reg = BPF_REG_0,
		  .src_reg = BPF_REG_1, .imm = BPF_ADD },
		{ .code = BPF_JMP | BPF_JA, .off = 9 },
		/* *(u64 *)(r10 - 16) = 1; update(map, r10 - 4, r10 - 16, BPF_ANY) */
		{ .code = BPF_ST | BPF_MEM | BPF_DW, .dst_reg = BPF_REG_10, .off = -16,
		  .imm = 1 },
		{ .code = BPF_LD | BPF_DW | BPF_IMM, .dst_reg = BPF_REG_1,
		  .src_reg = BPF_PSEUDO_MAP_FD, .imm = map },
		{ },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_X, .dst_reg = BPF_REG_2,
		  .src_reg = BPF_REG_10 },
		{ .code = BPF_ALU64 | BPF_ADD | BPF_K, .dst_reg = BPF_REG_2, .imm = -4 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_X, .dst_reg = BPF_REG_3,
		  .src_reg = BPF_REG_10 },
		{ .code = BPF_ALU64 | BPF_ADD | BPF_K, .dst_reg = BPF_REG_3, .imm = -16 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_4, .imm = BPF_ANY },
		{ .code = BPF_JMP | BPF_CALL, .imm = BPF_FUNC_map_update_elem },
		/* return 0 */
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};

	return sys_prog_load_insns("tp_on_event", BPF_PROG_TYPE_RAW_TRACEPOINT, insns,
				   ARRAY_SIZE(insns));
}

/* The events commands_test's calls never fire, and why */
static bool fired_by_no_command(const char *event)
{
	/* ITER_CREATE's call that works needs BTF (commands_test.c) */
	return !strcmp(event, "bpf_iter_create") && !path_exists(VMLINUX_BTF);
}

FIXTURE(programs) {
};

FIXTURE_SETUP(programs)
{
}

FIXTURE_TEARDOWN(programs)
{
}

TEST_F_TIMEOUT(programs, on_every_event_beside_every_command, 600)
{
	int map, prog[NR_BPF_EVENTS], link[NR_BPF_EVENTS];
	static char out[65536], counts[4096];
	size_t i, n, len = 0;
	FILE *f;
	int rc;

	map = sys_map_create(BPF_MAP_TYPE_HASH, 4, 8, NR_BPF_EVENTS, 0);
	ASSERT_LE(0, map) TH_LOG("hash map: %s", strerror(errno));
	for (i = 0; i < NR_BPF_EVENTS; i++) {
		prog[i] = load_counter(map, i);
		ASSERT_LE(0, prog[i]) TH_LOG("raw_tp program: %s", strerror(errno));
		link[i] = sys_raw_tp_open(prog[i], bpf_events[i]);
		if (!gate_on) {
			/* no tracepoint of that name: bpf_get_raw_tracepoint() */
			EXPECT_EQ(-1, link[i]) TH_LOG("%s has a raw tracepoint", bpf_events[i]);
			EXPECT_EQ(ENOENT, errno);
			close(prog[i]);
			continue;
		}
		ASSERT_LE(0, link[i]) TH_LOG("%s: %s", bpf_events[i], strerror(errno));
	}
	if (!gate_on) {
		close(map);
		return;
	}

	f = popen(fmt("%s 2>&1", beside_self("commands_test")), "r");
	ASSERT_NE(NULL, f);
	n = fread(out, 1, sizeof(out) - 1, f);
	out[n] = '\0';
	rc = pclose(f);
	EXPECT_EQ(0, rc) TH_LOG("commands_test beside the programs:\n%s", out);
	/* commands_test pins a map: a program and a link too, and back */
	ASSERT_EQ(0, bpffs_ready()) TH_LOG("bpffs: %s", strerror(errno));
	for (i = 0; i < 2; i++) {
		const char *path = i ? BPFFS "/tp_on_event_link" : BPFFS "/tp_on_event_prog";
		int fd;

		unlink(path);
		ASSERT_EQ(0, sys_obj_pin(i ? link[0] : prog[0], path))
			TH_LOG("pin %s: %s", path, strerror(errno));
		fd = sys_obj_get(path);
		EXPECT_LE(0, fd) TH_LOG("get %s: %s", path, strerror(errno));
		close(fd);
		unlink(path);
	}

	for (i = 0; i < NR_BPF_EVENTS; i++) {
		close(link[i]);
		close(prog[i]);
	}
	for (i = 0; i < NR_BPF_EVENTS; i++) {
		__u32 key = i;
		__u64 runs = 0;

		if (sys_map_elem(BPF_MAP_LOOKUP_ELEM, map, &key, &runs, 0))
			runs = 0;
		len += snprintf(counts + len, sizeof(counts) - len, " %s=%llu",
				bpf_events[i], (unsigned long long)runs);
		if (!fired_by_no_command(bpf_events[i]))
			EXPECT_LT(0, runs) TH_LOG("%s: its program never ran", bpf_events[i]);
	}
	TH_LOG("runs:%s", counts);
	close(map);
}

int main(int argc, char **argv)
{
	bpf_tracepoints_test_setup();
	return test_harness_run(argc, argv);
}
