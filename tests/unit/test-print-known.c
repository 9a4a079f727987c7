// SPDX-License-Identifier: GPL-2.0
/*
 * The hand printers of lt-print-known.c against libtraceevent's generic
 * printer, on the kernel's own event formats (Linux 6.18, x86_64, as
 * recorded in /var/tmp traces and tests/data/host618-hogs.dat): for every
 * value they take, the text must be tep_print_event()'s, byte for byte;
 * for the values they do not cover they must decline (-1).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

#include "../../libdecode/print/lt-print-known.h"

#define COMMON \
"	field:unsigned short common_type;	offset:0;	size:2;	signed:0;\n" \
"	field:unsigned char common_flags;	offset:2;	size:1;	signed:0;\n" \
"	field:unsigned char common_preempt_count;	offset:3;	size:1;	signed:0;\n" \
"	field:int common_pid;	offset:4;	size:4;	signed:1;\n\n"

#define MASK "((((0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | 0x00000010 | 0x00000020 | 0x00000040) + 1) << 1) - 1)"

static const char switch_fmt[] =
"name: sched_switch\nID: 372\nformat:\n" COMMON
"	field:char prev_comm[16];	offset:8;	size:16;	signed:0;\n"
"	field:pid_t prev_pid;	offset:24;	size:4;	signed:1;\n"
"	field:int prev_prio;	offset:28;	size:4;	signed:1;\n"
"	field:long prev_state;	offset:32;	size:8;	signed:1;\n"
"	field:char next_comm[16];	offset:40;	size:16;	signed:0;\n"
"	field:pid_t next_pid;	offset:56;	size:4;	signed:1;\n"
"	field:int next_prio;	offset:60;	size:4;	signed:1;\n\n"
"print fmt: \"prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s%s ==> next_comm=%s next_pid=%d next_prio=%d\", REC->prev_comm, REC->prev_pid, REC->prev_prio, (REC->prev_state & " MASK ") ? __print_flags(REC->prev_state & " MASK ", \"|\", { 0x00000001, \"S\" }, { 0x00000002, \"D\" }, { 0x00000004, \"T\" }, { 0x00000008, \"t\" }, { 0x00000010, \"X\" }, { 0x00000020, \"Z\" }, { 0x00000040, \"P\" }, { 0x00000080, \"I\" }) : \"R\", REC->prev_state & (((0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | 0x00000010 | 0x00000020 | 0x00000040) + 1) << 1) ? \"+\" : \"\", REC->next_comm, REC->next_pid, REC->next_prio\n";

/*
 * 4.8 to 4.13: TASK_STATE_MAX (4096) above TASK_NEW (2048), which has no
 * letter, so "+" is not the bit above the highest letter. Written as
 * the 4.9 kernel's format text has it; the "+" test in hex as well, as
 * other kernels spell it.
 */
#define SWITCH_4X(PLUS) \
"name: sched_switch\nID: 286\nformat:\n" COMMON \
"	field:char prev_comm[16];	offset:8;	size:16;	signed:1;\n" \
"	field:pid_t prev_pid;	offset:24;	size:4;	signed:1;\n" \
"	field:int prev_prio;	offset:28;	size:4;	signed:1;\n" \
"	field:long prev_state;	offset:32;	size:8;	signed:1;\n" \
"	field:char next_comm[16];	offset:40;	size:16;	signed:1;\n" \
"	field:pid_t next_pid;	offset:56;	size:4;	signed:1;\n" \
"	field:int next_prio;	offset:60;	size:4;	signed:1;\n\n" \
"print fmt: \"prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s%s ==> next_comm=%s next_pid=%d next_prio=%d\", REC->prev_comm, REC->prev_pid, REC->prev_prio, REC->prev_state & (4096-1) ? __print_flags(REC->prev_state & (4096-1), \"|\", { 1, \"S\"} , { 2, \"D\" }, { 4, \"T\" }, { 8, \"t\" }, { 16, \"Z\" }, { 32, \"X\" }, { 64, \"x\" }, { 128, \"K\" }, { 256, \"W\" }, { 512, \"P\" }, { 1024, \"N\" }) : \"R\", REC->prev_state & " PLUS " ? \"+\" : \"\", REC->next_comm, REC->next_pid, REC->next_prio\n"

static const char switch_4x_fmt[] = SWITCH_4X("4096");
static const char switch_4x_hex_fmt[] = SWITCH_4X("0x1000");

static const char wakeup_fmt[] =
"name: sched_wakeup\nID: 374\nformat:\n" COMMON
"	field:char comm[16];	offset:8;	size:16;	signed:0;\n"
"	field:pid_t pid;	offset:24;	size:4;	signed:1;\n"
"	field:int prio;	offset:28;	size:4;	signed:1;\n"
"	field:int target_cpu;	offset:32;	size:4;	signed:1;\n\n"
"print fmt: \"comm=%s pid=%d prio=%d target_cpu=%03d\", REC->comm, REC->pid, REC->prio, REC->target_cpu\n";

/* The same text with one more argument: not ours to print. */
static const char vector_odd_fmt[] =
"name: reschedule_entry\nID: 155\nformat:\n" COMMON
"	field:int vector;	offset:8;	size:4;	signed:1;\n\n"
"print fmt: \"vector=%d\", REC->vector + 1\n";

static struct tep_handle *tep;

static struct tep_event *parse(const char *fmt, const char *sys)
{
	struct tep_event *ev = NULL;

	assert_int_equal(tep_parse_format(tep, &ev, fmt, strlen(fmt), sys), 0);
	assert_non_null(ev);
	return ev;
}

/* Both printers on @data; the hand printer's result must match or be -1. */
static ssize_t both(struct tep_event *ev, void *data, int size, char *out,
		    size_t len)
{
	struct lt_known_print kp;
	struct tep_record rec = { .data = data, .size = size };
	struct trace_seq s;
	ssize_t n;

	lt_known_print_init(&kp, ev);
	assert_int_not_equal(kp.fmt, LT_FMT_NONE);
	n = lt_known_print(&kp, tep, &rec, out, len);
	trace_seq_init(&s);
	tep_print_event(tep, &s, &rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&s);
	if (n >= 0) {
		assert_int_equal((size_t)n, strlen(s.buffer));
		if ((size_t)n < len)
			assert_string_equal(out, s.buffer);
	}
	trace_seq_destroy(&s);
	return n;
}

static void put32(unsigned char *d, int off, int32_t v)
{
	memcpy(d + off, &v, 4);
}

static void test_switch(void **state)
{
	static const long long states[] = {
		0, 1, 2, 0x80, 0x100, 0x101, 0x102, 0x03, 0x41, 0xff, 0x1ff,
	};
	struct tep_event *ev = parse(switch_fmt, "sched");
	unsigned char d[64] = { 0 };
	char out[256];
	size_t i;

	(void)state;
	d[0] = 372 & 0xff;
	d[1] = 372 >> 8;
	memcpy(d + 8, "sched-messaging", 15);	/* NUL-terminated */
	memcpy(d + 40, "0123456789abcdef", 16);	/* fills the field */
	put32(d, 24, 4242);
	put32(d, 28, 120);
	put32(d, 56, -1);
	put32(d, 60, -7);
	for (i = 0; i < sizeof(states) / sizeof(states[0]); i++) {
		memcpy(d + 32, &states[i], 8);
		assert_true(both(ev, d, sizeof(d), out, sizeof(out)) > 0);
	}
	/* Bits above the "+" marker are masked out by the format. */
	memcpy(d + 32, &(long long){ 0x200 }, 8);
	assert_true(both(ev, d, sizeof(d), out, sizeof(out)) > 0);
	assert_non_null(strstr(out, "prev_state=R =="));
	/* A short buffer still gets the length, and a terminated prefix. */
	memcpy(d + 32, &(long long){ 1 }, 8);
	assert_true(both(ev, d, sizeof(d), out, 10) > 10);
	assert_int_equal(strlen(out), 9);
	/* A record shorter than the fields: declined. */
	assert_int_equal(both(ev, d, 40, out, sizeof(out)), -1);
}

static void check_4x(const char *fmt)
{
	static const long long states[] = { 0, 1, 2, 0x200, 0x400, 0x1000,
					    0x1001, 0x1002, 0x1201 };
	struct tep_event *ev = parse(fmt, "sched");
	unsigned char d[64] = { 0 };
	char out[256];
	size_t i;

	assert_int_equal(lt_switch_preempt_bit(ev), 0x1000);
	d[0] = 286 & 0xff;
	d[1] = 286 >> 8;
	memcpy(d + 8, "kworker/u8:2", 12);
	memcpy(d + 40, "swapper/1", 9);
	put32(d, 24, 77);
	put32(d, 28, 120);
	for (i = 0; i < sizeof(states) / sizeof(states[0]); i++) {
		memcpy(d + 32, &states[i], 8);
		assert_true(both(ev, d, sizeof(d), out, sizeof(out)) > 0);
	}
	/* what the kernel recorded for a preempted task */
	memcpy(d + 32, &(long long){ 0x1000 }, 8);
	assert_true(both(ev, d, sizeof(d), out, sizeof(out)) > 0);
	assert_non_null(strstr(out, "prev_state=R+ =="));
	memcpy(d + 32, &(long long){ 0x800 }, 8);	/* TASK_NEW: no letter */
	both(ev, d, sizeof(d), out, sizeof(out));
}

static void test_switch_4x(void **state)
{
	(void)state;
	check_4x(switch_4x_fmt);
	check_4x(switch_4x_hex_fmt);
}

/* No "+" test to read: the bit above the highest letter (none: 0x100). */
static void test_switch_fallback(void **state)
{
	struct tep_event *ev = parse(vector_odd_fmt, "irq_vectors");

	(void)state;
	assert_int_equal(lt_switch_preempt_bit(ev), 0x100);
	ev = parse(switch_fmt, "sched");
	assert_int_equal(lt_switch_preempt_bit(ev), 0x100);
}

static void test_wakeup(void **state)
{
	struct tep_event *ev = parse(wakeup_fmt, "sched");
	unsigned char d[36] = { 0 };
	static const int cpus[] = { 0, 5, 42, 1234 };
	char out[128];
	size_t i;

	(void)state;
	d[0] = 374 & 0xff;
	d[1] = 374 >> 8;
	memcpy(d + 8, "kworker/0:1", 11);
	put32(d, 24, 17);
	put32(d, 28, -51);
	for (i = 0; i < sizeof(cpus) / sizeof(cpus[0]); i++) {
		put32(d, 32, cpus[i]);
		assert_true(both(ev, d, sizeof(d), out, sizeof(out)) > 0);
	}
	put32(d, 32, -1);	/* "%03d" of a negative number: declined */
	assert_int_equal(both(ev, d, sizeof(d), out, sizeof(out)), -1);
}

static void test_unknown_args(void **state)
{
	struct tep_event *ev = parse(vector_odd_fmt, "irq_vectors");
	struct lt_known_print kp;

	(void)state;
	lt_known_print_init(&kp, ev);
	assert_int_equal(kp.fmt, LT_FMT_NONE);
}

static int setup(void **state)
{
	(void)state;
	tep = tep_alloc();
	if (!tep)
		return -1;
	tep_set_long_size(tep, 8);
	tep_set_file_bigendian(tep, tep_is_local_bigendian(tep));
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	tep_free(tep);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_switch),
		cmocka_unit_test(test_switch_4x),
		cmocka_unit_test(test_switch_fallback),
		cmocka_unit_test(test_wakeup),
		cmocka_unit_test(test_unknown_args),
	};

	return cmocka_run_group_tests_name("print-known", tests, setup,
					   teardown);
}
