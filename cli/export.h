/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lazytrace export --sqlite / --ndjson / --csv: every table of the
 * library for many traces at once. export-tables.c reads the traces
 * (one run per streamed table) and hands each table to an output:
 * a SQLite database (export-sqlite.c) or one file per table.
 */
#ifndef _LT_EXPORT_H
#define _LT_EXPORT_H

#include "cli.h"

/* An option as the command line gave it, kept until the mode is known. */
struct export_opt {
	int c;
	const char *arg;
};

enum export_mode {
	EXPORT_SQLITE,
	EXPORT_CSV,
	EXPORT_NDJSON,
};

struct export_request {
	enum export_mode mode;
	const char *out;		/* the database, or the directory */
	const char *const *files;	/* the traces, in order */
	int nr_files;
	/* the run options, checked and kept by run_opt(), for every run */
	const struct run_cli *rc;
	bool events;			/* --events: the events table too */
	bool world_readable;		/* --world-readable */
};

/* Write the tables of every trace; returns the exit status. */
int export_tables(const struct export_request *req);

/*
 * An output for the tables: the driver calls begin() with each table's
 * schema (a table of a run not opened), then per trace trace_begin(),
 * table() for each of its tables, trace_end() (keep false: the trace
 * failed, drop what it wrote), and at last end(). Every call but end()
 * returns -1 on a failure of the output itself (printed): the export
 * stops there.
 */
struct export_sink {
	int (*begin)(struct export_sink *s, struct lt_table *const *schema,
		     size_t nr);
	int (*trace_begin)(struct export_sink *s, unsigned int id,
			   const char *path);
	/* the rows written, -1 on a read error (lt_run_error()) */
	long (*table)(struct export_sink *s, struct lt_table *t);
	int (*trace_end)(struct export_sink *s, bool keep);
	/* commit false: remove what was made; returns 0 or -1 */
	int (*end)(struct export_sink *s, bool commit);
	/* set by table() when the output failed, not the trace */
	bool out_failed;
};

/* The SQLite output (export-sqlite.c); NULL, said why, on failure. */
struct export_sink *export_sqlite_sink(const char *path, bool world_readable);

#endif /* _LT_EXPORT_H */
