// SPDX-License-Identifier: LGPL-2.1
/*
 * The tables a run gives: each one's columns (named once, here, for every
 * output) and the producer that fills its rows from the reader, the
 * analysis callback or the finished analysis.
 */
#include "lt-table.h"

#define COL(n, t, u, d)	{ .name = n, .type = LT_COL_##t, .unit = u, .doc = d }
#define DEF(var, n, one, str, fn) \
	static int fn(struct lt_table *t); \
	static const struct lt_table_def var = { \
		.name = n, .cols = var##_cols, \
		.nr_cols = ARRAY_SIZE(var##_cols), .one_row = one, \
		.stream = str, .next = fn, \
	}

/* Setters for the row a producer fills; a cell not set is null. */
static void set_i(struct lt_table *t, int c, int64_t v)
{
	t->cell[c].i = v;
}

static void set_u(struct lt_table *t, int c, uint64_t v)
{
	t->cell[c].u = v;
}

static void set_d(struct lt_table *t, int c, double v)
{
	t->cell[c].d = v;
}

static void set_s(struct lt_table *t, int c, const char *v)
{
	t->cell[c].s = v;
}

static void set_null(struct lt_table *t, int c)
{
	t->null[c] = true;
}

/* A need-resched letter as a one-letter string. */
static const char *letter_str(char c)
{
	static const char letters[] = "BNLbnlp.X";
	static const char strs[][2] = {
		"B", "N", "L", "b", "n", "l", "p", ".", "X",
	};
	const char *p = c ? strchr(letters, c) : NULL;

	return p ? strs[p - letters] : "?";
}

/* ---- meta ---- */

static const struct lt_col meta_cols[] = {
	COL("file", STRING, "", "the input's path ('<stdin>': standard input)"),
	COL("format", STRING, "", "trace.dat, text or text-latency"),
	COL("file_version", INT, "", "a trace.dat's version, 6 or 7; null for text"),
	COL("byte_order", STRING, "", "little or big: the recording machine's; null for text"),
	COL("kernel", STRING, "", "kernel release the trace was recorded on"),
	COL("preempt", STRING, "", "preemption model the setup line names"),
	COL("hz", UINT, "", "CONFIG_HZ the setup line records"),
	COL("sched_features", STRING, "", "scheduler features, comma-separated"),
	COL("abi", STRING, "", "flag ABI the flags were decoded with"),
	COL("abi_reason", STRING, "", "why that ABI"),
	COL("lazy_preemption", BOOL, "", "whether any event carried the lazy bit"),
	COL("requests", STRING, "", "how requests are known: probe (exact times, requesters) or flags (a window)"),
	COL("tick_ns", DURATION, "ns", "the tick length hogs are measured in; null when unknown"),
	COL("tick_source", STRING, "", "where tick_ns comes from"),
	COL("nr_cpus", INT, "", "CPUs in the input"),
	COL("first_ns", TIMESTAMP, "ns", "first event analysed"),
	COL("last_ns", TIMESTAMP, "ns", "last event analysed"),
	COL("events", UINT, "events", "events analysed (within --cpu, --from, --to)"),
	COL("lost_events", UINT, "events", "events the ring buffer lost, all CPUs"),
	COL("lost_unknown_times", UINT, "", "times a CPU lost events without saying how many"),
	COL("truncated_at", UINT, "", "file offset where a cut trace.dat's data ends; null when whole"),
	COL("kernel_stacks", UINT, "events", "kernel_stack events"),
	COL("kernel_stacks_at_ticks", UINT, "events", "those taken at a tick with a lazy request pending"),
	COL("lazy_capability", STRING, "", "whether the kernel could preempt lazily: active, built_in (not the current mode), absent or unknown"),
	COL("lazy_capability_reason", STRING, "", "why, from the setup line (or the events)"),
	COL("setup_line", BOOL, "", "whether the trace has the setup line lazytrace record and live write"),
	COL("setup_release", STRING, "", "the kernel release that line names; null if none (kernel is then the file's)"),
	COL("cpus_seen", INT, "", "CPUs up to the highest an analysed event was on: its number plus one"),
};

DEF(meta, "meta", true, false, meta_next);

static const char *format_name(enum lt_input_format f)
{
	switch (f) {
	case LT_INPUT_TRACE_DAT:
		return "trace.dat";
	case LT_INPUT_TEXT_LATENCY:
		return "text-latency";
	default:
		return "text";
	}
}

static int meta_next(struct lt_table *t)
{
	const struct lt_run *run = t->run;
	const struct lt_analysis_summary *s = lt_analysis_summary(run->an);
	const char *kernel = lt_reader_kernel(run->reader);
	const char *reason;
	uint64_t seen, used;
	int c = 0;

	if (t->pos++)
		return 0;
	set_s(t, c++, lt_input_name(run->input));
	set_s(t, c++, format_name(lt_reader_format(run->reader)));
	if (run->reader->file_version)
		set_i(t, c++, run->reader->file_version);
	else
		set_null(t, c++);
	if (run->reader->big_endian >= 0)
		set_s(t, c++, run->reader->big_endian ? "big" : "little");
	else
		set_null(t, c++);
	if (s->setup.release[0])
		kernel = s->setup.release;
	if (kernel)
		set_s(t, c++, kernel);
	else
		set_null(t, c++);
	if (s->setup.preempt[0])
		set_s(t, c++, s->setup.preempt);
	else
		set_null(t, c++);
	if (s->setup.hz)
		set_u(t, c++, s->setup.hz);
	else
		set_null(t, c++);
	if (s->setup.found)
		set_s(t, c++, s->setup.sched_features);
	else
		set_null(t, c++);
	set_s(t, c++, lt_abi_name(s->abi));
	set_s(t, c++, run->abi_reason ? run->abi_reason : "");
	set_i(t, c++, s->lazy_seen);
	set_s(t, c++, s->requests_probe ? "probe" : "flags");
	if (s->tick_ns)
		set_u(t, c++, s->tick_ns);
	else
		set_null(t, c++);
	set_s(t, c++, lt_tick_source_name(s->tick_source));
	set_i(t, c++, lt_reader_nr_cpus(run->reader) > s->nr_cpus ?
		      lt_reader_nr_cpus(run->reader) : s->nr_cpus);
	set_u(t, c++, s->first_ns);
	set_u(t, c++, s->last_ns);
	set_u(t, c++, s->events);
	set_u(t, c++, s->lost_events);
	set_u(t, c++, s->lost_unknown);
	if (lt_reader_truncated(run->reader))
		set_u(t, c++, lt_reader_truncated(run->reader));
	else
		set_null(t, c++);
	lt_analysis_stack_counts(run->an, &seen, &used);
	set_u(t, c++, seen);
	set_u(t, c++, used);
	set_s(t, c++, lt_analysis_lazy_capability(run->an, &reason));
	set_s(t, c++, reason);
	set_i(t, c++, s->setup.found);
	if (s->setup.release[0])
		set_s(t, c++, s->setup.release);
	else
		set_null(t, c++);
	set_i(t, c++, s->nr_cpus);
	return 1;
}

/* ---- summary ---- */

#define COUNT_COLS(what) \
	COL("lazy", UINT, "", "lazy requests" what), \
	COL("eager", UINT, "", "direct eager requests" what), \
	COL("upgrades", UINT, "", "upgrades, the tick's included" what), \
	COL("tick_upgrades", UINT, "", "the part of them first seen in the tick" what), \
	COL("folds", UINT, "", "requests folded into preempt_count" what), \
	COL("preempted", UINT, "", "requests served by preemption (R+)" what), \
	COL("yielded", UINT, "", "requests served by a switch as R" what), \
	COL("blocked", UINT, "", "requests served by sleeping" what), \
	COL("cleared", UINT, "", "requests cleared without a switch" what), \
	COL("truncated", UINT, "", "requests whose end the trace lacks" what)

#define SWITCH_COLS(what) \
	COL("switches_preempted", UINT, "", "switches out as R+" what), \
	COL("switches_yielded", UINT, "", "switches out as R" what), \
	COL("switches_blocked", UINT, "", "switches out sleeping" what)

#define SOURCE_COLS(what) \
	COL("upgrades_tick", UINT, "", "upgrades made by the tick" what), \
	COL("upgrades_hrtick", UINT, "", "upgrades made by the slice timer" what), \
	COL("upgrades_timer", UINT, "", "upgrades made by another hrtimer" what), \
	COL("upgrades_irq", UINT, "", "upgrades made in another interrupt" what), \
	COL("upgrades_direct", UINT, "", "upgrades made outside interrupts" what)

static const struct lt_col summary_cols[] = {
	COUNT_COLS(", all tasks"),
	SWITCH_COLS(", all tasks (idle included)"),
	SOURCE_COLS(", all tasks"),
	COL("ticks", UINT, "", "tick events"),
	COL("tasks", UINT, "", "task records"),
	COL("hogs", UINT, "", "tasks named hogs (docs/model.md §7)"),
};

DEF(summary, "summary", true, false, summary_next);

/* COUNT_COLS' values: "upgrades" counts the tick's too, as every output */
static int put_counts(struct lt_table *t, int c, const uint64_t *count)
{
	int k;

	for (k = 0; k < LT_TR_KIND_MAX; k++)
		set_u(t, c++, k == LT_TR_UPGRADE ?
			      count[k] + count[LT_TR_TICK_UPGRADE] : count[k]);
	return c;
}

static int put_u64s(struct lt_table *t, int c, const uint64_t *v, int n)
{
	int k;

	for (k = 0; k < n; k++)
		set_u(t, c++, v[k]);
	return c;
}

static int summary_next(struct lt_table *t)
{
	const struct lt_analysis_summary *s = lt_analysis_summary(t->run->an);
	int c = 0;

	if (t->pos++)
		return 0;
	c = put_counts(t, c, s->count);
	c = put_u64s(t, c, s->switches, 3);
	c = put_u64s(t, c, s->upgrades_by_source, LT_UPG_SOURCE_MAX);
	set_u(t, c++, s->ticks);
	set_u(t, c++, s->nr_tasks);
	set_u(t, c++, s->nr_hogs);
	return 1;
}

/* ---- events ---- */

static const struct lt_col events_cols[] = {
	COL("ts_ns", TIMESTAMP, "ns", "the event's time"),
	COL("cpu", INT, "", "the CPU that wrote it"),
	COL("pid", INT, "", "the task current on it"),
	COL("comm", STRING, "", "that task's name"),
	COL("system", STRING, "", "the event's system"),
	COL("name", STRING, "", "the event's name"),
	COL("flags", STRING, "", "the latency field as the kernel prints it (irqs-off, need-resched, irq, preempt depth, migrate-disable)"),
	COL("letter", STRING, "", "the need-resched letter alone (docs/model.md)"),
	COL("need_resched", BOOL, "", "the eager request bit"),
	COL("need_resched_lazy", BOOL, "", "the lazy request bit"),
	COL("preempt_resched", BOOL, "", "the request folded into preempt_count"),
	COL("irqs_off", BOOL, "", "interrupts were disabled"),
	COL("hardirq", BOOL, "", "in a hard interrupt"),
	COL("softirq", BOOL, "", "in a softirq"),
	COL("preempt_depth", INT, "", "preempt_count's depth"),
	COL("info", STRING, "", "the event's text as the kernel prints it"),
};

DEF(events, "events", false, true, events_next);

static int events_next(struct lt_table *t)
{
	struct lt_run *run = t->run;
	const struct lt_event *ev;
	enum lt_abi abi = lt_analysis_summary(run->an)->abi;
	struct lt_flags f;
	size_t need;
	int c = 0, ret;
	char *nb;

	ret = lt_run_step(run);
	if (ret <= 0)
		return ret;
	ev = run->ev;
	f = lt_flags_decode(abi, ev->flags);
	set_u(t, c++, ev->ts);
	set_i(t, c++, ev->cpu);
	set_i(t, c++, ev->pid);
	set_s(t, c++, ev->comm ? ev->comm : "");
	set_s(t, c++, ev->system ? ev->system : "");
	set_s(t, c++, ev->name ? ev->name : "");
	lt_flags_latency(abi, ev->flags, ev->preempt_count, t->str[0]);
	set_s(t, c++, t->str[0]);
	set_s(t, c++, letter_str(lt_flags_resched_letter(abi, ev->flags)));
	set_i(t, c++, f.need_resched);
	set_i(t, c++, f.need_resched_lazy);
	set_i(t, c++, f.preempt_resched);
	set_i(t, c++, f.irqs_off);
	set_i(t, c++, f.hardirq);
	set_i(t, c++, f.softirq);
	set_i(t, c++, ev->preempt_count & 0xf);
	need = lt_event_payload(run->reader, ev, t->info, t->info_len);
	if (need >= t->info_len) {
		nb = realloc(t->info, need + 1);
		if (!nb)
			return lt_run_fail(run, LT_RUN_NOMEM, "out of memory");
		t->info = nb;
		t->info_len = need + 1;
		lt_event_payload(run->reader, ev, t->info, t->info_len);
	}
	set_s(t, c++, t->info);
	return 1;
}

/* ---- switches ---- */

static const struct lt_col switches_cols[] = {
	COL("ts_ns", TIMESTAMP, "ns", "the sched_switch's time"),
	COL("cpu", INT, "", "the CPU"),
	COL("prev_pid", INT, "", "the task that left the CPU"),
	COL("prev_comm", STRING, "", "its name"),
	COL("prev_prio", INT, "", "its priority"),
	COL("prev_state", STRING, "", "its state as the kernel prints it (R+, R, S, D, ...)"),
	COL("how", STRING, "", "preempted (R+), yielded (R) or blocked"),
	COL("next_pid", INT, "", "the task that took the CPU"),
	COL("next_comm", STRING, "", "its name"),
	COL("next_prio", INT, "", "its priority"),
	COL("letter", STRING, "", "the need-resched letter at the switch"),
	COL("prev_since_ns", TIMESTAMP, "ns", "when prev became current on the CPU (its switch-in, else its first event there): the run this switch ends; null if unknown"),
};

DEF(switches, "switches", false, true, switches_next);

static const char *how_name(enum lt_prev_state st)
{
	static const char *const names[] = {
		[LT_PREV_PREEMPTED] = "preempted",
		[LT_PREV_YIELDED] = "yielded",
		[LT_PREV_BLOCKED] = "blocked",
	};

	return (unsigned int)st < ARRAY_SIZE(names) ? names[st] : "?";
}

static void switch_row(struct lt_table *t, const struct lt_event *ev)
{
	uint64_t since;
	int c = 0;

	set_u(t, c++, ev->ts);
	set_i(t, c++, ev->cpu);
	set_i(t, c++, ev->u.sched_switch.prev_pid);
	set_s(t, c++, ev->u.sched_switch.prev_comm);
	set_i(t, c++, ev->u.sched_switch.prev_prio);
	set_s(t, c++, ev->u.sched_switch.prev_state_str);
	set_s(t, c++, how_name(ev->u.sched_switch.prev_state));
	set_i(t, c++, ev->u.sched_switch.next_pid);
	set_s(t, c++, ev->u.sched_switch.next_comm);
	set_i(t, c++, ev->u.sched_switch.next_prio);
	set_s(t, c++, letter_str(lt_flags_resched_letter(
			lt_analysis_summary(t->run->an)->abi, ev->flags)));
	/* the analysis has taken the switch: who ran, and since when */
	since = lt_analysis_switch_ran_from(t->run->an, ev->cpu);
	if (since && since <= ev->ts)
		set_u(t, c++, since);
	else
		set_null(t, c++);
}

static int switches_next(struct lt_table *t)
{
	int ret;

	do {
		ret = lt_run_step(t->run);
		if (ret <= 0)
			return ret;
	} while (t->run->ev->kind != LT_EV_SCHED_SWITCH);
	switch_row(t, t->run->ev);
	return 1;
}

/* The switches columns whose strings are the event's own. */
static bool from_event(const char *col)
{
	return !strcmp(col, "prev_comm") || !strcmp(col, "prev_state") ||
	       !strcmp(col, "next_comm");
}

/*
 * In a pass shared with the transitions or requests, a switch is queued
 * with their rows, in the order the events made them. Its strings are
 * the event's, valid until the next one: the row keeps copies.
 */
void lt_rows_on_event(struct lt_run *run, const struct lt_event *ev)
{
	struct lt_table *t = run->switch_rows;
	unsigned int i, n = t->def->nr_cols, k = 0;
	struct lt_row *r;

	if (ev->kind != LT_EV_SCHED_SWITCH)
		return;
	r = lt_run_queue_push_for(run, t);
	if (!r) {
		run->nomem = true;
		return;
	}
	memset(t->null, 0, n * sizeof(*t->null));
	switch_row(t, ev);
	for (i = 0; i < n; i++) {
		r->cell[i] = t->cell[i];
		r->null[i] = t->null[i];
		if (k < 3 && !t->null[i] && from_event(t->def->cols[i].name)) {
			lt_strlcpy(r->comm[k], t->cell[i].s, sizeof(r->comm[k]));
			r->cell[i].s = r->comm[k++];
		}
	}
}

/* ---- transitions and requests: rows the analysis callback makes ---- */

static const struct lt_col transitions_cols[] = {
	COL("ts_ns", TIMESTAMP, "ns", "the event that first showed it"),
	COL("after_ns", TIMESTAMP, "ns", "the previous event on the CPU: it happened after this"),
	COL("cpu", INT, "", "the CPU"),
	COL("pid", INT, "", "the task"),
	COL("comm", STRING, "", "its name"),
	COL("task_id", UINT, "", "the task record (two tasks that reused a pid differ)"),
	COL("kind", STRING, "", "lazy, eager, upgrade, tick-upgrade, fold, preempted, yielded, blocked, cleared or truncated"),
	COL("served", BOOL, "", "whether it ends a request"),
	COL("request", STRING, "", "the oldest open request it ends or upgrades (lazy, eager, fold), else kind"),
	COL("since_ns", TIMESTAMP, "ns", "when that request was seen (exact with a probe); null for a new request"),
	COL("latency_ns", DURATION, "ns", "ts - since_ns: a lower bound unless requests are known by a probe"),
	COL("latency_max_ns", DURATION, "ns", "the upper bound: ts - the event before the request"),
	COL("source", STRING, "", "for an upgrade: tick, hrtick, timer, irq or direct"),
	COL("request_ns", TIMESTAMP, "ns", "for a request: its exact time, from a probe; null without one"),
	COL("requester_pid", INT, "", "the task that made the request, from a probe"),
	COL("requester_comm", STRING, "", "its name"),
	COL("letter_before", STRING, "", "need-resched letter before"),
	COL("letter_after", STRING, "", "need-resched letter after"),
	COL("syscall", INT, "", "for a tick-upgrade: the system call the task was in (-1: user space); null if unknown"),
	COL("site", STRING, "", "for a tick-upgrade: the call site of its stack (as the sites table names it); null without a stack"),
	COL("stack", STRING, "", "for a tick-upgrade: the kernel stack the lazy request's last tick took, the one the stacks table counts it under, innermost frame first, frames joined by ';'; null without"),
	COL("stack_truncated", BOOL, "", "that stack was cut short; null without a stack"),
};

DEF(transitions, "transitions", false, true, queue_next);

static const struct lt_col requests_cols[] = {
	COL("pid", INT, "", "the task asked to give up its CPU"),
	COL("comm", STRING, "", "its name"),
	COL("task_id", UINT, "", "the task record"),
	COL("cpu", INT, "", "the CPU it ran on when the request showed"),
	COL("kind", STRING, "", "lazy, eager or fold (a fold seen with no request before it)"),
	COL("request_ns", TIMESTAMP, "ns", "the exact time it was made, from a probe; null without one"),
	COL("after_ns", TIMESTAMP, "ns", "the flags' bound: it was made after this event"),
	COL("seen_ns", TIMESTAMP, "ns", "and at or before this one, the first to show it"),
	COL("upgrade_ns", TIMESTAMP, "ns", "a lazy request's upgrade to eager, if any"),
	COL("upgrade_source", STRING, "", "what upgraded it: tick, hrtick, timer, irq or direct"),
	COL("served_ns", TIMESTAMP, "ns", "its end"),
	COL("end", STRING, "", "how it ended: preempted, yielded, blocked, cleared or truncated"),
	COL("latency_ns", DURATION, "ns", "served_ns - request_ns (else - seen_ns: a lower bound); null if truncated"),
	COL("latency_max_ns", DURATION, "ns", "served_ns - after_ns, the upper bound; null if truncated"),
	COL("requester_pid", INT, "", "the task that made it, from a probe"),
	COL("requester_comm", STRING, "", "its name"),
	COL("letter_before", STRING, "", "need-resched letter before the request showed"),
	COL("letter_after", STRING, "", "need-resched letter when it showed"),
};

DEF(requests, "requests", false, true, queue_next);

/* What the requests table keeps of a task's open requests. */
struct lt_open_req {
	struct lt_req_seen {
		bool set;
		int cpu;
		uint64_t after, seen, request_ns;
		int requester_pid;
		char requester_comm[LT_COMM_LEN];
		char letter_before, letter_after;
	} k[3];			/* lazy, eager, fold */
	bool upgraded;
	uint64_t upgrade_ns;
	enum lt_upgrade_source source;
};

static int req_slot(enum lt_transition_kind k)
{
	return k == LT_TR_LAZY ? 0 : k == LT_TR_EAGER ? 1 :
	       k == LT_TR_FOLD ? 2 : -1;
}

struct lt_row *lt_run_queue_push(struct lt_run *run)
{
	return lt_run_queue_push_for(run, run->queue_for);
}

struct lt_row *lt_run_queue_push_for(struct lt_run *run, struct lt_table *t)
{
	unsigned int n = t->def->nr_cols, k;
	struct lt_row **nq, *r;
	size_t i, cap;

	/* the rows are reused by every table of the pass: the widest */
	for (k = 0; k < run->nr_stream; k++)
		if (run->stream[k]->def->nr_cols > n)
			n = run->stream[k]->def->nr_cols;

	if (run->q_len == run->q_cap) {
		cap = run->q_cap ? run->q_cap * 2 : 16;
		nq = calloc(cap, sizeof(*nq));
		if (!nq)
			return NULL;
		/*
		 * Unwrap the ring into the new array; rows are moved by
		 * pointer, so the strings they point into stay put.
		 */
		for (i = 0; i < run->q_cap; i++)
			nq[i] = run->queue[(run->q_head + i) % run->q_cap];
		free(run->queue);
		run->queue = nq;
		run->q_head = 0;
		for (i = run->q_cap; i < cap; i++) {
			r = calloc(1, sizeof(*r));
			if (r) {
				r->cell = calloc(n, sizeof(*r->cell));
				r->null = calloc(n, sizeof(*r->null));
			}
			if (!r || !r->cell || !r->null) {
				if (r) {
					free(r->cell);
					free(r->null);
				}
				free(r);
				break;
			}
			nq[i] = r;
			run->q_cap = i + 1;
		}
		if (run->q_len == run->q_cap)
			return NULL;
	}
	r = run->queue[(run->q_head + run->q_len++) % run->q_cap];
	memset(r->null, 0, n * sizeof(*r->null));
	r->t = t;
	return r;
}

static void row_set(struct lt_row *r, int c, union lt_cell v)
{
	r->cell[c] = v;
}

#define RU(r, c, v) row_set(r, c, (union lt_cell){ .u = (v) })
#define RI(r, c, v) row_set(r, c, (union lt_cell){ .i = (v) })
#define RS(r, c, v) row_set(r, c, (union lt_cell){ .s = (v) })
#define RN(r, c) ((r)->null[c] = true)

static bool is_upgrade(enum lt_transition_kind k)
{
	return k == LT_TR_UPGRADE || k == LT_TR_TICK_UPGRADE;
}

static void transition_row(struct lt_run *run, struct lt_table *t,
			   const struct lt_transition *tr)
{
	bool latency = tr->since_ns != tr->seen_ns || tr->request != tr->kind;
	struct lt_row *r = lt_run_queue_push_for(run, t);
	const struct lt_stk *stk = NULL;
	int c = 0;

	if (!r) {
		run->nomem = true;
		return;
	}
	lt_strlcpy(r->comm[0], tr->comm, sizeof(r->comm[0]));
	lt_strlcpy(r->comm[1], tr->requester_comm, sizeof(r->comm[1]));
	RU(r, c++, tr->seen_ns);
	RU(r, c++, tr->after_ns);
	RI(r, c++, tr->cpu);
	RI(r, c++, tr->pid);
	RS(r, c++, r->comm[0]);
	RU(r, c++, tr->task_id);
	RS(r, c++, lt_transition_name(tr->kind));
	RI(r, c++, lt_transition_is_served(tr->kind));
	RS(r, c++, lt_transition_name(tr->request));
	if (latency) {
		RU(r, c++, tr->since_ns);
		RU(r, c++, tr->seen_ns - tr->since_ns);
		RU(r, c++, tr->seen_ns - tr->since_after_ns);
	} else {
		RN(r, c++);
		RN(r, c++);
		RN(r, c++);
	}
	if (is_upgrade(tr->kind))
		RS(r, c++, lt_upgrade_source_name(tr->source));
	else
		RN(r, c++);
	if (tr->request_ns) {
		RU(r, c++, tr->request_ns);
		RI(r, c++, tr->requester_pid);
		RS(r, c++, r->comm[1]);
	} else {
		RN(r, c++);
		RN(r, c++);
		RN(r, c++);
	}
	RS(r, c++, letter_str(tr->letter_before));
	RS(r, c++, letter_str(tr->letter_after));
	if (tr->kind == LT_TR_TICK_UPGRADE && tr->syscall != LT_SYSCALL_UNKNOWN)
		RI(r, c++, tr->syscall == LT_SYSCALL_USER ? -1 : tr->syscall);
	else
		RN(r, c++);
	/* the analysis' stack of the request, read while it is emitted */
	if (tr->kind == LT_TR_TICK_UPGRADE)
		stk = lt_stack_of_request(run->an, tr->cpu);
	if (stk && !lt_stack_joined(stk))
		run->nomem = true;
	if (stk && lt_stack_joined(stk)) {
		RS(r, c++, lt_stack_site(stk));
		RS(r, c++, lt_stack_joined(stk));
		RI(r, c++, lt_stack_truncated(stk));
	} else {
		RN(r, c++);
		RN(r, c++);
		RN(r, c++);
	}
}

static struct lt_open_req *open_req_of(struct lt_run *run, uint64_t id)
{
	struct lt_open_req *v;
	size_t cap;

	/* task ids count from 1 with the tasks: memory grows with tasks */
	if (id >= run->open_req_cap) {
		cap = run->open_req_cap ? run->open_req_cap : 64;
		while (cap <= id)
			cap *= 2;
		v = realloc(run->open_req, cap * sizeof(*v));
		if (!v)
			return NULL;
		memset(v + run->open_req_cap, 0,
		       (cap - run->open_req_cap) * sizeof(*v));
		run->open_req = v;
		run->open_req_cap = cap;
	}
	return &run->open_req[id];
}

static void request_seen(struct lt_open_req *o, const struct lt_transition *tr)
{
	struct lt_req_seen *s = &o->k[req_slot(tr->kind)];

	s->set = true;
	s->cpu = tr->cpu;
	s->after = tr->after_ns;
	s->seen = tr->seen_ns;
	s->request_ns = tr->request_ns;
	s->requester_pid = tr->requester_pid;
	lt_strlcpy(s->requester_comm, tr->requester_comm,
		   sizeof(s->requester_comm));
	s->letter_before = tr->letter_before;
	s->letter_after = tr->letter_after;
	if (tr->kind == LT_TR_LAZY)
		o->upgraded = false;
}

static const enum lt_transition_kind slot_kind[] = {
	LT_TR_LAZY, LT_TR_EAGER, LT_TR_FOLD,
};

/*
 * The row of the request in @slot, ended by @tr. @tr names the oldest
 * open request; one end serves the others too (a lazy request and an
 * eager one on top of it), each its own row.
 */
static void request_row(struct lt_run *run, struct lt_table *t,
			struct lt_open_req *o, const struct lt_transition *tr,
			int slot)
{
	struct lt_req_seen *s = slot >= 0 ? &o->k[slot] : NULL;
	enum lt_transition_kind kind = slot >= 0 ? slot_kind[slot] : tr->kind;
	bool oldest = kind == tr->request;
	struct lt_row *r;
	int c = 0;

	if (!s || !s->set)
		return;	/* a request the cut began after */
	r = lt_run_queue_push_for(run, t);
	if (!r) {
		run->nomem = true;
		return;
	}
	lt_strlcpy(r->comm[0], tr->comm, sizeof(r->comm[0]));
	lt_strlcpy(r->comm[1], s->requester_comm, sizeof(r->comm[1]));
	RI(r, c++, tr->pid);
	RS(r, c++, r->comm[0]);
	RU(r, c++, tr->task_id);
	RI(r, c++, s->cpu);
	RS(r, c++, lt_transition_name(kind));
	if (s->request_ns)
		RU(r, c++, s->request_ns);
	else
		RN(r, c++);
	RU(r, c++, s->after);
	RU(r, c++, s->seen);
	if (kind == LT_TR_LAZY && o->upgraded) {
		RU(r, c++, o->upgrade_ns);
		RS(r, c++, lt_upgrade_source_name(o->source));
	} else {
		RN(r, c++);
		RN(r, c++);
	}
	RU(r, c++, tr->seen_ns);
	RS(r, c++, lt_transition_name(tr->kind));
	if (tr->kind != LT_TR_TRUNCATED) {
		RU(r, c++, tr->seen_ns - (oldest ? tr->since_ns : s->seen));
		RU(r, c++, tr->seen_ns - (oldest ? tr->since_after_ns :
					  s->after));
	} else {
		RN(r, c++);
		RN(r, c++);
	}
	if (s->request_ns) {
		RI(r, c++, s->requester_pid);
		RS(r, c++, r->comm[1]);
	} else {
		RN(r, c++);
		RN(r, c++);
	}
	RS(r, c++, letter_str(s->letter_before));
	RS(r, c++, letter_str(s->letter_after));
	s->set = false;
	if (kind == LT_TR_LAZY)
		o->upgraded = false;
}

/* The run's stream table of @def, NULL if it was not asked for. */
static struct lt_table *streaming(const struct lt_run *run,
				  const struct lt_table_def *def)
{
	unsigned int i;

	for (i = 0; i < run->nr_stream; i++)
		if (run->stream[i]->def == def)
			return run->stream[i];
	return NULL;
}

bool lt_rows_shares_pass(const struct lt_table_def *def)
{
	return def == &transitions || def == &requests || def == &switches;
}

/*
 * A request the finish truncates was open when the input ended: the
 * pending table's row (lt_run_step() sets fed_all before the finish).
 */
static void pend_add(struct lt_run *run, const struct lt_transition *tr)
{
	struct lt_pend *v, *p;
	size_t cap;

	if (run->nr_pend == run->pend_cap) {
		cap = run->pend_cap ? run->pend_cap * 2 : 16;
		v = realloc(run->pend, cap * sizeof(*v));
		if (!v) {
			run->nomem = true;
			return;
		}
		run->pend = v;
		run->pend_cap = cap;
	}
	p = &run->pend[run->nr_pend++];
	p->pid = tr->pid;
	p->cpu = tr->cpu;
	lt_strlcpy(p->comm, tr->comm ? tr->comm : "", sizeof(p->comm));
	p->request = tr->request;
	p->since_ns = tr->since_ns;
}

void lt_rows_on_transition(const struct lt_transition *tr, void *data)
{
	struct lt_run *run = data;
	struct lt_table *t = streaming(run, &transitions);
	struct lt_open_req *o;

	if (run->fed_all && tr->kind == LT_TR_TRUNCATED)
		pend_add(run, tr);
	/* a row the "kind" filter drops is not made at all */
	if (t && (!run->kinds || (run->kinds & (1U << tr->kind))))
		transition_row(run, t, tr);
	t = streaming(run, &requests);
	if (!t)
		return;
	o = open_req_of(run, tr->task_id);
	if (!o) {
		run->nomem = true;
		return;
	}
	if (req_slot(tr->kind) >= 0 && tr->request == tr->kind) {
		request_seen(o, tr);
	} else if (is_upgrade(tr->kind)) {
		if (!o->upgraded) {
			o->upgraded = true;
			o->upgrade_ns = tr->seen_ns;
			o->source = tr->source;
		}
	} else if (lt_transition_is_served(tr->kind) ||
		   tr->kind == LT_TR_TRUNCATED) {
		int k, first = req_slot(tr->request);

		request_row(run, t, o, tr, first);
		/* a fold is a request of its own only with none before it */
		for (k = 0; k < 2; k++)
			if (k != first && o->k[k].set)
				request_row(run, t, o, tr, k);
		o->k[2].set = false;
	}
}

/* ---- pending: the requests open at the end ---- */

static const struct lt_col pending_cols[] = {
	COL("pid", INT, "", "the task asked to give up its CPU"),
	COL("comm", STRING, "", "its name"),
	COL("cpu", INT, "", "the CPU it was on"),
	COL("request", STRING, "", "its oldest open request: lazy, eager or fold"),
	COL("since_ns", TIMESTAMP, "ns", "when that request was seen"),
	COL("open_ns", DURATION, "ns", "how long it had been open at the input's end (last_ns - since_ns)"),
};

DEF(pending, "pending", false, false, pending_next);

static int pending_next(struct lt_table *t)
{
	uint64_t end = lt_analysis_summary(t->run->an)->last_ns;
	const struct lt_pend *p;
	int c = 0;

	if (t->pos >= t->run->nr_pend)
		return 0;
	p = &t->run->pend[t->pos++];
	set_i(t, c++, p->pid);
	set_s(t, c++, p->comm);
	set_i(t, c++, p->cpu);
	set_s(t, c++, lt_transition_name(p->request));
	set_u(t, c++, p->since_ns);
	set_u(t, c++, end > p->since_ns ? end - p->since_ns : 0);
	return 1;
}

/* Documented in lazytrace.h. */
int lt_lathist_row(struct lt_lathist *h, const struct lt_table *t)
{
	static const char *const need[] = {
		"ts_ns", "pid", "comm", "kind", "request", "since_ns",
		"request_ns",
	};
	struct lt_transition tr = { 0 };
	int col[ARRAY_SIZE(need)], k;
	size_t i;

	if (t->def != &transitions)
		return -1;
	for (i = 0; i < ARRAY_SIZE(need); i++)
		col[i] = lt_table_column(t, need[i]);
	tr.seen_ns = t->cell[col[0]].u;
	tr.pid = t->cell[col[1]].i;
	tr.comm = t->cell[col[2]].s;
	tr.kind = tr.request = LT_TR_KIND_MAX;
	for (k = 0; k < LT_TR_KIND_MAX; k++) {
		if (!strcmp(t->cell[col[3]].s, lt_transition_name(k)))
			tr.kind = k;
		if (!strcmp(t->cell[col[4]].s, lt_transition_name(k)))
			tr.request = k;
	}
	if (tr.kind == LT_TR_KIND_MAX || tr.request == LT_TR_KIND_MAX)
		return -1;
	tr.since_ns = t->null[col[5]] ? tr.seen_ns : t->cell[col[5]].u;
	tr.request_ns = t->null[col[6]] ? 0 : t->cell[col[6]].u;
	return lt_lathist_transition(h, &tr);
}

/* ---- episodes: the hog episodes, as the analysis counts them ---- */

static const struct lt_col episodes_cols[] = {
	COL("pid", INT, "", "the task that kept its CPU"),
	COL("comm", STRING, "", "its name"),
	COL("task_id", UINT, "", "the task record"),
	COL("cpu", INT, "", "the CPU of the tick that made it an episode"),
	COL("since_ns", TIMESTAMP, "ns", "when the lazy request was seen (exact with a probe)"),
	COL("after_ns", TIMESTAMP, "ns", "the flags' bound: it was made after this event"),
	COL("last_tick_ns", TIMESTAMP, "ns", "the last tick that found it pending"),
	COL("pending_ns", DURATION, "ns", "pending at that tick, timer interrupts and their softirqs left out"),
	COL("ticks", UINT, "", "ticks that found it pending"),
	COL("upgrade_ns", TIMESTAMP, "ns", "its upgrade to eager; null if none showed"),
	COL("upgrade_source", STRING, "", "what upgraded it: tick, hrtick, timer, irq or direct"),
	COL("served_ns", TIMESTAMP, "ns", "its end; null if truncated"),
	COL("how", STRING, "", "how it ended: preempted, yielded, blocked, cleared or truncated"),
	COL("latency_ns", DURATION, "ns", "served_ns - since_ns; null if truncated"),
	COL("latency_max_ns", DURATION, "ns", "served_ns - after_ns, the upper bound; null if truncated"),
	COL("site", STRING, "", "the call site of its stack at the tick; null without stacks"),
};

DEF(episodes, "episodes", false, true, queue_next);

/*
 * The analysis' episode hook (lt_analysis.on_episode): one row per
 * episode, made when the analysis finishes, by the rule that counts the
 * tasks' episodes (lt-hogs.c).
 */
void lt_rows_on_episode(const struct lt_episode *ep, void *data)
{
	struct lt_run *run = data;
	bool served = ep->how != LT_TR_TRUNCATED;
	struct lt_row *r;
	int c = 0;

	if (!run->queue_for || run->queue_for->def != &episodes)
		return;
	r = lt_run_queue_push(run);
	if (!r) {
		run->nomem = true;
		return;
	}
	lt_strlcpy(r->comm[0], ep->task->comm, sizeof(r->comm[0]));
	RI(r, c++, ep->task->pid);
	RS(r, c++, r->comm[0]);
	RU(r, c++, ep->task->id);
	RI(r, c++, ep->cpu);
	RU(r, c++, ep->since_ns);
	RU(r, c++, ep->after_ns);
	RU(r, c++, ep->tick_time_ns);
	RU(r, c++, ep->pending_ns);
	RU(r, c++, ep->ticks);
	if (ep->upgraded) {
		RU(r, c++, ep->upgrade_ns);
		RS(r, c++, lt_upgrade_source_name(ep->upgrade_src));
	} else {
		RN(r, c++);
		RN(r, c++);
	}
	if (served)
		RU(r, c++, ep->end_ns);
	else
		RN(r, c++);
	RS(r, c++, lt_transition_name(ep->how));
	if (served) {
		RU(r, c++, ep->end_ns - ep->since_ns);
		RU(r, c++, ep->end_ns - ep->after_ns);
	} else {
		RN(r, c++);
		RN(r, c++);
	}
	if (ep->site)
		RS(r, c++, ep->site);
	else
		RN(r, c++);
}

static int queue_next(struct lt_table *t)
{
	struct lt_run *run = t->run;
	struct lt_row *r;
	int ret;

	while (!run->q_len) {
		if (run->feed)	/* lt_run_next_event() reads, not the table */
			return 0;
		ret = lt_run_step(run);
		if (ret < 0)
			return ret;
		if (!ret && !run->q_len)
			return 0;
	}
	r = run->queue[run->q_head];
	run->q_head = (run->q_head + 1) % run->q_cap;
	run->q_len--;
	lt_rows_take(r);
	return 1;
}

void lt_rows_take(struct lt_row *r)
{
	struct lt_table *t = r->t;
	unsigned int i, n = t->def->nr_cols;

	/* the strings move with the row: the slot is reused by a later push */
	memcpy(t->cell, r->cell, n * sizeof(*t->cell));
	memcpy(t->null, r->null, n * sizeof(*t->null));
	memcpy(t->str[0], r->comm[0], LT_COMM_LEN);
	memcpy(t->str[1], r->comm[1], LT_COMM_LEN);
	memcpy(t->str[2], r->comm[2], LT_COMM_LEN);
	for (i = 0; i < n; i++) {
		if (t->def->cols[i].type != LT_COL_STRING || t->null[i])
			continue;
		if (t->cell[i].s == r->comm[0])
			t->cell[i].s = t->str[0];
		else if (t->cell[i].s == r->comm[1])
			t->cell[i].s = t->str[1];
		else if (t->cell[i].s == r->comm[2])
			t->cell[i].s = t->str[2];
	}
}

/* ---- preempts: every R+ switch, where, why and what it cost ---- */

static const struct lt_col preempts_cols[] = {
	COL("ts_ns", TIMESTAMP, "ns", "the sched_switch that preempted it (R+)"),
	COL("cpu", INT, "", "the CPU it left"),
	COL("pid", INT, "", "the preempted task"),
	COL("comm", STRING, "", "its name"),
	COL("task_id", UINT, "", "the task record"),
	COL("place", STRING, "", "where it was: user, syscall, page_fault, irq, softirq, kthread, kernel or unknown (docs/model.md §9)"),
	COL("place_from", STRING, "", "what told the place: stack, syscalls, flags or none"),
	COL("syscall", INT, "", "the system call it was in, from raw_syscalls; null if none or unknown"),
	COL("syscall_name", STRING, "", "the system call the stack names (read, write, ...); null without"),
	COL("request", STRING, "", "the request the switch served: lazy, eager or fold; null if the flags showed none"),
	COL("cause", STRING, "", "what forced it: a lazy request's upgrade source (tick, hrtick, timer, irq, direct), eager, ipi (an eager request a reschedule IPI delivered), lazy (no upgrade seen), fold or unknown"),
	COL("source", STRING, "", "tick, hrtick, timer, irq or direct: the lazy request's upgrade, or the context the eager request showed in; null otherwise"),
	COL("since_ns", TIMESTAMP, "ns", "when the request was seen (exact with a probe); null without one"),
	COL("waited_ns", DURATION, "ns", "ts_ns - since_ns: how long the request waited"),
	COL("requester_pid", INT, "", "the task that made the request, from a probe"),
	COL("requester_comm", STRING, "", "its name"),
	COL("site", STRING, "", "the preempted code: the stack's innermost frame that is not tracing, interrupt entry, the scheduler or the preemption point; null without a stack"),
	COL("stack", STRING, "", "that stack, innermost frame first, frames joined by ';'; null without"),
	COL("stack_at", STRING, "", "switch (a stack taken at the sched_switch) or tick (the stack of the tick that upgraded the request); null without"),
	COL("instead_pid", INT, "", "the task that took the CPU (the switch's next)"),
	COL("instead_comm", STRING, "", "its name"),
	COL("back_ns", TIMESTAMP, "ns", "when it ran again; null if not in the trace"),
	COL("back_cpu", INT, "", "the CPU it ran on then; null if not in the trace"),
	COL("off_cpu_ns", DURATION, "ns", "back_ns - ts_ns: runnable but off CPU; null if not in the trace"),
	COL("others_ran", UINT, "", "tasks switched in on the CPU it left until it ran again, the next one included, idle not; null if not in the trace"),
};

DEF(preempts, "preempts", false, true, queue_next);

static const char *preempt_cause(const struct lt_preemption *p)
{
	switch (p->request) {
	case LT_TR_LAZY:
		return p->upgraded ? lt_upgrade_source_name(p->source) : "lazy";
	case LT_TR_EAGER:
		return p->ipi ? "ipi" : "eager";
	case LT_TR_FOLD:
		return "fold";
	default:
		return "unknown";
	}
}

static bool preempt_requested(const struct lt_preemption *p)
{
	return p->request == LT_TR_LAZY || p->request == LT_TR_EAGER ||
	       p->request == LT_TR_FOLD;
}

static void preempt_row(struct lt_run *run, const struct lt_preemption *p)
{
	struct lt_row *r = lt_run_queue_push(run);
	int c = 0;

	if (!r) {
		run->nomem = true;
		return;
	}
	lt_strlcpy(r->comm[0], p->task->comm, sizeof(r->comm[0]));
	lt_strlcpy(r->comm[1], p->requester_comm, sizeof(r->comm[1]));
	lt_strlcpy(r->comm[2], p->next_comm, sizeof(r->comm[2]));
	RU(r, c++, p->ts);
	RI(r, c++, p->cpu);
	RI(r, c++, p->task->pid);
	RS(r, c++, r->comm[0]);
	RU(r, c++, p->task->id);
	RS(r, c++, lt_place_name(p->place));
	RS(r, c++, lt_place_from_name(p->place_from));
	if (p->syscall >= 0)
		RI(r, c++, p->syscall);
	else
		RN(r, c++);
	if (p->syscall_name)
		RS(r, c++, p->syscall_name);
	else
		RN(r, c++);
	if (preempt_requested(p))
		RS(r, c++, lt_transition_name(p->request));
	else
		RN(r, c++);
	RS(r, c++, preempt_cause(p));
	if (p->upgraded || p->request == LT_TR_EAGER)
		RS(r, c++, lt_upgrade_source_name(p->source));
	else
		RN(r, c++);
	if (preempt_requested(p) && p->since_ns <= p->ts) {
		RU(r, c++, p->since_ns);
		RU(r, c++, p->ts - p->since_ns);
	} else {
		RN(r, c++);
		RN(r, c++);
	}
	if (p->request_ns) {
		RI(r, c++, p->requester_pid);
		RS(r, c++, r->comm[1]);
	} else {
		RN(r, c++);
		RN(r, c++);
	}
	if (p->stack && p->site && lt_stack_joined(p->stack)) {
		RS(r, c++, p->site);
		RS(r, c++, lt_stack_joined(p->stack));
		RS(r, c++, p->stack_at_switch ? "switch" : "tick");
	} else {
		RN(r, c++);
		RN(r, c++);
		RN(r, c++);
	}
	RI(r, c++, p->next_pid);
	RS(r, c++, r->comm[2]);
	if (p->back_ns) {
		RU(r, c++, p->back_ns);
		RI(r, c++, p->back_cpu);
		RU(r, c++, p->back_ns - p->ts);
		RU(r, c++, p->others);
	} else {
		RN(r, c++);
		RN(r, c++);
		RN(r, c++);
		RN(r, c++);
	}
}

/* ---- preempt_groups: the same, counted by task, place, cause, site ---- */

static const struct lt_col preempt_groups_cols[] = {
	COL("by", STRING, "", "the grouping: task, place, cause, site or stack (task, place and stack: for folded stacks)"),
	COL("pid", INT, "", "by task and by stack: the preempted task; else null"),
	COL("comm", STRING, "", "its name"),
	COL("task_id", UINT, "", "the task record"),
	COL("place", STRING, "", "by place and by stack: the place (as preempts' place); else null"),
	COL("cause", STRING, "", "by cause: what forced them (as preempts' cause); else null"),
	COL("site", STRING, "", "by site: the site; null for those without a stack, and in the other groupings"),
	COL("stack", STRING, "", "by stack: the stack, innermost frame first; null without one"),
	COL("preemptions", UINT, "", "R+ switches in the group"),
	COL("with_cost", UINT, "", "those whose task ran again in the trace"),
	COL("off_cpu_ns", DURATION, "ns", "their off_cpu_ns, summed"),
	COL("off_cpu_max_ns", DURATION, "ns", "the longest; null if none ran again"),
	COL("waited_ns", DURATION, "ns", "the waits of their requests, summed"),
	COL("others_ran", UINT, "", "their others_ran, summed"),
};

DEF(preempt_groups, "preempt_groups", false, true, pgroups_next);

enum { PG_TASK, PG_PLACE, PG_CAUSE, PG_SITE, PG_STACK, PG_MAX };

static const char *const pg_names[PG_MAX] = {
	"task", "place", "cause", "site", "stack",
};

struct lt_pgroup {
	int by;
	uint64_t task_id;
	int pid;
	char comm[LT_COMM_LEN];
	/* static names or strings the analysis interned: compared by address */
	const char *place, *cause, *site, *stack;
	uint64_t count, with_cost, off_cpu, off_cpu_max, waited, others;
};

/* Groups grow with tasks, places, sites and stacks, never with events. */
struct lt_pgroups {
	struct lt_pgroup *g;
	size_t nr, alloc;
	size_t *slot;		/* open addressing: index + 1, 0 empty */
	size_t size;
	bool sorted;
};

static uint64_t pg_hash(const struct lt_pgroup *k)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	h = (h ^ (uint64_t)k->by) * 0x100000001b3ULL;
	h = (h ^ k->task_id) * 0x100000001b3ULL;
	h = (h ^ (uintptr_t)k->place) * 0x100000001b3ULL;
	h = (h ^ (uintptr_t)k->cause) * 0x100000001b3ULL;
	h = (h ^ (uintptr_t)k->site) * 0x100000001b3ULL;
	h = (h ^ (uintptr_t)k->stack) * 0x100000001b3ULL;
	return h ^ (h >> 29);
}

static bool pg_same(const struct lt_pgroup *a, const struct lt_pgroup *b)
{
	return a->by == b->by && a->task_id == b->task_id &&
	       a->place == b->place && a->cause == b->cause &&
	       a->site == b->site && a->stack == b->stack;
}

static int pg_grow(struct lt_pgroups *pg)
{
	size_t size = pg->size ? pg->size * 2 : 256, i, j;
	size_t *n = calloc(size, sizeof(*n));

	if (!n)
		return -1;
	for (i = 0; i < pg->nr; i++) {
		for (j = pg_hash(&pg->g[i]) & (size - 1); n[j];
		     j = (j + 1) & (size - 1))
			;
		n[j] = i + 1;
	}
	free(pg->slot);
	pg->slot = n;
	pg->size = size;
	return 0;
}

static struct lt_pgroup *pg_find(struct lt_pgroups *pg,
				 const struct lt_pgroup *key)
{
	struct lt_pgroup *g;
	size_t j;

	if (pg->nr * 2 >= pg->size && pg_grow(pg))
		return NULL;
	for (j = pg_hash(key) & (pg->size - 1); pg->slot[j];
	     j = (j + 1) & (pg->size - 1))
		if (pg_same(&pg->g[pg->slot[j] - 1], key))
			return &pg->g[pg->slot[j] - 1];
	if (pg->nr == pg->alloc) {
		size_t n = pg->alloc ? pg->alloc * 2 : 64;

		g = realloc(pg->g, n * sizeof(*g));
		if (!g)
			return NULL;
		pg->g = g;
		pg->alloc = n;
	}
	g = &pg->g[pg->nr++];
	*g = *key;
	pg->slot[j] = pg->nr;
	return g;
}

static void pgroup_add(struct lt_run *run, const struct lt_preemption *p)
{
	struct lt_pgroups *pg = run->pgroups;
	const char *place = lt_place_name(p->place);
	struct lt_pgroup key, *g;
	int by;

	if (!pg) {
		pg = run->pgroups = calloc(1, sizeof(*pg));
		if (!pg) {
			run->nomem = true;
			return;
		}
	}
	for (by = 0; by < PG_MAX; by++) {
		if (run->by && run->by != by + 1)
			continue;
		memset(&key, 0, sizeof(key));
		key.by = by;
		if (by == PG_TASK || by == PG_STACK)
			key.task_id = p->task->id;
		if (by == PG_PLACE || by == PG_STACK)
			key.place = place;
		if (by == PG_CAUSE)
			key.cause = preempt_cause(p);
		if (by == PG_SITE && p->stack)
			key.site = p->site;
		if (by == PG_STACK && p->stack)
			key.stack = lt_stack_joined(p->stack);
		g = pg_find(pg, &key);
		if (!g) {
			run->nomem = true;
			return;
		}
		g->pid = p->task->pid;
		lt_strlcpy(g->comm, p->task->comm, sizeof(g->comm));
		g->count++;
		if (p->back_ns) {
			g->with_cost++;
			g->off_cpu += p->back_ns - p->ts;
			if (p->back_ns - p->ts > g->off_cpu_max)
				g->off_cpu_max = p->back_ns - p->ts;
			g->others += p->others;
		}
		if (preempt_requested(p) && p->since_ns <= p->ts)
			g->waited += p->ts - p->since_ns;
	}
}

void lt_rows_on_preempt(const struct lt_preemption *p, void *data)
{
	struct lt_run *run = data;

	if (!run->queue_for ||
	    !lt_run_task_matches(run, p->task->pid, p->task->comm))
		return;
	if (run->queue_for->def == &preempts)
		preempt_row(run, p);
	else if (run->queue_for->def == &preempt_groups)
		pgroup_add(run, p);
}

static int str_order(const char *a, const char *b)
{
	if (!a || !b)
		return !a - !b;
	return strcmp(a, b);
}

/* By grouping, then the most preemptions first; ties in a fixed order. */
static int pg_order(const void *pa, const void *pb)
{
	const struct lt_pgroup *x = pa, *y = pb;
	int d;

	if (x->by != y->by)
		return x->by - y->by;
	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	if (x->off_cpu != y->off_cpu)
		return x->off_cpu < y->off_cpu ? 1 : -1;
	if (x->task_id != y->task_id)
		return x->task_id < y->task_id ? -1 : 1;
	d = str_order(x->place, y->place);
	if (!d)
		d = str_order(x->cause, y->cause);
	if (!d)
		d = str_order(x->site, y->site);
	if (!d)
		d = str_order(x->stack, y->stack);
	return d;
}

static int pgroups_next(struct lt_table *t)
{
	struct lt_pgroups *pg;
	struct lt_pgroup *g;
	bool task;
	int c = 0;

	if (lt_run_finish(t->run))
		return -1;
	if (t->run->nomem)
		return lt_run_fail(t->run, LT_RUN_NOMEM, "out of memory");
	pg = t->run->pgroups;
	if (!pg || t->pos >= pg->nr)
		return 0;
	if (!pg->sorted) {
		qsort(pg->g, pg->nr, sizeof(*pg->g), pg_order);
		pg->sorted = true;
	}
	g = &pg->g[t->pos++];
	task = g->by == PG_TASK || g->by == PG_STACK;
	set_s(t, c++, pg_names[g->by]);
	if (task) {
		set_i(t, c++, g->pid);
		set_s(t, c++, g->comm);
		set_u(t, c++, g->task_id);
	} else {
		set_null(t, c++);
		set_null(t, c++);
		set_null(t, c++);
	}
	if (g->place)
		set_s(t, c++, g->place);
	else
		set_null(t, c++);
	if (g->cause)
		set_s(t, c++, g->cause);
	else
		set_null(t, c++);
	if (g->site)
		set_s(t, c++, g->site);
	else
		set_null(t, c++);
	if (g->stack)
		set_s(t, c++, g->stack);
	else
		set_null(t, c++);
	set_u(t, c++, g->count);
	set_u(t, c++, g->with_cost);
	set_u(t, c++, g->off_cpu);
	if (g->with_cost)
		set_u(t, c++, g->off_cpu_max);
	else
		set_null(t, c++);
	set_u(t, c++, g->waited);
	set_u(t, c++, g->others);
	return 1;
}

int lt_rows_set_by(struct lt_run *run, const char *value)
{
	int by;

	run->by = 0;
	if (!value || !*value || !strcmp(value, "all"))
		return 0;
	for (by = 0; by < PG_MAX; by++)
		if (!strcmp(value, pg_names[by])) {
			run->by = by + 1;
			return 0;
		}
	return lt_run_fail(run, LT_RUN_USAGE,
			   "bad --by '%s' (task, place, cause, site or stack)",
			   value);
}

void lt_rows_pgroups_free(struct lt_run *run)
{
	if (!run->pgroups)
		return;
	free(run->pgroups->g);
	free(run->pgroups->slot);
	free(run->pgroups);
	run->pgroups = NULL;
}

/* ---- tasks ---- */

#define LATENCY_COLS(k, what) \
	COL(k "_p50_ns", DURATION, "ns", "median latency of " what), \
	COL(k "_p90_ns", DURATION, "ns", "90th percentile of " what), \
	COL(k "_p99_ns", DURATION, "ns", "99th percentile of " what), \
	COL(k "_max_ns", DURATION, "ns", "longest " what)

static const struct lt_col tasks_cols[] = {
	COL("pid", INT, "", "the task's pid (0: a CPU's idle task)"),
	COL("comm", STRING, "", "its last name"),
	COL("task_id", UINT, "", "the task record"),
	COL("cpus", STRING, "", "the CPUs it ran on (\"0-1,3\")"),
	COL("first_ns", TIMESTAMP, "ns", "its first appearance"),
	COL("last_ns", TIMESTAMP, "ns", "its last appearance"),
	COL("runtime_ns", DURATION, "ns", "time it was current on a CPU"),
	COL("trace_share", DOUBLE, "share", "runtime_ns over the trace's span: a fraction of one CPU"),
	COL("lifetime_share", DOUBLE, "share", "runtime_ns over its own lifetime"),
	COUNT_COLS(" of it"),
	SWITCH_COLS(" of it"),
	LATENCY_COLS("lazy", "its served lazy requests"),
	LATENCY_COLS("eager", "its served eager requests"),
	LATENCY_COLS("upgrade", "its lazy requests until their upgrade"),
	COL("episodes", UINT, "", "hog episodes: lazy requests still pending at a tick"),
	COL("pending_ns", DURATION, "ns", "total time its served lazy requests were pending"),
	COL("max_pending_ns", DURATION, "ns", "its longest lazy request"),
	COL("upgrades_in_user", UINT, "", "tick-upgrades that found it in user space"),
	COL("upgrades_in_syscall", UINT, "", "tick-upgrades that found it in a system call"),
	COL("top_syscall", INT, "", "the system call most of those found it in"),
	SOURCE_COLS(" of it"),
	COL("requested", UINT, "", "its requests whose requester a probe named"),
	COL("hog", BOOL, "", "whether it is a hog (docs/model.md §7)"),
};

DEF(tasks, "tasks", false, false, tasks_next);

static bool listed(const struct lt_run *run, const struct lt_task_stats *t)
{
	uint64_t any = t->runtime_ns;
	int k;

	if (run->all_tasks)
		return true;
	if (t->pid == 0 && !run->idle)
		return false;
	/* every task the summary counts is a row: they add up */
	for (k = 0; k < LT_TR_KIND_MAX; k++)
		any |= t->count[k];
	for (k = 0; k < 3; k++)
		any |= t->switches[k];
	return any != 0;
}

static int by_runtime(const void *pa, const void *pb)
{
	const struct lt_task_stats *x = *(const struct lt_task_stats *const *)pa;
	const struct lt_task_stats *y = *(const struct lt_task_stats *const *)pb;

	if (x->runtime_ns != y->runtime_ns)
		return x->runtime_ns < y->runtime_ns ? 1 : -1;
	return x->id < y->id ? -1 : 1;
}

/* The listed tasks, busiest first: the order of the tasks table. */
static int task_order(struct lt_run *run)
{
	const struct lt_analysis_summary *s = lt_analysis_summary(run->an);
	size_t i;

	if (run->order)
		return 0;
	run->order = calloc(s->nr_tasks + 1, sizeof(*run->order));
	if (!run->order)
		return lt_run_fail(run, LT_RUN_NOMEM, "out of memory");
	for (i = 0; i < s->nr_tasks; i++) {
		const struct lt_task_stats *t = lt_analysis_task(run->an, i);

		if (t && listed(run, t))
			run->order[run->nr_order++] = t;
	}
	qsort(run->order, run->nr_order, sizeof(*run->order), by_runtime);
	return 0;
}

static int put_latency(struct lt_table *t, int c, const struct lt_latency *l)
{
	if (!l->count) {
		t->null[c] = t->null[c + 1] = t->null[c + 2] = t->null[c + 3] = true;
		return c + 4;
	}
	set_u(t, c++, l->p50);
	set_u(t, c++, l->p90);
	set_u(t, c++, l->p99);
	set_u(t, c++, l->max);
	return c;
}

static int put_task_head(struct lt_table *t, int c,
			 const struct lt_task_stats *s)
{
	set_i(t, c++, s->pid);
	set_s(t, c++, s->comm);
	set_u(t, c++, s->id);
	return c;
}

static int tasks_next(struct lt_table *t)
{
	const struct lt_task_stats *s;
	int c = 0;

	if (task_order(t->run))
		return -1;
	if (t->pos >= t->run->nr_order)
		return 0;
	s = t->run->order[t->pos++];
	c = put_task_head(t, c, s);
	set_s(t, c++, s->cpus);
	set_u(t, c++, s->first_ns);
	set_u(t, c++, s->last_ns);
	set_u(t, c++, s->runtime_ns);
	set_d(t, c++, s->trace_share);
	set_d(t, c++, s->lifetime_share);
	c = put_counts(t, c, s->count);
	c = put_u64s(t, c, s->switches, 3);
	c = put_latency(t, c, &s->latency[LT_LAT_LAZY_SERVED]);
	c = put_latency(t, c, &s->latency[LT_LAT_EAGER_SERVED]);
	c = put_latency(t, c, &s->latency[LT_LAT_LAZY_UPGRADE]);
	set_u(t, c++, s->episodes);
	set_u(t, c++, s->pending_ns);
	set_u(t, c++, s->max_pending_ns);
	set_u(t, c++, s->upgrades_user);
	set_u(t, c++, s->upgrades_syscall);
	if (s->top_syscall >= 0)
		set_i(t, c++, s->top_syscall);
	else
		set_null(t, c++);
	c = put_u64s(t, c, s->upgrades_by_source, LT_UPG_SOURCE_MAX);
	set_u(t, c++, s->requested);
	set_i(t, c++, s->hog);
	return 1;
}

/* ---- hogs ---- */

static const struct lt_col hogs_cols[] = {
	COL("rank", UINT, "", "1 for the worst: the most pending time"),
	COL("pid", INT, "", "the task"),
	COL("comm", STRING, "", "its name"),
	COL("task_id", UINT, "", "the task record"),
	COL("cpus", STRING, "", "the CPUs it ran on"),
	COL("first_ns", TIMESTAMP, "ns", "its first appearance"),
	COL("last_ns", TIMESTAMP, "ns", "its last appearance"),
	COL("episodes", UINT, "", "hog episodes"),
	COL("pending_ns", DURATION, "ns", "total time its served lazy requests were pending"),
	COL("max_pending_ns", DURATION, "ns", "its longest lazy request"),
	COL("lazy", UINT, "", "its lazy requests"),
	COL("tick_upgrades", UINT, "", "its upgrades first seen in the tick"),
	COL("upgrades_in_user", UINT, "", "tick-upgrades in user space"),
	COL("upgrades_in_syscall", UINT, "", "tick-upgrades in a system call"),
	COL("top_syscall", INT, "", "the system call most of those found it in"),
	SOURCE_COLS(" of it"),
	LATENCY_COLS("lazy", "its served lazy requests"),
	COL("trace_share", DOUBLE, "share", "its share of the trace, of one CPU"),
	COL("lifetime_share", DOUBLE, "share", "its share of its own lifetime"),
	COL("site", STRING, "", "its call site with the most episodes; null without stacks"),
};

DEF(hogs, "hogs", false, false, hogs_next);

static int hogs_next(struct lt_table *t)
{
	const struct lt_task_stats *const *v;
	const struct lt_task_stats *s;
	const struct lt_site *sites;
	size_t nr, nr_sites;
	int c = 0;

	v = lt_analysis_hogs(t->run->an, &nr);
	if (t->pos >= nr)
		return 0;
	s = v[t->pos++];
	set_u(t, c++, t->pos);
	c = put_task_head(t, c, s);
	set_s(t, c++, s->cpus);
	set_u(t, c++, s->first_ns);
	set_u(t, c++, s->last_ns);
	set_u(t, c++, s->episodes);
	set_u(t, c++, s->pending_ns);
	set_u(t, c++, s->max_pending_ns);
	set_u(t, c++, s->count[LT_TR_LAZY]);
	set_u(t, c++, s->count[LT_TR_TICK_UPGRADE]);
	set_u(t, c++, s->upgrades_user);
	set_u(t, c++, s->upgrades_syscall);
	if (s->top_syscall >= 0)
		set_i(t, c++, s->top_syscall);
	else
		set_null(t, c++);
	c = put_u64s(t, c, s->upgrades_by_source, LT_UPG_SOURCE_MAX);
	c = put_latency(t, c, &s->latency[LT_LAT_LAZY_SERVED]);
	set_d(t, c++, s->trace_share);
	set_d(t, c++, s->lifetime_share);
	sites = lt_analysis_sites(t->run->an, s, &nr_sites);
	if (nr_sites)
		set_s(t, c++, sites[0].function);
	else
		set_null(t, c++);
	return 1;
}

/* ---- sites and stacks: per hog ---- */

static const struct lt_col sites_cols[] = {
	COL("pid", INT, "", "the hog"),
	COL("comm", STRING, "", "its name"),
	COL("task_id", UINT, "", "the task record"),
	COL("rank", UINT, "", "1 for the site with the most episodes"),
	COL("function", STRING, "", "the innermost frame that is not interrupt entry or tracing"),
	COL("episodes", UINT, "", "hog episodes with this site"),
	COL("pending_ns", DURATION, "ns", "time their lazy requests were pending"),
	COL("stack", STRING, "", "the stack, innermost frame first, frames joined by ';'"),
	COL("frames", UINT, "", "frames in the stack"),
	COL("stack_truncated", BOOL, "", "the stack was cut short"),
};

DEF(sites, "sites", false, false, sites_next);

static const struct lt_col stacks_cols[] = {
	COL("pid", INT, "", "the hog"),
	COL("comm", STRING, "", "its name"),
	COL("task_id", UINT, "", "the task record"),
	COL("rank", UINT, "", "1 for the stack with the most episodes"),
	COL("function", STRING, "", "the stack's call site"),
	COL("episodes", UINT, "", "hog episodes with this stack"),
	COL("pending_ns", DURATION, "ns", "time their lazy requests were pending"),
	COL("stack", STRING, "", "the stack, innermost frame first, frames joined by ';'"),
	COL("frames", UINT, "", "frames in the stack"),
	COL("stack_truncated", BOOL, "", "the stack was cut short"),
};

DEF(stacks, "stacks", false, false, sites_next);

static int sites_next(struct lt_table *t)
{
	const struct lt_task_stats *const *v;
	const struct lt_site *list = NULL, *st;
	size_t nr, nr_sites = 0, len = 0, n;
	char *buf;
	unsigned int i;
	int c = 0;
	char *nb;

	v = lt_analysis_hogs(t->run->an, &nr);
	for (; t->pos < nr; t->pos++, t->sub = 0) {
		list = t->def == &sites ?
			lt_analysis_sites(t->run->an, v[t->pos], &nr_sites) :
			lt_analysis_stacks(t->run->an, v[t->pos], &nr_sites);
		if (t->sub < nr_sites)
			break;
	}
	if (t->pos >= nr)
		return 0;
	st = &list[t->sub++];
	for (i = 0; i < st->nr_frames; i++)
		len += strlen(st->stack[i]) + 1;
	if (len + 1 > t->info_len) {
		nb = realloc(t->info, len + 1);
		if (!nb)
			return lt_run_fail(t->run, LT_RUN_NOMEM, "out of memory");
		t->info = nb;
		t->info_len = len + 1;
	}
	buf = t->info;
	buf[0] = '\0';
	for (i = 0, n = 0; i < st->nr_frames; i++)
		n += sprintf(buf + n, "%s%s", i ? ";" : "", st->stack[i]);
	c = put_task_head(t, c, v[t->pos]);
	set_u(t, c++, t->sub);
	set_s(t, c++, st->function);
	set_u(t, c++, st->episodes);
	set_u(t, c++, st->pending_ns);
	set_s(t, c++, buf);
	set_u(t, c++, st->nr_frames);
	set_i(t, c++, st->truncated);
	return 1;
}

/* ---- latency: every distribution, all tasks and each ---- */

static const struct lt_col latency_cols[] = {
	COL("pid", INT, "", "the task; null for all tasks, a row every --pid and --comm keeps"),
	COL("comm", STRING, "", "its name"),
	COL("task_id", UINT, "", "the task record"),
	COL("kind", STRING, "", "lazy_served, eager_served, lazy_upgrade or fold_served"),
	COL("count", UINT, "", "samples"),
	COL("p50_ns", DURATION, "ns", "median (log-linear histogram: within 0.8%)"),
	COL("p90_ns", DURATION, "ns", "90th percentile"),
	COL("p99_ns", DURATION, "ns", "99th percentile"),
	COL("max_ns", DURATION, "ns", "largest sample, exact"),
};

DEF(latency, "latency", false, false, latency_next);

static int latency_next(struct lt_table *t)
{
	const struct lt_analysis_summary *s = lt_analysis_summary(t->run->an);
	const struct lt_latency *l;
	const struct lt_task_stats *task = NULL;
	int c = 0;

	if (task_order(t->run))
		return -1;
	/* pos 0: all tasks; then the tasks table's order; sub: the kind */
	for (;;) {
		if (t->pos > t->run->nr_order)
			return 0;
		task = t->pos ? t->run->order[t->pos - 1] : NULL;
		l = task ? task->latency : s->latency;
		while (t->sub < LT_LAT_KIND_MAX && !l[t->sub].count)
			t->sub++;
		if (t->sub < LT_LAT_KIND_MAX)
			break;
		t->pos++;
		t->sub = 0;
	}
	l = &l[t->sub];
	if (task) {
		c = put_task_head(t, c, task);
	} else {
		set_null(t, c++);
		set_null(t, c++);
		set_null(t, c++);
	}
	set_s(t, c++, lt_latency_name(t->sub++));
	set_u(t, c++, l->count);
	set_u(t, c++, l->p50);
	set_u(t, c++, l->p90);
	set_u(t, c++, l->p99);
	set_u(t, c++, l->max);
	return 1;
}

/* ---- lost: per CPU ---- */

static const struct lt_col lost_cols[] = {
	COL("cpu", INT, "", "the CPU"),
	COL("lost_events", UINT, "events", "events the ring buffer said it lost"),
	COL("lost_unknown", BOOL, "", "it also lost events without saying how many"),
};

DEF(lost, "lost", false, false, lost_next);

static int lost_next(struct lt_table *t)
{
	const struct lt_analysis_summary *s = lt_analysis_summary(t->run->an);
	uint64_t n = 0;	/* gcc -O1 cannot see the loop sets it */
	bool unknown;

	for (; (int)t->pos < s->nr_cpus; t->pos++) {
		n = lt_analysis_lost(t->run->an, t->pos, &unknown);
		if (n || unknown)
			break;
	}
	if ((int)t->pos >= s->nr_cpus)
		return 0;
	set_i(t, 0, t->pos++);
	set_u(t, 1, n);
	set_i(t, 2, unknown);
	return 1;
}

const struct lt_table_def *const lt_table_defs[] = {
	&meta, &summary, &events, &transitions, &requests, &switches, &tasks,
	&hogs, &episodes, &sites, &stacks, &latency, &lost, &preempts,
	&preempt_groups, &pending, NULL,
};
