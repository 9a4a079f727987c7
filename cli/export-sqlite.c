// SPDX-License-Identifier: GPL-2.0
/*
 * lazytrace export --sqlite FILE: the library's tables in one SQLite
 * database, for many traces. Each table becomes a table of the same name
 * and columns, after a first column trace_id; the meta table becomes
 * "traces" (trace_id, path, then meta's columns), one row per trace; a
 * table "columns" carries every column's type, unit and meaning.
 *
 * Written for speed: the database is a new file, so no rollback journal
 * on disk and no fsync while it is made; one transaction per trace (a
 * trace that fails is rolled back, whole); prepared inserts; the indexes
 * made once at the end, over all rows.
 */
#include <errno.h>
#include <inttypes.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "export.h"
#include "private.h"

/* The database's schema version: PRAGMA user_version. */
#define SQL_SCHEMA_VERSION LT_JSON_VERSION_3

struct sql_table {
	const char *lib;	/* the library's name */
	const char *name;	/* in the database */
	sqlite3_stmt *insert;
	unsigned int nr_cols;
	bool has_pid, has_comm;
};

struct sql_sink {
	struct export_sink s;
	const char *path;
	bool world_readable;
	char *tmp;
	sqlite3 *db;
	struct sql_table t[32];
	size_t nr;
	unsigned int trace_id;
	const char *trace_path;
};

static const char *sql_type(enum lt_col_type type)
{
	switch (type) {
	case LT_COL_DOUBLE:
		return "REAL";
	case LT_COL_STRING:
		return "TEXT";
	default:
		/* integers, booleans (0/1), times in ns */
		return "INTEGER";
	}
}

static int sql_failed(struct sql_sink *ss, const char *what)
{
	warn("%s: %s: %s", ss->path, what, sqlite3_errmsg(ss->db));
	ss->s.out_failed = true;
	return -1;
}

static int exec(struct sql_sink *ss, const char *sql)
{
	if (sqlite3_exec(ss->db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return sql_failed(ss, sql);
	return 0;
}

/* A statement built in a memory stream; NULL if out of memory. */
struct sql_text {
	char *s;
	size_t len;
	FILE *fp;
};

static FILE *text_begin(struct sql_text *q)
{
	q->s = NULL;
	q->fp = open_memstream(&q->s, &q->len);
	if (!q->fp)
		die("out of memory");
	return q->fp;
}

static char *text_end(struct sql_text *q)
{
	if (fclose(q->fp) || !q->s)
		die("out of memory");
	return q->s;
}

/* An identifier, always quoted: no column name can be a keyword. */
static void ident(FILE *fp, const char *name)
{
	fputc('"', fp);
	for (; *name; name++) {
		if (*name == '"')
			fputc('"', fp);
		fputc(*name, fp);
	}
	fputc('"', fp);
}

static int create_table(struct sql_sink *ss, struct sql_table *st,
			struct lt_table *schema)
{
	bool traces = !strcmp(st->lib, "meta");
	unsigned int i, n = lt_table_nr_columns(schema);
	struct sql_text q;
	FILE *fp;
	char *sql;
	int ret;

	fp = text_begin(&q);
	fputs("CREATE TABLE ", fp);
	ident(fp, st->name);
	if (traces)
		fputs(" (trace_id INTEGER PRIMARY KEY, path TEXT NOT NULL", fp);
	else
		fputs(" (trace_id INTEGER NOT NULL REFERENCES traces", fp);
	for (i = 0; i < n; i++) {
		const char *col = lt_table_column_name(schema, i);

		if (!strcmp(col, "trace_id") || (traces && !strcmp(col, "path")))
			die("%s: a column named %s: no room for the trace's",
			    st->lib, col);
		fputs(", ", fp);
		ident(fp, col);
		fprintf(fp, " %s", sql_type(lt_table_column_type(schema, i)));
		st->has_pid |= !strcmp(col, "pid");
		st->has_comm |= !strcmp(col, "comm");
	}
	fputs(")", fp);
	sql = text_end(&q);
	ret = exec(ss, sql);
	free(sql);
	if (ret)
		return -1;

	st->nr_cols = n;
	fp = text_begin(&q);
	fputs("INSERT INTO ", fp);
	ident(fp, st->name);
	fputs(" VALUES (?", fp);
	for (i = 0; i < n + traces; i++)
		fputs(", ?", fp);
	fputs(")", fp);
	sql = text_end(&q);
	ret = sqlite3_prepare_v3(ss->db, sql, -1, SQLITE_PREPARE_PERSISTENT,
				 &st->insert, NULL);
	free(sql);
	return ret == SQLITE_OK ? 0 : sql_failed(ss, "cannot prepare");
}

/* The columns table: the schema, in the database itself. */
static int describe(struct sql_sink *ss, struct lt_table *const *schema,
		    size_t nr)
{
	static const char *const own[][4] = {
		{ "trace_id", "int", "", "the trace: traces.trace_id" },
		{ "path", "string", "", "the trace's path, as given" },
	};
	sqlite3_stmt *ins;
	unsigned int c;
	size_t i, k;
	int ret = 0;

	if (exec(ss, "CREATE TABLE columns (table_name TEXT NOT NULL, "
		 "name TEXT NOT NULL, type TEXT NOT NULL, sql_type TEXT "
		 "NOT NULL, unit TEXT NOT NULL, doc TEXT NOT NULL)"))
		return -1;
	if (sqlite3_prepare_v2(ss->db,
			       "INSERT INTO columns VALUES (?, ?, ?, ?, ?, ?)",
			       -1, &ins, NULL) != SQLITE_OK)
		return sql_failed(ss, "cannot prepare");
	for (i = 0; i < nr && !ret; i++) {
		const char *table = ss->t[i].name;
		bool traces = !strcmp(ss->t[i].lib, "meta");

		for (k = 0; k < (traces ? 2u : 1u) && !ret; k++) {
			sqlite3_bind_text(ins, 1, table, -1, SQLITE_STATIC);
			sqlite3_bind_text(ins, 2, own[k][0], -1, SQLITE_STATIC);
			sqlite3_bind_text(ins, 3, own[k][1], -1, SQLITE_STATIC);
			sqlite3_bind_text(ins, 4, k ? "TEXT" : "INTEGER", -1,
					  SQLITE_STATIC);
			sqlite3_bind_text(ins, 5, own[k][2], -1, SQLITE_STATIC);
			sqlite3_bind_text(ins, 6, own[k][3], -1, SQLITE_STATIC);
			if (sqlite3_step(ins) != SQLITE_DONE)
				ret = -1;
			sqlite3_reset(ins);
		}
		for (c = 0; c < lt_table_nr_columns(schema[i]) && !ret; c++) {
			enum lt_col_type type = lt_table_column_type(schema[i],
								     c);

			sqlite3_bind_text(ins, 1, table, -1, SQLITE_STATIC);
			sqlite3_bind_text(ins, 2,
					  lt_table_column_name(schema[i], c),
					  -1, SQLITE_STATIC);
			sqlite3_bind_text(ins, 3, lt_col_type_name(type), -1,
					  SQLITE_STATIC);
			sqlite3_bind_text(ins, 4, sql_type(type), -1,
					  SQLITE_STATIC);
			sqlite3_bind_text(ins, 5,
					  lt_table_column_unit(schema[i], c),
					  -1, SQLITE_STATIC);
			sqlite3_bind_text(ins, 6,
					  lt_table_column_doc(schema[i], c),
					  -1, SQLITE_STATIC);
			if (sqlite3_step(ins) != SQLITE_DONE)
				ret = -1;
			sqlite3_reset(ins);
		}
	}
	if (ret)
		sql_failed(ss, "cannot describe the columns");
	sqlite3_finalize(ins);
	return ret;
}

static int sql_begin(struct export_sink *s, struct lt_table *const *schema,
		     size_t nr)
{
	struct sql_sink *ss = (struct sql_sink *)s;
	char pragma[64];
	size_t i;
	int fd;

	if (nr > ARRAY_SIZE(ss->t))
		die("too many tables");
	/* stacks and sites may hold kernel addresses: private */
	fd = private_create(ss->path, ss->world_readable, &ss->tmp);
	if (fd < 0) {
		warn("cannot write '%s': %s", ss->path, strerror(errno));
		return -1;
	}
	close(fd);
	/* an empty file is an empty database */
	if (sqlite3_open_v2(ss->tmp, &ss->db, SQLITE_OPEN_READWRITE, NULL) !=
	    SQLITE_OK)
		return sql_failed(ss, "cannot open");
	/*
	 * The file is new and removed if the export fails: no journal on
	 * disk (rollback of a trace still works, from memory), no fsync.
	 */
	snprintf(pragma, sizeof(pragma), "PRAGMA user_version = %d",
		 SQL_SCHEMA_VERSION);
	if (exec(ss, "PRAGMA journal_mode = MEMORY") ||
	    exec(ss, "PRAGMA synchronous = OFF") ||
	    exec(ss, "PRAGMA locking_mode = EXCLUSIVE") ||
	    exec(ss, "PRAGMA cache_size = -32768") ||
	    exec(ss, pragma) || exec(ss, "BEGIN"))
		return -1;
	for (i = 0; i < nr; i++) {
		struct sql_table *st = &ss->t[ss->nr++];

		st->lib = lt_table_name(schema[i]);
		st->name = strcmp(st->lib, "meta") ? st->lib : "traces";
		if (!strcmp(st->name, "columns"))
			die("a table named columns: no room for the schema's");
		if (create_table(ss, st, schema[i]))
			return -1;
	}
	if (describe(ss, schema, nr))
		return -1;
	return exec(ss, "COMMIT");
}

static int sql_trace_begin(struct export_sink *s, unsigned int id,
			   const char *path)
{
	struct sql_sink *ss = (struct sql_sink *)s;

	ss->trace_id = id;
	ss->trace_path = path;
	return exec(ss, "BEGIN");
}

static void bind_cell(sqlite3_stmt *ins, int arg, const struct lt_table *t,
		      unsigned int col)
{
	uint64_t u;

	if (lt_table_null(t, col)) {
		sqlite3_bind_null(ins, arg);
		return;
	}
	switch (lt_table_column_type(t, col)) {
	case LT_COL_INT:
	case LT_COL_BOOL:
		sqlite3_bind_int64(ins, arg, lt_table_int(t, col));
		break;
	case LT_COL_DOUBLE:
		/* SQLite stores a NaN as NULL */
		sqlite3_bind_double(ins, arg, lt_table_double(t, col));
		break;
	case LT_COL_STRING:
		/* valid until the next row: the insert is done by then */
		sqlite3_bind_text(ins, arg, lt_table_string(t, col), -1,
				  SQLITE_STATIC);
		break;
	default:
		u = lt_table_uint(t, col);
		/* SQLite's integers are signed: beyond, the nearest real */
		if (u > INT64_MAX)
			sqlite3_bind_double(ins, arg, (double)u);
		else
			sqlite3_bind_int64(ins, arg, (int64_t)u);
		break;
	}
}

static long sql_table(struct export_sink *s, struct lt_table *t)
{
	struct sql_sink *ss = (struct sql_sink *)s;
	struct sql_table *st = NULL;
	unsigned int c, first;
	long rows = 0;
	size_t i;
	int ret;

	for (i = 0; i < ss->nr && !st; i++)
		if (!strcmp(ss->t[i].lib, lt_table_name(t)))
			st = &ss->t[i];
	if (!st)
		die("%s: a table not planned", lt_table_name(t));
	first = !strcmp(st->lib, "meta") ? 3 : 2;
	while ((ret = lt_table_next(t)) > 0) {
		sqlite3_bind_int64(st->insert, 1, ss->trace_id);
		if (first == 3)
			sqlite3_bind_text(st->insert, 2, ss->trace_path, -1,
					  SQLITE_STATIC);
		for (c = 0; c < st->nr_cols; c++)
			bind_cell(st->insert, first + c, t, c);
		if (sqlite3_step(st->insert) != SQLITE_DONE) {
			sqlite3_reset(st->insert);
			return sql_failed(ss, "cannot insert");
		}
		sqlite3_reset(st->insert);
		rows++;
	}
	return ret < 0 ? -1 : rows;
}

static int sql_trace_end(struct export_sink *s, bool keep)
{
	struct sql_sink *ss = (struct sql_sink *)s;

	return exec(ss, keep ? "COMMIT" : "ROLLBACK");
}

static int create_index(struct sql_sink *ss, const char *table,
			const char *col)
{
	struct sql_text q;
	char name[128];
	FILE *fp;
	char *sql;
	int ret;

	snprintf(name, sizeof(name), "%s_%s", table, col);
	fp = text_begin(&q);
	fputs("CREATE INDEX ", fp);
	ident(fp, name);
	fputs(" ON ", fp);
	ident(fp, table);
	fputs(" (", fp);
	ident(fp, col);
	fputs(")", fp);
	sql = text_end(&q);
	ret = exec(ss, sql);
	free(sql);
	return ret;
}

/* The indexes, once over all rows: cheaper than kept up per insert. */
static int make_indexes(struct sql_sink *ss)
{
	size_t i;

	if (exec(ss, "BEGIN"))
		return -1;
	for (i = 0; i < ss->nr; i++) {
		struct sql_table *st = &ss->t[i];

		if (!strcmp(st->lib, "meta"))
			continue;	/* trace_id is its key */
		if (create_index(ss, st->name, "trace_id") ||
		    (st->has_pid && create_index(ss, st->name, "pid")) ||
		    (st->has_comm && create_index(ss, st->name, "comm")))
			return -1;
	}
	return exec(ss, "COMMIT");
}

static int sql_end(struct export_sink *s, bool commit)
{
	struct sql_sink *ss = (struct sql_sink *)s;
	int ret = 0;
	size_t i;

	if (commit && make_indexes(ss))
		commit = false;
	for (i = 0; i < ss->nr; i++)
		sqlite3_finalize(ss->t[i].insert);
	if (ss->db && sqlite3_close(ss->db) != SQLITE_OK && commit) {
		warn("cannot write '%s': %s", ss->path, sqlite3_errmsg(ss->db));
		commit = false;
	}
	if (commit && private_commit(ss->tmp, ss->path)) {
		warn("cannot write '%s': %s", ss->path, strerror(errno));
		ret = -1;
	} else if (!commit) {
		private_abort(ss->tmp);
		ret = -1;
	}
	free(ss);
	return ret;
}

struct export_sink *export_sqlite_sink(const char *path, bool world_readable)
{
	struct sql_sink *ss = calloc(1, sizeof(*ss));

	if (!ss)
		die("out of memory");
	ss->path = path;
	ss->world_readable = world_readable;
	ss->s.begin = sql_begin;
	ss->s.trace_begin = sql_trace_begin;
	ss->s.table = sql_table;
	ss->s.trace_end = sql_trace_end;
	ss->s.end = sql_end;
	return &ss->s;
}
