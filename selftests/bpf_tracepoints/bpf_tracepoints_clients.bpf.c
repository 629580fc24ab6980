// SPDX-License-Identifier: GPL-2.0
/*
 * A small BPF object for the real clients (bpftool prog load, and
 * bpf_tracepoints_libbpf): what a user writes is one map, one global, one
 * constant and one program on the bpf_map_create event. What libbpf makes
 * of it beside (the .bss and .rodata maps, the freeze of .rodata) is what
 * the events show.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

/*
 * The record of bpf:bpf_map_create as its format file lays it out: the
 * 8 bytes of common fields, then the event's own. No ABI: a program that
 * reads these fields follows the kernel it runs on.
 */
struct bpf_map_create_record {
	__u64 common;
	__u32 type;
	__u32 size_key;
	__u32 size_value;
	__u32 max_entries;
	__u32 flags;
	int ufd;
	__u32 id;
	char name[16];
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16);
	__type(key, __u32);
	__type(value, __u32);
} tp_clients_ids SEC(".maps");

/*
 * .bss: the loader sets tgid (only its own creates count), then looks
 * the counts up
 */
struct {
	__u64 creates;
	__u32 last_id;
	__u32 tgid;
} counts;

/*
 * .rodata: what each map created counts for. Not volatile, so clang may
 * fold it into the program; libbpf makes, fills and freezes the map all
 * the same, and that is what the events are held to.
 */
const __u64 creates_step = 1;

SEC("tracepoint/bpf/bpf_map_create")
int count_creates(struct bpf_map_create_record *ctx)
{
	__u32 id = ctx->id, ufd = ctx->ufd;

	if (counts.tgid != bpf_get_current_pid_tgid() >> 32)
		return 0;
	__sync_fetch_and_add(&counts.creates, creates_step);
	counts.last_id = id;
	bpf_map_update_elem(&tp_clients_ids, &id, &ufd, BPF_ANY);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
