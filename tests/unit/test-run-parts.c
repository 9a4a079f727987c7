// SPDX-License-Identifier: GPL-2.0
/*
 * A run's "part" (K/N) and lt_run_parts(), through the public API on
 * bundled recordings: what report -j N stands on. N runs of one file,
 * each with its part (segments in time, of uncompressed pages or of
 * compressed chunks; with a filter, CPUs, each read in exactly one
 * part), and their events merged by
 * time, then CPU, are the whole run's events in its order; wrong parts
 * and inputs that are not a trace.dat are refused.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "lazytrace.h"
#include "test-data.h"

#define MAX_CPUS 64

struct ev_key {
	uint64_t ts;
	int cpu;
	int pid;
	enum lt_event_kind kind;
};

struct stream {
	struct ev_key *ev;
	size_t nr, max;
};

static struct lt_run *open_run(const char *file, const char *part,
			       const char *jobs, const char *cpus)
{
	struct lt_run *run = lt_run_new();

	assert_non_null(run);
	assert_int_equal(lt_run_set(run, "input", data(file)), 0);
	assert_int_equal(lt_run_set(run, "part", part), 0);
	assert_int_equal(lt_run_set(run, "jobs", jobs), 0);
	assert_int_equal(lt_run_set(run, "cpu", cpus), 0);
	assert_int_equal(lt_run_open(run), 0);
	return run;
}

/* Every event of @run, in its order. */
static void read_all(struct lt_run *run, struct stream *s)
{
	const struct lt_event *ev;

	memset(s, 0, sizeof(*s));
	while ((ev = lt_run_next_event(run))) {
		if (s->nr == s->max) {
			s->max = s->max ? 2 * s->max : 4096;
			s->ev = realloc(s->ev, s->max * sizeof(*s->ev));
			assert_non_null(s->ev);
		}
		s->ev[s->nr++] = (struct ev_key){ ev->ts, ev->cpu, ev->pid,
						  ev->kind };
	}
	assert_null(lt_run_error(run));
}

static bool before(const struct ev_key *a, const struct ev_key *b)
{
	return a->ts < b->ts || (a->ts == b->ts && a->cpu < b->cpu);
}

/* How a file's parts split it. */
enum split {
	BY_CPU,		/* a CPU is read by one part alone */
	IN_TIME,	/* each part reads every CPU, in segments of time */
};

/*
 * Parts @n of @file, with the "cpu" option @cpus (NULL: none), split as
 * @split says.
 */
static void check_parts(const char *file, int n, enum split split,
			const char *cpus)
{
	struct lt_run *whole = open_run(file, NULL, "1", cpus);
	struct stream all, part[8];
	size_t pos[8] = { 0 }, i;
	int owner[MAX_CPUS], k, best, cpus_seen = 0;
	bool shared;
	char spec[32];

	read_all(whole, &all);
	assert_true(all.nr > 1000);
	lt_run_free(whole);
	for (i = 0; i < MAX_CPUS; i++)
		owner[i] = -1;
	for (k = 0; k < n; k++) {
		snprintf(spec, sizeof(spec), "%d/%d", k + 1, n);
		whole = open_run(file, spec, "1", cpus);
		read_all(whole, &part[k]);
		lt_run_free(whole);
		shared = false;
		for (i = 0; i < part[k].nr; i++) {
			int c = part[k].ev[i].cpu;

			assert_true(c >= 0 && c < MAX_CPUS);
			if (owner[c] < 0) {
				owner[c] = k;
				cpus_seen++;
			}
			if (owner[c] != k && split == BY_CPU)
				fail_msg("%s part %d/%d: CPU %d is part %d's too",
					 file, k + 1, n, c, owner[c] + 1);
			shared |= owner[c] != k;
		}
		/* in time, a part reads CPUs an earlier part read too */
		if (split == IN_TIME && k)
			assert_true(shared);
	}
	/* as many busy parts as CPUs allow: the split is balanced */
	for (k = 0; k < n && (k < cpus_seen || split == IN_TIME); k++)
		assert_true(part[k].nr > 0);
	/* merged as lt_run_next_event() orders them: the whole run */
	for (i = 0; i < all.nr; i++) {
		best = -1;
		for (k = 0; k < n; k++)
			if (pos[k] < part[k].nr &&
			    (best < 0 || before(&part[k].ev[pos[k]],
						&part[best].ev[pos[best]])))
				best = k;
		assert_true(best >= 0);
		assert_int_equal(part[best].ev[pos[best]].ts, all.ev[i].ts);
		assert_int_equal(part[best].ev[pos[best]].cpu, all.ev[i].cpu);
		assert_int_equal(part[best].ev[pos[best]].pid, all.ev[i].pid);
		assert_int_equal(part[best].ev[pos[best]].kind, all.ev[i].kind);
		pos[best]++;
	}
	for (k = 0; k < n; k++) {
		assert_int_equal(pos[k], part[k].nr);
		free(part[k].ev);
	}
	free(all.ev);
}

static void test_parts_cover_the_run(void **state)
{
	(void)state;
	/* compressed chunks: parts in time, found by the chunks' index */
	check_parts("lazy612-hogs.dat", 1, BY_CPU, NULL);
	check_parts("lazy612-hogs.dat", 2, IN_TIME, NULL);
	check_parts("lazy612-msg-full.dat", 2, IN_TIME, NULL);
	/* more parts than CPUs */
	check_parts("lazy612-msg-full.dat", 5, IN_TIME, NULL);
	check_parts("stock/stock72-allevents-x86.dat", 3, IN_TIME, NULL);
	/* big-endian, compressed version 7 */
	check_parts("stock/stock72-allevents-s390x.dat", 2, IN_TIME, NULL);
	check_parts("stock/stock72-allevents-s390x.dat", 4, IN_TIME, NULL);
	/* a filter keeps a compressed file's parts to CPUs */
	check_parts("lazy612-msg-full.dat", 2, BY_CPU, "0-1");
	/* uncompressed pages: parts in time, as many as asked */
	check_parts("old/bullseye510-allevents-i686.dat", 2, IN_TIME, NULL);
	check_parts("old/bullseye510-allevents-i686.dat", 3, IN_TIME, NULL);
	check_parts("vm/lazyvm-hogs-stacks.dat", 2, IN_TIME, NULL);
	/* one CPU, in time too */
	check_parts("old/bullseye510-allevents-armhf.dat", 3, IN_TIME, NULL);
	/* a filter keeps the parts to CPUs */
	check_parts("old/bullseye510-allevents-i686.dat", 2, BY_CPU, "0-1");
}

static void test_bad_parts(void **state)
{
	static const char *const bad[] = {
		"0/2", "3/2", "1/0", "1/2x", "a/b", "2", "-1/2", "1/1025",
	};
	struct lt_run *run = lt_run_new();
	size_t i;

	(void)state;
	assert_non_null(run);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(lt_run_set(run, "part", bad[i]), -1);
		assert_int_equal(lt_run_status(run), LT_RUN_USAGE);
		assert_non_null(strstr(lt_run_error(run), bad[i]));
	}
	assert_int_equal(lt_run_set(run, "part", "1024/1024"), 0);
	assert_int_equal(lt_run_set(run, "part", ""), 0);
	lt_run_free(run);
}

/*
 * "part" on an open run, before its first event: the same events as a
 * run opened with it (in time and by CPU); not once an event is read,
 * and no other option.
 */
static void test_part_after_open(void **state)
{
	static const char *const files[] = {
		"old/bullseye510-allevents-i686.dat", "lazy612-msg-full.dat",
	};
	struct stream want, got;
	struct lt_run *run;
	size_t i, k;

	(void)state;
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		run = open_run(files[i], "2/2", "1", NULL);
		read_all(run, &want);
		lt_run_free(run);
		run = open_run(files[i], NULL, "2", NULL);
		assert_int_equal(lt_run_set(run, "part", "2/2"), 0);
		read_all(run, &got);
		lt_run_free(run);
		assert_true(want.nr > 100);
		assert_int_equal(got.nr, want.nr);
		for (k = 0; k < want.nr; k++) {
			assert_int_equal(got.ev[k].ts, want.ev[k].ts);
			assert_int_equal(got.ev[k].cpu, want.ev[k].cpu);
		}
		free(want.ev);
		free(got.ev);
	}
	run = open_run(files[0], NULL, "1", NULL);
	assert_non_null(lt_run_next_event(run));
	assert_int_equal(lt_run_set(run, "part", "1/2"), -1);
	assert_int_equal(lt_run_status(run), LT_RUN_USAGE);
	assert_int_equal(lt_run_set(run, "jobs", "2"), -1);
	assert_non_null(strstr(lt_run_error(run), "already open"));
	lt_run_free(run);
}

/* The kernel's text is one stream: no parts, and lt_run_parts() is 1. */
static void test_text_has_no_parts(void **state)
{
	struct lt_run *run = lt_run_new();

	(void)state;
	assert_int_equal(lt_run_set(run, "input",
				    data("lazy612-msg-full.txt.xz")), 0);
	assert_int_equal(lt_run_set(run, "jobs", "4"), 0);
	assert_int_equal(lt_run_open(run), 0);
	assert_int_equal(lt_run_parts(run), 1);
	lt_run_free(run);

	run = lt_run_new();
	assert_int_equal(lt_run_set(run, "input",
				    data("lazy612-msg-full.txt.xz")), 0);
	assert_int_equal(lt_run_set(run, "part", "1/2"), 0);
	assert_int_equal(lt_run_open(run), -1);
	assert_int_equal(lt_run_status(run), LT_RUN_USAGE);
	assert_non_null(strstr(lt_run_error(run), "only a trace.dat"));
	lt_run_free(run);
}

/*
 * lt_run_parts(): the jobs, at most the file's CPUs but for parts in
 * time.
 */
static void test_parts_of_jobs(void **state)
{
	static const struct {
		const char *file, *jobs, *cpus;
		int parts;
	} c[] = {
		{ "lazy612-msg-full.dat", "1", NULL, 1 },
		{ "lazy612-msg-full.dat", "2", NULL, 2 },
		/* compressed, two CPUs in the file: parts in time */
		{ "lazy612-msg-full.dat", "8", NULL, 8 },
		/* a filter: parts of CPUs, at most the file's */
		{ "lazy612-msg-full.dat", "8", "0-1", 2 },
		/* uncompressed, one CPU: parts in time */
		{ "old/bullseye510-allevents-armhf.dat", "8", NULL, 8 },
		/* a filter: parts of CPUs, nothing to share */
		{ "old/bullseye510-allevents-armhf.dat", "8", "0", 1 },
	};
	struct lt_run *run;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		run = open_run(c[i].file, NULL, c[i].jobs, c[i].cpus);
		assert_int_equal(lt_run_parts(run), c[i].parts);
		lt_run_free(run);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parts_cover_the_run),
		cmocka_unit_test(test_bad_parts),
		cmocka_unit_test(test_part_after_open),
		cmocka_unit_test(test_text_has_no_parts),
		cmocka_unit_test(test_parts_of_jobs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
