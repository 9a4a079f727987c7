// SPDX-License-Identifier: GPL-2.0
/*
 * lazytrace table: any of the library's tables, as text, JSON, CSV or
 * NDJSON; --list names them and their columns. For scripts: the columns
 * are the same in every format and in the Python module.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char table_usage[] =
"usage: lazytrace table NAME... [FILE] [options]\n"
"       lazytrace table --list [--json]\n"
"\n"
"Print the library's tables: meta, summary, events, transitions, requests,\n"
"switches, tasks, hogs, episodes, sites, stacks, latency, lost, preempts,\n"
"preempt_groups, pending. A request row says who was asked to give up the CPU, when\n"
"(exactly, with a probe; else the window the flags give), how long it\n"
"waited, what upgraded it and how it ended. An episodes row is one hog\n"
"episode (docs/model.md §7), as hogs counts them. A preempts row is one R+\n"
"switch: where the task was, what forced it, what it cost (lazytrace\n"
"preempts). A pending row is a request still open where the trace ends.\n"
"Only one of events, transitions, requests, switches, episodes,\n"
"preempts, preempt_groups per run: they are made while the trace is read.\n"
"\n"
RUN_USAGE
"  --kind LIST        transitions: only these kinds (lazy,served,...)\n"
"  --idle             tasks: list the idle tasks (pid 0) too\n"
"  --list             the tables and their columns: type, unit, meaning\n";

enum { OPT_LIST = OPT_PRIVATE, OPT_TKIND, OPT_TIDLE };

/* The schema, from a run not opened: the tables describe themselves. */
static int list_tables(struct lt_run *run, enum lt_format fmt)
{
	const char *const *names = lt_run_table_names();
	struct lt_table *t;
	unsigned int c;
	struct json j;
	size_t i;

	if (fmt == LT_FORMAT_CSV || fmt == LT_FORMAT_NDJSON)
		die_usage("--list: text or --json");
	if (fmt == LT_FORMAT_JSON) {
		json_init(&j, stdout, false);
		json_begin_object(&j, NULL);
		json_int(&j, "version", LT_JSON_VERSION_3);
		json_begin_object(&j, "tables");
	}
	for (i = 0; names[i]; i++) {
		t = lt_run_table(run, names[i]);
		if (!t)
			die("%s", lt_run_error(run));
		if (fmt == LT_FORMAT_JSON)
			json_begin_array(&j, names[i]);
		else
			printf("%s%s%s\n", i ? "\n" : "", names[i],
			       lt_table_one_row(t) ? " (one row)" : "");
		for (c = 0; c < lt_table_nr_columns(t); c++) {
			const char *type = lt_col_type_name(
				lt_table_column_type(t, c));

			if (fmt != LT_FORMAT_JSON) {
				printf("  %-24s %-9s %-6s %s\n",
				       lt_table_column_name(t, c), type,
				       lt_table_column_unit(t, c),
				       lt_table_column_doc(t, c));
				continue;
			}
			json_begin_object(&j, NULL);
			json_str(&j, "name", lt_table_column_name(t, c));
			json_str(&j, "type", type);
			json_str(&j, "unit", lt_table_column_unit(t, c));
			json_str(&j, "doc", lt_table_column_doc(t, c));
			json_end_object(&j);
		}
		if (fmt == LT_FORMAT_JSON)
			json_end_array(&j);
	}
	if (fmt == LT_FORMAT_JSON) {
		json_end_object(&j);
		json_end_object(&j);
		json_finish(&j);
	}
	lt_run_free(run);
	return EXIT_OK;
}

int cmd_table(int argc, char **argv)
{
	static const struct option longopts[] = {
		RUN_LONG_OPTS,
		{ "kind", required_argument, NULL, OPT_TKIND },
		{ "idle", no_argument, NULL, OPT_TIDLE },
		{ "list", no_argument, NULL, OPT_LIST },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *const *names = lt_run_table_names();
	const char *want[16];
	struct lt_writer *w;
	struct run_cli rc;
	int c, nr = 0, i, k;
	bool list = false;

	run_cli_init(&rc);
	while ((c = getopt_long(argc, argv, RUN_SHORT_OPTS "h", longopts,
				NULL)) != -1) {
		if (run_opt(&rc, c, optarg))
			continue;
		switch (c) {
		case OPT_TKIND:
			run_set_once(&rc, "kind", optarg);
			break;
		case OPT_TIDLE:
			run_set(&rc, "idle", "1");
			break;
		case OPT_LIST:
			list = true;
			break;
		case 'h':
			fputs(table_usage, stdout);
			lt_run_free(rc.run);
			return EXIT_OK;
		default:
			usage_fail();
		}
	}
	if (list)
		return list_tables(rc.run, rc.format);
	/* table names first, then at most one file */
	for (; optind < argc; optind++) {
		for (k = 0; names[k]; k++)
			if (!strcmp(argv[optind], names[k]))
				break;
		if (!names[k])
			break;
		if (nr == (int)ARRAY_SIZE(want))
			die_usage("too many tables");
		want[nr++] = names[k];
	}
	if (!nr)
		die_usage(optind < argc ? "no table '%s' (lazytrace table --list)" :
			  "which table? (lazytrace table --list)",
			  optind < argc ? argv[optind] : "");
	if (nr > 1 && (rc.format == LT_FORMAT_CSV ||
		       rc.format == LT_FORMAT_NDJSON))
		die_usage("CSV and NDJSON hold one table: name one");
	run_cli_open(&rc, argc, argv);
	w = lt_writer_new(stdout, rc.format, rc.write_flags);
	if (!w)
		die("out of memory");
	for (i = 0; i < nr; i++)
		if (lt_writer_table(w, run_table(&rc, want[i])) < 0)
			break;
	if (lt_writer_end(w))
		warn("cannot write the output");
	return run_cli_end(&rc);
}
