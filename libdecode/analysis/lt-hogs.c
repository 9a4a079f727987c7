// SPDX-License-Identifier: LGPL-2.1
/*
 * Hogs (docs/model.md §7): tasks that keep the CPU after a lazy request until the
 * tick has to force them off. One hog episode is a lazy request still
 * pending when a tick arrives after being pending for at least half a
 * tick; a task is a hog with enough episodes, or with one request pending
 * for more than a few ticks.
 *
 * The tick length is only known at the end (the median tick spacing), so
 * each lazy request leaves its pending time at the last tick it saw in a
 * per-task histogram, and the episodes are counted from it at the end.
 */
#include <stdlib.h>

#include "lt-analysis.h"

/* Time the CPU spent in timer interrupts up to @ts. */
uint64_t lt_hogs_irq_time(const struct lt_cpu *c, uint64_t ts)
{
	return c->irq_ns + (c->in_irq && ts > c->irq_start ?
			    ts - c->irq_start : 0);
}

/*
 * How long a lazy request has been pending in the task's own time: time
 * in timer interrupts is left out, since the task could not honour the
 * request then (an emulator can spend several tick lengths in one tick).
 */
static uint64_t task_pending(const struct lt_cpu *c, const struct lt_req *r,
			     uint64_t ts)
{
	uint64_t wall = ts > r->seen ? ts - r->seen : 0;
	uint64_t irq = lt_hogs_irq_time(c, ts) - r->irq_at_open;

	return wall > irq ? wall - irq : 0;
}

void lt_hogs_tick(struct lt_analysis *a, struct lt_cpu *c, uint64_t ts)
{
	if (!c->lazy.open)
		return;
	c->lazy.at_tick = task_pending(c, &c->lazy, ts);
	c->lazy.tick_ts = ts;
	if (c->lazy.at_tick)
		c->lazy.ticks++;
}

/* What the episode hook is told of a request a tick saw pending. */
static struct lt_ep_candidate candidate(struct lt_analysis *a,
					const struct lt_cpu *c,
					struct lt_task *t,
					const struct lt_req *lazy, uint64_t end,
					enum lt_transition_kind how)
{
	return (struct lt_ep_candidate){
		.task = t,
		.cpu = c - a->cpus,
		.tick_time_ns = lazy->tick_ts,
		.since_ns = lazy->seen,
		.pending_ns = lazy->at_tick,
		.stack = lazy->stack,
		.after_ns = lazy->after,
		.ticks = lazy->ticks,
		.upgraded = lazy->upgraded,
		.upgrade_ns = lazy->upgrade_ns,
		.upgrade_src = lazy->upgrade_src,
		.end_ns = end,
		.how = how,
	};
}

static void call_episode(struct lt_analysis *a, const struct lt_ep_candidate *k,
			 const struct lt_task_stats *st)
{
	struct lt_episode ep = {
		.task = st,
		.cpu = k->cpu,
		.tick_time_ns = k->tick_time_ns,
		.since_ns = k->since_ns,
		.pending_ns = k->pending_ns,
		.site = lt_stack_site(k->stack),
		.after_ns = k->after_ns,
		.ticks = k->ticks,
		.upgraded = k->upgraded,
		.upgrade_ns = k->upgrade_ns,
		.upgrade_src = k->upgrade_src,
		.end_ns = k->end_ns,
		.how = k->how,
	};

	a->on_episode(&ep, a->episode_data);
}

/*
 * A request a tick saw pending, for lt_analysis.on_episode: judged now
 * if a finished analysis of the same events can say whether it is an
 * episode (its task's histogram, its tick), else kept until the end.
 */
static int episode_candidate(struct lt_analysis *a, const struct lt_cpu *c,
			     struct lt_task *t, const struct lt_req *lazy,
			     uint64_t end, enum lt_transition_kind how)
{
	struct lt_ep_candidate k = candidate(a, c, t, lazy, end, how);
	const struct lt_analysis *j = a->judge;
	struct lt_ep_candidate *e;

	if (j) {
		const struct lt_task *jt = t->st.id >= 1 &&
					   t->st.id <= j->nr_tasks ?
					   j->tasks[t->st.id - 1] : NULL;

		if (jt && jt->st.pid == t->st.pid &&
		    lt_hist_sample_ge(&jt->at_tick, k.pending_ns, j->ep_ns))
			call_episode(a, &k, &jt->st);
		return 0;
	}
	if (a->nr_cand == a->alloc_cand) {
		size_t n = a->alloc_cand ? 2 * a->alloc_cand : 256;

		e = realloc(a->cand, n * sizeof(*e));
		if (!e)
			return -1;
		a->cand = e;
		a->alloc_cand = n;
	}
	a->cand[a->nr_cand++] = k;
	return 0;
}

void lt_hogs_request_end(struct lt_analysis *a, struct lt_cpu *c,
			 struct lt_task *t, const struct lt_req *lazy,
			 uint64_t end, enum lt_transition_kind how)
{
	bool served = how != LT_TR_TRUNCATED;
	uint64_t pending = served && end > lazy->seen ? end - lazy->seen : 0;
	uint64_t own = served ? task_pending(c, lazy, end) : lazy->at_tick;

	if (lazy->at_tick && lt_hist_add(&t->at_tick, lazy->at_tick))
		a->oom = true;
	/* the same requests as the histogram's: one episode each, at most */
	if (lazy->at_tick && a->on_episode &&
	    episode_candidate(a, c, t, lazy, end, how))
		a->oom = true;
	/* An unserved request is known to be pending up to its last tick. */
	if (!served)
		pending = lazy->at_tick;
	else
		t->st.pending_ns += pending;
	if (pending > t->st.max_pending_ns)
		t->st.max_pending_ns = pending;
	if (own > t->max_task_pending)
		t->max_task_pending = own;
	if (lazy->ticks > t->max_ticks)
		t->max_ticks = lazy->ticks;
	if (lt_stack_request_end(a, t, lazy, served ? pending : 0))
		a->oom = true;
}

/* Spacings kept per CPU: 32 KiB, whatever the length of the trace. */
#define LT_SPACING_SAMPLES 4096

/*
 * Keep a uniform sample of a CPU's tick spacings (reservoir sampling
 * with a fixed-seed generator, so results are reproducible).
 */
int lt_hogs_spacing(struct lt_cpu *c, uint64_t ns)
{
	uint64_t x, j;

	if (!c->spacing) {
		c->spacing = malloc(LT_SPACING_SAMPLES * sizeof(*c->spacing));
		if (!c->spacing)
			return -1;
	}
	c->spacings_seen++;
	if (c->nr_spacing < LT_SPACING_SAMPLES) {
		c->spacing[c->nr_spacing++] = ns;
		return 0;
	}
	/* splitmix64 of the count: a fixed pseudo-random index */
	x = c->spacings_seen * 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	x ^= x >> 31;
	j = x % c->spacings_seen;
	if (j < LT_SPACING_SAMPLES)
		c->spacing[j] = ns;
	return 0;
}

/*
 * The tick's timer is set to expire on the tick's grid, one tick after
 * the last expiry while the CPU is busy, a whole number of ticks later
 * after it idled (NO_HZ): the steps between its expiries are exact
 * multiples of the tick, whatever the interrupt latency. Each CPU counts
 * the step lengths it sees (the most frequent LT_GRID_SLOTS, a step that
 * is not there taking the place of the rarest): the shortest step seen
 * three times or more is the tick. Unlike the spacing of the tick's
 * runs, it does not grow on a CPU that idles most of the time.
 */
void lt_hogs_grid(struct lt_cpu *c, uint64_t expires)
{
	uint64_t step = expires - c->grid_last;
	int i, rare = 0;

	if (!expires)
		return;
	if (!c->grid_last || expires <= c->grid_last) {
		c->grid_last = expires;
		return;
	}
	c->grid_last = expires;
	for (i = 0; i < LT_GRID_SLOTS; i++) {
		if (c->grid[i].step == step) {
			c->grid[i].count++;
			return;
		}
		if (c->grid[i].count < c->grid[rare].count)
			rare = i;
	}
	c->grid[rare].step = step;
	c->grid[rare].count = 1;
}

/* The shortest step any CPU saw three times or more; 0 if none did. */
static uint64_t grid_tick(const struct lt_analysis *a)
{
	uint64_t best = 0;
	int i, j;

	for (i = 0; i < a->nr_cpus_alloc; i++)
		for (j = 0; j < LT_GRID_SLOTS; j++) {
			const struct lt_grid_step *g = &a->cpus[i].grid[j];

			/* no kernel ticks slower than 1 Hz */
			if (g->count >= 3 && g->step <= 1000000000ULL &&
			    (!best || g->step < best))
				best = g->step;
		}
	return best;
}

static int cmp_u64(const void *pa, const void *pb)
{
	uint64_t x = *(const uint64_t *)pa, y = *(const uint64_t *)pb;

	return x < y ? -1 : x > y;
}

static uint64_t median_spacing(struct lt_cpu *c)
{
	qsort(c->spacing, c->nr_spacing, sizeof(*c->spacing), cmp_u64);
	return c->spacing[(c->nr_spacing - 1) / 2];
}

/*
 * The tick length: the smallest per-CPU median spacing of tick events
 * (of the tick's hrtimer function where the trace has it)
 * (a CPU that stops its tick when idle has longer gaps, never shorter),
 * among CPUs with at least 8 spacings if any has.
 */
static uint64_t trace_tick(struct lt_analysis *a)
{
	uint64_t best = 0;
	int i, pass;

	for (pass = 0; pass < 2 && !best; pass++) {
		for (i = 0; i < a->nr_cpus_alloc; i++) {
			struct lt_cpu *c = &a->cpus[i];
			uint64_t med;

			if (!c->nr_spacing || (pass == 0 && c->nr_spacing < 8))
				continue;
			/*
			 * Where the tick's own timer function shows, the
			 * local timer interrupts of other CPUs say nothing:
			 * other hrtimers (hrtick) share their vector.
			 */
			if (a->hrtimer_ticks && !c->hrtimer_ticks)
				continue;
			med = median_spacing(c);
			/* no kernel ticks slower than 1 Hz: corrupt times */
			if (med > 1000000000ULL)
				continue;
			if (med && (!best || med < best))
				best = med;
		}
	}
	return best;
}

/* N ticks in ns, saturated: a double past 2^64 does not convert. */
static uint64_t ticks_to_ns(double n, uint64_t tick)
{
	double ns = n * (double)tick + 0.5;

	return ns >= 18446744073709551615.0 ? UINT64_MAX : (uint64_t)ns;
}

static int by_pending(const void *pa, const void *pb)
{
	const struct lt_task_stats *x = *(const struct lt_task_stats *const *)pa;
	const struct lt_task_stats *y = *(const struct lt_task_stats *const *)pb;

	if (x->pending_ns != y->pending_ns)
		return x->pending_ns < y->pending_ns ? 1 : -1;
	return x->id < y->id ? -1 : 1;
}

/*
 * Each kept request that is an episode, by the rule that counted the
 * task's (its sample in the task's histogram), so that the calls add up
 * to the tasks' episodes.
 */
static void report_episodes(struct lt_analysis *a, uint64_t ep_ns)
{
	size_t i;

	for (i = 0; a->on_episode && i < a->nr_cand; i++) {
		const struct lt_ep_candidate *k = &a->cand[i];

		if (lt_hist_sample_ge(&k->task->at_tick, k->pending_ns, ep_ns))
			call_episode(a, k, &k->task->st);
	}
	free(a->cand);
	a->cand = NULL;
	a->nr_cand = a->alloc_cand = 0;
}

void lt_hogs_finish(struct lt_analysis *a)
{
	uint64_t tick = a->opts.tick_ns, ep_ns, max_ns;
	size_t i;

	a->sum.tick_from_trace = false;
	a->sum.tick_source = tick ? LT_TICK_OPTION : LT_TICK_ESTIMATE;
	if (!tick) {
		tick = grid_tick(a);
		a->sum.tick_from_trace = tick != 0;
		if (tick)
			a->sum.tick_source = LT_TICK_GRID;
	}
	if (!tick) {
		tick = trace_tick(a);
		a->sum.tick_from_trace = tick != 0;
		if (tick && a->hrtimer_ticks)
			a->sum.tick_source = LT_TICK_TIMER_FUNCTION;
	}
	/*
	 * No ticks in the trace: the HZ the caller gives, else the one the
	 * setup line records, else none. No default: a kernel's HZ is 100,
	 * 250, 300 or 1000, and a guess would make hogs of the wrong tasks.
	 */
	if (!tick && a->opts.hz) {
		tick = 1000000000ULL / a->opts.hz;
		a->sum.tick_source = LT_TICK_HZ_OPTION;
	} else if (!tick && a->sum.setup.hz) {
		tick = 1000000000ULL / a->sum.setup.hz;
		a->sum.tick_source = LT_TICK_SETUP;
	}
	if (!tick)
		a->sum.tick_source = LT_TICK_UNKNOWN;
	a->sum.tick_ns = tick;
	/* an unknown tick makes no episode and no hog */
	ep_ns = tick ? ticks_to_ns(a->opts.episode_ticks, tick) : UINT64_MAX;
	max_ns = tick ? ticks_to_ns(a->opts.hog_pending_ticks, tick) :
			UINT64_MAX;
	a->ep_ns = ep_ns;
	if (lt_stack_finish(a, ep_ns))
		a->oom = true;

	free(a->hogs);
	a->hogs = calloc(a->nr_tasks ? a->nr_tasks : 1, sizeof(*a->hogs));
	a->nr_hogs = 0;
	for (i = 0; i < a->nr_tasks; i++) {
		struct lt_task *t = a->tasks[i];

		t->st.episodes = lt_hist_count_ge(&t->at_tick, ep_ns);
		/*
		 * Pending longer than N ticks: in the task's own time, and
		 * seen by more than N ticks (a CPU stalled with interrupts
		 * off, as emulators do, has no ticks to force anyone).
		 */
		t->st.hog = tick && t->st.pid != 0 &&
			    (t->st.episodes >= a->opts.hog_episodes ||
			     (t->max_task_pending > max_ns &&
			      t->max_ticks > a->opts.hog_pending_ticks));
		if (t->st.hog && a->hogs)
			a->hogs[a->nr_hogs++] = &t->st;
	}
	if (a->nr_hogs)
		qsort(a->hogs, a->nr_hogs, sizeof(*a->hogs), by_pending);
	a->sum.nr_hogs = a->nr_hogs;
	report_episodes(a, ep_ns);
}
