// SPDX-License-Identifier: GPL-2.0
/*
 * lazytrace report: every event as the kernel prints it, with the flags
 * decoded under the right ABI, so that it can be diffed line by line with
 * /sys/kernel/tracing/trace.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

struct report_opts {
	struct run_cli rc;	/* the input and its filters: the library's */
	bool latency;
	bool full;		/* -t: times in full nanoseconds */
	bool color;
};

static const char report_usage[] =
"usage: lazytrace report [FILE] [-l | -t] [--abi NAME] [--cpu LIST] [--pid LIST]\n"
"                        [--comm GLOBS] [--from T] [--to T] [-B BUFFER]\n"
"\n"
"Print every event as the kernel's own text output does, with the\n"
"need-resched letters of lazy preemption (B N L b n l p).\n"
"\n"
"  -i, --input FILE   trace.dat or kernel text ('-': standard input; default\n"
"                     trace.dat); a bare FILE argument is the same\n"
"  -l, --latency      latency format (as with the latency-format option)\n"
"  -t                 times in full nanoseconds (not with -l)\n"
"  --abi NAME         flag ABI: " LT_ABI_NAMES "\n"
"  --cpu LIST         only these CPUs (e.g. 0,2-3)\n"
"  --pid LIST         only events of these current pids\n"
"  --comm GLOBS       only events whose current task's name matches one\n"
"  --from T, --to T   time window, in the trace's seconds (e.g. 7.25, 7250ms;\n"
"                     a time printed with six decimals takes its microsecond)\n"
"  -B, --buffer NAME  trace.dat instance buffer (default: the one with events)\n"
JOBS_USAGE
"  --color[=WHEN]     colour the need-resched letter: auto (on a terminal,\n"
"                     the default), always, never\n";

/* The kernel rounds to the nearest microsecond: ns2usecs(). */
static uint64_t ns2usecs(uint64_t ns)
{
	return (ns + 500) / 1000;
}

/* trace_find_mark(): the delay marker of the latency format. */
static char delay_mark(uint64_t ns)
{
	static const struct { uint64_t val; char sym; } marks[] = {
		{ 1000000000ULL, '$' }, { 100000000ULL, '@' },
		{ 10000000ULL, '*' }, { 1000000ULL, '#' },
		{ 100000ULL, '!' }, { 10000ULL, '+' },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(marks); i++)
		if (ns > marks[i].val)
			return marks[i].sym;
	return ' ';
}

/*
 * Lines are made in a buffer of our own and go to stdout a block at a
 * time (a line at a time on a terminal): a stdio call per piece of a
 * line, each taking stdout's lock, was a fifth of report's time. What
 * printf writes (the unusual lines) goes after what is buffered.
 */
#define OUT_SIZE	(1 << 16)

static struct {
	char buf[OUT_SIZE];
	size_t len;
	bool each_line;
} out;

static void out_flush(void)
{
	if (out.len)
		fwrite(out.buf, 1, out.len, stdout);
	out.len = 0;
}

static void out_put(const char *s, size_t n)
{
	if (n > OUT_SIZE - out.len) {
		out_flush();
		if (n > OUT_SIZE) {
			fwrite(s, 1, n, stdout);
			return;
		}
	}
	memcpy(out.buf + out.len, s, n);
	out.len += n;
}

static void out_end_line(void)
{
	out_put("\n", 1);
	if (out.each_line || out.len > OUT_SIZE / 2)
		out_flush();
}

/*
 * Events the ring buffer lost on a CPU, on a line of their own before
 * that CPU's next event, as the kernel's print_trace_line() prints them.
 * Where the buffer says only that some were lost (a trace.dat page
 * without room for the count), trace-cmd report's words: no number.
 */
static void print_lost_marker(const struct lt_event *ev)
{
	out_flush();
	if (ev->missed == LT_MISSED_UNKNOWN)
		printf("CPU:%d [EVENTS DROPPED]\n", ev->cpu);
	else
		printf("CPU:%d [LOST %llu EVENTS]\n", ev->cpu,
		       (unsigned long long)ev->missed);
}

/*
 * One event kept for printing: what its line shows, with copies of the
 * reader's strings (not the event itself: its union is a kilobyte).
 */
struct line {
	uint64_t ts;
	int cpu;
	int pid;
	bool named;		/* "name: " before the payload */
	char comm[LT_COMM_LEN];
	size_t comm_len;
	char name[64];
	size_t name_len;
	char lat[6];
	char *payload;
	size_t len;
	size_t cap;
};

/*
 * Strings go out without printf: its format parsing is a hot spot here.
 * The payload goes out whole: a %c of 0 prints a NUL, as in the kernel's.
 */
static void print_payload(const struct line *l)
{
	if (l->named) {
		out_put(l->name, l->name_len);
		out_put(": ", 2);
	}
	out_put(l->payload, l->len);
	out_end_line();
}

/* The latency field, its need-resched letter coloured if asked. */
static const char *lat_field(const struct line *l, bool color, char *buf,
			     size_t len)
{
	const char *c = color ? color_resched(l->lat[1]) : "";

	if (!*c)
		return l->lat;
	snprintf(buf, len, "%c%s%c" COLOR_RESET "%s", l->lat[0], c, l->lat[1],
		 l->lat + 2);
	return buf;
}

static const char two_digits[201] =
	"00010203040506070809101112131415161718192021222324252627282930313233"
	"34353637383940414243444546474849505152535455565758596061626364656667"
	"6869707172737475767778798081828384858687888990919293949596979899";

/* Decimal digits of @v, right-aligned in @width, padded with @pad. */
static char *put_uint(char *p, unsigned long long v, int width, char pad)
{
	unsigned long long t;
	int n = 1;
	char *e;

	for (t = v; t >= 10; t /= 10)
		n++;
	for (; width > n; width--)
		*p++ = pad;
	e = p + n;
	for (p = e; v >= 10; v /= 100) {
		p -= 2;
		memcpy(p, two_digits + v % 100 * 2, 2);
	}
	if (p > e - n)
		*--p = '0' + v;
	return e;
}

/*
 * "%16s-%-7d [%03d] %s %5llu.%06llu: " without printf, which is a tenth
 * of report's time; printf does the unusual lines (negative numbers).
 */
static void print_default(const struct line *l, bool color, bool full)
{
	/* -t: nanoseconds, as trace-cmd report -t prints them */
	uint64_t t = full ? l->ts : ns2usecs(l->ts);
	uint64_t unit = full ? 1000000000 : 1000000;
	int digits = full ? 9 : 6;
	const char *lat_s;
	char lat[32], buf[160], *p = buf;
	size_t n = l->comm_len;

	lat_s = lat_field(l, color, lat, sizeof(lat));
	if (l->pid < 0 || l->cpu < 0 || n > 64) {
		out_flush();
		printf("%16s-%-7d [%03d] %s %5llu.%0*llu: ", l->comm,
		       l->pid, l->cpu, lat_s,
		       (unsigned long long)(t / unit), digits,
		       (unsigned long long)(t % unit));
		print_payload(l);
		return;
	}
	while (n++ < 16)
		*p++ = ' ';
	memcpy(p, l->comm, l->comm_len);
	p += l->comm_len;
	*p++ = '-';
	n = p - buf;
	p = put_uint(p, l->pid, 0, ' ');
	while ((size_t)(p - buf) < n + 7)
		*p++ = ' ';
	*p++ = ' ';
	*p++ = '[';
	p = put_uint(p, l->cpu, 3, '0');
	*p++ = ']';
	*p++ = ' ';
	p = stpcpy(p, lat_s);
	*p++ = ' ';
	p = put_uint(p, t / unit, 5, ' ');
	*p++ = '.';
	p = put_uint(p, t % unit, digits, '0');
	*p++ = ':';
	*p++ = ' ';
	out_put(buf, p - buf);
	print_payload(l);
}

/*
 * lat_print_generic() and lat_print_timestamp(), verbose off:
 * "%8.8s-%-7d %3d%s %4lluus%c: " by hand, printf for unusual lines.
 */
static void print_latency(const struct line *l, uint64_t base, uint64_t next,
			  bool color)
{
	uint64_t rel = ns2usecs(next - l->ts);
	uint64_t us = ns2usecs(l->ts - base);
	char lat[32], buf[160], *p = buf, *pid;
	const char *lat_s = lat_field(l, color, lat, sizeof(lat));
	size_t len = l->comm_len < 8 ? l->comm_len : 8, n = len;

	if (l->pid < 0 || l->cpu < 0 || strlen(lat_s) > 64) {
		out_flush();
		printf("%8.8s-%-7d %3d%s %4lluus%c: ", l->comm, l->pid,
		       l->cpu, lat_s, (unsigned long long)us,
		       delay_mark(rel * 1000));
		print_payload(l);
		return;
	}
	while (n++ < 8)
		*p++ = ' ';
	memcpy(p, l->comm, len);
	p += len;
	*p++ = '-';
	pid = p;
	p = put_uint(p, l->pid, 0, ' ');
	while (p - pid < 7)
		*p++ = ' ';
	*p++ = ' ';
	p = put_uint(p, l->cpu, 3, ' ');
	p = stpcpy(p, lat_s);
	*p++ = ' ';
	p = put_uint(p, us, 4, ' ');
	*p++ = 'u';
	*p++ = 's';
	*p++ = delay_mark(rel * 1000);
	*p++ = ':';
	*p++ = ' ';
	out_put(buf, p - buf);
	print_payload(l);
}

/* snprintf(dst, size, "%s", src) without printf; returns the length. */
static size_t copy_str(char *dst, const char *src, size_t size)
{
	size_t n = strnlen(src, size - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
	return n;
}

/* lt_flags_latency() of the run's ABI, remembered by flags and count */
#define LAT_MEMO	256

struct lat_memo {
	unsigned int flags, preempt_count;
	bool set;
	char lat[6];
};

static int keep_line(struct lt_run *run, struct lt_reader *r,
		     struct line *l, const struct lt_event *ev, enum lt_abi abi,
		     struct lat_memo *memo)
{
	struct lat_memo *m;
	size_t need;

	l->ts = ev->ts;
	l->cpu = ev->cpu;
	l->pid = ev->pid;
	l->named = lt_event_named(ev);
	l->comm_len = copy_str(l->comm, ev->comm ? ev->comm : "<...>",
			       sizeof(l->comm));
	l->name_len = copy_str(l->name, ev->name, sizeof(l->name));
	m = &memo[(ev->flags ^ ev->preempt_count << 3) % LAT_MEMO];
	if (!m->set || m->flags != ev->flags ||
	    m->preempt_count != ev->preempt_count) {
		lt_flags_latency(abi, ev->flags, ev->preempt_count, m->lat);
		m->flags = ev->flags;
		m->preempt_count = ev->preempt_count;
		m->set = true;
	}
	memcpy(l->lat, m->lat, sizeof(l->lat));
	/* asked per line: the kernel's text shows it with its first event */
	if (lt_run_flag_columns(run) == 4)
		l->lat[4] = '\0';
	need = lt_event_payload(r, ev, l->payload, l->cap);
	if (need >= l->cap) {
		char *p = realloc(l->payload, need + 1);

		if (!p)
			return -1;
		l->payload = p;
		l->cap = need + 1;
		lt_event_payload(r, ev, l->payload, l->cap);
	}
	l->len = need;
	return 0;
}

static int report(struct report_opts *o)
{
	struct lt_run *run = o->rc.run;
	/* events from the run; payloads and progress from its reader */
	struct lt_reader *r = lt_run_reader(run);
	const char *name = input_name(o->rc.input);
	enum lt_abi abi = lt_run_abi(run, NULL);
	const struct lt_event *ev;
	struct line cur = { 0 };
	struct lat_memo lat_memo[LAT_MEMO] = { { 0 } };
	unsigned long long seen = 0, shown = 0;
	struct progress pg;
	uint64_t base = 0;
	bool have = false;
	int ret = EXIT_OK;

	/* Lines go to a pipe or file in big blocks; a terminal sees each. */
	if (!isatty(STDOUT_FILENO))
		setvbuf(stdout, NULL, _IOFBF, 1 << 16);
	else
		out.each_line = true;
	progress_start(&pg, r, name);

	/*
	 * The latency format's delay marker needs the next event's time,
	 * so each line is printed one event late.
	 */
	while ((ev = lt_run_next_event(run))) {
		progress_tick(&pg);
		if (o->latency) {
			base = lt_run_first_ts(run);
			if (have)
				print_latency(&cur, base, ev->ts, o->color);
		}
		have = false;
		seen++;
		/* the loss is the CPU's, whichever task's event follows it */
		if (ev->missed && lt_run_event_selected(run, ev, false))
			print_lost_marker(ev);
		if (!lt_run_event_selected(run, ev, true))
			continue;
		shown++;
		if (keep_line(run, r, &cur, ev, abi, lat_memo)) {
			warn("out of memory");
			break;
		}
		if (o->latency)
			have = true;
		else
			print_default(&cur, o->color, o->full);
	}
	progress_end(&pg);
	if (have)
		print_latency(&cur, base, cur.ts, o->color);
	out_flush();
	fflush(stdout);
	if (lt_run_error(run)) {
		warn("%s", lt_run_error(run));
		ret = EXIT_BAD;
	}
	if (ret == EXIT_OK && !seen)
		ret = nothing_found("%s: no events", name);
	else if (ret == EXIT_OK && !shown)
		ret = nothing_found("%s: no event matches the filters (%llu events)",
				    name, seen);
	free(cur.payload);
	return ret;
}

int cmd_report(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "buffer", required_argument, NULL, 'B' },
		{ "abi", required_argument, NULL, OPT_ABI },
		{ "jobs", required_argument, NULL, 'j' },
		{ "latency", no_argument, NULL, 'l' },
		{ "cpu", required_argument, NULL, OPT_CPU },
		{ "pid", required_argument, NULL, OPT_PID },
		{ "comm", required_argument, NULL, OPT_COMM },
		{ "from", required_argument, NULL, OPT_FROM },
		{ "to", required_argument, NULL, OPT_TO },
		{ "color", optional_argument, NULL, OPT_COLOR },
		{ "colour", optional_argument, NULL, OPT_COLOR },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct report_opts o = { 0 };
	unsigned long long given = 0;
	const char *color = "auto";
	int c, ret;

	run_cli_init(&o.rc);
	/* the kernel's graph: a call with nothing inside is one line */
	run_set(&o.rc, "graph-leaves", "1");
	while ((c = getopt_long(argc, argv, RUN_SHORT_OPTS "lh", longopts,
				NULL)) != -1) {
		if (run_opt(&o.rc, c, optarg))
			continue;
		switch (c) {
		case 'l':
			o.latency = true;
			break;
		case OPT_COLOR:
			opt_once(&given, 0, "color");
			color = optarg ? optarg : "always";
			break;
		case 'h':
			fputs(report_usage, stdout);
			lt_run_free(o.rc.run);
			return EXIT_OK;
		default:
			usage_fail();
		}
	}
	o.full = o.rc.write_flags & LT_WRITE_FULL_NS;
	if (o.full && o.latency)
		die_usage("-t is for the default format: -l prints times relative to the first event, in us");
	if (color_parse(color, stdout, &o.color))
		die_usage("--color takes auto, always or never, not '%s'",
			  color);
	run_cli_open(&o.rc, argc, argv);
	ret = report(&o);
	lt_run_free(o.rc.run);
	return ret;
}
