// SPDX-License-Identifier: GPL-2.0
/*
 * lazytrace: see where lazy preemption requests wait, and who makes them.
 *
 * One binary, one file per subcommand (cli/cmd-*.c), in the style of git.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const struct cmd commands[] = {
	{ "report", cmd_report, "print every event with the kernel's own flags" },
	{ "flags", cmd_flags, "explain one common_flags byte" },
	{ "record", cmd_record, "record what the analysis needs into a trace.dat" },
	{ "live", cmd_live, "the analysis straight from tracefs, refreshed like top" },
	{ "hist", cmd_hist, "request-to-served latency histograms, built in the kernel" },
	{ "stats", cmd_stats, "per-task and global transition statistics" },
	{ "hogs", cmd_hogs, "tasks that ignore lazy requests until the tick" },
	{ "preempts", cmd_preempts, "every preemption (R+): where, why, what it cost" },
	{ "timeline", cmd_timeline, "need-resched transitions, one per line" },
	{ "compare", cmd_compare, "two traces side by side (switches, requests, latencies)" },
	{ "export", cmd_export, "Perfetto JSON; many traces' tables as SQLite, CSV, NDJSON" },
	{ "table", cmd_table, "any of the library's tables, for scripts (--list)" },
	{ "tui", cmd_tui, "full-screen timeline of need-resched states, ticks and hogs" },
};

#define NR_COMMANDS (ARRAY_SIZE(commands))

static void usage(FILE *fp)
{
	size_t i;

	fprintf(fp, "usage: lazytrace [--version] [--help] <command> [<args>]\n\n"
		"commands:\n");
	for (i = 0; i < NR_COMMANDS; i++)
		fprintf(fp, "   %-10s %s\n", commands[i].name, commands[i].summary);
	fprintf(fp, "\n'lazytrace <command> --help' describes a command.\n");
}

/* getopt names argv[0] in its messages: make it "lazytrace NAME". */
static int run(const struct cmd *cmd, int argc, char **argv)
{
	char name[64];

	snprintf(name, sizeof(name), "lazytrace %s", cmd->name);
	argv[0] = name;
	cli_command = cmd->name;
	return cmd->fn(argc, argv);
}

int main(int argc, char **argv)
{
	size_t i;
	int ret;

	if (argc < 2)
		die_usage("which command? (report, stats, hogs, ...)");
	/* "lazytrace help CMD" is "lazytrace CMD --help" */
	if (!strcmp(argv[1], "help") && argc > 2) {
		static char help[] = "--help";
		char *args[] = { argv[2], help, NULL };

		for (i = 0; i < NR_COMMANDS; i++)
			if (!strcmp(argv[2], commands[i].name))
				return run(&commands[i], 2, args);
		die_usage("'%s' is not a lazytrace command", argv[2]);
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		usage(stdout);
		return EXIT_OK;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("lazytrace %s\n", LT_VERSION_STRING);
		return EXIT_OK;
	}
	for (i = 0; i < NR_COMMANDS; i++) {
		if (strcmp(argv[1], commands[i].name))
			continue;
		ret = run(&commands[i], argc - 1, argv + 1);
		/* all read that could be, but not the whole trace */
		return ret == EXIT_OK && input_truncated() ? EXIT_TRUNCATED :
		       ret;
	}
	die_usage("'%s' is not a lazytrace command", argv[1]);
}
