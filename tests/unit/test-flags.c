// SPDX-License-Identifier: GPL-2.0
/*
 * Every flag byte under every ABI, with representative preempt counts,
 * against the letters docs/model.md §2 and §3 give. The expected side is
 * written from its tables and rules, bit masks spelled out here, not from
 * the code under test.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "lazytrace.h"

struct layout {
	enum lt_abi abi;
	unsigned int eager, lazy, fold, nosupport;
};

/* docs/model.md §2 table: which bit means what, per ABI (0: the ABI has none). */
static const struct layout layouts[] = {
	{ LT_ABI_LEGACY,   0x04, 0x00, 0x20, 0x02 },
	{ LT_ABI_MAINLINE, 0x04, 0x02, 0x20, 0x00 },
	{ LT_ABI_POC2023,  0x02, 0x04, 0x20, 0x00 },
	{ LT_ABI_RT_LAZY,  0x04, 0x20, 0x00, 0x02 },
};

#define IRQS_OFF 0x01
#define HARDIRQ	 0x08
#define SOFTIRQ	 0x10
#define NMI	 0x40
#define BH_OFF	 0x80

static char expect_irqs(const struct layout *l, unsigned int f)
{
	if ((f & IRQS_OFF) && (f & BH_OFF))
		return 'D';
	if (f & IRQS_OFF)
		return 'd';
	if (f & BH_OFF)
		return 'b';
	if (l->nosupport && (f & l->nosupport))
		return 'X';
	return '.';
}

/* "E L P -> B; E P -> N; L P -> L; E L -> b; E -> n; P -> p; L -> l" */
static char expect_resched(const struct layout *l, unsigned int f)
{
	int e = !!(f & l->eager);
	int z = l->lazy ? !!(f & l->lazy) : 0;
	int p = l->fold ? !!(f & l->fold) : 0;

	if (e && z && p)
		return 'B';
	if (e && p)
		return 'N';
	if (z && p)
		return 'L';
	if (e && z)
		return 'b';
	if (e)
		return 'n';
	if (p)
		return 'p';
	if (z)
		return 'l';
	return '.';
}

static char expect_irq(unsigned int f)
{
	if ((f & NMI) && (f & HARDIRQ))
		return 'Z';
	if (f & NMI)
		return 'z';
	if ((f & HARDIRQ) && (f & SOFTIRQ))
		return 'H';
	if (f & HARDIRQ)
		return 'h';
	if (f & SOFTIRQ)
		return 's';
	return '.';
}

static char hex_or_dot(unsigned int v)
{
	static const char digits[] = "0123456789abcdef";

	return v ? digits[v] : '.';
}

static void test_every_byte(void **state)
{
	static const unsigned int counts[] = { 0x00, 0x01, 0x02, 0x0f, 0x10,
					       0x21, 0x9a, 0xf0, 0xff };
	char got[6], want[6];
	size_t i, c;
	unsigned int f;
	int checked = 0;

	(void)state;
	for (i = 0; i < sizeof(layouts) / sizeof(layouts[0]); i++) {
		const struct layout *l = &layouts[i];

		for (f = 0; f < 256; f++) {
			for (c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
				want[0] = expect_irqs(l, f);
				want[1] = expect_resched(l, f);
				want[2] = expect_irq(f);
				want[3] = hex_or_dot(counts[c] & 0xf);
				want[4] = hex_or_dot(counts[c] >> 4);
				want[5] = '\0';
				lt_flags_latency(l->abi, f, counts[c], got);
				if (strcmp(got, want))
					fail_msg("abi %s flags 0x%02x pc 0x%02x: got %s want %s",
						 lt_abi_name(l->abi), f, counts[c],
						 got, want);
				checked++;
			}
			assert_int_equal(lt_flags_resched_letter(l->abi, f),
					 expect_resched(l, f));
		}
	}
	assert_int_equal(checked, 4 * 256 * 9);
}

/* Legacy kernels have no lazy letter at all, whatever the byte. */
static void test_legacy_letters(void **state)
{
	unsigned int f;

	(void)state;
	for (f = 0; f < 256; f++)
		assert_non_null(strchr("Nnp.",
				       lt_flags_resched_letter(LT_ABI_LEGACY, f)));
}

static void test_decode_names(void **state)
{
	struct lt_flags m = lt_flags_decode(LT_ABI_MAINLINE, 0x02);
	struct lt_flags p = lt_flags_decode(LT_ABI_POC2023, 0x02);
	struct lt_flags r = lt_flags_decode(LT_ABI_RT_LAZY, 0x20);
	struct lt_flags g = lt_flags_decode(LT_ABI_LEGACY, 0x02);

	(void)state;
	assert_true(m.need_resched_lazy && !m.need_resched);
	assert_true(p.need_resched && !p.need_resched_lazy);
	assert_true(r.need_resched_lazy && !r.preempt_resched);
	assert_true(g.irqs_nosupport && !g.need_resched_lazy);
}

static void test_abi_names(void **state)
{
	static const char *const names[] = { "auto", "legacy", "mainline",
					     "poc2023", "rt-lazy" };
	enum lt_abi abi;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		assert_int_equal(lt_abi_parse(names[i], &abi), 0);
		assert_string_equal(lt_abi_name(abi), names[i]);
	}
	assert_int_equal(lt_abi_parse("preempt-rt", &abi), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_byte),
		cmocka_unit_test(test_legacy_letters),
		cmocka_unit_test(test_decode_names),
		cmocka_unit_test(test_abi_names),
	};

	return cmocka_run_group_tests_name("flags", tests, NULL, NULL);
}
