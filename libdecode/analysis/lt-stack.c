// SPDX-License-Identifier: LGPL-2.1
/*
 * Hog call sites: where in the kernel a task ran while a tick found its
 * lazy request pending.
 *
 * A kernel_stack event that follows a tick (or the local timer interrupt
 * entry that runs it) on a CPU whose current task has a lazy request
 * pending is that request's stack; a later tick's stack replaces an
 * earlier one. When the request ends, its stack counts for the task if
 * the request makes a hog episode: that is only known at the end (the
 * tick length is), so each stack keeps its requests' pending times at
 * their last tick in log-linear buckets, with the pending time summed per
 * bucket, and the episodes are counted from them as lt-hogs.c counts the
 * task's.
 *
 * Memory grows with distinct frame names and stacks, never with events:
 * frame names and stacks are interned once per analysis, up to caps:
 * past LT_STR_MAX names a new name is "[other]", past LT_STACKS_MAX
 * stacks a new stack is reduced to its site frame; each
 * task keeps up to LT_STACKS_PER_TASK distinct stacks, past which a new
 * one counts under the first stack of its site (or its site alone).
 */
#include <stdlib.h>
#include <string.h>

#include "lt-analysis.h"

#define LT_STACKS_MAX		16384	/* distinct stacks in all */
#define LT_STACKS_PER_TASK	256
#define LT_STR_MAX		65536	/* distinct frame names */

/* An interned stack: frames innermost first, interned names. */
struct lt_stk {
	struct lt_stk *next;
	uint64_t hash;
	const char *site;
	unsigned int nr;
	bool truncated;
	char *joined;		/* lt_stack_joined(), made on first use */
	const char *frame[];
};

/* Requests with their pending time at the last tick in one bucket. */
struct lt_bucket {
	uint32_t key;
	uint32_t count;
	uint64_t pending;	/* sum of the served ones' pending time */
};

struct lt_path {
	const struct lt_stk *stk;	/* NULL: episodes without a stack */
	struct lt_bucket *b;
	uint32_t nr_b, alloc_b;
};

struct lt_task_sites {
	struct lt_path *path;
	size_t nr_path, alloc_path;
	/* results, after lt_stack_finish() */
	struct lt_site *stacks;
	size_t nr_stacks;
	struct lt_site *sites;
	size_t nr_sites;
};

struct lt_stack_table {
	char **str;			/* open addressing, power of two */
	size_t nr_str, size_str;
	struct lt_stk **stk;		/* chained, power of two */
	size_t nr_stk, size_stk;
	uint64_t seen, used;
	const char *no_stack, *unknown, *other;
};

static const char *const entry_prefix[] = {
	/* tracing: the event, the trigger and the stack walk */
	"trace_", "__trace_", "ftrace_", "__ftrace_", "perf_trace_",
	"__traceiter_", "event_trigger", "event_triggers_", "stack_trace_",
	"arch_stack_walk", "unwind_",
	/* x86 interrupt entry and exit */
	"asm_sysvec_", "asm_common_interrupt", "sysvec_", "__sysvec_",
	"common_interrupt", "__common_interrupt", "irq_", "__irq_",
	"handle_softirqs", "__do_softirq", "do_softirq", "handle_irq",
	"handle_edge_irq", "handle_level_irq", "handle_fasteoi_irq",
	/* the generic entry code (x86, s390, riscv, ...) */
	"irqentry_",
	/* arm64 interrupt entry */
	"el0t_64_irq", "el1h_64_irq", "el0_interrupt", "el1_interrupt",
	"__el0_irq", "__el1_irq", "gic_handle_irq", "generic_handle_",
	"handle_percpu_devid_irq", "handle_domain_irq", "arch_timer_handler",
	"call_on_irq_stack", "do_interrupt_handler",
	/* the tick */
	"hrtimer_", "__hrtimer_", "tick_", "update_process_times",
	"sched_tick", "scheduler_tick", "timer_interrupt",
};

bool lt_stack_frame_is_entry(const char *function)
{
	size_t i;

	for (i = 0; i < sizeof(entry_prefix) / sizeof(entry_prefix[0]); i++)
		if (!strncmp(function, entry_prefix[i],
			     strlen(entry_prefix[i])))
			return true;
	/* stacktrace_trigger, event_triggers_post_call, ... */
	return strstr(function, "_trigger") != NULL;
}

static uint64_t hash_str(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 0x100000001b3ULL;
	return h;
}

static const char *intern(struct lt_stack_table *s, const char *name);

static struct lt_stack_table *stacks_get(struct lt_analysis *a)
{
	struct lt_stack_table *s = a->stacks;

	if (s)
		return s;
	s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->no_stack = intern(s, "[no stack]");
	s->unknown = intern(s, "[unknown]");
	s->other = intern(s, "[other]");
	if (!s->no_stack || !s->unknown || !s->other) {
		size_t i;

		for (i = 0; i < s->size_str; i++)
			free(s->str[i]);
		free(s->str);
		free(s);
		return NULL;
	}
	a->stacks = s;
	return s;
}

static int str_grow(struct lt_stack_table *s)
{
	size_t size = s->size_str ? s->size_str * 2 : 1024, i, j;
	char **n = calloc(size, sizeof(*n));

	if (!n)
		return -1;
	for (i = 0; i < s->size_str; i++) {
		if (!s->str[i])
			continue;
		for (j = hash_str(s->str[i]) & (size - 1); n[j];
		     j = (j + 1) & (size - 1))
			;
		n[j] = s->str[i];
	}
	free(s->str);
	s->str = n;
	s->size_str = size;
	return 0;
}

/* The one copy of @name, "[other]" past the cap; NULL if out of memory. */
static const char *intern(struct lt_stack_table *s, const char *name)
{
	size_t j;

	if (s->nr_str * 2 >= s->size_str && str_grow(s))
		return NULL;
	for (j = hash_str(name) & (s->size_str - 1); s->str[j];
	     j = (j + 1) & (s->size_str - 1))
		if (!strcmp(s->str[j], name))
			return s->str[j];
	if (s->nr_str >= LT_STR_MAX)
		return s->other;
	s->str[j] = strdup(name);
	if (!s->str[j])
		return NULL;
	s->nr_str++;
	return s->str[j];
}

/* The site: the innermost frame that is not entry or tracing. */
static const char *site_of(struct lt_stack_table *s, const char *const *frame,
			   unsigned int nr)
{
	unsigned int i;

	for (i = 0; i < nr; i++)
		if (!lt_stack_frame_is_entry(frame[i]))
			return frame[i];
	return s->unknown;
}

static int stk_grow(struct lt_stack_table *s)
{
	size_t size = s->size_stk ? s->size_stk * 2 : 256, i;
	struct lt_stk **n = calloc(size, sizeof(*n)), *k, *next;

	if (!n)
		return -1;
	for (i = 0; i < s->size_stk; i++) {
		for (k = s->stk[i]; k; k = next) {
			next = k->next;
			k->next = n[k->hash & (size - 1)];
			n[k->hash & (size - 1)] = k;
		}
	}
	free(s->stk);
	s->stk = n;
	s->size_stk = size;
	return 0;
}

/* The one copy of a stack of interned names. */
static const struct lt_stk *intern_stack(struct lt_stack_table *s,
					 const char *const *frame,
					 unsigned int nr, bool truncated)
{
	const char *site = site_of(s, frame, nr);
	uint64_t h = 0x9e3779b97f4a7c15ULL ^ nr ^ ((uint64_t)truncated << 32);
	struct lt_stk *k;
	unsigned int i;

	/* Past the cap, a stack is its site alone: bounded by the sites. */
	if (s->nr_stk >= LT_STACKS_MAX) {
		frame = &site;
		nr = 1;
		truncated = true;
		h = 0x9e3779b97f4a7c15ULL ^ nr ^ ((uint64_t)truncated << 32);
	}
	for (i = 0; i < nr; i++)
		h = (h ^ (uintptr_t)frame[i]) * 0x100000001b3ULL;
	if (s->size_stk) {
		for (k = s->stk[h & (s->size_stk - 1)]; k; k = k->next)
			if (k->hash == h && k->nr == nr &&
			    k->truncated == truncated &&
			    !memcmp(k->frame, frame, nr * sizeof(*frame)))
				return k;
	}
	if (s->nr_stk * 2 >= s->size_stk && stk_grow(s))
		return NULL;
	k = malloc(sizeof(*k) + nr * sizeof(k->frame[0]));
	if (!k)
		return NULL;
	k->hash = h;
	k->joined = NULL;
	k->nr = nr;
	k->truncated = truncated;
	memcpy(k->frame, frame, nr * sizeof(*frame));
	k->site = site;
	k->next = s->stk[h & (s->size_stk - 1)];
	s->stk[h & (s->size_stk - 1)] = k;
	s->nr_stk++;
	return k;
}

const struct lt_stk *lt_stack_intern_event(struct lt_analysis *a,
					   const struct lt_event *ev)
{
	const char *frame[LT_STACK_MAX_FRAMES];
	struct lt_stack_table *s = stacks_get(a);
	char name[256];
	unsigned int i;

	if (!s)
		return NULL;
	for (i = 0; i < ev->u.stack.nr; i++) {
		lt_stack_frame(ev, i, name, sizeof(name), false);
		frame[i] = intern(s, name);
		if (!frame[i])
			return NULL;
	}
	return intern_stack(s, frame, ev->u.stack.nr, ev->u.stack.truncated);
}

unsigned int lt_stack_frames(const struct lt_stk *stk,
			     const char *const **frames)
{
	*frames = stk ? stk->frame : NULL;
	return stk ? stk->nr : 0;
}

const char *lt_stack_joined(const struct lt_stk *stk)
{
	struct lt_stk *k = (struct lt_stk *)stk;
	size_t len = 1, n = 0;
	unsigned int i;

	if (!k)
		return NULL;
	if (k->joined)
		return k->joined;
	for (i = 0; i < k->nr; i++)
		len += strlen(k->frame[i]) + 1;
	/* once per distinct stack: bounded like the stacks */
	k->joined = malloc(len);
	if (!k->joined)
		return NULL;
	k->joined[0] = '\0';
	for (i = 0; i < k->nr; i++)
		n += sprintf(k->joined + n, "%s%s", i ? ";" : "", k->frame[i]);
	return k->joined;
}

void lt_stack_feed(struct lt_analysis *a, struct lt_cpu *c,
		   const struct lt_event *ev)
{
	const char *frame[LT_STACK_MAX_FRAMES];
	struct lt_stack_table *s;
	char name[256];
	unsigned int i;

	if (ev->kind != LT_EV_KERNEL_STACK) {
		/*
		 * The trigger sits on the timer interrupt's entry or on the
		 * tick's hrtimer; trace-cmd -T stacks every event. Only the
		 * stack right after one of those two describes the tick.
		 */
		c->stack_slot = ev->kind == LT_EV_LOCAL_TIMER_ENTRY ||
				(ev->kind == LT_EV_HRTIMER_EXPIRE_ENTRY &&
				 c->in_tick_hrtimer);
		return;
	}
	s = stacks_get(a);
	if (!s) {
		a->oom = true;
		return;
	}
	s->seen++;
	if (!c->stack_slot || !c->lazy.open || ev->missed)
		return;
	c->stack_slot = false;
	for (i = 0; i < ev->u.stack.nr; i++) {
		lt_stack_frame(ev, i, name, sizeof(name), false);
		frame[i] = intern(s, name);
		if (!frame[i]) {
			a->oom = true;
			return;
		}
	}
	c->lazy.stack = intern_stack(s, frame, ev->u.stack.nr,
				     ev->u.stack.truncated);
	if (!c->lazy.stack)
		a->oom = true;
	else
		s->used++;
}

/* Log-linear bucket of a value: exact below 64, 64 per power of two. */
static uint32_t bucket_key(uint64_t v)
{
	int msb;

	if (v < 64)
		return (uint32_t)v;
	msb = 63 - __builtin_clzll(v);
	return (uint32_t)((msb - 5) * 64 + ((v >> (msb - 6)) & 63));
}

static uint64_t bucket_mid(uint32_t key)
{
	uint64_t low, width;
	int msb;

	if (key < 64)
		return key;
	msb = key / 64 + 5;
	low = (1ULL << msb) + (uint64_t)(key % 64) * (1ULL << (msb - 6));
	width = 1ULL << (msb - 6);
	return low + (width - 1) / 2;
}

static struct lt_path *path_of(struct lt_task *t, const struct lt_stk *stk)
{
	struct lt_task_sites *ts = t->sites;
	struct lt_path *p;
	size_t i;

	if (!ts) {
		ts = t->sites = calloc(1, sizeof(*ts));
		if (!ts)
			return NULL;
	}
	for (i = 0; i < ts->nr_path; i++)
		if (ts->path[i].stk == stk)
			return &ts->path[i];
	if (ts->nr_path >= LT_STACKS_PER_TASK) {
		/* Full: the first stack of the same site takes it. */
		for (i = 0; i < ts->nr_path; i++)
			if (ts->path[i].stk && stk &&
			    ts->path[i].stk->site == stk->site)
				return &ts->path[i];
		/* A new site: keep it, frames or not (bounded by sites). */
	}
	if (ts->nr_path == ts->alloc_path) {
		size_t n = ts->alloc_path ? ts->alloc_path * 2 : 4;

		p = realloc(ts->path, n * sizeof(*p));
		if (!p)
			return NULL;
		ts->path = p;
		ts->alloc_path = n;
	}
	p = &ts->path[ts->nr_path++];
	memset(p, 0, sizeof(*p));
	p->stk = stk;
	return p;
}

int lt_stack_request_end(struct lt_analysis *a, struct lt_task *t,
			 const struct lt_req *lazy, uint64_t pending)
{
	struct lt_path *p;
	uint32_t key, i;

	/* Only requests a tick saw, once the trace has shown stacks. */
	if (!lazy->at_tick || !a->stacks || !a->stacks->seen)
		return 0;
	p = path_of(t, lazy->stack);
	if (!p)
		return -1;
	key = bucket_key(lazy->at_tick);
	for (i = 0; i < p->nr_b && p->b[i].key != key; i++)
		;
	if (i == p->nr_b) {
		if (p->nr_b == p->alloc_b) {
			uint32_t n = p->alloc_b ? p->alloc_b * 2 : 4;
			struct lt_bucket *b = realloc(p->b, n * sizeof(*b));

			if (!b)
				return -1;
			p->b = b;
			p->alloc_b = n;
		}
		p->b[p->nr_b++] = (struct lt_bucket){ .key = key };
	}
	p->b[i].count++;
	p->b[i].pending += pending;
	return 0;
}

const char *lt_stack_site(const struct lt_stk *stk)
{
	return stk ? stk->site : NULL;
}

bool lt_stack_truncated(const struct lt_stk *stk)
{
	return stk && stk->truncated;
}

const struct lt_stk *lt_stack_of_request(const struct lt_analysis *a, int cpu)
{
	const struct lt_cpu *c;

	if (cpu < 0 || cpu >= a->nr_cpus_alloc)
		return NULL;
	c = &a->cpus[cpu];
	return c->lazy.open ? c->lazy.stack : NULL;
}

static int by_weight(const void *pa, const void *pb)
{
	const struct lt_site *x = pa, *y = pb;

	if (x->episodes != y->episodes)
		return x->episodes < y->episodes ? 1 : -1;
	if (x->pending_ns != y->pending_ns)
		return x->pending_ns < y->pending_ns ? 1 : -1;
	return strcmp(x->function, y->function);
}

static void site_from(struct lt_stack_table *s, struct lt_site *out,
		      const struct lt_stk *stk)
{
	out->function = stk ? stk->site : s->no_stack;
	out->stack = stk ? stk->frame : NULL;
	out->nr_frames = stk ? stk->nr : 0;
	out->truncated = stk && stk->truncated;
}

static int task_finish(struct lt_stack_table *s, struct lt_task_sites *ts,
		       uint64_t ep_ns)
{
	size_t i, j, n = 0;
	uint32_t k;

	free(ts->stacks);
	free(ts->sites);
	ts->nr_stacks = ts->nr_sites = 0;
	ts->stacks = calloc(ts->nr_path ? ts->nr_path : 1,
			    sizeof(*ts->stacks));
	ts->sites = calloc(ts->nr_path ? ts->nr_path : 1, sizeof(*ts->sites));
	if (!ts->stacks || !ts->sites)
		return -1;
	for (i = 0; i < ts->nr_path; i++) {
		struct lt_path *p = &ts->path[i];
		struct lt_site *st = &ts->stacks[n];

		site_from(s, st, p->stk);
		for (k = 0; k < p->nr_b; k++) {
			if (bucket_mid(p->b[k].key) < ep_ns)
				continue;
			st->episodes += p->b[k].count;
			st->pending_ns += p->b[k].pending;
		}
		if (st->episodes)
			n++;
	}
	ts->nr_stacks = n;
	qsort(ts->stacks, n, sizeof(*ts->stacks), by_weight);
	/* Sites: the stacks summed by function, heaviest stack's frames. */
	for (i = 0; i < n; i++) {
		const struct lt_site *st = &ts->stacks[i];

		for (j = 0; j < ts->nr_sites; j++)
			if (ts->sites[j].function == st->function)
				break;
		if (j == ts->nr_sites)
			ts->sites[ts->nr_sites++] = *st;
		else {
			ts->sites[j].episodes += st->episodes;
			ts->sites[j].pending_ns += st->pending_ns;
		}
	}
	qsort(ts->sites, ts->nr_sites, sizeof(*ts->sites), by_weight);
	return 0;
}

int lt_stack_finish(struct lt_analysis *a, uint64_t ep_ns)
{
	struct lt_stack_table *s = a->stacks;
	int ret = 0;
	size_t i;

	if (!s)
		return 0;
	for (i = 0; i < a->nr_tasks; i++)
		if (a->tasks[i]->sites &&
		    task_finish(s, a->tasks[i]->sites, ep_ns))
			ret = -1;
	return ret;
}

static void task_free(struct lt_task *t)
{
	struct lt_task_sites *ts = t->sites;
	size_t i;

	if (!ts)
		return;
	for (i = 0; i < ts->nr_path; i++)
		free(ts->path[i].b);
	free(ts->path);
	free(ts->stacks);
	free(ts->sites);
	free(ts);
	t->sites = NULL;
}

void lt_stack_free(struct lt_analysis *a)
{
	struct lt_stack_table *s = a->stacks;
	struct lt_stk *k, *next;
	size_t i;

	for (i = 0; i < a->nr_tasks; i++)
		task_free(a->tasks[i]);
	if (!s)
		return;
	for (i = 0; i < s->size_stk; i++)
		for (k = s->stk[i]; k; k = next) {
			next = k->next;
			free(k->joined);
			free(k);
		}
	for (i = 0; i < s->size_str; i++)
		free(s->str[i]);
	free(s->stk);
	free(s->str);
	free(s);
	a->stacks = NULL;
}

static const struct lt_task *task_of(const struct lt_analysis *a,
				     const struct lt_task_stats *st)
{
	/* The stats are the first member of the task record. */
	if (!st || !st->id || st->id > a->nr_tasks ||
	    &a->tasks[st->id - 1]->st != st)
		return NULL;
	return a->tasks[st->id - 1];
}

const struct lt_site *lt_analysis_sites(const struct lt_analysis *a,
					const struct lt_task_stats *st,
					size_t *nr)
{
	const struct lt_task *t = task_of(a, st);

	*nr = t && t->sites && a->finished ? t->sites->nr_sites : 0;
	return *nr ? t->sites->sites : NULL;
}

const struct lt_site *lt_analysis_stacks(const struct lt_analysis *a,
					 const struct lt_task_stats *st,
					 size_t *nr)
{
	const struct lt_task *t = task_of(a, st);

	*nr = t && t->sites && a->finished ? t->sites->nr_stacks : 0;
	return *nr ? t->sites->stacks : NULL;
}

void lt_analysis_stack_counts(const struct lt_analysis *a, uint64_t *seen,
			      uint64_t *used)
{
	*seen = a->stacks ? a->stacks->seen : 0;
	*used = a->stacks ? a->stacks->used : 0;
}
