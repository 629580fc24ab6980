// SPDX-License-Identifier: GPL-2.0
/*
 * A libbpf loader, as BPF users write them: opens and loads
 * bpf_tracepoints_clients.bpf.o and prints what libbpf made of it, for
 * the test to hold the events against:
 *
 *   pid PID			the loader's
 *   btf id ID fd FD		the object's BTF, as libbpf loaded it
 *   map NAME id ID fd FD	one per map: libbpf's name, the kernel's id, the fd
 *   prog NAME id ID tag TAG fd FD	one per program
 *
 * With --count N it also attaches count_creates to bpf:bpf_map_create,
 * creates N maps and prints what the program saw (its .bss, and the fd it
 * read from the last record, looked up by the map's id) beside the truth:
 *
 *   link id ID fd FD		the link libbpf made for the attach
 *   counted C of N last_id ID want ID ufd FD want FD
 *
 * Exit 0 on success, 1 on a failure, 2 when the tracepoint does not exist
 * (a kernel without CONFIG_BPF_LOW_LEVEL_TRACEPOINTS), saying so.
 *
 * With --fail it makes three mistakes a loader makes instead, each
 * through libbpf's own calls, and prints what libbpf tells its user:
 *
 *   fail map_create ERRNO		max_entries 0 (libbpf #770)
 *   fail prog_load ERRNO LOG-LINE	the verifier refuses: r2 is never set
 *   fail raw_tracepoint_open ERRNO	a tracepoint that does not exist
 *
 * Exit 0 when all three failed as they must.
 *
 * With --typed it loads OBJECT (bpf_tracepoints_typed.bpf.o: tp_btf and
 * raw_tp programs on the events' arguments, CO-RE), attaches every
 * program, makes a map and updates one element, and prints the truth
 * and then what each program saw:
 *
 *   made map id ID fd FD key K value V
 *   SEC EVENT hits H id ID ufd FD key_size KS value_size VS name NAME [key K value V]
 *
 * With --fentry FUNC... (no OBJECT) it tells for each kernel function
 * whether fentry/fexit can attach to it, and what it would see:
 *
 *   fentry FUNC symbol S ftrace F btf B attach A: RET FUNC(ARGS)
 *
 * S is the kallsyms type (t static, T global, W weak), "clone NAME" for
 * a compiler's copy (.isra, .constprop, .part) only, or "-" (inlined
 * everywhere); F whether ftrace lists it (notrace, or no patchable
 * entry); B "yes" when BTF has a FUNC of that name, "ambiguous" when it
 * has two (static functions of one name in two files), else "-"; A "ok"
 * when an fexit program attached, else why not.
 *
 * With --lsm it loads OBJECT (bpf_tracepoints_alt.bpf.o: BPF LSM programs
 * on the bpf(2) hooks), attaches every lsm/ program, makes a map, updates it,
 * fails a map create (max_entries 0), loads a program, closes both and
 * waits up to 30 s for their frees; it prints the truth, then each record
 * the hooks left, in the order they ran:
 *
 *   made map id ID fd FD key K value V
 *   made prog id ID tag TAG fd FD
 *   lsm HOOK cmd C id ID known_id ID type T key KS val VS max M insns N name NAME
 *
 * Exit 3 when an LSM program cannot attach (no BPF LSM), saying so. With
 * --bench-count PROG[,PROG...] it attaches the programs named (lsm_bpf:
 * every bpf(2) command; count_raw_lookup and count_raw_update: raw_tp on
 * the element events), prints "ready", and on SIGINT or SIGTERM
 * "@calls: N", the calls of every task they saw (as bpftrace prints a
 * count: make bench-btf's loop beside them).
 */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "../kselftest.h"
#include "bpf_tracepoints_typed.h"
#include "bpf_tracepoints_alt.h"

#define EVENT_FORMAT	"/sys/kernel/tracing/events/bpf/bpf_map_create/format"

#define TRACEFS_EVENTS	"/sys/kernel/tracing/events"

struct counts {
	__u64 creates;
	__u32 last_id;
	__u32 tgid;
};

static __u32 id_of(int fd)
{
	struct bpf_map_info info = {};
	__u32 len = sizeof(info);

	return bpf_obj_get_info_by_fd(fd, &info, &len) ? 0 : info.id;
}

static int print_objects(struct bpf_object *obj)
{
	struct bpf_program *prog;
	struct bpf_map *map;

	printf("pid %d\n", getpid());
	if (bpf_object__btf(obj)) {
		int fd = btf__fd(bpf_object__btf(obj));
		struct bpf_btf_info info = {};
		__u32 len = sizeof(info);

		if (bpf_obj_get_info_by_fd(fd, &info, &len))
			return -errno;
		printf("btf id %u fd %d\n", info.id, fd);
	}
	bpf_object__for_each_map(map, obj)
		printf("map %s id %u fd %d\n", bpf_map__name(map), id_of(bpf_map__fd(map)),
		       bpf_map__fd(map));
	bpf_object__for_each_program(prog, obj) {
		struct bpf_prog_info info = {};
		__u32 len = sizeof(info);
		int i;

		if (bpf_obj_get_info_by_fd(bpf_program__fd(prog), &info, &len))
			return -errno;
		printf("prog %s id %u tag ", bpf_program__name(prog), info.id);
		for (i = 0; i < BPF_TAG_SIZE; i++)
			printf("%02x", info.tag[i]);
		printf(" fd %d\n", bpf_program__fd(prog));
	}
	return 0;
}

static int count_map_creates(struct bpf_object *obj, int n)
{
	struct bpf_program *prog = bpf_object__find_program_by_name(obj, "count_creates");
	struct bpf_map *bss = bpf_object__find_map_by_name(obj, ".bss");
	struct bpf_map *ids = bpf_object__find_map_by_name(obj, "tp_clients_ids");
	struct counts counts = { .tgid = getpid() };
	struct bpf_link_info link_info = {};
	__u32 len = sizeof(link_info);
	__u32 want = 0, zero = 0, ufd = 0;
	struct bpf_link *link;
	int i, want_fd = -1;

	if (!prog || !ids || !bss || bpf_map__value_size(bss) != sizeof(counts)) {
		fprintf(stderr, "libbpf: no count_creates program, ids map or .bss of %zu bytes\n",
			sizeof(counts));
		return 1;
	}
	if (bpf_map__update_elem(bss, &zero, sizeof(zero), &counts, sizeof(counts), 0)) {
		perror("update .bss");
		return 1;
	}
	link = bpf_program__attach(prog);
	if (!link) {
		int err = errno;

		if (access(EVENT_FORMAT, F_OK) && errno == ENOENT &&
		    !access(TRACEFS_EVENTS, F_OK)) {
			printf("tracepoint bpf:bpf_map_create does not exist (%s): %s\n",
			       EVENT_FORMAT, strerror(err));
			return 2;
		}
		fprintf(stderr, "libbpf: attach: %s\n", strerror(err));
		return 1;
	}
	if (bpf_obj_get_info_by_fd(bpf_link__fd(link), &link_info, &len)) {
		perror("link info");
		return 1;
	}
	printf("link id %u fd %d\n", link_info.id, bpf_link__fd(link));
	for (i = 0; i < n; i++) {
		if (want_fd >= 0)
			close(want_fd);
		want_fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "tp_libbpf_count", 4, 4, 1, NULL);
		if (want_fd < 0) {
			perror("bpf_map_create");
			return 1;
		}
		want = id_of(want_fd);
	}
	bpf_link__destroy(link);
	/* what the program left: the map's values, not libbpf's copy */
	if (bpf_map__lookup_elem(bss, &zero, sizeof(zero), &counts, sizeof(counts), 0) ||
	    bpf_map__lookup_elem(ids, &want, sizeof(want), &ufd, sizeof(ufd), 0)) {
		perror("lookup .bss or tp_clients_ids");
		return 1;
	}
	printf("counted %llu of %d last_id %u want %u ufd %u want %d\n",
	       (unsigned long long)counts.creates, n, counts.last_id, want, ufd, want_fd);
	close(want_fd);
	return 0;
}

static void print_seen(const char *how, const char *event, const struct typed_seen *s,
		       int with_elem)
{
	printf("%s %s hits %llu id %u ufd %d key_size %u value_size %u name %.16s", how, event,
	       (unsigned long long)s->hits, s->id, s->ufd, s->key_size, s->value_size, s->name);
	if (with_elem)
		printf(" key %u value %llx", s->key, (unsigned long long)s->value);
	printf("\n");
}

static int typed_clients(struct bpf_object *obj)
{
	struct bpf_map *bss = bpf_object__find_map_by_name(obj, ".bss");
	struct typed_bss typed = { .tgid = getpid() };
	struct bpf_link *links[8];
	struct bpf_program *prog;
	__u32 key = 2, zero = 0;
	__u64 value = 0x1122334455667788ULL;
	int n = 0, fd, err = 0;

	if (!bss || bpf_map__value_size(bss) != sizeof(typed)) {
		fprintf(stderr, "libbpf: no .bss of %zu bytes\n", sizeof(typed));
		return 1;
	}
	if (bpf_map__update_elem(bss, &zero, sizeof(zero), &typed, sizeof(typed), 0)) {
		perror("update .bss");
		return 1;
	}
	bpf_object__for_each_program(prog, obj) {
		if (n == 8)
			break;
		links[n] = bpf_program__attach(prog);
		if (!links[n]) {
			fprintf(stderr, "libbpf: attach %s: %s\n", bpf_program__name(prog),
				strerror(errno));
			err = 1;
			break;
		}
		n++;
	}
	fd = err ? -1 : bpf_map_create(BPF_MAP_TYPE_ARRAY, "tp_typed", 4, 8, 4, NULL);
	if (!err && (fd < 0 || bpf_map_update_elem(fd, &key, &value, BPF_ANY))) {
		perror("bpf_map_create or update");
		err = 1;
	}
	while (n--)
		bpf_link__destroy(links[n]);
	if (err)
		return 1;
	if (bpf_map__lookup_elem(bss, &zero, sizeof(zero), &typed, sizeof(typed), 0)) {
		perror("lookup .bss");
		return 1;
	}
	printf("made map id %u fd %d key %u value %llx\n", id_of(fd), fd, key,
	       (unsigned long long)value);
	print_seen("tp_btf", "bpf_map_create", &typed.btf_create, 0);
	print_seen("raw_tp", "bpf_map_create", &typed.raw_create, 0);
	print_seen("tp_btf", "bpf_map_update_elem", &typed.btf_update, 1);
	close(fd);
	return 0;
}

static const char *const lsm_hook_names[] = {
	[LSM_BPF] = "bpf", [LSM_MAP_CREATE] = "bpf_map_create", [LSM_MAP] = "bpf_map",
	[LSM_MAP_FREE] = "bpf_map_free", [LSM_PROG_LOAD] = "bpf_prog_load",
	[LSM_PROG] = "bpf_prog", [LSM_PROG_FREE] = "bpf_prog_free",
};

#define NO_LSM	"no BPF LSM (CONFIG_BPF_LSM, and bpf in CONFIG_LSM or lsm=)"

/*
 * The programs' .bss through the map's own mmap (libbpf makes it
 * BPF_F_MMAPABLE; libbpf 1.1 maps it for skeletons alone): reading it is
 * no bpf(2) command for the hooks to see
 */
static struct lsm_bss *lsm_bss_of(struct bpf_object *obj)
{
	struct bpf_map *bss = bpf_object__find_map_by_name(obj, ".bss");
	long page = sysconf(_SC_PAGESIZE);
	void *at;

	if (!bss || bpf_map__value_size(bss) != sizeof(struct lsm_bss)) {
		fprintf(stderr, "libbpf: no .bss of %zu bytes\n", sizeof(struct lsm_bss));
		return NULL;
	}
	at = mmap(NULL, (sizeof(struct lsm_bss) + page - 1) / page * page, PROT_READ | PROT_WRITE,
		  MAP_SHARED, bpf_map__fd(bss), 0);
	if (at == MAP_FAILED) {
		perror("mmap .bss");
		return NULL;
	}
	return at;
}

/* Whether @name is a word of the comma separated list @names */
static bool listed(const char *names, const char *name)
{
	size_t len = strlen(name);
	const char *at;

	for (at = names; (at = strstr(at, name)); at += len)
		if ((at == names || at[-1] == ',') && (!at[len] || at[len] == ','))
			return true;
	return false;
}

/*
 * Attaches @obj's programs into @links: those named in @names (a comma
 * separated list), or with no @names its lsm/ ones
 */
static int lsm_attach(struct bpf_object *obj, const char *names, struct bpf_link **links, int max)
{
	struct bpf_program *prog;
	int n = 0;

	bpf_object__for_each_program(prog, obj) {
		if (names ? !listed(names, bpf_program__name(prog)) :
			    strncmp(bpf_program__section_name(prog), "lsm/", 4))
			continue;
		if (n == max)
			break;
		links[n] = bpf_program__attach(prog);
		if (!links[n]) {
			printf("lsm attach %s: %s: %s\n", bpf_program__name(prog), strerror(errno),
			       NO_LSM);
			while (n--)
				bpf_link__destroy(links[n]);
			return -1;
		}
		n++;
	}
	return n;
}

static void print_record(const struct lsm_record *r)
{
	printf("lsm %s cmd %u id %u known_id %u type %u ",
	       r->hook < ARRAY_SIZE(lsm_hook_names) ? lsm_hook_names[r->hook] : "?",
	       r->cmd, r->id, r->known_id, r->type);
	printf("key %u val %u max %u insns %u name %.16s\n", r->key_size, r->value_size,
	       r->max_entries, r->insn_cnt, (const char *)r->name);
}

static int lsm_story(struct bpf_object *obj)
{
	const struct bpf_insn good[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	struct lsm_bss *lsm = lsm_bss_of(obj);
	__u64 value = 0x1122334455667788ULL;
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info), key = 1, map_id, i;
	struct bpf_link *links[8];
	int n, fd, bad, prog, tries;

	if (!lsm)
		return 1;
	n = lsm_attach(obj, NULL, links, 8);
	if (n < 0)
		return 3;
	printf("pid %d\n", getpid());
	__atomic_store_n(&lsm->tgid, getpid(), __ATOMIC_RELEASE);
	fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "tp_lsm", 4, 8, 4, NULL);
	if (fd < 0 || bpf_map_update_elem(fd, &key, &value, BPF_ANY)) {
		perror("bpf_map_create or update");
		return 1;
	}
	bad = bpf_map_create(BPF_MAP_TYPE_ARRAY, "tp_lsm_fail", 4, 8, 0, NULL);
	if (bad >= 0) {
		fprintf(stderr, "a map of max_entries 0 was made\n");
		return 1;
	}
	prog = bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, "tp_lsm_prog", "GPL", good, 2, NULL);
	if (prog < 0 || bpf_obj_get_info_by_fd(prog, &info, &len)) {
		perror("bpf_prog_load");
		return 1;
	}
	map_id = id_of(fd);
	printf("made map id %u fd %d key %u value %llx\n", map_id, fd, key,
	       (unsigned long long)value);
	printf("made prog id %u tag ", info.id);
	for (i = 0; i < BPF_TAG_SIZE; i++)
		printf("%02x", info.tag[i]);
	printf(" fd %d\n", prog);
	/* no more of the loader's commands: its frees are noted by address */
	__atomic_store_n(&lsm->tgid, 0, __ATOMIC_RELEASE);
	close(prog);
	close(fd);
	/*
	 * The frees: a kworker's and an RCU callback's (lazy RCU: 10 s), each
	 * in its slot, published by its known_id, which the program writes last
	 */
	for (tries = 0; tries < 300; tries++) {
		if (__atomic_load_n(&lsm->map_free.known_id, __ATOMIC_ACQUIRE) == map_id &&
		    __atomic_load_n(&lsm->prog_free.known_id, __ATOMIC_ACQUIRE) == info.id)
			break;
		usleep(100000);
	}
	while (n--)
		bpf_link__destroy(links[n]);
	for (i = 0; i < lsm->nr && i < LSM_RECORDS; i++)
		print_record(&lsm->rec[i]);
	if (lsm->map_free.known_id)
		print_record(&lsm->map_free);
	if (lsm->prog_free.known_id)
		print_record(&lsm->prog_free);
	if (lsm->nr > LSM_RECORDS) {
		printf("lsm records: %u made, %u kept\n", lsm->nr, LSM_RECORDS);
		return 1;
	}
	return 0;
}

static int bench_count(struct bpf_object *obj, const char *names)
{
	struct lsm_bss *lsm = lsm_bss_of(obj);
	struct bpf_link *links[8];
	sigset_t stop;
	int n, sig;

	if (!lsm)
		return 1;
	n = lsm_attach(obj, names, links, 8);
	if (n <= 0) {
		fprintf(stderr, "no program of %s attached\n", names);
		return 3;
	}
	/*
	 * Blocked before "ready", taken by sigwait(): none is lost. (A shell
	 * starts a job with & ignoring SIGINT; a blocked signal is kept.)
	 */
	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	sigprocmask(SIG_BLOCK, &stop, NULL);
	signal(SIGINT, SIG_DFL);
	printf("ready\n");
	sigwait(&stop, &sig);
	while (n--)
		bpf_link__destroy(links[n]);
	printf("@calls: %llu\n",
	       (unsigned long long)__atomic_load_n(&lsm->calls, __ATOMIC_ACQUIRE));
	return 0;
}

/* The line of @text that is @name alone, or @name followed by @next */
static bool has_line(const char *text, const char *name, char next)
{
	size_t len = strlen(name);
	const char *at = text;

	while ((at = strstr(at, name))) {
		if ((at == text || at[-1] == '\n' || at[-1] == ' ') &&
		    (at[len] == '\n' || at[len] == next))
			return true;
		at += len;
	}
	return false;
}

static char *slurp(const char *path)
{
	size_t len = 0, cap = 1 << 20;
	char *buf = malloc(cap);
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f || !buf) {
		if (f)
			fclose(f);
		free(buf);
		return NULL;
	}
	while ((n = fread(buf + len, 1, cap - len - 1, f)) > 0) {
		len += n;
		if (len + 1 == cap) {
			char *more = realloc(buf, cap *= 2);

			if (!more)
				break;
			buf = more;
		}
	}
	buf[len] = '\0';
	fclose(f);
	return buf;
}

static char decl[1024];
static size_t decl_len;

static void decl_printf(void *ctx, const char *format, va_list args)
{
	int n;

	if (decl_len >= sizeof(decl) - 1)
		return;
	n = vsnprintf(decl + decl_len, sizeof(decl) - decl_len, format, args);
	if (n > 0)
		decl_len = decl_len + n < sizeof(decl) ? decl_len + n : sizeof(decl) - 1;
}

static void decl_add(const char *format, ...)
{
	va_list args;

	va_start(args, format);
	decl_printf(NULL, format, args);
	va_end(args);
}

/* "RET FUNC(TYPE NAME, ...)" of BTF FUNC @id, in decl */
static void emit_prototype(const struct btf *btf, struct btf_dump *d, __s32 id)
{
	const struct btf_type *func = btf__type_by_id(btf, id);
	const struct btf_type *proto = btf__type_by_id(btf, func->type);
	const struct btf_param *param = btf_params(proto);
	int i;

	LIBBPF_OPTS(btf_dump_emit_type_decl_opts, opts, .field_name = "");
	decl_len = 0;
	btf_dump__emit_type_decl(d, proto->type, &opts);
	decl_add(" %s(", btf__name_by_offset(btf, func->name_off));
	for (i = 0; i < btf_vlen(proto); i++, param++) {
		opts.field_name = btf__name_by_offset(btf, param->name_off);
		if (i)
			decl_add(", ");
		btf_dump__emit_type_decl(d, param->type, &opts);
	}
	decl_add(")");
}

/* Why an fexit program on BTF FUNC @id cannot attach, or "ok" */
static const char *fexit_attach(__s32 id)
{
	const struct bpf_insn ret0[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .expected_attach_type = BPF_TRACE_FEXIT,
		    .attach_btf_id = id);
	static char why[128];
	int fd, link;

	fd = bpf_prog_load(BPF_PROG_TYPE_TRACING, "tp_fexit_probe", "GPL", ret0, 2, &opts);
	if (fd < 0) {
		snprintf(why, sizeof(why), "load: %s", strerror(errno));
		return why;
	}
	link = bpf_raw_tracepoint_open(NULL, fd);
	if (link < 0)
		snprintf(why, sizeof(why), "attach: %s", strerror(errno));
	else
		snprintf(why, sizeof(why), "ok");
	if (link >= 0)
		close(link);
	close(fd);
	return why;
}

/*
 * @func's kallsyms type ("t", "T" or "W"), "clone NAME" when only a
 * compiler's copy of it (NAME.isra.0, .constprop.0, .part.0) is there,
 * or "-"
 */
static void symbol_of(const char *kallsyms, const char *func, char *out, size_t size)
{
	static const char types[] = "tTW";
	static const char *const clones[] = { "isra", "constprop", "part" };
	char want[160];
	const char *at;
	int i;

	for (i = 0; types[i]; i++) {
		snprintf(want, sizeof(want), " %c %s\n", types[i], func);
		if (strstr(kallsyms, want)) {
			snprintf(out, size, "%c", types[i]);
			return;
		}
	}
	for (i = 0; i < (int)ARRAY_SIZE(clones); i++) {
		snprintf(want, sizeof(want), " t %s.%s.", func, clones[i]);
		at = strstr(kallsyms, want);
		if (at) {
			snprintf(out, size, "clone %.*s", (int)strcspn(at + 3, "\n"), at + 3);
			return;
		}
	}
	snprintf(out, size, "-");
}

/* Whether BTF has more than one FUNC named @func */
static bool btf_func_twice(const struct btf *btf, const char *func, __s32 first)
{
	__u32 id, n = btf__type_cnt(btf);

	for (id = first + 1; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);

		if (btf_is_func(t) && !strcmp(btf__name_by_offset(btf, t->name_off), func))
			return true;
	}
	return false;
}

static int fentry_table(int n, char **funcs)
{
	char *kallsyms = slurp("/proc/kallsyms");
	char *ftrace = slurp("/sys/kernel/tracing/available_filter_functions");
	struct btf *btf = btf__load_vmlinux_btf();
	struct btf_dump *d;
	int i;

	if (!kallsyms || !ftrace || !btf) {
		fprintf(stderr, "fentry: /proc/kallsyms, available_filter_functions or BTF: %s\n",
			strerror(errno));
		return 1;
	}
	d = btf_dump__new(btf, decl_printf, NULL, NULL);
	if (!d) {
		perror("btf_dump__new");
		return 1;
	}
	for (i = 0; i < n; i++) {
		const char *func = funcs[i];
		__s32 id = btf__find_by_name_kind(btf, func, BTF_KIND_FUNC);
		char sym[160];

		symbol_of(kallsyms, func, sym, sizeof(sym));
		decl_len = 0;
		decl[0] = '\0';
		if (id > 0)
			emit_prototype(btf, d, id);
		printf("fentry %s symbol %s ftrace %s btf %s attach %s: %s\n", func, sym,
		       has_line(ftrace, func, ' ') ? "yes" : "no",
		       id <= 0 ? "-" : btf_func_twice(btf, func, id) ? "ambiguous" : "yes",
		       id > 0 ? fexit_attach(id) : "no BTF FUNC", decl[0] ? decl : "-");
	}
	btf_dump__free(d);
	btf__free(btf);
	free(kallsyms);
	free(ftrace);
	return 0;
}

/* The first line of the verifier's log that says why */
static const char *log_reason(char *log)
{
	char *line, *save;

	for (line = strtok_r(log, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		if (!strstr(line, "processed ") && !strchr("0123456789", line[0]))
			return line;
	return "(no log)";
}

static int fail_three_ways(void)
{
	/* r0 = r2; exit: r2 is never set */
	const struct bpf_insn bad[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_X, .dst_reg = BPF_REG_0, .src_reg = BPF_REG_2 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	const struct bpf_insn good[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	static char log[4096];
	struct bpf_prog_load_opts opts = {
		.sz = sizeof(opts), .log_buf = log, .log_size = sizeof(log), .log_level = 1,
	};
	int fd, wrong = 0;

	printf("pid %d\n", getpid());
	fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "tp_fail_map", 4, 8, 0, NULL);
	printf("fail map_create %s\n", fd < 0 ? strerror(errno) : "(it worked)");
	wrong += fd >= 0;
	fd = bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, "tp_fail_prog", "GPL", bad, 2, &opts);
	printf("fail prog_load %s %s\n", fd < 0 ? strerror(errno) : "(it worked)",
	       log_reason(log));
	wrong += fd >= 0;
	fd = bpf_prog_load(BPF_PROG_TYPE_RAW_TRACEPOINT, "tp_fail_raw_tp", "GPL", good, 2, NULL);
	if (fd < 0) {
		perror("bpf_prog_load raw_tp");
		return 1;
	}
	printf("prog tp_fail_raw_tp fd %d\n", fd);
	wrong += bpf_raw_tracepoint_open("no_such_tracepoint", fd) >= 0;
	printf("fail raw_tracepoint_open %s\n", strerror(errno));
	close(fd);
	return wrong ? 1 : 0;
}

int main(int argc, char **argv)
{
	struct bpf_object *obj;
	int err;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 2 && !strcmp(argv[1], "--fail"))
		return fail_three_ways();
	if (argc > 2 && !strcmp(argv[1], "--fentry"))
		return fentry_table(argc - 2, argv + 2);
	if (argc != 2 && !(argc == 4 && !strcmp(argv[2], "--count")) &&
	    !(argc == 4 && !strcmp(argv[2], "--bench-count")) &&
	    !(argc == 3 && (!strcmp(argv[2], "--typed") || !strcmp(argv[2], "--lsm")))) {
		fprintf(stderr, "usage: %s OBJECT [--count N | --typed | --lsm", argv[0]);
		fprintf(stderr, " | --bench-count PROGS] | --fail\n");
		return 1;
	}
	obj = bpf_object__open_file(argv[1], NULL);
	if (!obj) {
		fprintf(stderr, "libbpf: open %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	err = bpf_object__load(obj);
	if (err) {
		fprintf(stderr, "libbpf: load %s: %s\n", argv[1], strerror(-err));
		bpf_object__close(obj);
		return 1;
	}
	if (argc == 4 && !strcmp(argv[2], "--bench-count"))
		return bench_count(obj, argv[3]);
	if (argc == 3 && !strcmp(argv[2], "--lsm"))
		err = lsm_story(obj);
	else
		err = print_objects(obj) ? 1 : 0;
	if (!err && argc == 4 && !strcmp(argv[2], "--count"))
		err = count_map_creates(obj, atoi(argv[3]));
	if (!err && argc == 3 && !strcmp(argv[2], "--typed"))
		err = typed_clients(obj);
	bpf_object__close(obj);
	return err;
}
