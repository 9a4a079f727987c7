// SPDX-License-Identifier: GPL-2.0
/*
 * The transition state machine (docs/model.md §4, §5) and the hog rules
 * (§7) on hand-written event sequences: every transition kind, the three tick
 * sources, the four ways of being served, lost events, pid reuse, the
 * global switch table, hog episodes and the percentile structure; and
 * the letters before of every transition and the episode hook on real
 * recordings.
 *
 * Flags are written as the kernel's need-resched letter and turned into
 * the mainline ABI's bits here (E 0x04, L 0x02, P 0x20), from
 * docs/model.md §2.
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

#define E 0x04
#define L 0x02
#define P 0x20

static unsigned int bits(char letter)
{
	switch (letter) {
	case 'B': return E | L | P;
	case 'N': return E | P;
	case 'L': return L | P;
	case 'b': return E | L;
	case 'n': return E;
	case 'p': return P;
	case 'l': return L;
	default: return 0;
	}
}

#define MAX_TR 4096

struct rec {
	struct lt_transition t[MAX_TR];
	char comm[MAX_TR][LT_COMM_LEN];
	int nr;
};

static void record(const struct lt_transition *t, void *data)
{
	struct rec *r = data;

	if (r->nr == MAX_TR)
		return;
	r->t[r->nr] = *t;
	snprintf(r->comm[r->nr], LT_COMM_LEN, "%s", t->comm);
	r->t[r->nr].comm = r->comm[r->nr];
	r->nr++;
}

struct fix {
	struct rec rec;
	struct lt_analysis *a;
	struct lt_event ev;
};

static struct fix *fix_new(const struct lt_analysis_opts *extra)
{
	struct fix *f = calloc(1, sizeof(*f));
	struct lt_analysis_opts o = { 0 };

	assert_non_null(f);
	if (extra)
		o = *extra;
	o.abi = LT_ABI_MAINLINE;
	o.on_transition = record;
	o.data = &f->rec;
	f->a = lt_analysis_new(&o);
	assert_non_null(f->a);
	return f;
}

static void fix_free(struct fix *f)
{
	lt_analysis_free(f->a);
	free(f);
}

/* Start an event: time in us, CPU, current pid and its need-resched letter. */
static struct lt_event *ev(struct fix *f, uint64_t us, int cpu, int pid,
			   const char *comm, char letter,
			   enum lt_event_kind kind)
{
	memset(&f->ev, 0, sizeof(f->ev));
	f->ev.ts = us * 1000;
	f->ev.cpu = cpu;
	f->ev.pid = pid;
	f->ev.comm = comm;
	f->ev.flags = bits(letter) | 0x01;
	f->ev.kind = kind;
	f->ev.system = "";
	f->ev.name = "";
	return &f->ev;
}

static void feed(struct fix *f)
{
	assert_int_equal(lt_analysis_feed(f->a, &f->ev), 0);
}

static void other(struct fix *f, uint64_t us, int cpu, int pid, char letter)
{
	ev(f, us, cpu, pid, "task", letter, LT_EV_OTHER);
	feed(f);
}

static void irq(struct fix *f, uint64_t us, int cpu, int pid, char letter,
		enum lt_event_kind kind)
{
	ev(f, us, cpu, pid, "task", letter, kind);
	feed(f);
}

static void hrtimer(struct fix *f, uint64_t us, int cpu, int pid, char letter,
		    const char *fn)
{
	ev(f, us, cpu, pid, "task", letter, LT_EV_HRTIMER_EXPIRE_ENTRY);
	snprintf(f->ev.u.hrtimer.func, sizeof(f->ev.u.hrtimer.func), "%s", fn);
	feed(f);
}

static void function(struct fix *f, uint64_t us, int cpu, int pid, char letter,
		     const char *fn, const char *parent)
{
	ev(f, us, cpu, pid, "task", letter, LT_EV_FUNCTION);
	snprintf(f->ev.u.function.func, sizeof(f->ev.u.function.func), "%s", fn);
	snprintf(f->ev.u.function.parent, sizeof(f->ev.u.function.parent), "%s",
		 parent);
	feed(f);
}

static void sw(struct fix *f, uint64_t us, int cpu, int prev,
	       const char *prev_comm, const char *state, int next,
	       const char *next_comm, char letter)
{
	struct lt_event *e = ev(f, us, cpu, prev, prev_comm, letter,
				LT_EV_SCHED_SWITCH);

	snprintf(e->u.sched_switch.prev_comm, LT_COMM_LEN, "%s", prev_comm);
	e->u.sched_switch.prev_pid = prev;
	snprintf(e->u.sched_switch.prev_state_str,
		 sizeof(e->u.sched_switch.prev_state_str), "%s", state);
	e->u.sched_switch.prev_state =
		!strcmp(state, "R+") ? LT_PREV_PREEMPTED :
		!strcmp(state, "R") ? LT_PREV_YIELDED : LT_PREV_BLOCKED;
	snprintf(e->u.sched_switch.next_comm, LT_COMM_LEN, "%s", next_comm);
	e->u.sched_switch.next_pid = next;
	feed(f);
}

static void wakeup(struct fix *f, uint64_t us, int cpu, int cur, int pid,
		   const char *comm)
{
	struct lt_event *e = ev(f, us, cpu, cur, "task", '.',
				LT_EV_SCHED_WAKEUP);

	e->u.wakeup.pid = pid;
	snprintf(e->u.wakeup.comm, LT_COMM_LEN, "%s", comm);
	feed(f);
}

static const struct lt_task_stats *task(struct fix *f, int pid, int nth)
{
	const struct lt_analysis_summary *s = lt_analysis_summary(f->a);
	size_t i;

	for (i = 0; i < s->nr_tasks; i++) {
		const struct lt_task_stats *t = lt_analysis_task(f->a, i);

		if (t->pid == pid && nth-- == 0)
			return t;
	}
	return NULL;
}

static void expect_kinds(struct fix *f, int pid, const char *want)
{
	char got[1024] = "";
	int i;

	for (i = 0; i < f->rec.nr; i++) {
		if (f->rec.t[i].pid != pid)
			continue;
		if (*got)
			strcat(got, " ");
		strcat(got, lt_transition_name(f->rec.t[i].kind));
	}
	assert_string_equal(got, want);
}

static const struct lt_transition *find(struct fix *f, int pid,
					enum lt_transition_kind kind)
{
	int i;

	for (i = 0; i < f->rec.nr; i++)
		if (f->rec.t[i].pid == pid && f->rec.t[i].kind == kind)
			return &f->rec.t[i];
	return NULL;
}

/* The sched_set_need_resched probe: pid asked to reschedule on cpu. */
static void probe(struct fix *f, uint64_t us, int cpu, int cur, int pid,
		  int target_cpu)
{
	struct lt_event *e = ev(f, us, cpu, cur, "task", '.',
				LT_EV_SET_NEED_RESCHED);

	e->u.resched.pid = pid;
	e->u.resched.cpu = target_cpu;
	e->u.resched.tif = 4;
	feed(f);
}

/*
 * A probe for the task current on a CPU, then another task's events
 * there with no sched_switch between (the recorder's own, untraced, ran
 * meanwhile): the unseen switch cleared the bits, so the probe must not
 * date a later request of the first task.
 */
static void test_probe_dropped_by_unseen_switch(void **state)
{
	struct fix *f = fix_new(NULL);
	const struct lt_transition *t;

	other(f, 1000, 1, 100, '.');
	probe(f, 1100, 0, 300, 100, 1);
	other(f, 2000, 1, 200, '.');	/* no switch seen: 100 went */
	other(f, 21000, 1, 100, '.');	/* and came back, unseen too */
	other(f, 21100, 1, 100, 'l');
	t = find(f, 100, LT_TR_LAZY);
	assert_non_null(t);
	assert_int_equal(t->seen_ns, 21100 * 1000);
	assert_int_equal(t->request_ns, 0);
	fix_free(f);
}

/* lazy -> tick-upgrade (x86 local timer) -> fold -> preempted. */
static void test_lazy_tick_upgrade_local_timer(void **state)
{
	struct fix *f = fix_new(NULL);
	const struct lt_task_stats *t;
	const struct lt_transition *tr;

	other(f, 1000, 0, 100, '.');
	other(f, 2000, 0, 100, 'l');
	irq(f, 3000, 0, 100, 'l', LT_EV_LOCAL_TIMER_ENTRY);
	other(f, 3100, 0, 100, 'B');
	irq(f, 3200, 0, 100, 'B', LT_EV_LOCAL_TIMER_EXIT);
	sw(f, 3300, 0, 100, "hog", "R+", 200, "other", '.');
	lt_analysis_finish(f->a);

	expect_kinds(f, 100, "lazy tick-upgrade fold preempted");
	tr = find(f, 100, LT_TR_LAZY);
	assert_int_equal(tr->seen_ns, 2000000);
	assert_int_equal(tr->after_ns, 1000000);
	tr = find(f, 100, LT_TR_TICK_UPGRADE);
	assert_int_equal(tr->request, LT_TR_LAZY);
	assert_int_equal(tr->seen_ns - tr->since_ns, 1100000);
	assert_int_equal(tr->after_ns, 3000000);
	tr = find(f, 100, LT_TR_PREEMPTED);
	assert_true(lt_transition_is_served(tr->kind));
	assert_int_equal(tr->request, LT_TR_LAZY);

	t = task(f, 100, 0);
	assert_non_null(t);
	assert_string_equal(t->comm, "hog");
	assert_int_equal(t->count[LT_TR_LAZY], 1);
	assert_int_equal(t->count[LT_TR_TICK_UPGRADE], 1);
	assert_int_equal(t->count[LT_TR_UPGRADE], 0);
	assert_int_equal(t->latency[LT_LAT_LAZY_SERVED].count, 1);
	assert_int_equal(t->latency[LT_LAT_LAZY_SERVED].max, 1300000);
	assert_int_equal(t->latency[LT_LAT_LAZY_UPGRADE].max, 1100000);
	assert_int_equal(t->latency[LT_LAT_FOLD_SERVED].max, 200000);
	assert_int_equal(t->runtime_ns, 2300000);
	fix_free(f);
}

/*
 * Once the tick shows up as an hrtimer, only the tick handler's window
 * counts: another hrtimer inside the same interrupt is not the tick.
 */
static void test_hrtimer_tick_source(void **state)
{
	struct fix *f = fix_new(NULL);

	other(f, 1000, 1, 100, '.');
	other(f, 2000, 1, 100, 'l');
	irq(f, 3000, 1, 100, 'l', LT_EV_LOCAL_TIMER_ENTRY);
	hrtimer(f, 3010, 1, 100, 'l', "tick_nohz_handler");
	irq(f, 3020, 1, 100, 'B', LT_EV_HRTIMER_EXPIRE_EXIT);
	irq(f, 3030, 1, 100, 'B', LT_EV_LOCAL_TIMER_EXIT);
	sw(f, 3040, 1, 100, "a", "R+", 101, "b", '.');
	/* The RT wakeup from another hrtimer: an upgrade, not the tick. */
	other(f, 4000, 1, 101, 'l');
	irq(f, 5000, 1, 101, 'l', LT_EV_LOCAL_TIMER_ENTRY);
	hrtimer(f, 5010, 1, 101, 'l', "hrtimer_wakeup");
	irq(f, 5020, 1, 101, 'b', LT_EV_HRTIMER_EXPIRE_EXIT);
	irq(f, 5030, 1, 101, 'b', LT_EV_LOCAL_TIMER_EXIT);
	sw(f, 5040, 1, 101, "b", "R+", 102, "rt", '.');
	lt_analysis_finish(f->a);

	expect_kinds(f, 100, "lazy tick-upgrade fold preempted");
	expect_kinds(f, 101, "lazy upgrade preempted");
	fix_free(f);
}

/* A traced resched_curr names its caller: the best evidence. */
static void test_resched_curr_function(void **state)
{
	struct fix *f = fix_new(NULL);

	other(f, 1000, 0, 100, '.');
	other(f, 2000, 0, 100, 'l');
	function(f, 3000, 0, 100, 'l', "resched_curr", "sched_tick");
	other(f, 3010, 0, 100, 'B');
	sw(f, 3020, 0, 100, "a", "R+", 101, "b", '.');
	other(f, 4000, 0, 101, 'l');
	/* Inside the local timer, but called from a wakeup. */
	irq(f, 5000, 0, 101, 'l', LT_EV_LOCAL_TIMER_ENTRY);
	function(f, 5010, 0, 101, 'l', "resched_curr", "wakeup_preempt");
	other(f, 5020, 0, 101, 'b');
	irq(f, 5030, 0, 101, 'b', LT_EV_LOCAL_TIMER_EXIT);
	sw(f, 5040, 0, 101, "b", "R+", 102, "rt", '.');
	lt_analysis_finish(f->a);

	expect_kinds(f, 100, "lazy tick-upgrade fold preempted");
	expect_kinds(f, 101, "lazy upgrade preempted");
	fix_free(f);
}

/* eager -> yielded; eager -> blocked; lazy -> cleared; fold alone. */
static void test_served_four_ways(void **state)
{
	struct fix *f = fix_new(NULL);
	const struct lt_analysis_summary *s;
	const struct lt_task_stats *t;

	other(f, 1000, 0, 100, '.');
	other(f, 1500, 0, 100, 'n');
	sw(f, 2000, 0, 100, "a", "R", 101, "b", '.');
	other(f, 2100, 0, 101, 'N');
	sw(f, 2600, 0, 101, "b", "S", 100, "a", '.');
	other(f, 3000, 0, 100, 'l');
	other(f, 3040, 0, 100, '.');
	other(f, 3100, 0, 100, 'p');
	sw(f, 3200, 0, 100, "a", "R+", 0, "swapper/0", '.');
	lt_analysis_finish(f->a);

	expect_kinds(f, 100, "eager yielded lazy cleared fold preempted");
	expect_kinds(f, 101, "eager fold blocked");
	t = task(f, 100, 0);
	assert_int_equal(t->latency[LT_LAT_EAGER_SERVED].max, 500000);
	assert_int_equal(t->latency[LT_LAT_LAZY_SERVED].max, 40000);
	assert_int_equal(t->count[LT_TR_CLEARED], 1);
	assert_int_equal(t->switches[LT_PREV_YIELDED], 1);
	assert_int_equal(t->switches[LT_PREV_PREEMPTED], 1);
	t = task(f, 101, 0);
	assert_int_equal(t->count[LT_TR_BLOCKED], 1);
	assert_int_equal(t->latency[LT_LAT_FOLD_SERVED].max, 500000);
	s = lt_analysis_summary(f->a);
	assert_int_equal(s->switches[LT_PREV_PREEMPTED], 1);
	assert_int_equal(s->switches[LT_PREV_YIELDED], 1);
	assert_int_equal(s->switches[LT_PREV_BLOCKED], 1);
	assert_true(s->lazy_seen);
	fix_free(f);
}

/* Lost events end open requests as truncated, out of every latency. */
static void test_lost_events(void **state)
{
	struct fix *f = fix_new(NULL);
	const struct lt_task_stats *t;
	bool unknown;

	other(f, 1000, 1, 100, '.');
	other(f, 2000, 1, 100, 'l');
	ev(f, 9000, 1, 100, "task", 'l', LT_EV_OTHER);
	f->ev.missed = 5;
	feed(f);
	other(f, 9500, 1, 100, '.');
	ev(f, 9600, 1, 100, "task", '.', LT_EV_OTHER);
	f->ev.missed = LT_MISSED_UNKNOWN;
	feed(f);
	lt_analysis_finish(f->a);

	expect_kinds(f, 100, "lazy truncated");
	t = task(f, 100, 0);
	assert_int_equal(t->count[LT_TR_TRUNCATED], 1);
	assert_int_equal(t->latency[LT_LAT_LAZY_SERVED].count, 0);
	assert_int_equal(lt_analysis_summary(f->a)->lost_events, 5);
	assert_int_equal(lt_analysis_summary(f->a)->lost_unknown, 1);
	assert_int_equal(lt_analysis_lost(f->a, 1, &unknown), 5);
	assert_true(unknown);
	assert_int_equal(lt_analysis_lost(f->a, 0, &unknown), 0);
	fix_free(f);
}

/* A dead task's pid, or a sleeping pid under a new name, is a new task. */
static void test_pid_reuse(void **state)
{
	struct fix *f = fix_new(NULL);
	struct lt_event *e;

	other(f, 1000, 0, 300, '.');
	other(f, 1100, 0, 300, 'n');
	sw(f, 1200, 0, 300, "first", "Z", 301, "x", '.');
	/* exec renames a running task: the same task */
	sw(f, 1300, 0, 301, "y", "S", 300, "second", '.');
	other(f, 1400, 0, 300, 'n');
	sw(f, 1500, 0, 300, "second", "S", 0, "swapper/0", '.');
	/* a sleeping task woken under another name: pid reused */
	wakeup(f, 1600, 0, 0, 301, "z");
	sw(f, 1700, 0, 0, "swapper/0", "R", 301, "z", '.');
	/* fork hands a sleeping task's pid to a child: its exit was lost */
	e = ev(f, 1800, 0, 301, "z", '.', LT_EV_SCHED_PROCESS_FORK);
	e->u.process.pid = 300;
	snprintf(e->u.process.comm, LT_COMM_LEN, "child");
	feed(f);
	e = ev(f, 1810, 0, 301, "z", '.', LT_EV_SCHED_WAKEUP_NEW);
	e->u.wakeup.pid = 300;
	snprintf(e->u.wakeup.comm, LT_COMM_LEN, "child");
	feed(f);
	lt_analysis_finish(f->a);

	assert_non_null(task(f, 300, 0));
	assert_non_null(task(f, 300, 1));
	/* the fork made a third, and its wakeup_new did not make a fourth */
	assert_string_equal(task(f, 300, 2)->comm, "child");
	assert_null(task(f, 300, 3));
	assert_string_equal(task(f, 300, 1)->comm, "second");
	assert_int_equal(task(f, 300, 0)->count[LT_TR_EAGER], 1);
	assert_int_equal(task(f, 300, 1)->count[LT_TR_EAGER], 1);
	assert_true(task(f, 300, 0)->id != task(f, 300, 1)->id);
	assert_string_equal(task(f, 301, 0)->comm, "y");
	assert_string_equal(task(f, 301, 1)->comm, "z");
	assert_null(task(f, 301, 2));
	/* the idle task's switches count too */
	assert_int_equal(lt_analysis_summary(f->a)->switches[LT_PREV_YIELDED], 1);
	assert_int_equal(lt_analysis_summary(f->a)->switches[LT_PREV_BLOCKED], 3);
	fix_free(f);
}

/*
 * Hogs: the tick (4 ms) raises a lazy request that is still pending at
 * the next tick, which upgrades it: an episode each time. A task that
 * honours its lazy requests within 30 us is not a hog, nor is one whose
 * request is raised just before the tick.
 */
static void test_hogs(void **state)
{
	struct fix *f = fix_new(NULL);
	const struct lt_task_stats *const *h;
	const struct lt_analysis_summary *s;
	uint64_t t0;
	size_t nr;
	int i;

	other(f, 1000, 0, 400, '.');
	for (i = 0; i < 40; i++) {
		int pid = i < 20 ? 400 : 401;

		t0 = 4000 + i * 4000;
		/* the tick: for 400 it upgrades the request of the last tick */
		irq(f, t0, 0, pid, pid == 400 && i ? 'l' : '.',
		    LT_EV_LOCAL_TIMER_ENTRY);
		if (pid == 400 && i) {
			other(f, t0 + 10, 0, pid, 'B');
			irq(f, t0 + 20, 0, pid, 'B', LT_EV_LOCAL_TIMER_EXIT);
			sw(f, t0 + 30, 0, pid, "hog", "R+", pid, "hog", '.');
		}
		/* and raises a new lazy request */
		other(f, t0 + 40, 0, pid, 'l');
		irq(f, t0 + 50, 0, pid, 'l', LT_EV_LOCAL_TIMER_EXIT);
		if (pid == 401) {
			other(f, t0 + 80, 0, pid, '.');
		} else if (i == 19) {
			sw(f, t0 + 100, 0, pid, "hog", "S", 401, "loop", '.');
		}
	}
	/* 402: lazy raised 100 us before a tick, served right after it */
	sw(f, 170000, 0, 401, "loop", "S", 402, "late", '.');
	for (i = 0; i < 5; i++) {
		t0 = 172000 + i * 4000;
		other(f, t0 - 100, 0, 402, 'l');
		irq(f, t0, 0, 402, 'l', LT_EV_LOCAL_TIMER_ENTRY);
		irq(f, t0 + 10, 0, 402, 'l', LT_EV_LOCAL_TIMER_EXIT);
		other(f, t0 + 20, 0, 402, '.');
	}
	lt_analysis_finish(f->a);

	s = lt_analysis_summary(f->a);
	assert_true(s->tick_from_trace);
	assert_in_range(s->tick_ns, 3960000, 4040000);
	h = lt_analysis_hogs(f->a, &nr);
	assert_int_equal(nr, 1);
	assert_int_equal(h[0]->pid, 400);
	assert_int_equal(h[0]->episodes, 19);
	assert_int_equal(h[0]->count[LT_TR_TICK_UPGRADE], 19);
	assert_true(h[0]->hog);
	assert_int_equal(task(f, 401, 0)->episodes, 0);
	assert_false(task(f, 401, 0)->hog);
	assert_int_equal(task(f, 401, 0)->count[LT_TR_CLEARED], 20);
	assert_int_equal(task(f, 402, 0)->episodes, 0);
	assert_false(task(f, 402, 0)->hog);
	fix_free(f);

	/* A stricter threshold makes no hog: 19 episodes < 20. */
	{
		struct lt_analysis_opts o = { .hog_episodes = 20,
					      .hog_pending_ticks = 100 };

		f = fix_new(&o);
		other(f, 1000, 0, 400, '.');
		for (i = 0; i < 20; i++) {
			t0 = 4000 + i * 4000;
			irq(f, t0, 0, 400, i ? 'l' : '.',
			    LT_EV_LOCAL_TIMER_ENTRY);
			if (i) {
				other(f, t0 + 10, 0, 400, 'B');
				sw(f, t0 + 30, 0, 400, "hog", "R+", 400, "hog",
				   '.');
			}
			other(f, t0 + 40, 0, 400, 'l');
			irq(f, t0 + 50, 0, 400, 'l', LT_EV_LOCAL_TIMER_EXIT);
		}
		lt_analysis_finish(f->a);
		lt_analysis_hogs(f->a, &nr);
		assert_int_equal(nr, 0);
		fix_free(f);
	}
}

/* One lazy request pending more than 2 ticks makes a hog by itself. */
static void test_hog_long_request(void **state)
{
	struct fix *f = fix_new(NULL);
	size_t nr;
	int i;

	other(f, 1000, 0, 500, '.');
	for (i = 0; i < 10; i++) {
		irq(f, 2000 + i * 4000, 0, 500, '.', LT_EV_LOCAL_TIMER_ENTRY);
		irq(f, 2010 + i * 4000, 0, 500, '.', LT_EV_LOCAL_TIMER_EXIT);
	}
	other(f, 40100, 0, 500, 'l');
	/* preemption disabled: the upgrade cannot preempt it */
	for (i = 0; i < 4; i++) {
		irq(f, 42000 + i * 4000, 0, 500, i ? 'B' : 'l',
		    LT_EV_LOCAL_TIMER_ENTRY);
		irq(f, 42010 + i * 4000, 0, 500, 'B', LT_EV_LOCAL_TIMER_EXIT);
	}
	sw(f, 54100, 0, 500, "stuck", "R+", 0, "swapper/0", '.');
	lt_analysis_finish(f->a);
	lt_analysis_hogs(f->a, &nr);
	assert_int_equal(nr, 1);
	assert_int_equal(task(f, 500, 0)->max_pending_ns, 14000000);
	fix_free(f);
}

/* Percentiles from the bounded histogram: within 1% of the exact value. */
static void test_percentiles(void **state)
{
	struct fix *f = fix_new(NULL);
	const struct lt_latency *l;
	uint64_t t = 1000;
	int i;

	other(f, t, 0, 600, '.');
	for (i = 1; i <= 1000; i++) {
		/* eager request served after i us, then a new task slot */
		other(f, ++t, 0, 600, 'n');
		t += i;
		sw(f, t, 0, 600, "p", "R", 600, "p", '.');
	}
	lt_analysis_finish(f->a);
	l = &task(f, 600, 0)->latency[LT_LAT_EAGER_SERVED];
	assert_int_equal(l->count, 1000);
	assert_in_range(l->p50, 495000, 505000);
	assert_in_range(l->p90, 891000, 909000);
	assert_in_range(l->p99, 980100, 999900);
	assert_int_equal(l->max, 1000000);
	fix_free(f);

	/* 99 of 100 in one bucket: the three percentiles are all in it */
	f = fix_new(NULL);
	t = 1000;
	other(f, t, 0, 600, '.');
	for (i = 1; i <= 100; i++) {
		other(f, ++t, 0, 600, 'n');
		t += i < 100 ? 5 : 1000;
		sw(f, t, 0, 600, "p", "R", 600, "p", '.');
	}
	lt_analysis_finish(f->a);
	l = &task(f, 600, 0)->latency[LT_LAT_EAGER_SERVED];
	assert_int_equal(l->count, 100);
	assert_in_range(l->p50, 4950, 5050);
	assert_int_equal(l->p90, l->p50);
	assert_int_equal(l->p99, l->p50);
	assert_int_equal(l->max, 1000000);
	fix_free(f);
}

/*
 * No local timer (arm64): the tick is the hrtimer handler alone. With
 * raw_syscalls, a tick-upgrade records where it found the task.
 */
static void test_hrtimer_only_and_syscalls(void **state)
{
	struct fix *f = fix_new(NULL);
	const struct lt_task_stats *t;
	const struct lt_transition *tr;
	struct lt_event *e;
	int i;

	other(f, 1000, 0, 800, '.');
	for (i = 0; i < 3; i++) {
		uint64_t t0 = 4000 + i * 4000;

		e = ev(f, t0 - 2000, 0, 800, "sc", '.',
		       i == 2 ? LT_EV_SYS_EXIT : LT_EV_SYS_ENTER);
		e->u.syscall.id = 39 + i;
		feed(f);
		other(f, t0 - 1000, 0, 800, 'l');
		hrtimer(f, t0, 0, 800, 'l', "tick_sched_timer");
		irq(f, t0 + 10, 0, 800, 'B', LT_EV_HRTIMER_EXPIRE_EXIT);
		sw(f, t0 + 20, 0, 800, "sc", "R+", 800, "sc", '.');
	}
	lt_analysis_finish(f->a);
	expect_kinds(f, 800, "lazy tick-upgrade fold preempted "
		     "lazy tick-upgrade fold preempted "
		     "lazy tick-upgrade fold preempted");
	tr = find(f, 800, LT_TR_TICK_UPGRADE);
	assert_int_equal(tr->syscall, 39);
	t = task(f, 800, 0);
	assert_int_equal(t->upgrades_syscall, 2);
	assert_int_equal(t->upgrades_user, 1);
	assert_true(t->top_syscall == 39 || t->top_syscall == 40);
	assert_int_equal(lt_analysis_summary(f->a)->ticks, 3);
	fix_free(f);
}

/* No lazy bit anywhere: the summary says so; no hogs. */
static void test_no_lazy(void **state)
{
	struct fix *f = fix_new(NULL);
	size_t nr;

	other(f, 1000, 0, 700, '.');
	other(f, 2000, 0, 700, 'N');
	sw(f, 3000, 0, 700, "a", "R+", 0, "swapper/0", '.');
	lt_analysis_finish(f->a);
	assert_false(lt_analysis_summary(f->a)->lazy_seen);
	assert_null(lt_analysis_hogs(f->a, &nr));
	assert_int_equal(nr, 0);
	expect_kinds(f, 700, "eager fold preempted");
	assert_string_equal(lt_transition_name(LT_TR_TICK_UPGRADE),
			    "tick-upgrade");
	assert_string_equal(lt_transition_name(LT_TR_KIND_MAX), "?");
	fix_free(f);
}

/* What the letter test saw of a real recording. */
struct letters {
	enum lt_abi abi;
	char last[64];		/* per CPU: the letter of its last event */
	uint64_t served, served_dot, wrong, total;
};

static void check_letter(const struct lt_transition *t, void *data)
{
	struct letters *l = data;

	assert_in_range(t->cpu, 0, 63);
	l->total++;
	if (t->letter_before != l->last[t->cpu])
		l->wrong++;
	if (lt_transition_is_served(t->kind)) {
		l->served++;
		l->served_dot += t->letter_before == '.';
	}
}

/*
 * On the kernel's own text and the trace.dat of the same buffer: a
 * transition's letter before is the letter the event before it on its
 * CPU printed (that event is the task's: the current task changes only
 * at a switch, which ends its requests). A request still open at its
 * switch showed its bits on the task's last event, so no served row
 * reads '.' before.
 */
static void test_letters_real(void **state)
{
	static const char *const names[] = {
		"lazy612-hogs.txt.xz", "lazy612-hogs.dat",
		"lazy612-msg-lazy.dat", "host618-hogs.dat",
	};
	unsigned int i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		struct letters l = { 0 };
		struct lt_analysis_opts o = { .on_transition = check_letter,
					      .data = &l };
		const struct lt_event *e;
		struct lt_analysis *a;
		struct lt_reader *r;
		char err[512];

		r = lt_reader_open(data(names[i]), NULL, err, sizeof(err));
		if (!r)
			fail_msg("%s", err);
		l.abi = o.abi = lt_reader_abi(r, NULL);
		memset(l.last, '.', sizeof(l.last));
		a = lt_analysis_new(&o);
		assert_non_null(a);
		while ((e = lt_reader_next(r))) {
			assert_int_equal(lt_analysis_feed(a, e), 0);
			assert_in_range(e->cpu, 0, 63);
			l.last[e->cpu] = lt_flags_resched_letter(l.abi,
								 e->flags);
		}
		assert_null(lt_reader_error(r));
		lt_analysis_finish(a);
		print_message("%s: %lu transitions, %lu served, %lu served "
			      "from '.', %lu letters wrong\n", names[i],
			      (unsigned long)l.total, (unsigned long)l.served,
			      (unsigned long)l.served_dot,
			      (unsigned long)l.wrong);
		assert_true(l.served > 100);
		assert_int_equal(l.served_dot, 0);
		assert_int_equal(l.wrong, 0);
		lt_analysis_free(a);
		lt_reader_close(r);
	}
}

/* What the episode hook was told. */
struct episodes {
	uint64_t calls, with_site;
	uint64_t *per_task;	/* by task id */
	size_t nr;
	uint64_t last_since;
};

static void on_episode(const struct lt_episode *ep, void *data)
{
	struct episodes *e = data;

	e->calls++;
	assert_non_null(ep->task);
	assert_true(ep->task->id >= 1 && ep->task->id < e->nr);
	e->per_task[ep->task->id]++;
	assert_in_range(ep->cpu, 0, 8191);
	/* made at or before the tick, pending no longer than since then */
	assert_true(ep->since_ns <= ep->tick_time_ns);
	assert_true(ep->pending_ns > 0);
	assert_true(ep->pending_ns <= ep->tick_time_ns - ep->since_ns);
	if (ep->site) {
		assert_true(ep->site[0] != '\0');
		e->with_site++;
	}
}

/*
 * The episode hook on real recordings (hogs without and with kernel
 * stacks): one call per episode, the calls per task equal to the task's
 * episodes; with stacks, the sites named.
 */
static void test_episode_hook_real(void **state)
{
	static const char *const names[] = {
		"lazy612-hogs.dat",
		"stock/stock72-lazy-nohrtick-stacks.dat",
	};
	unsigned int i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		struct episodes e = { .nr = 1 << 16 };
		const struct lt_analysis_summary *s;
		struct lt_analysis_opts o = { 0 };
		struct lt_analysis *a;
		struct lt_reader *r;
		uint64_t sum = 0;
		char err[512];
		size_t t;

		e.per_task = calloc(e.nr, sizeof(*e.per_task));
		assert_non_null(e.per_task);
		r = lt_reader_open(data(names[i]), NULL, err, sizeof(err));
		if (!r)
			fail_msg("%s", err);
		a = lt_analysis_new(&o);
		assert_non_null(a);
		a->on_episode = on_episode;
		a->episode_data = &e;
		assert_int_equal(lt_analysis_run(a, r), 0);
		s = lt_analysis_summary(a);
		for (t = 0; t < s->nr_tasks; t++) {
			const struct lt_task_stats *st = lt_analysis_task(a, t);

			assert_true(st->id < e.nr);
			assert_int_equal(e.per_task[st->id], st->episodes);
			sum += st->episodes;
		}
		print_message("%s: %lu episodes, %lu calls, %lu with a site\n",
			      names[i], (unsigned long)sum,
			      (unsigned long)e.calls,
			      (unsigned long)e.with_site);
		assert_true(sum > 100);
		assert_int_equal(e.calls, sum);
		/* a trace with stacks names most episodes' sites */
		if (i == 1)
			assert_true(e.with_site * 2 > e.calls);
		else
			assert_int_equal(e.with_site, 0);
		lt_analysis_free(a);
		lt_reader_close(r);
		free(e.per_task);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lazy_tick_upgrade_local_timer),
		cmocka_unit_test(test_hrtimer_tick_source),
		cmocka_unit_test(test_resched_curr_function),
		cmocka_unit_test(test_probe_dropped_by_unseen_switch),
		cmocka_unit_test(test_served_four_ways),
		cmocka_unit_test(test_lost_events),
		cmocka_unit_test(test_pid_reuse),
		cmocka_unit_test(test_hogs),
		cmocka_unit_test(test_hog_long_request),
		cmocka_unit_test(test_percentiles),
		cmocka_unit_test(test_hrtimer_only_and_syscalls),
		cmocka_unit_test(test_no_lazy),
		cmocka_unit_test(test_letters_real),
		cmocka_unit_test(test_episode_hook_real),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
