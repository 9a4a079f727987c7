// SPDX-License-Identifier: GPL-2.0
/*
 * lazytrace export --perfetto FILE: Chrome trace-event JSON that the
 * Perfetto UI (and chrome://tracing) opens. One track per CPU with the
 * tasks running on it; one track per task with its pending requests as
 * slices named by state (lazy, upgraded, eager); instant events for
 * upgrades (with their source) and folds; a tick-upgrade carries the
 * kernel stack the tick took, where the trace has one. Written as the
 * trace is read.
 *
 * export --sqlite, --ndjson and --csv (the library's tables of many
 * traces) are export-tables.c's; their options are parsed here.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "export.h"
#include "output-json.h"
#include "private.h"

static const char export_usage[] =
"usage: lazytrace export --perfetto FILE [-i FILE] [--abi NAME] [-B BUFFER]\n"
"                        [--cpu LIST] [--from T] [--to T] [--hz N] [--tick T]\n"
"                        [--no-addresses] [--world-readable]\n"
"       lazytrace export --sqlite FILE [options] [TRACE...]\n"
"       lazytrace export --ndjson DIR | --csv DIR [options] [TRACE...]\n"
"\n"
"Write Chrome trace-event JSON (open it in https://ui.perfetto.dev):\n"
"a track per CPU with the running tasks, a track per task with its\n"
"pending need-resched requests (lazy, upgraded, eager) as slices, and\n"
"instant events for upgrades (args.source: tick, hrtick, timer, irq,\n"
"direct) and folds. FILE '-' is stdout. A tick-upgrade also carries the\n"
"kernel stack taken in its tick (record's stacktrace trigger) as args\n"
"{site, stack}, innermost frame first; a frame the trace has no symbol\n"
"for is its address. FILE is made mode 0600 (owned by the user who ran\n"
"sudo), unless --no-addresses or --world-readable.\n"
"\n"
"  --perfetto FILE    output file\n"
"  -i, --input FILE   trace.dat or kernel text trace (default trace.dat);\n"
"                     a bare FILE argument is the same\n"
"  -B, --buffer NAME  trace.dat instance buffer\n"
"  --abi NAME         flag ABI: " LT_ABI_NAMES "\n"
"  --cpu LIST         only these CPUs (the trace is cut: as if recorded so)\n"
"  --from T, --to T   only this window (cut the same way; T: 7.25, 7250ms)\n"
"  -j, --jobs N       threads reading a trace.dat (as for the tables)\n"
"  --hz N             the kernel's tick rate, for a trace without tick events\n"
"  --tick T           force the tick length (e.g. 4ms) instead of the trace's\n"
"  --no-addresses     no kernel address in FILE: a frame without a symbol\n"
"                     is [unknown] (for a public bug report); FILE then\n"
"                     follows the umask\n"
"  --world-readable   FILE 0644 less the umask, not 0600\n"
"\n"
"otherData names the tick (tick_ns, null when unknown, and tick_source).\n"
"\n"
"--sqlite FILE writes the tables of every TRACE (lazytrace table --list)\n"
"into one SQLite database, made anew: each table with a first column\n"
"trace_id, and a table traces (trace_id, path and the meta table's\n"
"columns), indexed on trace_id, pid and comm (docs/sql.md). --ndjson DIR\n"
"and --csv DIR write DIR/TABLE.ndjson or .csv, each row led by a column\n"
"trace, the TRACE's path: many traces' files concatenate (DuckDB, Spark).\n"
"A TRACE that cannot be read is named and left out, whole; the others\n"
"are written and the exit status is 2. The outputs are private (0600)\n"
"unless --world-readable: stacks may hold kernel addresses.\n"
"\n"
"  TRACE..., -i TRACE the traces (default trace.dat; not '-': each is\n"
"                     read once per streamed table)\n"
"  --events           the events table too (every event, with its text:\n"
"                     by far the largest)\n"
"  --world-readable   the outputs 0644 less the umask, not 0600\n"
"  -B NAME            trace.dat instance buffer\n"
"  --abi NAME         flag ABI: " LT_ABI_NAMES "\n"
"  --cpu LIST         only these CPUs (the traces are cut: as if recorded so)\n"
"  --from T, --to T   only this window (cut the same way; T: 7.25, 7250ms)\n"
"  --pid LIST         only rows of these tasks\n"
"  --comm GLOBS       only rows of tasks whose name matches (e.g. 'kworker*')\n"
"  --hz N, --tick T   the tick when a trace has no tick events\n"
"  --episode-ticks X, --hog-episodes N, --hog-pending-ticks X\n"
"                     the hog rules (docs/model.md §7)\n";

enum {
	OPT_PERFETTO = OPT_PRIVATE + 0x80,
	OPT_NO_ADDRESSES,
	OPT_WORLD_READABLE,
	OPT_SQLITE,
	OPT_EXPORT_NDJSON,
	OPT_EXPORT_CSV,
	OPT_EVENTS,
};

/* Tracks of the CPUs live in a process of their own, out of pid range. */
#define CPU_PID 0x40000000

struct cpu_run {
	bool running;
	int pid;
	char comm[LT_COMM_LEN];
	uint64_t since;
	/* open request slices of the current task */
	uint64_t lazy, upgraded, eager;
	/* the kernel stack taken in the current timer interrupt */
	bool stack_slot;
	bool stack_hrtimer;	/* taken at an hrtimer's entry */
	struct stack_copy *stack;	/* or NULL */
};

/* A kernel_stack event's frames, kept for the tick-upgrade it may make. */
struct stack_copy {
	char site[256];
	bool truncated;
	unsigned int nr;
	char frame[][256];
};

struct exporter {
	bool no_addresses;	/* --no-addresses */
	FILE *fp;
	struct json j;
	struct cpu_run *cpus;
	int nr_cpus;
	unsigned char *named;	/* bitmap of pids that have a thread_name */
	size_t named_len;
	unsigned long long events;
	bool oom;
};

/* An event of the traceEvents array: ph, pid, tid, name. */
static void begin(struct exporter *x, const char *ph, int pid, int tid,
		  const char *name)
{
	json_begin_object(&x->j, NULL);
	json_str(&x->j, "ph", ph);
	json_int(&x->j, "pid", pid);
	json_int(&x->j, "tid", tid);
	json_str(&x->j, "name", name);
	x->events++;
}

static void meta(struct exporter *x, const char *what, int pid, int tid,
		 const char *name)
{
	begin(x, "M", pid, tid, what);
	json_uint(&x->j, "ts", 0);
	json_begin_object(&x->j, "args");
	json_str(&x->j, "name", name);
	json_end_object(&x->j);
	json_end_object(&x->j);
}

static void name_task(struct exporter *x, int pid, const char *comm)
{
	size_t byte = (size_t)pid / 8;
	char buf[LT_COMM_LEN + 16];

	if (pid <= 0)
		return;
	if (byte >= x->named_len) {
		size_t n = byte + 4096;
		unsigned char *nb = realloc(x->named, n);

		if (!nb) {
			x->oom = true;
			return;
		}
		memset(nb + x->named_len, 0, n - x->named_len);
		x->named = nb;
		x->named_len = n;
	}
	if (x->named[byte] & (1 << (pid % 8)))
		return;
	x->named[byte] |= 1 << (pid % 8);
	snprintf(buf, sizeof(buf), "%s %d", comm, pid);
	meta(x, "process_name", pid, pid, buf);
	meta(x, "thread_name", pid, pid, buf);
}

static void slice(struct exporter *x, int pid, int tid, const char *name,
		  const char *cat, uint64_t from, uint64_t to, const char *end)
{
	begin(x, "X", pid, tid, name);
	json_str(&x->j, "cat", cat);
	json_usec(&x->j, "ts", from);
	json_usec(&x->j, "dur", to > from ? to - from : 0);
	if (end) {
		json_begin_object(&x->j, "args");
		json_str(&x->j, "end", end);
		json_end_object(&x->j);
	}
	json_end_object(&x->j);
}

/*
 * A transition's instant; an upgrade's has args {source} and, for a
 * tick-upgrade with a stack, {site, stack (innermost first), truncated}.
 */
static void instant(struct exporter *x, int pid, const char *name, uint64_t ts,
		    const char *source, const struct stack_copy *st)
{
	unsigned int i;

	begin(x, "i", pid, pid, name);
	json_str(&x->j, "s", "t");
	json_str(&x->j, "cat", "transition");
	json_usec(&x->j, "ts", ts);
	if (source) {
		json_begin_object(&x->j, "args");
		json_str(&x->j, "source", source);
		if (st) {
			json_begin_array(&x->j, "stack");
			for (i = 0; i < st->nr; i++)
				json_str(&x->j, NULL, st->frame[i]);
			json_end_array(&x->j);
			json_str(&x->j, "site", st->site);
			json_bool(&x->j, "truncated", st->truncated);
		}
		json_end_object(&x->j);
	}
	json_end_object(&x->j);
}

/*
 * A frame that is an address, not a name ("0xffffffff81234567", or bare
 * hex from a text trace): lt_stack_frame() gives those where the trace
 * has no symbol.
 */
static bool frame_is_address(const char *f)
{
	size_t n;

	if (f[0] == '0' && (f[1] == 'x' || f[1] == 'X'))
		f += 2;
	for (n = 0; isxdigit((unsigned char)f[n]); n++)
		;
	return n >= 8 && !f[n];
}

/* The frames of a kernel_stack event, and its call site. */
static struct stack_copy *stack_copy(const struct exporter *x,
				     const struct lt_event *ev)
{
	struct stack_copy *st;
	unsigned int i;
	bool found = false;

	st = malloc(sizeof(*st) + ev->u.stack.nr * sizeof(st->frame[0]));
	if (!st)
		return NULL;
	st->nr = ev->u.stack.nr;
	st->truncated = ev->u.stack.truncated;
	snprintf(st->site, sizeof(st->site), "[unknown]");
	for (i = 0; i < st->nr; i++) {
		lt_stack_frame(ev, i, st->frame[i], sizeof(st->frame[i]), false);
		if (x->no_addresses && frame_is_address(st->frame[i]))
			snprintf(st->frame[i], sizeof(st->frame[i]), "[unknown]");
		if (!found && !lt_stack_frame_is_entry(st->frame[i])) {
			memcpy(st->site, st->frame[i], sizeof(st->site));
			found = true;
		}
	}
	return st;
}

static struct cpu_run *cpu_run(struct exporter *x, int cpu)
{
	char name[32];

	if (cpu < 0 || cpu >= 8192)
		return NULL;
	if (cpu >= x->nr_cpus) {
		struct cpu_run *n = realloc(x->cpus, (cpu + 1) * sizeof(*n));
		int i;

		if (!n) {
			x->oom = true;
			return NULL;
		}
		memset(n + x->nr_cpus, 0, (cpu + 1 - x->nr_cpus) * sizeof(*n));
		x->cpus = n;
		for (i = x->nr_cpus; i <= cpu; i++) {
			snprintf(name, sizeof(name), "CPU %d", i);
			meta(x, "thread_name", CPU_PID, CPU_PID + i, name);
		}
		x->nr_cpus = cpu + 1;
	}
	return &x->cpus[cpu];
}

/* Close the pending slices of the CPU's current task. */
static void close_requests(struct exporter *x, struct cpu_run *c, int pid,
			   uint64_t ts, const char *end)
{
	if (c->upgraded)
		slice(x, pid, pid, "upgraded", "request", c->upgraded, ts, end);
	else if (c->lazy)
		slice(x, pid, pid, "lazy", "request", c->lazy, ts, end);
	if (c->eager)
		slice(x, pid, pid, "eager", "request", c->eager, ts, end);
	c->lazy = c->upgraded = c->eager = 0;
}

static void on_transition(const struct lt_transition *t, void *data)
{
	struct exporter *x = data;
	struct cpu_run *c = cpu_run(x, t->cpu);

	if (!c || t->pid == 0)
		return;
	name_task(x, t->pid, t->comm);
	switch (t->kind) {
	case LT_TR_LAZY:
		c->lazy = t->seen_ns;
		break;
	case LT_TR_EAGER:
		c->eager = t->seen_ns;
		break;
	case LT_TR_UPGRADE:
	case LT_TR_TICK_UPGRADE:
		if (c->lazy)
			slice(x, t->pid, t->pid, "lazy", "request", c->lazy,
			      t->seen_ns, lt_transition_name(t->kind));
		c->lazy = 0;
		c->upgraded = t->seen_ns;
		/* every upgrade, with what made it and, from a tick, its stack */
		instant(x, t->pid, lt_transition_name(t->kind), t->seen_ns,
			lt_upgrade_source_name(t->source),
			t->kind == LT_TR_TICK_UPGRADE ? c->stack : NULL);
		break;
	case LT_TR_FOLD:
		instant(x, t->pid, "fold", t->seen_ns, NULL, NULL);
		break;
	default:
		close_requests(x, c, t->pid, t->seen_ns,
			       lt_transition_name(t->kind));
		break;
	}
}

static void run_slice(struct exporter *x, int cpu, struct cpu_run *c,
		      uint64_t ts)
{
	char name[LT_COMM_LEN + 16];

	if (!c->running || !c->pid)
		return;
	snprintf(name, sizeof(name), "%s %d", c->comm, c->pid);
	slice(x, CPU_PID, CPU_PID + cpu, name, "running", c->since, ts, NULL);
}

/*
 * The stack a tick took: a kernel_stack right after the timer interrupt's
 * entry (or the tick's hrtimer), kept until the interrupt ends, for the
 * tick-upgrade it may make.
 */
static void on_stack(const struct exporter *x, struct cpu_run *c,
		     const struct lt_event *ev)
{
	switch (ev->kind) {
	case LT_EV_KERNEL_STACK:
		if (c->stack_slot) {
			free(c->stack);
			c->stack = stack_copy(x, ev);
		}
		break;
	case LT_EV_HRTIMER_EXPIRE_EXIT:
		if (!c->stack_hrtimer)
			break;
		/* fall through */
	case LT_EV_LOCAL_TIMER_EXIT:
	case LT_EV_SCHED_SWITCH:
		free(c->stack);
		c->stack = NULL;
		break;
	default:
		break;
	}
	if (ev->kind != LT_EV_KERNEL_STACK) {
		c->stack_slot = ev->kind == LT_EV_LOCAL_TIMER_ENTRY ||
				ev->kind == LT_EV_HRTIMER_EXPIRE_ENTRY;
		c->stack_hrtimer = ev->kind == LT_EV_HRTIMER_EXPIRE_ENTRY;
	}
}

/* The CPU tracks: who runs where, from sched_switch. */
static void on_event(struct exporter *x, const struct lt_event *ev)
{
	struct cpu_run *c = cpu_run(x, ev->cpu);
	const char *comm = ev->comm ? ev->comm : "<...>";

	if (!c)
		return;
	if (ev->missed) {
		c->running = false;
		c->lazy = c->upgraded = c->eager = 0;
	}
	if (!c->running || c->pid != ev->pid) {
		run_slice(x, ev->cpu, c, ev->ts);
		c->running = true;
		c->pid = ev->pid;
		snprintf(c->comm, sizeof(c->comm), "%s", comm);
		c->since = ev->ts;
	}
	on_stack(x, c, ev);
	if (ev->kind != LT_EV_SCHED_SWITCH)
		return;
	snprintf(c->comm, sizeof(c->comm), "%s", ev->u.sched_switch.prev_comm);
	run_slice(x, ev->cpu, c, ev->ts);
	c->pid = ev->u.sched_switch.next_pid;
	snprintf(c->comm, sizeof(c->comm), "%s", ev->u.sched_switch.next_comm);
	c->since = ev->ts;
	if (c->pid)
		name_task(x, c->pid, c->comm);
}

static int export(struct run_cli *rc, const char *out,
		  const struct lt_analysis_opts *tick, bool no_addresses,
		  bool world_readable)
{
	struct exporter x = { .no_addresses = no_addresses };
	struct lt_analysis_opts lo = { .tick_ns = tick->tick_ns,
				       .hz = tick->hz,
				       .on_transition = on_transition,
				       .data = &x };
	struct lt_reader *r = lt_run_reader(rc->run);
	const struct lt_event *ev;
	struct lt_analysis *a;
	uint64_t last = 0;
	int status, i, bad, fd;
	char *tmp = NULL;

	if (strcmp(out, "-")) {
		/* stacks may carry addresses: private unless stripped */
		fd = private_create(out, world_readable || no_addresses, &tmp);
		x.fp = fd >= 0 ? fdopen(fd, "w") : NULL;
		if (!x.fp && fd >= 0)
			close(fd);
	} else {
		x.fp = stdout;
	}
	if (!x.fp) {
		int err = errno;

		private_abort(tmp);
		lt_run_free(rc->run);
		die("cannot write '%s': %s", out, strerror(err));
	}
	/* the run's: --abi, else detected */
	lo.abi = lt_reader_abi(r, NULL);
	a = lt_analysis_new(&lo);
	if (!a)
		die("out of memory");
	json_init(&x.j, x.fp, false);
	json_begin_object(&x.j, NULL);
	json_str(&x.j, "displayTimeUnit", "ns");
	json_begin_array(&x.j, "traceEvents");
	meta(&x, "process_name", CPU_PID, CPU_PID, "CPUs");
	while ((ev = lt_reader_next(r))) {
		/* the cut (--cpu, --from, --to): as if recorded so */
		if (!lt_run_event_selected(rc->run, ev, false))
			continue;
		if (lt_analysis_feed(a, ev)) {
			x.oom = true;
			break;
		}
		on_event(&x, ev);
		last = ev->ts;
	}
	status = input_finish(r);
	lt_analysis_finish(a);
	for (i = 0; i < x.nr_cpus; i++) {
		run_slice(&x, i, &x.cpus[i], last);
		free(x.cpus[i].stack);
	}
	json_end_array(&x.j);
	json_begin_object(&x.j, "otherData");
	json_str(&x.j, "lazytrace_version", LT_VERSION_STRING);
	json_str(&x.j, "abi", lt_abi_name(lt_analysis_summary(a)->abi));
	json_bool(&x.j, "lazy_preemption", lt_analysis_summary(a)->lazy_seen);
	json_tick_setup(&x.j, lt_analysis_summary(a));
	json_end_object(&x.j);
	json_end_object(&x.j);
	json_finish(&x.j);
	if (x.oom)
		warn("out of memory: some tasks have no name");
	bad = ferror(x.fp);
	bad |= x.fp == stdout ? fflush(x.fp) : fclose(x.fp);
	if (tmp && bad)
		private_abort(tmp);
	else if (tmp)
		bad = private_commit(tmp, out);
	if (bad) {
		warn("cannot write '%s': %s", out, strerror(errno));
		status = EXIT_BAD;
	}
	if (status == EXIT_OK && !lt_analysis_summary(a)->events)
		status = nothing_found("%s: no events", input_name(rc->input));
	lt_analysis_free(a);
	lt_run_free(rc->run);
	free(x.cpus);
	free(x.named);
	return status;
}

/* The long options: export's own, then the run's but its formats. */
static const struct option own_longopts[] = {
	{ "perfetto", required_argument, NULL, OPT_PERFETTO },
	{ "sqlite", required_argument, NULL, OPT_SQLITE },
	{ "ndjson", required_argument, NULL, OPT_EXPORT_NDJSON },
	{ "csv", required_argument, NULL, OPT_EXPORT_CSV },
	{ "events", no_argument, NULL, OPT_EVENTS },
	{ "no-addresses", no_argument, NULL, OPT_NO_ADDRESSES },
	{ "world-readable", no_argument, NULL, OPT_WORLD_READABLE },
	{ "help", no_argument, NULL, 'h' },
};
static const struct option run_longopts[] = { RUN_LONG_OPTS };

static struct option longopts[ARRAY_SIZE(own_longopts) +
			      ARRAY_SIZE(run_longopts) + 1];

static void make_longopts(void)
{
	size_t i, n = 0;

	for (i = 0; i < ARRAY_SIZE(own_longopts); i++)
		longopts[n++] = own_longopts[i];
	/* --csv and --ndjson name a directory here; --json has no use */
	for (i = 0; i < ARRAY_SIZE(run_longopts); i++)
		if (run_longopts[i].val != OPT_JSON &&
		    run_longopts[i].val != OPT_CSV &&
		    run_longopts[i].val != OPT_NDJSON)
			longopts[n++] = run_longopts[i];
}

static const char *option_name(int c)
{
	size_t i;

	for (i = 0; longopts[i].name; i++)
		if (longopts[i].val == c)
			return longopts[i].name;
	return "?";
}

/*
 * --perfetto: the run's input and cut, read event by event; the tracks
 * are every task's (Perfetto's UI selects tasks), so --pid and --comm
 * are refused, as are the table options.
 */
static int perfetto(const char *out, const struct export_opt *opts, int nr,
		    bool no_addresses, bool world_readable, int argc,
		    char **argv)
{
	struct lt_analysis_opts tick = { 0 };
	struct run_cli rc;
	int64_t ns;
	int i, c;

	run_cli_init(&rc);
	for (i = 0; i < nr; i++) {
		const char *arg = opts[i].arg;

		c = opts[i].c;
		switch (c) {
		case OPT_HZ:
			tick.hz = parse_hz(arg);
			break;
		case OPT_RUN_TICK:
			ns = parse_time_ns(arg);
			if (ns <= 0)
				die_usage("bad --tick '%s'", arg);
			tick.tick_ns = ns;
			break;
		case OPT_EVENTS:
			die_usage("--events is for --sqlite, --ndjson and --csv");
		case OPT_PID:
		case OPT_COMM:
			die_usage("--%s is not for --perfetto: it cuts by --cpu, --from and --to; Perfetto's UI selects tasks",
				  option_name(c));
		case 'i': case 'B': case OPT_ABI: case OPT_CPU: case OPT_FROM:
		case OPT_TO: case 'j':
			break;
		default:
			die_usage("--%s is not for --perfetto", option_name(c));
		}
		run_opt(&rc, c, arg);
	}
	if (!out)
		die_usage("--perfetto FILE, --sqlite FILE, --ndjson DIR or --csv DIR is required");
	run_cli_open(&rc, argc, argv);
	return export(&rc, out, &tick, no_addresses, world_readable);
}

/* The tables: check the run options once, then export every trace. */
static int tables(struct export_request *req, const struct export_opt *opts,
		  int nr, bool no_addresses, int argc, char **argv)
{
	/* static: still referenced when a usage error exits below */
	static const char **files;
	struct run_cli rc;
	int i, nr_files = 0, ret;

	files = calloc(nr + argc + 1, sizeof(*files));
	if (!files)
		die("out of memory");
	if (no_addresses)
		die_usage("--no-addresses is for --perfetto");
	if (!strcmp(req->out, "-"))
		die_usage("--%s writes %s, not standard output",
			  req->mode == EXPORT_SQLITE ? "sqlite" :
			  req->mode == EXPORT_CSV ? "csv" : "ndjson",
			  req->mode == EXPORT_SQLITE ? "a file" :
			  "a directory");
	run_cli_init(&rc);
	for (i = 0; i < nr; i++) {
		if (opts[i].c == 'i') {
			files[nr_files++] = opts[i].arg;
			continue;
		}
		if (opts[i].c == OPT_EVENTS) {
			req->events = true;
			continue;
		}
		/* exits on a bad value or an option given twice */
		if (!run_opt(&rc, opts[i].c, opts[i].arg))
			die_usage("--%s is not for the tables",
				  option_name(opts[i].c));
	}
	for (i = optind; i < argc; i++)
		files[nr_files++] = argv[i];
	if (!nr_files)
		files[nr_files++] = "trace.dat";
	for (i = 0; i < nr_files; i++)
		if (!strcmp(files[i], "-"))
			die_usage("standard input is read once, the tables need a pass each: save it to a file");
	req->files = files;
	req->nr_files = nr_files;
	req->rc = &rc;
	ret = export_tables(req);
	lt_run_free(rc.run);
	free(files);
	return ret;
}

int cmd_export(int argc, char **argv)
{
	static const char *const mode_names[] = {
		[EXPORT_SQLITE] = "--sqlite",
		[EXPORT_CSV] = "--csv",
		[EXPORT_NDJSON] = "--ndjson",
	};
	/* static: still referenced when a usage error exits below */
	static struct export_opt *opts;
	struct export_request req = { 0 };
	bool no_addresses = false, world_readable = false, table_mode = false;
	const char *out = NULL;
	int c, nr = 0, ret;

	make_longopts();
	/* the options are kept, in order, until the mode is known */
	opts = calloc(argc + 1, sizeof(*opts));
	if (!opts)
		die("out of memory");
	while ((c = getopt_long(argc, argv, INPUT_SHORT_OPTS "h", longopts,
				NULL)) != -1) {
		enum export_mode mode;

		switch (c) {
		case OPT_PERFETTO:
			if (table_mode)
				die_usage("%s and --perfetto: one output at a time",
					  mode_names[req.mode]);
			if (out)
				die_usage("--perfetto given twice");
			out = optarg;
			continue;
		case OPT_SQLITE:
			mode = EXPORT_SQLITE;
			break;
		case OPT_EXPORT_CSV:
			mode = EXPORT_CSV;
			break;
		case OPT_EXPORT_NDJSON:
			mode = EXPORT_NDJSON;
			break;
		case OPT_NO_ADDRESSES:
			no_addresses = true;
			continue;
		case OPT_WORLD_READABLE:
			world_readable = true;
			continue;
		case 'h':
			fputs(export_usage, stdout);
			free(opts);
			return EXIT_OK;
		case '?':
			usage_fail();
		default:
			opts[nr].c = c;
			opts[nr++].arg = optarg;
			continue;
		}
		if (table_mode && req.mode == mode)
			die_usage("%s given twice", mode_names[mode]);
		if (table_mode || out)
			die_usage("%s and %s: one output at a time",
				  out ? "--perfetto" : mode_names[req.mode],
				  mode_names[mode]);
		table_mode = true;
		req.mode = mode;
		req.out = optarg;
	}
	if (table_mode) {
		req.world_readable = world_readable;
		ret = tables(&req, opts, nr, no_addresses, argc, argv);
	} else {
		ret = perfetto(out, opts, nr, no_addresses, world_readable,
			       argc, argv);
	}
	free(opts);
	return ret;
}
