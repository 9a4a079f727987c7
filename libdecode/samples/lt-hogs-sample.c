// SPDX-License-Identifier: LGPL-2.1
/*
 * A small user of the analysis API: count the transitions of a trace
 * through the callback, then print the hogs.
 *
 *   build/samples/lt-hogs-sample trace.dat
 */
#include <stdio.h>

#include "lazytrace.h"

static void count(const struct lt_transition *t, void *data)
{
	unsigned long *counts = data;

	counts[t->kind]++;
}

int main(int argc, char **argv)
{
	unsigned long counts[LT_TR_KIND_MAX] = { 0 };
	struct lt_analysis_opts opts = { .on_transition = count,
					 .data = counts };
	const struct lt_task_stats *const *hogs;
	const struct lt_analysis_summary *sum;
	struct lt_analysis *a;
	struct lt_reader *r;
	char err[512];
	size_t i, nr;
	int k;

	if (argc != 2) {
		fprintf(stderr, "usage: %s TRACE\n", argv[0]);
		return 2;
	}
	r = lt_reader_open(argv[1], NULL, err, sizeof(err));
	if (!r) {
		fprintf(stderr, "%s\n", err);
		return 2;
	}
	a = lt_analysis_new(&opts);
	if (!a || lt_analysis_run(a, r)) {
		fprintf(stderr, "%s\n", a && lt_reader_error(r) ?
			lt_reader_error(r) : "out of memory");
		lt_analysis_free(a);
		lt_reader_close(r);
		return 2;
	}
	sum = lt_analysis_summary(a);
	printf("abi %s, %llu events, tick %llu ns%s\n", lt_abi_name(sum->abi),
	       (unsigned long long)sum->events,
	       (unsigned long long)sum->tick_ns,
	       sum->lazy_seen ? "" : ", no lazy preemption");
	for (k = 0; k < LT_TR_KIND_MAX; k++)
		printf("  %-13s %lu\n", lt_transition_name(k), counts[k]);
	hogs = lt_analysis_hogs(a, &nr);
	for (i = 0; i < nr; i++)
		printf("hog %d %s: %llu episodes, %llu tick-upgrades, trace share %.2f\n",
		       hogs[i]->pid, hogs[i]->comm,
		       (unsigned long long)hogs[i]->episodes,
		       (unsigned long long)hogs[i]->count[LT_TR_TICK_UPGRADE],
		       hogs[i]->trace_share);
	lt_analysis_free(a);
	lt_reader_close(r);
	return nr ? 0 : 1;
}
