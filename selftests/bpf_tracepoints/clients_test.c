// SPDX-License-Identifier: GPL-2.0
/*
 * Real clients: bpftool, a libbpf loader, bpftrace, programs typed by
 * BTF (tp_btf, raw_tp, CO-RE), and fentry/fexit beside the events.
 */
#define _GNU_SOURCE
#include "../kselftest_harness.h"
#include "test_helpers.h"

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

/*
 * Runs the command printf() makes of @f: its exit status (-1 if it did not
 * exit), its output in the test's client.out
 */
static int run_client(const char *f, ...)
{
	char *cmd, *line;
	int status, n;
	va_list ap;

	/* not fmt(): a command line may be longer than its lines */
	va_start(ap, f);
	n = vasprintf(&cmd, f, ap);
	va_end(ap);
	if (n < 0)
		return -1;
	n = asprintf(&line, "%s >%s/client.out 2>&1", cmd, tmpdir);
	free(cmd);
	if (n < 0)
		return -1;
	status = system(line);
	free(line);
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
		int rc = run_client("%s", version_cmd);

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
	EXPECT_EQ(0, run_client("%s", cmd)) TH_LOG("%s: %s", cmd, client_out());
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
	ASSERT_EQ(0, run_client("bpftool prog load %s " BPFTOOL_PROG,
				beside_self(CLIENT_OBJ))) TH_LOG("%s", client_out());
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
		ASSERT_EQ(0, run_client("bpftool -j map show id %lld", map_id));
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
	ASSERT_EQ(0, run_client("%s %s", beside_self(CLIENT_LOADER),
				beside_self(CLIENT_OBJ))) TH_LOG("%s", client_out());
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
	rc = run_client("%s %s --count 3", beside_self(CLIENT_LOADER),
			beside_self(CLIENT_OBJ));
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
	rc = run_client("%s %s --count 1", beside_self(CLIENT_LOADER),
			beside_self(CLIENT_OBJ));
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
	want[9] = strdup(fmt("bpf_link_create: link type=PERF_EVENT ufd=%d id=%lld prog=%s prog_type=TRACEPOINT prog_id=%lld prog_name=count_creates expected_attach_type=none attach_btf_id=0 attach_btf_obj_id=0 target=bpf_map_create target_id=0\n",
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
	ASSERT_EQ(0, run_client("%s --fail", beside_self(CLIENT_LOADER)))
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
			"bpf_map_create_fail: map type=ARRAY key=4 val=8 max=0 flags=0 name=tp_fail_map err=-22(EINVAL)\n",
			"bpf_cmd_refused: cmd=PROG_LOAD check=the verifier at insn 0: R2 !read_ok\n",
			"bpf_prog_load_fail: prog type=SOCKET_FILTER insns=2 expected_attach_type=none flags=0 name=tp_fail_prog err=-13(EACCES)\n",
		};

		EXPECT_EQ(1, count_of(trace, lines[n])) TH_LOG("%s--- trace:\n%s", lines[n], trace);
	}
	/* the program the attach named is gone: its id from the record's own line */
	at = strstr(trace, fmt("bpf_cmd_fail: cmd=RAW_TRACEPOINT_OPEN err=-2(ENOENT) ufd=%lld obj=prog id=",
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
	rc = run_client("bpftrace -e '" BPFTRACE_TYPES BPFTRACE_PROBE "' -c '%s --updates 5'",
			beside_self(WORKLOAD));
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
	rc = run_client("%s %s --typed", beside_self(CLIENT_LOADER), beside_self(TYPED_OBJ));
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
	rc = run_client("bpftrace -e '%s' -c '%s --updates 5'", script, beside_self(WORKLOAD));
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

	/* the last update's value (the workload's --updates writes 0 to 4) */
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
	char cmd[PATH_MAX * 2], *out;
	size_t i, len;

	if (!client_ready(_metadata, NULL, NULL))
		return;
	if (access(KERNEL_BTF, R_OK))
		SKIP(return, "%s: fentry and fexit need it", NO_BTF);
	/* all in one run: kallsyms, ftrace's list and the BTF read once */
	len = snprintf(cmd, sizeof(cmd), "%s --fentry", beside_self(CLIENT_LOADER));
	for (i = 0; i < ARRAY_SIZE(nearest_functions); i++)
		len += snprintf(cmd + len, sizeof(cmd) - len, " %s", nearest_functions[i]);
	ASSERT_GT(sizeof(cmd), len);
	ASSERT_EQ(0, run_client("%s", cmd)) TH_LOG("%s", client_out());
	out = strdup(client_out());
	ASSERT_NE(NULL, out);
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
	bpf_tracepoints_test_setup();
	return test_harness_run(argc, argv);
}
