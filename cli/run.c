// SPDX-License-Identifier: GPL-2.0
/*
 * The commands' side of the library's run: options to lt_run_set() by
 * name, the input opened, errors turned into exit codes. The rules
 * (lists, times, filters, the ABI) are the library's.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const struct {
	int c;
	const char *name;
} run_options[] = {
	{ 'i', "input" },
	{ 'B', "buffer" },
	{ OPT_ABI, "abi" },
	{ OPT_CPU, "cpu" },
	{ OPT_PID, "pid" },
	{ OPT_COMM, "comm" },
	{ OPT_FROM, "from" },
	{ OPT_TO, "to" },
	{ OPT_HZ, "hz" },
	{ OPT_RUN_TICK, "tick" },
	{ OPT_RUN_EPISODE_TICKS, "episode-ticks" },
	{ OPT_RUN_HOG_EPISODES, "hog-episodes" },
	{ OPT_RUN_HOG_PENDING, "hog-pending-ticks" },
	{ 'j', "jobs" },
};

void run_cli_init(struct run_cli *rc)
{
	memset(rc, 0, sizeof(*rc));
	rc->run = lt_run_new();
	if (!rc->run)
		die("out of memory");
	rc->input = "trace.dat";
}

static void once(struct run_cli *rc, unsigned int bit, const char *what)
{
	opt_once(&rc->given, bit, what);
}

static void set_format(struct run_cli *rc, enum lt_format f)
{
	if (rc->format != LT_FORMAT_TEXT && rc->format != f)
		die_usage("--json, --csv and --ndjson: choose one output format");
	rc->format = f;
}

int run_opt(struct run_cli *rc, int c, const char *arg)
{
	size_t i;

	switch (c) {
	case OPT_JSON:
		set_format(rc, LT_FORMAT_JSON);
		return 1;
	case OPT_CSV:
		set_format(rc, LT_FORMAT_CSV);
		return 1;
	case OPT_NDJSON:
		set_format(rc, LT_FORMAT_NDJSON);
		return 1;
	case 't':
		rc->write_flags |= LT_WRITE_FULL_NS;
		return 1;
	}
	for (i = 0; i < ARRAY_SIZE(run_options); i++) {
		if (run_options[i].c != c)
			continue;
		if (c == 'i' || c == 'B')
			once(rc, i, c == 'i' ? "-i" : "-B");
		else
			once(rc, i, run_options[i].name);
		if (c == 'i')
			rc->input = arg;
		run_set(rc, run_options[i].name, arg);
		return 1;
	}
	return 0;
}

void run_set(struct run_cli *rc, const char *name, const char *value)
{
	if (lt_run_set(rc->run, name, value))
		die_usage("%s", lt_run_error(rc->run));
	if (rc->nr_opts == RUN_CLI_MAX_OPTS)
		die_usage("too many options");
	rc->opt_name[rc->nr_opts] = name;
	rc->opt_value[rc->nr_opts++] = value;
}

void run_set_once(struct run_cli *rc, const char *name, const char *value)
{
	int i;

	for (i = 0; i < rc->nr_opts; i++)
		if (!strcmp(rc->opt_name[i], name))
			die_usage("--%s given twice", name);
	run_set(rc, name, value);
}

static void open_or_die(struct lt_run *run, const char *input)
{
	if (lt_run_open(run)) {
		if (lt_run_status(run) == LT_RUN_USAGE)
			die_usage("%s", lt_run_error(run));
		die("%s", lt_run_error(run));
	}
	if (lt_run_truncated(run))
		input_note_truncated(input, lt_run_truncated(run));
}

/* A new run with the options of @rc, not open. */
static struct lt_run *run_like(struct run_cli *rc, const char *input)
{
	struct lt_run *run = lt_run_new();
	int i;

	if (!run)
		die("out of memory");
	for (i = 0; i < rc->nr_opts; i++)
		lt_run_set(run, rc->opt_name[i], rc->opt_value[i]);
	if (lt_run_set(run, "input", input))
		die_usage("%s", lt_run_error(run));
	return run;
}

struct lt_run *run_cli_rerun(struct run_cli *rc, const char *input)
{
	struct lt_run *run = run_like(rc, input);

	open_or_die(run, input);
	return run;
}

struct lt_run *run_cli_part(struct run_cli *rc, int k, int n)
{
	struct lt_run *run = run_like(rc, rc->input);
	char part[32];

	snprintf(part, sizeof(part), "%d/%d", k, n);
	if (lt_run_set(run, "part", part) || lt_run_set(run, "jobs", "1"))
		die("%s", lt_run_error(run));
	/* the caller's thread is not the one to exit: it tells the error */
	if (!lt_run_open(run) && lt_run_truncated(run))
		input_note_truncated(rc->input, lt_run_truncated(run));
	return run;
}

struct lt_run *run_cli_as_part(struct run_cli *rc, int k, int n)
{
	char part[32];

	snprintf(part, sizeof(part), "%d/%d", k, n);
	/* an error (the reader's, while it seeks) stays the run's */
	lt_run_set(rc->run, "part", part);
	return rc->run;
}

void run_cli_open(struct run_cli *rc, int argc, char **argv)
{
	const char *file = bare_input(argc, argv,
				      rc->given & 1 ? rc->input : NULL);

	if (file)
		run_opt(rc, 'i', file);
	open_or_die(rc->run, rc->input);
}

struct lt_table *run_table(struct run_cli *rc, const char *name)
{
	struct lt_table *t = lt_run_table(rc->run, name);

	if (!t)
		die("%s", lt_run_error(rc->run));
	return t;
}

int run_cli_end(struct run_cli *rc)
{
	int ret = EXIT_OK;

	if (lt_run_error(rc->run)) {
		warn("%s", lt_run_error(rc->run));
		ret = EXIT_BAD;
	}
	lt_run_free(rc->run);
	rc->run = NULL;
	return ret;
}

uint64_t stop_above_parse(const char *arg)
{
	int64_t ns = parse_time_ns(arg);

	if (ns <= 0)
		die_usage("bad latency '%s' (e.g. 500us, 2ms)", arg);
	return ns;
}

const char *stop_kind_parse(const char *arg)
{
	if (strcmp(arg, "lazy") && strcmp(arg, "eager") && strcmp(arg, "any"))
		die_usage("bad --stop-kind '%s' (lazy, eager or any)", arg);
	return arg;
}

const char *stop_kind_final(const char *kind, uint64_t above)
{
	if (kind && !above)
		die_usage("--stop-kind is for --stop-above");
	return kind ? kind : "lazy";
}

bool stop_watched(const char *stop_kind, const char *kind)
{
	return !strcmp(stop_kind, "any") ?
	       !strcmp(kind, "lazy") || !strcmp(kind, "eager") :
	       !strcmp(stop_kind, kind);
}

/* The library's rule for a request (its requests table), not the commands'. */
bool stop_request(const char *path, uint64_t above, const char *stop_kind,
		  pid_t skip, char *what, size_t len)
{
	static const char *const names[] = {
		"pid", "comm", "kind", "cpu", "seen_ns", "latency_ns", "end",
		"upgrade_source",
	};
	struct lt_run *run = lt_run_new();
	struct lt_table *t = NULL;
	const char *kind;
	bool found = false;
	char seen[32];
	int c[8];
	size_t i;

	if (run && !lt_run_set(run, "input", path) && !lt_run_open(run))
		t = lt_run_table(run, "requests");
	for (i = 0; t && i < 8; i++)
		c[i] = lt_table_column(t, names[i]);
	while (t && lt_table_next(t) > 0) {
		if (lt_table_null(t, c[5]) || lt_table_uint(t, c[5]) < above)
			continue;
		kind = lt_table_string(t, c[2]);
		if (!stop_watched(stop_kind, kind) ||
		    (skip && lt_table_int(t, c[0]) == skip))
			continue;
		lt_time_format(lt_table_uint(t, c[4]), false, seen,
			       sizeof(seen));
		snprintf(what, len,
			 "%s %s request of %lld %s on CPU %lld waited %.3f ms (seen at %s, %s%s%s)",
			 kind[0] == 'e' ? "an" : "a", kind,
			 (long long)lt_table_int(t, c[0]),
			 lt_table_string(t, c[1]),
			 (long long)lt_table_int(t, c[3]),
			 lt_table_uint(t, c[5]) / 1e6, seen,
			 lt_table_string(t, c[6]),
			 lt_table_null(t, c[7]) ? "" : ", upgraded by ",
			 lt_table_null(t, c[7]) ? "" :
			 lt_table_string(t, c[7]));
		found = true;
		break;
	}
	lt_run_free(run);
	return found;
}
