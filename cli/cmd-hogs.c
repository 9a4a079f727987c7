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

/* Where tick-upgrades found the hog: "user", "syscall 0", "-". */
static void where(const struct lt_task_stats *t, char *buf, size_t len)
{
	if (!t->upgrades_user && !t->upgrades_syscall)
		snprintf(buf, len, "-");
	else if (t->upgrades_syscall >= t->upgrades_user)
		snprintf(buf, len, "syscall %ld (%llu/%llu)", t->top_syscall,
			 (unsigned long long)t->upgrades_syscall,
			 (unsigned long long)(t->upgrades_syscall +
					      t->upgrades_user));
	else
		snprintf(buf, len, "user (%llu/%llu)",
			 (unsigned long long)t->upgrades_user,
			 (unsigned long long)(t->upgrades_syscall +
					      t->upgrades_user));
}

/* hogs --json: these tables (lazytrace table), one document. */
static const char *const hogs_json_tables[][5] = {
	{ "meta", "hogs", "sites", NULL },
	{ "meta", "hogs", "sites", "stacks", NULL },
};

/* Each hog's top sites, with their share of its episodes. */
static void hogs_sites_text(const struct hogs_cli *hc,
			    const struct lt_analysis *a,
			    const struct lt_task_stats *const *h, size_t nr)
{
	uint64_t seen, used, with;
	char b[24], st[512];
	size_t i, k, ns;

	lt_analysis_stack_counts(a, &seen, &used);
	printf("\ncall sites: %llu kernel stacks in the trace, %llu at a tick with a lazy request pending\n",
	       (unsigned long long)seen, (unsigned long long)used);
	if (!seen) {
		printf("no kernel stacks: record them with lazytrace record (stacktrace trigger) or trace-cmd record -T\n");
		return;
	}
	for (i = 0; i < nr; i++) {
		const struct lt_site *s = lt_analysis_sites(a, h[i], &ns);

		for (k = 0, with = 0; k < ns; k++)
			if (s[k].nr_frames)
				with += s[k].episodes;
		printf("\n%4zu %7d %s: %llu episodes, %llu with a stack\n",
		       i + 1, h[i]->pid, h[i]->comm,
		       (unsigned long long)h[i]->episodes,
		       (unsigned long long)with);
		if (ns)
			printf("     %8s %10s  %s\n", "EPISODES", "PENDING",
			       "SITE <- CALLERS");
		for (k = 0; k < ns && k < hc->nr_sites; k++) {
			site_abbrev(&s[k], 3, 4, st, sizeof(st));
			printf("     %8llu %10s  %s\n",
			       (unsigned long long)s[k].episodes,
			       fmt_ns(b, sizeof(b), s[k].pending_ns), st);
		}
		if (ns > hc->nr_sites)
			printf("     ... %zu more sites (--sites N, --json)\n",
			       ns - hc->nr_sites);
	}
}

static const char *tick_how(const struct lt_analysis_summary *s)
{
	switch (s->tick_source) {
	case LT_TICK_TIMER_FUNCTION:
		return "median spacing of the tick's hrtimer function";
	case LT_TICK_ESTIMATE:
		return "median timer interrupt spacing, an estimate";
	case LT_TICK_OPTION:
		return "--tick";
	case LT_TICK_HZ_OPTION:
		return "from --hz, no ticks in the trace";
	case LT_TICK_SETUP:
		return "from the HZ the setup line records, no ticks in the trace";
	default:
		return "no ticks and no HZ in the trace";
	}
}

static void hogs_text(const struct analysis_cli *o, const struct lt_analysis *a,
		      const struct lt_task_stats *const *h, size_t nr)
{
	const struct lt_analysis_summary *s = lt_analysis_summary(a);
	char b[4][24], w[64], src[96];
	size_t i;

	printf("%s: ABI %s, tick %s (%s)\n", input_name(o->in.file),
	       lt_abi_name(s->abi),
	       s->tick_ns ? fmt_ns(b[0], 24, s->tick_ns) : "unknown",
	       tick_how(s));
	print_setup(stdout, s);
	print_lazy_note(stdout, s);
	if (s->lost_events || s->lost_unknown)
		print_lost(stdout, a);
	if (!nr)
		return;
	printf("\n%4s %7s %-16s %5s %8s %8s %6s %10s %10s %10s %6s %5s %-16s %s\n",
	       "RANK", "PID", "COMM", "CPUS", "EPISODES", "TICK-UPG", "LAZY",
	       "MAX-LAT", "P50-LAT", "PENDING", "TRACE%", "LIFE%",
	       "UPGRADED-IN", "UPGRADED-BY");
	for (i = 0; i < nr; i++) {
		const struct lt_task_stats *t = h[i];
		const struct lt_latency *lz = &t->latency[LT_LAT_LAZY_SERVED];

		where(t, w, sizeof(w));
		fmt_upgrade_sources(src, sizeof(src), t->upgrades_by_source);
		printf("%4zu %7d %-16.16s %5s %8llu %8llu %6llu %10s %10s %10s %6.1f %5.1f %-16s %s\n",
		       i + 1, t->pid, t->comm, t->cpus,
		       (unsigned long long)t->episodes,
		       (unsigned long long)t->count[LT_TR_TICK_UPGRADE],
		       (unsigned long long)t->count[LT_TR_LAZY],
		       fmt_ns(b[0], 24, lz->max), fmt_ns(b[1], 24, lz->p50),
		       fmt_ns(b[2], 24, t->pending_ns), 100 * t->trace_share,
		       100 * t->lifetime_share, w, src);
	}
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
	const struct lt_task_stats **h;
	struct hogs_cli hc = { .nr_sites = 5 };
	const struct lt_analysis *a;
	struct analysis_cli o;
	struct lt_run *run;
	uint64_t events;
	bool unknown, sites_given = false;
	int c, status;
	size_t nr, i;

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
	a = lt_run_analysis(run);
	h = analysis_table_tasks(run, "hogs", &nr);
	if (o.format == OUT_JSON)
		status = analysis_write_tables(&o, run,
					       hogs_json_tables[hc.stacks], 0);
	else if (o.format == OUT_CSV || o.format == OUT_NDJSON)
		status = analysis_write_table(&o, run, "hogs");
	else if (hc.folded)
		for (i = 0; i < nr; i++)
			folded_task(stdout, a, h[i], hc.weight);
	else
		hogs_text(&o, a, h, nr);
	events = lt_analysis_summary(a)->events;
	unknown = lt_analysis_summary(a)->tick_source == LT_TICK_UNKNOWN;
	if (hc.stacks && o.format == OUT_TEXT && nr)
		hogs_sites_text(&hc, a, h, nr);
	free(h);
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
