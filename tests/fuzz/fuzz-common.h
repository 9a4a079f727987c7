/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the fuzz harnesses: put the input where a reader can open it
 * by name, then use everything a reader returns the way the commands do
 * (payload, fields, flag letters, the analysis and all its results), so
 * that a bad value anywhere reaches code that would trip over it.
 */
#ifndef _LT_FUZZ_COMMON_H
#define _LT_FUZZ_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "lazytrace.h"
/* the analysis, driven with the events a harness reads or makes */
#include "../../libdecode/analysis/lt-analysis.h"

/* A failed check is a finding: abort so that the fuzzer keeps the input. */
#define fuzz_assert(cond)						\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "%s:%d: check failed: %s\n",	\
				__FILE__, __LINE__, #cond);		\
			abort();					\
		}							\
	} while (0)

/*
 * The readers open files by name (the trace.dat one twice, and once more
 * in a child): a memfd, seen as /proc/self/fd/N, costs no disk.
 */
static inline int fuzz_input(const uint8_t *data, size_t size, char *path,
			     size_t len)
{
	int fd = memfd_create("lt-fuzz", 0);
	size_t done = 0;
	ssize_t n;

	if (fd < 0)
		abort();
	while (done < size) {
		n = write(fd, data + done, size - done);
		if (n <= 0)
			abort();
		done += n;
	}
	snprintf(path, len, "/proc/self/fd/%d", fd);
	return fd;
}

static inline void fuzz_string(const char *s, size_t max)
{
	fuzz_assert(s);
	fuzz_assert(strnlen(s, max) < max);
}

static void fuzz_on_transition(const struct lt_transition *t, void *data)
{
	unsigned long *n = data;

	fuzz_assert(t->kind < LT_TR_KIND_MAX);
	fuzz_assert(t->request < LT_TR_KIND_MAX);
	fuzz_assert(t->after_ns <= t->seen_ns);
	fuzz_string(t->comm, 4096);
	fuzz_string(lt_transition_name(t->kind), 32);
	(*n)++;
}

/* Every result the commands print, touched once. */
static inline void fuzz_results(struct lt_analysis *a)
{
	const struct lt_analysis_summary *s = lt_analysis_summary(a);
	const struct lt_task_stats *const *hogs;
	const struct lt_task_stats *t;
	size_t i, nr;
	int k;

	fuzz_assert(s->nr_cpus >= 0);
	for (k = 0; k < LT_LAT_KIND_MAX; k++)
		if (!s->latency[k].count)
			fuzz_assert(!s->latency[k].p50 && !s->latency[k].max);
	for (k = 0; k < s->nr_cpus; k++)
		lt_analysis_lost(a, k, NULL);
	for (i = 0; i < s->nr_tasks; i++) {
		t = lt_analysis_task(a, i);
		fuzz_assert(t);
		fuzz_string(t->comm, sizeof(t->comm));
		fuzz_string(t->cpus, sizeof(t->cpus));
		fuzz_assert(t->first_ns <= t->last_ns);
		fuzz_assert(t->lifetime_share >= 0 && t->lifetime_share <= 1);
		fuzz_assert(t->trace_share >= 0 && t->trace_share <= 1);
	}
	fuzz_assert(!lt_analysis_task(a, s->nr_tasks));
	hogs = lt_analysis_hogs(a, &nr);
	fuzz_assert(nr == s->nr_hogs);
	for (i = 0; i < nr; i++)
		fuzz_assert(hogs[i] && hogs[i]->hog);
}

/*
 * Read every event as `report` does and feed it to the analysis as
 * `stats` and `hogs` do (lt_analysis_run(), one event at a time).
 */
static inline void fuzz_reader(struct lt_reader *r)
{
	struct lt_analysis_opts o = { .on_transition = fuzz_on_transition };
	const struct lt_event *ev;
	unsigned long transitions = 0;
	struct lt_analysis *a;
	char buf[512], lat[6];
	const char *reason;
	long long v;
	size_t n;

	o.data = &transitions;
	o.abi = lt_reader_abi(r, &reason);
	fuzz_string(reason, 4096);
	if (o.abi == LT_ABI_AUTO)
		o.abi = LT_ABI_MAINLINE;
	a = lt_analysis_new(&o);
	fuzz_assert(a);
	while ((ev = lt_reader_next(r))) {
		fuzz_assert(ev->cpu >= 0 && ev->cpu < lt_reader_nr_cpus(r));
		fuzz_assert(ev->kind < LT_EV_KIND_MAX);
		fuzz_string(ev->comm, 4096);
		fuzz_string(ev->name, 4096);
		fuzz_string(ev->system, 4096);
		n = lt_event_payload(r, ev, buf, sizeof(buf));
		fuzz_string(buf, sizeof(buf));
		/* a %c of 0 is a NUL inside the text, as the kernel prints it */
		if (n < sizeof(buf))
			fuzz_assert(!buf[n] && strlen(buf) <= n);
		lt_event_field(r, ev, "pid", &v);
		lt_event_field(r, ev, "prev_state", &v);
		lt_flags_latency(o.abi, ev->flags, ev->preempt_count, lat);
		fuzz_assert(strlen(lat) == 5);
		lt_reader_position(r);
		lt_analysis_feed(a, ev);
	}
	if (lt_reader_error(r))
		fuzz_string(lt_reader_error(r), 4096);
	lt_analysis_finish(a);
	fuzz_results(a);
	lt_analysis_free(a);
}

#endif /* _LT_FUZZ_COMMON_H */
