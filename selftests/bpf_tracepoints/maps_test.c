// SPDX-License-Identifier: GPL-2.0
/*
 * Maps: creation (its flags, and no event when it fails), each element
 * command with its key and value bytes (cut at 16), batches and freezing.
 */
#define _GNU_SOURCE
#include "../kselftest_harness.h"
#include "test_helpers.h"

/*
 * A page the kernel cannot write: a command's copy of its result out to
 * it fails with EFAULT after the command itself has worked, and must
 * leave no event. NULL if it cannot be had.
 */
static void *unwritable_page(void)
{
	void *p = mmap(NULL, getpagesize(), PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

/* A map of @type with one element @key -> @val, described in @m. */
static int map_with_elem(__u32 type, __u32 ksize, __u32 vsize, const void *key,
			 const void *val, struct map_desc *m)
{
	int fd = sys_map_create(type, ksize, vsize, 4, 0);

	if (fd < 0 || map_desc(fd, m) ||
	    sys_map_elem(BPF_MAP_UPDATE_ELEM, fd, key, (void *)val, BPF_ANY)) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

TEST(map_create)
{
	struct map_desc m;
	char *trace;
	int fd;

	TP_BEGIN("bpf_map_create");
	fd = sys_map_create(BPF_MAP_TYPE_ARRAY, 4, 8, 256, 0);
	ASSERT_LE(0, fd) TH_LOG("BPF_MAP_CREATE: %s", strerror(errno));
	trace = tp_end();
	ASSERT_EQ(0, map_desc(fd, &m));
	ASSERT_EQ(8, m.value_size);
	EXPECT_EVENT(trace, fmt("bpf_map_create: %s key=4 val=8 max=256 flags=0 %s",
				map_head(&m, fd), map_tail(&m)));
	ASSERT_EQ(gate_on, count_of(trace, " bpf_map_create: ")) TH_LOG("%s", trace);
	close(fd);
}

TEST(map_create_flags)
{
	struct map_desc m;
	char *trace;
	int fd;

	TP_BEGIN("bpf_map_create");
	fd = sys_map_create(BPF_MAP_TYPE_HASH, 20, 12, 16, BPF_F_NO_PREALLOC);
	ASSERT_LE(0, fd) TH_LOG("BPF_MAP_CREATE: %s", strerror(errno));
	trace = tp_end();
	ASSERT_EQ(0, map_desc(fd, &m));
	EXPECT_EVENT(trace, fmt("bpf_map_create: %s key=20 val=12 max=16 flags=%x %s",
				map_head(&m, fd), BPF_F_NO_PREALLOC, map_tail(&m)));
	ASSERT_EQ(gate_on, count_of(trace, " bpf_map_create: ")) TH_LOG("%s", trace);
	close(fd);
}

TEST(map_create_failed_leaves_no_event)
{
	struct map_desc m;
	char *trace;
	int fd;

	TP_BEGIN("bpf_map_create");
	/* an array map's key is always 4 bytes */
	ASSERT_EQ(-1, sys_map_create(BPF_MAP_TYPE_ARRAY, 8, 8, 256, 0));
	ASSERT_EQ(EINVAL, errno);
	/* the control, in the same window: a create that works is traced */
	fd = sys_map_create(BPF_MAP_TYPE_ARRAY, 4, 8, 256, 0);
	ASSERT_LE(0, fd) TH_LOG("BPF_MAP_CREATE: %s", strerror(errno));
	trace = tp_end();
	ASSERT_EQ(0, map_desc(fd, &m));
	EXPECT_EVENT(trace, fmt("bpf_map_create: %s key=4 val=8 max=256 flags=0 %s",
				map_head(&m, fd), map_tail(&m)));
	/* and it is the only one: nothing for key=8 */
	ASSERT_EQ(gate_on, count_of(trace, " bpf_map_create: ")) TH_LOG("%s", trace);
	close(fd);
}

TEST(map_lookup_elem)
{
	__u32 key = 3, missing = 7;
	__u64 val = 0x1400000000000000ULL, got = 0;
	struct map_desc m;
	void *nowhere;
	char *trace;
	int fd, hfd;

	fd = map_with_elem(BPF_MAP_TYPE_ARRAY, 4, 8, &key, &val, &m);
	ASSERT_LE(0, fd);
	hfd = sys_map_create(BPF_MAP_TYPE_HASH, 4, 8, 4, 0);
	ASSERT_LE(0, hfd);
	nowhere = unwritable_page();
	ASSERT_NE(NULL, nowhere);
	TP_BEGIN("bpf_map_lookup_elem");
	ASSERT_EQ(0, sys_map_elem(BPF_MAP_LOOKUP_ELEM, fd, &key, &got, 0));
	ASSERT_EQ(val, got);
	/* failing forms: a key the hash map does not hold; a value the
	 * kernel found but cannot copy out
	 */
	ASSERT_EQ(-1, sys_map_elem(BPF_MAP_LOOKUP_ELEM, hfd, &missing, &got, 0));
	ASSERT_EQ(ENOENT, errno);
	ASSERT_EQ(-1, sys_map_elem(BPF_MAP_LOOKUP_ELEM, fd, &key, nowhere, 0));
	ASSERT_EQ(EFAULT, errno);
	trace = tp_end();
	munmap(nowhere, getpagesize());
	EXPECT_EVENT(trace, fmt("bpf_map_lookup_elem: %s key=[%s] val=[%s] %s", map_head(&m, fd),
				hex(&key, 4), hex(&val, 8), map_tail(&m)));
	ASSERT_EQ(gate_on, count_of(trace, " bpf_map_lookup_elem: "));
	close(hfd);
	close(fd);
}

TEST(map_update_elem)
{
	__u32 key = 1;
	__u64 val = 0x0807060504030201ULL;
	struct map_desc m;
	char *trace;
	int fd;

	fd = sys_map_create(BPF_MAP_TYPE_ARRAY, 4, 8, 4, 0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, map_desc(fd, &m));
	TP_BEGIN("bpf_map_update_elem");
	ASSERT_EQ(0, sys_map_elem(BPF_MAP_UPDATE_ELEM, fd, &key, &val, BPF_ANY));
	/* failing form: an array's elements always exist */
	ASSERT_EQ(-1, sys_map_elem(BPF_MAP_UPDATE_ELEM, fd, &key, &val, BPF_NOEXIST));
	ASSERT_EQ(EEXIST, errno);
	trace = tp_end();
	EXPECT_EVENT(trace, fmt("bpf_map_update_elem: %s key=[01 00 00 00] val=[01 02 03 04 05 06 07 08] %s",
				map_head(&m, fd), map_tail(&m)));
	ASSERT_EQ(gate_on, count_of(trace, " bpf_map_update_elem: "));
	close(fd);
}

TEST(map_delete_elem)
{
	__u32 key = 0x0a0b0c0d;
	__u64 val = 1;
	struct map_desc m;
	char *trace;
	int fd;

	fd = map_with_elem(BPF_MAP_TYPE_HASH, 4, 8, &key, &val, &m);
	ASSERT_LE(0, fd);
	TP_BEGIN("bpf_map_delete_elem");
	ASSERT_EQ(0, sys_map_elem(BPF_MAP_DELETE_ELEM, fd, &key, NULL, 0));
	/* failing form: it is gone */
	ASSERT_EQ(-1, sys_map_elem(BPF_MAP_DELETE_ELEM, fd, &key, NULL, 0));
	ASSERT_EQ(ENOENT, errno);
	trace = tp_end();
	EXPECT_EVENT(trace, fmt("bpf_map_delete_elem: %s key=[0d 0c 0b 0a] %s",
				map_head(&m, fd), map_tail(&m)));
	ASSERT_EQ(gate_on, count_of(trace, " bpf_map_delete_elem: "));
	close(fd);
}

TEST(map_next_key)
{
	__u32 key = 3, next = 0;
	__u64 val = 1;
	struct map_desc m;
	void *nowhere;
	char *trace;
	int fd;

	fd = map_with_elem(BPF_MAP_TYPE_HASH, 4, 8, &key, &val, &m);
	ASSERT_LE(0, fd);
	nowhere = unwritable_page();
	ASSERT_NE(NULL, nowhere);
	TP_BEGIN("bpf_map_next_key");
	/* no key asks for the first one */
	ASSERT_EQ(0, sys_map_next_key(fd, NULL, &next));
	ASSERT_EQ(key, next);
	/* failing forms: there is none after the last; a next key the
	 * kernel found but cannot copy out
	 */
	ASSERT_EQ(-1, sys_map_next_key(fd, &next, &next));
	ASSERT_EQ(ENOENT, errno);
	ASSERT_EQ(-1, sys_map_next_key(fd, NULL, nowhere));
	ASSERT_EQ(EFAULT, errno);
	trace = tp_end();
	munmap(nowhere, getpagesize());
	EXPECT_EVENT(trace, fmt("bpf_map_next_key: %s key=[] next=[03 00 00 00] %s",
				map_head(&m, fd), map_tail(&m)));
	ASSERT_EQ(gate_on, count_of(trace, " bpf_map_next_key: "));
	close(fd);
}

TEST(map_lookup_and_delete_elem)
{
	__u32 key = 9;
	__u64 val = 0xffULL, got = 0;
	struct map_desc m, q;
	char *trace;
	int fd, qfd;

	fd = map_with_elem(BPF_MAP_TYPE_HASH, 4, 8, &key, &val, &m);
	ASSERT_LE(0, fd);
	qfd = sys_map_create(BPF_MAP_TYPE_QUEUE, 0, 8, 4, 0);
	ASSERT_LE(0, qfd);
	ASSERT_EQ(0, map_desc(qfd, &q));
	ASSERT_EQ(0, sys_map_elem(BPF_MAP_UPDATE_ELEM, qfd, NULL, &val, BPF_ANY));
	TP_BEGIN("bpf_map_lookup_and_delete_elem");
	ASSERT_EQ(0, sys_map_elem(BPF_MAP_LOOKUP_AND_DELETE_ELEM, fd, &key, &got, 0));
	ASSERT_EQ(val, got);
	/* a queue has no key: pop */
	ASSERT_EQ(0, sys_map_elem(BPF_MAP_LOOKUP_AND_DELETE_ELEM, qfd, NULL, &got, 0));
	/* failing forms: both are empty now */
	ASSERT_EQ(-1, sys_map_elem(BPF_MAP_LOOKUP_AND_DELETE_ELEM, fd, &key, &got, 0));
	ASSERT_EQ(ENOENT, errno);
	ASSERT_EQ(-1, sys_map_elem(BPF_MAP_LOOKUP_AND_DELETE_ELEM, qfd, NULL, &got, 0));
	ASSERT_EQ(ENOENT, errno);
	trace = tp_end();
	EXPECT_EVENT(trace, fmt("bpf_map_lookup_and_delete_elem: %s key=[09 00 00 00] val=[ff 00 00 00 00 00 00 00] %s",
				map_head(&m, fd), map_tail(&m)));
	EXPECT_EVENT(trace, fmt("bpf_map_lookup_and_delete_elem: %s key=[] val=[ff 00 00 00 00 00 00 00] %s",
				map_head(&q, qfd), map_tail(&q)));
	ASSERT_EQ(2 * gate_on, count_of(trace, " bpf_map_lookup_and_delete_elem: "));
	close(qfd);
	close(fd);
}

/* A 64 KiB value and a 20-byte key: 16 bytes of each, then " ...". */
TEST(large_key_and_value_are_cut)
{
	static unsigned char big[65536], got[65536];
	unsigned char key[20];
	struct map_desc a, h;
	__u32 zero = 0;
	char *trace;
	int afd, hfd;
	size_t i;

	for (i = 0; i < sizeof(big); i++)
		big[i] = i * 7;
	for (i = 0; i < sizeof(key); i++)
		key[i] = 0xa0 + i;
	afd = sys_map_create(BPF_MAP_TYPE_ARRAY, 4, sizeof(big), 1, 0);
	ASSERT_LE(0, afd) TH_LOG("64 KiB array: %s", strerror(errno));
	ASSERT_EQ(0, map_desc(afd, &a));
	hfd = sys_map_create(BPF_MAP_TYPE_HASH, sizeof(key), 4, 4, 0);
	ASSERT_LE(0, hfd);
	ASSERT_EQ(0, map_desc(hfd, &h));
	TP_BEGIN("bpf_map_update_elem,bpf_map_lookup_elem");
	ASSERT_EQ(0, sys_map_elem(BPF_MAP_UPDATE_ELEM, afd, &zero, big, BPF_ANY));
	ASSERT_EQ(0, sys_map_elem(BPF_MAP_LOOKUP_ELEM, afd, &zero, got, 0));
	ASSERT_EQ(0, memcmp(big, got, sizeof(big)));
	ASSERT_EQ(0, sys_map_elem(BPF_MAP_UPDATE_ELEM, hfd, key, &zero, BPF_ANY));
	trace = tp_end();
	EXPECT_EVENT(trace, fmt("bpf_map_update_elem: %s key=[00 00 00 00] val=[%s] %s",
				map_head(&a, afd), hex(big, sizeof(big)), map_tail(&a)));
	EXPECT_EVENT(trace, fmt("bpf_map_lookup_elem: %s key=[00 00 00 00] val=[%s] %s",
				map_head(&a, afd), hex(big, sizeof(big)), map_tail(&a)));
	EXPECT_EVENT(trace, fmt("bpf_map_update_elem: %s key=[%s] val=[00 00 00 00] %s",
				map_head(&h, hfd), hex(key, sizeof(key)), map_tail(&h)));
	close(hfd);
	close(afd);
}

/* A per-CPU value is one slot per possible CPU: the event shows its start. */
TEST(percpu_value_is_cut)
{
	int ncpus = sysconf(_SC_NPROCESSORS_CONF), fd, i;
	unsigned char *val, *got;
	struct map_desc m;
	__u32 key = 2;
	size_t size;
	char *trace;

	ASSERT_LT(0, ncpus);
	size = 16 * ncpus;	/* value_size 12, rounded up to 16 per CPU */
	val = calloc(1, size);
	got = calloc(1, size);
	ASSERT_NE(NULL, val);
	ASSERT_NE(NULL, got);
	for (i = 0; i < ncpus; i++)
		memset(val + 16 * i, 0x10 + i, 12);
	fd = sys_map_create(BPF_MAP_TYPE_PERCPU_HASH, 4, 12, 4, 0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, map_desc(fd, &m));
	TP_BEGIN("bpf_map_update_elem,bpf_map_lookup_elem");
	ASSERT_EQ(0, sys_map_elem(BPF_MAP_UPDATE_ELEM, fd, &key, val, BPF_ANY));
	ASSERT_EQ(0, sys_map_elem(BPF_MAP_LOOKUP_ELEM, fd, &key, got, 0));
	ASSERT_EQ(0, memcmp(val, got, size));
	trace = tp_end();
	EXPECT_EVENT(trace, fmt("bpf_map_update_elem: %s key=[02 00 00 00] val=[%s] %s",
				map_head(&m, fd), hex(val, size), map_tail(&m)));
	EXPECT_EVENT(trace, fmt("bpf_map_lookup_elem: %s key=[02 00 00 00] val=[%s] %s",
				map_head(&m, fd), hex(val, size), map_tail(&m)));
	close(fd);
	free(val);
	free(got);
}

/*
 * A per-CPU value of 16 bytes fits the event on one CPU; on two the copy
 * is 32 bytes, and the event shows CPU 0's 16 and the cut.
 */
TEST(percpu_value_of_16_bytes_is_cut_on_two_cpus)
{
	int ncpus = sysconf(_SC_NPROCESSORS_CONF), fd, i;
	unsigned char *val, *got;
	char *trace, want[128];
	struct map_desc m;
	__u32 key = 7;

	if (ncpus < 2)
		SKIP(return, "one possible CPU: a 16-byte per-CPU value is not cut");
	val = calloc(ncpus, 16);
	got = calloc(ncpus, 16);
	ASSERT_NE(NULL, val);
	ASSERT_NE(NULL, got);
	for (i = 0; i < 16 * ncpus; i++)
		val[i] = 0x40 + i;
	fd = sys_map_create(BPF_MAP_TYPE_PERCPU_ARRAY, 4, 16, 8, 0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, map_desc(fd, &m));
	TP_BEGIN("bpf_map_update_elem");
	ASSERT_EQ(0, sys_map_elem(BPF_MAP_UPDATE_ELEM, fd, &key, val, BPF_ANY));
	trace = tp_end();
	ASSERT_EQ(0, sys_map_elem(BPF_MAP_LOOKUP_ELEM, fd, &key, got, 0));
	ASSERT_EQ(0, memcmp(val, got, 16 * ncpus));
	/* spelled out, not through hex(): CPU 0's slot, then the cut */
	snprintf(want, sizeof(want), "val=[%s ...]",
		 "40 41 42 43 44 45 46 47 48 49 4a 4b 4c 4d 4e 4f");
	if (gate_on)
		ASSERT_NE(NULL, strstr(trace, want)) TH_LOG("want %s in:\n%s", want, trace);
	EXPECT_EVENT(trace, fmt("bpf_map_update_elem: %s key=[07 00 00 00] val=[%s] %s",
				map_head(&m, fd), hex(val, 16 * ncpus), map_tail(&m)));
	close(fd);
	free(val);
	free(got);
}

TEST(map_batch)
{
	__u32 keys[4] = { 1, 2, 3, 4 }, okeys[8], count;
	__u64 vals[4] = { 10, 20, 30, 40 }, ovals[8];
	struct map_desc m;
	char *trace;
	int fd;

	fd = sys_map_create(BPF_MAP_TYPE_HASH, 4, 8, 8, 0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, map_desc(fd, &m));
	TP_BEGIN("bpf_map_lookup_batch,bpf_map_lookup_and_delete_batch,"
		 "bpf_map_update_batch,bpf_map_delete_batch,bpf_map_batch_fail,bpf_cmd_fail");
	/* failing forms: unknown element flags; a lookup of an empty map */
	count = 4;
	ASSERT_EQ(-1, sys_map_batch(BPF_MAP_UPDATE_BATCH, fd, keys, vals, &count, 1ULL << 40));
	ASSERT_EQ(EINVAL, errno);
	count = 8;
	ASSERT_EQ(-1, sys_map_batch(BPF_MAP_LOOKUP_BATCH, fd, okeys, ovals, &count, 0));
	ASSERT_EQ(ENOENT, errno);
	ASSERT_EQ(0, count);

	count = 4;
	ASSERT_EQ(0, sys_map_batch(BPF_MAP_UPDATE_BATCH, fd, keys, vals, &count, 0));
	ASSERT_EQ(4, count);
	/* the whole map in one go: -ENOENT says the walk is over */
	count = 8;
	ASSERT_EQ(-1, sys_map_batch(BPF_MAP_LOOKUP_BATCH, fd, okeys, ovals, &count, 0));
	ASSERT_EQ(ENOENT, errno);
	ASSERT_EQ(4, count);
	count = 2;
	ASSERT_EQ(0, sys_map_batch(BPF_MAP_DELETE_BATCH, fd, keys, NULL, &count, 0));
	ASSERT_EQ(2, count);
	count = 8;
	ASSERT_EQ(-1, sys_map_batch(BPF_MAP_LOOKUP_AND_DELETE_BATCH, fd, okeys, ovals, &count, 0));
	ASSERT_EQ(ENOENT, errno);
	ASSERT_EQ(2, count);
	trace = tp_end();
	/* each failed call: one record, with what it did before the error */
	EXPECT_EVENT(trace, fmt("bpf_map_batch_fail: cmd=MAP_UPDATE_BATCH err=-22(EINVAL) %s count=0 %s",
				map_head(&m, fd), map_tail(&m)));
	EXPECT_EVENT(trace, fmt("bpf_map_batch_fail: cmd=MAP_LOOKUP_BATCH err=-2(ENOENT) %s count=0 %s",
				map_head(&m, fd), map_tail(&m)));
	EXPECT_EVENT(trace, fmt("bpf_map_update_batch: %s count=4 %s",
				map_head(&m, fd), map_tail(&m)));
	EXPECT_EVENT(trace, fmt("bpf_map_batch_fail: cmd=MAP_LOOKUP_BATCH err=-2(ENOENT) %s count=4 %s",
				map_head(&m, fd), map_tail(&m)));
	EXPECT_EVENT(trace, fmt("bpf_map_delete_batch: %s count=2 %s",
				map_head(&m, fd), map_tail(&m)));
	EXPECT_EVENT(trace, fmt("bpf_map_batch_fail: cmd=MAP_LOOKUP_AND_DELETE_BATCH err=-2(ENOENT) %s count=2 %s",
				map_head(&m, fd), map_tail(&m)));
	/* the two that worked, and no success event for a call that failed */
	ASSERT_EQ(2 * gate_on, count_of(trace, "_batch: ")) TH_LOG("%s", trace);
	ASSERT_EQ(4 * gate_on, count_of(trace, " bpf_map_batch_fail: ")) TH_LOG("%s", trace);
	ASSERT_EQ(0, count_of(trace, " bpf_cmd_fail: ")) TH_LOG("%s", trace);
	close(fd);
}

/*
 * A batch that fails part way did some of its work: its one record says
 * how much, as the count the kernel gives back does. An update of 4 new
 * keys into a hash of 2 stops at the third (E2BIG); a delete of 1, 99, 2
 * stops at 99 (ENOENT) after deleting 1.
 */
TEST(map_batch_partial)
{
	__u32 keys[4] = { 1, 2, 3, 4 }, dkeys[3] = { 1, 99, 2 }, count;
	__u64 vals[4] = { 10, 20, 30, 40 };
	struct map_desc m;
	char *trace;
	int fd;

	fd = sys_map_create(BPF_MAP_TYPE_HASH, 4, 8, 2, 0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, map_desc(fd, &m));
	TP_BEGIN("bpf_map_update_batch,bpf_map_delete_batch,bpf_map_batch_fail,bpf_cmd_fail");
	count = 4;
	ASSERT_EQ(-1, sys_map_batch(BPF_MAP_UPDATE_BATCH, fd, keys, vals, &count, 0));
	ASSERT_EQ(E2BIG, errno);
	ASSERT_EQ(2, count);
	count = 3;
	ASSERT_EQ(-1, sys_map_batch(BPF_MAP_DELETE_BATCH, fd, dkeys, NULL, &count, 0));
	ASSERT_EQ(ENOENT, errno);
	ASSERT_EQ(1, count);
	trace = tp_end();
	EXPECT_EVENT(trace, fmt("bpf_map_batch_fail: cmd=MAP_UPDATE_BATCH err=-7(E2BIG) %s count=2 %s",
				map_head(&m, fd), map_tail(&m)));
	EXPECT_EVENT(trace, fmt("bpf_map_batch_fail: cmd=MAP_DELETE_BATCH err=-2(ENOENT) %s count=1 %s",
				map_head(&m, fd), map_tail(&m)));
	ASSERT_EQ(2 * gate_on, count_of(trace, " bpf_map_batch_fail: ")) TH_LOG("%s", trace);
	ASSERT_EQ(0, count_of(trace, "_batch: ")) TH_LOG("%s", trace);
	ASSERT_EQ(0, count_of(trace, " bpf_cmd_fail: ")) TH_LOG("%s", trace);
	close(fd);
}

/*
 * An array map's lookup batch runs the generic code, not the hash map's:
 * a lookup of 2 of its 4 elements succeeds and counts 2; one of 8 ends
 * the map (-ENOENT): its failure record counts the 4 it copied, not the
 * 8 asked for; one that asks for none does nothing and leaves no event.
 */
TEST(map_batch_array)
{
	__u32 okeys[8], count;
	__u64 ovals[8];
	struct map_desc m;
	char *trace;
	int fd;

	fd = sys_map_create(BPF_MAP_TYPE_ARRAY, 4, 8, 4, 0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, map_desc(fd, &m));
	TP_BEGIN("bpf_map_lookup_batch,bpf_map_batch_fail");
	count = 0;
	ASSERT_EQ(0, sys_map_batch(BPF_MAP_LOOKUP_BATCH, fd, okeys, ovals, &count, 0));
	ASSERT_EQ(0, count);
	count = 2;
	ASSERT_EQ(0, sys_map_batch(BPF_MAP_LOOKUP_BATCH, fd, okeys, ovals, &count, 0))
		TH_LOG("BPF_MAP_LOOKUP_BATCH: %s", strerror(errno));
	ASSERT_EQ(2, count);
	/* more asked for than there is: the walk ends (-ENOENT) after 4 */
	count = 8;
	ASSERT_EQ(-1, sys_map_batch(BPF_MAP_LOOKUP_BATCH, fd, okeys, ovals, &count, 0));
	ASSERT_EQ(ENOENT, errno);
	ASSERT_EQ(4, count);
	trace = tp_end();
	EXPECT_EVENT(trace, fmt("bpf_map_lookup_batch: %s count=2 %s",
				map_head(&m, fd), map_tail(&m)));
	EXPECT_EVENT(trace, fmt("bpf_map_batch_fail: cmd=MAP_LOOKUP_BATCH err=-2(ENOENT) %s count=4 %s",
				map_head(&m, fd), map_tail(&m)));
	ASSERT_EQ(gate_on, count_of(trace, "_batch: ")) TH_LOG("%s", trace);
	ASSERT_EQ(gate_on, count_of(trace, " bpf_map_batch_fail: ")) TH_LOG("%s", trace);
	close(fd);
}

TEST(map_freeze)
{
	struct map_desc m;
	char *trace;
	int fd;

	fd = sys_map_create(BPF_MAP_TYPE_ARRAY, 4, 8, 4, 0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, map_desc(fd, &m));
	TP_BEGIN("bpf_map_freeze");
	ASSERT_EQ(0, sys_map_freeze(fd));
	/*
	 * failing form: a frozen map cannot be frozen again; 6.1 says EBUSY,
	 * 6.12 first checks for write permission, which a frozen map has
	 * lost, and says EPERM
	 */
	ASSERT_EQ(-1, sys_map_freeze(fd));
	ASSERT_TRUE(errno == EPERM || errno == EBUSY) TH_LOG("errno %d", errno);
	trace = tp_end();
	EXPECT_EVENT(trace, fmt("bpf_map_freeze: %s %s", map_head(&m, fd), map_tail(&m)));
	ASSERT_EQ(gate_on, count_of(trace, " bpf_map_freeze: "));
	close(fd);
}

int main(int argc, char **argv)
{
	bpf_tracepoints_test_setup();
	return test_harness_run(argc, argv);
}
