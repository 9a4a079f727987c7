/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report's lines, as the kernel prints them (default and latency
 * format), made into a buffer by whichever thread read the event and
 * written to stdout, in the input's order, by one.
 */
#ifndef _LT_OUTPUT_REPORT_H
#define _LT_OUTPUT_REPORT_H

#include "cli.h"

/* lt_flags_latency() of the run's ABI, remembered by flags and count */
#define LAT_MEMO	256

struct lat_memo {
	unsigned int flags, preempt_count;
	bool set;
	char lat[6];
};

/* What makes an event's text: one per thread that reads a run. */
struct line_maker {
	struct lt_run *run;
	struct lt_reader *r;
	enum lt_abi abi;
	bool latency;		/* -l */
	bool full;		/* -t: times in full nanoseconds */
	bool color;
	uint64_t base;		/* -l: the first event's time */
	struct lat_memo memo[LAT_MEMO];
};

/*
 * An event's text, as line_make() makes it; the text follows it, or
 * lies at @off in a buffer of texts (line_out_span()).
 */
struct line_text {
	uint64_t ts;
	int cpu;
	unsigned int lost_len;	/* a lost-events line first, or 0 */
	unsigned int len;	/* the event's line after it, or 0 */
	int mark;		/* -l: the delay mark's offset in the line */
	size_t off;
};

/* A line_maker of @run's events, its ABI and first time taken from it. */
void line_maker_init(struct line_maker *m, struct lt_run *run, bool latency,
		     bool full, bool color);
/*
 * The text of @ev into @t and the @room bytes after it: the line of the
 * events it lost first (@lost), then its own (@shown). Returns the bytes
 * of the text; more than @room means @t is unchanged and that much room
 * is needed. The latency format's delay mark is left blank: it needs the
 * next event's time (line_out()).
 */
size_t line_make(struct line_maker *m, const struct lt_event *ev, bool lost,
		 bool shown, struct line_text *t, size_t room);

/*
 * The writer: stdout a block at a time (a line at a time on a
 * terminal), the latency format's line held until the next event's time
 * gives its delay mark.
 */
struct line_out {
	bool latency;
	struct line_text held;
	char *text;		/* the held line */
	size_t cap;
	bool have;
};

void line_out_start(struct line_out *o, bool latency);
/* Write @t and its text (every event's, in order, with -l); -1 if OOM. */
int line_out(struct line_out *o, const struct line_text *t);
/*
 * line_out() of @nr lines at once, whose texts lie one after the other
 * from @text (@t[0].off) on, their delay marks written into @text: long
 * runs of lines are written without a copy. -1 if out of memory.
 */
int line_out_span(struct line_out *o, const struct line_text *t, size_t nr,
		  char *text);
/* Write what is held and flush. */
void line_out_end(struct line_out *o);

#endif /* _LT_OUTPUT_REPORT_H */
