/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Event printing: an event's info text, as the kernel's trace file shows
 * it, from a trace.dat record. Internal to liblazytrace.
 *
 * The boundary with the trace.dat reader: the reader owns the records
 * (only it can reach libtracecmd's buffers), so its payload operation
 * hands the current record to lt_print_info() and copies the result out;
 * it never formats an event itself.
 */
#ifndef _LT_PRINT_H
#define _LT_PRINT_H

#include <stdbool.h>
#include <stddef.h>

#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

struct lt_printer;

/*
 * The module of the function starting at @start, or NULL (%pS's suffix);
 * and, if @sym is set, the symbol lookup in place of libtraceevent's
 * (same answers as tep_find_function_info(); @size is needed only with
 * @offset), so that a reader can load its symbols when first needed.
 */
struct lt_module_lookup {
	const char *(*fn)(void *ctx, unsigned long long start);
	void *ctx;
	int (*sym)(void *ctx, unsigned long long addr, bool offset,
		   const char **name, unsigned long long *start,
		   unsigned long *size);
};

struct lt_printer *lt_printer_new(struct tep_handle *tep);
void lt_printer_free(struct lt_printer *p);
void lt_printer_set_modules(struct lt_printer *p,
			    const struct lt_module_lookup *mod_of);

/*
 * The kernel release the file was recorded on (uname -r), or NULL when
 * unknown: what the kernel printed differently before a release follows
 * it (the syscall arguments' hex before 6.18). Unknown prints as the
 * newest kernels do.
 */
void lt_printer_set_kernel(struct lt_printer *p, const char *release);

/*
 * The print format of event @id as the file gives it (the text after
 * "print fmt:"), for one libtraceevent may fail to parse: the printer
 * then evaluates a copy with each sizeof() named. Returns -1 when out of
 * memory.
 */
int lt_printer_add_format(struct lt_printer *p, int id, const char *fmt);

/*
 * The info of @rec into @s: what follows "name: " (or, for the syscall
 * events, the whole "sys_x(...)" / "sys_x -> 0x.." text). @fast marks the
 * events the analysis reads (sched, irq, timer): they go straight to
 * libtraceevent, which prints them exactly.
 */
void lt_print_info(struct lt_printer *p, struct tep_record *rec, bool fast,
		   struct trace_seq *s);

/*
 * lt_print_fgraph_leaf - a call with nothing inside, as the kernel prints
 * it: when @rec is a funcgraph_entry and @next, the next record of the
 * same CPU, its own return (same task, same function), the one line
 * "func();" with the call's duration goes into @s and true is returned;
 * the caller then prints no line for @next. False, @s untouched,
 * otherwise.
 */
bool lt_print_fgraph_leaf(struct lt_printer *p, struct tep_record *rec,
			  struct tep_record *next, struct trace_seq *s);

/* Per-construct printers, exposed for the unit tests. */
void lt_print_flags(struct trace_seq *s, unsigned long long v,
		    const char *delim, struct tep_print_flag_sym *flags);
void lt_print_symbolic(struct trace_seq *s, unsigned long long v,
		       struct tep_print_flag_sym *syms);
void lt_print_bitmask(struct trace_seq *s, const void *data, int len,
		      int groups, int long_size, bool big_endian);
void lt_print_hex(struct trace_seq *s, const unsigned char *buf, int len,
		  bool concatenate);
void lt_print_array(struct trace_seq *s, const void *data, int count,
		    int el_size, bool big_endian);
void lt_print_symbol(struct tep_handle *tep, struct trace_seq *s,
		     unsigned long long addr, bool offset,
		     const struct lt_module_lookup *mod_of);
void lt_print_pointer(struct trace_seq *s, unsigned long long v,
		      int long_size);
void lt_print_withheld_pointer(struct trace_seq *s, int long_size);
void lt_print_user_buffer(struct trace_seq *s, const unsigned char *d,
			  int len, unsigned long long count);
void lt_print_syscall_arg(struct trace_seq *s, const char *name,
			  unsigned long long v, bool last, bool bare_hex);

#endif
