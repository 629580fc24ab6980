/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the typed clients' programs (bpf_tracepoints_typed.bpf.c) leave in
 * their .bss, one variable of struct typed_bss, which the loader
 * (bpf_tracepoints_libbpf --typed) writes tgid into and reads whole.
 */
#ifndef BPF_TRACEPOINTS_TYPED_H
#define BPF_TRACEPOINTS_TYPED_H

struct typed_seen {
	__u64 hits;
	__u32 id;
	__s32 ufd;
	__u32 key_size;
	__u32 value_size;
	__u32 key;
	__u32 pad;
	__u64 value;
	char name[16];
};

struct typed_bss {
	__u32 tgid;	/* only the loader's own calls count */
	__u32 pad;
	struct typed_seen btf_create, raw_create, btf_update;
};

#endif
