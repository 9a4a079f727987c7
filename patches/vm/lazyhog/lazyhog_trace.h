/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Trace events of the lazyhog test module: what each test mode measured,
 * recorded in the same buffer as the scheduler's events, so that the VM
 * test reads the module's figures and the kernel's flags together.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM lazyhog

#if !defined(_LAZYHOG_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _LAZYHOG_TRACE_H

#include <linux/tracepoint.h>

/*
 * One event per need-resched state the flags mode sets up: the bits as
 * the module read them right before the event (eager TIF_NEED_RESCHED,
 * TIF_NEED_RESCHED_LAZY, the need-resched bit folded into the preempt
 * count). stable=0 when they changed while the event was recorded.
 */
TRACE_EVENT(lazyhog_flags,
	TP_PROTO(int eager, int lazy, int folded, int stable),
	TP_ARGS(eager, lazy, folded, stable),
	TP_STRUCT__entry(
		__field(int, eager)
		__field(int, lazy)
		__field(int, folded)
		__field(int, stable)
	),
	TP_fast_assign(
		__entry->eager = eager;
		__entry->lazy = lazy;
		__entry->folded = folded;
		__entry->stable = stable;
	),
	TP_printk("eager=%d lazy=%d folded=%d stable=%d",
		  __entry->eager, __entry->lazy, __entry->folded,
		  __entry->stable)
);

/*
 * One event per spin of the need_resched() mode: the whole spin, the
 * time from the first sight of a lazy request to need_resched() turning
 * true (0 if the loop never saw one), and whether the cap ended it.
 */
TRACE_EVENT(lazyhog_spin,
	TP_PROTO(u64 spin_ns, u64 lazy_ns, int lazy_seen, int timeout),
	TP_ARGS(spin_ns, lazy_ns, lazy_seen, timeout),
	TP_STRUCT__entry(
		__field(u64, spin_ns)
		__field(u64, lazy_ns)
		__field(int, lazy_seen)
		__field(int, timeout)
	),
	TP_fast_assign(
		__entry->spin_ns = spin_ns;
		__entry->lazy_ns = lazy_ns;
		__entry->lazy_seen = lazy_seen;
		__entry->timeout = timeout;
	),
	TP_printk("spin_ns=%llu lazy_ns=%llu lazy_seen=%d timeout=%d",
		  __entry->spin_ns, __entry->lazy_ns, __entry->lazy_seen,
		  __entry->timeout)
);

/*
 * One event per lazy request the cond_resched() loop saw before it lost
 * the CPU: the time from its first sight to the last iteration before
 * the switch, whether the switch happened inside cond_resched(), and
 * whether the loop saw an eager request first.
 */
TRACE_EVENT(lazyhog_resched,
	TP_PROTO(u64 lazy_ns, int in_cond_resched, int eager_seen),
	TP_ARGS(lazy_ns, in_cond_resched, eager_seen),
	TP_STRUCT__entry(
		__field(u64, lazy_ns)
		__field(int, in_cond_resched)
		__field(int, eager_seen)
	),
	TP_fast_assign(
		__entry->lazy_ns = lazy_ns;
		__entry->in_cond_resched = in_cond_resched;
		__entry->eager_seen = eager_seen;
	),
	TP_printk("lazy_ns=%llu in_cond_resched=%d eager_seen=%d",
		  __entry->lazy_ns, __entry->in_cond_resched,
		  __entry->eager_seen)
);

#endif /* _LAZYHOG_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE lazyhog_trace
#include <trace/define_trace.h>
