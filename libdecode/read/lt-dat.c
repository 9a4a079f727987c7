// SPDX-License-Identifier: LGPL-2.1
/*
 * trace.dat reader, through libtraceevent (no plugins). lt_dat_check()
 * walks the file and hands over its headers; the reader builds the
 * parser handle itself (formats parsed when their events are read, the
 * kallsyms when an address inside a function is looked up) and reads the
 * pages itself, optionally with worker threads reading ahead. libtracecmd
 * opens what needs its help: files patched for safety, cut short, or with
 * options that move timestamps.
 */
#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <trace-cmd/trace-cmd.h>
#include <traceevent/event-parse.h>
#include <traceevent/kbuffer.h>
#include <traceevent/trace-seq.h>

#include "lt-dat-check.h"
#include "lt-internal.h"
#include "../print/lt-print.h"
#include "../print/lt-print-known.h"

/* Exported by libtracecmd but missing from Debian's public header. */
const char *tracecmd_get_uname(struct tracecmd_input *handle);
int tracecmd_set_cpu_to_timestamp(struct tracecmd_input *handle, int cpu,
				  unsigned long long ts);

#define DEFAULT_DETECT_SCAN 200000UL

/* What we need to know about one event type, looked up once. */
struct event_info {
	bool known;
	struct tep_event *event;
	enum lt_event_kind kind;
	struct tep_format_field *f[8];
	/* sched_switch: prev_state letters and the preempt marker bit */
	unsigned long long state_letter_bit[16];
	char state_letter[16];
	int nr_state_letters;
	unsigned long long preempt_marker;
	struct lt_known_print print;	/* printed by hand if known */
};

/* Chunks of each CPU that workers read ahead of the reader. */
#define AHEAD 2

/*
 * A CPU's pages of a live session's later interval (lt_dat_continue()),
 * or of a trace.dat (lt_dat_chunk()), read with kbuffer: two records,
 * the one handed out and the next.
 */
struct page_src {
	const char *buf;
	size_t len;
	size_t off;		/* of the next page */
	size_t page_off;	/* of the loaded page */
	struct kbuffer *kb;
	bool loaded;
	bool first;		/* the loaded page's first event is next */
	int missed;		/* the loaded page's missed events */
	/*
	 * A trace.dat's chunks (compressed) or blocks of pages, each read
	 * into the buffer the handed-out record is not in, and each one
	 * read so far, for seeks.
	 */
	bool chunked;
	struct lt_dat_chunks start, it;
	uint64_t base;		/* file offset of the chunk or block read */
	uint8_t *cbuf[2];
	size_t ccap[2];
	int cur;
	struct tep_record rec[2];
	int slot;
	/* chunks read ahead by the workers (lt_dat_set_jobs()) */
	struct ahead {
		uint8_t *buf;
		size_t cap, len;
		struct lt_dat_chunks at;	/* where it starts */
		int ret;			/* lt_dat_chunk_r()'s */
		char msg[LT_ERR_LEN];
	} ahead[AHEAD];
	int head, ready;	/* ready chunks: ahead[head], the next... */
	bool busy;		/* a worker reads the next one */
	bool done;		/* the last one read was the end, or an error */
	uint64_t seek_ts;	/* after a seek: pages before it are skipped */
	/* compressed: where chunks are, and their times once known */
	struct lt_dat_index ix;
	uint64_t *ix_ts;	/* CHUNK_UNTIMED until read or probed */
};

/*
 * A run of a CPU's pages that were read through, the page being read, and
 * the mapping the CPU's pages were last found in.
 */
struct consumed {
	uintptr_t lo;
	uintptr_t hi;
	uintptr_t cur;
	uintptr_t map_lo;
	uintptr_t map_hi;
	bool map_file;
};

/*
 * Names cached by pid, a slot each: a trace of thousands of tasks (3,000
 * on msg-3000.dat) missed most of 256 slots.
 */
#define COMM_CACHE	4096

struct dat {
	struct tracecmd_input *top;
	struct tracecmd_input *handle;	/* the buffer we read */
	struct tep_handle *tep;
	struct tep_record *rec;		/* the current event's record */
	int rec_type;			/* and its type, once filled */
	struct tep_record **pending;	/* next record of each CPU */
	/* each CPU's pending record already printed, as a graph's leaf */
	struct { struct tep_record *rec; unsigned long long ts; } *folded;
	bool started;
	struct event_info *info;
	int nr_info;
	struct trace_seq seq;
	struct lt_printer *printer;	/* formats what we read */
	char comm[LT_COMM_LEN];
	struct consumed *consumed;	/* per CPU: pages read, still mapped */
	uintptr_t page_size;
	/* the current kernel_stack event's frames, and the symbol table */
	uint64_t stack_ip[LT_STACK_MAX_FRAMES];
	struct dat_syms {
		struct lt_symbols s;
		struct tep_handle *tep;
		struct dat *d;
	} syms;
	/* pid -> comm: libtraceevent's lookup is a bsearch per event */
	struct {
		int pid;
		const char *comm;
	} comm_cache[COMM_CACHE];
	bool cmdlines_read;	/* read_cmdlines() */
	/* address -> kernel symbol: tep_find_function() is a bsearch too */
	struct {
		unsigned long long addr;
		const char *name;
	} func_cache[256];
	/*
	 * The common fields, found once: tep_data_type() and friends look
	 * each one up by name again on every call.
	 */
	struct tep_format_field *c_type, *c_pid, *c_flags, *c_pc;
	bool native;		/* the file is in the host's byte order */
	/* per CPU once lt_dat_continue() took over from libtracecmd */
	struct page_src *pages;
	int sub_size;	/* of the ring buffer's pages */
	/*
	 * A trace.dat's pages are read here, each chunk or block checked as
	 * it is read (lt_dat_chunk()); libtracecmd reads the headers.
	 */
	struct lt_dat_pages *zpages;
	int fd;
	bool chunked;
	const char *buffer;	/* the one read: "" for the top one */
	/* print formats libtraceevent 1.7 cannot parse, for the printer */
	struct fmt_src {
		int id;
		char *fmt;
	} *src;
	int nr_src;
	bool src_oom;
	/*
	 * The file's kallsyms text and, built at the first lookup, its
	 * functions by address (lt-ksyms.c). Text that lies in the file as
	 * it is (ksyms_off >= 0) is read from there when first needed: a
	 * distribution kernel's is megabytes, and most work needs none.
	 */
	char *ksyms_text;
	size_t ksyms_len;
	int64_t ksyms_off;
	/* a compressed section: decompressed when first needed */
	struct lt_dat_later ksyms_later;
	bool ksyms_packed;
	struct lt_ksyms ksyms;
	/*
	 * What lt_dat_check() found the libraries cannot be trusted with,
	 * made harmless in the copy of the file libtracecmd reads.
	 */
	struct dat_patch {
		uint64_t off;
		void *bytes;
		size_t len;
	} *patch;
	size_t nr_patch;
	bool patch_oom;
	uint64_t cut;		/* where the file was cut short, or 0 */
	bool ksyms_built;
	/*
	 * The headers as lt_dat_check() handed them over, for opening the
	 * file without libtracecmd (own_tep): libtraceevent is then given
	 * only the formats of the events read, and the kallsyms only when
	 * a symbol is printed.
	 */
	struct hdr {
		bool big;
		int long_size;
		char *header_page;
		size_t header_page_len;
		char *printk;
		char *cmdlines;
		char *uname;
		uint64_t cpus;
		bool have_cpus;
		bool odd;	/* options libtracecmd applies to timestamps */
		bool oom;
		char **buf;	/* instance names, in the file's order */
		int nr_buf;
		/* every format: "system\0name\0text" one after the other */
		char *fmt;
		size_t fmt_len, fmt_cap;
		struct hdr_ev {
			int id;
			size_t sys, name, text, len;
			bool parsed;
		} *ev;
		size_t nr_ev, max_ev;
	} h;
	/*
	 * Worker threads reading (decompressing, checking) each CPU's next
	 * chunks while the reader decodes and merges; one lock for all.
	 */
	struct {
		pthread_t *tid;
		int nr;
		pthread_mutex_t lock;
		pthread_cond_t work;	/* a chunk can be read ahead */
		pthread_cond_t ready;	/* a chunk was read, a worker idles */
		bool stop;
		bool tried;
		struct worker_arg *arg;
	} w;
	int jobs;		/* threads reading the pages, the reader's too */
	bool *skip;		/* CPUs outside lt_dat_set_part()'s part */
	/* a part in time: its segments, [start, end) pairs of times */
	uint64_t *seg;
	size_t nr_seg, cur_seg;
	/*
	 * lt_dat_read_span()'s span ended with every CPU's next record
	 * still pending, all of them at its end or later: a span from
	 * there needs no seek.
	 */
	bool span_end;
	/* a CPU's times went backwards: the part cannot be told from others */
	int unordered;		/* the CPU + 1, 0 if none */
	uint64_t unordered_at;
	bool packing;		/* lt_dat_set_packing() */
	bool own_tep;
	char *ksyms_raw;	/* the kallsyms text, for libtraceevent */
	/* own_tep: every symbol as libtraceevent keeps them, when needed */
	struct lt_ksyms_all symtab;
	bool tep_ksyms;		/* symtab was made */
	/* a chunk decompressed for its time alone (chunk_ts()) */
	uint8_t *probe, *probe_in;
	size_t probe_cap, probe_in_cap;
};

/*
 * Keep the print formats with a sizeof(): libtraceevent 1.7 fails on
 * them (arm64's pfn_to_page()), and the printer needs their text to
 * evaluate them.
 */
static void keep_format(void *ctx, int id, const char *fmt, size_t len)
{
	struct dat *d = ctx;
	struct fmt_src *n;

	if (!memmem(fmt, len, "sizeof(", 7))
		return;
	n = realloc(d->src, (d->nr_src + 1) * sizeof(*n));
	if (!n) {
		d->src_oom = true;
		return;
	}
	d->src = n;
	n[d->nr_src].id = id;
	n[d->nr_src].fmt = strndup(fmt, len);
	if (!n[d->nr_src].fmt)
		d->src_oom = true;
	else
		d->nr_src++;
}

static void keep_patch(void *ctx, uint64_t off, const void *bytes, size_t len)
{
	struct dat *d = ctx;
	struct dat_patch *n = realloc(d->patch, (d->nr_patch + 1) * sizeof(*n));

	if (!n) {
		d->patch_oom = true;
		return;
	}
	d->patch = n;
	n += d->nr_patch;
	n->off = off;
	n->len = len;
	n->bytes = malloc(len);
	if (!n->bytes) {
		d->patch_oom = true;
		return;
	}
	memcpy(n->bytes, bytes, len);
	d->nr_patch++;
}

static void free_patches(struct dat *d)
{
	size_t i;

	for (i = 0; i < d->nr_patch; i++)
		free(d->patch[i].bytes);
	free(d->patch);
	d->patch = NULL;
	d->nr_patch = 0;
}

static void keep_cut(void *ctx, uint64_t off)
{
	struct dat *d = ctx;

	if (!d->cut || off < d->cut)
		d->cut = off;
}

static void keep_kallsyms(void *ctx, const char *text, size_t len,
			  int64_t off)
{
	struct dat *d = ctx;

	free(d->ksyms_text);
	d->ksyms_text = NULL;
	d->ksyms_len = len;
	d->ksyms_off = off;
	if (off >= 0)
		return;
	d->ksyms_text = malloc(len + 1);
	if (!d->ksyms_text)
		return;		/* lookups go to libtraceevent */
	memcpy(d->ksyms_text, text, len);
	d->ksyms_text[len] = '\0';
}

static void keep_kallsyms_later(void *ctx, const struct lt_dat_later *at)
{
	struct dat *d = ctx;

	free(d->ksyms_text);
	d->ksyms_text = NULL;
	d->ksyms_len = 0;
	d->ksyms_off = -1;
	d->ksyms_later = *at;
	d->ksyms_packed = true;
}

/* A compressed section's text; NULL, with @err, if it cannot be had. */
static char *ksyms_unpack(struct dat *d, char *err, size_t errlen)
{
	char *t;

	d->ksyms_packed = false;
	t = d->fd >= 0 ? lt_dat_kallsyms_read(d->fd, &d->ksyms_later,
					      &d->ksyms_len, err, errlen) :
			 NULL;
	if (!t)
		d->ksyms_len = 0;
	d->ksyms_text = t;
	return t;
}

/*
 * The kallsyms text, read from the file the first time. The check saw
 * it whole; a file cut since, or a compressed section that does not
 * decompress, reads as one with no symbols.
 */
static char *ksyms_text(struct dat *d)
{
	char err[LT_ERR_LEN];
	char *t;

	if (d->ksyms_packed && !d->ksyms_built)
		return ksyms_unpack(d, err, sizeof(err));
	if (d->ksyms_text || d->ksyms_off < 0 || d->ksyms_built)
		return d->ksyms_text;
	/* a regular file: one pread() reads it all, as the chunks' do */
	t = d->fd >= 0 ? malloc(d->ksyms_len + 1) : NULL;
	if (t && pread(d->fd, t, d->ksyms_len, d->ksyms_off) !=
		 (ssize_t)d->ksyms_len) {
		free(t);
		t = NULL;
	}
	d->ksyms_off = -1;
	if (!t) {
		d->ksyms_len = 0;
		return NULL;
	}
	t[d->ksyms_len] = '\0';
	d->ksyms_text = t;
	return t;
}

static void build_ksyms(struct dat *d)
{
	if (!d->ksyms_built && ksyms_text(d)) {
		d->ksyms_built = true;
		/*
		 * The index cuts the names in place: libtraceevent, which
		 * may still need the text, gets its own copy.
		 */
		if (d->own_tep && !d->tep_ksyms) {
			d->ksyms_raw = malloc(d->ksyms_len + 1);
			if (d->ksyms_raw)
				memcpy(d->ksyms_raw, d->ksyms_text,
				       d->ksyms_len + 1);
		}
		/* the index owns the text now, and frees it on failure */
		lt_ksyms_init(&d->ksyms, d->ksyms_text, d->ksyms_len);
		d->ksyms_text = NULL;
	}
}

/*
 * Where addresses inside functions are looked up (a %pS, a stack): with
 * our own parser handle, a handle of its own holding the file's kallsyms
 * as libtraceevent parses them, made the first time one is needed. Most
 * work never needs them, and they were most of the cost of opening a
 * distribution kernel's trace.
 */
static const struct lt_ksyms_all *sym_table(struct dat *d)
{
	const char *text;
	char *copy;
	size_t len;

	if (!d->tep_ksyms) {
		d->tep_ksyms = true;
		text = d->ksyms_built ? d->ksyms_raw : ksyms_text(d);
		len = d->ksyms_len;
		/* the table cuts the names in place, in a copy of its own */
		copy = text ? malloc(len + 1) : NULL;
		if (copy) {
			memcpy(copy, text, len + 1);
			lt_ksyms_all_init(&d->symtab, copy, len);
		}
		free(d->ksyms_raw);
		d->ksyms_raw = NULL;
	}
	return d->symtab.f ? &d->symtab : NULL;
}

/*
 * The function containing @addr, as tep_find_function_info() on the
 * handle the symbols come from: libtracecmd's, the live session's, or
 * with our own parser handle, the table above.
 */
static int find_function(struct dat *d, uint64_t addr, const char **name,
			 unsigned long long *start, unsigned long *size)
{
	const struct lt_ksyms_all *t;
	uint64_t st, sz;

	if (!d->own_tep || d->syms.tep != d->tep)
		return tep_find_function_info(d->syms.tep, addr, name, start,
					      size);
	t = sym_table(d);
	*name = t ? lt_ksyms_find(t, addr, &st, &sz) : NULL;
	if (!*name)
		return 0;
	*start = st;
	*size = sz;
	return 1;
}

/* The function starting at @addr, if the file's kallsyms has one. */
static const char *exact_function(struct dat *d, uint64_t addr)
{
	if (d->syms.tep != d->tep)
		return NULL;
	build_ksyms(d);
	return d->ksyms.sym ? lt_ksyms_exact(&d->ksyms, addr) : NULL;
}

/* The printer's %pS: the module of a function, from the file's kallsyms. */
static const char *module_of(void *ctx, unsigned long long start)
{
	struct dat *d = ctx;

	build_ksyms(d);
	return d->ksyms.sym ? lt_ksyms_module(&d->ksyms, start) : NULL;
}

/* ---- the headers, for a parser handle of our own (own_tep) ---- */

static char *dup_text(struct dat *d, const char *text, size_t len)
{
	char *t = malloc(len + 1);

	if (!t) {
		d->h.oom = true;
		return NULL;
	}
	memcpy(t, text, len);
	t[len] = '\0';
	return t;
}

static void keep_file(void *ctx, bool big, int long_size, uint32_t page_size)
{
	struct dat *d = ctx;

	(void)page_size;	/* lt_dat_page_size() has it */
	d->h.big = big;
	d->h.long_size = long_size;
}

static void keep_header_page(void *ctx, const char *text, size_t len)
{
	struct dat *d = ctx;

	free(d->h.header_page);
	d->h.header_page = dup_text(d, text, len);
	d->h.header_page_len = len;
}

static void keep_printk(void *ctx, const char *text, size_t len)
{
	struct dat *d = ctx;

	free(d->h.printk);
	d->h.printk = dup_text(d, text, len);
}

static void keep_cmdlines(void *ctx, const char *text, size_t len)
{
	struct dat *d = ctx;

	free(d->h.cmdlines);
	d->h.cmdlines = dup_text(d, text, len);
}

static void keep_cpus(void *ctx, uint64_t cpus)
{
	struct dat *d = ctx;

	d->h.cpus = cpus;
	d->h.have_cpus = true;
}

/* v6/v7 option IDs (trace-cmd.dat.v7(5)) the reader looks at. */
enum {
	OPT_BUFFER = 3,
	OPT_UNAME = 5,
	OPT_OFFSET = 7,
	OPT_TIME_SHIFT = 12,
	OPT_TSC2NSEC = 14,
};

static void keep_option(void *ctx, unsigned int id, const void *data,
			size_t len)
{
	struct dat *d = ctx;
	const char *p = data;
	char **n;

	switch (id) {
	case OPT_UNAME:
		/* the check made sure it ends in a NUL */
		free(d->h.uname);
		d->h.uname = len ? dup_text(d, p, len - 1) : NULL;
		break;
	case OPT_BUFFER:
		/* offset, name: the one with no name is the top buffer */
		if (len <= 8 || !memchr(p + 8, '\0', len - 8) || !p[8])
			break;
		n = realloc(d->h.buf, (d->h.nr_buf + 1) * sizeof(*n));
		if (!n) {
			d->h.oom = true;
			break;
		}
		d->h.buf = n;
		n[d->h.nr_buf] = strdup(p + 8);
		if (n[d->h.nr_buf])
			d->h.nr_buf++;
		else
			d->h.oom = true;
		break;
	case OPT_OFFSET:
	case OPT_TIME_SHIFT:
	case OPT_TSC2NSEC:
		/* libtracecmd moves the timestamps: it opens such a file */
		d->h.odd = true;
		break;
	}
}

/* Append @len bytes and a NUL to the formats' text; its offset, or -1. */
static long long fmt_append(struct dat *d, const char *text, size_t len)
{
	size_t at = d->h.fmt_len, cap;
	char *n;

	if (at + len + 1 > d->h.fmt_cap) {
		cap = (at + len + 1) * 2 + 4096;
		n = realloc(d->h.fmt, cap);
		if (!n) {
			d->h.oom = true;
			return -1;
		}
		d->h.fmt = n;
		d->h.fmt_cap = cap;
	}
	memcpy(d->h.fmt + at, text, len);
	d->h.fmt[at + len] = '\0';
	d->h.fmt_len += len + 1;
	return at;
}

static void keep_event(void *ctx, const char *system, int id,
		       const char *text, size_t len)
{
	struct dat *d = ctx;
	const char *name = "", *eol;
	long long sys, nm, t;
	struct hdr_ev *n;
	size_t nlen = 0;

	if (d->h.oom)
		return;
	if (len > 6 && !memcmp(text, "name: ", 6)) {
		name = text + 6;
		eol = memchr(name, '\n', len - 6);
		nlen = eol ? (size_t)(eol - name) : len - 6;
	}
	if (d->h.nr_ev == d->h.max_ev) {
		n = realloc(d->h.ev, (d->h.max_ev * 2 + 64) * sizeof(*n));
		if (!n) {
			d->h.oom = true;
			return;
		}
		d->h.ev = n;
		d->h.max_ev = d->h.max_ev * 2 + 64;
	}
	sys = fmt_append(d, system, strlen(system));
	nm = fmt_append(d, name, nlen);
	t = fmt_append(d, text, len);
	if (sys < 0 || nm < 0 || t < 0)
		return;
	d->h.ev[d->h.nr_ev++] = (struct hdr_ev){ .id = id, .sys = sys,
		.name = nm, .text = t, .len = len };
}

static void free_hdr(struct dat *d)
{
	int i;

	free(d->h.header_page);
	free(d->h.printk);
	free(d->h.cmdlines);
	free(d->h.uname);
	for (i = 0; i < d->h.nr_buf; i++)
		free(d->h.buf[i]);
	free(d->h.buf);
	free(d->h.fmt);
	free(d->h.ev);
	memset(&d->h, 0, sizeof(d->h));
}

/*
 * The printer's symbol lookup: a function's own address (a timer's
 * handler, "%ps") from the index, anything else (an offset into a
 * function, its size) from libtraceevent, which parses the kallsyms
 * the first time.
 */
static int print_symbol(void *ctx, unsigned long long addr, bool offset,
			const char **name, unsigned long long *start,
			unsigned long *size)
{
	struct dat *d = ctx;

	if (!offset && d->syms.tep == d->tep) {
		*name = exact_function(d, addr);
		if (*name) {
			*start = addr;
			*size = 0;
			return 1;
		}
	}
	return find_function(d, addr, name, start, size);
}

/*
 * libtraceevent's own lookups (its printing of %ps, tep_find_function())
 * on our parser handle: the same answers as print_symbol(), the size
 * aside, which libtraceevent does not print.
 */
static char *resolve_function(void *ctx, unsigned long long *addr,
			      char **mod)
{
	unsigned long long start;
	unsigned long size;
	const char *name;

	*mod = NULL;
	if (!print_symbol(ctx, *addr, false, &name, &start, &size))
		return NULL;
	*addr = start;
	return (char *)name;
}

static void free_sources(struct dat *d)
{
	int i;

	for (i = 0; i < d->nr_src; i++)
		free(d->src[i].fmt);
	free(d->src);
	d->src = NULL;
	d->nr_src = 0;
}

static const char *const field_names[][8] = {
	[LT_EV_SCHED_SWITCH] = { "prev_comm", "prev_pid", "prev_prio",
				 "prev_state", "next_comm", "next_pid",
				 "next_prio" },
	[LT_EV_SCHED_WAKING] = { "comm", "pid", "prio", "target_cpu" },
	[LT_EV_SCHED_WAKEUP] = { "comm", "pid", "prio", "target_cpu" },
	[LT_EV_SCHED_WAKEUP_NEW] = { "comm", "pid", "prio", "target_cpu" },
	[LT_EV_SCHED_PROCESS_EXIT] = { "comm", "pid" },
	[LT_EV_SCHED_PROCESS_FORK] = { "child_comm", "child_pid" },
	[LT_EV_HRTIMER_EXPIRE_ENTRY] = { "function" },
	[LT_EV_HRTIMER_START] = { "function", "expires" },
	[LT_EV_SOFTIRQ_ENTRY] = { "vec" },
	[LT_EV_SOFTIRQ_EXIT] = { "vec" },
	[LT_EV_SYS_ENTER] = { "id" },
	[LT_EV_SYS_EXIT] = { "id" },
	[LT_EV_FUNCTION] = { "ip", "parent_ip" },
	[LT_EV_PRINT] = { "buf" },
	[LT_EV_SET_NEED_RESCHED] = { "pid", "cpu", "tif" },
	[LT_EV_KERNEL_STACK] = { "size", "caller" },
};

/*
 * sched_switch prints prev_state through __print_flags() and appends "+"
 * when the preempted bit is set (lt_switch_preempt_bit()). Read the
 * letters from the event's own print format, so that any kernel's table
 * is honoured.
 */
static void find_state_letters(struct event_info *ei, struct tep_print_arg *arg)
{
	struct tep_print_flag_sym *sym;

	for (; arg; arg = arg->next) {
		if (arg->type == TEP_PRINT_OP) {
			find_state_letters(ei, arg->op.left);
			find_state_letters(ei, arg->op.right);
			continue;
		}
		if (arg->type != TEP_PRINT_FLAGS || ei->nr_state_letters)
			continue;
		for (sym = arg->flags.flags; sym; sym = sym->next) {
			if (ei->nr_state_letters < 16 && sym->str[0]) {
				ei->state_letter_bit[ei->nr_state_letters] =
					strtoull(sym->value, NULL, 0);
				ei->state_letter[ei->nr_state_letters++] = sym->str[0];
			}
		}
	}
}

static int cmp_hdr_ev(const void *a, const void *b)
{
	const struct hdr_ev *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

static void parse_format(struct dat *d, struct hdr_ev *e)
{
	e->parsed = true;
	/* a format it cannot parse leaves the event unknown, as before */
	lt_parse_lock();
	tep_parse_event(d->tep, d->h.fmt + e->text, e->len,
			d->h.fmt + e->sys);
	lt_parse_unlock();
}

/*
 * The event of ID @type: with our own parser handle, its format is
 * parsed the first time an event of the type is read.
 */
static struct tep_event *find_event(struct dat *d, int type)
{
	struct tep_event *e = tep_find_event(d->tep, type);
	struct hdr_ev key = { .id = type }, *f;

	if (e || !d->own_tep)
		return e;
	f = bsearch(&key, d->h.ev, d->h.nr_ev, sizeof(*f), cmp_hdr_ev);
	if (!f || f->parsed)
		return NULL;
	parse_format(d, f);
	return tep_find_event(d->tep, type);
}

static struct event_info *event_info(struct dat *d, int type)
{
	struct event_info *ei;
	int i;

	if (type < 0 || type > 1 << 16)
		return NULL;
	if (type >= d->nr_info) {
		/* A corrupt record's type can be anything: grow for real ones. */
		if (!find_event(d, type))
			return NULL;
		if (lt_type_table_grow((void **)&d->info, &d->nr_info, type,
				       sizeof(*d->info)))
			return NULL;
	}
	ei = &d->info[type];
	if (ei->known)
		return ei->event ? ei : NULL;
	ei->known = true;
	ei->event = find_event(d, type);
	if (!ei->event)
		return NULL;
	ei->kind = lt_event_kind_of(ei->event->system, ei->event->name);
	lt_known_print_init(&ei->print, ei->event);
	for (i = 0; i < 8 && ei->kind < LT_EV_KIND_MAX; i++) {
		const char *fn = field_names[ei->kind][i];

		if (fn)
			ei->f[i] = tep_find_field(ei->event, fn);
	}
	if (ei->kind == LT_EV_SCHED_SWITCH) {
		find_state_letters(ei, ei->event->print_fmt.args);
		/* the bit the format's "+" tests (0x1000 on some 4.x) */
		ei->preempt_marker = lt_switch_preempt_bit(ei->event);
	}
	return ei;
}

static long long num(struct tep_format_field *f, struct tep_record *rec)
{
	unsigned long long v = 0;

	if (!f || f->offset + f->size > rec->size)
		return -1;
	if (tep_read_number_field(f, rec->data, &v))
		return -1;
	/* Sign-extend signed fields such as pid. */
	if (f->flags & TEP_FIELD_IS_SIGNED) {
		if (f->size == 4)
			return (int)v;
		if (f->size == 2)
			return (short)v;
		if (f->size == 1)
			return (signed char)v;
	}
	return (long long)v;
}

/*
 * num() for the hot fields: a file in the host's byte order is read with
 * a plain load instead of two calls into libtraceevent.
 */
static inline long long fnum(struct dat *d, struct tep_format_field *f,
			     struct tep_record *rec)
{
	const char *p;

	if (!d->native || !f || f->offset < 0 ||
	    f->offset + f->size > rec->size)
		return num(f, rec);
	p = (const char *)rec->data + f->offset;
	switch (f->size) {
	case 4: {
		uint32_t v;

		memcpy(&v, p, 4);
		if (f->flags & TEP_FIELD_IS_SIGNED)
			return (int32_t)v;
		return v;
	}
	case 8: {
		uint64_t v;

		memcpy(&v, p, 8);
		return (long long)v;
	}
	default:
		return num(f, rec);
	}
}

static void str(struct tep_format_field *f, struct tep_record *rec, char *dst,
		size_t size)
{
	size_t n;

	dst[0] = '\0';
	if (!f || f->offset < 0 || f->offset + f->size > rec->size)
		return;
	if (f->flags & TEP_FIELD_IS_DYNAMIC)
		return;
	n = f->size < (int)size - 1 ? (size_t)f->size : size - 1;
	memcpy(dst, (char *)rec->data + f->offset, n);
	dst[n] = '\0';
}

/* A trailing char buf[] (ftrace's print): up to the record's end. */
static void str_tail(struct tep_format_field *f, struct tep_record *rec,
		     char *dst, size_t size)
{
	size_t n;

	dst[0] = '\0';
	if (!f || f->offset < 0 || f->offset >= rec->size)
		return;
	n = rec->size - f->offset;
	if (n > size - 1)
		n = size - 1;
	memcpy(dst, (char *)rec->data + f->offset, n);
	dst[n] = '\0';
	dst[strcspn(dst, "\n")] = '\0';
}

static void prev_state_str(const struct event_info *ei, unsigned long long st,
			   char out[8])
{
	unsigned long long bits = st & (ei->preempt_marker - 1);
	int i, n = 0;

	if (!bits) {
		out[n++] = 'R';
	} else {
		for (i = 0; i < ei->nr_state_letters && n < 5; i++) {
			if (!(bits & ei->state_letter_bit[i]))
				continue;
			if (n)
				out[n++] = '|';
			out[n++] = ei->state_letter[i];
		}
	}
	if (st & ei->preempt_marker)
		out[n++] = '+';
	out[n] = '\0';
}

static void func_name(struct dat *d, unsigned long long addr, char *dst,
		      size_t size)
{
	unsigned int slot = (unsigned int)(addr >> 4) % 256;
	const char *name = d->func_cache[slot].name;

	/* lt_dat_pack() copies the address: the taker names it */
	if (d->packing) {
		dst[0] = '\0';
		return;
	}

	/* A name is the symbol table's, fixed while the file is open. */
	if (!name || d->func_cache[slot].addr != addr) {
		name = exact_function(d, addr);
		if (!name)
			name = tep_find_function(d->syms.tep, addr);
		d->func_cache[slot].addr = addr;
		d->func_cache[slot].name = name;
	}
	if (name)
		lt_strlcpy(dst, name, size);
	else
		snprintf(dst, size, "0x%llx", addr);
}

/* A saved interval's sibling kallsyms is at most this big (6 MB is usual). */
#define SIBLING_KALLSYMS_MAX	(256u << 20)

/*
 * live --save writes the kernel's symbols once per directory, as
 * DIR/kallsyms, and each DIR/interval-N.dat without them: an interval
 * file with no kallsyms of its own reads its directory's.
 */
static void sibling_kallsyms(struct lt_reader *r, struct dat *d)
{
	const char *base = strrchr(r->path, '/');
	char *path = NULL, *text = NULL;
	struct stat st;
	ssize_t n;
	int fd;

	base = base ? base + 1 : r->path;
	if (d->ksyms_len || d->ksyms_packed ||
	    strncmp(base, "interval-", 9))
		return;
	if (asprintf(&path, "%.*skallsyms", (int)(base - r->path),
		     r->path) < 0)
		return;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	free(path);
	if (fd < 0)
		return;
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) && st.st_size > 0 &&
	    (uint64_t)st.st_size < SIBLING_KALLSYMS_MAX)
		text = malloc(st.st_size + 1);
	n = text ? read(fd, text, st.st_size) : -1;
	close(fd);
	if (n == st.st_size) {
		text[n] = '\0';
		/* our own parser handle reads them when first needed */
		if (!d->own_tep)
			tep_parse_kallsyms(d->tep, text);
		keep_kallsyms(d, text, n, -1);
	}
	free(text);
}

/* The trace's kallsyms, through libtraceevent. */
static int dat_symbol(const struct lt_symbols *s, uint64_t ip,
		      const char **name, uint64_t *start, uint64_t *size)
{
	const struct dat_syms *ds = (const struct dat_syms *)s;
	unsigned long long st = 0;
	unsigned long sz = 0;
	const char *n = NULL;

	if (!ip || !find_function(ds->d, ip, &n, &st, &sz) || !n)
		return -1;
	*name = n;
	*start = st;
	*size = sz;
	return 0;
}

/*
 * kernel_stack: "size" frames in "caller", as many as the record holds
 * (the format declares a fixed array, the kernel writes "size" entries);
 * an all-ones word ends the stack on older kernels.
 */
static void fill_stack(struct dat *d, struct event_info *ei,
		       struct tep_record *rec, struct lt_event *ev)
{
	struct tep_format_field *fc = ei->f[1];
	long long want = num(ei->f[0], rec);
	int word = tep_get_long_size(d->tep);
	unsigned long long v, end;
	long long avail;
	unsigned int i;

	memset(&ev->u.stack, 0, sizeof(ev->u.stack));
	ev->u.stack.ip = d->stack_ip;
	ev->u.stack.syms = &d->syms.s;
	if (word != 4 && word != 8)
		word = 8;
	end = word == 8 ? ~0ULL : 0xffffffffULL;
	if (!fc || want < 0 || fc->offset < 0 || fc->offset > rec->size) {
		ev->u.stack.truncated = true;
		return;
	}
	avail = (rec->size - fc->offset) / word;
	if (want > avail || want > LT_STACK_MAX_FRAMES)
		ev->u.stack.truncated = true;
	for (i = 0; i < want && i < avail && i < LT_STACK_MAX_FRAMES; i++) {
		v = tep_read_number(d->tep, (char *)rec->data + fc->offset +
				    i * word, word);
		if (v == end || !v)
			break;
		d->stack_ip[i] = v;
	}
	ev->u.stack.nr = i;
}

static void fill_fields(struct dat *d, struct event_info *ei,
			struct tep_record *rec, struct lt_event *ev)
{
	struct tep_format_field **f = ei->f;

	switch (ei->kind) {
	case LT_EV_SCHED_SWITCH: {
		unsigned long long st = fnum(d, f[3], rec);

		str(f[0], rec, ev->u.sched_switch.prev_comm, LT_COMM_LEN);
		ev->u.sched_switch.prev_pid = fnum(d, f[1], rec);
		ev->u.sched_switch.prev_prio = fnum(d, f[2], rec);
		prev_state_str(ei, st, ev->u.sched_switch.prev_state_str);
		ev->u.sched_switch.prev_state =
			lt_prev_state_of(ev->u.sched_switch.prev_state_str);
		str(f[4], rec, ev->u.sched_switch.next_comm, LT_COMM_LEN);
		ev->u.sched_switch.next_pid = fnum(d, f[5], rec);
		ev->u.sched_switch.next_prio = fnum(d, f[6], rec);
		break;
	}
	case LT_EV_SCHED_WAKING:
	case LT_EV_SCHED_WAKEUP:
	case LT_EV_SCHED_WAKEUP_NEW:
		str(f[0], rec, ev->u.wakeup.comm, LT_COMM_LEN);
		ev->u.wakeup.pid = fnum(d, f[1], rec);
		ev->u.wakeup.prio = fnum(d, f[2], rec);
		ev->u.wakeup.target_cpu = fnum(d, f[3], rec);
		break;
	case LT_EV_SCHED_PROCESS_EXIT:
	case LT_EV_SCHED_PROCESS_FORK:
		str(f[0], rec, ev->u.process.comm, LT_COMM_LEN);
		ev->u.process.pid = num(f[1], rec);
		break;
	case LT_EV_HRTIMER_EXPIRE_ENTRY:
		func_name(d, num(f[0], rec), ev->u.hrtimer.func,
			  sizeof(ev->u.hrtimer.func));
		break;
	case LT_EV_HRTIMER_START:
		func_name(d, num(f[0], rec), ev->u.hrtimer.func,
			  sizeof(ev->u.hrtimer.func));
		ev->u.hrtimer.expires = num(f[1], rec);
		break;
	case LT_EV_SOFTIRQ_ENTRY:
	case LT_EV_SOFTIRQ_EXIT:
		ev->u.softirq.vec = num(f[0], rec);
		break;
	case LT_EV_SYS_ENTER:
	case LT_EV_SYS_EXIT:
		ev->u.syscall.id = num(f[0], rec);
		break;
	case LT_EV_PRINT:
		str_tail(f[0], rec, ev->u.print.buf, sizeof(ev->u.print.buf));
		break;
	case LT_EV_SET_NEED_RESCHED:
		ev->u.resched.pid = num(f[0], rec);
		ev->u.resched.cpu = num(f[1], rec);
		ev->u.resched.tif = num(f[2], rec);
		break;
	case LT_EV_FUNCTION:
		func_name(d, num(f[0], rec), ev->u.function.func,
			  sizeof(ev->u.function.func));
		func_name(d, num(f[1], rec), ev->u.function.parent,
			  sizeof(ev->u.function.parent));
		break;
	case LT_EV_KERNEL_STACK:
		fill_stack(d, ei, rec, ev);
		break;
	default:
		break;
	}
}

/*
 * The saved command lines, given to our own parser handle the first time
 * a name is looked up: a reader whose events another thread names
 * (lt_dat_set_packing()) never needs them.
 */
static void read_cmdlines(struct dat *d)
{
	if (d->cmdlines_read)
		return;
	d->cmdlines_read = true;
	if (d->own_tep && d->h.cmdlines)
		tep_parse_saved_cmdlines(d->tep, d->h.cmdlines);
}

/*
 * The names come from the file's saved command lines, fixed once it is
 * open, so a name once looked up stays right (pid 0 marks a free slot).
 */
static const char *comm_of(struct dat *d, int pid)
{
	unsigned int slot = (unsigned int)pid % COMM_CACHE;
	const char *comm;

	if (pid == 0)
		return "<idle>";
	if (d->comm_cache[slot].pid == pid)
		return d->comm_cache[slot].comm;
	read_cmdlines(d);
	comm = tep_data_comm_from_pid(d->tep, pid);
	if (!comm || !strcmp(comm, "<...>"))
		comm = "<...>";
	d->comm_cache[slot].pid = pid;
	d->comm_cache[slot].comm = comm;
	return comm;
}

/* A record too small for the common header is corrupt. */
#define COMMON_HDR_SIZE 8

static void find_common_fields(struct dat *d)
{
	struct tep_event **events = tep_list_events(d->tep, TEP_EVENT_SORT_ID);
	struct tep_format_field *f[4] = { NULL };
	static const char *const names[4] = {
		"common_type", "common_pid", "common_flags",
		"common_preempt_count"
	};
	int i;

	if (!events || !events[0])
		return;
	for (i = 0; i < 4; i++) {
		f[i] = tep_find_common_field(events[0], names[i]);
		/* Only what the header check guarantees is read directly. */
		if (f[i] && (f[i]->offset < 0 || f[i]->size <= 0 ||
			     f[i]->offset + f[i]->size > COMMON_HDR_SIZE))
			f[i] = NULL;
	}
	d->c_type = f[0];
	d->c_pid = f[1];
	d->c_flags = f[2];
	d->c_pc = f[3];
}

/* A common field at its known place, as tep_data_*() would read it. */
static inline long long common(struct dat *d, struct tep_format_field *f,
			       struct tep_record *rec)
{
	const unsigned char *p = (const unsigned char *)rec->data + f->offset;

	if (d->native && f->size == 1)
		return *p;
	if (d->native && f->size == 2) {
		uint16_t v;

		memcpy(&v, p, 2);
		return v;
	}
	if (d->native && f->size == 4) {
		uint32_t v;

		memcpy(&v, p, 4);
		return v;
	}
	return tep_read_number(d->tep, p, f->size);
}

static int rec_type(struct dat *d, struct tep_record *rec)
{
	return d->c_type ? (int)common(d, d->c_type, rec) :
			   tep_data_type(d->tep, rec);
}

static int dat_fill(struct lt_reader *r, struct tep_record *rec, int cpu)
{
	struct dat *d = r->priv;
	struct lt_event *ev = &r->ev;
	struct event_info *ei;

	if (rec->size < COMMON_HDR_SIZE) {
		lt_reader_fail(r, "corrupt record at offset %llu (size %d)",
			       rec->offset, rec->size);
		return -1;
	}
	d->rec_type = rec_type(d, rec);
	ei = event_info(d, d->rec_type);
	/* fill_fields() sets every member of the event's own kind */
	ev->ts = rec->ts;
	ev->missed = rec->missed_events < 0 ? LT_MISSED_UNKNOWN :
		     (uint64_t)rec->missed_events;
	ev->cpu = cpu;
	ev->pid = d->c_pid ? (int)common(d, d->c_pid, rec) :
			     tep_data_pid(d->tep, rec);
	ev->flags = (d->c_flags ? common(d, d->c_flags, rec) :
				  tep_data_flags(d->tep, rec)) & 0xff;
	ev->preempt_count = (d->c_pc ? common(d, d->c_pc, rec) :
				       tep_data_preempt_count(d->tep, rec)) & 0xff;
	/* lt_dat_pack() copies the pid: the taker names the task */
	ev->comm = d->packing ? "" : comm_of(d, ev->pid);
	if (!ei) {
		/*
		 * A type the file has no format for (not saved, or a page
		 * from elsewhere): its header is all there is to read, and
		 * the one event is reported as unknown, not the file.
		 */
		ev->system = "";
		ev->name = LT_UNKNOWN_EVENT;
		ev->kind = LT_EV_OTHER;
		r->pos = rec->offset;
		return 1;
	}
	ev->system = ei->event->system;
	ev->name = ei->event->name;
	ev->kind = ei->kind;
	fill_fields(d, ei, rec, ev);
	r->pos = rec->offset;
	return 1;
}

/*
 * tracecmd_read_cpu_first() (@first) or tracecmd_read_data(). Every page
 * was checked by lt_dat_check() when the file was opened.
 */
static struct tep_record *page_rec(struct lt_reader *r, struct dat *d,
				   int cpu);
static const struct lt_reader_ops dat_ops;

static struct tep_record *read_rec(struct lt_reader *r, struct dat *d,
				   int cpu, bool first,
				   unsigned long long after)
{
	if (d->pages)
		return page_rec(r, d, cpu);
	if (!d->handle)
		return NULL;	/* our own open, and no CPU data */
	return first ? tracecmd_read_cpu_first(d->handle, cpu) :
		       tracecmd_read_data(d->handle, cpu);
}

/* Records of pages are the reader's own; libtracecmd's go back to it. */
static void put_rec(struct dat *d, struct tep_record *rec)
{
	if (rec && !d->pages)
		tracecmd_free_record(rec);
}

/* Read a CPU's pages from @at on. */
static void chunks_from(struct dat *d, struct page_src *p,
			const struct lt_dat_chunks *at)
{
	if (d->w.nr) {
		/* what was read ahead is of the old place */
		pthread_mutex_lock(&d->w.lock);
		while (p->busy)
			pthread_cond_wait(&d->w.ready, &d->w.lock);
		p->it = *at;
		p->head = p->ready = 0;
		p->done = false;
		pthread_cond_broadcast(&d->w.work);
		pthread_mutex_unlock(&d->w.lock);
	} else {
		p->it = *at;
	}
	p->len = p->off = 0;
	p->loaded = false;
	p->seek_ts = 0;
}

/* A CPU whose next chunk a worker can read now, or NULL; under the lock. */
static struct page_src *ahead_wanted(struct lt_reader *r, struct dat *d,
				     int *next)
{
	struct page_src *p;
	int i, cpu;

	for (i = 0; i < r->nr_cpus; i++) {
		cpu = (*next + i) % r->nr_cpus;
		p = &d->pages[cpu];
		if (d->skip && d->skip[cpu])
			continue;
		if (p->chunked && !p->busy && !p->done && p->ready < AHEAD &&
		    p->it.left) {
			*next = cpu + 1;
			return p;
		}
	}
	return NULL;
}

struct worker_arg {
	struct lt_reader *r;
	struct dat *d;
};

/*
 * A worker: the next chunk of the CPU that most lacks one, read into a
 * free slot outside the lock; each CPU's chunks in order, one worker at
 * a time on it.
 */
static void *worker(void *arg)
{
	struct lt_reader *r = ((struct worker_arg *)arg)->r;
	struct dat *d = ((struct worker_arg *)arg)->d;
	uint8_t *in = NULL;
	size_t in_cap = 0;
	struct page_src *p;
	struct ahead *a;
	struct lt_dat_chunks it;
	int next = 0;

	pthread_mutex_lock(&d->w.lock);
	while (!d->w.stop) {
		p = ahead_wanted(r, d, &next);
		if (!p) {
			pthread_cond_wait(&d->w.work, &d->w.lock);
			continue;
		}
		p->busy = true;
		a = &p->ahead[(p->head + p->ready) % AHEAD];
		a->at = it = p->it;
		pthread_mutex_unlock(&d->w.lock);
		a->ret = lt_dat_chunk_r(d->zpages, d->fd, &it, &a->buf,
					&a->cap, &a->len, &in, &in_cap, a->msg,
					sizeof(a->msg));
		pthread_mutex_lock(&d->w.lock);
		p->busy = false;
		p->it = it;
		p->ready++;
		if (a->ret <= 0)
			p->done = true;
		pthread_cond_broadcast(&d->w.ready);
	}
	pthread_mutex_unlock(&d->w.lock);
	free(in);
	return NULL;
}

/*
 * next_chunk() from the workers: wait for the CPU's next chunk, and swap
 * buffers with its slot (the one given back holds no record handed out).
 */
static int take_ahead(struct lt_reader *r, struct dat *d, struct page_src *p,
		      struct lt_dat_chunks *at, size_t *len)
{
	struct ahead *a;
	uint8_t *b;
	size_t c;
	int ret;

	pthread_mutex_lock(&d->w.lock);
	while (!p->ready && (p->busy || (!p->done && p->it.left))) {
		pthread_cond_signal(&d->w.work);
		pthread_cond_wait(&d->w.ready, &d->w.lock);
	}
	if (!p->ready) {
		pthread_mutex_unlock(&d->w.lock);
		return 0;
	}
	a = &p->ahead[p->head];
	ret = a->ret;
	if (ret < 0)
		lt_reader_fail(r, "%s", a->msg);
	if (ret > 0) {
		p->cur ^= 1;
		b = p->cbuf[p->cur];
		c = p->ccap[p->cur];
		p->cbuf[p->cur] = a->buf;
		p->ccap[p->cur] = a->cap;
		a->buf = b;
		a->cap = c;
		*at = a->at;
		*len = a->len;
	}
	p->head = (p->head + 1) % AHEAD;
	p->ready--;
	pthread_cond_signal(&d->w.work);
	pthread_mutex_unlock(&d->w.lock);
	return ret;
}

/*
 * Size of CPU data from which the default is a thread per vCPU. On 2
 * CPUs, stats -j 2 took 1.0x of -j 1's wall time on 7 MB of pages, 0.72x
 * on 44 MB and 0.6-0.65x on 62 MB, for 15-25 % more CPU: below this, a
 * fleet's worth of traces is better read a trace a CPU.
 */
#define JOBS_AUTO_SIZE (64ULL << 20)

/*
 * Start the workers, when the first chunk past each CPU's first is
 * needed: no chunk is read ahead yet, every CPU is where the reader is.
 */
static void start_workers(struct lt_reader *r, struct dat *d)
{
	struct worker_arg *arg;
	int i, n = d->jobs - 1;

	d->w.tried = true;
	if (n > r->nr_cpus)
		n = r->nr_cpus;	/* one worker per CPU's pages at most */
	if (n <= 0 || !d->chunked)
		return;
	/*
	 * Uncompressed pages are copied faster than a worker hands them
	 * over: stats of a 70 MB version 6 file took 25 % more CPU and
	 * 10 % more time with one.
	 */
	if (!lt_dat_compressed(r))
		return;
	arg = malloc(sizeof(*arg));
	d->w.tid = calloc(n, sizeof(*d->w.tid));
	if (!arg || !d->w.tid) {
		free(arg);
		free(d->w.tid);
		d->w.tid = NULL;
		return;		/* one thread, as without -j */
	}
	*arg = (struct worker_arg){ r, d };
	d->w.arg = arg;
	pthread_mutex_init(&d->w.lock, NULL);
	pthread_cond_init(&d->w.work, NULL);
	pthread_cond_init(&d->w.ready, NULL);
	d->w.stop = false;
	for (i = 0; i < n; i++) {
		if (pthread_create(&d->w.tid[i], NULL, worker, arg))
			break;
		d->w.nr++;
	}
	if (!d->w.nr) {
		pthread_mutex_destroy(&d->w.lock);
		pthread_cond_destroy(&d->w.work);
		pthread_cond_destroy(&d->w.ready);
		free(d->w.tid);
		d->w.tid = NULL;
	}
}

/* Documented in lt-internal.h. */
void lt_dat_set_jobs(struct lt_reader *r, int jobs)
{
	struct dat *d = r->priv;

	if (r->ops == &dat_ops && d && jobs > 0)
		d->jobs = jobs;
}

/* Documented in lt-internal.h. */
int lt_dat_jobs(const struct lt_reader *r)
{
	const struct dat *d = r->priv;

	return r->ops == &dat_ops && d ? d->jobs : 1;
}

/*
 * A page's commit is the kernel's long, which is what the header page
 * declares: a 32-bit kernel's file says 8 in its header when a 64-bit
 * trace-cmd wrote it. libtracecmd reads pages so, too.
 */
static int page_long(struct dat *d)
{
	int lsize = tep_get_header_page_size(d->tep);

	return lsize == 4 || lsize == 8 ? lsize : tep_get_long_size(d->tep);
}

static uint64_t page_time(struct dat *d, const char *page)
{
	uint64_t ts;

	memcpy(&ts, page, 8);
	return d->native ? ts : __builtin_bswap64(ts);
}

/* The time of the first page of @buf that holds events: 0 if none does. */
static uint64_t pages_time(struct dat *d, const char *buf, size_t len)
{
	uint64_t commit = 0;
	uint32_t commit4;
	size_t off;

	for (off = 0; off + 16 <= len; off += d->sub_size) {
		/* the commit is a long */
		if (page_long(d) == 4) {
			memcpy(&commit4, buf + off + 8, 4);
			commit = commit4;
		} else {
			memcpy(&commit, buf + off + 8, 8);
		}
		if (commit)	/* byte order does not matter for 0 */
			return page_time(d, buf + off);
	}
	return 0;
}

#define CHUNK_UNTIMED	UINT64_MAX

/* Room for the times of @p's indexed chunks; false without memory. */
static bool ix_times(struct page_src *p)
{
	size_t i;

	if (p->ix_ts || !p->ix.nr)
		return p->ix_ts;
	p->ix_ts = malloc(p->ix.nr * sizeof(*p->ix_ts));
	for (i = 0; p->ix_ts && i < p->ix.nr; i++)
		p->ix_ts[i] = CHUNK_UNTIMED;
	return p->ix_ts;
}

/* The indexed chunks of all CPUs: the length of lt_dat_chunk_times(). */
static size_t ix_all(const struct lt_reader *r, const struct dat *d)
{
	size_t n = 0;
	int cpu;

	for (cpu = 0; d->pages && cpu < r->nr_cpus; cpu++)
		n += d->pages[cpu].chunked && !d->pages[cpu].start.raw ?
		     d->pages[cpu].ix.nr : 0;
	return n;
}

/* Documented in lt-internal.h. */
uint64_t *lt_dat_chunk_times(const struct lt_reader *r, size_t *n)
{
	const struct dat *d = r->priv;
	const struct page_src *p;
	uint64_t *t;
	size_t k = 0, i;
	int cpu;

	*n = r->ops == &dat_ops && d ? ix_all(r, d) : 0;
	t = *n ? malloc(*n * sizeof(*t)) : NULL;
	for (cpu = 0; t && cpu < r->nr_cpus; cpu++) {
		p = &d->pages[cpu];
		if (!p->chunked || p->start.raw)
			continue;
		for (i = 0; i < p->ix.nr; i++)
			t[k++] = p->ix_ts ? p->ix_ts[i] : CHUNK_UNTIMED;
	}
	if (!t)
		*n = 0;
	return t;
}

/* Documented in lt-internal.h. */
void lt_dat_add_chunk_times(struct lt_reader *r, const uint64_t *t,
			    size_t n)
{
	struct dat *d = r->priv;
	struct page_src *p;
	size_t k = 0, i;
	int cpu;

	/* the same file as it was opened again: the same chunks */
	if (r->ops != &dat_ops || !d || !n || ix_all(r, d) != n)
		return;
	for (cpu = 0; cpu < r->nr_cpus; cpu++) {
		p = &d->pages[cpu];
		if (!p->chunked || p->start.raw)
			continue;
		for (i = 0; i < p->ix.nr; i++, k++)
			if (t[k] != CHUNK_UNTIMED && ix_times(p) &&
			    p->ix_ts[i] == CHUNK_UNTIMED)
				p->ix_ts[i] = t[k];
	}
}

/*
 * The time of @p's indexed chunk @j: its first page's, 0 if it has no
 * event or cannot be read (its error is the reader's when it reads it).
 * Decompressed here, unchecked, the first time unless it was read
 * already: a wrong time from a corrupt chunk moves a seek, and the chunk
 * fails its check when it is read.
 */
static uint64_t chunk_ts(struct dat *d, struct page_src *p, size_t j)
{
	struct lt_dat_chunks at = p->start;
	size_t len;

	if (!ix_times(p))
		return 0;
	if (p->ix_ts[j] != CHUNK_UNTIMED)
		return p->ix_ts[j];
	at.off = p->ix.off[j];
	at.left = p->start.left - j * p->ix.every;
	p->ix_ts[j] = 0;
	if (lt_dat_chunk_peek(d->zpages, d->fd, &at, &d->probe, &d->probe_cap,
			      &len, &d->probe_in, &d->probe_in_cap) > 0)
		p->ix_ts[j] = pages_time(d, (const char *)d->probe, len);
	return p->ix_ts[j];
}

/* A CPU's bytes of pages (decompressed where they are compressed). */
static uint64_t cpu_bytes(const struct page_src *p)
{
	if (!p->chunked)
		return 0;
	return p->start.raw || !p->ix.nr ? p->start.end - p->start.off :
	       p->ix.bytes;
}

/*
 * A CPU's weight in the parts: its data's bytes in the file (compressed
 * where it is), or 1 where libtracecmd reads the pages.
 */
static uint64_t cpu_weight(const struct dat *d, int cpu)
{
	const struct page_src *p = d->pages ? &d->pages[cpu] : NULL;

	return p && p->chunked && p->start.end > p->start.off ?
	       p->start.end - p->start.off : 1;
}

static int seek_chunks(struct lt_reader *r, struct dat *d, uint64_t ts);

/*
 * A part in time is a set of segments of about this many bytes of the
 * file: many more than the parts, so that each part has its share of
 * the work wherever it lies, and small enough that the text a printer
 * makes of a segment can wait whole while an earlier one is written.
 */
#define SEG_BYTES	(1 << 20)
#define SEG_MAX		64	/* per part */
#define SEG_SAMPLES	256	/* block times read per CPU */
#define SEG_SAMPLES_Z	32	/* compressed: each one is decompressed */
#define SEG_SAMPLES_ALL	4096	/* all CPUs' */

/* A CPU's block sampled: its time, and the CPU's bytes before it. */
struct seg_sample {
	uint64_t ts;
	uint64_t before;
};

/* One CPU's samples, in time order, and its bytes in all. */
struct seg_cpu {
	const struct seg_sample *s;
	size_t n;
	uint64_t bytes;
};

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * The bytes of a CPU's pages that come before time @t: linear between
 * its samples, all of them from its last one on (that is its last block).
 */
static double bytes_before(const struct seg_cpu *c, uint64_t t)
{
	size_t lo = 0, hi = c->n, mid;
	const struct seg_sample *x, *y;

	while (lo < hi) {	/* the first sample after @t */
		mid = lo + (hi - lo) / 2;
		if (c->s[mid].ts <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return 0;
	if (lo == c->n)
		return c->bytes;
	x = &c->s[lo - 1];
	y = &c->s[lo];
	return x->before + (double)(t - x->ts) / (y->ts - x->ts) *
			   (y->before - x->before);
}

/* Blocks sampled per CPU: fewer when there are many CPUs. */
static size_t seg_samples(const struct page_src *p, size_t blocks, int cpus)
{
	size_t m = p->start.raw ? SEG_SAMPLES : SEG_SAMPLES_Z;

	if (m > SEG_SAMPLES_ALL / (size_t)cpus)
		m = SEG_SAMPLES_ALL / (size_t)cpus;
	if (m < 2)
		m = 2;
	return blocks < m ? blocks : m;
}

/*
 * The times that cut the file into @nseg segments of equal bytes: cut[0]
 * is 0. Each CPU's bytes before a time are interpolated between the
 * times of some of its blocks, the last one among them; the cuts are
 * where their sum crosses each share. Returns how many segments the
 * samples allow (fewer when times repeat), -1 if out of memory.
 */
static int seg_cuts(struct lt_reader *r, struct dat *d, uint64_t **cut_out,
		    int nseg)
{
	uint64_t blocks, b, per, total = 0, *ts, *cut, t;
	struct seg_sample *s;
	struct seg_cpu *sc;
	double want, f, prev_f = 0;
	size_t nr = 0, i, m, j;
	struct page_src *p;
	int cpu, c = 1, n;

	/* at least 2 per CPU: SEG_SAMPLES_ALL, or 2 per CPU past 2048 */
	s = calloc(SEG_SAMPLES_ALL + 2 * (size_t)r->nr_cpus, sizeof(*s));
	ts = calloc(SEG_SAMPLES_ALL + 2 * (size_t)r->nr_cpus, sizeof(*ts));
	sc = calloc(r->nr_cpus, sizeof(*sc));
	cut = calloc(nseg, sizeof(*cut));
	if (!s || !ts || !sc || !cut)
		goto oom;
	for (cpu = 0; cpu < r->nr_cpus; cpu++) {
		p = &d->pages[cpu];
		blocks = !p->chunked ? 0 : p->start.raw ? p->start.left :
			 p->ix.nr;
		if (!blocks)
			continue;
		sc[cpu].s = s + nr;
		sc[cpu].bytes = cpu_bytes(p);
		total += sc[cpu].bytes;
		per = sc[cpu].bytes / blocks;
		m = seg_samples(p, blocks, r->nr_cpus);
		for (j = 0; j < m; j++) {
			b = m > 1 ? j * (blocks - 1) / (m - 1) : 0;
			t = p->start.raw ? lt_dat_block_ts(d->zpages, d->fd,
							   &p->start, b) :
					   chunk_ts(d, p, b);
			/* an empty page has no time; times only grow */
			if (!t || (sc[cpu].n && t <= s[nr - 1].ts))
				continue;
			s[nr].ts = t;
			s[nr].before = b * per;
			ts[nr++] = t;
			sc[cpu].n++;
		}
	}
	qsort(ts, nr, sizeof(*ts), cmp_u64);
	/* between two sample times every CPU's count is linear: so is the sum */
	for (i = 0; i < nr && c < nseg; i++) {
		for (f = 0, n = 0; n < r->nr_cpus; n++)
			if (sc[n].n)
				f += bytes_before(&sc[n], ts[i]);
		while (c < nseg && f >= (want = (double)total * c / nseg)) {
			t = ts[i];
			if (i && f > prev_f)
				t = ts[i - 1] + (want - prev_f) / (f - prev_f) *
						(ts[i] - ts[i - 1]);
			if (t > cut[c - 1])
				cut[c++] = t;
			else
				break;
		}
		prev_f = f;
	}
	free(s);
	free(ts);
	free(sc);
	*cut_out = cut;
	return c;
oom:
	free(s);
	free(ts);
	free(sc);
	free(cut);
	return -1;
}

/* Documented in lt-internal.h. */
bool lt_dat_compressed(const struct lt_reader *r)
{
	const struct dat *d = r->priv;
	int cpu;

	if (r->ops != &dat_ops || !d || !d->chunked)
		return false;
	for (cpu = 0; cpu < r->nr_cpus; cpu++)
		if (d->pages[cpu].chunked && !d->pages[cpu].start.raw)
			return true;
	return false;
}

/* Documented in lt-internal.h. */
bool lt_dat_cuts_in_time(const struct lt_reader *r)
{
	const struct dat *d = r->priv;
	int cpu;

	if (r->ops != &dat_ops || !d || !d->chunked)
		return false;
	for (cpu = 0; cpu < r->nr_cpus; cpu++)
		if (d->pages[cpu].chunked && !d->pages[cpu].start.raw &&
		    !d->pages[cpu].ix.nr)
			return false;
	return true;
}

/*
 * An event as lt_dat_pack() copies it: no pointer into the reader's
 * strings (the taker names the event by its type and the task by its
 * pid), then @missed if it is not 0, then the kind's members, then a
 * stack's addresses.
 */
struct packed {
	uint64_t ts;
	int32_t pid;
	uint32_t type;
	uint16_t cpu;		/* at most 8192 CPUs (lt_dat_open()) */
	uint16_t size;		/* all its bytes */
	uint8_t kind;
	uint8_t flags;
	uint8_t pc;
	uint8_t missed;		/* a uint64_t follows */
};

/* Copies are in units of this: the compiler moves each in one or two. */
#define PACK_UNIT	32
_Static_assert(sizeof(struct lt_event) % PACK_UNIT == 0 &&
	       offsetof(struct lt_event, u) % PACK_UNIT == 0,
	       "a copy's last unit is within the event");

/*
 * A function's name is copied as its address, named by the taker: the
 * kallsyms are then parsed by one reader, not by each (and a name's 64
 * bytes are 8). Kinds whose members are all addresses, or a time.
 */
static bool names_later(enum lt_event_kind kind)
{
	return kind == LT_EV_HRTIMER_EXPIRE_ENTRY ||
	       kind == LT_EV_HRTIMER_START || kind == LT_EV_FUNCTION;
}

/* The record's two fields: the function and the expiry, or the parent. */
static void pack_addrs(const struct dat *d, uint32_t type, uint64_t *addr)
{
	struct event_info *ei = event_info((struct dat *)d, type);

	addr[0] = ei && ei->f[0] ? num(ei->f[0], d->rec) : 0;
	addr[1] = ei && ei->f[1] ? num(ei->f[1], d->rec) : 0;
}

static void unpack_addrs(struct dat *d, const uint64_t *addr,
			 struct lt_event *ev)
{
	switch (ev->kind) {
	case LT_EV_HRTIMER_START:
		ev->u.hrtimer.expires = addr[1];
		/* fall through */
	case LT_EV_HRTIMER_EXPIRE_ENTRY:
		func_name(d, addr[0], ev->u.hrtimer.func,
			  sizeof(ev->u.hrtimer.func));
		break;
	default:
		func_name(d, addr[0], ev->u.function.func,
			  sizeof(ev->u.function.func));
		func_name(d, addr[1], ev->u.function.parent,
			  sizeof(ev->u.function.parent));
		break;
	}
}

static void copy_units(void *to, const void *from, size_t n)
{
	size_t i;

	for (i = 0; i < n; i += PACK_UNIT)
		memcpy((char *)to + i, (const char *)from + i, PACK_UNIT);
}

/* Documented in lt-internal.h. */
void lt_dat_set_packing(struct lt_reader *r)
{
	struct dat *d = r->priv;

	if (r->ops == &dat_ops && d)
		d->packing = true;
}

/* Documented in lt-internal.h. */
size_t lt_dat_pack(const struct lt_reader *r, const struct lt_event *ev,
		   void *to)
{
	const struct dat *d = r->priv;
	size_t body = lt_event_payload_size(ev), ips = 0, off, size;
	struct packed *p = to;

	if (ev->kind == LT_EV_KERNEL_STACK && ev->u.stack.ip)
		ips = ev->u.stack.nr * sizeof(*ev->u.stack.ip);
	if (names_later(ev->kind))
		body = 2 * sizeof(uint64_t);
	off = sizeof(*p) + (ev->missed ? sizeof(ev->missed) : 0);
	size = off + ((body + 7) & ~(size_t)7) + ips;
	if (!to)
		return size;
	p->ts = ev->ts;
	p->pid = ev->pid;
	p->type = d->rec_type;
	p->cpu = ev->cpu;
	p->size = size;
	p->kind = ev->kind;
	p->flags = ev->flags;
	p->pc = ev->preempt_count;
	p->missed = ev->missed != 0;
	if (ev->missed)
		memcpy(p + 1, &ev->missed, sizeof(ev->missed));
	if (names_later(ev->kind)) {
		pack_addrs(d, p->type, (uint64_t *)((char *)to + off));
		return size;
	}
	copy_units((char *)to + off, &ev->u,
		   (body + PACK_UNIT - 1) & ~(size_t)(PACK_UNIT - 1));
	if (ips)
		memcpy((char *)to + size - ips, ev->u.stack.ip, ips);
	return size;
}

/* Documented in lt-internal.h. */
size_t lt_dat_unpack(struct lt_reader *r, const void *from,
		     struct lt_event *ev)
{
	const struct packed *p = from;
	struct dat *d = r->priv;
	struct event_info *ei;
	size_t off = sizeof(*p), body;

	ev->ts = p->ts;
	ev->missed = 0;
	if (p->missed) {
		memcpy(&ev->missed, p + 1, sizeof(ev->missed));
		off += sizeof(ev->missed);
	}
	ev->cpu = p->cpu;
	ev->pid = p->pid;
	ev->flags = p->flags;
	ev->preempt_count = p->pc;
	ev->comm = comm_of(d, ev->pid);
	ev->kind = p->kind;
	/* the common case inline: a type met before */
	ei = p->type < (uint32_t)d->nr_info && d->info[p->type].known ?
	     (d->info[p->type].event ? &d->info[p->type] : NULL) :
	     event_info(d, p->type);
	ev->system = ei ? ei->event->system : "";
	ev->name = ei ? ei->event->name : LT_UNKNOWN_EVENT;
	body = p->size - off;
	if (names_later(ev->kind)) {
		unpack_addrs(d, (const uint64_t *)((const char *)from + off),
			     ev);
		return p->size;
	}
	if (ev->kind == LT_EV_KERNEL_STACK) {
		memcpy(&ev->u.stack, (const char *)from + off,
		       sizeof(ev->u.stack));
		if (ev->u.stack.ip)
			ev->u.stack.ip = (const uint64_t *)((const char *)from +
							   p->size) -
					 ev->u.stack.nr;
		if (ev->u.stack.syms)
			ev->u.stack.syms = &d->syms.s;
		return p->size;
	}
	copy_units(&ev->u, (const char *)from + off,
		   (body + PACK_UNIT - 1) & ~(size_t)(PACK_UNIT - 1));
	return p->size;
}

/*
 * Part @k of @n in time: every @n-th segment from the @k-th. 0 when the
 * file cannot be cut in time (compressed chunks without an index, or too
 * few block times to cut), -1 if out of memory.
 */
static int set_time_part(struct lt_reader *r, struct dat *d, int k, int n)
{
	uint64_t *cut = NULL;
	int nseg, i, c;

	nseg = lt_dat_time_cuts(r, n, &cut);
	if (nseg < 2)
		return nseg < 0 ? -1 : 0;
	d->seg = calloc(2 * ((size_t)nseg / n + 1), sizeof(*d->seg));
	if (!d->seg) {
		free(cut);
		return -1;
	}
	for (i = k, c = 0; i < nseg; i += n, c++) {
		d->seg[2 * c] = cut[i];
		d->seg[2 * c + 1] = i + 1 < nseg ? cut[i + 1] : UINT64_MAX;
	}
	d->nr_seg = c;
	free(cut);
	if (c && d->seg[0] && seek_chunks(r, d, d->seg[0]))
		return -1;
	return 1;
}

/* Documented in lt-internal.h. */
int lt_dat_time_cuts(struct lt_reader *r, int parts, uint64_t **cut)
{
	struct dat *d = r->priv;
	uint64_t size = 0;
	int cpu, nseg;

	*cut = NULL;
	if (!lt_dat_cuts_in_time(r))
		return 0;
	for (cpu = 0; cpu < r->nr_cpus; cpu++)
		size += cpu_bytes(&d->pages[cpu]);
	/* a small file still in segments: the same code for every size */
	nseg = size / SEG_BYTES;
	if (nseg > SEG_MAX * parts)
		nseg = SEG_MAX * parts;
	if (nseg < 2 * parts)
		nseg = 2 * parts;
	nseg = seg_cuts(r, d, cut, nseg);
	if (nseg < 2) {
		free(*cut);
		*cut = NULL;
	}
	return nseg;
}

/* Documented in lt-internal.h. */
int lt_dat_read_span(struct lt_reader *r, uint64_t from, uint64_t to)
{
	struct dat *d = r->priv;
	bool next_to;
	int cpu;

	if (r->ops != &dat_ops || !d || !d->chunked || d->skip ||
	    (d->seg && d->nr_seg != 1) || from >= to)
		return -1;
	if (!d->seg) {
		d->seg = calloc(2, sizeof(*d->seg));
		if (!d->seg)
			return -1;
	}
	/* where the last span ended, the next records are pending already */
	next_to = d->span_end && !r->failed && d->seg[1] == from;
	d->span_end = false;
	d->seg[0] = from;
	d->seg[1] = to;
	d->nr_seg = 1;
	d->cur_seg = 0;
	for (cpu = 0; d->folded && cpu < r->nr_cpus; cpu++)
		d->folded[cpu].rec = NULL;
	return next_to ? 0 : seek_chunks(r, d, from);
}

/* Documented in lt-internal.h. */
void lt_dat_prepare(struct lt_reader *r)
{
	struct dat *d = r->priv;
	struct tep_event **ev;

	if (r->ops != &dat_ops || !d)
		return;
	read_cmdlines(d);
	if (d->syms.tep != d->tep)
		return;
	/* the functions exact_function() names, if events may have any */
	ev = tep_list_events(d->tep, TEP_EVENT_SORT_ID);
	for (; ev && *ev; ev++) {
		if (names_later(lt_event_kind_of((*ev)->system,
						 (*ev)->name))) {
			build_ksyms(d);
			break;
		}
	}
}

/* Documented in lt-internal.h. */
int lt_dat_span_end(struct lt_reader *r, uint64_t to)
{
	struct dat *d = r->priv;

	if (r->ops != &dat_ops || !d || !d->seg || d->nr_seg != 1 ||
	    d->span_end || to <= d->seg[0] || to > d->seg[1])
		return -1;
	d->seg[1] = to;
	return 0;
}

/* Documented in lt-internal.h. */
int lt_dat_set_part(struct lt_reader *r, int k, int n, bool in_time)
{
	struct dat *d = r->priv;
	uint64_t *load, w, best_w;
	int *part, cpu, i, best, ret;

	if (r->ops != &dat_ops || !d || d->rec || d->skip || d->seg || n < 1 ||
	    k < 0 || k >= n || r->nr_cpus < 1)
		return -1;
	if (in_time) {
		ret = set_time_part(r, d, k, n);
		if (ret)
			return ret < 0 ? -1 : 0;
	}
	part = malloc(r->nr_cpus * sizeof(*part));
	load = calloc(n, sizeof(*load));
	d->skip = calloc(r->nr_cpus, sizeof(*d->skip));
	if (!part || !load || !d->skip) {
		free(part);
		free(load);
		free(d->skip);
		d->skip = NULL;
		return -1;
	}
	/* the heaviest CPU first, each to the lightest part: the same for any k */
	for (cpu = 0; cpu < r->nr_cpus; cpu++)
		part[cpu] = -1;
	for (i = 0; i < r->nr_cpus; i++) {
		best = -1;
		best_w = 0;
		for (cpu = 0; cpu < r->nr_cpus; cpu++) {
			w = cpu_weight(d, cpu);
			if (part[cpu] < 0 && (best < 0 || w > best_w)) {
				best = cpu;
				best_w = w;
			}
		}
		part[best] = 0;
		for (cpu = 1; cpu < n; cpu++)
			if (load[cpu] < load[part[best]])
				part[best] = cpu;
		load[part[best]] += best_w;
	}
	for (cpu = 0; cpu < r->nr_cpus; cpu++) {
		d->skip[cpu] = part[cpu] != k;
		if (d->skip[cpu] && d->pending[cpu]) {
			/* the open's first records, for the first time */
			put_rec(d, d->pending[cpu]);
			d->pending[cpu] = NULL;
		}
	}
	free(part);
	free(load);
	return 0;
}

/*
 * The default: LAZYTRACE_JOBS (a count, or 0 for one per online CPU),
 * else one per online CPU for a large file and one for a small one,
 * whose pages take less time to read than threads to start. Large in
 * pages: a compressed file's are several times its size.
 */
static int default_jobs(const struct lt_reader *r, const struct dat *d)
{
	const char *env = getenv("LAZYTRACE_JOBS");
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	uint64_t pages = 0;
	char *end;
	long n;
	int cpu;

	if (online < 1)
		online = 1;
	if (env && *env) {
		n = strtol(env, &end, 10);
		if (!*end && n >= 0 && n <= 1024)
			return n ? (int)n : (int)online;
	}
	for (cpu = 0; d->pages && cpu < r->nr_cpus; cpu++)
		pages += cpu_bytes(&d->pages[cpu]);
	return r->size >= JOBS_AUTO_SIZE || pages >= JOBS_AUTO_SIZE ?
	       (int)online : 1;
}

static void stop_workers(struct dat *d)
{
	int i;

	if (!d->w.nr)
		return;
	pthread_mutex_lock(&d->w.lock);
	d->w.stop = true;
	pthread_cond_broadcast(&d->w.work);
	pthread_mutex_unlock(&d->w.lock);
	for (i = 0; i < d->w.nr; i++)
		pthread_join(d->w.tid[i], NULL);
	free(d->w.tid);
	d->w.tid = NULL;
	free(d->w.arg);
	d->w.arg = NULL;
	d->w.nr = 0;
	pthread_mutex_destroy(&d->w.lock);
	pthread_cond_destroy(&d->w.work);
	pthread_cond_destroy(&d->w.ready);
}

/* (Re)start every CPU at its first record. */
static void dat_rewind(struct lt_reader *r, struct dat *d)
{
	int cpu;

	d->span_end = false;
	for (cpu = 0; cpu < r->nr_cpus; cpu++) {
		if (d->skip && d->skip[cpu])
			continue;
		if (d->chunked)
			chunks_from(d, &d->pages[cpu], &d->pages[cpu].start);
		put_rec(d, d->pending[cpu]);
		d->pending[cpu] = read_rec(r, d, cpu, true, 0);
		if (d->folded)
			d->folded[cpu].rec = NULL;
	}
	d->started = true;
}

static struct kbuffer *page_kbuffer(struct dat *d)
{
	return kbuffer_alloc(page_long(d) == 4 ? KBUFFER_LSIZE_4 :
						KBUFFER_LSIZE_8,
			     tep_is_file_bigendian(d->tep) ? KBUFFER_ENDIAN_BIG :
							     KBUFFER_ENDIAN_LITTLE);
}

/* The CPU's next chunk into the buffer not in use: 1, 0 at the end, -1. */
static int next_chunk(struct lt_reader *r, struct dat *d,
		      struct page_src *p)
{
	struct lt_dat_chunks at;
	char msg[LT_ERR_LEN];
	size_t len;
	uint64_t idx;
	int ret;

	if (!d->w.tried && d->jobs > 1)
		start_workers(r, d);
	if (d->w.nr) {
		ret = take_ahead(r, d, p, &at, &len);
		if (ret <= 0)
			return ret;
	} else {
		at = p->it;
		p->cur ^= 1;
		ret = lt_dat_chunk(d->zpages, d->fd, &p->it, &p->cbuf[p->cur],
				   &p->ccap[p->cur], &len, msg, sizeof(msg));
		if (ret < 0)
			lt_reader_fail(r, "%s", msg);
		if (ret <= 0)
			return ret;
	}
	p->buf = (const char *)p->cbuf[p->cur];
	p->len = len;
	p->off = 0;
	p->base = at.off;
	/* an indexed chunk's time, free now, for seeks */
	idx = p->start.left - at.left;
	if (!at.raw && p->ix_ts && idx % p->ix.every == 0 &&
	    idx / p->ix.every < p->ix.nr)
		p->ix_ts[idx / p->ix.every] = pages_time(d, p->buf, len);
	return 1;
}

/*
 * After a seek, whether the page at @p->off is passed over unread: the
 * page after next starts before the time sought (so this page's events,
 * and the next page's, lie before it: a graph entry that a return on or
 * after that time may fold into lies at most one page before the
 * return). Pages are read again from the first that may matter.
 */
static bool seek_skips(struct dat *d, struct page_src *p)
{
	uint64_t ts;

	if (p->len - p->off >= 3 * (size_t)d->sub_size) {
		ts = page_time(d, p->buf + p->off + 2 * d->sub_size);
		if (ts && ts < p->seek_ts)
			return true;
	}
	p->seek_ts = 0;
	return false;
}

/*
 * The next record of a CPU's pages: the kernel's own ring-buffer pages,
 * which kbuffer walks as libtracecmd does for a file's.
 */
static struct tep_record *page_rec(struct lt_reader *r, struct dat *d,
				   int cpu)
{
	struct page_src *p = &d->pages[cpu];
	struct tep_record *rec;
	unsigned long long ts;
	void *data = NULL;
	bool first;

	for (;;) {
		if (p->loaded) {
			first = p->first;
			p->first = false;
			data = first ? kbuffer_read_event(p->kb, &ts) :
				       kbuffer_next_event(p->kb, &ts);
			if (data)
				break;
			p->loaded = false;
		}
		if (p->len - p->off < (size_t)d->sub_size) {
			if (p->chunked && next_chunk(r, d, p) > 0)
				continue;
			return NULL;
		}
		if (p->seek_ts && seek_skips(d, p)) {
			p->off += d->sub_size;
			continue;
		}
		p->page_off = p->off;
		p->off += d->sub_size;
		if (kbuffer_load_subbuffer(p->kb, (void *)(p->buf + p->page_off)) < 0)
			continue;
		p->loaded = true;
		p->first = true;
		p->missed = kbuffer_missed_events(p->kb);
	}
	rec = &p->rec[p->slot];
	p->slot ^= 1;
	memset(rec, 0, sizeof(*rec));
	rec->ts = ts;
	rec->data = data;
	rec->size = kbuffer_event_size(p->kb);
	rec->offset = p->page_off + kbuffer_curr_offset(p->kb);
	/* in the file: the record's, or its compressed chunk's */
	if (p->chunked)
		rec->offset = p->start.raw ? p->base + rec->offset : p->base;
	rec->cpu = cpu;
	rec->missed_events = first ? p->missed : 0;
	return rec;
}

/* Documented in lt-internal.h. */
int lt_dat_continue(struct lt_reader *r, const char *const *buf,
		    const size_t *len, int page_size, const char *comms)
{
	struct dat *d = r->priv;
	char comm[LT_COMM_LEN];
	const char *p, *next;
	int cpu, pid;

	if (r->ops != &dat_ops || !d || page_size <= 0)
		return -1;
	stop_workers(d);	/* the file's pages are done */
	d->w.tried = true;
	if (!d->pages) {
		d->pages = calloc(r->nr_cpus, sizeof(*d->pages));
		if (!d->pages)
			return -1;
		for (cpu = 0; cpu < r->nr_cpus; cpu++) {
			d->pages[cpu].kb = page_kbuffer(d);
			if (!d->pages[cpu].kb)
				return -1;
		}
		/* libtracecmd's records go back before pages take over */
		if (d->rec)
			tracecmd_free_record(d->rec);
		for (cpu = 0; cpu < r->nr_cpus; cpu++)
			if (d->pending[cpu])
				tracecmd_free_record(d->pending[cpu]);
		free(d->consumed);
		d->consumed = NULL;
	}
	d->rec = NULL;
	for (cpu = 0; cpu < r->nr_cpus; cpu++) {
		d->pending[cpu] = NULL;
		if (d->folded)
			d->folded[cpu].rec = NULL;
		d->pages[cpu].buf = buf[cpu];
		d->pages[cpu].len = len[cpu];
		d->pages[cpu].off = 0;
		d->pages[cpu].loaded = false;
		/* the file's own pages, if it was read that way, are done */
		d->pages[cpu].chunked = false;
	}
	d->chunked = false;
	d->sub_size = page_size;
	d->started = false;
	/*
	 * Tasks that appeared since: registered, never overridden, so that
	 * names already handed out stay valid.
	 */
	read_cmdlines(d);
	for (p = comms; p && *p; p = next) {
		next = strchrnul(p, '\n');
		if (*next)
			next++;
		if (sscanf(p, "%d %31[^\n]", &pid, comm) == 2)
			tep_register_comm(d->tep, comm, pid);
	}
	memset(d->comm_cache, 0, sizeof(d->comm_cache));
	return 0;
}

/* Merge the CPUs by timestamp; ties go to the lower CPU. */
static struct tep_record *dat_take(struct lt_reader *r, struct dat *d,
				   int *cpu_out)
{
	struct tep_record *rec;
	int cpu, best = -1;

	if (!d->started)
		dat_rewind(r, d);
	if (d->unordered) {
		lt_reader_fail(r, "CPU %d's times go backwards at offset %llu: a part in time cannot be read, only the whole file",
			       d->unordered - 1,
			       (unsigned long long)d->unordered_at);
		return NULL;
	}
	for (cpu = 0; cpu < r->nr_cpus; cpu++) {
		if (!d->pending[cpu])
			continue;
		if (best < 0 || d->pending[cpu]->ts < d->pending[best]->ts)
			best = cpu;
	}
	if (best < 0)
		return NULL;
	/* a span's end: what follows stays pending for the next span */
	if (d->span_end || (d->seg && d->nr_seg == 1 && !d->skip &&
			    d->pending[best]->ts >= d->seg[1])) {
		d->span_end = true;
		return NULL;
	}
	rec = d->pending[best];
	d->pending[best] = read_rec(r, d, best, false, rec->offset);
	/*
	 * A part in time drops what lies before its segment: a record
	 * whose time is before its CPU's last would be lost, where the
	 * whole file's merge takes it next. The part ends there instead.
	 */
	if (d->seg && d->pending[best] && d->pending[best]->ts < rec->ts) {
		d->unordered = best + 1;
		d->unordered_at = d->pending[best]->offset;
	}
	*cpu_out = best;
	return rec;
}

/*
 * libtracecmd maps each CPU's whole data section and keeps it mapped, so
 * the resident size would grow with the file. Pages read through are
 * dropped from the mapping, a megabyte at a time, when /proc/self/maps
 * shows them in a private read-only file mapping: touching such a page
 * again just faults it back in from the file. Anywhere else (memory
 * libtracecmd allocated, e.g. for decompressed data) they stay.
 */
#define DROP_BATCH (1UL << 20)

/*
 * The mapping around @addr from /proc/self/maps into @c, and whether it is
 * a private read-only file mapping. Read with strtoul: this runs again
 * whenever a CPU's pages move to another mapping.
 */
static void find_mapping(struct consumed *c, uintptr_t addr)
{
	unsigned long start, end;
	char line[512], *p;
	FILE *fp = fopen("/proc/self/maps", "re");

	c->map_lo = c->map_hi = 0;
	c->map_file = false;
	if (!fp)
		return;
	while (fgets(line, sizeof(line), fp)) {
		start = strtoul(line, &p, 16);
		if (*p != '-')
			continue;
		end = strtoul(p + 1, &p, 16);
		if (addr < start || addr >= end || *p != ' ')
			continue;
		c->map_lo = start;
		c->map_hi = end;
		/* "r--p offset dev inode": a non-zero inode is a file */
		c->map_file = !strncmp(p + 1, "r--p ", 5);
		strtoul(p + 6, &p, 16);			/* offset */
		strtoul(p, &p, 16);			/* major */
		if (*p == ':')
			strtoul(p + 1, &p, 16);		/* minor */
		c->map_file = c->map_file && strtoul(p, NULL, 10) != 0;
		break;
	}
	fclose(fp);
}

/*
 * libtracecmd keeps a CPU's data mapped while it reads it, so the mapping
 * found for one page holds for the next ones: /proc/self/maps is read
 * again only when the pages leave it.
 */
static void drop_consumed(struct consumed *c)
{
	if (c->hi > c->lo) {
		if (c->lo < c->map_lo || c->lo >= c->map_hi)
			find_mapping(c, c->lo);
		if (c->map_file && c->hi <= c->map_hi)
			madvise((void *)c->lo, c->hi - c->lo, MADV_DONTNEED);
	}
	c->lo = c->hi = 0;
}

static void page_seen(struct dat *d, int cpu, const void *data)
{
	uintptr_t psize = d->page_size;
	uintptr_t page = (uintptr_t)data & ~(psize - 1);
	struct consumed *c = &d->consumed[cpu];

	if (page == c->cur)
		return;
	if (c->cur && page == c->cur + psize) {
		if (c->hi != c->cur)
			drop_consumed(c);
		if (!c->lo)
			c->lo = c->cur;
		c->hi = page;
		if (c->hi - c->lo >= DROP_BATCH)
			drop_consumed(c);
	} else {
		drop_consumed(c);
	}
	c->cur = page;
}

/*
 * With graph leaves, whether @d->rec is a function_graph entry whose next
 * event on its CPU is its own return: its text (in d->seq) is then the
 * kernel's "func();", and the return is folded into it, not read.
 */
static bool fold_leaf(struct lt_reader *r, struct dat *d)
{
	int n = d->rec->cpu;

	if (!r->graph_leaves || !d->printer || !d->folded || n < 0 ||
	    n >= r->nr_cpus || !d->pending[n] ||
	    !find_event(d, rec_type(d, d->pending[n])) ||
	    !lt_print_fgraph_leaf(d->printer, d->rec, d->pending[n], &d->seq))
		return false;
	d->folded[n].rec = d->pending[n];
	d->folded[n].ts = d->pending[n]->ts;
	return true;
}

/*
 * A part in time takes record d->rec: 1 to keep it; 0 to take the next
 * (it lies before the segment, or ended it and the next segment is
 * sought); -1 at the part's end.
 */
static int seg_take(struct lt_reader *r, struct dat *d)
{
	uint64_t ts = d->rec->ts;
	int cpu;

	if (ts >= d->seg[2 * d->cur_seg + 1]) {
		put_rec(d, d->rec);
		d->rec = NULL;
		if (++d->cur_seg == d->nr_seg)
			return -1;
		for (cpu = 0; d->folded && cpu < r->nr_cpus; cpu++)
			d->folded[cpu].rec = NULL;
		return seek_chunks(r, d, d->seg[2 * d->cur_seg]) ? -1 : 0;
	}
	if (ts >= d->seg[2 * d->cur_seg])
		return 1;
	/*
	 * Before the segment: the part that prints this record makes a leaf
	 * of it if it can, so its return is folded here too. The parts in
	 * time are only for runs that print every event.
	 */
	trace_seq_reset(&d->seq);
	fold_leaf(r, d);
	put_rec(d, d->rec);
	d->rec = NULL;
	return 0;
}

static int dat_next(struct lt_reader *r)
{
	struct dat *d = r->priv;
	int cpu = -1, ret = 1;

	put_rec(d, d->rec);
	d->rec = NULL;
	do {
		if (d->seg && d->cur_seg == d->nr_seg)
			return 0;
		d->rec = dat_take(r, d, &cpu);
		while (d->rec && d->folded && d->folded[cpu].rec == d->rec &&
		       d->folded[cpu].ts == d->rec->ts) {
			d->folded[cpu].rec = NULL;
			put_rec(d, d->rec);
			d->rec = dat_take(r, d, &cpu);
		}
		if (!d->rec)
			return r->failed ? -1 : 0;
		if (d->seg)
			ret = seg_take(r, d);
	} while (!ret);
	if (ret < 0)
		return r->failed ? -1 : 0;
	if (d->consumed && d->rec->data)
		page_seen(d, cpu, d->rec->data);
	return dat_fill(r, d->rec, cpu);
}

/*
 * The reader hands its current record to the printing module, which
 * formats it; only the reader can reach the record.
 */
static size_t dat_payload(struct lt_reader *r, const struct lt_event *ev,
			  char *buf, size_t len)
{
	struct dat *d = r->priv;
	struct event_info *ei;
	ssize_t k;
	int n;

	if (ev->kind == LT_EV_FUNCTION) {
		n = snprintf(buf, len, "%s <-%s", ev->u.function.func,
			     ev->u.function.parent);
		return n < 0 ? 0 : (size_t)n;
	}
	ei = event_info(d, rec_type(d, d->rec));
	if (!ei) {
		n = snprintf(buf, len, "type=%d", rec_type(d, d->rec));
		return n < 0 ? 0 : (size_t)n;
	}
	k = lt_known_print(&ei->print, d->tep, d->rec, buf, len);
	if (k >= 0)
		return k;
	trace_seq_reset(&d->seq);
	if (fold_leaf(r, d))
		;
	else if (d->printer)
		/*
		 * The known events print plainly, libtraceevent is exact for
		 * them; not hrtimer_start, whose mode is __print_symbolic()
		 * over enum names only our printer evaluates.
		 */
		lt_print_info(d->printer, d->rec,
			      ev->kind != LT_EV_OTHER &&
			      ev->kind != LT_EV_HRTIMER_START, &d->seq);
	else
		tep_print_event(d->tep, &d->seq, d->rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&d->seq);
	if (!d->seq.buffer) {
		if (len)
			buf[0] = '\0';
		return 0;
	}
	/* all of it: a %c of 0 leaves a NUL inside the text */
	if (len) {
		size_t c = d->seq.len < len ? d->seq.len : len - 1;

		memcpy(buf, d->seq.buffer, c);
		buf[c] = '\0';
	}
	return d->seq.len;
}

static int dat_field(struct lt_reader *r, const struct lt_event *ev,
		     const char *field, long long *val)
{
	struct dat *d = r->priv;
	struct event_info *ei = event_info(d, rec_type(d, d->rec));
	struct tep_format_field *f;

	if (!ei)
		return -1;
	f = tep_find_any_field(ei->event, field);
	if (!f || (f->flags & (TEP_FIELD_IS_STRING | TEP_FIELD_IS_DYNAMIC |
			       TEP_FIELD_IS_ARRAY)))
		return -1;
	*val = num(f, d->rec);
	return 0;
}

static void free_page_srcs(struct lt_reader *r, struct dat *d);

static void dat_close(struct lt_reader *r)
{
	struct dat *d = r->priv;
	int i;

	if (!d)
		return;
	put_rec(d, d->rec);
	for (i = 0; d->pending && i < r->nr_cpus; i++)
		put_rec(d, d->pending[i]);
	free_page_srcs(r, d);
	lt_dat_pages_free(d->zpages);
	if (d->fd >= 0)
		close(d->fd);
	if (d->handle && d->handle != d->top)
		tracecmd_close(d->handle);
	if (d->top)
		tracecmd_close(d->top);
	free(d->pending);
	free(d->skip);
	free(d->seg);
	free(d->folded);
	free(d->consumed);
	trace_seq_destroy(&d->seq);
	lt_printer_free(d->printer);
	if (d->own_tep)
		tep_free(d->tep);
	lt_ksyms_all_free(&d->symtab);
	free_hdr(d);
	free(d->ksyms_raw);
	free_patches(d);
	free_sources(d);
	free(d->ksyms_text);
	lt_ksyms_free(&d->ksyms);
	free(d->info);
	free(d->probe);
	free(d->probe_in);
	free(d);
	r->priv = NULL;
}

/*
 * The last of @p's indexed compressed chunks that starts before @ts (the
 * first if none does). A chunk without a time counts as later: the seek
 * may start earlier than it needs, never later.
 */
static struct lt_dat_chunks chunk_before(struct dat *d, struct page_src *p,
					 uint64_t ts)
{
	struct lt_dat_chunks at = p->start;
	size_t lo = 0, hi = p->ix.nr, mid, i, known;
	bool moved_lo = false;
	int step = 0;
	uint64_t t;

	/* within the times known already (the chunks read, the samples) */
	known = ix_times(p) ? p->ix.nr : 0;
	for (i = 0; i < known; i++) {
		t = p->ix_ts[i];
		if (t == CHUNK_UNTIMED || !t)
			continue;
		if (t < ts)
			lo = i + 1;
		else if (i < hi)
			hi = i;
	}
	if (hi < lo)
		hi = lo;	/* times out of order: the known ones decide */
	/*
	 * Then in turn: a guess from the time's place between the bounds'
	 * times; the chunk next to it on the time's side (a good guess ends
	 * there); a halving (a bad guess costs a bisection at most twice).
	 */
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (step == 0 && lo && hi < p->ix.nr && p->ix_ts[lo - 1] &&
		    p->ix_ts[hi] != CHUNK_UNTIMED &&
		    p->ix_ts[hi] > p->ix_ts[lo - 1])
			mid = lo + (size_t)((double)(ts - p->ix_ts[lo - 1]) /
					    (p->ix_ts[hi] - p->ix_ts[lo - 1]) *
					    (hi - lo));
		else if (step == 1)
			mid = moved_lo ? lo : hi - 1;
		if (mid >= hi)
			mid = hi - 1;
		step = (step + 1) % 3;
		t = chunk_ts(d, p, mid);
		moved_lo = t && t < ts;
		if (moved_lo)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo) {
		at.off = p->ix.off[lo - 1];
		at.left = p->start.left - (lo - 1) * p->ix.every;
	}
	return at;
}

/*
 * Each CPU from the last block of pages, or compressed chunk, that
 * starts before @ts; the events before @ts are dropped by
 * lt_reader_next().
 */
static int seek_chunks(struct lt_reader *r, struct dat *d, uint64_t ts)
{
	struct lt_dat_chunks at;
	struct page_src *p;
	int cpu;

	d->rec = NULL;
	d->span_end = false;
	for (cpu = 0; cpu < r->nr_cpus; cpu++) {
		if (d->skip && d->skip[cpu])
			continue;
		p = &d->pages[cpu];
		at = p->start;
		if (lt_dat_chunks_seek(d->zpages, d->fd, &at, ts))
			at = chunk_before(d, p, ts);
		chunks_from(d, p, &at);
		p->seek_ts = ts;
		d->pending[cpu] = page_rec(r, d, cpu);
	}
	d->started = true;
	return r->failed ? -1 : 0;
}

static int dat_seek(struct lt_reader *r, uint64_t ts, uint64_t pos)
{
	struct dat *d = r->priv;
	int cpu;

	for (cpu = 0; d->folded && cpu < r->nr_cpus; cpu++)
		d->folded[cpu].rec = NULL;
	if (d->chunked)
		return seek_chunks(r, d, ts);
	if (d->pages)
		return -1;	/* a live interval is read once */
	if (d->rec) {
		tracecmd_free_record(d->rec);
		d->rec = NULL;
	}
	for (cpu = 0; cpu < r->nr_cpus; cpu++) {
		if (d->skip && d->skip[cpu])
			continue;
		if (d->pending[cpu])
			tracecmd_free_record(d->pending[cpu]);
		/* From the end of the data, it needs a mapped page first. */
		d->pending[cpu] = read_rec(r, d, cpu, true, 0);
		if (!d->pending[cpu])
			continue;
		tracecmd_free_record(d->pending[cpu]);
		d->pending[cpu] = NULL;
		if (tracecmd_set_cpu_to_timestamp(d->handle, cpu, ts) == 0)
			d->pending[cpu] = read_rec(r, d, cpu, false, 0);
	}
	d->started = true;
	return r->failed ? -1 : 0;
}

static const struct lt_reader_ops dat_ops = {
	.seek = dat_seek,
	.next = dat_next,
	.payload = dat_payload,
	.field = dat_field,
	.close = dat_close,
};

/* Documented in lt-internal.h. */
void lt_dat_use_symbols(struct lt_reader *r, struct tep_handle *syms)
{
	struct dat *d = r->priv;

	if (r->ops != &dat_ops || !d || !syms)
		return;
	d->syms.tep = syms;
	memset(d->func_cache, 0, sizeof(d->func_cache));
}

static bool has_events(struct tracecmd_input *h)
{
	struct tep_record *rec;
	int cpu, n = tep_get_cpus(tracecmd_get_tep(h));

	for (cpu = 0; cpu < n; cpu++) {
		rec = tracecmd_read_cpu_first(h, cpu);
		if (rec) {
			tracecmd_free_record(rec);
			return true;
		}
	}
	return false;
}

static int pick_buffer(struct lt_reader *r, struct dat *d, const char *want)
{
	int i, n = tracecmd_buffer_instances(d->top);
	struct tracecmd_input *h;

	d->buffer = "";
	if (!want && has_events(d->top)) {
		d->handle = d->top;
		return 0;
	}
	for (i = 0; i < n; i++) {
		const char *name = tracecmd_buffer_instance_name(d->top, i);

		if (want && (!name || strcmp(name, want)))
			continue;
		lt_parse_lock();
		h = tracecmd_buffer_instance_handle(d->top, i);
		lt_parse_unlock();
		if (!h)
			continue;
		if (want || has_events(h)) {
			d->handle = h;
			d->buffer = name;
			return 0;
		}
		tracecmd_close(h);
	}
	if (want && strcmp(want, "") && strcmp(want, "top")) {
		lt_reader_fail(r, "no buffer named '%s' in the trace", want);
		return -1;
	}
	d->handle = d->top;	/* an empty trace is still a trace */
	return 0;
}

/* "Linux host 6.12.118-lazy #1 SMP ... x86_64": release and machine. */
static void read_uname(struct lt_reader *r, struct dat *d, char *machine,
		       size_t msize)
{
	const char *u = d->own_tep ? d->h.uname : tracecmd_get_uname(d->top);
	char sys[64], host[256], rel[128];
	const char *last;

	machine[0] = '\0';
	if (!u || sscanf(u, "%63s %255s %127s", sys, host, rel) != 3)
		return;
	r->kernel = strdup(rel);
	last = strrchr(u, ' ');
	if (last)
		lt_strlcpy(machine, last + 1, msize);
}

/* A stored format by system and name, parsed now if it was not. */
static struct tep_event *event_by_name(struct dat *d, const char *system,
				       const char *name)
{
	size_t i;

	if (d->own_tep)
		for (i = 0; i < d->h.nr_ev; i++) {
			struct hdr_ev *e = &d->h.ev[i];

			if (!e->parsed && !strcmp(d->h.fmt + e->sys, system) &&
			    !strcmp(d->h.fmt + e->name, name))
				parse_format(d, e);
		}
	return tep_find_event_by_name(d->tep, system, name);
}

static bool lazy_bit_arch(const char *machine, struct dat *d)
{
	if (!strcmp(machine, "x86_64") || !strcmp(machine, "aarch64") ||
	    !strncmp(machine, "i686", 4) || !strcmp(machine, "arm64"))
		return true;
	/* No uname: the x86 irq vectors tell the architecture. */
	return !machine[0] &&
	       event_by_name(d, "irq_vectors", "local_timer_entry");
}

static bool has_lazy_count_field(struct dat *d)
{
	struct tep_event **events = tep_list_events(d->tep, TEP_EVENT_SORT_ID);
	size_t k;
	int i;

	/*
	 * The formats not parsed: their common fields' lines, which end at
	 * the first empty line.
	 */
	for (k = 0; d->own_tep && k < d->h.nr_ev; k++) {
		const struct hdr_ev *e = &d->h.ev[k];
		const char *t = d->h.fmt + e->text;
		const char *end;

		if (e->parsed)
			continue;
		end = lt_find(t, t + e->len, "\n\n", 2);
		if (lt_find(t, end ? end : t + e->len,
			    " common_preempt_lazy_count;", 27))
			return true;
	}

	for (i = 0; events && events[i]; i++)
		if (tep_find_common_field(events[i], "common_preempt_lazy_count"))
			return true;
	return false;
}

/* Look for the lazy bit 0x02 in the first events, then rewind. */
struct lazy_scan {
	struct lt_reader *r;
	struct dat *d;
	unsigned long limit;
};

static unsigned long scan_lazy_bit(void *ctx)
{
	struct lazy_scan *sc = ctx;
	struct dat *d = sc->d;
	struct tep_record *rec;
	unsigned long i, seen = 0;
	int cpu;

	for (i = 0; i < sc->limit && !seen; i++) {
		rec = dat_take(sc->r, d, &cpu);
		if (!rec)
			break;
		if (rec->size >= COMMON_HDR_SIZE &&
		    (d->c_flags ? common(d, d->c_flags, rec) :
				  tep_data_flags(d->tep, rec)) & 0x02)
			seen++;
		put_rec(d, rec);
	}
	d->started = false;
	return seen;
}

static void detect_abi(struct lt_reader *r, struct dat *d,
		       const struct lt_open_opts *opts)
{
	struct lazy_scan sc = {
		.r = r,
		.d = d,
		.limit = opts->detect_scan ? opts->detect_scan :
			 DEFAULT_DETECT_SCAN,
	};
	struct lt_abi_hints h = {
		.given = opts->abi,
		.scan_lazy_bit = scan_lazy_bit,
		.scan_ctx = &sc,
	};
	struct lt_abi_choice c;
	char machine[64];

	read_uname(r, d, machine, sizeof(machine));
	h.release = r->kernel;
	if (h.given == LT_ABI_AUTO) {
		h.lazy_count_field = has_lazy_count_field(d);
		if (lazy_bit_arch(machine, d))
			h.lazy_bit_arch = machine[0] ? machine : "x86";
	}
	lt_abi_detect(&h, &c);
	lt_abi_set(r, c.abi, "%s", c.reason);
}

#define OPEN_FLAGS (TRACECMD_FL_LOAD_NO_PLUGINS | \
		    TRACECMD_FL_LOAD_NO_SYSTEM_PLUGINS)

/*
 * The copy of the file libtracecmd reads when lt_dat_check() asked for
 * patches (an event format it must not parse, an empty option, CPU data
 * cut short): in memory (as large as the file: libtracecmd reads the
 * data through the same descriptor), the patches applied, and checked
 * again, now with no patch allowed. -1 with errno set, or EINVAL when
 * the copy still fails the check.
 */
static int patched_copy(struct lt_reader *r, struct dat *d)
{
	int in = open(r->path, O_RDONLY | O_CLOEXEC);
	int out = memfd_create("lazytrace-trace.dat", MFD_CLOEXEC);
	struct lt_dat_pages *pages = NULL;
	uint64_t done = 0;
	char msg[LT_ERR_LEN];
	char buf[1 << 16];
	int saved;
	ssize_t n;
	size_t i;

	if (in < 0 || out < 0)
		goto fail;
	while (done < r->size) {
		n = copy_file_range(in, NULL, out, NULL, r->size - done, 0);
		if (n <= 0) {
			/* not on every file system: copy it ourselves */
			n = pread(in, buf, sizeof(buf), done);
			if (n <= 0 || pwrite(out, buf, n, done) != n)
				goto fail;
		}
		done += n;
	}
	for (i = 0; i < d->nr_patch; i++)
		if (d->patch[i].off + d->patch[i].len > r->size ||
		    pwrite(out, d->patch[i].bytes, d->patch[i].len,
			   d->patch[i].off) != (ssize_t)d->patch[i].len)
			goto fail;
	if (lt_dat_check(out, r->size, NULL, &pages, msg, sizeof(msg))) {
		errno = EINVAL;
		goto fail;
	}
	lt_dat_pages_free(pages);
	close(in);
	lseek(out, 0, SEEK_SET);
	return out;
fail:
	saved = errno;
	if (in >= 0)
		close(in);
	if (out >= 0)
		close(out);
	errno = saved;
	return -1;
}

/*
 * libtracecmd reads the headers in order from its descriptor and closes
 * it when they are bad. A duplicate shares the file position, so it tells
 * how far the library got: the offset an error message can name.
 */
static struct tracecmd_input *open_tracked(int fd, int *pos_fd)
{
	struct tracecmd_input *h;

	*pos_fd = -1;
	if (fd < 0)
		return NULL;
	*pos_fd = dup(fd);
	lt_parse_lock();
	h = tracecmd_open_fd(fd, OPEN_FLAGS);
	lt_parse_unlock();
	/* It closes @fd when the headers are bad, but not the magic. */
	if (!h && fcntl(fd, F_GETFD) != -1)
		close(fd);
	return h;
}

static long long tracked_offset(int pos_fd)
{
	return pos_fd < 0 ? -1 : (long long)lseek(pos_fd, 0, SEEK_CUR);
}

/*
 * The version and byte order of a file lt_dat_check() passed: after the
 * 10-byte magic, the version as text ("6" or "7", NUL-ended), then the
 * endianness byte.
 */
static void file_header(struct lt_reader *r, int fd)
{
	unsigned char h[3];

	if (pread(fd, h, sizeof(h), 10) != sizeof(h) || h[1])
		return;
	r->file_version = h[0] - '0';
	r->big_endian = h[2] != 0;
}

/*
 * Walk the whole file before libtracecmd sees it: Debian's libtracecmd
 * and libtraceevent trust its sizes and offsets (see lt-dat-check.c).
 */
static int check_file(struct lt_reader *r, struct dat *d)
{
	const struct lt_dat_hooks hooks = { .format = keep_format,
					    .kallsyms = keep_kallsyms,
					    .kallsyms_later = keep_kallsyms_later,
					    .patch = keep_patch,
					    .truncated = keep_cut,
					    .ctx = d,
					    .file = keep_file,
					    .header_page = keep_header_page,
					    .event = keep_event,
					    .printk = keep_printk,
					    .cmdlines = keep_cmdlines,
					    .option = keep_option,
					    .cpus = keep_cpus,
					    .all_pages = true };
	char msg[LT_ERR_LEN];
	struct stat st;
	int fd, ret;

	fd = open(r->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		lt_reader_fail(r, "cannot read the trace.dat: %s",
			       fd < 0 ? strerror(errno) : "not a regular file");
		if (fd >= 0)
			close(fd);
		return -1;
	}
	r->size = st.st_size;
	ret = lt_dat_check(fd, st.st_size, &hooks, &d->zpages, msg,
			   sizeof(msg));
	if (!ret)
		file_header(r, fd);
	/* lt_dat_chunk() reads the rest, ksyms_text() the symbols */
	if (d->zpages || d->ksyms_off >= 0 || d->ksyms_packed)
		d->fd = fd;
	else
		close(fd);
	if (ret)
		lt_reader_fail(r, "%s", msg);
	else if (d->patch_oom)
		lt_reader_fail(r, "out of memory");
	r->cut = d->cut;
	return ret || d->patch_oom ? -1 : 0;
}

static void free_page_srcs(struct lt_reader *r, struct dat *d)
{
	int i;

	stop_workers(d);
	for (i = 0; d->pages && i < r->nr_cpus; i++) {
		kbuffer_free(d->pages[i].kb);
		free(d->pages[i].cbuf[0]);
		free(d->pages[i].cbuf[1]);
		free(d->pages[i].ahead[0].buf);
		free(d->pages[i].ahead[1].buf);
		free(d->pages[i].ix_ts);
	}
	free(d->pages);
	d->pages = NULL;
	d->chunked = false;
}

/*
 * Read the buffer's pages ourselves: each compressed chunk is then
 * decompressed once, checked as it is, where libtracecmd would
 * decompress it again after the check; and no record is allocated.
 */
static int use_chunks(struct lt_reader *r, struct dat *d)
{
	struct page_src *p;
	int cpu;

	if (!d->zpages || d->pages)
		return 0;
	d->pages = calloc(r->nr_cpus, sizeof(*d->pages));
	if (!d->pages)
		goto oom;
	d->sub_size = lt_dat_page_size(d->zpages);
	for (cpu = 0; cpu < r->nr_cpus; cpu++) {
		p = &d->pages[cpu];
		p->kb = page_kbuffer(d);
		if (!p->kb)
			goto oom;
		p->chunked = lt_dat_chunks_of(d->zpages, d->buffer, cpu,
					      &p->start);
		lt_dat_chunk_index(d->zpages, d->buffer, cpu, &p->ix);
		chunks_from(d, p, &p->start);
	}
	d->chunked = true;
	/* records are the reader's own: no libtracecmd mapping to drop */
	free(d->consumed);
	d->consumed = NULL;
	return 0;
oom:
	lt_reader_fail(r, "out of memory");
	return -1;
}

/*
 * Whether the file can be opened without libtracecmd: nothing to patch,
 * no option that moves timestamps, every header the parser needs.
 */
/*
 * libtracecmd decompresses the kallsyms section itself: one that does
 * not decompress is refused before it reads the file, as the check
 * refuses it when it does not leave it for later.
 */
static int lib_kallsyms(struct lt_reader *r, struct dat *d)
{
	char err[LT_ERR_LEN];

	if (!d->ksyms_packed || ksyms_unpack(d, err, sizeof(err)))
		return 0;
	lt_reader_fail(r, "%s", err);
	return -1;
}

static bool can_own(const struct dat *d)
{
	return !d->nr_patch && !d->cut && !d->h.odd && !d->h.oom &&
	       d->h.have_cpus && d->h.header_page && d->h.nr_ev &&
	       (d->h.long_size == 4 || d->h.long_size == 8);
}

/*
 * libtraceevent's handle built as libtracecmd builds it, from what the
 * check handed over, less the event formats (parsed when an event of
 * theirs is read) and the kallsyms (parsed when a symbol is needed).
 */
static int open_own(struct lt_reader *r, struct dat *d)
{
	d->tep = tep_alloc();
	if (!d->tep)
		return -1;
	d->own_tep = true;
	if (tep_set_function_resolver(d->tep, resolve_function, d))
		return -1;
	tep_set_file_bigendian(d->tep, d->h.big ? TEP_BIG_ENDIAN :
						  TEP_LITTLE_ENDIAN);
	tep_set_long_size(d->tep, d->h.long_size);
	lt_parse_lock();
	tep_parse_header_page(d->tep, d->h.header_page, d->h.header_page_len,
			      d->h.long_size);
	lt_parse_unlock();
	tep_set_cpus(d->tep, d->h.cpus);
	qsort(d->h.ev, d->h.nr_ev, sizeof(*d->h.ev), cmp_hdr_ev);
	/* one event, for the common fields every event shares */
	parse_format(d, &d->h.ev[0]);
	if (d->h.printk && d->h.printk[0])
		tep_parse_printk_formats(d->tep, d->h.printk);
	r->nr_cpus = d->h.cpus;
	return 0;
}

/* Whether buffer @name has an event; its pages are then set up. */
static bool own_has_events(struct lt_reader *r, struct dat *d,
			   const char *name)
{
	int cpu;

	free_page_srcs(r, d);
	d->buffer = name;
	if (use_chunks(r, d))
		return false;
	dat_rewind(r, d);
	for (cpu = 0; cpu < r->nr_cpus; cpu++)
		if (d->pending[cpu])
			return true;
	return false;
}

/* pick_buffer(), from the BUFFER options. */
static int own_pick_buffer(struct lt_reader *r, struct dat *d,
			   const char *want)
{
	int i;

	if (!want && own_has_events(r, d, ""))
		return 0;
	for (i = 0; i < d->h.nr_buf; i++) {
		if (want && strcmp(d->h.buf[i], want))
			continue;
		if (own_has_events(r, d, d->h.buf[i]) || want)
			return 0;
	}
	if (want && strcmp(want, "") && strcmp(want, "top")) {
		lt_reader_fail(r, "no buffer named '%s' in the trace", want);
		return -1;
	}
	own_has_events(r, d, "");	/* an empty trace is still a trace */
	return 0;
}

/* The first event's time (tracecmd_get_first_ts()), from the pages. */
static uint64_t own_first_ts(struct lt_reader *r, struct dat *d)
{
	uint64_t ts = 0;
	bool any = false;
	int cpu;

	for (cpu = 0; cpu < r->nr_cpus; cpu++)
		if (d->pending[cpu] && (!any || d->pending[cpu]->ts < ts)) {
			ts = d->pending[cpu]->ts;
			any = true;
		}
	return ts;
}

/* The file through libtracecmd: what our own open cannot take. */
static int open_lib(struct lt_reader *r, struct dat *d,
		    const struct lt_open_opts *opts)
{
	long long pos;
	int pos_fd, fd;

	fd = d->nr_patch ? patched_copy(r, d) : open(r->path, O_RDONLY);
	if (fd < 0 && d->nr_patch) {
		lt_reader_fail(r, "cannot make a safe copy of the trace.dat: %s",
			       errno == EINVAL ? "it still fails the check" :
			       strerror(errno));
		return -1;
	}
	free_patches(d);
	d->top = open_tracked(fd, &pos_fd);
	if (!d->top) {
		pos = tracked_offset(pos_fd);
		if (pos_fd >= 0)
			close(pos_fd);
		lt_reader_fail(r, "corrupt or truncated trace.dat: cannot read its headers past offset %lld (file size %llu)",
			       pos < 0 ? 0 : pos, (unsigned long long)r->size);
		return -1;
	}
	close(pos_fd);
	if (pick_buffer(r, d, opts->buffer))
		return -1;
	d->tep = tracecmd_get_tep(d->handle);
	return 0;
}

int lt_dat_open(struct lt_reader *r, const struct lt_open_opts *opts)
{
	struct dat *d;
	int i;

	tracecmd_set_loglevel(TEP_LOG_NONE);
	lt_dat_zlib_register();
	d = calloc(1, sizeof(*d));
	if (!d) {
		lt_reader_fail(r, "out of memory");
		return -1;
	}
	d->fd = -1;
	d->ksyms_off = -1;
	r->priv = d;
	r->ops = &dat_ops;
	r->format = LT_INPUT_TRACE_DAT;
	trace_seq_init(&d->seq);
	if (check_file(r, d))
		return -1;
	if (can_own(d)) {
		if (open_own(r, d)) {
			lt_reader_fail(r, "out of memory");
			return -1;
		}
		d->pending = calloc(r->nr_cpus ? r->nr_cpus : 1,
				    sizeof(*d->pending));
		if (!d->pending) {
			lt_reader_fail(r, "out of memory");
			return -1;
		}
		if (own_pick_buffer(r, d, opts->buffer) || r->failed)
			return -1;
	} else if (lib_kallsyms(r, d) || open_lib(r, d, opts)) {
		return -1;
	}
	sibling_kallsyms(r, d);
	d->syms.s.lookup = dat_symbol;
	d->syms.tep = d->tep;
	d->syms.d = d;
	tep_set_loglevel(TEP_LOG_NONE);
	r->nr_cpus = tep_get_cpus(d->tep);
	d->printer = lt_printer_new(d->tep);
	if (d->printer)
		lt_printer_set_modules(d->printer, &(struct lt_module_lookup){
					       module_of, d, print_symbol });
	for (i = 0; d->printer && i < d->nr_src; i++)
		if (lt_printer_add_format(d->printer, d->src[i].id, d->src[i].fmt))
			d->src_oom = true;
	free_sources(d);
	if (!d->printer || d->src_oom) {
		lt_reader_fail(r, "out of memory");
		return -1;
	}
	find_common_fields(d);
	d->native = tep_is_file_bigendian(d->tep) ==
		    tep_is_local_bigendian(d->tep);
	d->page_size = sysconf(_SC_PAGESIZE);
	if (r->nr_cpus <= 0 || r->nr_cpus > 8192) {
		lt_reader_fail(r, "corrupt trace.dat: %d CPUs", r->nr_cpus);
		return -1;
	}
	if (!d->pending)
		d->pending = calloc(r->nr_cpus, sizeof(*d->pending));
	/* without it, a graph's leaves print as an entry and a return */
	d->folded = calloc(r->nr_cpus, sizeof(*d->folded));
	/* Without it, pages are just not dropped. */
	if (!d->own_tep)
		d->consumed = calloc(r->nr_cpus, sizeof(*d->consumed));
	if (!d->pending) {
		lt_reader_fail(r, "out of memory");
		return -1;
	}
	r->first_ts = d->own_tep ? own_first_ts(r, d) :
		      tracecmd_get_first_ts(d->handle);
	if (use_chunks(r, d))
		return -1;
	d->jobs = default_jobs(r, d);
	detect_abi(r, d, opts);
	lt_printer_set_kernel(d->printer, r->kernel);
	return r->failed ? -1 : 0;
}
