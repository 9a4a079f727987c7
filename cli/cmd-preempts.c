// SPDX-License-Identifier: GPL-2.0
/*
 * lazytrace preempts: every involuntary preemption (R+ switch), where the
 * task was, what forced it and what it cost, one per row or grouped. The
 * library's preempts and preempt_groups tables; this only picks one and
 * lays it out.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char preempts_usage[] =
"usage: lazytrace preempts [FILE] [options] [--by task|place|cause|site|stack]\n"
"                          [--folded[=preemptions|off_cpu]]\n"
"\n"
"Every involuntary preemption (a switch out as R+): the task, where it was\n"
"(user, syscall, page_fault, irq, softirq, kthread, kernel or unknown, from\n"
"a stack at the switch or the tick, else the system call events, else the\n"
"flags), what forced it (a lazy request's upgrade: tick, hrtick, timer,\n"
"irq, direct; an eager request: eager, or ipi when a reschedule IPI\n"
"delivered it), how long the request waited, the preempted code's site,\n"
"and the cost: how long the task stayed off its CPU while runnable and\n"
"how many tasks ran there before it ran again (docs/model.md §9). A row is\n"
"made when the task runs again; those still waiting at the end come last\n"
"with their cost unknown. record --stacks=preempt takes a stack at each.\n"
"\n"
RUN_USAGE
"  --by G             count them by task, place, cause, site or stack\n"
"  --folded[=W]       folded stacks for flame graphs (flamegraph.pl):\n"
"                     comm;place;frames, root first, weighted by\n"
"                     preemptions (default) or off-CPU time in ns\n";

enum { OPT_BY = OPT_PRIVATE, OPT_FOLDED };

static int col(struct lt_table *t, const char *name)
{
	int c = lt_table_column(t, name);

	if (c < 0)
		die("no column '%s' in table %s", name, lt_table_name(t));
	return c;
}

static const char *str_or(struct lt_table *t, int c, const char *none)
{
	return lt_table_null(t, c) ? none : lt_table_string(t, c);
}

static const char *dur_or(struct lt_table *t, int c, char *buf, size_t len)
{
	if (lt_table_null(t, c))
		return "-";
	return fmt_ns(buf, len, lt_table_uint(t, c));
}

/* Rows, in the order the tasks ran again. */
static long rows_text(struct lt_table *t, bool full_ns)
{
	int ts = col(t, "ts_ns"), cpu = col(t, "cpu"), pid = col(t, "pid");
	int comm = col(t, "comm"), place = col(t, "place");
	int scn = col(t, "syscall_name"), sc = col(t, "syscall");
	int cause = col(t, "cause"), waited = col(t, "waited_ns");
	int off = col(t, "off_cpu_ns"), others = col(t, "others_ran");
	int ipid = col(t, "instead_pid"), icomm = col(t, "instead_comm");
	int site = col(t, "site");
	char b[4][32], who[48], where[48];
	long n = 0;
	int ret;

	printf("%17s %4s %7s %-16s %-24s %-8s %10s %10s %6s %-22s %s\n",
	       "TIME", "CPU", "PID", "COMM", "PLACE", "CAUSE", "WAITED",
	       "OFF-CPU", "OTHERS", "INSTEAD", "SITE");
	while ((ret = lt_table_next(t)) > 0) {
		uint64_t v = lt_table_uint(t, ts);

		if (full_ns)
			snprintf(b[0], sizeof(b[0]), "%" PRIu64, v);
		else
			snprintf(b[0], sizeof(b[0]), "%" PRIu64 ".%06" PRIu64,
				 v / 1000000000, v % 1000000000 / 1000);
		if (!lt_table_null(t, scn))
			snprintf(where, sizeof(where), "%s:%s",
				 lt_table_string(t, place),
				 lt_table_string(t, scn));
		else if (!lt_table_null(t, sc))
			snprintf(where, sizeof(where), "%s:%" PRId64,
				 lt_table_string(t, place),
				 lt_table_int(t, sc));
		else
			snprintf(where, sizeof(where), "%s",
				 lt_table_string(t, place));
		snprintf(who, sizeof(who), "%s-%" PRId64,
			 lt_table_string(t, icomm), lt_table_int(t, ipid));
		snprintf(b[3], sizeof(b[3]), "%" PRIu64,
			 lt_table_uint(t, others));
		printf("%17s %4" PRId64 " %7" PRId64 " %-16.16s %-24.24s %-8s %10s %10s %6s %-22.22s %s\n",
		       b[0], lt_table_int(t, cpu), lt_table_int(t, pid),
		       lt_table_string(t, comm), where,
		       lt_table_string(t, cause),
		       dur_or(t, waited, b[1], sizeof(b[1])),
		       dur_or(t, off, b[2], sizeof(b[2])),
		       lt_table_null(t, others) ? "-" : b[3],
		       who, str_or(t, site, "-"));
		n++;
	}
	return ret < 0 ? -1 : n;
}

/* One grouping, the most preemptions first. */
static long groups_text(struct lt_table *t, const char *by)
{
	int pid = col(t, "pid"), comm = col(t, "comm"), key;
	int count = col(t, "preemptions"), cost = col(t, "with_cost");
	int off = col(t, "off_cpu_ns"), max = col(t, "off_cpu_max_ns");
	int waited = col(t, "waited_ns"), others = col(t, "others_ran");
	char b[3][32], name[64];
	long n = 0;
	int ret;

	key = !strcmp(by, "task") ? comm : col(t, by);
	printf("%11s %9s %12s %12s %12s %7s  %s\n", "PREEMPTIONS",
	       "WITH-COST", "OFF-CPU", "MAX-OFF-CPU", "WAITED", "OTHERS",
	       !strcmp(by, "stack") ? "TASK PLACE STACK" : by);
	while ((ret = lt_table_next(t)) > 0) {
		if (!strcmp(by, "task"))
			snprintf(name, sizeof(name), "%s-%" PRId64,
				 lt_table_string(t, comm),
				 lt_table_int(t, pid));
		printf("%11" PRIu64 " %9" PRIu64 " %12s %12s %12s %7" PRIu64 "  ",
		       lt_table_uint(t, count), lt_table_uint(t, cost),
		       fmt_ns(b[0], sizeof(b[0]), lt_table_uint(t, off)),
		       dur_or(t, max, b[1], sizeof(b[1])),
		       fmt_ns(b[2], sizeof(b[2]), lt_table_uint(t, waited)),
		       lt_table_uint(t, others));
		if (!strcmp(by, "task"))
			printf("%s\n", name);
		else if (!strcmp(by, "stack"))
			printf("%s-%" PRId64 " %s %s\n",
			       lt_table_string(t, comm), lt_table_int(t, pid),
			       lt_table_string(t, col(t, "place")),
			       str_or(t, key, "[no stack]"));
		else
			printf("%s\n", str_or(t, key, "[no stack]"));
		n += lt_table_uint(t, count);
	}
	return ret < 0 ? -1 : n;
}

/* Tracing frames say nothing about the preempted code. */
static bool tracing_frame(const char *f, size_t len)
{
	static const char *const pfx[] = {
		"trace_", "__trace", "ftrace", "perf_trace", "stack_trace",
		"event_trigger", "arch_stack_walk", "unwind_",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(pfx); i++)
		if (len >= strlen(pfx[i]) && !strncmp(f, pfx[i], strlen(pfx[i])))
			return true;
	return false;
}

static void folded_name(const char *s, size_t len)
{
	for (; len && *s; s++, len--)
		putchar(*s == ';' || *s == ' ' || *s == '\t' ? '_' : *s);
}

/* comm;place;outermost;...;innermost weight */
static long folded(struct lt_table *t, bool off_cpu)
{
	int comm = col(t, "comm"), place = col(t, "place");
	int stack = col(t, "stack"), count = col(t, "preemptions");
	int off = col(t, "off_cpu_ns");
	long n = 0;
	int ret;

	while ((ret = lt_table_next(t)) > 0) {
		const char *s = str_or(t, stack, ""), *end = s + strlen(s), *p;
		uint64_t w = lt_table_uint(t, off_cpu ? off : count);

		n += lt_table_uint(t, count);
		if (!w)
			continue;
		folded_name(lt_table_string(t, comm), SIZE_MAX);
		putchar(';');
		folded_name(lt_table_string(t, place), SIZE_MAX);
		/* the stack is innermost first: walk it from its end */
		while (end > s) {
			p = end;
			while (p > s && p[-1] != ';')
				p--;
			if (!tracing_frame(p, end - p)) {
				putchar(';');
				folded_name(p, end - p);
			}
			end = p > s ? p - 1 : s;
		}
		printf(" %" PRIu64 "\n", w);
	}
	return ret < 0 ? -1 : n;
}

int cmd_preempts(int argc, char **argv)
{
	static const struct option longopts[] = {
		RUN_LONG_OPTS,
		{ "by", required_argument, NULL, OPT_BY },
		{ "folded", optional_argument, NULL, OPT_FOLDED },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *by = NULL;
	bool fold = false, fold_off = false;
	struct lt_writer *w;
	struct lt_table *t;
	struct run_cli rc;
	long n;
	int c;

	run_cli_init(&rc);
	while ((c = getopt_long(argc, argv, RUN_SHORT_OPTS "h", longopts,
				NULL)) != -1) {
		if (run_opt(&rc, c, optarg))
			continue;
		switch (c) {
		case OPT_BY:
			by = optarg;
			run_set_once(&rc, "by", optarg);
			break;
		case OPT_FOLDED:
			if (fold)
				die_usage("--folded given twice");
			fold = true;
			if (optarg && !strcmp(optarg, "off_cpu"))
				fold_off = true;
			else if (optarg && strcmp(optarg, "preemptions"))
				die_usage("--folded takes preemptions or off_cpu, not '%s'",
					  optarg);
			break;
		case 'h':
			fputs(preempts_usage, stdout);
			lt_run_free(rc.run);
			return EXIT_OK;
		default:
			usage_fail();
		}
	}
	if (fold && (by || rc.format != LT_FORMAT_TEXT))
		die_usage("--folded goes alone, without --by, --json, --csv or --ndjson");
	if (fold)
		run_set(&rc, "by", "stack");
	run_cli_open(&rc, argc, argv);
	t = run_table(&rc, by || fold ? "preempt_groups" : "preempts");
	if (rc.format != LT_FORMAT_TEXT) {
		w = lt_writer_new(stdout, rc.format, rc.write_flags);
		if (!w)
			die("out of memory");
		n = lt_writer_table(w, t);
		if (lt_writer_end(w))
			warn("cannot write the output");
	} else if (fold) {
		n = folded(t, fold_off);
	} else if (by) {
		n = groups_text(t, by);
	} else {
		n = rows_text(t, rc.write_flags & LT_WRITE_FULL_NS);
	}
	if (lt_run_status(rc.run) != LT_RUN_OK || n < 0)
		return run_cli_end(&rc);
	c = run_cli_end(&rc);
	if (c == EXIT_OK && !n)
		return nothing_found("no preemptions: no task was switched out as R+");
	return c;
}
