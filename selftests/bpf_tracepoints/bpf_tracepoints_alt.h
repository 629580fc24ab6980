/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the alternatives' programs (bpf_tracepoints_alt.bpf.c: BPF LSM,
 * raw_tp counters) leave in their .bss, one variable of struct lsm_bss,
 * which the loader (bpf_tracepoints_libbpf --lsm, --bench-count) writes
 * tgid into and reads through the map's mmap (a read with bpf(2) would
 * itself be a command the hooks see).
 */
#ifndef BPF_TRACEPOINTS_ALT_H
#define BPF_TRACEPOINTS_ALT_H

enum lsm_hook {
	LSM_BPF,		/* security_bpf(): every command, its attr */
	LSM_MAP_CREATE,		/* security_bpf_map_create() */
	LSM_MAP,		/* security_bpf_map(): a new fd of a map */
	LSM_MAP_FREE,		/* security_bpf_map_free() */
	LSM_PROG_LOAD,		/* security_bpf_prog_load() */
	LSM_PROG,		/* security_bpf_prog(): a new fd of a program */
	LSM_PROG_FREE,		/* security_bpf_prog_free() */
};

#define LSM_RECORDS	32
#define LSM_IDS		8

struct lsm_record {
	__u32 hook;
	__u32 cmd;		/* LSM_BPF's */
	/* the object's id as the hook saw it: at a free, already cleared */
	__u32 id;
	__u32 known_id;		/* at a free: the id its new fd had */
	__u32 type;		/* map or program type */
	__u32 key_size;
	__u32 value_size;
	__u32 max_entries;
	__u32 insn_cnt;
	__u32 pad;
	char name[16];
};

struct lsm_bss {
	__u32 tgid;		/* only the loader's own calls are recorded */
	__u32 nr;		/* records written (may exceed LSM_RECORDS) */
	__u64 calls;		/* calls of every task the counting programs saw */
	/*
	 * The loader's maps and programs, by address (and the id each had),
	 * for their frees: those run on a kworker or in an RCU callback,
	 * after the kernel has cleared the id
	 */
	__u64 map_ptrs[LSM_IDS], prog_ptrs[LSM_IDS];
	__u32 map_ids[LSM_IDS], prog_ids[LSM_IDS];
	/*
	 * The loader's own commands' records, written in its task alone
	 * (one command at a time); the frees' in slots of their own, each
	 * published by its known_id, written last
	 */
	struct lsm_record rec[LSM_RECORDS];
	struct lsm_record map_free, prog_free;
};

#endif
