// SPDX-License-Identifier: LGPL-2.1
/*
 * Reader for the kernel's own text output (/sys/kernel/tracing/trace),
 * default or latency format. The kernel has already turned the flag byte
 * into letters; they are turned back into bits under the reader's ABI, so
 * the rest of the library sees one representation.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "lt-internal.h"

/* A longer line is not a trace line: refuse it rather than grow forever. */
#define MAX_LINE 65536
#define MAX_CPUS 8192

struct text {
	FILE *fp;
	bool own_fp;
	char line[MAX_LINE];
	char more[MAX_LINE];	/* a payload with its continuation lines */
	char comm[LT_COMM_LEN];
	char name[64];
	const char *payload;
	unsigned long lineno;
	uint64_t offset;
	char *rbuf;		/* READ_BLOCK bytes read ahead */
	size_t rstart, rend;
	bool eof;
	bool latency;		/* latency format lines */
	bool abi_fixed;		/* ABI given, or settled by the header */
	struct lt_abi_hints abi;	/* what the text told of it so far */
	uint64_t *missed;	/* per CPU: lost events not yet reported */
	int nr_missed;
	uint64_t next_missed;
	/* the current "<stack trace>": each " => " line after it */
	char frame[LT_STACK_MAX_FRAMES][160];
	const char *frame_ptr[LT_STACK_MAX_FRAMES];
	uint64_t frame_ip[LT_STACK_MAX_FRAMES];
};

static int text_fail(struct lt_reader *r, struct text *t, const char *what)
{
	lt_reader_fail(r, "line %lu (offset %llu): %s", t->lineno,
		       (unsigned long long)r->pos, what);
	return -1;
}

/* ---- the flag letters ---- */

/*
 * The letters of trace_print_lat_fmt(), indexed by the bits they stand
 * for: need-resched by eager << 2 | lazy << 1 | fold, hard/soft irq by
 * nmi << 2 | hardirq << 1 | softirq.
 */
static const char resched_letters[] = ".plLnNbB";
static const char irq_letters[] = ".shHz?Z?";

static int index_of(const char *letters, char c)
{
	const char *p = c ? strchr(letters, c) : NULL;

	return p && c != '?' ? (int)(p - letters) : -1;
}

static int irqs_letter_to_flags(char c, struct lt_flags *f)
{
	f->irqs_off = c == 'D' || c == 'd';
	f->bh_off = c == 'D' || c == 'b';
	f->irqs_nosupport = c == 'X';
	return strchr("DdbX.", c) && c ? 0 : -1;
}

static int nibble_of(char c, unsigned int *v)
{
	if (c == '.') {
		*v = 0;
		return 0;
	}
	if (!isxdigit((unsigned char)c))
		return -1;
	*v = isdigit((unsigned char)c) ? c - '0' : tolower(c) - 'a' + 10;
	return 0;
}

static int letters_to_flags(const char *s, struct lt_flags *f,
			    unsigned int *pc)
{
	unsigned int depth, migrate;
	int rs, irq;

	memset(f, 0, sizeof(*f));
	rs = index_of(resched_letters, s[1]);
	irq = index_of(irq_letters, s[2]);
	/* Kernels before 5.13 print no migrate-disable column. */
	migrate = 0;
	if (irqs_letter_to_flags(s[0], f) || rs < 0 || irq < 0 ||
	    nibble_of(s[3], &depth) ||
	    (s[4] != ' ' && nibble_of(s[4], &migrate)))
		return -1;
	f->need_resched = rs & 4;
	f->need_resched_lazy = rs & 2;
	f->preempt_resched = rs & 1;
	f->nmi = irq & 4;
	f->hardirq = irq & 2;
	f->softirq = irq & 1;
	*pc = depth | migrate << 4;
	return 0;
}

static bool is_lazy_letter(char c)
{
	return c == 'B' || c == 'L' || c == 'b' || c == 'l';
}

/* Settle the ABI on the first letter that only one layout can carry. */
static void settle_abi(struct lt_reader *r, struct text *t, const char *fl)
{
	struct lt_abi_choice c;

	if (t->abi_fixed)
		return;
	if (fl[0] == 'X')
		t->abi.x_letter = true;
	else if (is_lazy_letter(fl[1]))
		t->abi.lazy_letter = true;
	else
		return;
	lt_abi_detect(&t->abi, &c);
	lt_abi_set(r, c.abi, "%s", c.reason);
	t->abi_fixed = true;
}

/* ---- parsing one line ---- */

static const char *skip_spaces(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

static int parse_uint(const char **s, unsigned long long *v)
{
	char *end;

	if (!isdigit((unsigned char)**s))
		return -1;
	*v = strtoull(*s, &end, 10);
	*s = end;
	return 0;
}

/* "7.261477" -> ns, whatever the number of decimals. */
static int parse_secs(const char **s, uint64_t *ns)
{
	unsigned long long secs, frac = 0;
	int digits = 0;

	if (parse_uint(s, &secs))
		return -1;
	if (**s == '.') {
		(*s)++;
		while (isdigit((unsigned char)**s)) {
			if (digits < 9) {
				frac = frac * 10 + (**s - '0');
				digits++;
			}
			(*s)++;
		}
	}
	while (digits++ < 9)
		frac *= 10;
	if (secs > UINT64_MAX / 1000000000ULL - 1)
		return -1;
	*ns = secs * 1000000000ULL + frac;
	return 0;
}

static void set_comm(struct text *t, const char *start, size_t len)
{
	while (len && *start == ' ') {
		start++;
		len--;
	}
	if (len >= sizeof(t->comm))
		len = sizeof(t->comm) - 1;
	memcpy(t->comm, start, len);
	t->comm[len] = '\0';
}

/* The " [003] " column; its '[' must follow "-PID" and spaces. */
static const char *find_cpu_column(const char *line)
{
	const char *p;

	for (p = strchr(line, '['); p; p = strchr(p + 1, '[')) {
		const char *q = p + 1;

		if (p == line || p[-1] != ' ' || !isdigit((unsigned char)*q))
			continue;
		while (isdigit((unsigned char)*q))
			q++;
		if (q[0] == ']' && q[1] == ' ')
			return p;
	}
	return NULL;
}

/* "comm-pid" possibly followed by "(tgid)": fill comm and pid. */
static int parse_task(struct text *t, const char *start, const char *end,
		      int *pid)
{
	const char *dash;
	unsigned long long v;

	while (end > start && end[-1] == ' ')
		end--;
	if (end > start && end[-1] == ')') {	/* record-tgid */
		while (end > start && end[-1] != '(')
			end--;
		if (end == start)
			return -1;
		end--;
		while (end > start && end[-1] == ' ')
			end--;
	}
	for (dash = end; dash > start && dash[-1] != '-'; dash--)
		;
	if (dash == start || dash == end)
		return -1;
	if (parse_uint(&dash, &v) || dash != end || v > 0x7fffffff)
		return -1;
	*pid = v;
	for (dash = end; dash[-1] != '-'; dash--)
		;
	set_comm(t, start, dash - 1 - start);
	return 0;
}

static int parse_default(struct text *t, const char *line,
			 struct lt_event *ev, const char **rest,
			 const char **flags)
{
	const char *col = find_cpu_column(line), *p;
	unsigned long long cpu;
	int pid;

	if (!col || parse_task(t, line, col, &pid))
		return -1;
	p = col + 1;
	if (parse_uint(&p, &cpu) || cpu >= MAX_CPUS)
		return -1;
	p = skip_spaces(p + 1);
	*flags = NULL;
	if (!isdigit((unsigned char)*p) || p[5] == ' ') {
		/* irq-info column present */
		*flags = p;
		p = skip_spaces(p + strcspn(p, " "));
	}
	if (parse_secs(&p, &ev->ts) || *p != ':')
		return -1;
	ev->cpu = cpu;
	ev->pid = pid;
	*rest = skip_spaces(p + 1);
	return 0;
}

/* "%8.8s-%-7d %3d%s %4lldus%c: " */
static int parse_latency(struct text *t, const char *line,
			 struct lt_event *ev, const char **rest,
			 const char **flags)
{
	unsigned long long pid, cpu, us;
	const char *p = line + 9;

	if (strlen(line) < 30 || line[8] != '-')
		return -1;
	set_comm(t, line, 8);
	if (parse_uint(&p, &pid) || pid > 0x7fffffff)
		return -1;
	p = skip_spaces(p);
	if (parse_uint(&p, &cpu) || cpu >= MAX_CPUS)
		return -1;
	*flags = p;
	p = skip_spaces(p + strcspn(p, " "));
	if (parse_uint(&p, &us) || strncmp(p, "us", 2) || p[3] != ':')
		return -1;
	ev->ts = us * 1000;
	ev->cpu = cpu;
	ev->pid = pid;
	*rest = skip_spaces(p + 4);
	return 0;
}

/* ---- the event's own text ---- */

/* Pointer to the value of " key=" in s (or at its start), else NULL. */
static const char *value_of(const char *s, const char *key)
{
	size_t n = strlen(key);
	const char *p;

	for (p = s; (p = strstr(p, key)); p++)
		if ((p == s || p[-1] == ' ') && p[n] == '=')
			return p + n + 1;
	return NULL;
}

static long long num_of(const char *s, const char *key)
{
	const char *v = value_of(s, key);

	return v ? strtoll(v, NULL, 10) : -1;
}

/* Copy the value of key up to " stop=" (comms may hold spaces). */
static void str_of(const char *s, const char *key, const char *stop,
		   char *dst, size_t size)
{
	const char *v = value_of(s, key), *e = NULL;
	size_t n;

	dst[0] = '\0';
	if (!v)
		return;
	if (stop) {
		char pat[32];

		snprintf(pat, sizeof(pat), " %s=", stop);
		e = strstr(v, pat);
	}
	n = e ? (size_t)(e - v) : strcspn(v, " ");
	if (n >= size)
		n = size - 1;
	memcpy(dst, v, n);
	dst[n] = '\0';
}

static void parse_sched_switch(const char *s, struct lt_event *ev)
{
	str_of(s, "prev_comm", "prev_pid", ev->u.sched_switch.prev_comm,
	       LT_COMM_LEN);
	ev->u.sched_switch.prev_pid = num_of(s, "prev_pid");
	ev->u.sched_switch.prev_prio = num_of(s, "prev_prio");
	str_of(s, "prev_state", NULL, ev->u.sched_switch.prev_state_str,
	       sizeof(ev->u.sched_switch.prev_state_str));
	ev->u.sched_switch.prev_state =
		lt_prev_state_of(ev->u.sched_switch.prev_state_str);
	str_of(s, "next_comm", "next_pid", ev->u.sched_switch.next_comm,
	       LT_COMM_LEN);
	ev->u.sched_switch.next_pid = num_of(s, "next_pid");
	ev->u.sched_switch.next_prio = num_of(s, "next_prio");
}

static void parse_fields(const char *s, struct lt_event *ev)
{
	const char *p;

	switch (ev->kind) {
	case LT_EV_SCHED_SWITCH:
		parse_sched_switch(s, ev);
		break;
	case LT_EV_SCHED_WAKING:
	case LT_EV_SCHED_WAKEUP:
	case LT_EV_SCHED_WAKEUP_NEW:
		str_of(s, "comm", "pid", ev->u.wakeup.comm, LT_COMM_LEN);
		ev->u.wakeup.pid = num_of(s, "pid");
		ev->u.wakeup.prio = num_of(s, "prio");
		ev->u.wakeup.target_cpu = num_of(s, "target_cpu");
		break;
	case LT_EV_SCHED_PROCESS_EXIT:
		str_of(s, "comm", "pid", ev->u.process.comm, LT_COMM_LEN);
		ev->u.process.pid = num_of(s, "pid");
		break;
	case LT_EV_SCHED_PROCESS_FORK:
		str_of(s, "child_comm", "child_pid", ev->u.process.comm,
		       LT_COMM_LEN);
		ev->u.process.pid = num_of(s, "child_pid");
		break;
	case LT_EV_HRTIMER_EXPIRE_ENTRY:
		str_of(s, "function", NULL, ev->u.hrtimer.func,
		       sizeof(ev->u.hrtimer.func));
		break;
	case LT_EV_HRTIMER_START:
		str_of(s, "function", "expires", ev->u.hrtimer.func,
		       sizeof(ev->u.hrtimer.func));
		ev->u.hrtimer.expires = num_of(s, "expires") > 0 ?
					num_of(s, "expires") : 0;
		break;
	case LT_EV_SOFTIRQ_ENTRY:
	case LT_EV_SOFTIRQ_EXIT:
		ev->u.softirq.vec = num_of(s, "vec");
		break;
	case LT_EV_PRINT:
		lt_strlcpy(ev->u.print.buf, s, sizeof(ev->u.print.buf));
		ev->u.print.buf[strcspn(ev->u.print.buf, "\n")] = '\0';
		break;
	case LT_EV_SET_NEED_RESCHED:
		ev->u.resched.pid = num_of(s, "pid");
		ev->u.resched.cpu = num_of(s, "cpu");
		ev->u.resched.tif = num_of(s, "tif");
		break;
	case LT_EV_SYS_ENTER:
	case LT_EV_SYS_EXIT:
		p = strstr(s, "NR ");
		ev->u.syscall.id = p ? strtol(p + 3, NULL, 10) : -1;
		break;
	default:
		break;
	}
}

/* "func <-parent" of the function tracer. */
static void parse_function(const char *s, struct lt_event *ev)
{
	const char *arrow = strstr(s, " <-");
	size_t n = arrow ? (size_t)(arrow - s) : strlen(s);

	if (n >= sizeof(ev->u.function.func))
		n = sizeof(ev->u.function.func) - 1;
	memcpy(ev->u.function.func, s, n);
	ev->u.function.func[n] = '\0';
	if (arrow)
		lt_strlcpy(ev->u.function.parent, arrow + 3,
			   sizeof(ev->u.function.parent));
}

static int parse_rest(struct text *t, const char *rest, struct lt_event *ev)
{
	size_t n = 0;

	/* An event name: [A-Za-z0-9_]+ (strspn with that set is slow). */
	while (isalnum((unsigned char)rest[n]) || rest[n] == '_')
		n++;

	if (n && rest[n] == ':' && (rest[n + 1] == ' ' || !rest[n + 1]) &&
	    n < sizeof(t->name)) {
		memcpy(t->name, rest, n);
		t->name[n] = '\0';
		t->payload = skip_spaces(rest + n + 1);
		ev->name = t->name;
		ev->system = lt_event_system_of(t->name);
		ev->kind = lt_event_kind_of(NULL, t->name);
		parse_fields(t->payload, ev);
		return 0;
	}
	/*
	 * Syscall events print no name either: "sys_read(fd: 3, ...)" is
	 * syscalls:sys_enter_read, "sys_read -> 0x2" syscalls:sys_exit_read.
	 */
	if (n > 4 && !strncmp(rest, "sys_", 4) && n + 6 < sizeof(t->name) &&
	    (rest[n] == '(' || !strncmp(rest + n, " -> ", 4))) {
		snprintf(t->name, sizeof(t->name), "sys_%s_%.*s",
			 rest[n] == '(' ? "enter" : "exit", (int)(n - 4),
			 rest + 4);
		t->payload = rest;
		ev->name = t->name;
		ev->system = "syscalls";
		ev->kind = LT_EV_OTHER;
		return 0;
	}
	/* Stacks print no event name either; their frames follow. */
	if (!strcmp(rest, "<stack trace>") ||
	    !strcmp(rest, "<user stack trace>")) {
		t->payload = rest;
		ev->system = "ftrace";
		ev->name = rest[1] == 's' ? "kernel_stack" : "user_stack";
		ev->kind = rest[1] == 's' ? LT_EV_KERNEL_STACK : LT_EV_OTHER;
		return 0;
	}
	/* The function tracer prints no event name. */
	t->payload = rest;
	ev->name = "function";
	ev->system = "ftrace";
	ev->kind = LT_EV_FUNCTION;
	parse_function(rest, ev);
	return 0;
}

/* ---- header and special lines ---- */

static void parse_header(struct lt_reader *r, struct text *t, const char *l)
{
	const char *p;
	char buf[128];
	int n;

	p = strstr(l, "#P:");
	if (p && sscanf(p, "#P:%d", &n) == 1 && n > 0 && n <= MAX_CPUS &&
	    n > r->nr_cpus)
		r->nr_cpus = n;
	p = strstr(l, "latency trace v");
	p = p ? strstr(p, " on ") : NULL;
	if (p && !r->kernel && sscanf(p, " on %127s", buf) == 1)
		r->kernel = strdup(buf);
	if (strstr(l, "cmd     pid"))
		t->latency = true;
	/*
	 * The old PREEMPT_RT lazy kernels print a wider flag field, which
	 * this reader does not parse: refuse rather than misread it.
	 */
	if (strstr(l, "need-resched-lazy"))
		text_fail(r, t, "PREEMPT_RT lazy text format (need-resched-lazy column) is not supported yet; read the trace.dat");
}

/*
 * "CPU:1 [LOST 42 EVENTS]" (the kernel), "CPU:1 [42 EVENTS DROPPED]" and
 * "CPU:1 [EVENTS DROPPED]" (trace-cmd report, lazytrace report): remember
 * for the CPU's next event. The kernel's trace file prints an unknown
 * count as (unsigned long)-1.
 */
static int grow_cpus(struct lt_reader *r, struct text *t, int cpu);

static bool lost_line(struct lt_reader *r, struct text *t, const char *l)
{
	unsigned long long n = 0;
	bool unknown = false;
	int cpu, end = 0;

	/* Checked on every line: rule most out before sscanf. */
	if (strncmp(l, "CPU:", 4))
		return false;
	if (sscanf(l, "CPU:%d [LOST %llu EVENTS]%n", &cpu, &n, &end) == 2 &&
	    end) {
		unknown = n == UINT64_MAX || n == UINT32_MAX;
	} else if (sscanf(l, "CPU:%d [%llu EVENTS DROPPED]%n", &cpu, &n,
			  &end) == 2 && end) {
	} else if (sscanf(l, "CPU:%d [EVENTS DROPPED]%n", &cpu, &end) == 1 &&
		   end) {
		unknown = true;
	} else {
		return false;
	}
	if (l[end])
		return false;
	if (cpu < 0 || cpu >= MAX_CPUS || grow_cpus(r, t, cpu))
		return true;
	if (unknown || !n || t->missed[cpu] == LT_MISSED_UNKNOWN)
		t->missed[cpu] = LT_MISSED_UNKNOWN;
	else if (t->missed[cpu] + n < n || t->missed[cpu] + n == LT_MISSED_UNKNOWN)
		t->missed[cpu] = LT_MISSED_UNKNOWN - 1;
	else
		t->missed[cpu] += n;
	return true;
}

static bool skip_line(const char *l)
{
	/* A stack's frame lines, met alone after a seek. */
	return !l[0] || l[0] == '#' || !strncmp(l, "CPU ", 4) ||
	       !strncmp(l, " => ", 4) ||
	       strstr(l, "##### CPU") != NULL;
}

static int grow_cpus(struct lt_reader *r, struct text *t, int cpu)
{
	uint64_t *m;

	if (cpu < t->nr_missed)
		return 0;
	m = realloc(t->missed, (cpu + 1) * sizeof(*m));
	if (!m)
		return -1;
	memset(m + t->nr_missed, 0, (cpu + 1 - t->nr_missed) * sizeof(*m));
	t->missed = m;
	t->nr_missed = cpu + 1;
	if (r->nr_cpus < cpu + 1)
		r->nr_cpus = cpu + 1;
	return 0;
}

/* Read ahead in large blocks; lines are cut out of the block with memchr. */
#define READ_BLOCK (4 * MAX_LINE)

static int fill(struct text *t)
{
	size_t n, avail = t->rend - t->rstart;

	memmove(t->rbuf, t->rbuf + t->rstart, avail);
	t->rstart = 0;
	t->rend = avail;
	n = fread(t->rbuf + t->rend, 1, READ_BLOCK - t->rend, t->fp);
	t->rend += n;
	if (!n) {
		if (ferror(t->fp))
			return -1;
		t->eof = true;
	}
	return 0;
}

/* The next byte, without taking it; EOF at the end. */
static int peek_char(struct text *t)
{
	if (t->rstart == t->rend && (t->eof || fill(t) || t->rstart == t->rend))
		return EOF;
	return (unsigned char)t->rbuf[t->rstart];
}

/* Like fgets, but counts the offset and sees NUL bytes. */
static int read_line(struct lt_reader *r, struct text *t)
{
	size_t len, avail, take;
	const char *s, *nl;

	r->pos = t->offset;
	for (;;) {
		s = t->rbuf + t->rstart;
		avail = t->rend - t->rstart;
		nl = memchr(s, '\n', avail);
		if (nl) {
			len = nl - s;
			take = len + 1;
			break;
		}
		if (avail >= sizeof(t->line) || (t->eof && avail)) {
			len = take = avail;
			break;
		}
		if (t->eof)
			return 0;
		if (fill(t))
			return text_fail(r, t, "read error");
	}
	t->lineno++;
	if (len >= sizeof(t->line))
		return text_fail(r, t, "line too long for a trace line");
	memcpy(t->line, s, len);
	t->rstart += take;
	t->offset += take;
	if (memchr(t->line, '\0', len))
		return text_fail(r, t, "binary data in a text trace");
	while (len && t->line[len - 1] == '\r')
		len--;
	t->line[len] = '\0';
	return 1;
}

static int parse_event(struct lt_reader *r, struct text *t)
{
	struct lt_event *ev = &r->ev;
	const char *rest, *fl;
	struct lt_flags f;
	unsigned int pc = 0;
	int ret;

	memset(ev, 0, sizeof(*ev));
	if (t->latency)
		ret = parse_latency(t, t->line, ev, &rest, &fl);
	else
		ret = parse_default(t, t->line, ev, &rest, &fl);
	if (ret)
		return text_fail(r, t, t->lineno == 1 ?
				 "not a trace: neither trace.dat nor the kernel's text format" :
				 "malformed trace line");
	if (fl) {
		if (strlen(fl) < 5 || letters_to_flags(fl, &f, &pc))
			return text_fail(r, t, "malformed flag field");
		settle_abi(r, t, fl);
		if (!r->flag_columns)
			r->flag_columns = fl[4] == ' ' ? 4 : 5;
		ev->flags = lt_flags_encode(r->abi, &f);
		ev->preempt_count = pc;
	}
	if (grow_cpus(r, t, ev->cpu))
		return text_fail(r, t, "out of memory");
	ev->missed = t->missed[ev->cpu];
	t->missed[ev->cpu] = 0;
	ev->comm = ev->pid == 0 ? "<idle>" : t->comm;
	/* Latency-format times are already relative to the buffer start. */
	if (!r->first_ts && !t->latency)
		r->first_ts = ev->ts;
	return parse_rest(t, rest, ev);
}

/* Whether the next line is a stack frame (" => ..."), without taking it. */
static bool frame_follows(struct text *t)
{
	if (t->rend - t->rstart < 4 && !t->eof && fill(t))
		return false;
	return t->rend - t->rstart >= 4 &&
	       !memcmp(t->rbuf + t->rstart, " => ", 4);
}

/*
 * The frames of a stack: " => func", " => func+0x1a/0x40" (sym-offset),
 * either followed by " <ffffffff81234567>" (sym-addr), or the address
 * alone where the kernel has no symbol. Frames past the reader's limit
 * are read and dropped, and the stack marked truncated.
 */
static int read_frames(struct lt_reader *r, struct text *t)
{
	struct lt_event *ev = &r->ev;
	unsigned int nr = 0;
	const char *p, *lt;
	uint64_t pos = r->pos;
	int ret;

	while (frame_follows(t)) {
		ret = read_line(r, t);
		if (ret <= 0)
			return ret;
		if (nr == LT_STACK_MAX_FRAMES) {
			ev->u.stack.truncated = true;
			continue;
		}
		p = skip_spaces(t->line + 4);
		lt_strlcpy(t->frame[nr], p, sizeof(t->frame[nr]));
		t->frame_ptr[nr] = t->frame[nr];
		lt = strchr(p, '<');
		if (lt)
			p = lt + 1;
		t->frame_ip[nr] = strtoull(p, NULL, 16);
		nr++;
	}
	r->pos = pos;
	if (ev->kind == LT_EV_KERNEL_STACK) {
		ev->u.stack.ip = t->frame_ip;
		ev->u.stack.text = t->frame_ptr;
		ev->u.stack.nr = nr;
	}
	return 1;
}

/*
 * Whether the next line continues the current event's payload: a format
 * with a newline in it (9p_protocol_dump's "%*ph") prints a hex dump on
 * lines of its own, "32 00 00 76 ...", and the newline at its end a blank
 * line after it (@in_dump); a format that ends in a newline (5.10's
 * vm_unmapped_area) leaves a blank line after the event. Only those
 * shapes: any other line that is not an event stays an error.
 */
static bool dump_follows(struct text *t, bool in_dump)
{
	const char *s, *nl;
	size_t i, n;

	for (;;) {
		s = t->rbuf + t->rstart;
		nl = memchr(s, '\n', t->rend - t->rstart);
		if (nl || t->eof || t->rend - t->rstart >= MAX_LINE)
			break;
		if (fill(t))
			return false;
	}
	n = nl ? (size_t)(nl - s) : t->rend - t->rstart;
	if (!n)
		return nl != NULL;
	if (n % 3 != 2)
		return false;
	for (i = 0; i < n; i++)
		if (i % 3 == 2 ? s[i] != ' ' : !isxdigit((unsigned char)s[i]))
			return false;
	return true;
}

/* The current event's payload and the hex dump lines that follow it. */
static int read_dump(struct lt_reader *r, struct text *t)
{
	uint64_t pos = r->pos;
	bool in_dump = false;
	size_t len;
	int ret;

	while (dump_follows(t, in_dump)) {
		if (!in_dump) {
			lt_strlcpy(t->more, t->payload, sizeof(t->more));
			t->payload = t->more;
		}
		ret = read_line(r, t);
		if (ret <= 0)
			return ret < 0 ? -1 : 1;
		len = strlen(t->more);
		if (len + 1 + strlen(t->line) >= sizeof(t->more))
			return text_fail(r, t, "hex dump too long");
		t->more[len] = '\n';
		strcpy(t->more + len + 1, t->line);
		in_dump = t->line[0] != '\0';
	}
	r->pos = pos;
	return 1;
}

static int text_next(struct lt_reader *r)
{
	struct text *t = r->priv;
	int ret;

	for (;;) {
		ret = read_line(r, t);
		if (ret <= 0)
			return ret;
		if (t->line[0] == '#') {
			parse_header(r, t, t->line);
			continue;
		}
		if (lost_line(r, t, t->line) || skip_line(t->line))
			continue;
		if (parse_event(r, t))
			return -1;
		if (!strcmp(r->ev.system, "ftrace") && r->ev.name[0] != 'f')
			return read_frames(r, t) < 0 ? -1 : 1;
		return read_dump(r, t);
	}
}

static size_t text_payload(struct lt_reader *r, const struct lt_event *ev,
			   char *buf, size_t len)
{
	struct text *t = r->priv;
	const char *p = t->payload ? t->payload : "";

	if (len)
		lt_strlcpy(buf, p, len);
	return strlen(p);
}

static int text_field(struct lt_reader *r, const struct lt_event *ev,
		      const char *field, long long *val)
{
	struct text *t = r->priv;
	const char *v = t->payload ? value_of(t->payload, field) : NULL;
	char *end;

	if (!v)
		return -1;
	*val = strtoll(v, &end, 0);
	return end == v ? -1 : 0;
}

static void text_close(struct lt_reader *r)
{
	struct text *t = r->priv;

	if (!t)
		return;
	if (t->own_fp)
		fclose(t->fp);
	free(t->missed);
	free(t->rbuf);
	free(t);
	r->priv = NULL;
}

static int text_seek(struct lt_reader *r, uint64_t ts, uint64_t pos)
{
	struct text *t = r->priv;
	int cpu;

	if (t->fp == stdin || fseeko(t->fp, pos, SEEK_SET))
		return -1;
	t->offset = pos;
	t->rstart = t->rend = 0;
	t->eof = false;
	/* Line numbers in later errors count from here. */
	t->lineno = 0;
	for (cpu = 0; cpu < t->nr_missed; cpu++)
		t->missed[cpu] = 0;
	return 0;
}

static const struct lt_reader_ops text_ops = {
	.seek = text_seek,
	.next = text_next,
	.payload = text_payload,
	.field = text_field,
	.close = text_close,
};

/*
 * Read the header comments now, so that the ABI, kernel and format are
 * known before the first event.
 */
static void read_header(struct lt_reader *r, struct text *t)
{
	while (peek_char(t) == '#') {
		if (read_line(r, t) <= 0)
			return;
		parse_header(r, t, t->line);
	}
}

int lt_text_open(struct lt_reader *r, FILE *fp, const struct lt_open_opts *opts)
{
	struct text *t = calloc(1, sizeof(*t));
	struct lt_abi_choice c;

	if (!t) {
		if (fp != stdin)
			fclose(fp);
		lt_reader_fail(r, "out of memory");
		return -1;
	}
	t->fp = fp;
	t->own_fp = fp != stdin;
	t->rbuf = malloc(READ_BLOCK);
	r->priv = t;
	r->ops = &text_ops;
	if (!t->rbuf) {
		lt_reader_fail(r, "out of memory");
		return -1;
	}
	t->abi.given = opts->abi;
	t->abi.text = true;
	read_header(r, t);
	if (r->failed)
		return -1;
	/*
	 * Nothing at all is not a trace, whether it came from an empty file,
	 * /dev/null or a pipe (a kernel's trace has at least its header).
	 */
	if (!t->offset && peek_char(t) == EOF) {
		lt_reader_fail(r, LT_EMPTY_INPUT);
		return -1;
	}
	r->format = t->latency ? LT_INPUT_TEXT_LATENCY : LT_INPUT_TEXT;
	t->abi.release = r->kernel;
	lt_abi_detect(&t->abi, &c);
	lt_abi_set(r, c.abi, "%s", c.reason);
	/* Only the default can change: a letter of one layout settles it. */
	t->abi_fixed = c.rule != LT_ABI_BY_DEFAULT;
	return 0;
}
