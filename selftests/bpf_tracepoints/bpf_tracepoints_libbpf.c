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
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

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
	if (argc != 2 && !(argc == 4 && !strcmp(argv[2], "--count"))) {
		fprintf(stderr, "usage: %s OBJECT [--count N] | --fail\n", argv[0]);
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
	err = print_objects(obj) ? 1 : 0;
	if (!err && argc == 4)
		err = count_map_creates(obj, atoi(argv[3]));
	bpf_object__close(obj);
	return err;
}
