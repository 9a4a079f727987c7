/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Internal interfaces of liblazytrace's tracefs layer: recording and live
 * reading through a private tracefs instance. Only tracefs/ includes it.
 */
#ifndef _LT_TRACEFS_H
#define _LT_TRACEFS_H

#include <stdbool.h>
#include <stddef.h>

#include "../read/lt-internal.h"

/* Session details the session's other files need (lt-tracefs*.c). */
/*
 * The setup line of this kernel (lt-tracefs-setup.c), without a newline;
 * fields this kernel does not tell are left out. @lazy gets one line on
 * whether the kernel can preempt lazily (active, built in, absent).
 */
void lt_tracefs_setup_line(char *buf, size_t len, char *lazy, size_t lazy_len);
/*
 * Remove what killed lazytrace runs left in tracefs (lt-tracefs.c):
 * instances, hist's synthetic events, probes; @o->note hears each.
 */
int lt_tracefs_remove_stale(const struct lt_tracefs_opts *o);
struct tracefs_instance;

struct tracefs_instance *lt_tracefs_instance(struct lt_tracefs *s);
int lt_tracefs_nr_cpus(const struct lt_tracefs *s);
int lt_tracefs_page_size(const struct lt_tracefs *s);
bool lt_tracefs_functions(const struct lt_tracefs *s);
const char *lt_tracefs_probe_group(const struct lt_tracefs *s);
/* The systems of the events lt_tracefs_add_event() enabled. */
const char *const *lt_tracefs_added_systems(const struct lt_tracefs *s,
					     int *nr);
bool lt_tracefs_needs_symbols(const struct lt_tracefs *s);
/* False where /proc/kallsyms shows this process only zeros. */
bool lt_tracefs_symbols_visible(const struct lt_tracefs *s);
/*
 * The trace.dat header (up to the printk formats) the session made for
 * @symbols, or NULL; lt_tracefs_keep_header() hands one over to it.
 */
const void *lt_tracefs_header(const struct lt_tracefs *s, bool symbols,
			      size_t *len);
void lt_tracefs_keep_header(struct lt_tracefs *s, bool symbols, void *p,
			    size_t len);
const char *lt_tracefs_comms(const struct lt_tracefs *s);

/* The stacktrace trigger on the tick (lt-tracefs-stack.c). */
struct lt_stack_trigger;

struct lt_stack_trigger *lt_tracefs_stacks_on(struct tracefs_instance *inst,
					      enum lt_stacks mode,
					      void (*note)(const char *msg));
int lt_tracefs_stacks_off(struct tracefs_instance *inst,
			  struct lt_stack_trigger *t);

/* Internal since the TUI's live mode, their last caller, is a live run. */
/**
 * lt_live_open - a reader of what a session records from now on
 * @s: the session; it must outlive the reader
 * @opts: reader options (the ABI), or NULL
 * @err: receives a one-line message on failure
 * @errlen: size of @err
 *
 * The reader has no events until lt_live_refill().
 *
 * Return: the reader, or NULL with @err set.
 */
struct lt_reader *lt_live_open(struct lt_tracefs *s,
			       const struct lt_open_opts *opts,
			       char *err, size_t errlen);

/**
 * lt_live_begin - start a live session: instance, reader, tracing on
 * @o: what to record
 * @opts: reader options (the ABI), or NULL
 * @session: receives the session, to stop and destroy after the reader
 * @err: receives a one-line message on failure
 * @len: size of @err
 *
 * lt_tracefs_begin(), lt_live_open() and lt_tracefs_start() in one, and
 * the setup line written into the trace (if that fails, @o->note is told).
 *
 * Return: the reader, or NULL with @err set and nothing left behind.
 */
struct lt_reader *lt_live_begin(const struct lt_tracefs_opts *o,
				const struct lt_open_opts *opts,
				struct lt_tracefs **session,
				char *err, size_t len);

/**
 * lt_live_poll - move what the buffers hold into the current interval
 * @r: a reader from lt_live_open()
 *
 * Call it every %LT_LIVE_POLL_MS ms between refills, so that a long
 * interval does not wrap the ring buffer.
 *
 * Return: the number of pages moved, or -1 with lt_reader_error() set.
 */
int lt_live_poll(struct lt_reader *r);

/**
 * lt_live_refill - end the interval and read it
 * @r: a reader from lt_live_open()
 *
 * Takes what the session's buffers hold now; lt_reader_next() then
 * returns the interval's events.
 *
 * Return: 0, or -1 with lt_reader_error() set.
 */
int lt_live_refill(struct lt_reader *r);

/* Internal since live runs through the run (lt_run_wait(), "save"). */
/**
 * lt_live_wait - wait, keeping the buffers drained
 * @r: a reader from lt_live_open()
 * @ms: how long, in milliseconds
 *
 * Moves what the buffers hold into the current interval every
 * %LT_LIVE_POLL_MS ms, and sooner when a buffer is half full, so that no
 * interval wraps them.
 *
 * Return: 0 after @ms, 1 when a signal ended the wait early, or -1 with
 * lt_reader_error() set.
 */
int lt_live_wait(struct lt_reader *r, int ms);

/**
 * lt_live_save - keep every interval as a trace.dat
 * @r: a reader from lt_live_open()
 * @dir: an existing directory, or NULL to stop
 *
 * From the next lt_live_refill() on, interval N is also written to
 * @dir/interval-N.dat (N from 1), so that what live showed can be read
 * again with lt_reader_open(). The kernel's symbols are written once,
 * before the first interval, as @dir/kallsyms: the reader takes them
 * from there for an interval-N.dat that has none of its own.
 *
 * The files hold kernel addresses: each is made under a new name
 * (O_EXCL), mode 0600 unless lt_live_save_as() says otherwise, and
 * renamed into place, replacing rather than following a link there.
 *
 * Return: 0, or -1 if @r is not a live reader or @dir is too long.
 */
int lt_live_save(struct lt_reader *r, const char *dir);

/**
 * lt_live_save_as - the mode and owner of the intervals lt_live_save() writes
 * @r: a reader from lt_live_open()
 * @mode: permission bits (default 0600: they hold kernel addresses)
 * @uid: owner, or -1 to keep the process's (root under sudo: pass the
 *	 invoking user's)
 * @gid: group, or -1 to keep the process's
 *
 * Return: 0, or -1 if @r is not a live reader.
 */
int lt_live_save_as(struct lt_reader *r, unsigned int mode, long uid,
		    long gid);

#endif /* _LT_TRACEFS_H */
