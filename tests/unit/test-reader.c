// SPDX-License-Identifier: GPL-2.0
/*
 * The readers through the library API, on the bundled recordings: the
 * kernel's text and the trace.dat of the same buffer give the same events;
 * ABI detection says what it chose and why; seeking; errors.
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
#include "test-data.h"


/* Decompress NAME.txt.xz to a temporary file; returns its path (static). */
static const char *kernel_text(const char *name)
{
	static char out[256];
	char cmd[8192];

	snprintf(out, sizeof(out), "/tmp/lt-unit-%d-%s.txt", (int)getpid(),
		 name);
	snprintf(cmd, sizeof(cmd), "xz -dc '%s' > '%s'",
		 data(name), out);
	if (system(cmd))
		fail_msg("cannot run: %s", cmd);
	return out;
}

/* A version 6 copy of a recording: uncompressed pages. */
static const char *v6_copy(const char *name)
{
	static char out[256];
	char cmd[8192];

	snprintf(out, sizeof(out), "/tmp/lt-unit-%d-v6.dat", (int)getpid());
	snprintf(cmd, sizeof(cmd),
		 "trace-cmd convert -i '%s' --file-version 6 -o '%s' > /dev/null 2>&1",
		 data(name), out);
	if (system(cmd))
		fail_msg("cannot run: %s", cmd);
	return out;
}

static struct lt_reader *open_ok(const char *path, enum lt_abi abi)
{
	struct lt_open_opts o = { .abi = abi };
	struct lt_reader *r;
	char err[512];

	r = lt_reader_open(path, &o, err, sizeof(err));
	if (!r)
		fail_msg("open %s: %s", path, err);
	return r;
}

static void same_events(const char *dat, const char *txt_xz)
{
	const char *txt = kernel_text(txt_xz);
	struct lt_reader *a = open_ok(data(dat), LT_ABI_AUTO);
	struct lt_reader *b = open_ok(txt, LT_ABI_AUTO);
	const struct lt_event *ea, *eb;
	unsigned long n = 0, lazy = 0;

	assert_int_equal(lt_reader_abi(a, NULL), lt_reader_abi(b, NULL));
	for (;;) {
		ea = lt_reader_next(a);
		eb = lt_reader_next(b);
		if (!ea || !eb)
			break;
		n++;
		/* The text has microseconds, rounded as ns2usecs() does. */
		assert_int_equal((ea->ts + 500) / 1000, eb->ts / 1000);
		assert_int_equal(ea->cpu, eb->cpu);
		assert_int_equal(ea->pid, eb->pid);
		if (ea->flags != eb->flags || ea->preempt_count != eb->preempt_count)
			fail_msg("%s event %lu: flags %#x/%#x pc %#x/%#x", dat, n,
				 ea->flags, eb->flags, ea->preempt_count,
				 eb->preempt_count);
		assert_int_equal(ea->kind, eb->kind);
		if (ea->kind == LT_EV_SCHED_SWITCH) {
			assert_string_equal(ea->u.sched_switch.prev_state_str,
					    eb->u.sched_switch.prev_state_str);
			assert_int_equal(ea->u.sched_switch.next_pid,
					 eb->u.sched_switch.next_pid);
		}
		if (ea->kind == LT_EV_FUNCTION)
			assert_string_equal(ea->u.function.parent,
					    eb->u.function.parent);
		lazy += !!(lt_flags_decode(lt_reader_abi(a, NULL), ea->flags)
			   .need_resched_lazy);
	}
	assert_null(ea);
	assert_null(eb);
	assert_null(lt_reader_error(a));
	assert_null(lt_reader_error(b));
	assert_true(n > 10000);
	if (!strncmp(dat, "lazy612", 7))
		assert_true(lazy > 100);
	lt_reader_close(a);
	lt_reader_close(b);
	unlink(txt);
}

static void test_text_equals_dat(void **state)
{
	(void)state;
	same_events("lazy612-hogs.dat", "lazy612-hogs.txt.xz");
	same_events("host618-hogs.dat", "host618-hogs.txt.xz");
	same_events("lazy612-msg-lazy.dat", "lazy612-msg-lazy.txt.xz");
}

static void test_abi_detection(void **state)
{
	struct lt_reader *r;
	const char *why;

	(void)state;
	r = open_ok(data("lazy612-hogs.dat"), LT_ABI_AUTO);
	assert_int_equal(lt_reader_abi(r, &why), LT_ABI_MAINLINE);
	assert_non_null(strstr(why, "0x02"));
	assert_string_equal(lt_reader_kernel(r), "6.12.118-lazy");
	assert_int_equal(lt_reader_nr_cpus(r), 2);
	lt_reader_close(r);

	r = open_ok(data("host618-hogs.dat"), LT_ABI_AUTO);
	assert_int_equal(lt_reader_abi(r, &why), LT_ABI_MAINLINE);
	assert_non_null(strstr(why, "6.13 or later"));
	lt_reader_close(r);

	r = open_ok(data("host618-hogs.dat"), LT_ABI_POC2023);
	assert_int_equal(lt_reader_abi(r, &why), LT_ABI_POC2023);
	assert_non_null(strstr(why, "--abi"));
	lt_reader_close(r);
}

/* Events at or after @ts, read from a reader that seeks there. */
static unsigned long count_from(struct lt_reader *r, uint64_t ts)
{
	const struct lt_event *ev;
	unsigned long n = 0;

	assert_int_equal(lt_reader_seek(r, ts, 0), 0);
	while ((ev = lt_reader_next(r))) {
		assert_true(ev->ts >= ts);
		n++;
	}
	return n;
}

/*
 * Seeks to a quarter, a half and three quarters of the events: after a
 * full read, backwards, and on a fresh reader that has read nothing
 * (a trace.dat's blocks of pages are then found by their page times,
 * its compressed chunks by their index and their first pages' times).
 */
static void seek_in(const char *path)
{
	struct lt_reader *r = open_ok(path, LT_ABI_AUTO);
	const struct lt_event *ev;
	uint64_t at[3] = { 0 }, prev = 0, *ts;
	unsigned long n = 0, total, after[3] = { 0 };
	int i;

	ts = malloc(400000 * sizeof(*ts));
	assert_non_null(ts);
	while ((ev = lt_reader_next(r))) {
		assert_true(ev->ts >= prev);
		assert_true(n < 400000);
		prev = ev->ts;
		ts[n++] = ev->ts;
	}
	total = n;
	assert_true(total > 8000);
	for (i = 0; i < 3; i++) {
		at[i] = ts[total * (i + 1) / 4];
		for (n = 0; n < total; n++)
			after[i] += ts[n] >= at[i];
	}
	free(ts);
	for (i = 2; i >= 0; i--)
		assert_int_equal(count_from(r, at[i]), after[i]);
	lt_reader_close(r);
	for (i = 0; i < 3; i++) {
		r = open_ok(path, LT_ABI_AUTO);
		assert_int_equal(count_from(r, at[i]), after[i]);
		lt_reader_close(r);
	}
}

static void test_seek(void **state)
{
	const char *txt = kernel_text("lazy612-hogs.txt.xz");
	const char *v6 = v6_copy("lazy612-hogs.dat");

	(void)state;
	seek_in(data("lazy612-hogs.dat"));	/* v7, zstd */
	seek_in(data("stock/stock72-allevents-s390x.dat"));	/* big-endian */
	seek_in(v6);				/* 5 blocks of pages per CPU */
	unlink(v6);
	seek_in(txt);
	unlink(txt);
}

static void test_errors(void **state)
{
	char err[512];
	struct lt_reader *r;
	FILE *fp;

	(void)state;
	r = lt_reader_open("/nonexistent/trace.dat", NULL, err, sizeof(err));
	assert_null(r);
	assert_non_null(strstr(err, "/nonexistent/trace.dat"));

	fp = fopen("/tmp/lt-unit-prose.txt", "w");
	assert_non_null(fp);
	fputs("Dear maintainers,\nthe kernel hangs.\n", fp);
	fclose(fp);
	r = lt_reader_open("/tmp/lt-unit-prose.txt", NULL, err, sizeof(err));
	assert_non_null(r);	/* text is only judged line by line */
	assert_null(lt_reader_next(r));
	assert_non_null(strstr(lt_reader_error(r), "line 1"));
	lt_reader_close(r);
	unlink("/tmp/lt-unit-prose.txt");
}

/* A ring-buffer overrun, as the kernel's text shows it, reaches the caller. */
static void test_lost_events(void **state)
{
	const char *txt = kernel_text("lazy612-hogs.txt.xz");
	char cmd[1024], path[256];
	struct lt_reader *r;
	const struct lt_event *ev;
	uint64_t lost = 0;
	int cpu = -1;

	(void)state;
	snprintf(path, sizeof(path), "%s.lost", txt);
	snprintf(cmd, sizeof(cmd),
		 "awk 'NR == 200 { print \"CPU:1 [LOST 42 EVENTS]\" } { print }' '%s' > '%s'",
		 txt, path);
	assert_int_equal(system(cmd), 0);
	r = open_ok(path, LT_ABI_AUTO);
	while ((ev = lt_reader_next(r))) {
		if (ev->missed) {
			assert_int_equal(lost, 0);
			lost = ev->missed;
			cpu = ev->cpu;
		}
	}
	assert_null(lt_reader_error(r));
	assert_int_equal(lost, 42);
	assert_int_equal(cpu, 1);
	lt_reader_close(r);
	unlink(path);
	unlink(txt);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text_equals_dat),
		cmocka_unit_test(test_abi_detection),
		cmocka_unit_test(test_seek),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_lost_events),
	};

	return cmocka_run_group_tests_name("reader", tests, NULL, NULL);
}
