// SPDX-License-Identifier: GPL-2.0
/*
 * Shared by the analysis commands: options, running the analysis over an
 * input, and the pieces of output they have in common.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "output-json.h"

int analysis_parse(struct analysis_cli *o, int argc, char **argv,
		   const struct option *longopts, const char *usage)
{
	int c;

	analysis_cli_init(o);
	while ((c = getopt_long(argc, argv, RUN_SHORT_OPTS "h", longopts,
				NULL)) != -1) {
		if (analysis_opt(o, c, optarg))
			continue;
		if (c == 'h') {
			fputs(usage, stdout);
			lt_run_free(o->rc.run);
			o->rc.run = NULL;
			return EXIT_OK;
		}
		usage_fail();
	}
	return -1;
}

void analysis_cli_init(struct analysis_cli *o)
{
	struct input_opts in = INPUT_OPTS_INIT;

	memset(o, 0, sizeof(*o));
	o->in = in;
	run_cli_init(&o->rc);
}

int analysis_opt(struct analysis_cli *o, int c, const char *arg)
{
	if (c == OPT_IDLE) {
		o->idle = true;
		run_set(&o->rc, "idle", "1");
		return 1;
	}
	if (!run_opt(&o->rc, c, arg))
		return 0;
	if (c == 'i') {
		o->in.file = arg;
		o->in.file_given = true;
	}
	o->format = (enum out_format)o->rc.format;
	return 1;
}

void analysis_args(struct analysis_cli *o, int argc, char **argv)
{
	if (optind >= argc)
		return;
	if (o->in.file_given)
		die_usage("two inputs: -i %s and '%s'", o->in.file,
			  argv[optind]);
	if (optind + 1 < argc)
		die_usage("unexpected argument '%s'", argv[optind + 1]);
	analysis_opt(o, 'i', argv[optind]);
}

struct lt_run *analysis_run(struct analysis_cli *o, const char *file,
			    int *status)
{
	struct lt_run *run;

	if (file) {
		run = run_cli_rerun(&o->rc, file);
	} else {
		run = o->rc.run;
		o->rc.run = NULL;
		if (lt_run_open(run)) {
			bool usage = lt_run_status(run) == LT_RUN_USAGE;
			char err[512];

			/* freed first: a leak checker sees no run left */
			snprintf(err, sizeof(err), "%s", lt_run_error(run));
			lt_run_free(run);
			if (usage)
				die_usage("%s", err);
			die("%s", err);
		}
		if (lt_run_truncated(run))
			input_note_truncated(o->in.file, lt_run_truncated(run));
	}
	*status = EXIT_OK;
	o->stream_table = o->stream ? lt_run_table(run, o->stream) : NULL;
	if (o->stream && !o->stream_table)
		die("%s", lt_run_error(run));
	lt_run_finish(run);
	if (lt_run_error(run)) {
		if (lt_run_status(run) == LT_RUN_NOMEM)
			warn("%s: out of memory: results are incomplete",
			     file ? file : input_name(o->in.file));
		else
			warn("%s", lt_run_error(run));
		*status = EXIT_BAD;
	}
	return run;
}

int analysis_write_table(struct analysis_cli *o, struct lt_run *run,
			 const char *table)
{
	struct lt_writer *w = lt_writer_new(stdout, (enum lt_format)o->format,
					    o->rc.write_flags);
	struct lt_table *t = lt_run_table(run, table);

	if (!w || !t)
		die("out of memory");
	lt_writer_table(w, t);
	if (lt_writer_end(w))
		return EXIT_BAD;
	return EXIT_OK;
}

int analysis_write_tables(struct analysis_cli *o, struct lt_run *run,
			  const char *const *tables, unsigned int flags)
{
	struct lt_writer *w = lt_writer_new(stdout, (enum lt_format)o->format,
					    o->rc.write_flags | flags);
	struct lt_table *t;
	int status = EXIT_OK;

	if (!w)
		die("out of memory");
	for (; *tables; tables++) {
		t = lt_run_table(run, *tables);
		if (!t)
			die("out of memory");
		if (lt_writer_table(w, t) < 0) {
			warn("%s", lt_run_error(run));
			status = EXIT_BAD;
			break;
		}
	}
	if (lt_writer_end(w))
		return EXIT_BAD;
	return status;
}

static int column_of(struct lt_table *t, const char *col)
{
	int c = lt_table_column(t, col);

	if (c < 0)
		die("table %s has no column %s", lt_table_name(t), col);
	return c;
}

bool cell_null(struct lt_table *t, const char *col)
{
	return lt_table_null(t, column_of(t, col));
}

int64_t cell_int(struct lt_table *t, const char *col)
{
	return lt_table_int(t, column_of(t, col));
}

uint64_t cell_uint(struct lt_table *t, const char *col)
{
	return lt_table_uint(t, column_of(t, col));
}

double cell_double(struct lt_table *t, const char *col)
{
	return lt_table_double(t, column_of(t, col));
}

const char *cell_str(struct lt_table *t, const char *col)
{
	return lt_table_string(t, column_of(t, col));
}

struct lt_table *analysis_table(struct lt_run *run, const char *name)
{
	struct lt_table *t = lt_run_table(run, name);

	if (!t)
		die("%s", lt_run_error(run));
	return t;
}

struct lt_table *run_row(struct lt_run *run, const char *table)
{
	struct lt_table *t = lt_run_table(run, table);

	if (!t || lt_table_next(t) <= 0)
		die("%s: %s", table, lt_run_error(run) ? lt_run_error(run) :
		    "no row");
	return t;
}

void meta_lazy_note(FILE *fp, struct lt_table *meta)
{
	if (cell_int(meta, "lazy_preemption"))
		return;
	fprintf(fp, "note: no event carries the lazy need-resched bit (ABI %s): "
		"the kernel ran without lazy preemption\n",
		cell_str(meta, "abi"));
}

void meta_lost(FILE *fp, struct lt_run *run, struct lt_table *meta)
{
	uint64_t lost = cell_uint(meta, "lost_events");
	bool unknown = cell_uint(meta, "lost_unknown_times");
	struct lt_table *t;

	fprintf(fp, "lost events: %llu%s\n", (unsigned long long)lost,
		unknown ? " (and an unknown number)" : "");
	if (!lost && !unknown)
		return;
	/* its rows are the CPUs that lost some */
	t = analysis_table(run, "lost");
	while (lt_table_next(t) > 0)
		fprintf(fp, "  cpu %d: %llu%s\n", (int)cell_int(t, "cpu"),
			(unsigned long long)cell_uint(t, "lost_events"),
			cell_int(t, "lost_unknown") ? "+?" : "");
}

void run_latency(struct lt_run *run,
		 uint64_t lat[LT_LAT_KIND_MAX][NR_LAT_VALUES])
{
	static const char *const cols[NR_LAT_VALUES] = {
		[LAT_COUNT] = "count", [LAT_P50] = "p50_ns",
		[LAT_P90] = "p90_ns", [LAT_P99] = "p99_ns",
		[LAT_MAX] = "max_ns",
	};
	struct lt_table *t = analysis_table(run, "latency");
	int k, v;

	memset(lat, 0, sizeof(*lat) * LT_LAT_KIND_MAX);
	/* all tasks' rows come first: stop at the first task's */
	while (lt_table_next(t) > 0 && cell_null(t, "pid")) {
		k = latency_kind(cell_str(t, "kind"));
		for (v = 0; k >= 0 && v < NR_LAT_VALUES; v++)
			lat[k][v] = cell_uint(t, cols[v]);
	}
}

void csv_u64(FILE *fp, unsigned long long v, bool last)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%llu", v);
	csv_field(fp, buf, last);
}

void csv_dbl(FILE *fp, double v, bool last)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%.6g", v);
	csv_field(fp, buf, last);
}

size_t fmt_upgrade_sources(char *buf, size_t len, const uint64_t *by_source)
{
	size_t n = 0;
	int k;

	buf[0] = '\0';
	for (k = 0; k < LT_UPG_SOURCE_MAX && n < len; k++) {
		if (!by_source[k])
			continue;
		n += snprintf(buf + n, len - n, "%s%s=%llu", n ? "," : "",
			      lt_upgrade_source_name(k),
			      (unsigned long long)by_source[k]);
	}
	if (!n)
		snprintf(buf, len, "-");
	return n;
}

static const char tick_note[] = "note: no tick events and no HZ in the trace: hog detection needs the tick, no task is called a hog (give --hz N or --tick T); tick-upgrades are still counted\n";

/* A string of the meta row, "?" when null or empty. */
static const char *meta_or_what(struct lt_table *meta, const char *col)
{
	const char *s = cell_str(meta, col);

	return s[0] ? s : "?";
}

void meta_setup(FILE *fp, struct lt_table *meta)
{
	const char *requests = !strcmp(cell_str(meta, "requests"), "probe") ?
			       "probe (exact)" : "flags";
	const char *source = cell_str(meta, "tick_source");
	char b[24];

	if (cell_int(meta, "setup_line"))
		fprintf(fp, "kernel: release=%s preempt=%s hz=%u sched_features=%s\n",
			meta_or_what(meta, "setup_release"),
			meta_or_what(meta, "preempt"),
			(unsigned int)cell_uint(meta, "hz"),
			meta_or_what(meta, "sched_features"));
	if (!strcmp(source, "unknown")) {
		fprintf(fp, "tick: unknown, requests: %s\n", requests);
		fputs(tick_note, fp);
	} else {
		fprintf(fp, "tick: %s (%s), requests: %s\n",
			fmt_ns(b, sizeof(b), cell_uint(meta, "tick_ns")),
			source, requests);
	}
}
