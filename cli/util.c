// SPDX-License-Identifier: GPL-2.0
/*
 * Shared helpers of the lazytrace subcommands: input, errors, lists, times.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

const char *cli_command;

/* Every message begins the same way: "lazytrace CMD: ". */
static void prefix(void)
{
	if (cli_command)
		fprintf(stderr, "lazytrace %s: ", cli_command);
	else
		fputs("lazytrace: ", stderr);
}

static void vmessage(const char *fmt, va_list ap)
{
	prefix();
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void usage_fail(void)
{
	if (cli_command)
		fprintf(stderr, "try 'lazytrace %s --help'\n", cli_command);
	else
		fputs("try 'lazytrace --help'\n", stderr);
	exit(EXIT_BAD);
}

void die_usage(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage(fmt, ap);
	va_end(ap);
	usage_fail();
}

void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage(fmt, ap);
	va_end(ap);
	exit(EXIT_BAD);
}

int nothing_found(const char *fmt, ...)
{
	va_list ap;

	prefix();
	fputs("note: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return EXIT_NOTHING;
}

void check_window(int64_t from, int64_t to)
{
	if (from >= 0 && to >= 0 && from > to)
		die_usage("--from is after --to: the window is empty");
}

void warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage(fmt, ap);
	va_end(ap);
}

volatile sig_atomic_t stop_signal;

static void on_stop_signal(int sig)
{
	stop_signal = sig;
}

void catch_stop_signals(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop_signal;
	sigemptyset(&sa.sa_mask);
	/* No SA_RESTART: a signal must cut a sleep or a read short. */
	for (i = 0; i < ARRAY_SIZE(sigs); i++)
		sigaction(sigs[i], &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

int input_opt(struct input_opts *in, int c, const char *arg)
{
	switch (c) {
	case 'i':
		/* A second -i would silently win: refuse it. */
		if (in->file_given)
			die_usage("-i given twice ('%s', '%s')", in->file, arg);
		in->file = arg;
		in->file_given = true;
		return 1;
	case 'B':
		if (in->buffer)
			die_usage("-B given twice ('%s', '%s')", in->buffer, arg);
		in->buffer = arg;
		return 1;
	case OPT_ABI:
		abi_opt(arg, &in->abi, &in->abi_given);
		return 1;
	case 'j':
		/* the reader's default, for every reader this command opens */
		if (!arg[0] || arg[strspn(arg, "0123456789")] ||
		    strlen(arg) > 4 || atoi(arg) < 1 || atoi(arg) > 1024)
			die_usage("bad --jobs '%s': threads, 1 to 1024", arg);
		if (setenv("LAZYTRACE_JOBS", arg, 1))
			die("out of memory");
		return 1;
	}
	return 0;
}

static bool input_cut;

bool input_truncated(void)
{
	return input_cut;
}

struct lt_reader *input_open(const struct input_opts *in)
{
	struct lt_open_opts o = {
		.abi = in->abi, .buffer = in->buffer,
	};
	struct lt_reader *r;
	char err[512];

	r = lt_reader_open(in->file, &o, err, sizeof(err));
	if (!r)
		die("%s", err);
	if (lt_reader_truncated(r))
		input_note_truncated(in->file, lt_reader_truncated(r));
	return r;
}

const char *bare_input(int argc, char **argv, const char *given)
{
	if (optind >= argc)
		return NULL;
	if (given)
		die_usage("two inputs: -i %s and '%s'", given, argv[optind]);
	if (optind + 1 < argc)
		die_usage("unexpected argument '%s'", argv[optind + 1]);
	return argv[optind];
}

const char *input_name(const char *file)
{
	return strcmp(file, "-") ? file : "<stdin>";
}

void input_note_truncated(const char *file, uint64_t offset)
{
	if (input_cut)
		return;
	prefix();
	fprintf(stderr, "warning: %s: truncated trace.dat: its CPU data is cut short at offset %llu; read up to there, the rest is lost\n",
		input_name(file), (unsigned long long)offset);
	input_cut = true;
}

/* The library's rule for lists: one syntax for every option that takes one. */
int int_set_parse(struct int_set *set, const char *list)
{
	int_set_free(set);
	return lt_list_parse(list, &set->v, &set->nr);
}

int int_set_max(const struct int_set *set)
{
	int i, max = -1;

	for (i = 0; i < set->nr; i++)
		if (set->v[i] > max)
			max = set->v[i];
	return max;
}

void check_cpus(const struct int_set *set, int nr_cpus, const char *file)
{
	const char *pre = file ? "in " : "on this machine";
	int max = int_set_max(set);

	if (nr_cpus <= 0 || max < nr_cpus)
		return;
	if (!file)
		file = "";
	if (nr_cpus == 1)
		die_usage("--cpu: no CPU %d %s%s (only CPU 0)", max, pre, file);
	die_usage("--cpu: no CPU %d %s%s (CPUs 0-%d)", max, pre, file,
		  nr_cpus - 1);
}

bool int_set_has(const struct int_set *set, int v)
{
	int i;

	for (i = 0; i < set->nr; i++)
		if (set->v[i] == v)
			return true;
	return false;
}

void int_set_free(struct int_set *set)
{
	free(set->v);
	set->v = NULL;
	set->nr = 0;
}

unsigned int parse_hz(const char *arg)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(arg, &end, 10);
	/* kernels offer 100 to 1000; allow what any could be built with */
	if (!isdigit((unsigned char)*arg) || end == arg || *end || errno ||
	    v < 1 || v > 10000)
		die_usage("bad --hz '%s': a tick rate in Hz, 1 to 10000 (e.g. 250)",
			  arg);
	return v;
}

void abi_opt(const char *arg, enum lt_abi *abi, bool *given)
{
	if (*given)
		die_usage("--abi given twice");
	*given = true;
	/* the library's words for it (lt_run_set()) */
	if (lt_abi_parse(arg, abi))
		die_usage("bad --abi '%s' (" LT_ABI_NAMES ")", arg);
}

void opt_once(unsigned long long *given, unsigned int bit, const char *what)
{
	if (*given & (1ULL << bit))
		die_usage("%s%s given twice", what[0] == '-' ? "" : "--", what);
	*given |= 1ULL << bit;
}

int64_t parse_time_ns(const char *s)
{
	uint64_t ns;

	/* the library's rule, as --from and --to take a time */
	if (lt_time_parse(s, &ns) || ns > INT64_MAX)
		return -1;
	return ns;
}

/* ---- JSON ---- */

void json_init(struct json *j, FILE *fp, bool pretty)
{
	memset(j, 0, sizeof(*j));
	j->fp = fp;
	j->pretty = pretty;
}

static void json_key(struct json *j, const char *key)
{
	if (j->need_comma[j->depth])
		fputc(',', j->fp);
	j->need_comma[j->depth] = true;
	if (j->pretty && j->depth) {
		fputc('\n', j->fp);
		fprintf(j->fp, "%*s", 2 * j->depth, "");
	}
	if (key) {
		lt_json_string(j->fp, key);
		fputs(j->pretty ? ": " : ":", j->fp);
	}
}

static void json_open(struct json *j, const char *key, char c)
{
	json_key(j, key);
	fputc(c, j->fp);
	if (j->depth < 31)
		j->depth++;
	j->need_comma[j->depth] = false;
}

static void json_close(struct json *j, char c)
{
	bool had = j->need_comma[j->depth];

	if (j->depth)
		j->depth--;
	if (j->pretty && had) {
		fputc('\n', j->fp);
		fprintf(j->fp, "%*s", 2 * j->depth, "");
	}
	fputc(c, j->fp);
}

void json_begin_object(struct json *j, const char *key)
{
	json_open(j, key, '{');
}

void json_end_object(struct json *j)
{
	json_close(j, '}');
}

void json_begin_array(struct json *j, const char *key)
{
	json_open(j, key, '[');
}

void json_end_array(struct json *j)
{
	json_close(j, ']');
}

void json_str(struct json *j, const char *key, const char *val)
{
	json_key(j, key);
	if (val)
		lt_json_string(j->fp, val);
	else
		fputs("null", j->fp);
}

void json_int(struct json *j, const char *key, long long val)
{
	json_key(j, key);
	fprintf(j->fp, "%lld", val);
}

void json_uint(struct json *j, const char *key, unsigned long long val)
{
	json_key(j, key);
	fprintf(j->fp, "%llu", val);
}

void json_double(struct json *j, const char *key, double val)
{
	json_key(j, key);
	/* JSON has no NaN or infinity. */
	if (val != val || val > 1e300 || val < -1e300)
		fputs("null", j->fp);
	else
		fprintf(j->fp, "%.6g", val);
}

void json_usec(struct json *j, const char *key, uint64_t ns)
{
	json_key(j, key);
	fprintf(j->fp, "%llu.%03llu", (unsigned long long)(ns / 1000),
		(unsigned long long)(ns % 1000));
}

void json_bool(struct json *j, const char *key, bool val)
{
	json_key(j, key);
	fputs(val ? "true" : "false", j->fp);
}

void json_null(struct json *j, const char *key)
{
	json_key(j, key);
	fputs("null", j->fp);
}

void json_finish(struct json *j)
{
	fputc('\n', j->fp);
}

/* ---- CSV ---- */

void csv_field(FILE *fp, const char *s, bool last)
{
	if (strpbrk(s, ",\"\n\r")) {
		fputc('"', fp);
		for (; *s; s++) {
			if (*s == '"')
				fputc('"', fp);
			fputc(*s, fp);
		}
		fputc('"', fp);
	} else {
		fputs(s, fp);
	}
	fputc(last ? '\n' : ',', fp);
}

/* ---- Colour and progress ---- */

int color_parse(const char *arg, FILE *fp, bool *on)
{
	const char *term = getenv("TERM");

	if (!arg || !strcmp(arg, "auto"))
		*on = isatty(fileno(fp)) && term && strcmp(term, "dumb") &&
		      !getenv("NO_COLOR");
	else if (!strcmp(arg, "always"))
		*on = true;
	else if (!strcmp(arg, "never"))
		*on = false;
	else
		return -1;
	return 0;
}

/* Eager requests red, lazy ones yellow, both magenta, the fold cyan. */
const char *color_resched(char letter)
{
	switch (letter) {
	case 'N': case 'n':
		return "\033[1;31m";
	case 'L': case 'l':
		return "\033[1;33m";
	case 'B': case 'b':
		return "\033[1;35m";
	case 'p':
		return "\033[36m";
	}
	return "";
}

/* Shown only once a read has taken half a second, then 5 times a second. */
#define PROGRESS_DELAY_NS	500000000ULL
#define PROGRESS_EVERY_NS	200000000ULL

void progress_start(struct progress *p, struct lt_reader *r, const char *file)
{
	memset(p, 0, sizeof(*p));
	p->r = r;
	p->file = file;
	p->size = lt_reader_size(r);
	p->on = isatty(STDERR_FILENO) &&
		(p->size || lt_reader_format(r) == LT_INPUT_TRACE_DAT);
	p->start_ns = now_ns();
}

void progress_update(struct progress *p)
{
	uint64_t now = now_ns(), pos;

	if (!p->on || now - p->start_ns < PROGRESS_DELAY_NS ||
	    now - p->last_ns < PROGRESS_EVERY_NS)
		return;
	p->last_ns = now;
	if (lt_reader_format(p->r) == LT_INPUT_TRACE_DAT) {
		fprintf(stderr, "\r%s: %llu events", p->file,
			(unsigned long long)p->count);
	} else {
		pos = lt_reader_position(p->r);
		if (pos > p->size)
			pos = p->size;
		fprintf(stderr, "\r%s: %3d%%", p->file,
			(int)(100 * pos / p->size));
	}
	fflush(stderr);
	p->shown = true;
}

void progress_end(struct progress *p)
{
	if (p->shown)
		fputs("\r\033[K", stderr);
	p->shown = false;
	p->on = false;
}

static const char *const stacks_names[] = {
	[LT_STACKS_LAZY] = "lazy",
	[LT_STACKS_NONE] = "none",
	[LT_STACKS_TICK] = "tick",
	[LT_STACKS_PREEMPT] = "preempt",
};

int stacks_opt(enum lt_stacks *st, int c, const char *arg)
{
	size_t i;

	if (c == OPT_NO_STACKS) {
		*st = LT_STACKS_NONE;
		return 1;
	}
	if (c != OPT_STACKS)
		return 0;
	for (i = 0; i < ARRAY_SIZE(stacks_names); i++)
		if (stacks_names[i] && !strcmp(arg, stacks_names[i])) {
			*st = i;
			return 1;
		}
	die_usage("bad --stacks '%s' (lazy, tick, preempt or none)", arg);
	return 1;
}

const char *stacks_name(enum lt_stacks st)
{
	return st < ARRAY_SIZE(stacks_names) ? stacks_names[st] : NULL;
}
