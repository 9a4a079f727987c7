// SPDX-License-Identifier: LGPL-2.1
/*
 * Per-task statistics: the task table (one record per task, a new one
 * when a pid is reused), and the bounded latency histograms that give
 * the percentiles without keeping one sample per event.
 */
#include <stdlib.h>
#include <string.h>

#include "lt-analysis.h"
#include "../read/lt-internal.h"

/* ---- histogram ---- */

static int hist_index(uint64_t v, int *row, int *idx)
{
	int msb;

	if (v < LT_HIST_SUB) {
		*row = 0;
		*idx = v;
		return 0;
	}
	msb = 63 - __builtin_clzll(v);
	*row = msb - LT_HIST_SUB_BITS + 1;
	*idx = (v >> (msb - LT_HIST_SUB_BITS)) & (LT_HIST_SUB - 1);
	return 0;
}

/* Lowest value of a bucket and its width. */
static void hist_bucket(int row, int idx, uint64_t *low, uint64_t *width)
{
	int shift;

	if (row == 0) {
		*low = idx;
		*width = 1;
		return;
	}
	shift = row - 1;
	*low = ((uint64_t)LT_HIST_SUB + idx) << shift;
	*width = 1ULL << shift;
}

/*
 * A row: its buckets, then their sum (both stop at UINT32_MAX), so that
 * a percentile passes a row whole.
 */
#define HIST_ROW_LEN	(LT_HIST_SUB + 1)

int lt_hist_add(struct lt_hist *h, uint64_t v)
{
	int row, idx;

	hist_index(v, &row, &idx);
	if (!h->row) {
		h->row = calloc(LT_HIST_ROWS, sizeof(*h->row));
		if (!h->row)
			return -1;
	}
	if (!h->row[row]) {
		h->row[row] = calloc(HIST_ROW_LEN, sizeof(uint32_t));
		if (!h->row[row])
			return -1;
	}
	if (h->row[row][idx] != UINT32_MAX)
		h->row[row][idx]++;
	if (h->row[row][LT_HIST_SUB] != UINT32_MAX)
		h->row[row][LT_HIST_SUB]++;
	if (!h->count || v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
	h->count++;
	return 0;
}

/* The middle of a bucket, kept inside the samples actually seen. */
static uint64_t hist_value(const struct lt_hist *h, int row, int idx)
{
	uint64_t low, width, v;

	hist_bucket(row, idx, &low, &width);
	v = low + (width - 1) / 2;
	if (v < h->min)
		v = h->min;
	if (v > h->max)
		v = h->max;
	return v;
}

/* The nearest rank of percentile @pct (0 < pct < 100) of @h's samples. */
static uint64_t hist_rank(const struct lt_hist *h, double pct)
{
	uint64_t rank = (uint64_t)(pct / 100.0 * h->count);

	if ((double)rank < pct / 100.0 * h->count)
		rank++;
	return rank < 1 ? 1 : rank;
}

/*
 * The values at percentiles @pct[0 .. @n - 1] (ascending, below 100) of
 * @h, nearest rank, in one walk: a task's latencies are three percentiles
 * of each of its histograms. A row the rank lies beyond is passed by
 * its sum.
 */
static void hist_percentiles(const struct lt_hist *h, const double *pct,
			     uint64_t *out, int n)
{
	uint64_t rank, seen = 0, sum;
	int row, idx, i = 0;

	if (!h->count || !h->row) {
		for (; i < n; i++)
			out[i] = 0;
		return;
	}
	rank = hist_rank(h, pct[0]);
	for (row = 0; row < LT_HIST_ROWS && i < n; row++) {
		if (!h->row[row])
			continue;
		sum = h->row[row][LT_HIST_SUB];
		if (sum == UINT32_MAX)	/* it stopped: the buckets' */
			for (sum = 0, idx = 0; idx < (int)LT_HIST_SUB; idx++)
				sum += h->row[row][idx];
		if (seen + sum < rank) {
			seen += sum;
			continue;
		}
		for (idx = 0; idx < (int)LT_HIST_SUB && i < n; idx++) {
			seen += h->row[row][idx];
			while (i < n && seen >= rank) {
				out[i++] = hist_value(h, row, idx);
				if (i < n)
					rank = hist_rank(h, pct[i]);
			}
		}
	}
	for (; i < n; i++)
		out[i] = h->max;
}

bool lt_hist_sample_ge(const struct lt_hist *h, uint64_t s, uint64_t v)
{
	int row, idx;

	hist_index(s, &row, &idx);
	return hist_value(h, row, idx) >= v;
}

uint64_t lt_hist_count_ge(const struct lt_hist *h, uint64_t v)
{
	uint64_t n = 0;
	int row, idx;

	if (!h->row)
		return 0;
	for (row = 0; row < LT_HIST_ROWS; row++) {
		if (!h->row[row])
			continue;
		for (idx = 0; idx < (int)LT_HIST_SUB; idx++)
			if (h->row[row][idx] && hist_value(h, row, idx) >= v)
				n += h->row[row][idx];
	}
	return n;
}

void lt_hist_latency(const struct lt_hist *h, struct lt_latency *out)
{
	static const double pct[] = { 50, 90, 99 };
	uint64_t v[3];

	hist_percentiles(h, pct, v, 3);
	out->count = h->count;
	out->p50 = v[0];
	out->p90 = v[1];
	out->p99 = v[2];
	out->max = h->count ? h->max : 0;
}

void lt_hist_free(struct lt_hist *h)
{
	int row;

	if (h->row)
		for (row = 0; row < LT_HIST_ROWS; row++)
			free(h->row[row]);
	free(h->row);
	memset(h, 0, sizeof(*h));
}

/* ---- tasks ---- */

static size_t hash_pid(const struct lt_analysis *a, int pid)
{
	return ((unsigned int)pid * 2654435761U) & (a->hash_size - 1);
}

static int hash_grow(struct lt_analysis *a)
{
	size_t size = a->hash_size ? a->hash_size * 2 : 256;
	struct lt_task **nh = calloc(size, sizeof(*nh));
	size_t i;

	if (!nh)
		return -1;
	for (i = 0; i < a->hash_size; i++) {
		struct lt_task *t = a->hash[i], *next;

		for (; t; t = next) {
			size_t b = ((unsigned int)t->st.pid * 2654435761U) &
				   (size - 1);

			next = t->next_hash;
			t->next_hash = nh[b];
			nh[b] = t;
		}
	}
	free(a->hash);
	a->hash = nh;
	a->hash_size = size;
	return 0;
}

struct lt_task *lt_task_lookup(struct lt_analysis *a, int pid, int cpu)
{
	struct lt_task *t;

	if (pid == 0)
		return cpu >= 0 && cpu < a->nr_cpus_alloc ? a->cpus[cpu].idle :
		       NULL;
	if (!a->hash_size)
		return NULL;
	for (t = a->hash[hash_pid(a, pid)]; t; t = t->next_hash)
		if (t->st.pid == pid)
			return t;
	return NULL;
}

static void hash_remove(struct lt_analysis *a, struct lt_task *old)
{
	struct lt_task **pp = &a->hash[hash_pid(a, old->st.pid)];

	for (; *pp; pp = &(*pp)->next_hash) {
		if (*pp == old) {
			*pp = old->next_hash;
			old->next_hash = NULL;
			return;
		}
	}
}

/*
 * A new record for @pid: the previous one, if any, stays in the list
 * with its results but no longer receives events.
 */
struct lt_task *lt_task_new(struct lt_analysis *a, int pid, int cpu,
			    const char *comm, uint64_t ts)
{
	struct lt_task *t, *old;

	if (a->nr_tasks == a->tasks_alloc) {
		size_t n = a->tasks_alloc ? a->tasks_alloc * 2 : 64;
		struct lt_task **nt = realloc(a->tasks, n * sizeof(*nt));

		if (!nt)
			return NULL;
		a->tasks = nt;
		a->tasks_alloc = n;
	}
	if (pid != 0 && a->nr_tasks + 1 > a->hash_size && hash_grow(a))
		return NULL;
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->st.id = a->nr_tasks + 1;
	t->st.pid = pid;
	t->st.first_ns = t->st.last_ns = ts;
	t->st.top_syscall = -1;
	t->running_on = -1;
	t->syscall = LT_SYSCALL_UNKNOWN;
	lt_task_set_comm(t, comm);
	a->tasks[a->nr_tasks++] = t;
	if (pid == 0) {
		a->cpus[cpu].idle = t;
		return t;
	}
	old = lt_task_lookup(a, pid, cpu);
	if (old)
		hash_remove(a, old);
	t->next_hash = a->hash[hash_pid(a, pid)];
	a->hash[hash_pid(a, pid)] = t;
	return t;
}

void lt_task_seen(struct lt_task *t, uint64_t ts)
{
	if (ts < t->st.first_ns)
		t->st.first_ns = ts;
	if (ts > t->st.last_ns)
		t->st.last_ns = ts;
}

/*
 * The kernel names pid 0 "<idle>" in its trace lines but "swapper/N" in
 * sched_switch fields: one name, the trace lines', for every CPU's.
 */
#define IDLE_COMM "<idle>"

void lt_task_set_comm(struct lt_task *t, const char *comm)
{
	if (t->st.pid == 0)
		lt_strlcpy(t->st.comm, IDLE_COMM, sizeof(t->st.comm));
	else if (comm && *comm && strcmp(comm, "<...>"))
		lt_strlcpy(t->st.comm, comm, sizeof(t->st.comm));
	else if (!t->st.comm[0])
		lt_strlcpy(t->st.comm, "<...>", sizeof(t->st.comm));
}

int lt_task_ran_on(struct lt_task *t, int cpu)
{
	int word = cpu / 64;

	if (cpu < 0)
		return 0;
	if (word >= t->cpu_mask_words) {
		uint64_t *m = realloc(t->cpu_mask, (word + 1) * sizeof(*m));

		if (!m)
			return -1;
		memset(m + t->cpu_mask_words, 0,
		       (word + 1 - t->cpu_mask_words) * sizeof(*m));
		t->cpu_mask = m;
		t->cpu_mask_words = word + 1;
	}
	t->cpu_mask[word] |= 1ULL << (cpu % 64);
	return 0;
}

void lt_task_latency(struct lt_analysis *a, struct lt_task *t,
		     enum lt_latency_kind k, uint64_t ns)
{
	if (lt_hist_add(&t->lat[k], ns) || lt_hist_add(&a->lat[k], ns))
		a->oom = true;
}

void lt_task_upgrade_syscall(struct lt_task *t, long sc)
{
	int i, free_slot = -1;

	if (sc == LT_SYSCALL_UNKNOWN)
		return;
	if (sc == LT_SYSCALL_USER) {
		t->st.upgrades_user++;
		return;
	}
	t->st.upgrades_syscall++;
	for (i = 0; i < 8; i++) {
		if (t->sc_count[i] && t->sc_id[i] == sc) {
			t->sc_count[i]++;
			return;
		}
		if (!t->sc_count[i] && free_slot < 0)
			free_slot = i;
	}
	/* Bounded: a ninth distinct system call is not ranked. */
	if (free_slot >= 0) {
		t->sc_id[free_slot] = sc;
		t->sc_count[free_slot] = 1;
	}
}

static bool mask_has(const struct lt_task *t, int cpu)
{
	return cpu / 64 < t->cpu_mask_words &&
	       (t->cpu_mask[cpu / 64] >> (cpu % 64)) & 1;
}

/* "0-1,3": the CPUs a task ran on, "..." when it does not fit. */
static void cpus_string(const struct lt_task *t, char *buf, size_t len)
{
	int max = t->cpu_mask_words * 64, cpu, end;
	size_t n = 0;
	int w;

	buf[0] = '\0';
	for (cpu = 0; cpu < max; cpu++) {
		if (!mask_has(t, cpu))
			continue;
		for (end = cpu; end + 1 < max && mask_has(t, end + 1); end++)
			;
		if (end == cpu)
			w = snprintf(buf + n, len - n, "%s%d", n ? "," : "", cpu);
		else
			w = snprintf(buf + n, len - n, "%s%d-%d", n ? "," : "",
				     cpu, end);
		if (w < 0 || (size_t)w >= len - n) {
			if (len > 4)
				strcpy(buf + len - 4, "...");
			return;
		}
		n += w;
		cpu = end;
	}
}

static void task_finish(struct lt_task *t, uint64_t trace_span)
{
	struct lt_task_stats *st = &t->st;
	uint64_t span = st->last_ns - st->first_ns, best = 0;
	int i;

	for (i = 0; i < LT_LAT_KIND_MAX; i++)
		lt_hist_latency(&t->lat[i], &st->latency[i]);
	st->lifetime_share = span ? (double)st->runtime_ns / span : 0;
	/* Clock granularity (us text) can push a lone runner past 1. */
	if (st->lifetime_share > 1)
		st->lifetime_share = 1;
	st->trace_share = trace_span ? (double)st->runtime_ns / trace_span : 0;
	if (st->trace_share > 1)
		st->trace_share = 1;
	cpus_string(t, st->cpus, sizeof(st->cpus));
	for (i = 0; i < 8; i++) {
		if (t->sc_count[i] > best) {
			best = t->sc_count[i];
			st->top_syscall = t->sc_id[i];
		}
	}
}

void lt_stats_finish(struct lt_analysis *a)
{
	size_t i;

	for (i = 0; i < a->nr_tasks; i++)
		task_finish(a->tasks[i], a->sum.last_ns - a->sum.first_ns);
	for (i = 0; i < LT_LAT_KIND_MAX; i++)
		lt_hist_latency(&a->lat[i], &a->sum.latency[i]);
	a->sum.nr_tasks = a->nr_tasks;
}

void lt_stats_free(struct lt_analysis *a)
{
	size_t i;
	int k;

	for (i = 0; i < a->nr_tasks; i++) {
		struct lt_task *t = a->tasks[i];

		for (k = 0; k < LT_LAT_KIND_MAX; k++)
			lt_hist_free(&t->lat[k]);
		lt_hist_free(&t->at_tick);
		free(t->cpu_mask);
		free(t);
	}
	for (k = 0; k < LT_LAT_KIND_MAX; k++)
		lt_hist_free(&a->lat[k]);
	free(a->tasks);
	free(a->hash);
}
