// SPDX-License-Identifier: GPL-2.0
/*
 * split-bound: the best that stats -j N could do by splitting its
 * analysis in time. N threads, each with a reader of its part of the
 * file (lt_dat_set_part(), segments in time) and an analysis of its own,
 * no join: the results are wrong where requests and tasks cross the
 * cuts, and the wall time is a floor for any analysis that joins them.
 *
 *   split-bound FILE N
 *
 * Prints the events each part analysed. bench.sh times it against
 * stats -j 1.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "lazytrace.h"
#include "analysis/lt-analysis.h"
#include "read/lt-internal.h"

struct part {
	const char *path;
	int k, n;
	uint64_t events;
	int ret;
};

static void *analyse(void *arg)
{
	struct part *p = arg;
	struct lt_analysis *a;
	struct lt_reader *r;
	char err[LT_ERR_LEN];

	p->ret = 1;
	r = lt_reader_open(p->path, NULL, err, sizeof(err));
	if (!r) {
		fprintf(stderr, "split-bound: %s\n", err);
		return NULL;
	}
	lt_dat_set_jobs(r, 1);
	a = lt_analysis_new(NULL);
	if (a && (p->n == 1 || !lt_dat_set_part(r, p->k, p->n, true)) &&
	    !lt_analysis_run(a, r)) {
		p->events = lt_analysis_summary(a)->events;
		p->ret = 0;
	}
	lt_analysis_free(a);
	lt_reader_close(r);
	return NULL;
}

int main(int argc, char **argv)
{
	struct part p[64];
	pthread_t tid[64];
	int i, n, ret = 0;

	n = argc == 3 ? atoi(argv[2]) : 0;
	if (n < 1 || n > 64) {
		fprintf(stderr, "usage: split-bound FILE N (1 to 64)\n");
		return 2;
	}
	for (i = 0; i < n; i++) {
		p[i] = (struct part){ .path = argv[1], .k = i, .n = n };
		if (i && pthread_create(&tid[i], NULL, analyse, &p[i])) {
			fprintf(stderr, "split-bound: no thread\n");
			return 2;
		}
	}
	analyse(&p[0]);
	for (i = 1; i < n; i++)
		pthread_join(tid[i], NULL);
	for (i = 0; i < n; i++) {
		printf("%s%llu", i ? " " : "", (unsigned long long)p[i].events);
		ret |= p[i].ret;
	}
	printf("\n");
	return ret ? 2 : 0;
}
