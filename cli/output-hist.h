/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The latency histograms of lazytrace hist and of live's histogram view,
 * as rtla prints its histograms, and as JSON (docs/json.md: hist,
 * hist_tasks, hist_buckets).
 */
#ifndef _LT_OUTPUT_HIST_H
#define _LT_OUTPUT_HIST_H

#include <stdio.h>

#include "cli.h"

struct hist_info {
	const char *source;	/* "kernel" or "user" */
	const char *reason;	/* why not the kernel's, or NULL */
	uint64_t duration_ns;
	int columns;		/* tasks (or comms) shown, at most */
	bool by_comm;
	int max_rows;		/* bucket rows shown, 0: all; the rest in "more:" */
	bool compact;		/* no legend of the columns (a screen) */
};

/* Index rows, one column per task and kind, then over, count, min, avg, max. */
void hist_print(FILE *fp, struct lt_lathist *h, const struct hist_info *in);
/* One version-3 document, on one line. */
void hist_print_json(FILE *fp, struct lt_lathist *h,
		     const struct hist_info *in);

#endif /* _LT_OUTPUT_HIST_H */
