// SPDX-License-Identifier: GPL-2.0
/*
 * Shared by the analysis commands: options, running the analysis over an
 * input, and the pieces of output they have in common.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "output-analysis.h"

static const char *last_reason;

int analysis_parse(struct analysis_cli *o, int argc, char **argv,
		   const struct option *longopts, const char *usage)
{
	int c;

	analysis_cli_init(o);
	while ((c = getopt_long(argc, argv, INPUT_SHORT_OPTS "h", longopts,
				NULL)) != -1) {
		if (analysis_opt(o, c, optarg))
			continue;
		if (c == 'h') {
			fputs(usage, stdout);
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
}

static double parse_positive(const char *arg, const char *what)
{
	char *end;
	double v = strtod(arg, &end);

	if (end == arg || *end || !(v > 0) || v > 1e6)
		die_usage("bad %s '%s'", what, arg);
	return v;
}

int analysis_opt(struct analysis_cli *o, int c, const char *arg)
{
	enum out_format fmt;
	int64_t ns;

	if (input_opt(&o->in, c, arg))
		return 1;
	switch (c) {
	case OPT_JSON:
	case OPT_CSV:
		fmt = c == OPT_JSON ? OUT_JSON : OUT_CSV;
		if (o->format != OUT_TEXT && o->format != fmt)
			die_usage("--json and --csv: choose one output format");
		o->format = fmt;
		return 1;
	case OPT_HZ:
		o->lo.hz = parse_hz(arg);
		return 1;
	case OPT_TICK:
		ns = parse_time_ns(arg);
		if (ns <= 0)
			die_usage("bad --tick '%s'", arg);
		o->lo.tick_ns = ns;
		return 1;
	case OPT_EPISODE_TICKS:
		o->lo.episode_ticks = parse_positive(arg, "--episode-ticks");
		return 1;
	case OPT_HOG_EPISODES:
		o->lo.hog_episodes = parse_positive(arg, "--hog-episodes");
		if (o->lo.hog_episodes < 1)
			die_usage("bad --hog-episodes '%s'", arg);
		return 1;
	case OPT_HOG_PENDING_TICKS:
		o->lo.hog_pending_ticks = parse_positive(arg,
							 "--hog-pending-ticks");
		return 1;
	case OPT_IDLE:
		o->idle = true;
		return 1;
	}
	return 0;
}

struct lt_analysis *analysis_run(struct analysis_cli *o, const char *file,
				 lt_transition_fn cb, void *data, int *status)
{
	struct input_opts in = o->in;
	struct lt_analysis_opts lo = o->lo;
	struct lt_analysis *a;
	struct lt_reader *r;

	if (file)
		in.file = file;
	r = input_open(&in);
	if (o->cpus)
		check_cpus(o->cpus, lt_reader_nr_cpus(r), in.file);
	/* lt_analysis_run() would take the reader's ABI the same way. */
	lo.abi = lt_reader_abi(r, NULL);
	lo.on_transition = cb;
	lo.data = data;
	a = lt_analysis_new(&lo);
	if (!a) {
		lt_reader_close(r);
		fprintf(stderr, "lazytrace: out of memory\n");
		exit(EXIT_BAD);
	}
	*status = EXIT_OK;
	if (analysis_feed_all(a, r, in.file)) {
		if (lt_reader_error(r))
			*status = input_finish(r);
		else
			warn("%s: out of memory: results are incomplete",
			     in.file);
	}
	lt_reader_abi(r, &last_reason);
	/* The reason string lives in the reader: keep a copy. */
	if (last_reason) {
		static char buf[200];

		snprintf(buf, sizeof(buf), "%s", last_reason);
		last_reason = buf;
	}
	lt_reader_close(r);
	return a;
}

const char *analysis_abi_reason(void)
{
	return last_reason ? last_reason : "";
}

void print_lazy_note(FILE *fp, const struct lt_analysis_summary *s)
{
	if (s->lazy_seen)
		return;
	fprintf(fp, "note: no event carries the lazy need-resched bit (ABI %s): "
		"the kernel ran without lazy preemption\n", lt_abi_name(s->abi));
}

void print_lost(FILE *fp, const struct lt_analysis *a)
{
	const struct lt_analysis_summary *s = lt_analysis_summary(a);
	bool unknown;
	int cpu;

	fprintf(fp, "lost events: %llu%s\n", (unsigned long long)s->lost_events,
		s->lost_unknown ? " (and an unknown number)" : "");
	if (!s->lost_events && !s->lost_unknown)
		return;
	for (cpu = 0; cpu < s->nr_cpus; cpu++) {
		uint64_t n = lt_analysis_lost(a, cpu, &unknown);

		if (n || unknown)
			fprintf(fp, "  cpu %d: %llu%s\n", cpu,
				(unsigned long long)n, unknown ? "+?" : "");
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

void print_setup(FILE *fp, const struct lt_analysis_summary *s)
{
	const struct lt_setup *st = &s->setup;
	char b[24];

	if (st->found)
		fprintf(fp, "kernel: release=%s preempt=%s hz=%u sched_features=%s\n",
			st->release[0] ? st->release : "?",
			st->preempt[0] ? st->preempt : "?", st->hz,
			st->sched_features[0] ? st->sched_features : "?");
	if (s->tick_source == LT_TICK_UNKNOWN)
		fprintf(fp, "tick: unknown, requests: %s\n",
			s->requests_probe ? "probe (exact)" : "flags");
	else
		fprintf(fp, "tick: %s (%s), requests: %s\n",
			fmt_ns(b, sizeof(b), s->tick_ns),
			lt_tick_source_name(s->tick_source),
			s->requests_probe ? "probe (exact)" : "flags");
	print_tick_note(fp, s);
}

void print_tick_note(FILE *fp, const struct lt_analysis_summary *s)
{
	if (s->tick_source == LT_TICK_UNKNOWN)
		fprintf(fp, "note: no tick events and no HZ in the trace: hog detection needs the tick, no task is called a hog (give --hz N or --tick T); tick-upgrades are still counted\n");
}
