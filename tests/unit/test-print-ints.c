// SPDX-License-Identifier: GPL-2.0
/*
 * Integer conversions of a print format through the event printer, which
 * writes the common ones (flags '#', '0', '-', a width, no precision)
 * without printf: each must print what printf prints for the value cast
 * to the conversion's size, but for the kernel's %#x of 0 ("0x0"), on
 * edge values and on random ones of every field size.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../../libdecode/print/lt-print.h"

static const char head[] =
"name: ints\nID: 7\nformat:\n"
"	field:unsigned short common_type;	offset:0;	size:2;	signed:0;\n"
"	field:unsigned char common_flags;	offset:2;	size:1;	signed:0;\n"
"	field:unsigned char common_preempt_count;	offset:3;	size:1;	signed:0;\n"
"	field:int common_pid;	offset:4;	size:4;	signed:1;\n\n"
"	field:int i32;	offset:8;	size:4;	signed:1;\n"
"	field:unsigned int u32;	offset:12;	size:4;	signed:0;\n"
"	field:s64 s64;	offset:16;	size:8;	signed:1;\n"
"	field:u64 u64;	offset:24;	size:8;	signed:0;\n"
"	field:short s16;	offset:32;	size:2;	signed:1;\n"
"	field:char s8;	offset:34;	size:1;	signed:1;\n"
"	field:unsigned char u8;	offset:35;	size:1;	signed:0;\n\n";

#define REC_SIZE	36

static const struct {
	const char *conv;	/* what follows '%' */
	const char *field;
} convs[] = {
	{ "d", "i32" }, { "5d", "i32" }, { "-5d", "i32" }, { "05d", "i32" },
	{ "-05d", "i32" }, { "u", "u32" }, { "x", "u32" }, { "#x", "u32" },
	{ "#08x", "u32" }, { "-#8x", "u32" }, { "X", "u32" }, { "#X", "u32" },
	{ "#010X", "u32" }, { "lld", "s64" }, { "20lld", "s64" },
	{ "-20lld", "s64" }, { "llx", "u64" }, { "#llx", "u64" },
	{ "018llx", "u64" }, { "hd", "s16" }, { "hhd", "s8" }, { "hhu", "u8" },
	{ "hu", "s16" }, { "d", "s64" }, { "lu", "s64" }, { "ld", "u64" },
	{ "x", "s8" }, { "i", "s16" }, { "3d", "u8" }, { "1d", "i32" },
	/* printf's own: other flags, a precision, octal */
	{ "+d", "i32" }, { " d", "i32" }, { ".3d", "i32" }, { "#o", "u32" },
	{ "8.4x", "u32" },
};

static const struct {
	const char *name;
	int offset, size;
	bool sign;
} fields[] = {
	{ "i32", 8, 4, true }, { "u32", 12, 4, false },
	{ "s64", 16, 8, true }, { "u64", 24, 8, false },
	{ "s16", 32, 2, true }, { "s8", 34, 1, true }, { "u8", 35, 1, false },
};

static struct tep_handle *tep;
static struct lt_printer *printer;

static int setup(void **state)
{
	char fmt[4096], *p = fmt;
	struct tep_event *ev = NULL;
	size_t i;

	(void)state;
	p += sprintf(p, "%sprint fmt: \"", head);
	for (i = 0; i < sizeof(convs) / sizeof(convs[0]); i++)
		p += sprintf(p, "%s%%%s", i ? "|" : "", convs[i].conv);
	p += sprintf(p, "\"");
	for (i = 0; i < sizeof(convs) / sizeof(convs[0]); i++)
		p += sprintf(p, ", REC->%s", convs[i].field);
	sprintf(p, "\n");
	tep = tep_alloc();
	if (!tep)
		return -1;
	tep_set_long_size(tep, 8);
	tep_set_file_bigendian(tep, tep_is_local_bigendian(tep));
	if (tep_parse_format(tep, &ev, fmt, strlen(fmt), "lt") || !ev)
		return -1;
	printer = lt_printer_new(tep);
	return printer ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	lt_printer_free(printer);
	tep_free(tep);
	return 0;
}

static unsigned long long cast(unsigned long long v, int size, bool sign)
{
	/* by shifts, not as the printer does it: the value's low @size bytes */
	int shift = 64 - 8 * size;

	if (shift <= 0)
		return v;
	v <<= shift;
	return sign ? (unsigned long long)((long long)v >> shift) : v >> shift;
}

/* What the kernel prints for conversion @conv of @v (the field's value). */
static void expect(char *out, size_t len, const char *conv,
		   unsigned long long v)
{
	const char *c = conv + strspn(conv, "-+ #0123456789.");
	char f[32], cv = c[strspn(c, "hl")];
	bool sign = cv == 'd' || cv == 'i';
	int size = 4;

	if (!strncmp(c, "hh", 2))
		size = 1;
	else if (c[0] == 'h')
		size = 2;
	else if (c[0] == 'l')
		size = 8;
	v = cast(v, size, sign);
	if (!v && strchr(conv, '#') && (cv == 'x' || cv == 'X')) {
		snprintf(f, sizeof(f), "%%%s%.*ss", strchr(conv, '-') ? "-" : "",
			 (int)strspn(conv + strspn(conv, "-#0"), "0123456789"),
			 conv + strspn(conv, "-#0"));
		snprintf(out, len, f, cv == 'x' ? "0x0" : "0X0");
		return;
	}
	snprintf(f, sizeof(f), "%%%.*sll%c", (int)(c - conv), conv, cv);
	if (sign)
		snprintf(out, len, f, (long long)v);
	else
		snprintf(out, len, f, v);
}

static unsigned long long field_value(const unsigned char *d, const char *name)
{
	unsigned long long v = 0;
	size_t i;

	for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		if (strcmp(fields[i].name, name))
			continue;
		memcpy(&v, d + fields[i].offset, fields[i].size);
		return cast(v, fields[i].size, fields[i].sign);
	}
	fail();
	return 0;
}

static void check(const unsigned char *d)
{
	struct tep_record rec = { .data = (void *)d, .size = REC_SIZE };
	char want[2048], *p = want;
	struct trace_seq s;
	size_t i;

	for (i = 0; i < sizeof(convs) / sizeof(convs[0]); i++) {
		if (i)
			*p++ = '|';
		expect(p, want + sizeof(want) - p, convs[i].conv,
		       field_value(d, convs[i].field));
		p += strlen(p);
	}
	trace_seq_init(&s);
	lt_print_info(printer, &rec, false, &s);
	trace_seq_terminate(&s);
	assert_string_equal(s.buffer, want);
	trace_seq_destroy(&s);
}

static void fill(unsigned char *d, unsigned long long v)
{
	size_t i;

	memset(d, 0, REC_SIZE);
	d[0] = 7;
	for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		memcpy(d + fields[i].offset, &v, fields[i].size);
}

static void test_edges(void **state)
{
	static const unsigned long long edges[] = {
		0, 1, 9, 10, 99, 100, 101, 12345, 0x7f, 0x80, 0xff, 0x7fff,
		0x8000, 0xffff, 0x7fffffff, 0x80000000, 0xffffffff,
		0x100000000ULL, 999999999999ULL, 0x7fffffffffffffffULL,
		0x8000000000000000ULL, ~0ULL, -2ULL, -10ULL, -100ULL,
		10000000000000000000ULL,
	};
	unsigned char d[REC_SIZE];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(edges) / sizeof(edges[0]); i++) {
		fill(d, edges[i]);
		check(d);
	}
}

static void test_random(void **state)
{
	unsigned long long x = 0x9e3779b97f4a7c15ULL, v;
	unsigned char d[REC_SIZE];
	int i, k;

	(void)state;
	for (i = 0; i < 20000; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		fill(d, 0);
		d[0] = 7;
		/* each field its own value, of all magnitudes */
		for (k = 8; k < REC_SIZE; k++) {
			v = x >> (k * 5 % 61) ^ x << (k % 7);
			d[k] = (i + k) % 5 ? (unsigned char)v : 0;
		}
		check(d);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_edges),
		cmocka_unit_test(test_random),
	};

	return cmocka_run_group_tests_name("print-ints", tests, setup,
					   teardown);
}
