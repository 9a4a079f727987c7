// SPDX-License-Identifier: GPL-2.0
/*
 * lazytrace report: every event as the kernel prints it, with the flags
 * decoded under the right ABI, so that it can be diffed line by line with
 * /sys/kernel/tracing/trace.
 */
#include <getopt.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "output-report.h"

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

/* Where a line's text is made: a buffer that grows to the longest. */
struct text_buf {
	struct line_text *t;
	size_t room;
};

/* @ev's text into @b, grown as needed; NULL if out of memory. */
static struct line_text *make_text(struct line_maker *m, struct text_buf *b,
				   const struct lt_event *ev, bool lost,
				   bool shown)
{
	size_t need;
	void *p;

	while ((need = line_make(m, ev, lost, shown, b->t, b->room)) > b->room) {
		p = realloc(b->t, sizeof(*b->t) + need);
		if (!p)
			return NULL;
		b->t = p;
		b->room = need;
	}
	return b->t;
}

/* The lines are out: the input's error, or a word on finding nothing. */
static int report_end(struct report_opts *o, int ret, const char *err,
		      unsigned long long seen, unsigned long long shown)
{
	const char *name = input_name(o->rc.input);

	if (err) {
		warn("%s", err);
		ret = EXIT_BAD;
	}
	if (ret == EXIT_OK && !seen)
		ret = nothing_found("%s: no events", name);
	else if (ret == EXIT_OK && !shown)
		ret = nothing_found("%s: no event matches the filters (%llu events)",
				    name, seen);
	return ret;
}

/*
 * @run's lines into @out, the first @skip (written already) only
 * counted, with its events seen and shown; -1 if out of memory.
 */
static int report_lines(struct report_opts *o, struct lt_run *run,
			struct line_out *out, struct progress *pg,
			unsigned long long skip, unsigned long long *seen,
			unsigned long long *shown)
{
	struct text_buf b = { NULL, 0 };
	const struct lt_event *ev;
	struct line_maker m;
	struct line_text *t;
	bool lost, sel;
	int ret = 0;

	line_maker_init(&m, run, o->latency, o->full, o->color);
	while ((ev = lt_run_next_event(run))) {
		progress_tick(pg);
		(*seen)++;
		/* the loss is the CPU's, whichever task's event follows it */
		lost = ev->missed && lt_run_event_selected(run, ev, false);
		sel = lt_run_event_selected(run, ev, true);
		*shown += sel;
		/* the latency format's delay mark needs every event's time */
		if (!lost && !sel && !o->latency)
			continue;
		if (skip) {
			skip--;
			continue;
		}
		t = make_text(&m, &b, ev, lost, sel);
		if (!t || line_out(out, t)) {
			ret = -1;
			break;
		}
	}
	free(b.t);
	return ret;
}

static int report(struct report_opts *o)
{
	struct lt_run *run = o->rc.run;
	unsigned long long seen = 0, shown = 0;
	struct line_out out;
	struct progress pg;
	int ret = EXIT_OK;

	line_out_start(&out, o->latency);
	progress_start(&pg, lt_run_reader(run), input_name(o->rc.input));
	if (report_lines(o, run, &out, &pg, 0, &seen, &shown)) {
		warn("out of memory");
		ret = EXIT_BAD;
	}
	progress_end(&pg);
	line_out_end(&out);
	return report_end(o, ret, lt_run_error(run), seen, shown);
}

/*
 * -j N on a trace.dat: N runs of the file, each opened and read on a
 * thread of its own, reading its part (the run's "part": segments in
 * time, or CPUs) and making the text of its events; this thread merges
 * the texts as the reader merges CPUs (the earlier time first, then the
 * lower CPU) and writes them. The output is the same byte for byte. On a
 * terminal, which takes a line at a time, one thread does it all.
 */
#define PART_CHUNK	(1 << 20)
/*
 * Per part, in flight: room for the text of a whole segment in time
 * (a megabyte of the file makes about three of text), so that a part
 * goes on while the one before it is written.
 */
#define PART_CHUNKS	4

/*
 * Lines: their texts one after the other, and what line_out() needs.
 * A chunk the worker fills and one the writer reads do not share a cache
 * line (see struct part).
 */
struct chunk {
	char *text;
	size_t len, cap;
	struct line_text *t;
	size_t nr, t_cap;
} __attribute__((aligned(64)));

struct part {
	struct report_opts *o;
	int k, n;		/* part k of n */
	struct lt_run *run;	/* opened by the worker: the opens overlap */
	pthread_t tid;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	/* under the lock: ring[head] and the count - 1 after it are the writer's */
	struct chunk ring[PART_CHUNKS];
	int head, count;
	bool done;		/* no chunk will follow those in the ring */
	bool stop;		/* the writer needs no more */
	/* the worker's until it is joined */
	unsigned long long seen, shown;
	bool oom;
	/*
	 * The writer's, on a cache line of its own: it moves @pos at every
	 * line, and a line the worker writes too would bounce between their
	 * CPUs (report -j 2 took up to a fifth more CPU).
	 */
	size_t pos __attribute__((aligned(64)));	/* the line in ring[head] */
	bool held;		/* it holds ring[head]: no lock to read it */
};

/* Line @t, its text at @text, at the end of chunk @c; -1 if OOM. */
static int chunk_add(struct chunk *c, const struct line_text *t,
		     const char *text)
{
	size_t n = t->lost_len + t->len, cap;
	void *p;

	if (c->len + n > c->cap) {
		cap = c->len + n > PART_CHUNK ? c->len + n : PART_CHUNK;
		p = realloc(c->text, cap);
		if (!p)
			return -1;
		c->text = p;
		c->cap = cap;
	}
	if (c->nr == c->t_cap) {
		cap = c->t_cap ? 2 * c->t_cap : 4096;
		p = realloc(c->t, cap * sizeof(*c->t));
		if (!p)
			return -1;
		c->t = p;
		c->t_cap = cap;
	}
	memcpy(c->text + c->len, text, n);
	c->t[c->nr] = *t;
	c->t[c->nr++].off = c->len;
	c->len += n;
	return 0;
}

/* Hand chunk @c over (@last: and the end); a free one, or NULL: stop. */
static struct chunk *part_publish(struct part *p, struct chunk *c, bool last)
{
	struct chunk *next = NULL;

	pthread_mutex_lock(&p->lock);
	if (c && c->nr)
		p->count++;
	p->done = last;
	pthread_cond_broadcast(&p->cond);
	while (!last && !p->stop && p->count == PART_CHUNKS)
		pthread_cond_wait(&p->cond, &p->lock);
	if (!last && !p->stop) {
		next = &p->ring[(p->head + p->count) % PART_CHUNKS];
		next->len = next->nr = 0;
	}
	pthread_mutex_unlock(&p->lock);
	return next;
}

static void *part_worker(void *arg)
{
	struct part *p = arg;
	struct report_opts *o = p->o;
	struct text_buf b = { NULL, 0 };
	struct line_maker m;
	const struct lt_event *ev;
	unsigned long long seen = 0, shown = 0;
	struct line_text *t;
	struct chunk *c;
	bool lost, sel;

	/* the first part is the run already open: one open less */
	p->run = p->k == 1 ? run_cli_as_part(&o->rc, p->k, p->n) :
		 run_cli_part(&o->rc, p->k, p->n);
	/* an input that fails here fails one reader too: the merge says */
	if (lt_run_error(p->run)) {
		part_publish(p, NULL, true);
		return NULL;
	}
	c = part_publish(p, NULL, false);
	line_maker_init(&m, p->run, o->latency, o->full, o->color);
	while (c && (ev = lt_run_next_event(p->run))) {
		seen++;
		lost = ev->missed && lt_run_event_selected(p->run, ev, false);
		sel = lt_run_event_selected(p->run, ev, true);
		shown += sel;
		if (!lost && !sel && !o->latency)
			continue;
		t = make_text(&m, &b, ev, lost, sel);
		if (t && c->nr &&
		    c->len + t->lost_len + t->len > PART_CHUNK) {
			c = part_publish(p, c, false);
			if (!c)
				break;
		}
		if (!t || chunk_add(c, t, (const char *)(t + 1))) {
			p->oom = true;
			break;
		}
	}
	p->seen = seen;
	p->shown = shown;
	part_publish(p, c, true);
	free(b.t);
	return NULL;
}

/* The part's next line, waiting for its worker; NULL at its end. */
static struct line_text *part_head(struct part *p)
{
	struct chunk *c = &p->ring[p->head];

	if (p->held && p->pos < c->nr)
		return &c->t[p->pos];
	pthread_mutex_lock(&p->lock);
	for (;;) {
		p->held = p->count;
		c = &p->ring[p->head];
		if (p->count && p->pos < c->nr)
			break;
		if (p->count) {
			/* read through: the worker's again */
			p->head = (p->head + 1) % PART_CHUNKS;
			p->count--;
			p->pos = 0;
			pthread_cond_broadcast(&p->cond);
			continue;
		}
		if (p->done) {
			pthread_mutex_unlock(&p->lock);
			return NULL;
		}
		pthread_cond_wait(&p->cond, &p->lock);
	}
	pthread_mutex_unlock(&p->lock);
	return &c->t[p->pos];
}

/* Threads for report: lt_run_parts() of -j on a trace.dat, no tty. */
static int parts_wanted(const struct report_opts *o)
{
	return isatty(STDOUT_FILENO) ? 1 : lt_run_parts(o->rc.run);
}

/* Whether line @a comes before @b in the reader's order. */
static bool before(const struct line_text *a, const struct line_text *b)
{
	return a->ts < b->ts || (a->ts == b->ts && a->cpu < b->cpu);
}

/*
 * How many of the lines from @p's head on come before @bound (NULL: the
 * chunk's rest): a part's lines are in order, so a bisection.
 */
static size_t run_before(struct part *p, const struct line_text *bound)
{
	struct chunk *c = &p->ring[p->head];
	size_t lo = p->pos, hi = c->nr, mid;

	if (!bound || before(&c->t[hi - 1], bound))
		return hi - p->pos;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (before(&c->t[mid], bound))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo - p->pos;
}

/*
 * Merge the parts' lines in time order and write them into @out: each
 * time the longest run of one part's lines that comes before the other
 * parts' heads, in one piece (parts in time make runs of a chunk).
 * @written counts the lines; *@failed when a part stopped on an error.
 */
static int merge_parts(struct part *parts, int n, struct line_out *out,
		       struct progress *pg, unsigned long long *written,
		       bool *failed)
{
	struct line_text **head = calloc(n, sizeof(*head)), *b = NULL, *bound;
	struct chunk *c;
	int i, best;
	size_t nr;

	if (!head)
		die("out of memory");
	for (i = 0; i < n; i++)
		head[i] = part_head(&parts[i]);
	for (;;) {
		best = -1;
		for (i = 0; i < n; i++) {
			if (head[i] && (best < 0 || before(head[i], b))) {
				best = i;
				b = head[i];
			}
			*failed |= !head[i] &&
				   (parts[i].oom || lt_run_error(parts[i].run));
		}
		if (best < 0 || *failed)
			break;
		bound = NULL;
		for (i = 0; i < n; i++)
			if (i != best && head[i] && (!bound || before(head[i], bound)))
				bound = head[i];
		nr = run_before(&parts[best], bound);
		progress_ticks(pg, nr);
		c = &parts[best].ring[parts[best].head];
		if (line_out_span(out, b, nr, c->text + b->off)) {
			free(head);
			return -1;
		}
		*written += nr;
		parts[best].pos += nr;
		head[best] = part_head(&parts[best]);
	}
	free(head);
	return 0;
}

static int report_parts(struct report_opts *o, int n)
{
	unsigned long long seen = 0, shown = 0, written = 0;
	const char *err = NULL;
	struct lt_run *again = NULL;
	struct line_out out;
	struct progress pg;
	struct part *parts;
	int i, k, started, ret = EXIT_OK;
	bool failed = false;

	/* aligned as its cache lines are meant to be */
	parts = aligned_alloc(_Alignof(struct part), n * sizeof(*parts));
	if (!parts)
		die("out of memory");
	memset(parts, 0, n * sizeof(*parts));
	for (i = 0; i < n; i++) {
		parts[i].o = o;
		parts[i].k = i + 1;
		parts[i].n = n;
		pthread_mutex_init(&parts[i].lock, NULL);
		pthread_cond_init(&parts[i].cond, NULL);
	}
	line_out_start(&out, o->latency);
	progress_start(&pg, lt_run_reader(o->rc.run), input_name(o->rc.input));
	for (started = 0; started < n; started++)
		if (pthread_create(&parts[started].tid, NULL, part_worker,
				   &parts[started]))
			break;
	if (started == n &&
	    merge_parts(parts, n, &out, &pg, &written, &failed))
		ret = EXIT_BAD;
	for (i = 0; i < n; i++) {
		pthread_mutex_lock(&parts[i].lock);
		parts[i].stop = true;
		pthread_cond_broadcast(&parts[i].cond);
		pthread_mutex_unlock(&parts[i].lock);
	}
	for (i = 0; i < started; i++)
		pthread_join(parts[i].tid, NULL);
	if (started < n)
		die("cannot start a thread");
	if (failed && ret == EXIT_OK) {
		/*
		 * A part stopped on an error: what is written is one
		 * reader's first lines; one reader writes the rest, up to
		 * where it stops, as -j 1 would.
		 */
		again = run_cli_rerun(&o->rc, o->rc.input);
		if (report_lines(o, again, &out, &pg, written, &seen, &shown))
			ret = EXIT_BAD;
		err = lt_run_error(again);
	} else {
		for (i = 0; i < n; i++) {
			seen += parts[i].seen;
			shown += parts[i].shown;
		}
	}
	if (ret != EXIT_OK)
		warn("out of memory");
	progress_end(&pg);
	line_out_end(&out);
	ret = report_end(o, ret, err, seen, shown);
	lt_run_free(again);
	for (i = 0; i < n; i++) {
		for (k = 0; k < PART_CHUNKS; k++) {
			free(parts[i].ring[k].text);
			free(parts[i].ring[k].t);
		}
		pthread_mutex_destroy(&parts[i].lock);
		pthread_cond_destroy(&parts[i].cond);
		if (parts[i].run != o->rc.run)
			lt_run_free(parts[i].run);
	}
	free(parts);
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
	int c, ret, jobs;

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
	jobs = parts_wanted(&o);
	ret = jobs > 1 ? report_parts(&o, jobs) : report(&o);
	lt_run_free(o.rc.run);
	return ret;
}
