// SPDX-License-Identifier: GPL-2.0
/*
 * Refusals explained: the bpf_cmd_refused record names why a command was
 * refused as deep as the kernel knows it. A program the verifier refuses
 * is named by the verifier's own last line, and the instruction it was
 * at, whether the loader passed a log or not.
 */
#include "../kselftest_harness.h"
#include "test_helpers.h"

#define REFUSED	" bpf_cmd_refused: "
/* the record's bound: "the verifier at insn N: " and 255 bytes */
#define CHECK_MAX	(255 + 40)

#define INSN(c, d, s, o, i)	\
	{ .code = (c), .dst_reg = (d), .src_reg = (s), .off = (o), .imm = (i) }
#define MOV_K(d, i)	INSN(BPF_ALU64 | BPF_MOV | BPF_K, d, 0, 0, i)
#define EXIT		INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)

/* A program the verifier refuses, and its words (both trees say the same) */
struct refusal {
	const char *what;
	struct bpf_insn insns[4];
	__u32 cnt;
	int err;
	int insn;	/* the instruction it was at; -1 where it checks before */
	const char *words;
};

static const struct refusal verifier_refusals[] = {
	{ "no exit", { MOV_K(0, 0) }, 1,
	  EINVAL, -1, "last insn is not an exit or jmp" },
	{ "a register never written", { INSN(BPF_ALU64 | BPF_MOV | BPF_X, 0, 2, 0, 0), EXIT }, 2,
	  EACCES, 0, "R2 !read_ok" },
	{ "no return value", { EXIT }, 1,
	  EACCES, 0, "R0 !read_ok" },
	{ "a jump out of the program", { INSN(BPF_JMP | BPF_JA, 0, 0, 5, 0), EXIT }, 2,
	  EINVAL, -1, "jump out of range from insn 0 to 6" },
	{ "an unreachable instruction", { MOV_K(0, 0), EXIT, EXIT }, 3,
	  EINVAL, -1, "unreachable insn 2" },
	{ "a loop with no way out", { MOV_K(0, 0), INSN(BPF_JMP | BPF_JA, 0, 0, -1, 0) }, 2,
	  EINVAL, 1, "infinite loop detected at insn 1" },
	{ "a division by a constant 0",
	  { MOV_K(0, 1), INSN(BPF_ALU64 | BPF_DIV | BPF_K, 0, 0, 0, 0), EXIT }, 3,
	  EINVAL, 1, "div by zero" },
	{ "a write to the frame pointer", { MOV_K(10, 0), MOV_K(0, 0), EXIT }, 3,
	  EACCES, 0, "frame pointer is read only" },
	{ "an unknown helper", { INSN(BPF_JMP | BPF_CALL, 0, 0, 0, 9999), EXIT }, 2,
	  EINVAL, 0, "invalid func unknown#9999" },
	{ "a context read out of range",
	  { INSN(BPF_LDX | BPF_MEM | BPF_W, 0, 1, 10000, 0), EXIT }, 2,
	  EACCES, 0, "invalid bpf_context access off=10000 size=4" },
	{ "reserved fields set", { INSN(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 1, 0), EXIT }, 2,
	  EINVAL, 0, "BPF_MOV uses reserved fields" },
	{ "an unknown opcode", { INSN(BPF_ALU64 | 0xf0 | BPF_K, 0, 0, 0, 0), EXIT }, 2,
	  EINVAL, -1, "unknown opcode f7" },
	{ "a stack write above the frame",
	  { INSN(BPF_ST | BPF_MEM | BPF_DW, 10, 0, 8, 0), MOV_K(0, 0), EXIT }, 3,
	  EACCES, 0, "invalid write to stack R10 off=8 size=8" },
};

/* A socket filter's load with a log of @level into @log */
static void load_attr_logged(union bpf_attr *attr, const struct bpf_insn *insns,
			     __u32 cnt, __u32 level, char *log, __u32 size)
{
	prog_load_attr(attr, PROG_NAME, BPF_PROG_TYPE_SOCKET_FILTER, insns, cnt);
	attr->log_level = level;
	attr->log_buf = (__u64)(unsigned long)log;
	attr->log_size = size;
}

static int load_logged(const struct bpf_insn *insns, __u32 cnt, __u32 level,
		       char *log, __u32 size)
{
	union bpf_attr attr;

	load_attr_logged(&attr, insns, cnt, level, log, size);
	return sys_bpf(BPF_PROG_LOAD, &attr);
}

/* Two checks the tests below expect */
#define FULL_LOG_WORDS	"R6 !read_ok; then its log filled log_size"
#define CTX_WORDS	"invalid bpf_context access off=10000 size=4"

/* A bpf_cmd_refused line */
static const char *refused_line(const char *cmd, const char *check)
{
	return fmt(REFUSED "cmd=%s check=%s\n", cmd, check);
}

/* The verifier's words as bpf_cmd_refused gives them */
static const char *verifier_check(int insn, const char *words)
{
	if (insn < 0)
		return refused_line("PROG_LOAD", fmt("the verifier: %s", words));
	return refused_line("PROG_LOAD", fmt("the verifier at insn %d: %s", insn, words));
}

/*
 * The log's last line before its "processed N insns" line, or NULL; past
 * the two states 6.12's is_state_visited() prints after its report.
 */
static char *line_before_processed(const char *log)
{
	const char *end = strstr(log, "\nprocessed ");
	const char *start;

	while (end) {
		for (start = end; start > log && start[-1] != '\n'; start--)
			;
		if (strncmp(start, "cur state:", 10) && strncmp(start, "old state:", 10))
			return strndup(start, end - start);
		end = start > log ? start - 1 : NULL;
	}
	return NULL;
}

/* Every bpf_cmd_refused check within its bound */
static int longest_check(const char *trace)
{
	const char *at = trace, *end;
	int longest = 0;

	while ((at = strstr(at, REFUSED))) {
		at += strlen(REFUSED);
		end = strchrnul(at, '\n');
		if (end - at > longest)
			longest = end - at;
		at = end;
	}
	return longest;
}

/*
 * Each refusal above, loaded with no log, with a log at level 1, and at
 * level 2 (the verifier prints every state then): the one record names
 * the verifier's words each time, and where the loader has a log they
 * are its line before "processed".
 */
TEST(verifier_words_with_and_without_log)
{
	static char log[1 << 16];
	const __u32 levels[] = { 0, 1, 2 };
	unsigned int i, l;
	char *trace, *last;

	for (i = 0; i < ARRAY_SIZE(verifier_refusals); i++) {
		const struct refusal *r = &verifier_refusals[i];

		for (l = 0; l < ARRAY_SIZE(levels); l++) {
			log[0] = '\0';
			TP_BEGIN(FAIL_EVENTS);
			ASSERT_EQ(-1, load_logged(r->insns, r->cnt, levels[l],
						  levels[l] ? log : NULL,
						  levels[l] ? sizeof(log) : 0))
				TH_LOG("%s: loaded", r->what);
			EXPECT_EQ(r->err, errno) TH_LOG("%s, log level %u: %s",
							r->what, levels[l], strerror(errno));
			trace = tp_end();
			EXPECT_EQ(gate_on, count_of(trace, REFUSED)) TH_LOG("%s", trace);
			EXPECT_EQ(gate_on, count_of(trace, verifier_check(r->insn, r->words)))
				TH_LOG("%s, log level %u:\n%s", r->what, levels[l], trace);
			EXPECT_EQ(gate_on, fail_records(trace)) TH_LOG("%s", trace);
			EXPECT_GE(CHECK_MAX, longest_check(trace)) TH_LOG("%s", trace);
			if (!levels[l])
				continue;
			last = line_before_processed(log);
			ASSERT_NE(NULL, last) TH_LOG("%s: no processed line in\n%s",
						     r->what, log);
			EXPECT_STREQ(r->words, last) TH_LOG("%s: log\n%s", r->what, log);
			free(last);
		}
	}
}

/*
 * Where the verifier did not say why: a log_buf with no log_level is
 * refused before it runs, and a program it passed, whose log did not fit
 * log_size, fails with ENOSPC.
 */
TEST(verifier_log_refused)
{
	const struct bpf_insn ok[] = {
		MOV_K(0, 0), MOV_K(1, 1), MOV_K(2, 2), MOV_K(3, 3), MOV_K(4, 4),
		MOV_K(5, 5), MOV_K(0, 0), EXIT,
	};
	char log[128];
	char *trace;

	TP_BEGIN(FAIL_EVENTS);
	ASSERT_EQ(-1, load_logged(ok, ARRAY_SIZE(ok), 0, log, sizeof(log)));
	EXPECT_EQ(EINVAL, errno);
	ASSERT_EQ(-1, load_logged(ok, ARRAY_SIZE(ok), 1, log, sizeof(log)));
	EXPECT_EQ(ENOSPC, errno);
	trace = tp_end();
	EXPECT_EVENT(trace, "bpf_cmd_refused: cmd=PROG_LOAD check=the verifier's log: level, buffer and size not valid together");
	EXPECT_EVENT(trace, "bpf_cmd_refused: cmd=PROG_LOAD check=the verifier's log filled log_size");
	EXPECT_EVENT(trace, fmt("bpf_prog_load_fail: prog type=SOCKET_FILTER insns=8 expected_attach_type=none flags=0 name=%s err=-28(ENOSPC)",
				PROG_NAME));
	EXPECT_EQ(2 * gate_on, count_of(trace, REFUSED)) TH_LOG("%s", trace);
	EXPECT_EQ(2 * gate_on, fail_records(trace)) TH_LOG("%s", trace);
}

/*
 * A refused program whose log did not fit (6.12's fixed log, 6.1's only
 * kind, which keep the head): ENOSPC, and the record has the words the
 * log lost, and says the log filled.
 */
TEST(verifier_words_past_a_full_log)
{
	const struct bpf_insn insns[] = {
		MOV_K(1, 1), MOV_K(2, 2), MOV_K(3, 3), MOV_K(4, 4), MOV_K(5, 5),
		INSN(BPF_ALU64 | BPF_MOV | BPF_X, 0, 6, 0, 0), EXIT,
	};
	/* BPF_LOG_FIXED, 8: 6.1 has no other kind, and no such bit */
	__u32 level = kernel_is_6_1() ? 1 : 1 | 8;
	char log[128];
	char *trace;

	TP_BEGIN(FAIL_EVENTS);
	ASSERT_EQ(-1, load_logged(insns, ARRAY_SIZE(insns), level, log, sizeof(log)));
	EXPECT_EQ(ENOSPC, errno);
	trace = tp_end();
	EXPECT_EQ(NULL, strstr(log, "R6 !read_ok")) TH_LOG("the log had room:\n%s", log);
	EXPECT_EQ(gate_on, count_of(trace, verifier_check(5, FULL_LOG_WORDS)))
		TH_LOG("%s", trace);
	EXPECT_EQ(gate_on, fail_records(trace)) TH_LOG("%s", trace);
}

/* The checks the BTF and raw tracepoint tests expect */
#define BTF_NO_HDR	"the BTF verifier: hdr_len not found"
#define BTF_BAD_MAGIC	"the BTF verifier: Invalid magic"
#define BTF_TOO_BIG	"btf_size is over BTF_MAX_SIZE"
#define NO_RAW_TP	"no raw tracepoint tp_refusals_no_such"

static int btf_load_logged(const void *btf, __u32 size, __u32 level,
			   char *log, __u32 log_size)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.btf = (__u64)(unsigned long)btf;
	attr.btf_size = size;
	attr.btf_log_level = level;
	attr.btf_log_buf = (__u64)(unsigned long)log;
	attr.btf_log_size = log_size;
	return sys_bpf(BPF_BTF_LOAD, &attr);
}

/*
 * What the loader sees does not change when the event keeps the words:
 * its errno, its attributes as the kernel wrote them back (6.12's
 * log_true_size) and every byte of its log buffer, for each refusal and
 * a program that passes, at log levels 1 and 2 with a large buffer and
 * with one that fills (6.12 rotates it, or keeps its head with
 * BPF_LOG_FIXED; 6.1 keeps its head).
 */
static void load_as_seen(const struct bpf_insn *insns, __u32 cnt, __u32 level,
			 __u32 size, int *err, union bpf_attr *attr, char *log)
{
	int fd;

	memset(log, 0x5a, size);
	load_attr_logged(attr, insns, cnt, level, log, size);
	fd = sys_bpf(BPF_PROG_LOAD, attr);
	*err = fd < 0 ? errno : 0;
	if (fd >= 0)
		close(fd);
}

/* One load's outcome as its loader saw it, with the event off */
struct as_seen {
	int err;
	union bpf_attr attr;
	char *log;
};

#define AS_SEEN_MAX	((ARRAY_SIZE(verifier_refusals) + 1) * 6)

TEST(verifier_log_as_without_the_event)
{
	const struct bpf_insn ok[] = { MOV_K(0, 0), EXIT };
	const __u32 levels[] = { 1, 2, 1 | 8 };
	const __u32 sizes[] = { 1 << 16, 200 };
	static struct as_seen off[AS_SEEN_MAX];
	static char log_on[1 << 16];
	unsigned int i, l, z, n, pass, checked = 0;
	union bpf_attr attr_on;
	int err_on;

	/* every load with the event off, then all again with it on */
	for (pass = 0; pass < 2; pass++) {
		if (pass)
			TP_BEGIN(FAIL_EVENTS);
		n = 0;
		for (i = 0; i <= ARRAY_SIZE(verifier_refusals); i++) {
			const struct bpf_insn *insns = i < ARRAY_SIZE(verifier_refusals) ?
						       verifier_refusals[i].insns : ok;
			__u32 cnt = i < ARRAY_SIZE(verifier_refusals) ?
				    verifier_refusals[i].cnt : ARRAY_SIZE(ok);

			for (l = 0; l < ARRAY_SIZE(levels); l++) {
				/* 6.1 has no BPF_LOG_FIXED */
				if ((levels[l] & 8) && kernel_is_6_1())
					continue;
				for (z = 0; z < ARRAY_SIZE(sizes); z++, n++) {
					if (!pass) {
						off[n].log = malloc(sizes[z]);
						ASSERT_NE(NULL, off[n].log);
						load_as_seen(insns, cnt, levels[l], sizes[z],
							     &off[n].err, &off[n].attr, off[n].log);
						continue;
					}
					load_as_seen(insns, cnt, levels[l], sizes[z], &err_on,
						     &attr_on, log_on);
					EXPECT_EQ(off[n].err, err_on)
						TH_LOG("row %u level %u size %u", i, levels[l],
						       sizes[z]);
					/* the buffers' addresses differ, nothing else may */
					attr_on.log_buf = off[n].attr.log_buf;
					EXPECT_EQ(0, memcmp(&off[n].attr, &attr_on,
							    sizeof(attr_on)))
						TH_LOG("row %u level %u size %u: attributes", i,
						       levels[l], sizes[z]);
					EXPECT_EQ(0, memcmp(off[n].log, log_on, sizes[z]))
						TH_LOG("row %u level %u size %u:\n%.*s\n---\n%.*s",
						       i, levels[l], sizes[z], (int)sizes[z],
						       off[n].log, (int)sizes[z], log_on);
					free(off[n].log);
					checked++;
				}
			}
		}
		if (pass)
			tp_end();
	}
	/* the rows, the passing program, 2 or 3 levels, 2 sizes */
	EXPECT_EQ((ARRAY_SIZE(verifier_refusals) + 1) * (kernel_is_6_1() ? 4 : 6), checked);
}

/*
 * Line info says where, not why: a program whose line_info names the
 * source line of its bad context read. With no log the verifier logs
 * that line after its words (check_mem_access()); with a log at level 1
 * it logged it before the instruction already, and not again. The
 * record keeps the words either way.
 */
TEST(verifier_words_before_line_info)
{
	const struct btf_header hdr = {
		.magic = BTF_MAGIC, .version = BTF_VERSION, .hdr_len = sizeof(hdr),
		.type_off = 0, .type_len = 16, .str_off = 16,
		.str_len = sizeof("\0int\0prog.c\0r0 = ctx[10000]"),
	};
	const __u32 type[4] = { 1, BTF_KIND_INT << 24, 4, 32 };
	static char btf[sizeof(hdr) + sizeof(type) + sizeof("\0int\0prog.c\0r0 = ctx[10000]")];
	const struct bpf_insn insns[] = {
		INSN(BPF_LDX | BPF_MEM | BPF_W, 0, 1, 10000, 0), EXIT,
	};
	/* insn 0: file "prog.c" (5), line "r0 = ctx[10000]" (12), line 3 col 1 */
	const struct bpf_line_info linfo = {
		.insn_off = 0, .file_name_off = 5, .line_off = 12, .line_col = 3 << 10 | 1,
	};
	static char log[1 << 16];
	union bpf_attr attr;
	int btf_fd, level;
	char *trace, *words;

	memcpy(btf, &hdr, sizeof(hdr));
	memcpy(btf + sizeof(hdr), type, sizeof(type));
	memcpy(btf + sizeof(hdr) + sizeof(type), "\0int\0prog.c\0r0 = ctx[10000]",
	       sizeof("\0int\0prog.c\0r0 = ctx[10000]"));
	btf_fd = btf_load_logged(btf, sizeof(btf), 0, NULL, 0);
	ASSERT_LE(0, btf_fd) TH_LOG("BTF_LOAD: %s", strerror(errno));
	for (level = 0; level <= 1; level++) {
		load_attr_logged(&attr, insns, ARRAY_SIZE(insns), level,
				 level ? log : NULL, level ? sizeof(log) : 0);
		attr.prog_btf_fd = btf_fd;
		attr.line_info = (__u64)(unsigned long)&linfo;
		attr.line_info_rec_size = sizeof(linfo);
		attr.line_info_cnt = 1;
		log[0] = '\0';
		TP_BEGIN(FAIL_EVENTS);
		ASSERT_EQ(-1, sys_bpf(BPF_PROG_LOAD, &attr));
		EXPECT_EQ(EACCES, errno) TH_LOG("%s\n%s", strerror(errno), log);
		trace = tp_end();
		EXPECT_EQ(gate_on, count_of(trace, verifier_check(0, CTX_WORDS)))
			TH_LOG("log level %d:\n%s", level, trace);
		if (!level)
			continue;
		/* the loader's log: the line info, then the words */
		words = strstr(log, "\ninvalid bpf_context access off=10000 size=4\n");
		ASSERT_NE(NULL, words) TH_LOG("%s", log);
		EXPECT_NE(NULL, memmem(log, words - log, "; r0 = ctx[10000]", 17))
			TH_LOG("%s", log);
	}
	close(btf_fd);
}

/*
 * BTF the BTF verifier refuses, with no log and with one: on 6.12 the
 * record names its words, as for a program. 6.1's btf_parse() is not
 * given the call's attributes: its refusals keep no words, and the
 * failure record stands alone. A size over BTF_MAX_SIZE is refused
 * before the BTF verifier begins.
 */
TEST(btf_verifier_words)
{
	static char log[1 << 16];
	const struct btf_header bad_magic = {
		.magic = 0x1234, .version = BTF_VERSION, .hdr_len = sizeof(bad_magic),
	};
	const __u32 junk = 0;
	const bool words = gate_on && !kernel_is_6_1();
	char *trace, *last;
	int level;

	for (level = 0; level <= 1; level++) {
		log[0] = '\0';
		TP_BEGIN(FAIL_EVENTS);
		ASSERT_EQ(-1, btf_load_logged(&junk, sizeof(junk), level,
					      level ? log : NULL, level ? sizeof(log) : 0));
		EXPECT_EQ(EINVAL, errno);
		ASSERT_EQ(-1, btf_load_logged(&bad_magic, sizeof(bad_magic), level,
					      level ? log : NULL, level ? sizeof(log) : 0));
		EXPECT_EQ(EINVAL, errno);
		trace = tp_end();
		EXPECT_EQ(words, count_of(trace, refused_line("BTF_LOAD", BTF_NO_HDR)))
			TH_LOG("log level %d:\n%s", level, trace);
		EXPECT_EQ(words, count_of(trace, refused_line("BTF_LOAD", BTF_BAD_MAGIC)))
			TH_LOG("log level %d:\n%s", level, trace);
		EXPECT_EQ(2 * words, count_of(trace, REFUSED)) TH_LOG("%s", trace);
		EXPECT_EQ(2 * gate_on, fail_records(trace)) TH_LOG("%s", trace);
		if (!level)
			continue;
		/* the loader's log ends with the same words (no newline) */
		if (*log && log[strlen(log) - 1] == '\n')
			log[strlen(log) - 1] = '\0';
		last = strrchr(log, '\n');
		EXPECT_STREQ("Invalid magic", last ? last + 1 : log) TH_LOG("%s", log);
	}

	TP_BEGIN(FAIL_EVENTS);
	ASSERT_EQ(-1, btf_load_logged(&junk, (16 << 20) + 1, 0, NULL, 0));
	EXPECT_EQ(E2BIG, errno);
	trace = tp_end();
	EXPECT_EQ(words, count_of(trace, refused_line("BTF_LOAD", BTF_TOO_BIG)))
		TH_LOG("%s", trace);
	EXPECT_EQ(gate_on, fail_records(trace)) TH_LOG("%s", trace);
}

/* A raw tracepoint that does not exist, named from the kernel's copy */
TEST(raw_tracepoint_named)
{
	char *trace;
	int prog;

	prog = sys_prog_load_ret(BPF_PROG_TYPE_RAW_TRACEPOINT, 0, 2);
	ASSERT_LE(0, prog) TH_LOG("a raw_tp program: %s", strerror(errno));
	TP_BEGIN(FAIL_EVENTS);
	ASSERT_EQ(-1, sys_raw_tp_open(prog, "tp_refusals_no_such"));
	EXPECT_EQ(ENOENT, errno);
	trace = tp_end();
	EXPECT_EQ(gate_on, count_of(trace, refused_line("RAW_TRACEPOINT_OPEN", NO_RAW_TP)))
		TH_LOG("%s", trace);
	EXPECT_EQ(gate_on, count_of(trace, REFUSED)) TH_LOG("%s", trace);
	EXPECT_EQ(gate_on, fail_records(trace)) TH_LOG("%s", trace);
	close(prog);
}

int main(int argc, char **argv)
{
	bpf_tracepoints_test_setup();
	return test_harness_run(argc, argv);
}
