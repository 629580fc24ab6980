// SPDX-License-Identifier: GPL-2.0
/*
 * Pinning and getting pinned maps, programs and links, by path and, where
 * the kernel has BPF_F_PATH_FD, by directory fd and path.
 */
#define _GNU_SOURCE
#include "../kselftest_harness.h"
#include "test_helpers.h"

/* A new map's @fd and description @m, pinned at @path and got back as @got, traced */
#define PIN_AND_GET_MAP(path, m, fd, got) do {				\
	const char *__path = (path);					\
	struct map_desc *__m = (m);					\
	int __fd, __got;						\
									\
	unlink(__path);							\
	__fd = sys_map_create(BPF_MAP_TYPE_ARRAY, 4, 8, 4, 0);		\
	ASSERT_LE(0, __fd);						\
	ASSERT_EQ(0, map_desc(__fd, __m));				\
	TP_BEGIN("bpf_obj_pin_map,bpf_obj_get_map");			\
	ASSERT_EQ(0, sys_obj_pin(__fd, __path))				\
		TH_LOG("BPF_OBJ_PIN: %s", strerror(errno));		\
	__got = sys_obj_get(__path);					\
	ASSERT_LE(0, __got);						\
	(fd) = __fd;							\
	(got) = __got;							\
} while (0)

/*
 * The pin of map @m's fd @fd and the get of it as @got, the path shown as
 * @shown. fmt()'s four buffers: map_head(), map_tail(), the line, and
 * EXPECT_EVENT()'s own; a fifth in one expression would reuse the first.
 */
#define EXPECT_PIN_GET_MAP(trace, m, fd, got, shown) do {		\
	const struct map_desc *__m = (m);				\
	const char *__trace = (trace), *__shown = (shown);		\
									\
	EXPECT_EVENT(__trace, fmt("bpf_obj_pin_map: %s path=%s %s",		\
			      map_head(__m, fd), __shown, map_tail(__m)));	\
	EXPECT_EVENT(__trace, fmt("bpf_obj_get_map: %s path=%s %s",		\
			      map_head(__m, got), __shown, map_tail(__m)));	\
} while (0)

TEST(obj_pin_get_map)
{
	const char *path = BPFFS "/tp_test_map";
	struct map_desc m;
	int fd, got;
	char *trace;

	ASSERT_EQ(0, bpffs_ready());
	PIN_AND_GET_MAP(path, &m, fd, got);
	/* failing forms: the path is taken; nothing is pinned there */
	ASSERT_EQ(-1, sys_obj_pin(fd, path));
	ASSERT_EQ(EEXIST, errno);
	ASSERT_EQ(-1, sys_obj_get(BPFFS "/tp_test_none"));
	ASSERT_EQ(ENOENT, errno);
	trace = tp_end();
	EXPECT_PIN_GET_MAP(trace, &m, fd, got, path);
	ASSERT_EQ(2 * gate_on, count_of(trace, "_map: "));
	unlink(path);
	close(got);
	close(fd);
}

/*
 * BPF_OBJ_PIN and BPF_OBJ_GET's attr as of Linux 6.5, which added pinning
 * relative to a directory fd; 6.1's uapi header has neither field nor flag.
 */
struct obj_attr_path_fd {
	__aligned_u64 pathname;
	__u32 bpf_fd;
	__u32 file_flags;
	__s32 path_fd;
};

#define OBJ_F_PATH_FD	0x4000U		/* BPF_F_PATH_FD, 1U << 14 */

static int sys_obj_at(int cmd, int dirfd, int fd, const char *path)
{
	struct obj_attr_path_fd obj = {
		.pathname = (__u64)(unsigned long)path,
		.bpf_fd = fd,
		.file_flags = OBJ_F_PATH_FD,
		.path_fd = dirfd,
	};
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	memcpy(&attr, &obj, sizeof(obj));
	return sys_bpf(cmd, &attr);
}

/*
 * Whether bpf(2) takes BPF_F_PATH_FD, asked of the kernel: a get with it
 * and no path fails on the path (EFAULT), and where the flag is unknown
 * on the flag (EINVAL). (A pin would fail on its fd first: EINVAL.)
 */
static bool has_path_fd(void)
{
	return sys_obj_at(BPF_OBJ_GET, -1, 0, NULL) < 0 && errno != EINVAL;
}

/* Relative to a directory fd the events show the path as given. */
TEST(obj_pin_get_map_path_fd)
{
	struct map_desc m;
	int dir, fd, got;
	char *trace;

	if (!has_path_fd())
		SKIP(return, "bpf(2) on this kernel has no BPF_F_PATH_FD (Linux 6.5)");
	ASSERT_EQ(0, bpffs_ready());
	unlink(BPFFS "/tp_test_at");
	dir = open(BPFFS, O_RDONLY | O_DIRECTORY);
	ASSERT_LE(0, dir);
	fd = sys_map_create(BPF_MAP_TYPE_ARRAY, 4, 8, 4, 0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, map_desc(fd, &m));
	TP_BEGIN("bpf_obj_pin_map,bpf_obj_get_map");
	ASSERT_EQ(0, sys_obj_at(BPF_OBJ_PIN, dir, fd, "tp_test_at"))
		TH_LOG("BPF_OBJ_PIN with BPF_F_PATH_FD: %s", strerror(errno));
	got = sys_obj_at(BPF_OBJ_GET, dir, 0, "tp_test_at");
	ASSERT_LE(0, got);
	/* failing form: the path is taken */
	ASSERT_EQ(-1, sys_obj_at(BPF_OBJ_PIN, dir, fd, "tp_test_at"));
	ASSERT_EQ(EEXIST, errno);
	trace = tp_end();
	/* the path as d_path() forms it: absolute */
	EXPECT_PIN_GET_MAP(trace, &m, fd, got, BPFFS "/tp_test_at");
	ASSERT_EQ(2 * gate_on, count_of(trace, "_map: "));
	unlink(BPFFS "/tp_test_at");
	close(got);
	close(fd);
	close(dir);
}

/*
 * A path is recorded up to 256 bytes and " ..." marks the cut: a path
 * near PATH_MAX would not fit in a ring-buffer page, and its record would
 * be dropped. The pin is 4080 bytes deep, in directories of 250.
 */
#define LONG_PATH_LEN	4080
#define LONG_DIR_LEN	250

TEST(obj_pin_get_map_long_path)
{
	char path[LONG_PATH_LEN + 1], cut[256 + sizeof(" ...")];
	int depth = 0, len, dir_end, fd, got;
	struct map_desc m;
	char *trace;

	ASSERT_EQ(0, bpffs_ready());
	len = snprintf(path, sizeof(path), "%s", BPFFS);
	/* directories while a 16 byte leaf still fits after the next one */
	while (len + 1 + LONG_DIR_LEN + 1 + 16 <= LONG_PATH_LEN) {
		path[len++] = '/';
		memset(path + len, 'a' + depth % 26, LONG_DIR_LEN);
		len += LONG_DIR_LEN;
		path[len] = '\0';
		if (mkdir(path, 0700) && errno != EEXIST)
			ASSERT_EQ(0, -errno) TH_LOG("mkdir at %d", len);
		depth++;
	}
	dir_end = len;
	path[len++] = '/';
	memset(path + len, 'm', LONG_PATH_LEN - len);
	path[LONG_PATH_LEN] = '\0';
	/* the first 256 bytes, and the mark of the cut */
	memcpy(cut, path, 256);
	memcpy(cut + 256, " ...", sizeof(" ..."));
	PIN_AND_GET_MAP(path, &m, fd, got);
	trace = tp_end();
	/* gone before the checks: a failed one leaves nothing in bpffs */
	EXPECT_EQ(0, unlink(path));
	for (; depth; depth--, dir_end -= LONG_DIR_LEN + 1) {
		path[dir_end] = '\0';
		EXPECT_EQ(0, rmdir(path)) TH_LOG("rmdir at %d: %s", dir_end, strerror(errno));
	}
	close(got);
	close(fd);
	EXPECT_PIN_GET_MAP(trace, &m, fd, got, cut);
}

TEST(obj_pin_get_prog)
{
	const char *path = BPFFS "/tp_test_prog", *alias = BPFFS "/tp_test_prog_ln";
	struct prog_desc p;
	int fd, got, via;
	char *trace;

	ASSERT_EQ(0, bpffs_ready());
	unlink(path);
	unlink(alias);
	fd = sys_prog_load();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, prog_desc(fd, &p));
	/* relative to the working directory: the event shows it absolute */
	ASSERT_EQ(0, chdir(BPFFS));
	TP_BEGIN("bpf_obj_pin_prog,bpf_obj_get_prog");
	ASSERT_EQ(0, sys_obj_pin(fd, "tp_test_prog")) TH_LOG("BPF_OBJ_PIN: %s", strerror(errno));
	got = sys_obj_get(path);
	ASSERT_LE(0, got);
	/* through a symlink: the event names the pinned file */
	ASSERT_EQ(0, symlink("tp_test_prog", alias)) TH_LOG("symlink: %s", strerror(errno));
	via = sys_obj_get(alias);
	ASSERT_LE(0, via) TH_LOG("BPF_OBJ_GET via %s: %s", alias, strerror(errno));
	ASSERT_EQ(-1, sys_obj_pin(fd, path));
	ASSERT_EQ(EEXIST, errno);
	trace = tp_end();
	EXPECT_EVENT(trace, fmt("bpf_obj_pin_prog: prog=%s path=%s ufd=%d type=SOCKET_FILTER id=%u name=%s",
				p.tag, path, fd, p.id, p.name));
	EXPECT_EVENT(trace, fmt("bpf_obj_get_prog: prog=%s path=%s ufd=%d type=SOCKET_FILTER id=%u name=%s",
				p.tag, path, got, p.id, p.name));
	EXPECT_EVENT(trace, fmt("bpf_obj_get_prog: prog=%s path=%s ufd=%d type=SOCKET_FILTER id=%u name=%s",
				p.tag, path, via, p.id, p.name));
	ASSERT_EQ(3 * gate_on, count_of(trace, "_prog: "));
	unlink(alias);
	unlink(path);
	close(via);
	close(got);
	close(fd);
}

/*
 * Waits up to 10 s for link @id to be freed (its last put frees it from a
 * work item): 0 once BPF_LINK_GET_FD_BY_ID no longer finds it.
 */
static int link_freed(__u32 id)
{
	union bpf_attr attr;
	int i, fd;

	for (i = 0; i < 100; i++) {
		memset(&attr, 0, sizeof(attr));
		attr.link_id = id;
		fd = sys_bpf(BPF_LINK_GET_FD_BY_ID, &attr);
		if (fd < 0 && errno == ENOENT)
			return 0;
		if (fd >= 0)
			close(fd);
		usleep(100000);
	}
	return -1;
}

TEST(obj_pin_get_link)
{
	const char *path = BPFFS "/tp_test_link";
	struct bpf_link_info info = {};
	struct prog_desc p;
	int prog, link, got;
	char *trace;

	ASSERT_EQ(0, bpffs_ready());
	unlink(path);
	prog = sys_prog_load_ret(BPF_PROG_TYPE_XDP, 2 /* XDP_PASS */, 2);
	ASSERT_LE(0, prog) TH_LOG("XDP prog: %s", strerror(errno));
	ASSERT_EQ(0, prog_desc(prog, &p));
	/* generic XDP on lo: a link that any kernel with XDP can make */
	link = sys_xdp_link_create(prog, if_nametoindex("lo"), XDP_FLAGS_SKB_MODE);
	ASSERT_LE(0, link) TH_LOG("BPF_LINK_CREATE: %s", strerror(errno));
	ASSERT_EQ(0, sys_obj_info(link, &info, sizeof(info)));
	tp_own('l', info.id);
	ASSERT_EQ(p.id, info.prog_id);
	TP_BEGIN("bpf_obj_pin_link,bpf_obj_get_link");
	ASSERT_EQ(0, sys_obj_pin(link, path)) TH_LOG("BPF_OBJ_PIN: %s", strerror(errno));
	got = sys_obj_get(path);
	ASSERT_LE(0, got);
	ASSERT_EQ(-1, sys_obj_pin(link, path));
	ASSERT_EQ(EEXIST, errno);
	trace = tp_end();
	EXPECT_EVENT(trace, fmt("bpf_obj_pin_link: link type=XDP ufd=%d path=%s id=%u prog_id=%u",
				link, path, info.id, p.id));
	EXPECT_EVENT(trace, fmt("bpf_obj_get_link: link type=XDP ufd=%d path=%s id=%u prog_id=%u",
				got, path, info.id, p.id));
	ASSERT_EQ(2 * gate_on, count_of(trace, "_link: "));
	unlink(path);
	close(got);
	close(link);
	close(prog);
	/* the events' own references are dropped: the link goes */
	ASSERT_EQ(0, link_freed(info.id)) TH_LOG("link %u outlives its fds and pin", info.id);
}

int main(int argc, char **argv)
{
	bpf_tracepoints_test_setup();
	return test_harness_run(argc, argv);
}
