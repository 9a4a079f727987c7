// SPDX-License-Identifier: GPL-2.0
/*
 * lazytrace tui: a full-screen timeline of need-resched states, ticks and
 * hogs. This file holds the command line, the terminal (set up, restored
 * on every way out, SIGINT and SIGTERM included) and the main loop.
 */
#include <errno.h>
#include <getopt.h>
#include <locale.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define NCURSES_WIDECHAR 1
#include <curses.h>

#include "../cli/cli.h"
#include "tui.h"

enum { OPT_LIVE = OPT_PRIVATE };

static const char tui_usage[] =
"usage: lazytrace tui [-i FILE] [--abi NAME] [-B BUFFER] [--hz N]\n"
"       lazytrace tui --live [--abi NAME] [--hz N] [--stacks WHEN]\n"
"\n"
"A full-screen timeline: one row per CPU, time across, each cell showing\n"
"the running task's need-resched state by colour and letter (. idle,\n"
"- running, l lazy pending, e eager pending, f folded; upgrades: ! tick,\n"
"^ slice timer (hrtick), + other), with the ranked hogs, the selected\n"
"task's statistics and the events around the cursor with the kernel's\n"
"own flags. Press ? for the keys.\n"
"\n"
"  -i, --input FILE   trace.dat or kernel text trace (default trace.dat)\n"
"  -B, --buffer NAME  trace.dat instance buffer (default: the one with events)\n"
"  --abi NAME         flag ABI: auto, legacy, mainline, poc2023, rt-lazy\n"
"  --hz N             tick rate when the trace has no tick events (default 250)\n"
"  --live             trace this machine (root) into a private tracefs\n"
"                     instance, removed on exit; the timeline grows every\n"
"                     second, the panels show the last second's analysis\n"
"  --stacks WHEN      with --live: kernel stacks for the hogs' call sites,\n"
"                     lazy (a tick finding a lazy request; default), tick\n"
"                     (every tick) or none; --no-stacks is none\n";

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
 * Live: every 100 ms move the ring buffers' pages into the interval (so
 * they cannot wrap); every second read the interval into the summary.
 */
#define LIVE_POLL	0.1
#define LIVE_INTERVAL	1.0

struct live_clock {
	double next_poll, next_interval;
	bool reading;		/* an interval is being read */
};

/* Returns true when the screen should be redrawn, -1 on error. */
static int live_tick(struct summary *s, struct live_clock *lc)
{
	double t = now();
	int ret;

	if (lc->reading) {
		ret = summary_step(s, STEP_BUDGET);
		if (ret < 0)
			return -1;
		lc->reading = ret == 0;
		return !lc->reading;
	}
	if (t >= lc->next_interval) {
		lc->next_interval = t + LIVE_INTERVAL;
		lc->next_poll = t + LIVE_POLL;
		if (lt_live_refill(s->r))
			return -1;
		lc->reading = true;
		return 0;
	}
	if (t >= lc->next_poll) {
		lc->next_poll = t + LIVE_POLL;
		if (lt_live_poll(s->r) < 0)
			return -1;
	}
	return 0;
}

static int loop(struct view *v)
{
	struct summary *s = v->s;
	struct live_clock lc = { now() + LIVE_POLL, now() + LIVE_INTERVAL, false };
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
		timeout(s->live ? (lc.reading ? 0 : 50) : s->done ? 200 : 0);
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

/* The screen, the loop, the screen restored. Returns an exit code. */
static int show(struct summary *s)
{
	struct view v;
	SCREEN *scr;
	int ret = EXIT_OK;

	scr = newterm(NULL, stdout, stdin);
	if (!scr) {
		fprintf(stderr, "lazytrace: tui: cannot use the terminal (TERM=%s)\n",
			getenv("TERM") ? getenv("TERM") : "");
		return EXIT_BAD;
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
		fprintf(stderr, "lazytrace: %s: %s\n", s->file,
			s->error ? s->error : "out of memory");
		return EXIT_BAD;
	}
	if (s->error && s->done) {
		fprintf(stderr, "lazytrace: %s\n", s->error);
		return EXIT_BAD;
	}
	return EXIT_OK;
}

static int run(const struct input_opts *in, const struct lt_analysis_opts *lo)
{
	struct lt_reader *r = input_open(in);
	struct summary s;
	int ret;

	if (summary_begin(&s, r, in->file, in->buffer, lo)) {
		fprintf(stderr, "lazytrace: %s: out of memory\n", in->file);
		ret = EXIT_BAD;
	} else {
		ret = show(&s);
	}
	summary_free(&s);
	lt_reader_close(r);
	if (got_signal)
		reraise();
	return ret;
}

/* --live: trace into a private tracefs instance, removed on every exit. */
static int run_live(const struct input_opts *in,
		    const struct lt_analysis_opts *lo, enum lt_stacks stacks)
{
	struct lt_tracefs_opts to = { .functions = true, .stacks = stacks };
	struct lt_open_opts oo = { .abi = in->abi };
	struct lt_tracefs *ts;
	struct lt_reader *r;
	struct summary s;
	char msg[512];
	int ret = EXIT_BAD;

	r = lt_live_begin(&to, &oo, &ts, msg, sizeof(msg));
	if (!r) {
		fprintf(stderr, "lazytrace: tui --live: %s\n", msg);
		return EXIT_BAD;
	}
	if (summary_begin_live(&s, r, lo)) {
		fprintf(stderr, "lazytrace: tui --live: out of memory\n");
		goto out;
	}
	ret = show(&s);
	lt_tracefs_stop(ts);
	summary_free(&s);
out:
	lt_reader_close(r);
	lt_tracefs_destroy(ts);
	if (got_signal)
		reraise();
	return ret;
}

/*
 * Open the input and read its first event, so that a file that is not a
 * trace is refused with the usual one line before the screen is taken.
 */
static void probe_input(const struct input_opts *in)
{
	struct lt_reader *r = input_open(in);
	int ret;

	lt_reader_next(r);
	ret = input_finish(r);
	lt_reader_close(r);
	if (ret != EXIT_OK)
		exit(ret);
}

int cmd_tui(int argc, char **argv)
{
	static const struct option longopts[] = {
		INPUT_LONG_OPTS,
		{ "hz", required_argument, NULL, OPT_HZ },
		{ "live", no_argument, NULL, OPT_LIVE },
		STACKS_LONG_OPTS,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct input_opts in = INPUT_OPTS_INIT;
	struct lt_analysis_opts lo = { 0 };
	enum lt_stacks stacks = LT_STACKS_LAZY;
	bool live = false, in_given = false;
	int c;

	while ((c = getopt_long(argc, argv, INPUT_SHORT_OPTS "h", longopts,
				NULL)) != -1) {
		if (input_opt(&in, c, optarg)) {
			in_given |= c == 'i';
			continue;
		}
		if (stacks_opt(&stacks, c, optarg))
			continue;
		switch (c) {
		case OPT_LIVE:
			live = true;
			break;
		case OPT_HZ:
			lo.hz = atoi(optarg);
			if (lo.hz < 1 || lo.hz > 100000)
				die_usage("bad --hz '%s'", optarg);
			break;
		case 'h':
			fputs(tui_usage, stdout);
			return EXIT_OK;
		default:
			usage_fail();
		}
	}
	if (optind < argc)
		die_usage("tui: unexpected argument '%s'", argv[optind]);
	if (!strcmp(in.file, "-"))
		die_usage("tui: reads its keys from the terminal: give a file, not '-'");
	if (live && (in_given || in.buffer))
		die_usage("tui: --live traces this machine: no -i or -B");
	if (!live)
		probe_input(&in);
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))
		die_usage("tui: needs a terminal (use report, timeline or hogs in scripts)");
	setlocale(LC_ALL, "");
	catch_signals();
	return live ? run_live(&in, &lo, stacks) : run(&in, &lo);
}
