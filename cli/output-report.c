// SPDX-License-Identifier: GPL-2.0
/*
 * report's lines: the kernel's line header (print_trace_fmt()'s, or the
 * latency format's lat_print_generic()), the event's name and payload,
 * made without printf (its format parsing was a tenth of report's time;
 * printf makes only the unusual lines, e.g. negative numbers), and
 * written to stdout a block at a time.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "output-report.h"

/* The longest header: a 31-byte comm, ten-digit numbers, a coloured field. */
#define HEAD_MAX	256
#define LOST_MAX	64

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

/* What a line's header shows of an event. */
struct line {
	uint64_t ts;
	int cpu;
	int pid;
	char comm[LT_COMM_LEN];
	size_t comm_len;
	char lat[6];
};

/* snprintf(dst, size, "%s", src) without printf; returns the length. */
static size_t copy_str(char *dst, const char *src, size_t size)
{
	size_t n = strnlen(src, size - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
	return n;
}

static void line_of(struct line_maker *m, struct line *l,
		    const struct lt_event *ev)
{
	struct lat_memo *lm;

	l->ts = ev->ts;
	l->cpu = ev->cpu;
	l->pid = ev->pid;
	l->comm_len = copy_str(l->comm, ev->comm ? ev->comm : "<...>",
			       sizeof(l->comm));
	lm = &m->memo[(ev->flags ^ ev->preempt_count << 3) % LAT_MEMO];
	if (!lm->set || lm->flags != ev->flags ||
	    lm->preempt_count != ev->preempt_count) {
		lt_flags_latency(m->abi, ev->flags, ev->preempt_count, lm->lat);
		lm->flags = ev->flags;
		lm->preempt_count = ev->preempt_count;
		lm->set = true;
	}
	memcpy(l->lat, lm->lat, sizeof(l->lat));
	/* asked per line: the kernel's text shows it with its first event */
	if (lt_run_flag_columns(m->run) == 4)
		l->lat[4] = '\0';
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

/* snprintf() into @p (HEAD_MAX) for the unusual lines; returns the end. */
static char *head_printf(char *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static char *head_printf(char *p, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(p, HEAD_MAX, fmt, ap);
	va_end(ap);
	return p + (n < 0 ? 0 : n >= HEAD_MAX ? HEAD_MAX - 1 : n);
}

/* "%16s-%-7d [%03d] %s %5llu.%06llu: " into @buf; returns the end. */
static char *head_default(char *buf, const struct line *l, bool color,
			  bool full)
{
	/* -t: nanoseconds, as trace-cmd report -t prints them */
	uint64_t t = full ? l->ts : ns2usecs(l->ts);
	uint64_t unit = full ? 1000000000 : 1000000;
	int digits = full ? 9 : 6;
	const char *lat_s;
	char lat[32], *p = buf;
	size_t n = l->comm_len;

	lat_s = lat_field(l, color, lat, sizeof(lat));
	if (l->pid < 0 || l->cpu < 0)
		return head_printf(buf, "%16s-%-7d [%03d] %s %5llu.%0*llu: ",
				   l->comm, l->pid, l->cpu, lat_s,
				   (unsigned long long)(t / unit), digits,
				   (unsigned long long)(t % unit));
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
	return p;
}

/*
 * lat_print_generic() and lat_print_timestamp(), verbose off:
 * "%8.8s-%-7d %3d%s %4lluus%c: " into @buf, the mark (*@mark) blank.
 */
static char *head_latency(char *buf, const struct line *l, uint64_t base,
			  bool color, char **mark)
{
	uint64_t us = ns2usecs(l->ts - base);
	char lat[32], *p = buf, *pid;
	const char *lat_s = lat_field(l, color, lat, sizeof(lat));
	size_t len = l->comm_len < 8 ? l->comm_len : 8, n = len;

	if (l->pid < 0 || l->cpu < 0) {
		p = head_printf(buf, "%8.8s-%-7d %3d%s %4lluus", l->comm,
				l->pid, l->cpu, lat_s, (unsigned long long)us);
	} else {
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
	}
	*mark = p;
	*p++ = ' ';
	*p++ = ':';
	*p++ = ' ';
	return p;
}

/*
 * Events the ring buffer lost on a CPU, on a line of their own before
 * that CPU's next event, as the kernel's print_trace_line() prints them.
 * Where the buffer says only that some were lost (a trace.dat page
 * without room for the count), trace-cmd report's words: no number.
 */
static size_t lost_line(char *buf, int cpu, uint64_t missed)
{
	int n;

	if (missed == LT_MISSED_UNKNOWN)
		n = snprintf(buf, LOST_MAX, "CPU:%d [EVENTS DROPPED]\n", cpu);
	else
		n = snprintf(buf, LOST_MAX, "CPU:%d [LOST %llu EVENTS]\n", cpu,
			     (unsigned long long)missed);
	return n < 0 ? 0 : n >= LOST_MAX ? LOST_MAX - 1 : (size_t)n;
}

void line_maker_init(struct line_maker *m, struct lt_run *run, bool latency,
		     bool full, bool color)
{
	memset(m, 0, sizeof(*m));
	m->run = run;
	m->r = lt_run_reader(run);
	m->abi = lt_run_abi(run, NULL);
	m->latency = latency;
	m->full = full;
	m->color = color;
}

size_t line_make(struct line_maker *m, const struct lt_event *ev, bool lost,
		 bool shown, struct line_text *t, size_t room)
{
	char head[HEAD_MAX + LOST_MAX], *p = head, *mark = NULL;
	char *text = (char *)(t + 1);
	size_t fixed, len = 0, name_len = 0, lost_len = 0;
	bool named = shown && lt_event_named(ev);
	struct line l;

	if (lost)
		p += lost_len = lost_line(p, ev->cpu, ev->missed);
	if (shown) {
		line_of(m, &l, ev);
		if (m->latency) {
			/* the base of the relative times, once it is known */
			if (!m->base)
				m->base = lt_run_first_ts(m->run);
			p = head_latency(p, &l, m->base, m->color, &mark);
		} else {
			p = head_default(p, &l, m->color, m->full);
		}
		if (named)
			name_len = strlen(ev->name);
	}
	fixed = p - head + (named ? name_len + 2 : 0);
	if (shown) {
		/* the payload whole: a %c of 0 prints a NUL, as the kernel's */
		len = lt_event_payload(m->r, ev, fixed < room ? text + fixed : NULL,
				       fixed < room ? room - fixed : 0);
		/* its NUL's place takes the newline */
		if (fixed + len + 1 > room)
			return fixed + len + 1;
		text[fixed + len] = '\n';
		len++;
	} else if (fixed > room) {
		return fixed;
	}
	memcpy(text, head, p - head);
	if (named) {
		memcpy(text + (p - head), ev->name, name_len);
		memcpy(text + (p - head) + name_len, ": ", 2);
	}
	t->ts = ev->ts;
	t->cpu = ev->cpu;
	t->lost_len = lost_len;
	t->len = shown ? fixed + len - lost_len : 0;
	t->mark = mark ? (int)(mark - head - lost_len) : -1;
	return fixed + len;
}

/*
 * The writer's buffer: a stdio call per piece of a line, each taking
 * stdout's lock, was a fifth of report's time.
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

/* @n bytes of whole lines. */
static void out_lines(const char *s, size_t n)
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
	if (out.each_line || out.len > OUT_SIZE / 2)
		out_flush();
}

void line_out_start(struct line_out *o, bool latency)
{
	memset(o, 0, sizeof(*o));
	o->latency = latency;
	if (!isatty(STDOUT_FILENO))
		setvbuf(stdout, NULL, _IOFBF, 1 << 16);
	else
		out.each_line = true;
}

/* Hold @t's line, whose text is @line: -1 if out of memory. */
static int hold(struct line_out *o, const struct line_text *t,
		const char *line)
{
	char *p;

	if (t->len > o->cap) {
		p = realloc(o->text, t->len);
		if (!p)
			return -1;
		o->text = p;
		o->cap = t->len;
	}
	memcpy(o->text, line, t->len);
	o->held = *t;
	o->have = true;
	return 0;
}

int line_out(struct line_out *o, const struct line_text *t)
{
	const char *text = (const char *)(t + 1);

	if (o->have) {
		o->text[o->held.mark] =
			delay_mark(ns2usecs(t->ts - o->held.ts) * 1000);
		out_lines(o->text, o->held.len);
		o->have = false;
	}
	if (!o->latency || !t->len) {
		out_lines(text, t->lost_len + t->len);
		return 0;
	}
	if (t->lost_len)
		out_lines(text, t->lost_len);
	/* held for the next event's time: the delay mark */
	return hold(o, t, text + t->lost_len);
}

int line_out_span(struct line_out *o, const struct line_text *t, size_t nr,
		  char *text)
{
	const struct line_text *last;
	size_t i, bytes;

	if (!nr)
		return 0;
	last = &t[nr - 1];
	bytes = last->off + last->lost_len + last->len - t[0].off;
	if (!o->latency) {
		out_lines(text, bytes);
		return 0;
	}
	if (o->have) {
		o->text[o->held.mark] =
			delay_mark(ns2usecs(t[0].ts - o->held.ts) * 1000);
		out_lines(o->text, o->held.len);
		o->have = false;
	}
	/* each line's delay from the next event's time; the last waits */
	for (i = 0; i + 1 < nr; i++)
		if (t[i].len)
			text[t[i].off - t[0].off + t[i].lost_len + t[i].mark] =
				delay_mark(ns2usecs(t[i + 1].ts - t[i].ts) * 1000);
	if (!last->len) {
		out_lines(text, bytes);
		return 0;
	}
	out_lines(text, bytes - last->len);
	return hold(o, last, text + bytes - last->len);
}

void line_out_end(struct line_out *o)
{
	/* the last line's mark: no next event, no delay */
	if (o->have)
		out_lines(o->text, o->held.len);
	o->have = false;
	out_flush();
	fflush(stdout);
	free(o->text);
	o->text = NULL;
}
