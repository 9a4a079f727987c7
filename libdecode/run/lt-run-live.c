// SPDX-License-Identifier: LGPL-2.1
/*
 * A run over a live tracefs session: the input is what the kernel records
 * from lt_run_open() on, read one interval at a time. Each interval is a
 * new input to the tables and the analysis (a request pending across two
 * intervals is truncated in the first, as live shows it), and can be
 * kept as a trace.dat for a second look or for a table that needs the
 * input read again.
 */
#include <errno.h>
#include <limits.h>
#include <time.h>

#include "lt-table.h"
#include "../tracefs/lt-tracefs.h"

int lt_run_open_live(struct lt_run *run)
{
	struct lt_tracefs_opts to = { .cpus = run->cpus.v,
				      .nr_cpus = run->cpus.nr,
				      .syscalls = run->syscalls,
				      .functions = true, .stacks = run->stacks,
				      .note = run->note };
	struct lt_open_opts o = { .abi = run->abi };
	char *name;

	if (run->buffer)
		return lt_run_fail(run, LT_RUN_USAGE,
				   "--buffer: a live run records into an instance of its own");
	name = strdup("live");
	if (!name)
		return lt_run_fail(run, LT_RUN_NOMEM, "out of memory");
	free(run->input);
	run->input = name;	/* what messages call the input */
	run->reader = lt_live_begin(&to, &o, &run->session, run->err,
				    sizeof(run->err));
	if (!run->reader) {
		run->status = LT_RUN_BAD_INPUT;
		return -1;
	}
	run->opened = true;
	run->interval_end = lt_mono_ns();
	if (run->save && (lt_live_save_as(run->reader, run->save_mode,
					  run->save_uid, run->save_gid) ||
			  lt_live_save(run->reader, run->save)))
		return lt_run_fail(run, LT_RUN_USAGE, "cannot save into %s",
				   run->save);
	return lt_run_new_analysis(run);
}

/* Documented in lazytrace.h. */
int lt_run_set_note(struct lt_run *run, void (*note)(const char *msg))
{
	if (run->opened)
		return lt_run_fail(run, LT_RUN_USAGE,
				   "lt_run_set_note: the run is already open");
	lt_run_ok(run);
	run->note = note;
	return 0;
}

static int not_live(struct lt_run *run, const char *fn)
{
	if (run->opened && run->session)
		return 0;
	return lt_run_fail(run, LT_RUN_USAGE, "%s: not an open live run", fn);
}

/* Documented in lazytrace.h. */
int lt_run_wait(struct lt_run *run, unsigned int ms)
{
	int ret;

	if (not_live(run, "lt_run_wait"))
		return -1;
	lt_run_ok(run);
	ret = lt_live_wait(run->reader, ms > INT_MAX ? INT_MAX : (int)ms);
	if (ret < 0)
		return lt_run_fail(run, LT_RUN_BAD_INPUT, "%s",
				   lt_reader_error(run->reader));
	return ret;
}

/* Documented in lazytrace.h. */
int lt_run_stop(struct lt_run *run)
{
	if (not_live(run, "lt_run_stop"))
		return -1;
	lt_run_ok(run);
	if (lt_tracefs_stop(run->session))
		return lt_run_fail(run, LT_RUN_BAD_INPUT,
				   "cannot stop tracing: %s", strerror(errno));
	return 0;
}

/* The wait's length, rounded up, and at most a second at a time. */
static int ms_left(uint64_t ns)
{
	return ns >= 1000000000 ? 1000 : (ns + 999999) / 1000000;
}

/* Documented in lazytrace.h. */
int lt_run_interval(struct lt_run *run, uint64_t ns)
{
	uint64_t end, now;
	int ret = 0;

	if (not_live(run, "lt_run_interval"))
		return -1;
	lt_run_ok(run);
	/* on the previous one's end: time spent on its tables is not lost */
	end = run->interval_end + ns;
	while ((now = lt_mono_ns()) < end) {
		ret = lt_live_wait(run->reader, ms_left(end - now));
		if (ret < 0)
			return lt_run_fail(run, LT_RUN_BAD_INPUT, "%s",
					   lt_reader_error(run->reader));
		if (ret > 0)
			break;	/* a signal: the interval ends now */
	}
	run->interval_end = ret > 0 || now > end ? now : end;
	lt_run_reset(run);
	if (lt_live_refill(run->reader))
		return lt_run_fail(run, LT_RUN_BAD_INPUT, "%s",
				   lt_reader_error(run->reader));
	if (lt_run_new_analysis(run))
		return -1;
	return ret;
}
