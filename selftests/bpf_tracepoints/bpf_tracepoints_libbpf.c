// SPDX-License-Identifier: GPL-2.0
/*
 * A libbpf loader, as BPF users write them: opens and loads
 * bpf_tracepoints_clients.bpf.o and prints what libbpf made of it, for
 * the test to hold the events against:
 *
 *   pid PID			the loader's
 *   map NAME id ID fd FD	one per map: libbpf's name, the kernel's id, the fd
 *   prog NAME id ID tag TAG fd FD	one per program
 *
 * With --count N it also attaches count_creates to bpf:bpf_map_create,
 * creates N maps and prints what the program saw (its .bss, and the fd it
 * read from the last record, looked up by the map's id) beside the truth:
 *
 *   counted C of N last_id ID want ID ufd FD want FD
 *
 * Exit 0 on success, 1 on a failure, 2 when the tracepoint does not exist
 * (a kernel without CONFIG_BPF_LOW_LEVEL_TRACEPOINTS), saying so.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>
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

int main(int argc, char **argv)
{
	struct bpf_object *obj;
	int err;

	if (argc != 2 && !(argc == 4 && !strcmp(argv[2], "--count"))) {
		fprintf(stderr, "usage: %s OBJECT [--count N]\n", argv[0]);
		return 1;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
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
