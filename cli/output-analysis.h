/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the analysis commands (timeline, stats, hogs, compare, export)
 * share: their options, running the analysis over an input, and the
 * pieces of output they have in common.
 */
#ifndef _LT_OUTPUT_ANALYSIS_H
#define _LT_OUTPUT_ANALYSIS_H

#include "cli.h"

enum out_format {
	OUT_TEXT = 0,
	OUT_JSON,
	OUT_CSV,
};

struct analysis_cli {
	struct input_opts in;
	enum out_format format;
	struct lt_analysis_opts lo;
	bool idle;		/* --idle: list the idle tasks too */
	const struct int_set *cpus;	/* --cpu: checked against the input */
};

enum {
	OPT_TICK = OPT_PRIVATE + 0x40,
	OPT_EPISODE_TICKS,
	OPT_HOG_EPISODES,
	OPT_HOG_PENDING_TICKS,
	OPT_IDLE,
};

#define ANALYSIS_LONG_OPTS \
	INPUT_LONG_OPTS, \
	{ "json", no_argument, NULL, OPT_JSON }, \
	{ "csv", no_argument, NULL, OPT_CSV }, \
	{ "hz", required_argument, NULL, OPT_HZ }, \
	{ "tick", required_argument, NULL, OPT_TICK }, \
	{ "episode-ticks", required_argument, NULL, OPT_EPISODE_TICKS }, \
	{ "hog-episodes", required_argument, NULL, OPT_HOG_EPISODES }, \
	{ "hog-pending-ticks", required_argument, NULL, OPT_HOG_PENDING_TICKS }

/* compare names its two inputs as arguments: it has no -i. */
#define ANALYSIS_USAGE \
"  -i, --input FILE   trace.dat or kernel text trace ('-' for stdin; default trace.dat)\n" \
ANALYSIS_USAGE_NO_INPUT

#define ANALYSIS_USAGE_NO_INPUT \
"  -B, --buffer NAME  trace.dat instance buffer (default: the one with events)\n" \
"  --abi NAME         flag ABI: auto, legacy, mainline, poc2023, rt-lazy\n" \
"  --json, --csv      machine-readable output (docs/json.md)\n" \
"  --hz N             the kernel's tick rate, for a trace without tick events\n" \
"                     (else the HZ its setup line records, else unknown:\n" \
"                     no hogs are named then)\n" \
"  --tick T           force the tick length (e.g. 4ms) instead of the trace's\n" \
"  --episode-ticks X  a lazy request pending X ticks at a tick is a hog\n" \
"                     episode (default 0.5)\n" \
"  --hog-episodes N   episodes that make a hog (default 3)\n" \
"  --hog-pending-ticks X  one lazy request pending longer than X ticks makes\n" \
"                     a hog (default 2)\n"

void analysis_cli_init(struct analysis_cli *o);

struct option;
/*
 * The option loop of a table command that has only the shared options:
 * returns -1 to go on, else the exit code (help shown, or bad usage).
 */
int analysis_parse(struct analysis_cli *o, int argc, char **argv,
		   const struct option *longopts, const char *usage);
/* 1 if @c was one of ANALYSIS_LONG_OPTS (and stored); exits on a bad value. */
int analysis_opt(struct analysis_cli *o, int c, const char *arg);

/*
 * Open o->in, analyse every event with @cb, finish. Returns the analysis
 * and sets *status to EXIT_OK, or EXIT_BAD after printing the reader's
 * error (the analysis is still returned, finished, for what it saw).
 * Exits 2 if the input cannot be opened.
 */
struct lt_analysis *analysis_run(struct analysis_cli *o, const char *file,
				 lt_transition_fn cb, void *data, int *status);

/* The abi, its reason and the lazy-preemption note, from the last run. */
const char *analysis_abi_reason(void);

/* "kernel ran without lazy preemption" note on @fp, if it applies. */
void print_lazy_note(FILE *fp, const struct lt_analysis_summary *s);
/* Lost events, per CPU, in text. */
void print_lost(FILE *fp, const struct lt_analysis *a);
/* One note line when the tick is unknown, saying what that means for hogs. */
void print_tick_note(FILE *fp, const struct lt_analysis_summary *s);
/* "tick=72,hrtick=3" (sources with a count), "-" for none */
size_t fmt_upgrade_sources(char *buf, size_t len, const uint64_t *by_source);
/* The kernel's setup line (if the trace has one) and the tick, in text. */
void print_setup(FILE *fp, const struct lt_analysis_summary *s);

/* 1234567 ns -> "1.235ms"; for tables. */
/* csv_field() for numbers. */
void csv_u64(FILE *fp, unsigned long long v, bool last);
void csv_dbl(FILE *fp, double v, bool last);

#endif /* _LT_OUTPUT_ANALYSIS_H */
