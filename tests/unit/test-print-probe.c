// SPDX-License-Identifier: GPL-2.0
/*
 * Probe events through the event printer, as the kernel prints them
 * (kernel/trace/trace_kprobe.c, trace_uprobe.c, trace_probe.c): the head
 * from seq_print_ip_sym() ("(sym+0xoff/0xsize)", a return probe's return
 * address first and its function without offset; a user address as
 * 0x...), never the "(%lx)" of the format the kernel synthesizes; a
 * string fetch arg the kernel could not read as (fault), unquoted.
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

static const char kprobe[] =
"name: kp\nID: 1601\nformat:\n" COMMON
"	field:unsigned long __probe_ip;	offset:8;	size:8;	signed:0;\n"
"	field:__data_loc char[] name;	offset:16;	size:4;	signed:1;\n"
"	field:u32 n;	offset:20;	size:4;	signed:0;\n\n"
"print fmt: \"(%lx) name=\\\"%s\\\" n=%u\", REC->__probe_ip, __get_str(name), REC->n\n";

static const char kretprobe[] =
"name: kr\nID: 1602\nformat:\n" COMMON
"	field:unsigned long __probe_func;	offset:8;	size:8;	signed:0;\n"
"	field:unsigned long __probe_ret_ip;	offset:16;	size:8;	signed:0;\n"
"	field:s64 ret;	offset:24;	size:8;	signed:1;\n\n"
"print fmt: \"(%lx <- %lx) ret=%Ld\", REC->__probe_func, REC->__probe_ret_ip, REC->ret\n";

#define VFS_READ	0xffffffff81200000ULL
#define KSYS_READ	0xffffffff81200100ULL
#define NEXT		0xffffffff81200200ULL

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
	tep_set_long_size(tep, 8);
	tep_set_file_bigendian(tep, tep_is_local_bigendian(tep));
	if (tep_parse_format(tep, &ev, kprobe, strlen(kprobe), "ltprobe") ||
	    tep_parse_format(tep, &ev, kretprobe, strlen(kretprobe), "ltprobe") ||
	    tep_register_function(tep, "vfs_read", VFS_READ, NULL) ||
	    tep_register_function(tep, "ksys_read", KSYS_READ, NULL) ||
	    tep_register_function(tep, "next_fn", NEXT, NULL))
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

static const char *info(unsigned char *d, int size)
{
	return print_info(p, &s, d, size);
}

static void test_kprobe(void **state)
{
	unsigned char d[32] = { 0 };

	(void)state;
	put16(d, 0, 1601);
	put64(d, 8, VFS_READ + 4);
	put32(d, 16, 4 << 16 | 24);	/* "abc" and its NUL at 24 */
	memcpy(d + 24, "abc", 4);
	put32(d, 20, 5);
	assert_string_equal(info(d, 28),
			    "(vfs_read+0x4/0x100) name=\"abc\" n=5");
	put32(d, 16, 0 << 16 | 24);	/* the kernel could not read it */
	assert_string_equal(info(d, 28), "(vfs_read+0x4/0x100) name=(fault) n=5");
	put64(d, 8, 0x1234);		/* no symbol */
	assert_string_equal(info(d, 28), "(0x1234) name=(fault) n=5");
}

static void test_kretprobe(void **state)
{
	unsigned char d[32] = { 0 };

	(void)state;
	put16(d, 0, 1602);
	put64(d, 8, VFS_READ);
	put64(d, 16, KSYS_READ + 0x7b);
	put64(d, 24, (uint64_t)-14);
	assert_string_equal(info(d, 32),
			    "(ksys_read+0x7b/0x100 <- vfs_read) ret=-14");
	/* a uretprobe's user addresses, as trace_uprobe.c prints them */
	put64(d, 8, 0x401500);
	put64(d, 16, 0x402114);
	put64(d, 24, 0);
	assert_string_equal(info(d, 32), "(0x402114 <- 0x401500) ret=0");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kprobe),
		cmocka_unit_test(test_kretprobe),
	};

	return cmocka_run_group_tests_name("print-probe", tests, setup,
					   teardown);
}
