// SPDX-License-Identifier: GPL-2.0
/*
 * lazytrace timeline: every transition, one per line, as the analysis
 * finds them (streamed: nothing is kept per event).
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "output-json.h"

static const char timeline_usage[] =
"usage: lazytrace timeline [-i FILE] [--json|--csv] [--cpu LIST] [--pid LIST]\n"
"                          [--kind LIST] [--from T] [--to T] [--abi NAME]\n"
"\n"
"Every need-resched transition: lazy, eager, upgrade, tick-upgrade, fold,\n"
"served (preempted, yielded, blocked, cleared) and truncated. A transition\n"
"is seen at an event and happened after the previous event on its CPU;\n"
"for upgrades and served ones, LATENCY is the time since the request.\n"
"\n"
ANALYSIS_USAGE
"  --cpu LIST, --pid LIST  only these CPUs, pids\n"
"  --kind LIST        only these kinds (e.g. lazy,tick-upgrade)\n"
"  --from T, --to T   time window (e.g. 7.25, 7250ms)\n";

enum { OPT_KIND = OPT_PRIVATE + 0x60 };

struct timeline {
	enum out_format format;
	struct int_set cpus, pids;
	unsigned int kinds;	/* bit per kind; 0: all */
	int64_t from, to;
	struct json j;
	unsigned long long shown;
	const char *file;
	bool begun;
};

static int parse_kinds(const char *list, unsigned int *mask)
{
	char *dup = strdup(list), *tok, *save = NULL;
	int k, ret = 0;

	if (!dup)
		return -1;
	for (tok = strtok_r(dup, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		for (k = 0; k < LT_TR_KIND_MAX; k++)
			if (!strcmp(tok, lt_transition_name(k)))
				break;
		if (!strcmp(tok, "served")) {
			for (k = LT_TR_PREEMPTED; k <= LT_TR_CLEARED; k++)
				*mask |= 1U << k;
			continue;
		}
		if (k == LT_TR_KIND_MAX) {
			ret = -1;
			break;
		}
		*mask |= 1U << k;
	}
	free(dup);
	return ret;
}

static bool has_latency(const struct lt_transition *t)
{
	return t->since_ns != t->seen_ns || t->request != t->kind;
}

static bool is_upgrade(const struct lt_transition *t)
{
	return t->kind == LT_TR_UPGRADE || t->kind == LT_TR_TICK_UPGRADE;
}

/*
 * The document's start or the header, once the input has opened (an
 * input that does not open, or a --cpu it lacks, leaves stdout empty).
 */
static void begin(struct timeline *tl)
{
	if (tl->begun)
		return;
	tl->begun = true;
	if (tl->format == OUT_JSON) {
		json_init(&tl->j, stdout, false);
		json_begin_object(&tl->j, NULL);
		json_int(&tl->j, "version", LT_JSON_VERSION);
		json_str(&tl->j, "file", tl->file);
		json_begin_array(&tl->j, "transitions");
	} else if (tl->format == OUT_CSV) {
		fputs("ts_ns,after_ns,cpu,pid,comm,kind,request,latency_ns,source\n",
		      stdout);
	} else {
		/* show()'s columns; FLAG: need-resched letter before->after */
		printf("%13s %5s %16s-%-7s %-12s %-4s  %-16s %s\n", "TIME",
		       "CPU", "TASK", "PID", "KIND", "FLAG", "AFTER",
		       "REQUEST LATENCY");
	}
}

static void show(const struct lt_transition *t, void *data)
{
	struct timeline *tl = data;
	char pid[16], lat[24];

	if (tl->cpus.nr && !int_set_has(&tl->cpus, t->cpu))
		return;
	if (tl->pids.nr && !int_set_has(&tl->pids, t->pid))
		return;
	if (tl->kinds && !(tl->kinds & (1U << t->kind)))
		return;
	if (tl->from >= 0 && t->seen_ns < (uint64_t)tl->from)
		return;
	if (tl->to >= 0 && t->seen_ns > (uint64_t)tl->to)
		return;
	tl->shown++;
	begin(tl);
	switch (tl->format) {
	case OUT_JSON:
		json_begin_object(&tl->j, NULL);
		json_uint(&tl->j, "ts_ns", t->seen_ns);
		json_uint(&tl->j, "after_ns", t->after_ns);
		json_int(&tl->j, "cpu", t->cpu);
		json_int(&tl->j, "pid", t->pid);
		json_str(&tl->j, "comm", t->comm);
		json_str(&tl->j, "kind", lt_transition_name(t->kind));
		json_bool(&tl->j, "served", lt_transition_is_served(t->kind));
		json_str(&tl->j, "request", lt_transition_name(t->request));
		if (has_latency(t)) {
			json_uint(&tl->j, "since_ns", t->since_ns);
			json_uint(&tl->j, "latency_ns", t->seen_ns - t->since_ns);
		}
		if (is_upgrade(t))
			json_str(&tl->j, "source",
				 lt_upgrade_source_name(t->source));
		if (t->request_ns) {
			json_uint(&tl->j, "request_ns", t->request_ns);
			json_int(&tl->j, "requester_pid", t->requester_pid);
			json_str(&tl->j, "requester_comm", t->requester_comm);
		}
		json_end_object(&tl->j);
		break;
	case OUT_CSV:
		csv_u64(stdout, t->seen_ns, false);
		csv_u64(stdout, t->after_ns, false);
		csv_u64(stdout, t->cpu, false);
		snprintf(pid, sizeof(pid), "%d", t->pid);
		csv_field(stdout, pid, false);
		csv_field(stdout, t->comm, false);
		csv_field(stdout, lt_transition_name(t->kind), false);
		csv_field(stdout, lt_transition_name(t->request), false);
		if (has_latency(t))
			csv_u64(stdout, t->seen_ns - t->since_ns, false);
		else
			csv_field(stdout, "", false);
		csv_field(stdout, is_upgrade(t) ?
			  lt_upgrade_source_name(t->source) : "", true);
		break;
	default:
		printf("%6llu.%06llu [%03d] %16.16s-%-7d %-12s %c->%c  after %llu.%06llu",
		       (unsigned long long)(t->seen_ns / 1000000000),
		       (unsigned long long)(t->seen_ns / 1000 % 1000000),
		       t->cpu, t->comm, t->pid, lt_transition_name(t->kind),
		       t->letter_before, t->letter_after,
		       (unsigned long long)(t->after_ns / 1000000000),
		       (unsigned long long)(t->after_ns / 1000 % 1000000));
		if (has_latency(t))
			printf("  %s %s", lt_transition_name(t->request),
			       fmt_ns(lat, sizeof(lat), t->seen_ns - t->since_ns));
		if (is_upgrade(t))
			printf("  source=%s", lt_upgrade_source_name(t->source));
		if (t->request_ns)
			printf("  requested %llu.%06llu by %s-%d",
			       (unsigned long long)(t->request_ns / 1000000000),
			       (unsigned long long)(t->request_ns / 1000 % 1000000),
			       t->requester_comm, t->requester_pid);
		putchar('\n');
		break;
	}
}

static int parse_args(int argc, char **argv, struct analysis_cli *o,
		      struct timeline *tl)
{
	static const struct option longopts[] = {
		ANALYSIS_LONG_OPTS,
		{ "cpu", required_argument, NULL, OPT_CPU },
		{ "pid", required_argument, NULL, OPT_PID },
		{ "kind", required_argument, NULL, OPT_KIND },
		{ "from", required_argument, NULL, OPT_FROM },
		{ "to", required_argument, NULL, OPT_TO },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int c;

	while ((c = getopt_long(argc, argv, INPUT_SHORT_OPTS "h", longopts,
				NULL)) != -1) {
		if (analysis_opt(o, c, optarg))
			continue;
		switch (c) {
		case OPT_CPU:
			if (int_set_parse(&tl->cpus, optarg))
				die_usage("bad CPU list '%s'", optarg);
			break;
		case OPT_PID:
			if (int_set_parse(&tl->pids, optarg))
				die_usage("bad pid list '%s'", optarg);
			break;
		case OPT_KIND:
			if (parse_kinds(optarg, &tl->kinds))
				die_usage("bad transition kind list '%s'", optarg);
			break;
		case OPT_FROM:
			tl->from = parse_time_ns(optarg);
			if (tl->from < 0)
				die_usage("bad time '%s'", optarg);
			break;
		case OPT_TO:
			tl->to = parse_time_ns(optarg);
			if (tl->to < 0)
				die_usage("bad time '%s'", optarg);
			break;
		case 'h':
			fputs(timeline_usage, stdout);
			exit(EXIT_OK);
		default:
			usage_fail();
		}
	}
	if (optind < argc)
		die_usage("timeline: unexpected argument '%s'", argv[optind]);
	check_window(tl->from, tl->to);
	o->cpus = &tl->cpus;
	return 0;
}

int cmd_timeline(int argc, char **argv)
{
	struct timeline tl = { .from = -1, .to = -1 };
	struct analysis_cli o;
	struct lt_analysis *a;
	uint64_t events;
	bool filtered;
	int status;

	analysis_cli_init(&o);
	parse_args(argc, argv, &o, &tl);
	tl.format = o.format;
	tl.file = o.in.file;
	a = analysis_run(&o, NULL, show, &tl, &status);
	begin(&tl);
	if (tl.format == OUT_JSON) {
		const struct lt_analysis_summary *s = lt_analysis_summary(a);

		json_end_array(&tl.j);
		json_str(&tl.j, "abi", lt_abi_name(s->abi));
		json_bool(&tl.j, "lazy_preemption", s->lazy_seen);
		json_lost(&tl.j, a);
		json_end_object(&tl.j);
		json_finish(&tl.j);
	} else if (tl.format == OUT_TEXT) {
		const struct lt_analysis_summary *s = lt_analysis_summary(a);

		print_lazy_note(stdout, s);
		if (s->lost_events || s->lost_unknown)
			print_lost(stdout, a);
	}
	events = lt_analysis_summary(a)->events;
	lt_analysis_free(a);
	filtered = tl.cpus.nr || tl.pids.nr || tl.kinds || tl.from >= 0 ||
		   tl.to >= 0;
	int_set_free(&tl.cpus);
	int_set_free(&tl.pids);
	if (status != EXIT_OK)
		return status;
	if (!events)
		return nothing_found("%s: no events", o.in.file);
	if (!tl.shown)
		return nothing_found("%s: no transition%s", o.in.file,
				     filtered ? " matches the filters" : "");
	return EXIT_OK;
}
