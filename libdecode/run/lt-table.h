/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Internal interfaces of runs and tables: a table is a schema (named,
 * typed columns) and a cursor whose row a producer fills (lt-rows.c);
 * the run (lt-run.c) owns the reader, the analysis and the filters.
 */
#ifndef _LT_TABLE_H
#define _LT_TABLE_H

#include "../analysis/lt-analysis.h"
#include "../read/lt-internal.h"

struct lt_col {
	const char *name;
	enum lt_col_type type;
	const char *unit;
	const char *doc;
};

union lt_cell {
	int64_t i;
	uint64_t u;
	double d;
	const char *s;
};

struct lt_table_def;

/* Fill t->cell and t->null with the next row: 1, 0 at the end, -1 error. */
typedef int (*lt_row_fn)(struct lt_table *t);

struct lt_table_def {
	const char *name;
	const struct lt_col *cols;
	unsigned int nr_cols;
	bool one_row;
	bool stream;		/* rows made while the input is read */
	lt_row_fn next;
};

/* The columns a row filter looks at, by role. */
#define LT_TABLE_MAX_KEYS 2

struct lt_table {
	const struct lt_table_def *def;
	struct lt_run *run;
	union lt_cell *cell;
	bool *null;
	int pid_col[LT_TABLE_MAX_KEYS];
	int comm_col[LT_TABLE_MAX_KEYS];
	int kind_col;
	size_t pos;		/* an aggregate table's cursor */
	size_t sub;		/* and its inner cursor (sites of a task) */
	bool done;
	bool failed;		/* lt_table_next() ended on an error */
	bool held;		/* the row lt_table_fill() could not take */
	char str[4][256];	/* strings a producer formats for the row */
	char *info;		/* events: the event's text */
	size_t info_len;
	struct lt_table *next;	/* the run's list of tables */
};

/* A set of small non-negative integers (CPUs, pids): "0,2-3". */
struct lt_int_set {
	int *v;
	int nr;
};

int lt_int_set_parse(struct lt_int_set *set, const char *list);
bool lt_int_set_has(const struct lt_int_set *set, int v);
void lt_int_set_free(struct lt_int_set *set);

/* A live run drains the buffers every so many events it reads. */
#define LT_RUN_POLL_EVENTS 16384

/* A request still open when the input ended (one per CPU at most). */
struct lt_pend {
	int pid;
	int cpu;
	char comm[LT_COMM_LEN];
	enum lt_transition_kind request;
	uint64_t since_ns;
};

/* One row a stream table keeps until lt_table_next() hands it out. */
struct lt_row {
	struct lt_table *t;	/* the table it is a row of */
	union lt_cell *cell;
	bool *null;
	char comm[3][LT_COMM_LEN];
};

struct lt_run {
	/* options */
	char *input;
	char *buffer;
	enum lt_abi abi;
	struct lt_int_set cpus, pids;
	char **comms;
	int nr_comms;
	unsigned int kinds;	/* a bit per transition kind; 0: all */
	uint64_t from, to;	/* the cut; to == UINT64_MAX: no end */
	struct lt_analysis_opts lo;
	bool idle;
	bool all_tasks;		/* the tasks table lists every task record */
	int jobs;		/* 0: the reader's default */
	int part, parts;	/* "part" K/N: part K (from 1) of N; 0/0 all */
	int by;			/* preempt_groups: one grouping + 1, 0: all */
	bool graph_leaves;	/* a function_graph leaf is one event */
	bool feed;		/* lt_run_next_event() feeds the analysis */

	/* state */
	struct lt_reader *reader;
	struct run_src {
		struct lt_reader **r;	/* NULL: the run's reader alone */
		struct lt_split *split;	/* threads reading its file */
		uint64_t taken;		/* events they handed over */
		struct lt_reader *spent; /* replaced by *r, kept */
		bool done;
		bool lost;		/* the file is gone: err says why */
		char err[LT_ERR_LEN];
	} src;			/* where lt_run_step() takes its events */
	bool took_events;	/* lt_run_next_event() was called */
	struct lt_analysis *an;
	const char *abi_reason;
	enum lt_run_status status;
	char err[LT_ERR_LEN];
	bool opened;
	bool fed_all;		/* the input is read and the analysis finished */
	bool stream_taken;	/* a streaming table was asked for */
	const struct lt_event *ev;	/* the event an events row shows */
	struct lt_table *tables;

	/* rows the analysis callback made, waiting for lt_table_next() */
	struct lt_table *queue_for;
	/*
	 * The stream tables that share the one pass (lt_run_next()), the
	 * first of them queue_for; the switches table among them, whose
	 * rows lt_run_step() then queues.
	 */
	struct lt_table *stream[3];
	unsigned int nr_stream;
	struct lt_table *switch_rows;
	bool stepped;		/* an event was read */
	struct lt_row **queue;	/* a ring of rows, each allocated once */
	size_t q_head, q_len, q_cap;
	struct lt_open_req *open_req;	/* requests table: per task */
	struct lt_analysis *judge;	/* episodes table: a first pass */
	size_t nr_open_req, open_req_cap;
	struct lt_pgroups *pgroups;	/* preempt_groups table: the groups */
	bool nomem;

	/* tasks table order, made once the analysis is finished */
	const struct lt_task_stats **order;
	size_t nr_order;

	/* requests open at the end of the input: the pending table */
	struct lt_pend *pend;
	size_t nr_pend, pend_cap;

	/* a live session (lt-run-live.c) */
	bool live;
	bool syscalls;		/* raw_syscalls too */
	enum lt_stacks stacks;	/* when the kernel takes a stack */
	void (*note)(const char *msg);	/* told what tracefs left out */
	char *save;		/* where each interval is written too */
	unsigned int save_mode;	/* the saved files' mode */
	long save_uid, save_gid;	/* and owner; -1: the process's */
	uint64_t polled;	/* events read since the buffers were drained */
	struct lt_tracefs *session;
	uint64_t interval_end;	/* CLOCK_MONOTONIC: when the last one ended */
};

__attribute__((format(printf, 3, 4)))
int lt_run_fail(struct lt_run *run, enum lt_run_status st,
		const char *fmt, ...);

/*
 * Read the next event of the cut into the analysis: 1 with run->ev set,
 * 0 at the end (the analysis is then finished), -1 on error.
 */
int lt_run_step(struct lt_run *run);
/*
 * A trace.dat's events read by @n threads beside the caller's, in
 * segments in time, and handed in the one reader's order
 * (lt-run-split.c): @r the caller's reader (it reads segments too, and
 * gives its symbols to the stacks), @input and @o as it was opened.
 * lt_split_next() is NULL at the end, or where a segment stopped short
 * (lt_split_stopped(): one reader reads on from there). NULL if @r
 * cannot be cut in time or out of memory.
 */
struct lt_split;
struct lt_split *lt_split_start(struct lt_reader *r, const char *input,
				const struct lt_open_opts *o, int n);
const struct lt_event *lt_split_next(struct lt_split *s);
bool lt_split_stopped(const struct lt_split *s);
void lt_split_free(struct lt_split *s);
/* The run's analysis, finished (lt_run_finish()); NULL if not open. */
const struct lt_analysis *lt_run_analysis(struct lt_run *run);
/* The last call succeeded: no error to tell. */
void lt_run_ok(struct lt_run *run);
/* The run's analysis, made for a new input or a new live interval. */
int lt_run_new_analysis(struct lt_run *run);
/* Start the tracefs session and its reader of a live run. */
int lt_run_open_live(struct lt_run *run);
/* Free what the tables and the analysis hold, for the next interval. */
void lt_run_reset(struct lt_run *run);
/* Whether the row @t holds passes the run's pid, comm and kind filters. */
bool lt_table_row_matches(const struct lt_table *t);

/* The tables (lt-rows.c). */
extern const struct lt_table_def *const lt_table_defs[];
/* The analysis callback of the transitions and requests tables. */
void lt_rows_on_transition(const struct lt_transition *tr, void *data);
/* The analysis' episode hook, for the episodes table. */
void lt_rows_on_episode(const struct lt_episode *ep, void *data);
/* The analysis' preemption hook, for the preempts tables. */
void lt_rows_on_preempt(const struct lt_preemption *p, void *data);
/* The "by" option: the one grouping preempt_groups makes; -1 if bad. */
int lt_rows_set_by(struct lt_run *run, const char *value);
/* Free the preempt_groups table's groups. */
void lt_rows_pgroups_free(struct lt_run *run);
/* Whether a task passes the run's --pid and --comm filters. */
bool lt_run_task_matches(const struct lt_run *run, int pid, const char *comm);
/* A row for a stream table's queue, its cells to fill; NULL if no memory. */
struct lt_row *lt_run_queue_push(struct lt_run *run);
/* The same for @t, one of the stream tables that share the pass. */
struct lt_row *lt_run_queue_push_for(struct lt_run *run, struct lt_table *t);
/* Make queued row @r the current row of its table. */
void lt_rows_take(struct lt_row *r);
/* Whether a stream table can share its pass with others (lt_run_next()). */
bool lt_rows_shares_pass(const struct lt_table_def *def);
/* Queue the switches row of @ev, in a shared pass. */
void lt_rows_on_event(struct lt_run *run, const struct lt_event *ev);

#endif /* _LT_TABLE_H */
