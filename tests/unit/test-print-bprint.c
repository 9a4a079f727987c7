// SPDX-License-Identifier: GPL-2.0
/*
 * ftrace's bprint (trace_printk()) through the event printer, on a 64-bit
 * and a 32-bit kernel's layout: the event's format prints the printk
 * format's address with %s, the values are in its binary buffer as the
 * kernel's vbin_printf() packs them (32-bit words, a string inline and
 * NUL-terminated, the next value 4-aligned, a 64-bit value in two
 * words). The text must be the format filled in, as the kernel's
 * trace_bprint_print() prints it ("func: " then the message), never the
 * format itself.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "../../libdecode/print/lt-print.h"

#define FMT_ADDR	0xffffffff82345678ULL
#define FMT_ADDR32	0xc2345678ULL
#define FUNC		0xffffffff81000100ULL
#define FUNC32		0xc1000100ULL

static const char bprint64[] =
"name: bprint\nID: 6\nformat:\n"
"	field:unsigned short common_type;	offset:0;	size:2;	signed:0;\n"
"	field:unsigned char common_flags;	offset:2;	size:1;	signed:0;\n"
"	field:unsigned char common_preempt_count;	offset:3;	size:1;	signed:0;\n"
"	field:int common_pid;	offset:4;	size:4;	signed:1;\n\n"
"	field:unsigned long ip;	offset:8;	size:8;	signed:0;\n"
"	field:const char * fmt;	offset:16;	size:8;	signed:0;\n"
"	field:u32 buf[];	offset:24;	size:0;	signed:0;\n\n"
"print fmt: \"%ps: %s\", (void *)REC->ip, REC->fmt\n";

static const char bprint32[] =
"name: bprint\nID: 6\nformat:\n"
"	field:unsigned short common_type;	offset:0;	size:2;	signed:0;\n"
"	field:unsigned char common_flags;	offset:2;	size:1;	signed:0;\n"
"	field:unsigned char common_preempt_count;	offset:3;	size:1;	signed:0;\n"
"	field:int common_pid;	offset:4;	size:4;	signed:1;\n\n"
"	field:unsigned long ip;	offset:8;	size:4;	signed:0;\n"
"	field:const char * fmt;	offset:12;	size:4;	signed:0;\n"
"	field:u32 buf[];	offset:16;	size:0;	signed:0;\n\n"
"print fmt: \"%ps: %s\", (void *)REC->ip, REC->fmt\n";

static const char msg[] = "pid=%d comm=%s cpu=%d nr=%lu\\n";

static void put32(unsigned char *d, int off, uint32_t v)
{
	memcpy(d + off, &v, 4);
}

static void put64(unsigned char *d, int off, uint64_t v)
{
	memcpy(d + off, &v, 8);
}

static const char *print(int long_size, unsigned char *data, int size,
			 struct trace_seq *s)
{
	struct tep_handle *tep = tep_alloc();
	struct tep_event *ev = NULL;
	struct tep_record rec = { .data = data, .size = size };
	struct lt_printer *p;
	const char *fmt = long_size == 8 ? bprint64 : bprint32;

	assert_non_null(tep);
	tep_set_long_size(tep, long_size);
	tep_set_file_bigendian(tep, tep_is_local_bigendian(tep));
	assert_int_equal(tep_parse_format(tep, &ev, fmt, strlen(fmt),
					  "ftrace"), 0);
	assert_int_equal(tep_register_print_string(tep, msg,
			long_size == 8 ? FMT_ADDR : FMT_ADDR32), 0);
	assert_int_equal(tep_register_function(tep, "do_thing",
			long_size == 8 ? FUNC : FUNC32, NULL), 0);
	p = lt_printer_new(tep);
	assert_non_null(p);
	lt_print_info(p, &rec, false, s);
	lt_print_info(p, &rec, true, s);
	lt_printer_free(p);
	tep_free(tep);
	trace_seq_terminate(s);
	return s->buffer;
}

/* The message, printed twice (slow and fast path), newline and all. */
#define WANT "do_thing: pid=42 comm=sh cpu=1 nr=123456789012\n"

static void test_bprint64(void **state)
{
	unsigned char d[48] = { 0 };
	struct trace_seq s;

	(void)state;
	d[0] = 6;
	put64(d, 8, FUNC);
	put64(d, 16, FMT_ADDR);
	put32(d, 24, 42);
	memcpy(d + 28, "sh", 3);	/* inline, to 31 */
	put32(d, 32, 1);		/* aligned to 4 */
	put64(d, 36, 123456789012ULL);	/* a long: two words, 4-aligned */
	trace_seq_init(&s);
	assert_string_equal(print(8, d, 44, &s), WANT WANT);
	trace_seq_destroy(&s);
}

static void test_bprint32(void **state)
{
	unsigned char d[40] = { 0 };
	struct trace_seq s;

	(void)state;
	d[0] = 6;
	put32(d, 8, FUNC32);
	put32(d, 12, FMT_ADDR32);
	put32(d, 16, 42);
	memcpy(d + 20, "sh", 3);
	put32(d, 24, 1);
	put32(d, 28, 1234567890);	/* a long is one word */
	trace_seq_init(&s);
	assert_string_equal(print(4, d, 32, &s),
			    "do_thing: pid=42 comm=sh cpu=1 nr=1234567890\n"
			    "do_thing: pid=42 comm=sh cpu=1 nr=1234567890\n");
	trace_seq_destroy(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bprint64),
		cmocka_unit_test(test_bprint32),
	};

	return cmocka_run_group_tests_name("print-bprint", tests, NULL, NULL);
}
