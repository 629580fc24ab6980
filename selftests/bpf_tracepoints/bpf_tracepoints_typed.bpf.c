// SPDX-License-Identifier: GPL-2.0
/*
 * The typed clients, as today's BPF tools attach: CO-RE programs built
 * against the running kernel's vmlinux.h (bpftool btf dump file
 * /sys/kernel/btf/vmlinux format c), on the events' TP_PROTO arguments
 * rather than on their tracefs records.
 *
 *   tp_btf/bpf_map_create	the struct bpf_map and the fd, typed: the
 *				verifier knows what the pointer points to
 *   raw_tp/bpf_map_create	the same arguments as plain u64s, read with
 *				BPF_CORE_READ (relocated at load)
 *   tp_btf/bpf_map_update_elem	the kernel's copies of key and value
 *
 * bpf_tracepoints_libbpf --typed loads this, sets tgid, makes a map and
 * updates it, and prints what each program saw (its .bss), for the test
 * to hold against the tracefs records of the same calls.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include "bpf_tracepoints_typed.h"

/* .bss: one variable, so that its layout is the loader's */
struct typed_bss typed;

static bool mine(void)
{
	return typed.tgid == bpf_get_current_pid_tgid() >> 32;
}

SEC("tp_btf/bpf_map_create")
int BPF_PROG(typed_btf_create, const struct bpf_map *map, int ufd)
{
	if (!mine())
		return 0;
	typed.btf_create.hits++;
	/* typed: plain loads, checked by the verifier against the BTF */
	typed.btf_create.id = map->id;
	typed.btf_create.ufd = ufd;
	typed.btf_create.key_size = map->key_size;
	typed.btf_create.value_size = map->value_size;
	bpf_probe_read_kernel_str(typed.btf_create.name, sizeof(typed.btf_create.name), map->name);
	return 0;
}

SEC("raw_tp/bpf_map_create")
int BPF_PROG(typed_raw_create, const struct bpf_map *map, int ufd)
{
	if (!mine())
		return 0;
	typed.raw_create.hits++;
	/* untyped u64 arguments: each read is a relocated probe read */
	typed.raw_create.id = BPF_CORE_READ(map, id);
	typed.raw_create.ufd = ufd;
	typed.raw_create.key_size = BPF_CORE_READ(map, key_size);
	typed.raw_create.value_size = BPF_CORE_READ(map, value_size);
	BPF_CORE_READ_STR_INTO(&typed.raw_create.name, map, name);
	return 0;
}

SEC("tp_btf/bpf_map_update_elem")
int BPF_PROG(typed_btf_update, const struct bpf_map *map, int ufd, const u8 *key,
	     const u8 *value, u32 value_size)
{
	if (!mine())
		return 0;
	typed.btf_update.hits++;
	typed.btf_update.id = map->id;
	typed.btf_update.ufd = ufd;
	typed.btf_update.key_size = map->key_size;
	typed.btf_update.value_size = value_size;
	/*
	 * The kernel's copies, made before the update: no user memory. An
	 * int pointer is a scalar to the verifier, read with a probe read.
	 */
	bpf_probe_read_kernel(&typed.btf_update.key, sizeof(typed.btf_update.key), key);
	bpf_probe_read_kernel(&typed.btf_update.value, sizeof(typed.btf_update.value), value);
	bpf_probe_read_kernel_str(typed.btf_update.name, sizeof(typed.btf_update.name), map->name);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
