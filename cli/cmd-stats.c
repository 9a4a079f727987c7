// SPDX-License-Identifier: GPL-2.0
/*
 * lazytrace stats: the global switch table of the 2023 proof of concept
 * (preempted / yielded / blocked), the transition counts and latency
 * percentiles, and one row per task.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "output-json.h"

static const char stats_usage[] =
"usage: lazytrace stats [FILE] [--json|--csv|--ndjson] [--idle] [--cpu LIST]\n"
"                       [--pid LIST] [--comm GLOBS] [--from T] [--to T] ...\n"
"\n"
"Switches split by how the task left the CPU (preempted R+, yielded R,\n"
"blocked), need-resched transitions, latency percentiles, and per task:\n"
"its share of the trace (TRACE%) and of its own lifetime (LIFE%) in % of\n"
"one CPU, transitions, how its requests were served, lazy latency.\n"
"\n"
ANALYSIS_USAGE
"  --idle             list the idle tasks (pid 0, one per CPU) too\n"
"\n"
"With --pid or --comm the task rows are those tasks'; the global tables\n"
"stay the trace's (within --cpu, --from, --to). --csv and --ndjson print\n"
"the tasks table (lazytrace table --list); --json (version 3, docs/json.md)\n"
"the meta, summary, tasks, latency and lost tables.\n"
"Percentiles come from log-linear histograms: within 0.8%; max is exact.\n";

static uint64_t upgrades(const uint64_t *count)
{
	return transition_total(TC_UPGRADES, count);
}

/* stats --json: these tables (lazytrace table), one document. */
const char *const stats_json_tables[] = {
	"meta", "summary", "tasks", "latency", "lost", NULL,
};

static void text_latency(const char *name, const struct lt_latency *l)
{
	char b[4][24];

	if (!l->count) {
		printf("  %-16s %8s\n", name, "-");
		return;
	}
	printf("  %-16s %8llu %10s %10s %10s %10s\n", name,
	       (unsigned long long)l->count, fmt_ns(b[0], 24, l->p50),
	       fmt_ns(b[1], 24, l->p90), fmt_ns(b[2], 24, l->p99),
	       fmt_ns(b[3], 24, l->max));
}

/* Per task: what made its upgrades, and who made its requests (probe). */
static void stats_text_sources(const struct lt_task_stats **v, size_t nr)
{
	bool head = false;
	size_t i;
	int k;

	for (i = 0; i < nr; i++) {
		const struct lt_task_stats *t = v[i];

		if (!upgrades(t->count) && !t->requested)
			continue;
		if (!head) {
			printf("\n%7s %-16s %6s %6s %6s %6s %6s %9s\n", "PID",
			       "COMM", "TICK", "HRTICK", "TIMER", "IRQ",
			       "DIRECT", "REQUESTED");
			head = true;
		}
		printf("%7d %-16.16s", t->pid, t->comm);
		for (k = 0; k < LT_UPG_SOURCE_MAX; k++)
			printf(" %6llu",
			       (unsigned long long)t->upgrades_by_source[k]);
		printf(" %9llu\n", (unsigned long long)t->requested);
	}
}

static void stats_text(const struct analysis_cli *o, const struct lt_analysis *a,
		       const struct lt_task_stats **v, size_t nr)
{
	const struct lt_analysis_summary *s = lt_analysis_summary(a);
	uint64_t total = s->switches[0] + s->switches[1] + s->switches[2];
	static const char *const sw_names[] = { "preempted (R+)", "yielded (R)",
						"blocked" };
	char b[4][24];
	size_t i;
	int k;

	printf("%s: %llu events on %d CPUs, %s, ABI %s (%s)\n",
	       input_name(o->in.file),
	       (unsigned long long)s->events, s->nr_cpus,
	       fmt_ns(b[0], 24, s->last_ns - s->first_ns), lt_abi_name(s->abi),
	       analysis_abi_reason());
	print_lazy_note(stdout, s);
	print_lost(stdout, a);
	print_setup(stdout, s);
	printf("\nswitches (every sched_switch, idle included): %llu\n",
	       (unsigned long long)total);
	for (k = 0; k < 3; k++)
		printf("  %-14s %8llu %6.1f%%\n", sw_names[k],
		       (unsigned long long)s->switches[k],
		       total ? 100.0 * s->switches[k] / total : 0.0);
	printf("\ntransitions\n");
	for (k = 0; k < NR_TRANSITION_KEYS; k++)
		printf("  %-14s %8llu\n", transition_key(k),
		       (unsigned long long)transition_total(k, s->count));
	printf("\nupgrades by source\n");
	for (k = 0; k < LT_UPG_SOURCE_MAX; k++)
		printf("  %-14s %8llu\n", lt_upgrade_source_name(k),
		       (unsigned long long)s->upgrades_by_source[k]);
	printf("\n%-18s %8s %10s %10s %10s %10s\n", "latency", "count",
	       "p50", "p90", "p99", "max");
	for (k = 0; k < LT_LAT_KIND_MAX; k++)
		text_latency(latency_key(k), &s->latency[k]);
	printf("\n%7s %-16s %6s %5s %6s %6s %5s %5s %5s %6s %6s %6s %10s %10s %s\n",
	       "PID", "COMM", "TRACE%", "LIFE%", "LAZY", "EAGER", "UPG", "TICK", "FOLD",
	       "PREEMP", "YIELD", "BLOCK", "LAZY-P50", "LAZY-MAX", "CPUS");
	for (i = 0; i < nr; i++) {
		const struct lt_task_stats *t = v[i];
		const struct lt_latency *lz = &t->latency[LT_LAT_LAZY_SERVED];

		printf("%7d %-16.16s %6.1f %5.1f %6llu %6llu %5llu %5llu %5llu %6llu %6llu %6llu %10s %10s %s%s\n",
		       t->pid, t->comm, 100 * t->trace_share, 100 * t->lifetime_share,
		       (unsigned long long)t->count[LT_TR_LAZY],
		       (unsigned long long)t->count[LT_TR_EAGER],
		       (unsigned long long)upgrades(t->count),
		       (unsigned long long)t->count[LT_TR_TICK_UPGRADE],
		       (unsigned long long)t->count[LT_TR_FOLD],
		       (unsigned long long)t->count[LT_TR_PREEMPTED],
		       (unsigned long long)t->count[LT_TR_YIELDED],
		       (unsigned long long)t->count[LT_TR_BLOCKED],
		       lz->count ? fmt_ns(b[0], 24, lz->p50) : "-",
		       lz->count ? fmt_ns(b[1], 24, lz->max) : "-",
		       t->cpus, t->hog ? "  hog" : "");
	}
	stats_text_sources(v, nr);
}

int cmd_stats(int argc, char **argv)
{
	static const struct option longopts[] = {
		ANALYSIS_LONG_OPTS,
		{ "idle", no_argument, NULL, OPT_IDLE },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const struct lt_task_stats **v;
	const struct lt_analysis *a;
	struct analysis_cli o;
	struct lt_run *run;
	int c, status;
	size_t nr;

	c = analysis_parse(&o, argc, argv, longopts, stats_usage);
	if (c >= 0)
		return c;
	analysis_args(&o, argc, argv);
	run = analysis_run(&o, NULL, &status);
	if (status != EXIT_OK) {
		lt_run_free(run);
		return status;
	}
	a = lt_run_analysis(run);
	if (o.format == OUT_CSV || o.format == OUT_NDJSON) {
		status = analysis_write_table(&o, run, "tasks");
	} else if (o.format == OUT_JSON) {
		status = analysis_write_tables(&o, run, stats_json_tables, 0);
	} else {
		v = analysis_table_tasks(run, "tasks", &nr);
		stats_text(&o, a, v, nr);
		free(v);
	}
	if (status == EXIT_OK && !lt_analysis_summary(a)->events)
		status = nothing_found("%s: no events", input_name(o.in.file));
	lt_run_free(run);
	return status;
}
