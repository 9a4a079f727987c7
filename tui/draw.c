// SPDX-License-Identifier: GPL-2.0
/*
 * Painting the viewer. Everything is drawn into stdscr (and the popups
 * into their own windows) and sent with one doupdate(), so curses sends
 * only what changed: no flicker.
 *
 * Layout, top to bottom: header, ruler (labels, tick marks), one row per
 * CPU, lanes for the selected and the pinned tasks, the legend, the hog list beside the
 * selected task's statistics, the events around the cursor, the status
 * line.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define NCURSES_WIDECHAR 1
#include <curses.h>

#include "../common/common.h"
#include "tui-internal.h"

enum {
	PAIR_IDLE = 1,
	PAIR_RUN,
	PAIR_LAZY,
	PAIR_EAGER,
	PAIR_FOLD,
	PAIR_UPGRADE,
	PAIR_BAR,
	PAIR_TITLE,
};

static const char state_letter[ST_MAX] = { '.', '-', 'l', 'e', 'f' };
static const char *const state_name[ST_MAX] = {
	"idle", "running", "lazy pending", "eager pending", "folded",
};
static bool colors;
static uint64_t upgrade_mark_ns;	/* a tick: cells no wider get '!' */

void tui_colors(void)
{
	if (!has_colors() || getenv("NO_COLOR"))
		return;
	start_color();
	use_default_colors();
	init_pair(PAIR_IDLE, COLOR_BLUE, -1);
	init_pair(PAIR_RUN, COLOR_BLACK, COLOR_GREEN);
	init_pair(PAIR_LAZY, COLOR_BLACK, COLOR_YELLOW);
	init_pair(PAIR_EAGER, COLOR_WHITE, COLOR_RED);
	init_pair(PAIR_FOLD, COLOR_WHITE, COLOR_MAGENTA);
	init_pair(PAIR_UPGRADE, COLOR_YELLOW, COLOR_RED);
	init_pair(PAIR_BAR, COLOR_BLACK, COLOR_CYAN);
	init_pair(PAIR_TITLE, COLOR_CYAN, -1);
	colors = true;
}

static attr_t pair(int p)
{
	return colors ? COLOR_PAIR(p) : 0;
}

static attr_t state_attr(int st)
{
	if (!colors)
		return st == ST_LAZY || st == ST_EAGER || st == ST_FOLD ?
		       A_BOLD : 0;
	return COLOR_PAIR(PAIR_IDLE + st);
}

/* Print @s at (y, x), cut to @w columns, padded with blanks. */
static void put(int y, int x, int w, const char *s)
{
	int n = strlen(s);

	if (w <= 0 || y < 0 || y >= LINES)
		return;
	mvaddnstr(y, x, s, n < w ? n : w);
	for (; n < w; n++)
		addch(' ');
}

__attribute__((format(printf, 4, 5)))
static void putf(int y, int x, int w, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	put(y, x, w, buf);
}

/* ---- layout ---- */

struct layout {
	int header, ruler, cpus, lane, legend;
	int mid, mid_h;		/* hogs and task panels */
	int events, events_h;
	int status;
};

static struct layout lay;

void draw_layout(struct view *v)
{
	int rest, want;
	bool fit = v->autofit && (v->ncols != COLS - LABEL_W || !v->fit_final);

	v->rows = LINES;
	v->cols = COLS;
	v->ncols = COLS - LABEL_W > 1 ? COLS - LABEL_W : 1;
	v->ccol = v->ncols / 2;
	lay.header = 0;
	lay.ruler = 1;
	lay.cpus = 3;
	view_lanes(v);
	/* Leave the panels at least 10 rows: hogs/task 5, events 5. */
	rest = LINES - 3 - v->nlanes - 1 - 1 - 10;
	want = v->s->nr_cpus;
	v->cpu_rows = want < rest ? want : rest < 1 ? 1 : rest;
	/* After growing, show as many CPUs as fit. */
	if (v->cpu_top + v->cpu_rows > want)
		v->cpu_top = want - v->cpu_rows > 0 ? want - v->cpu_rows : 0;
	if (v->cpu < v->cpu_top)
		v->cpu_top = v->cpu;
	if (v->cpu >= v->cpu_top + v->cpu_rows)
		v->cpu_top = v->cpu - v->cpu_rows + 1;
	lay.lane = lay.cpus + v->cpu_rows;
	lay.legend = lay.lane + v->nlanes;
	lay.status = LINES - 1;
	rest = lay.status - (lay.legend + 1);
	lay.mid = lay.legend + 1;
	lay.mid_h = rest / 2 < 5 ? 5 : rest / 2 > 10 ? 10 : rest / 2;
	if (lay.mid_h > rest)
		lay.mid_h = rest;
	lay.events = lay.mid + lay.mid_h;
	lay.events_h = lay.status - lay.events;
	if (v->cells_cols != v->ncols || v->cells_cpus != v->s->nr_cpus) {
		free(v->cells);
		free(v->lanes);
		v->cells = calloc((size_t)v->s->nr_cpus * v->ncols,
				  sizeof(*v->cells));
		v->lanes = calloc(MAX_LANES * v->ncols, sizeof(*v->lanes));
		v->cells_cols = v->cells && v->lanes ? v->ncols : 0;
		v->cells_cpus = v->s->nr_cpus;
	}
	if (fit) {
		view_fit(v);
		v->fit_final = v->s->done && !v->s->live;
	}
}

/* ---- header and ruler ---- */

static int64_t view_start(const struct view *v)
{
	return (int64_t)(v->cursor - v->s->t0) - (int64_t)v->ccol *
	       (int64_t)v->cell_ns;
}

/* Whether the comma-separated @list holds @name. */
static bool has_feature(const char *list, const char *name)
{
	size_t n = strlen(name);
	const char *p;

	for (p = list; (p = strstr(p, name)); p += n)
		if ((p == list || p[-1] == ',') && (p[n] == ',' || !p[n]))
			return true;
	return false;
}

static void draw_header(struct view *v)
{
	const char *base = strrchr(v->s->file, '/');
	char span[24], cur[32], task[256] = "";

	fmt_ns(span, sizeof(span), v->cell_ns * v->ncols);
	fmt_ts(cur, sizeof(cur), v->cursor);
	if (v->sel)
		snprintf(task, sizeof(task), "  task %d %s%s", v->sel->pid,
			 v->sel->comm, v->filter ? " [filter]" : "");
	if (v->s->live)
		snprintf(task + strlen(task), sizeof(task) - strlen(task),
			 "  live %.0fs", (v->s->t_end - v->s->t0) / 1e9);
	else if (!v->s->done)
		snprintf(task, sizeof(task), "  reading %.0f%%",
			 100 * v->s->progress);
	if (v->s->setup.found) {
		const struct lt_setup *st = &v->s->setup;

		snprintf(task + strlen(task), sizeof(task) - strlen(task),
			 "  %s %s HZ=%u%s", st->release,
			 st->preempt[0] ? st->preempt : "?", st->hz,
			 has_feature(st->sched_features, "HRTICK") ? " HRTICK" :
			 has_feature(st->sched_features, "NO_HRTICK") ?
			 " NO_HRTICK" : "");
	}
	/*
	 * lost events make requests truncated: said where it is seen, as
	 * the run's meta table counts them (live: the last interval's),
	 * and while a file is read, as seen so far
	 */
	{
		const struct tui_results *res = v->s->res;
		uint64_t lost = res ? res->lost_events :
				v->s->live ? 0 : v->s->lost_events;
		uint64_t unknown = res ? res->lost_unknown :
				   v->s->live ? 0 : v->s->lost_unknown;

		if (lost || unknown)
			snprintf(task + strlen(task),
				 sizeof(task) - strlen(task), "  LOST %llu%s",
				 (unsigned long long)lost, unknown ? "+" : "");
	}
	attron(A_REVERSE | pair(PAIR_BAR));
	putf(lay.header, 0, COLS, " lazytrace tui  %s  span %s  cursor %s cpu %d%s",
	     base ? base + 1 : v->s->file, span, cur, v->cpu, task);
	attroff(A_REVERSE | pair(PAIR_BAR));
}

/* The smallest 1-2-5 step not below @ns. */
static uint64_t nice_step(uint64_t ns)
{
	uint64_t p = 1;

	for (;;) {
		if (ns <= p)
			return p;
		if (ns <= 2 * p)
			return 2 * p;
		if (ns <= 5 * p)
			return 5 * p;
		p *= 10;
	}
}

static int step_decimals(uint64_t step)
{
	int d = 9;

	while (d > 0 && step % 10 == 0) {
		step /= 10;
		d--;
	}
	return d;
}

static void draw_ruler(struct view *v)
{
	int64_t start = view_start(v);
	uint64_t step, minor, t0 = v->s->t0;
	char label[40];
	int c, d, next_free = 0, len;

	/* Labels like "7.5800" need room: widen the step until they fit. */
	step = nice_step(v->cell_ns * 10);
	for (;;) {
		d = step_decimals(step);
		len = snprintf(label, sizeof(label), "%.*f", d,
			       (double)v->cursor / 1e9);
		if ((uint64_t)(len + 2) * v->cell_ns <= step)
			break;
		step = nice_step(step + 1);
	}
	minor = step / 5 >= 2 * v->cell_ns ? step / 5 : step / 2;
	put(lay.ruler, 0, LABEL_W, "time");
	put(lay.ruler + 1, 0, LABEL_W, "");
	move(lay.ruler, LABEL_W);
	clrtoeol();
	for (c = 0; c < v->ncols; c++) {
		int64_t a = start + (int64_t)c * (int64_t)v->cell_ns;
		int64_t b = a + (int64_t)v->cell_ns;
		uint64_t ta = a + (int64_t)t0, tb = b + (int64_t)t0;
		char mark = ' ';

		if (a + (int64_t)t0 < 0) {
			mvaddch(lay.ruler + 1, LABEL_W + c, ' ');
			continue;
		}
		if ((ta + minor - 1) / minor * minor < tb)
			mark = '\'';
		if ((ta + step - 1) / step * step < tb) {
			uint64_t t = (ta + step - 1) / step * step;

			mark = '|';
			len = snprintf(label, sizeof(label), "%.*f", d,
				       (double)t / 1e9);
			if (c >= next_free && c + len <= v->ncols) {
				mvaddstr(lay.ruler, LABEL_W + c, label);
				next_free = c + len + 1;
			}
		}
		if (c == v->ccol)
			mvaddch(lay.ruler + 1, LABEL_W + c, 'v' | A_REVERSE);
		else
			mvaddch(lay.ruler + 1, LABEL_W + c, mark);
	}
}

/* ---- the timeline ---- */

#define FORCED_MASK ((1U << LT_UPG_TICK) | (1U << LT_UPG_HRTICK))

static chtype upgrade_mark(unsigned int sources)
{
	if (sources & (1U << LT_UPG_TICK))
		return '!';
	if (sources & (1U << LT_UPG_HRTICK))
		return '^';
	return '+';
}

static void draw_cell(int y, int x, const struct cell *c, uint64_t cell_ns,
		      bool cursor, bool sel_hi)
{
	int st = cell_state(c, cell_ns);
	chtype ch = ' ';
	attr_t a = 0;

	if (st >= 0) {
		ch = state_letter[st];
		a = state_attr(st);
	}
	/*
	 * One mark per source, the forcing ones first: '!' the tick, '^'
	 * the slice timer (hrtick), '+' any other upgrade. Zoomed out, every
	 * cell of a hog's CPU holds one: the mark would hide the states, so
	 * it is only a colour there, and only for tick and hrtick.
	 */
	if (c->upgrade && cell_ns <= upgrade_mark_ns) {
		ch = upgrade_mark(c->upgrade);
		a = colors ? COLOR_PAIR(PAIR_UPGRADE) | A_BOLD : A_BOLD;
	} else if ((c->upgrade & FORCED_MASK) && colors && st >= 0) {
		a = COLOR_PAIR(PAIR_UPGRADE);
	}
	if (sel_hi && c->sel)
		a |= A_BOLD | A_UNDERLINE;
	if (cursor)
		a |= A_REVERSE;
	mvaddch(y, x, ch | a);
}

static void draw_timeline(struct view *v)
{
	int sel = view_sel_pid(v), row, c;
	struct summary *s = v->s;

	struct cell_query q = {
		.start = view_start(v), .cell_ns = v->cell_ns,
		.ncols = v->ncols, .sel = sel, .only_sel = v->filter && v->sel,
		.s = s->filters & TUI_TASKS ? s : NULL,
		.lane_pid = v->lane_pid, .nlanes = v->nlanes,
		.cells = v->cells, .lanes = v->lanes,
	};
	int k;

	if (!v->cells_cols)
		return;
	summary_cells(s, &q);
	for (row = 0; row < v->cpu_rows; row++) {
		int cpu = v->cpu_top + row;
		int y = lay.cpus + row;

		if (cpu >= s->nr_cpus)
			break;
		if (cpu == v->cpu)
			attron(A_BOLD);
		putf(y, 0, LABEL_W, "cpu%-4d%c", cpu, cpu == v->cpu ? '>' : ' ');
		attroff(A_BOLD);
		for (c = 0; c < v->ncols; c++)
			draw_cell(y, LABEL_W + c, &v->cells[cpu * v->ncols + c],
				  v->cell_ns, cpu == v->cpu && c == v->ccol,
				  sel >= 0);
	}
	for (k = 0; k < v->nlanes; k++) {
		const struct tui_task *t = v->lane_task[k];

		if (t == v->sel)
			attron(A_BOLD);
		putf(lay.lane + k, 0, LABEL_W, "%d %s", t->pid, t->comm);
		attroff(A_BOLD);
		for (c = 0; c < v->ncols; c++)
			draw_cell(lay.lane + k, LABEL_W + c,
				  &v->lanes[k * v->ncols + c], v->cell_ns,
				  false, false);
	}
}

static void draw_legend(void)
{
	int x = 0, st;

	move(lay.legend, 0);
	clrtoeol();
	for (st = 0; st < ST_MAX && x < COLS - 12; st++) {
		mvaddch(lay.legend, x, state_letter[st] | state_attr(st));
		put(lay.legend, x + 1, strlen(state_name[st]) + 2, "");
		mvaddnstr(lay.legend, x + 2, state_name[st], COLS - x - 2);
		x += strlen(state_name[st]) + 3;
	}
	{
		static const char *const marks[] = {
			"! tick-upgrade", "^ hrtick", "+ other upgrade",
		};
		size_t i;

		for (i = 0; i < ARRAY_SIZE(marks) && x < COLS - 16; i++) {
			mvaddch(lay.legend, x, marks[i][0] |
				(colors ? COLOR_PAIR(PAIR_UPGRADE) : 0) | A_BOLD);
			mvaddnstr(lay.legend, x + 2, marks[i] + 2, COLS - x - 2);
			x += strlen(marks[i]) + 1;
		}
	}
}

/* ---- panels ---- */

static void title(int y, int x, int w, const char *s)
{
	attron(A_BOLD | pair(PAIR_TITLE));
	put(y, x, w, s);
	attroff(A_BOLD | pair(PAIR_TITLE));
}

/* The selected hog's top call sites, in the rows the hog list left. */
static void draw_sites(struct view *v, int x, int w, int y)
{
	const struct tui_site *s;
	size_t nr, i;

	if (!v->sel || !v->sel->hog)
		return;
	s = v->sel->sites;
	nr = v->sel->nr_sites;
	if (!nr || y >= lay.mid + lay.mid_h)
		return;
	putf(y++, x, w, "Sites of %d (episodes, innermost frame):",
	     v->sel->pid);
	for (i = 0; i < nr && y < lay.mid + lay.mid_h; i++)
		putf(y++, x, w, " %4llu %s%s", (unsigned long long)s[i].episodes,
		     s[i].function, s[i].truncated ? " [truncated]" : "");
}

static void draw_hogs(struct view *v, int x, int w)
{
	const struct tui_results *res = v->s->res;
	struct tui_task *const *h = res->hogs;
	char pend[24], line[128];
	size_t nr = res->nr_hogs, i, shown = 0;
	int y = lay.mid;

	for (i = 0; i < nr; i++)
		shown += summary_task_shown(v->s, h[i]->pid);
	snprintf(line, sizeof(line), "Hogs: %zu%s (Tab selects; h: next episode)",
		 shown, v->s->live ? " in the last interval" : "");
	title(y++, x, w, line);
	if (!shown && res->nr_hogs_all) {
		put(y++, x, w, "no hogs among the tasks --pid or --comm select");
		return;
	}
	if (!shown) {
		if (res->tick_unknown)
			put(y++, x, w, "no hogs: the tick is unknown (no tick events, no HZ in the trace: --hz N)");
		else
			put(y++, x, w, "no hogs: no lazy request waited for the tick");
		if (!res->lazy_seen) {
			put(y++, x, w, "no event carries the lazy bit: the");
			put(y++, x, w, "kernel ran without lazy preemption");
		}
		return;
	}
	put(y++, x, w, "  #    PID COMM     EPIS   PENDING TRACE%");
	for (i = 0; i < nr && y < lay.mid + lay.mid_h; i++) {
		bool me = v->sel == h[i];

		if (!summary_task_shown(v->s, h[i]->pid))
			continue;
		if (me)
			attron(A_REVERSE);
		putf(y++, x, w, "%c%2u %6d %-8.8s %4llu %9s %6.1f",
		     me ? '>' : ' ', h[i]->rank, h[i]->pid, h[i]->comm,
		     (unsigned long long)h[i]->episodes,
		     fmt_ns(pend, sizeof(pend), h[i]->pending_ns),
		     100 * h[i]->trace_share);
		if (me)
			attroff(A_REVERSE);
	}
	draw_sites(v, x, w, y);
}

static void draw_task(struct view *v, int x, int w)
{
	const struct tui_task *t = v->sel;
	char b[6][24];
	int y = lay.mid, end = lay.mid + lay.mid_h;

	if (!t) {
		title(y++, x, w, "Task");
		put(y++, x, w, "none selected: / finds a comm or pid,");
		put(y++, x, w, "Tab the next hog");
		return;
	}
	attron(A_BOLD | pair(PAIR_TITLE));
	putf(y++, x, w, "Task %d %s%s", t->pid, t->comm, t->hog ? " (hog)" : "");
	attroff(A_BOLD | pair(PAIR_TITLE));
	/* Most telling first: at 80x24 the panel is 7 lines. */
	if (y < end)
		putf(y++, x, w, "cpus %s  run %s  trace %.1f%% life %.1f%%",
		     t->cpus, fmt_ns(b[0], 24, t->runtime_ns),
		     100 * t->trace_share, 100 * t->lifetime_share);
	if (y < end)
		putf(y++, x, w, "lazy %llu eager %llu tick-upg %llu fold %llu",
		     (unsigned long long)t->lazy,
		     (unsigned long long)t->eager,
		     (unsigned long long)t->tick_upgrades,
		     (unsigned long long)t->folds);
	if (y < end)
		putf(y++, x, w, "episodes %llu  pending %s",
		     (unsigned long long)t->episodes,
		     fmt_ns(b[1], 24, t->pending_ns));
	if (y < end)
		putf(y++, x, w, "lazy->served p50 %s max %s",
		     fmt_ns(b[2], 24, t->lazy_p50), fmt_ns(b[3], 24, t->lazy_max));
	if (y < end)
		putf(y++, x, w, "eager->served p50 %s max %s",
		     fmt_ns(b[4], 24, t->eager_p50), fmt_ns(b[5], 24, t->eager_max));
	if (y < end)
		putf(y++, x, w, "out: preempted %llu yielded %llu blocked %llu",
		     (unsigned long long)t->preempted,
		     (unsigned long long)t->yielded,
		     (unsigned long long)t->blocked);
	if (y < end)
		putf(y++, x, w, "longest lazy %s  p99 %s",
		     fmt_ns(b[0], 24, t->max_pending_ns),
		     fmt_ns(b[1], 24, t->lazy_p99));
}

/* The kernel's default line, or a narrower one when the panel is. */
static void ev_text(const struct ev_line *l, int w, char *buf, size_t len)
{
	uint64_t us = (l->ts + 500) / 1000;	/* the kernel's ns2usecs() */
	const char *sep = l->named ? ": " : "";
	const char *name = l->named ? l->name : "";

	if (w >= 100)
		snprintf(buf, len, "%16s-%-7d [%03d] %s %5llu.%06llu: %s%s%s",
			 l->comm, l->pid, l->cpu, l->lat,
			 (unsigned long long)(us / 1000000),
			 (unsigned long long)(us % 1000000), name, sep,
			 l->payload);
	else
		snprintf(buf, len, "%10.10s-%-6d %s %llu.%06llu %s%s%s",
			 l->comm, l->pid, l->lat,
			 (unsigned long long)(us / 1000000),
			 (unsigned long long)(us % 1000000), name, sep,
			 l->payload);
}

static void load_events(struct view *v)
{
	int pid = v->filter ? view_sel_pid(v) : -1;

	if (v->ev_valid && v->ev_ts == v->cursor && v->ev_cpu == v->cpu &&
	    v->ev_pid == pid && v->ev_done == v->s->done)
		return;
	v->ev_done = v->s->done;
	v->ev_error = summary_events(v->s, v->cursor, v->cpu, pid, v->before,
				     EV_KEEP, &v->nb, v->after, EV_KEEP,
				     &v->na);
	/* Not yet: ask again on the next screen. */
	v->ev_valid = v->ev_error != -2;
	v->ev_ts = v->cursor;
	v->ev_cpu = v->cpu;
	v->ev_pid = pid;
}

static void draw_events(struct view *v)
{
	char line[512], cur[32];
	int y = lay.events, h = lay.events_h - 1, nb, i;

	if (lay.events_h < 1)
		return;
	load_events(v);
	snprintf(line, sizeof(line), "Events on cpu %d near %s%s (kernel flags; Enter: in full; , . step)",
		 v->cpu, fmt_ts(cur, sizeof(cur), v->cursor),
		 v->filter && v->sel ? ", selected task only" : "");
	title(y++, 0, COLS, line);
	if (v->ev_error) {
		put(y, 0, COLS, v->ev_error == -2 ?
		    "still reading the input: the events show when you move, or at its end" :
		    v->s->live ? "live: no events panel (lazytrace record keeps them)" :
		    "the input cannot be re-read here: no events panel");
		return;
	}
	/* A third before the cursor, the rest at and after it. */
	nb = h / 3 < v->nb ? h / 3 : v->nb;
	if (h - nb > v->na)
		nb = h - v->na < v->nb ? h - v->na : v->nb;
	for (i = v->nb - nb; i < v->nb && y < lay.status; i++) {
		ev_text(&v->before[i], COLS, line, sizeof(line));
		putf(y++, 0, COLS, "  %s", line);
	}
	for (i = 0; i < v->na && y < lay.status; i++) {
		ev_text(&v->after[i], COLS, line, sizeof(line));
		if (i == 0)
			attron(A_REVERSE);
		putf(y++, 0, COLS, "%c %s", i == 0 ? '>' : ' ', line);
		if (i == 0)
			attroff(A_REVERSE);
	}
	if (!v->nb && !v->na)
		put(y, 0, COLS, "  no events on this CPU near the cursor");
}

static void draw_status(struct view *v)
{
	char p[128];

	attron(A_REVERSE);
	if (v->prompt.on) {
		put(lay.status, 0, COLS, view_prompt(v, p, sizeof(p)));
		attroff(A_REVERSE);
		/* the terminal's cursor at the end of what is typed */
		move(lay.status, (int)strlen(p) < COLS ? (int)strlen(p) : COLS - 1);
		curs_set(1);
		return;
	}
	curs_set(0);
	if (v->msg[0])
		putf(lay.status, 0, COLS, " %s", v->msg);
	else if (v->s->error && v->s->done)
		putf(lay.status, 0, COLS, " input error: %s (showing what was read)",
		     v->s->error);
	else
		put(lay.status, 0, COLS,
		    " q quit  ? help  + - zoom  arrows pan  n N tick-upgrade  h hog  / find  f filter  Enter event");
	attroff(A_REVERSE);
}

/* ---- popups ---- */

static WINDOW *popup(int h, int w)
{
	WINDOW *win;

	if (h > LINES)
		h = LINES;
	if (w > COLS)
		w = COLS;
	win = newwin(h, w, (LINES - h) / 2, (COLS - w) / 2);
	if (!win)
		return NULL;
	werase(win);
	box(win, 0, 0);
	return win;
}

static const char *const help_lines[] = {
	"lazytrace tui: keys",
	"",
	"+ / -          zoom in / zoom out (halve / double the span)",
	"Left / Right   pan by an eighth of the screen",
	"< / >          move the cursor one column",
	"PgUp / PgDn    pan by a screen",
	"Home / End     start / end of the trace",
	"Up / Down      cursor CPU",
	", / .          previous / next event on the cursor CPU",
	"n / N          next / previous tick-upgrade (or hrtick upgrade)",
	"h              next hog episode (of the selected hog, else any)",
	"/              find a task by pid or comm and select it",
	"Tab            select the next hog",
	"f              filter: show only the selected task",
	"c              clear the selection",
	"a / A          keep a lane for the selected task / remove the lanes",
	"Enter          the event at the cursor, in full",
	"?              this help       q  quit",
	"",
	"cells: . idle  - running  l lazy pending  e eager pending",
	"       f folded; the most urgent state holding a fifth of the",
	"       cell wins; underlined: the selected task ran",
	"upgrades: ! by the tick  ^ by the slice timer (hrtick)",
	"          + by another timer, interrupt or a direct request",
};

static void draw_help(void)
{
	int n = sizeof(help_lines) / sizeof(help_lines[0]), i;
	WINDOW *win = popup(n + 2, 72);

	if (!win)
		return;
	for (i = 0; i < n && i + 1 < getmaxy(win) - 1; i++)
		mvwaddnstr(win, i + 1, 2, help_lines[i], getmaxx(win) - 4);
	wnoutrefresh(win);
	delwin(win);
}

/* Wrap @s into @win from row @y; returns the next row. */
static int wrap(WINDOW *win, int y, const char *s)
{
	int w = getmaxx(win) - 4, len = strlen(s);

	while (len > 0 && y < getmaxy(win) - 1) {
		mvwaddnstr(win, y++, 2, s, len < w ? len : w);
		s += len < w ? len : w;
		len -= len < w ? len : w;
	}
	return y;
}

static void draw_event_popup(struct view *v)
{
	const struct ev_line *l = v->na ? &v->after[0] : NULL;
	WINDOW *win = popup(18, 96);
	char line[600];
	struct lt_flags f;
	int y = 1;

	if (!win)
		return;
	if (!l) {
		mvwaddstr(win, y, 2, "no event at or after the cursor");
		wnoutrefresh(win);
		delwin(win);
		return;
	}
	ev_text(l, 100, line, sizeof(line));
	y = wrap(win, y, line) + 1;
	f = lt_flags_decode(v->s->abi, l->flags);
	snprintf(line, sizeof(line), "time %llu ns   cpu %d   pid %d   comm %s",
		 (unsigned long long)l->ts, l->cpu, l->pid, l->comm);
	y = wrap(win, y, line);
	snprintf(line, sizeof(line), "event %s (%s)", l->name,
		 lt_abi_name(v->s->abi));
	y = wrap(win, y, line);
	snprintf(line, sizeof(line),
		 "common_flags 0x%02x  common_preempt_count 0x%02x  latency field %s",
		 l->flags, l->preempt_count, l->lat);
	y = wrap(win, y, line);
	snprintf(line, sizeof(line),
		 "need-resched: eager %d  lazy %d  folded %d   irqs-off %d  bh-off %d  hardirq %d  softirq %d  nmi %d",
		 f.need_resched, f.need_resched_lazy, f.preempt_resched,
		 f.irqs_off, f.bh_off, f.hardirq, f.softirq, f.nmi);
	y = wrap(win, y, line);
	snprintf(line, sizeof(line), "preempt depth %u  migrate-disable %u",
		 l->preempt_count & 0xf, (l->preempt_count >> 4) & 0xf);
	y = wrap(win, y, line) + 1;
	y = wrap(win, y, l->payload);
	if (y < getmaxy(win) - 1)
		mvwaddstr(win, getmaxy(win) - 2, 2, "any key closes");
	wnoutrefresh(win);
	delwin(win);
}

/* While reading: how far, in place of the panels that need the end. */
static void draw_reading(struct view *v, int x, int w)
{
	int y = lay.mid, bar = w - 4 > 50 ? 50 : w - 4, i;

	title(y++, x, w, "Reading the input");
	putf(y++, x, w, "%3.0f%%  %llu events", 100 * v->s->progress,
	     (unsigned long long)v->s->events);
	move(y++, x);
	for (i = 0; i < bar; i++)
		addch(i < v->s->progress * bar ? '#' : '.');
	put(y++, x, w, "hogs and task statistics come at the end;");
	put(y++, x, w, "the timeline fills in as it is read");
}

void draw_all(struct view *v)
{
	/* Until the analysis knows the tick (if ever): HZ=250's, for marks. */
	upgrade_mark_ns = v->s->res && v->s->done ? v->s->res->tick_ns : 0;
	if (!upgrade_mark_ns)
		upgrade_mark_ns = 4000000;
	view_remap(v);
	draw_layout(v);
	erase();
	draw_header(v);
	draw_ruler(v);
	draw_timeline(v);
	draw_legend();
	if (v->s->done) {
		draw_hogs(v, 0, COLS / 2 - 1);
		draw_task(v, COLS / 2, COLS - COLS / 2);
	} else {
		draw_reading(v, 0, COLS);
	}
	draw_events(v);
	draw_status(v);
	wnoutrefresh(stdscr);
	if (v->help)
		draw_help();
	else if (v->popup)
		draw_event_popup(v);
	doupdate();
}
