/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The small utility layer every lazytrace subcommand shares: the input
 * options, error reporting, list and time parsing, and the JSON/CSV
 * writers. Options are parsed in one place per command (its cmd-*.c).
 */
#ifndef _LT_CLI_H
#define _LT_CLI_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <stdio.h>

#include "../common/common.h"
#include "lazytrace.h"

/* Exit codes of every subcommand (docs/model.md §8). */
#define EXIT_OK		0
#define EXIT_NOTHING	1	/* nothing found where something was asked for */
#define EXIT_BAD	2	/* bad usage or bad input */
#define EXIT_TRUNCATED	3	/* a trace.dat cut short: read up to the cut */

struct cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

/* Subcommands, one file each (cli/cmd-NAME.c). */
int cmd_report(int argc, char **argv);
int cmd_flags(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_live(int argc, char **argv);
int cmd_hist(int argc, char **argv);
/*
 * live's stream into @h until @duration (ns, -1: a signal), nothing shown
 * meanwhile: hist's histograms where the kernel cannot build them.
 */
int live_hist(struct lt_lathist *h, int64_t duration);
int cmd_stats(int argc, char **argv);
int cmd_hogs(int argc, char **argv);
int cmd_timeline(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_tui(int argc, char **argv);
int cmd_table(int argc, char **argv);
int cmd_preempts(int argc, char **argv);

/* Options every command that reads a trace takes. */
struct input_opts {
	const char *file;	/* -i FILE, default "trace.dat" */
	bool file_given;	/* -i was on the command line */
	const char *buffer;	/* -B NAME: trace.dat instance */
	enum lt_abi abi;	/* --abi NAME */
	bool abi_given;		/* --abi was on the command line */
};

#define INPUT_OPTS_INIT { .file = "trace.dat", .abi = LT_ABI_AUTO }

/* Long options for struct input_opts; handle them with input_opt(). */
#define INPUT_LONG_OPTS \
	{ "input", required_argument, NULL, 'i' }, \
	{ "buffer", required_argument, NULL, 'B' }, \
	{ "abi", required_argument, NULL, OPT_ABI }, \
	{ "jobs", required_argument, NULL, 'j' }

#define INPUT_SHORT_OPTS "i:B:j:"

/* -j N: threads reading a trace.dat (the reader's default is its own). */
#define JOBS_USAGE \
"  -j, --jobs N       threads reading a trace.dat, this one included (1:\n" \
"                     no other; default LAZYTRACE_JOBS, else one per CPU\n" \
"                     from 64 MB of pages; they decode while this one\n" \
"                     analyses, or report prints with them); the output\n" \
"                     is the same with any\n"

enum {
	OPT_ABI = 0x100,
	OPT_JSON,
	OPT_CSV,
	OPT_CPU,
	OPT_PID,
	OPT_COMM,
	OPT_FROM,
	OPT_TO,
	OPT_HZ,
	OPT_COLOR,
	OPT_STACKS,
	OPT_NO_STACKS,
	OPT_PRIVATE = 0x200,	/* first value free for a command's own */
};

/* Kernel stacks at ticks, for record, live and tui --live. */
#define STACKS_LONG_OPTS \
	{ "stacks", required_argument, NULL, OPT_STACKS }, \
	{ "no-stacks", no_argument, NULL, OPT_NO_STACKS }

#define STACKS_USAGE \
"  --stacks WHEN         kernel stacks for the hogs' call sites: lazy (at a\n" \
"                        tick that finds a lazy request pending; default),\n" \
"                        tick (every tick), preempt (as lazy, and at every\n" \
"                        preemption, for preempts' sites), none\n" \
"  --no-stacks           the same as --stacks none\n"

/* 1 if @c was a stacks option (and stored), 0 if not; exits on bad value. */
int stacks_opt(enum lt_stacks *st, int c, const char *arg);
/* The --stacks value (and the run's "stacks" option) of @st. */
const char *stacks_name(enum lt_stacks st);

/* 1 if @c was an input option (and stored), 0 if not; exits on bad value. */
int input_opt(struct input_opts *in, int c, const char *arg);

/*
 * Open the input or print the one-line error and exit 2. A trace.dat cut
 * short is read up to the cut, with one warning line on stderr.
 */
struct lt_reader *input_open(const struct input_opts *in);

/* Whether an input opened was cut short: main() then exits 3, not 0. */
bool input_truncated(void);
/*
 * The argument getopt left, if any: a bare FILE is the input, as
 * trace-cmd takes it. Exits 2 if -i gave one too (@given, else NULL) or
 * if more are left.
 */
const char *bare_input(int argc, char **argv, const char *given);
/* An input's name in headers and messages: "-" is "<stdin>". */
const char *input_name(const char *file);
/* The one warning for an input cut short; main() then exits 3. */
void input_note_truncated(const char *file, uint64_t offset);

/*
 * record and live stop cleanly on SIGINT, SIGTERM, SIGHUP and SIGQUIT:
 * the handler only sets stop_signal; SIGPIPE is ignored.
 */
extern volatile sig_atomic_t stop_signal;
void catch_stop_signals(void);


/* CLOCK_MONOTONIC in ns. */
uint64_t now_ns(void);

/* The subcommand being run ("stats"), for messages; NULL before. */
extern const char *cli_command;

/*
 * A usage error: one line, then "try 'lazytrace CMD --help'", exit 2.
 * usage_fail() only adds the second line, after getopt's own message.
 */
__attribute__((format(printf, 1, 2), noreturn))
void die_usage(const char *fmt, ...);

/*
 * A single-value option given twice is a mistake: die_usage() the second
 * time @bit is seen in @given. @what is the option as the user spells it.
 */
void opt_once(unsigned long long *given, unsigned int bit, const char *what);
/* --abi NAME into @abi, or exit 2 (a bad name, or given twice). */
void abi_opt(const char *arg, enum lt_abi *abi, bool *given);
__attribute__((noreturn))
void usage_fail(void);

/* Any other fatal error (bad input, out of memory): one line, exit 2. */
__attribute__((format(printf, 1, 2), noreturn))
void die(const char *fmt, ...);

/*
 * A valid request that found nothing (no event, a filter that selects
 * nothing, no hog): "lazytrace: note: ..." on stderr; returns EXIT_NOTHING.
 */
__attribute__((format(printf, 1, 2)))
int nothing_found(const char *fmt, ...);

/* --from after --to is a mistake, not an empty window: die_usage(). */
void check_window(int64_t from, int64_t to);

__attribute__((format(printf, 1, 2)))
void warn(const char *fmt, ...);

/* A set of small non-negative integers (CPUs, pids) from "1,3-5". */
struct int_set {
	int *v;
	int nr;
};

int int_set_parse(struct int_set *set, const char *list);
/* The largest member; -1 for an empty set. */
int int_set_max(const struct int_set *set);
/*
 * die_usage() if @set names a CPU at or above @nr_cpus (when known, > 0)
 * in @file, or on this machine if @file is NULL.
 */
void check_cpus(const struct int_set *set, int nr_cpus, const char *file);
bool int_set_has(const struct int_set *set, int v);
void int_set_free(struct int_set *set);

/* "1.5" seconds, "1500ms", "20us", "300ns" -> ns; -1 on error. */
int64_t parse_time_ns(const char *s);
/* --hz N: the kernel's tick rate; exits with a usage error if bad. */
unsigned int parse_hz(const char *arg);

/* ---- JSON writer: streams, escapes, keeps commas right. ---- */
struct json {
	FILE *fp;
	int depth;
	bool need_comma[32];
	bool pretty;
};

void json_init(struct json *j, FILE *fp, bool pretty);
void json_begin_object(struct json *j, const char *key);
void json_end_object(struct json *j);
void json_begin_array(struct json *j, const char *key);
void json_end_array(struct json *j);
void json_str(struct json *j, const char *key, const char *val);
void json_int(struct json *j, const char *key, long long val);
void json_uint(struct json *j, const char *key, unsigned long long val);
void json_double(struct json *j, const char *key, double val);
/* A time in microseconds with ns precision: 12.345 for 12345 ns. */
void json_usec(struct json *j, const char *key, uint64_t ns);
void json_bool(struct json *j, const char *key, bool val);
void json_null(struct json *j, const char *key);
void json_finish(struct json *j);

/* ---- CSV: RFC 4180 quoting. ---- */
void csv_field(FILE *fp, const char *s, bool last);

/* ---- Terminal niceties: colour and progress, only on a terminal. ---- */

/* --color=auto|always|never for output to @fp; -1 on a bad value. */
int color_parse(const char *arg, FILE *fp, bool *on);
/* The escape that colours a need-resched letter ("" for '.'). */
const char *color_resched(char letter);
#define COLOR_RESET "\033[0m"

/*
 * "FILE: 42%" (text; trace.dat: "FILE: 123456 events", its CPUs' data
 * lie apart in the file) on stderr while a long read goes on, when stderr
 * is a terminal. Call progress_tick() once per event.
 */
struct progress {
	struct lt_reader *r;
	const char *file;
	uint64_t size;
	uint64_t start_ns;
	uint64_t last_ns;
	uint64_t count;
	bool on;
	bool shown;
};


void progress_start(struct progress *p, struct lt_reader *r, const char *file);
void progress_update(struct progress *p);
void progress_end(struct progress *p);

static inline void progress_tick(struct progress *p)
{
	if (p->on && !(++p->count & 0xfff))
		progress_update(p);
}

/* @n events at once. */
static inline void progress_ticks(struct progress *p, uint64_t n)
{
	if (p->on) {
		p->count += n;
		progress_update(p);
	}
}

/* ---- Runs: the library's run object behind the table commands (run.c) ---- */

/*
 * The cut and the task filters, part of RUN_LONG_OPTS: for tui, which
 * takes them without the output formats. run_opt() handles them.
 */
#define RUN_FILTER_LONG_OPTS \
	{ "cpu", required_argument, NULL, OPT_CPU }, \
	{ "pid", required_argument, NULL, OPT_PID }, \
	{ "comm", required_argument, NULL, OPT_COMM }, \
	{ "from", required_argument, NULL, OPT_FROM }, \
	{ "to", required_argument, NULL, OPT_TO }

#define RUN_FILTER_USAGE \
"  --cpu LIST         only these CPUs (the trace is cut: as if recorded so)\n" \
"  --from T, --to T   only this window (cut the same way; T: 7.25, 7250ms;\n" \
"                     a time printed with six decimals takes its microsecond)\n" \
"  --pid LIST         only rows of these tasks\n" \
"  --comm GLOBS       only rows of tasks whose name matches (e.g. 'kworker*')\n"

/*
 * The options every command that reads a trace through a run takes; each
 * is handed to lt_run_set() under its long name, once (twice is a
 * mistake: exit 2). A bare argument is the input, as with -i.
 */
#define RUN_LONG_OPTS \
	{ "input", required_argument, NULL, 'i' }, \
	{ "buffer", required_argument, NULL, 'B' }, \
	{ "abi", required_argument, NULL, OPT_ABI }, \
	RUN_FILTER_LONG_OPTS, \
	{ "hz", required_argument, NULL, OPT_HZ }, \
	{ "tick", required_argument, NULL, OPT_RUN_TICK }, \
	{ "episode-ticks", required_argument, NULL, OPT_RUN_EPISODE_TICKS }, \
	{ "hog-episodes", required_argument, NULL, OPT_RUN_HOG_EPISODES }, \
	{ "hog-pending-ticks", required_argument, NULL, OPT_RUN_HOG_PENDING }, \
	{ "jobs", required_argument, NULL, 'j' }, \
	{ "json", no_argument, NULL, OPT_JSON }, \
	{ "csv", no_argument, NULL, OPT_CSV }, \
	{ "ndjson", no_argument, NULL, OPT_NDJSON }

#define RUN_SHORT_OPTS "i:B:tj:"

#define RUN_USAGE \
"  -i, --input FILE   trace.dat or kernel text ('-': standard input; default\n" \
"                     trace.dat); a bare FILE argument is the same\n" \
"  -B, --buffer NAME  trace.dat instance buffer\n" \
"  --abi NAME         flag ABI: " LT_ABI_NAMES "\n" \
RUN_FILTER_USAGE \
"  --json, --csv, --ndjson  machine-readable output (docs/json.md)\n" \
"  -t                 times in full nanoseconds\n" \
"  --hz N, --tick T   the tick when the trace has no tick events\n" \
"  --episode-ticks X, --hog-episodes N, --hog-pending-ticks X\n" \
"                     the hog rules (docs/model.md §7)\n" \
JOBS_USAGE

enum {
	OPT_NDJSON = OPT_PRIVATE - 0x20,
	OPT_RUN_TICK,
	OPT_RUN_EPISODE_TICKS,
	OPT_RUN_HOG_EPISODES,
	OPT_RUN_HOG_PENDING,
};

#define RUN_CLI_MAX_OPTS 24

struct run_cli {
	struct lt_run *run;
	const char *input;	/* as given, for messages */
	unsigned long long given;	/* a bit per option seen */
	enum lt_format format;
	unsigned int write_flags;	/* LT_WRITE_FULL_NS with -t */
	/* the options set, to give another run the same (compare) */
	const char *opt_name[RUN_CLI_MAX_OPTS];
	const char *opt_value[RUN_CLI_MAX_OPTS];
	int nr_opts;
};

/* A run with default options; exits on out of memory. */
void run_cli_init(struct run_cli *rc);
/*
 * 1 if @c was one of RUN_LONG_OPTS or -t (and stored), 0 if not; exits 2
 * with a hint on a bad value or an option given twice.
 */
int run_opt(struct run_cli *rc, int c, const char *arg);
/*
 * Take the bare arguments left after getopt (at most one: the input),
 * open the run; exits 2 with the library's message if it cannot.
 */
void run_cli_open(struct run_cli *rc, int argc, char **argv);
/*
 * lt_run_set() on rc->run, remembered for run_cli_rerun(); exits 2 with
 * the library's message on a bad value.
 */
void run_set(struct run_cli *rc, const char *name, const char *value);
/* run_set() of an option a command takes once: exits 2 the second time. */
void run_set_once(struct run_cli *rc, const char *name, const char *value);
/* A new run of @input with the options of @rc, opened (or exit 2). */
struct lt_run *run_cli_rerun(struct run_cli *rc, const char *input);
/*
 * A run of @rc's input and options reading part @k of @n, on one thread;
 * an input that fails to open leaves its error in the run (for a thread,
 * which must not exit).
 */
struct lt_run *run_cli_part(struct run_cli *rc, int k, int n);
/* rc->run, open and not read yet, made to read part @k of @n (the same). */
struct lt_run *run_cli_as_part(struct run_cli *rc, int k, int n);
/* A table of the run, or exit 2 with the library's message. */
struct lt_table *run_table(struct run_cli *rc, const char *name);
/*
 * Exit status after the tables were written: 2 if the run stopped on an
 * error (printed), else 0; frees the run.
 */
int run_cli_end(struct run_cli *rc);

/* ---- --stop-above: which requests stop record and live ---- */

/* --stop-above LAT (e.g. 500us, 2ms) in ns, or exit 2. */
uint64_t stop_above_parse(const char *arg);
/* --stop-kind KIND (lazy, eager or any), or exit 2. */
const char *stop_kind_parse(const char *arg);
/* After the options: @kind needs @above; unset, it is lazy. */
const char *stop_kind_final(const char *kind, uint64_t above);
/* Whether --stop-kind @stop_kind (lazy, eager or any) watches @kind. */
bool stop_watched(const char *stop_kind, const char *kind);
/*
 * The first request of the trace @path of a watched kind that waited
 * @above ns or more, not of pid @skip (0: none), said in @what ("an
 * eager request of 12 x on CPU 1 waited 3.000 ms (seen at ...,
 * preempted)"). Returns whether there was one.
 */
bool stop_request(const char *path, uint64_t above, const char *stop_kind,
		  pid_t skip, char *what, size_t len);

#endif /* _LT_CLI_H */
