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

/* stats --json: these tables (lazytrace table), one document. */
const char *const stats_json_tables[] = {
	"meta", "summary", "tasks", "latency", "lost", NULL,
};

static void text_latency(const char *name, const uint64_t *l)
{
	char b[4][24];

	if (!l[LAT_COUNT]) {
		printf("  %-16s %8s\n", name, "-");
		return;
	}
	printf("  %-16s %8llu %10s %10s %10s %10s\n", name,
	       (unsigned long long)l[LAT_COUNT], fmt_ns(b[0], 24, l[LAT_P50]),
	       fmt_ns(b[1], 24, l[LAT_P90]), fmt_ns(b[2], 24, l[LAT_P99]),
	       fmt_ns(b[3], 24, l[LAT_MAX]));
}

/* Per task: what made its upgrades, and who made its requests (probe). */
static void stats_text_sources(struct lt_run *run)
{
	struct lt_table *t = analysis_table(run, "tasks");
	bool head = false;
	int k;

	while (lt_table_next(t) > 0) {
		if (!cell_uint(t, "upgrades") && !cell_uint(t, "requested"))
			continue;
		if (!head) {
			printf("\n%7s %-16s %6s %6s %6s %6s %6s %9s\n", "PID",
			       "COMM", "TICK", "HRTICK", "TIMER", "IRQ",
			       "DIRECT", "REQUESTED");
			head = true;
		}
		printf("%7d %-16.16s", (int)cell_int(t, "pid"),
		       cell_str(t, "comm"));
		for (k = 0; k < LT_UPG_SOURCE_MAX; k++)
			printf(" %6llu", (unsigned long long)
			       cell_uint(t, upgrade_source_key(k)));
		printf(" %9llu\n", (unsigned long long)cell_uint(t, "requested"));
	}
}

/* A task's lazy latency column: "-" without served lazy requests. */
static const char *task_lazy(struct lt_table *t, const char *col, char *buf)
{
	return cell_null(t, col) ? "-" : fmt_ns(buf, 24, cell_uint(t, col));
}

static void stats_text_tasks(struct lt_run *run)
{
	/* LAZY to BLOCK: the tasks table's counts, and their widths */
	static const struct {
		const char *col;
		int width;
	} counts[] = {
		{ "lazy", 6 }, { "eager", 6 }, { "upgrades", 5 },
		{ "tick_upgrades", 5 }, { "folds", 5 }, { "preempted", 6 },
		{ "yielded", 6 }, { "blocked", 6 },
	};
	struct lt_table *t = analysis_table(run, "tasks");
	char b[2][24];
	size_t k;

	printf("\n%7s %-16s %6s %5s %6s %6s %5s %5s %5s %6s %6s %6s %10s %10s %s\n",
	       "PID", "COMM", "TRACE%", "LIFE%", "LAZY", "EAGER", "UPG", "TICK", "FOLD",
	       "PREEMP", "YIELD", "BLOCK", "LAZY-P50", "LAZY-MAX", "CPUS");
	while (lt_table_next(t) > 0) {
		printf("%7d %-16.16s %6.1f %5.1f", (int)cell_int(t, "pid"),
		       cell_str(t, "comm"), 100 * cell_double(t, "trace_share"),
		       100 * cell_double(t, "lifetime_share"));
		for (k = 0; k < ARRAY_SIZE(counts); k++)
			printf(" %*llu", counts[k].width,
			       (unsigned long long)cell_uint(t, counts[k].col));
		printf(" %10s %10s %s%s\n", task_lazy(t, "lazy_p50_ns", b[0]),
		       task_lazy(t, "lazy_max_ns", b[1]), cell_str(t, "cpus"),
		       cell_int(t, "hog") ? "  hog" : "");
	}
}

static void stats_text(const struct analysis_cli *o, struct lt_run *run)
{
	static const char *const sw_names[] = { "preempted (R+)", "yielded (R)",
						"blocked" };
	struct lt_table *meta = run_row(run, "meta");
	struct lt_table *sum = run_row(run, "summary");
	uint64_t sw[NR_SWITCH_KEYS], total = 0;
	uint64_t lat[LT_LAT_KIND_MAX][NR_LAT_VALUES];
	char b[24], key[32];
	int k;

	printf("%s: %llu events on %d CPUs, %s, ABI %s (%s)\n",
	       input_name(o->in.file),
	       (unsigned long long)cell_uint(meta, "events"),
	       (int)cell_int(meta, "cpus_seen"),
	       fmt_ns(b, 24, cell_uint(meta, "last_ns") -
			     cell_uint(meta, "first_ns")),
	       cell_str(meta, "abi"), cell_str(meta, "abi_reason"));
	meta_lazy_note(stdout, meta);
	meta_lost(stdout, run, meta);
	meta_setup(stdout, meta);
	for (k = 0; k < NR_SWITCH_KEYS; k++) {
		snprintf(key, sizeof(key), "switches_%s", switch_key(k));
		sw[k] = cell_uint(sum, key);
		total += sw[k];
	}
	printf("\nswitches (every sched_switch, idle included): %llu\n",
	       (unsigned long long)total);
	for (k = 0; k < NR_SWITCH_KEYS; k++)
		printf("  %-14s %8llu %6.1f%%\n", sw_names[k],
		       (unsigned long long)sw[k],
		       total ? 100.0 * sw[k] / total : 0.0);
	printf("\ntransitions\n");
	for (k = 0; k < NR_TRANSITION_KEYS; k++)
		printf("  %-14s %8llu\n", transition_key(k),
		       (unsigned long long)cell_uint(sum, transition_key(k)));
	printf("\nupgrades by source\n");
	for (k = 0; k < LT_UPG_SOURCE_MAX; k++)
		printf("  %-14s %8llu\n", lt_upgrade_source_name(k),
		       (unsigned long long)cell_uint(sum, upgrade_source_key(k)));
	printf("\n%-18s %8s %10s %10s %10s %10s\n", "latency", "count",
	       "p50", "p90", "p99", "max");
	run_latency(run, lat);
	for (k = 0; k < LT_LAT_KIND_MAX; k++)
		text_latency(latency_key(k), lat[k]);
	stats_text_tasks(run);
	stats_text_sources(run);
}

int cmd_stats(int argc, char **argv)
{
	static const struct option longopts[] = {
		ANALYSIS_LONG_OPTS,
		{ "idle", no_argument, NULL, OPT_IDLE },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct analysis_cli o;
	struct lt_run *run;
	int c, status;

	c = analysis_parse(&o, argc, argv, longopts, stats_usage);
	if (c >= 0)
		return c;
	analysis_args(&o, argc, argv);
	run = analysis_run(&o, NULL, &status);
	if (status != EXIT_OK) {
		lt_run_free(run);
		return status;
	}
	if (o.format == OUT_CSV || o.format == OUT_NDJSON)
		status = analysis_write_table(&o, run, "tasks");
	else if (o.format == OUT_JSON)
		status = analysis_write_tables(&o, run, stats_json_tables, 0);
	else
		stats_text(&o, run);
	if (status == EXIT_OK && !cell_uint(run_row(run, "meta"), "events"))
		status = nothing_found("%s: no events", input_name(o.in.file));
	lt_run_free(run);
	return status;
}
