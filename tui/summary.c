// SPDX-License-Identifier: GPL-2.0
/*
 * The viewer's compact summary of a trace, built in one pass (the views'
 * queries of it are summary-query.c).
 *
 * Per CPU, level-0 bins of width w0 hold the share of time of each state
 * and the task that ran longest. w0 starts at 1 us; when the trace
 * outgrows the bins, neighbours are merged and w0 doubles, so memory is
 * fixed by the CPU count, never by the trace's length or event count.
 * Coarser levels (2, 4, 8 ... bins merged) make zoomed-out screens cheap.
 * Each bin also keeps the state at its start and a reader position, so
 * that zoomed-in screens and the events panel re-read just the events
 * they show through lt_reader_seek().
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "tui-internal.h"

/* Level-0 bins of all CPUs together, so memory is bounded. */
#define TOTAL_BINS	(1u << 21)
#define MAX_CPU_BINS	(1u << 16)
#define MIN_CPU_BINS	(1u << 10)
/* A corrupt text line naming CPU 10^9 must not allocate bins for it. */
#define MAX_CPUS	8192

static enum tui_state flags_state(enum lt_abi abi, int pid, unsigned int flags)
{
	struct lt_flags f;

	if (pid == 0)
		return ST_IDLE;
	f = lt_flags_decode(abi, flags);
	if (f.preempt_resched)
		return ST_FOLD;
	if (f.need_resched)
		return ST_EAGER;
	if (f.need_resched_lazy)
		return ST_LAZY;
	return ST_RUN;
}

static void bin_clear(struct bin *b)
{
	memset(b, 0, sizeof(*b));
	b->dom_pid = -1;
	b->start_pid = -1;
}

static void bin_merge(struct bin *out, const struct bin *a, const struct bin *b)
{
	struct bin m;
	int i;

	for (i = 0; i < ST_MAX; i++)
		m.share[i] = (a->share[i] + b->share[i] + 1) / 2;
	if (b->dom_share > a->dom_share) {
		m.dom_pid = b->dom_pid;
		m.dom_share = (b->dom_share + 1) / 2;
	} else {
		m.dom_pid = a->dom_pid;
		m.dom_share = (a->dom_share + 1) / 2;
	}
	m.start_pid = a->start_pid;
	m.start_state = a->start_state;
	*out = m;
}

/* Merge neighbouring level-0 bins: twice the width, half the bins. */
static void coarsen(struct summary *s)
{
	uint64_t i, half = s->cap / 2;
	int cpu;

	for (cpu = 0; cpu < s->nr_cpus; cpu++) {
		struct bin *b = s->lv[0][cpu];

		for (i = 0; i < half; i++)
			bin_merge(&b[i], &b[2 * i], &b[2 * i + 1]);
		for (i = half; i < s->cap; i++)
			bin_clear(&b[i]);
		s->cb[cpu].acc_bin /= 2;
	}
	for (i = 0; i < half; i++)
		s->pos[i] = s->pos[2 * i];
	s->pos_filled = (s->pos_filled + 1) / 2;
	s->nbins = (s->nbins + 1) / 2;
	s->w0 *= 2;
}

static uint16_t frac(uint64_t ns, uint64_t w)
{
	return (ns * SHARE_ONE + w / 2) / w;
}

static void sat_add(uint16_t *v, uint16_t add)
{
	*v = *v + add > SHARE_ONE ? SHARE_ONE : *v + add;
}

/* Account [a, b) (relative ns) of one task in one state to @cpu's bins. */
static void account(struct summary *s, int cpu, int64_t a, int64_t b,
		    int pid, enum tui_state st)
{
	struct cpu_build *c = &s->cb[cpu];

	while (a < b) {
		uint64_t idx = a / s->w0;
		int64_t bend;
		uint64_t seg;
		struct bin *bin;

		if (idx >= s->cap) {
			coarsen(s);
			continue;
		}
		bin = &s->lv[0][cpu][idx];
		bend = (int64_t)((idx + 1) * s->w0);
		seg = (b < bend ? b : bend) - a;
		if ((uint64_t)a == idx * s->w0) {
			bin->start_pid = pid;
			bin->start_state = st;
		}
		sat_add(&bin->share[st], frac(seg, s->w0));
		if (pid == c->acc_pid && idx == c->acc_bin) {
			c->acc_ns += seg;
		} else {
			c->acc_pid = pid;
			c->acc_bin = idx;
			c->acc_ns = seg;
		}
		if (frac(c->acc_ns, s->w0) >= bin->dom_share) {
			bin->dom_pid = pid;
			bin->dom_share = frac(c->acc_ns, s->w0);
		}
		if (idx + 1 > s->nbins)
			s->nbins = idx + 1;
		a += seg;
	}
}

int64_t summary_rel(const struct summary *s, uint64_t ts)
{
	return ts > s->t0 ? (int64_t)(ts - s->t0) : 0;
}

/* Remember where to seek for every bin up to the one of @ts. */
static void note_pos(struct summary *s, int64_t t, uint64_t prev_pos)
{
	uint64_t idx;

	for (;;) {
		idx = t / s->w0;
		if (idx < s->cap)
			break;
		coarsen(s);
	}
	while (s->pos_filled <= idx)
		s->pos[s->pos_filled++] = prev_pos;
	if (idx + 1 > s->nbins)
		s->nbins = idx + 1;
}

/* The transitions table's columns summary_rows() reads. */
enum { TR_TS, TR_CPU, TR_PID, TR_KIND, TR_REQUEST, TR_SINCE, TR_SOURCE };

/* @name's number among @max that @name_of names, @max if none. */
static int name_number(const char *name, const char *(*name_of)(int),
		       int max)
{
	int k;

	for (k = 0; name && k < max; k++)
		if (!strcmp(name, name_of(k)))
			return k;
	return max;
}

static const char *kind_name(int k)
{
	return lt_transition_name(k);
}

static const char *source_name(int k)
{
	return lt_upgrade_source_name(k);
}

/* Ask the run for the rows of the transitions its events make. */
static int ask_rows(struct summary *s)
{
	static const char *const names[] = {
		"ts_ns", "cpu", "pid", "kind", "request", "since_ns", "source",
	};
	size_t i;

	s->tr = lt_run_table(s->run, "transitions");
	if (!s->tr)
		return -1;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		s->tr_col[i] = lt_table_column(s->tr, names[i]);
		if (s->tr_col[i] < 0)
			return -1;
	}
	return 0;
}

/*
 * Room for twice the upgrades. They grow with the trace (9.8 million,
 * 392 MB, in a 10 GB one), so they live in a file of $TMPDIR that has no
 * name (O_TMPFILE), mapped: memory the kernel can write back and take,
 * not the heap's. On the heap where no such file can be made.
 */
static int up_grow(struct summary *s)
{
	size_t n = s->cap_up ? 2 * s->cap_up : 1024, sz = sizeof(*s->up);
	const char *dir = getenv("TMPDIR");
	void *p;

	if (!s->cap_up && !s->up_mapped) {
		s->up_fd = open(dir && *dir ? dir : "/tmp",
				O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
		s->up_mapped = s->up_fd >= 0;
	}
	if (!s->up_mapped) {
		p = realloc(s->up, n * sz);
		if (!p)
			return -1;
	} else {
		if (ftruncate(s->up_fd, n * sz))
			return -1;
		p = s->cap_up ? mremap(s->up, s->cap_up * sz, n * sz,
				       MREMAP_MAYMOVE) :
			mmap(NULL, n * sz, PROT_READ | PROT_WRITE, MAP_SHARED,
			     s->up_fd, 0);
		if (p == MAP_FAILED)
			return -1;
	}
	s->up = p;
	s->cap_up = n;
	return 0;
}

static void up_free(struct summary *s)
{
	if (!s->up_mapped) {
		free(s->up);
		return;
	}
	if (s->up)
		munmap(s->up, s->cap_up * sizeof(*s->up));
	close(s->up_fd);
}

/* The upgrades among the transitions the events taken so far made. */
static void summary_rows(struct summary *s)
{
	const struct lt_table *t;
	const int *col = s->tr_col;
	struct upgrade *u;
	const char *kind;

	while ((t = lt_run_next(s->run))) {
		kind = lt_table_string(t, col[TR_KIND]);
		if (strcmp(kind, "tick-upgrade") && strcmp(kind, "upgrade"))
			continue;
		if (s->nr_up == s->cap_up && up_grow(s))
			continue;
		u = &s->up[s->nr_up++];
		u->ts = lt_table_uint(t, col[TR_TS]);
		u->since = lt_table_uint(t, col[TR_SINCE]);
		u->cpu = lt_table_int(t, col[TR_CPU]);
		u->pid = lt_table_int(t, col[TR_PID]);
		u->request = name_number(lt_table_string(t, col[TR_REQUEST]),
					 kind_name, LT_TR_KIND_MAX);
		u->source = name_number(lt_table_string(t, col[TR_SOURCE]),
					source_name, LT_UPG_SOURCE_MAX);
		u->episode = false;
	}
}

/* Text input names its CPUs as it goes: give a new one its bins. */
static int grow_cpus(struct summary *s, int nr)
{
	struct bin **lv;
	struct cpu_build *cb;
	int cpu;

	if (nr <= s->nr_cpus)
		return 0;
	if (nr > MAX_CPUS)
		return -1;
	lv = realloc(s->lv[0], nr * sizeof(*lv));
	if (!lv)
		return -1;
	s->lv[0] = lv;
	cb = realloc(s->cb, nr * sizeof(*cb));
	if (!cb)
		return -1;
	s->cb = cb;
	for (cpu = s->nr_cpus; cpu < nr; cpu++) {
		uint64_t i;

		lv[cpu] = malloc(s->cap * sizeof(struct bin));
		if (!lv[cpu])
			return -1;
		for (i = 0; i < s->cap; i++)
			bin_clear(&lv[cpu][i]);
		memset(&cb[cpu], 0, sizeof(cb[cpu]));
		cb[cpu].since = -1;
		cb[cpu].acc_pid = -1;
		s->nr_cpus = cpu + 1;
	}
	return 0;
}

static int alloc_bins(struct summary *s, int nr_cpus)
{

	s->cap = TOTAL_BINS / nr_cpus;
	if (s->cap > MAX_CPU_BINS)
		s->cap = MAX_CPU_BINS;
	if (s->cap < MIN_CPU_BINS)
		s->cap = MIN_CPU_BINS;
	/* A power of two, so that merging pairs always fits. */
	while (s->cap & (s->cap - 1))
		s->cap &= s->cap - 1;
	s->w0 = 1000;
	s->pos = calloc(s->cap, sizeof(*s->pos));
	if (!s->pos)
		return -1;
	s->nlevels = 1;
	return grow_cpus(s, nr_cpus);
}

/* The coarser levels, each merging pairs of the one below. */
static int build_levels(struct summary *s)
{
	int l, cpu;

	s->lv_nbins[0] = s->nbins ? s->nbins : 1;
	for (l = 1; l < MAX_LEVELS && s->lv_nbins[l - 1] > 1; l++) {
		uint64_t n = (s->lv_nbins[l - 1] + 1) / 2, i;

		s->lv[l] = calloc(s->nr_cpus, sizeof(*s->lv[l]));
		if (!s->lv[l])
			return -1;
		s->lv_nbins[l] = n;
		s->nlevels = l + 1;
		for (cpu = 0; cpu < s->nr_cpus; cpu++) {
			const struct bin *lo = s->lv[l - 1][cpu];
			struct bin *b = malloc(n * sizeof(*b)), empty;

			if (!b)
				return -1;
			s->lv[l][cpu] = b;
			bin_clear(&empty);
			for (i = 0; i < n; i++)
				bin_merge(&b[i], &lo[2 * i],
					  2 * i + 1 < s->lv_nbins[l - 1] ?
					  &lo[2 * i + 1] : &empty);
		}
	}
	return 0;
}

/* The upgrades since the last call that are hog episodes of @s->res' hogs. */
static void mark_episodes(struct summary *s)
{
	const struct tui_results *res = s->res;
	size_t i, h;

	s->episode_ns = res->tick_ns / 2;
	for (i = s->up_marked; i < s->nr_up; i++) {
		struct upgrade *u = &s->up[i];

		if (u->request != LT_TR_LAZY || !upgrade_forced(u) ||
		    u->ts - u->since < s->episode_ns)
			continue;
		for (h = 0; h < res->nr_hogs; h++)
			if (res->hogs[h]->pid == u->pid)
				u->episode = true;
	}
	s->up_marked = s->nr_up;
}

static size_t pid_slot(int pid, size_t cap)
{
	return ((unsigned int)pid * 2654435761u) & (cap - 1);
}

bool summary_task_shown(const struct summary *s, int pid)
{
	size_t i;

	if (!(s->filters & TUI_TASKS))
		return true;
	if (!s->sel_cap)
		return false;
	for (i = pid_slot(pid, s->sel_cap); s->sel_pids[i] >= 0;
	     i = (i + 1) & (s->sel_cap - 1))
		if (s->sel_pids[i] == pid)
			return true;
	return false;
}

static void pid_put(int *v, size_t cap, int pid)
{
	size_t i = pid_slot(pid, cap);

	while (v[i] >= 0)
		i = (i + 1) & (cap - 1);
	v[i] = pid;
}

/* A task the task filters select: its pid is shown from now on. */
static int select_pid(struct summary *s, int pid)
{
	size_t cap, i;
	int *v;

	if (pid < 0 || summary_task_shown(s, pid))
		return 0;
	if (2 * (s->sel_nr + 1) > s->sel_cap) {
		cap = s->sel_cap ? 2 * s->sel_cap : 64;
		v = malloc(cap * sizeof(*v));
		if (!v)
			return -1;
		for (i = 0; i < cap; i++)
			v[i] = -1;
		for (i = 0; i < s->sel_cap; i++)
			if (s->sel_pids[i] >= 0)
				pid_put(v, cap, s->sel_pids[i]);
		free(s->sel_pids);
		s->sel_pids = v;
		s->sel_cap = cap;
	}
	pid_put(s->sel_pids, s->sel_cap, pid);
	s->sel_nr++;
	return 0;
}

/* The run decides, by the rules of every command's tables. */
bool summary_event_shown(const struct summary *s, const struct lt_event *ev,
			 bool task)
{
	return !s->run || lt_run_event_selected(s->run, ev,
						task && (s->filters & TUI_TASKS));
}

/*
 * Whether the cut selects @ev; a task it finds the task filters select
 * (the event's current task) is shown from then on.
 */
static int summary_select(struct summary *s, const struct lt_event *ev)
{
	if (!s->run || !s->filters)
		return 1;
	if (!lt_run_event_selected(s->run, ev, false))
		return 0;
	if ((s->filters & TUI_TASKS) && lt_run_event_selected(s->run, ev, true))
		return select_pid(s, ev->pid) ? -1 : 1;
	return 1;
}

/* The state a CPU is in after @ev, at relative time @t. */
void summary_replay(struct summary *s, struct cpu_build *c,
		    const struct lt_event *ev, int64_t t)
{
	if (ev->kind == LT_EV_SCHED_SWITCH) {
		c->pid = ev->u.sched_switch.next_pid;
		c->state = c->pid ? ST_RUN : ST_IDLE;
	} else {
		c->pid = ev->pid;
		c->state = flags_state(s->abi, ev->pid, ev->flags);
	}
	if (c->since < t)
		c->since = t;
}

/* Feed one event to the summary. */
static void summary_event(struct summary *s, const struct lt_event *ev,
			  uint64_t prev_pos)
{
	int64_t t = summary_rel(s, ev->ts);
	struct cpu_build *c;

	note_pos(s, t, prev_pos);
	if (ev->cpu < 0 || (ev->cpu >= s->nr_cpus && grow_cpus(s, ev->cpu + 1)))
		return;
	c = &s->cb[ev->cpu];
	if (c->since >= 0 && t > c->since)
		account(s, ev->cpu, c->since, t, c->pid, c->state);
	summary_replay(s, c, ev, t);
}

/*
 * The reader that seeks near the cursor. Once the input is read, the
 * reading one. While it is read, a second reader of the same file, but
 * only once the user moves (opening a large trace.dat costs time and
 * memory that the first screen should not wait for).
 */
struct lt_reader *summary_seeker(struct summary *s)
{
	struct lt_open_opts o = { .abi = s->abi, .buffer = s->buffer };
	char err[512];

	if (!s->can_seek)
		return NULL;
	if (s->done) {
		if (s->sr) {
			lt_reader_close(s->sr);
			s->sr = NULL;
		}
		return s->r;
	}
	if (!s->want_seek)
		return NULL;
	if (!s->sr) {
		s->sr = lt_reader_open(s->file, &o, err, sizeof(err));
		if (!s->sr)
			s->can_seek = false;
	}
	return s->sr;
}

static int summary_init(struct summary *s, struct lt_run *run,
			const char *file, const char *buffer)
{
	struct lt_reader *r = lt_run_reader(run);
	int cpu;

	memset(s, 0, sizeof(*s));
	s->run = run;
	s->r = r;
	s->file = file;
	s->buffer = buffer;
	s->can_seek = strcmp(file, "-") != 0;
	s->abi = lt_reader_abi(r, NULL);
	s->size = lt_reader_size(r);
	cpu = lt_reader_nr_cpus(r);
	return alloc_bins(s, cpu < 1 ? 1 : cpu);
}

int summary_begin(struct summary *s, struct lt_run *run, const char *file,
		  const char *buffer, unsigned int filters)
{
	if (summary_init(s, run, file, buffer))
		return -1;
	s->filters = filters;
	return ask_rows(s);
}

int summary_begin_live(struct summary *s, struct lt_run *run)
{
	if (summary_init(s, run, "live", NULL))
		return -1;
	s->live = true;
	s->can_seek = false;
	return 0;
}

int summary_interval(struct summary *s)
{
	if (lt_run_interval(s->run, 0) < 0 || ask_rows(s)) {
		s->error = lt_run_error(s->run);
		return -1;
	}
	/* each interval is read with its own ABI, as the run's analysis */
	s->abi = lt_reader_abi(s->r, NULL);
	s->reading = true;
	return 0;
}

/* The input (an interval) is read: the run's results, for the panels. */
static int take_results(struct summary *s)
{
	struct tui_results *res;

	s->error = lt_reader_error(s->r);
	if (!s->error && lt_run_status(s->run) == LT_RUN_NOMEM)
		s->error = lt_run_error(s->run);
	res = results_read(s->run);
	if (!res) {
		if (!s->error)
			s->error = lt_run_error(s->run);
		return -1;
	}
	results_free(s->res);
	s->res = res;
	s->generation++;
	mark_episodes(s);
	s->reading = false;
	s->done = true;
	s->progress = 1;
	return s->error ? -1 : 0;
}

/* The reader is done: close the open intervals, compute the results. */
static int summary_end(struct summary *s)
{
	int64_t end = summary_rel(s, s->t_end);
	int cpu, ret;

	for (cpu = 0; cpu < s->nr_cpus; cpu++) {
		struct cpu_build *c = &s->cb[cpu];

		if (c->since >= 0 && end > c->since)
			account(s, cpu, c->since, end, c->pid, c->state);
	}
	ret = take_results(s);
	if (!s->res)
		return -1;
	return build_levels(s) ? -1 : ret;
}

static double mono_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* What the events in the cut tell the header while they are read. */
static void summary_note(struct summary *s, const struct lt_event *ev)
{
	if (ev->missed == LT_MISSED_UNKNOWN)
		s->lost_unknown++;
	else
		s->lost_events += ev->missed;
	/* live: only the first interval has the setup line */
	if (ev->kind == LT_EV_PRINT && !s->setup.found)
		lt_setup_parse(ev->u.print.buf, &s->setup);
}

int summary_step(struct summary *s, double budget)
{
	double until = mono_now() + budget;
	const struct lt_event *ev;

	if (s->live ? !s->reading : s->done)
		return 1;
	/* the run feeds each event to its analysis, then it is ours */
	while ((ev = lt_run_next_event(s->run))) {
		int sel = summary_select(s, ev);

		if (sel < 0)
			return -1;
		if (sel) {
			if (!s->events++)
				s->t0 = ev->ts;
			if (ev->ts > s->t_end)
				s->t_end = ev->ts;
			summary_note(s, ev);
			summary_event(s, ev, s->prev_pos);
		}
		summary_rows(s);
		/* a bin's position is before its first event, cut or not */
		s->prev_pos = lt_reader_position(s->r);
		if ((++s->read & 0x3ff) == 0 && mono_now() >= until) {
			double done = s->size ? (double)s->prev_pos / s->size : 0;

			s->progress = done > 0.99 ? 0.99 : done;
			return 0;
		}
	}
	/* the end's rows: the requests the analysis truncated */
	summary_rows(s);
	if (s->live)
		return take_results(s) ? -1 : 1;
	return summary_end(s) ? -1 : 1;
}

void summary_free(struct summary *s)
{
	int l, cpu;

	for (l = 0; l < MAX_LEVELS; l++) {
		if (!s->lv[l])
			continue;
		for (cpu = 0; cpu < s->nr_cpus; cpu++)
			free(s->lv[l][cpu]);
		free(s->lv[l]);
	}
	if (s->sr)
		lt_reader_close(s->sr);
	free(s->pos);
	free(s->cb);
	up_free(s);
	free(s->sel_pids);
	results_free(s->res);
	memset(s, 0, sizeof(*s));
}
