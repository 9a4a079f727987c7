/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Internal interfaces of the analysis: the bounded histogram, the task
 * table (lt-stats.c), the per-CPU state machine (lt-transition.c) and
 * the hog rules (lt-hogs.c).
 */
#ifndef _LT_ANALYSIS_H
#define _LT_ANALYSIS_H

#include "lazytrace.h"

/*
 * The analysis' own interface: internal since every consumer outside the
 * library reads the run's tables (docs/design.md). The unit tests and the
 * fuzzers, which drive it with events of their own, include this header
 * by its path.
 */

/**
 * enum lt_tick_source - how the analysis knows the tick
 * @LT_TICK_ESTIMATE: the median spacing of the local timer interrupts
 *	(the trace has no hrtimer events to tell the tick's own)
 * @LT_TICK_TIMER_FUNCTION: from the hrtimer_expire_entry events of the
 *	tick's own timer function
 * @LT_TICK_OPTION: the caller gave the length (&lt_analysis_opts.tick_ns)
 * @LT_TICK_SETUP: no tick events: from the HZ the trace's setup line
 *	records (&lt_analysis_summary.setup)
 * @LT_TICK_HZ_OPTION: no tick events: from the caller's HZ
 *	(&lt_analysis_opts.hz)
 * @LT_TICK_UNKNOWN: no tick events and no HZ: the tick is unknown,
 *	&lt_analysis_summary.tick_ns is 0 and no task is called a hog
 * @LT_TICK_GRID: the tick's expiry grid (timer:hrtimer_start of its
 *	handler): the shortest step between expiries, exact also where
 *	CPUs idle and the tick stops (NO_HZ), when the median overstates
 */
enum lt_tick_source {
	LT_TICK_ESTIMATE = 0,
	LT_TICK_TIMER_FUNCTION,
	LT_TICK_OPTION,
	LT_TICK_SETUP,
	LT_TICK_HZ_OPTION,
	LT_TICK_UNKNOWN,
	LT_TICK_GRID,
};

/**
 * lt_tick_source_name - "estimate", "timer_function", "option", "setup",
 *	"hz_option", "unknown" or "timer_grid"
 * @src: the source
 */
const char *lt_tick_source_name(enum lt_tick_source src);

/**
 * lt_transition_is_served - whether a kind ends a request
 * @kind: the kind
 *
 * Return: true for preempted, yielded, blocked and cleared.
 */
bool lt_transition_is_served(enum lt_transition_kind kind);

/**
 * struct lt_transition - one transition of one task
 * @kind: what happened
 * @seen_ns: time of the event that first showed it
 * @after_ns: time of the previous event on @cpu: it happened after this
 *	(equal to @seen_ns when nothing came before)
 * @cpu: the CPU
 * @pid: the task's pid
 * @task_id: the task record (differs for two tasks that reused one pid),
 *	the index + 1 of lt_analysis_task()
 * @comm: the task's name, valid during the callback
 * @request: for an upgrade, served or truncated transition: the oldest
 *	open request it ends (%LT_TR_LAZY, %LT_TR_EAGER or %LT_TR_FOLD);
 *	else @kind
 * @since_ns: seen_ns of that request (its latency is @seen_ns - @since_ns,
 *	a lower bound; @seen_ns - @since_after_ns is the upper bound)
 * @since_after_ns: after_ns of that request
 * @syscall: for a tick-upgrade: the system call the task was in, or
 *	%LT_SYSCALL_USER, or %LT_SYSCALL_UNKNOWN
 * @letter_before: need-resched letter before: as the kernel printed it on
 *	the task's last event before @seen_ns
 * @letter_after: need-resched letter at @seen_ns
 * @source: for an upgrade or tick-upgrade: what made it
 * @request_ns: for lazy, eager and upgrade transitions: the exact time the
 *	request was made, from a sched_set_need_resched probe event; 0 when
 *	the trace has none (the request is then only known to lie between
 *	@after_ns and @seen_ns)
 * @requester_pid: the task that made it (current on the requesting CPU),
 *	-1 if unknown
 * @requester_comm: its name ("" if unknown), valid during the callback
 */
struct lt_transition {
	enum lt_transition_kind kind;
	uint64_t seen_ns;
	uint64_t after_ns;
	int cpu;
	int pid;
	uint64_t task_id;
	const char *comm;
	enum lt_transition_kind request;
	uint64_t since_ns;
	uint64_t since_after_ns;
	long syscall;
	char letter_before;
	char letter_after;
	enum lt_upgrade_source source;
	uint64_t request_ns;
	int requester_pid;
	const char *requester_comm;
};

/**
 * typedef lt_transition_fn - receives each transition as it is found
 * @t: the transition, valid during the call
 * @data: the caller's pointer from &struct lt_analysis_opts
 *
 * Transitions of one CPU come in time order; those of different CPUs are
 * interleaved in the order of the events that showed them.
 */
typedef void (*lt_transition_fn)(const struct lt_transition *t, void *data);

/**
 * struct lt_latency - a latency distribution, in ns
 * @count: number of samples
 * @p50: median (0 when @count is 0)
 * @p90: 90th percentile
 * @p99: 99th percentile
 * @max: largest sample, exact
 */
struct lt_latency {
	uint64_t count;
	uint64_t p50;
	uint64_t p90;
	uint64_t p99;
	uint64_t max;
};

/**
 * struct lt_task_stats - what the analysis knows about one task
 * @id: the task record's number, from 1 (see &struct lt_transition)
 * @pid: its pid (0 for a CPU's idle task, one record per CPU)
 * @comm: its last name
 * @first_ns: its first appearance (event, switch or wakeup naming it)
 * @last_ns: its last appearance
 * @runtime_ns: time it was current on some CPU
 * @lifetime_share: the share of its lifetime: @runtime_ns / (@last_ns -
 *	@first_ns), a fraction of one CPU while it existed (0 when the span
 *	is 0); high for a short-lived task that ran most of its life
 * @trace_share: the share of the trace: @runtime_ns / the trace's span
 *	(&struct lt_analysis_summary first_ns to last_ns), a fraction of one
 *	CPU over the whole trace
 * @cpus: the CPUs it ran on, as a list ("1", "0-1,3")
 * @count: transitions by kind; %LT_TR_UPGRADE does not include
 *	%LT_TR_TICK_UPGRADE
 * @switches: times it was switched out, by &enum lt_prev_state
 * @latency: latency distributions by &enum lt_latency_kind
 * @hog: whether it is a hog (docs/model.md §7, thresholds of &struct
 *	lt_analysis_opts)
 * @episodes: hog episodes: lazy requests still pending at a tick after
 *	being pending for at least the episode threshold
 * @pending_ns: total time its served lazy requests were pending
 * @max_pending_ns: its longest lazy request: the longest served one, or
 *	an unserved one up to the last tick that saw it pending
 * @upgrades_user: tick-upgrades that found it in user space
 * @upgrades_syscall: tick-upgrades that found it in a system call
 * @top_syscall: the system call most of those found it in, or -1
 * @upgrades_by_source: its upgrades (tick-upgrades included) by
 *	&enum lt_upgrade_source; they add up to its upgrade total
 * @requested: lazy or eager requests of it whose requester a probe named
 */
struct lt_task_stats {
	uint64_t id;
	int pid;
	char comm[LT_COMM_LEN];
	uint64_t first_ns;
	uint64_t last_ns;
	uint64_t runtime_ns;
	double lifetime_share;
	double trace_share;
	char cpus[64];
	uint64_t count[LT_TR_KIND_MAX];
	uint64_t switches[3];
	struct lt_latency latency[LT_LAT_KIND_MAX];
	bool hog;
	uint64_t episodes;
	uint64_t pending_ns;
	uint64_t max_pending_ns;
	uint64_t upgrades_user;
	uint64_t upgrades_syscall;
	long top_syscall;
	uint64_t upgrades_by_source[LT_UPG_SOURCE_MAX];
	uint64_t requested;
};

/**
 * struct lt_analysis_summary - the whole trace
 * @abi: the flag ABI the analysis decoded with
 * @lazy_seen: whether any event carried the lazy bit; false means the
 *	kernel ran without lazy preemption (or the ABI is legacy)
 * @events: events analysed
 * @first_ns: first event's time
 * @last_ns: last event's time
 * @nr_cpus: highest CPU seen + 1
 * @lost_events: events the ring buffer reported lost, all CPUs
 * @lost_unknown: times a CPU lost events without saying how many
 * @switches: every sched_switch (the idle task's included) by
 *	&enum lt_prev_state of prev
 * @count: transitions by kind, all tasks
 * @latency: latency distributions of all tasks
 * @tick_ns: the tick length used for hog detection; 0 when it is unknown
 *	(@tick_source %LT_TICK_UNKNOWN)
 * @tick_from_trace: whether @tick_ns is the median tick spacing in the
 *	trace (else it comes from the options)
 * @ticks: tick events seen
 * @nr_tasks: task records (lt_analysis_task())
 * @nr_hogs: hogs (lt_analysis_hogs())
 * @tick_source: where @tick_ns comes from
 * @upgrades_by_source: every upgrade (tick-upgrades included) by
 *	&enum lt_upgrade_source
 * @requests_probe: whether the trace has sched_set_need_resched probe
 *	events, which give exact request times and requesters
 * @setup: the kernel's setup, from the trace's setup line
 */
struct lt_analysis_summary {
	enum lt_abi abi;
	bool lazy_seen;
	uint64_t events;
	uint64_t first_ns;
	uint64_t last_ns;
	int nr_cpus;
	uint64_t lost_events;
	uint64_t lost_unknown;
	uint64_t switches[3];
	uint64_t count[LT_TR_KIND_MAX];
	struct lt_latency latency[LT_LAT_KIND_MAX];
	uint64_t tick_ns;
	bool tick_from_trace;
	uint64_t ticks;
	size_t nr_tasks;
	size_t nr_hogs;
	enum lt_tick_source tick_source;
	uint64_t upgrades_by_source[LT_UPG_SOURCE_MAX];
	bool requests_probe;
	struct lt_setup setup;
};

/**
 * struct lt_analysis_opts - how to analyse
 * @abi: flag ABI; %LT_ABI_AUTO takes the reader's in lt_analysis_run()
 *	and means mainline for lt_analysis_feed() alone
 * @tick_ns: tick length for hog detection; 0 takes it from the trace
 *	(median tick spacing), else from @hz, else from the HZ the trace's
 *	setup line records, else it is unknown and no task is called a hog
 * @hz: tick rate when the trace has no ticks; 0: not given (no default:
 *	a kernel's HZ is 100 to 1000)
 * @episode_ticks: pending time, in ticks, that makes a hog episode;
 *	0 means 0.5
 * @hog_episodes: episodes that make a hog; 0 means 3
 * @hog_pending_ticks: a single lazy request pending longer than this many
 *	ticks makes a hog; 0 means 2
 * @on_transition: called with each transition, or NULL
 * @data: passed to @on_transition
 */
struct lt_analysis_opts {
	enum lt_abi abi;
	uint64_t tick_ns;
	unsigned int hz;
	double episode_ticks;
	unsigned int hog_episodes;
	double hog_pending_ticks;
	lt_transition_fn on_transition;
	void *data;
};

struct lt_analysis;

/**
 * lt_analysis_new - start an analysis
 * @opts: options, or NULL for defaults
 *
 * Return: the analysis, or NULL if out of memory.
 */
struct lt_analysis *lt_analysis_new(const struct lt_analysis_opts *opts);

/**
 * lt_analysis_feed - analyse one event
 * @a: the analysis
 * @ev: the event; events of one CPU must come in time order
 *
 * Calls the transition callback for what @ev shows.
 *
 * Return: 0, or -1 if out of memory (the analysis is then incomplete but
 * stays usable).
 */
int lt_analysis_feed(struct lt_analysis *a, const struct lt_event *ev);

/**
 * lt_analysis_run - analyse every event of a reader, then finish
 * @a: the analysis
 * @r: a reader, positioned before its first event
 *
 * Takes the reader's flag ABI unless the options named one.
 *
 * Return: 0, or -1 if the reader stopped on an error (see
 * lt_reader_error()) or memory ran out; the analysis is finished either
 * way.
 */
int lt_analysis_run(struct lt_analysis *a, struct lt_reader *r);

/**
 * lt_analysis_finish - end the analysis and compute the results
 * @a: the analysis
 *
 * Requests still open end as %LT_TR_TRUNCATED (and are reported to the
 * callback). Computes percentiles, the tick length and the hogs. Further
 * events are ignored; calling it again does nothing.
 */
void lt_analysis_finish(struct lt_analysis *a);

/**
 * lt_analysis_summary - global results, after lt_analysis_finish()
 * @a: the analysis
 *
 * Return: the summary, owned by @a.
 */
const struct lt_analysis_summary *lt_analysis_summary(const struct lt_analysis *a);

/**
 * lt_analysis_lost - events lost on one CPU
 * @a: the analysis
 * @cpu: the CPU
 * @unknown: if not NULL, set when the CPU also lost an unknown number
 *
 * Return: the number of events the ring buffer reported lost on @cpu.
 */
uint64_t lt_analysis_lost(const struct lt_analysis *a, int cpu, bool *unknown);

/**
 * lt_analysis_task - one task's results, after lt_analysis_finish()
 * @a: the analysis
 * @i: 0 .. summary->nr_tasks - 1, in order of first appearance
 *
 * Return: the task, or NULL if @i is out of range.
 */
const struct lt_task_stats *lt_analysis_task(const struct lt_analysis *a,
					     size_t i);

/**
 * lt_analysis_hogs - the hogs, worst first, after lt_analysis_finish()
 * @a: the analysis
 * @nr: receives the number of hogs
 *
 * Ranked by total pending time of lazy requests.
 *
 * Return: an array of @nr tasks owned by @a (NULL when there is none).
 */
const struct lt_task_stats *const *lt_analysis_hogs(const struct lt_analysis *a,
						    size_t *nr);

/**
 * lt_analysis_free - free an analysis and all its results
 * @a: the analysis, may be NULL
 */
void lt_analysis_free(struct lt_analysis *a);


/*
 * Log-linear histogram: values below 64 are exact; above, each power of
 * two is split into 64 buckets, allocated on first use. A value is
 * reported as the middle of its bucket: relative error below 0.8%.
 */
#define LT_HIST_SUB_BITS	6
#define LT_HIST_SUB		(1U << LT_HIST_SUB_BITS)
#define LT_HIST_ROWS		(64 - LT_HIST_SUB_BITS + 1)

struct lt_hist {
	uint64_t count;
	uint64_t min;
	uint64_t max;
	uint32_t **row;		/* LT_HIST_ROWS rows, allocated on first use */
};

int lt_hist_add(struct lt_hist *h, uint64_t v);
/* Samples >= @v (counted by bucket: a bucket counts if its middle is). */
uint64_t lt_hist_count_ge(const struct lt_hist *h, uint64_t v);
/* Whether sample @s of @h is one of those lt_hist_count_ge(@h, @v) counts. */
bool lt_hist_sample_ge(const struct lt_hist *h, uint64_t s, uint64_t v);
void lt_hist_latency(const struct lt_hist *h, struct lt_latency *out);
void lt_hist_free(struct lt_hist *h);

enum lt_task_life {
	LT_TASK_ALIVE = 0,
	LT_TASK_EXITING,	/* sched_process_exit seen, still on a CPU */
	LT_TASK_GONE,		/* dead: the next task with its pid is new */
};

struct lt_task {
	struct lt_task_stats st;
	enum lt_task_life life;
	bool ran;		/* has been current on a CPU */
	int running_on;		/* CPU it is current on, -1 if none */
	uint64_t *cpu_mask;	/* CPUs it ran on */
	int cpu_mask_words;
	long syscall;		/* LT_SYSCALL_* or the current system call */
	struct lt_hist lat[LT_LAT_KIND_MAX];
	struct lt_hist at_tick;	/* per lazy request: pending at its last tick */
	uint64_t max_task_pending; /* longest lazy request, irq time excluded */
	uint64_t max_ticks;	/* most ticks that found one lazy request */
	/* a small table of the system calls tick-upgrades found it in */
	long sc_id[8];
	uint64_t sc_count[8];
	struct lt_task *next_hash;
	struct lt_task_sites *sites;	/* its stacks at ticks (lt-stack.c) */
	struct lt_preemption *preempted; /* its last R+ switch, until it runs
					  * again (lt-preempt.c); NULL if none */
};

/* A need-resched request of the current task, open until served. */
struct lt_req {
	bool open;
	uint64_t seen;
	uint64_t after;
	uint64_t at_tick;	/* lazy: pending time at the last tick seen */
	uint64_t tick_ts;	/* lazy: the time of that tick */
	bool upgraded;		/* lazy: the upgrade was seen */
	uint64_t upgrade_ns;	/* lazy: when the first upgrade showed */
	enum lt_upgrade_source upgrade_src;	/* and what made it */
	uint64_t irq_at_open;	/* the CPU's timer irq time when it opened */
	uint64_t ticks;		/* lazy: ticks that found it pending */
	uint64_t request_ns;	/* from a probe: when it was made, else 0 */
	int requester_pid;
	char requester_comm[LT_COMM_LEN];
	const struct lt_stk *stack; /* lazy: the stack at its last tick */
	enum lt_upgrade_source src;	/* eager: the context it showed in */
	bool ipi;		/* eager: shown by a reschedule IPI */
};

/* A sched_set_need_resched probe event, waiting for the flags to show it. */
struct lt_probe {
	uint64_t ts;
	int pid;		/* the target */
	int requester_pid;
	char requester_comm[LT_COMM_LEN];
};

#define LT_PROBES_PER_CPU 4

/* Step lengths of the tick's expiry grid kept per CPU (lt-hogs.c). */
#define LT_GRID_SLOTS 8

struct lt_cpu {
	bool seen;		/* had an event */
	bool baseline;		/* e/l/p below describe cur */
	bool e, l, p;
	char letter;
	uint64_t last_ts;
	int cur_pid;
	struct lt_task *cur;
	uint64_t run_start;
	uint64_t ran_from;	/* the run_start of the task released last,
				 * 0 if none: the run a switch ends */
	struct lt_req lazy, eager, fold;
	/* tick context */
	int in_local_timer;
	bool in_tick_hrtimer;
	bool hrtimer_ticks;	/* the tick handler shows up as an hrtimer */
	bool irq_tick_counted;	/* this local timer irq counted as a tick */
	bool fn_traced;		/* resched_curr is function-traced here */
	bool tick_resched;	/* the last resched_curr came from the tick */
	bool in_irq;		/* in a timer interrupt (local timer or tick) */
	int hrtimer_src;	/* running hrtimer: LT_UPG_* + 1, 0 for none */
	struct lt_probe probe[LT_PROBES_PER_CPU];
	int nr_probe;
	uint64_t irq_start;
	uint64_t irq_ns;	/* time spent in completed timer interrupts,
				 * and in softirqs run at an interrupt's exit */
	bool last_irq;		/* the last event was in interrupt context */
	uint64_t last_tick;
	/* tick spacings: a bounded uniform sample, for an exact median */
	uint64_t *spacing;
	uint32_t nr_spacing;
	uint64_t spacings_seen;
	/* the tick's expiry grid: steps between expiries, counted */
	uint64_t grid_last;
	struct lt_grid_step {
		uint64_t step;
		uint32_t count;
	} grid[LT_GRID_SLOTS];
	uint64_t ticks;
	uint64_t lost;
	bool lost_unknown;
	struct lt_task *idle;
	bool stack_slot;	/* a kernel_stack now would be the tick's */
	/*
	 * The last event not the function tracer's (which traces the
	 * scheduler's own calls just before a switch) was in a hard or
	 * soft interrupt, and which.
	 */
	bool ctx_irq, ctx_softirq;
	uint64_t switch_ins;	/* sched_switches to a task other than idle */
	struct lt_task *preempt_slot;	/* a kernel_stack now is the stack of
					 * this task's R+ switch */
	/*
	 * The task the last sched_switch took off, until an event of
	 * another: events it still writes (the context switch's own, a
	 * stack trigger's) change no task. 0 for none.
	 */
	int tail_pid;
	bool tail;
};

/* The bits the state machine needs of one flag byte, under the ABI. */
struct lt_bits {
	bool e, l, p;
	bool irq;		/* hard or soft interrupt context */
	bool softirq;
	char letter;
};

/*
 * One hog episode (docs/model.md §7), for a consumer inside the library
 * (the episodes table): a lazy request still pending at the last tick
 * that saw it, pending by then for at least the episode threshold.
 */
struct lt_episode {
	const struct lt_task_stats *task;	/* its episodes are counted */
	int cpu;
	uint64_t tick_time_ns;	/* that last tick: it made the episode */
	uint64_t since_ns;	/* the request's seen_ns (struct lt_transition) */
	uint64_t pending_ns;	/* pending at that tick, timer interrupts and
				 * softirqs at their exit left out */
	const char *site;	/* call site of its stack at a tick (valid
				 * while the analysis is), NULL if none */
	uint64_t after_ns;	/* the request's after_ns: the flags' bound */
	uint64_t ticks;		/* ticks that found it pending */
	bool upgraded;		/* an upgrade showed: upgrade_ns, _src */
	uint64_t upgrade_ns;
	enum lt_upgrade_source upgrade_src;
	uint64_t end_ns;	/* when it ended */
	enum lt_transition_kind how;	/* preempted ... truncated */
};

typedef void (*lt_episode_fn)(const struct lt_episode *ep, void *data);

/* Where a preempted task was (docs/model.md §9). */
enum lt_place {
	LT_PLACE_UNKNOWN = 0,
	LT_PLACE_USER,
	LT_PLACE_SYSCALL,
	LT_PLACE_PAGE_FAULT,
	LT_PLACE_IRQ,
	LT_PLACE_SOFTIRQ,
	LT_PLACE_KTHREAD,
	LT_PLACE_KERNEL,
	LT_PLACE_MAX,
};

/* What told the place. */
enum lt_place_from {
	LT_FROM_NONE = 0,
	LT_FROM_STACK,
	LT_FROM_SYSCALLS,
	LT_FROM_FLAGS,
	LT_FROM_MAX,
};

/*
 * One involuntary preemption (an R+ switch), for a consumer inside the
 * library (the preempts tables): made when the task next runs, or at the
 * end of the analysis (back_ns 0: its cost is unknown).
 */
struct lt_preemption {
	const struct lt_task_stats *task;
	int cpu;
	uint64_t ts;			/* the sched_switch */
	enum lt_place place;
	enum lt_place_from place_from;
	long syscall;			/* LT_SYSCALL_* or the call's number */
	const char *syscall_name;	/* from the stack ("read"), or NULL */
	enum lt_transition_kind request; /* lazy, eager, fold; else served */
	bool upgraded;			/* lazy: an upgrade showed */
	enum lt_upgrade_source source;	/* the upgrade's, or the eager
					 * request's context */
	bool ipi;			/* eager: shown by a reschedule IPI */
	uint64_t since_ns;		/* the request's seen_ns, 0: none */
	uint64_t request_ns;		/* from a probe, else 0 */
	int requester_pid;
	char requester_comm[LT_COMM_LEN];
	const struct lt_stk *stack;	/* at the switch, else the tick's */
	bool stack_at_switch;
	const char *site;		/* the stack's preemption site */
	int next_pid;
	char next_comm[LT_COMM_LEN];
	uint64_t back_ns;		/* when it ran again, 0 if not seen */
	int back_cpu;
	uint64_t switch_ins;		/* the CPU's switch_ins at ts */
	uint64_t others;		/* switch-ins there until back_ns */
};

typedef void (*lt_preempt_fn)(const struct lt_preemption *p, void *data);

/* A request a tick saw pending: an episode if the tick says so at the end. */
struct lt_ep_candidate {
	struct lt_task *task;
	int cpu;
	uint64_t tick_time_ns, since_ns, pending_ns;
	const struct lt_stk *stack;
	uint64_t after_ns, ticks, upgrade_ns, end_ns;
	enum lt_upgrade_source upgrade_src;
	enum lt_transition_kind how;
	bool upgraded;
};

struct lt_analysis {
	struct lt_analysis_opts opts;
	enum lt_abi abi;
	bool bits_ready;
	struct lt_bits bits[256];	/* by common_flags value */
	bool finished;
	struct lt_analysis_summary sum;
	struct lt_cpu *cpus;
	int nr_cpus_alloc;
	/* tasks, in order of first appearance; hash of the live ones by pid */
	struct lt_task **tasks;
	size_t nr_tasks, tasks_alloc;
	struct lt_task **hash;
	size_t hash_size;
	struct lt_hist lat[LT_LAT_KIND_MAX];
	const struct lt_task_stats **hogs;
	size_t nr_hogs;
	bool oom;
	bool hrtimer_ticks;	/* some CPU's tick showed up as an hrtimer */
	struct lt_stack_table *stacks;	/* lt-stack.c */
	/* the setup line's lazy=, lt_analysis_lazy_capability() */
	char lazy_state[16];
	char lazy_reason[128];
	/*
	 * Called once per hog episode, in the order the requests ended.
	 * Without a judge (below), by lt_analysis_finish(), after the
	 * tasks' episodes are counted: the tick length, and so what is an
	 * episode, is known only then; the requests a tick saw pending are
	 * kept until then (about 100 bytes each). With one, as each
	 * request ends, keeping nothing. Set before the first event.
	 */
	lt_episode_fn on_episode;
	void *episode_data;
	struct lt_ep_candidate *cand;
	size_t nr_cand, alloc_cand;
	/*
	 * A finished analysis of the same events with the same options,
	 * or NULL: with it, on_episode is called as each request ends,
	 * judged by its tick and its tasks' histograms (the task ids are
	 * the same), and nothing is kept. Not owned.
	 */
	const struct lt_analysis *judge;
	uint64_t ep_ns;		/* the episode threshold, at the end */
	/*
	 * Called once per R+ switch, when the task runs again (or at the
	 * end, cost unknown). Set before the first event.
	 */
	lt_preempt_fn on_preempt;
	void *preempt_data;
};

/*
 * The name of latency kind @kind: "lazy_served", "eager_served",
 * "lazy_upgrade" or "fold_served" (lt-transition.c). Internal: the run's
 * tables name their latency rows with it; a caller reads the names there.
 */
const char *lt_latency_name(enum lt_latency_kind kind);

/* When the run the switch just fed to @a ended on @cpu began; 0 if unknown. */
uint64_t lt_analysis_switch_ran_from(const struct lt_analysis *a, int cpu);

/* lt-stats.c */
struct lt_task *lt_task_lookup(struct lt_analysis *a, int pid, int cpu);
struct lt_task *lt_task_new(struct lt_analysis *a, int pid, int cpu,
			    const char *comm, uint64_t ts);
void lt_task_seen(struct lt_task *t, uint64_t ts);
void lt_task_set_comm(struct lt_task *t, const char *comm);
int lt_task_ran_on(struct lt_task *t, int cpu);
void lt_task_latency(struct lt_analysis *a, struct lt_task *t,
		     enum lt_latency_kind k, uint64_t ns);
void lt_task_upgrade_syscall(struct lt_task *t, long sc);
void lt_stats_finish(struct lt_analysis *a);
void lt_stats_free(struct lt_analysis *a);

/* lt-hogs.c */
void lt_hogs_tick(struct lt_analysis *a, struct lt_cpu *c, uint64_t ts);
void lt_hogs_request_end(struct lt_analysis *a, struct lt_cpu *c,
			 struct lt_task *t, const struct lt_req *lazy,
			 uint64_t end, enum lt_transition_kind how);
uint64_t lt_hogs_irq_time(const struct lt_cpu *c, uint64_t ts);
void lt_hogs_finish(struct lt_analysis *a);
int lt_hogs_spacing(struct lt_cpu *c, uint64_t ns);
void lt_hogs_grid(struct lt_cpu *c, uint64_t expires);

/* lt-stack.c */
void lt_stack_feed(struct lt_analysis *a, struct lt_cpu *c,
		   const struct lt_event *ev);
int lt_stack_request_end(struct lt_analysis *a, struct lt_task *t,
			 const struct lt_req *lazy, uint64_t pending);
int lt_stack_finish(struct lt_analysis *a, uint64_t ep_ns);
/* The stack after an R+ switch: the preemption's (lt-preempt.c). */
const struct lt_stk *lt_stack_intern_event(struct lt_analysis *a,
					   const struct lt_event *ev);
/* An interned stack's frames, innermost first. */
unsigned int lt_stack_frames(const struct lt_stk *stk,
			     const char *const **frames);
/* Its frames joined by ';', innermost first, kept with the stack. */
const char *lt_stack_joined(const struct lt_stk *stk);
/* The call site of an interned stack, NULL for none. */
const char *lt_stack_site(const struct lt_stk *stk);
/* Whether the stack was cut short (or reduced to its site, past the cap). */
bool lt_stack_truncated(const struct lt_stk *stk);
/*
 * The stack of the lazy request open on @cpu: the one its last tick took
 * (lt_stack_feed()), which the stacks and sites count it under; NULL if
 * none. A tick-upgrade's stack, read as the upgrade is emitted.
 */
const struct lt_stk *lt_stack_of_request(const struct lt_analysis *a, int cpu);
void lt_stack_free(struct lt_analysis *a);
/*
 * Internal: the run's sites and stacks tables give these; a caller
 * reads them there (the TUI did, until issue 24).
 *
 * struct lt_site - where a task ran with a lazy request pending at a tick
 * @function: the call site: the innermost frame of the stack that is
 *	not interrupt entry or tracing (lt_stack_frame_is_entry()), or
 *	"[no stack]" for episodes the trace has no stack for, "[unknown]"
 *	for a stack of entry frames only
 * @episodes: hog episodes (see &struct lt_task_stats) whose stack it is
 * @pending_ns: total time their lazy requests were pending (served ones,
 *	as &lt_task_stats.pending_ns)
 * @stack: the full stack, innermost frame first: function names, or
 *	addresses in hex where there is no symbol. For a site: its stack
 *	with the most episodes
 * @nr_frames: frames in @stack
 * @truncated: the stack was cut short (its outermost frames are missing)
 */
struct lt_site {
	const char *function;
	uint64_t episodes;
	uint64_t pending_ns;
	const char *const *stack;
	unsigned int nr_frames;
	bool truncated;
};

/*
 * lt_analysis_sites - a task's call sites, after lt_analysis_finish()
 * @a: the analysis
 * @t: a task of @a
 * @nr: receives the number of sites
 *
 * The stacks of the kernel_stack events that follow a tick (or the timer
 * interrupt entry) finding the task's lazy request pending, one per
 * request (the last tick's), grouped by call site and ranked by
 * episodes, then pending time. Only requests that made an episode count;
 * sites with no episode are left out. "[no stack]" counts the episodes
 * without a stack once the trace has stacks. Returns an array owned by
 * @a (NULL when @nr is 0).
 */
const struct lt_site *lt_analysis_sites(const struct lt_analysis *a,
					const struct lt_task_stats *t,
					size_t *nr);

/*
 * Internal: the run's stacks table and meta's kernel_stacks and
 * kernel_stacks_at_ticks give these; a caller reads them there.
 *
 * A task's distinct stacks, after lt_analysis_finish(): as
 * lt_analysis_sites() but one entry per distinct stack (its function is
 * the stack's site); the entries of one site add up to the site. Memory
 * is bounded: past a cap of distinct stacks per task, new ones count
 * under their site's first stack.
 */
const struct lt_site *lt_analysis_stacks(const struct lt_analysis *a,
					 const struct lt_task_stats *t,
					 size_t *nr);
/*
 * How the trace's kernel stacks were used: *@seen kernel_stack events,
 * *@used of them after a tick with a lazy request pending.
 */
void lt_analysis_stack_counts(const struct lt_analysis *a, uint64_t *seen,
			      uint64_t *used);

/* lt-preempt.c */
void lt_preempt_switch(struct lt_analysis *a, struct lt_cpu *c,
		       struct lt_task *prev, const struct lt_event *ev);
void lt_preempt_stack(struct lt_analysis *a, struct lt_cpu *c,
		      const struct lt_event *ev);
void lt_preempt_back(struct lt_analysis *a, struct lt_cpu *c,
		     struct lt_task *t, uint64_t ts);
void lt_preempt_finish(struct lt_analysis *a);
void lt_preempt_free(struct lt_analysis *a);
const char *lt_place_name(enum lt_place p);
const char *lt_place_from_name(enum lt_place_from f);

/* Internal since live reads them from tables (docs/design.md). */
/**
 * lt_analysis_lazy_capability - whether the kernel could preempt lazily
 * @a: the analysis
 * @reason: receives why, in words (valid as long as @a)
 *
 * From the setup line record and live write (lazy=), else from the
 * events: "active" where one carried the lazy bit, else "unknown".
 *
 * Return: "active", "built_in" (in the kernel, not the current mode),
 * "absent" or "unknown".
 */
const char *lt_analysis_lazy_capability(const struct lt_analysis *a,
					const char **reason);

/**
 * lt_lathist_transition - count a transition from the analysis
 * @h: the histograms
 * @t: a transition, as &struct lt_analysis_opts.on_transition has it
 *
 * What the kernel's hist triggers count (lt_khist_begin()), from a
 * stream: a lazy request counts from its request to the task's switch
 * out, an eager one from its request, or from the upgrade of a lazy
 * one, to the switch out. Requests cleared without a switch count in
 * neither.
 *
 * Return: 0, or -1 if out of memory.
 */
int lt_lathist_transition(struct lt_lathist *h, const struct lt_transition *t);

#endif /* _LT_ANALYSIS_H */
