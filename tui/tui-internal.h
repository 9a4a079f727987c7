/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lazytrace tui: the ncurses timeline viewer.
 *
 * summary.c reads the input once and keeps a compact summary: per CPU, the
 * share of time spent in each need-resched state in fixed-width bins (a
 * pyramid of resolutions), the reader position of every bin to re-read the
 * events near the cursor, and the tick-upgrades. Nothing is kept per event.
 * It reads in slices between keys, so the first screen of a large trace
 * comes at once and fills in; --live feeds it from tracefs every second.
 * It takes the events from the run, whose analysis they feed ("feed"):
 * the upgrades are rows of its transitions table, and results.c reads
 * what the panels show from its tables once the input (an interval) is
 * read. summary-query.c answers the views' questions of it. draw.c paints the
 * screen from the view, which view.c owns and changes on keys,
 * tui.c holds the entry points (tui.h; the command line is cli/cmd-tui.c),
 * the terminal and the main loop.
 */
#ifndef _LT_TUI_H
#define _LT_TUI_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "lazytrace.h"
#include "tui.h"

/* What the running task on a CPU is doing, least to most urgent. */
enum tui_state {
	ST_IDLE = 0,	/* the idle task */
	ST_RUN,		/* a task, no request */
	ST_LAZY,	/* lazy request pending */
	ST_EAGER,	/* eager request, not yet folded */
	ST_FOLD,	/* request folded into preempt_count */
	ST_MAX,
};

#define SHARE_ONE 65535u

/* One bin of one CPU: how its time was spent. */
struct bin {
	uint16_t share[ST_MAX];	/* of SHARE_ONE */
	uint16_t dom_share;	/* the longest stretch of one task */
	int32_t dom_pid;	/* that task, -1 for none */
	int32_t start_pid;	/* current at the bin's start, -1 unknown */
	uint8_t start_state;
};

#define MAX_LEVELS 24

struct upgrade {
	uint64_t ts;
	uint64_t since;		/* the lazy request's seen_ns */
	int cpu;
	int pid;
	enum lt_transition_kind request;
	enum lt_upgrade_source source;
	bool episode;		/* of a hog, pending >= episode threshold */
};

/*
 * The upgrades n/N visit: those that force a task off the CPU after it
 * ignored a lazy request, by the tick or, on 7.x, the slice timer.
 */
static inline bool upgrade_forced(const struct upgrade *u)
{
	return u->source == LT_UPG_TICK || u->source == LT_UPG_HRTICK;
}

/* A hog's call site: a row of the sites table. */
struct tui_site {
	char function[128];
	uint64_t episodes;
	bool truncated;
};

/* What the panels show of a task: a row of the tasks table. */
struct tui_task {
	int pid;
	char comm[LT_COMM_LEN];
	uint64_t id;		/* task_id: two tasks that reused a pid differ */
	char cpus[64];
	uint64_t runtime_ns;
	double trace_share, lifetime_share;
	uint64_t lazy, eager, tick_upgrades, folds;
	uint64_t episodes, pending_ns, max_pending_ns;
	uint64_t lazy_p50, lazy_p99, lazy_max, eager_p50, eager_max;
	uint64_t preempted, yielded, blocked;	/* switches out */
	bool hog;
	unsigned int rank;	/* a hog's, 1 for the worst */
	struct tui_site *sites;	/* a hog's, most episodes first */
	size_t nr_sites;
};

/* The run's results, from its tables, once the input (an interval) is read. */
struct tui_results {
	struct tui_task *tasks;	/* every task record, by id */
	size_t nr_tasks;
	struct tui_task **hogs;	/* the hogs table's order */
	size_t nr_hogs;
	uint64_t nr_hogs_all;	/* the task filters' hidden ones too */
	uint64_t tick_ns;	/* 0: unknown */
	bool tick_unknown;
	bool lazy_seen;		/* an event carried the lazy bit */
	uint64_t lost_events, lost_unknown;
};

/* results.c: NULL if out of memory or a table failed */
struct tui_results *results_read(struct lt_run *run);
void results_free(struct tui_results *res);

/* Per-CPU state while reading. */
struct cpu_build {
	int64_t since;		/* relative ns; -1 before the first event */
	int pid;
	enum tui_state state;
	int acc_pid;		/* the current stretch, for dom_pid */
	uint64_t acc_bin;
	uint64_t acc_ns;
};

struct summary {
	/* the input */
	struct lt_reader *r;	/* the run's: reads the input once, in order */
	struct lt_reader *sr;	/* seeks near the cursor while r reads */
	const char *file;
	const char *buffer;	/* trace.dat instance, for sr */
	enum lt_abi abi;
	bool can_seek;
	bool want_seek;		/* the user moved: open sr */
	bool live;		/* r reads tracefs, an interval at a time */
	const char *error;	/* the reader's error, if it stopped on one */
	/*
	 * The run, in "feed" mode: the events summary_step() takes from it
	 * are its analysis' input, and their transitions rows of tr.
	 * A file's cut and task filters select; live, the run is live.
	 */
	struct lt_run *run;
	struct lt_table *tr;
	int tr_col[7];
	unsigned int filters;	/* TUI_CUT, TUI_TASKS (tui.h) */
	/* the pids the task filters selected, as seen: an open-addressed set */
	int *sel_pids;
	size_t sel_nr, sel_cap;

	/* reading */
	bool done;		/* r is read (live: an interval was) */
	bool reading;		/* live: an interval is being read */
	double progress;	/* 0..1 of the input read */
	uint64_t size, prev_pos;
	uint64_t events;	/* those the cut selected */
	uint64_t read;		/* all the reader gave */

	/* the run's results, for the panels: NULL until done */
	struct tui_results *res;
	struct lt_setup setup;	/* the trace's setup line, once seen */
	uint64_t lost_events, lost_unknown;	/* seen so far, in the cut */
	uint64_t generation;	/* bumped when res changes (live) */

	/* the bins */
	uint64_t t0;		/* first event's time: bins count from here */
	uint64_t t_end;		/* last event's time */
	int nr_cpus;
	uint64_t cap;		/* bins per CPU at level 0 */
	uint64_t w0;		/* level-0 bin width, ns */
	uint64_t nbins;		/* level-0 bins in use */
	int nlevels;
	uint64_t lv_nbins[MAX_LEVELS];
	struct bin **lv[MAX_LEVELS];	/* [level][cpu] -> bins */
	uint64_t *pos;		/* level 0: reader position at or before */
	uint64_t pos_filled;	/* bins of pos[] set, +1 */
	struct cpu_build *cb;

	/* the tick-upgrades, in time order (up_grow()) */
	struct upgrade *up;
	size_t nr_up, cap_up;
	bool up_mapped;		/* up maps up_fd, else it is on the heap */
	int up_fd;
	size_t up_marked;	/* looked at for hog episodes */
	uint64_t episode_ns;
};

/*
 * Start a summary of @run's input, @file (@buffer: its trace.dat
 * instance), through its filters (@filters: the ones given). Returns 0,
 * or -1 if out of memory.
 */
int summary_begin(struct summary *s, struct lt_run *run, const char *file,
		  const char *buffer, unsigned int filters);
/*
 * Start a summary of a live run (opened with "live" and "feed"): the
 * results the panels show (@res) are those of the last interval read.
 */
int summary_begin_live(struct summary *s, struct lt_run *run);
/*
 * Live: end the run's interval (lt_run_interval()), to be read by
 * summary_step(). 0, or -1 with s->error set.
 */
int summary_interval(struct summary *s);
/*
 * Read events for about @budget seconds, so that the screen stays live
 * while a large trace is read. Returns 0 if there is more, 1 when the
 * summary is complete (live: when the interval is read), -1 if memory
 * ran out or the reader failed.
 */
int summary_step(struct summary *s, double budget);
void summary_free(struct summary *s);

/* Whether the task filters (--pid, --comm) show @pid: all without them. */
bool summary_task_shown(const struct summary *s, int pid);
/*
 * Whether @ev, read again by the seeker, passes the cut (and, with
 * @task, the task filters).
 */
bool summary_event_shown(const struct summary *s, const struct lt_event *ev,
			 bool task);

/* Between summary.c, which builds, and summary-query.c, which answers. */
/* @ts relative to the trace's start (0 before it). */
int64_t summary_rel(const struct summary *s, uint64_t ts);
/* The state CPU @c is in after @ev, at relative time @t. */
void summary_replay(struct summary *s, struct cpu_build *c,
		    const struct lt_event *ev, int64_t t);
/* The reader that seeks near the cursor, or NULL where none can. */
struct lt_reader *summary_seeker(struct summary *s);

/* One cell of the timeline: ns of each state within its span. */
struct cell {
	float ns[ST_MAX];
	int dom_pid;
	bool sel;		/* the selected task ran here */
	uint8_t upgrade;	/* upgrades seen here: bit per lt_upgrade_source */
};

#define MAX_LANES 5

/*
 * A screen's worth of cells: [start + i * cell_ns, ...) for i < ncols,
 * @start relative to s->t0 (may be negative).
 */
struct cell_query {
	int64_t start;
	uint64_t cell_ns;
	int ncols;
	int sel;		/* the selected pid (highlight), or -1 */
	bool only_sel;		/* count only its time (filter) */
	const struct summary *s;	/* only the tasks it shows count */
	const int *lane_pid;	/* tasks with a lane of their own */
	int nlanes;
	struct cell *cells;	/* [cpu * ncols + i] */
	struct cell *lanes;	/* [lane * ncols + i] */
};

void summary_cells(struct summary *s, const struct cell_query *q);

/* The state a cell shows: the most urgent one with a real share. */
int cell_state(const struct cell *c, uint64_t cell_ns);

/* An event kept for the events panel, with its strings copied. */
struct ev_line {
	uint64_t ts;
	int cpu;
	int pid;
	unsigned int flags;
	unsigned int preempt_count;
	enum lt_event_kind kind;
	bool named;	/* "name: " before the payload */
	char comm[LT_COMM_LEN];
	char name[48];
	char lat[6];
	char payload[240];
};

/*
 * Events of @cpu (and of @pid unless -1) around @ts: up to @nb before
 * (oldest first) and @na at or after. Returns 0, -1 if the input cannot
 * seek, -2 if not yet (the input is still read and the user did not
 * move).
 */
int summary_events(struct summary *s, uint64_t ts, int cpu, int pid,
		   struct ev_line *before, int nb, int *got_b,
		   struct ev_line *after, int na, int *got_a);

/* Index of the first upgrade with ts > @ts (or >= when @incl). */
size_t summary_upgrade_after(const struct summary *s, uint64_t ts, bool incl);

/* "7.577135", the timeline command's format. */
const char *fmt_ts(char *buf, size_t len, uint64_t ts);
/* "40.000ms" */

/* ---- the viewer ---- */

#define EV_KEEP 48

struct view {
	struct summary *s;
	uint64_t cursor;	/* absolute ns; drawn at column ccol */
	uint64_t cell_ns;	/* time per column */
	int cpu;		/* the cursor's CPU row */
	int cpu_top;		/* first CPU row on screen */
	const struct tui_task *sel;
	bool filter;		/* show only the selected task */
	bool help;
	bool popup;		/* Enter: the cursor event in full */
	bool quit;
	bool autofit;		/* whole trace on screen until a key moves it */
	bool fit_final;		/* fitted to the whole of the input */
	char msg[256];		/* status line; empty shows key hints */
	/*
	 * The find prompt, a mode of the main loop: while it is open, keys
	 * edit it and reading and live polling go on.
	 */
	struct {
		bool on;
		char buf[64];
		size_t len;
	} prompt;

	/* layout, from the terminal size */
	int rows, cols;
	int ncols, ccol;	/* timeline columns, cursor column */
	int cpu_rows;		/* CPU rows that fit */

	/* lanes: the selected task, then the pinned ones */
	const struct tui_task *pinned[MAX_LANES - 1];
	int pinned_pid[MAX_LANES - 1];
	int npinned;
	int sel_pid;		/* of sel, kept across live intervals */
	uint64_t gen;		/* the summary's generation sel is from */
	const struct tui_task *lane_task[MAX_LANES];
	int lane_pid[MAX_LANES];
	int nlanes;

	struct cell *cells, *lanes;
	int cells_cols, cells_cpus;

	/* the events panel, for (ev_ts, ev_cpu, ev_pid) */
	struct ev_line before[EV_KEEP], after[EV_KEEP];
	int nb, na;
	bool ev_valid;
	uint64_t ev_ts;
	int ev_cpu, ev_pid;
	int ev_error;		/* summary_events() */
	bool ev_done;		/* read when the summary was complete */
};

#define LABEL_W 8

/* draw.c */
void tui_colors(void);
void draw_layout(struct view *v);
void draw_all(struct view *v);

/* tui.c: the SIGINT, SIGTERM or SIGHUP caught, 0 for none */
extern volatile sig_atomic_t got_signal;

/* view.c */
void view_init(struct view *v, struct summary *s);
void view_fit(struct view *v);
void view_key(struct view *v, int key);
/* The open prompt as the status line shows it, in @buf; "" when closed. */
const char *view_prompt(const struct view *v, char *buf, size_t len);
void view_clamp(struct view *v);
int view_sel_pid(const struct view *v);
void view_lanes(struct view *v);
void view_remap(struct view *v);

#endif /* _LT_TUI_H */
