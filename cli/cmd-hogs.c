// SPDX-License-Identifier: GPL-2.0
/*
 * lazytrace hogs: the tasks that keep the CPU after a lazy request until
 * the tick forces them off (docs/model.md §7), worst first.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "output-json.h"
#include "output-sites.h"

enum {
	OPT_SHOW_STACKS = OPT_PRIVATE,
	OPT_FOLDED,
	OPT_SITES,
};

struct hogs_cli {
	bool stacks;		/* --stacks: each hog's top call sites */
	bool folded;		/* --folded: flame-graph input instead */
	enum folded_weight weight;
	unsigned int nr_sites;	/* --sites N */
};

static const char hogs_usage[] =
"usage: lazytrace hogs [-i FILE] [--json|--csv] [--hz N] [--tick T]\n"
"                      [--episode-ticks X] [--hog-episodes N]\n"
"                      [--hog-pending-ticks X] [--abi NAME]\n"
"                      [--stacks [--sites N] | --folded[=episodes|pending]]\n"
"\n"
"A hog episode is a lazy request still pending when a tick arrives, after\n"
"being pending (outside timer interrupts) for at least half a tick. A hog\n"
"has 3 episodes, or one lazy request pending longer than 2 ticks (and seen\n"
"by more than 2 ticks). The tick length is the trace's median tick\n"
"spacing, else --hz. Hogs are ranked by the total time their lazy\n"
"requests were pending. Exit status 1 when there is no hog.\n"
"\n"
"With kernel stacks in the trace (record's stacktrace trigger, trace-cmd\n"
"record -T), the stack taken at a tick that found a lazy request pending\n"
"belongs to that request; a call site is the innermost frame that is not\n"
"interrupt entry or tracing. --json (version 3, docs/json.md) prints the\n"
"meta, hogs and sites tables (with --stacks also stacks).\n"
"  --stacks           each hog's top call sites with an abbreviated stack\n"
"  --sites N          how many sites --stacks shows per hog (default 5)\n"
"  --folded[=W]       folded stacks for flame graphs (flamegraph.pl, inferno,\n"
"                     speedscope), task first, weighted by episodes (default)\n"
"                     or pending time in ns\n"
"\n"
ANALYSIS_USAGE;

/* Where tick-upgrades found the hog (a hogs row): "user", "syscall 0", "-". */
static void where(struct lt_table *t, char *buf, size_t len)
{
	uint64_t user = cell_uint(t, "upgrades_in_user");
	uint64_t sc = cell_uint(t, "upgrades_in_syscall");

	if (!user && !sc)
		snprintf(buf, len, "-");
	else if (sc >= user)
		snprintf(buf, len, "syscall %lld (%llu/%llu)",
			 (long long)cell_int(t, "top_syscall"),
			 (unsigned long long)sc,
			 (unsigned long long)(sc + user));
	else
		snprintf(buf, len, "user (%llu/%llu)", (unsigned long long)user,
			 (unsigned long long)(sc + user));
}

/* hogs --json: these tables (lazytrace table), one document. */
static const char *const hogs_json_tables[][5] = {
	{ "meta", "hogs", "sites", NULL },
	{ "meta", "hogs", "sites", "stacks", NULL },
};

/*
 * A cursor over the sites table, one hog at a time: its rows come in the
 * hogs table's order, so the row read ahead is the next hog's.
 */
struct site_cursor {
	struct lt_table *t;
	bool ahead;		/* a row is read and not yet taken */
};

/* Whether the next row is one of the hog @task_id's (and now current). */
static bool site_of(struct site_cursor *c, uint64_t task_id)
{
	if (!c->ahead)
		c->ahead = lt_table_next(c->t) > 0;
	if (!c->ahead || cell_uint(c->t, "task_id") != task_id)
		return false;
	c->ahead = false;
	return true;
}

/* Each hog's top sites, with their share of its episodes. */
static void hogs_sites_text(const struct hogs_cli *hc, struct lt_run *run,
			    struct lt_table *meta)
{
	struct lt_table *h = analysis_table(run, "hogs");
	struct site_cursor count = { .t = analysis_table(run, "sites") };
	struct site_cursor show = { .t = analysis_table(run, "sites") };
	uint64_t seen = cell_uint(meta, "kernel_stacks"), with, id;
	char b[24], st[512];
	size_t i, k, ns;

	printf("\ncall sites: %llu kernel stacks in the trace, %llu at a tick with a lazy request pending\n",
	       (unsigned long long)seen,
	       (unsigned long long)cell_uint(meta, "kernel_stacks_at_ticks"));
	if (!seen) {
		printf("no kernel stacks: record them with lazytrace record (stacktrace trigger) or trace-cmd record -T\n");
		return;
	}
	for (i = 0; lt_table_next(h) > 0; i++) {
		id = cell_uint(h, "task_id");
		for (ns = 0, with = 0; site_of(&count, id); ns++)
			if (cell_uint(count.t, "frames"))
				with += cell_uint(count.t, "episodes");
		printf("\n%4zu %7d %s: %llu episodes, %llu with a stack\n",
		       i + 1, (int)cell_int(h, "pid"), cell_str(h, "comm"),
		       (unsigned long long)cell_uint(h, "episodes"),
		       (unsigned long long)with);
		if (ns)
			printf("     %8s %10s  %s\n", "EPISODES", "PENDING",
			       "SITE <- CALLERS");
		for (k = 0; site_of(&show, id); k++) {
			if (k >= hc->nr_sites)
				continue;
			site_abbrev_row(show.t, 3, 4, st, sizeof(st));
			printf("     %8llu %10s  %s\n",
			       (unsigned long long)cell_uint(show.t, "episodes"),
			       fmt_ns(b, sizeof(b),
				      cell_uint(show.t, "pending_ns")), st);
		}
		if (ns > hc->nr_sites)
			printf("     ... %zu more sites (--sites N, --json)\n",
			       ns - hc->nr_sites);
	}
}

/* The meta table's tick_source, as the text explains it. */
static const char *tick_how(const char *source)
{
	static const struct {
		const char *source, *how;
	} hows[] = {
		{ "timer_function", "median spacing of the tick's hrtimer function" },
		{ "estimate", "median timer interrupt spacing, an estimate" },
		{ "option", "--tick" },
		{ "hz_option", "from --hz, no ticks in the trace" },
		{ "setup", "from the HZ the setup line records, no ticks in the trace" },
		{ "timer_grid", "the shortest step of the tick's expiry grid" },
		{ "unknown", "no ticks and no HZ in the trace" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(hows); i++)
		if (!strcmp(hows[i].source, source))
			return hows[i].how;
	return source;
}

static void hogs_text(const struct analysis_cli *o, struct lt_run *run,
		      struct lt_table *meta)
{
	struct lt_table *t = analysis_table(run, "hogs");
	uint64_t by_source[LT_UPG_SOURCE_MAX];
	char b[4][24], w[64], src[96];
	size_t i;
	int k;

	printf("%s: ABI %s, tick %s (%s)\n", input_name(o->in.file),
	       cell_str(meta, "abi"),
	       cell_null(meta, "tick_ns") ? "unknown" :
	       fmt_ns(b[0], 24, cell_uint(meta, "tick_ns")),
	       tick_how(cell_str(meta, "tick_source")));
	meta_setup(stdout, meta);
	meta_lazy_note(stdout, meta);
	if (cell_uint(meta, "lost_events") ||
	    cell_uint(meta, "lost_unknown_times"))
		meta_lost(stdout, run, meta);
	for (i = 0; lt_table_next(t) > 0; i++) {
		if (!i)
			printf("\n%4s %7s %-16s %5s %8s %8s %6s %10s %10s %10s %6s %5s %-16s %s\n",
			       "RANK", "PID", "COMM", "CPUS", "EPISODES",
			       "TICK-UPG", "LAZY", "MAX-LAT", "P50-LAT",
			       "PENDING", "TRACE%", "LIFE%", "UPGRADED-IN",
			       "UPGRADED-BY");
		where(t, w, sizeof(w));
		for (k = 0; k < LT_UPG_SOURCE_MAX; k++)
			by_source[k] = cell_uint(t, upgrade_source_key(k));
		fmt_upgrade_sources(src, sizeof(src), by_source);
		/* the rank is the count here: --pid and --comm keep some */
		printf("%4zu %7d %-16.16s %5s %8llu %8llu %6llu %10s %10s %10s %6.1f %5.1f %-16s %s\n",
		       i + 1, (int)cell_int(t, "pid"), cell_str(t, "comm"),
		       cell_str(t, "cpus"),
		       (unsigned long long)cell_uint(t, "episodes"),
		       (unsigned long long)cell_uint(t, "tick_upgrades"),
		       (unsigned long long)cell_uint(t, "lazy"),
		       fmt_ns(b[0], 24, cell_uint(t, "lazy_max_ns")),
		       fmt_ns(b[1], 24, cell_uint(t, "lazy_p50_ns")),
		       fmt_ns(b[2], 24, cell_uint(t, "pending_ns")),
		       100 * cell_double(t, "trace_share"),
		       100 * cell_double(t, "lifetime_share"), w, src);
	}
}

/* The folded stacks of every hog the filters keep. */
static void hogs_folded(struct lt_run *run, enum folded_weight weight)
{
	struct lt_table *t = analysis_table(run, "stacks");

	while (lt_table_next(t) > 0)
		folded_row(stdout, t, weight);
}

static size_t count_rows(struct lt_run *run, const char *name)
{
	struct lt_table *t = analysis_table(run, name);
	size_t n = 0;

	while (lt_table_next(t) > 0)
		n++;
	return n;
}

static unsigned int parse_sites(const char *arg)
{
	char *end;
	unsigned long v = strtoul(arg, &end, 10);

	if (end == arg || *end || !v || v > 100000)
		die_usage("bad --sites '%s'", arg);
	return v;
}

int cmd_hogs(int argc, char **argv)
{
	static const struct option longopts[] = {
		ANALYSIS_LONG_OPTS,
		{ "stacks", no_argument, NULL, OPT_SHOW_STACKS },
		{ "folded", optional_argument, NULL, OPT_FOLDED },
		{ "sites", required_argument, NULL, OPT_SITES },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct hogs_cli hc = { .nr_sites = 5 };
	struct analysis_cli o;
	struct lt_table *meta;
	struct lt_run *run;
	uint64_t events;
	bool unknown, sites_given = false;
	int c, status;
	size_t nr;

	analysis_cli_init(&o);
	while ((c = getopt_long(argc, argv, RUN_SHORT_OPTS "h", longopts,
				NULL)) != -1) {
		if (analysis_opt(&o, c, optarg))
			continue;
		switch (c) {
		case OPT_SHOW_STACKS:
			hc.stacks = true;
			break;
		case OPT_FOLDED:
			if (hc.folded)
				die_usage("--folded given twice");
			hc.folded = true;
			if (!optarg || !strcmp(optarg, "episodes"))
				hc.weight = FOLDED_EPISODES;
			else if (!strcmp(optarg, "pending"))
				hc.weight = FOLDED_PENDING;
			else
				die_usage("--folded takes episodes or pending, not '%s'",
					  optarg);
			break;
		case OPT_SITES:
			if (sites_given)
				die_usage("--sites given twice");
			sites_given = true;
			hc.nr_sites = parse_sites(optarg);
			break;
		case 'h':
			fputs(hogs_usage, stdout);
			lt_run_free(o.rc.run);
			return EXIT_OK;
		default:
			usage_fail();
		}
	}
	if (hc.folded && (o.format != OUT_TEXT || hc.stacks))
		die_usage("--folded goes alone, without --json, --csv or --stacks");
	if (sites_given && (!hc.stacks || o.format != OUT_TEXT))
		die_usage("--sites is for --stacks in text: the call sites it shows per hog (--json has them all)");
	analysis_args(&o, argc, argv);
	run = analysis_run(&o, NULL, &status);
	if (status != EXIT_OK) {
		lt_run_free(run);
		return status;
	}
	meta = run_row(run, "meta");
	nr = count_rows(run, "hogs");
	if (o.format == OUT_JSON)
		status = analysis_write_tables(&o, run,
					       hogs_json_tables[hc.stacks], 0);
	else if (o.format == OUT_CSV || o.format == OUT_NDJSON)
		status = analysis_write_table(&o, run, "hogs");
	else if (hc.folded)
		hogs_folded(run, hc.weight);
	else
		hogs_text(&o, run, meta);
	events = cell_uint(meta, "events");
	unknown = !strcmp(cell_str(meta, "tick_source"), "unknown");
	if (hc.stacks && o.format == OUT_TEXT && nr)
		hogs_sites_text(&hc, run, meta);
	lt_run_free(run);
	if (status != EXIT_OK)
		return status;
	if (!events)
		return nothing_found("%s: no events", input_name(o.in.file));
	if (!nr && unknown)
		return nothing_found("no hogs: the tick is unknown (no tick events, no HZ in the trace); give --hz N or --tick T");
	if (!nr)
		return nothing_found("no hogs: no task ignored a lazy request until the tick");
	return EXIT_OK;
}
