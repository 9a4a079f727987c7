// SPDX-License-Identifier: GPL-2.0
/*
 * What the views ask of the summary (summary.c builds it): the cells of a
 * screen, from the bins or, zoomed in, from the events re-read; the events
 * near the cursor; the tick-upgrades after a time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tui-internal.h"

/* ---- cells ---- */

static void cells_clear(struct cell *c, int n)
{
	int i;

	memset(c, 0, n * sizeof(*c));
	for (i = 0; i < n; i++)
		c[i].dom_pid = -1;
}

/*
 * Add @ns of (@pid, @st) to the cells of @cpu that [a, b) (relative to the
 * view's start) covers, and to the lanes of @pid.
 */
static void cells_add(const struct cell_query *q, int cpu, int64_t a,
		      int64_t b, int pid, enum tui_state st, float *dom)
{
	int64_t end = (int64_t)(q->ncols * q->cell_ns);
	struct cell *row = &q->cells[cpu * q->ncols];
	int i, k;

	if (a < 0)
		a = 0;
	if (b > end)
		b = end;
	/* the task filters: another task's time is not shown, as if idle */
	if (q->s && !summary_task_shown(q->s, pid))
		return;
	while (a < b) {
		int64_t cend;
		float ns;

		i = a / q->cell_ns;
		cend = (int64_t)((i + 1) * q->cell_ns);
		ns = (b < cend ? b : cend) - a;
		if (pid == q->sel)
			row[i].sel = true;
		for (k = 0; k < q->nlanes; k++)
			if (pid == q->lane_pid[k])
				q->lanes[k * q->ncols + i].ns[st] += ns;
		if (!q->only_sel || pid == q->sel)
			row[i].ns[st] += ns;
		if (ns > dom[cpu * q->ncols + i]) {
			dom[cpu * q->ncols + i] = ns;
			row[i].dom_pid = pid;
		}
		a = b < cend ? b : cend;
	}
}

/* From the bins of the level whose width fits the cells. */
static void cells_from_bins(struct summary *s, const struct cell_query *q,
			    float *dom)
{
	int l = 0, cpu, st;

	/*
	 * A merged bin keeps one task: for the selected task's highlight,
	 * the lanes and the task filters, the finest bins (a frame then visits every bin on
	 * screen, at most s->cap per CPU).
	 */
	while (q->sel < 0 && !q->nlanes && !q->s && l + 1 < s->nlevels &&
	       (s->w0 << (l + 1)) <= q->cell_ns)
		l++;
	for (cpu = 0; cpu < s->nr_cpus; cpu++) {
		const struct bin *b = s->lv[l][cpu];
		/* While reading, only level 0 exists, and grows. */
		uint64_t nb = l ? s->lv_nbins[l] : s->nbins;
		uint64_t w = s->w0 << l, i;
		int64_t first = q->start < 0 ? 0 : q->start / (int64_t)w;
		int64_t last = (q->start + (int64_t)(q->ncols * q->cell_ns) - 1) /
			       (int64_t)w;

		if (last >= (int64_t)nb)
			last = (int64_t)nb - 1;
		for (i = first; (int64_t)i <= last; i++) {
			int64_t a = (int64_t)(i * w) - q->start, e = a + w;

			if (b[i].dom_pid < 0)
				continue;
			for (st = 0; st < ST_MAX; st++) {
				int64_t len = (int64_t)b[i].share[st] * w /
					      SHARE_ONE;

				if (!len)
					continue;
				/*
				 * Within a bin, time is spread evenly: a
				 * bin's order of states is not kept.
				 */
				cells_add(q, cpu, a, a + len < e ? a + len : e,
					  b[i].dom_pid, st, dom);
				a += len;
			}
		}
	}
}

/* Cursor-near views: replay the events of the window. */
static int cells_from_events(struct summary *s, const struct cell_query *q,
			     float *dom)
{
	int64_t start = q->start;
	int64_t end = start + (int64_t)(q->ncols * q->cell_ns);
	int64_t tend = summary_rel(s, s->t_end);
	uint64_t b0 = start < 0 ? 0 : start / s->w0;
	struct lt_reader *sr = summary_seeker(s);
	const struct lt_event *ev;
	struct cpu_build *c;
	int cpu;

	if (!sr || b0 >= s->pos_filled)
		return -1;
	if (lt_reader_seek(sr, s->t0 + b0 * s->w0, s->pos[b0])) {
		s->can_seek = false;
		return -1;
	}
	c = calloc(s->nr_cpus, sizeof(*c));
	if (!c)
		return -1;
	for (cpu = 0; cpu < s->nr_cpus; cpu++) {
		const struct bin *b = &s->lv[0][cpu][b0];

		c[cpu].pid = b->start_pid;
		c[cpu].state = b->start_state;
		c[cpu].since = b->start_pid >= 0 ? (int64_t)(b0 * s->w0) : -1;
	}
	while ((ev = lt_reader_next(sr))) {
		int64_t t = summary_rel(s, ev->ts);
		struct cpu_build *cc;

		if (t >= end)
			break;
		if (ev->cpu < 0 || ev->cpu >= s->nr_cpus ||
		    !summary_event_shown(s, ev, false))
			continue;
		cc = &c[ev->cpu];
		if (cc->since >= 0 && t > cc->since)
			cells_add(q, ev->cpu, cc->since - start, t - start,
				  cc->pid, cc->state, dom);
		summary_replay(s, cc, ev, t);
	}
	if (end > tend)
		end = tend;
	for (cpu = 0; cpu < s->nr_cpus; cpu++)
		if (c[cpu].since >= 0 && end > c[cpu].since)
			cells_add(q, cpu, c[cpu].since - start, end - start,
				  c[cpu].pid, c[cpu].state, dom);
	free(c);
	return 0;
}

size_t summary_upgrade_after(const struct summary *s, uint64_t ts, bool incl)
{
	size_t lo = 0, hi = s->nr_up;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (s->up[mid].ts > ts || (incl && s->up[mid].ts == ts))
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

static void mark_upgrades(struct summary *s, const struct cell_query *q)
{
	uint64_t from = q->start < 0 ? s->t0 : s->t0 + q->start;
	size_t i = summary_upgrade_after(s, from, true);
	int k;

	for (; i < s->nr_up; i++) {
		const struct upgrade *u = &s->up[i];
		int64_t col = (summary_rel(s, u->ts) - q->start) / (int64_t)q->cell_ns;

		if (col >= q->ncols)
			break;
		if (col < 0 || u->cpu >= s->nr_cpus ||
		    !summary_task_shown(s, u->pid))
			continue;
		for (k = 0; k < q->nlanes; k++)
			if (u->pid == q->lane_pid[k])
				q->lanes[k * q->ncols + col].upgrade |=
					1U << u->source;
		if (q->only_sel && u->pid != q->sel)
			continue;
		q->cells[u->cpu * q->ncols + col].upgrade |= 1U << u->source;
	}
}

void summary_cells(struct summary *s, const struct cell_query *q)
{
	float *dom = calloc((size_t)s->nr_cpus * q->ncols, sizeof(*dom));

	cells_clear(q->cells, s->nr_cpus * q->ncols);
	cells_clear(q->lanes, q->nlanes * q->ncols);
	if (!dom)
		return;
	/*
	 * Below the bins' resolution, replay the window's events: at most
	 * about ncols bins' worth of them.
	 */
	if (q->cell_ns >= s->w0 || cells_from_events(s, q, dom))
		cells_from_bins(s, q, dom);
	mark_upgrades(s, q);
	free(dom);
}

int cell_state(const struct cell *c, uint64_t cell_ns)
{
	float total = 0;
	int st;

	for (st = 0; st < ST_MAX; st++)
		total += c->ns[st];
	if (total <= 0)
		return -1;
	/*
	 * A lazy request pending for 5% of a zoomed-out cell still matters
	 * more than the running around it: show the most urgent state that
	 * holds a fifth of the cell's known time, else the longest.
	 */
	for (st = ST_MAX - 1; st > ST_RUN; st--)
		if (c->ns[st] >= total / 5)
			return st;
	return c->ns[ST_RUN] >= c->ns[ST_IDLE] ? ST_RUN : ST_IDLE;
}

/* ---- events near the cursor ---- */

static void keep(struct summary *s, struct lt_reader *sr,
		 const struct lt_event *ev, struct ev_line *l)
{
	l->ts = ev->ts;
	l->cpu = ev->cpu;
	l->pid = ev->pid;
	l->flags = ev->flags;
	l->preempt_count = ev->preempt_count;
	l->kind = ev->kind;
	l->named = lt_event_named(ev);
	snprintf(l->comm, sizeof(l->comm), "%s", ev->comm ? ev->comm : "<...>");
	snprintf(l->name, sizeof(l->name), "%s", ev->name ? ev->name : "?");
	lt_flags_latency(s->abi, ev->flags, ev->preempt_count, l->lat);
	lt_event_payload(sr, ev, l->payload, sizeof(l->payload));
}

/* Events read per look: bounds the cost of a sparse CPU. */
#define EVENTS_LIMIT 200000

int summary_events(struct summary *s, uint64_t ts, int cpu, int pid,
		   struct ev_line *before, int nb, int *got_b,
		   struct ev_line *after, int na, int *got_a)
{
	uint64_t back = 2 * s->w0, total = 0;
	int64_t t = summary_rel(s, ts);
	struct lt_reader *sr = summary_seeker(s);

	*got_b = *got_a = 0;
	if (!sr)
		return s->can_seek ? -2 : -1;
	for (;;) {
		int64_t from = t - (int64_t)back;
		uint64_t b0 = from < 0 ? 0 : from / s->w0;
		const struct lt_event *ev;
		unsigned long n = 0;
		int nbf = 0, head = 0, i;

		if (b0 >= s->pos_filled)
			b0 = s->pos_filled ? s->pos_filled - 1 : 0;
		if (lt_reader_seek(sr, s->t0 + b0 * s->w0,
				   s->pos_filled ? s->pos[b0] : 0)) {
			s->can_seek = false;
			return -1;
		}
		*got_a = 0;
		while ((ev = lt_reader_next(sr)) && n++ < EVENTS_LIMIT) {
			/* past the cut's end: a trace.dat has no more */
			if (s->done && ev->ts > s->t_end && s->run &&
			    lt_reader_format(sr) == LT_INPUT_TRACE_DAT)
				break;
			if (ev->cpu != cpu || (pid >= 0 && ev->pid != pid) ||
			    !summary_event_shown(s, ev, true))
				continue;
			if (ev->ts < ts) {
				/* A ring of the last @nb before @ts. */
				keep(s, sr, ev, &before[head]);
				head = (head + 1) % nb;
				if (nbf < nb)
					nbf++;
				continue;
			}
			keep(s, sr, ev, &after[(*got_a)++]);
			if (*got_a == na)
				break;
		}
		total += n;
		/* Look further back for a sparse CPU or task, within bounds. */
		if (nbf < nb && b0 > 0 && total < 2 * EVENTS_LIMIT) {
			back *= 8;
			continue;
		}
		/* Unroll the ring, oldest first. */
		if (nbf == nb && head) {
			struct ev_line *tmp = malloc(nb * sizeof(*tmp));

			if (tmp) {
				for (i = 0; i < nb; i++)
					tmp[i] = before[(head + i) % nb];
				memcpy(before, tmp, nb * sizeof(*tmp));
				free(tmp);
			}
		}
		*got_b = nbf;
		return 0;
	}
}

/* ---- formatting ---- */

/* As every command prints a time: rounded as the kernel does. */
const char *fmt_ts(char *buf, size_t len, uint64_t ts)
{
	lt_time_format(ts, false, buf, len);
	return buf;
}

