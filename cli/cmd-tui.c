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
"usage: lazytrace tui [FILE] [--abi NAME] [-B BUFFER] [--hz N]\n"
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
"  --hz N             the kernel's tick rate, for a trace without tick events\n"
"                     (else the HZ its setup line records, else unknown)\n"
"  --live             trace this machine into a private tracefs instance\n"
"                     (as root, or a user tracefs is mounted for: uid=),\n"
"                     removed on exit; the timeline grows every\n"
"                     second, the panels show the last second's analysis\n"
"  --stacks WHEN      with --live: kernel stacks for the hogs' call sites,\n"
"                     lazy (a tick finding a lazy request; default), tick\n"
"                     (every tick) or none; --no-stacks is none\n";

static int tui_file_cmd(const struct input_opts *in,
			const struct lt_analysis_opts *lo)
{
	struct lt_reader *r = input_open(in);
	int ret = tui_file(r, in->file, in->buffer, lo);

	lt_reader_close(r);
	return ret ? EXIT_BAD : EXIT_OK;
}

static int tui_live_cmd(const struct input_opts *in,
			const struct lt_analysis_opts *lo, enum lt_stacks stacks)
{
	struct lt_tracefs_opts to = { .functions = true, .stacks = stacks };
	struct lt_open_opts oo = { .abi = in->abi };

	return tui_live(&to, &oo, lo) ? EXIT_BAD : EXIT_OK;
}

/*
 * Open the input and read its first event, so that a file that is not a
 * trace is refused with the usual one line before the screen is taken.
 */
static void probe_input(const struct input_opts *in)
{
	struct lt_reader *r = input_open(in);
	int ret;

	lt_reader_next(r);
	ret = input_finish(r);
	lt_reader_close(r);
	if (ret != EXIT_OK)
		exit(ret);
}

int cmd_tui(int argc, char **argv)
{
	static const struct option longopts[] = {
		INPUT_LONG_OPTS,
		{ "hz", required_argument, NULL, OPT_HZ },
		{ "live", no_argument, NULL, OPT_LIVE },
		STACKS_LONG_OPTS,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct input_opts in = INPUT_OPTS_INIT;
	struct lt_analysis_opts lo = { 0 };
	enum lt_stacks stacks = LT_STACKS_LAZY;
	bool live = false, in_given = false;
	int c;

	while ((c = getopt_long(argc, argv, INPUT_SHORT_OPTS "h", longopts,
				NULL)) != -1) {
		if (input_opt(&in, c, optarg)) {
			in_given |= c == 'i';
			continue;
		}
		if (stacks_opt(&stacks, c, optarg))
			continue;
		switch (c) {
		case OPT_LIVE:
			live = true;
			break;
		case OPT_HZ:
			lo.hz = parse_hz(optarg);
			break;
		case 'h':
			fputs(tui_usage, stdout);
			return EXIT_OK;
		default:
			usage_fail();
		}
	}
	if (optind < argc) {
		in.file = bare_input(argc, argv, in_given ? in.file : NULL);
		in_given = true;
	}
	if (!strcmp(in.file, "-"))
		die_usage("reads its keys from the terminal: give a file, not '-'");
	if (live && (in_given || in.buffer))
		die_usage("--live traces this machine: no -i or -B");
	if (!live)
		probe_input(&in);
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))
		die_usage("needs a terminal (use report, timeline or hogs in scripts)");
	setlocale(LC_ALL, "");
	return live ? tui_live_cmd(&in, &lo, stacks) : tui_file_cmd(&in, &lo);
}
