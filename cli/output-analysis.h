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
	OUT_TEXT = LT_FORMAT_TEXT,
	OUT_JSON = LT_FORMAT_JSON,
	OUT_CSV = LT_FORMAT_CSV,
	OUT_NDJSON = LT_FORMAT_NDJSON,
};

/*
 * The analysis commands read their input through the library's run: its
 * options (RUN_LONG_OPTS) are the same in every command.
 */
struct analysis_cli {
	struct run_cli rc;
	struct input_opts in;	/* in.file: the input's name, for messages */
	enum out_format format;
	bool idle;		/* --idle: list the idle tasks too */
	/*
	 * A streamed table analysis_run() asks for before the run reads
	 * (compare: preempt_groups), so that one reading makes both, and
	 * standard input is read once; NULL for none. The table it got.
	 */
	const char *stream;
	struct lt_table *stream_table;
};

enum {
	OPT_IDLE = OPT_PRIVATE + 0x40,
};

#define ANALYSIS_LONG_OPTS RUN_LONG_OPTS

/* compare names its two inputs as arguments: it has no -i. */
#define ANALYSIS_USAGE RUN_USAGE

#define ANALYSIS_USAGE_NO_INPUT \
"  -B NAME            trace.dat instance buffer\n" \
"  --abi NAME         flag ABI: " LT_ABI_NAMES "\n" \
"  --cpu LIST, --from T, --to T  cut both traces alike\n" \
"  --pid LIST, --comm GLOBS  only these tasks' preemptions (the counts\n" \
"                     above them stay the whole trace's)\n" \
"  --json, --csv      machine-readable output (docs/json.md)\n" \
"  --hz N, --tick T   the tick when a trace has no tick events\n" \
"  --episode-ticks X, --hog-episodes N, --hog-pending-ticks X\n" \
"                     the hog rules (docs/model.md §7)\n"

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

/* A bare argument left after the options is the input, as -i FILE. */
void analysis_args(struct analysis_cli *o, int argc, char **argv);

/*
 * Open the input (@file, else o's), analyse it within the cut, finish.
 * Returns the run (lt_run_analysis() gives the analysis) and sets *status
 * to EXIT_OK, or EXIT_BAD after printing the reader's error (the analysis
 * still holds what it saw). Exits 2 if the input cannot be opened.
 */
struct lt_run *analysis_run(struct analysis_cli *o, const char *file,
			    int *status);

/* A machine-readable format that is one table: CSV or NDJSON. */
int analysis_write_table(struct analysis_cli *o, struct lt_run *run,
			 const char *table);

/*
 * A version-3 JSON document (docs/json.md) of a run's @tables, a
 * NULL-terminated list, in o's format; @flags: lt_writer_new()'s, added
 * to the command line's (LT_WRITE_BODY: compare's sides).
 */
int analysis_write_tables(struct analysis_cli *o, struct lt_run *run,
			  const char *const *tables, unsigned int flags);

/*
 * A cell of @t's current row, by the column's name (lazytrace table
 * --list): null reads as 0 or "". A name the table lacks is a bug here,
 * so it exits rather than print a zero.
 */
bool cell_null(struct lt_table *t, const char *col);
int64_t cell_int(struct lt_table *t, const char *col);
uint64_t cell_uint(struct lt_table *t, const char *col);
double cell_double(struct lt_table *t, const char *col);
const char *cell_str(struct lt_table *t, const char *col);

/* lt_run_table(), exiting with the run's error if there is none. */
struct lt_table *analysis_table(struct lt_run *run, const char *name);
/* A one-row table of @run (meta, summary) on its row; exits on failure. */
struct lt_table *run_row(struct lt_run *run, const char *table);

/* A latency distribution as the latency table gives it, in ns. */
enum { LAT_COUNT, LAT_P50, LAT_P90, LAT_P99, LAT_MAX, NR_LAT_VALUES };

/*
 * The latency table's rows of all tasks (pid null), indexed by enum
 * lt_latency_kind: zeros for a kind without samples (it has no row).
 */
void run_latency(struct lt_run *run,
		 uint64_t lat[LT_LAT_KIND_MAX][NR_LAT_VALUES]);

/* From the meta row: "the kernel ran without lazy preemption", if so. */
void meta_lazy_note(FILE *fp, struct lt_table *meta);
/* Lost events, then per CPU (@run's lost table), in text. */
void meta_lost(FILE *fp, struct lt_run *run, struct lt_table *meta);
/* The kernel's setup line (if the trace has one) and the tick, from the meta row. */
void meta_setup(FILE *fp, struct lt_table *meta);

/* "tick=72,hrtick=3" (sources with a count), "-" for none */
size_t fmt_upgrade_sources(char *buf, size_t len, const uint64_t *by_source);

/* 1234567 ns -> "1.235ms"; for tables. */
/* csv_field() for numbers. */
void csv_u64(FILE *fp, unsigned long long v, bool last);
void csv_dbl(FILE *fp, double v, bool last);

#endif /* _LT_OUTPUT_ANALYSIS_H */
