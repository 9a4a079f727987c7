// SPDX-License-Identifier: GPL-2.0
/*
 * lazytrace tui: the command line of the full-screen timeline (tui/):
 * options, the input opened and checked before the screen is taken, and
 * the terminal required.
 */
#include <getopt.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "../tui/tui.h"

enum { OPT_LIVE = OPT_PRIVATE };

static const char tui_usage[] =
"usage: lazytrace tui [FILE] [--abi NAME] [-B BUFFER] [--hz N] [--cpu LIST]\n"
"                     [--pid LIST] [--comm GLOBS] [--from T] [--to T]\n"
"       lazytrace tui --live [--abi NAME] [--hz N] [--stacks WHEN]\n"
"\n"
"A full-screen timeline: one row per CPU, time across, each cell showing\n"
"the running task's need-resched state by colour and letter (. idle,\n"
"- running, l lazy pending, e eager pending, f folded; upgrades: ! tick,\n"
"^ slice timer (hrtick), + other), with the ranked hogs, the selected\n"
"task's statistics and the events around the cursor with the kernel's\n"
"own flags. Press ? for the keys.\n"
"\n"
"  -i, --input FILE   trace.dat or kernel text trace (default trace.dat);\n"
"                     a bare FILE argument is the same\n"
"  -B, --buffer NAME  trace.dat instance buffer (default: the one with events)\n"
"  --abi NAME         flag ABI: " LT_ABI_NAMES "\n"
RUN_FILTER_USAGE
"  --hz N             the kernel's tick rate, for a trace without tick events\n"
"                     (else the HZ its setup line records, else unknown)\n"
JOBS_USAGE
"  --live             trace this machine into a private tracefs instance\n"
"                     (as root, or a user tracefs is mounted for: uid=),\n"
"                     removed on exit; the timeline grows every\n"
"                     second, the panels show the last second's analysis\n"
"  --stacks WHEN      with --live: kernel stacks for the hogs' call sites,\n"
"                     lazy (a tick finding a lazy request; default), tick\n"
"                     (every tick) or none; --no-stacks is none\n"
"\n"
"With --pid or --comm the CPU rows count only those tasks' time, and the\n"
"hogs, the upgrade marks, the events and the task search are theirs; with\n"
"--cpu, --from or --to the trace is cut before it is read, as in the other\n"
"commands. --live takes none of them.\n";

/* The live run: its session records what the TUI shows, from @stacks on. */
static int tui_live_cmd(struct run_cli *rc, enum lt_stacks stacks)
{
	int ret;

	run_set(rc, "live", "1");
	run_set(rc, "stacks", stacks_name(stacks));
	ret = tui_live(rc->run);
	lt_run_free(rc->run);
	return ret ? EXIT_BAD : EXIT_OK;
}

/*
 * Read the input's first event through a run of its own, without the
 * filters, so that a file that is not a trace is refused with the usual
 * one line before the screen is taken.
 */
static void probe_input(struct run_cli *rc)
{
	static const char *const keep[] = { "input", "buffer", "abi" };
	struct lt_run *run = lt_run_new();
	struct lt_table *t = NULL;
	char err[512];
	size_t k;
	int i;

	if (!run)
		die("out of memory");
	for (i = 0; i < rc->nr_opts; i++)
		for (k = 0; k < ARRAY_SIZE(keep); k++)
			if (!strcmp(rc->opt_name[i], keep[k]))
				lt_run_set(run, keep[k], rc->opt_value[i]);
	if (!lt_run_open(run))
		t = lt_run_table(run, "events");
	if (t && lt_table_next(t) >= 0) {
		lt_run_free(run);
		return;
	}
	/* freed first: a leak checker sees no run left */
	snprintf(err, sizeof(err), "%s", lt_run_error(run));
	lt_run_free(run);
	die("%s", err);
}

/* Which filters were given, as the TUI needs to know them. */
static unsigned int given_filters(const struct run_cli *rc)
{
	unsigned int f = 0;
	int i;

	for (i = 0; i < rc->nr_opts; i++) {
		const char *n = rc->opt_name[i];

		if (!strcmp(n, "cpu") || !strcmp(n, "from") || !strcmp(n, "to"))
			f |= TUI_CUT;
		else if (!strcmp(n, "pid") || !strcmp(n, "comm"))
			f |= TUI_TASKS;
	}
	return f;
}

int cmd_tui(int argc, char **argv)
{
	static const struct option longopts[] = {
		INPUT_LONG_OPTS,
		RUN_FILTER_LONG_OPTS,
		{ "hz", required_argument, NULL, OPT_HZ },
		{ "live", no_argument, NULL, OPT_LIVE },
		STACKS_LONG_OPTS,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	enum lt_stacks stacks = LT_STACKS_LAZY;
	bool live = false;
	const char *file, *buffer = NULL;
	unsigned int filters;
	struct run_cli rc;
	int c, ret;

	run_cli_init(&rc);
	while ((c = getopt_long(argc, argv, INPUT_SHORT_OPTS "h", longopts,
				NULL)) != -1) {
		if (stacks_opt(&stacks, c, optarg))
			continue;
		switch (c) {
		case OPT_LIVE:
			live = true;
			break;
		case OPT_HZ:
			run_set(&rc, "hz", optarg);
			break;
		case 'B':
			buffer = optarg;
			/* fall through */
		default:
			if (run_opt(&rc, c, optarg))
				break;
			if (c == 'h') {
				fputs(tui_usage, stdout);
				lt_run_free(rc.run);
				return EXIT_OK;
			}
			usage_fail();
		}
	}
	file = bare_input(argc, argv, rc.given & 1 ? rc.input : NULL);
	if (file)
		run_opt(&rc, 'i', file);
	filters = given_filters(&rc);
	if (!strcmp(rc.input, "-"))
		die_usage("reads its keys from the terminal: give a file, not '-'");
	if (live && (rc.given & 1 || buffer))
		die_usage("--live traces this machine: no -i or -B");
	if (live && filters)
		die_usage("--live: no --cpu, --pid, --comm, --from or --to (they filter a trace file)");
	/*
	 * The run's analysis is fed the events the TUI takes from it, and
	 * the upgrades they make are its transitions rows (the only ones the
	 * TUI reads, and so the only ones made); the panels list every task
	 * record, as the find prompt searches them.
	 */
	run_set(&rc, "feed", "1");
	run_set(&rc, "kind", "upgrade,tick-upgrade");
	run_set(&rc, "all-tasks", "1");
	if (!live) {
		run_cli_open(&rc, 0, NULL);
		probe_input(&rc);
	}
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))
		die_usage("needs a terminal (use report, timeline or hogs in scripts)");
	setlocale(LC_ALL, "");
	if (live)
		return tui_live_cmd(&rc, stacks);
	ret = tui_file(rc.run, rc.input, buffer, filters);
	lt_run_free(rc.run);
	return ret ? EXIT_BAD : EXIT_OK;
}
