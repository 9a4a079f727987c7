/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The TUI's entry points, for the command line (cli/cmd-tui.c), which
 * parses the options, opens the input and checks the terminal. The TUI's
 * own modules share tui-internal.h.
 */
#ifndef _LT_TUI_ENTRY_H
#define _LT_TUI_ENTRY_H

#include "lazytrace.h"

/* What the run's filters do, for the TUI to show only what they select. */
#define TUI_CUT		1u	/* --cpu, --from, --to: the events cut */
#define TUI_TASKS	2u	/* --pid, --comm: only those tasks shown */

/*
 * The full-screen timeline of @run (opened with "feed" and "all-tasks"
 * set, of @file, instance @buffer or NULL), until q; the caller frees @run. It reads the events the run's
 * cut selects (@filters: those given) and shows the tasks its task
 * filters select. 0, or -1 after saying why. A SIGINT, SIGTERM or SIGHUP
 * restores the terminal and then ends the process with that signal.
 */
int tui_file(struct lt_run *run, const char *file, const char *buffer,
	     unsigned int filters);

/*
 * The same, tracing this machine: @run has "live" and "feed" set, not
 * opened yet; its session's instance goes with lt_run_free(), which the
 * caller calls.
 */
int tui_live(struct lt_run *run);

#endif /* _LT_TUI_ENTRY_H */
