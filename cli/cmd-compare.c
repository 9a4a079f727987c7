// SPDX-License-Identifier: GPL-2.0
/*
 * lazytrace compare A B: two traces side by side, in the table of the
 * Sept 2023 proof-of-concept mail: switches split into preempted (R+),
 * yielded (R) and blocked, then the transition counts and latencies, with
 * the ratio B/A; then the preemptions by place, cause and site with the
 * difference B-A (the preempt_groups table of each).
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "output-json.h"

static const char compare_usage[] =
"usage: lazytrace compare [--json|--csv] [--abi NAME] [-B BUFFER] A B\n"
"\n"
"Two traces (trace.dat or kernel text) side by side, with the ratio B/A:\n"
"switches (every sched_switch, idle included) split into preempted (R+),\n"
"yielded (R) and blocked; the transition counts (lazy, eager, upgrades,\n"
"tick_upgrades, folds and how requests ended); latency percentiles; the\n"
"preemptions (R+) by place, by cause and by site (lazytrace preempts),\n"
"with the difference B-A. A and B are trace.dat or kernel text files ('-'\n"
"for text on stdin, for one of them); there is no -i. --json (version 3,\n"
"docs/json.md): {\"version\": 3, \"a\": DOC, \"b\": DOC, \"compare_preempts\":\n"
"[rows]}, each DOC the tables of stats --json.\n"
"\n"
ANALYSIS_USAGE_NO_INPUT;

/* Preemptions by place, cause and site (preempt_groups), both sides. */
struct prow {
	char by[8];
	char *name;
	uint64_t count[2];
	uint64_t off_cpu[2];
};

struct ptable {
	struct prow *r;
	size_t nr, alloc;
	uint64_t total[2];
	bool failed;
};

static void padd(struct ptable *p, int side, const char *by, const char *name,
		 uint64_t count, uint64_t off_cpu)
{
	struct prow *r;
	size_t i;

	for (i = 0; i < p->nr; i++)
		if (!strcmp(p->r[i].by, by) && !strcmp(p->r[i].name, name))
			break;
	if (i == p->nr) {
		if (p->nr == p->alloc) {
			size_t n = p->alloc ? 2 * p->alloc : 32;

			r = realloc(p->r, n * sizeof(*r));
			if (!r)
				die("out of memory");
			p->r = r;
			p->alloc = n;
		}
		r = &p->r[p->nr++];
		memset(r, 0, sizeof(*r));
		snprintf(r->by, sizeof(r->by), "%s", by);
		r->name = strdup(name);
		if (!r->name)
			die("out of memory");
	}
	p->r[i].count[side] += count;
	p->r[i].off_cpu[side] += off_cpu;
}

/* One side's preempt_groups, made while analysis_run() read the side. */
static void pfill(struct ptable *p, int side, struct lt_table *t)
{
	int by, n, count, off, ret;

	if (!t) {
		p->failed = true;
		return;
	}
	by = lt_table_column(t, "by");
	count = lt_table_column(t, "preemptions");
	off = lt_table_column(t, "off_cpu_ns");
	while ((ret = lt_table_next(t)) > 0) {
		const char *b = lt_table_string(t, by);

		if (strcmp(b, "place") && strcmp(b, "cause") &&
		    strcmp(b, "site"))
			continue;
		n = lt_table_column(t, b);
		if (!strcmp(b, "place"))
			p->total[side] += lt_table_uint(t, count);
		padd(p, side, b, lt_table_null(t, n) ? "[no stack]" :
		     lt_table_string(t, n), lt_table_uint(t, count),
		     lt_table_uint(t, off));
	}
	if (ret < 0)
		p->failed = true;
}

/* Places and causes as they come; sites, the most preemptions first. */
static int prow_order(const void *pa, const void *pb)
{
	const struct prow *x = pa, *y = pb;
	uint64_t mx = x->count[0] > x->count[1] ? x->count[0] : x->count[1];
	uint64_t my = y->count[0] > y->count[1] ? y->count[0] : y->count[1];
	int d = strcmp(x->by, y->by);

	if (d)
		return -d;	/* site, place, cause: place first below */
	if (mx != my)
		return mx < my ? 1 : -1;
	return strcmp(x->name, y->name);
}

#define PREEMPT_SITES 10

static void preempts_text(struct ptable *p)
{
	static const char *const groups[] = { "place", "cause", "site" };
	char b[2][24], rt[16];
	size_t i, g, shown;

	printf("\n%-34s %10s %10s %10s %8s %12s %12s\n", "preemptions (R+)",
	       "A", "B", "B-A", "B/A", "OFF-CPU A", "OFF-CPU B");
	printf("  %-32s %10llu %10llu %+10lld %8s\n", "all",
	       (unsigned long long)p->total[0],
	       (unsigned long long)p->total[1],
	       (long long)(p->total[1] - p->total[0]), "");
	for (g = 0; g < ARRAY_SIZE(groups); g++) {
		printf("by %s\n", groups[g]);
		for (i = 0, shown = 0; i < p->nr; i++) {
			const struct prow *r = &p->r[i];

			if (strcmp(r->by, groups[g]))
				continue;
			if (g == 2 && shown++ == PREEMPT_SITES) {
				printf("  ... more sites: compare --json\n");
				break;
			}
			if (r->count[0])
				snprintf(rt, sizeof(rt), "%.2f",
					 (double)r->count[1] / r->count[0]);
			else
				snprintf(rt, sizeof(rt), "-");
			printf("  %-32.32s %10llu %10llu %+10lld %8s %12s %12s\n",
			       r->name, (unsigned long long)r->count[0],
			       (unsigned long long)r->count[1],
			       (long long)(r->count[1] - r->count[0]), rt,
			       fmt_ns(b[0], 24, r->off_cpu[0]),
			       fmt_ns(b[1], 24, r->off_cpu[1]));
		}
	}
}

/* "compare_preempts": one row per place, cause and site, both sides. */
static void preempts_json(const struct ptable *p)
{
	struct json j;
	size_t i;

	printf(",\"compare_preempts\":");
	json_init(&j, stdout, false);
	json_begin_array(&j, NULL);
	for (i = 0; i < p->nr; i++) {
		const struct prow *r = &p->r[i];

		json_begin_object(&j, NULL);
		json_str(&j, "by", r->by);
		json_str(&j, "name", r->name);
		json_uint(&j, "count_a", r->count[0]);
		json_uint(&j, "count_b", r->count[1]);
		json_int(&j, "difference", (long long)(r->count[1] - r->count[0]));
		json_uint(&j, "off_cpu_a_ns", r->off_cpu[0]);
		json_uint(&j, "off_cpu_b_ns", r->off_cpu[1]);
		json_end_object(&j);
	}
	json_end_array(&j);
}

struct row {
	const char *group;
	const char *name;
	uint64_t v[2];
};

#define MAX_ROWS 64

struct table {
	struct row r[MAX_ROWS];
	int nr;
};

static void add(struct table *t, int side, const char *group,
		const char *name, uint64_t v)
{
	int i;

	for (i = 0; i < t->nr; i++)
		if (!strcmp(t->r[i].name, name) && !strcmp(t->r[i].group, group))
			break;
	if (i == t->nr) {
		if (t->nr == MAX_ROWS)
			return;
		t->r[t->nr].group = group;
		t->r[t->nr].name = name;
		t->nr++;
	}
	t->r[i].v[side] = v;
}

/* What the text says of a side besides the rows: its meta row's. */
struct side {
	char abi[32];
	bool lazy;
	uint64_t lost, lost_unknown, events;
};

static void side_meta(struct side *sd, struct lt_run *run)
{
	struct lt_table *meta = run_row(run, "meta");

	snprintf(sd->abi, sizeof(sd->abi), "%s", cell_str(meta, "abi"));
	sd->lazy = cell_int(meta, "lazy_preemption");
	sd->lost = cell_uint(meta, "lost_events");
	sd->lost_unknown = cell_uint(meta, "lost_unknown_times");
	sd->events = cell_uint(meta, "events");
}

/* A side's rows: the summary table's counts, the latency of all tasks. */
static void fill(struct table *t, int side, struct lt_run *run)
{
	static const char *const pct[NR_LAT_VALUES] = {
		[LAT_COUNT] = "count", [LAT_P50] = "p50", [LAT_P90] = "p90",
		[LAT_P99] = "p99", [LAT_MAX] = "max",
	};
	struct lt_table *sum = run_row(run, "summary");
	uint64_t lat[LT_LAT_KIND_MAX][NR_LAT_VALUES];
	char key[32];
	int k, p;

	for (k = 0; k < NR_SWITCH_KEYS; k++) {
		snprintf(key, sizeof(key), "switches_%s", switch_key(k));
		add(t, side, "switches", switch_key(k), cell_uint(sum, key));
	}
	for (k = 0; k < NR_TRANSITION_KEYS; k++)
		add(t, side, "transitions", transition_key(k),
		    cell_uint(sum, transition_key(k)));
	run_latency(run, lat);
	for (k = 0; k < LT_LAT_KIND_MAX; k++)
		for (p = 0; p < NR_LAT_VALUES; p++)
			add(t, side, latency_key(k), pct[p], lat[k][p]);
}

static bool is_ns(const struct row *r)
{
	return strcmp(r->group, "switches") && strcmp(r->group, "transitions") &&
	       strcmp(r->name, "count");
}

static double ratio(const struct row *r)
{
	return r->v[0] ? (double)r->v[1] / r->v[0] : -1;
}

static void compare_text(const char *fa, const char *fb, const struct table *t,
			 const struct side s[2])
{
	const char *group = "";
	char b[2][24], rt[16];
	uint64_t count[2] = { 0, 0 };
	int i;

	printf("A: %s (ABI %s)\nB: %s (ABI %s)\n", fa, s[0].abi, fb, s[1].abi);
	for (i = 0; i < 2; i++) {
		if (!s[i].lazy)
			printf("note: %s has no lazy need-resched bit: the kernel "
			       "ran without lazy preemption\n", i ? "B" : "A");
		if (s[i].lost || s[i].lost_unknown)
			printf("note: %s lost %llu events%s: requests open then "
			       "are counted as truncated\n", i ? "B" : "A",
			       (unsigned long long)s[i].lost,
			       s[i].lost_unknown ? " (and an unknown number)" :
			       "");
	}
	for (i = 0; i < t->nr; i++) {
		const struct row *r = &t->r[i];
		double q = ratio(r);

		if (strcmp(group, r->group)) {
			group = r->group;
			printf("\n%-22s %12s %12s %8s\n",
			       !strcmp(group, "switches") ? "switches (R+, R, other)" :
			       group, "A", "B", "B/A");
		}
		if (q < 0)
			snprintf(rt, sizeof(rt), "-");
		else
			snprintf(rt, sizeof(rt), "%.2f", q);
		if (!strcmp(r->name, "count")) {
			count[0] = r->v[0];
			count[1] = r->v[1];
		}
		if (is_ns(r))
			printf("  %-20s %12s %12s %8s\n", r->name,
			       count[0] ? fmt_ns(b[0], 24, r->v[0]) : "-",
			       count[1] ? fmt_ns(b[1], 24, r->v[1]) : "-",
			       count[0] && count[1] ? rt : "-");
		else
			printf("  %-20s %12llu %12llu %8s\n", r->name,
			       (unsigned long long)r->v[0],
			       (unsigned long long)r->v[1], rt);
	}
}

/*
 * {"version":3,"a":DOC,"b":DOC,"compare_preempts":[rows]}: each side as
 * stats --json's body.
 */
static int compare_json(struct analysis_cli *o, struct lt_run *run[2],
			const struct ptable *p)
{
	int side, status = EXIT_OK;

	printf("{\"version\":%d", LT_JSON_VERSION_3);
	for (side = 0; side < 2; side++) {
		printf(",\"%s\":", side ? "b" : "a");
		if (analysis_write_tables(o, run[side], stats_json_tables,
					  LT_WRITE_BODY) != EXIT_OK)
			status = EXIT_BAD;
	}
	preempts_json(p);
	printf("}\n");
	if (fflush(stdout) || ferror(stdout))
		status = EXIT_BAD;
	return status;
}

static void compare_csv(const struct table *t, const struct ptable *p)
{
	char key[64];
	int i;

	fputs("metric,a,b,ratio\n", stdout);
	for (i = 0; i < t->nr; i++) {
		const struct row *r = &t->r[i];
		double q = ratio(r);

		snprintf(key, sizeof(key), "%s.%s", r->group, r->name);
		csv_field(stdout, key, false);
		csv_u64(stdout, r->v[0], false);
		csv_u64(stdout, r->v[1], false);
		if (q < 0)
			csv_field(stdout, "", true);
		else
			csv_dbl(stdout, q, true);
	}
	/* preempts.by_place.page_fault, ... */
	for (i = 0; i < (int)p->nr; i++) {
		const struct prow *r = &p->r[i];

		snprintf(key, sizeof(key), "preempts.by_%s.%s", r->by, r->name);
		csv_field(stdout, key, false);
		csv_u64(stdout, r->count[0], false);
		csv_u64(stdout, r->count[1], false);
		if (r->count[0])
			csv_dbl(stdout, (double)r->count[1] / r->count[0], true);
		else
			csv_field(stdout, "", true);
	}
}

int cmd_compare(int argc, char **argv)
{
	static const struct option longopts[] = {
		ANALYSIS_LONG_OPTS,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct side s[2] = { 0 };
	struct lt_run *run[2];
	struct ptable p = { 0 };
	struct table *t;
	struct analysis_cli o;
	const char *f[2];
	int c, i, status = EXIT_OK, st;

	c = analysis_parse(&o, argc, argv, longopts, compare_usage);
	if (c >= 0)
		return c;
	if (o.in.file_given)
		die_usage("name the two traces as A and B, without -i");
	if (argc - optind != 2)
		die_usage("need two traces, A and B");
	if (o.format == OUT_NDJSON)
		die_usage("--ndjson: compare writes one document (--json) or --csv");
	t = calloc(1, sizeof(*t));
	if (!t)
		die("out of memory");
	o.stream = "preempt_groups";
	for (i = 0; i < 2; i++) {
		f[i] = argv[optind + i];
		run[i] = analysis_run(&o, f[i], &st);
		if (st != EXIT_OK) {
			/* nothing is printed: a failed side has no rows */
			status = st;
			continue;
		}
		side_meta(&s[i], run[i]);
		fill(t, i, run[i]);
		pfill(&p, i, o.stream_table);
	}
	if (p.failed && status == EXIT_OK)
		status = EXIT_BAD;
	qsort(p.r, p.nr, sizeof(*p.r), prow_order);
	if (status == EXIT_OK) {
		if (o.format == OUT_JSON) {
			status = compare_json(&o, run, &p);
		} else if (o.format == OUT_CSV) {
			compare_csv(t, &p);
		} else {
			compare_text(input_name(f[0]), input_name(f[1]), t, s);
			preempts_text(&p);
		}
		for (i = 0; i < 2 && status == EXIT_OK; i++)
			if (!s[i].events)
				status = nothing_found("%s: no events",
						       input_name(f[i]));
	}
	for (i = 0; i < 2; i++)
		lt_run_free(run[i]);
	lt_run_free(o.rc.run);
	for (i = 0; i < (int)p.nr; i++)
		free(p.r[i].name);
	free(p.r);
	free(t);
	return status;
}
