/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Internal interfaces of liblazytrace: the reader back ends.
 */
#ifndef _LT_INTERNAL_H
#define _LT_INTERNAL_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lazytrace.h"
#include "../lt-util.h"

#define LT_ERR_LEN 512

/* The one message for zero bytes of input, from a file, a device or a pipe. */
#define LT_EMPTY_INPUT "empty input, not a trace"
/* the name of an event whose type the file has no format for */
#define LT_UNKNOWN_EVENT "[UNKNOWN EVENT]"

struct lt_reader_ops {
	/* Fill r->ev; 1 on an event, 0 at the end, -1 on error (r->err set). */
	int (*next)(struct lt_reader *r);
	size_t (*payload)(struct lt_reader *r, const struct lt_event *ev,
			  char *buf, size_t len);
	int (*field)(struct lt_reader *r, const struct lt_event *ev,
		     const char *field, long long *val);
	void (*close)(struct lt_reader *r);
	/* Reposition near @ts (before or at); -1 if impossible. */
	int (*seek)(struct lt_reader *r, uint64_t ts, uint64_t pos);
};

struct lt_reader {
	const struct lt_reader_ops *ops;
	void *priv;
	char *path;
	enum lt_input_format format;
	enum lt_abi abi;
	const char *abi_reason;
	char abi_reason_buf[160];
	char *kernel;
	unsigned int flag_columns;	/* as the text shows them; 0: by release */
	/* lt_reader_flag_columns() by release, for the release it was of */
	const char *columns_kernel;
	unsigned int release_columns;
	int nr_cpus;
	uint64_t first_ts;
	uint64_t size;
	uint64_t pos;
	struct lt_event ev;
	uint64_t skip_before;	/* after a seek: drop earlier events */
	bool failed;
	char err[LT_ERR_LEN];
	uint64_t cut;		/* a trace.dat cut short there, or 0 */
	int file_version;	/* a trace.dat's: 6 or 7; 0 for text */
	int big_endian;		/* its byte order: 1 big, 0 little; -1 text */
	bool graph_leaves;	/* lt_reader_graph_leaves() */
};

__attribute__((format(printf, 2, 3)))
void lt_reader_fail(struct lt_reader *r, const char *fmt, ...);

/*
 * Behind lt_run_flag_columns(), lt_run_first_ts() and the run's
 * "graph-leaves" option: internal since report takes them from the run.
 */

/**
 * lt_reader_flag_columns - how many flag columns the kernel printed
 * @r: the reader
 *
 * Kernels before 5.13 print four (irqs-off, need-resched, hardirq/softirq,
 * preempt depth), later ones a fifth, the migrate-disable depth. From the
 * kernel's text as its events show it, else from the release.
 *
 * Return: 4 or 5 (5 when the input does not tell).
 */
unsigned int lt_reader_flag_columns(const struct lt_reader *r);

/**
 * lt_reader_first_ts - timestamp of the first event in the buffer
 * @r: the reader
 *
 * The base of the latency format's relative times.
 *
 * Return: 0 if unknown.
 */
uint64_t lt_reader_first_ts(const struct lt_reader *r);

/**
 * lt_reader_graph_leaves - print a function_graph leaf as one line
 * @r: a reader
 *
 * From now on, a trace.dat's function_graph call with nothing inside
 * (an entry whose next event on its CPU is its own return) prints as
 * the kernel prints it, "func();" with its duration, from the entry's
 * lt_event_payload(); the return is then not returned by
 * lt_reader_next(). For a printer of the kernel's layout; without it,
 * every event is returned and the entry prints as "func() {".
 */
void lt_reader_graph_leaves(struct lt_reader *r);

/* Whether and how `record` enables a known event (lt-tracefs.c). */
enum lt_record_when {
	LT_REC_REQUIRED = 0,	/* always: nothing to record without it */
	LT_REC_ALWAYS,		/* always; a kernel without it is told */
	LT_REC_IF_PRESENT,	/* where the kernel has it, silently */
	LT_REC_SYSCALLS,	/* with lt_tracefs_opts.syscalls */
	LT_REC_NO,		/* known, but not worth recording */
	LT_REC_ELSEWHERE,	/* not an event to enable: the function
				 * tracer, trace_marker, a trigger, a probe */
};

/* An event the analysis knows (lt-events.c): the one list. */
struct lt_known_event {
	const char *system;	/* NULL: any group (a probe of ours) */
	const char *name;
	enum lt_event_kind kind;
	enum lt_record_when record;
	const char *why;	/* what the analysis takes from it */
};

extern const struct lt_known_event lt_known_events[];
extern const size_t lt_nr_known_events;

enum lt_event_kind lt_event_kind_of(const char *system, const char *name);
const char *lt_event_system_of(const char *name);
/* Whether `record` enables @e as a tracefs event. */
bool lt_event_recorded(const struct lt_known_event *e);
/* The systems of the events `record` enables, each once: up to @max. */
size_t lt_record_systems(const char **sys, size_t max);
enum lt_prev_state lt_prev_state_of(const char *str);
/*
 * The bytes of @ev's union that its kind has (from its start; a print's
 * text up to its end): the readers set no others.
 */
size_t lt_event_payload_size(const struct lt_event *ev);

/*
 * A kernel symbol table, for kernel_stack frames: the function that
 * contains @ip, with its start and size; -1 if none does.
 */
struct lt_symbols {
	int (*lookup)(const struct lt_symbols *s, uint64_t ip,
		      const char **name, uint64_t *start, uint64_t *size);
};

/* A kallsyms text's functions by exact address (lt-ksyms.c). */
struct lt_ksyms {
	char *text;
	struct lt_ksym {
		uint64_t addr;
		const char *name;
		const char *mod;	/* "9pnet", or NULL: the kernel's */
	} *sym;			/* in the text's order */
	size_t nr;
	uint32_t *run;		/* where each ascending run of sym starts */
	size_t nr_run;
	/*
	 * The answers for addresses already looked up: a module's symbols
	 * are a run of their own, and each lookup searches every run, so
	 * a kernel with hundreds of modules pays it for each timer and
	 * stack frame printed, most of them the same few functions.
	 */
	struct lt_ksym_memo {
		uint64_t addr;
		const char *exact, *mod;
		bool known;	/* addr was looked up */
	} *memo;
};

int lt_ksyms_init(struct lt_ksyms *k, char *text, size_t len);
const char *lt_ksyms_exact(const struct lt_ksyms *k, uint64_t addr);
const char *lt_ksyms_module(const struct lt_ksyms *k, uint64_t addr);
void lt_ksyms_free(struct lt_ksyms *k);

/*
 * Every symbol of a kallsyms text as libtraceevent's tep_parse_kallsyms()
 * keeps them, for addresses inside functions: the same answers as its
 * tep_find_function_info(), from one pass without sscanf.
 */
struct lt_ksyms_all {
	char *text;
	struct lt_kfunc {
		uint64_t addr;
		const char *name;
		size_t idx;	/* the line's, for the order of equal addresses */
	} *f;			/* by address, then nr entries: a 0 end */
	size_t nr;
};

int lt_ksyms_all_init(struct lt_ksyms_all *t, char *text, size_t len);
const char *lt_ksyms_find(const struct lt_ksyms_all *t, uint64_t addr,
			  uint64_t *start, uint64_t *size);
void lt_ksyms_all_free(struct lt_ksyms_all *t);

/* A kernel_stack event's payload as the kernel prints it (lt-reader.c). */
size_t lt_stack_payload(const struct lt_event *ev, char *buf, size_t len);

int lt_dat_open(struct lt_reader *r, const struct lt_open_opts *opts);

/*
 * Resolve kernel addresses of trace.dat reader @r with @syms (a
 * libtraceevent handle that holds a kallsyms table) instead of the file's
 * own: the live reader parses kallsyms once, not once per interval.
 */
struct tep_handle;
void lt_dat_use_symbols(struct lt_reader *r, struct tep_handle *syms);
/*
 * Threads reading a trace.dat's pages (decompressing and checking each
 * CPU's next chunks while the reader decodes): @jobs counts the reader's
 * own, so 1 is none. Any time before the events are read; ignored for
 * other inputs. The default is lt_dat_open()'s (LAZYTRACE_JOBS, or by
 * the file's size).
 */
void lt_dat_set_jobs(struct lt_reader *r, int jobs);
/* The threads trace.dat reader @r reads with (1 for other inputs). */
int lt_dat_jobs(const struct lt_reader *r);
/*
 * Read only part @k (from 0) of @n of a trace.dat, the same split for
 * every @k, so that @n readers of one file, each with its part, read
 * every event once. @in_time: where the file has blocks or chunks enough
 * to cut, a part is every @n-th of segments in time,
 * balanced by bytes (a caller that merges the parts then has them
 * equally busy); else, and without @in_time, it is a set of CPUs,
 * balanced by their bytes in the file. Before the first event is taken,
 * once; -1 for other inputs, a bad part, a second call or out of memory.
 */
int lt_dat_set_part(struct lt_reader *r, int k, int n, bool in_time);
/*
 * Whether trace.dat reader @r reads compressed pages (which lt_dat_jobs()
 * threads decompress ahead of it).
 */
bool lt_dat_compressed(const struct lt_reader *r);
/*
 * Whether lt_dat_set_part() can cut @r in time: its pages are uncompressed,
 * or its compressed chunks were indexed when it was checked.
 */
bool lt_dat_cuts_in_time(const struct lt_reader *r);
/*
 * The times that cut trace.dat reader @r into segments balanced by bytes,
 * for @parts readers (lt_dat_set_part()'s): segment i from (*@cut)[i] on,
 * the first from 0, the last to the end. Return: the segments (2 or
 * more, *@cut to be freed), 0 if @r cannot be cut in time, -1 if out of
 * memory.
 */
int lt_dat_time_cuts(struct lt_reader *r, int parts, uint64_t **cut);
/*
 * The times of trace.dat reader @r's compressed chunks it knows (from
 * lt_dat_time_cuts(), the chunks read): a copy, *@n of them, for
 * lt_dat_add_chunk_times() on another reader of the file, which then
 * seeks with no decompression to learn them. NULL if there is none.
 */
uint64_t *lt_dat_chunk_times(const struct lt_reader *r, size_t *n);
void lt_dat_add_chunk_times(struct lt_reader *r, const uint64_t *t,
			    size_t n);
/*
 * Read the events of @r from time @from up to, not including, @to: the
 * reader seeks (in either direction; not when @from is where the last
 * span ended, read to its end: it reads on) and lt_reader_next() ends at
 * @to. Again for each span; not on a part (lt_dat_set_part()). The reader's
 * jobs should be 1. -1 if @r cannot be cut in time (see
 * lt_dat_cuts_in_time()), or the file fails there.
 */
int lt_dat_read_span(struct lt_reader *r, uint64_t from, uint64_t to);
/*
 * Make ready now what naming @r's events will need: the saved command
 * lines, and the kernel's functions if the file has events that name
 * them. For a reader whose events arrive when this thread would wait
 * anyway (another thread reads the file's start); any other reader
 * makes them ready when first needed.
 */
void lt_dat_prepare(struct lt_reader *r);
/*
 * End the span being read (lt_dat_read_span()) at @to instead, before its
 * end: the caller knows no event at or after @to was taken. -1 if none is
 * being read, it ended already, or @to is not inside it.
 */
int lt_dat_span_end(struct lt_reader *r, uint64_t to);
/*
 * An event of trace.dat reader @r, the one lt_reader_next() gave last,
 * copied into @to (8-byte aligned) for a reader of the same file on
 * another thread, which makes the event again with lt_dat_unpack(): the
 * members of its kind, and the type and pid that the other reader names
 * the event and its task by. @to NULL: only the size. Return: the bytes,
 * a multiple of 8. The bytes after them, as many as struct lt_event's,
 * may be written too.
 */
size_t lt_dat_pack(const struct lt_reader *r, const struct lt_event *ev,
		   void *to);
/*
 * The events of trace.dat reader @r are only copied by lt_dat_pack(): it
 * leaves the names of functions (timers' handlers, the function tracer's)
 * to the reader that makes the events again, and the kallsyms unparsed.
 */
void lt_dat_set_packing(struct lt_reader *r);
/*
 * The event lt_dat_pack() copied to @from, made into @ev by @r: its
 * names and comm are @r's, a stack's addresses stay at @from. Return:
 * the bytes at @from, as lt_dat_pack() returned. @from may be read past
 * them, as many bytes as struct lt_event's.
 */
size_t lt_dat_unpack(struct lt_reader *r, const void *from,
		     struct lt_event *ev);

/*
 * Go on with trace.dat reader @r on a live session's next interval: @buf
 * holds each CPU's ring-buffer pages (@len bytes, pages of @page_size),
 * @comms the "pid comm" lines of the tasks that exist now. The formats,
 * symbols and caches parsed for the first interval are kept: parsing a
 * trace.dat per interval cost a live run more than its events did.
 */
int lt_dat_continue(struct lt_reader *r, const char *const *buf,
		    const size_t *len, int page_size, const char *comms);
int lt_text_open(struct lt_reader *r, FILE *fp, const struct lt_open_opts *opts);

/* How a text input is compressed, by its first bytes (lt-zstream.c). */
enum lt_zkind {
	LT_Z_NONE = 0,
	LT_Z_GZIP,
	LT_Z_XZ,
	LT_Z_ZSTD,
};

/* Bytes read ahead to tell the kind of an input. */
#define LT_ZHEAD 16

enum lt_zkind lt_zkind_of(const unsigned char *b, size_t n);
const char *lt_zkind_name(enum lt_zkind kind);

/*
 * A stream that reads @head (bytes already taken from @src) and then
 * @src, decompressed as @kind says. It owns @src (closed unless stdin),
 * even when it fails. Errors go to @r with the compressed offset.
 */
struct zstream;
struct zstream *lt_zstream_new(struct lt_reader *r, FILE *src,
			       enum lt_zkind kind, const unsigned char *head,
			       size_t nhead);
/* The first @len (at most LT_ZHEAD) bytes of the output; read again later. */
size_t lt_zstream_peek(struct zstream *s, unsigned char *buf, size_t len);
/* The stream as a FILE, which owns it; NULL (and freed) on failure. */
FILE *lt_zstream_fopen(struct zstream *s);
void lt_zstream_free(struct zstream *s);

/*
 * What an input tells of the flag ABI of the kernel that wrote it, for
 * lt_abi_detect(): each reader fills in what it knows, 0 for the rest.
 */
struct lt_abi_hints {
	enum lt_abi given;	/* --abi, or LT_ABI_AUTO */
	const char *release;	/* the kernel's release (uname -r), or NULL */
	bool lazy_count_field;	/* events carry common_preempt_lazy_count */
	bool text;		/* the kernel's text: letters, not bits */
	bool x_letter;		/* text: an 'X' (irq flags unsupported) seen */
	bool lazy_letter;	/* text: a lazy need-resched letter seen */
	/*
	 * Where bit 0x02 is never legacy's "irq flags unsupported" (x86,
	 * arm64), its name; NULL elsewhere or when the input does not say.
	 */
	const char *lazy_bit_arch;
	/* Events with bit 0x02 set among the first; called only if needed. */
	unsigned long (*scan_lazy_bit)(void *ctx);
	void *scan_ctx;
};

/* The rule that chose the ABI, strongest first (docs/model.md §2). */
enum lt_abi_rule {
	LT_ABI_BY_OPTION = 0,
	LT_ABI_BY_FIELD,
	LT_ABI_BY_RELEASE,
	LT_ABI_BY_LETTERS,
	LT_ABI_BY_LAZY_BIT,
	LT_ABI_BY_DEFAULT,
};

struct lt_abi_choice {
	enum lt_abi abi;
	enum lt_abi_rule rule;
	char reason[160];
};

/* The one ABI detector (lt-flags.c): every reader and recorder asks it. */
void lt_abi_detect(const struct lt_abi_hints *h, struct lt_abi_choice *out);
void lt_abi_set(struct lt_reader *r, enum lt_abi abi, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

unsigned int lt_flags_encode(enum lt_abi abi, const struct lt_flags *f);

/*
 * The prev_state bit the running kernel's sched_switch prints as "+"
 * (preempted), from its format in tracefs; 0 if it cannot be read.
 */
unsigned long long lt_switch_preempt_bit_local(void);

/* An input's name in messages and results: "-" is "<stdin>". */
static inline const char *lt_input_name(const char *path)
{
	return strcmp(path, "-") ? path : "<stdin>";
}

/*
 * The lazy capability a setup line records (lazy=STATE[:WHY], written by
 * record and live): @state is active, built_in, absent or unknown, and
 * @reason says why in words. Returns -1 when @text has none.
 */
int lt_setup_lazy(const char *text, char *state, size_t state_len,
		  char *reason, size_t reason_len);

#endif /* _LT_INTERNAL_H */
