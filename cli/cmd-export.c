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

/* The columns export reads, found by name once. */
struct cols {
	int ts, cpu, pid, comm, kind, source, site, stack, truncated;
};

struct switch_cols {
	int ts, cpu, prev_pid, prev_comm, next_pid, next_comm, since;
};

struct request_cols {
	int pid, comm, kind, seen, upgrade, source, served, end;
};

/* The task the last switch put on a CPU, for its run at the end. */
struct cpu_last {
	int pid;
	char comm[LT_COMM_LEN];
	uint64_t since;		/* 0: no switch seen */
};

struct exporter {
	bool no_addresses;	/* --no-addresses */
	FILE *fp;
	struct json j;
	struct lt_table *tr, *sw, *rq;
	struct cols c;
	struct switch_cols s;
	struct request_cols r;
	struct cpu_last *cpus;
	int nr_cpus;
	unsigned char *named;	/* bitmap of pids that have a thread_name */
	size_t named_len;
	bool oom;
};

static int col(struct lt_table *t, const char *name)
{
	int c = lt_table_column(t, name);

	if (c < 0)
		die("%s: no column %s", lt_table_name(t), name);
	return c;
}

/* An event of the traceEvents array: ph, pid, tid, name. */
static void begin(struct exporter *x, const char *ph, int pid, int tid,
		  const char *name)
{
	json_begin_object(&x->j, NULL);
	json_str(&x->j, "ph", ph);
	json_int(&x->j, "pid", pid);
	json_int(&x->j, "tid", tid);
	json_str(&x->j, "name", name);
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

/* A CPU's track, named with every CPU below it; NULL if out of range. */
static struct cpu_last *cpu_track(struct exporter *x, int cpu)
{
	char name[32];

	if (cpu < 0 || cpu >= 8192)
		return NULL;
	if (cpu >= x->nr_cpus) {
		struct cpu_last *n = realloc(x->cpus, (cpu + 1) * sizeof(*n));
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

static void run_slice(struct exporter *x, int cpu, int pid, const char *comm,
		      uint64_t from, uint64_t to)
{
	char name[LT_COMM_LEN + 16];

	if (!pid)
		return;
	snprintf(name, sizeof(name), "%s %d", comm, pid);
	slice(x, CPU_PID, CPU_PID + cpu, name, "running", from, to, NULL);
}

/*
 * A frame that is an address, not a name ("0xffffffff81234567", or bare
 * hex from a text trace): the library gives those where the trace has no
 * symbol.
 */
static bool frame_is_address(const char *f, size_t len)
{
	size_t n = 0;

	if (len > 2 && f[0] == '0' && (f[1] == 'x' || f[1] == 'X'))
		n = 2;
	if (len - n < 8)
		return false;
	for (; n < len; n++)
		if (!isxdigit((unsigned char)f[n]))
			return false;
	return true;
}

/* A frame, or [unknown] for an address when there must be none. */
static void frame(struct exporter *x, const char *f, size_t len)
{
	char buf[256];

	if (x->no_addresses && frame_is_address(f, len))
		snprintf(buf, sizeof(buf), "[unknown]");
	else
		snprintf(buf, sizeof(buf), "%.*s", (int)len, f);
	json_str(&x->j, NULL, buf);
}

/*
 * An upgrade or a fold: an instant on the task's track. An upgrade's has
 * args {source}; a tick-upgrade's also the stack the transitions table
 * gives it, {site, stack (innermost first), truncated}.
 */
static void on_transition(struct exporter *x)
{
	struct lt_table *t = x->tr;
	const struct cols *c = &x->c;
	const char *kind = lt_table_string(t, c->kind);
	const char *st, *end, *site;
	int pid = lt_table_int(t, c->pid);
	bool upgrade = !strcmp(kind, "upgrade") || !strcmp(kind, "tick-upgrade");

	if (!pid || !cpu_track(x, lt_table_int(t, c->cpu)))
		return;
	name_task(x, pid, lt_table_string(t, c->comm));
	if (!upgrade && strcmp(kind, "fold"))
		return;
	begin(x, "i", pid, pid, kind);
	json_str(&x->j, "s", "t");
	json_str(&x->j, "cat", "transition");
	json_usec(&x->j, "ts", lt_table_uint(t, c->ts));
	if (upgrade) {
		json_begin_object(&x->j, "args");
		json_str(&x->j, "source", lt_table_string(t, c->source));
		if (!lt_table_null(t, c->stack)) {
			json_begin_array(&x->j, "stack");
			for (st = lt_table_string(t, c->stack); *st; st = end) {
				end = st + strcspn(st, ";");
				frame(x, st, end - st);
				if (*end)
					end++;
			}
			json_end_array(&x->j);
			site = lt_table_string(t, c->site);
			if (x->no_addresses &&
			    frame_is_address(site, strlen(site)))
				site = "[unknown]";
			json_str(&x->j, "site", site);
			json_bool(&x->j, "truncated",
				  lt_table_int(t, c->truncated));
		}
		json_end_object(&x->j);
	}
	json_end_object(&x->j);
}

/*
 * A request's slices on its task's track, from the requests table: a
 * lazy one until its upgrade, then upgraded; an eager one whole. A fold
 * is an instant only.
 */
static void on_request(struct exporter *x)
{
	struct lt_table *t = x->rq;
	const struct request_cols *c = &x->r;
	const char *kind = lt_table_string(t, c->kind);
	const char *end = lt_table_string(t, c->end);
	int pid = lt_table_int(t, c->pid);
	uint64_t seen = lt_table_uint(t, c->seen);
	uint64_t served = lt_table_uint(t, c->served);
	uint64_t up = lt_table_uint(t, c->upgrade);

	if (!pid)
		return;
	name_task(x, pid, lt_table_string(t, c->comm));
	if (!strcmp(kind, "eager")) {
		slice(x, pid, pid, "eager", "request", seen, served, end);
	} else if (!strcmp(kind, "lazy") && lt_table_null(t, c->upgrade)) {
		slice(x, pid, pid, "lazy", "request", seen, served, end);
	} else if (!strcmp(kind, "lazy")) {
		slice(x, pid, pid, "lazy", "request", seen, up,
		      strcmp(lt_table_string(t, c->source), "tick") ?
		      "upgrade" : "tick-upgrade");
		slice(x, pid, pid, "upgraded", "request", up, served, end);
	}
}

/* A switch ends its prev's run on the CPU track, from the run's start. */
static void on_switch(struct exporter *x)
{
	struct lt_table *t = x->sw;
	const struct switch_cols *c = &x->s;
	struct cpu_last *cl = cpu_track(x, lt_table_int(t, c->cpu));
	uint64_t ts = lt_table_uint(t, c->ts);
	int next = lt_table_int(t, c->next_pid);

	if (!cl)
		return;
	if (!lt_table_null(t, c->since))
		run_slice(x, lt_table_int(t, c->cpu), lt_table_int(t, c->prev_pid),
			  lt_table_string(t, c->prev_comm),
			  lt_table_uint(t, c->since), ts);
	cl->pid = next;
	snprintf(cl->comm, sizeof(cl->comm), "%s", lt_table_string(t, c->next_comm));
	cl->since = ts;
	name_task(x, next, cl->comm);
}

static void find_columns(struct exporter *x)
{
	x->c = (struct cols){
		.ts = col(x->tr, "ts_ns"), .cpu = col(x->tr, "cpu"),
		.pid = col(x->tr, "pid"), .comm = col(x->tr, "comm"),
		.kind = col(x->tr, "kind"), .source = col(x->tr, "source"),
		.site = col(x->tr, "site"), .stack = col(x->tr, "stack"),
		.truncated = col(x->tr, "stack_truncated"),
	};
	x->s = (struct switch_cols){
		.ts = col(x->sw, "ts_ns"), .cpu = col(x->sw, "cpu"),
		.prev_pid = col(x->sw, "prev_pid"),
		.prev_comm = col(x->sw, "prev_comm"),
		.next_pid = col(x->sw, "next_pid"),
		.next_comm = col(x->sw, "next_comm"),
		.since = col(x->sw, "prev_since_ns"),
	};
	x->r = (struct request_cols){
		.pid = col(x->rq, "pid"), .comm = col(x->rq, "comm"),
		.kind = col(x->rq, "kind"), .seen = col(x->rq, "seen_ns"),
		.upgrade = col(x->rq, "upgrade_ns"),
		.source = col(x->rq, "upgrade_source"),
		.served = col(x->rq, "served_ns"), .end = col(x->rq, "end"),
	};
}

/* A string cell of the row of @t, found by name; NULL when null. */
static const char *cell(struct lt_table *t, const char *name)
{
	int c = col(t, name);

	return lt_table_null(t, c) ? NULL : lt_table_string(t, c);
}

/* otherData: the version, the ABI, the tick and the setup (meta, summary). */
static void other_data(struct exporter *x, struct lt_table *m,
		       struct lt_table *s)
{
	static const char *const setup[][2] = {
		{ "release", "kernel" }, { "preempt", "preempt" },
		{ "hz", "hz" }, { "sched_features", "sched_features" },
	};
	static const char *const sources[] = {
		"tick", "hrtick", "timer", "irq", "direct",
	};
	char name[64];
	const char *v;
	size_t i;

	json_begin_object(&x->j, "otherData");
	json_str(&x->j, "lazytrace_version", LT_VERSION_STRING);
	json_str(&x->j, "abi", cell(m, "abi"));
	json_bool(&x->j, "lazy_preemption",
		  lt_table_int(m, col(m, "lazy_preemption")));
	if (lt_table_null(m, col(m, "tick_ns")))
		json_null(&x->j, "tick_ns");
	else
		json_uint(&x->j, "tick_ns", lt_table_uint(m, col(m, "tick_ns")));
	json_str(&x->j, "tick_source", cell(m, "tick_source"));
	json_str(&x->j, "requests", cell(m, "requests"));
	json_begin_object(&x->j, "upgrades_by_source");
	for (i = 0; i < ARRAY_SIZE(sources); i++) {
		snprintf(name, sizeof(name), "upgrades_%s", sources[i]);
		json_uint(&x->j, sources[i], lt_table_uint(s, col(s, name)));
	}
	json_end_object(&x->j);
	json_begin_object(&x->j, "setup");
	for (i = 0; i < ARRAY_SIZE(setup); i++) {
		if (!strcmp(setup[i][0], "hz")) {
			if (!lt_table_null(m, col(m, "hz")))
				json_uint(&x->j, "hz",
					  lt_table_uint(m, col(m, "hz")));
			continue;
		}
		v = cell(m, setup[i][1]);
		if (v && *v)
			json_str(&x->j, setup[i][0], v);
	}
	json_end_object(&x->j);
	json_end_object(&x->j);
}

/*
 * The tracks, from three tables of one pass over the run's input: the
 * switches (who ran on each CPU), the requests (their slices) and the
 * transitions (upgrades with their stacks, folds). Rows come in the
 * order the input made them; memory grows with tasks and CPUs.
 */
static int export(struct run_cli *rc, const char *out, bool no_addresses,
		  bool world_readable)
{
	struct exporter x = { .no_addresses = no_addresses };
	struct lt_table *t, *m, *s;
	const char *err = NULL;
	char errbuf[512];
	int status = EXIT_OK, i, bad, fd;
	uint64_t last;
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
		int e = errno;

		private_abort(tmp);
		lt_run_free(rc->run);
		die("cannot write '%s': %s", out, strerror(e));
	}
	x.tr = run_table(rc, "transitions");
	x.rq = run_table(rc, "requests");
	x.sw = run_table(rc, "switches");
	find_columns(&x);
	json_init(&x.j, x.fp, false);
	json_begin_object(&x.j, NULL);
	json_str(&x.j, "displayTimeUnit", "ns");
	json_begin_array(&x.j, "traceEvents");
	meta(&x, "process_name", CPU_PID, CPU_PID, "CPUs");
	while ((t = lt_run_next(rc->run))) {
		if (t == x.tr)
			on_transition(&x);
		else if (t == x.rq)
			on_request(&x);
		else
			on_switch(&x);
	}
	/* an input or memory error still leaves what was read */
	if (lt_run_error(rc->run)) {
		snprintf(errbuf, sizeof(errbuf), "%s", lt_run_error(rc->run));
		err = errbuf;
	}
	m = run_table(rc, "meta");
	s = run_table(rc, "summary");
	if (lt_table_next(m) <= 0 || lt_table_next(s) <= 0)
		die("%s", lt_run_error(rc->run));
	/* the task each CPU's last switch put there ran to the end */
	last = lt_table_uint(m, col(m, "last_ns"));
	for (i = 0; i < x.nr_cpus; i++)
		if (x.cpus[i].since)
			run_slice(&x, i, x.cpus[i].pid, x.cpus[i].comm,
				  x.cpus[i].since, last);
	json_end_array(&x.j);
	other_data(&x, m, s);
	json_end_object(&x.j);
	json_finish(&x.j);
	if (err) {
		warn("%s", err);
		status = EXIT_BAD;
	}
	if (x.oom) {
		warn("out of memory: some tasks have no name");
		status = EXIT_BAD;
	}
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
	if (status == EXIT_OK && !lt_table_uint(m, col(m, "events")))
		status = nothing_found("%s: no events", input_name(rc->input));
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
 * --perfetto: the run's input and cut, its tables read in one pass; the tracks
 * are every task's (Perfetto's UI selects tasks), so --pid and --comm
 * are refused, as are the table options.
 */
static int perfetto(const char *out, const struct export_opt *opts, int nr,
		    bool no_addresses, bool world_readable, int argc,
		    char **argv)
{
	struct run_cli rc;
	int i, c;

	run_cli_init(&rc);
	for (i = 0; i < nr; i++) {
		const char *arg = opts[i].arg;

		c = opts[i].c;
		switch (c) {
		case OPT_EVENTS:
			die_usage("--events is for --sqlite, --ndjson and --csv");
		case OPT_PID:
		case OPT_COMM:
			die_usage("--%s is not for --perfetto: it cuts by --cpu, --from and --to; Perfetto's UI selects tasks",
				  option_name(c));
		case 'i': case 'B': case OPT_ABI: case OPT_CPU: case OPT_FROM:
		case OPT_TO: case 'j': case OPT_HZ: case OPT_RUN_TICK:
			break;
		default:
			die_usage("--%s is not for --perfetto", option_name(c));
		}
		run_opt(&rc, c, arg);
	}
	if (!out)
		die_usage("--perfetto FILE, --sqlite FILE, --ndjson DIR or --csv DIR is required");
	run_cli_open(&rc, argc, argv);
	return export(&rc, out, no_addresses, world_readable);
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
