// SPDX-License-Identifier: GPL-2.0
/*
 * The view: the state of what is shown (cursor, zoom, CPU rows, the
 * selection, lanes, the find prompt), changed only here, by keys and by
 * the summary growing; draw.c paints whatever the view says.
 *
 * The cursor is a time drawn at the middle column, so zooming keeps it
 * in place and a jump (n, h) brings the found moment to the middle.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define NCURSES_WIDECHAR 1
#include <curses.h>

#include "../common/common.h"
#include "tui-internal.h"

#define MIN_CELL_NS 10ULL

static uint64_t trace_len(const struct view *v)
{
	return v->s->t_end > v->s->t0 ? v->s->t_end - v->s->t0 : 1;
}

static void set_msg(struct view *v, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void set_msg(struct view *v, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(v->msg, sizeof(v->msg), fmt, ap);
	va_end(ap);
}

int view_sel_pid(const struct view *v)
{
	return v->sel ? v->sel->pid : -1;
}

/* The busiest task of @pid in the current results, or NULL. */
static const struct tui_task *task_of(struct summary *s, int pid)
{
	const struct tui_task *best = NULL;
	size_t i, nr = s->res ? s->res->nr_tasks : 0;

	for (i = 0; i < nr; i++) {
		const struct tui_task *t = &s->res->tasks[i];

		if (t->pid == pid && (!best || t->runtime_ns > best->runtime_ns))
			best = t;
	}
	return best;
}

/*
 * Live, each interval brings a new analysis: find the selected and the
 * pinned tasks again, by pid (a task gone quiet keeps its lane if the
 * new interval saw it at all).
 */
void view_remap(struct view *v)
{
	int i, n = 0;

	if (v->gen == v->s->generation)
		return;
	v->gen = v->s->generation;
	if (v->sel_pid >= 0) {
		v->sel = task_of(v->s, v->sel_pid);
		if (!v->sel)
			v->filter = false;
	}
	for (i = 0; i < v->npinned; i++) {
		const struct tui_task *t = task_of(v->s, v->pinned_pid[i]);

		if (t) {
			v->pinned_pid[n] = v->pinned_pid[i];
			v->pinned[n++] = t;
		}
	}
	v->npinned = n;
	v->ev_valid = false;
}

/* The lanes to draw: the selected task's, then the pinned ones. */
void view_lanes(struct view *v)
{
	int i;

	v->nlanes = 0;
	if (v->sel) {
		v->lane_task[v->nlanes] = v->sel;
		v->lane_pid[v->nlanes++] = v->sel->pid;
	}
	for (i = 0; i < v->npinned; i++) {
		if (v->pinned[i] == v->sel)
			continue;
		v->lane_task[v->nlanes] = v->pinned[i];
		v->lane_pid[v->nlanes++] = v->pinned[i]->pid;
	}
}

static void pin(struct view *v)
{
	int i;

	if (!v->sel) {
		set_msg(v, "select a task first (/ or Tab)");
		return;
	}
	for (i = 0; i < v->npinned; i++)
		if (v->pinned[i] == v->sel) {
			set_msg(v, "%d %s already has a lane", v->sel->pid,
				v->sel->comm);
			return;
		}
	if (v->npinned == MAX_LANES - 1) {
		set_msg(v, "%d lanes at most: A removes them", MAX_LANES - 1);
		return;
	}
	v->pinned_pid[v->npinned] = v->sel->pid;
	v->pinned[v->npinned++] = v->sel;
	set_msg(v, "lane kept for %d %s", v->sel->pid, v->sel->comm);
}

void view_clamp(struct view *v)
{
	uint64_t max_cell = 2 * trace_len(v) / (v->ncols ? v->ncols : 1) + 1;

	if (v->cell_ns < MIN_CELL_NS)
		v->cell_ns = MIN_CELL_NS;
	if (v->cell_ns > max_cell)
		v->cell_ns = max_cell;
	if (v->cursor < v->s->t0)
		v->cursor = v->s->t0;
	if (v->cursor > v->s->t_end)
		v->cursor = v->s->t_end;
	if (v->cpu < 0)
		v->cpu = 0;
	if (v->cpu >= v->s->nr_cpus)
		v->cpu = v->s->nr_cpus - 1;
}

/* The whole trace on one screen, its start at the left edge. */
static void view_home(struct view *v)
{
	v->cursor = v->s->t0 + (uint64_t)v->ccol * v->cell_ns;
	view_clamp(v);
}

/* All of the trace (read so far) on the screen. */
void view_fit(struct view *v)
{
	v->cell_ns = (trace_len(v) + v->ncols - 1) / v->ncols;
	view_home(v);
}

void view_init(struct view *v, struct summary *s)
{
	memset(v, 0, sizeof(*v));
	v->s = s;
	v->ncols = COLS > LABEL_W + 1 ? COLS - LABEL_W : 1;
	v->ccol = v->ncols / 2;
	v->autofit = true;
	v->sel_pid = -1;
	view_fit(v);
}

/* Keys that need the finished analysis (hogs, tasks, episodes). */
static bool need_done(struct view *v, int key)
{
	if (v->s->done || (key != 'h' && key != '/' && key != '\t'))
		return false;
	set_msg(v, "still reading the input: hogs and tasks come at its end");
	return true;
}

static void pan(struct view *v, int64_t cols)
{
	int64_t d = cols * (int64_t)v->cell_ns;

	if (d < 0 && (uint64_t)-d > v->cursor - v->s->t0)
		v->cursor = v->s->t0;
	else
		v->cursor += d;
	view_clamp(v);
}

static void announce(struct view *v, const struct upgrade *u, const char *what)
{
	char ts[32], lat[24];
	const struct tui_task *t = NULL;
	size_t i, nr = v->s->res && v->s->done ? v->s->res->nr_tasks : 0;

	for (i = 0; i < nr; i++) {
		const struct tui_task *c = &v->s->res->tasks[i];

		if (c->pid == u->pid)
			t = c;
	}
	set_msg(v, "%s %s [%03d] %s-%d  %s pending %s  source=%s", what,
		fmt_ts(ts, sizeof(ts), u->ts), u->cpu, t ? t->comm : "?",
		u->pid, lt_transition_name(u->request),
		fmt_ns(lat, sizeof(lat), u->ts - u->since),
		lt_upgrade_source_name(u->source));
}

/* Whether n/N (h: @episodes) stop at @u: of @pid if not -1, and shown. */
static bool visits(const struct summary *s, const struct upgrade *u, int pid,
		   bool episodes)
{
	return (pid < 0 || u->pid == pid) && upgrade_forced(u) &&
	       (!episodes || u->episode) && summary_task_shown(s, u->pid);
}

static void jump_upgrade(struct view *v, bool forward, bool episodes)
{
	struct summary *s = v->s;
	int pid = -1;
	size_t i;

	if (v->filter || (episodes && v->sel && v->sel->hog))
		pid = view_sel_pid(v);
	if (forward) {
		for (i = summary_upgrade_after(s, v->cursor, false);
		     i < s->nr_up; i++)
			if (visits(s, &s->up[i], pid, episodes))
				break;
	} else {
		i = summary_upgrade_after(s, v->cursor, true);
		while (i-- > 0)
			if (visits(s, &s->up[i], pid, episodes))
				break;
		if (i == (size_t)-1)
			i = s->nr_up;
	}
	if (i >= s->nr_up) {
		set_msg(v, "no %s %s the cursor%s",
			episodes ? "hog episode" : "tick- or hrtick-upgrade",
			forward ? "after" : "before",
			pid >= 0 ? " for the selected task" : "");
		return;
	}
	v->cursor = s->up[i].ts;
	v->cpu = s->up[i].cpu;
	announce(v, &s->up[i], episodes ? "hog episode" :
		 s->up[i].source == LT_UPG_TICK ? "tick-upgrade" : "upgrade");
}

static int by_runtime(const void *a, const void *b)
{
	const struct tui_task *x = *(const struct tui_task *const *)a;
	const struct tui_task *y = *(const struct tui_task *const *)b;

	if (x->runtime_ns != y->runtime_ns)
		return x->runtime_ns < y->runtime_ns ? 1 : -1;
	return x->id < y->id ? -1 : x->id > y->id;
}

/*
 * Find a task by pid (all digits) or comm substring: the busiest match,
 * or, when the selected task matches too, the next busiest after it, so
 * that repeating a search walks through the matches.
 */
static const struct tui_task *find_task(struct view *v, const char *q,
					size_t *nth, size_t *nr)
{
	const struct tui_results *res = v->s->res;
	const struct tui_task **m, *found = NULL;
	bool num = *q != '\0';
	const char *p;
	size_t i, n = 0;

	for (p = q; *p; p++)
		if (!isdigit((unsigned char)*p))
			num = false;
	*nr = 0;
	if (!res)
		return NULL;
	m = malloc((res->nr_tasks + 1) * sizeof(*m));
	if (!m)
		return NULL;
	for (i = 0; i < res->nr_tasks; i++) {
		const struct tui_task *t = &res->tasks[i];

		if (!summary_task_shown(v->s, t->pid))
			continue;
		if (num ? t->pid == atoi(q) : strstr(t->comm, q) != NULL)
			m[n++] = t;
	}
	qsort(m, n, sizeof(*m), by_runtime);
	for (i = 0; i < n && m[i] != v->sel; i++)
		;
	*nth = i < n ? (i + 1) % n : 0;
	*nr = n;
	if (n)
		found = m[*nth];
	free(m);
	return found;
}

#define FIND_PROMPT "find pid or comm: "

/* Select the task the find prompt names. */
static void search(struct view *v, const char *q)
{
	const struct tui_task *t;
	size_t nth, nr;

	t = find_task(v, q, &nth, &nr);
	if (!t && !v->s->res) {
		set_msg(v, "the tasks come once the trace is read: / again then");
		return;
	}
	if (!t) {
		set_msg(v, "no task matches '%s'", q);
		return;
	}
	v->sel = t;
	v->sel_pid = t->pid;
	set_msg(v, "selected %d %s, match %zu of %zu (/ again: next; f filters, a keeps a lane)",
		t->pid, t->comm, nth + 1, nr);
}

/* A key while the find prompt is open: edit it, Enter finds, Esc leaves. */
static void prompt_key(struct view *v, int key)
{
	if (key == '\n' || key == '\r' || key == KEY_ENTER) {
		v->prompt.on = false;
		if (v->prompt.len)
			search(v, v->prompt.buf);
	} else if (key == 27) {
		v->prompt.on = false;
	} else if ((key == KEY_BACKSPACE || key == 127 || key == 8) &&
		   v->prompt.len) {
		v->prompt.buf[--v->prompt.len] = '\0';
	} else if (key >= 0 && key < 256 && isprint(key) &&
		   v->prompt.len + 1 < sizeof(v->prompt.buf)) {
		v->prompt.buf[v->prompt.len++] = key;
		v->prompt.buf[v->prompt.len] = '\0';
	}
}

/* The prompt's text on the status line, "" when it is closed. */
const char *view_prompt(const struct view *v, char *buf, size_t len)
{
	if (!v->prompt.on)
		return "";
	snprintf(buf, len, "%s%s", FIND_PROMPT, v->prompt.buf);
	return buf;
}

static void next_hog(struct view *v)
{
	struct tui_task *const *h;
	size_t nr, i;

	if (!v->s->res) {
		set_msg(v, "the hogs come once the trace is read");
		return;
	}
	h = v->s->res->hogs;
	nr = v->s->res->nr_hogs;
	for (i = 0; i < nr && !summary_task_shown(v->s, h[i]->pid); i++)
		;
	if (i == nr) {
		set_msg(v, v->s->res->nr_hogs_all ?
			"no hogs among the tasks --pid or --comm select" :
			"no hogs in this trace");
		return;
	}
	for (i = 0; i < nr && h[i] != v->sel; i++)
		;
	/* the next hog the task filters show, around the list */
	do
		i = i < nr ? (i + 1) % nr : 0;
	while (!summary_task_shown(v->s, h[i]->pid));
	v->sel = h[i];
	v->sel_pid = v->sel->pid;
	set_msg(v, "selected hog %d %s", v->sel->pid, v->sel->comm);
}

/* The previous or next event on the cursor CPU, from the panel's list. */
static void step_event(struct view *v, bool forward)
{
	if (forward) {
		int i = v->na && v->after[0].ts == v->cursor ? 1 : 0;

		if (i < v->na)
			v->cursor = v->after[i].ts;
	} else if (v->nb) {
		v->cursor = v->before[v->nb - 1].ts;
	}
}

void view_key(struct view *v, int key)
{
	if (v->prompt.on) {
		prompt_key(v, key);
		return;
	}
	if (v->help || v->popup) {
		v->help = v->popup = false;
		if (key != 'q')
			return;
	}
	v->msg[0] = '\0';
	if (need_done(v, key))
		return;
	if (strchr("+=-_<>gG,.nNh", key) || key == KEY_LEFT ||
	    key == KEY_RIGHT || key == KEY_PPAGE || key == KEY_NPAGE ||
	    key == KEY_HOME || key == KEY_END || key == KEY_UP ||
	    key == KEY_DOWN || key == '\n' || key == '\r') {
		v->autofit = false;
		v->s->want_seek = true;
	}
	switch (key) {
	case 'q':
	case 'Q':
		v->quit = true;
		break;
	case '+':
	case '=':
		v->cell_ns /= 2;
		break;
	case '-':
	case '_':
		v->cell_ns *= 2;
		break;
	case KEY_LEFT:
		pan(v, -(v->ncols / 8 ? v->ncols / 8 : 1));
		break;
	case KEY_RIGHT:
		pan(v, v->ncols / 8 ? v->ncols / 8 : 1);
		break;
	case '<':
		pan(v, -1);
		break;
	case '>':
		pan(v, 1);
		break;
	case KEY_PPAGE:
		pan(v, -v->ncols);
		break;
	case KEY_NPAGE:
		pan(v, v->ncols);
		break;
	case KEY_HOME:
	case 'g':
		view_home(v);
		break;
	case KEY_END:
	case 'G':
		v->cursor = v->s->t_end;
		pan(v, -(v->ncols - v->ccol - 1));
		break;
	case KEY_UP:
	case 'k':
		v->cpu--;
		break;
	case KEY_DOWN:
	case 'j':
		v->cpu++;
		break;
	case ',':
		step_event(v, false);
		break;
	case '.':
		step_event(v, true);
		break;
	case 'n':
		jump_upgrade(v, true, false);
		break;
	case 'N':
		jump_upgrade(v, false, false);
		break;
	case 'h':
		jump_upgrade(v, true, true);
		break;
	case '/':
		v->prompt.on = true;
		v->prompt.len = 0;
		v->prompt.buf[0] = '\0';
		break;
	case '\t':
		next_hog(v);
		break;
	case 'f':
		if (v->sel)
			v->filter = !v->filter;
		else
			set_msg(v, "select a task first (/ or Tab)");
		break;
	case 'c':
		v->sel = NULL;
		v->sel_pid = -1;
		v->filter = false;
		break;
	case 'a':
		pin(v);
		break;
	case 'A':
		v->npinned = 0;
		break;
	case '?':
		v->help = true;
		break;
	case '\n':
	case '\r':
	case KEY_ENTER:
		v->popup = true;
		break;
	default:
		break;
	}
	view_clamp(v);
}
