// SPDX-License-Identifier: LGPL-2.1
/*
 * Hand printers for the events that make most of a scheduler trace.
 *
 * libtraceevent's tep_print_event() interprets the print format's argument
 * tree for every record: most of `report`'s time. For an event whose print
 * format and arguments are exactly the ones below (the kernel's since
 * 4.14 for sched_switch, 4.16 for the wakeups), the same text is written
 * from the record's fields directly. Anything else, or a value these
 * printers do not cover, goes to libtraceevent as before.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lt-print-known.h"

static const struct {
	enum lt_known_fmt fmt;
	const char *format;
	const char *args[LT_KNOWN_MAX_FIELDS];	/* NULL: not a plain field */
	int nr_args;
} known[] = {
	{ LT_FMT_SWITCH,
	  "prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s%s ==> next_comm=%s next_pid=%d next_prio=%d",
	  { "prev_comm", "prev_pid", "prev_prio", NULL, NULL,
	    "next_comm", "next_pid", "next_prio" }, 8 },
	{ LT_FMT_WAKEUP, "comm=%s pid=%d prio=%d target_cpu=%03d",
	  { "comm", "pid", "prio", "target_cpu" }, 4 },
	{ LT_FMT_VECTOR, "vector=%d", { "vector" }, 1 },
};

/* The "|"-separated __print_flags() in sched_switch's prev_state. */
static struct tep_print_arg *find_flags(struct tep_print_arg *arg)
{
	struct tep_print_arg *f;

	for (; arg; arg = arg->next) {
		if (arg->type == TEP_PRINT_FLAGS)
			return arg;
		if (arg->type != TEP_PRINT_OP)
			continue;
		f = find_flags(arg->op.left);
		if (!f)
			f = find_flags(arg->op.right);
		if (f)
			return f;
	}
	return NULL;
}

/* A constant expression of the format (numbers, | & + - << >>); false if not. */
static bool const_value(struct tep_print_arg *a, unsigned long long *v)
{
	unsigned long long l, r;
	const char *op;
	char *end;

	if (!a)
		return false;
	if (a->type == TEP_PRINT_ATOM) {
		if (!a->atom.atom || !isdigit((unsigned char)a->atom.atom[0]))
			return false;
		*v = strtoull(a->atom.atom, &end, 0);
		return !*end;
	}
	if (a->type != TEP_PRINT_OP || !a->op.op)
		return false;
	op = a->op.op;
	if (!const_value(a->op.right, &r))
		return false;
	if (!a->op.left) {
		if (!strcmp(op, "~")) {
			*v = ~r;
			return true;
		}
		return false;
	}
	if (!const_value(a->op.left, &l))
		return false;
	if (!strcmp(op, "|"))
		*v = l | r;
	else if (!strcmp(op, "&"))
		*v = l & r;
	else if (!strcmp(op, "+"))
		*v = l + r;
	else if (!strcmp(op, "-"))
		*v = l - r;
	else if (!strcmp(op, "<<") && r < 64)
		*v = l << r;
	else if (!strcmp(op, ">>") && r < 64)
		*v = l >> r;
	else
		return false;
	return true;
}

static bool is_prev_state(struct tep_print_arg *a)
{
	return a && a->type == TEP_PRINT_FIELD && a->field.name &&
	       !strcmp(a->field.name, "prev_state");
}

/* "REC->prev_state & X ? "+" : """ somewhere under @arg: X, or 0. */
static unsigned long long plus_test(struct tep_print_arg *arg)
{
	struct tep_print_arg *t, *c;
	unsigned long long v;

	for (; arg; arg = arg->next) {
		if (arg->type != TEP_PRINT_OP || !arg->op.op)
			continue;
		t = arg->op.left;
		c = arg->op.right;
		if (!strcmp(arg->op.op, "?") && t && c &&
		    t->type == TEP_PRINT_OP && t->op.op &&
		    !strcmp(t->op.op, "&") && c->type == TEP_PRINT_OP &&
		    c->op.op && !strcmp(c->op.op, ":") && c->op.left &&
		    c->op.left->type == TEP_PRINT_ATOM &&
		    c->op.left->atom.atom &&
		    !strcmp(c->op.left->atom.atom, "+") &&
		    ((is_prev_state(t->op.left) &&
		      const_value(t->op.right, &v)) ||
		     (is_prev_state(t->op.right) &&
		      const_value(t->op.left, &v))))
			return v;
		v = plus_test(arg->op.left);
		if (!v)
			v = plus_test(arg->op.right);
		if (v)
			return v;
	}
	return 0;
}

unsigned long long lt_switch_preempt_bit(struct tep_event *event)
{
	struct tep_print_arg *fl;
	struct tep_print_flag_sym *sym;
	unsigned long long v, max = 0;

	if (!event)
		return 0;
	v = plus_test(event->print_fmt.args);
	/* a single bit, as every kernel's "+" test has had */
	if (v && !(v & (v - 1)))
		return v;
	/*
	 * No test to read (a format we do not parse): the bit above the
	 * highest state letter, TASK_REPORT_MAX of 4.14 and later. Older
	 * kernels' TASK_STATE_MAX lies further up (0x800 or 0x1000 with the
	 * 4.x letter tables), but their formats always spell it out.
	 */
	fl = find_flags(event->print_fmt.args);
	for (sym = fl ? fl->flags.flags : NULL; sym; sym = sym->next) {
		v = strtoull(sym->value, NULL, 0);
		if (v > max)
			max = v;
	}
	return max ? max << 1 : 0x100;
}

static bool switch_flags(struct lt_known_print *kp, struct tep_event *event,
			 struct tep_print_arg *arg)
{
	struct tep_print_arg *fl = find_flags(arg);
	struct tep_print_flag_sym *sym;
	unsigned long long v;
	char *end;

	if (!fl || !fl->flags.delim || strcmp(fl->flags.delim, "|"))
		return false;
	for (sym = fl->flags.flags; sym; sym = sym->next) {
		v = strtoull(sym->value, &end, 0);
		if (*end || !v || kp->nr_flags >= LT_KNOWN_MAX_FLAGS)
			return false;
		kp->flag_bit[kp->nr_flags] = v;
		kp->flag_str[kp->nr_flags++] = sym->str;
	}
	/* the "+" test's bit, as the reader has it */
	kp->preempt_marker = lt_switch_preempt_bit(event);
	return kp->nr_flags > 0;
}

static bool int_field(const struct tep_format_field *f)
{
	return f && f->size == 4 && !(f->flags & (TEP_FIELD_IS_ARRAY |
						  TEP_FIELD_IS_DYNAMIC |
						  TEP_FIELD_IS_STRING));
}

static bool comm_field(const struct tep_format_field *f)
{
	return f && (f->flags & TEP_FIELD_IS_ARRAY) &&
	       !(f->flags & TEP_FIELD_IS_DYNAMIC) && f->size > 0 &&
	       f->size <= 64;
}

void lt_known_print_init(struct lt_known_print *kp, struct tep_event *event)
{
	struct tep_print_arg *arg, *args;
	size_t k;
	int i;

	memset(kp, 0, sizeof(*kp));
	if (!event || !event->print_fmt.format)
		return;
	for (k = 0; k < sizeof(known) / sizeof(known[0]); k++)
		if (!strcmp(event->print_fmt.format, known[k].format))
			break;
	if (k == sizeof(known) / sizeof(known[0]))
		return;
	args = event->print_fmt.args;
	for (i = 0, arg = args; i < known[k].nr_args; i++, arg = arg->next) {
		const char *name = known[k].args[i];

		if (!arg)
			return;
		if (!name)
			continue;
		if (arg->type != TEP_PRINT_FIELD || !arg->field.name ||
		    strcmp(arg->field.name, name))
			return;
		kp->f[i] = tep_find_field(event, name);
		if (strstr(name, "comm") ? !comm_field(kp->f[i]) :
					   !int_field(kp->f[i]))
			return;
	}
	if (arg)
		return;		/* more arguments than the format's */
	if (known[k].fmt == LT_FMT_SWITCH) {
		kp->f[3] = tep_find_field(event, "prev_state");
		if (!kp->f[3] || (kp->f[3]->size != 4 && kp->f[3]->size != 8) ||
		    !switch_flags(kp, event, args))
			return;
	}
	kp->swap = tep_is_file_bigendian(event->tep) !=
		   tep_is_local_bigendian(event->tep);
	kp->fmt = known[k].fmt;
}

/* Output into a buffer that may be too short: the length is still counted. */
struct out {
	char *buf;
	size_t len;
	size_t n;
};

static void put(struct out *o, const char *s, size_t n)
{
	if (o->n < o->len)
		lt_copy_short(o->buf + o->n, s,
			      o->len - o->n < n ? o->len - o->n : n);
	o->n += n;
}

static void puts_(struct out *o, const char *s)
{
	put(o, s, strlen(s));
}

static const char two_digits[201] =
	"00010203040506070809101112131415161718192021222324252627282930313233"
	"34353637383940414243444546474849505152535455565758596061626364656667"
	"6869707172737475767778798081828384858687888990919293949596979899";

/* "%d", or "%03d" with @width 3 (non-negative values only). */
static void put_int(struct out *o, int v, int width)
{
	char tmp[16];
	unsigned int u = v < 0 ? -(unsigned int)v : (unsigned int)v;
	int n = sizeof(tmp);

	while (u >= 10) {
		n -= 2;
		memcpy(tmp + n, two_digits + u % 100 * 2, 2);
		u /= 100;
	}
	if (u || n == (int)sizeof(tmp))
		tmp[--n] = '0' + u;
	while ((int)sizeof(tmp) - n < width)
		tmp[--n] = '0';
	if (v < 0)
		tmp[--n] = '-';
	put(o, tmp + n, sizeof(tmp) - n);
}

/* tep_read_number() of a field checked to be 4 or 8 bytes, without the call */
static unsigned long long rd(const struct lt_known_print *kp,
			     const struct tep_format_field *f,
			     const struct tep_record *rec)
{
	const char *p = (const char *)rec->data + f->offset;
	uint32_t v32;
	uint64_t v64;

	if (f->size == 8) {
		memcpy(&v64, p, 8);
		return kp->swap ? __builtin_bswap64(v64) : v64;
	}
	memcpy(&v32, p, 4);
	return kp->swap ? __builtin_bswap32(v32) : v32;
}

static int num(const struct lt_known_print *kp,
	       const struct tep_format_field *f, const struct tep_record *rec)
{
	return (int)rd(kp, f, rec);
}

/* A char array printed with %s: up to its first NUL. */
static void put_comm(struct out *o, const struct tep_format_field *f,
		     const struct tep_record *rec)
{
	const char *s = (const char *)rec->data + f->offset;

	put(o, s, strnlen(s, f->size));
}

static bool put_state(struct out *o, const struct lt_known_print *kp,
		      unsigned long long st)
{
	unsigned long long val = st & (kp->preempt_marker - 1);
	bool any = false;
	int i;

	if (!val) {
		puts_(o, "R");
	} else {
		for (i = 0; i < kp->nr_flags; i++) {
			if ((val & kp->flag_bit[i]) != kp->flag_bit[i])
				continue;
			if (any)
				puts_(o, "|");
			puts_(o, kp->flag_str[i]);
			any = true;
			val &= ~kp->flag_bit[i];
		}
		if (val)
			return false;	/* bits without a letter: hex */
	}
	if (st & kp->preempt_marker)
		puts_(o, "+");
	return true;
}

ssize_t lt_known_print(const struct lt_known_print *kp,
		       struct tep_handle *tep, const struct tep_record *rec,
		       char *buf, size_t len)
{
	struct out o = { buf, len ? len - 1 : 0, 0 };
	int i, v;

	if (kp->fmt == LT_FMT_NONE)
		return -1;
	for (i = 0; i < LT_KNOWN_MAX_FIELDS; i++)
		if (kp->f[i] && (kp->f[i]->offset < 0 ||
				 kp->f[i]->offset + kp->f[i]->size > rec->size))
			return -1;
	switch (kp->fmt) {
	case LT_FMT_SWITCH:
		puts_(&o, "prev_comm=");
		put_comm(&o, kp->f[0], rec);
		puts_(&o, " prev_pid=");
		put_int(&o, num(kp, kp->f[1], rec), 0);
		puts_(&o, " prev_prio=");
		put_int(&o, num(kp, kp->f[2], rec), 0);
		puts_(&o, " prev_state=");
		if (!put_state(&o, kp, rd(kp, kp->f[3], rec)))
			return -1;
		puts_(&o, " ==> next_comm=");
		put_comm(&o, kp->f[5], rec);
		puts_(&o, " next_pid=");
		put_int(&o, num(kp, kp->f[6], rec), 0);
		puts_(&o, " next_prio=");
		put_int(&o, num(kp, kp->f[7], rec), 0);
		break;
	case LT_FMT_WAKEUP:
		v = num(kp, kp->f[3], rec);
		if (v < 0)
			return -1;	/* "%03d" of a negative number */
		puts_(&o, "comm=");
		put_comm(&o, kp->f[0], rec);
		puts_(&o, " pid=");
		put_int(&o, num(kp, kp->f[1], rec), 0);
		puts_(&o, " prio=");
		put_int(&o, num(kp, kp->f[2], rec), 0);
		puts_(&o, " target_cpu=");
		put_int(&o, v, 3);
		break;
	case LT_FMT_VECTOR:
		puts_(&o, "vector=");
		put_int(&o, num(kp, kp->f[0], rec), 0);
		break;
	default:
		return -1;
	}
	if (len)
		buf[o.n < len - 1 ? o.n : len - 1] = '\0';
	return o.n;
}
