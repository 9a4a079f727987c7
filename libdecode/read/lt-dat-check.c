// SPDX-License-Identifier: LGPL-2.1
/*
 * trace.dat validation (file versions 6 and 7), written from trace-cmd's
 * trace-cmd.dat.v6(5) and trace-cmd.dat.v7(5) and the kernel's ring-buffer
 * page layout. libtracecmd and libtraceevent trust sizes, offsets and
 * event lengths; this walk checks every one of them against the file
 * first, so that what reaches the libraries is consistent: no read past
 * a section or a page, no allocation of a claimed size, no loop.
 */
#include <ctype.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <zlib.h>
#include <zstd.h>

#include "../lt-util.h"
#include "lt-dat-check.h"

#define MAGIC		"\027\010\104tracing"
#define MAGIC_LEN	10

enum comp { COMP_NONE, COMP_ZSTD, COMP_ZLIB };

/* v7 option ids (trace-cmd.dat.v7(5)). */
enum {
	OPT_DONE = 0,
	OPT_DATE,
	OPT_CPUSTAT,
	OPT_BUFFER,
	OPT_TRACECLOCK,
	OPT_UNAME,
	OPT_HOOK,
	OPT_OFFSET,
	OPT_CPUCOUNT,
	OPT_VERSION,
	OPT_PROCMAPS,
	OPT_TRACEID,
	OPT_TIME_SHIFT,
	OPT_GUEST,
	OPT_TSC2NSEC,
	OPT_HEADER_INFO = 16,
	OPT_FTRACE_EVENTS,
	OPT_EVENT_FORMATS,
	OPT_KALLSYMS,
	OPT_PRINTK,
	OPT_CMDLINES,
	OPT_BUFFER_TEXT,
};

/* Ring-buffer event types (type_len) above the data lengths. */
#define RB_PADDING	29
#define RB_TIME_EXTEND	30
#define RB_TIME_STAMP	31
#define RB_COMMIT_MASK	((1U << 27) - 1)
#define RB_MISSED	(1ULL << 31)
#define RB_MISSED_STORED (1ULL << 30)
/* Every trace event starts with common_type, flags, preempt count, pid. */
#define RB_MIN_PAYLOAD	8
/* Uncompressed pages are read by lt_dat_chunk() this many at a time. */
#define RAW_BLOCK_PAGES	16

/* What a record of one event type must hold. */
struct ev_fmt {
	uint32_t id;
	uint32_t min_size;	/* end of its last fixed field */
	size_t dyn;		/* its dynamic fields: c->dyn[dyn ...] */
	size_t nr_dyn;
};

/* A __data_loc or __rel_loc field: 16-bit offset and length. */
struct dyn_field {
	uint32_t offset;
	uint32_t size;
	bool rel;
};

struct cpu_data {
	uint64_t off;
	uint64_t size;
	bool compressed;
	char *buffer;		/* the buffer's name ("" the top one) */
	uint32_t id;		/* the CPU's number */
	uint64_t chunks;	/* compressed: its chunk count */
	bool deferred;		/* pages left to lt_dat_chunk() */
	struct lt_dat_index ix;	/* compressed: where its chunks are */
	uint64_t *ix_off;	/* ix.off, ours */
};

struct chk {
	const uint8_t *file;
	uint64_t size;
	bool big;
	int long_size;
	int commit_size;	/* of the page header's commit field */
	uint32_t page_size;
	int version;
	enum comp comp;
	bool section_compressed;	/* the last section() */
	/* Event formats by id, and the dynamic fields they declare. */
	struct ev_fmt *ev;
	size_t nr_ev, max_ev;
	uint32_t *by_id;	/* once sorted: id -> index in ev + 1, or 0 */
	struct dyn_field *dyn;
	size_t nr_dyn, max_dyn;
	bool sorted;
	/* v7: CPU data to walk once every format is known. */
	struct cpu_data *cpu;
	bool header_info;	/* v7: a HEADER_INFO option was seen */
	size_t nr_cpu, max_cpu;
	/* compressed chunks past each CPU's first: left to lt_dat_chunk() */
	bool defer;
	uint8_t *in;		/* lt_dat_chunk(): a compressed chunk */
	size_t in_size;
	const struct lt_dat_hooks *hooks;
	/* the decompressed section being checked was changed in place */
	bool dirty;
	/* where the file is cut short (CPU data past its end), or 0 */
	uint64_t cut;
	char *err;
	size_t errlen;
	/* why the last format lost something, for lt_dat_format_verdict() */
	char why[160];
	/* the system of the formats being checked, for hooks->event */
	const char *sys;
};

/* The check, kept for the chunks it left to the reader. */
struct lt_dat_pages {
	struct chk c;
};

/*
 * A bounded view: a section of the file, or a decompressed section. @off
 * is the file offset of byte 0, or of the compressed section, for
 * messages.
 */
struct view {
	const uint8_t *p;
	uint64_t len;
	uint64_t pos;
	uint64_t off;
	bool inflated;
	bool part;		/* a sized part of the file, not all of it */
};

__attribute__((format(printf, 3, 4)))
static int fail(struct chk *c, uint64_t off, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(c->err, c->errlen, fmt, ap);
	va_end(ap);
	if (n >= 0 && (size_t)n < c->errlen)
		snprintf(c->err + n, c->errlen - n,
			 " at offset %llu (file size %llu)",
			 (unsigned long long)off, (unsigned long long)c->size);
	return -1;
}

/* Where the view's cursor is, as a file offset for a message. */
static uint64_t at(const struct view *v)
{
	return v->inflated ? v->off : v->off + v->pos;
}

static uint64_t get(const struct chk *c, const uint8_t *p, int n)
{
	bool swap = c->big != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
	uint64_t x = 0;
	uint32_t w;
	uint16_t h;
	int i;

	/* every record's type and length come through here: no loop */
	switch (n) {
	case 2:
		memcpy(&h, p, 2);
		return swap ? __builtin_bswap16(h) : h;
	case 4:
		memcpy(&w, p, 4);
		return swap ? __builtin_bswap32(w) : w;
	case 8:
		memcpy(&x, p, 8);
		return swap ? __builtin_bswap64(x) : x;
	}
	for (i = 0; i < n; i++)
		x |= (uint64_t)p[c->big ? n - 1 - i : i] << (8 * i);
	return x;
}

static int need(struct chk *c, struct view *v, uint64_t n, const char *what)
{
	if (v->len - v->pos < n)
		return fail(c, at(v), "corrupt trace.dat: %s (%llu bytes) runs past the end of %s",
			    what, (unsigned long long)n,
			    v->inflated ? "its compressed section" :
			    v->part ? "its section" : "the file");
	return 0;
}

static int num(struct chk *c, struct view *v, int n, uint64_t *x,
	       const char *what)
{
	if (need(c, v, n, what))
		return -1;
	*x = get(c, v->p + v->pos, n);
	v->pos += n;
	return 0;
}

/* A NUL-terminated string inside the view, at most @max bytes. */
static int cstr(struct chk *c, struct view *v, size_t max, const char **s,
		const char *what)
{
	uint64_t left = v->len - v->pos;
	const uint8_t *e = memchr(v->p + v->pos, '\0', left < max ? left : max);

	if (!e)
		return fail(c, at(v), "corrupt trace.dat: %s is not a terminated string",
			    what);
	*s = (const char *)v->p + v->pos;
	v->pos = e - v->p + 1;
	return 0;
}

/* @n bytes of data, sized by the file: skipped, returned in @d. */
static int blob(struct chk *c, struct view *v, uint64_t n, struct view *d,
		const char *what)
{
	if (need(c, v, n, what))
		return -1;
	*d = (struct view){ v->p + v->pos, n, 0, v->inflated ? v->off :
			    v->off + v->pos, v->inflated, true };
	v->pos += n;
	return 0;
}

/* A view of the file from @off to its end. */
static int file_at(struct chk *c, uint64_t off, struct view *v,
		   const char *what)
{
	if (off > c->size)
		return fail(c, off, "corrupt trace.dat: %s lies past the end of the file",
			    what);
	*v = (struct view){ c->file + off, c->size - off, 0, off, false, false };
	return 0;
}

static void put(const struct chk *c, uint8_t *p, int n, uint64_t x)
{
	int i;

	for (i = 0; i < n; i++)
		p[c->big ? n - 1 - i : i] = x >> (8 * i);
}

/*
 * Replace @n bytes of @v at @at, for libtracecmd's eyes only: in our
 * decompressed copy of a section (compressed again by reseal()), or in
 * the caller's copy of the file.
 */
static int modify(struct chk *c, const struct view *v, const uint8_t *at,
		  const void *bytes, size_t n)
{
	uint64_t off = v->off + (at - v->p);

	if (v->inflated) {
		memcpy((uint8_t *)at, bytes, n);	/* inflate_piece()'s */
		c->dirty = true;
		return 0;
	}
	if (!c->hooks || !c->hooks->patch)
		return fail(c, off, "corrupt trace.dat: %zu bytes the libraries cannot be trusted with",
			    n);
	c->hooks->patch(c->hooks->ctx, off, bytes, n);
	return 0;
}

/*
 * Decompress @csize bytes at @src into a new buffer of exactly @usize
 * bytes. Bounded by a ratio to what the file really holds, so that a
 * claimed size costs nothing until the data is there.
 */
static int piece_size(struct chk *c, uint64_t csize, uint64_t usize,
		      uint64_t off)
{
	if (usize > LT_DAT_MAX_INFLATE ||
	    usize > (csize + 64) * LT_DAT_MAX_RATIO)
		return fail(c, off, "corrupt trace.dat: %llu compressed bytes claim %llu uncompressed",
			    (unsigned long long)csize,
			    (unsigned long long)usize);
	return 0;
}

/* Decompress into @dst, which holds @usize bytes, exactly that many. */
static int inflate_into(struct chk *c, uint8_t *dst, const uint8_t *src,
			uint64_t csize, uint64_t usize, uint64_t off)
{
	uLongf zlen;
	size_t n;

	if (c->comp == COMP_ZSTD) {
		n = ZSTD_decompress(dst, usize, src, csize);
		if (!ZSTD_isError(n) && n == usize)
			return 0;
	} else {
		zlen = usize;
		if (uncompress(dst, &zlen, src, csize) == Z_OK &&
		    zlen == usize)
			return 0;
	}
	return fail(c, off, "corrupt trace.dat: compressed data does not decompress to its %llu bytes",
		    (unsigned long long)usize);
}

static uint8_t *inflate_piece(struct chk *c, const uint8_t *src,
			      uint64_t csize, uint64_t usize, uint64_t off)
{
	uint8_t *dst;

	if (piece_size(c, csize, usize, off))
		return NULL;
	dst = malloc(usize ? usize : 1);
	if (!dst) {
		fail(c, off, "out of memory decompressing %llu bytes",
		     (unsigned long long)usize);
		return NULL;
	}
	if (inflate_into(c, dst, src, csize, usize, off)) {
		free(dst);
		return NULL;
	}
	return dst;
}

/*
 * The compressed section at @off, whose decompressed copy @buf (@usize
 * bytes) modify() changed: compressed again into the room of the old data
 * (the text it replaced compresses at least as well, spaces for the most
 * part), with its new compressed size. The section's size stays.
 */
static int reseal(struct chk *c, uint64_t off, const uint8_t *buf,
		  uint64_t usize)
{
	/* the section header: id 2, flags 2, string id 4, size 8 */
	uint64_t room = get(c, c->file + off + 16, 4), n = 0;
	size_t cap = c->comp == COMP_ZSTD ? ZSTD_compressBound(usize) :
		     compressBound(usize);
	const int levels[] = { 3, 19 };
	uint8_t *z = malloc(cap), h[4];
	uLongf zlen;
	size_t i;

	if (!z)
		return fail(c, off, "out of memory");
	for (i = 0; i < 2; i++) {
		if (c->comp == COMP_ZSTD) {
			n = ZSTD_compress(z, cap, buf, usize, levels[i]);
			n = ZSTD_isError(n) ? ~0ULL : n;
		} else {
			zlen = cap;
			n = compress2(z, &zlen, buf, usize, 9) == Z_OK ?
			    zlen : ~0ULL;
		}
		if (n <= room)
			break;
	}
	if (n > room) {
		free(z);
		return fail(c, off, "corrupt trace.dat: section cannot be made safe for the libraries");
	}
	put(c, h, 4, n);
	if (!c->hooks || !c->hooks->patch) {
		free(z);
		return fail(c, off, "corrupt trace.dat: a section the libraries cannot be trusted with");
	}
	c->hooks->patch(c->hooks->ctx, off + 16, h, 4);
	c->hooks->patch(c->hooks->ctx, off + 24, z, n);
	free(z);
	return 0;
}

/*
 * Format files are ASCII text. libtraceevent 1.7.1's tokenizer crashes on
 * some control characters (a NULL token in a field declaration).
 */
static bool text_char(uint8_t ch)
{
	return (ch >= 0x20 && ch <= 0x7e) || ch == '\t' || ch == '\n';
}

/*
 * Eight bytes at a time (a distribution kernel's formats are 2 MB): a
 * word without a byte of the high bit, below 0x20 or 0x7f is text; one
 * that may have one is looked at byte by byte (a tab or a newline).
 */
static bool text_only(const struct view *f)
{
	const uint64_t ones = 0x0101010101010101ULL;
	const uint64_t high = ones * 0x80;
	uint64_t i = 0, x, del;

	for (; i + 8 <= f->len; i += 8) {
		memcpy(&x, f->p + i, 8);
		del = x ^ (ones * 0x7f);
		if (!(x & high) && !((x - ones * 0x20) & ~x & high) &&
		    !((del - ones) & ~del & high))
			continue;
		if (!text_char(f->p[i]) || !text_char(f->p[i + 1]) ||
		    !text_char(f->p[i + 2]) || !text_char(f->p[i + 3]) ||
		    !text_char(f->p[i + 4]) || !text_char(f->p[i + 5]) ||
		    !text_char(f->p[i + 6]) || !text_char(f->p[i + 7]))
			return false;
	}
	for (; i < f->len; i++)
		if (!text_char(f->p[i]))
			return false;
	return true;
}

/* Grow an array of @size-byte items to hold one more. */
static int grow(struct chk *c, void **a, size_t nr, size_t *max, size_t size)
{
	size_t n = *max ? *max * 2 : 64;
	void *p;

	if (nr < *max)
		return 0;
	p = realloc(*a, n * size);
	if (!p)
		return fail(c, 0, "out of memory");
	*a = p;
	*max = n;
	return 0;
}

static bool ident_char(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
	       (ch >= '0' && ch <= '9') || ch == '_';
}

/* A decimal number after @key in [s, end), or -1. */
static long long key_num(const char *s, const char *end, const char *key)
{
	size_t n = strlen(key);
	const char *p = lt_find(s, end, key, n);
	long long v = 0;
	int digits = 0;

	if (!p)
		return -1;
	for (p += n; p < end && *p >= '0' && *p <= '9' && digits < 9; p++)
		v = v * 10 + (*p - '0'), digits++;
	return digits ? v : -1;
}

/* "digits;" at @p: advance past it. */
static bool digits_semi(const char **p, const char *end)
{
	const char *q = *p;

	while (q < end && *q >= '0' && *q <= '9')
		q++;
	if (q == *p || q >= end || *q != ';')
		return false;
	*p = q + 1;
	return true;
}

static bool word(const char **p, const char *end, const char *w)
{
	size_t n = strlen(w);

	while (*p < end && (**p == ' ' || **p == '\t'))
		(*p)++;
	if ((size_t)(end - *p) < n || memcmp(*p, w, n))
		return false;
	*p += n;
	return true;
}

/*
 * A field line exactly as the kernel writes it:
 * "\tfield:TYPE NAME;\toffset:N;\tsize:N;\tsigned:N;" (signed: since
 * 2.6.31). libtraceevent's token parser has crashed on less.
 */
static bool field_line_ok(const char *p, const char *eol)
{
	const char *semi;
	bool open = false;
	int parens = 0;

	if (!word(&p, eol, "field:"))
		return false;
	semi = memchr(p, ';', eol - p);
	if (!semi || semi == p)
		return false;
	/*
	 * "char comm[16]", "__data_loc char[] name": brackets pair. Inside
	 * them, the array size as the kernel's macros left it: "30+1"
	 * (ftrace's branch event), "sizeof(struct sockaddr_in6)" (tcp):
	 * libtraceevent reads the tokens up to the ']' and takes the first
	 * number for the length.
	 */
	for (; p < semi; p++) {
		if (!ident_char(*p) && !strchr(open ? " []+-*()" : " *[]", *p))
			return false;
		if ((*p == '[' && open) || (*p == ']' && (!open || parens)))
			return false;
		if (*p == '(')
			parens++;
		else if (*p == ')' && --parens < 0)
			return false;
		if (*p == '[' || *p == ']')
			open = *p == '[';
	}
	if (open)
		return false;
	p++;
	if (!word(&p, eol, "offset:") || !digits_semi(&p, eol) ||
	    !word(&p, eol, "size:") || !digits_semi(&p, eol))
		return false;
	if (word(&p, eol, "signed:") && !digits_semi(&p, eol))
		return false;
	while (p < eol && (*p == ' ' || *p == '\t'))
		p++;
	return p == eol;
}

#define MAX_FIELDS 512

struct field_name {
	const char *name;
	size_t len;
};

/* Why a format lost something, for lt_dat_format_verdict(). */
__attribute__((format(printf, 2, 3)))
static void why(struct chk *c, const char *fmt, ...)
{
	va_list ap;

	if (c->why[0])
		return;		/* the first reason */
	va_start(ap, fmt);
	vsnprintf(c->why, sizeof(c->why), fmt, ap);
	va_end(ap);
}

/*
 * A field line libtraceevent cannot be trusted with, or that the records
 * could not be checked against: blanked, its newline too, so that the
 * parser goes on with the next line and the event has one field less.
 */
static void drop_line(char *line, const char *eol, const char *end)
{
	memset(line, ' ', eol - line + (eol < end));
}

/*
 * "field:TYPE NAME[N];\toffset:O;\tsize:S;" lines of the format @s
 * (@len bytes, our copy): the names (for the print format) and, for the
 * records, where the fixed fields end and where the dynamic ones are.
 * A line that is not what the kernel writes is dropped from @s.
 */
static int parse_fields(struct chk *c, char *s, size_t len, uint64_t at,
			const char *what, struct field_name *names,
			int *nr_names)
{
	const char *end = s + len, *decl, *semi, *n;
	const char *fmt = lt_find(s, end, "\nprint fmt:", 11);
	char *line, *eol;
	struct ev_fmt *ev;
	long long id = key_num(s, end, "\nID: "), off, size;
	/* the kernel's format starts with its name */
	bool flexible_stack = (len > 19 && !memcmp(s, "name: kernel_stack\n", 19)) ||
			      (len > 17 && !memcmp(s, "name: user_stack\n", 17));
	bool dyn, rel;

	if (id < 0 && len >= 4 && !memcmp(s, "ID: ", 4))
		id = key_num(s, end, "ID: ");
	if (id < 0 || id > 0xffff)
		return fail(c, at, "corrupt trace.dat: %s format without a valid ID",
			    what);
	/* "field:" in the print format is no field line */
	if (fmt)
		end = fmt + 1;
	if (grow(c, (void **)&c->ev, c->nr_ev, &c->max_ev, sizeof(*c->ev)))
		return -1;
	ev = &c->ev[c->nr_ev++];
	*ev = (struct ev_fmt){ .id = id, .dyn = c->nr_dyn };
	c->sorted = false;
	*nr_names = 0;
	for (line = s; line < end; line = eol + 1) {
		eol = memchr(line, '\n', end - line);
		if (!eol)
			eol = line + (end - line);
		decl = lt_find(line, eol, "field:", 6);
		if (!decl)
			continue;
		if (!field_line_ok(line, eol)) {
			why(c, "a malformed field line");
			drop_line(line, eol, end);
			continue;
		}
		decl += 6;
		semi = memchr(decl, ';', eol - decl);
		off = semi ? key_num(semi, eol, "offset:") : -1;
		size = semi ? key_num(semi, eol, "size:") : -1;
		rel = semi && lt_find(decl, semi, "__rel_loc", 9);
		dyn = rel || (semi && lt_find(decl, semi, "__data_loc", 10));
		if (off < 0 || size < 0 || off + size > 0xffff ||
		    *nr_names >= MAX_FIELDS || (dyn && size != 4)) {
			why(c, "a field without a valid offset and size, or over %d fields",
			    MAX_FIELDS);
			drop_line(line, eol, end);
			continue;
		}
		/*
		 * The name: the last identifier, before its [N] if it has
		 * one ("char comm[16]", but "__data_loc char[] name").
		 */
		n = semi;
		while (n > decl && n[-1] == ' ')
			n--;
		if (n > decl && n[-1] == ']')
			n = memrchr(decl, '[', n - decl);
		while (n > decl && n[-1] == ' ')
			n--;
		names[*nr_names].len = 0;
		while (n > decl && ident_char(n[-1]))
			n--, names[*nr_names].len++;
		names[(*nr_names)++].name = n;
		if (!dyn) {
			/*
			 * A stack event's caller[] array holds only the
			 * frames its size field counts: the record ends
			 * where they do, not where the format's array does.
			 */
			if (flexible_stack && memchr(decl, '[', semi - decl))
				size = 0;
			if (off + size > ev->min_size)
				ev->min_size = off + size;
			continue;
		}
		if (off + 4 > ev->min_size)
			ev->min_size = off + 4;
		if (grow(c, (void **)&c->dyn, c->nr_dyn, &c->max_dyn,
			 sizeof(*c->dyn)))
			return -1;
		c->dyn[c->nr_dyn++] = (struct dyn_field){
			.offset = off, .size = size,
			.rel = rel,
		};
		ev->nr_dyn++;
	}
	return 0;
}

static bool known_field(const struct field_name *names, int nr,
			const char *name, size_t len)
{
	int i;

	for (i = 0; i < nr; i++)
		if (names[i].len == len && !memcmp(names[i].name, name, len))
			return true;
	return false;
}

/*
 * What a print format's arguments are made of, outside strings and
 * character constants (';' in the statement expressions of the kernel's
 * min() and max()). libtraceevent takes any other printable character
 * for an operator it then has no rule for.
 */
static bool expr_char(char ch)
{
	return isalnum((unsigned char)ch) ||
	       (ch && strchr("_ \t\n+-*/%&|^~!<>=?:;,()[]{}.\"'", ch));
}

/*
 * libtraceevent 1.7.1 divides by whatever the divisor evaluates to, zero
 * included (SIGFPE), when it parses the format as when it prints. Kernel
 * formats divide by a non-zero number or a sizeof(): allow that only.
 */
static bool constant_divisor(const char *p, const char *end)
{
	char tok[32];
	size_t n;

	while (p < end && (*p == ' ' || *p == '('))
		p++;
	if (end - p >= 7 && !memcmp(p, "sizeof(", 7))
		return true;
	/*
	 * Linux 7.2 formats divide by fields (REC->x): a record holding 0
	 * there still traps in 1.7.1 (patches/libtraceevent/untrusted).
	 */
	if (end - p >= 5 && !memcmp(p, "REC->", 5))
		return true;
	/*
	 * A number as libtraceevent reads it: the token through strtoull()
	 * with base 0, so "08" is octal 0 and "0x" is 0.
	 */
	for (n = 0; p + n < end && ident_char(p[n]) && n < sizeof(tok) - 1; n++)
		tok[n] = p[n];
	tok[n] = '\0';
	if (!n || !isdigit((unsigned char)tok[0]))
		return false;
	return strtoull(tok, NULL, 0) != 0;
}

/*
 * Whether what comes before the '[' at @s can be subscripted: a field of
 * the record that ends at @field_end (REC->args), a subscript or a
 * parenthesis; inside a statement expression, any name (kvm's
 * access_str[role.access]). Not a number ("0x4[local]") nor another name
 * ("RE[local][4]"): libtraceevent 1.7.1 dereferences NULL on both.
 */
static bool subscriptable(const char *start, const char *s,
			  const char *field_end, bool in_stmt)
{
	const char *t;

	while (s > start && (s[-1] == ' ' || s[-1] == '\t'))
		s--;
	if (s > start && (s[-1] == ')' || s[-1] == ']'))
		return true;
	if (s == field_end)
		return true;
	for (t = s; t > start && ident_char(t[-1]); t--)
		;
	return in_stmt && t < s && !isdigit((unsigned char)*t);
}

/* Whether a name, a number, a string or a member access follows. */
static bool after_subscript(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (end - p >= 2 && (!memcmp(p, "->", 2) || *p == '.'))
		return true;	/* no kernel format reaches into an element */
	return p < end && (isalnum((unsigned char)*p) || *p == '_' ||
			   *p == '"' || *p == '\'');
}

/* Whether the last character before @s, spaces aside, is a '('. */
static bool opens_paren(const char *start, const char *s)
{
	while (s > start && (s[-1] == ' ' || s[-1] == '\t'))
		s--;
	return s > start && s[-1] == '(';
}

/* Whether the last character before @s, spaces aside, closes a string. */
static bool after_string(const char *start, const char *s)
{
	while (s > start && (s[-1] == ' ' || s[-1] == '\t'))
		s--;
	return s > start && s[-1] == '"';
}

/* Whether a number token (as libtraceevent reads it) that is 0 follows. */
static bool zero_number(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '('))
		p++;
	return p < end && isdigit((unsigned char)*p) &&
	       !constant_divisor(p, end);
}

/* A print format libtraceevent cannot be trusted with: why, and no. */
#define unsafe(c, ...) (why(c, __VA_ARGS__), false)

/*
 * Whether libtraceevent can be handed the print format @fmt (up to
 * @end). It parses it by recursion: bound the nesting and the number of
 * operators (each may be a level). And libtraceevent 1.7.1 dereferences
 * a NULL field when the format names a field the event does not have
 * (REC->x), and on the other shapes below, each found by a fuzzer
 * (tests/fuzz/regress/README.md). What a kernel writes and this does not
 * take (3.x's compound literal "((ktime_t){ .tv64 = REC->expires })",
 * binder's "sizeof(struct { int:-!!(...); })") libtraceevent 1.7.1
 * cannot parse either: it prints those events as "[FAILED TO PARSE]"
 * with their fields, as it does once the print format is dropped.
 */
static bool print_ok(struct chk *c, const char *fmt, const char *end,
		     const struct field_name *names, int nr_names)
{
	char open[LT_DAT_MAX_NESTING];	/* the closers the nesting waits for */
	int depth = 0, ops = 0, stmt = 0;
	int stmt_at[LT_DAT_MAX_NESTING];	/* where each "({" opened */
	char quote = 0;		/* the open quote: ' or " */
	const char *s, *n, *field_end = NULL;	/* where the last REC->x ends */

	for (s = fmt; s < end; s++) {
		if (quote) {
			if (*s == '\\' && s + 1 < end)
				s++;
			else if (*s == quote)
				quote = 0;
			continue;
		}
		if (end - s > 5 && !memcmp(s, "REC->", 5)) {
			for (n = s + 5; n < end && ident_char(*n); n++)
				;
			/* Linux 7.2's vmscan formats name the entry: ent.pid */
			if (!known_field(names, nr_names, s + 5, n - s - 5) &&
			    !(n - s - 5 == 3 && !memcmp(s + 5, "ent", 3)))
				return unsafe(c, "print format uses a field it does not declare: %.*s", (int)(n - s - 5 < 32 ? n - s - 5 : 32), s + 5);
			field_end = n;
			s = n - 1;
			continue;
		}
		/*
		 * Kernel formats reach only into the record (REC->x, taken
		 * above); libtraceevent 1.7.1 dereferences NULL on a member
		 * of any other name ("fEC->next_comm").
		 */
		if (*s == '-' && s + 1 < end && s[1] == '>') {
			/* func_repeats: (REC)->top_delta_ts */
			if (s - fmt < 5 || memcmp(s - 5, "(REC)", 5))
				return unsafe(c, "print format takes a member of something other than the record");
			for (n = s + 2; n < end && ident_char(*n); n++)
				;
			if (!known_field(names, nr_names, s + 2, n - s - 2))
				return unsafe(c, "print format uses a field it does not declare: %.*s", (int)(n - s - 2 < 32 ? n - s - 2 : 32), s + 2);
			field_end = n;
			s = n - 1;
			continue;
		}
		/*
		 * libtraceevent 1.7.1 dereferences NULL on a character its
		 * tokenizer has no class for ('$' between two arguments).
		 */
		if (!expr_char(*s))
			return unsafe(c, "print format has a character no C expression has (0x%02x)", (unsigned char)*s);
		if (*s == '/' && !constant_divisor(s + 1, end))
			return unsafe(c, "print format divides by something other than a constant");
		/*
		 * '%' outside a string is the remainder, which libtraceevent
		 * folds at parse time when both sides are numbers ("% 08" is
		 * octal 0) or names (read as 0: "R%C->x" traps). A kernel's
		 * format may also leave a conversion outside its quotes
		 * (arm64's "instr="%s" ..."): after a string, anything goes.
		 */
		if (*s == '%' && zero_number(s + 1, end))
			return unsafe(c, "print format divides by zero");
		if (*s == '%' && !after_string(fmt, s) &&
		    !constant_divisor(s + 1, end))
			return unsafe(c, "print format takes a remainder by something other than a constant");
		switch (*s) {
		case '"':
		case '\'':
			quote = *s;
			break;
		case '(':
		case '[':
		case '{':
			if (*s == '[' && !subscriptable(fmt, s, field_end, stmt))
				return unsafe(c, "print format subscripts something that is not a field");
			if (depth == LT_DAT_MAX_NESTING)
				return unsafe(c, "print format nests deeper than %d", LT_DAT_MAX_NESTING);
			/* a statement expression: ({ int x = ...; ... }) */
			if (*s == '{' && depth && open[depth - 1] == ')' &&
			    opens_paren(fmt, s))
				stmt_at[stmt++] = depth;
			open[depth++] = *s == '(' ? ')' : *s == '[' ? ']' : '}';
			break;
		case ')':
		case ']':
		case '}':
			/*
			 * libtraceevent 1.7.1 dereferences NULL on brackets
			 * that do not pair, or on a name right after a
			 * subscript ("REC->a[3]b[4]").
			 */
			if (!depth || open[--depth] != *s)
				return unsafe(c, "print format has an unpaired '%c'", *s);
			if (stmt && stmt_at[stmt - 1] == depth)
				stmt--;
			if (*s == ']' && after_subscript(s + 1, end))
				return unsafe(c, "print format has a name, number or member access right after a subscript");
			break;
		case ';':
			/* statements end inside a statement expression only */
			if (!stmt)
				return unsafe(c, "print format ends a statement outside a statement expression");
			break;
		case '=':
			/*
			 * An assignment only declares a statement expression's
			 * variable (min() and max() in 7.x); libtraceevent
			 * 1.7.1 dereferences NULL on "REC->a[4]= REC->a[5]".
			 */
			if (!stmt && !(s + 1 < end && s[1] == '=') &&
			    s > fmt && !strchr("=!<>", s[-1]))
				return unsafe(c, "print format assigns outside a statement expression");
			/* fall through */
		case '+': case '-': case '*': case '/': case '%': case '&':
		case '|': case '^': case '<': case '>': case '?': case ':':
		case '!': case '~': case ',':
			if (++ops > LT_DAT_MAX_OPERATORS)
				return unsafe(c, "print format has over %d operators", LT_DAT_MAX_OPERATORS);
			break;
		}
	}
	/* libtraceevent reads past an open string's end to the next quote */
	if (quote)
		return unsafe(c, "print format leaves a string open");
	if (depth)
		return unsafe(c, "print format leaves a '%c' open",
			      open[depth - 1] == ')' ? '(' :
			      open[depth - 1] == ']' ? '[' : '{');
	return true;
}

/*
 * One event format file. It is refused only when its size or its ID is
 * wrong; else what the libraries cannot be trusted with is dropped from
 * the copy they read (modify()): characters that are not text become
 * '?', field lines that are not the kernel's are blanked, and a print
 * format print_ok() does not take is blanked, which libtraceevent reads
 * as an event it failed to parse (printed as "[FAILED TO PARSE]" and its
 * fields).
 */
static int check_format(struct chk *c, const struct view *f, const char *what)
{
	struct field_name names[MAX_FIELDS];
	char *t, *fmt, *end;
	int nr_names, ret = -1;
	uint64_t i;

	c->why[0] = '\0';
	if (f->len > LT_DAT_MAX_FORMAT)
		return fail(c, f->off, "corrupt trace.dat: %s format of %llu bytes",
			    what, (unsigned long long)f->len);
	t = malloc(f->len + 1);
	if (!t)
		return fail(c, f->off, "out of memory");
	memcpy(t, f->p, f->len);
	t[f->len] = '\0';
	end = t + f->len;
	/*
	 * libtraceevent 1.7.1's tokenizer crashes on some (prev_comm[\x14]).
	 * A '?' is no character of a field line, which is then dropped; in
	 * the print format it is one more the checks below see.
	 */
	for (i = text_only(f) ? f->len : 0; i < f->len; i++) {
		uint8_t ch = t[i];

		if (!text_char(ch)) {
			why(c, "a character that is not text (0x%02x)", ch);
			t[i] = '?';
		}
	}
	if (parse_fields(c, t, f->len, f->off, what, names, &nr_names))
		goto out;
	/* where parse_fields() ends the field lines */
	fmt = (char *)lt_find(t, end, "\nprint fmt:", 11);
	if (fmt)
		fmt++;
	if (fmt && !print_ok(c, fmt + 10, end, names, nr_names)) {
		memset(fmt + 10, ' ', end - (fmt + 10));
		fmt = NULL;
	}
	if (memcmp(t, f->p, f->len) && modify(c, f, f->p, t, f->len))
		goto out;
	/* parse_fields() added this format's entry: its ID */
	if (c->hooks && c->hooks->format && fmt)
		c->hooks->format(c->hooks->ctx, c->ev[c->nr_ev - 1].id,
				 fmt + 10, end - (fmt + 10));
	if (c->hooks && c->hooks->event)
		c->hooks->event(c->hooks->ctx, c->sys ? c->sys : "",
				c->ev[c->nr_ev - 1].id, t, f->len);
	ret = 0;
out:
	free(t);
	return ret;
}

/*
 * header_page: "field: u64 timestamp;\toffset:0;\tsize:8;..." for the
 * timestamp, the commit and the data. libtracecmd 3.1.6 crashes in its
 * error path (tracecmd_close() on a half-built handle) when
 * libtraceevent cannot parse it: require all three, where the kernel
 * puts them. The commit's size gives the page header's.
 */
/*
 * A header_page field as the kernel writes it: "field: TYPE NAME;", one
 * word of type (u64, local_t, int or char: it changed over the years)
 * and one of the four names. libtraceevent reads anything else into a
 * page layout of its own (a garbled "cl oal_t commit" moved its data
 * start by 8 bytes, and its walk of every page then differed from ours).
 */
static bool header_field_known(const char *line, const char *eol)
{
	static const char *const names[] = { "timestamp;", "commit;",
					     "overwrite;", "data;" };
	const char *p, *sp;
	size_t i, n;

	p = memmem(line, eol - line, "field: ", 7);
	if (!p)
		return false;
	p += 7;
	for (sp = p; sp < eol && ident_char(*sp); sp++)
		;
	if (sp == p || sp >= eol || *sp != ' ')
		return false;
	sp++;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		n = strlen(names[i]);
		if ((size_t)(eol - sp) > n && !memcmp(sp, names[i], n))
			return true;
	}
	return false;
}

static int check_header_page(struct chk *c, const struct view *h)
{
	static const char *const want[] = { " timestamp;", " commit;",
					    " data;" };
	const char *s = (const char *)h->p, *end = s + h->len, *p;
	long long off[3], size[3];
	int i;

	const char *line, *eol;

	for (line = s; line < end; line = eol + 1) {
		eol = memchr(line, '\n', end - line);
		if (!eol)
			eol = end;
		if (eol > line && (!field_line_ok(line, eol) ||
				   !header_field_known(line, eol)))
			return fail(c, h->off, "corrupt trace.dat: header_page has a malformed field line");
	}
	for (i = 0; i < 3; i++) {
		p = memmem(s, h->len, want[i], strlen(want[i]));
		eol = p ? memchr(p, '\n', end - p) : NULL;
		eol = eol ? eol : end;
		off[i] = p ? key_num(p, eol, "\toffset:") : -1;
		size[i] = p ? key_num(p, eol, "\tsize:") : -1;
		if (off[i] < 0 || size[i] < 0)
			return fail(c, h->off, "corrupt trace.dat: header_page has no valid%.*s field",
				    (int)strlen(want[i]) - 1, want[i]);
	}
	/* libtraceevent places the data after overwrite when it differs */
	p = memmem(s, h->len, " overwrite;", 11);
	if (p) {
		eol = memchr(p, '\n', end - p);
		eol = eol ? eol : end;
		if (key_num(p, eol, "\toffset:") != 8 ||
		    key_num(p, eol, "\tsize:") != 1)
			return fail(c, h->off, "corrupt trace.dat: header_page does not describe a ring-buffer page");
	}
	if (off[0] != 0 || size[0] != 8 || off[1] != 8 ||
	    (size[1] != 4 && size[1] != 8) || off[2] != 8 + size[1] ||
	    off[2] + size[2] > c->page_size)
		return fail(c, h->off, "corrupt trace.dat: header_page does not describe a ring-buffer page");
	c->commit_size = size[1];
	return 0;
}

static int check_header_info(struct chk *c, struct view *v)
{
	static const char *const tags[] = { "header_page", "header_event" };
	struct view d;
	uint64_t n;
	int i;

	for (i = 0; i < 2; i++) {
		size_t len = strlen(tags[i]) + 1;

		if (need(c, v, len, tags[i]) ||
		    memcmp(v->p + v->pos, tags[i], len))
			return fail(c, at(v), "corrupt trace.dat: no %s section",
				    tags[i]);
		v->pos += len;
		if (num(c, v, 8, &n, tags[i]) || blob(c, v, n, &d, tags[i]))
			return -1;
		if (!text_only(&d))
			return fail(c, d.off, "corrupt trace.dat: %s is not text",
				    tags[i]);
		if (!i && check_header_page(c, &d))
			return -1;
		if (!i && c->hooks && c->hooks->header_page)
			c->hooks->header_page(c->hooks->ctx,
					      (const char *)d.p, d.len);
	}
	return 0;
}

/* @count format files, each with an 8-byte size. */
static int check_formats(struct chk *c, struct view *v, uint64_t count,
			 const char *what)
{
	struct view f;
	uint64_t n, i;

	/* Each needs its size word: the count cannot exceed the room. */
	if (count > (v->len - v->pos) / 8)
		return fail(c, at(v), "corrupt trace.dat: %llu formats (%s) do not fit",
			    (unsigned long long)count, what);
	for (i = 0; i < count; i++) {
		if (num(c, v, 8, &n, "an event format size") ||
		    blob(c, v, n, &f, "an event format") ||
		    check_format(c, &f, what))
			return -1;
	}
	return 0;
}

static int check_ftrace_events(struct chk *c, struct view *v)
{
	uint64_t count;

	if (num(c, v, 4, &count, "the ftrace format count"))
		return -1;
	c->sys = "ftrace";
	return check_formats(c, v, count, "an ftrace event");
}

static int check_event_formats(struct chk *c, struct view *v)
{
	uint64_t systems, count, i;
	const char *name;

	if (num(c, v, 4, &systems, "the event system count"))
		return -1;
	if (systems > (v->len - v->pos) / 5)
		return fail(c, at(v), "corrupt trace.dat: %llu event systems do not fit",
			    (unsigned long long)systems);
	for (i = 0; i < systems; i++) {
		if (cstr(c, v, 256, &name, "an event system name") ||
		    num(c, v, 4, &count, "an event count"))
			return -1;
		c->sys = name;
		if (check_formats(c, v, count, "an event"))
			return -1;
	}
	return 0;
}

/*
 * Whether libtraceevent 1.7.1's tep_parse_printk_formats() reads the
 * line [s, e) within it: it skips leading ':'s, takes the address up to
 * the next ':' and the format from one byte after it, past the line's
 * end when nothing follows the ':' (found by fuzz-dat).
 */
static bool printk_line_ok(const char *s, const char *e)
{
	while (s < e && *s == ':')
		s++;
	if (s == e)
		return true;	/* no address: it stops reading there */
	s = memchr(s, ':', e - s);
	return s && e - s > 1;
}

/*
 * The printk formats as libtraceevent may read them (@t, the section's
 * text, changed in place; the file's copy patched the same way): a line
 * it would read past becomes empty lines ('\n'), which it skips, and a
 * NUL, where its copy of the text would end mid-line, a line break.
 */
static int printk_lines(struct chk *c, const struct view *d, char *t)
{
	char *s, *e, *end = t + d->len;

	c->why[0] = '\0';
	for (s = t; s < end; s = e + 1) {
		for (e = s; e < end && *e != '\n' && *e; e++)
			;
		if (printk_line_ok(s, e)) {
			if (e == end || *e == '\n')
				continue;
			s = e;	/* the NUL alone */
		} else {
			why(c, "a printk format line without \"ADDR : FORMAT\"");
		}
		if (e < end)
			e++;	/* its NUL or line break too */
		memset(s, '\n', e - s);
		if (modify(c, d, d->p + (s - t), s, e - s))
			return -1;
		e--;
	}
	return 0;
}

/* printk formats (4-byte size), saved cmdlines (8-byte). */
static int check_sized(struct chk *c, struct view *v, int width,
		       const char *what)
{
	void (*hook)(void *ctx, const char *text, size_t len);
	struct view d;
	uint64_t n;
	char *t;
	int ret = 0;

	if (num(c, v, width, &n, what) || blob(c, v, n, &d, what))
		return -1;
	hook = !c->hooks ? NULL : width == 4 ? c->hooks->printk :
	       c->hooks->cmdlines;
	if (width != 4) {
		if (hook)
			hook(c->hooks->ctx, (const char *)d.p, d.len);
		return 0;
	}
	t = malloc(d.len + 1);
	if (!t)
		return fail(c, d.off, "out of memory");
	memcpy(t, d.p, d.len);
	t[d.len] = '\0';
	ret = printk_lines(c, &d, t);
	if (!ret && hook)
		hook(c->hooks->ctx, t, d.len);
	free(t);
	return ret;
}

/* The kallsyms section (4-byte size), handed to the caller's hook. */
static int check_kallsyms(struct chk *c, struct view *v)
{
	struct view d;
	uint64_t n;

	if (num(c, v, 4, &n, "kallsyms") || blob(c, v, n, &d, "kallsyms"))
		return -1;
	if (c->hooks && c->hooks->kallsyms)
		c->hooks->kallsyms(c->hooks->ctx, (const char *)d.p, d.len,
				   d.inflated ? -1 : (int64_t)d.off);
	return 0;
}

/* Documented in lt-dat-check.h. */
char *lt_dat_kallsyms_read(int fd, const struct lt_dat_later *at,
			   size_t *len, char *err, size_t errlen)
{
	struct chk c = { .big = at->big, .comp = at->comp, .err = err,
			 .errlen = errlen };
	uint8_t *src = malloc(at->csize ? at->csize : 1), *dst = NULL;
	struct view v, d;
	uint64_t n;

	c.size = lseek(fd, 0, SEEK_END);
	if (!src || pread(fd, src, at->csize, at->off) != (ssize_t)at->csize) {
		fail(&c, at->off, src ? "corrupt trace.dat: kallsyms cut short since the file was opened" :
			"out of memory");
		free(src);
		return NULL;
	}
	dst = inflate_piece(&c, src, at->csize, at->usize, at->section);
	free(src);
	if (!dst)
		return NULL;
	/* as check_kallsyms(): a 4-byte size, and that much text */
	v = (struct view){ dst, at->usize, 0, at->section, true, true };
	if (num(&c, &v, 4, &n, "kallsyms") || blob(&c, &v, n, &d, "kallsyms")) {
		free(dst);
		return NULL;
	}
	memmove(dst, d.p, n);
	dst[n] = '\0';		/* n <= usize - 4 */
	*len = n;
	return (char *)dst;
}

static int cmp_ev(const void *a, const void *b)
{
	const struct ev_fmt *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

/* Sort the formats by id, once they are all read; an id names one. */
static int sort_formats(struct chk *c)
{
	size_t i;

	if (c->sorted || !c->nr_ev)
		return 0;
	qsort(c->ev, c->nr_ev, sizeof(*c->ev), cmp_ev);
	for (i = 1; i < c->nr_ev; i++)
		if (c->ev[i].id == c->ev[i - 1].id)
			return fail(c, 0, "corrupt trace.dat: two event formats with ID %u",
				    c->ev[i].id);
	/* ids are 16-bit (parse_fields()): a direct table for the records */
	free(c->by_id);
	c->by_id = calloc(c->ev[c->nr_ev - 1].id + 1, sizeof(*c->by_id));
	if (!c->by_id)
		return fail(c, 0, "out of memory");
	for (i = 0; i < c->nr_ev; i++)
		c->by_id[c->ev[i].id] = i + 1;
	c->sorted = true;
	return 0;
}

/*
 * A record holds what its format says: its fixed fields, and dynamic
 * fields inside the record. libtraceevent reads them unchecked.
 */
static int check_record(struct chk *c, const uint8_t *rec, uint32_t len,
			uint64_t off)
{
	struct ev_fmt key = { .id = get(c, rec, 2) }, *ev = NULL;
	const struct dyn_field *d;
	uint32_t v, start, size;
	size_t i;

	if (c->by_id && key.id <= c->ev[c->nr_ev - 1].id &&
	    c->by_id[key.id])
		ev = &c->ev[c->by_id[key.id] - 1];
	/*
	 * A type with no format is one event nobody can decode, not a
	 * corrupt file: libtraceevent finds no event for it and the
	 * reader reports it as unknown.
	 */
	if (!ev)
		return 0;
	if (len < ev->min_size)
		return fail(c, off, "corrupt trace.dat: event of type %u has %u bytes, its format %u",
			    key.id, len, ev->min_size);
	for (i = 0; i < ev->nr_dyn; i++) {
		d = &c->dyn[ev->dyn + i];
		v = get(c, rec + d->offset, 4);
		start = (v & 0xffff) + (d->rel ? d->offset + d->size : 0);
		size = v >> 16;
		if (start + size > len)
			return fail(c, off, "corrupt trace.dat: event of type %u has a field past its end",
				    key.id);
	}
	return 0;
}

/*
 * One ring-buffer page, walked as kbuffer walks it: every event header
 * and length inside the commit, every step forward, every data event at
 * least a common header long.
 */
static int check_page(struct chk *c, const uint8_t *pg, uint64_t off,
		      uint64_t *last_ts)
{
	unsigned int hdr = 8 + c->commit_size;
	unsigned int room = c->page_size - hdr;
	uint64_t ts = get(c, pg, 8);
	uint64_t commit = get(c, pg + 8, c->commit_size);
	const uint8_t *data = pg + hdr;
	uint32_t size = commit & RB_COMMIT_MASK, pos = 0, next, w, len;
	unsigned int type;

	if (size > room)
		return fail(c, off, "corrupt trace.dat: ring-buffer page commits %u bytes, more than its %u",
			    size, room);
	if ((commit & RB_MISSED) && (commit & RB_MISSED_STORED) &&
	    size + c->commit_size > room)
		return fail(c, off, "corrupt trace.dat: ring-buffer page has no room for its missed-event count");
	if (size && ts < *last_ts)
		return fail(c, off, "corrupt trace.dat: ring-buffer page starts at time %llu, before the previous page's %llu",
			    (unsigned long long)ts, (unsigned long long)*last_ts);
	if (size)
		*last_ts = ts;
	while (pos < size) {
		if (size - pos < 4)
			return fail(c, off + hdr + pos, "corrupt trace.dat: event header crosses the page's commit");
		w = get(c, data + pos, 4);
		type = c->big ? w >> 27 : w & 31;
		if (type == RB_PADDING && size - pos < 8 &&
		    hdr + pos + 8 <= c->page_size)
			break;	/* too short for a length: the page's end */
		if ((type == 0 || type >= RB_PADDING) && size - pos < 8)
			return fail(c, off + hdr + pos, "corrupt trace.dat: event header crosses the page's commit");
		len = type >= RB_PADDING || type == 0 ?
		      get(c, data + pos + 4, 4) : 0;
		switch (type) {
		case RB_PADDING:
			/* kbuffer stops at a length past the commit. */
			next = pos + 4 + len;
			if ((int32_t)len < 0 || next <= pos)
				return fail(c, off + hdr + pos, "corrupt trace.dat: padding of length %d goes backwards",
					    (int32_t)len);
			if (next >= size || next < pos)
				return 0;
			pos = next;
			continue;
		case RB_TIME_EXTEND:
		case RB_TIME_STAMP:
			pos += 8;
			continue;
		case 0:
			if (len < 4 + RB_MIN_PAYLOAD || len > room)
				return fail(c, off + hdr + pos, "corrupt trace.dat: event of length %u",
					    len);
			next = pos + 8 + ((len - 4 + 3) & ~3U);
			break;
		default:
			if (type * 4 < RB_MIN_PAYLOAD)
				return fail(c, off + hdr + pos, "corrupt trace.dat: event of length %u",
					    type * 4);
			next = pos + 4 + type * 4;
			break;
		}
		if (next > size)
			return fail(c, off + hdr + pos, "corrupt trace.dat: event runs past the page's commit (%u of %u bytes)",
				    next, size);
		w = type ? 4 : 8;
		if (check_record(c, data + pos + w, next - pos - w,
				 off + hdr + pos))
			return -1;
		pos = next;
	}
	return 0;
}

static int check_pages(struct chk *c, const uint8_t *p, uint64_t len,
		       uint64_t off, uint64_t *last_ts, bool inflated)
{
	uint64_t i;

	if (len % c->page_size)
		return fail(c, off, "corrupt trace.dat: CPU data of %llu bytes is not made of %u-byte pages",
			    (unsigned long long)len, c->page_size);
	for (i = 0; i < len; i += c->page_size)
		if (check_page(c, p + i, inflated ? off : off + i, last_ts))
			return -1;
	return 0;
}

/*
 * Chunks a CPU's index holds at most: 32 KiB whatever the file's size;
 * a seek then decompresses at most a 4096th of the CPU's chunks before
 * its place.
 */
#define INDEX_MAX	4096

/*
 * Room for the offset of every ix.every-th chunk, a power of two. Without
 * memory there is no index: the reader then cannot cut the CPU in time.
 */
static void index_chunks(struct cpu_data *cd)
{
	cd->ix.every = 1;
	while ((cd->chunks + cd->ix.every - 1) / cd->ix.every > INDEX_MAX)
		cd->ix.every *= 2;
	cd->ix.nr = (cd->chunks + cd->ix.every - 1) / cd->ix.every;
	cd->ix_off = cd->ix.nr ? calloc(cd->ix.nr, sizeof(*cd->ix_off)) : NULL;
	cd->ix.off = cd->ix_off;
	if (!cd->ix_off)
		cd->ix.nr = 0;
}

/* One CPU's data: raw pages, or (compressed v7) chunks of them. */
static int check_cpu_data(struct chk *c, struct cpu_data *cd)
{
	uint64_t off = cd->off, size = cd->size;
	uint64_t count, csize, usize, i, last_ts = 0;
	struct view v, z, d;
	uint8_t *u;
	int ret;

	if (!size)
		return 0;
	if (file_at(c, off, &v, "CPU data"))
		return -1;
	if (!cd->compressed) {
		if (off % c->page_size)
			return fail(c, off, "corrupt trace.dat: CPU data not aligned to its %u-byte pages",
				    c->page_size);
		if (need(c, &v, size, "CPU data"))
			return -1;
		if (size % c->page_size)
			return fail(c, off, "corrupt trace.dat: CPU data of %llu bytes is not made of %u-byte pages",
				    (unsigned long long)size, c->page_size);
		/* libtracecmd reads the first page when it opens the file */
		if (c->defer && size > (uint64_t)c->page_size * RAW_BLOCK_PAGES) {
			cd->deferred = true;
			size = (uint64_t)c->page_size * RAW_BLOCK_PAGES;
		}
		return check_pages(c, v.p, size, off, &last_ts, false);
	}
	if (num(c, &v, 4, &count, "a chunk count") ||
	    blob(c, &v, size, &z, "compressed CPU data"))
		return -1;
	if (count > size / 8)
		return fail(c, off, "corrupt trace.dat: %llu chunks do not fit in %llu bytes",
			    (unsigned long long)count, (unsigned long long)size);
	cd->chunks = count;
	index_chunks(cd);
	for (i = 0; i < count; i++) {
		uint64_t where = at(&z);

		if (cd->ix_off && !(i % cd->ix.every))
			cd->ix_off[i / cd->ix.every] = where;

		if (num(c, &z, 4, &csize, "a chunk size") ||
		    num(c, &z, 4, &usize, "a chunk size") ||
		    blob(c, &z, csize, &d, "a compressed chunk"))
			return -1;
		if (usize % c->page_size)
			return fail(c, where, "corrupt trace.dat: chunk of %llu bytes is not made of %u-byte pages",
				    (unsigned long long)usize, c->page_size);
		cd->ix.bytes += usize;
		/*
		 * The reader checks the others as it decompresses them; the
		 * first is libtracecmd's when it opens the file.
		 */
		if (c->defer && i) {
			if (piece_size(c, csize, usize, where))
				return -1;
			cd->deferred = true;
			continue;
		}
		u = inflate_piece(c, d.p, csize, usize, where);
		if (!u)
			return -1;
		ret = check_pages(c, u, usize, where, &last_ts, true);
		free(u);
		if (ret)
			return -1;
	}
	return 0;
}

/* ---- version 7: sections and options ---- */

/*
 * The section at @off, which must have id @id: its content, decompressed
 * into @buf (to free) if compressed.
 */
/*
 * Section @id at @off: its content in @out, decompressed into *@buf if
 * it is compressed. With @later, a compressed section is only bounded,
 * and described there: 1.
 */
static int section(struct chk *c, uint64_t off, unsigned int id,
		   struct view *out, uint8_t **buf, struct lt_dat_later *later)
{
	uint64_t sid, flags, strid, size, csize, usize;
	struct view v;

	*buf = NULL;
	if (file_at(c, off, &v, "a section") ||
	    num(c, &v, 2, &sid, "a section header") ||
	    num(c, &v, 2, &flags, "a section header") ||
	    num(c, &v, 4, &strid, "a section header") ||
	    num(c, &v, 8, &size, "a section header"))
		return -1;
	if (sid != id)
		return fail(c, off, "corrupt trace.dat: section %llu where section %u should be",
			    (unsigned long long)sid, id);
	if (blob(c, &v, size, out, "a section"))
		return -1;
	c->section_compressed = flags & 1;
	/* Trace data comes in chunks, checked page by page later. */
	if (!(flags & 1) || id == OPT_BUFFER)
		return 0;
	if (c->comp == COMP_NONE)
		return fail(c, off, "corrupt trace.dat: compressed section in an uncompressed file");
	if (num(c, out, 4, &csize, "a compression header") ||
	    num(c, out, 4, &usize, "a compression header") ||
	    need(c, out, csize, "compressed data"))
		return -1;
	if (later) {
		if (piece_size(c, csize, usize, off))
			return -1;
		*later = (struct lt_dat_later){ .off = out->off + out->pos,
			.csize = csize, .usize = usize, .section = off,
			.comp = c->comp, .big = c->big };
		return 1;
	}
	*buf = inflate_piece(c, out->p + out->pos, csize, usize, off);
	if (!*buf)
		return -1;
	*out = (struct view){ *buf, usize, 0, off, true, true };
	return 0;
}

static int check_section(struct chk *c, unsigned int id, uint64_t off)
{
	bool outer = c->dirty;	/* of the options section around it */
	struct lt_dat_later later, *lp = NULL;
	struct view v;
	uint8_t *buf;
	int ret;

	if (id == OPT_KALLSYMS && c->hooks && c->hooks->kallsyms_later)
		lp = &later;
	c->dirty = false;
	ret = section(c, off, id, &v, &buf, lp);
	c->dirty = outer;
	if (ret > 0)
		c->hooks->kallsyms_later(c->hooks->ctx, &later);
	if (ret)
		return ret < 0 ? -1 : 0;
	c->dirty = false;
	switch (id) {
	case OPT_HEADER_INFO:
		ret = check_header_info(c, &v);
		break;
	case OPT_FTRACE_EVENTS:
		ret = check_ftrace_events(c, &v);
		break;
	case OPT_EVENT_FORMATS:
		ret = check_event_formats(c, &v);
		break;
	case OPT_KALLSYMS:
		ret = check_kallsyms(c, &v);
		break;
	case OPT_PRINTK:
		ret = check_sized(c, &v, 4, "printk formats");
		break;
	default:
		ret = check_sized(c, &v, 8, "saved command lines");
		break;
	}
	if (!ret && c->dirty)
		ret = reseal(c, off, buf, v.len);
	c->dirty = outer;
	free(buf);
	return ret;
}

/* BUFFER: offset, name, clock, page size, CPUs (id, offset, size). */
static int check_buffer_v7(struct chk *c, struct view *o)
{
	uint64_t off, psize, cpus, id, coff, csize, i, prev = 0;
	const char *name, *clock;
	struct view sec;
	bool compressed;
	uint8_t *buf;

	if (num(c, o, 8, &off, "a BUFFER option") ||
	    cstr(c, o, 4096, &name, "a buffer name") ||
	    cstr(c, o, 4096, &clock, "a buffer clock") ||
	    num(c, o, 4, &psize, "a BUFFER option") ||
	    num(c, o, 4, &cpus, "a BUFFER option"))
		return -1;
	if (psize != c->page_size)
		return fail(c, at(o), "corrupt trace.dat: buffer '%.64s' has %llu-byte pages, the file %u",
			    name, (unsigned long long)psize, c->page_size);
	if (cpus > LT_DAT_MAX_CPUS || cpus > (o->len - o->pos) / 20)
		return fail(c, at(o), "corrupt trace.dat: buffer '%.64s' claims %llu CPUs",
			    name, (unsigned long long)cpus);
	if (section(c, off, OPT_BUFFER, &sec, &buf, NULL))
		return -1;
	compressed = c->section_compressed;
	if (compressed && c->comp == COMP_NONE)
		return fail(c, off, "corrupt trace.dat: compressed data in an uncompressed file");
	for (i = 0; i < cpus; i++) {
		if (num(c, o, 4, &id, "a CPU id") ||
		    num(c, o, 8, &coff, "a CPU data offset") ||
		    num(c, o, 8, &csize, "a CPU data size"))
			return -1;
		if (id >= LT_DAT_MAX_CPUS || (i && id <= prev))
			return fail(c, at(o), "corrupt trace.dat: CPU id %llu in buffer '%.64s'",
				    (unsigned long long)id, name);
		prev = id;
		if (grow(c, (void **)&c->cpu, c->nr_cpu, &c->max_cpu,
			 sizeof(*c->cpu)))
			return -1;
		c->cpu[c->nr_cpu] = (struct cpu_data){
			.off = coff, .size = csize, .compressed = compressed,
			.buffer = strdup(name), .id = id };
		if (!c->cpu[c->nr_cpu++].buffer)
			return fail(c, at(o), "out of memory");
	}
	return 0;
}

/*
 * The options both versions share: libtracecmd copies strings with
 * strdup() and reads fixed fields without looking at the option's size.
 */
static int check_option(struct chk *c, unsigned int id, struct view *o)
{
	uint64_t x, cpus, n, i;
	const char *s;

	switch (id) {
	case OPT_DATE:
	case OPT_CPUSTAT:
	case OPT_TRACECLOCK:
	case OPT_UNAME:
	case OPT_HOOK:
	case OPT_OFFSET:
	case OPT_VERSION:
	case OPT_PROCMAPS:
		/*
		 * libtracecmd copies or parses these as strings. trace-cmd
		 * 2.9 writes an empty TRACECLOCK: it becomes an option
		 * libtracecmd skips, as does one without its NUL.
		 */
		if (!o->len || o->p[o->len - 1])
			return modify(c, o, o->p - 6, (uint8_t[2]){ 0xff, 0xff },
				      2);
		return 0;
	case OPT_CPUCOUNT:
		if (num(c, o, 4, &x, "the CPUCOUNT option"))
			return -1;
		if (x > LT_DAT_MAX_CPUS)
			return fail(c, at(o), "corrupt trace.dat: %llu CPUs",
				    (unsigned long long)x);
		if (c->hooks && c->hooks->cpus)
			c->hooks->cpus(c->hooks->ctx, x);
		return 0;
	case OPT_TRACEID:
		return need(c, o, 8, "the TRACEID option");
	case OPT_TSC2NSEC:
		return need(c, o, 16, "the TSC2NSEC option");
	case OPT_TIME_SHIFT:
		/* peer id, flags, CPUs; per CPU a count and 3 arrays. */
		if (num(c, o, 8, &x, "the TIME_SHIFT option") ||
		    num(c, o, 4, &x, "the TIME_SHIFT option") ||
		    num(c, o, 4, &cpus, "the TIME_SHIFT option"))
			return -1;
		if (cpus > LT_DAT_MAX_CPUS)
			return fail(c, at(o), "corrupt trace.dat: time shifts for %llu CPUs",
				    (unsigned long long)cpus);
		for (i = 0; i < cpus; i++)
			if (num(c, o, 4, &n, "the TIME_SHIFT option") ||
			    need(c, o, n * 24, "the TIME_SHIFT option"))
				return -1;
			else
				o->pos += n * 24;
		return 0;
	case OPT_GUEST:
		if (cstr(c, o, 4096, &s, "a guest name") ||
		    num(c, o, 8, &x, "the GUEST option") ||
		    num(c, o, 4, &cpus, "the GUEST option"))
			return -1;
		if (cpus > LT_DAT_MAX_CPUS)
			return fail(c, at(o), "corrupt trace.dat: guest of %llu CPUs",
				    (unsigned long long)cpus);
		return need(c, o, cpus * 8, "the GUEST option");
	default:
		return 0;
	}
}

static int check_option_v7(struct chk *c, unsigned int id, struct view *o,
			   uint64_t *next)
{
	uint64_t x;

	if (c->hooks && c->hooks->option && id < OPT_HEADER_INFO)
		c->hooks->option(c->hooks->ctx, id, o->p, o->len);
	switch (id) {
	case OPT_DONE:
		return num(c, o, 8, next, "the DONE option");
	case OPT_BUFFER:
		return check_buffer_v7(c, o);
	case OPT_BUFFER_TEXT:
		return fail(c, at(o), "unsupported trace.dat: latency-tracer text, not ring-buffer data");
	case OPT_HEADER_INFO:
	case OPT_FTRACE_EVENTS:
	case OPT_EVENT_FORMATS:
	case OPT_KALLSYMS:
	case OPT_PRINTK:
	case OPT_CMDLINES:
		if (num(c, o, 8, &x, "a section offset"))
			return -1;
		if (id == OPT_HEADER_INFO)
			c->header_info = true;
		return check_section(c, id, x);
	default:
		return check_option(c, id, o);
	}
}

static int check_v7(struct chk *c, struct view *v)
{
	const char *name, *ver;
	uint64_t off, prev = 0, id, len, next;
	struct view sec, o;
	uint8_t *buf;
	size_t i;
	int ret;

	if (cstr(c, v, 64, &name, "the compression name") ||
	    cstr(c, v, 64, &ver, "the compression version"))
		return -1;
	if (!strcmp(name, "none"))
		c->comp = COMP_NONE;
	else if (!strcmp(name, "zstd"))
		c->comp = COMP_ZSTD;
	else if (!strcmp(name, "zlib"))
		c->comp = COMP_ZLIB;
	else
		return fail(c, at(v) - strlen(ver) - strlen(name) - 2,
			    "unsupported trace.dat compression '%.32s'", name);
	if (num(c, v, 8, &off, "the options offset"))
		return -1;
	c->commit_size = c->long_size;
	/* Sections are appended: each next options section lies further. */
	while (off) {
		if (off <= prev)
			return fail(c, off, "corrupt trace.dat: options section does not move forward");
		prev = off;
		c->dirty = false;
		if (section(c, off, 0, &sec, &buf, NULL))
			return -1;
		next = 0;
		ret = 0;
		id = ~0ULL;
		while (!ret && id != OPT_DONE) {
			/* libtracecmd reads on to a DONE option. */
			ret = num(c, &sec, 2, &id, "an option") ||
			      num(c, &sec, 4, &len, "an option") ||
			      blob(c, &sec, len, &o, "an option") ||
			      check_option_v7(c, id, &o, &next);
		}
		if (!ret && c->dirty)
			ret = reseal(c, off, buf, sec.len);
		free(buf);
		if (ret)
			return -1;
		off = next;
	}
	/*
	 * Without the page and event headers libtracecmd 3.1.6 fails to set
	 * up the data and then crashes in its own tracecmd_close().
	 */
	if (!c->header_info)
		return fail(c, 0, "corrupt trace.dat: no HEADER_INFO section");
	/* The data, now that every event format is known. */
	if (sort_formats(c))
		return -1;
	for (i = 0; i < c->nr_cpu; i++)
		if (check_cpu_data(c, &c->cpu[i]))
			return -1;
	return 0;
}

/* ---- version 6: one sequence ---- */

/*
 * CPU data that runs past the end of the file (a full disk, an upload
 * limit: version 6 keeps its data last) ends at its last whole page,
 * for libtracecmd too: the size just read from @v becomes that.
 */
static int cut_short(struct chk *c, struct view *v, uint64_t off,
		     uint64_t *size, const uint8_t *table, uint64_t cpus)
{
	uint64_t whole, i, o;
	uint8_t b[8];

	if (!*size || (off <= c->size && *size <= c->size - off))
		return 0;
	if (off % c->page_size)
		return 0;	/* check_cpu_data() refuses it */
	/* a cut leaves no other CPU's data after this one's start */
	for (i = 0; i < cpus; i++) {
		o = get(c, table + 16 * i, 8);
		if (o > off && o < c->size && get(c, table + 16 * i + 8, 8))
			return fail(c, off, "corrupt trace.dat: CPU data (%llu bytes) runs past the end of the file",
				    (unsigned long long)*size);
	}
	whole = off >= c->size ? 0 :
		(c->size - off) / c->page_size * c->page_size;
	put(c, b, 8, whole);
	if (modify(c, v, v->p + v->pos - 8, b, 8))
		return -1;
	if (!c->cut || off + whole < c->cut)
		c->cut = off + whole;
	*size = whole;
	return 0;
}

/* "flyrecord\0" and its CPU table, at the start or a BUFFER offset. */
static int check_flyrecord_v6(struct chk *c, struct view *v, uint64_t cpus,
			      const char *name)
{
	uint64_t i, off, size;
	const uint8_t *table;
	struct cpu_data *cd;

	if (need(c, v, 10, "the data section") ||
	    memcmp(v->p + v->pos, "flyrecord", 10)) {
		/* libtracecmd has no records to read in latency text. */
		if (need(c, v, 10, "the data section") == 0 &&
		    !memcmp(v->p + v->pos, "latency  ", 10))
			return fail(c, at(v), "unsupported trace.dat: latency-tracer text, not ring-buffer data");
		return fail(c, at(v), "corrupt trace.dat: no flyrecord data");
	}
	v->pos += 10;
	if (need(c, v, cpus * 16, "the CPU table"))
		return -1;
	table = v->p + v->pos;
	for (i = 0; i < cpus; i++) {
		if (num(c, v, 8, &off, "a CPU data offset") ||
		    num(c, v, 8, &size, "a CPU data size") ||
		    grow(c, (void **)&c->cpu, c->nr_cpu, &c->max_cpu,
			 sizeof(*c->cpu)) ||
		    cut_short(c, v, off, &size, table, cpus))
			return -1;
		cd = &c->cpu[c->nr_cpu];
		*cd = (struct cpu_data){ .off = off, .size = size,
					 .buffer = strdup(name), .id = i };
		if (!cd->buffer)
			return fail(c, at(v), "out of memory");
		c->nr_cpu++;
		if (check_cpu_data(c, cd))
			return -1;
	}
	return 0;
}

static int check_v6(struct chk *c, struct view *v)
{
	uint64_t cpus, id, len, off;
	struct view o, b;
	const char *name;

	if (check_header_info(c, v) || check_ftrace_events(c, v) ||
	    check_event_formats(c, v) ||
	    check_kallsyms(c, v) ||
	    check_sized(c, v, 4, "printk formats") ||
	    check_sized(c, v, 8, "saved command lines") ||
	    num(c, v, 4, &cpus, "the CPU count"))
		return -1;
	if (!cpus || cpus > LT_DAT_MAX_CPUS)
		return fail(c, at(v) - 4, "corrupt trace.dat: %llu CPUs",
			    (unsigned long long)cpus);
	if (c->hooks && c->hooks->cpus)
		c->hooks->cpus(c->hooks->ctx, cpus);
	if (sort_formats(c))
		return -1;
	if (v->len - v->pos >= 10 && !memcmp(v->p + v->pos, "options  ", 10)) {
		v->pos += 10;
		for (;;) {
			if (num(c, v, 2, &id, "an option"))
				return -1;
			if (!id)
				break;
			if (num(c, v, 4, &len, "an option") ||
			    blob(c, v, len, &o, "an option"))
				return -1;
			if (c->hooks && c->hooks->option)
				c->hooks->option(c->hooks->ctx, id, o.p, o.len);
			if (id != OPT_BUFFER) {
				if (check_option(c, id, &o))
					return -1;
				continue;
			}
			if (num(c, &o, 8, &off, "a BUFFER option") ||
			    cstr(c, &o, 4096, &name, "a buffer name") ||
			    file_at(c, off, &b, "a buffer") ||
			    check_flyrecord_v6(c, &b, cpus, name))
				return -1;
		}
	}
	return check_flyrecord_v6(c, v, cpus, "");
}

static void free_chk(struct chk *c)
{
	size_t i;

	free(c->ev);
	free(c->by_id);
	free(c->dyn);
	for (i = 0; i < c->nr_cpu; i++) {
		free(c->cpu[i].buffer);
		free(c->cpu[i].ix_off);
	}
	free(c->cpu);
	free(c->in);
}

/* Whether chunks were left to the reader. */
static bool deferred(const struct chk *c)
{
	size_t i;

	for (i = 0; i < c->nr_cpu; i++)
		if (c->cpu[i].deferred)
			return true;
	return false;
}

/* What checking the deferred chunks needs, moved out of @c. */
static struct lt_dat_pages *keep_pages(struct chk *c)
{
	struct lt_dat_pages *p = malloc(sizeof(*p));

	if (!p)
		return NULL;
	p->c = *c;
	p->c.file = NULL;
	p->c.hooks = NULL;
	memset(c, 0, sizeof(*c));
	return p;
}

int lt_dat_check(int fd, uint64_t size, const struct lt_dat_hooks *hooks,
		 struct lt_dat_pages **pages, char *err, size_t errlen)
{
	struct chk c = { .size = size, .hooks = hooks, .err = err,
			 .errlen = errlen, .defer = pages != NULL };
	const char *ver = "";
	uint64_t psize;
	struct view v;
	void *map;
	int ret;

	if (pages)
		*pages = NULL;
	if (size < MAGIC_LEN) {
		snprintf(err, errlen, "not a trace.dat: %llu bytes",
			 (unsigned long long)size);
		return -1;
	}
	map = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED) {
		snprintf(err, errlen, "cannot map the trace.dat: %m");
		return -1;
	}
	c.file = map;
	v = (struct view){ c.file, size, MAGIC_LEN, 0, false, false };
	ret = -1;
	if (memcmp(c.file, MAGIC, MAGIC_LEN)) {
		fail(&c, 0, "not a trace.dat: bad magic");
		goto out;
	}
	if (cstr(&c, &v, 8, &ver, "the file version") ||
	    need(&c, &v, 6, "the initial header"))
		goto out;
	c.version = !strcmp(ver, "6") ? 6 : !strcmp(ver, "7") ? 7 : 0;
	if (!c.version) {
		fail(&c, MAGIC_LEN, "unsupported trace.dat version '%.8s'", ver);
		goto out;
	}
	if (v.p[v.pos] > 1) {
		fail(&c, v.pos, "corrupt trace.dat: endianness %u",
		     v.p[v.pos]);
		goto out;
	}
	c.big = v.p[v.pos++];
	c.long_size = v.p[v.pos++];
	if (c.long_size != 4 && c.long_size != 8) {
		fail(&c, v.pos - 1, "corrupt trace.dat: long size %d",
		     c.long_size);
		goto out;
	}
	if (num(&c, &v, 4, &psize, "the page size"))
		goto out;
	if (psize < 1024 || psize > (1 << 20) || (psize & (psize - 1))) {
		fail(&c, v.pos - 4, "corrupt trace.dat: page size %llu",
		     (unsigned long long)psize);
		goto out;
	}
	c.page_size = psize;
	if (hooks && hooks->file)
		hooks->file(hooks->ctx, c.big, c.long_size, c.page_size);
	ret = c.version == 6 ? check_v6(&c, &v) : check_v7(&c, &v);
	if (!ret && c.cut && hooks && hooks->truncated)
		hooks->truncated(hooks->ctx, c.cut);
	if (!ret && pages &&
	    (deferred(&c) || (hooks && hooks->all_pages && c.nr_cpu))) {
		*pages = keep_pages(&c);
		if (!*pages)
			ret = fail(&c, 0, "out of memory");
	}
out:
	munmap(map, size);
	free_chk(&c);
	return ret;
}

static const struct cpu_data *cpu_data_of(const struct lt_dat_pages *p,
					  const char *buffer, int cpu)
{
	size_t i;

	for (i = 0; i < p->c.nr_cpu; i++)
		if (p->c.cpu[i].id == (uint32_t)cpu &&
		    !strcmp(p->c.cpu[i].buffer, buffer))
			return &p->c.cpu[i];
	return NULL;
}

int lt_dat_chunk_index(const struct lt_dat_pages *p, const char *buffer,
		       int cpu, struct lt_dat_index *ix)
{
	const struct cpu_data *cd = cpu_data_of(p, buffer, cpu);

	if (!cd || !cd->compressed || !cd->ix.nr)
		return 0;
	*ix = cd->ix;
	return 1;
}

int lt_dat_chunks_of(const struct lt_dat_pages *p, const char *buffer,
		     int cpu, struct lt_dat_chunks *it)
{
	const struct cpu_data *cd = cpu_data_of(p, buffer, cpu);

	if (!cd)
		return 0;
	if (!cd->compressed) {
		*it = (struct lt_dat_chunks){ .off = cd->off,
			.end = cd->off + cd->size, .raw = true,
			.left = (cd->size + RAW_BLOCK_PAGES * p->c.page_size -
				 1) / (RAW_BLOCK_PAGES * p->c.page_size) };
		return 1;
	}
	/* a chunk count, then the chunks */
	*it = (struct lt_dat_chunks){ .off = cd->off + 4,
				      .end = cd->off + 4 + cd->size,
				      .left = cd->chunks };
	return 1;
}

/* Uncompressed pages, a block at a time: read, then checked. */
static int raw_block(struct chk *c, int fd, struct lt_dat_chunks *it,
		     uint8_t **buf, size_t *cap, size_t *len)
{
	uint64_t n = (uint64_t)c->page_size * RAW_BLOCK_PAGES;
	uint8_t *b;

	if (it->off > it->end)
		return fail(c, it->off, "corrupt trace.dat: CPU data runs past its end");
	if (n > it->end - it->off)
		n = it->end - it->off;
	if (n > *cap) {
		b = realloc(*buf, n);
		if (!b)
			return fail(c, it->off, "out of memory");
		*buf = b;
		*cap = n;
	}
	if (pread(fd, *buf, n, it->off) != (ssize_t)n)
		return fail(c, it->off, "corrupt trace.dat: CPU data (%llu bytes) cannot be read",
			    (unsigned long long)n);
	if (check_pages(c, *buf, n, it->off, &it->last_ts, false))
		return -1;
	it->off += n;
	it->left--;
	*len = n;
	return 1;
}

/* lt_dat_chunk(), its pages @checked or not. */
static int read_chunk(struct lt_dat_pages *p, int fd, struct lt_dat_chunks *it,
		      uint8_t **buf, size_t *cap, size_t *len, char *err,
		      size_t errlen, bool checked)
{
	struct chk *c = &p->c;
	uint64_t where = it->off, csize, usize;
	uint8_t h[8], *n;

	c->err = err;
	c->errlen = errlen;
	if (!it->left)
		return 0;
	if (it->raw)
		return raw_block(c, fd, it, buf, cap, len);
	/* Checked when the file was opened; read again, so again. */
	if (it->off > it->end || it->end - it->off < 8 ||
	    pread(fd, h, 8, it->off) != 8)
		return fail(c, where, "corrupt trace.dat: a chunk size runs past the end of its CPU data");
	csize = get(c, h, 4);
	usize = get(c, h + 4, 4);
	if (csize > it->end - it->off - 8)
		return fail(c, where, "corrupt trace.dat: a compressed chunk (%llu bytes) runs past the end of its CPU data",
			    (unsigned long long)csize);
	if (usize % c->page_size)
		return fail(c, where, "corrupt trace.dat: chunk of %llu bytes is not made of %u-byte pages",
			    (unsigned long long)usize, c->page_size);
	if (piece_size(c, csize, usize, where))
		return -1;
	if (csize > c->in_size) {
		n = realloc(c->in, csize);
		if (!n)
			return fail(c, where, "out of memory");
		c->in = n;
		c->in_size = csize;
	}
	if (usize > *cap) {
		n = realloc(*buf, usize);
		if (!n)
			return fail(c, where, "out of memory");
		*buf = n;
		*cap = usize;
	}
	if (pread(fd, c->in, csize, it->off + 8) != (ssize_t)csize)
		return fail(c, where, "corrupt trace.dat: a compressed chunk (%llu bytes) cannot be read",
			    (unsigned long long)csize);
	if (inflate_into(c, *buf, c->in, csize, usize, where) ||
	    (checked && check_pages(c, *buf, usize, where, &it->last_ts, true)))
		return -1;
	it->off += 8 + csize;
	it->left--;
	*len = usize;
	return 1;
}

int lt_dat_chunk(struct lt_dat_pages *p, int fd, struct lt_dat_chunks *it,
		 uint8_t **buf, size_t *cap, size_t *len, char *err,
		 size_t errlen)
{
	return read_chunk(p, fd, it, buf, cap, len, err, errlen, true);
}

static int read_chunk_r(const struct lt_dat_pages *p, int fd,
			struct lt_dat_chunks *it, uint8_t **buf, size_t *cap,
			size_t *len, uint8_t **in, size_t *in_cap, char *err,
			size_t errlen, bool checked)
{
	/* a copy: what the walk writes (its error, its input) is ours */
	struct lt_dat_pages own = *p;
	int ret;

	own.c.in = *in;
	own.c.in_size = *in_cap;
	ret = read_chunk(&own, fd, it, buf, cap, len, err, errlen, checked);
	*in = own.c.in;
	*in_cap = own.c.in_size;
	return ret;
}

int lt_dat_chunk_r(const struct lt_dat_pages *p, int fd,
		   struct lt_dat_chunks *it, uint8_t **buf, size_t *cap,
		   size_t *len, uint8_t **in, size_t *in_cap, char *err,
		   size_t errlen)
{
	return read_chunk_r(p, fd, it, buf, cap, len, in, in_cap, err, errlen,
			    true);
}

int lt_dat_chunk_peek(const struct lt_dat_pages *p, int fd,
		      struct lt_dat_chunks *it, uint8_t **buf, size_t *cap,
		      size_t *len, uint8_t **in, size_t *in_cap)
{
	char err[160];	/* unused: the reader says when it reads the chunk */

	return read_chunk_r(p, fd, it, buf, cap, len, in, in_cap, err,
			    sizeof(err), false);
}

uint64_t lt_dat_block_ts(const struct lt_dat_pages *p, int fd,
			 const struct lt_dat_chunks *it, uint64_t i)
{
	uint64_t block = (uint64_t)p->c.page_size * RAW_BLOCK_PAGES;
	uint8_t h[8];

	if (!it->raw || i >= it->left ||
	    pread(fd, h, 8, it->off + i * block) != 8)
		return 0;
	return get(&p->c, h, 8);
}

int lt_dat_chunks_seek(const struct lt_dat_pages *p, int fd,
		       struct lt_dat_chunks *it, uint64_t ts)
{
	uint64_t block = (uint64_t)p->c.page_size * RAW_BLOCK_PAGES;
	uint64_t lo = 0, hi = it->left, mid, t;

	if (!it->raw)
		return -1;
	/*
	 * The last block whose first page starts before @ts. An empty page
	 * (time 0) or one that cannot be read counts as later: the seek
	 * may start earlier than it needs, never later.
	 */
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		t = lt_dat_block_ts(p, fd, it, mid);
		if (t && t < ts)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo) {
		it->off += (lo - 1) * block;
		it->left -= lo - 1;
	}
	it->last_ts = 0;
	return 0;
}

/*
 * libtracecmd's hooks for a compression algorithm (trace-cmd-private.h of
 * trace-cmd 3.1, not installed by Debian's libtracecmd-dev; the layout
 * libtracecmd 3.1.6 copies in tracecmd_compress_proto_register()).
 */
struct tracecmd_compression_proto {
	int weight;
	const char *name;
	const char *version;
	int (*compress)(void *ctx, const void *in, int in_bytes, void *out,
			int out_bytes);
	int (*uncompress)(void *ctx, const void *in, int in_bytes, void *out,
			  int out_bytes);
	unsigned int (*compress_size)(void *ctx, unsigned int bytes);
	bool (*is_supported)(const char *name, const char *version);
	void *(*new_context)(void);
	void (*free_context)(void *ctx);
};

int tracecmd_compress_proto_register(struct tracecmd_compression_proto *proto);

static int zlib_pack(void *ctx, const void *in, int in_bytes, void *out,
		     int out_bytes)
{
	uLongf n = out_bytes;

	if (in_bytes < 0 || out_bytes < 0 ||
	    compress2(out, &n, in, in_bytes, Z_BEST_COMPRESSION) != Z_OK)
		return -1;
	return n;
}

static int zlib_unpack(void *ctx, const void *in, int in_bytes, void *out,
		       int out_bytes)
{
	uLongf n = out_bytes;

	if (in_bytes < 0 || out_bytes < 0 ||
	    uncompress(out, &n, in, in_bytes) != Z_OK)
		return -1;
	return n;
}

static unsigned int zlib_bound(void *ctx, unsigned int bytes)
{
	return compressBound(bytes);
}

/* zlib's stream format has not changed: any version trace-cmd names */
static bool zlib_names(const char *name, const char *version)
{
	return name && !strcmp(name, "zlib");
}

static void zlib_register_once(void)
{
	static struct tracecmd_compression_proto zlib_proto = {
		.weight = 10,
		.name = "zlib",
		.version = ZLIB_VERSION,
		.compress = zlib_pack,
		.uncompress = zlib_unpack,
		.compress_size = zlib_bound,
		.is_supported = zlib_names,
	};

	/* -1 when the library has its own (built with zlib): that one */
	tracecmd_compress_proto_register(&zlib_proto);
}

int lt_dat_zlib_register(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	return pthread_once(&once, zlib_register_once) ? -1 : 0;
}

int lt_dat_page_size(const struct lt_dat_pages *p)
{
	return p->c.page_size;
}

void lt_dat_pages_free(struct lt_dat_pages *p)
{
	if (!p)
		return;
	free_chk(&p->c);
	free(p);
}

struct verdict {
	char *copy;
	size_t len;
};

static void keep_patch(void *ctx, uint64_t off, const void *bytes, size_t len)
{
	struct verdict *v = ctx;

	if (off + len <= v->len)
		memcpy(v->copy + off, bytes, len);
}

/* "field:" lines before the print format, and whether it has one. */
static int count_fields(const char *s, size_t len, bool *print)
{
	const char *fmt = memmem(s, len, "print fmt:", 10), *p = s;
	const char *end = fmt ? fmt : s + len;
	int n = 0;

	while ((p = memmem(p, end - p, "field:", 6)))
		p += 6, n++;
	*print = false;
	for (p = fmt ? fmt + 10 : end; fmt && p < s + len; p++)
		if (!isspace((unsigned char)*p))
			*print = true;
	return n;
}

int lt_dat_format_verdict(const char *text, size_t len, char *out,
			  char *why, size_t whylen)
{
	struct verdict v = { malloc(len + 1), len };
	const struct lt_dat_hooks h = { .patch = keep_patch, .ctx = &v };
	struct chk c = { .size = len, .hooks = &h, .err = why,
			 .errlen = whylen };
	struct view f = { (const uint8_t *)text, len, 0, 0, false, true };
	bool p0, p1;
	int ret = -1;

	if (!v.copy) {
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	memcpy(v.copy, text, len);
	if (!check_format(&c, &f, "an event")) {
		ret = 0;
		if (count_fields(v.copy, len, &p1) < count_fields(text, len, &p0))
			ret |= LT_DAT_FORMAT_FIELDS;
		if (p0 && !p1)
			ret |= LT_DAT_FORMAT_PRINT;
		snprintf(why, whylen, "%s", c.why);
		if (out)
			memcpy(out, v.copy, len);
	}
	free(v.copy);
	free_chk(&c);
	return ret;
}
