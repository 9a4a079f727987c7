// SPDX-License-Identifier: LGPL-2.1
/*
 * plugin-lazytrace: KernelShark plugin that shows lazy preemption on the
 * task and CPU graphs: the spans where a lazy or an eager request was
 * pending, a marker at each upgrade with its source, the hog episodes,
 * and the request's latency and call site in the information line.
 *
 * Nothing here measures anything: the plugin reads the file the stream
 * opened through a liblazytrace run, keeps the rows of its transitions
 * table as spans and markers, at the times of the events that showed
 * them (the same timestamps as KernelShark's entries), and frames the
 * hog episodes its episodes table gives.
 *
 * LAZYTRACE_KSHARK_LOG=FILE appends what the analysis gave and what was
 * drawn, for tests.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <lazytrace.h>

#include "libkshark.h"
#include "libkshark-plugin.h"
#include "libkshark-tepdata.h"

#include "lazytrace-kshark.h"

/* KernelShark numbers its streams from 0; one context per stream. */
#define LTK_MAX_STREAMS 256

static struct ltk_ctx *contexts[LTK_MAX_STREAMS];
static void *gui_ptr;

struct ltk_cpu {
	int64_t lazy_start;	/* -1: none open */
	int lazy_pid;
	int64_t eager_start;
	int eager_pid;
	int64_t stack_ts;	/* -1: no stack since the last upgrade */
	char site[128];
};

struct ltk_build {
	struct ltk_ctx *c;
	struct ltk_cpu *cpus;
	int nr_cpus;
	bool oom;
};

struct ltk_ctx *ltk_get_ctx(int sd)
{
	if (sd < 0 || sd >= LTK_MAX_STREAMS)
		return NULL;
	return contexts[sd];
}

void *ltk_gui_ptr(void)
{
	return gui_ptr;
}

static void ctx_free(struct ltk_ctx *c)
{
	size_t i;

	if (!c)
		return;
	for (i = 0; i < c->nr_markers; i++)
		free((char *)c->markers[i].site);
	free(c->markers);
	free(c->spans);
	if (c->log)
		fclose(c->log);
	free(c);
}

static struct ltk_cpu *cpu_state(struct ltk_build *b, int cpu)
{
	struct ltk_cpu *n;
	int i, nr;

	if (cpu < 0 || cpu >= 8192)
		return NULL;
	if (cpu < b->nr_cpus)
		return &b->cpus[cpu];
	nr = cpu + 1;
	n = realloc(b->cpus, nr * sizeof(*n));
	if (!n) {
		b->oom = true;
		return NULL;
	}
	for (i = b->nr_cpus; i < nr; i++) {
		memset(&n[i], 0, sizeof(n[i]));
		n[i].lazy_start = -1;
		n[i].eager_start = -1;
		n[i].stack_ts = -1;
	}
	b->cpus = n;
	b->nr_cpus = nr;
	return &n[cpu];
}

static void add_span(struct ltk_build *b, enum ltk_span_kind kind,
		     int64_t start, int64_t end, int cpu, int pid)
{
	struct ltk_ctx *c = b->c;
	struct ltk_span *s;

	if (c->nr_spans == c->cap_spans) {
		size_t n = c->cap_spans ? 2 * c->cap_spans : 1024;

		s = realloc(c->spans, n * sizeof(*s));
		if (!s) {
			b->oom = true;
			return;
		}
		c->spans = s;
		c->cap_spans = n;
	}
	s = &c->spans[c->nr_spans++];
	s->start = start;
	s->end = end > start ? end : start;
	s->cpu = cpu;
	s->pid = pid;
	s->kind = kind;
	c->nr_by_kind[kind]++;
}

/* A transitions table row, what the spans and markers need of it. */
struct ltk_tr {
	int64_t ts;
	int64_t since;		/* the request's seen_ns */
	int64_t since_after;	/* the event before it */
	int cpu;
	int pid;
	int kind;		/* enum lt_transition_kind */
	int request;		/* enum lt_transition_kind */
	int source;		/* enum lt_upgrade_source */
};

static void add_marker(struct ltk_build *b, const struct ltk_tr *t,
		       struct ltk_cpu *cs)
{
	struct ltk_ctx *c = b->c;
	struct ltk_marker *m;

	if (c->nr_markers == c->cap_markers) {
		size_t n = c->cap_markers ? 2 * c->cap_markers : 1024;

		m = realloc(c->markers, n * sizeof(*m));
		if (!m) {
			b->oom = true;
			return;
		}
		c->markers = m;
		c->cap_markers = n;
	}
	m = &c->markers[c->nr_markers++];
	m->ts = t->ts;
	m->since = t->since;
	m->cpu = t->cpu;
	m->pid = t->pid;
	m->tick = t->kind == LT_TR_TICK_UPGRADE;
	m->source = t->source;
	m->request = t->request;
	m->site = NULL;
	/* A stack the kernel took while this request was pending. */
	if (cs->stack_ts >= 0 && cs->stack_ts >= t->since_after)
		m->site = strdup(cs->site);
	cs->stack_ts = -1;
	if ((unsigned int)t->source < 8)
		c->nr_by_source[t->source]++;
}

static void close_lazy(struct ltk_build *b, struct ltk_cpu *cs, int cpu,
		       int64_t end)
{
	if (cs->lazy_start < 0)
		return;
	add_span(b, LTK_SPAN_LAZY, cs->lazy_start, end, cpu, cs->lazy_pid);
	cs->lazy_start = -1;
}

static void close_eager(struct ltk_build *b, struct ltk_cpu *cs, int cpu,
			int64_t end)
{
	if (cs->eager_start < 0)
		return;
	add_span(b, LTK_SPAN_EAGER, cs->eager_start, end, cpu, cs->eager_pid);
	cs->eager_start = -1;
}

/*
 * The library's transitions, one CPU's in time order: a lazy request
 * opens a lazy span, an upgrade ends it and opens an eager one, a direct
 * eager request opens an eager span, and serving (or truncation) ends
 * what is open.
 */
static void on_transition(struct ltk_build *b, const struct ltk_tr *t)
{
	struct ltk_cpu *cs = cpu_state(b, t->cpu);
	int64_t ts = t->ts;

	if (!cs)
		return;
	switch (t->kind) {
	case LT_TR_LAZY:
		close_lazy(b, cs, t->cpu, ts);
		cs->lazy_start = ts;
		cs->lazy_pid = t->pid;
		break;
	case LT_TR_EAGER:
		close_eager(b, cs, t->cpu, ts);
		cs->eager_start = ts;
		cs->eager_pid = t->pid;
		break;
	case LT_TR_UPGRADE:
	case LT_TR_TICK_UPGRADE:
		close_lazy(b, cs, t->cpu, ts);
		close_eager(b, cs, t->cpu, ts);
		cs->eager_start = ts;
		cs->eager_pid = t->pid;
		add_marker(b, t, cs);
		break;
	case LT_TR_FOLD:
		break;
	default:	/* served or truncated */
		close_lazy(b, cs, t->cpu, ts);
		close_eager(b, cs, t->cpu, ts);
		break;
	}
}

/* The transitions table's columns the plugin reads. */
enum {
	TR_TS, TR_CPU, TR_PID, TR_KIND, TR_REQUEST, TR_SINCE, TR_LAT_MAX,
	TR_SOURCE, TR_NR_COLS
};

static const char *const tr_names[TR_NR_COLS] = {
	"ts_ns", "cpu", "pid", "kind", "request", "since_ns",
	"latency_max_ns", "source",
};

/* A name's number in what @name_of names, -1 if none. */
static int name_number(const char *s, const char *(*name_of)(int), int max)
{
	int k;

	for (k = 0; s && k < max; k++)
		if (!strcmp(s, name_of(k)))
			return k;
	return -1;
}

static const char *transition_name(int k)
{
	return lt_transition_name(k);
}

static const char *source_name(int k)
{
	return lt_upgrade_source_name(k);
}

/* Every row the run queued: the transitions of the events taken. */
static void take_rows(struct ltk_build *b, struct lt_run *run,
		      const int *col)
{
	struct lt_table *t;
	struct ltk_tr tr;

	while ((t = lt_run_next(run))) {
		tr.ts = lt_table_uint(t, col[TR_TS]);
		tr.cpu = lt_table_int(t, col[TR_CPU]);
		tr.pid = lt_table_int(t, col[TR_PID]);
		tr.kind = name_number(lt_table_string(t, col[TR_KIND]),
				      transition_name, LT_TR_KIND_MAX);
		tr.request = name_number(lt_table_string(t, col[TR_REQUEST]),
					 transition_name, LT_TR_KIND_MAX);
		tr.source = name_number(lt_table_string(t, col[TR_SOURCE]),
					source_name, LT_UPG_SOURCE_MAX);
		if (tr.source < 0)
			tr.source = 0;
		/* null for a new request: it is its own */
		tr.since = tr.ts;
		tr.since_after = tr.ts;
		if (!lt_table_null(t, col[TR_SINCE])) {
			tr.since = lt_table_uint(t, col[TR_SINCE]);
			tr.since_after = tr.ts -
				(int64_t)lt_table_uint(t, col[TR_LAT_MAX]);
		}
		on_transition(b, &tr);
	}
}

/* The call site of a stack, as `lazytrace hogs` names it. */
static void note_stack(struct ltk_build *b, const struct lt_event *ev)
{
	struct ltk_cpu *cs = cpu_state(b, ev->cpu);
	char fn[128];
	unsigned int i;

	if (!cs)
		return;
	snprintf(cs->site, sizeof(cs->site), "[unknown]");
	for (i = 0; i < ev->u.stack.nr; i++) {
		lt_stack_frame(ev, i, fn, sizeof(fn), false);
		if (!lt_stack_frame_is_entry(fn)) {
			snprintf(cs->site, sizeof(cs->site), "%s", fn);
			break;
		}
	}
	cs->stack_ts = ev->ts;
}

static int cmp_marker(const void *x, const void *y)
{
	const struct ltk_marker *a = x, *b = y;

	if (a->ts != b->ts)
		return a->ts < b->ts ? -1 : 1;
	return a->cpu - b->cpu;
}

/*
 * The library's hog episodes: the rows of its episodes table, one frame
 * each, from the lazy request's time to its upgrade (else its end, else
 * the tick that made it an episode), on the CPU of that tick. The rule
 * is the library's alone (docs/model.md §7): the frames are the hogs
 * report's episodes. The table needs a run of its own: a second read of
 * the buffer. Returns the number of rows, or -1 on error.
 */
static long long mark_episodes(struct ltk_build *b, const char *file,
			       const char *buffer)
{
	enum { PID, CPU, SINCE, LAST_TICK, UPGRADE, SERVED, NR_COLS };
	static const char *const names[NR_COLS] = {
		"pid", "cpu", "since_ns", "last_tick_ns", "upgrade_ns",
		"served_ns",
	};
	struct lt_run *run = lt_run_new();
	struct lt_table *t = NULL;
	long long rows = 0;
	int col[NR_COLS], i, ret;

	if (!run) {
		b->oom = true;
		return -1;
	}
	if (lt_run_set(run, "input", file) ||
	    lt_run_set(run, "buffer", buffer) || lt_run_open(run))
		goto fail;
	t = lt_run_table(run, "episodes");
	if (!t)
		goto fail;
	for (i = 0; i < NR_COLS; i++) {
		col[i] = lt_table_column(t, names[i]);
		if (col[i] < 0)
			goto fail;
	}
	while ((ret = lt_table_next(t)) > 0) {
		int64_t start = lt_table_uint(t, col[SINCE]);
		int64_t end = lt_table_uint(t, col[LAST_TICK]);

		if (!lt_table_null(t, col[UPGRADE]))
			end = lt_table_uint(t, col[UPGRADE]);
		else if (!lt_table_null(t, col[SERVED]))
			end = lt_table_uint(t, col[SERVED]);
		add_span(b, LTK_SPAN_EPISODE, start, end,
			 lt_table_int(t, col[CPU]), lt_table_int(t, col[PID]));
		rows++;
	}
	if (ret < 0)
		goto fail;
	lt_run_free(run);
	return rows;
fail:
	fprintf(stderr, "plugin-lazytrace: %s: episodes: %s\n", file,
		lt_run_error(run) ? lt_run_error(run) : "no such column");
	lt_run_free(run);
	return -1;
}

/* The hogs table's rows and their episodes; -1 on error. */
static int count_hogs(struct lt_run *run, uint64_t *nr, uint64_t *episodes)
{
	struct lt_table *t = lt_run_table(run, "hogs");
	int col, ret;

	*nr = *episodes = 0;
	if (!t)
		return -1;
	col = lt_table_column(t, "episodes");
	if (col < 0)
		return -1;
	while ((ret = lt_table_next(t)) > 0) {
		(*nr)++;
		*episodes += lt_table_uint(t, col);
	}
	return ret;
}

static void log_counts(struct ltk_ctx *c, const char *file,
		       const char *buffer, struct lt_run *run,
		       long long episode_rows)
{
	uint64_t episodes = 0, sites = 0, nr = 0;
	size_t i;
	int src;

	if (!c->log)
		return;
	if (count_hogs(run, &nr, &episodes))
		fprintf(stderr, "plugin-lazytrace: %s: hogs: %s\n", file,
			lt_run_error(run) ? lt_run_error(run) : "no such column");
	fprintf(c->log, "loaded %s buffer %s\n", file, buffer);
	fprintf(c->log, "lazy_spans %llu\n",
		(unsigned long long)c->nr_by_kind[LTK_SPAN_LAZY]);
	fprintf(c->log, "eager_spans %llu\n",
		(unsigned long long)c->nr_by_kind[LTK_SPAN_EAGER]);
	fprintf(c->log, "markers %zu\n", c->nr_markers);
	for (src = 0; src < LT_UPG_SOURCE_MAX; src++)
		fprintf(c->log, "markers_%s %llu\n", lt_upgrade_source_name(src),
			(unsigned long long)c->nr_by_source[src]);
	for (i = 0; i < c->nr_markers; i++)
		sites += c->markers[i].site != NULL;
	fprintf(c->log, "markers_with_site %llu\n", (unsigned long long)sites);
	fprintf(c->log, "hogs %llu\n", (unsigned long long)nr);
	fprintf(c->log, "hog_episodes %llu\n", (unsigned long long)episodes);
	fprintf(c->log, "episode_rows %lld\n", episode_rows);
	fprintf(c->log, "episode_spans %llu\n",
		(unsigned long long)c->nr_by_kind[LTK_SPAN_EPISODE]);
	fprintf(c->log, "tick_ns %llu\n", (unsigned long long)c->tick_ns);
	fflush(c->log);
}

/*
 * The run takes the events one by one (to see the stacks that give the
 * call sites) and feeds them to its analysis: the transitions each one
 * made are the rows the run queued right after it.
 */
static int read_input(struct ltk_build *b, struct lt_run *run)
{
	struct lt_table *t = lt_run_table(run, "transitions");
	const struct lt_event *ev;
	int col[TR_NR_COLS], i;

	if (!t)
		return -1;
	for (i = 0; i < TR_NR_COLS; i++) {
		col[i] = lt_table_column(t, tr_names[i]);
		if (col[i] < 0)
			return -1;
	}
	while ((ev = lt_run_next_event(run))) {
		if (ev->kind == LT_EV_KERNEL_STACK)
			note_stack(b, ev);
		take_rows(b, run, col);
	}
	/* the end: the analysis truncated what was open */
	take_rows(b, run, col);
	return lt_run_error(run) ? -1 : 0;
}

/*
 * KernelShark opens each buffer of a trace.dat as a stream of its own,
 * named after the buffer; the run reads the same buffer.
 */
static int analyse(struct ltk_ctx *c, const char *file, const char *buffer)
{
	struct ltk_build b = { .c = c };
	struct lt_run *run = lt_run_new();
	struct lt_table *meta;
	long long episodes = -1;
	uint64_t events = 0, last_ns = 0;
	int cpu, ret = -1;

	if (!run) {
		fprintf(stderr, "plugin-lazytrace: %s: out of memory\n", file);
		return -1;
	}
	if (lt_run_set(run, "input", file) ||
	    lt_run_set(run, "buffer", buffer) ||
	    lt_run_set(run, "feed", "1") || lt_run_open(run) ||
	    read_input(&b, run))
		goto fail;
	meta = lt_run_table(run, "meta");
	if (!meta || lt_table_next(meta) <= 0)
		goto fail;
	events = lt_table_uint(meta, lt_table_column(meta, "events"));
	last_ns = lt_table_uint(meta, lt_table_column(meta, "last_ns"));
	c->tick_ns = lt_table_uint(meta, lt_table_column(meta, "tick_ns"));
	/* the finish truncated what was open; nothing should be left */
	for (cpu = 0; cpu < b.nr_cpus; cpu++) {
		close_lazy(&b, &b.cpus[cpu], cpu, last_ns);
		close_eager(&b, &b.cpus[cpu], cpu, last_ns);
	}
	if (c->nr_markers)	/* an empty buffer has no array at all */
		qsort(c->markers, c->nr_markers, sizeof(*c->markers),
		      cmp_marker);
	if (events) {
		episodes = mark_episodes(&b, file, buffer);
		if (episodes < 0)
			goto out;
	}
	if (b.oom) {
		fprintf(stderr, "plugin-lazytrace: %s: out of memory\n", file);
		goto out;
	}
	/* A buffer without events (often the top one) has nothing to show. */
	if (!events) {
		ret = 1;
		goto out;
	}
	log_counts(c, file, buffer, run, episodes);
	ret = 0;
	goto out;
fail:
	fprintf(stderr, "plugin-lazytrace: %s\n",
		lt_run_error(run) ? lt_run_error(run) : "no such column");
out:
	free(b.cpus);
	lt_run_free(run);
	return ret;
}

const struct ltk_marker *ltk_find_marker(const struct ltk_ctx *c, int cpu,
					 int64_t ts)
{
	size_t lo = 0, hi = c->nr_markers;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (c->markers[mid].ts < ts)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < c->nr_markers && c->markers[lo].ts == ts; lo++)
		if (c->markers[lo].cpu == cpu)
			return &c->markers[lo];
	return NULL;
}

/*
 * The information line shows the entry's info; at the entry that showed
 * an upgrade, say what the library found there.
 */
static char *ltk_get_info(struct kshark_data_stream *stream,
			  const struct kshark_entry *e)
{
	struct ltk_ctx *c = ltk_get_ctx(stream->stream_id);
	const struct ltk_marker *m;
	char *info, *out;
	uint64_t lat;

	if (!c || !c->orig_get_info)
		return NULL;
	info = c->orig_get_info(stream, e);
	m = ltk_find_marker(c, e->cpu, e->ts);
	if (!m)
		return info;
	lat = m->ts - m->since;
	if (asprintf(&out, "[lazytrace: %s by %s, %s request pending %llu.%03llu ms%s%s] %s",
		     m->tick ? "tick-upgrade" : "upgrade",
		     lt_upgrade_source_name(m->source),
		     lt_transition_name(m->request),
		     (unsigned long long)(lat / 1000000),
		     (unsigned long long)(lat / 1000 % 1000),
		     m->site ? ", site " : "", m->site ? m->site : "",
		     info ? info : "") < 0) {
		return info;
	}
	free(info);
	if (c->log) {
		fprintf(c->log, "info %d %lld %s\n", e->cpu, (long long)e->ts, out);
		fflush(c->log);
	}
	return out;
}

void ltk_log_draw(struct ltk_ctx *c, int draw_action, int val,
		  const size_t shapes[3])
{
	if (!c->log || !(shapes[0] + shapes[1] + shapes[2]))
		return;
	fprintf(c->log, "drew %s %d spans %zu markers %zu episodes %zu\n",
		draw_action & KSHARK_CPU_DRAW ? "cpu" : "task", val,
		shapes[0], shapes[1], shapes[2]);
	fflush(c->log);
}

static int ltk_init(struct kshark_data_stream *stream)
{
	struct kshark_generic_stream_interface *iface = stream->interface;
	const char *path = getenv("LAZYTRACE_KSHARK_LOG");
	struct ltk_ctx *c;
	int sd = stream->stream_id, ret;

	if (sd < 0 || sd >= LTK_MAX_STREAMS || contexts[sd] || !stream->file ||
	    !kshark_is_tep(stream) || !stream->name)
		return 0;
	c = calloc(1, sizeof(*c));
	if (!c)
		return 0;
	c->sd = sd;
	if (path && *path) {
		c->log = fopen(path, "a");
		if (!c->log)
			fprintf(stderr, "plugin-lazytrace: %s: %s\n", path,
				strerror(errno));
	}
	ret = analyse(c, stream->file, kshark_tep_is_top_stream(stream) ?
		      "top" : stream->name);
	if (ret) {
		/* Nothing to draw on an empty buffer is no failure. */
		ctx_free(c);
		return ret > 0;
	}
	if (iface && iface->type == KS_GENERIC_DATA_INTERFACE) {
		c->orig_get_info = iface->get_info;
		iface->get_info = ltk_get_info;
	}
	contexts[sd] = c;
	kshark_register_draw_handler(stream, ltk_draw);
	return 1;
}

static int ltk_close(struct kshark_data_stream *stream)
{
	struct kshark_generic_stream_interface *iface = stream->interface;
	int sd = stream->stream_id;
	struct ltk_ctx *c = ltk_get_ctx(sd);

	if (!c)
		return 0;
	kshark_unregister_draw_handler(stream, ltk_draw);
	if (iface && iface->type == KS_GENERIC_DATA_INTERFACE &&
	    iface->get_info == ltk_get_info)
		iface->get_info = c->orig_get_info;
	contexts[sd] = NULL;
	ctx_free(c);
	return 1;
}

/* KernelShark looks these three up by name. */
__attribute__((visibility("default")))
int KSHARK_PLOT_PLUGIN_INITIALIZER(struct kshark_data_stream *stream)
{
	return ltk_init(stream);
}

__attribute__((visibility("default")))
int KSHARK_PLOT_PLUGIN_DEINITIALIZER(struct kshark_data_stream *stream)
{
	return ltk_close(stream);
}

/* The main window, for marking the entry of a double-clicked marker. */
__attribute__((visibility("default")))
void *KSHARK_MENU_PLUGIN_INITIALIZER(void *gui)
{
	gui_ptr = gui;
	return NULL;
}
