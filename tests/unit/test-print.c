// SPDX-License-Identifier: GPL-2.0
/*
 * The per-construct printers of lt-print.c, on values taken from real
 * events of the all-events recordings, against what the kernel printed
 * for those events (quoted in each test).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

/*
 * An internal interface of the library: named by its path (the private
 * include directory is the library's own), reached through the static
 * library, where hidden symbols still link.
 */
#include "../../libdecode/print/lt-print.h"

static struct trace_seq s;

static const char *out(void)
{
	trace_seq_terminate(&s);
	return s.buffer;
}

static int setup(void **state)
{
	trace_seq_init(&s);
	return 0;
}

static int teardown(void **state)
{
	trace_seq_destroy(&s);
	return 0;
}

static int reset(void **state)
{
	trace_seq_reset(&s);
	return 0;
}

/* stock72-allevents-arm64: "ipi_raise: target_mask=00000000,00000002" */
static void test_bitmask(void **state)
{
	const unsigned char cpu1[8] = { 0x02 };
	const unsigned char wide[16] = { 0x01, 0, 0, 0, 0, 0, 0, 0x80, 0x0f };

	lt_print_bitmask(&s, cpu1, sizeof(cpu1), 2, 8, false);
	assert_string_equal(out(), "00000000,00000002");
	trace_seq_reset(&s);
	lt_print_bitmask(&s, wide, sizeof(wide), 4, 8, false);
	assert_string_equal(out(), "00000000,0000000f,80000000,00000001");
}

/*
 * stock72-allevents-s390x: a big-endian 64-bit kernel's unsigned long
 * with CPUs 0 and 2 set prints "00000000,00000005"; %*pb with 2 CPUs
 * prints the low 32 bits only, the last four bytes of the long.
 */
static void test_bitmask_big_endian(void **state)
{
	const unsigned char cpus[8] = { 0, 0, 0, 0, 0, 0, 0, 0x05 };
	const unsigned char wide[16] = { 0x80, 0, 0, 0, 0, 0, 0, 0x01,
					 0, 0, 0, 0x0f, 0, 0, 0, 0 };
	const unsigned char w32[8] = { 0, 0, 0, 0x02, 0x10, 0, 0, 0 };

	lt_print_bitmask(&s, cpus, sizeof(cpus), 2, 8, true);
	assert_string_equal(out(), "00000000,00000005");
	trace_seq_reset(&s);
	lt_print_bitmask(&s, cpus, sizeof(cpus), 1, 8, true);
	assert_string_equal(out(), "00000005");
	trace_seq_reset(&s);
	lt_print_bitmask(&s, wide, sizeof(wide), 4, 8, true);
	assert_string_equal(out(), "0000000f,00000000,80000000,00000001");
	trace_seq_reset(&s);
	/* 32-bit big-endian longs: one group each, in order */
	lt_print_bitmask(&s, w32, sizeof(w32), 2, 4, true);
	assert_string_equal(out(), "10000000,00000002");
}

static struct tep_print_flag_sym f4 = { NULL, "0x00200000", "I" };
static struct tep_print_flag_sym f3 = { &f4, "0x00100000", "P" };
static struct tep_print_flag_sym f2 = { &f3, "0x00080000", "D" };
static struct tep_print_flag_sym f1 = { &f2, "0x00040000", "M" };

/*
 * timer_start's flags (host618-allevents: "flags=D|P|I" style, and
 * "flags=" for none: the kernel prints nothing for 0), a leftover in hex.
 */
static void test_flags(void **state)
{
	lt_print_flags(&s, 0x00380000, "|", &f1);
	assert_string_equal(out(), "D|P|I");
	trace_seq_reset(&s);
	lt_print_flags(&s, 0, "|", &f1);
	assert_string_equal(out(), "");
	trace_seq_reset(&s);
	lt_print_flags(&s, 0x00040001, "|", &f1);
	assert_string_equal(out(), "M|0x1");
}

static struct tep_print_flag_sym h3 = { NULL, "HRTIMER_MODE_REL_HARD", "REL|HARD" };
static struct tep_print_flag_sym h2 = { &h3, "HRTIMER_MODE_REL", "REL" };
static struct tep_print_flag_sym h1 = { &h2, "HRTIMER_MODE_ABS", "ABS" };
static struct tep_print_flag_sym u1 = { NULL, "I_DIRTY_SYNC", "I_DIRTY_SYNC" };

/*
 * hrtimer_setup (stock72-allevents-x86: "mode=REL|HARD" for 9): symbols
 * named by constants; one the trace does not define is never matched.
 */
static void test_symbolic(void **state)
{
	lt_print_symbolic(&s, 9, &h1);
	assert_string_equal(out(), "REL|HARD");
	trace_seq_reset(&s);
	lt_print_symbolic(&s, 0, &h1);
	assert_string_equal(out(), "ABS");
	trace_seq_reset(&s);
	lt_print_symbolic(&s, 0, &u1);
	assert_string_equal(out(), "0x0");
}

static void test_hex_array(void **state)
{
	const unsigned char b[3] = { 0x0a, 0x1b, 0xff };
	const unsigned int a[2] = { 1, 0x20 };

	lt_print_hex(&s, b, 3, false);
	assert_string_equal(out(), "0a 1b ff");
	trace_seq_reset(&s);
	lt_print_hex(&s, b, 3, true);
	assert_string_equal(out(), "0a1bff");
	trace_seq_reset(&s);
	lt_print_array(&s, a, 2, 4, false);
	assert_string_equal(out(), "{0x1,0x20}");
}

/*
 * kfree (stock72-allevents-x86): "ptr=0000000000000000"; the raw value
 * in 16 digits as no_hash_pointers prints it.
 */
static void test_pointer(void **state)
{
	lt_print_pointer(&s, 0, 8);
	assert_string_equal(out(), "0000000000000000");
	trace_seq_reset(&s);
	lt_print_pointer(&s, 0xffff888100e37000ULL, 8);
	assert_string_equal(out(), "ffff888100e37000");
}

/*
 * mm_page_free (stock72-allevents-x86): "page=0000000096f4477b", a hash
 * of vmemmap_base + pfn; the trace has no vmemmap_base: the kernel's own
 * placeholder, as wide as the pointer.
 */
static void test_withheld_pointer(void **state)
{
	lt_print_withheld_pointer(&s, 8);
	assert_string_equal(out(), "(____ptrval____)");
	assert_int_equal(strlen(out()), 16);
	trace_seq_reset(&s);
	lt_print_withheld_pointer(&s, 4);
	assert_string_equal(out(), "(ptrval)");
}

/* stock72-allevents-x86: "sys_dup2(oldfd: 0xb, newfd: 1)" */
static void test_syscall_args(void **state)
{
	trace_seq_puts(&s, "sys_dup2(");
	lt_print_syscall_arg(&s, "oldfd", 0xb, false, false);
	lt_print_syscall_arg(&s, "newfd", 1, true, false);
	trace_seq_putc(&s, ')');
	assert_string_equal(out(), "sys_dup2(oldfd: 0xb, newfd: 1)");
	/* before 6.18, old/bullseye510-allevents-i686: "oldfd: b, newfd: 1" */
	trace_seq_reset(&s);
	trace_seq_puts(&s, "sys_dup2(");
	lt_print_syscall_arg(&s, "oldfd", 0xb, false, true);
	lt_print_syscall_arg(&s, "newfd", 1, true, true);
	trace_seq_putc(&s, ')');
	assert_string_equal(out(), "sys_dup2(oldfd: b, newfd: 1)");
}

/*
 * sys_write's buffer, as 7.2 prints it: stock72-allevents-x86 has
 * "buf: 0x7ffd6a2f21df (2a) \"*\", count: 1)" and "(30:0a) \"0.\"", and
 * for a lone newline (issue 23) "buf: 0x5e2163 (0a)", no quoted text.
 */
static void test_user_buffer(void **state)
{
	lt_print_user_buffer(&s, (const unsigned char *)"*", 1, 1);
	assert_string_equal(out(), " (2a) \"*\"");
	trace_seq_reset(&s);
	lt_print_user_buffer(&s, (const unsigned char *)"0\n", 2, 2);
	assert_string_equal(out(), " (30:0a) \"0.\"");
	trace_seq_reset(&s);
	lt_print_user_buffer(&s, (const unsigned char *)"\n", 1, 1);
	assert_string_equal(out(), " (0a)");
	trace_seq_reset(&s);
	lt_print_user_buffer(&s, (const unsigned char *)"\0\0", 2, 0x100000);
	assert_string_equal(out(), " (00:00, ...)");
	trace_seq_reset(&s);
	/* a NUL among printable bytes still shows the text */
	lt_print_user_buffer(&s, (const unsigned char *)"a\0b", 3, 9);
	assert_string_equal(out(), " (61:00:62, ...) \"a.b\"...");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_bitmask, reset),
		cmocka_unit_test_setup(test_bitmask_big_endian, reset),
		cmocka_unit_test_setup(test_flags, reset),
		cmocka_unit_test_setup(test_symbolic, reset),
		cmocka_unit_test_setup(test_hex_array, reset),
		cmocka_unit_test_setup(test_pointer, reset),
		cmocka_unit_test_setup(test_withheld_pointer, reset),
		cmocka_unit_test_setup(test_syscall_args, reset),
		cmocka_unit_test_setup(test_user_buffer, reset),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
