// SPDX-License-Identifier: GPL-2.0
/*
 * Tick identification and upgrade sources on real recordings: the tick
 * is told by its hrtimer function (4 ms at HZ=250) even where the slice
 * timer shares its vector; every upgrade has one source, the sources add
 * up, a tick-upgrade is exactly an upgrade whose source is the tick; the
 * probe's request times come before the flags show the request; and the
 * setup line parses.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "lazytrace.h"
#include "../../libdecode/analysis/lt-analysis.h"
#include "test-data.h"


struct seen {
	uint64_t by_source[LT_UPG_SOURCE_MAX];
	uint64_t tick_upgrades;
	uint64_t probed;	/* transitions with an exact request time */
	uint64_t bad_order;	/* request_ns after seen_ns */
	uint64_t no_requester;
};

static void on_tr(const struct lt_transition *t, void *data)
{
	struct seen *s = data;

	if (t->kind == LT_TR_UPGRADE || t->kind == LT_TR_TICK_UPGRADE) {
		assert_true((unsigned int)t->source < LT_UPG_SOURCE_MAX);
		s->by_source[t->source]++;
		/* a tick-upgrade is an upgrade made by the tick, no more */
		assert_int_equal(t->kind == LT_TR_TICK_UPGRADE,
				 t->source == LT_UPG_TICK);
		s->tick_upgrades += t->kind == LT_TR_TICK_UPGRADE;
	}
	if (t->request_ns) {
		s->probed++;
		s->bad_order += t->request_ns > t->seen_ns;
		s->no_requester += t->requester_pid < 0 ||
				   !t->requester_comm[0];
	}
}

static struct lt_analysis *run(const char *name, struct seen *s)
{
	struct lt_analysis_opts ao = { .on_transition = on_tr, .data = s };
	struct lt_reader *r;
	struct lt_analysis *a;
	char err[512];

	memset(s, 0, sizeof(*s));
	r = lt_reader_open(data(name), NULL, err, sizeof(err));
	if (!r)
		fail_msg("open %s: %s", name, err);
	a = lt_analysis_new(&ao);
	assert_non_null(a);
	assert_int_equal(lt_analysis_run(a, r), 0);
	lt_reader_close(r);
	return a;
}

/* Sources add up globally, per task, and match the callback. */
static void check_sums(struct lt_analysis *a, const struct seen *s)
{
	const struct lt_analysis_summary *sum = lt_analysis_summary(a);
	uint64_t total = 0, tasks[LT_UPG_SOURCE_MAX] = { 0 };
	size_t i;
	int k;

	for (k = 0; k < LT_UPG_SOURCE_MAX; k++) {
		assert_int_equal(sum->upgrades_by_source[k], s->by_source[k]);
		total += sum->upgrades_by_source[k];
	}
	assert_int_equal(total, sum->count[LT_TR_UPGRADE] +
			 sum->count[LT_TR_TICK_UPGRADE]);
	assert_int_equal(sum->upgrades_by_source[LT_UPG_TICK],
			 sum->count[LT_TR_TICK_UPGRADE]);
	for (i = 0; i < sum->nr_tasks; i++) {
		const struct lt_task_stats *t = lt_analysis_task(a, i);
		uint64_t n = 0;

		for (k = 0; k < LT_UPG_SOURCE_MAX; k++) {
			n += t->upgrades_by_source[k];
			tasks[k] += t->upgrades_by_source[k];
		}
		assert_int_equal(n, t->count[LT_TR_UPGRADE] +
				 t->count[LT_TR_TICK_UPGRADE]);
	}
	for (k = 0; k < LT_UPG_SOURCE_MAX; k++)
		assert_int_equal(tasks[k], sum->upgrades_by_source[k]);
}

static void assert_tick_4ms(const struct lt_analysis_summary *sum)
{
	assert_int_equal(sum->tick_source, LT_TICK_TIMER_FUNCTION);
	assert_in_range(sum->tick_ns, 3800000, 4200000);
}

/* Our patched 6.12: the tick is an hrtimer; hogs upgraded by the tick. */
static void test_lazy612_hogs(void **state)
{
	struct seen s;
	struct lt_analysis *a = run("lazy612-hogs.dat", &s);
	const struct lt_analysis_summary *sum = lt_analysis_summary(a);
	const struct lt_task_stats *const *h;
	size_t nr, i;

	(void)state;
	assert_tick_4ms(sum);
	check_sums(a, &s);
	assert_false(sum->requests_probe);
	assert_false(sum->setup.found);
	assert_int_equal(s.probed, 0);
	assert_int_equal(sum->upgrades_by_source[LT_UPG_HRTICK], 0);
	h = lt_analysis_hogs(a, &nr);
	assert_int_equal(nr, 3);
	for (i = 0; i < nr; i++)
		assert_true(h[i]->upgrades_by_source[LT_UPG_TICK] > 50);
	lt_analysis_free(a);
}

/* Stock 7.2, HRTICK: hrtick fires through the tick's vector. */
static void test_stock72_hrtick(void **state)
{
	struct seen s;
	struct lt_analysis *a = run("stock/stock72-lazy-hrtick.dat", &s);
	const struct lt_analysis_summary *sum = lt_analysis_summary(a);

	(void)state;
	assert_tick_4ms(sum);
	check_sums(a, &s);
	assert_true(sum->upgrades_by_source[LT_UPG_HRTICK] > 1000);
	assert_int_equal(sum->upgrades_by_source[LT_UPG_TICK], 0);
	assert_int_equal(sum->nr_hogs, 0);
	assert_true(sum->requests_probe);
	assert_true(s.probed > 1000);
	assert_int_equal(s.bad_order, 0);
	assert_int_equal(s.no_requester, 0);
	assert_true(sum->setup.found);
	assert_string_equal(sum->setup.preempt, "lazy");
	assert_int_equal(sum->setup.hz, 250);
	lt_analysis_free(a);
}

/* Stock 7.2, NO_HRTICK: the tick upgrades, the dd are hogs. */
static void test_stock72_nohrtick(void **state)
{
	struct seen s;
	struct lt_analysis *a = run("stock/stock72-lazy-nohrtick-stacks.dat",
				    &s);
	const struct lt_analysis_summary *sum = lt_analysis_summary(a);
	const struct lt_task_stats *const *h;
	size_t nr, i;
	int dd = 0;

	(void)state;
	assert_tick_4ms(sum);
	check_sums(a, &s);
	assert_true(sum->upgrades_by_source[LT_UPG_TICK] > 100);
	assert_int_equal(sum->upgrades_by_source[LT_UPG_HRTICK], 0);
	h = lt_analysis_hogs(a, &nr);
	for (i = 0; i < nr; i++)
		dd += h[i]->pid >= 219 && h[i]->pid <= 221;
	assert_int_equal(dd, 3);
	assert_int_equal(s.bad_order, 0);
	lt_analysis_free(a);
}

static void test_setup_parse(void **state)
{
	struct lt_setup st = { 0 };

	(void)state;
	assert_int_equal(lt_setup_parse("hello", &st), -1);
	assert_false(st.found);
	assert_int_equal(lt_setup_parse("lazytrace-setup: release=7.2.13+deb14-amd64 preempt=lazy hz=250 sched_features=HRTICK,NO_HRTICK_DL",
					&st), 0);
	assert_true(st.found);
	assert_string_equal(st.release, "7.2.13+deb14-amd64");
	assert_string_equal(st.preempt, "lazy");
	assert_int_equal(st.hz, 250);
	assert_string_equal(st.sched_features, "HRTICK,NO_HRTICK_DL");
	/* unknown fields are left out, nonsense HZ is not a setting */
	assert_int_equal(lt_setup_parse("lazytrace-setup: hz=99999999 foo=bar",
					&st), 0);
	assert_int_equal(st.hz, 0);
	assert_string_equal(st.release, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lazy612_hogs),
		cmocka_unit_test(test_stock72_hrtick),
		cmocka_unit_test(test_stock72_nohrtick),
		cmocka_unit_test(test_setup_parse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
