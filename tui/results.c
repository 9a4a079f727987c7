// SPDX-License-Identifier: GPL-2.0
/*
 * What the panels show of the run's analysis, read from its tables once
 * the input (live: an interval) is read: the tasks, the hogs in their
 * order with their call sites, and the meta table's tick, lazy bit and
 * lost events. The views point into it; live, each interval's replaces
 * the one before (summary.generation).
 */
#include <stdlib.h>
#include <string.h>

#include "tui-internal.h"

/* The columns of the tasks table the panels read, in struct tui_task. */
enum {
	TK_PID, TK_COMM, TK_ID, TK_CPUS, TK_RUNTIME, TK_TRACE_SHARE,
	TK_LIFE_SHARE, TK_LAZY, TK_EAGER, TK_TICK_UPG, TK_FOLDS, TK_EPISODES,
	TK_PENDING, TK_MAX_PENDING, TK_LAZY_P50, TK_LAZY_P99, TK_LAZY_MAX,
	TK_EAGER_P50, TK_EAGER_MAX, TK_PREEMPTED, TK_YIELDED, TK_BLOCKED,
	TK_HOG, TK_NR
};

static const char *const task_cols[TK_NR] = {
	"pid", "comm", "task_id", "cpus", "runtime_ns", "trace_share",
	"lifetime_share", "lazy", "eager", "tick_upgrades", "folds",
	"episodes", "pending_ns", "max_pending_ns", "lazy_p50_ns",
	"lazy_p99_ns", "lazy_max_ns", "eager_p50_ns", "eager_max_ns",
	"switches_preempted", "switches_yielded", "switches_blocked", "hog",
};

/* Where @name's columns are, in @col; -1 if one is missing. */
static int columns(struct lt_table *t, const char *const *names, int nr,
		   int *col)
{
	int i;

	for (i = 0; i < nr; i++) {
		col[i] = lt_table_column(t, names[i]);
		if (col[i] < 0)
			return -1;
	}
	return 0;
}

static void copy_str(char *dst, size_t len, const char *s)
{
	snprintf(dst, len, "%s", s ? s : "");
}

static void task_row(struct tui_task *k, struct lt_table *t, const int *col)
{
	memset(k, 0, sizeof(*k));
	k->pid = lt_table_int(t, col[TK_PID]);
	copy_str(k->comm, sizeof(k->comm), lt_table_string(t, col[TK_COMM]));
	k->id = lt_table_uint(t, col[TK_ID]);
	copy_str(k->cpus, sizeof(k->cpus), lt_table_string(t, col[TK_CPUS]));
	k->runtime_ns = lt_table_uint(t, col[TK_RUNTIME]);
	k->trace_share = lt_table_double(t, col[TK_TRACE_SHARE]);
	k->lifetime_share = lt_table_double(t, col[TK_LIFE_SHARE]);
	k->lazy = lt_table_uint(t, col[TK_LAZY]);
	k->eager = lt_table_uint(t, col[TK_EAGER]);
	k->tick_upgrades = lt_table_uint(t, col[TK_TICK_UPG]);
	k->folds = lt_table_uint(t, col[TK_FOLDS]);
	k->episodes = lt_table_uint(t, col[TK_EPISODES]);
	k->pending_ns = lt_table_uint(t, col[TK_PENDING]);
	k->max_pending_ns = lt_table_uint(t, col[TK_MAX_PENDING]);
	/* a latency without samples is null: 0, as the panel shows it */
	k->lazy_p50 = lt_table_uint(t, col[TK_LAZY_P50]);
	k->lazy_p99 = lt_table_uint(t, col[TK_LAZY_P99]);
	k->lazy_max = lt_table_uint(t, col[TK_LAZY_MAX]);
	k->eager_p50 = lt_table_uint(t, col[TK_EAGER_P50]);
	k->eager_max = lt_table_uint(t, col[TK_EAGER_MAX]);
	k->preempted = lt_table_uint(t, col[TK_PREEMPTED]);
	k->yielded = lt_table_uint(t, col[TK_YIELDED]);
	k->blocked = lt_table_uint(t, col[TK_BLOCKED]);
	k->hog = lt_table_int(t, col[TK_HOG]);
}

static int by_id(const void *a, const void *b)
{
	const struct tui_task *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

/* The task record @id, or NULL (tasks are sorted by id). */
static struct tui_task *task_by_id(struct tui_results *res, uint64_t id)
{
	struct tui_task key = { .id = id };

	if (!res->nr_tasks)
		return NULL;
	return bsearch(&key, res->tasks, res->nr_tasks, sizeof(key), by_id);
}

static int read_tasks(struct tui_results *res, struct lt_run *run)
{
	struct lt_table *t = lt_run_table(run, "tasks");
	size_t cap = 0;
	int col[TK_NR], ret;

	if (!t || columns(t, task_cols, TK_NR, col))
		return -1;
	while ((ret = lt_table_next(t)) > 0) {
		if (res->nr_tasks == cap) {
			struct tui_task *n;

			cap = cap ? 2 * cap : 256;
			n = realloc(res->tasks, cap * sizeof(*n));
			if (!n)
				return -1;
			res->tasks = n;
		}
		task_row(&res->tasks[res->nr_tasks++], t, col);
	}
	if (res->nr_tasks)
		qsort(res->tasks, res->nr_tasks, sizeof(*res->tasks), by_id);
	return ret;
}

/* The hogs table's order (its rank: the hogs the filters drop skipped). */
static int read_hogs(struct tui_results *res, struct lt_run *run)
{
	static const char *const names[] = { "task_id", "rank" };
	struct lt_table *t = lt_run_table(run, "hogs");
	size_t cap = 0;
	int col[2], ret;

	if (!t || columns(t, names, 2, col))
		return -1;
	while ((ret = lt_table_next(t)) > 0) {
		struct tui_task *k = task_by_id(res, lt_table_uint(t, col[0]));

		if (!k)
			continue;
		if (res->nr_hogs == cap) {
			struct tui_task **n;

			cap = cap ? 2 * cap : 16;
			n = realloc(res->hogs, cap * sizeof(*n));
			if (!n)
				return -1;
			res->hogs = n;
		}
		k->rank = lt_table_uint(t, col[1]);
		res->hogs[res->nr_hogs++] = k;
	}
	return ret;
}

/* Each hog's call sites, in the sites table's order (most episodes first). */
static int read_sites(struct tui_results *res, struct lt_run *run)
{
	static const char *const names[] = {
		"task_id", "function", "episodes", "stack_truncated",
	};
	struct lt_table *t = lt_run_table(run, "sites");
	int col[4], ret;

	if (!t || columns(t, names, 4, col))
		return -1;
	while ((ret = lt_table_next(t)) > 0) {
		struct tui_task *k = task_by_id(res, lt_table_uint(t, col[0]));
		struct tui_site *s;

		if (!k)
			continue;
		s = realloc(k->sites, (k->nr_sites + 1) * sizeof(*s));
		if (!s)
			return -1;
		k->sites = s;
		s = &s[k->nr_sites++];
		copy_str(s->function, sizeof(s->function),
			 lt_table_string(t, col[1]));
		s->episodes = lt_table_uint(t, col[2]);
		s->truncated = lt_table_int(t, col[3]);
	}
	return ret;
}

static int read_meta(struct tui_results *res, struct lt_run *run)
{
	static const char *const names[] = {
		"tick_ns", "tick_source", "lazy_preemption", "lost_events",
		"lost_unknown_times",
	};
	struct lt_table *t = lt_run_table(run, "meta");
	const char *src;
	int col[5];

	if (!t || columns(t, names, 5, col) || lt_table_next(t) <= 0)
		return -1;
	res->tick_ns = lt_table_uint(t, col[0]);
	src = lt_table_string(t, col[1]);
	res->tick_unknown = !src || !strcmp(src, "unknown");
	res->lazy_seen = lt_table_int(t, col[2]);
	res->lost_events = lt_table_uint(t, col[3]);
	res->lost_unknown = lt_table_uint(t, col[4]);
	/* all the hogs, the ones the task filters hide included */
	t = lt_run_table(run, "summary");
	if (!t || (col[0] = lt_table_column(t, "hogs")) < 0 ||
	    lt_table_next(t) <= 0)
		return -1;
	res->nr_hogs_all = lt_table_uint(t, col[0]);
	return 0;
}

void results_free(struct tui_results *res)
{
	size_t i;

	if (!res)
		return;
	for (i = 0; i < res->nr_tasks; i++)
		free(res->tasks[i].sites);
	free(res->tasks);
	free(res->hogs);
	free(res);
}

struct tui_results *results_read(struct lt_run *run)
{
	struct tui_results *res = calloc(1, sizeof(*res));

	if (!res)
		return NULL;
	if (read_meta(res, run) || read_tasks(res, run) ||
	    read_hogs(res, run) || read_sites(res, run)) {
		results_free(res);
		return NULL;
	}
	return res;
}
