// SPDX-License-Identifier: GPL-2.0
/*
 * The function graph tracer's events through the event printer, as the
 * kernel's function_graph tracer prints them in its trace file
 * (trace_functions_graph.c, default options): an entry "func() {" after
 * an empty duration column, a return with the call's duration, its
 * overhead mark and "}" (naming the function when its "{" was not
 * printed), an entry followed by its own return as one "func();" line,
 * two spaces of indent per depth level, on the formats of a 64-bit 5.15
 * kernel and of a 32-bit one, never the formats' raw "--> %ps (%d)".
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

static const char entry64[] =
"name: funcgraph_entry\nID: 11\nformat:\n" COMMON
"	field:unsigned long func;	offset:8;	size:8;	signed:0;\n"
"	field:int depth;	offset:16;	size:4;	signed:1;\n\n"
"print fmt: \"--> %ps (%d)\", (void *)REC->func, REC->depth\n";

static const char exit64[] =
"name: funcgraph_exit\nID: 10\nformat:\n" COMMON
"	field:unsigned long func;	offset:8;	size:8;	signed:0;\n"
"	field:int depth;	offset:16;	size:4;	signed:1;\n"
"	field:unsigned int overrun;	offset:20;	size:4;	signed:0;\n"
"	field:unsigned long long calltime;	offset:24;	size:8;	signed:0;\n"
"	field:unsigned long long rettime;	offset:32;	size:8;	signed:0;\n\n"
"print fmt: \"<-- %ps (%d) (start: %llx  end: %llx) over: %d\", REC->func, REC->depth, REC->calltime, REC->rettime, REC->depth\n";

/* 6.x with CONFIG_FUNCTION_GRAPH_RETVAL: the return value too */
static const char exit64_ret[] =
"name: funcgraph_exit\nID: 10\nformat:\n" COMMON
"	field:unsigned long func;	offset:8;	size:8;	signed:0;\n"
"	field:unsigned long retval;	offset:16;	size:8;	signed:0;\n"
"	field:int depth;	offset:24;	size:4;	signed:1;\n"
"	field:unsigned int overrun;	offset:28;	size:4;	signed:0;\n"
"	field:unsigned long long calltime;	offset:32;	size:8;	signed:0;\n"
"	field:unsigned long long rettime;	offset:40;	size:8;	signed:0;\n\n"
"print fmt: \"<-- %ps (%d) (start: %llx  end: %llx) over: %d retval: %lx\", (void *)REC->func, REC->depth, REC->calltime, REC->rettime, REC->depth, REC->retval\n";

static const char entry32[] =
"name: funcgraph_entry\nID: 11\nformat:\n" COMMON
"	field:unsigned long func;	offset:8;	size:4;	signed:0;\n"
"	field:int depth;	offset:12;	size:4;	signed:1;\n\n"
"print fmt: \"--> %ps (%d)\", (void *)REC->func, REC->depth\n";

static const char exit32[] =
"name: funcgraph_exit\nID: 10\nformat:\n" COMMON
"	field:unsigned long func;	offset:8;	size:4;	signed:0;\n"
"	field:int depth;	offset:12;	size:4;	signed:1;\n"
"	field:unsigned int overrun;	offset:16;	size:4;	signed:0;\n"
"	field:unsigned long long calltime;	offset:24;	size:8;	signed:0;\n"
"	field:unsigned long long rettime;	offset:32;	size:8;	signed:0;\n\n"
"print fmt: \"<-- %ps (%d) (start: %llx  end: %llx) over: %d\", REC->func, REC->depth, REC->calltime, REC->rettime, REC->depth\n";

/* no overhead mark, no duration: the kernel's 14 spaces and "|  " */
#define NOTIME "              " "|  "

static struct tep_handle *tep;
static struct lt_printer *p;
static struct trace_seq s;

static void load(int long_size, const char *entry, const char *exit)
{
	struct tep_event *ev = NULL;

	tep = tep_alloc();
	assert_non_null(tep);
	tep_set_long_size(tep, long_size);
	tep_set_cpus(tep, 2);
	tep_set_file_bigendian(tep, tep_is_local_bigendian(tep));
	assert_int_equal(tep_parse_format(tep, &ev, entry, strlen(entry),
					  "ftrace"), 0);
	assert_int_equal(tep_parse_format(tep, &ev, exit, strlen(exit),
					  "ftrace"), 0);
	assert_int_equal(tep_register_function(tep, "do_IRQ",
			long_size == 8 ? 0xffffffff81000100ULL : 0xc1000100ULL,
			NULL), 0);
	assert_int_equal(tep_register_function(tep, "irq_exit",
			long_size == 8 ? 0xffffffff81000200ULL : 0xc1000200ULL,
			NULL), 0);
	p = lt_printer_new(tep);
	assert_non_null(p);
	trace_seq_init(&s);
}

static void unload(void)
{
	lt_printer_free(p);
	tep_free(tep);
	trace_seq_destroy(&s);
}

/* Each record its own time: the printer tells a repeated one by it. */
static const char *info_at(unsigned char *d, int size, unsigned long long ts)
{
	struct tep_record rec = { .data = d, .size = size, .ts = ts };

	trace_seq_reset(&s);
	lt_print_info(p, &rec, false, &s);
	trace_seq_terminate(&s);
	return s.buffer;
}

static unsigned long long now;

static const char *info(unsigned char *d, int size)
{
	return info_at(d, size, ++now);
}

static void test_fgraph64(void **state)
{
	unsigned char d[48] = { 0 };

	(void)state;
	load(8, entry64, exit64);
	d[0] = 11;
	put64(d, 8, 0xffffffff81000100ULL);
	put32(d, 16, 1);
	assert_string_equal(info(d, 24), NOTIME "  do_IRQ() {");
	put64(d, 8, 0xffffffff81000200ULL);
	put32(d, 16, 0);
	assert_string_equal(info(d, 24), NOTIME "irq_exit() {");
	memset(d, 0, sizeof(d));
	d[0] = 10;
	put64(d, 8, 0xffffffff81000100ULL);
	put32(d, 16, 1);
	put64(d, 24, 1000000);
	put64(d, 32, 1005000);			/* 5 us, its "{" printed */
	assert_string_equal(info(d, 40), "  5.000 us    |    }");
	/* the same payload asked again: the same line */
	assert_string_equal(info_at(d, 40, now), "  5.000 us    |    }");
	/* that "{" is closed: a second return names its function */
	put64(d, 32, 1000000 + 23456);		/* over 10 us: "+" */
	assert_string_equal(info(d, 40), "+ 23.456 us   |    } /* do_IRQ */");
	put64(d, 32, 1000000 + 12345678);	/* over 10 ms: "*", 2 decimals */
	assert_string_equal(info(d, 40), "* 12345.67 us |    } /* do_IRQ */");
	put64(d, 32, 1000000 + 123456789);	/* over 100 ms: "@", 1 decimal */
	assert_string_equal(info(d, 40), "@ 123456.7 us |    } /* do_IRQ */");
	put32(d, 16, 0);
	put64(d, 32, 1000000 + 12345678901ULL);	/* 8 digits: no fraction */
	assert_string_equal(info(d, 40), "$ 12345678 us |  } /* do_IRQ */");
	unload();
}

/* An entry and its own return: one line, "func();" with the duration. */
static void test_fgraph_leaf(void **state)
{
	unsigned char e[24] = { 0 }, x[40] = { 0 }, o[40];
	struct tep_record re = { .data = e, .size = 24, .ts = 1 };
	struct tep_record rx = { .data = x, .size = 40, .ts = 2 };

	(void)state;
	load(8, entry64, exit64);
	e[0] = 11;
	put32(e, 4, 42);
	put64(e, 8, 0xffffffff81000200ULL);
	put32(e, 16, 3);
	x[0] = 10;
	put32(x, 4, 42);
	put64(x, 8, 0xffffffff81000200ULL);
	put32(x, 16, 3);
	put64(x, 24, 1000);
	put64(x, 32, 1750);
	trace_seq_reset(&s);
	assert_true(lt_print_fgraph_leaf(p, &re, &rx, &s));
	trace_seq_terminate(&s);
	assert_string_equal(s.buffer, "  0.750 us    |        irq_exit();");
	/* another function's return, another task's, another CPU's: no */
	memcpy(o, x, sizeof(o));
	put64(o, 8, 0xffffffff81000100ULL);
	rx.data = o;
	trace_seq_reset(&s);
	assert_false(lt_print_fgraph_leaf(p, &re, &rx, &s));
	assert_int_equal(s.len, 0);
	memcpy(o, x, sizeof(o));
	put32(o, 4, 43);
	assert_false(lt_print_fgraph_leaf(p, &re, &rx, &s));
	rx.data = x;
	rx.cpu = 1;
	assert_false(lt_print_fgraph_leaf(p, &re, &rx, &s));
	/* an entry after an entry: nested, not a leaf */
	rx.cpu = 0;
	assert_false(lt_print_fgraph_leaf(p, &re, &re, &s));
	assert_false(lt_print_fgraph_leaf(p, &re, NULL, &s));
	assert_int_equal(s.len, 0);
	unload();
}

/*
 * The return value, recorded by 6.x kernels, is printed only with the
 * funcgraph-retval option, off by default: not by default here either.
 */
static void test_fgraph_retval(void **state)
{
	unsigned char d[48] = { 0 };

	(void)state;
	load(8, entry64, exit64_ret);
	d[0] = 11;
	put64(d, 8, 0xffffffff81000100ULL);
	put32(d, 16, 2);
	assert_string_equal(info(d, 24), NOTIME "    do_IRQ() {");
	memset(d, 0, sizeof(d));
	d[0] = 10;
	put64(d, 8, 0xffffffff81000100ULL);
	put64(d, 16, (uint64_t)-14);		/* -EFAULT */
	put32(d, 24, 2);
	put64(d, 32, 1000);
	put64(d, 40, 1750);
	assert_string_equal(info(d, 48), "  0.750 us    |      }");
	unload();
}

static void test_fgraph32(void **state)
{
	unsigned char d[40] = { 0 };

	(void)state;
	load(4, entry32, exit32);
	d[0] = 11;
	put32(d, 8, 0xc1000100);
	put32(d, 12, 0);
	assert_string_equal(info(d, 16), NOTIME "do_IRQ() {");
	put32(d, 8, 0xc6b9f810);		/* no symbol: %ps's 0x address */
	assert_string_equal(info(d, 16), NOTIME "0xc6b9f810() {");
	memset(d, 0, sizeof(d));
	d[0] = 10;
	put32(d, 8, 0xc1000100);
	put64(d, 24, 5000);
	put64(d, 32, 5000 + 101000);		/* over 100 us: "!" */
	/* the open "{" at depth 0 is 0xc6b9f810's: this one is named */
	assert_string_equal(info(d, 40), "! 101.000 us  |  } /* do_IRQ */");
	unload();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fgraph64),
		cmocka_unit_test(test_fgraph_leaf),
		cmocka_unit_test(test_fgraph_retval),
		cmocka_unit_test(test_fgraph32),
	};

	return cmocka_run_group_tests_name("print-fgraph", tests, NULL, NULL);
}
