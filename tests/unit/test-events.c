// SPDX-License-Identifier: GPL-2.0
/*
 * The one list of the events the analysis knows (libdecode/read/lt-events.c):
 * every kind the analysis has is on it, the readers' names map back to
 * it, and a recording session enables exactly the events on it that it
 * says to record, each of them known to the analysis (checked in a real
 * tracefs instance of this host, as root).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "lazytrace.h"
#include "../../libdecode/read/lt-internal.h"

#define TRACEFS "/sys/kernel/tracing"

/* Every kind but "other" has a name; each name maps back to its kind. */
static void test_list(void **state)
{
	bool kind_named[LT_EV_KIND_MAX] = { false };
	size_t i;
	int k;

	(void)state;
	for (i = 0; i < lt_nr_known_events; i++) {
		const struct lt_known_event *e = &lt_known_events[i];

		assert_true(e->kind > LT_EV_OTHER && e->kind < LT_EV_KIND_MAX);
		kind_named[e->kind] = true;
		assert_int_equal(lt_event_kind_of(e->system, e->name), e->kind);
		/* text names no system: the name alone must do */
		assert_int_equal(lt_event_kind_of(NULL, e->name), e->kind);
		assert_non_null(e->why);
		assert_true(strlen(e->why) > 10);
		/* what record enables is a tracefs event: it has a system */
		if (lt_event_recorded(e))
			assert_non_null(e->system);
	}
	for (k = LT_EV_OTHER + 1; k < LT_EV_KIND_MAX; k++)
		assert_true(kind_named[k]);
	assert_int_equal(lt_event_kind_of("irq", "softirq_raise"), LT_EV_OTHER);
	assert_int_equal(lt_event_kind_of("timer", "sched_switch"),
			 LT_EV_OTHER);
}

static bool event_exists(const char *system, const char *name)
{
	char path[512];

	snprintf(path, sizeof(path), TRACEFS "/events/%s/%s", system, name);
	return access(path, F_OK) == 0;
}

/* Whether "system:name" is a line of @set (the instance's set_event). */
static bool enabled(const char *set, const char *system, const char *name)
{
	char line[256];
	const char *p;

	snprintf(line, sizeof(line), "%s:%s\n", system, name);
	for (p = strstr(set, line); p; p = strstr(p + 1, line))
		if (p == set || p[-1] == '\n')
			return true;
	return false;
}

/*
 * A session of this host, syscalls on: its instance's set_event lists
 * the events of the list that record enables and the kernel has, and no
 * other event but our probe's; each of them is known to the analysis.
 */
static void test_record_enables(void **state)
{
	struct lt_tracefs_opts o = { .syscalls = true };
	struct lt_tracefs *s;
	char path[512], err[512], line[256];
	char *set;
	size_t i, nr = 0, len = 0;
	FILE *f;

	(void)state;
	if (getuid() != 0) {
		print_message("skip: not root: a tracefs instance needs root\n");
		skip();
	}
	if (access(TRACEFS "/instances", F_OK)) {
		print_message("skip: no tracefs at " TRACEFS "\n");
		skip();
	}
	s = lt_tracefs_begin(&o, err, sizeof(err));
	if (!s)
		fail_msg("%s", err);
	snprintf(path, sizeof(path), TRACEFS "/instances/%s/set_event",
		 lt_tracefs_name(s));
	f = fopen(path, "r");
	assert_non_null(f);
	set = calloc(1, 65536);
	assert_non_null(set);
	len = fread(set, 1, 65535, f);
	fclose(f);
	set[len] = '\0';
	print_message("%s", set);

	for (i = 0; i < lt_nr_known_events; i++) {
		const struct lt_known_event *e = &lt_known_events[i];

		if (!e->system || !event_exists(e->system, e->name))
			continue;
		assert_int_equal(enabled(set, e->system, e->name),
				 lt_event_recorded(e));
	}
	/* everything enabled is known: the probe's group is ours */
	f = fmemopen(set, len, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		char *name = strchr(line, ':');

		assert_non_null(name);
		*name++ = '\0';
		name[strcspn(name, "\n")] = '\0';
		if (lt_event_kind_of(line, name) == LT_EV_OTHER)
			fail_msg("record enables %s:%s, which the analysis does not know",
				 line, name);
		nr++;
	}
	fclose(f);
	assert_true(nr >= 5);
	free(set);
	lt_tracefs_destroy(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_list),
		cmocka_unit_test(test_record_enables),
	};

	return cmocka_run_group_tests_name("events", tests, NULL, NULL);
}
