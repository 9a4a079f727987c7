// SPDX-License-Identifier: LGPL-2.1
/*
 * Request-to-served latency histograms per task or per comm, lazy and
 * eager apart: the kernel's (lt_khist_*(), one bucket at a time) and the
 * same from the analysis' transitions where the kernel has no hist
 * triggers. The buckets are fixed-width, as rtla's.
 */
#include <stdlib.h>
#include <string.h>

#include "../lt-util.h"
#include "lt-analysis.h"

#define HIST_BUCKETS 1024	/* hash buckets, not histogram buckets */

struct hist_task {
	int pid;
	char comm[LT_COMM_LEN];
	uint64_t comm_count;	/* the requests the comm was given with */
	uint64_t *b[LT_LATHIST_KIND_MAX];
	uint64_t over[LT_LATHIST_KIND_MAX];
	uint64_t count[LT_LATHIST_KIND_MAX];
	uint64_t sum[LT_LATHIST_KIND_MAX];
	uint64_t min[LT_LATHIST_KIND_MAX];
	uint64_t max[LT_LATHIST_KIND_MAX];
	struct hist_task *next;
};

/* A task's last upgrade, until its switch: the eager wait of a lazy request. */
struct hist_upgrade {
	int pid;
	uint64_t ns;
	struct hist_upgrade *next;
};

struct lt_lathist {
	uint64_t bucket_ns;
	unsigned int entries;
	bool by_comm;
	size_t nr;
	uint64_t first_ns, last_ns;	/* the switch outs counted from transitions */
	struct hist_task *tab[HIST_BUCKETS];
	struct hist_upgrade *upg[HIST_BUCKETS];
	struct lt_lathist_row *rows;
};

static unsigned int hash_comm(const char *s)
{
	unsigned int h = 5381;

	while (*s)
		h = h * 33 + (unsigned char)*s++;
	return h;
}

/* Documented in lazytrace.h. */
struct lt_lathist *lt_lathist_new(uint64_t bucket_ns, unsigned int entries,
			    bool by_comm)
{
	struct lt_lathist *h;

	if (!bucket_ns || !entries)
		return NULL;
	h = calloc(1, sizeof(*h));
	if (!h)
		return NULL;
	h->bucket_ns = bucket_ns;
	h->entries = entries;
	h->by_comm = by_comm;
	return h;
}

/* Documented in lazytrace.h. */
void lt_lathist_free(struct lt_lathist *h)
{
	struct hist_task *t, *tn;
	struct hist_upgrade *u, *un;
	int i, k;

	if (!h)
		return;
	for (i = 0; i < HIST_BUCKETS; i++) {
		for (t = h->tab[i]; t; t = tn) {
			tn = t->next;
			for (k = 0; k < LT_LATHIST_KIND_MAX; k++)
				free(t->b[k]);
			free(t);
		}
		for (u = h->upg[i]; u; u = un) {
			un = u->next;
			free(u);
		}
	}
	free(h->rows);
	free(h);
}

static struct hist_task *task_of(struct lt_lathist *h, int pid, const char *comm)
{
	unsigned int i = h->by_comm ? hash_comm(comm) % HIST_BUCKETS :
				      (unsigned int)pid % HIST_BUCKETS;
	struct hist_task *t;
	int k;

	for (t = h->tab[i]; t; t = t->next)
		if (h->by_comm ? !strcmp(t->comm, comm) : t->pid == pid)
			return t;
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	for (k = 0; k < LT_LATHIST_KIND_MAX; k++) {
		t->b[k] = calloc(h->entries, sizeof(*t->b[k]));
		if (!t->b[k]) {
			while (k--)
				free(t->b[k]);
			free(t);
			return NULL;
		}
	}
	t->pid = h->by_comm ? -1 : pid;
	lt_strlcpy(t->comm, comm, sizeof(t->comm));
	t->next = h->tab[i];
	h->tab[i] = t;
	h->nr++;
	return t;
}

/* Documented in lazytrace.h. */
int lt_lathist_add(struct lt_lathist *h, int pid, const char *comm,
		enum lt_lathist_kind kind, uint64_t lat_ns, uint64_t count,
		uint64_t sum_ns)
{
	struct hist_task *t;
	uint64_t b;

	if (pid <= 0 || !count || (unsigned int)kind >= LT_LATHIST_KIND_MAX)
		return 0;
	if (!comm)
		comm = "";
	t = task_of(h, pid, comm);
	if (!t)
		return -1;
	/* a task's name: the one most of its requests came with (exec) */
	if (!h->by_comm && count > t->comm_count) {
		lt_strlcpy(t->comm, comm, sizeof(t->comm));
		t->comm_count = count;
	}
	b = lat_ns / h->bucket_ns;
	if (b < h->entries)
		t->b[kind][b] += count;
	else
		t->over[kind] += count;
	if (!t->count[kind] || lat_ns < t->min[kind])
		t->min[kind] = lat_ns;
	/* counts in a bucket: the longest may reach the bucket's end */
	if (count > 1 || sum_ns != lat_ns)
		lat_ns = (b + 1) * h->bucket_ns - 1;
	if (lat_ns > t->max[kind])
		t->max[kind] = lat_ns;
	t->count[kind] += count;
	t->sum[kind] += sum_ns;
	return 0;
}

static struct hist_upgrade **upgrade_of(struct lt_lathist *h, int pid)
{
	struct hist_upgrade **u = &h->upg[(unsigned int)pid % HIST_BUCKETS];

	while (*u && (*u)->pid != pid)
		u = &(*u)->next;
	return u;
}

/* The wait from an upgrade to the switch, once: the upgrade is forgotten. */
static uint64_t take_upgrade(struct lt_lathist *h, int pid)
{
	struct hist_upgrade **u = upgrade_of(h, pid), *n;
	uint64_t ns;

	if (!*u)
		return 0;
	n = *u;
	ns = n->ns;
	*u = n->next;
	free(n);
	return ns;
}

static int add_wait(struct lt_lathist *h, const struct lt_transition *t,
		    enum lt_lathist_kind kind, uint64_t from)
{
	uint64_t lat = t->seen_ns > from ? t->seen_ns - from : 0;

	if (!h->first_ns || t->seen_ns < h->first_ns)
		h->first_ns = t->seen_ns;
	if (t->seen_ns > h->last_ns)
		h->last_ns = t->seen_ns;
	return lt_lathist_add(h, t->pid, t->comm, kind, lat, 1, lat);
}

/* Documented in lazytrace.h. */
int lt_lathist_transition(struct lt_lathist *h, const struct lt_transition *t)
{
	struct hist_upgrade **u;
	uint64_t up;

	if (t->pid <= 0)
		return 0;
	switch (t->kind) {
	case LT_TR_UPGRADE:
	case LT_TR_TICK_UPGRADE:
		/* the kernel's probe sees the eager request an upgrade makes */
		u = upgrade_of(h, t->pid);
		if (!*u) {
			*u = calloc(1, sizeof(**u));
			if (!*u)
				return -1;
			(*u)->pid = t->pid;
		}
		(*u)->ns = t->request_ns ? t->request_ns : t->seen_ns;
		return 0;
	case LT_TR_PREEMPTED:
	case LT_TR_YIELDED:
	case LT_TR_BLOCKED:
		up = take_upgrade(h, t->pid);
		if (t->request == LT_TR_LAZY) {
			if (add_wait(h, t, LT_LATHIST_LAZY, t->since_ns))
				return -1;
			return up ? add_wait(h, t, LT_LATHIST_EAGER, up) : 0;
		}
		return add_wait(h, t, LT_LATHIST_EAGER, t->since_ns);
	case LT_TR_CLEARED:
	case LT_TR_TRUNCATED:
		take_upgrade(h, t->pid);
		return 0;
	default:
		return 0;
	}
}

static int row_cmp(const void *a, const void *b)
{
	const struct lt_lathist_row *x = a, *y = b;
	uint64_t nx = x->count[LT_LATHIST_LAZY] + x->count[LT_LATHIST_EAGER];
	uint64_t ny = y->count[LT_LATHIST_LAZY] + y->count[LT_LATHIST_EAGER];

	if (nx != ny)
		return nx > ny ? -1 : 1;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return strcmp(x->comm, y->comm);
}

/* Documented in lazytrace.h. */
bool lt_lathist_window(const struct lt_lathist *h, uint64_t *first_ns,
		       uint64_t *last_ns)
{
	*first_ns = h->first_ns;
	*last_ns = h->last_ns;
	return h->first_ns != 0;
}

/* Documented in lazytrace.h. */
const struct lt_lathist_row *lt_lathist_rows(struct lt_lathist *h, size_t *nr)
{
	struct lt_lathist_row *r;
	struct hist_task *t;
	size_t n = 0;
	int i, k;

	*nr = 0;
	free(h->rows);
	h->rows = calloc(h->nr ? h->nr : 1, sizeof(*h->rows));
	if (!h->rows)
		return NULL;
	for (i = 0; i < HIST_BUCKETS; i++)
		for (t = h->tab[i]; t; t = t->next) {
			r = &h->rows[n++];
			r->pid = t->pid;
			r->comm = t->comm;
			for (k = 0; k < LT_LATHIST_KIND_MAX; k++) {
				r->buckets[k] = t->b[k];
				r->over[k] = t->over[k];
				r->count[k] = t->count[k];
				r->sum_ns[k] = t->sum[k];
				r->min_ns[k] = t->min[k];
				r->max_ns[k] = t->max[k];
			}
		}
	qsort(h->rows, n, sizeof(*h->rows), row_cmp);
	*nr = n;
	return h->rows;
}

/* Documented in lazytrace.h. */
uint64_t lt_lathist_bucket_ns(const struct lt_lathist *h)
{
	return h->bucket_ns;
}

/* Documented in lazytrace.h. */
unsigned int lt_lathist_entries(const struct lt_lathist *h)
{
	return h->entries;
}
