// SPDX-License-Identifier: GPL-2.0
/*
 * Two alternatives to the events' tracefs records, beside them:
 *
 * The BPF LSM, as a maintainer would set it up: programs on the bpf(2)
 * security hooks, which see the kernel's copy of each command's
 * attributes and the objects the command makes, but not its outcome (a
 * hook runs before the command's work, or at a free).
 *
 *   lsm/bpf			every command and its attr (and counts every
 *				call of every task, for make bench-btf)
 *   lsm/bpf_map_create		the map being made, before its id exists
 *   lsm/bpf_map		a new fd of a map: its id
 *   lsm/bpf_map_free		the map's free
 *   lsm/bpf_prog_load		the program being loaded, before the verifier
 *   lsm/bpf_prog		a new fd of a program: its id
 *   lsm/bpf_prog_free		the program's free
 *
 * Every program returns the verdict it was given: it decides nothing.
 * bpf_tracepoints_libbpf --lsm loads this, does a loader's work and
 * prints each record, for the test to hold against the events' records.
 *
 * A bare tracepoint's client: raw_tp programs counting the lookups and
 * updates on the element events' tracepoints, with the events not
 * enabled in tracefs, which is what they would run on a DECLARE_TRACE()
 * twin (make bench-btf, bpf_tracepoints_libbpf --bench-count).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "bpf_tracepoints_alt.h"

struct lsm_bss lsm;

static bool mine(void)
{
	return lsm.tgid && lsm.tgid == bpf_get_current_pid_tgid() >> 32;
}

/* The next of the loader's records (its task alone writes them) */
static struct lsm_record *next_record(__u32 hook)
{
	__u32 i = lsm.nr;
	struct lsm_record *r;

	lsm.nr = i + 1;
	if (i >= LSM_RECORDS)
		return NULL;
	r = &lsm.rec[i];
	r->hook = hook;
	return r;
}

/*
 * The loader's object at @ptr: noted with its @id (@add), or the id it
 * was noted with (0: not the loader's). The address is kept as a number:
 * root's programs may (allow_ptr_leaks).
 */
static __u32 note_obj(__u64 *ptrs, __u32 *ids, __u64 ptr, __u32 id, bool add)
{
	int i;

	for (i = 0; i < LSM_IDS; i++) {
		if (ptrs[i] == ptr) {
			/* at its free: forgotten, for the next object there */
			if (!add)
				ptrs[i] = 0;
			return ids[i];
		}
		if (add && !ptrs[i]) {
			ptrs[i] = ptr;
			ids[i] = id;
			return id;
		}
	}
	return 0;
}

/*
 * (a compiler barrier: x86's JIT keeps the store order, which is all the
 * rig runs; another arch's would need an ordered store)
 */
#define publish(dst, val) do { asm volatile("" ::: "memory"); (dst) = (val); } while (0)

static void map_record(struct lsm_record *r, __u32 hook, const struct bpf_map *map,
		       __u32 known_id)
{
	if (!r)
		return;
	r->hook = hook;
	r->id = map->id;
	r->type = map->map_type;
	r->key_size = map->key_size;
	r->value_size = map->value_size;
	r->max_entries = map->max_entries;
	bpf_probe_read_kernel_str(r->name, sizeof(r->name), map->name);
	publish(r->known_id, known_id);
}

static void prog_record(struct lsm_record *r, __u32 hook, const struct bpf_prog *prog,
			__u32 known_id)
{
	if (!r)
		return;
	r->hook = hook;
	r->id = prog->aux->id;
	r->type = prog->type;
	r->insn_cnt = prog->len;
	bpf_probe_read_kernel_str(r->name, sizeof(r->name), prog->aux->name);
	publish(r->known_id, known_id);
}

SEC("lsm/bpf")
int BPF_PROG(lsm_bpf, int cmd, union bpf_attr *attr, unsigned int size, int ret)
{
	struct lsm_record *r;

	__sync_fetch_and_add(&lsm.calls, 1);
	if (!mine())
		return ret;
	r = next_record(LSM_BPF);
	if (!r)
		return ret;
	r->cmd = cmd;
	if (cmd == BPF_MAP_CREATE) {
		r->type = attr->map_type;
		r->key_size = attr->key_size;
		r->value_size = attr->value_size;
		r->max_entries = attr->max_entries;
		bpf_probe_read_kernel_str(r->name, sizeof(r->name), attr->map_name);
	} else if (cmd == BPF_PROG_LOAD) {
		r->type = attr->prog_type;
		r->insn_cnt = attr->insn_cnt;
		bpf_probe_read_kernel_str(r->name, sizeof(r->name), attr->prog_name);
	}
	return ret;
}

SEC("lsm/bpf_map_create")
int BPF_PROG(lsm_map_create, struct bpf_map *map, union bpf_attr *attr,
	     struct bpf_token *token, int ret)
{
	if (mine())
		map_record(next_record(LSM_MAP_CREATE), LSM_MAP_CREATE, map, 0);
	return ret;
}

SEC("lsm/bpf_map")
int BPF_PROG(lsm_map, struct bpf_map *map, fmode_t fmode, int ret)
{
	if (!mine())
		return ret;
	map_record(next_record(LSM_MAP), LSM_MAP, map,
		   note_obj(lsm.map_ptrs, lsm.map_ids, (__u64)map, map->id, true));
	return ret;
}

SEC("lsm/bpf_map_free")
int BPF_PROG(lsm_map_free, struct bpf_map *map)
{
	__u32 id = note_obj(lsm.map_ptrs, lsm.map_ids, (__u64)map, 0, false);

	if (id)
		map_record(&lsm.map_free, LSM_MAP_FREE, map, id);
	return 0;
}

SEC("lsm/bpf_prog_load")
int BPF_PROG(lsm_prog_load, struct bpf_prog *prog, union bpf_attr *attr,
	     struct bpf_token *token, int ret)
{
	if (mine())
		prog_record(next_record(LSM_PROG_LOAD), LSM_PROG_LOAD, prog, 0);
	return ret;
}

SEC("lsm/bpf_prog")
int BPF_PROG(lsm_prog, struct bpf_prog *prog, int ret)
{
	if (!mine())
		return ret;
	prog_record(next_record(LSM_PROG), LSM_PROG, prog,
		    note_obj(lsm.prog_ptrs, lsm.prog_ids, (__u64)prog, prog->aux->id, true));
	return ret;
}

SEC("lsm/bpf_prog_free")
int BPF_PROG(lsm_prog_free, struct bpf_prog *prog)
{
	__u32 id = note_obj(lsm.prog_ptrs, lsm.prog_ids, (__u64)prog, 0, false);

	if (id)
		prog_record(&lsm.prog_free, LSM_PROG_FREE, prog, id);
	return 0;
}

SEC("raw_tp/bpf_map_lookup_elem")
int count_raw_lookup(void *ctx)
{
	__sync_fetch_and_add(&lsm.calls, 1);
	return 0;
}

SEC("raw_tp/bpf_map_update_elem")
int count_raw_update(void *ctx)
{
	__sync_fetch_and_add(&lsm.calls, 1);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
