// SPDX-License-Identifier: GPL-2.0
/*
 * The trace.dat check on event formats (libdecode/read/lt-dat-check.c): the
 * formats real kernels write are handed to libtraceevent as they are,
 * or, where libtraceevent 1.7.1 cannot parse them or a fuzzer found it
 * crashing, without their print format (or the field line at fault). The
 * text the check keeps is then parsed by the real libtraceevent: the
 * event must keep its fields, and print as an event it failed to parse.
 * The formats are written the way the kernel writes them
 * (kernel/trace/trace_events.c), with the macros of each kernel expanded.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

#include "../../libdecode/read/lt-dat-check.h"

#define COMMON \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"

/* ftrace's branch event, 4.13 to 5.15: TRACE_FUNC_SIZE+1, TRACE_FILE_SIZE+1 */
static const char branch[] =
	"name: branch\nID: 9\nformat:\n" COMMON
	"\tfield:unsigned int line;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:char func[30+1];\toffset:12;\tsize:31;\tsigned:0;\n"
	"\tfield:char file[20+1];\toffset:43;\tsize:21;\tsigned:0;\n"
	"\tfield:char correct;\toffset:64;\tsize:1;\tsigned:0;\n"
	"\tfield:char constant;\toffset:65;\tsize:1;\tsigned:0;\n\n"
	"print fmt: \"%u:%s:%s (%u)%s\", REC->line, REC->func, REC->file, "
	"REC->correct, REC->constant ? \" CONSTANT\" : \"\"\n";

/* tcp:tcp_probe (4.16 on): an array sized by sizeof() */
static const char tcp_probe[] =
	"name: tcp_probe\nID: 1300\nformat:\n" COMMON
	"\tfield:__u8 saddr[sizeof(struct sockaddr_in6)];\toffset:8;\tsize:28;\tsigned:0;\n"
	"\tfield:__u8 daddr[sizeof(struct sockaddr_in6)];\toffset:36;\tsize:28;\tsigned:0;\n"
	"\tfield:__u16 sport;\toffset:64;\tsize:2;\tsigned:0;\n\n"
	"print fmt: \"src=%pISpc dest=%pISpc sport=%hu\", REC->saddr, "
	"REC->daddr, REC->sport\n";

/* timer:hrtimer_start of 3.x kernels: a compound literal of ktime_t */
static const char hrtimer_start[] =
	"name: hrtimer_start\nID: 72\nformat:\n" COMMON
	"\tfield:void * hrtimer;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:void * function;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:s64 expires;\toffset:24;\tsize:8;\tsigned:1;\n"
	"\tfield:s64 softexpires;\toffset:32;\tsize:8;\tsigned:1;\n\n"
	"print fmt: \"hrtimer=%p function=%pf expires=%llu softexpires=%llu\", "
	"REC->hrtimer, REC->function, "
	"(unsigned long long)(((ktime_t) { .tv64 = REC->expires }).tv64), "
	"(unsigned long long)(((ktime_t) { .tv64 = REC->softexpires }).tv64)\n";

/*
 * binder:binder_return (Android 4.x): _IOC_NR() and ARRAY_SIZE() with
 * its __must_be_array(), BUILD_BUG_ON_ZERO()'s anonymous struct
 */
static const char binder_return[] =
	"name: binder_return\nID: 500\nformat:\n" COMMON
	"\tfield:uint32_t cmd;\toffset:8;\tsize:4;\tsigned:0;\n\n"
	"print fmt: \"cmd=0x%x %s\", REC->cmd, "
	"(((REC->cmd) >> 0) & ((1 << 8)-1)) < (sizeof(binder_return_strings) / "
	"sizeof((binder_return_strings)[0]) + (sizeof(struct { int:-!!("
	"__builtin_types_compatible_p(typeof((binder_return_strings)), "
	"typeof(&(binder_return_strings)[0]))); }))) ? "
	"binder_return_strings[(((REC->cmd) >> 0) & ((1 << 8)-1))] : \"unknown\"\n";

/* sched:sched_process_exec: a __data_loc string named by REC-> */
static const char process_exec[] =
	"name: sched_process_exec\nID: 310\nformat:\n" COMMON
	"\tfield:__data_loc char[] filename;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:pid_t pid;\toffset:12;\tsize:4;\tsigned:1;\n"
	"\tfield:pid_t old_pid;\toffset:16;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"filename=%s pid=%d old_pid=%d\", __get_str(filename), "
	"REC->pid, REC->old_pid\n";

/* 7.x's min(): a statement expression declaring its variables */
static const char stmt_expr[] =
	"name: mm_lru_min\nID: 700\nformat:\n" COMMON
	"\tfield:unsigned long nr;\toffset:8;\tsize:8;\tsigned:0;\n\n"
	"print fmt: \"nr=%lu\", ({ unsigned long __UNIQUE_ID_x_618 = (REC->nr); "
	"unsigned long __UNIQUE_ID_y_619 = (32); ((__UNIQUE_ID_x_618) < "
	"(__UNIQUE_ID_y_619) ? (__UNIQUE_ID_x_618) : (__UNIQUE_ID_y_619)); })\n";

/* Shapes a fuzzer made of sys_enter's and sched_switch's formats. */
static const char assign_args[] =
	"name: sys_enter\nID: 21\nformat:\n" COMMON
	"\tfield:long id;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield:unsigned long args[6];\toffset:16;\tsize:48;\tsigned:0;\n\n"
	"print fmt: \"NR %ld (%lx, %lx)\", REC->id, REC->args[4]= REC->args[5]\n";

static const char unclosed_field[] =
	"name: sched_switch\nID: 316\nformat:\n" COMMON
	"\tfield:char prev_comm[16Y;\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"prev_comm=%s prev_pid=%d\", REC->prev_comm, REC->prev_pid\n";

static const char control_char[] =
	"name: sched_switch\nID: 316\nformat:\n" COMMON
	"\tfield:char prev_comm[\x14];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"prev_pid=%d\", REC->prev_pid\n";

/*
 * Parse @text with libtraceevent 1.7.1 and print a record of zeros
 * (common_type set): the event, its flags and what it prints.
 */
static struct tep_event *parse(struct tep_handle *tep, const char *text,
			       size_t len, char *printed, size_t plen)
{
	static unsigned char data[256];
	struct tep_record rec = { .data = data, .size = sizeof(data) };
	struct tep_event **ev;
	struct trace_seq s;

	tep_set_long_size(tep, 8);
	tep_set_loglevel(TEP_LOG_NONE);
	tep_parse_event(tep, text, len, "sys");
	ev = tep_list_events(tep, TEP_EVENT_SORT_ID);
	assert_non_null(ev);
	assert_non_null(ev[0]);
	memset(data, 0, sizeof(data));
	data[0] = ev[0]->id & 0xff;
	data[1] = ev[0]->id >> 8;
	trace_seq_init(&s);
	tep_print_event(tep, &s, &rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&s);
	snprintf(printed, plen, "%s", s.buffer);
	trace_seq_destroy(&s);
	return ev[0];
}

/*
 * The check's verdict on @text, and what libtraceevent makes of the
 * text it keeps: @nr_fields fields (common ones aside), failed or not.
 */
static void verdict(const char *text, int want, int nr_fields, bool failed,
		    const char *prints)
{
	size_t len = strlen(text);
	char *kept = calloc(1, len + 1), why[200], printed[512];
	struct tep_handle *tep = tep_alloc();
	struct tep_event *ev;
	int ret;

	assert_non_null(kept);
	assert_non_null(tep);
	ret = lt_dat_format_verdict(text, len, kept, why, sizeof(why));
	if (ret != want)
		fail_msg("verdict %d, want %d (%s) for:\n%s", ret, want, why,
			 text);
	assert_int_equal(want == LT_DAT_FORMAT_OK, !memcmp(kept, text, len));
	ev = parse(tep, kept, len, printed, sizeof(printed));
	assert_int_equal(ev->format.nr_fields, nr_fields);
	assert_int_equal(!!(ev->flags & TEP_EVENT_FL_FAILED), failed);
	if (!strstr(printed, prints))
		fail_msg("prints '%s', want '%s'", printed, prints);
	tep_free(tep);
	free(kept);
}

static void test_array_size_expressions(void **state)
{
	struct tep_handle *tep = tep_alloc();
	struct tep_format_field *f;
	char printed[512];

	verdict(branch, LT_DAT_FORMAT_OK, 5, false, "0:: (0)");
	verdict(tcp_probe, LT_DAT_FORMAT_OK, 3, false, "sport=0");
	/* the field's size is the format's, whatever the expression */
	f = tep_find_field(parse(tep, branch, strlen(branch), printed,
				 sizeof(printed)), "func");
	assert_non_null(f);
	assert_int_equal(f->size, 31);
	assert_int_equal(f->offset, 12);
	tep_free(tep);
}

static void test_failed_as_libtraceevent_fails(void **state)
{
	struct tep_handle *tep = tep_alloc();
	char printed[512];

	/*
	 * libtraceevent 1.7.1 fails these itself: dropping their print
	 * format changes nothing but what it is handed.
	 */
	assert_true(parse(tep, hrtimer_start, strlen(hrtimer_start), printed,
			  sizeof(printed))->flags & TEP_EVENT_FL_FAILED);
	tep_free(tep);
	verdict(hrtimer_start, LT_DAT_FORMAT_PRINT, 4, true,
		"[FAILED TO PARSE] hrtimer=0x0 function=0x0 expires=0 softexpires=0");
	verdict(binder_return, LT_DAT_FORMAT_PRINT, 1, true,
		"[FAILED TO PARSE] cmd=0");
}

static void test_accepted_shapes(void **state)
{
	verdict(process_exec, LT_DAT_FORMAT_OK, 3, false, "pid=0 old_pid=0");
	/* handed over whole; libtraceevent 1.7.1 fails it on its own */
	verdict(stmt_expr, LT_DAT_FORMAT_OK, 1, true, "[FAILED TO PARSE] nr=0");
}

static void test_fuzzer_shapes(void **state)
{
	/* libtraceevent 1.7.1 dereferences NULL on each, as handed */
	verdict(assign_args, LT_DAT_FORMAT_PRINT, 2, true,
		"[FAILED TO PARSE] id=0 args=");
	/* the field is dropped; the print format names it: dropped too */
	verdict(unclosed_field, LT_DAT_FORMAT_FIELDS | LT_DAT_FORMAT_PRINT, 1,
		true, "[FAILED TO PARSE] prev_pid=0");
	verdict(control_char, LT_DAT_FORMAT_FIELDS, 1, false, "prev_pid=0");
}

static void test_refused(void **state)
{
	char why[200], big[LT_DAT_MAX_FORMAT + 64];

	assert_int_equal(lt_dat_format_verdict("name: x\nformat:\n", 16, NULL,
					       why, sizeof(why)), -1);
	assert_non_null(strstr(why, "without a valid ID"));
	memset(big, ' ', sizeof(big));
	memcpy(big, "name: x\nID: 5\n", 14);
	assert_int_equal(lt_dat_format_verdict(big, sizeof(big), NULL, why,
					       sizeof(why)), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_array_size_expressions),
		cmocka_unit_test(test_failed_as_libtraceevent_fails),
		cmocka_unit_test(test_accepted_shapes),
		cmocka_unit_test(test_fuzzer_shapes),
		cmocka_unit_test(test_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
