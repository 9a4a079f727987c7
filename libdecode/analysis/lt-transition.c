// SPDX-License-Identifier: LGPL-2.1
/*
 * The transition state machine of docs/model.md §4: per CPU, in timestamp order,
 * the need-resched bits of consecutive events of the same current task
 * are compared, and every change is named (lazy, eager, upgrade,
 * tick-upgrade, fold) until the request is served (preempted, yielded,
 * blocked, cleared) or its end is unknown (truncated).
 *
 * The flags of an event always describe the task current on the CPU
 * that wrote it, so all state is per CPU; a sched_switch hands the CPU
 * to a task whose bits start clear (__schedule() clears them).
 */
#include <stdlib.h>
#include <string.h>

#include "lt-analysis.h"
#include "../read/lt-internal.h"

/* CPUs beyond this are treated as corrupt input and ignored. */
#define LT_MAX_CPUS 8192

static const char *const tr_names[LT_TR_KIND_MAX] = {
	[LT_TR_LAZY] = "lazy",
	[LT_TR_EAGER] = "eager",
	[LT_TR_UPGRADE] = "upgrade",
	[LT_TR_TICK_UPGRADE] = "tick-upgrade",
	[LT_TR_FOLD] = "fold",
	[LT_TR_PREEMPTED] = "preempted",
	[LT_TR_YIELDED] = "yielded",
	[LT_TR_BLOCKED] = "blocked",
	[LT_TR_CLEARED] = "cleared",
	[LT_TR_TRUNCATED] = "truncated",
};

static const char *const lat_names[LT_LAT_KIND_MAX] = {
	[LT_LAT_LAZY_SERVED] = "lazy_served",
	[LT_LAT_EAGER_SERVED] = "eager_served",
	[LT_LAT_LAZY_UPGRADE] = "lazy_upgrade",
	[LT_LAT_FOLD_SERVED] = "fold_served",
};

const char *lt_transition_name(enum lt_transition_kind kind)
{
	if ((unsigned int)kind >= LT_TR_KIND_MAX)
		return "?";
	return tr_names[kind];
}

bool lt_transition_is_served(enum lt_transition_kind kind)
{
	return kind >= LT_TR_PREEMPTED && kind <= LT_TR_CLEARED;
}

static const char *const upg_names[LT_UPG_SOURCE_MAX] = {
	[LT_UPG_TICK] = "tick",
	[LT_UPG_HRTICK] = "hrtick",
	[LT_UPG_TIMER] = "timer",
	[LT_UPG_IRQ] = "irq",
	[LT_UPG_DIRECT] = "direct",
};

const char *lt_upgrade_source_name(enum lt_upgrade_source src)
{
	if ((unsigned int)src >= LT_UPG_SOURCE_MAX)
		return "?";
	return upg_names[src];
}

const char *lt_tick_source_name(enum lt_tick_source src)
{
	switch (src) {
	case LT_TICK_TIMER_FUNCTION:
		return "timer_function";
	case LT_TICK_OPTION:
		return "option";
	case LT_TICK_SETUP:
		return "setup";
	case LT_TICK_HZ_OPTION:
		return "hz_option";
	case LT_TICK_UNKNOWN:
		return "unknown";
	case LT_TICK_GRID:
		return "timer_grid";
	default:
		return "estimate";
	}
}

const char *lt_latency_name(enum lt_latency_kind kind)
{
	if ((unsigned int)kind >= LT_LAT_KIND_MAX)
		return "?";
	return lat_names[kind];
}

struct lt_analysis *lt_analysis_new(const struct lt_analysis_opts *opts)
{
	struct lt_analysis *a = calloc(1, sizeof(*a));

	if (!a)
		return NULL;
	if (opts)
		a->opts = *opts;
	if (a->opts.episode_ticks <= 0)
		a->opts.episode_ticks = 0.5;
	if (!a->opts.hog_episodes)
		a->opts.hog_episodes = 3;
	if (a->opts.hog_pending_ticks <= 0)
		a->opts.hog_pending_ticks = 2;
	a->abi = a->opts.abi == LT_ABI_AUTO ? LT_ABI_MAINLINE : a->opts.abi;
	a->sum.abi = a->abi;
	return a;
}

static struct lt_cpu *cpu_get(struct lt_analysis *a, int cpu)
{
	if (cpu < 0 || cpu >= LT_MAX_CPUS)
		return NULL;
	if (cpu >= a->nr_cpus_alloc) {
		int n = cpu + 1 > 2 * a->nr_cpus_alloc ? cpu + 1 :
			2 * a->nr_cpus_alloc;
		struct lt_cpu *nc = realloc(a->cpus, n * sizeof(*nc));

		if (!nc)
			return NULL;
		memset(nc + a->nr_cpus_alloc, 0,
		       (n - a->nr_cpus_alloc) * sizeof(*nc));
		a->cpus = nc;
		a->nr_cpus_alloc = n;
	}
	return &a->cpus[cpu];
}

static int cpu_of(const struct lt_analysis *a, const struct lt_cpu *c)
{
	return c - a->cpus;
}

static void emit_src(struct lt_analysis *a, struct lt_cpu *c,
		     struct lt_task *t, enum lt_transition_kind kind,
		     uint64_t ts, const struct lt_req *req,
		     enum lt_transition_kind req_kind, char letter_after,
		     enum lt_upgrade_source src, const struct lt_req *made)
{
	struct lt_transition tr = {
		.kind = kind,
		.seen_ns = ts,
		.after_ns = c->seen && c->last_ts <= ts ? c->last_ts : ts,
		.cpu = cpu_of(a, c),
		.pid = t->st.pid,
		.task_id = t->st.id,
		.comm = t->st.comm,
		.request = req ? req_kind : kind,
		.syscall = LT_SYSCALL_UNKNOWN,
		.letter_before = c->letter ? c->letter : '.',
		.letter_after = letter_after,
		.source = src,
		.requester_pid = -1,
		.requester_comm = "",
	};

	tr.since_ns = req ? req->seen : tr.seen_ns;
	tr.since_after_ns = req ? req->after : tr.after_ns;
	if (kind == LT_TR_TICK_UPGRADE)
		tr.syscall = t->syscall;
	if (made && made->request_ns) {
		tr.request_ns = made->request_ns;
		tr.requester_pid = made->requester_pid;
		tr.requester_comm = made->requester_comm;
	}
	t->st.count[kind]++;
	a->sum.count[kind]++;
	if (a->opts.on_transition)
		a->opts.on_transition(&tr, a->opts.data);
}

static void emit(struct lt_analysis *a, struct lt_cpu *c, struct lt_task *t,
		 enum lt_transition_kind kind, uint64_t ts,
		 const struct lt_req *req, enum lt_transition_kind req_kind,
		 char letter_after)
{
	emit_src(a, c, t, kind, ts, req, req_kind, letter_after, LT_UPG_TICK,
		 NULL);
}

/*
 * The probe event that made the request of @t now showing on @c: the
 * oldest one waiting for a lazy request (it came first), the newest for
 * an eager one or an upgrade (it came last). Used once.
 */
static bool take_probe(struct lt_cpu *c, const struct lt_task *t, bool oldest,
		       struct lt_req *into)
{
	int i, best = -1;

	for (i = 0; i < c->nr_probe; i++) {
		if (c->probe[i].pid != t->st.pid)
			continue;
		if (best < 0 || !oldest)
			best = i;
	}
	if (best < 0)
		return false;
	into->request_ns = c->probe[best].ts;
	into->requester_pid = c->probe[best].requester_pid;
	memcpy(into->requester_comm, c->probe[best].requester_comm,
	       sizeof(into->requester_comm));
	c->nr_probe--;
	memmove(&c->probe[best], &c->probe[best + 1],
		(c->nr_probe - best) * sizeof(c->probe[0]));
	return true;
}

static void add_probe(struct lt_analysis *a, const struct lt_event *ev)
{
	struct lt_cpu *tc = ev->u.resched.cpu >= 0 &&
			    ev->u.resched.cpu < a->nr_cpus_alloc ?
			    &a->cpus[ev->u.resched.cpu] : NULL;
	struct lt_probe *p;

	a->sum.requests_probe = true;
	if (!tc)
		return;
	if (tc->nr_probe == LT_PROBES_PER_CPU) {
		tc->nr_probe--;
		memmove(&tc->probe[0], &tc->probe[1],
			tc->nr_probe * sizeof(tc->probe[0]));
	}
	p = &tc->probe[tc->nr_probe++];
	p->ts = ev->ts;
	p->pid = ev->u.resched.pid;
	p->requester_pid = ev->pid;
	lt_strlcpy(p->requester_comm, ev->comm ? ev->comm : "",
		   sizeof(p->requester_comm));
}

static void req_open(struct lt_cpu *c, struct lt_task *t, struct lt_req *r,
		     uint64_t ts, bool oldest_probe)
{
	if (r->open)
		return;
	memset(r, 0, sizeof(*r));
	r->open = true;
	r->seen = ts;
	r->after = c->seen && c->last_ts <= ts ? c->last_ts : ts;
	/* An exact request time replaces the flags' window. */
	if (t && take_probe(c, t, oldest_probe, r) && r->request_ns <= ts) {
		r->seen = r->request_ns;
		r->after = r->request_ns;
		t->st.requested++;
	} else {
		r->request_ns = 0;
	}
	r->irq_at_open = lt_hogs_irq_time(c, r->seen);
}

/* The oldest open request of the CPU's current task, or NULL. */
static const struct lt_req *oldest_req(struct lt_cpu *c,
				       enum lt_transition_kind *kind)
{
	const struct lt_req *best = NULL;

	if (c->lazy.open) {
		best = &c->lazy;
		*kind = LT_TR_LAZY;
	}
	if (c->eager.open && (!best || c->eager.seen < best->seen)) {
		best = &c->eager;
		*kind = LT_TR_EAGER;
	}
	if (c->fold.open && (!best || c->fold.seen < best->seen)) {
		best = &c->fold;
		*kind = LT_TR_FOLD;
	}
	return best;
}

/*
 * End every open request of @t on @c: served as @kind, or truncated
 * (%LT_TR_TRUNCATED), which never enters a latency.
 */
static void end_requests(struct lt_analysis *a, struct lt_cpu *c,
			 struct lt_task *t, enum lt_transition_kind kind,
			 uint64_t ts, char letter)
{
	enum lt_transition_kind rk = LT_TR_LAZY;
	const struct lt_req *req = oldest_req(c, &rk);
	bool served = kind != LT_TR_TRUNCATED;

	if (!req)
		return;
	emit(a, c, t, kind, ts, req, rk, letter);
	if (c->lazy.open) {
		if (served)
			lt_task_latency(a, t, LT_LAT_LAZY_SERVED,
					ts - c->lazy.seen);
		lt_hogs_request_end(a, c, t, &c->lazy, ts, kind);
	}
	if (c->eager.open && served)
		lt_task_latency(a, t, LT_LAT_EAGER_SERVED, ts - c->eager.seen);
	if (c->fold.open && served)
		lt_task_latency(a, t, LT_LAT_FOLD_SERVED, ts - c->fold.seen);
	memset(&c->lazy, 0, sizeof(c->lazy));
	memset(&c->eager, 0, sizeof(c->eager));
	memset(&c->fold, 0, sizeof(c->fold));
}

/*
 * Whether an upgrade seen now was made by the tick. A traced
 * resched_curr names its caller, which is the best evidence; else the
 * hrtimer tick handler's window; else, when the tick shows up only as
 * the x86 local timer interrupt, that interrupt's window.
 */
static bool in_tick(const struct lt_cpu *c)
{
	if (c->fn_traced)
		return c->tick_resched;
	if (c->in_tick_hrtimer)
		return true;
	return c->in_local_timer && !c->hrtimer_ticks;
}

/*
 * What made an upgrade: the tick as above; else the hrtimer running now
 * (hrtick is the slice timer). A reschedule IPI only delivers a request
 * another CPU made outside any interrupt of ours: direct. Else any
 * interrupt context, which the event's own flags show, is irq; and the
 * rest (the task itself, or a remote CPU's wakeup) is direct.
 */
static enum lt_upgrade_source upgrade_source(const struct lt_cpu *c,
					     const struct lt_bits *f,
					     enum lt_event_kind shown_by)
{
	if (in_tick(c))
		return LT_UPG_TICK;
	if (c->hrtimer_src && c->hrtimer_src - 1 != LT_UPG_TICK)
		return c->hrtimer_src - 1;
	if (shown_by == LT_EV_RESCHEDULE_ENTRY)
		return LT_UPG_DIRECT;
	if (c->in_local_timer || c->in_irq || f->irq)
		return LT_UPG_IRQ;
	return LT_UPG_DIRECT;
}

static void upgrade(struct lt_analysis *a, struct lt_cpu *c, struct lt_task *t,
		    uint64_t ts, const struct lt_bits *f, char letter,
		    enum lt_event_kind shown_by)
{
	enum lt_upgrade_source src = upgrade_source(c, f, shown_by);
	bool tick = src == LT_UPG_TICK;
	enum lt_transition_kind kind = tick ? LT_TR_TICK_UPGRADE :
					       LT_TR_UPGRADE;
	const struct lt_req *req = c->lazy.open ? &c->lazy : NULL;
	struct lt_req made = { 0 };

	if (take_probe(c, t, false, &made) && made.request_ns <= ts)
		t->st.requested++;
	else
		made.request_ns = 0;
	t->st.upgrades_by_source[src]++;
	a->sum.upgrades_by_source[src]++;
	emit_src(a, c, t, kind, ts, req, LT_TR_LAZY, letter, src, &made);
	if (tick) {
		lt_task_upgrade_syscall(t, t->syscall);
		c->tick_resched = false;
	}
	if (c->lazy.open && !c->lazy.upgraded) {
		c->lazy.upgraded = true;
		c->lazy.upgrade_ns = ts;
		c->lazy.upgrade_src = src;
		lt_task_latency(a, t, LT_LAT_LAZY_UPGRADE, ts - c->lazy.seen);
	}
}

/* What changed in (E, L, P) since the previous event of the same task. */
static void transitions(struct lt_analysis *a, struct lt_cpu *c,
			struct lt_task *t, uint64_t ts,
			const struct lt_bits *f, char letter, bool switch_out,
			enum lt_event_kind shown_by)
{
	bool e = f->e, l = f->l, p = f->p;

	if (l && !c->l && (!e || !c->e)) {
		/* A lazy request; with E rising too, it was upgraded since. */
		req_open(c, t, &c->lazy, ts, true);
		emit_src(a, c, t, LT_TR_LAZY, ts, NULL, LT_TR_LAZY, letter,
			 LT_UPG_TICK, &c->lazy);
	}
	if (e && !c->e) {
		if (l) {
			upgrade(a, c, t, ts, f, letter, shown_by);
		} else {
			req_open(c, t, &c->eager, ts, false);
			c->eager.src = upgrade_source(c, f, shown_by);
			c->eager.ipi = shown_by == LT_EV_RESCHEDULE_ENTRY;
			emit_src(a, c, t, LT_TR_EAGER, ts, NULL, LT_TR_EAGER,
				 letter, LT_UPG_TICK, &c->eager);
		}
	}
	if (p && !c->p) {
		req_open(c, NULL, &c->fold, ts, false);
		emit(a, c, t, LT_TR_FOLD, ts, NULL, LT_TR_FOLD, letter);
	}
	if (!e && !l && !p && !switch_out)
		end_requests(a, c, t, LT_TR_CLEARED, ts, letter);
}

static void set_bits(struct lt_cpu *c, const struct lt_bits *f, char letter)
{
	c->e = f->e;
	c->l = f->l;
	c->p = f->p;
	c->letter = letter;
	c->baseline = true;
}

/* The CPU's current task leaves it: credit its run time. */
static void cpu_release(struct lt_cpu *c, uint64_t ts)
{
	struct lt_task *t = c->cur;

	c->ran_from = t ? c->run_start : 0;
	if (!t)
		return;
	if (ts > c->run_start)
		t->st.runtime_ns += ts - c->run_start;
	t->running_on = -1;
	c->cur = NULL;
}

static void cpu_take(struct lt_analysis *a, struct lt_cpu *c,
		     struct lt_task *t, uint64_t ts)
{
	if (t->running_on >= 0 && t->running_on != cpu_of(a, c) &&
	    t->running_on < a->nr_cpus_alloc) {
		/* Its switch-out elsewhere is missing: end it there. */
		struct lt_cpu *o = &a->cpus[t->running_on];

		if (o->cur == t) {
			end_requests(a, o, t, LT_TR_TRUNCATED, ts, '.');
			cpu_release(o, o->last_ts);
			o->baseline = false;
		}
	}
	c->cur = t;
	c->cur_pid = t->st.pid;
	c->run_start = ts;
	t->running_on = cpu_of(a, c);
	t->ran = true;
	lt_task_seen(t, ts);
	if (lt_task_ran_on(t, cpu_of(a, c)))
		a->oom = true;
	lt_preempt_back(a, c, t, ts);
}

/*
 * Names compare equal when one is a prefix of the other: the latency
 * format prints the current task's name cut to 8 characters, the
 * events' fields in full.
 */
static bool comm_differs(const struct lt_task *t, const char *comm)
{
	size_t a, b;

	if (comm && !strcmp(t->st.comm, comm))
		return false;
	if (!comm || !*comm || !strcmp(comm, "<...>") ||
	    !strcmp(t->st.comm, "<...>"))
		return false;
	a = strlen(t->st.comm);
	b = strlen(comm);
	return strncmp(t->st.comm, comm, a < b ? a : b) != 0;
}

/* Keep the longest form of a name seen for the task. */
static void comm_complete(struct lt_task *t, const char *comm)
{
	/* The same name again, the common case: nothing to learn. */
	if (comm && !strcmp(t->st.comm, comm))
		return;
	if (comm && strlen(comm) > strlen(t->st.comm) &&
	    strcmp(t->st.comm, "<...>") && !comm_differs(t, comm))
		lt_task_set_comm(t, comm);
	else if (!strcmp(t->st.comm, "<...>"))
		lt_task_set_comm(t, comm);
}

/*
 * The record for a task named by an event. A pid names a new task when
 * the old one is gone (exited, or switched out dead), or when a task
 * that is not running comes back under another name: exec renames a
 * task only while it runs, so a different name at a wakeup or a
 * switch-in is a different task.
 */
static struct lt_task *task_ref(struct lt_analysis *a, struct lt_cpu *c,
				int pid, const char *comm, uint64_t ts)
{
	int cpu = cpu_of(a, c);
	struct lt_task *t = lt_task_lookup(a, pid, cpu);
	bool same;

	if (pid == 0) {
		if (!t)
			t = lt_task_new(a, 0, cpu, comm, ts);
		if (!t)
			a->oom = true;
		return t;
	}
	/* the same name again, the common case: one comparison */
	same = t && comm && !strcmp(t->st.comm, comm);
	if (t && t->life != LT_TASK_GONE &&
	    (same || t->running_on >= 0 || !comm_differs(t, comm))) {
		lt_task_seen(t, ts);
		if (!same)
			comm_complete(t, comm);
		return t;
	}
	if (t)
		t->life = LT_TASK_GONE;
	t = lt_task_new(a, pid, cpu, comm, ts);
	if (!t)
		a->oom = true;
	return t;
}

/* Lost events: nothing open on the CPU can be trusted any more. */
static void lost(struct lt_analysis *a, struct lt_cpu *c,
		 const struct lt_event *ev)
{
	if (ev->missed == LT_MISSED_UNKNOWN) {
		c->lost_unknown = true;
		a->sum.lost_unknown++;
	} else {
		c->lost += ev->missed;
		a->sum.lost_events += ev->missed;
	}
	if (c->cur)
		end_requests(a, c, c->cur, LT_TR_TRUNCATED, ev->ts, '.');
	cpu_release(c, c->last_ts);
	c->baseline = false;
	c->in_local_timer = 0;
	c->in_tick_hrtimer = false;
	c->in_irq = false;
	c->irq_tick_counted = false;
	c->tick_resched = false;
	c->hrtimer_src = 0;
	c->nr_probe = 0;
	c->last_tick = 0;
	c->tail = false;
}

/* The task current on @c at @ev, switching records if the pid changed. */
static struct lt_task *current_task(struct lt_analysis *a, struct lt_cpu *c,
				    const struct lt_event *ev)
{
	struct lt_task *t;

	if (c->cur && c->cur_pid == ev->pid) {
		lt_task_seen(c->cur, ev->ts);
		return c->cur;
	}
	/*
	 * Another task without a sched_switch: events are missing (or the
	 * task was the recorder, whose events are not traced). The unseen
	 * switch cleared the bits, so a waiting probe was for the old one.
	 */
	if (c->cur) {
		end_requests(a, c, c->cur, LT_TR_TRUNCATED, ev->ts, '.');
		cpu_release(c, c->last_ts);
	}
	c->nr_probe = 0;
	c->baseline = false;
	t = task_ref(a, c, ev->pid, ev->comm, ev->ts);
	if (t)
		cpu_take(a, c, t, ev->ts);
	return t;
}

static bool dead_state(const char *s)
{
	return strchr(s, 'Z') || strchr(s, 'X');
}

static void do_switch(struct lt_analysis *a, struct lt_cpu *c,
		      struct lt_task *prev, const struct lt_event *ev,
		      char letter)
{
	static const enum lt_transition_kind served[] = {
		[LT_PREV_PREEMPTED] = LT_TR_PREEMPTED,
		[LT_PREV_YIELDED] = LT_TR_YIELDED,
		[LT_PREV_BLOCKED] = LT_TR_BLOCKED,
	};
	unsigned int st = ev->u.sched_switch.prev_state;
	struct lt_task *next;

	if (st > LT_PREV_BLOCKED)
		st = LT_PREV_BLOCKED;
	a->sum.switches[st]++;
	c->ran_from = 0;
	if (prev) {
		if (prev->st.pid)
			lt_task_set_comm(prev, ev->u.sched_switch.prev_comm);
		prev->st.switches[st]++;
		/* before the requests end: what forced it */
		if (st == LT_PREV_PREEMPTED)
			lt_preempt_switch(a, c, prev, ev);
		end_requests(a, c, prev, served[st], ev->ts, letter);
		if (dead_state(ev->u.sched_switch.prev_state_str))
			prev->life = LT_TASK_GONE;
		cpu_release(c, ev->ts);
	}
	next = task_ref(a, c, ev->u.sched_switch.next_pid,
			ev->u.sched_switch.next_comm, ev->ts);
	if (next)
		cpu_take(a, c, next, ev->ts);
	/* after cpu_take(): a task coming back counts who ran before it */
	if (ev->u.sched_switch.next_pid)
		c->switch_ins++;
	c->e = c->l = c->p = false;
	c->letter = '.';
	c->baseline = next != NULL;
	c->tick_resched = false;
	/* __schedule() cleared the bits: a probe not yet shown was for prev */
	c->nr_probe = 0;
}

static void tick_arrival(struct lt_analysis *a, struct lt_cpu *c, uint64_t ts)
{
	if (c->last_tick && ts > c->last_tick &&
	    lt_hogs_spacing(c, ts - c->last_tick))
		a->oom = true;
	c->last_tick = ts;
	c->ticks++;
	a->sum.ticks++;
	lt_hogs_tick(a, c, ts);
}

static bool is_tick_handler(const char *fn)
{
	return !strcmp(fn, "tick_nohz_handler") ||
	       !strcmp(fn, "tick_sched_timer") ||
	       !strcmp(fn, "tick_nohz_highres_handler") ||
	       !strcmp(fn, "tick_sched_do_timer");
}

/* The scheduler's slice timer (CONFIG_SCHED_HRTICK). */
static bool is_hrtick(const char *fn)
{
	return !strcmp(fn, "hrtick");
}

/* "sched_tick" or "sched_tick+0x4c/0x1a0" */
static bool name_is(const char *s, const char *name)
{
	size_t n = strlen(name);

	return !strncmp(s, name, n) && (s[n] == '\0' || s[n] == '+');
}

static void irq_enter(struct lt_cpu *c, uint64_t ts)
{
	if (c->in_irq)
		return;
	c->in_irq = true;
	c->irq_start = ts;
}

static void irq_exit(struct lt_cpu *c, uint64_t ts)
{
	if (!c->in_irq)
		return;
	c->in_irq = false;
	if (ts > c->irq_start)
		c->irq_ns += ts - c->irq_start;
}

static void context(struct lt_analysis *a, struct lt_cpu *c,
		    const struct lt_event *ev)
{
	switch (ev->kind) {
	case LT_EV_LOCAL_TIMER_ENTRY:
		irq_enter(c, ev->ts);
		c->in_local_timer++;
		c->irq_tick_counted = false;
		if (!c->hrtimer_ticks) {
			tick_arrival(a, c, ev->ts);
			c->irq_tick_counted = true;
		}
		break;
	case LT_EV_LOCAL_TIMER_EXIT:
		if (c->in_local_timer)
			c->in_local_timer--;
		if (!c->in_local_timer)
			irq_exit(c, ev->ts);
		c->irq_tick_counted = false;
		c->tick_resched = false;
		break;
	case LT_EV_HRTIMER_EXPIRE_ENTRY:
		if (!is_tick_handler(ev->u.hrtimer.func)) {
			c->hrtimer_src = 1 + (is_hrtick(ev->u.hrtimer.func) ?
					      LT_UPG_HRTICK : LT_UPG_TIMER);
			break;
		}
		c->hrtimer_src = 1 + LT_UPG_TICK;
		c->in_tick_hrtimer = true;
		c->hrtimer_ticks = true;
		a->hrtimer_ticks = true;
		irq_enter(c, ev->ts);
		/*
		 * Every tick handler run is a tick (a slow interrupt can run
		 * several), but the first local timer interrupt of a CPU was
		 * already counted before the handler showed up.
		 */
		if (!c->irq_tick_counted)
			tick_arrival(a, c, ev->ts);
		c->irq_tick_counted = false;
		break;
	case LT_EV_HRTIMER_START:
		if (is_tick_handler(ev->u.hrtimer.func))
			lt_hogs_grid(c, ev->u.hrtimer.expires);
		break;
	case LT_EV_HRTIMER_EXPIRE_EXIT:
		c->hrtimer_src = 0;
		if (!c->in_tick_hrtimer)
			break;
		c->in_tick_hrtimer = false;
		c->tick_resched = false;
		if (!c->in_local_timer)
			irq_exit(c, ev->ts);
		break;
	case LT_EV_FUNCTION:
		/* 7.x traces the common __resched_curr too */
		if (!name_is(ev->u.function.func, "resched_curr") &&
		    !name_is(ev->u.function.func, "__resched_curr"))
			break;
		c->fn_traced = true;
		c->tick_resched = name_is(ev->u.function.parent, "sched_tick") ||
				  name_is(ev->u.function.parent, "scheduler_tick");
		break;
	case LT_EV_SET_NEED_RESCHED:
		add_probe(a, ev);
		break;
	case LT_EV_PRINT:
		if (!a->sum.setup.found)
			lt_setup_parse(ev->u.print.buf, &a->sum.setup);
		if (!a->lazy_state[0])
			lt_setup_lazy(ev->u.print.buf, a->lazy_state,
				      sizeof(a->lazy_state), a->lazy_reason,
				      sizeof(a->lazy_reason));
		break;
	default:
		break;
	}
}

static void task_events(struct lt_analysis *a, struct lt_cpu *c,
			struct lt_task *cur, const struct lt_event *ev)
{
	struct lt_task *t;

	switch (ev->kind) {
	case LT_EV_SCHED_WAKING:
	case LT_EV_SCHED_WAKEUP:
		task_ref(a, c, ev->u.wakeup.pid, ev->u.wakeup.comm, ev->ts);
		break;
	case LT_EV_SCHED_WAKEUP_NEW:
	case LT_EV_SCHED_PROCESS_FORK:
		/* A new task, unless the fork already made its record. */
		t = lt_task_lookup(a, ev->kind == LT_EV_SCHED_PROCESS_FORK ?
				   ev->u.process.pid : ev->u.wakeup.pid,
				   cpu_of(a, c));
		/* fork hands out a free pid: whoever had it is gone */
		if (t && t->st.pid && t->running_on < 0 &&
		    (t->ran || ev->kind == LT_EV_SCHED_PROCESS_FORK))
			t->life = LT_TASK_GONE;
		if (ev->kind == LT_EV_SCHED_PROCESS_FORK)
			task_ref(a, c, ev->u.process.pid, ev->u.process.comm,
				 ev->ts);
		else
			task_ref(a, c, ev->u.wakeup.pid, ev->u.wakeup.comm,
				 ev->ts);
		break;
	case LT_EV_SCHED_PROCESS_EXIT:
		t = lt_task_lookup(a, ev->u.process.pid, cpu_of(a, c));
		if (t && t->st.pid && t->life == LT_TASK_ALIVE)
			t->life = LT_TASK_EXITING;
		break;
	case LT_EV_SYS_ENTER:
		if (cur)
			cur->syscall = ev->u.syscall.id;
		break;
	case LT_EV_SYS_EXIT:
		if (cur)
			cur->syscall = LT_SYSCALL_USER;
		break;
	default:
		break;
	}
}

/* Decoding every event's flags is the hot path: decode each value once. */
static void bits_table(struct lt_analysis *a)
{
	unsigned int v;

	for (v = 0; v < 256; v++) {
		struct lt_flags f = lt_flags_decode(a->abi, v);

		a->bits[v].e = f.need_resched;
		a->bits[v].l = f.need_resched_lazy;
		a->bits[v].p = f.preempt_resched;
		a->bits[v].irq = f.hardirq || f.softirq;
		a->bits[v].softirq = f.softirq;
		a->bits[v].letter = lt_flags_resched_letter(a->abi, v);
	}
	a->bits_ready = true;
}

int lt_analysis_feed(struct lt_analysis *a, const struct lt_event *ev)
{
	const struct lt_bits *f;
	struct lt_cpu *c;
	struct lt_task *t;
	char letter;
	bool switch_out;

	if (a->finished)
		return 0;
	/* the probe's target CPU first: growing the table moves the CPUs */
	if (ev->kind == LT_EV_SET_NEED_RESCHED && !cpu_get(a, ev->u.resched.cpu) &&
	    ev->u.resched.cpu >= 0 && ev->u.resched.cpu < LT_MAX_CPUS)
		a->oom = true;
	c = cpu_get(a, ev->cpu);
	if (!c) {
		a->oom = ev->cpu >= 0 && ev->cpu < LT_MAX_CPUS;
		return a->oom ? -1 : 0;
	}
	if (!a->sum.events || ev->ts < a->sum.first_ns)
		a->sum.first_ns = ev->ts;
	if (ev->ts > a->sum.last_ns)
		a->sum.last_ns = ev->ts;
	if (ev->cpu + 1 > a->sum.nr_cpus)
		a->sum.nr_cpus = ev->cpu + 1;
	a->sum.events++;
	if (ev->missed)
		lost(a, c, ev);

	if (!a->bits_ready)
		bits_table(a);
	f = &a->bits[ev->flags & 0xff];
	letter = f->letter;
	if (f->l)
		a->sum.lazy_seen = true;
	/*
	 * From interrupt context straight into softirqs: the CPU ran the
	 * softirqs an interrupt's exit invokes, not the task, since its last
	 * event. Like time in timer interrupts, that is not held against the
	 * task's pending requests (an emulator that stalls a CPU there made
	 * a task look like a hog).
	 */
	if (f->softirq && c->last_irq && !c->in_irq && c->seen &&
	    ev->ts > c->last_ts)
		c->irq_ns += ev->ts - c->last_ts;
	if (c->tail && (ev->pid != c->tail_pid ||
			ev->kind == LT_EV_SCHED_SWITCH))
		c->tail = false;
	if (ev->kind == LT_EV_KERNEL_STACK || c->tail) {
		/*
		 * A stack is taken in the context of the event it follows,
		 * and the context switch writes events (x86_fpu) before the
		 * next task runs: after a sched_switch they carry the task
		 * that left, not the current one. They change neither the
		 * task nor its bits.
		 */
		if (ev->kind == LT_EV_KERNEL_STACK)
			lt_preempt_stack(a, c, ev);
		else
			c->preempt_slot = NULL;
		context(a, c, ev);
		lt_stack_feed(a, c, ev);
		c->last_ts = ev->ts;
		c->seen = true;
		goto out;
	}
	c->preempt_slot = NULL;
	t = current_task(a, c, ev);
	switch_out = ev->kind == LT_EV_SCHED_SWITCH;
	if (t && c->baseline)
		transitions(a, c, t, ev->ts, f, letter, switch_out,
			    ev->kind);
	/*
	 * A switch ends the task's requests with the letter its last event
	 * showed (the letter before); the bits it leaves are cleared there.
	 */
	if (t && !switch_out)
		set_bits(c, f, letter);
	if (switch_out) {
		do_switch(a, c, t, ev, letter);
		c->tail_pid = ev->pid;
		c->tail = ev->pid != ev->u.sched_switch.next_pid;
	}
	else
		task_events(a, c, t, ev);
	context(a, c, ev);
	lt_stack_feed(a, c, ev);
	c->last_ts = ev->ts;
	c->last_irq = f->irq;
	if (ev->kind != LT_EV_FUNCTION) {
		c->ctx_irq = f->irq;
		c->ctx_softirq = f->softirq;
	}
	c->seen = true;
out:
	if (a->oom) {
		a->oom = false;
		return -1;
	}
	return 0;
}

void lt_analysis_finish(struct lt_analysis *a)
{
	int i;

	if (a->finished)
		return;
	for (i = 0; i < a->nr_cpus_alloc; i++) {
		struct lt_cpu *c = &a->cpus[i];

		if (c->cur)
			end_requests(a, c, c->cur, LT_TR_TRUNCATED, c->last_ts,
				     c->letter);
		cpu_release(c, c->last_ts);
	}
	a->finished = true;
	lt_preempt_finish(a);
	lt_stats_finish(a);
	lt_hogs_finish(a);
}

int lt_analysis_run(struct lt_analysis *a, struct lt_reader *r)
{
	const struct lt_event *ev;
	int ret = 0;

	if (a->opts.abi == LT_ABI_AUTO) {
		a->abi = lt_reader_abi(r, NULL);
		if (a->abi == LT_ABI_AUTO)
			a->abi = LT_ABI_MAINLINE;
		a->sum.abi = a->abi;
		a->bits_ready = false;
	}
	while ((ev = lt_reader_next(r)))
		if (lt_analysis_feed(a, ev))
			ret = -1;
	if (lt_reader_error(r))
		ret = -1;
	lt_analysis_finish(a);
	return ret;
}

/* Documented in lazytrace.h. */
const char *lt_analysis_lazy_capability(const struct lt_analysis *a,
					const char **reason)
{
	if (a->lazy_state[0]) {
		*reason = a->lazy_reason;
		return a->lazy_state;
	}
	/* no setup line says: what the events show */
	if (a->sum.lazy_seen) {
		*reason = "lazy requests in the trace";
		return "active";
	}
	*reason = "no setup line says, and no event carries the lazy bit";
	return "unknown";
}

uint64_t lt_analysis_switch_ran_from(const struct lt_analysis *a, int cpu)
{
	if (cpu < 0 || cpu >= a->nr_cpus_alloc)
		return 0;
	return a->cpus[cpu].ran_from;
}

const struct lt_analysis_summary *lt_analysis_summary(const struct lt_analysis *a)
{
	return &a->sum;
}

uint64_t lt_analysis_lost(const struct lt_analysis *a, int cpu, bool *unknown)
{
	if (unknown)
		*unknown = false;
	if (cpu < 0 || cpu >= a->nr_cpus_alloc)
		return 0;
	if (unknown)
		*unknown = a->cpus[cpu].lost_unknown;
	return a->cpus[cpu].lost;
}

const struct lt_task_stats *lt_analysis_task(const struct lt_analysis *a,
					     size_t i)
{
	if (!a->finished || i >= a->nr_tasks)
		return NULL;
	return &a->tasks[i]->st;
}

const struct lt_task_stats *const *lt_analysis_hogs(const struct lt_analysis *a,
						    size_t *nr)
{
	*nr = a->finished ? a->nr_hogs : 0;
	return *nr ? a->hogs : NULL;
}

void lt_analysis_free(struct lt_analysis *a)
{
	int i;

	if (!a)
		return;
	for (i = 0; i < a->nr_cpus_alloc; i++)
		free(a->cpus[i].spacing);
	lt_preempt_free(a);
	lt_stack_free(a);
	lt_stats_free(a);
	free(a->cand);
	free(a->hogs);
	free(a->cpus);
	free(a);
}
