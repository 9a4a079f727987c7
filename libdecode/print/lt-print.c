// SPDX-License-Identifier: LGPL-2.1
/*
 * Event printing: each event's info as the kernel's own trace file prints
 * it. libtraceevent parses the print formats into argument trees; this
 * file evaluates those trees with the kernel's printf semantics (vsprintf
 * and the trace_print_*_seq helpers), which libtraceevent's own printing
 * does not follow everywhere: %pS offset/size, %p and %px as 16 raw hex
 * digits (no_hash_pointers), %#x of 0 as 0x0, flag sets left empty for 0,
 * bitmasks as 32-bit groups. The syscall events print in their own
 * layout, as the kernel's trace_syscalls.c does. The events the analysis
 * reads go straight to libtraceevent, which is exact and fast for them.
 */
#include <ctype.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../lt-util.h"
#include "lt-print.h"
#include "lt-print-known.h"

/* Documented in lt-util.h. */
static pthread_mutex_t parse_lock = PTHREAD_MUTEX_INITIALIZER;

void lt_parse_lock(void)
{
	pthread_mutex_lock(&parse_lock);
}

void lt_parse_unlock(void)
{
	pthread_mutex_unlock(&parse_lock);
}

enum print_mode {
	PM_UNKNOWN = 0,
	PM_TEP,		/* libtraceevent's own printing */
	PM_OWN,		/* our evaluation of the print format */
	PM_SYS_ENTER,
	PM_SYS_EXIT,
	PM_REPARSED,	/* libtraceevent on our fixed copy of the format */
	PM_PROBE,	/* a kprobe, fprobe, tprobe or uprobe: "(%lx)" */
	PM_PROBE_RET,	/* their return probes: "(%lx <- %lx)" */
	PM_FGRAPH_ENTRY, /* ftrace's funcgraph_entry: "func() {" */
	PM_FGRAPH_EXIT,	/* funcgraph_exit: duration and "}" */
};

#define MAX_PTR_KEYS 4
#define PAD 8		/* zeros after a record handed to libtraceevent */

struct ev_print {
	enum print_mode mode;
	struct tep_event *event;	/* the one to evaluate (maybe re-parsed) */
	char sys_name[64];		/* "sys_read" */
	/* PM_TEP: text before each plain %p, to print it raw */
	char ptr_key[MAX_PTR_KEYS][32];
	int nr_ptr_keys;
	struct fmt_prog *prog;		/* PM_OWN, PM_PROBE*: the format parsed */
};

#define SYM_MEMO 256	/* slots, by table entry */
#define ADDR_MEMO 256	/* slots, by address: %ps, %pS, probe heads */
#define TYPE_MEMO 64	/* slots, by type name: casts */
#define SYMBOLIC_MEMO 64 /* slots, by table and value */

struct lt_printer {
	struct tep_handle *tep;
	int long_size;
	bool big_endian;
	struct ev_print *ev;
	int nr_ev;
	struct trace_seq tmp;
	int next_fake_id;
	unsigned char *copy;	/* a record, zero-padded (and retyped) */
	int copy_size;
	struct tep_event *str_probe;	/* "%s" of a kernel string address */
	struct lt_module_lookup mod_of;
	bool str_big_endian;		/* how libtraceevent reads its field */
	bool bare_syscall_hex;		/* a kernel before 6.18: "fd: b" */
	struct {
		int id;
		char *fmt;
	} *src;				/* lt_printer_add_format() */
	int nr_src;
	struct fgraph_cpu *fgraph;	/* per CPU, once a graph is printed */
	/*
	 * __print_symbolic()/__print_flags() values by table entry: an
	 * enum name (HRTIMER_MODE_ABS) costs a search by name, and
	 * hrtimer_start alone asks for one at every event
	 */
	struct sym_memo {
		const struct tep_print_flag_sym *sym;
		unsigned long long v;
		bool ok;
	} sym_memo[SYM_MEMO];
	/* the symbol of an address, as lt_print_symbol() looks it up */
	struct addr_memo {
		unsigned long long addr, start;
		unsigned long size;
		const char *name, *mod;
		bool used, offset, found;
	} addr_memo[ADDR_MEMO];
	/* what a cast's type name stands for (type_of()) */
	struct type_memo {
		const char *type;
		int size;
		bool sign;
	} type_memo[TYPE_MEMO];
	/* __print_symbolic()'s answer by table and value: NULL for hex */
	struct symbolic_memo {
		const struct tep_print_flag_sym *syms;
		unsigned long long v;
		const char *str;
	} symbolic_memo[SYMBOLIC_MEMO];
	bool swap;			/* the file's byte order is not ours */
};

/* A value of the expression evaluator. */
struct val {
	unsigned long long n;
	const unsigned char *ptr;	/* array or string data in the record */
	int len;
	const char *str;		/* a string literal */
};

struct ctx {
	struct lt_printer *p;
	struct tep_event *event;
	struct tep_record *rec;
	bool bad;			/* a construct we do not know */
	bool in_value;			/* evaluating a %p's or an integer's argument */
	bool withheld;			/* it named a value the trace lacks */
	bool probe;			/* a probe's fetch args: "(fault)" */
};

/*
 * Constants some kernels leave by name in their formats (no eval map
 * entry): values from the kernel's uapi/linux/ioprio.h and
 * linux/hrtimer_types.h, stable across the kernels we read.
 */
static const struct {
	const char *name;
	unsigned long long v;
} named_constants[] = {
	{ "HRTIMER_MODE_ABS", 0 }, { "HRTIMER_MODE_REL", 1 },
	{ "HRTIMER_MODE_PINNED", 2 }, { "HRTIMER_MODE_SOFT", 4 },
	{ "HRTIMER_MODE_HARD", 8 },
	{ "HRTIMER_MODE_ABS_PINNED", 2 }, { "HRTIMER_MODE_REL_PINNED", 3 },
	{ "HRTIMER_MODE_ABS_SOFT", 4 }, { "HRTIMER_MODE_REL_SOFT", 5 },
	{ "HRTIMER_MODE_ABS_PINNED_SOFT", 6 },
	{ "HRTIMER_MODE_REL_PINNED_SOFT", 7 },
	{ "HRTIMER_MODE_ABS_HARD", 8 }, { "HRTIMER_MODE_REL_HARD", 9 },
	{ "HRTIMER_MODE_ABS_PINNED_HARD", 10 },
	{ "HRTIMER_MODE_REL_PINNED_HARD", 11 },
	{ "IOPRIO_CLASS_NONE", 0 }, { "IOPRIO_CLASS_RT", 1 },
	{ "IOPRIO_CLASS_BE", 2 }, { "IOPRIO_CLASS_IDLE", 3 },
	{ "IOPRIO_CLASS_INVALID", 7 },
	/*
	 * The inode state flags of the writeback events, by name since they
	 * became enum inode_state_flags_enum (linux/fs.h; 6.18 and 7.2 agree;
	 * older kernels' formats carry the numbers of their #defines).
	 */
	{ "I_NEW", 1 << 0 }, { "I_SYNC", 1 << 1 },
	{ "I_LRU_ISOLATING", 1 << 2 }, { "I_DIRTY_SYNC", 1 << 4 },
	{ "I_DIRTY_DATASYNC", 1 << 5 }, { "I_DIRTY_PAGES", 1 << 6 },
	{ "I_WILL_FREE", 1 << 7 }, { "I_FREEING", 1 << 8 },
	{ "I_CLEAR", 1 << 9 }, { "I_REFERENCED", 1 << 10 },
	{ "I_LINKABLE", 1 << 11 }, { "I_DIRTY_TIME", 1 << 12 },
	{ "I_WB_SWITCH", 1 << 13 }, { "I_OVL_INUSE", 1 << 14 },
	{ "I_CREATING", 1 << 15 }, { "I_DONTCACHE", 1 << 16 },
	{ "I_SYNC_QUEUED", 1 << 17 }, { "I_PINNING_NETFS_WB", 1 << 18 },
};

/*
 * Formats libtraceevent 1.7 cannot parse (a literal tab in the format
 * string ends it early), as the kernel's include/trace/events/maple_tree.h
 * defines them, with the plain %p as the raw 16 digits no_hash_pointers
 * prints (64-bit kernels); the fields are the recorded ones.
 */
static const struct {
	const char *system, *name, *fmt;
} reparse[] = {
	{ "maple_tree", "ma_op",
	  "\"%s\\tNode: %016lx (%lu %lu) range: %lu-%lu\", REC->fn, "
	  "(unsigned long) REC->node, (unsigned long) REC->min, "
	  "(unsigned long) REC->max, (unsigned long) REC->index, "
	  "(unsigned long) REC->last" },
	{ "maple_tree", "ma_read",
	  "\"%s\\tNode: %016lx (%lu %lu) range: %lu-%lu\", REC->fn, "
	  "(unsigned long) REC->node, (unsigned long) REC->min, "
	  "(unsigned long) REC->max, (unsigned long) REC->index, "
	  "(unsigned long) REC->last" },
	{ "maple_tree", "ma_write",
	  "\"%s\\tNode %016lx (%lu %lu) range:%lu-%lu piv (%lu) val %016lx\", "
	  "REC->fn, (unsigned long) REC->node, (unsigned long) REC->min, "
	  "(unsigned long) REC->max, (unsigned long) REC->index, "
	  "(unsigned long) REC->last, (unsigned long) REC->piv, "
	  "(unsigned long) REC->val" },
};

/* ------------------------------------------------------------------ */
/* Writing text                                                        */
/* ------------------------------------------------------------------ */

/*
 * @n bytes into @s: one copy into its buffer when they fit (trace_seq's
 * own calls are a character or a strlen() at a time), else through
 * trace_seq_putc(), which grows it.
 */
static void seq_put(struct trace_seq *s, const char *p, size_t n)
{
	if (s->state == TRACE_SEQ__GOOD && s->buffer &&
	    n < s->buffer_size - s->len) {
		lt_copy_short(s->buffer + s->len, p, n);
		s->len += n;
		return;
	}
	while (n--)
		trace_seq_putc(s, *p++);
}

static void seq_puts(struct trace_seq *s, const char *str)
{
	seq_put(s, str, strlen(str));
}

/* @n times @ch. */
static void seq_pad(struct trace_seq *s, char ch, long long n)
{
	char buf[32];
	size_t k;

	memset(buf, ch, sizeof(buf));
	for (; n > 0; n -= k) {
		k = n < (long long)sizeof(buf) ? (size_t)n : sizeof(buf);
		seq_put(s, buf, k);
	}
}

static const char two_digits[201] =
	"00010203040506070809101112131415161718192021222324252627282930313233"
	"34353637383940414243444546474849505152535455565758596061626364656667"
	"6869707172737475767778798081828384858687888990919293949596979899";

/* The decimal digits of @v, written backwards from @end. */
static char *dec_digits(char *end, unsigned long long v)
{
	char *last = end;

	while (v >= 10) {
		end -= 2;
		memcpy(end, two_digits + v % 100 * 2, 2);
		v /= 100;
	}
	if (v || end == last)
		*--end = '0' + v;
	return end;
}

/* The hex digits of @v, written backwards from @end. */
static char *hex_digits(char *end, unsigned long long v, bool upper)
{
	const char *d = upper ? "0123456789ABCDEF" : "0123456789abcdef";

	do {
		*--end = d[v & 15];
		v >>= 4;
	} while (v);
	return end;
}

/* "%0*llx": @v in lower-case hex, zero-padded to @width (at most 20). */
static void put_hex(struct trace_seq *s, unsigned long long v, int width)
{
	char buf[24], *end = buf + sizeof(buf), *p = hex_digits(end, v, false);

	while (end - p < width && p > buf)
		*--p = '0';
	seq_put(s, p, end - p);
}

/* "0x%llx" */
static void put_0x(struct trace_seq *s, unsigned long long v)
{
	char buf[24], *end = buf + sizeof(buf), *p = hex_digits(end, v, false);

	*--p = 'x';
	*--p = '0';
	seq_put(s, p, end - p);
}

/* ------------------------------------------------------------------ */
/* Per-construct printers                                              */
/* ------------------------------------------------------------------ */

/*
 * A flag or symbol value: a number, or a constant known by name; false
 * for a name whose value the trace does not tell.
 */
static bool sym_value(const char *s, unsigned long long *v)
{
	size_t i;

	if (isdigit((unsigned char)s[0]) || s[0] == '-') {
		*v = strtoull(s, NULL, 0);
		return true;
	}
	for (i = 0; i < ARRAY_SIZE(named_constants); i++) {
		if (!strcmp(s, named_constants[i].name)) {
			*v = named_constants[i].v;
			return true;
		}
	}
	return false;
}

/* A table entry's value, through @memo when there is one. */
static bool sym_of(struct sym_memo *memo, const struct tep_print_flag_sym *f,
		   unsigned long long *v)
{
	struct sym_memo *m;

	if (!memo)
		return sym_value(f->value, v);
	m = &memo[((uintptr_t)f / sizeof(*f)) % SYM_MEMO];
	if (m->sym != f) {
		m->sym = f;
		m->ok = sym_value(f->value, &m->v);
	}
	*v = m->v;
	return m->ok;
}

static void print_flags(struct trace_seq *s, unsigned long long v,
			const char *delim, struct tep_print_flag_sym *flags,
			struct sym_memo *memo)
{
	struct tep_print_flag_sym *f;
	unsigned long long mask;
	bool first = true;

	for (f = flags; f && v; f = f->next) {
		if (!sym_of(memo, f, &mask) || (v & mask) != mask)
			continue;
		v &= ~mask;
		if (!first && delim)
			seq_puts(s, delim);
		first = false;
		seq_puts(s, f->str);
	}
	if (v) {
		if (!first && delim)
			seq_puts(s, delim);
		put_0x(s, v);
	}
}

/* __print_symbolic's name of @v: the first with that value, or NULL. */
static const char *symbolic_str(unsigned long long v,
				struct tep_print_flag_sym *syms,
				struct sym_memo *memo)
{
	unsigned long long sv;

	for (; syms; syms = syms->next)
		if (sym_of(memo, syms, &sv) && sv == v)
			return syms->str;
	return NULL;
}

/* __print_symbolic: the name, else the hex value. */
static void put_symbolic(struct trace_seq *s, unsigned long long v,
			 const char *str)
{
	if (str)
		seq_puts(s, str);
	else
		put_0x(s, v);
}

/* __print_flags: names in table order, what is left in hex; 0 prints "". */
void lt_print_flags(struct trace_seq *s, unsigned long long v,
		    const char *delim, struct tep_print_flag_sym *flags)
{
	print_flags(s, v, delim, flags, NULL);
}

void lt_print_symbolic(struct trace_seq *s, unsigned long long v,
		       struct tep_print_flag_sym *syms)
{
	put_symbolic(s, v, symbolic_str(v, syms, NULL));
}

/* __print_symbolic, its answer kept by table and value */
static void print_symbolic(struct lt_printer *p, struct trace_seq *s,
			   unsigned long long v,
			   struct tep_print_flag_sym *syms)
{
	struct symbolic_memo *m;

	m = &p->symbolic_memo[(((uintptr_t)syms >> 4) ^ v) % SYMBOLIC_MEMO];
	if (!m->syms || m->syms != syms || m->v != v) {
		m->syms = syms;
		m->v = v;
		m->str = symbolic_str(v, syms, p->sym_memo);
	}
	put_symbolic(s, v, m->str);
}

/*
 * A bitmask or cpumask as the kernel's "%*pb": 32-bit groups, the most
 * significant first, comma-separated, each in 8 hex digits. @data holds
 * @len bytes of the kernel's unsigned longs (@long_size bytes each) in
 * the file's byte order; @groups of them are printed. On a big-endian
 * 64-bit kernel a long's low 32 bits are its last four bytes.
 */
void lt_print_bitmask(struct trace_seq *s, const void *data, int len,
		      int groups, int long_size, bool big_endian)
{
	const unsigned char *b = data;
	bool first = true;
	int g, i, off;
	uint32_t w;

	for (g = groups - 1; g >= 0; g--) {
		off = g * 4;
		if (big_endian && long_size == 8)
			off = g / 2 * 8 + (g % 2 ? 0 : 4);
		if (off + 4 > len)
			continue;	/* not in the record: print nothing */
		w = 0;
		for (i = 0; i < 4; i++)
			w = big_endian ? w << 8 | b[off + i] :
					 w << 8 | b[off + 3 - i];
		trace_seq_printf(s, "%s%08x", first ? "" : ",", w);
		first = false;
	}
}

/* __print_hex (bytes separated by spaces) and __print_hex_str. */
void lt_print_hex(struct trace_seq *s, const unsigned char *buf, int len,
		  bool concatenate)
{
	int i;

	for (i = 0; i < len; i++)
		trace_seq_printf(s, "%s%2.2x", concatenate || !i ? "" : " ",
				 buf[i]);
}

/* __print_array: {0x1,0x2} */
void lt_print_array(struct trace_seq *s, const void *data, int count,
		    int el_size, bool big_endian)
{
	const unsigned char *b = data;
	unsigned long long v;
	int i, j;

	trace_seq_putc(s, '{');
	for (i = 0; i < count; i++) {
		v = 0;
		for (j = 0; j < el_size; j++) {
			int k = big_endian ? j : el_size - 1 - j;

			v = v << 8 | b[i * el_size + k];
		}
		trace_seq_printf(s, "%s0x%llx", i ? "," : "", v);
	}
	trace_seq_putc(s, '}');
}

/*
 * Into @m (its addr and offset set): the symbol @addr lies in (or
 * starts, without m->offset), its start and size, and the module
 * @mod_of (may be NULL) names for it.
 */
static void lookup_symbol(struct tep_handle *tep, unsigned long long addr,
			  const struct lt_module_lookup *mod_of,
			  struct addr_memo *m)
{
	const char *name = NULL;

	m->start = 0;
	m->size = 0;
	m->mod = NULL;
	/* It returns 1 when it found a symbol. */
	m->found = addr && (mod_of && mod_of->sym ?
			    mod_of->sym(mod_of->ctx, addr, m->offset, &name,
					&m->start, &m->size) :
			    tep_find_function_info(tep, addr, &name, &m->start,
						   &m->size)) && name;
	m->name = name;
	if (m->found && mod_of && mod_of->fn)
		m->mod = mod_of->fn(mod_of->ctx, m->start);
}

static void put_symbol(struct trace_seq *s, unsigned long long addr,
		       const struct addr_memo *m)
{
	if (!m->found) {
		put_0x(s, addr);
		return;
	}
	seq_puts(s, m->name);
	if (m->offset) {
		seq_put(s, "+", 1);
		put_0x(s, addr - m->start);
		seq_put(s, "/", 1);
		put_0x(s, m->size);
	}
	if (m->mod) {
		seq_put(s, " [", 2);
		seq_puts(s, m->mod);
		seq_put(s, "]", 1);
	}
}

/*
 * %pS/%pB ("sym+0xoff/0xsize", the size being the distance to the next
 * symbol) and %ps ("sym"), both with " [module]" for a module's function
 * when @mod_of (may be NULL) names one; an address with no symbol prints
 * as 0x...
 */
void lt_print_symbol(struct tep_handle *tep, struct trace_seq *s,
		     unsigned long long addr, bool offset,
		     const struct lt_module_lookup *mod_of)
{
	struct addr_memo m = { .addr = addr, .offset = offset };

	lookup_symbol(tep, addr, mod_of, &m);
	put_symbol(s, addr, &m);
}

/*
 * lt_print_symbol() with the printer's lookup, its answer kept by
 * address: the same timer functions and probe sites come back at every
 * event, and a lookup inside a function is a search of the whole table.
 */
static void print_symbol(struct lt_printer *p, struct trace_seq *s,
			 unsigned long long addr, bool offset)
{
	struct addr_memo *m;

	m = &p->addr_memo[((addr >> 4) ^ (addr >> 12) ^ offset) % ADDR_MEMO];
	if (!m->used || m->addr != addr || m->offset != offset) {
		m->used = true;
		m->addr = addr;
		m->offset = offset;
		lookup_symbol(p->tep, addr, &p->mod_of, m);
	}
	put_symbol(s, addr, m);
}

/* %p with no_hash_pointers: the raw value in 2 * sizeof(long) digits. */
void lt_print_pointer(struct trace_seq *s, unsigned long long v,
		      int long_size)
{
	put_hex(s, v, long_size * 2);
}

/*
 * A pointer whose value the trace does not hold (it depends on a kernel
 * variable): the placeholder the kernel itself prints for a pointer it
 * will not show, as wide as the pointer.
 */
void lt_print_withheld_pointer(struct trace_seq *s, int long_size)
{
	trace_seq_puts(s, long_size == 8 ? "(____ptrval____)" : "(ptrval)");
}

/*
 * One syscall argument: decimal below 10, hex from there; @bare_hex (a
 * kernel before 6.18) in hex without 0x whatever the value.
 */
void lt_print_syscall_arg(struct trace_seq *s, const char *name,
			  unsigned long long v, bool last, bool bare_hex)
{
	const char *fmt = "%s: 0x%llx%s";

	if (bare_hex)
		fmt = "%s: %llx%s";
	else if (v < 10)
		fmt = "%s: %llu%s";
	trace_seq_printf(s, fmt, name, v, last ? "" : ", ");
}

/* ------------------------------------------------------------------ */
/* Reading the record                                                  */
/* ------------------------------------------------------------------ */

/* tep_read_number() without the call. */
static unsigned long long rd(struct ctx *c, const void *ptr, int size)
{
	uint16_t v16;
	uint32_t v32;
	uint64_t v64;

	switch (size) {
	case 1:
		return *(const uint8_t *)ptr;
	case 2:
		memcpy(&v16, ptr, 2);
		return c->p->swap ? __builtin_bswap16(v16) : v16;
	case 4:
		memcpy(&v32, ptr, 4);
		return c->p->swap ? __builtin_bswap32(v32) : v32;
	case 8:
		memcpy(&v64, ptr, 8);
		return c->p->swap ? __builtin_bswap64(v64) : v64;
	default:
		return tep_read_number(c->p->tep, ptr, size);
	}
}

static bool in_rec(struct ctx *c, int off, int len)
{
	return off >= 0 && len >= 0 && off + len <= c->rec->size;
}

/* A dynamic field's data: __data_loc (absolute) or __rel_loc. */
static const unsigned char *dyn_data(struct ctx *c, struct tep_format_field *f,
				     int *len)
{
	unsigned int loc;
	int off;

	if (!in_rec(c, f->offset, 4)) {
		*len = 0;
		return NULL;
	}
	loc = rd(c, (char *)c->rec->data + f->offset, 4);
	off = loc & 0xffff;
	*len = loc >> 16;
	if (f->flags & TEP_FIELD_IS_RELATIVE)
		off += f->offset + f->size;
	if (!in_rec(c, off, *len)) {
		*len = 0;
		return NULL;
	}
	return (const unsigned char *)c->rec->data + off;
}

static struct tep_format_field *field_of(struct ctx *c,
					 struct tep_format_field *f,
					 const char *name)
{
	if (f)
		return f;
	return name ? tep_find_any_field(c->event, name) : NULL;
}

static struct val read_field(struct ctx *c, struct tep_format_field *f)
{
	struct val v = { 0 };
	unsigned long long n;

	if (!f) {
		c->bad = true;
		return v;
	}
	if (f->flags & TEP_FIELD_IS_DYNAMIC) {
		v.ptr = dyn_data(c, f, &v.len);
		return v;
	}
	if (!in_rec(c, f->offset, f->size)) {
		c->bad = true;
		return v;
	}
	if (f->flags & TEP_FIELD_IS_ARRAY) {
		v.ptr = (const unsigned char *)c->rec->data + f->offset;
		v.len = f->size;
		/* a flexible array (ftrace's print buf[]) ends with the record */
		if (!f->size)
			v.len = c->rec->size - f->offset;
		return v;
	}
	n = rd(c, (char *)c->rec->data + f->offset, f->size);
	if (f->flags & TEP_FIELD_IS_SIGNED) {
		if (f->size == 1)
			n = (long long)(signed char)n;
		else if (f->size == 2)
			n = (long long)(short)n;
		else if (f->size == 4)
			n = (long long)(int)n;
	}
	v.n = n;
	return v;
}

/* ------------------------------------------------------------------ */
/* Expressions                                                         */
/* ------------------------------------------------------------------ */

static unsigned long long num(struct ctx *c, struct tep_print_arg *a);

/* The size and signedness a C type name stands for. */
static void type_of(struct ctx *c, const char *t, int *size, bool *sign)
{
	int ls = c->p->long_size;

	*sign = !strstr(t, "unsigned") && t[0] != 'u' && !strstr(t, "size_t") &&
		!strstr(t, "gfp_t") && !strchr(t, '*') && strcmp(t, "bool");
	if (strchr(t, '*'))
		*size = ls;
	else if (strstr(t, "long long") || strstr(t, "64") ||
		 strstr(t, "loff_t"))
		*size = 8;
	else if (strstr(t, "long") || strstr(t, "size_t"))
		*size = ls;
	else if (strstr(t, "short") || strstr(t, "16"))
		*size = 2;
	else if (strstr(t, "char") || strstr(t, "8") || !strcmp(t, "bool"))
		*size = 1;
	else if (strstr(t, "int") || strstr(t, "32") || strstr(t, "gfp_t") ||
		 strstr(t, "pid_t") || !strcmp(t, "unsigned"))
		*size = 4;
	else
		*size = 0;	/* struct or unknown: leave the value alone */
}

/* type_of() of a cast in a format, whose name stays where it is. */
static void type_of_memo(struct ctx *c, const char *t, int *size, bool *sign)
{
	struct type_memo *m;

	m = &c->p->type_memo[((uintptr_t)t >> 3) % TYPE_MEMO];
	if (m->type != t) {
		type_of(c, t, &m->size, &m->sign);
		m->type = t;
	}
	*size = m->size;
	*sign = m->sign;
}

static unsigned long long cast(unsigned long long v, int size, bool sign)
{
	switch (size) {
	case 1:
		return sign ? (unsigned long long)(signed char)v : (unsigned char)v;
	case 2:
		return sign ? (unsigned long long)(short)v : (unsigned short)v;
	case 4:
		return sign ? (unsigned long long)(int)v : (unsigned int)v;
	default:
		return v;
	}
}

static unsigned long long atom_num(struct ctx *c, const char *s)
{
	unsigned long long v;
	size_t i;
	char *end;

	if (isdigit((unsigned char)s[0])) {
		v = strtoull(s, &end, 0);
		while (*end == 'U' || *end == 'L' || *end == 'u' || *end == 'l')
			end++;
		if (*end)
			c->bad = true;
		return v;
	}
	for (i = 0; i < ARRAY_SIZE(named_constants); i++)
		if (!strcmp(s, named_constants[i].name))
			return named_constants[i].v;
	/*
	 * A kernel variable (vmemmap_base, memstart_addr) or a sizeof the
	 * format leaves to the compiler: its value is not in the trace. A
	 * value computed from it is withheld, anything else is unknown.
	 */
	if (c->in_value && (isalpha((unsigned char)s[0]) || s[0] == '_'))
		c->withheld = true;
	else
		c->bad = true;
	return 0;
}

static bool is_signed_arg(struct tep_print_arg *a)
{
	while (a && a->type == TEP_PRINT_TYPE)
		a = a->typecast.item;
	return a && a->type == TEP_PRINT_FIELD && a->field.field &&
	       (a->field.field->flags & TEP_FIELD_IS_SIGNED);
}

/* A constant, or constants joined by '|'. */
static bool const_or(struct tep_print_arg *a)
{
	if (a && a->type == TEP_PRINT_ATOM)
		return isdigit((unsigned char)a->atom.atom[0]);
	return a && a->type == TEP_PRINT_OP && !strcmp(a->op.op, "|") &&
	       const_or(a->op.left) && const_or(a->op.right);
}

/*
 * libtraceevent 1.7 drops the parentheses of "x & (A | B | C)" and
 * gives (x & A) | (B | C), a constant OR'ed into a mask that C code never
 * means (gcc asks for parentheses there): read it as the kernel wrote it.
 */
static bool lost_parens(struct tep_print_arg *a)
{
	struct tep_print_arg *l = a->op.left;

	return !strcmp(a->op.op, "|") && l && l->type == TEP_PRINT_OP &&
	       !strcmp(l->op.op, "&") && const_or(l->op.right) &&
	       const_or(a->op.right);
}

static bool is_compare(struct tep_print_arg *a)
{
	static const char *const ops[] = { "<", ">", "<=", ">=", "==", "!=" };
	size_t i;

	if (!a || a->type != TEP_PRINT_OP || !a->op.left ||
	    a->op.left->type == TEP_PRINT_NULL)
		return false;
	for (i = 0; i < ARRAY_SIZE(ops); i++)
		if (!strcmp(a->op.op, ops[i]))
			return true;
	return false;
}

static unsigned long long compare(const char *op, unsigned long long l,
				  unsigned long long r, bool sign)
{
	long long sl = l, sr = r;

	switch (op[0]) {
	case '<':
		return op[1] == '=' ? (sign ? sl <= sr : l <= r) :
				      (sign ? sl < sr : l < r);
	case '>':
		return op[1] == '=' ? (sign ? sl >= sr : l >= r) :
				      (sign ? sl > sr : l > r);
	case '=':
		return l == r;
	default:
		return l != r;
	}
}

/*
 * "REC->stk[1]": an element of a fixed array field (a probe's array
 * fetch arg, "u64 stk[]" of 16 bytes), its size from the element type.
 */
static unsigned long long element(struct ctx *c, struct tep_print_arg *a)
{
	struct tep_print_arg *l = a->op.left;
	struct tep_format_field *f;
	unsigned long long i;
	char type[64];
	int size;
	bool sign;

	if (!l || l->type != TEP_PRINT_FIELD) {
		c->bad = true;
		return 0;
	}
	f = l->field.field = field_of(c, l->field.field, l->field.name);
	i = num(c, a->op.right);
	if (!f || (f->flags & TEP_FIELD_IS_DYNAMIC) || c->bad) {
		c->bad = true;
		return 0;
	}
	snprintf(type, sizeof(type), "%.*s", (int)strcspn(f->type, "["),
		 f->type);
	type_of(c, type, &size, &sign);
	if (!size || i >= (unsigned long long)(f->size / size) ||
	    !in_rec(c, f->offset + (int)i * size, size)) {
		c->bad = true;
		return 0;
	}
	return cast(rd(c, (char *)c->rec->data + f->offset + i * size, size),
		    size, sign);
}

static unsigned long long op_num(struct ctx *c, struct tep_print_arg *a)
{
	const char *op = a->op.op;
	unsigned long long l, r;
	bool sign;

	if (!strcmp(op, "?")) {
		struct tep_print_arg *alt = a->op.right, *cond = a->op.left;

		if (!alt || alt->type != TEP_PRINT_OP || strcmp(alt->op.op, ":")) {
			c->bad = true;
			return 0;
		}
		/*
		 * libtraceevent 1.7 reads "x < (y < z ? a : b)" (min() in
		 * kmem's extfrag format) as "(x < (y < z)) ? a : b", a
		 * chained comparison C code never means (gcc warns):
		 * evaluate it as written.
		 */
		if (is_compare(cond) && is_compare(cond->op.right)) {
			r = num(c, cond->op.right) ? num(c, alt->op.left) :
						     num(c, alt->op.right);
			return compare(cond->op.op, num(c, cond->op.left), r,
				       is_signed_arg(cond->op.left));
		}
		return num(c, cond) ? num(c, alt->op.left) :
				      num(c, alt->op.right);
	}
	if (!a->op.left || a->op.left->type == TEP_PRINT_NULL) {
		r = num(c, a->op.right);
		switch (op[0]) {
		case '!':
			return !r;
		case '~':
			return ~r;
		case '-':
			return -r;
		case '+':
			return r;
		}
		c->bad = true;
		return 0;
	}
	if (!strcmp(op, "["))
		return element(c, a);
	if (lost_parens(a))
		return num(c, a->op.left->op.left) &
		       (num(c, a->op.left->op.right) | num(c, a->op.right));
	l = num(c, a->op.left);
	if (!strcmp(op, "&&"))
		return l && num(c, a->op.right);
	if (!strcmp(op, "||"))
		return l || num(c, a->op.right);
	r = num(c, a->op.right);
	sign = is_signed_arg(a->op.left) || is_signed_arg(a->op.right);
	switch (op[0]) {
	case '+':
		return l + r;
	case '-':
		return l - r;
	case '*':
		return l * r;
	case '/':
		if (!r)
			return 0;
		return sign ? (unsigned long long)((long long)l / (long long)r) :
			      l / r;
	case '%':
		if (!r)
			return 0;
		return sign ? (unsigned long long)((long long)l % (long long)r) :
			      l % r;
	case '^':
		return l ^ r;
	case '&':
		return l & r;
	case '|':
		return l | r;
	case '<':
		if (op[1] == '<')
			return l << (r & 63);
		return compare(op, l, r, sign);
	case '>':
		if (op[1] == '>')
			return sign ? (unsigned long long)((long long)l >> (r & 63)) :
				      l >> (r & 63);
		return compare(op, l, r, sign);
	case '=':
	case '!':
		return compare(op, l, r, sign);
	}
	c->bad = true;
	return 0;
}

static unsigned long long num(struct ctx *c, struct tep_print_arg *a)
{
	struct tep_format_field *f;
	struct val v;
	int size;
	bool sign;

	if (!a) {
		c->bad = true;
		return 0;
	}
	switch (a->type) {
	case TEP_PRINT_ATOM:
		return atom_num(c, a->atom.atom);
	case TEP_PRINT_FIELD:
		f = a->field.field = field_of(c, a->field.field, a->field.name);
		v = read_field(c, f);
		if (v.ptr)	/* an array's address: only its truth counts */
			return 1;
		return v.n;
	case TEP_PRINT_TYPE:
		type_of_memo(c, a->typecast.type, &size, &sign);
		return cast(num(c, a->typecast.item), size, sign);
	case TEP_PRINT_OP:
		return op_num(c, a);
	case TEP_PRINT_DYNAMIC_ARRAY_LEN:
		f = field_of(c, a->dynarray.field, NULL);
		if (!f) {
			c->bad = true;
			return 0;
		}
		dyn_data(c, f, &size);
		return size;
	default:
		c->bad = true;
		return 0;
	}
}

/* Data an argument points to: an array, a dynamic array or a string. */
static const unsigned char *data_of(struct ctx *c, struct tep_print_arg *a,
				    int *len)
{
	struct tep_format_field *f = NULL;
	struct val v;

	*len = 0;
	while (a && a->type == TEP_PRINT_TYPE)
		a = a->typecast.item;
	if (!a) {
		c->bad = true;
		return NULL;
	}
	switch (a->type) {
	case TEP_PRINT_FIELD:
		f = a->field.field = field_of(c, a->field.field, a->field.name);
		break;
	case TEP_PRINT_DYNAMIC_ARRAY:
		f = a->dynarray.field;
		break;
	case TEP_PRINT_STRING:
		f = a->string.field = field_of(c, a->string.field,
					       a->string.string);
		break;
	case TEP_PRINT_BITMASK:
	case TEP_PRINT_CPUMASK:
		f = a->bitmask.field = field_of(c, a->bitmask.field,
						a->bitmask.bitmask);
		break;
	default:
		break;
	}
	if (!f) {
		c->bad = true;
		return NULL;
	}
	v = read_field(c, f);
	if (!v.ptr) {
		if (!(f->flags & TEP_FIELD_IS_DYNAMIC))
			c->bad = true;	/* a pointer into the kernel */
		return NULL;
	}
	*len = v.len;
	return v.ptr;
}

/*
 * A kernel string by its address (a tracepoint_string or __func__ the
 * trace's printk formats list): libtraceevent knows them but only prints
 * them, so it prints a one-field probe event holding the address, in the
 * byte order it reads that field in (str_order).
 */
static void put_str_probe(struct lt_printer *p, unsigned char *data,
			  unsigned long long addr, bool big_endian)
{
	int id = p->str_probe->id, i;

	memset(data, 0, 16);
	for (i = 0; i < 8; i++)
		data[8 + (big_endian ? 7 - i : i)] = addr >> (8 * i);
	/* common_type: tep_read_number(), the file's order */
	data[p->big_endian ? 1 : 0] = id & 0xff;
	data[p->big_endian ? 0 : 1] = id >> 8;
}

static void kernel_string(struct lt_printer *p, struct trace_seq *s,
			  unsigned long long addr)
{
	unsigned char data[16];
	struct tep_record r = { .data = data, .size = sizeof(data) };

	put_str_probe(p, data, addr, p->str_big_endian);
	tep_print_event(p->tep, s, &r, "%s", TEP_PRINT_INFO);
}

/*
 * libtraceevent 1.7 reads a pointer-sized %s field as a host integer,
 * not in the file's order (a big-endian file on a little-endian host
 * printed the address byte-reversed): ask it once. An address no printk
 * string has comes back as "%llx".
 */
static void str_probe_order(struct lt_printer *p)
{
	const unsigned long long probe = 0x0102030405060708ULL;
	unsigned char data[16];
	struct tep_record r = { .data = data, .size = sizeof(data) };
	struct trace_seq *t = &p->tmp;

	p->str_big_endian = p->big_endian;
	put_str_probe(p, data, probe, p->big_endian);
	trace_seq_reset(t);
	tep_print_event(p->tep, t, &r, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(t);
	if (strcmp(t->buffer, "102030405060708"))
		p->str_big_endian = !p->big_endian;
	trace_seq_reset(t);
}

/* The text an argument prints for %s. */
static void str_arg(struct ctx *c, struct trace_seq *s, struct tep_print_arg *a)
{
	const unsigned char *d;
	int len, n;

	while (a && a->type == TEP_PRINT_TYPE)
		a = a->typecast.item;
	if (!a) {
		c->bad = true;
		return;
	}
	switch (a->type) {
	case TEP_PRINT_ATOM:
		trace_seq_puts(s, a->atom.atom);
		return;
	case TEP_PRINT_OP:
		if (!strcmp(a->op.op, "?") && a->op.right &&
		    a->op.right->type == TEP_PRINT_OP &&
		    !strcmp(a->op.right->op.op, ":")) {
			str_arg(c, s, num(c, a->op.left) ?
				a->op.right->op.left : a->op.right->op.right);
			return;
		}
		c->bad = true;
		return;
	case TEP_PRINT_FLAGS:
		print_flags(s, num(c, a->flags.field), a->flags.delim,
			    a->flags.flags, c->p->sym_memo);
		return;
	case TEP_PRINT_SYMBOL:
		print_symbolic(c->p, s, num(c, a->symbol.field),
			       a->symbol.symbols);
		return;
	case TEP_PRINT_BITMASK:
	case TEP_PRINT_CPUMASK:
		d = data_of(c, a, &len);
		if (d)
			lt_print_bitmask(s, d, len, len / 4, c->p->long_size,
					 c->p->big_endian);
		return;
	case TEP_PRINT_HEX:
	case TEP_PRINT_HEX_STR:
		d = data_of(c, a->hex.field, &len);
		n = num(c, a->hex.size);
		if (d)
			lt_print_hex(s, d, n < len ? n : len,
				     a->type == TEP_PRINT_HEX_STR);
		return;
	case TEP_PRINT_INT_ARRAY: {
		int count = num(c, a->int_array.count);
		int el = num(c, a->int_array.el_size);

		d = data_of(c, a->int_array.field, &len);
		if (!d || el <= 0 || el > 8 || count < 0)
			return;
		if (count * el > len)
			count = len / el;
		lt_print_array(s, d, count, el, c->p->big_endian);
		return;
	}
	case TEP_PRINT_FIELD:
		a->field.field = field_of(c, a->field.field, a->field.name);
		if (a->field.field && c->p->str_probe &&
		    !(a->field.field->flags & (TEP_FIELD_IS_ARRAY |
					       TEP_FIELD_IS_DYNAMIC)) &&
		    a->field.field->size == c->p->long_size) {
			kernel_string(c->p, s, read_field(c, a->field.field).n);
			return;
		}
		/* fall through */
	case TEP_PRINT_STRING:
	case TEP_PRINT_DYNAMIC_ARRAY:
		d = data_of(c, a, &len);
		if (d)
			seq_put(s, (const char *)d, strnlen((const char *)d, len));
		return;
	default:
		c->bad = true;
	}
}

/* ------------------------------------------------------------------ */
/* The format string                                                   */
/* ------------------------------------------------------------------ */

struct spec {
	char flags[8];
	int width;		/* -1: none */
	int prec;		/* -1: none */
	int size;		/* bytes of the integer */
	char conv;
	bool plain;		/* flags of "#0-" only: put_int() needs no printf */
	bool alt, zero, left;	/* '#', '0' (without '-'), '-' */
};

static void put_padded(struct trace_seq *s, const struct spec *sp,
		       const char *txt)
{
	long long pad = (long long)sp->width - (long long)strlen(txt);

	if (!sp->left)
		seq_pad(s, ' ', pad);
	seq_puts(s, txt);
	if (sp->left)
		seq_pad(s, ' ', pad);
}

/*
 * An integer conversion as printf does it, for the flags '#', '0' and
 * '-', a width and no precision; false for anything else.
 */
static bool put_int_plain(struct trace_seq *s, const struct spec *sp,
			  unsigned long long v, bool sign)
{
	char buf[32], *end = buf + sizeof(buf), *p;
	bool neg = false, left, zero;
	const char *pre = NULL;
	long long pad;

	if (!sp->plain || sp->prec >= 0)
		return false;
	switch (sp->conv) {
	case 'd':
	case 'i':
		if ((long long)v < 0) {
			neg = true;
			v = -v;
		}
		/* fall through */
	case 'u':
		p = dec_digits(end, v);
		break;
	case 'x':
	case 'X':
		p = hex_digits(end, v, sp->conv == 'X');
		if (v && sp->alt)
			pre = sp->conv == 'x' ? "0x" : "0X";
		break;
	default:
		return false;
	}
	left = sp->left;
	zero = sp->zero;
	pad = (long long)sp->width - (end - p) - neg - (pre ? 2 : 0);
	if (!left && !zero)
		seq_pad(s, ' ', pad);
	if (neg)
		seq_put(s, "-", 1);
	if (pre)
		seq_put(s, pre, 2);
	if (zero)
		seq_pad(s, '0', pad);
	seq_put(s, p, end - p);
	if (left)
		seq_pad(s, ' ', pad);
	return true;
}

static void put_int(struct ctx *c, struct trace_seq *s, const struct spec *sp,
		    unsigned long long v)
{
	bool sign = sp->conv == 'd' || sp->conv == 'i';
	char fmt[32], *p = fmt;

	v = cast(v, sp->size, sign);
	/* The kernel's %#x of 0 prints 0x0, glibc's prints 0. */
	if (!v && sp->alt && (sp->conv == 'x' || sp->conv == 'X')) {
		put_padded(s, sp, sp->conv == 'x' ? "0x0" : "0X0");
		return;
	}
	if (put_int_plain(s, sp, v, sign))
		return;
	*p++ = '%';
	p = stpcpy(p, sp->flags);
	if (sp->width >= 0)
		p += sprintf(p, "%d", sp->width);
	if (sp->prec >= 0)
		p += sprintf(p, ".%d", sp->prec);
	*p++ = 'l';
	*p++ = 'l';
	*p++ = sp->conv;
	*p = '\0';
	if (sign)
		trace_seq_printf(s, fmt, (long long)v);
	else
		trace_seq_printf(s, fmt, v);
}

static void put_str(struct ctx *c, struct trace_seq *s, const struct spec *sp,
		    struct tep_print_arg *a)
{
	struct trace_seq *t = &c->p->tmp;
	char fmt[32], *p = fmt;

	if (sp->width < 0 && sp->prec < 0) {
		str_arg(c, s, a);
		return;
	}
	trace_seq_reset(t);
	str_arg(c, t, a);
	trace_seq_terminate(t);
	*p++ = '%';
	if (strchr(sp->flags, '-'))
		*p++ = '-';
	if (sp->width >= 0)
		p += sprintf(p, "%d", sp->width);
	if (sp->prec >= 0)
		p += sprintf(p, ".%d", sp->prec);
	strcpy(p, "s");
	trace_seq_printf(s, fmt, t->buffer ? t->buffer : "");
}

static void put_ip4(struct trace_seq *s, const unsigned char *d)
{
	trace_seq_printf(s, "%u.%u.%u.%u", d[0], d[1], d[2], d[3]);
}

/* %pI6c: the compressed form (the longest zero run as ::). */
static void put_ip6c(struct trace_seq *s, const unsigned char *d)
{
	int best = -1, bestlen = 1, i, j;
	unsigned int w[8];

	for (i = 0; i < 8; i++)
		w[i] = d[2 * i] << 8 | d[2 * i + 1];
	for (i = 0; i < 8; i = j + 1) {
		for (j = i; j < 8 && !w[j]; j++)
			;
		if (j - i > bestlen) {
			best = i;
			bestlen = j - i;
		}
	}
	if (!memcmp(d, "\0\0\0\0\0\0\0\0\0\0\xff\xff", 12)) {
		trace_seq_puts(s, "::ffff:");
		put_ip4(s, d + 12);
		return;
	}
	for (i = 0; i < 8; i++) {
		if (i == best) {
			trace_seq_puts(s, "::");
			i += bestlen - 1;
			continue;
		}
		if (i && i != best + bestlen)
			trace_seq_putc(s, ':');
		trace_seq_printf(s, "%x", w[i]);
	}
}

/* %p and its extensions; @ext is what follows "%p" (alnum). */
/*
 * A printed value: c->withheld tells when it depends on a kernel
 * variable the trace does not hold (vmemmap_base, jiffies), which is
 * then printed as unknown, never as a number made up.
 */
static unsigned long long value(struct ctx *c, struct tep_print_arg *a)
{
	unsigned long long v;

	c->in_value = true;
	c->withheld = false;
	v = num(c, a);
	c->in_value = false;
	return v;
}

static void put_ptr(struct ctx *c, struct trace_seq *s, const char *ext,
		    int extlen, struct tep_print_arg *a, int star)
{
	const unsigned char *d;
	int len;

	switch (extlen ? ext[0] : 0) {
	case 'S':
	case 'B':
	case 'F':
		print_symbol(c->p, s, num(c, a), true);
		return;
	case 's':
	case 'f':
		print_symbol(c->p, s, num(c, a), false);
		return;
	case 'M':
	case 'm':
		d = data_of(c, a, &len);
		if (d && len >= 6)
			trace_seq_printf(s, ext[0] == 'M' ?
					 "%02x:%02x:%02x:%02x:%02x:%02x" :
					 "%02x%02x%02x%02x%02x%02x",
					 d[0], d[1], d[2], d[3], d[4], d[5]);
		else
			c->bad = true;
		return;
	case 'I':
	case 'i':
		d = data_of(c, a, &len);
		if (!d) {
			c->bad = true;
			return;
		}
		if (extlen >= 2 && ext[1] == '4' && len >= 4) {
			put_ip4(s, d);
		} else if (extlen >= 3 && ext[1] == '6' && ext[2] == 'c' &&
			   len >= 16) {
			put_ip6c(s, d);
		} else if (extlen >= 2 && ext[1] == 'S' && len >= 8) {
			/*
			 * struct sockaddr: the family in the kernel's byte
			 * order, port (big endian), address
			 */
			unsigned int fam = rd(c, d, 2);
			unsigned int port = d[2] << 8 | d[3];
			bool want_port = memchr(ext, 'p', extlen);

			if (fam == 2) {
				put_ip4(s, d + 4);
				if (want_port)
					trace_seq_printf(s, ":%u", port);
			} else if (fam == 10 && len >= 24) {
				trace_seq_putc(s, '[');
				put_ip6c(s, d + 8);
				trace_seq_putc(s, ']');
				if (want_port)
					trace_seq_printf(s, ":%u", port);
			} else {
				c->bad = true;
			}
		} else {
			c->bad = true;
		}
		return;
	case 'h':
		d = data_of(c, a, &len);
		if (d) {
			int n = star < len ? star : len, i;
			char sep = extlen > 1 ? (ext[1] == 'C' ? ':' :
				    ext[1] == 'D' ? '-' : ext[1] == 'N' ? 0 : ' ') : ' ';

			for (i = 0; i < n; i++) {
				if (i && sep)
					trace_seq_putc(s, sep);
				trace_seq_printf(s, "%02x", d[i]);
			}
		}
		return;
	case 'b':
		d = data_of(c, a, &len);
		if (d && extlen == 1)
			lt_print_bitmask(s, d, len, (star + 7) / 8 < len ?
					 (star + 31) / 32 : len / 4,
					 c->p->long_size, c->p->big_endian);
		else
			c->bad = true;
		return;
	case 0:
	case 'K':
	case 'x': {
		unsigned long long v;

		v = value(c, a);
		if (c->withheld)
			lt_print_withheld_pointer(s, c->p->long_size);
		else
			lt_print_pointer(s, v, c->p->long_size);
		return;
	}
	default:
		c->bad = true;
	}
}

static int int_size(struct lt_printer *p, const char *len)
{
	if (!strcmp(len, "hh"))
		return 1;
	if (!strcmp(len, "h"))
		return 2;
	if (!strcmp(len, "ll") || !strcmp(len, "L") || !strcmp(len, "q") ||
	    !strcmp(len, "j"))
		return 8;
	if (len[0] == 'l' || len[0] == 'z' || len[0] == 't' || len[0] == 'Z')
		return p->long_size;
	return 4;
}

/*
 * Text of the format between conversions, its C escapes undone as the
 * compiler did for the kernel's own printing (a probe's synthesized
 * format quotes strings as \"%s\"), into @o: returns its length.
 */
static size_t unescape(char *o, const char *f, size_t n)
{
	size_t i, len = 0;

	for (i = 0; i < n; i++) {
		if (f[i] != '\\' || i + 1 == n) {
			o[len++] = f[i];
			continue;
		}
		switch (f[++i]) {
		case 'n':
			o[len++] = '\n';
			break;
		case 't':
			o[len++] = '\t';
			break;
		case 'r':
			o[len++] = '\r';
			break;
		default:	/* \" \\ and anything else: the character */
			o[len++] = f[i];
		}
	}
	return len;
}

/*
 * A probe's string fetch arg ("\"%s\"" of __get_str()) the kernel could
 * not read is recorded empty and printed "(fault)", unquoted
 * (trace_probe.c's string printer): true if @a is one, its opening quote
 * taken back from @s; returns the length of the closing quote in @f to
 * skip, 0 if @a is not one.
 */
static int probe_fault(struct ctx *c, struct trace_seq *s, bool quote_after,
			struct tep_print_arg *a)
{
	int len;

	if (!c->probe || a->type != TEP_PRINT_STRING || !quote_after ||
	    !s->len || s->buffer[s->len - 1] != '"')
		return 0;
	data_of(c, a, &len);
	if (c->bad || len)
		return 0;
	s->len--;
	trace_seq_puts(s, "(fault)");
	return 1;
}

/*
 * A print format, parsed once: each conversion with the literal text
 * before it (escapes undone, "%%" as '%'), then the text after the last.
 */
struct fmt_op {
	unsigned int lit, lit_len;	/* the text before it, in text[] */
	struct spec sp;
	bool star_width, star_prec;	/* "*": taken from the arguments */
	bool quote_after;	/* the format goes on with a quote (\" or ") */
	const char *ext;	/* %p's extension, in the event's format */
	int extlen;
};

struct fmt_prog {
	const char *src;		/* the format text it was made from */
	int nr;
	unsigned int tail, tail_len;
	char *text;
	struct fmt_op op[];
};

/* Parse format text @f, as print_prog() then evaluates it. */
static struct fmt_prog *compile_fmt(struct lt_printer *p, const char *f)
{
	const char *src = f, *pct;
	struct fmt_prog *g;
	struct fmt_op *op;
	size_t len = strlen(f), nr = 0, t = 0, lit = 0;
	char lenmod[4];
	int n;

	for (pct = f; (pct = strchr(pct, '%')); pct++)
		nr++;
	g = malloc(sizeof(*g) + nr * sizeof(*g->op) + len + 1);
	if (!g)
		return NULL;
	g->src = src;
	g->nr = 0;
	g->text = (char *)&g->op[nr];
	while (*f) {
		pct = strchr(f, '%');
		if (!pct) {
			t += unescape(g->text + t, f, strlen(f));
			break;
		}
		t += unescape(g->text + t, f, pct - f);
		f = pct + 1;
		if (*f == '%') {
			g->text[t++] = '%';
			f++;
			continue;
		}
		op = &g->op[g->nr++];
		memset(op, 0, sizeof(*op));
		op->lit = lit;
		op->lit_len = t - lit;
		op->sp.width = op->sp.prec = -1;
		n = 0;
		while (strchr("-+ #0", *f) && *f && n < 7)
			op->sp.flags[n++] = *f++;
		op->sp.plain = !op->sp.flags[strspn(op->sp.flags, "#0-")];
		op->sp.alt = strchr(op->sp.flags, '#');
		op->sp.left = strchr(op->sp.flags, '-');
		op->sp.zero = !op->sp.left && strchr(op->sp.flags, '0');
		if (*f == '*') {
			op->star_width = true;
			f++;
		} else if (isdigit((unsigned char)*f)) {
			op->sp.width = strtol(f, (char **)&f, 10);
		}
		if (*f == '.') {
			f++;
			if (*f == '*') {
				op->star_prec = true;
				f++;
			} else {
				op->sp.prec = strtol(f, (char **)&f, 10);
			}
		}
		n = 0;
		while (strchr("hlLqjzZt", *f) && *f && n < 3)
			lenmod[n++] = *f++;
		lenmod[n] = '\0';
		op->sp.conv = *f ? *f++ : 0;
		op->sp.size = int_size(p, lenmod);
		if (op->sp.conv == 'p') {
			op->ext = f;
			while (isalnum((unsigned char)*f))
				f++;
			op->extlen = f - op->ext;
		}
		op->quote_after = *f == '"' || !strncmp(f, "\\\"", 2);
		lit = t;
	}
	g->tail = lit;
	g->tail_len = t - lit;
	return g;
}

/* Evaluate a parsed format with its arguments from @a on the record. */
static bool print_prog(struct ctx *c, struct trace_seq *s,
		       const struct fmt_prog *g, struct tep_print_arg *a)
{
	const struct fmt_op *op;
	unsigned int skip = 0;
	struct spec sp;
	int i, star;

	for (i = 0; i < g->nr && !c->bad; i++) {
		op = &g->op[i];
		/* the quote "(fault)" took the place of */
		skip = skip < op->lit_len ? skip : op->lit_len;
		seq_put(s, g->text + op->lit + skip, op->lit_len - skip);
		skip = 0;
		sp = op->sp;
		star = -1;
		if (op->star_width) {
			star = num(c, a);
			a = a ? a->next : NULL;
			sp.width = star;
		}
		if (op->star_prec) {
			sp.prec = num(c, a);
			a = a ? a->next : NULL;
		}
		if (!a) {
			c->bad = true;
			break;
		}
		switch (sp.conv) {
		case 'd':
		case 'i':
		case 'u':
		case 'x':
		case 'X':
		case 'o': {
			unsigned long long v = value(c, a);

			/* writeback's age: jiffies - dirtied_when */
			if (c->withheld)
				trace_seq_putc(s, '?');
			else
				put_int(c, s, &sp, v);
			break;
		}
		case 'c':
			trace_seq_putc(s, (char)num(c, a));
			break;
		case 's':
			skip = probe_fault(c, s, op->quote_after, a);
			if (!skip)
				put_str(c, s, &sp, a);
			break;
		case 'p':
			if (sp.width >= 0 && star < 0 && !op->extlen) {
				c->bad = true;	/* a width on a plain %p */
				break;
			}
			put_ptr(c, s, op->ext, op->extlen, a, star);
			break;
		default:
			c->bad = true;
		}
		a = a->next;
	}
	if (!c->bad) {
		skip = skip < g->tail_len ? skip : g->tail_len;
		seq_put(s, g->text + g->tail + skip, g->tail_len - skip);
	}
	return !c->bad;
}

/*
 * Format text @f of @ep's event with its arguments from @a on the record,
 * parsed the first time.
 */
static bool print_fmt(struct ctx *c, struct ev_print *ep, struct trace_seq *s,
		      const char *f, struct tep_print_arg *a)
{
	if (!f)
		return false;
	if (!ep->prog || ep->prog->src != f) {
		free(ep->prog);
		ep->prog = compile_fmt(c->p, f);
		if (!ep->prog)
			return false;
	}
	return print_prog(c, s, ep->prog, a);
}

/* Evaluate @event's print format on @rec; false if a construct is unknown. */
static bool print_own(struct ctx *c, struct ev_print *ep, struct trace_seq *s)
{
	return print_fmt(c, ep, s, c->event->print_fmt.format,
			 c->event->print_fmt.args);
}

/* ------------------------------------------------------------------ */
/* Probe events                                                        */
/* ------------------------------------------------------------------ */

static bool is_field(struct tep_print_arg *a, const char *name)
{
	return a && a->type == TEP_PRINT_FIELD && a->field.name &&
	       !strcmp(a->field.name, name);
}

/*
 * The kernel synthesizes a probe event's format: "(%lx)" of __probe_ip,
 * or "(%lx <- %lx)" of __probe_func and __probe_ret_ip for a return
 * probe, then " name=FMT" per fetch arg (trace_probe.c). It prints the
 * head its own way, not by that format.
 */
static enum print_mode probe_mode(struct tep_event *e)
{
	const char *f = e->print_fmt.format;
	struct tep_print_arg *a = e->print_fmt.args;

	if (!f)
		return PM_UNKNOWN;
	if (!strncmp(f, "(%lx)", 5) && is_field(a, "__probe_ip"))
		return PM_PROBE;
	if (!strncmp(f, "(%lx <- %lx)", 12) && is_field(a, "__probe_func") &&
	    is_field(a->next, "__probe_ret_ip"))
		return PM_PROBE_RET;
	return PM_UNKNOWN;
}

/*
 * One address of the head as trace_output.c's seq_print_ip_sym() prints
 * it: "sym+0xoff/0xsize [mod]" (@offset) or "sym"; without a symbol
 * "0x..." (with @offset) or "0x%08lx". A uprobe prints user addresses as
 * "0x%lx" (@user): none of them is in kallsyms.
 */
static void probe_addr(struct ctx *c, struct trace_seq *s,
		       unsigned long long addr, bool offset, bool user)
{
	if (!addr)
		trace_seq_putc(s, '0');
	else if (offset)
		print_symbol(c->p, s, addr, true);
	else if (tep_find_function(c->p->tep, addr))
		lt_print_symbol(c->p->tep, s, addr, false, NULL);
	else
		trace_seq_printf(s, user ? "0x%llx" : "0x%08llx", addr);
}

/* ------------------------------------------------------------------ */
/* The function graph tracer's events                                  */
/* ------------------------------------------------------------------ */

/*
 * funcgraph_entry and funcgraph_exit print as the function_graph tracer
 * prints them in the kernel's trace file (trace_functions_graph.c), past
 * its context columns: the duration column (an overhead mark, the time
 * in microseconds padded to 12, "|  "), two spaces of indent per depth
 * level, then "func() {" for an entry, "}" for a return, and "func();"
 * for a call with nothing inside, the entry and its own return as one
 * line (lt_print_fgraph_leaf()). A return whose entry was not printed on
 * its CPU (it came before the trace, or was lost) says which function it
 * closes: "}" and the name in a comment. The kernel's default options: no return value
 * (funcgraph-retval), no tail comments (funcgraph-tail).
 */
#define FGRAPH_DEPTH	50	/* the kernel's FTRACE_RETFUNC_DEPTH */

/* Per CPU: the function whose "{" is open at each depth. */
struct fgraph_cpu {
	unsigned long long open[FGRAPH_DEPTH];
	/* the last return checked, its verdict: a payload asked twice */
	unsigned long long ret_ts;
	const void *ret_data;
	bool ret_matched;
};

static bool fgraph_field(struct ctx *c, const char *name,
			 unsigned long long *v)
{
	struct tep_format_field *f = tep_find_field(c->event, name);

	if (!f || !in_rec(c, f->offset, f->size) ||
	    (f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC)))
		return false;
	*v = read_field(c, f).n;
	return true;
}

static struct fgraph_cpu *fgraph_cpu(struct lt_printer *p, int cpu)
{
	int n = tep_get_cpus(p->tep);

	if (cpu < 0 || cpu >= n || n > 8192)
		return NULL;
	if (!p->fgraph) {
		p->fgraph = calloc(n, sizeof(*p->fgraph));
		if (!p->fgraph)
			return NULL;
	}
	return &p->fgraph[cpu];
}

static void fgraph_indent(struct trace_seq *s, unsigned long long depth)
{
	unsigned long long i;

	/* a depth the kernel never reaches is a corrupt record: cap it */
	for (i = 0; i < depth * 2 && i < 512; i++)
		trace_seq_putc(s, ' ');
}

/* The kernel's marks of a long call, then its length in microseconds. */
static void fgraph_duration(struct trace_seq *s, unsigned long long ns)
{
	static const struct {
		unsigned long long over;
		const char *mark;
	} marks[] = {
		{ 1000000000ULL, "$ " }, { 100000000ULL, "@ " },
		{ 10000000ULL, "* " }, { 1000000ULL, "# " },
		{ 100000ULL, "! " }, { 10000ULL, "+ " },
	};
	const char *mark = "  ";
	unsigned int start, i;
	int len;

	for (i = 0; i < sizeof(marks) / sizeof(marks[0]); i++)
		if (ns > marks[i].over) {
			mark = marks[i].mark;
			break;
		}
	trace_seq_puts(s, mark);
	start = s->len;
	trace_seq_printf(s, "%llu", ns / 1000);
	/* 7 digits at most: the nanoseconds' leading ones as room is left */
	len = s->len - start;
	if (len < 7) {
		int digits = len > 4 ? 7 - len : 3;
		unsigned long long frac = ns % 1000;

		for (i = digits; i < 3; i++)
			frac /= 10;
		trace_seq_printf(s, ".%0*llu", digits, frac);
	}
	len = s->len - start;
	trace_seq_puts(s, " us ");
	for (; len < 8; len++)
		trace_seq_putc(s, ' ');
	trace_seq_puts(s, "|  ");
}

static void fgraph_func(struct ctx *c, struct trace_seq *s,
			unsigned long long func)
{
	const char *name = func ? tep_find_function(c->p->tep, func) : NULL;

	if (name)
		trace_seq_puts(s, name);
	else
		trace_seq_printf(s, "0x%llx", func);
}

static bool print_fgraph(struct ctx *c, struct ev_print *ep,
			 struct trace_seq *s)
{
	struct fgraph_cpu *fc = fgraph_cpu(c->p, c->rec->cpu);
	unsigned long long func, depth, call, ret, v;
	const char *name;
	bool matched;

	if (!fgraph_field(c, "func", &func) ||
	    !fgraph_field(c, "depth", &depth))
		return false;
	if (ep->mode == PM_FGRAPH_ENTRY) {
		if (fc && depth < FGRAPH_DEPTH)
			fc->open[depth] = func;
		trace_seq_puts(s, "              |  ");	/* no time */
		fgraph_indent(s, depth);
		fgraph_func(c, s, func);
		trace_seq_puts(s, "() {");
		/* funcgraph-retaddr's entries: where the call came from */
		if (fgraph_field(c, "retaddr", &v)) {
			name = tep_find_function(c->p->tep, v);
			if (name)
				trace_seq_printf(s, " /* <-%s */", name);
		}
		return true;
	}
	if (!fgraph_field(c, "calltime", &call) ||
	    !fgraph_field(c, "rettime", &ret))
		return false;
	if (fc && fc->ret_data == c->rec->data && fc->ret_ts == c->rec->ts) {
		matched = fc->ret_matched;
	} else {
		matched = fc && depth < FGRAPH_DEPTH && fc->open[depth] == func;
		if (fc && depth < FGRAPH_DEPTH)
			fc->open[depth] = 0;
		if (fc) {
			fc->ret_data = c->rec->data;
			fc->ret_ts = c->rec->ts;
			fc->ret_matched = matched;
		}
	}
	fgraph_duration(s, ret - call);
	fgraph_indent(s, depth);
	trace_seq_putc(s, '}');
	if (!matched) {
		trace_seq_puts(s, " /* ");
		fgraph_func(c, s, func);
		trace_seq_puts(s, " */");
	}
	return true;
}

static bool print_probe(struct ctx *c, struct ev_print *ep,
			struct trace_seq *s)
{
	struct tep_print_arg *a = c->event->print_fmt.args;
	const char *f = c->event->print_fmt.format;
	unsigned long long func, ret;

	c->probe = true;
	trace_seq_putc(s, '(');
	if (ep->mode == PM_PROBE) {
		probe_addr(c, s, num(c, a), true, false);
		a = a->next;
		f += 5;
	} else {
		func = num(c, a);
		ret = num(c, a->next);
		probe_addr(c, s, ret, true, false);
		trace_seq_puts(s, " <- ");
		probe_addr(c, s, func, false,
			   !tep_find_function(c->p->tep, ret));
		a = a->next->next;
		f += 12;
	}
	trace_seq_putc(s, ')');
	return print_fmt(c, ep, s, f, a);
}

/* ------------------------------------------------------------------ */
/* Syscall events                                                      */
/* ------------------------------------------------------------------ */

static bool is_printable(unsigned char ch)
{
	return ch >= 0x20 && ch < 0x7f;
}

/*
 * A user buffer a 7.x kernel recorded with a syscall's argument (@len of
 * its @count bytes): colon-separated hex bytes, then quoted with dots for
 * the unprintable, both marked when the buffer was longer than what was
 * recorded; the quoted text only when some byte is printable (7.x's
 * trace_syscalls.c).
 */
void lt_print_user_buffer(struct trace_seq *s, const unsigned char *d,
			  int len, unsigned long long count)
{
	bool more = count > (unsigned long long)len;
	int i;

	trace_seq_puts(s, " (");
	for (i = 0; i < len; i++)
		trace_seq_printf(s, "%s%02x", i ? ":" : "", d[i]);
	if (more)
		trace_seq_puts(s, ", ...");
	trace_seq_putc(s, ')');
	/* with no printable byte at all (a lone newline, zeros): bytes only */
	for (i = 0; i < len && !is_printable(d[i]); i++)
		;
	if (i == len)
		return;
	trace_seq_puts(s, " \"");
	for (i = 0; i < len; i++)
		trace_seq_putc(s, is_printable(d[i]) ? d[i] : '.');
	trace_seq_putc(s, '"');
	if (more)
		trace_seq_puts(s, "...");
}

/*
 * The user-space data a 7.x kernel records with an argument (a
 * "__ARG_val" dynamic field): a string prints quoted, a buffer as
 * lt_print_user_buffer().
 */
static void syscall_user_data(struct ctx *c, struct trace_seq *s,
			      struct tep_format_field *val, bool buffer,
			      unsigned long long count)
{
	const unsigned char *d;
	int len;

	d = dyn_data(c, val, &len);
	if (!d)
		return;
	if (!buffer) {
		trace_seq_printf(s, " \"%.*s\"", (int)strnlen((const char *)d, len),
				 d);
		return;
	}
	lt_print_user_buffer(s, d, len, count);
}

static struct tep_format_field *user_val_field(struct ctx *c,
					       const char *name)
{
	char buf[80];

	snprintf(buf, sizeof(buf), "__%s_val", name);
	return tep_find_field(c->event, buf);
}

/* openat on 7.x: decimal dfd and filename, flags and mode by name. */
static bool print_openat(struct ctx *c, struct trace_seq *s,
			 struct tep_format_field *fl)
{
	struct tep_print_arg *a = c->event->print_fmt.args;
	struct tep_format_field *fn = tep_find_field(c->event, "filename");
	struct tep_format_field *fv = user_val_field(c, "filename");
	struct tep_format_field *ff = tep_find_field(c->event, "flags");
	struct tep_format_field *fm = tep_find_field(c->event, "mode");
	unsigned long long flags;
	int i;

	if (!fn || !fv || !ff || !fm || !fl)
		return false;
	for (i = 0; i < 3 && a; i++)
		a = a->next;
	if (!a || !a->next)
		return false;
	trace_seq_printf(s, "dfd: %llu, filename: %llu", read_field(c, fl).n,
			 read_field(c, fn).n);
	syscall_user_data(c, s, fv, false, 0);
	trace_seq_puts(s, ", flags: ");
	str_arg(c, s, a);
	str_arg(c, s, a->next);
	flags = read_field(c, ff).n;
	if (flags & 0x40)	/* O_CREAT, the same on x86 and arm64 */
		trace_seq_printf(s, ", mode: 0%03llo", read_field(c, fm).n);
	return !c->bad;
}

static void print_sys_enter(struct ctx *c, struct ev_print *ep,
			    struct trace_seq *s)
{
	struct tep_format_field *f, *next, *val;
	unsigned long long v;

	trace_seq_printf(s, "%s(", ep->sys_name);
	f = c->event->format.fields;
	if (f && !strcmp(f->name, "__syscall_nr"))
		f = f->next;
	if (!strcmp(ep->sys_name, "sys_openat") && user_val_field(c, "filename")) {
		unsigned int len = s->len;

		if (print_openat(c, s, f)) {
			trace_seq_putc(s, ')');
			return;
		}
		s->len = len;
		c->bad = false;
	}
	for (; f; f = next) {
		next = f->next;
		while (next && (next->flags & TEP_FIELD_IS_DYNAMIC))
			next = next->next;
		if (f->flags & TEP_FIELD_IS_DYNAMIC)
			continue;
		v = in_rec(c, f->offset, f->size) ?
		    rd(c, (char *)c->rec->data + f->offset, f->size) : 0;
		val = user_val_field(c, f->name);
		if (!val) {
			lt_print_syscall_arg(s, f->name, v, !next,
					     c->p->bare_syscall_hex);
			continue;
		}
		trace_seq_printf(s, v < 10 ? "%s: %llu" : "%s: 0x%llx",
				 f->name, v);
		syscall_user_data(c, s, val, strstr(val->type, "char[]") &&
				  !strcmp(f->name, "buf"),
				  next && in_rec(c, next->offset, next->size) ?
				  rd(c, (char *)c->rec->data + next->offset,
				     next->size) : ~0ULL);
		if (next)
			trace_seq_puts(s, ", ");
	}
	trace_seq_putc(s, ')');
}

static void print_sys_exit(struct ctx *c, struct ev_print *ep,
			   struct trace_seq *s)
{
	struct tep_format_field *f = tep_find_field(c->event, "ret");
	unsigned long long v = 0;

	if (f && in_rec(c, f->offset, f->size))
		v = cast(rd(c, (char *)c->rec->data + f->offset, f->size),
			 f->size, true);
	/* "0x%lx" of a long: 8 digits for -10 on a 32-bit kernel */
	if (c->p->long_size == 4)
		v &= 0xffffffffULL;
	trace_seq_printf(s, "%s -> 0x%llx", ep->sys_name, v);
}

/* ------------------------------------------------------------------ */
/* libtraceevent's printing, for the analysis' events                  */
/* ------------------------------------------------------------------ */

/*
 * A signed conversion of a long (%ld, %li, %zd) in a 32-bit kernel's
 * format: libtraceevent reads the field zero-extended and prints it as
 * the host's 64-bit long, -10 as 4294967286 (raw_syscalls' "NR %ld =
 * %ld"), where the kernel's 32-bit long is negative.
 */
static bool signed_long_conv(const struct lt_printer *p, const char *fmt)
{
	const char *f = fmt;
	int l;

	if (p->long_size != 4 || !f)
		return false;
	while ((f = strchr(f, '%'))) {
		f++;
		if (*f == '%') {
			f++;
			continue;
		}
		f += strspn(f, "-+ #0123456789.*");
		l = 0;
		while (*f == 'l' || *f == 'z' || *f == 't') {
			l++;
			f++;
		}
		if (l == 1 && (*f == 'd' || *f == 'i'))
			return true;
	}
	return false;
}

/*
 * A plain %p is hashed by the kernel's text output with a per-boot key we
 * cannot know. Print the raw value as the kernel does with
 * no_hash_pointers, where libtraceevent prints "0x...": note the text
 * before each plain %p ("hrtimer=") to find it in the output.
 */
static void find_pointer_keys(struct ev_print *ep)
{
	const char *fmt = ep->event->print_fmt.format;
	const char *p, *k;
	size_t n;

	for (p = fmt; p && (p = strstr(p, "%p")); p += 2) {
		if (isalnum((unsigned char)p[2]) || (p > fmt && p[-1] == '%'))
			continue;
		for (k = p; k > fmt && !isspace((unsigned char)k[-1]); k--)
			;
		n = p - k;
		if (!n || n >= sizeof(ep->ptr_key[0]) ||
		    ep->nr_ptr_keys >= MAX_PTR_KEYS)
			continue;
		memcpy(ep->ptr_key[ep->nr_ptr_keys], k, n);
		ep->ptr_key[ep->nr_ptr_keys++][n] = '\0';
	}
}

static void unhash_pointers(const struct ev_print *ep, int width,
			    const char *s, struct trace_seq *out)
{
	const char *hit, *hex;
	unsigned long long v;
	char *end;
	int i;

	for (i = 0; i < ep->nr_ptr_keys && s; i++) {
		hit = strstr(s, ep->ptr_key[i]);
		if (!hit)
			continue;
		hex = hit + strlen(ep->ptr_key[i]);
		if (strncmp(hex, "0x", 2) && strncmp(hex, "(nil)", 5))
			continue;
		v = strtoull(hex + (hex[0] == '0' ? 2 : 0), &end, 16);
		if (hex[0] == '(')
			end = (char *)hex + 5;
		trace_seq_printf(out, "%.*s%0*llx", (int)(hex - s), s, width, v);
		s = end;
	}
	trace_seq_puts(out, s ? s : "");
}

/*
 * @rec's bytes followed by zeros, for libtraceevent: it prints a char
 * array field with a bare "%s", which runs past the record when the
 * file left the array unterminated (the raw fields of a format it
 * could not parse). NULL when out of memory.
 */
static struct tep_record *padded(struct lt_printer *p, struct tep_record *rec,
				 struct tep_record *r)
{
	unsigned char *b;

	if (rec->size < 0)
		return NULL;
	if (rec->size + PAD > p->copy_size) {
		b = realloc(p->copy, rec->size + PAD);
		if (!b)
			return NULL;
		p->copy = b;
		p->copy_size = rec->size + PAD;
	}
	memcpy(p->copy, rec->data, rec->size);
	memset(p->copy + rec->size, 0, PAD);
	*r = *rec;
	r->data = p->copy;
	return r;
}

static void print_tep(struct lt_printer *p, struct ev_print *ep,
		      struct tep_record *rec, struct trace_seq *s)
{
	struct trace_seq *t = &p->tmp;
	struct tep_record r;

	if (!padded(p, rec, &r))
		return;
	if (!ep->nr_ptr_keys) {
		tep_print_event(p->tep, s, &r, "%s", TEP_PRINT_INFO);
		return;
	}
	trace_seq_reset(t);
	tep_print_event(p->tep, t, &r, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(t);
	unhash_pointers(ep, p->long_size * 2, t->buffer, s);
}

/* The record as an event of the re-parsed type, for libtraceevent. */
static void print_reparsed(struct lt_printer *p, struct ev_print *ep,
			   struct tep_record *rec, struct trace_seq *s)
{
	struct tep_format_field *f;
	struct tep_record r;
	unsigned char *b;
	int i;

	if (rec->size < 2 || !padded(p, rec, &r))
		return;
	b = p->copy;
	/* common_type: the first two bytes, in the file's byte order */
	if (p->big_endian) {
		b[0] = ep->event->id >> 8;
		b[1] = ep->event->id & 0xff;
	} else {
		b[0] = ep->event->id & 0xff;
		b[1] = ep->event->id >> 8;
	}
	/*
	 * The function name (%s of REC->fn, a kernel string's address):
	 * in the order libtraceevent reads it in (see str_probe_order()).
	 */
	f = tep_find_field(ep->event, "fn");
	if (p->str_probe && p->str_big_endian != p->big_endian && f &&
	    f->size == 8 && f->offset >= 0 && f->offset + 8 <= rec->size) {
		for (i = 0; i < 4; i++) {
			unsigned char t = b[f->offset + i];

			b[f->offset + i] = b[f->offset + 7 - i];
			b[f->offset + 7 - i] = t;
		}
	}
	tep_print_event(p->tep, s, &r, "%s", TEP_PRINT_INFO);
}

/* ------------------------------------------------------------------ */
/* Dispatch                                                            */
/* ------------------------------------------------------------------ */

/*
 * Whether every REC->field of @fmt is a field @e has. libtraceevent 1.7
 * dereferences a NULL field otherwise; the trace.dat check refuses such
 * a format in the file, but an event whose parse failed may have lost
 * fields the file declared.
 */
static bool fields_known(struct tep_event *e, const char *fmt)
{
	char name[64];
	const char *q;
	size_t n;

	for (q = fmt; (q = strstr(q, "REC->")); q += n) {
		q += 5;
		for (n = 0; isalnum((unsigned char)q[n]) || q[n] == '_'; n++)
			;
		if (!n || n >= sizeof(name))
			return false;
		memcpy(name, q, n);
		name[n] = '\0';
		if (!tep_find_any_field(e, name))
			return false;
	}
	return true;
}

/* Parse a known format again, fixed, as a new event with a free id. */
static struct tep_event *reparse_event(struct lt_printer *p,
				       struct tep_event *e, const char *fmt)
{
	struct tep_format_field *f;
	struct tep_event *ne = NULL;
	char *buf = NULL;
	size_t len = 0;
	FILE *m;

	if (!fields_known(e, fmt))
		return NULL;
	m = open_memstream(&buf, &len);
	if (!m)
		return NULL;
	fprintf(m, "name: %s\nID: %d\nformat:\n", e->name, p->next_fake_id--);
	for (f = e->format.common_fields; f; f = f->next)
		fprintf(m, "\tfield:%s %s;\toffset:%d;\tsize:%d;\tsigned:%d;\n",
			f->type, f->name, f->offset, f->size,
			!!(f->flags & TEP_FIELD_IS_SIGNED));
	fputc('\n', m);
	for (f = e->format.fields; f; f = f->next)
		fprintf(m, "\tfield:%s %s;\toffset:%d;\tsize:%d;\tsigned:%d;\n",
			f->type, f->name, f->offset, f->size,
			!!(f->flags & TEP_FIELD_IS_SIGNED));
	fprintf(m, "\nprint fmt: %s\n", fmt);
	fclose(m);
	lt_parse_lock();
	if (tep_parse_format(p->tep, &ne, buf, len, e->system) || !ne ||
	    (ne->flags & TEP_EVENT_FL_FAILED))
		ne = NULL;
	lt_parse_unlock();
	free(buf);
	return ne;
}

/*
 * The file's own print format of @e, each sizeof(...) replaced by a name
 * ("sizeof(struct page)" by "sizeof_struct_page"): libtraceevent 1.7
 * cannot parse sizeof, and the value is not in the trace; a pointer
 * computed from it prints as withheld.
 */
static struct tep_event *reparse_source(struct lt_printer *p,
					struct tep_event *e)
{
	const char *fmt = NULL, *q, *close;
	struct tep_event *ne;
	bool quote = false;
	char *buf, *o;
	int i, depth;

	for (i = 0; i < p->nr_src && !fmt; i++)
		if (p->src[i].id == e->id)
			fmt = p->src[i].fmt;
	if (!fmt)
		return NULL;
	/* never longer: "sizeof(" and ")" become "sizeof_" */
	buf = malloc(strlen(fmt) + 1);
	if (!buf)
		return NULL;
	for (q = fmt, o = buf; *q; q++) {
		if (quote) {
			if (*q == '\\' && q[1])
				*o++ = *q++;
			else if (*q == '"')
				quote = false;
			*o++ = *q;
			continue;
		}
		if (*q == '"')
			quote = true;
		if (strncmp(q, "sizeof(", 7) || (q > fmt && (isalnum((unsigned char)q[-1]) || q[-1] == '_'))) {
			*o++ = *q;
			continue;
		}
		for (close = q + 7, depth = 1; *close && depth; close++)
			depth += *close == '(' ? 1 : *close == ')' ? -1 : 0;
		if (depth) {
			free(buf);
			return NULL;
		}
		o += sprintf(o, "sizeof_");
		for (q += 7; q < close - 1; q++)
			if (isalnum((unsigned char)*q) || *q == '_')
				*o++ = *q;
			else if (o[-1] != '_')
				*o++ = '_';
		q = close - 1;
	}
	*o = '\0';
	/* nothing renamed, or a sizeof( left: the same failure again */
	ne = strcmp(buf, fmt) && !strstr(buf, "sizeof(") ?
	     reparse_event(p, e, buf) : NULL;
	free(buf);
	return ne;
}

/* Documented in lt-print.h. */
int lt_printer_add_format(struct lt_printer *p, int id, const char *fmt)
{
	void *n = realloc(p->src, (p->nr_src + 1) * sizeof(*p->src));

	if (!n)
		return -1;
	p->src = n;
	p->src[p->nr_src].fmt = strdup(fmt);
	if (!p->src[p->nr_src].fmt)
		return -1;
	p->src[p->nr_src++].id = id;
	return 0;
}

static struct ev_print *ev_print_of(struct lt_printer *p, int type,
				    bool fast)
{
	struct ev_print *ep;
	struct tep_event *e;
	size_t i;

	if (type < 0 || type > 1 << 16)
		return NULL;
	if (lt_type_table_grow((void **)&p->ev, &p->nr_ev, type, sizeof(*p->ev)))
		return NULL;
	ep = &p->ev[type];
	if (ep->mode != PM_UNKNOWN)
		return ep;
	e = tep_find_event(p->tep, type);
	ep->event = e;
	/* not cached: a reader may parse the format later (on first use) */
	if (!e)
		return ep;
	ep->mode = PM_TEP;
	if (!strcmp(e->system, "syscalls") &&
	    (!strncmp(e->name, "sys_enter_", 10) ||
	     !strncmp(e->name, "sys_exit_", 9))) {
		bool enter = e->name[4] == 'e' && e->name[5] == 'n';

		ep->mode = enter ? PM_SYS_ENTER : PM_SYS_EXIT;
		snprintf(ep->sys_name, sizeof(ep->sys_name), "sys_%s",
			 e->name + (enter ? 10 : 9));
		return ep;
	}
	/*
	 * ftrace's bprint: its format prints the printk format's address
	 * with %s, the arguments are in a binary buffer only libtraceevent
	 * unpacks (our %s of a kernel address would print the format raw).
	 */
	if (e->flags & TEP_EVENT_FL_ISBPRINT)
		return ep;
	if (!strcmp(e->system, "ftrace") &&
	    (!strcmp(e->name, "funcgraph_entry") ||
	     !strcmp(e->name, "fgraph_retaddr_entry") ||
	     !strcmp(e->name, "funcgraph_exit"))) {
		ep->mode = strcmp(e->name, "funcgraph_exit") ? PM_FGRAPH_ENTRY :
							       PM_FGRAPH_EXIT;
		return ep;
	}
	if (!(e->flags & TEP_EVENT_FL_FAILED)) {
		ep->mode = probe_mode(e);
		if (ep->mode != PM_UNKNOWN)
			return ep;
		ep->mode = PM_TEP;
	}
	if ((e->flags & TEP_EVENT_FL_FAILED) && p->long_size == 8) {
		for (i = 0; i < ARRAY_SIZE(reparse); i++) {
			if (strcmp(e->system, reparse[i].system) ||
			    strcmp(e->name, reparse[i].name))
				continue;
			ep->event = reparse_event(p, e, reparse[i].fmt);
			if (ep->event) {
				ep->mode = PM_REPARSED;
				return ep;
			}
			ep->event = e;
		}
	}
	if (e->flags & TEP_EVENT_FL_FAILED) {
		ep->event = reparse_source(p, e);
		if (!ep->event) {
			ep->event = e;
			return ep;
		}
		/*
		 * Ours only, fast or not: libtraceevent would read each
		 * named sizeof as 0, and it divides by what it reads.
		 */
		ep->mode = PM_OWN;
		return ep;
	}
	if (fast && !signed_long_conv(p, e->print_fmt.format))
		find_pointer_keys(ep);
	else
		ep->mode = PM_OWN;
	return ep;
}

/* Documented in lt-print.h. */
bool lt_print_fgraph_leaf(struct lt_printer *p, struct tep_record *rec,
			  struct tep_record *next, struct trace_seq *s)
{
	struct ev_print *ep = ev_print_of(p, tep_data_type(p->tep, rec), false);
	struct ev_print *nx;
	struct ctx c = { .p = p, .rec = rec };
	struct ctx n = { .p = p, .rec = next };
	unsigned long long func, depth, nfunc, call, ret;
	struct fgraph_cpu *fc;

	if (!ep || ep->mode != PM_FGRAPH_ENTRY || !next ||
	    next->cpu != rec->cpu)
		return false;
	/* its event now: the table may move for the next one's */
	c.event = ep->event;
	nx = ev_print_of(p, tep_data_type(p->tep, next), false);
	if (!nx || nx->mode != PM_FGRAPH_EXIT ||
	    tep_data_pid(p->tep, rec) != tep_data_pid(p->tep, next))
		return false;
	n.event = nx->event;
	if (!fgraph_field(&c, "func", &func) ||
	    !fgraph_field(&c, "depth", &depth) ||
	    !fgraph_field(&n, "func", &nfunc) || nfunc != func ||
	    !fgraph_field(&n, "calltime", &call) ||
	    !fgraph_field(&n, "rettime", &ret))
		return false;
	fc = fgraph_cpu(p, rec->cpu);
	if (fc && depth < FGRAPH_DEPTH)
		fc->open[depth] = 0;
	fgraph_duration(s, ret - call);
	fgraph_indent(s, depth);
	fgraph_func(&c, s, func);
	trace_seq_puts(s, "();");
	return true;
}

void lt_print_info(struct lt_printer *p, struct tep_record *rec, bool fast,
		   struct trace_seq *s)
{
	struct ev_print *ep = ev_print_of(p, tep_data_type(p->tep, rec), fast);
	struct ctx c = { .p = p, .rec = rec };
	unsigned int len = s->len;

	if (!ep || !ep->event) {
		tep_print_event(p->tep, s, rec, "%s", TEP_PRINT_INFO);
		return;
	}
	c.event = ep->event;
	switch (ep->mode) {
	case PM_SYS_ENTER:
		print_sys_enter(&c, ep, s);
		return;
	case PM_SYS_EXIT:
		print_sys_exit(&c, ep, s);
		return;
	case PM_REPARSED:
		print_reparsed(p, ep, rec, s);
		return;
	case PM_FGRAPH_ENTRY:
	case PM_FGRAPH_EXIT:
		if (print_fgraph(&c, ep, s))
			return;
		s->len = len;
		ep->mode = PM_TEP;
		print_tep(p, ep, rec, s);
		return;
	case PM_PROBE:
	case PM_PROBE_RET:
		if (print_probe(&c, ep, s))
			return;
		s->len = len;
		ep->mode = PM_TEP;
		print_tep(p, ep, rec, s);
		return;
	case PM_OWN:
		if (print_own(&c, ep, s))
			return;
		/*
		 * Something we cannot evaluate: libtraceevent from now on,
		 * on the file's own format (a copy with its sizeofs named
		 * is ours only: see ev_print_of()).
		 */
		s->len = len;
		ep->event = tep_find_event(p->tep, tep_data_type(p->tep, rec));
		ep->mode = PM_TEP;
		find_pointer_keys(ep);
		print_tep(p, ep, rec, s);
		return;
	default:
		print_tep(p, ep, rec, s);
	}
}

struct lt_printer *lt_printer_new(struct tep_handle *tep)
{
	struct lt_printer *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->tep = tep;
	p->long_size = tep_get_long_size(tep) == 4 ? 4 : 8;
	p->big_endian = tep_is_file_bigendian(tep);
	p->swap = p->big_endian != tep_is_local_bigendian(tep);
	p->next_fake_id = 0xffff;
	trace_seq_init(&p->tmp);
	if (p->long_size == 8) {
		char buf[512];
		int n = snprintf(buf, sizeof(buf),
			"name: lt_str_probe\nID: %d\nformat:\n"
			"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
			"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
			"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
			"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
			"\tfield:unsigned long addr;\toffset:8;\tsize:8;\tsigned:0;\n\n"
			"print fmt: \"%%s\", REC->addr\n", p->next_fake_id--);

		lt_parse_lock();
		if (tep_parse_format(tep, &p->str_probe, buf, n, "lazytrace") ||
		    (p->str_probe && (p->str_probe->flags & TEP_EVENT_FL_FAILED)))
			p->str_probe = NULL;
		lt_parse_unlock();
		if (p->str_probe)
			str_probe_order(p);
	}
	return p;
}

void lt_printer_set_modules(struct lt_printer *p,
			    const struct lt_module_lookup *mod_of)
{
	p->mod_of = *mod_of;
}

/* Documented in lt-print.h. */
void lt_printer_set_kernel(struct lt_printer *p, const char *release)
{
	unsigned int major, minor;

	/*
	 * trace_syscalls.c printed each argument as "%lx" until 6.18 gave
	 * values from 10 on their 0x (and the ones below it in decimal).
	 */
	p->bare_syscall_hex = release &&
			      sscanf(release, "%u.%u", &major, &minor) == 2 &&
			      (major < 6 || (major == 6 && minor < 18));
}

void lt_printer_free(struct lt_printer *p)
{
	int i;

	if (!p)
		return;
	trace_seq_destroy(&p->tmp);
	for (i = 0; i < p->nr_src; i++)
		free(p->src[i].fmt);
	free(p->src);
	free(p->copy);
	for (i = 0; i < p->nr_ev; i++)
		free(p->ev[i].prog);
	free(p->ev);
	free(p->fgraph);
	free(p);
}
