// SPDX-License-Identifier: GPL-2.0
/*
 * lazytrace export --sqlite / --ndjson / --csv: every table of the
 * library, for each trace named, into one output, each row marked with
 * its trace. The tables and their columns are the library's
 * (lt_run_table_names()): nothing here knows a column.
 *
 * A streamed table (events, transitions, requests, switches, episodes,
 * preempts, preempt_groups) is made
 * while its run reads the input, one per run: each trace is read once
 * per streamed table, and the other tables come from the last run.
 *
 * A trace that cannot be read (missing, corrupt) is named on stderr and
 * left out, whole: the others are still written, and the exit status is
 * 2 (a fleet's hundred traces are not lost for one bad one). The outputs
 * are made under temporary names and renamed at the end; when no trace
 * could be read, nothing is.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "export.h"
#include "private.h"

/*
 * The tables lt_run_table() makes while reading: asked for first, each
 * on a run of its own. Only an order: should another table stream, its
 * run says so and it gets a run of its own all the same.
 */
static const char *const streamed[] = {
	"events", "transitions", "requests", "switches", "episodes",
	"preempts", "preempt_groups",
};

#define MAX_TABLES 32

static bool is_streamed(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(streamed); i++)
		if (!strcmp(name, streamed[i]))
			return true;
	return false;
}

/* The tables to write, streamed ones first. */
static size_t plan(const struct export_request *req, const char **order)
{
	const char *const *names = lt_run_table_names();
	size_t i, k, nr = 0;

	for (k = 0; k < 2; k++)
		for (i = 0; names[i] && nr < MAX_TABLES; i++) {
			if (is_streamed(names[i]) != !k)
				continue;
			if (!strcmp(names[i], "events") && !req->events)
				continue;
			order[nr++] = names[i];
		}
	return nr;
}

/*
 * A run of @path with the command line's options, opened; lt_run_error()
 * says if it could not be. The first of a trace says if it is cut short.
 */
static struct lt_run *open_run(const struct export_request *req,
			       const char *path, bool first)
{
	const struct run_cli *rc = req->rc;
	struct lt_run *run = lt_run_new();
	uint64_t cut;
	int i;

	if (!run)
		die("out of memory");
	/* the options run_opt() checked and kept: they cannot fail now */
	for (i = 0; i < rc->nr_opts; i++)
		lt_run_set(run, rc->opt_name[i], rc->opt_value[i]);
	if (lt_run_set(run, "input", path) || lt_run_open(run))
		return run;
	cut = lt_run_truncated(run);
	if (!first || !cut)
		return run;
	/* the shared note says it once per command: here, once per trace */
	if (input_truncated())
		warn("warning: %s: truncated trace.dat: its CPU data is cut short at offset %llu; read up to there",
		     path, (unsigned long long)cut);
	else
		input_note_truncated(path, cut);
	return run;
}

/* The run's error, naming the trace (the reader's errors do). */
static void trace_failed(const struct lt_run *run, const char *path)
{
	const char *err = lt_run_error(run);

	if (!err)
		err = "cannot be read";
	if (strstr(err, path))
		warn("%s", err);
	else
		warn("%s: %s", path, err);
}

/* Whether the run read no event at all: meta's events column. */
static bool no_events(struct lt_run *run)
{
	struct lt_table *t = lt_run_table(run, "meta");
	int col;

	if (!t || lt_table_next(t) <= 0)
		return false;
	col = lt_table_column(t, "events");
	return col >= 0 && !lt_table_uint(t, col);
}

enum { TRACE_OK, TRACE_EMPTY, TRACE_BAD, OUTPUT_BAD };

static int export_trace(struct export_sink *s,
			const struct export_request *req, unsigned int id,
			const char *path, const char *const *order, size_t nr)
{
	struct lt_run *run = NULL;
	struct lt_table *t;
	bool used = false, first = true, empty;
	size_t i;

	if (s->trace_begin(s, id, path))
		return OUTPUT_BAD;
	for (i = 0; i < nr; i++) {
		if (!run) {
			run = open_run(req, path, first);
			if (lt_run_error(run))
				goto bad;
			used = false;
			first = false;
		}
		t = lt_run_table(run, order[i]);
		if (!t && used && lt_run_status(run) == LT_RUN_USAGE) {
			/* a streamed table: a run of its own */
			lt_run_free(run);
			run = NULL;
			i--;
			continue;
		}
		if (!t || s->table(s, t) < 0) {
			if (s->out_failed) {
				lt_run_free(run);
				s->trace_end(s, false);
				return OUTPUT_BAD;
			}
			goto bad;
		}
		used = true;
	}
	empty = run && no_events(run);
	lt_run_free(run);
	if (s->trace_end(s, true))
		return OUTPUT_BAD;
	return empty ? TRACE_EMPTY : TRACE_OK;
bad:
	trace_failed(run, path);
	lt_run_free(run);
	return s->trace_end(s, false) ? OUTPUT_BAD : TRACE_BAD;
}

/* ---- CSV and NDJSON: DIR/TABLE.csv, a first column "trace" ---- */

struct table_file {
	const char *name;
	char *path;
	char *tmp;
	FILE *fp;
	struct lt_writer *w;
	off_t mark;		/* where the current trace's rows begin */
};

struct files_sink {
	struct export_sink s;
	const char *dir;
	enum lt_format format;
	bool world_readable;
	bool made_dir;		/* removed again if nothing is written */
	struct table_file f[MAX_TABLES];
	size_t nr;
};

static int file_failed(struct files_sink *fs, struct table_file *f)
{
	warn("cannot write '%s': %s", f->path, strerror(errno));
	fs->s.out_failed = true;
	return -1;
}

static int files_begin(struct export_sink *s, struct lt_table *const *schema,
		       size_t nr)
{
	struct files_sink *fs = (struct files_sink *)s;
	const char *ext = fs->format == LT_FORMAT_CSV ? "csv" : "ndjson";
	struct table_file *f;
	struct stat st;
	size_t i;
	int fd;

	if (!mkdir(fs->dir, 0777)) {
		fs->made_dir = true;
	} else if (errno != EEXIST || stat(fs->dir, &st) ||
		   !S_ISDIR(st.st_mode)) {
		warn("cannot make the directory '%s': %s", fs->dir,
		     errno == EEXIST ? "not a directory" : strerror(errno));
		return -1;
	}
	for (i = 0; i < nr; i++) {
		f = &fs->f[fs->nr];
		f->name = lt_table_name(schema[i]);
		if (asprintf(&f->path, "%s/%s.%s", fs->dir, f->name, ext) < 0)
			die("out of memory");
		fs->nr++;
		/* sites and stacks may hold kernel addresses: private */
		fd = private_create(f->path, fs->world_readable, &f->tmp);
		f->fp = fd >= 0 ? fdopen(fd, "w") : NULL;
		if (!f->fp) {
			if (fd >= 0)
				close(fd);
			return file_failed(fs, f);
		}
		f->w = lt_writer_new(f->fp, fs->format, 0);
		if (!f->w || lt_writer_set_prefix(f->w, "trace", NULL))
			die("out of memory");
		/* the header alone: an export of no row still has it */
		if (lt_writer_table(f->w, schema[i]) < 0)
			die("%s: cannot write the header", f->path);
	}
	return 0;
}

static struct table_file *file_of(struct files_sink *fs, const char *name)
{
	size_t i;

	for (i = 0; i < fs->nr; i++)
		if (!strcmp(fs->f[i].name, name))
			return &fs->f[i];
	return NULL;
}

static int files_trace_begin(struct export_sink *s, unsigned int id,
			     const char *path)
{
	struct files_sink *fs = (struct files_sink *)s;
	struct table_file *f;
	size_t i;

	for (i = 0; i < fs->nr; i++) {
		f = &fs->f[i];
		if (fflush(f->fp))
			return file_failed(fs, f);
		f->mark = ftello(f->fp);
		if (lt_writer_set_prefix(f->w, "trace", path))
			die("out of memory");
	}
	return 0;
}

static long files_table(struct export_sink *s, struct lt_table *t)
{
	struct files_sink *fs = (struct files_sink *)s;
	struct table_file *f = file_of(fs, lt_table_name(t));
	long rows;

	if (!f)
		die("%s: a table not planned", lt_table_name(t));
	rows = lt_writer_table(f->w, t);
	if (ferror(f->fp))
		return file_failed(fs, f);
	return rows;
}

/* A trace that failed: its rows are cut off every file. */
static int files_trace_end(struct export_sink *s, bool keep)
{
	struct files_sink *fs = (struct files_sink *)s;
	struct table_file *f;
	size_t i;

	if (keep)
		return 0;
	for (i = 0; i < fs->nr; i++) {
		f = &fs->f[i];
		if (fflush(f->fp) || ftruncate(fileno(f->fp), f->mark) ||
		    fseeko(f->fp, f->mark, SEEK_SET))
			return file_failed(fs, f);
	}
	return 0;
}

static int files_end(struct export_sink *s, bool commit)
{
	struct files_sink *fs = (struct files_sink *)s;
	struct table_file *f;
	int ret = 0;
	size_t i;

	for (i = 0; i < fs->nr; i++) {
		f = &fs->f[i];
		if (f->w && lt_writer_end(f->w) && commit) {
			file_failed(fs, f);
			commit = false;
		}
		if (f->fp && fclose(f->fp) && commit) {
			file_failed(fs, f);
			commit = false;
		}
	}
	for (i = 0; i < fs->nr; i++) {
		f = &fs->f[i];
		if (commit && private_commit(f->tmp, f->path)) {
			warn("cannot write '%s': %s", f->path,
			     strerror(errno));
			ret = -1;
		} else if (!commit) {
			private_abort(f->tmp);
		}
		free(f->path);
	}
	if (!commit && fs->made_dir)
		rmdir(fs->dir);
	free(fs);
	return commit ? ret : -1;
}

static struct export_sink *files_sink(const char *dir, enum lt_format format,
				      bool world_readable)
{
	struct files_sink *fs = calloc(1, sizeof(*fs));

	if (!fs)
		die("out of memory");
	fs->dir = dir;
	fs->format = format;
	fs->world_readable = world_readable;
	fs->s.begin = files_begin;
	fs->s.trace_begin = files_trace_begin;
	fs->s.table = files_table;
	fs->s.trace_end = files_trace_end;
	fs->s.end = files_end;
	return &fs->s;
}

static bool is_planned(const char *name, const char *const *order, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (!strcmp(order[i], name))
			return true;
	return false;
}

int export_tables(const struct export_request *req)
{
	const char *const *names = lt_run_table_names();
	struct lt_table *schema[MAX_TABLES];
	const char *order[MAX_TABLES];
	struct export_sink *s;
	struct lt_run *run;
	int i, st, bad = 0, empty = 0;
	size_t k, nr;

	nr = plan(req, order);
	/* a run not opened: its tables are the schema, in the library's order */
	run = lt_run_new();
	if (!run)
		die("out of memory");
	for (k = 0, i = 0; names[i]; i++) {
		if (!is_planned(names[i], order, nr))
			continue;
		schema[k] = lt_run_table(run, names[i]);
		if (!schema[k])
			die("%s", lt_run_error(run));
		k++;
	}
	if (req->mode == EXPORT_SQLITE)
		s = export_sqlite_sink(req->out, req->world_readable);
	else
		s = files_sink(req->out, req->mode == EXPORT_CSV ?
			       LT_FORMAT_CSV : LT_FORMAT_NDJSON,
			       req->world_readable);
	if (!s || s->begin(s, schema, nr)) {
		if (s)
			s->end(s, false);
		lt_run_free(run);
		return EXIT_BAD;
	}
	lt_run_free(run);
	for (i = 0; i < req->nr_files; i++) {
		st = export_trace(s, req, i + 1, req->files[i], order, nr);
		if (st == OUTPUT_BAD) {
			s->end(s, false);
			return EXIT_BAD;
		}
		bad += st == TRACE_BAD;
		empty += st == TRACE_EMPTY;
	}
	/* no trace could be read: no output either */
	if (s->end(s, bad < req->nr_files) || bad)
		return EXIT_BAD;
	if (empty < req->nr_files)
		return EXIT_OK;
	if (req->nr_files == 1)
		return nothing_found("%s: no events", req->files[0]);
	return nothing_found("no events in any of the %d traces",
			     req->nr_files);
}
