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
"usage: lazytrace timeline [FILE] [--json|--csv|--ndjson] [-t] [--cpu LIST]\n"
"                          [--pid LIST] [--comm GLOBS] [--kind LIST]\n"
"                          [--from T] [--to T] [--abi NAME]\n"
"\n"
"Every need-resched transition: lazy, eager, upgrade, tick-upgrade, fold,\n"
"served (preempted, yielded, blocked, cleared) and truncated. A transition\n"
"is seen at an event and happened after the previous event on its CPU;\n"
"for upgrades and served ones, LATENCY is the time since the request.\n"
"FLAG is the need-resched letter before and after. The machine-readable\n"
"forms are the transitions table (lazytrace table --list).\n"
"\n"
ANALYSIS_USAGE
"  --kind LIST        only these kinds (e.g. lazy,tick-upgrade; served)\n";

enum { OPT_KIND = OPT_PRIVATE + 0x60 };

/* The columns the text shows, by name: the table's schema is the truth. */
enum {
	C_TS, C_AFTER, C_CPU, C_PID, C_COMM, C_KIND, C_REQUEST, C_LATENCY,
	C_SOURCE, C_REQUEST_NS, C_REQUESTER_PID, C_REQUESTER_COMM,
	C_BEFORE, C_AFTER_LETTER, NR_C,
};

static const char *const text_cols[NR_C] = {
	"ts_ns", "after_ns", "cpu", "pid", "comm", "kind", "request",
	"latency_ns", "source", "request_ns", "requester_pid",
	"requester_comm", "letter_before", "letter_after",
};

static void show_text(struct lt_table *t, const int *col, bool full)
{
	char ts[32], after[32], req[32], lat[24];

	lt_time_format(lt_table_uint(t, col[C_TS]), full, ts, sizeof(ts));
	lt_time_format(lt_table_uint(t, col[C_AFTER]), full, after,
		       sizeof(after));
	printf("%13s [%03d] %16.16s-%-7d %-12s %s->%s  after %s", ts,
	       (int)lt_table_int(t, col[C_CPU]),
	       lt_table_string(t, col[C_COMM]),
	       (int)lt_table_int(t, col[C_PID]),
	       lt_table_string(t, col[C_KIND]),
	       lt_table_string(t, col[C_BEFORE]),
	       lt_table_string(t, col[C_AFTER_LETTER]), after);
	if (!lt_table_null(t, col[C_LATENCY]))
		printf("  %s %s", lt_table_string(t, col[C_REQUEST]),
		       fmt_ns(lat, sizeof(lat),
			      lt_table_uint(t, col[C_LATENCY])));
	if (!lt_table_null(t, col[C_SOURCE]))
		printf("  source=%s", lt_table_string(t, col[C_SOURCE]));
	if (!lt_table_null(t, col[C_REQUEST_NS])) {
		lt_time_format(lt_table_uint(t, col[C_REQUEST_NS]), full, req,
			       sizeof(req));
		printf("  requested %s by %s-%d", req,
		       lt_table_string(t, col[C_REQUESTER_COMM]),
		       (int)lt_table_int(t, col[C_REQUESTER_PID]));
	}
	putchar('\n');
}

int cmd_timeline(int argc, char **argv)
{
	static const struct option longopts[] = {
		ANALYSIS_LONG_OPTS,
		{ "kind", required_argument, NULL, OPT_KIND },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct analysis_cli o;
	struct lt_writer *w = NULL;
	struct lt_table *t, *meta;
	struct lt_run *run;
	unsigned long long shown = 0, events;
	bool full, filtered;
	int c, k, col[NR_C];
	long n;

	analysis_cli_init(&o);
	while ((c = getopt_long(argc, argv, RUN_SHORT_OPTS "h", longopts,
				NULL)) != -1) {
		if (analysis_opt(&o, c, optarg))
			continue;
		switch (c) {
		case OPT_KIND:
			run_set_once(&o.rc, "kind", optarg);
			break;
		case 'h':
			fputs(timeline_usage, stdout);
			lt_run_free(o.rc.run);
			return EXIT_OK;
		default:
			usage_fail();
		}
	}
	analysis_args(&o, argc, argv);
	run_cli_open(&o.rc, 0, NULL);
	run = o.rc.run;
	full = o.rc.write_flags & LT_WRITE_FULL_NS;
	t = run_table(&o.rc, "transitions");
	if (o.format != OUT_TEXT) {
		w = lt_writer_new(stdout, (enum lt_format)o.format,
				  o.rc.write_flags);
		if (!w)
			die("out of memory");
		n = lt_writer_table(w, t);
		shown = n > 0 ? n : 0;
		if (n >= 0 && o.format == OUT_JSON) {
			lt_writer_table(w, run_table(&o.rc, "meta"));
			lt_writer_table(w, run_table(&o.rc, "lost"));
		}
		if (lt_writer_end(w))
			warn("cannot write the output");
	} else {
		for (k = 0; k < NR_C; k++)
			col[k] = lt_table_column(t, text_cols[k]);
		/* show_text()'s columns */
		printf("%13s %5s %16s-%-7s %-12s %-4s  %-16s %s\n", "TIME",
		       "CPU", "TASK", "PID", "KIND", "FLAG", "AFTER",
		       "REQUEST LATENCY");
		while (lt_table_next(t) > 0) {
			show_text(t, col, full);
			shown++;
		}
	}
	if (lt_run_error(run))
		return run_cli_end(&o.rc);
	meta = run_row(run, "meta");
	if (o.format == OUT_TEXT) {
		meta_lazy_note(stdout, meta);
		if (cell_uint(meta, "lost_events") ||
		    cell_uint(meta, "lost_unknown_times"))
			meta_lost(stdout, run, meta);
	}
	filtered = o.rc.nr_opts > (int)(o.rc.given & 1);
	events = cell_uint(meta, "events");
	k = run_cli_end(&o.rc);
	if (!events && !filtered)
		return nothing_found("%s: no events", input_name(o.in.file));
	if (!shown)
		return nothing_found("%s: no transition%s",
				     input_name(o.in.file),
				     filtered ? " matches the filters" : "");
	return k;
}
