// SPDX-License-Identifier: GPL-2.0
/*
 * lazytrace hogs: the tasks that keep the CPU after a lazy request until
 * the tick forces them off (docs/model.md §7), worst first.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "output-analysis.h"

static const char hogs_usage[] =
"usage: lazytrace hogs [-i FILE] [--json|--csv] [--hz N] [--tick T]\n"
"                      [--episode-ticks X] [--hog-episodes N]\n"
"                      [--hog-pending-ticks X] [--abi NAME]\n"
"\n"
"A hog episode is a lazy request still pending when a tick arrives, after\n"
"being pending (outside timer interrupts) for at least half a tick. A hog\n"
"has 3 episodes, or one lazy request pending longer than 2 ticks (and seen\n"
"by more than 2 ticks). The tick length is the trace's median tick\n"
"spacing, else --hz. Hogs are ranked by the total time their lazy\n"
"requests were pending. Exit status 1 when there is no hog.\n"
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

static void hogs_json(const struct analysis_cli *o, const struct lt_analysis *a,
		      const struct lt_task_stats *const *h, size_t nr)
{
	const struct lt_analysis_summary *s = lt_analysis_summary(a);
	struct json j;
	size_t i;

	json_document_start(&j, o, s);
	json_tick_setup(&j, s);
	json_uint(&j, "ticks", s->ticks);
	json_lost(&j, a);
	json_begin_array(&j, "hogs");
	for (i = 0; i < nr; i++) {
		const struct lt_task_stats *t = h[i];
		const struct lt_latency *lz = &t->latency[LT_LAT_LAZY_SERVED];

		json_begin_object(&j, NULL);
		json_int(&j, "pid", t->pid);
		json_str(&j, "comm", t->comm);
		json_str(&j, "cpus", t->cpus);
		json_uint(&j, "episodes", t->episodes);
		json_uint(&j, "tick_upgrades", t->count[LT_TR_TICK_UPGRADE]);
		json_uint(&j, "lazy", t->count[LT_TR_LAZY]);
		json_uint(&j, "max_lazy_latency_ns", lz->max);
		json_uint(&j, "median_lazy_latency_ns", lz->p50);
		json_uint(&j, "max_pending_ns", t->max_pending_ns);
		json_uint(&j, "pending_ns", t->pending_ns);
		json_double(&j, "trace_share", t->trace_share);
		json_double(&j, "lifetime_share", t->cpu_share);
		json_uint(&j, "upgrades_in_user", t->upgrades_user);
		json_uint(&j, "upgrades_in_syscall", t->upgrades_syscall);
		json_upgrades_by_source(&j, t->upgrades_by_source);
		if (t->upgrades_syscall)
			json_int(&j, "top_syscall", t->top_syscall);
		else
			json_null(&j, "top_syscall");
		json_end_object(&j);
	}
	json_end_array(&j);
	json_end_object(&j);
	json_finish(&j);
}

static const char *const csv_cols[] = {
	"rank", "pid", "comm", "cpus", "episodes", "tick_upgrades", "lazy",
	"max_lazy_latency_ns", "median_lazy_latency_ns", "pending_ns",
	"trace_share", "lifetime_share", "upgrades_in_user",
	"upgrades_in_syscall", "top_syscall",
};

#define NR_CSV_COLS (sizeof(csv_cols) / sizeof(csv_cols[0]))

static void hogs_csv(const struct lt_task_stats *const *h, size_t nr)
{
	char buf[32];
	size_t i;

	for (i = 0; i < NR_CSV_COLS; i++)
		csv_field(stdout, csv_cols[i], i + 1 == NR_CSV_COLS);
	for (i = 0; i < nr; i++) {
		const struct lt_task_stats *t = h[i];
		const struct lt_latency *lz = &t->latency[LT_LAT_LAZY_SERVED];

		csv_u64(stdout, i + 1, false);
		snprintf(buf, sizeof(buf), "%d", t->pid);
		csv_field(stdout, buf, false);
		csv_field(stdout, t->comm, false);
		csv_field(stdout, t->cpus, false);
		csv_u64(stdout, t->episodes, false);
		csv_u64(stdout, t->count[LT_TR_TICK_UPGRADE], false);
		csv_u64(stdout, t->count[LT_TR_LAZY], false);
		csv_u64(stdout, lz->max, false);
		csv_u64(stdout, lz->p50, false);
		csv_u64(stdout, t->pending_ns, false);
		csv_dbl(stdout, t->trace_share, false);
		csv_dbl(stdout, t->cpu_share, false);
		csv_u64(stdout, t->upgrades_user, false);
		csv_u64(stdout, t->upgrades_syscall, false);
		if (t->upgrades_syscall)
			snprintf(buf, sizeof(buf), "%ld", t->top_syscall);
		else
			buf[0] = '\0';
		csv_field(stdout, buf, true);
	}
}

static void hogs_text(const struct analysis_cli *o, const struct lt_analysis *a,
		      const struct lt_task_stats *const *h, size_t nr)
{
	const struct lt_analysis_summary *s = lt_analysis_summary(a);
	char b[4][24], w[64], src[96];
	size_t i;

	printf("%s: ABI %s, tick %s (%s)\n", o->in.file, lt_abi_name(s->abi),
	       fmt_ns(b[0], 24, s->tick_ns),
	       s->tick_source == LT_TICK_TIMER_FUNCTION ?
	       "median spacing of the tick's hrtimer function" :
	       s->tick_from_trace ? "median timer interrupt spacing, an estimate" :
	       o->lo.tick_ns ? "--tick" : "from HZ, no ticks in the trace");
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
		       100 * t->cpu_share, w, src);
	}
}

int cmd_hogs(int argc, char **argv)
{
	static const struct option longopts[] = {
		ANALYSIS_LONG_OPTS,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const struct lt_task_stats *const *h;
	struct analysis_cli o;
	struct lt_analysis *a;
	uint64_t events;
	int c, status;
	size_t nr;

	c = analysis_parse(&o, argc, argv, longopts, hogs_usage);
	if (c >= 0)
		return c;
	if (optind < argc)
		die_usage("hogs: unexpected argument '%s'", argv[optind]);
	a = analysis_run(&o, NULL, NULL, NULL, &status);
	if (status != EXIT_OK) {
		lt_analysis_free(a);
		return status;
	}
	h = lt_analysis_hogs(a, &nr);
	if (o.format == OUT_JSON)
		hogs_json(&o, a, h, nr);
	else if (o.format == OUT_CSV)
		hogs_csv(h, nr);
	else
		hogs_text(&o, a, h, nr);
	events = lt_analysis_summary(a)->events;
	lt_analysis_free(a);
	if (!events)
		return nothing_found("%s: no events", o.in.file);
	if (!nr)
		return nothing_found("no hogs: no task ignored a lazy request until the tick");
	return EXIT_OK;
}
