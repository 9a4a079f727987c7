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
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Everything declared here, and only that, is liblazytrace's interface:
 * the library is built with -fvisibility=hidden, and this sets it back to
 * default for the declarations between here and the pop at the end.
 */
#pragma GCC visibility push(default)

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
 * @LT_ABI_MAX: one past the last ABI; it grows when an ABI is added
 */
enum lt_abi {
	LT_ABI_AUTO = 0,
	LT_ABI_LEGACY,
	LT_ABI_MAINLINE,
	LT_ABI_POC2023,
	LT_ABI_RT_LAZY,
	LT_ABI_MAX,
};

/**
 * struct lt_flags - the bits of one common_flags byte, by meaning
 * @irqs_off: interrupts were disabled
 * @irqs_nosupport: the architecture cannot tell whether they were
 * @need_resched: the eager request (TIF_NEED_RESCHED)
 * @need_resched_lazy: the lazy request (TIF_NEED_RESCHED_LAZY)
 * @preempt_resched: the request folded into the preempt count
 * @hardirq: in a hard interrupt
 * @softirq: in a softirq
 * @nmi: in an NMI
 * @bh_off: bottom halves were disabled
 *
 * Which bit of the byte carries which meaning depends on the ABI
 * (docs/model.md).
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

/* The names lt_abi_parse() takes, for help texts and messages. */
#define LT_ABI_NAMES "auto, legacy, mainline, poc2023, rt-lazy"

/**
 * lt_abi_name - the command-line name of an ABI
 * @abi: the ABI
 *
 * Return: "legacy", "mainline", "poc2023", "rt-lazy" or "auto".
 */
const char *lt_abi_name(enum lt_abi abi);

/**
 * lt_abi_parse - look an ABI up by name
 * @name: "auto", "legacy", "mainline", "poc2023" or "rt-lazy"
 * @abi: where to store it
 *
 * Return: 0 on success, -1 if @name is unknown.
 */
int lt_abi_parse(const char *name, enum lt_abi *abi);

/**
 * lt_flags_decode - split a common_flags byte into named bits
 * @abi: the flag ABI (not LT_ABI_AUTO; that decodes as mainline)
 * @flags: the common_flags value
 *
 * Return: the decoded bits.
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
 * Return: one of "BNLbnlp." (legacy: "Nnp.").
 */
char lt_flags_resched_letter(enum lt_abi abi, unsigned int flags);

/* ------------------------------------------------------------------ */
/* Events                                                              */
/* ------------------------------------------------------------------ */

/**
 * enum lt_event_kind - the events the analysis understands
 * @LT_EV_OTHER: any other event; still delivered
 * @LT_EV_SCHED_SWITCH: sched:sched_switch
 * @LT_EV_SCHED_WAKING: sched:sched_waking
 * @LT_EV_SCHED_WAKEUP: sched:sched_wakeup
 * @LT_EV_SCHED_WAKEUP_NEW: sched:sched_wakeup_new
 * @LT_EV_SCHED_PROCESS_EXIT: sched:sched_process_exit
 * @LT_EV_SCHED_PROCESS_FORK: sched:sched_process_fork
 * @LT_EV_SCHED_MIGRATE_TASK: sched:sched_migrate_task
 * @LT_EV_LOCAL_TIMER_ENTRY: irq_vectors:local_timer_entry (the tick's IRQ)
 * @LT_EV_LOCAL_TIMER_EXIT: irq_vectors:local_timer_exit
 * @LT_EV_HRTIMER_EXPIRE_ENTRY: timer:hrtimer_expire_entry
 * @LT_EV_HRTIMER_EXPIRE_EXIT: timer:hrtimer_expire_exit
 * @LT_EV_RESCHEDULE_ENTRY: irq_vectors:reschedule_entry (the IPI)
 * @LT_EV_RESCHEDULE_EXIT: irq_vectors:reschedule_exit
 * @LT_EV_SOFTIRQ_ENTRY: irq:softirq_entry
 * @LT_EV_SOFTIRQ_EXIT: irq:softirq_exit
 * @LT_EV_SYS_ENTER: raw_syscalls:sys_enter
 * @LT_EV_SYS_EXIT: raw_syscalls:sys_exit
 * @LT_EV_FUNCTION: ftrace:function (resched_curr and friends)
 * @LT_EV_PRINT: ftrace:print, a trace_marker write (the setup line)
 * @LT_EV_SET_NEED_RESCHED: a tracepoint probe named sched_set_need_resched
 *	or set_need_resched (any group) on the bare tracepoint
 *	sched_set_need_resched_tp, with the fields pid (target task), cpu, tif
 * @LT_EV_KERNEL_STACK: ftrace:kernel_stack, a stack the kernel took
 * @LT_EV_HRTIMER_START: timer:hrtimer_start (the handler and its expiry)
 * @LT_EV_KIND_MAX: the number of kinds
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
	LT_EV_PRINT,
	LT_EV_SET_NEED_RESCHED,
	LT_EV_KERNEL_STACK,
	LT_EV_HRTIMER_START,
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

/* Frames a reader hands up per kernel stack; deeper stacks are truncated. */
#define LT_STACK_MAX_FRAMES 128

struct lt_symbols;

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
		/*
		 * hrtimer_expire_entry: the handler's name; hrtimer_start:
		 * also the time it is set to expire at
		 */
		struct {
			char func[64];
			uint64_t expires;
		} hrtimer;
		struct {
			char func[64];
			char parent[64];
		} function;
		struct {
			long id;
		} syscall;	/* sys_enter, sys_exit */
		struct {
			char buf[1024];	/* the text, without its newline */
		} print;
		struct {
			int pid;	/* the task asked to reschedule */
			int cpu;	/* its CPU */
			int tif;	/* the TIF bit set (eager or lazy) */
		} resched;	/* sched_set_need_resched probe */
		struct {
			unsigned int vec;
		} softirq;
		struct {
			int pid;	/* exit: the task; fork: the child */
			char comm[LT_COMM_LEN];
		} process;
		/*
		 * kernel_stack (ftrace's "<stack trace>"), innermost frame
		 * first: @ip the addresses (0 where the text gave none),
		 * @text the frames as the kernel printed them (text input;
		 * NULL for trace.dat), @syms the trace's kallsyms (NULL if
		 * none), @truncated when the kernel or the reader cut the
		 * stack short. Read the frames with lt_stack_frame().
		 */
		struct {
			const uint64_t *ip;
			const char *const *text;
			const struct lt_symbols *syms;
			unsigned int nr;
			bool truncated;
		} stack;
	} u;
};

/* ------------------------------------------------------------------ */
/* Readers                                                             */
/* ------------------------------------------------------------------ */

struct lt_reader;

/**
 * enum lt_input_format - what kind of input a reader reads
 * @LT_INPUT_TRACE_DAT: a trace.dat (trace-cmd's file, versions 6 and 7)
 * @LT_INPUT_TEXT: the kernel's text output, default format
 * @LT_INPUT_TEXT_LATENCY: the kernel's text output, latency format
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
 * @isolate: no effect, kept for source and binary compatibility. It once
 *	parsed trace.dat headers in a child process and handled SIGSEGV
 *	while records were read; every trace.dat is now checked before
 *	anything parses it (see lt_reader_open()), with no fork and no
 *	signal handler.
 */
struct lt_open_opts {
	enum lt_abi abi;
	const char *buffer;
	unsigned long detect_scan;
	bool isolate;
};

/**
 * lt_reader_open - open a trace.dat file or a kernel text trace
 * @path: file name; "-" reads text from standard input
 * @opts: options, or NULL for defaults
 * @err: receives a one-line message naming the file on failure
 * @errlen: size of @err
 *
 * The format is detected from the content: a trace.dat, or kernel text,
 * plain or compressed with gzip, xz or zstd. Compressed text, standard
 * input, pipes and files that stat as empty (tracefs files such as
 * instances/X/trace) are read as streams, decompressed a block at a time
 * (memory does not grow with the input; an xz stream may not ask for more
 * than 256 MiB of dictionary); a stream cannot seek (lt_reader_seek()
 * fails) and its lt_reader_size() is 0. A corrupt or cut compressed
 * stream stops the reader with the file and the compressed offset.
 *
 * Untrusted input: any file may be passed, however crafted. The library
 * installs no signal handler, forks no process and changes no
 * process-wide state. A trace.dat is walked before libtracecmd and
 * libtraceevent see it: every size, offset and count against the file's
 * real size, every compressed section decompressed and checked, every
 * event format and print format, and each CPU's first ring-buffer pages
 * (those libtracecmd reads when it opens the file). The library reads
 * the rest of the pages itself, and checks each chunk or block of pages
 * (decompressed, zstd or zlib) and every record in it against its
 * event's format before anything parses it. An event format the
 * libraries cannot be trusted with costs only its own event: libtracecmd
 * reads a copy of the file in memory with that print format or field line
 * blanked (the event prints as "[FAILED TO PARSE]" and its fields). CPU
 * data cut short by the end of the file is read up to its last whole
 * page (lt_reader_truncated()). What does not add up is
 * refused, here or by lt_reader_next() (which then returns NULL and
 * lt_reader_error() says why), with a message naming the file and the
 * offset; a text trace is checked line by line as it is read. Memory and
 * time are bounded by the file's real size (no allocation of a claimed
 * size, no decompression beyond 1024 times the compressed size or 64 MiB
 * per piece, no unbounded loop); 8192 CPUs at most. What cannot be
 * promised: freedom from bugs in libtracecmd and libtraceevent that a
 * file passing these checks still reaches (the fuzz harnesses in
 * tests/fuzz/ look for them), and a file changed while it is open. Files
 * are mapped read-only while they are checked at open: truncating one
 * then may raise SIGBUS, as with any mapping.
 *
 * Return: a reader, or NULL with @err set.
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
 * Return: the event, or NULL at the end or on error: lt_reader_error()
 * tells which.
 */
const struct lt_event *lt_reader_next(struct lt_reader *r);

/**
 * lt_reader_error - the error that stopped a reader
 * @r: the reader
 *
 * Return: NULL if the reader ended normally, else a one-line message
 * naming the file and the offset (trace.dat) or line (text).
 */
const char *lt_reader_error(const struct lt_reader *r);

/**
 * lt_reader_truncated - where a trace.dat was cut short
 * @r: the reader
 *
 * A trace.dat whose CPU data runs past the end of the file (a full disk,
 * an upload limit) is read up to its last whole ring-buffer page, or
 * compressed chunk, of each CPU; what lies past them is lost. Headers
 * and event formats cut short are an error (lt_reader_open()).
 *
 * Return: 0 if the input is whole, else the file offset of the first
 * page (or chunk) that could not be read whole.
 */
uint64_t lt_reader_truncated(const struct lt_reader *r);

/**
 * lt_reader_abi - the flag ABI in use and why
 * @r: the reader
 * @reason: if not NULL, receives a short explanation
 *
 * Return: the ABI the reader decodes the flags with.
 */
enum lt_abi lt_reader_abi(const struct lt_reader *r, const char **reason);

/**
 * lt_reader_format - the kind of input
 * @r: the reader
 *
 * Return: %LT_INPUT_TRACE_DAT, %LT_INPUT_TEXT or %LT_INPUT_TEXT_LATENCY.
 */
enum lt_input_format lt_reader_format(const struct lt_reader *r);

/**
 * lt_reader_nr_cpus - number of CPUs in the input (highest CPU seen + 1
 *	for text that does not say)
 * @r: the reader
 *
 * Return: the number of CPUs, 0 if not known yet.
 */
int lt_reader_nr_cpus(const struct lt_reader *r);

/**
 * lt_reader_kernel - kernel release the input was recorded on
 * @r: the reader
 *
 * Return: e.g. "6.12.118-lazy", or NULL if the input does not say.
 */
const char *lt_reader_kernel(const struct lt_reader *r);

/**
 * lt_reader_position - where the reader is in its input
 * @r: the reader
 *
 * Return: a byte offset, for progress indicators and error messages.
 */
uint64_t lt_reader_position(const struct lt_reader *r);

/**
 * lt_reader_size - the size of the input in bytes, 0 if unknown (a pipe)
 * @r: the reader
 *
 * Return: the size in bytes, or 0.
 */
uint64_t lt_reader_size(const struct lt_reader *r);

/**
 * lt_reader_seek - continue at the first event at or after a time
 * @r: the reader
 * @ts: the timestamp, in ns
 * @pos: text input: a position lt_reader_position() gave for an event at
 *	or before @ts (0 for the start). trace.dat seeks by its page index
 *	and ignores @pos.
 *
 * For viewers that keep a summary and re-read events near a cursor.
 *
 * Return: 0, or -1 if the input cannot seek (standard input).
 */
int lt_reader_seek(struct lt_reader *r, uint64_t ts, uint64_t pos);

/**
 * lt_event_payload - the event's info as the kernel prints it, after
 *	"name: " for the events lt_event_named() says are named
 * @r: the reader that returned @ev
 * @ev: the current event
 * @buf: output buffer
 * @len: size of @buf
 *
 * trace.dat events are printed from their print format with the kernel's
 * own printf semantics (%pS with offset and size from the recorded
 * symbols, flags and symbols by name, bitmasks in 32-bit groups), syscall
 * events in the kernel's own layout; pointers the kernel would hash are
 * printed raw, as with no_hash_pointers. Text events return the text as
 * read. Function events print as "func <-parent".
 *
 * Return: the length that the full text needs (a %c of 0 leaves a NUL
 * inside it, as in the kernel's own output).
 */
size_t lt_event_payload(struct lt_reader *r, const struct lt_event *ev,
			char *buf, size_t len);

/**
 * lt_event_named - whether the kernel prints "name: " before the payload
 * @ev: an event
 *
 * The function tracer's events ("func <-parent"), the syscall events
 * ("sys_read(fd: 3, ...)", "sys_read -> 0x2") and trace_marker writes
 * ("tracing_mark_write: text") print no event name.
 *
 * Return: true if the kernel prints the event's name before its info.
 */
bool lt_event_named(const struct lt_event *ev);

/**
 * lt_event_field - a numeric field of the current event by name
 * @r: the reader that returned @ev
 * @ev: the current event
 * @field: field name as in the event's format ("prev_pid")
 * @val: where to store the value
 *
 * Return: 0 on success, -1 if the event has no such numeric field.
 */
int lt_event_field(struct lt_reader *r, const struct lt_event *ev,
		   const char *field, long long *val);

/**
 * lt_stack_frame - one frame of a kernel_stack event, as text
 * @ev: a %LT_EV_KERNEL_STACK event
 * @i: the frame, 0 the innermost
 * @buf: output buffer
 * @len: size of @buf
 * @offset: append "+0xOFF/0xSIZE" where the symbol table knows them
 *
 * Symbols are resolved here, not when the event is read: from the
 * trace's kallsyms (trace.dat) or as the kernel printed them (text). A
 * frame without a symbol (a kernel without kallsyms access, a module
 * missing from the table) is its address, "0xffffffff81234567".
 * Returns the length the full text needs (0 if @i is out of range).
 */
size_t lt_stack_frame(const struct lt_event *ev, unsigned int i, char *buf,
		      size_t len, bool offset);

/**
 * lt_stack_frame_is_entry - whether a frame is interrupt entry or tracing
 * @function: a frame's function name, without offset
 *
 * The frames a stack taken in the tick begins with: the tracing code that
 * saved it (trace_*, *trigger*, stack_trace_*, ...), the interrupt entry
 * and exit (asm_sysvec_*, sysvec_*, irq_*, softirq processing on
 * interrupt exit, arm64's el1h_64_irq*, gic_*, ...) and the tick itself
 * (hrtimer_*, tick_*, update_process_times, sched_tick). A hog's call
 * site is the innermost frame for which this is false.
 */
bool lt_stack_frame_is_entry(const char *function);

/* ------------------------------------------------------------------ */
/* Analysis                                                            */
/* ------------------------------------------------------------------ */

/*
 * The analysis follows docs/model.md §4 to §7: per CPU, in timestamp
 * order, it compares the need-resched bits (eager E, lazy L, fold P) of
 * consecutive events of the same current task and names each change a
 * transition.
 * Its memory grows with the number of tasks and CPUs, never with the
 * number of events: latencies go into log-linear histograms (64 buckets
 * per power of two, values below 64 ns exact), and a percentile is the
 * middle of its bucket, within 0.8% of the exact value.
 */

/**
 * enum lt_transition_kind - what changed in a task's need-resched state
 * @LT_TR_LAZY: L went 0 -> 1 with E = 0: a lazy request
 * @LT_TR_EAGER: E went 0 -> 1 with L = 0: a direct eager request
 * @LT_TR_UPGRADE: E went 0 -> 1 while L = 1, outside the tick
 * @LT_TR_TICK_UPGRADE: the same, first seen in the scheduler tick
 * @LT_TR_FOLD: P went 0 -> 1: the request was folded into preempt_count
 * @LT_TR_PREEMPTED: served: switched out as R+ (preempted)
 * @LT_TR_YIELDED: served: switched out as R (return to user, cond_resched)
 * @LT_TR_BLOCKED: served: switched out sleeping (S, D, I, ...)
 * @LT_TR_CLEARED: served: the bits cleared without a switch
 * @LT_TR_TRUNCATED: the request's end is unknown: the ring buffer lost
 *	events on the CPU, the current task changed without a sched_switch,
 *	or the trace ended first; never counted in a latency
 * @LT_TR_KIND_MAX: the number of kinds
 */
enum lt_transition_kind {
	LT_TR_LAZY = 0,
	LT_TR_EAGER,
	LT_TR_UPGRADE,
	LT_TR_TICK_UPGRADE,
	LT_TR_FOLD,
	LT_TR_PREEMPTED,
	LT_TR_YIELDED,
	LT_TR_BLOCKED,
	LT_TR_CLEARED,
	LT_TR_TRUNCATED,
	LT_TR_KIND_MAX,
};

/**
 * lt_transition_name - the name of a transition kind
 * @kind: the kind
 *
 * Return: "lazy", "eager", "upgrade", "tick-upgrade", "fold", "preempted",
 * "yielded", "blocked", "cleared" or "truncated" ("?" if out of range).
 */
const char *lt_transition_name(enum lt_transition_kind kind);

/**
 * enum lt_upgrade_source - what made an upgrade (an eager request on top
 *	of a pending lazy one)
 * @LT_UPG_TICK: the scheduler tick (hrtimer tick_nohz_handler,
 *	tick_sched_timer, ...; a traced resched_curr called from sched_tick;
 *	or, without hrtimer events, the local timer interrupt)
 * @LT_UPG_HRTICK: the slice timer (hrtimer function hrtick)
 * @LT_UPG_TIMER: any other hrtimer
 * @LT_UPG_IRQ: another interrupt (hard or soft irq context)
 * @LT_UPG_DIRECT: outside interrupt context, e.g. an RT wakeup
 * @LT_UPG_SOURCE_MAX: the number of sources
 */
enum lt_upgrade_source {
	LT_UPG_TICK = 0,
	LT_UPG_HRTICK,
	LT_UPG_TIMER,
	LT_UPG_IRQ,
	LT_UPG_DIRECT,
	LT_UPG_SOURCE_MAX,
};

/**
 * lt_upgrade_source_name - the name of an upgrade source
 * @src: the source
 *
 * Returns "tick", "hrtick", "timer", "irq" or "direct" ("?" if out of
 * range).
 */
const char *lt_upgrade_source_name(enum lt_upgrade_source src);

/* lt_transition.syscall when the task was not in a known system call */
#define LT_SYSCALL_USER		(-1L)	/* in user space */
#define LT_SYSCALL_UNKNOWN	(-2L)	/* no raw_syscalls events */

/**
 * enum lt_latency_kind - the latencies kept per task and globally
 * @LT_LAT_LAZY_SERVED: from a lazy request to its end (served)
 * @LT_LAT_EAGER_SERVED: from a direct eager request to its end
 * @LT_LAT_LAZY_UPGRADE: from a lazy request to its upgrade
 * @LT_LAT_FOLD_SERVED: from the fold to the end
 * @LT_LAT_KIND_MAX: the number of kinds
 */
enum lt_latency_kind {
	LT_LAT_LAZY_SERVED = 0,
	LT_LAT_EAGER_SERVED,
	LT_LAT_LAZY_UPGRADE,
	LT_LAT_FOLD_SERVED,
	LT_LAT_KIND_MAX,
};

/**
 * struct lt_setup - how the kernel was set up, from the setup line
 *	`record` and `live` write through trace_marker
 *	("lazytrace-setup: release=... preempt=... hz=... sched_features=...")
 * @found: whether the trace has such a line
 * @release: kernel release ("" if not said)
 * @preempt: active preemption model: none, voluntary, full, lazy ("")
 * @hz: CONFIG_HZ (0 if not said)
 * @sched_features: the scheduler features, comma-separated ("")
 */
struct lt_setup {
	bool found;
	char release[96];
	char preempt[16];
	unsigned int hz;
	char sched_features[512];
};

/**
 * lt_setup_parse - parse a setup line
 * @text: a print event's text
 * @out: receives the fields found
 *
 * Returns 0 if @text is a setup line, -1 otherwise (@out untouched).
 */
int lt_setup_parse(const char *text, struct lt_setup *out);

/* ------------------------------------------------------------------ */
/* Recording: a private tracefs instance (lt-tracefs*.c)               */
/* ------------------------------------------------------------------ */

/*
 * Used by `lazytrace record` and `lazytrace live`. The instance is named
 * LT_INSTANCE_PREFIX + the owner's pid, so that one left by a killed run
 * is recognised (dead pid) and removed by the next. The top-level buffer
 * and other instances are never touched.
 */
#define LT_INSTANCE_PREFIX "lazytrace-"

struct lt_tracefs;

/**
 * enum lt_stacks - when a recording asks the kernel for a stack
 * @LT_STACKS_LAZY: at a tick that finds a lazy request pending (a
 *	stacktrace trigger filtered on the lazy bit of common_flags)
 * @LT_STACKS_NONE: never
 * @LT_STACKS_TICK: at every tick (also the fallback where the kernel
 *	refuses the filter)
 * @LT_STACKS_PREEMPT: as %LT_STACKS_LAZY, and at every preemption (a
 *	stacktrace trigger on sched_switch filtered on the preempted bit
 *	of prev_state): where each R+ switch hit its task
 */
enum lt_stacks {
	LT_STACKS_LAZY = 0,
	LT_STACKS_NONE,
	LT_STACKS_TICK,
	LT_STACKS_PREEMPT,
};

/* The ring buffer per CPU, in KB, when struct lt_tracefs_opts gives none. */
#define LT_TRACEFS_BUFFER_KB	4096

/**
 * struct lt_tracefs_opts - what a recording session enables
 * @cpus: trace only these CPUs ...
 * @nr_cpus: ... if this is not 0
 * @syscalls: raw_syscalls:sys_enter/exit too
 * @functions: try function tracing of resched_curr*, where it pays:
 *	only when the kernel has no timer:hrtimer_expire_* events (the
 *	tick's timer function then cannot name the tick), or always with
 *	@functions_always
 * @functions_always: function tracing even where hrtimer events exist
 * @buffer_kb: ring buffer per CPU; 0 for LT_TRACEFS_BUFFER_KB
 * @stacks: kernel stacks at ticks, for the hogs' call sites
 * @note: told what was left out, and why
 */
struct lt_tracefs_opts {
	const int *cpus;
	int nr_cpus;
	bool syscalls;
	bool functions;
	bool functions_always;
	size_t buffer_kb;
	enum lt_stacks stacks;
	void (*note)(const char *msg);
};

/**
 * typedef lt_page_sink - receives one page of a CPU's ring buffer
 * @ctx: the caller's context, as given to lt_tracefs_drain()
 * @cpu: the CPU whose buffer the page comes from
 * @page: the page, whole (zero-padded to the page size)
 * @size: its size in bytes
 *
 * Return: 0 to go on; anything else stops the drain with an error.
 */
typedef int (*lt_page_sink)(void *ctx, int cpu, const void *page, int size);

/**
 * lt_tracefs_ready - check that this process can trace
 * @err: receives a one-line message on failure
 * @len: size of @err
 *
 * Needs root and tracefs; mounts tracefs at /sys/kernel/tracing when it
 * is not mounted.
 *
 * Return: 0, or -1 with @err saying what to do.
 */
int lt_tracefs_ready(char *err, size_t len);

/**
 * lt_tracefs_begin - check, clean up and make this process's instance
 * @o: what to record; @o->note hears what was cleaned up and what this
 *	kernel cannot record
 * @err: receives a one-line message on failure
 * @len: size of @err
 *
 * What every recorder does first: lt_tracefs_ready(); then removes the
 * instances left by killed runs (%LT_INSTANCE_PREFIX + a PID that no
 * longer runs lazytrace; other instances are never touched); then makes
 * and sets up this process's instance. Tracing stays off until
 * lt_tracefs_start().
 *
 * Return: the session, or NULL with @err set.
 */
struct lt_tracefs *lt_tracefs_begin(const struct lt_tracefs_opts *o,
				    char *err, size_t len);

/**
 * lt_tracefs_destroy - remove the instance and free the session
 * @s: the session, may be NULL
 */
void lt_tracefs_destroy(struct lt_tracefs *s);

/**
 * lt_tracefs_add_event - record one more event, or a system's events
 * @s: the session, before lt_tracefs_start()
 * @event: "SYSTEM:EVENT", "SYSTEM:*", "SYSTEM" or "EVENT" (looked up in
 *	   the tracefs events directory)
 * @err: filled with one line on failure
 * @len: size of @err
 *
 * The trace.dat written then carries the formats of the event's whole
 * system, so that any reader decodes it like the events lazytrace
 * enables itself.
 *
 * Return: 0, or -1 with @err saying why (no such event, no access).
 */
int lt_tracefs_add_event(struct lt_tracefs *s, const char *event, char *err,
			 size_t len);

/**
 * lt_tracefs_start - turn tracing on in the session's instance
 * @s: the session
 *
 * Return: 0, or -1 with errno set.
 */
int lt_tracefs_start(struct lt_tracefs *s);

/**
 * lt_tracefs_stop - turn tracing off in the session's instance
 * @s: the session
 *
 * What the buffers hold stays there for lt_tracefs_drain().
 *
 * Return: 0, or -1 with errno set.
 */
int lt_tracefs_stop(struct lt_tracefs *s);

/**
 * lt_tracefs_lost - events one CPU's ring buffer lost so far
 * @s: the session
 * @cpu: the CPU
 *
 * Events overwritten before they were read and events dropped when the
 * buffer was full (the overrun and dropped events of the instance's
 * per_cpu/cpuN/stats): a buffer too small for the load. Read it before
 * lt_tracefs_destroy().
 *
 * Return: the count, or -1 if the kernel does not tell.
 */
int64_t lt_tracefs_lost(struct lt_tracefs *s, int cpu);

/**
 * lt_tracefs_drain - hand every page the buffers hold now to @sink
 * @s: the session
 * @sink: called with each page
 * @ctx: passed to @sink
 *
 * Does not block.
 *
 * Return: the number of pages, or -1 if a read or @sink failed.
 */
int lt_tracefs_drain(struct lt_tracefs *s, lt_page_sink sink, void *ctx);

/**
 * lt_tracefs_name - the name of the session's tracefs instance
 * @s: the session
 *
 * Return: %LT_INSTANCE_PREFIX followed by this process's pid.
 */
const char *lt_tracefs_name(const struct lt_tracefs *s);

/**
 * lt_tracefs_wait - sleep until some CPU's buffer is half full
 * @s: the session
 * @ms: at most this long
 *
 * Return: 1 if a buffer has data to drain, 0 on timeout or a signal.
 */
int lt_tracefs_wait(struct lt_tracefs *s, int ms);

/**
 * lt_tracefs_mark_setup - write the setup line into the session's trace
 * @s: the session, tracing on
 *
 * Return: 0, or -1 if trace_marker could not be written.
 */
int lt_tracefs_mark_setup(struct lt_tracefs *s);

/**
 * lt_tracefs_snapshot_comms - remember the names of the tasks alive now
 * @s: the session
 * @reset: forget the names remembered before
 *
 * The kernel's saved_cmdlines table is small and recycled; the names read
 * from /proc fill its gaps in what lt_tracefs_write_dat() and the live
 * reader give as task names.
 */
void lt_tracefs_snapshot_comms(struct lt_tracefs *s, bool reset);

/**
 * lt_tracefs_write_dat - write a session's pages as a trace.dat
 * @s: the session (formats, clock, CPU stats and task names come from it)
 * @out: the file to write, positioned at its start
 * @cpu_fd: per CPU, a file holding that CPU's pages from offset 0
 * @cpu_size: per CPU, how many bytes of pages
 * @symbols: include /proc/kallsyms (function and hrtimer names)
 * @err: receives a one-line message on failure
 * @len: size of @err
 *
 * Return: 0, or -1 with @err set.
 */
int lt_tracefs_write_dat(struct lt_tracefs *s, int out, const int *cpu_fd,
			 const uint64_t *cpu_size, bool symbols, char *err,
			 size_t len);

/**
 * lt_tracefs_write_dat_range - write part of a session's pages as a trace.dat
 * @s: the session
 * @out: the file to write, positioned at its start
 * @cpu_fd: per CPU, a file holding that CPU's pages
 * @cpu_from: per CPU, the offset of the first page to write (a multiple
 *	of the page size), or NULL for 0
 * @cpu_size: per CPU, how many bytes of pages from there
 * @symbols: include /proc/kallsyms
 * @err: receives a one-line message on failure
 * @len: size of @err
 *
 * lt_tracefs_write_dat() of a window: record --stop-above looks at the
 * last seconds of what it recorded so far this way.
 *
 * Return: 0, or -1 with @err set.
 */
int lt_tracefs_write_dat_range(struct lt_tracefs *s, int out,
			       const int *cpu_fd, const uint64_t *cpu_from,
			       const uint64_t *cpu_size, bool symbols,
			       char *err, size_t len);

/*
 * How often a live session's pages must move out of the ring buffers for
 * an interval not to wrap them: lt_run_wait() keeps it, and a caller with
 * a loop of its own (a viewer reading keys) waits at most that long.
 */
#define LT_LIVE_POLL_MS 100

/* ------------------------------------------------------------------ */
/* Runs and tables (lt-run.c, lt-table.c, lt-write.c)                  */
/* ------------------------------------------------------------------ */

/*
 * The interface every consumer uses: the CLI, the TUI, the Python module.
 * A run is one input read once, with its options and filters, through the
 * analysis; its results come out as tables. Nothing here exposes a struct
 * layout: options are named strings, cells are read through getters, so
 * that the library can grow without breaking a caller or a binding.
 *
 * Filters come in two sorts. "cpu", "from" and "to" cut the input before
 * the analysis sees it: every table then describes what a recording of
 * those CPUs and that window would have shown (a request made before
 * "from" is not known). "pid", "comm" and "kind" select rows: the analysis
 * still follows every task (a task's state depends on the others'
 * switches), and a table with such a column keeps only matching rows.
 */

struct lt_run;
struct lt_table;

/**
 * enum lt_run_status - why a run call failed
 * @LT_RUN_OK: no error
 * @LT_RUN_USAGE: a bad option name or value, or a call out of order
 * @LT_RUN_BAD_INPUT: the input cannot be opened or is corrupt
 * @LT_RUN_NOMEM: out of memory
 */
enum lt_run_status {
	LT_RUN_OK = 0,
	LT_RUN_USAGE,
	LT_RUN_BAD_INPUT,
	LT_RUN_NOMEM,
};

/**
 * lt_run_new - a run with default options
 *
 * Return: the run, or NULL if out of memory.
 */
struct lt_run *lt_run_new(void);

/**
 * lt_run_set - set one option of a run, before lt_run_open()
 * @run: the run
 * @option: its name, as the command line spells it without "--"
 * @value: its value, as text; NULL or "" resets it to its default
 *
 * Options: "input" (a path, "-" for standard input; default
 * "trace.dat"), "buffer" (a trace.dat instance), "abi" (auto, legacy,
 * mainline, poc2023, rt-lazy), "cpu" (a list: "0,2-3"), "pid" (a list),
 * "comm" (comma-separated shell globs), "kind" (transition kinds, and
 * "served"), "from" and "to" (a time: "7.25" seconds, "7250ms", "20us",
 * "300ns"), "hz", "tick" (a time), "episode-ticks", "hog-episodes",
 * "hog-pending-ticks" (docs/model.md §7), "idle" ("1": the tasks
 * table lists the idle tasks too), "all-tasks" ("1": it lists every
 * task record, the idle tasks and those the input shows doing nothing
 * included), "jobs" (threads reading a trace.dat,
 * the reading one included: 1 is none; compressed pages are decompressed
 * ahead on them; when the run's events are read by lt_run_next() or
 * lt_run_finish() (not lt_run_next_event(), nor for the events table),
 * the others (3 at most) read, decompress and decode the file's
 * segments in time while the calling thread analyses them in order; by
 * default LAZYTRACE_JOBS, else one per online CPU for files of 64 MB or
 * more, or as many bytes of pages decompressed; the output is the same with any), "part" ("K/N": of a
 * trace.dat, only part K of N, the same split for every K: N runs of
 * one file, each with its part, read every event once, for a caller
 * that reads with N threads and merges their
 * lt_run_next_event() in its order; a part is every Nth of the file's
 * segments in time, balanced by bytes, when the run has no "cpu", "pid",
 * "comm", "from" or "to" (compressed chunks are found by an index made
 * when the file is checked); else the CPUs of part K, balanced by their
 * bytes; this one option may also be set on
 * an open run before its first event, which then reads without threads
 * of its own), "live" ("1": the input is this machine's tracefs, read by
 * lt_run_interval()), "save" (a live run's directory for its intervals,
 * each DIR/interval-N.dat), "save-mode" (the saved files' permission
 * bits, in octal; default "0600": they hold kernel addresses),
 * "save-owner" (their owner, "UID" or "UID:GID"; default the process's),
 * "syscalls" ("1": a live run records raw_syscalls too, which name the
 * system call of a tick-upgrade), "stacks" (when a live run's kernel
 * takes a stack for the hogs' call sites: lazy, the default, at a tick
 * that finds a lazy request pending; tick, at every tick; preempt, as
 * lazy and at every preemption; none), "by" (task, place, cause, site or stack: the one
 * grouping the preempt_groups table makes; default all) and
 * "graph-leaves" ("1": a trace.dat's function_graph call with nothing
 * inside, an entry whose next event on its CPU is its own return, is one
 * event, its entry, whose lt_event_payload() is the kernel's "func();"
 * with its duration; for a printer of the kernel's layout) and "feed"
 * ("1": the events the caller takes with lt_run_next_event() are the
 * analysis' input too; see there).
 *
 * Return: 0, or -1 with lt_run_error() saying which option and why
 * (%LT_RUN_USAGE).
 */
int lt_run_set(struct lt_run *run, const char *option, const char *value);

/**
 * lt_run_open - open the input
 * @run: the run, its options set
 *
 * Opens the input and detects the flag ABI once (or takes "abi"). A CPU
 * list that names a CPU the input does not have is a usage error.
 *
 * Return: 0, or -1 with lt_run_error() naming the file (and the offset
 * of corrupt data).
 */
int lt_run_open(struct lt_run *run);

/**
 * lt_run_interval - a live run's next interval
 * @run: a run opened with "live" set
 * @ns: how long the interval lasts; 0 ends it now (after lt_run_wait())
 *
 * Waits until @ns after the previous interval ended (or lt_run_open(),
 * for the first; at once if that time has passed), keeping the session's
 * buffers drained, and
 * makes what was recorded the run's input: the tables asked for next
 * are this interval's (a stream table and the others, as for a file).
 * The tables of the interval before are freed, and a request pending at
 * its end is truncated there. With "save" set, the interval is also
 * written as DIR/interval-N.dat (N from 1), a trace.dat any run can read
 * again. The session stops and its tracefs instance goes with
 * lt_run_free().
 *
 * Return: 0; 1 when a signal ended the wait early (the interval is then
 * shorter, and made as well); -1 with lt_run_error() set (not a live
 * run, or tracefs failed).
 */
int lt_run_interval(struct lt_run *run, uint64_t ns);

/**
 * lt_run_wait - wait within a live run's interval
 * @run: a run opened with "live" set
 * @ms: how long, in milliseconds
 *
 * Waits as lt_run_interval() does, keeping the session's buffers
 * drained, but ends no interval: a caller that looks at something else
 * meanwhile (a terminal's keys) waits in steps, then ends the interval
 * with lt_run_interval(@run, 0).
 *
 * Return: 0 after @ms, 1 when a signal ended the wait early, -1 with
 * lt_run_error() set (not a live run, or tracefs failed).
 */
int lt_run_wait(struct lt_run *run, unsigned int ms);

/**
 * lt_run_stop - stop a live run's recording
 * @run: a run opened with "live" set
 *
 * Tracing stops in the session's instance; what the buffers hold stays,
 * and the next lt_run_interval() makes it the last interval.
 *
 * Return: 0, or -1 with lt_run_error() set.
 */
int lt_run_stop(struct lt_run *run);

/**
 * lt_run_set_note - hear what a live run's session leaves out
 * @run: the run, before lt_run_open()
 * @note: called with one line (what this kernel cannot record and why,
 *	  whether it preempts lazily, instances of killed runs cleaned up),
 *	  or NULL for silence (the default)
 *
 * Return: 0, or -1 with lt_run_error() set (the run is open already).
 */
int lt_run_set_note(struct lt_run *run, void (*note)(const char *msg));

/**
 * lt_run_error - the last error, one line
 * @run: the run
 *
 * Return: the message, or NULL if the last call succeeded.
 */
const char *lt_run_error(const struct lt_run *run);

/**
 * lt_run_status - the kind of the last error
 * @run: the run
 *
 * Return: %LT_RUN_OK if the last call succeeded.
 */
enum lt_run_status lt_run_status(const struct lt_run *run);

/**
 * lt_run_truncated - where the input was cut short (see
 *	lt_reader_truncated())
 * @run: an open run
 *
 * Return: 0 if whole, else the offset of the first part that is lost.
 */
uint64_t lt_run_truncated(const struct lt_run *run);

/**
 * lt_run_reader - the run's reader, for presenting its events
 * @run: an open run
 *
 * For a caller that prints events itself (lt_event_payload()). Reading
 * from it directly takes those events away from the run's tables.
 *
 * Return: the reader, or NULL before lt_run_open().
 */
struct lt_reader *lt_run_reader(struct lt_run *run);

/**
 * lt_run_event_selected - whether an event passes a run's filters
 * @run: an open run
 * @ev: an event read from lt_run_reader()
 * @task: also the task filters ("pid", "comm", on the event's current
 *	task); false: only the cut ("cpu", "from", "to")
 *
 * For a caller that presents the events itself, so that it selects
 * them by the same rules (a time with six decimals takes its whole
 * microsecond) as the run's tables.
 *
 * Return: true if @ev is selected.
 */
bool lt_run_event_selected(const struct lt_run *run,
			   const struct lt_event *ev, bool task);

/**
 * lt_run_next_event - the input's next event, for a caller that prints
 *	events itself
 * @run: an open run
 *
 * Every event of the input in time order, events of the same time by
 * CPU number, as lt_reader_next() returns it (with "graph-leaves" set, a
 * function_graph leaf is one event): the
 * cut and the task filters are not applied, lt_run_event_selected()
 * tells which events pass them. The events are not fed to the analysis,
 * and are gone for the run's tables, which see only what is left of the
 * input. Print an event with lt_event_payload() on lt_run_reader().
 *
 * With "feed" set, each event within the cut is also fed to the run's
 * analysis, for a caller that both presents the events and shows the
 * analysis of them (a viewer that draws as it reads): the
 * "transitions", "requests" and "switches" tables, asked for before the
 * first event, then hold the rows each event made, which lt_run_next()
 * (or lt_table_next(), for one table) hands out right after it until
 * they are all taken (it returns NULL then, and reads nothing itself).
 * The NULL at the end finishes the analysis: its last rows (the
 * requests it truncates) follow it, and the other tables describe the
 * events taken (asking for one before the end takes the rest of the
 * input).
 *
 * Return: the event, valid until the next call, or NULL at the end or on
 * an error (lt_run_error() then names the file and the offset or line).
 */
const struct lt_event *lt_run_next_event(struct lt_run *run);

/**
 * lt_run_abi - the flag ABI a run decodes the flags with, and why
 * @run: a run
 * @reason: if not NULL, receives a short explanation ("" before
 *	lt_run_open())
 *
 * The ABI the input was detected to have (or was given with "abi"), the
 * one its analysis and its tables use; decode an event's flags with it
 * (lt_flags_latency()). Before lt_run_open(), the "abi" option.
 *
 * Return: the ABI, never %LT_ABI_AUTO once the run is open.
 */
enum lt_abi lt_run_abi(const struct lt_run *run, const char **reason);

/**
 * lt_run_flag_columns - how many flag columns the kernel printed
 * @run: an open run
 *
 * Kernels before 5.13 print four (irqs-off, need-resched, hardirq/softirq,
 * preempt depth), later ones a fifth, the migrate-disable depth. From the
 * kernel's text as its events show it (ask again as they are read), else
 * from the release.
 *
 * Return: 4 or 5 (5 when the input does not tell, or before
 * lt_run_open()).
 */
unsigned int lt_run_flag_columns(const struct lt_run *run);

/**
 * lt_run_parts - in how many parts to read a run's input on threads
 * @run: an open run
 *
 * For a caller that presents the events itself and would use threads:
 * the "jobs" option (or the reader's default, see lt_run_set()) for a
 * trace.dat, at most its CPUs unless its parts are segments in time
 * (see "part"); each part then one run with "part".
 *
 * Return: 1 or more: 1 for any input but a trace.dat; with a filter, at
 * most the file's CPUs.
 */
int lt_run_parts(const struct lt_run *run);

/**
 * lt_run_first_ts - timestamp of the first event in the input's buffer
 * @run: an open run
 *
 * The base of the latency format's relative times. Text input knows it
 * once its first event is read.
 *
 * Return: the time in ns, 0 if not known (yet).
 */
uint64_t lt_run_first_ts(const struct lt_run *run);

/**
 * lt_run_finish - read what is left of the input and finish the analysis
 * @run: an open run
 *
 * For a caller that reads a stream table and wants the input's errors
 * before it writes anything: afterwards every whole-input table describes
 * the input (within the cut), and lt_run_error() says whether the input
 * stopped on an error, the analysis then holding what came before.
 *
 * Return: 0, or -1 with lt_run_error() set (not open, a corrupt input,
 * out of memory).
 */
int lt_run_finish(struct lt_run *run);

/**
 * lt_run_free - free a run, its reader, its analysis and its tables
 * @run: the run, may be NULL
 */
void lt_run_free(struct lt_run *run);

/**
 * lt_run_table_names - the names of the tables a run can give
 *
 * Return: a NULL-terminated array: "meta", "summary", "events",
 * "transitions", "requests", "switches", "tasks", "hogs", "episodes",
 * "sites", "stacks", "latency", "lost", "preempts", "preempt_groups",
 * "pending". docs/json.md describes their columns.
 */
const char *const *lt_run_table_names(void);

/**
 * lt_run_table - one of a run's tables
 * @run: a run
 * @name: a name from lt_run_table_names()
 *
 * "events", "transitions", "requests", "switches", "episodes",
 * "preempts" and "preempt_groups" stream: their rows are made as
 * lt_table_next() reads the input (preempt_groups' once it is read), and
 * only one of them can be read per run (a second is a usage error: open
 * another run), but for "transitions", "requests" and "switches": asked
 * for together before a row is read, they share the one pass, and
 * lt_run_next() hands out their rows. The
 * others describe the whole input: asking for one reads what is left of
 * it, then finishes the analysis. A run not opened gives the table's
 * columns and no rows (its schema). The table belongs to the run.
 *
 * Return: the table, or NULL with lt_run_error() set.
 */
struct lt_table *lt_run_table(struct lt_run *run, const char *name);

/**
 * lt_run_next - the next row of the stream tables that share a pass
 * @run: a run whose "transitions", "requests" or "switches" tables (one,
 *       two or all three) were asked for
 *
 * The rows of those tables, in the order the input made them (within an
 * event: its transitions and the requests they end, then its switch), each
 * the current row of its table, read with the cell getters until the next
 * call. Memory stays bounded by the tasks: nothing is kept for a table
 * its caller reads later. lt_table_next() refuses a table that shares
 * its pass.
 *
 * With "feed" set, the input is read by lt_run_next_event(), and this
 * gives the rows of the events it took, NULL once they are all taken.
 *
 * Return: the table whose row is current, or NULL at the end or on an
 * error (lt_run_error() tells).
 */
struct lt_table *lt_run_next(struct lt_run *run);

/**
 * enum lt_col_type - what a column holds
 * @LT_COL_INT: a signed integer (lt_table_int())
 * @LT_COL_UINT: a count or other unsigned integer (lt_table_uint())
 * @LT_COL_DOUBLE: a fraction or ratio (lt_table_double())
 * @LT_COL_STRING: text (lt_table_string())
 * @LT_COL_BOOL: true or false (lt_table_int(): 1 or 0)
 * @LT_COL_TIMESTAMP: a trace time in ns (lt_table_uint())
 * @LT_COL_DURATION: a length of time in ns (lt_table_uint())
 */
enum lt_col_type {
	LT_COL_INT = 0,
	LT_COL_UINT,
	LT_COL_DOUBLE,
	LT_COL_STRING,
	LT_COL_BOOL,
	LT_COL_TIMESTAMP,
	LT_COL_DURATION,
};

/**
 * lt_col_type_name - "int", "uint", "double", "string", "bool",
 *	"timestamp" or "duration"
 * @type: the type
 */
const char *lt_col_type_name(enum lt_col_type type);

/**
 * lt_table_name - the table's name
 * @t: the table
 */
const char *lt_table_name(const struct lt_table *t);

/**
 * lt_table_one_row - whether the table has exactly one row by nature
 *	("meta", "summary"): JSON writes it as an object
 * @t: the table
 */
bool lt_table_one_row(const struct lt_table *t);

/**
 * lt_table_nr_columns - the number of columns
 * @t: the table
 */
unsigned int lt_table_nr_columns(const struct lt_table *t);

/**
 * lt_table_column_name - a column's name, the same in every output
 * @t: the table
 * @col: 0 .. lt_table_nr_columns() - 1
 *
 * Return: the name, or NULL if @col is out of range.
 */
const char *lt_table_column_name(const struct lt_table *t, unsigned int col);

/**
 * lt_table_column_type - a column's type
 * @t: the table
 * @col: the column
 */
enum lt_col_type lt_table_column_type(const struct lt_table *t,
				      unsigned int col);

/**
 * lt_table_column_unit - a column's unit: "ns", "events", "ticks",
 *	"share" (a fraction of one CPU) or "" (none)
 * @t: the table
 * @col: the column
 */
const char *lt_table_column_unit(const struct lt_table *t, unsigned int col);

/**
 * lt_table_column_doc - one line on what a column means
 * @t: the table
 * @col: the column
 */
const char *lt_table_column_doc(const struct lt_table *t, unsigned int col);

/**
 * lt_table_column - a column's index by name
 * @t: the table
 * @name: the column's name
 *
 * Return: the index, or -1 if the table has no such column.
 */
int lt_table_column(const struct lt_table *t, const char *name);

/**
 * lt_table_next - move to the next row
 * @t: the table
 *
 * Return: 1 on a row, 0 at the end, -1 on an error (the input is corrupt,
 * or out of memory: lt_run_error()). Rows read are gone: a table is read
 * once.
 */
int lt_table_next(struct lt_table *t);

/**
 * lt_table_null - whether the current row has no value in a column
 *	(a request time the trace cannot tell, an upgrade source of a
 *	request that was not upgraded)
 * @t: the table
 * @col: the column
 */
bool lt_table_null(const struct lt_table *t, unsigned int col);

/**
 * lt_table_int - a cell of an int or bool column (0 if null)
 * @t: the table
 * @col: the column
 */
int64_t lt_table_int(const struct lt_table *t, unsigned int col);

/**
 * lt_table_uint - a cell of a uint, timestamp or duration column (0 if
 *	null)
 * @t: the table
 * @col: the column
 */
uint64_t lt_table_uint(const struct lt_table *t, unsigned int col);

/**
 * lt_table_double - a cell of a double column (0 if null)
 * @t: the table
 * @col: the column
 */
double lt_table_double(const struct lt_table *t, unsigned int col);

/**
 * lt_table_string - a cell of a string column ("" if null), valid until
 *	the next lt_table_next()
 * @t: the table
 * @col: the column
 */
const char *lt_table_string(const struct lt_table *t, unsigned int col);

/**
 * lt_table_fill - copy the next rows into the caller's arrays, many rows
 *	per call (for a binding to another language, where a call per cell
 *	costs more than the row)
 * @t: the table
 * @cols: the columns wanted, as indexes
 * @nr_cols: how many
 * @max_rows: the most rows to copy
 * @cells: @max_rows * @nr_cols cells, by column: the k-th wanted column's
 *	   value of row r at [k * @max_rows + r]; int and bool columns as
 *	   int64_t (bool 0 or 1), uint, timestamp and duration as uint64_t,
 *	   double as double, string as the offset of its text in @strs
 * @nulls: @max_rows * @nr_cols bytes in the same order: 1 where the cell
 *	   is null (its value then 0, or "")
 * @strs: the strings, each NUL-terminated, row by row and within a row in
 *	  the order of @cols (a null string is "", so a row's strings are
 *	  always there)
 * @strs_len: @strs' size
 * @strs_used: receives the bytes of @strs used
 *
 * A row whose strings do not fit is kept for the next call (or the next
 * lt_table_next(): the two can be mixed, but lt_table_string() and the
 * other getters show the kept row only after lt_table_next()).
 *
 * Return: the rows copied, 0 at the end, -1 on an error: the input's
 * (lt_run_error()), or errno EINVAL for a column out of range, ENOSPC when
 * one row's strings alone need more than @strs_len.
 */
int lt_table_fill(struct lt_table *t, const unsigned int *cols,
		  unsigned int nr_cols, unsigned int max_rows, void *cells,
		  unsigned char *nulls, char *strs, size_t strs_len,
		  size_t *strs_used);

/**
 * lt_table_event_field - a numeric field of the events table's current
 *	event, by the name its format gives it (lt_event_field())
 * @t: an "events" table, on a row
 * @field: the field's name ("prev_pid", "vector")
 * @val: receives the value
 *
 * The events table shows an event's text in "info"; this reads one of
 * its fields as a number, for a caller that scripts over events.
 *
 * Return: 0, or -1 if @t is not an events table on a row, or its event
 * has no such numeric field.
 */
int lt_table_event_field(const struct lt_table *t, const char *field,
			 long long *val);

/**
 * lt_table_cell_text - any cell as text, as the CSV writer prints it
 * @t: the table
 * @col: the column
 * @buf: output buffer
 * @len: its size
 *
 * Numbers in decimal, timestamps and durations in ns, booleans "true" or
 * "false", null as "".
 *
 * Return: the length the full text needs.
 */
size_t lt_table_cell_text(const struct lt_table *t, unsigned int col,
			  char *buf, size_t len);

/**
 * lt_json_string - write text as a JSON string, quoted and escaped
 * @fp: where
 * @s: the text (bytes past 0x7f are written as they are: UTF-8 stays)
 *
 * The escaping of the library's JSON writer, for a program that writes
 * JSON of its own around the tables (one document per live interval).
 */
void lt_json_string(FILE *fp, const char *s);

/**
 * lt_list_parse - a list of CPUs or pids as every option takes it
 * @text: "0,2-3": numbers and ranges, comma-separated
 * @values: receives a malloc()ed array of the numbers, each once, in the
 *	    order given (free() it)
 * @nr: receives the array's length
 *
 * The rule of the run's "cpu" and "pid" options (lt_run_set()), for a
 * program that takes such lists for something else (a recording's CPUs).
 *
 * Return: 0, or -1 for a malformed or empty list, a range of more than
 * 65536 numbers, or no memory (@values then untouched).
 */
int lt_list_parse(const char *text, int **values, int *nr);

/**
 * lt_time_format - a trace time as the kernel prints it
 * @ns: the time
 * @full: print every nanosecond ("7.613676650") instead of rounding to
 *	the microsecond as the kernel does ("7.613677")
 * @buf: output buffer
 * @len: its size
 *
 * Return: the length the full text needs.
 */
size_t lt_time_format(uint64_t ns, bool full, char *buf, size_t len);

/**
 * lt_time_parse - a time as the options take it
 * @text: "7.25" (seconds), "7250ms", "20us", "300ns", "1.5s"
 * @ns: receives the time in ns
 *
 * Return: 0, or -1 if @text is not a time.
 */
int lt_time_parse(const char *text, uint64_t *ns);

/**
 * enum lt_format - how a writer prints tables
 * @LT_FORMAT_TEXT: aligned columns for people
 * @LT_FORMAT_JSON: one document: {"version": 3, "NAME": [rows], ...}
 * @LT_FORMAT_CSV: RFC 4180, a header line, one table per writer
 * @LT_FORMAT_NDJSON: one JSON object per row, one table per writer
 */
enum lt_format {
	LT_FORMAT_TEXT = 0,
	LT_FORMAT_JSON,
	LT_FORMAT_CSV,
	LT_FORMAT_NDJSON,
};

/* The version of the JSON documents and rows (docs/json.md). */
#define LT_JSON_VERSION_3 3

/* lt_writer_new() flags */
#define LT_WRITE_FULL_NS	0x1	/* text: times in full ns (-t) */
/*
 * JSON: the document's body alone, its tables without the version and
 * without the last newline, for the caller to nest in its own document
 * (compare's "a" and "b").
 */
#define LT_WRITE_BODY		0x2

struct lt_writer;

/**
 * lt_writer_new - start writing tables
 * @fp: where to
 * @format: how
 * @flags: %LT_WRITE_FULL_NS, %LT_WRITE_BODY
 *
 * Return: the writer, or NULL if out of memory.
 */
struct lt_writer *lt_writer_new(FILE *fp, enum lt_format format,
				unsigned int flags);

/**
 * lt_writer_table - write every row left in a table
 * @w: the writer
 * @t: the table
 *
 * A CSV or NDJSON output holds one table, from one run or from several:
 * the same table again (another run's, another input's) continues it,
 * its rows after the others' and, in CSV, under the same header. A
 * table not read yet (from a run not opened) writes the header alone.
 *
 * Return: the rows written, or -1 on a read error (lt_run_error()), for
 * another table to a CSV or NDJSON writer, or for a table with a column
 * of the prefix's name (lt_writer_set_prefix()).
 */
long lt_writer_table(struct lt_writer *w, struct lt_table *t);

/**
 * lt_writer_set_prefix - a constant column before each row's own
 * @w: the writer
 * @name: the column's name ("trace"), or NULL for none
 * @value: its value, text, in every row written from now on; NULL: null
 *
 * For many inputs in one output: the rows of each input's table carry
 * which input they come from, so that the outputs of many traces
 * concatenate (DuckDB, Spark, pandas). Set @value before each
 * lt_writer_table(). In CSV the name is in the header: it cannot change
 * once a table was written.
 *
 * Return: 0, or -1 if out of memory or if @name would change a CSV
 * header already written.
 */
int lt_writer_set_prefix(struct lt_writer *w, const char *name,
			 const char *value);

/**
 * lt_writer_end - finish the document and free the writer
 * @w: the writer, may be NULL
 *
 * Return: 0, or -1 if writing failed (a full disk, a closed pipe).
 */
int lt_writer_end(struct lt_writer *w);

/**
 * enum lt_lathist_kind - the two latency histograms of a task
 * @LT_LATHIST_LAZY: from a lazy request to the task's switch out
 * @LT_LATHIST_EAGER: from an eager request (direct, or the upgrade of a
 *	lazy one) to the task's switch out
 * @LT_LATHIST_KIND_MAX: the number of kinds
 */
enum lt_lathist_kind {
	LT_LATHIST_LAZY = 0,
	LT_LATHIST_EAGER,
	LT_LATHIST_KIND_MAX,
};

/**
 * struct lt_lathist_row - one task's (or one comm's) histograms
 * @pid: the task, or -1 in a histogram by comm
 * @comm: its name
 * @buckets: per kind, the counts of the buckets (lt_lathist_new()'s @entries)
 * @over: per kind, requests that waited past the last bucket
 * @count: per kind, all requests
 * @sum_ns: per kind, their total wait
 * @min_ns: per kind, the shortest wait (a bucket's start where the counts
 *	came in buckets, as from the kernel)
 * @max_ns: per kind, the longest (there: the end of the last bucket)
 */
struct lt_lathist_row {
	int pid;
	const char *comm;
	const uint64_t *buckets[LT_LATHIST_KIND_MAX];
	uint64_t over[LT_LATHIST_KIND_MAX];
	uint64_t count[LT_LATHIST_KIND_MAX];
	uint64_t sum_ns[LT_LATHIST_KIND_MAX];
	uint64_t min_ns[LT_LATHIST_KIND_MAX];
	uint64_t max_ns[LT_LATHIST_KIND_MAX];
};

struct lt_lathist;

/**
 * lt_lathist_new - empty request-to-served latency histograms
 * @bucket_ns: the width of a bucket
 * @entries: the number of buckets (from 0); longer waits count as over
 * @by_comm: one row per comm rather than per task
 *
 * Memory grows with the tasks, not with the requests. The idle tasks
 * (pid 0) have no row: a request to an idle CPU is a wakeup.
 *
 * Return: the histograms, or NULL if out of memory or the sizes are 0.
 */
struct lt_lathist *lt_lathist_new(uint64_t bucket_ns, unsigned int entries,
			    bool by_comm);

/**
 * lt_lathist_free - free histograms
 * @h: the histograms, may be NULL
 */
void lt_lathist_free(struct lt_lathist *h);

/**
 * lt_lathist_add - count requests of one task
 * @h: the histograms
 * @pid: the task
 * @comm: its name
 * @kind: lazy or eager
 * @lat_ns: the wait (or the start of the bucket the requests fell in)
 * @count: how many requests
 * @sum_ns: their total wait (@lat_ns * @count if not known otherwise)
 *
 * Return: 0, or -1 if out of memory.
 */
int lt_lathist_add(struct lt_lathist *h, int pid, const char *comm,
		enum lt_lathist_kind kind, uint64_t lat_ns, uint64_t count,
		uint64_t sum_ns);

/**
 * lt_lathist_row - count a transitions table's row
 * @h: the histograms
 * @t: a "transitions" table of a run, on a row (lt_table_next(),
 *     lt_run_next())
 *
 * What the kernel's hist triggers count (lt_khist_begin()), from the
 * transitions: a lazy request counts from its request to the task's
 * switch out, an eager one from its request, or from the upgrade of a
 * lazy one, to the switch out; requests cleared without a switch count
 * in neither. Read every row of every interval of a live run, it gives
 * the histograms of the whole run.
 *
 * Return: 0, or -1 if out of memory or @t is not a transitions table.
 */
int lt_lathist_row(struct lt_lathist *h, const struct lt_table *t);

/**
 * lt_lathist_rows - the rows, largest count first
 * @h: the histograms
 * @nr: receives the number of rows
 *
 * Return: the rows, valid until the next lt_lathist_add(),
 * lt_lathist_row() or lt_lathist_free(); NULL if out of memory.
 */
const struct lt_lathist_row *lt_lathist_rows(struct lt_lathist *h, size_t *nr);

/**
 * lt_lathist_window - the first and last switch out counted, in trace time
 * @h: the histograms
 * @first_ns: receives the first (0 if none)
 * @last_ns: receives the last (0 if none)
 *
 * The window of a live run's histograms, to compare them with a trace
 * recorded around it. Counts given as buckets (lt_lathist_add(), the
 * kernel's) carry no time.
 *
 * Return: true if a switch out was counted from transitions
 * (lt_lathist_row()), false otherwise.
 */
bool lt_lathist_window(const struct lt_lathist *h, uint64_t *first_ns,
		       uint64_t *last_ns);

/**
 * lt_lathist_bucket_ns - the width of a bucket
 * @h: the histograms
 *
 * Return: lt_lathist_new()'s @bucket_ns.
 */
uint64_t lt_lathist_bucket_ns(const struct lt_lathist *h);

/**
 * lt_lathist_entries - the number of buckets
 * @h: the histograms
 *
 * Return: lt_lathist_new()'s @entries.
 */
unsigned int lt_lathist_entries(const struct lt_lathist *h);

struct lt_khist;

/**
 * typedef lt_khist_fn - receives one bucket of the kernel's histograms
 * @data: the caller's pointer
 * @pid: the task
 * @comm: its name
 * @kind: lazy or eager
 * @lat_ns: the start of the bucket
 * @count: requests in it
 * @sum_ns: their total wait
 *
 * Return: 0 to go on, anything else to stop.
 */
typedef int (*lt_khist_fn)(void *data, int pid, const char *comm,
			   enum lt_lathist_kind kind, uint64_t lat_ns,
			   uint64_t count, uint64_t sum_ns);

/**
 * lt_khist_begin - latency histograms built inside the kernel
 * @o: the CPUs (@o->cpus) and @o->note; the rest is not used
 * @bucket_ns: the width of a bucket
 * @lazy_tif: the TIF bit of a lazy request, or -1 for this kernel's if
 *	it is known (x86-64, Linux 7)
 * @err: receives one line on failure: why the kernel cannot (no hist
 *	triggers, no synthetic events, no sched_set_need_resched_tp, ...)
 * @len: size of @err
 *
 * A tracepoint probe on sched_set_need_resched_tp keeps each task's last
 * lazy and eager request time in hist trigger variables; sched_switch
 * turns them into synthetic events whose hist triggers count the waits
 * per task and bucket. Nothing goes through the ring buffer. Requests to
 * the idle tasks are left out.
 *
 * Return: the session, counting, or NULL with @err set and nothing left
 * behind.
 */
struct lt_khist *lt_khist_begin(const struct lt_tracefs_opts *o,
				uint64_t bucket_ns, int lazy_tif, char *err,
				size_t len);

/**
 * lt_khist_read - read the kernel's histograms as they are now
 * @k: the session
 * @fn: called for each task, kind and bucket
 * @data: passed to @fn
 *
 * Return: 0, -1 if a histogram cannot be read (errno set), or what
 * @fn returned when not 0.
 */
int lt_khist_read(struct lt_khist *k, lt_khist_fn fn, void *data);

/**
 * lt_khist_end - remove the triggers, events and probe, and free
 * @k: the session, may be NULL
 */
void lt_khist_end(struct lt_khist *k);

#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif

#endif /* _LAZYTRACE_H */
