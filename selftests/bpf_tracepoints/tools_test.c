// SPDX-License-Identifier: GPL-2.0
/*
 * The tracing tools users record with, around a workload of their own
 * (bpf_tracepoints_workload): trace-cmd, and perf as the 2017 commit did.
 */
#define _GNU_SOURCE
#include "../kselftest_harness.h"
#include "test_helpers.h"

/* Lines of @report with event @name whose fields are @fields, to the end. */
static int count_report_lines(const char *report, const char *name, const char *fields)
{
	char line[LINE_MAX_LEN];
	const char *p = report;
	int count = 0;

	while (*p) {
		size_t len = strcspn(p, "\n");
		char *ev;

		snprintf(line, sizeof(line), "%.*s", (int)len, p);
		p += len + !!p[len];
		ev = strstr(line, fmt(" %s: ", name));
		if (!ev || strlen(line) < strlen(fields))
			continue;
		/* trace-cmd pads the event name with spaces before the fields */
		ev += strlen(name) + 3;
		ev += strspn(ev, " ");
		count += !strcmp(ev, fields);
	}
	return count;
}

/*
 * The workload alone (the off kernel's side): bpf_tracepoints_workload
 * @args, its output shown if it fails
 */
static int run_workload(const char *args)
{
	int rc = system(fmt("%s %s >%s/workload.log 2>&1", beside_self(WORKLOAD), args, tmpdir));

	if (rc)
		ksft_print_msg("%s %s: exit %d: %s\n", WORKLOAD, args, rc,
			       read_file(tmp_file("workload.log")) ?: "");
	return rc;
}

/*
 * The tools, each run as a user would around a workload of its own: on a
 * debug kernel under emulation they take longer than the harness's 30 s.
 */
FIXTURE(tools) {
};

FIXTURE_SETUP(tools)
{
	ASSERT_EQ(0, make_tmpdir()) TH_LOG("mkdtemp: %s", strerror(errno));
}

FIXTURE_TEARDOWN(tools)
{
	remove_tmpdir();
}

TEST_F_TIMEOUT(tools, trace_cmd_record, 300)
{
	char cmd[PATH_MAX * 2], line[LINE_MAX_LEN], rec_log[4096];
	const char *report;
	int n = 0, got, bad = 0;
	FILE *want;

	if (events_absent_unexpected())
		SKIP(return, OPTION_NOT_SET);
	if (!tool_installed("trace-cmd"))
		SKIP(return, "trace-cmd is not installed");
	ASSERT_NE(127 << 8, system("trace-cmd -h >/dev/null 2>&1"))
		TH_LOG("trace-cmd is installed but does not run (a missing library?)");
	if (!gate_on) {
		/* the off kernel has no bpf event for trace-cmd to record */
		ASSERT_NE(0, system("trace-cmd list -e 2>/dev/null | grep -q '^bpf:'"));
		ASSERT_EQ(0, run_workload(fmt("--workload %s/want", tmpdir)));
		return;
	}
	/*
	 * Into an instance of trace-cmd's own (-B, removed when it is done),
	 * not the top buffer: nothing global changes, and on 6.1 the top
	 * buffer is still its boot size, 7 KiB a CPU, once any instance was
	 * resized (one flag says "expanded" for all), and a record into it
	 * came back empty.
	 */
	snprintf(cmd, sizeof(cmd),
		 "cd %1$s && trace-cmd record -q -o %1$s/rec.dat -B bpf_tracepoints-rec-%3$d -e bpf "
		 "%2$s --workload %1$s/want >%1$s/rec.log 2>&1 && "
		 "trace-cmd report -i %1$s/rec.dat >%1$s/report 2>>%1$s/rec.log",
		 tmpdir, beside_self(WORKLOAD), getpid());
	ASSERT_EQ(0, system(cmd)) TH_LOG("%s", read_file(tmp_file("rec.log")));
	want = fopen(tmp_file("want"), "r");
	ASSERT_NE(NULL, want);
	report = read_file(tmp_file("report"));
	ASSERT_NE(NULL, report);
	while (fgets(line, sizeof(line), want)) {
		char *fields = strchr(line, ' ') + 1;

		line[strcspn(line, "\n")] = '\0';
		fields[-2] = '\0';	/* "name: fields" -> "name", "fields" */
		got = count_report_lines(report, line, fields);
		EXPECT_EQ(1, got)
			TH_LOG("want once in report: %s: %s\n%s", line, fields, report);
		bad |= got != 1;
		n++;
	}
	if (bad) {	/* what trace-cmd said while recording, and what it left */
		TH_LOG("trace-cmd record:\n%s",
		       read_into(tmp_file("rec.log"), rec_log, sizeof(rec_log)));
		system(fmt("{ ls -l %1$s; cd " TRACEFS " && grep -H . tracing_on trace_clock "
			   "set_event_pid buffer_size_kb events/bpf/enable; ls instances; } "
			   "2>&1 | sed 's/^/# /'", tmpdir));
	}
	fclose(want);
	ASSERT_EQ(5, n);
}

/*
 * Commit a67edbf4fb6d's own demonstration: perf record -a -e 'bpf:*' around
 * sock_example, then perf script, of which the lines the workload must
 * have caused are kept (the machine's other tasks' fill it too). The off
 * kernel has no such events: perf refuses the event list, and the
 * workload runs all the same.
 */
TEST_F_TIMEOUT(tools, perf_record, 300)
{
	char cmd[PATH_MAX * 2], line[LINE_MAX_LEN];
	const char *script;
	FILE *want;
	int n = 0;

	if (events_absent_unexpected())
		SKIP(return, OPTION_NOT_SET);
	if (!tool_installed("perf"))
		SKIP(return, "perf is not installed");
	ASSERT_EQ(0, system("perf version >/dev/null 2>&1"))
		TH_LOG("perf is installed but does not run (a missing library?)");
	if (!gate_on) {
		ASSERT_NE(0, system(fmt("perf record -q -a -e 'bpf:*' -o %1$s/perf.data -- true "
					">%1$s/perf.log 2>&1", tmpdir)));
		script = read_file(tmp_file("perf.log"));
		ASSERT_TRUE(strstr(script, "event syntax error") ||
			    strstr(script, "nknown tracepoint"))
			TH_LOG("want perf's own error, got: %s", script);
		ASSERT_EQ(0, run_workload(fmt("--sock-example 1 %s/want", tmpdir)));
		return;
	}
	/* of the machine's events, the lines the workload must have caused */
	snprintf(cmd, sizeof(cmd),
		 "cd %1$s && perf record -q -a -e 'bpf:*' -o %1$s/perf.data -- "
		 "sh -c '%2$s --sock-example 2 %1$s/want && %2$s --big-values %1$s/big' "
		 ">%1$s/perf.log 2>&1 && cat %1$s/big >> %1$s/want && "
		 "perf script -i %1$s/perf.data >%1$s/perf.script 2>>%1$s/perf.log && "
		 "sed 's/^/bpf:/' %1$s/want >%1$s/patterns && "
		 "{ grep -F -f %1$s/patterns %1$s/perf.script >%1$s/perf.mine || true; }",
		 tmpdir, beside_self(WORKLOAD));
	ASSERT_EQ(0, system(cmd)) TH_LOG("%s", read_file(tmp_file("perf.log")));
	want = fopen(tmp_file("want"), "r");
	ASSERT_NE(NULL, want);
	script = read_file(tmp_file("perf.mine"));
	ASSERT_NE(NULL, script);
	while (fgets(line, sizeof(line), want)) {
		/* perf script prints "bpf:<name>: <fields>" */
		EXPECT_LE(1, count_of(script, fmt(" bpf:%s", line)))
			TH_LOG("want in perf script: bpf:%s%s", line, script);
		n++;
	}
	fclose(want);
	ASSERT_EQ(10, n);
}

int main(int argc, char **argv)
{
	bpf_tracepoints_test_setup();
	return test_harness_run(argc, argv);
}
