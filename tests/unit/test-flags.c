// SPDX-License-Identifier: GPL-2.0
/*
 * Every flag byte under every ABI, with representative preempt counts,
 * against the letters docs/model.md §2 and §3 give. The expected side is
 * written from its tables and rules, bit masks spelled out here, not from
 * the code under test. The ABI detector on real kernel releases and the
 * order of its rules (docs/model.md §2).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "lazytrace.h"
#include "../../libdecode/read/lt-internal.h"

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

static unsigned long scans;

/* A scan that finds the lazy bit @ctx times. */
static unsigned long scan(void *ctx)
{
	scans++;
	return (unsigned long)(uintptr_t)ctx;
}

static enum lt_abi detect(const char *release, enum lt_abi_rule *rule)
{
	struct lt_abi_hints h = { .release = release };
	struct lt_abi_choice c;

	lt_abi_detect(&h, &c);
	*rule = c.rule;
	return c.abi;
}

/*
 * Releases of real kernels: what the release alone settles. 6.13 and
 * later are mainline; PREEMPT_RT patch sets 5.17-rt to 6.6-rt are rt-lazy;
 * the rest is left to the events (RT sets before 5.17 put lazy on 0x80,
 * 6.7-rt to 6.12-rt had none until the lazy backport).
 */
static void test_abi_release(void **state)
{
	static const struct {
		const char *release;
		enum lt_abi abi;	/* LT_ABI_AUTO: not settled */
	} rel[] = {
		{ "6.18.44-fc-v1045", LT_ABI_MAINLINE },	/* host618 */
		{ "7.2.13+deb14-amd64", LT_ABI_MAINLINE },	/* stock72 */
		{ "6.13.0", LT_ABI_MAINLINE },
		{ "6.12.118-lazy", LT_ABI_AUTO },		/* lazy612 */
		{ "6.12.118+", LT_ABI_AUTO },			/* lazyvm */
		{ "5.10.0-32-686", LT_ABI_AUTO },		/* bullseye */
		{ "6.1.0-18-rt-amd64", LT_ABI_RT_LAZY },	/* Debian 12 RT */
		{ "6.6.15-rt22", LT_ABI_RT_LAZY },
		{ "5.17.1-rt17", LT_ABI_RT_LAZY },
		{ "5.15.148-rt74", LT_ABI_AUTO },
		{ "5.10.0-28-rt-amd64", LT_ABI_AUTO },		/* Debian 11 RT */
		{ "6.8.2-rt11", LT_ABI_AUTO },
		{ "6.12.38+deb13-rt-amd64", LT_ABI_AUTO },	/* Debian 13 RT */
		{ "5.15.0-1032-realtime", LT_ABI_AUTO },	/* Ubuntu */
		{ "6.1.0-18-rtl-amd64", LT_ABI_AUTO },		/* not "-rt" */
		{ "unknown", LT_ABI_AUTO },
	};
	enum lt_abi_rule rule;
	enum lt_abi abi;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rel) / sizeof(rel[0]); i++) {
		abi = detect(rel[i].release, &rule);
		print_message("%-24s %s\n", rel[i].release, lt_abi_name(abi));
		if (rel[i].abi == LT_ABI_AUTO) {
			/* bits, no scan: legacy by default */
			assert_int_equal(rule, LT_ABI_BY_DEFAULT);
			assert_int_equal(abi, LT_ABI_LEGACY);
		} else {
			assert_int_equal(rule, LT_ABI_BY_RELEASE);
			assert_int_equal(abi, rel[i].abi);
		}
	}
}

/* Detect from @h; check the ABI and the rule; the reason in @c. */
static void expect(const struct lt_abi_hints *h, struct lt_abi_choice *c,
		   enum lt_abi abi, enum lt_abi_rule rule)
{
	lt_abi_detect(h, c);
	assert_string_equal(lt_abi_name(c->abi), lt_abi_name(abi));
	assert_int_equal(c->rule, rule);
}

/* The rules in their order, and the scan run only when it decides. */
static void test_abi_rules(void **state)
{
	struct lt_abi_hints h = {
		.release = "6.12.118-lazy",
		.lazy_bit_arch = "x86_64",
		.scan_lazy_bit = scan,
		.scan_ctx = (void *)(uintptr_t)3,
	};
	struct lt_abi_choice c;

	(void)state;
	scans = 0;
	expect(&h, &c, LT_ABI_MAINLINE, LT_ABI_BY_LAZY_BIT);
	assert_non_null(strstr(c.reason, "x86_64"));
	assert_int_equal(scans, 1);

	/* no lazy bit seen: legacy, naming the kernel */
	h.scan_ctx = NULL;
	expect(&h, &c, LT_ABI_LEGACY, LT_ABI_BY_DEFAULT);
	assert_non_null(strstr(c.reason, "6.12.118-lazy"));

	/* 0x02 means "irq flags unsupported" elsewhere: no scan */
	h.scan_ctx = (void *)(uintptr_t)3;
	h.lazy_bit_arch = NULL;
	scans = 0;
	expect(&h, &c, LT_ABI_LEGACY, LT_ABI_BY_DEFAULT);

	/* the release before the scan, the field before the release */
	h.lazy_bit_arch = "aarch64";
	h.release = "6.1.0-18-rt-amd64";
	expect(&h, &c, LT_ABI_RT_LAZY, LT_ABI_BY_RELEASE);
	h.release = "7.2.13+deb14-arm64";
	h.lazy_count_field = true;
	expect(&h, &c, LT_ABI_RT_LAZY, LT_ABI_BY_FIELD);
	h.given = LT_ABI_POC2023;
	expect(&h, &c, LT_ABI_POC2023, LT_ABI_BY_OPTION);
	assert_int_equal(scans, 0);

	/* text: letters, read under mainline until one settles the layout */
	memset(&h, 0, sizeof(h));
	h.text = true;
	h.release = "5.10.0-32-686";
	expect(&h, &c, LT_ABI_MAINLINE, LT_ABI_BY_DEFAULT);
	h.x_letter = true;
	expect(&h, &c, LT_ABI_LEGACY, LT_ABI_BY_LETTERS);
	h.x_letter = false;
	h.lazy_letter = true;
	expect(&h, &c, LT_ABI_MAINLINE, LT_ABI_BY_LETTERS);
	/* a release that settles it outranks the letters */
	h.x_letter = true;
	h.release = "6.6.15-rt22";
	expect(&h, &c, LT_ABI_RT_LAZY, LT_ABI_BY_RELEASE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_byte),
		cmocka_unit_test(test_legacy_letters),
		cmocka_unit_test(test_decode_names),
		cmocka_unit_test(test_abi_names),
		cmocka_unit_test(test_abi_release),
		cmocka_unit_test(test_abi_rules),
	};

	return cmocka_run_group_tests_name("flags", tests, NULL, NULL);
}
