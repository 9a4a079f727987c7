// SPDX-License-Identifier: GPL-2.0
/*
 * An event copied for another thread (lt_dat_pack(), lt_dat_unpack() in
 * libdecode/read/lt-dat.c): every event of bundled recordings, copied by
 * one reader and made again by a second reader of the same file, is the
 * event the first one read: its header, names and comm, the members of
 * its kind (functions copied as addresses and named again), a stack's
 * addresses. Recordings with big-endian data, lost
 * events, kernel stacks, the need-resched probe, a print, function and
 * function_graph events. And a span ended before its end
 * (lt_dat_span_end()): the events before the new end, then, read on from
 * it, the rest, as one reader reads them.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "lazytrace.h"
#include "../../libdecode/read/lt-internal.h"
#include "test-data.h"

/* What the kinds seen add up to, for the test to say it saw them. */
struct seen {
	size_t events, missed, stacks, frames;
	size_t kind[LT_EV_KIND_MAX];
};

static void same_event(const struct lt_event *a, const struct lt_event *b)
{
	unsigned int i;

	assert_int_equal(a->ts, b->ts);
	assert_int_equal(a->missed, b->missed);
	assert_int_equal(a->cpu, b->cpu);
	assert_int_equal(a->pid, b->pid);
	assert_int_equal(a->flags, b->flags);
	assert_int_equal(a->preempt_count, b->preempt_count);
	assert_int_equal(a->kind, b->kind);
	assert_string_equal(a->comm, b->comm);
	assert_string_equal(a->system, b->system);
	assert_string_equal(a->name, b->name);
	switch (a->kind) {
	case LT_EV_HRTIMER_START:
		assert_int_equal(a->u.hrtimer.expires, b->u.hrtimer.expires);
		/* fall through */
	case LT_EV_HRTIMER_EXPIRE_ENTRY:
		/* copied as an address, named again */
		assert_string_equal(a->u.hrtimer.func, b->u.hrtimer.func);
		return;
	case LT_EV_FUNCTION:
		assert_string_equal(a->u.function.func, b->u.function.func);
		assert_string_equal(a->u.function.parent,
				    b->u.function.parent);
		return;
	case LT_EV_KERNEL_STACK:
		break;
	default:
		assert_memory_equal(&a->u, &b->u, lt_event_payload_size(a));
		return;
	}
	assert_int_equal(a->u.stack.nr, b->u.stack.nr);
	assert_int_equal(a->u.stack.truncated, b->u.stack.truncated);
	assert_true(!a->u.stack.syms == !b->u.stack.syms);
	assert_null(b->u.stack.text);
	for (i = 0; i < a->u.stack.nr; i++)
		assert_int_equal(a->u.stack.ip[i], b->u.stack.ip[i]);
}

static void pack_all(const char *name, struct seen *seen)
{
	struct lt_open_opts o = { 0 };
	struct lt_reader *r, *again;
	const struct lt_event *ev;
	struct lt_event *made;
	char err[LT_ERR_LEN];
	size_t size, cap = 1 << 16;
	char *buf;

	r = lt_reader_open(data(name), &o, err, sizeof(err));
	assert_non_null(r);
	again = lt_reader_open(data(name), &o, err, sizeof(err));
	assert_non_null(again);
	/* room for the largest copy and the bytes it may write after it */
	buf = aligned_alloc(8, cap + sizeof(struct lt_event));
	made = malloc(sizeof(*made));
	assert_non_null(buf);
	assert_non_null(made);
	memset(seen, 0, sizeof(*seen));
	while ((ev = lt_reader_next(r))) {
		size = lt_dat_pack(r, ev, NULL);
		assert_true(size <= cap);
		assert_int_equal(size % 8, 0);
		assert_int_equal(lt_dat_pack(r, ev, buf), size);
		memset(made, 0x5a, sizeof(*made));
		assert_int_equal(lt_dat_unpack(again, buf, made), size);
		same_event(ev, made);
		seen->events++;
		seen->missed += ev->missed != 0;
		seen->kind[ev->kind]++;
		if (ev->kind == LT_EV_KERNEL_STACK) {
			seen->stacks++;
			seen->frames += ev->u.stack.nr;
		}
	}
	assert_null(lt_reader_error(r));
	free(made);
	free(buf);
	lt_reader_close(again);
	lt_reader_close(r);
}

static void test_sched(void **state)
{
	struct seen s;

	(void)state;
	pack_all("lazy612-msg-full.dat", &s);
	assert_true(s.kind[LT_EV_HRTIMER_EXPIRE_ENTRY] > 1000);
	assert_int_equal(s.events, 116623);
	assert_true(s.kind[LT_EV_SCHED_SWITCH] > 10000);
	assert_true(s.kind[LT_EV_SCHED_WAKING] > 10000);
	assert_true(s.kind[LT_EV_FUNCTION] > 1000);
}

static void test_big_endian(void **state)
{
	struct seen s;

	(void)state;
	pack_all("stock/stock72-allevents-s390x.dat", &s);
	assert_int_equal(s.events, 51975);
	assert_true(s.kind[LT_EV_SCHED_SWITCH] > 0);
	assert_true(s.kind[LT_EV_OTHER] > 0);
	assert_int_equal(s.kind[LT_EV_PRINT], 1);
}

static void test_stacks(void **state)
{
	struct seen s;

	(void)state;
	pack_all("stock/stock72-lazy-nohrtick-stacks.dat", &s);
	assert_int_equal(s.stacks, 487);
	assert_true(s.frames > 487 * 4);
	assert_int_equal(s.kind[LT_EV_SET_NEED_RESCHED], 1063);
}

static void test_lost_and_graph(void **state)
{
	struct seen s;

	(void)state;
	pack_all("old/bullseye510-fgraph-armhf.dat", &s);
	assert_true(s.missed > 0);
	assert_int_equal(s.kind[LT_EV_OTHER], 224);
}

/* Events of @r until its span ends: their times into @ts from @n on. */
static size_t read_to_end(struct lt_reader *r, uint64_t *ts, size_t n,
			  size_t cap)
{
	const struct lt_event *ev;

	while ((ev = lt_reader_next(r))) {
		assert_true(n < cap);
		ts[n++] = ev->ts;
	}
	assert_null(lt_reader_error(r));
	return n;
}

static void test_span_end(void **state)
{
	const char *name = "stock/stock72-allevents-s390x.dat";
	struct lt_open_opts o = { 0 };
	size_t n_all, n, i, cap = 1 << 17;
	struct lt_reader *r, *span;
	uint64_t *all, *got, to;
	char err[LT_ERR_LEN];

	(void)state;
	all = malloc(cap * sizeof(*all));
	got = malloc(cap * sizeof(*got));
	assert_non_null(all);
	assert_non_null(got);
	r = lt_reader_open(data(name), &o, err, sizeof(err));
	span = lt_reader_open(data(name), &o, err, sizeof(err));
	assert_non_null(r);
	assert_non_null(span);
	n_all = read_to_end(r, all, 0, cap);
	assert_int_equal(n_all, 51975);
	/* no span to end before one is read */
	assert_int_equal(lt_dat_span_end(span, all[n_all / 2]), -1);
	assert_int_equal(lt_dat_read_span(span, 0, UINT64_MAX), 0);
	for (n = 0; n < n_all / 3; n++)
		got[n] = lt_reader_next(span)->ts;
	/* the first time after those read */
	for (i = n; i < n_all && all[i] == all[n - 1]; i++)
		;
	assert_true(i < n_all);
	to = all[i];
	assert_int_equal(lt_dat_span_end(span, 0), -1);
	assert_int_equal(lt_dat_span_end(span, to), 0);
	n = read_to_end(span, got, n, cap);
	assert_int_equal(n, i);
	/* ended: it cannot be moved, and the next span reads on from it */
	assert_int_equal(lt_dat_span_end(span, to + 1), -1);
	assert_int_equal(lt_dat_read_span(span, to, UINT64_MAX), 0);
	n = read_to_end(span, got, n, cap);
	assert_int_equal(n, n_all);
	assert_memory_equal(all, got, n_all * sizeof(*all));
	lt_reader_close(span);
	lt_reader_close(r);
	free(got);
	free(all);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sched),
		cmocka_unit_test(test_big_endian),
		cmocka_unit_test(test_stacks),
		cmocka_unit_test(test_lost_and_graph),
		cmocka_unit_test(test_span_end),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
