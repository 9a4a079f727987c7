/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * liblazytrace - decode ftrace buffers and analyse lazy preemption.
 *
 * Data flows one way:
 *   reader (trace.dat, kernel text) -> decoder (flag ABIs)
 *     -> analysis (transitions, task statistics, hogs) -> caller's output.
 */
#ifndef _LAZYTRACE_H
#define _LAZYTRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define LT_VERSION_STRING "0.1.0"

/* ------------------------------------------------------------------ */
/* Flag ABIs                                                           */
/* ------------------------------------------------------------------ */

/**
 * enum lt_abi - meaning of the common_flags byte
 * @LT_ABI_AUTO: detect from the input (see lt_reader_abi())
 * @LT_ABI_LEGACY: Linux <= 6.12 without lazy preemption
 * @LT_ABI_MAINLINE: Linux >= 6.13, patched 6.12, Debian 6.12-rt (lazy 0x02)
 * @LT_ABI_POC2023: the Sept 2023 PREEMPT_AUTO proof of concept (lazy 0x04)
 * @LT_ABI_RT_LAZY: PREEMPT_RT patch sets 5.17-rt .. 6.6-rt (lazy 0x20)
 */
enum lt_abi {
	LT_ABI_AUTO = 0,
	LT_ABI_LEGACY,
	LT_ABI_MAINLINE,
	LT_ABI_POC2023,
	LT_ABI_RT_LAZY,
};

/**
 * struct lt_flags - the bits of one common_flags byte, by meaning
 *
 * @need_resched is the eager request (TIF_NEED_RESCHED), @need_resched_lazy
 * the lazy one, @preempt_resched the request folded into the preempt count.
 */
struct lt_flags {
	bool irqs_off;
	bool irqs_nosupport;
	bool need_resched;
	bool need_resched_lazy;
	bool preempt_resched;
	bool hardirq;
	bool softirq;
	bool nmi;
	bool bh_off;
};

/**
 * lt_abi_name - the command-line name of an ABI
 * @abi: the ABI
 *
 * Returns "legacy", "mainline", "poc2023", "rt-lazy" or "auto".
 */
const char *lt_abi_name(enum lt_abi abi);

/**
 * lt_abi_parse - look an ABI up by name
 * @name: "auto", "legacy", "mainline", "poc2023" or "rt-lazy"
 * @abi: where to store it
 *
 * Returns 0 on success, -1 if @name is unknown.
 */
int lt_abi_parse(const char *name, enum lt_abi *abi);

/**
 * lt_flags_decode - split a common_flags byte into named bits
 * @abi: the flag ABI (not LT_ABI_AUTO; that decodes as mainline)
 * @flags: the common_flags value
 *
 * Returns the decoded bits.
 */
struct lt_flags lt_flags_decode(enum lt_abi abi, unsigned int flags);

/**
 * lt_flags_latency - the five-character latency field, as the kernel prints it
 * @abi: the flag ABI
 * @flags: the common_flags value
 * @preempt_count: common_preempt_count (low nibble depth, high nibble
 *	migrate-disable)
 * @out: six bytes; receives five characters and a NUL
 *
 * Follows the kernel's trace_print_lat_fmt(): irqs-off, need-resched,
 * hard/soft irq, preempt depth, migrate-disable.
 */
void lt_flags_latency(enum lt_abi abi, unsigned int flags,
		      unsigned int preempt_count, char out[6]);

/**
 * lt_flags_resched_letter - the need-resched letter alone
 * @abi: the flag ABI
 * @flags: the common_flags value
 *
 * Returns one of "BNLbnlp." (legacy: "Nnp.").
 */
char lt_flags_resched_letter(enum lt_abi abi, unsigned int flags);

/* ------------------------------------------------------------------ */
/* Events                                                              */
/* ------------------------------------------------------------------ */

/**
 * enum lt_event_kind - the events the analysis understands
 *
 * Every other event is %LT_EV_OTHER and is still delivered.
 */
enum lt_event_kind {
	LT_EV_OTHER = 0,
	LT_EV_SCHED_SWITCH,
	LT_EV_SCHED_WAKING,
	LT_EV_SCHED_WAKEUP,
	LT_EV_SCHED_WAKEUP_NEW,
	LT_EV_SCHED_PROCESS_EXIT,
	LT_EV_SCHED_PROCESS_FORK,
	LT_EV_SCHED_MIGRATE_TASK,
	LT_EV_LOCAL_TIMER_ENTRY,
	LT_EV_LOCAL_TIMER_EXIT,
	LT_EV_HRTIMER_EXPIRE_ENTRY,
	LT_EV_HRTIMER_EXPIRE_EXIT,
	LT_EV_RESCHEDULE_ENTRY,
	LT_EV_RESCHEDULE_EXIT,
	LT_EV_SOFTIRQ_ENTRY,
	LT_EV_SOFTIRQ_EXIT,
	LT_EV_SYS_ENTER,
	LT_EV_SYS_EXIT,
	LT_EV_FUNCTION,
	LT_EV_KIND_MAX,
};

/**
 * enum lt_prev_state - how a task left the CPU in sched_switch
 * @LT_PREV_PREEMPTED: runnable with the preempt marker (R+)
 * @LT_PREV_YIELDED: runnable without the marker (R)
 * @LT_PREV_BLOCKED: any sleeping or dead state (S, D, I, Z, ...)
 */
enum lt_prev_state {
	LT_PREV_PREEMPTED = 0,
	LT_PREV_YIELDED,
	LT_PREV_BLOCKED,
};

#define LT_COMM_LEN 32

/* Count of lost events when the buffer says "some" but not how many */
#define LT_MISSED_UNKNOWN (~0ULL)

/**
 * struct lt_event - one decoded ftrace event
 * @ts: timestamp in ns (text input: as precise as the text, usually us)
 * @missed: events the ring buffer lost on @cpu just before this one (0 for
 *	none, %LT_MISSED_UNKNOWN when it lost some without saying how many)
 * @cpu: the CPU that wrote the event
 * @pid: common_pid, the task current on @cpu
 * @flags: common_flags, raw; decode with lt_flags_decode()
 * @preempt_count: common_preempt_count, raw
 * @comm: the current task's name, "<idle>" for pid 0, "<...>" if unknown
 * @system: the event's system ("sched", "ftrace", ...)
 * @name: the event's name ("sched_switch", "function", ...)
 * @kind: what the analysis knows it as
 * @u: the fields of the events the analysis uses, by @kind
 *
 * An event and its strings stay valid until the next lt_reader_next().
 */
struct lt_event {
	uint64_t ts;
	uint64_t missed;
	int cpu;
	int pid;
	unsigned int flags;
	unsigned int preempt_count;
	const char *comm;
	const char *system;
	const char *name;
	enum lt_event_kind kind;
	union {
		struct {
			char prev_comm[LT_COMM_LEN];
			int prev_pid;
			int prev_prio;
			enum lt_prev_state prev_state;
			char prev_state_str[8];
			char next_comm[LT_COMM_LEN];
			int next_pid;
			int next_prio;
		} sched_switch;
		/* sched_waking, sched_wakeup, sched_wakeup_new */
		struct {
			char comm[LT_COMM_LEN];
			int pid;
			int prio;
			int target_cpu;
		} wakeup;
		struct {
			char func[64];
		} hrtimer;	/* hrtimer_expire_entry: the handler's name */
		struct {
			char func[64];
			char parent[64];
		} function;
		struct {
			long id;
		} syscall;	/* sys_enter, sys_exit */
		struct {
			unsigned int vec;
		} softirq;
		struct {
			int pid;	/* exit: the task; fork: the child */
			char comm[LT_COMM_LEN];
		} process;
	} u;
};

/* ------------------------------------------------------------------ */
/* Readers                                                             */
/* ------------------------------------------------------------------ */

struct lt_reader;

/**
 * enum lt_input_format - what kind of input a reader reads
 */
enum lt_input_format {
	LT_INPUT_TRACE_DAT = 1,
	LT_INPUT_TEXT,
	LT_INPUT_TEXT_LATENCY,
};

/**
 * struct lt_open_opts - how to open an input
 * @abi: force a flag ABI, or %LT_ABI_AUTO
 * @buffer: trace.dat buffer (instance) name; NULL picks the top-level
 *	buffer if it has events, else the first instance that has
 * @detect_scan: events to scan for the lazy bit when auto-detecting the
 *	ABI (0: a default of 200000)
 */
struct lt_open_opts {
	enum lt_abi abi;
	const char *buffer;
	unsigned long detect_scan;
};

/**
 * lt_reader_open - open a trace.dat file or a kernel text trace
 * @path: file name; "-" reads text from standard input
 * @opts: options, or NULL for defaults
 * @err: receives a one-line message naming the file on failure
 * @errlen: size of @err
 *
 * The format is detected from the content. Returns a reader or NULL.
 */
struct lt_reader *lt_reader_open(const char *path,
				 const struct lt_open_opts *opts,
				 char *err, size_t errlen);

/**
 * lt_reader_close - free a reader and everything it returned
 * @r: the reader, may be NULL
 */
void lt_reader_close(struct lt_reader *r);

/**
 * lt_reader_next - read the next event in timestamp order
 * @r: the reader
 *
 * Returns the event, or NULL at the end or on error: lt_reader_error()
 * tells which.
 */
const struct lt_event *lt_reader_next(struct lt_reader *r);

/**
 * lt_reader_error - the error that stopped a reader
 * @r: the reader
 *
 * Returns NULL if the reader ended normally, else a one-line message
 * naming the file and the offset (trace.dat) or line (text).
 */
const char *lt_reader_error(const struct lt_reader *r);

/**
 * lt_reader_abi - the flag ABI in use and why
 * @r: the reader
 * @reason: if not NULL, receives a short explanation
 */
enum lt_abi lt_reader_abi(const struct lt_reader *r, const char **reason);

/**
 * lt_reader_format - the kind of input
 * @r: the reader
 */
enum lt_input_format lt_reader_format(const struct lt_reader *r);

/**
 * lt_reader_nr_cpus - number of CPUs in the input (highest CPU seen + 1
 *	for text that does not say)
 * @r: the reader
 */
int lt_reader_nr_cpus(const struct lt_reader *r);

/**
 * lt_reader_kernel - kernel release the input was recorded on
 * @r: the reader
 *
 * Returns e.g. "6.12.118-lazy", or NULL if the input does not say.
 */
const char *lt_reader_kernel(const struct lt_reader *r);

/**
 * lt_reader_preempt_model - the preemption model the text header names
 * @r: the reader
 *
 * Returns e.g. "preempt" or "PREEMPT(lazy)" from a latency header, or NULL.
 */
const char *lt_reader_preempt_model(const struct lt_reader *r);

/**
 * lt_reader_first_ts - timestamp of the first event in the buffer
 * @r: the reader
 *
 * The base of the latency format's relative times. Returns 0 if unknown.
 */
uint64_t lt_reader_first_ts(const struct lt_reader *r);

/**
 * lt_reader_position - where the reader is in its input
 * @r: the reader
 *
 * Returns a byte offset, for progress indicators and error messages.
 */
uint64_t lt_reader_position(const struct lt_reader *r);

/**
 * lt_reader_size - the size of the input in bytes, 0 if unknown (a pipe)
 * @r: the reader
 */
uint64_t lt_reader_size(const struct lt_reader *r);

/**
 * lt_event_payload - the event's text after "name: ", as the kernel
 *	prints it
 * @r: the reader that returned @ev
 * @ev: the current event
 * @buf: output buffer
 * @len: size of @buf
 *
 * trace.dat events are printed from their print format with libtraceevent
 * (no plugins); pointers the kernel would hash are printed raw, as with
 * no_hash_pointers. Text events return the text as read. Function events
 * print as "func <-parent". Returns the length that the full text needs.
 */
size_t lt_event_payload(struct lt_reader *r, const struct lt_event *ev,
			char *buf, size_t len);

/**
 * lt_event_field - a numeric field of the current event by name
 * @r: the reader that returned @ev
 * @ev: the current event
 * @field: field name as in the event's format ("prev_pid")
 * @val: where to store the value
 *
 * Returns 0 on success, -1 if the event has no such numeric field.
 */
int lt_event_field(struct lt_reader *r, const struct lt_event *ev,
		   const char *field, long long *val);

#ifdef __cplusplus
}
#endif

#endif /* _LAZYTRACE_H */
