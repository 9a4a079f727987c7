/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * plugin-lazytrace: lazy preemption in KernelShark. Shared between the C
 * half (loading, liblazytrace's analysis, the information line) and the
 * C++ half (drawing with KernelShark's plot tools).
 */
#ifndef _LAZYTRACE_KSHARK_H
#define _LAZYTRACE_KSHARK_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

struct kshark_data_stream;
struct kshark_entry;
struct kshark_cpp_argv;

/* What a span shows; the colours follow the TUI's legend (tui/draw.c). */
enum ltk_span_kind {
	LTK_SPAN_LAZY = 0,	/* a lazy request pending */
	LTK_SPAN_EAGER,		/* an eager request pending (direct or upgraded) */
	LTK_SPAN_EPISODE,	/* a hog episode: an episodes table row */
	LTK_SPAN_MAX,
};

/* A time span on one CPU, of one task. */
struct ltk_span {
	int64_t start;
	int64_t end;
	int cpu;
	int pid;
	enum ltk_span_kind kind;
};

/* An upgrade: an eager request on top of a pending lazy one. */
struct ltk_marker {
	int64_t ts;		/* seen_ns: the entry that showed it */
	int64_t since;		/* the lazy request's seen_ns */
	int cpu;
	int pid;
	bool tick;		/* LT_TR_TICK_UPGRADE, else LT_TR_UPGRADE */
	int source;		/* enum lt_upgrade_source */
	int request;		/* enum lt_transition_kind of the request */
	const char *site;	/* call site of the stack taken meanwhile, or NULL */
};

struct ltk_ctx {
	int sd;
	struct ltk_span *spans;
	size_t nr_spans, cap_spans;
	struct ltk_marker *markers;	/* sorted by (ts, cpu) */
	size_t nr_markers, cap_markers;
	uint64_t nr_by_kind[LTK_SPAN_MAX];
	uint64_t nr_by_source[8];
	uint64_t tick_ns;
	/* The stream's own info function, wrapped by ltk_get_info(). */
	char *(*orig_get_info)(struct kshark_data_stream *,
			       const struct kshark_entry *);
	FILE *log;
};

struct ltk_ctx *ltk_get_ctx(int sd);
const struct ltk_marker *ltk_find_marker(const struct ltk_ctx *c, int cpu,
					 int64_t ts);
void ltk_log_draw(struct ltk_ctx *c, int draw_action, int val,
		  const size_t shapes[3]);
void *ltk_gui_ptr(void);

/* The drawing function, in LazytraceDraw.cpp. */
void ltk_draw(struct kshark_cpp_argv *argv, int sd, int val, int draw_action);

#ifdef __cplusplus
}
#endif

#endif /* _LAZYTRACE_KSHARK_H */
