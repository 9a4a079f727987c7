// SPDX-License-Identifier: GPL-2.0
/*
 * The syscall events of a 32-bit kernel through the event printer, on the
 * formats of old/bullseye510-allevents-i686 (Debian's 5.10, i686) and
 * against what that kernel printed for them: the arguments in hex without
 * 0x before 6.18 (trace_syscalls.c's "%lx"), 0x from 10 on after it; a
 * long's %ld as the kernel's 32-bit long, negative.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "../../libdecode/print/lt-print.h"
#include "test-put.h"

#define COMMON \
"	field:unsigned short common_type;	offset:0;	size:2;	signed:0;\n" \
"	field:unsigned char common_flags;	offset:2;	size:1;	signed:0;\n" \
"	field:unsigned char common_preempt_count;	offset:3;	size:1;	signed:0;\n" \
"	field:int common_pid;	offset:4;	size:4;	signed:1;\n\n"

static const char enter_openat[] =
"name: sys_enter_openat\nID: 683\nformat:\n" COMMON
"	field:int __syscall_nr;	offset:8;	size:4;	signed:1;\n"
"	field:int dfd;	offset:12;	size:4;	signed:0;\n"
"	field:const char * filename;	offset:16;	size:4;	signed:0;\n"
"	field:int flags;	offset:20;	size:4;	signed:0;\n"
"	field:umode_t mode;	offset:24;	size:4;	signed:0;\n\n"
"print fmt: \"dfd: 0x%04lx, filename: 0x%04lx, flags: 0x%04lx, mode: 0x%04lx\", ((unsigned long)(REC->dfd)), ((unsigned long)(REC->filename)), ((unsigned long)(REC->flags)), ((unsigned long)(REC->mode))\n";

static const char exit_openat[] =
"name: sys_exit_openat\nID: 682\nformat:\n" COMMON
"	field:int __syscall_nr;	offset:8;	size:4;	signed:1;\n"
"	field:long ret;	offset:12;	size:4;	signed:1;\n\n"
"print fmt: \"0x%lx\", REC->ret\n";

static const char raw_exit[] =
"name: sys_exit\nID: 362\nformat:\n" COMMON
"	field:long id;	offset:8;	size:4;	signed:1;\n"
"	field:long ret;	offset:12;	size:4;	signed:1;\n\n"
"print fmt: \"NR %ld = %ld\", REC->id, REC->ret\n";

static struct tep_handle *tep;
static struct lt_printer *p;
static struct trace_seq s;

static int setup(void **state)
{
	struct tep_event *ev = NULL;

	(void)state;
	tep = tep_alloc();
	if (!tep)
		return -1;
	tep_set_long_size(tep, 4);
	tep_set_file_bigendian(tep, tep_is_local_bigendian(tep));
	if (tep_parse_format(tep, &ev, enter_openat, strlen(enter_openat),
			     "syscalls") ||
	    tep_parse_format(tep, &ev, exit_openat, strlen(exit_openat),
			     "syscalls") ||
	    tep_parse_format(tep, &ev, raw_exit, strlen(raw_exit),
			     "raw_syscalls"))
		return -1;
	p = lt_printer_new(tep);
	trace_seq_init(&s);
	return p ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	lt_printer_free(p);
	tep_free(tep);
	trace_seq_destroy(&s);
	return 0;
}

/* "sys_openat(dfd: ffffff9c, filename: a15e754, flags: 8241, mode: 1b6)" */
static void openat(unsigned char *d, uint32_t flags, uint32_t mode)
{
	memset(d, 0, 28);
	put16(d, 0, 683);
	put32(d, 8, 295);
	put32(d, 12, 0xffffff9c);
	put32(d, 16, 0xa15e754);
	put32(d, 20, flags);
	put32(d, 24, mode);
}

static void test_release(void **state)
{
	unsigned char d[28];

	(void)state;
	openat(d, 0x8241, 0x1b6);
	lt_printer_set_kernel(p, "5.10.0-32-686");
	assert_string_equal(print_info(p, &s, d, sizeof(d)),
		"sys_openat(dfd: ffffff9c, filename: a15e754, flags: 8241, mode: 1b6)");
	/* below 10 as well: "sys_wait4(upid: ffffffff, ..., options: 1, ru: 0)" */
	openat(d, 1, 0);
	assert_string_equal(print_info(p, &s, d, sizeof(d)),
		"sys_openat(dfd: ffffff9c, filename: a15e754, flags: 1, mode: 0)");
	openat(d, 0xb, 0xa);
	assert_string_equal(print_info(p, &s, d, sizeof(d)),
		"sys_openat(dfd: ffffff9c, filename: a15e754, flags: b, mode: a)");
	/* the last release before the change, and the first after it */
	lt_printer_set_kernel(p, "6.17.13");
	assert_string_equal(print_info(p, &s, d, sizeof(d)),
		"sys_openat(dfd: ffffff9c, filename: a15e754, flags: b, mode: a)");
	lt_printer_set_kernel(p, "6.18.44-fc-v1147");
	assert_string_equal(print_info(p, &s, d, sizeof(d)),
		"sys_openat(dfd: 0xffffff9c, filename: 0xa15e754, flags: 0xb, mode: 0xa)");
	openat(d, 1, 0);
	assert_string_equal(print_info(p, &s, d, sizeof(d)),
		"sys_openat(dfd: 0xffffff9c, filename: 0xa15e754, flags: 1, mode: 0)");
	/* unknown: as the newest kernels print */
	lt_printer_set_kernel(p, NULL);
	assert_string_equal(print_info(p, &s, d, sizeof(d)),
		"sys_openat(dfd: 0xffffff9c, filename: 0xa15e754, flags: 1, mode: 0)");
	lt_printer_set_kernel(p, "7.2.0-1-amd64");
	assert_string_equal(print_info(p, &s, d, sizeof(d)),
		"sys_openat(dfd: 0xffffff9c, filename: 0xa15e754, flags: 1, mode: 0)");
}

/* "sys_openat -> 0xfffffffe": the same on every release */
static void test_exit(void **state)
{
	unsigned char d[16] = { 0 };

	(void)state;
	put16(d, 0, 682);
	put32(d, 8, 295);
	put32(d, 12, (uint32_t)-2);
	lt_printer_set_kernel(p, "5.10.0-32-686");
	assert_string_equal(print_info(p, &s, d, sizeof(d)),
			    "sys_openat -> 0xfffffffe");
	lt_printer_set_kernel(p, "6.18.0");
	assert_string_equal(print_info(p, &s, d, sizeof(d)),
			    "sys_openat -> 0xfffffffe");
}

/*
 * raw_syscalls:sys_exit, an event the analysis reads (printed on the fast
 * path): "sys_exit: NR 114 = -10" and "sys_exit: NR -1 = 0".
 */
static const char *raw(unsigned char *d, int size)
{
	struct tep_record rec = { .data = d, .size = size };

	trace_seq_reset(&s);
	lt_print_info(p, &rec, true, &s);
	trace_seq_terminate(&s);
	return s.buffer;
}

static void test_raw_exit(void **state)
{
	unsigned char d[16] = { 0 };

	(void)state;
	put16(d, 0, 362);
	put32(d, 8, 114);
	put32(d, 12, (uint32_t)-10);
	assert_string_equal(raw(d, sizeof(d)), "NR 114 = -10");
	put32(d, 8, (uint32_t)-1);
	put32(d, 12, 0);
	assert_string_equal(raw(d, sizeof(d)), "NR -1 = 0");
	put32(d, 8, 4);
	put32(d, 12, 0x7fffffff);
	assert_string_equal(raw(d, sizeof(d)), "NR 4 = 2147483647");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_release),
		cmocka_unit_test(test_exit),
		cmocka_unit_test(test_raw_exit),
	};

	return cmocka_run_group_tests_name("print-syscall", tests, setup,
					   teardown);
}
