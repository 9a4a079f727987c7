// SPDX-License-Identifier: LGPL-2.1
/*
 * A run: one input, its options and filters, read once through the
 * analysis. Options are parsed here, once, for every consumer; the cut
 * (CPUs, time window) is applied to events before the analysis, the row
 * filters (pids, comms, kinds) to the tables' rows (lt-table.c).
 */
#include <stdarg.h>
#include <sys/stat.h>

#include "lt-table.h"
#include "../tracefs/lt-tracefs.h"

int lt_run_fail(struct lt_run *run, enum lt_run_status st,
		const char *fmt, ...)
{
	va_list ap;

	run->status = st;
	va_start(ap, fmt);
	vsnprintf(run->err, sizeof(run->err), fmt, ap);
	va_end(ap);
	return -1;
}

void lt_run_ok(struct lt_run *run)
{
	run->status = LT_RUN_OK;
	run->err[0] = '\0';
}

struct lt_run *lt_run_new(void)
{
	struct lt_run *run = calloc(1, sizeof(*run));

	if (!run)
		return NULL;
	run->input = strdup("trace.dat");
	if (!run->input) {
		free(run);
		return NULL;
	}
	run->to = UINT64_MAX;
	run->save_mode = 0600;	/* saved intervals hold kernel addresses */
	run->save_uid = run->save_gid = -1;
	return run;
}

static int set_str(struct lt_run *run, char **dst, const char *value)
{
	char *s = NULL;

	if (value && *value) {
		s = strdup(value);
		if (!s)
			return lt_run_fail(run, LT_RUN_NOMEM, "out of memory");
	}
	free(*dst);
	*dst = s;
	return 0;
}

static void free_comms(struct lt_run *run)
{
	int i;

	for (i = 0; i < run->nr_comms; i++)
		free(run->comms[i]);
	free(run->comms);
	run->comms = NULL;
	run->nr_comms = 0;
}

static int set_comms(struct lt_run *run, const char *value)
{
	char *dup, *tok, *save = NULL, **v;

	free_comms(run);
	if (!value || !*value)
		return 0;
	dup = strdup(value);
	if (!dup)
		return lt_run_fail(run, LT_RUN_NOMEM, "out of memory");
	for (tok = strtok_r(dup, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		v = realloc(run->comms, (run->nr_comms + 1) * sizeof(*v));
		if (!v || !(v[run->nr_comms] = strdup(tok))) {
			if (v)
				run->comms = v;
			free(dup);
			return lt_run_fail(run, LT_RUN_NOMEM, "out of memory");
		}
		run->comms = v;
		run->nr_comms++;
	}
	free(dup);
	if (!run->nr_comms)
		return lt_run_fail(run, LT_RUN_USAGE, "bad --comm '%s'", value);
	return 0;
}

static int set_kinds(struct lt_run *run, const char *value)
{
	char *dup, *tok, *save = NULL;
	unsigned int mask = 0;
	int k;

	if (!value || !*value) {
		run->kinds = 0;
		return 0;
	}
	dup = strdup(value);
	if (!dup)
		return lt_run_fail(run, LT_RUN_NOMEM, "out of memory");
	for (tok = strtok_r(dup, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "served")) {
			for (k = LT_TR_PREEMPTED; k <= LT_TR_CLEARED; k++)
				mask |= 1U << k;
			continue;
		}
		for (k = 0; k < LT_TR_KIND_MAX; k++)
			if (!strcmp(tok, lt_transition_name(k)))
				break;
		if (k == LT_TR_KIND_MAX) {
			lt_run_fail(run, LT_RUN_USAGE,
				    "bad --kind '%s': no transition kind '%s'",
				    value, tok);
			free(dup);
			return -1;
		}
		mask |= 1U << k;
	}
	free(dup);
	if (!mask)
		return lt_run_fail(run, LT_RUN_USAGE, "bad --kind '%s'", value);
	run->kinds = mask;
	return 0;
}

static int set_list(struct lt_run *run, struct lt_int_set *set,
		    const char *option, const char *value)
{
	lt_int_set_free(set);
	if (!value || !*value)
		return 0;
	if (lt_int_set_parse(set, value)) {
		lt_int_set_free(set);
		return lt_run_fail(run, LT_RUN_USAGE, "bad --%s list '%s'",
				   option, value);
	}
	return 0;
}

/*
 * A time with exactly six decimals is one the commands printed, rounded
 * to the microsecond as the kernel does: it stands for every event that
 * prints as it, so the window takes the whole microsecond.
 */
static bool printed_usec(const char *value)
{
	const char *dot = strchr(value, '.');
	size_t n = 0;

	if (!dot)
		return false;
	while (dot[1 + n] >= '0' && dot[1 + n] <= '9')
		n++;
	return n == 6 && !dot[1 + n];
}

static int set_time(struct lt_run *run, const char *option, const char *value)
{
	uint64_t ns;
	bool to = !strcmp(option, "to");

	if (!value || !*value) {
		if (to)
			run->to = UINT64_MAX;
		else
			run->from = 0;
		return 0;
	}
	if (lt_time_parse(value, &ns))
		return lt_run_fail(run, LT_RUN_USAGE,
				   "bad --%s '%s' (a time: 7.25, 7250ms, 20us, 300ns)",
				   option, value);
	if (printed_usec(value))
		ns = to ? ns + 499 : (ns >= 500 ? ns - 500 : 0);
	if (to)
		run->to = ns;
	else
		run->from = ns;
	return 0;
}

static int parse_positive(struct lt_run *run, const char *option,
			  const char *value, double max, double *out)
{
	char *end;
	double v = strtod(value, &end);

	if (end == value || *end || !(v > 0) || v > max)
		return lt_run_fail(run, LT_RUN_USAGE, "bad --%s '%s'", option,
				   value);
	*out = v;
	return 0;
}

static int set_number(struct lt_run *run, const char *option,
		      const char *value)
{
	double v = 0;
	uint64_t ns;

	if (value && *value) {
		if (!strcmp(option, "tick")) {
			if (lt_time_parse(value, &ns) || !ns)
				return lt_run_fail(run, LT_RUN_USAGE,
						   "bad --tick '%s'", value);
			run->lo.tick_ns = ns;
			return 0;
		}
		if (!strcmp(option, "hz") && value[strspn(value, "0123456789")])
			return lt_run_fail(run, LT_RUN_USAGE,
					   "bad --hz '%s': a tick rate in Hz, 1 to 10000 (e.g. 250)",
					   value);
		/* kernels offer HZ 100 to 1000; allow what any could have */
		if (parse_positive(run, option, value,
				   !strcmp(option, "hz") ? 10000 : 1e6, &v))
			return -1;
	}
	if (!strcmp(option, "tick")) {
		run->lo.tick_ns = 0;
	} else if (!strcmp(option, "hz")) {
		if (v != (unsigned int)v)
			return lt_run_fail(run, LT_RUN_USAGE,
					   "bad --hz '%s': a tick rate in Hz, 1 to 10000 (e.g. 250)",
					   value);
		run->lo.hz = v;
	} else if (!strcmp(option, "episode-ticks")) {
		run->lo.episode_ticks = v;
	} else if (!strcmp(option, "hog-episodes")) {
		if (v && (v < 1 || v != (unsigned int)v))
			return lt_run_fail(run, LT_RUN_USAGE,
					   "bad --hog-episodes '%s'", value);
		run->lo.hog_episodes = v;
	} else {
		run->lo.hog_pending_ticks = v;
	}
	return 0;
}

static int set_stacks(struct lt_run *run, const char *value)
{
	static const char *const names[] = {
		[LT_STACKS_LAZY] = "lazy",
		[LT_STACKS_NONE] = "none",
		[LT_STACKS_TICK] = "tick",
		[LT_STACKS_PREEMPT] = "preempt",
	};
	size_t i;

	if (!value || !*value) {
		run->stacks = LT_STACKS_LAZY;
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcmp(value, names[i])) {
			run->stacks = i;
			return 0;
		}
	return lt_run_fail(run, LT_RUN_USAGE,
			   "bad --stacks '%s' (lazy, tick, preempt or none)",
			   value);
}

/* "save-mode": octal permission bits; "save-owner": UID[:GID]. */
static int set_save_as(struct lt_run *run, const char *option,
		       const char *value)
{
	unsigned long mode;
	long uid, gid;
	char *end;

	if (!strcmp(option, "save-mode")) {
		if (!value || !*value) {
			run->save_mode = 0600;
			return 0;
		}
		mode = strtoul(value, &end, 8);
		if (*end || mode > 0777 || value[0] == '-')
			return lt_run_fail(run, LT_RUN_USAGE,
					   "bad --save-mode '%s': octal permission bits (0600)",
					   value);
		run->save_mode = mode;
		return 0;
	}
	if (!value || !*value) {
		run->save_uid = run->save_gid = -1;
		return 0;
	}
	uid = strtol(value, &end, 10);
	gid = -1;
	if (*end == ':')
		gid = strtol(end + 1, &end, 10);
	if (*end || end == value || uid < 0 || (strchr(value, ':') && gid < 0))
		return lt_run_fail(run, LT_RUN_USAGE,
				   "bad --save-owner '%s': UID or UID:GID",
				   value);
	run->save_uid = uid;
	run->save_gid = gid;
	return 0;
}

static int set_part(struct lt_run *run);

int lt_run_set(struct lt_run *run, const char *option, const char *value)
{
	static const char *const numbers[] = {
		"hz", "tick", "episode-ticks", "hog-episodes",
		"hog-pending-ticks",
	};
	size_t i;
	int ret;

	if (!option)
		return lt_run_fail(run, LT_RUN_USAGE, "no option named");
	if (run->opened && strcmp(option, "part"))
		return lt_run_fail(run, LT_RUN_USAGE,
				   "--%s: the run is already open", option);
	lt_run_ok(run);
	if (!strcmp(option, "input"))
		return set_str(run, &run->input, value && *value ? value :
			       "trace.dat");
	if (!strcmp(option, "buffer"))
		return set_str(run, &run->buffer, value);
	if (!strcmp(option, "abi")) {
		if (!value || !*value) {
			run->abi = LT_ABI_AUTO;
			return 0;
		}
		if (lt_abi_parse(value, &run->abi))
			return lt_run_fail(run, LT_RUN_USAGE,
					   "bad --abi '%s' (" LT_ABI_NAMES ")",
					   value);
		return 0;
	}
	if (!strcmp(option, "cpu") || !strcmp(option, "pid"))
		return set_list(run, option[0] == 'c' ? &run->cpus : &run->pids,
				option, value);
	if (!strcmp(option, "comm"))
		return set_comms(run, value);
	if (!strcmp(option, "kind"))
		return set_kinds(run, value);
	if (!strcmp(option, "from") || !strcmp(option, "to")) {
		ret = set_time(run, option, value);
		if (!ret && run->to != UINT64_MAX && run->from > run->to)
			return lt_run_fail(run, LT_RUN_USAGE,
					   "--from is after --to: the window is empty");
		return ret;
	}
	if (!strcmp(option, "jobs")) {
		char *end;
		long n = value && *value ? strtol(value, &end, 10) : 0;

		if (value && *value && (*end || n < 1 || n > 1024))
			return lt_run_fail(run, LT_RUN_USAGE,
					   "bad --jobs '%s': threads, 1 to 1024",
					   value);
		run->jobs = n;
		return 0;
	}
	if (!strcmp(option, "part")) {
		int k = 0, n = 0, len = -1;

		if (value && *value &&
		    (sscanf(value, "%d/%d%n", &k, &n, &len) != 2 ||
		     len != (int)strlen(value) || n < 1 || n > 1024 || k < 1 ||
		     k > n))
			return lt_run_fail(run, LT_RUN_USAGE,
					   "bad part '%s': K/N, 1 <= K <= N <= 1024",
					   value);
		if (run->opened && (run->parts || !k || run->stepped))
			return lt_run_fail(run, LT_RUN_USAGE,
					   "part: an open run takes one part, before its first event");
		run->part = k;
		run->parts = n;
		if (!run->opened)
			return 0;
		/* the caller has a thread per part: none to read ahead */
		lt_dat_set_jobs(run->reader, 1);
		if (!set_part(run))
			return 0;
		run->part = run->parts = 0;
		return -1;
	}
	if (!strcmp(option, "idle")) {
		run->idle = value && *value && strcmp(value, "0");
		return 0;
	}
	if (!strcmp(option, "all-tasks")) {
		run->all_tasks = value && *value && strcmp(value, "0");
		return 0;
	}
	if (!strcmp(option, "graph-leaves")) {
		run->graph_leaves = value && *value && strcmp(value, "0");
		return 0;
	}
	if (!strcmp(option, "feed")) {
		run->feed = value && *value && strcmp(value, "0");
		return 0;
	}
	if (!strcmp(option, "live")) {
		run->live = value && *value && strcmp(value, "0");
		return 0;
	}
	if (!strcmp(option, "save"))
		return set_str(run, &run->save, value);
	if (!strcmp(option, "syscalls")) {
		run->syscalls = value && *value && strcmp(value, "0");
		return 0;
	}
	if (!strcmp(option, "stacks"))
		return set_stacks(run, value);
	if (!strcmp(option, "save-mode") || !strcmp(option, "save-owner"))
		return set_save_as(run, option, value);
	if (!strcmp(option, "by"))
		return lt_rows_set_by(run, value);
	for (i = 0; i < ARRAY_SIZE(numbers); i++)
		if (!strcmp(option, numbers[i]))
			return set_number(run, option, value);
	return lt_run_fail(run, LT_RUN_USAGE, "no option '%s'", option);
}

static int check_cpus(struct lt_run *run)
{
	int i, n = lt_reader_nr_cpus(run->reader), max = -1;

	for (i = 0; i < run->cpus.nr; i++)
		if (run->cpus.v[i] > max)
			max = run->cpus.v[i];
	if (n <= 0 || max < n)
		return 0;
	return lt_run_fail(run, LT_RUN_USAGE, "--cpu: no CPU %d in %s (CPUs 0-%d)",
			   max, lt_input_name(run->input), n - 1);
}

int lt_run_new_analysis(struct lt_run *run)
{
	struct lt_analysis_opts lo = run->lo;

	/* the ABI is detected once, by the reader; the analysis takes it */
	lo.abi = lt_reader_abi(run->reader, &run->abi_reason);
	if (lo.abi == LT_ABI_AUTO)
		lo.abi = LT_ABI_MAINLINE;
	lo.on_transition = lt_rows_on_transition;
	lo.data = run;
	run->an = lt_analysis_new(&lo);
	if (!run->an)
		return lt_run_fail(run, LT_RUN_NOMEM, "out of memory");
	return 0;
}

/*
 * Parts in time when every event is the caller's: an event before a
 * part's first time is then never printed by it, and a graph's leaf
 * that spans the cut is folded on both sides of it.
 */
static bool part_in_time(const struct lt_run *run)
{
	return !run->cpus.nr && !run->pids.nr && !run->nr_comms &&
	       !run->from && run->to == UINT64_MAX;
}

static int reader_failed(struct lt_run *run);

/* The reader reads only the run's part. */
static int set_part(struct lt_run *run)
{
	if (lt_reader_format(run->reader) == LT_INPUT_TRACE_DAT &&
	    !lt_dat_set_part(run->reader, run->part - 1, run->parts,
			     part_in_time(run)))
		return 0;
	/* a part in time seeks: the file may fail there */
	if (reader_failed(run))
		return -1;
	return lt_run_fail(run, LT_RUN_USAGE,
			   "%s: only a trace.dat is read in parts, before its first event (part %d/%d)",
			   lt_input_name(run->input), run->part, run->parts);
}

int lt_run_open(struct lt_run *run)
{
	struct lt_open_opts o = { .abi = run->abi, .buffer = run->buffer };

	if (run->opened)
		return lt_run_fail(run, LT_RUN_USAGE, "the run is already open");
	lt_run_ok(run);
	if (run->live)
		return lt_run_open_live(run);
	if (run->save)
		return lt_run_fail(run, LT_RUN_USAGE,
				   "--save: only a live run saves intervals");
	run->reader = lt_reader_open(run->input, &o, run->err,
				     sizeof(run->err));
	if (!run->reader) {
		run->status = LT_RUN_BAD_INPUT;
		return -1;
	}
	if (run->jobs)
		lt_dat_set_jobs(run->reader, run->jobs);
	if (run->parts && set_part(run))
		return -1;
	if (run->graph_leaves)
		lt_reader_graph_leaves(run->reader);
	run->opened = true;
	if (run->cpus.nr && check_cpus(run))
		return -1;
	return lt_run_new_analysis(run);
}

const char *lt_run_error(const struct lt_run *run)
{
	return run->status == LT_RUN_OK ? NULL : run->err;
}

enum lt_run_status lt_run_status(const struct lt_run *run)
{
	return run->status;
}

uint64_t lt_run_truncated(const struct lt_run *run)
{
	return run->reader ? lt_reader_truncated(run->reader) : 0;
}

struct lt_reader *lt_run_reader(struct lt_run *run)
{
	return run->reader;
}

static bool in_cut(const struct lt_run *run, const struct lt_event *ev)
{
	if (run->cpus.nr && !lt_int_set_has(&run->cpus, ev->cpu))
		return false;
	return ev->ts >= run->from && ev->ts <= run->to;
}

bool lt_run_event_selected(const struct lt_run *run,
			   const struct lt_event *ev, bool task)
{
	if (!in_cut(run, ev))
		return false;
	return !task || lt_run_task_matches(run, ev->pid,
					    ev->comm ? ev->comm : "<...>");
}

static int reader_failed(struct lt_run *run)
{
	const char *err = lt_reader_error(run->reader);

	if (err)
		return lt_run_fail(run, LT_RUN_BAD_INPUT, "%s", err);
	return 0;
}

/* Documented in lazytrace.h. */
enum lt_abi lt_run_abi(const struct lt_run *run, const char **reason)
{
	enum lt_abi abi;

	if (!run->reader) {
		if (reason)
			*reason = "";
		return run->abi;
	}
	abi = lt_reader_abi(run->reader, reason);
	/* what the analysis and the flag decoder take an unsettled ABI for */
	return abi == LT_ABI_AUTO ? LT_ABI_MAINLINE : abi;
}

/* Documented in lazytrace.h. */
unsigned int lt_run_flag_columns(const struct lt_run *run)
{
	return run->reader ? lt_reader_flag_columns(run->reader) : 5;
}

/* Documented in lazytrace.h. */
int lt_run_parts(const struct lt_run *run)
{
	int jobs, cpus;

	if (!run->reader || lt_reader_format(run->reader) != LT_INPUT_TRACE_DAT)
		return 1;
	jobs = lt_dat_jobs(run->reader);
	/* parts in time: as many as the jobs, whatever the CPUs */
	if (part_in_time(run) && lt_dat_cuts_in_time(run->reader))
		return jobs;
	cpus = lt_reader_nr_cpus(run->reader);
	return jobs < cpus ? jobs : cpus > 1 ? cpus : 1;
}

uint64_t lt_run_first_ts(const struct lt_run *run)
{
	return run->reader ? lt_reader_first_ts(run->reader) : 0;
}

/* The analysis takes @ev, within the cut; a shared pass queues its switch. */
static inline void run_feed(struct lt_run *run, const struct lt_event *ev)
{
	run->stepped = true;
	/* a long interval takes a while: keep the buffers from wrapping */
	if (run->session && !(++run->polled % LT_RUN_POLL_EVENTS))
		lt_live_poll(run->reader);
	if (lt_analysis_feed(run->an, ev))
		run->nomem = true;
	if (run->switch_rows)
		lt_rows_on_event(run, ev);
}

/* The input is read: finish the analysis (its truncations are rows too). */
static int run_end(struct lt_run *run)
{
	run->ev = NULL;
	run->fed_all = true;
	lt_analysis_finish(run->an);
	if (reader_failed(run))
		return -1;
	if (run->nomem)
		return lt_run_fail(run, LT_RUN_NOMEM,
				   "%s: out of memory during the analysis",
				   lt_input_name(run->input));
	return 0;
}

/*
 * Documented in lazytrace.h. Once per event of a printer as fast as
 * trace-cmd: the reader's event as it is, nothing copied, nothing fed
 * (but with "feed").
 */
const struct lt_event *lt_run_next_event(struct lt_run *run)
{
	const struct lt_event *ev;

	if (!run->reader) {
		lt_run_fail(run, LT_RUN_USAGE,
			    "lt_run_next_event: the run is not open");
		return NULL;
	}
	if (run->src.split) {
		lt_run_fail(run, LT_RUN_USAGE,
			    "lt_run_next_event: the run's events are read by lt_run_next() or lt_run_finish()");
		return NULL;
	}
	run->took_events = true;
	if (run->feed && run->fed_all)
		return NULL;
	ev = lt_reader_next(run->reader);
	if (!run->feed) {
		if (!ev)
			reader_failed(run);
		return ev;
	}
	if (!ev) {
		run_end(run);
		return NULL;
	}
	if (in_cut(run, ev))
		run_feed(run, ev);
	return ev;
}

/*
 * The threads that read @r's events in segments in time for @run
 * (lt-run-split.c), 1 for none: for a trace.dat that can be cut in time
 * (compressed or not: a worker decompresses its own segments, where the
 * reader alone has a thread decompress ahead of it), a file to open
 * again, and every event read (no cut).
 */
static int split_jobs(const struct lt_run *run, struct lt_reader *r)
{
	struct stat st;
	int jobs;

	if (run->live || run->graph_leaves || run->parts ||
	    !part_in_time(run) || lt_reader_format(r) != LT_INPUT_TRACE_DAT)
		return 1;
	jobs = lt_dat_jobs(r);
	if (jobs < 2 || !lt_dat_cuts_in_time(r) ||
	    !strcmp(run->input, "-") || stat(run->input, &st) ||
	    !S_ISREG(st.st_mode))
		return 1;
	return jobs;
}

/* Start reading @src's file on threads, if it pays: see split_jobs(). */
static void src_split(const struct lt_run *run, struct run_src *src)
{
	struct lt_open_opts o = { .buffer = run->buffer };
	int jobs = split_jobs(run, *src->r);

	if (jobs < 2)
		return;
	/* the reader's ABI, detected once */
	o.abi = lt_reader_abi(*src->r, NULL);
	src->split = lt_split_start(*src->r, run->input, &o, jobs - 1);
}

/*
 * The next event of @src: the threads' while they read, then its
 * reader's. Where a segment stopped short, the events taken are the
 * first of the whole file, and the reader has moved: a new one skips
 * them and reads on, to the end or to the error one reader meets. NULL
 * at the end, and on an error (@src->lost if the file cannot be opened
 * again).
 */
static const struct lt_event *src_next(struct lt_run *run,
				       struct run_src *src)
{
	struct lt_open_opts o = { .buffer = run->buffer };
	const struct lt_event *ev;
	struct lt_reader *again;
	bool stopped;

	if (!src->split)
		return src->done ? NULL : lt_reader_next(*src->r);
	ev = lt_split_next(src->split);
	if (ev) {
		src->taken++;
		return ev;
	}
	stopped = lt_split_stopped(src->split);
	lt_split_free(src->split);
	src->split = NULL;
	src->done = !stopped;
	if (!stopped)
		return NULL;
	o.abi = lt_reader_abi(*src->r, NULL);
	again = lt_reader_open(run->input, &o, src->err, sizeof(src->err));
	if (!again) {
		src->done = src->lost = true;
		return NULL;
	}
	/* what was taken from it (the ABI's reason) stays valid */
	src->spent = *src->r;
	*src->r = again;
	while (src->taken && lt_reader_next(again))
		src->taken--;
	return lt_reader_next(again);
}

/* What @src holds; its reader is its owner's. */
static void src_free(struct run_src *src)
{
	lt_split_free(src->split);
	lt_reader_close(src->spent);
	memset(src, 0, sizeof(*src));
}

/*
 * Whether the run's events may be read on threads (lt-run-split.c): no
 * caller looks at them one by one with the reader (lt_run_next_event(),
 * the events table's fields: the events are copies, and the run's reader
 * has none of them).
 */
static bool may_split(const struct lt_run *run)
{
	unsigned int i;

	if (run->stepped || run->fed_all || run->took_events || run->feed ||
	    run->session)
		return false;
	for (i = 0; i < run->nr_stream; i++)
		if (!strcmp(run->stream[i]->def->name, "events"))
			return false;
	return true;
}

int lt_run_step(struct lt_run *run)
{
	const struct lt_event *ev;

	if (run->fed_all)
		return 0;
	if (may_split(run)) {
		run->src.r = &run->reader;
		src_split(run, &run->src);
	}
	while ((ev = run->src.r ? src_next(run, &run->src) :
				  lt_reader_next(run->reader))) {
		if (ev->ts > run->to && run->to != UINT64_MAX &&
		    lt_reader_format(run->reader) == LT_INPUT_TRACE_DAT)
			break;	/* events come in time order: the cut is over */
		if (!in_cut(run, ev))
			continue;
		run_feed(run, ev);
		run->ev = ev;
		return 1;
	}
	if (run->src.lost) {
		run->fed_all = true;
		return lt_run_fail(run, LT_RUN_BAD_INPUT, "%s", run->src.err);
	}
	return run_end(run);
}

int lt_run_finish(struct lt_run *run)
{
	int ret;

	if (!run->opened)
		return lt_run_fail(run, LT_RUN_USAGE,
				   "lt_run_finish: the run is not open");
	while ((ret = lt_run_step(run)) > 0)
		;
	return ret;
}

struct lt_table *lt_run_next(struct lt_run *run)
{
	struct lt_row *r;
	int ret;

	/* once per event fed: the usual answer first */
	if (run->feed && !run->q_len && run->nr_stream)
		return NULL;
	if (!run->nr_stream) {
		lt_run_fail(run, LT_RUN_USAGE, "no stream table was asked for");
		return NULL;
	}
	if (run->nr_stream == 1 && !run->feed)
		return lt_table_next(run->stream[0]) > 0 ? run->stream[0] : NULL;
	for (;;) {
		/* fed by lt_run_next_event(): the rows of the events taken */
		if (run->feed && !run->q_len)
			return NULL;
		while (!run->q_len) {
			ret = lt_run_step(run);
			if (ret < 0 || (!ret && !run->q_len))
				return NULL;
		}
		r = run->queue[run->q_head];
		run->q_head = (run->q_head + 1) % run->q_cap;
		run->q_len--;
		lt_rows_take(r);
		if (lt_table_row_matches(r->t))
			return r->t;
	}
}

const struct lt_analysis *lt_run_analysis(struct lt_run *run)
{
	if (!run->opened || !run->an)
		return NULL;
	lt_run_finish(run);
	return run->an;
}

/*
 * What is a hog episode is known only at the end (the tick length, the
 * tasks' histograms). So that the episodes table streams in memory
 * bounded by tasks, a first pass reads the same cut of the input into
 * an analysis of its own; the run's analysis then judges each request
 * as it ends. Only a regular file can be read twice (not standard
 * input, a pipe or a tracefs file, which stats empty): otherwise the
 * analysis keeps the requests a tick saw pending until the end
 * (lt-hogs.c).
 */
static void episodes_judge(struct lt_run *run)
{
	struct lt_open_opts o = { .abi = run->abi, .buffer = run->buffer };
	struct lt_analysis_opts lo = run->lo;
	const struct lt_event *ev;
	struct run_src src = { 0 };
	struct lt_analysis *a;
	struct lt_reader *r;
	char err[LT_ERR_LEN];
	bool dat, oom = false;
	struct stat st;

	if (run->live || !strcmp(run->input, "-") || stat(run->input, &st) ||
	    !S_ISREG(st.st_mode) || !st.st_size)
		return;
	r = lt_reader_open(run->input, &o, err, sizeof(err));
	if (!r)
		return;
	if (run->jobs)
		lt_dat_set_jobs(r, run->jobs);
	lo.abi = run->an->abi;
	a = lt_analysis_new(&lo);
	if (!a) {
		lt_reader_close(r);
		return;
	}
	dat = lt_reader_format(r) == LT_INPUT_TRACE_DAT;
	src.r = &r;
	src_split(run, &src);
	while ((ev = src_next(run, &src))) {
		if (ev->ts > run->to && run->to != UINT64_MAX && dat)
			break;
		if (in_cut(run, ev) && lt_analysis_feed(a, ev))
			oom = true;
	}
	lt_analysis_finish(a);
	if (oom || src.lost || lt_reader_error(r)) {
		lt_analysis_free(a);
	} else {
		run->judge = a;
		run->an->judge = a;
	}
	src_free(&src);
	lt_reader_close(r);
}

/*
 * Whether stream table @def can join the ones asked for already, to be
 * read in the same pass: the transitions, requests and switches can,
 * each once, before the first row is read.
 */
static bool shares_pass(const struct lt_run *run,
			const struct lt_table_def *def)
{
	unsigned int i;

	if (!lt_rows_shares_pass(def) ||
	    run->nr_stream >= ARRAY_SIZE(run->stream))
		return false;
	for (i = 0; i < run->nr_stream; i++)
		if (run->stream[i]->def == def ||
		    !lt_rows_shares_pass(run->stream[i]->def))
			return false;
	return true;
}

static struct lt_table *table_new(struct lt_run *run,
				  const struct lt_table_def *def)
{
	struct lt_table *t = calloc(1, sizeof(*t));
	unsigned int i;
	int np = 0, nc = 0;

	if (!t)
		return NULL;
	t->def = def;
	t->run = run;
	t->cell = calloc(def->nr_cols, sizeof(*t->cell));
	t->null = calloc(def->nr_cols, sizeof(*t->null));
	if (!t->cell || !t->null) {
		free(t->cell);
		free(t->null);
		free(t);
		return NULL;
	}
	for (i = 0; i < LT_TABLE_MAX_KEYS; i++)
		t->pid_col[i] = t->comm_col[i] = -1;
	t->kind_col = -1;
	/* the row filters look at the task columns: pid, or prev_ and next_ */
	for (i = 0; i < def->nr_cols; i++) {
		const char *n = def->cols[i].name;

		if (!strcmp(n, "pid") || !strcmp(n, "prev_pid") ||
		    !strcmp(n, "next_pid")) {
			if (np < LT_TABLE_MAX_KEYS)
				t->pid_col[np++] = i;
		} else if (!strcmp(n, "comm") || !strcmp(n, "prev_comm") ||
			   !strcmp(n, "next_comm")) {
			if (nc < LT_TABLE_MAX_KEYS)
				t->comm_col[nc++] = i;
		} else if (!strcmp(n, "kind") && !strcmp(def->name,
							 "transitions")) {
			t->kind_col = i;
		}
	}
	t->next = run->tables;
	run->tables = t;
	return t;
}

const char *const *lt_run_table_names(void)
{
	static const char *names[24];
	size_t i;

	if (!names[0])
		for (i = 0; lt_table_defs[i] && i + 1 < ARRAY_SIZE(names); i++)
			names[i] = lt_table_defs[i]->name;
	return names;
}

struct lt_table *lt_run_table(struct lt_run *run, const char *name)
{
	const struct lt_table_def *def = NULL;
	struct lt_table *t;
	size_t i;

	/* an input error stays: it tells what every later table lacks */
	if (run->status == LT_RUN_USAGE)
		lt_run_ok(run);
	for (i = 0; lt_table_defs[i]; i++)
		if (!strcmp(lt_table_defs[i]->name, name))
			def = lt_table_defs[i];
	if (!def) {
		lt_run_fail(run, LT_RUN_USAGE, "no table '%s'", name);
		return NULL;
	}
	if (!run->opened) {
		/* a schema: the columns, no rows */
		t = table_new(run, def);
		if (!t)
			lt_run_fail(run, LT_RUN_NOMEM, "out of memory");
		else
			t->done = true;
		return t;
	}
	if (def->stream && run->feed &&
	    (!lt_rows_shares_pass(def) || run->stepped || run->fed_all)) {
		lt_run_fail(run, LT_RUN_USAGE,
			    "%s: with \"feed\", the transitions, requests and switches tables, asked for before the first event",
			    name);
		return NULL;
	}
	if (def->stream && run->stream_taken && !run->fed_all &&
	    !run->stepped && shares_pass(run, def)) {
		/* read in one pass with the others, by lt_run_next() */
		t = table_new(run, def);
		if (!t) {
			lt_run_fail(run, LT_RUN_NOMEM, "out of memory");
			return NULL;
		}
		run->stream[run->nr_stream++] = t;
		for (i = 0; i < run->nr_stream; i++)
			if (!strcmp(run->stream[i]->def->name, "switches"))
				run->switch_rows = run->stream[i];
		return t;
	}
	if (def->stream) {
		if (run->stream_taken || run->fed_all) {
			lt_run_fail(run, LT_RUN_USAGE,
				    "%s: the input was read already: a stream table needs a run of its own",
				    name);
			return NULL;
		}
		run->stream_taken = true;
	}
	t = table_new(run, def);
	if (!t) {
		lt_run_fail(run, LT_RUN_NOMEM, "out of memory");
		return NULL;
	}
	if (def->stream) {
		run->queue_for = t;
		run->stream[0] = t;
		run->nr_stream = 1;
		/* episodes are known at the end: the analysis keeps them */
		if (!strcmp(def->name, "episodes")) {
			run->an->on_episode = lt_rows_on_episode;
			run->an->episode_data = run;
			episodes_judge(run);
		}
		if (!strncmp(def->name, "preempt", 7)) {
			run->an->on_preempt = lt_rows_on_preempt;
			run->an->preempt_data = run;
		}
	} else if (lt_run_finish(run)) {
		t->done = true;
	}
	return t;
}

static void table_free(struct lt_table *t)
{
	free(t->cell);
	free(t->null);
	free(t->info);
	free(t);
}

void lt_run_reset(struct lt_run *run)
{
	struct lt_table *t, *next;
	size_t i;

	for (t = run->tables; t; t = next) {
		next = t->next;
		table_free(t);
	}
	run->tables = NULL;
	run->queue_for = NULL;
	run->nr_stream = 0;
	run->switch_rows = NULL;
	for (i = 0; i < run->q_cap; i++) {
		free(run->queue[i]->cell);
		free(run->queue[i]->null);
		free(run->queue[i]);
	}
	free(run->queue);
	run->queue = NULL;
	run->q_head = run->q_len = run->q_cap = 0;
	free(run->open_req);
	run->open_req = NULL;
	run->nr_open_req = run->open_req_cap = 0;
	free(run->order);
	run->order = NULL;
	run->nr_order = 0;
	free(run->pend);
	run->pend = NULL;
	run->nr_pend = run->pend_cap = 0;
	lt_analysis_free(run->an);
	lt_analysis_free(run->judge);
	lt_rows_pgroups_free(run);
	/* its threads, and a reader it replaced */
	src_free(&run->src);
	run->an = run->judge = NULL;
	run->ev = NULL;
	run->fed_all = run->stream_taken = run->nomem = false;
	run->stepped = false;
}

void lt_run_free(struct lt_run *run)
{
	if (!run)
		return;
	lt_run_reset(run);
	lt_reader_close(run->reader);
	/* after its reader: the session outlives what reads it */
	lt_tracefs_destroy(run->session);
	free(run->save);
	lt_int_set_free(&run->cpus);
	lt_int_set_free(&run->pids);
	free_comms(run);
	free(run->input);
	free(run->buffer);
	free(run);
}
