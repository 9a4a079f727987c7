// SPDX-License-Identifier: GPL-2.0
/*
 * lazytrace tui: a full-screen timeline of need-resched states, ticks and
 * hogs. This file holds the TUI's entry points (tui.h; the command line is
 * cli/cmd-tui.c), the terminal (set up, restored on every way out, SIGINT
 * and SIGTERM included) and the main loop.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define NCURSES_WIDECHAR 1
#include <curses.h>

#include "tui-internal.h"
#include "tui.h"

volatile sig_atomic_t got_signal;

static void on_signal(int sig)
{
	got_signal = sig;
}

static void catch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

/* After the terminal is restored: die of the signal, as if uncaught. */
static void reraise(void)
{
	int sig = got_signal;

	signal(sig, SIG_DFL);
	raise(sig);
	exit(128 + sig);
}

/* Read the input in slices between keys: the screen is live at once. */
#define STEP_BUDGET	0.05
#define BUILD_REDRAW	0.25

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * Live: the run keeps the ring buffers drained while the loop waits for
 * keys (lt_run_wait()); every second the interval ends and is read into
 * the summary.
 */
#define LIVE_WAIT_MS	50
#define LIVE_INTERVAL	1.0

struct live_clock {
	double next_interval;
	bool reading;		/* an interval is being read */
};

/* Returns true when the screen should be redrawn, -1 on error. */
static int live_tick(struct summary *s, struct live_clock *lc)
{
	int ret;

	if (lc->reading) {
		ret = summary_step(s, STEP_BUDGET);
		if (ret < 0)
			return -1;
		lc->reading = ret == 0;
		return !lc->reading;
	}
	if (now() >= lc->next_interval) {
		lc->next_interval = now() + LIVE_INTERVAL;
		if (summary_interval(s))
			return -1;
		lc->reading = true;
		return 0;
	}
	/* a signal ends the wait early: the loop then sees it */
	if (lt_run_wait(s->run, LIVE_WAIT_MS) < 0) {
		s->error = lt_run_error(s->run);
		return -1;
	}
	return 0;
}

static int loop(struct view *v)
{
	struct summary *s = v->s;
	struct live_clock lc = { now() + LIVE_INTERVAL, false };
	double last_draw = 0;
	bool dirty = true;
	int ch, ret;

	while (!v->quit && !got_signal) {
		if (s->live) {
			ret = live_tick(s, &lc);
			if (ret < 0)
				return -1;
			if (ret)
				dirty = true;
		} else if (!s->done) {
			if (summary_step(s, STEP_BUDGET) < 0)
				return -1;
			if (s->done || now() - last_draw >= BUILD_REDRAW)
				dirty = true;
		}
		if (dirty) {
			draw_all(v);
			last_draw = now();
		}
		dirty = false;
		/* live, the run waits (live_tick()) */
		timeout(s->live ? 0 : s->done ? 200 : 0);
		ch = getch();
		if (ch == ERR)
			continue;
		if (ch == KEY_RESIZE) {
			/* Repaint all of it once: nothing of the old size stays. */
			clearok(curscr, TRUE);
			dirty = true;
			continue;
		}
		view_key(v, ch);
		dirty = true;
	}
	return 0;
}

/* The screen, the loop, the screen restored. 0, or -1 with a message. */
static int show(struct summary *s)
{
	struct view v;
	SCREEN *scr;
	int ret = 0;

	scr = newterm(NULL, stdout, stdin);
	if (!scr) {
		fprintf(stderr, "lazytrace tui: cannot use the terminal (TERM=%s)\n",
			getenv("TERM") ? getenv("TERM") : "");
		return -1;
	}
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	curs_set(0);
	set_escdelay(25);
	tui_colors();
	view_init(&v, s);
	if (loop(&v))
		ret = -1;
	endwin();
	delscreen(scr);
	free(v.cells);
	free(v.lanes);
	if (ret < 0) {
		fprintf(stderr, "lazytrace tui: %s: %s\n", s->file,
			s->error ? s->error : "out of memory");
		return -1;
	}
	if (s->error && s->done) {
		fprintf(stderr, "lazytrace tui: %s\n", s->error);
		return -1;
	}
	return 0;
}

/* Documented in tui.h. */
int tui_file(struct lt_run *run, const char *file, const char *buffer,
	     unsigned int filters)
{
	struct summary s;
	int ret;

	catch_signals();
	if (summary_begin(&s, run, file, buffer, filters)) {
		fprintf(stderr, "lazytrace tui: %s: %s\n", file,
			lt_run_error(run) ? lt_run_error(run) : "out of memory");
		ret = -1;
	} else {
		ret = show(&s);
	}
	summary_free(&s);
	if (got_signal) {
		lt_run_free(run);
		reraise();
	}
	return ret;
}

/* Documented in tui.h. */
int tui_live(struct lt_run *run)
{
	struct summary s;
	int ret = -1;

	catch_signals();
	if (lt_run_open(run)) {
		fprintf(stderr, "lazytrace tui: --live: %s\n", lt_run_error(run));
		return -1;
	}
	if (summary_begin_live(&s, run)) {
		fprintf(stderr, "lazytrace tui: --live: out of memory\n");
		goto out;
	}
	ret = show(&s);
	lt_run_stop(run);
out:
	summary_free(&s);
	if (got_signal) {
		lt_run_free(run);
		reraise();
	}
	return ret;
}
