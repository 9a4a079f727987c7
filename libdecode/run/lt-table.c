// SPDX-License-Identifier: LGPL-2.1
/*
 * The table type: a schema of named, typed columns with units, and a
 * cursor over rows. Every output (text, JSON, CSV, NDJSON, SQLite, the
 * Python module) reads tables through these getters only.
 */
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <limits.h>

#include "lt-table.h"

const char *lt_col_type_name(enum lt_col_type type)
{
	static const char *const names[] = {
		[LT_COL_INT] = "int",
		[LT_COL_UINT] = "uint",
		[LT_COL_DOUBLE] = "double",
		[LT_COL_STRING] = "string",
		[LT_COL_BOOL] = "bool",
		[LT_COL_TIMESTAMP] = "timestamp",
		[LT_COL_DURATION] = "duration",
	};

	if ((unsigned int)type >= ARRAY_SIZE(names))
		return "?";
	return names[type];
}

const char *lt_table_name(const struct lt_table *t)
{
	return t->def->name;
}

bool lt_table_one_row(const struct lt_table *t)
{
	return t->def->one_row;
}

unsigned int lt_table_nr_columns(const struct lt_table *t)
{
	return t->def->nr_cols;
}

static const struct lt_col *col_of(const struct lt_table *t, unsigned int col)
{
	return col < t->def->nr_cols ? &t->def->cols[col] : NULL;
}

const char *lt_table_column_name(const struct lt_table *t, unsigned int col)
{
	const struct lt_col *c = col_of(t, col);

	return c ? c->name : NULL;
}

enum lt_col_type lt_table_column_type(const struct lt_table *t,
				      unsigned int col)
{
	const struct lt_col *c = col_of(t, col);

	return c ? c->type : LT_COL_STRING;
}

const char *lt_table_column_unit(const struct lt_table *t, unsigned int col)
{
	const struct lt_col *c = col_of(t, col);

	return c ? c->unit : "";
}

const char *lt_table_column_doc(const struct lt_table *t, unsigned int col)
{
	const struct lt_col *c = col_of(t, col);

	return c ? c->doc : "";
}

int lt_table_column(const struct lt_table *t, const char *name)
{
	unsigned int i;

	for (i = 0; i < t->def->nr_cols; i++)
		if (!strcmp(t->def->cols[i].name, name))
			return i;
	return -1;
}

int lt_table_next(struct lt_table *t)
{
	int ret;

	if (t->held) {
		t->held = false;
		return 1;
	}
	if (t->done)
		return 0;
	if (t->def->stream && t->run->nr_stream > 1) {
		/* the pass's rows come in one order, of every table */
		t->done = t->failed = true;
		return lt_run_fail(t->run, LT_RUN_USAGE,
				   "%s: the run reads several stream tables in one pass: take their rows with lt_run_next()",
				   t->def->name);
	}
	/* fed by lt_run_next_event(): the rows of the events taken so far */
	if (t->def->stream && t->run->feed && !t->run->q_len) {
		t->done = t->run->fed_all;
		return 0;
	}
	for (;;) {
		memset(t->null, 0, t->def->nr_cols * sizeof(*t->null));
		ret = t->def->next(t);
		if (ret <= 0)
			break;
		if (lt_table_row_matches(t))
			return 1;
	}
	t->done = true;
	t->failed = ret < 0;
	return ret;
}

bool lt_table_null(const struct lt_table *t, unsigned int col)
{
	return col >= t->def->nr_cols || t->null[col];
}

int64_t lt_table_int(const struct lt_table *t, unsigned int col)
{
	return lt_table_null(t, col) ? 0 : t->cell[col].i;
}

uint64_t lt_table_uint(const struct lt_table *t, unsigned int col)
{
	return lt_table_null(t, col) ? 0 : t->cell[col].u;
}

double lt_table_double(const struct lt_table *t, unsigned int col)
{
	return lt_table_null(t, col) ? 0 : t->cell[col].d;
}

const char *lt_table_string(const struct lt_table *t, unsigned int col)
{
	if (lt_table_null(t, col) || !t->cell[col].s)
		return "";
	return t->cell[col].s;
}

size_t lt_table_cell_text(const struct lt_table *t, unsigned int col,
			  char *buf, size_t len)
{
	int n;

	if (lt_table_null(t, col)) {
		n = snprintf(buf, len, "%s", "");
		return n;
	}
	switch (t->def->cols[col].type) {
	case LT_COL_INT:
		n = snprintf(buf, len, "%" PRId64, t->cell[col].i);
		break;
	case LT_COL_BOOL:
		n = snprintf(buf, len, "%s", t->cell[col].i ? "true" : "false");
		break;
	case LT_COL_DOUBLE:
		n = snprintf(buf, len, "%.6g", t->cell[col].d);
		break;
	case LT_COL_STRING:
		n = snprintf(buf, len, "%s", lt_table_string(t, col));
		break;
	default:
		n = snprintf(buf, len, "%" PRIu64, t->cell[col].u);
		break;
	}
	return n < 0 ? 0 : n;
}

/*
 * Copy the current row into slot @r of lt_table_fill()'s arrays; false,
 * with nothing kept of it, when its strings do not fit in @strs.
 */
static bool fill_row(const struct lt_table *t, const unsigned int *cols,
		     unsigned int nr_cols, unsigned int max_rows,
		     unsigned int r, unsigned char *cells,
		     unsigned char *nulls, char *strs, size_t strs_len,
		     size_t *used)
{
	size_t at, len, start = *used;
	union { int64_t i; uint64_t u; double d; } v;
	unsigned int k, c;
	const char *s;

	for (k = 0; k < nr_cols; k++) {
		c = cols[k];
		at = (size_t)k * max_rows + r;
		nulls[at] = t->null[c];
		v.u = 0;
		switch (t->def->cols[c].type) {
		case LT_COL_STRING:
			s = t->null[c] || !t->cell[c].s ? "" : t->cell[c].s;
			len = strlen(s) + 1;
			if (len > strs_len - *used) {
				*used = start;
				return false;
			}
			memcpy(strs + *used, s, len);
			v.u = *used;
			*used += len;
			break;
		case LT_COL_BOOL:
			if (!t->null[c])
				v.i = t->cell[c].i != 0;
			break;
		default:
			/* int, uint, double: the same eight bytes */
			if (!t->null[c])
				v.u = t->cell[c].u;
			break;
		}
		memcpy(cells + at * sizeof(v), &v, sizeof(v));
	}
	return true;
}

/* Documented in lazytrace.h. */
int lt_table_fill(struct lt_table *t, const unsigned int *cols,
		  unsigned int nr_cols, unsigned int max_rows, void *cells,
		  unsigned char *nulls, char *strs, size_t strs_len,
		  size_t *strs_used)
{
	unsigned int k, n = 0;
	int ret;

	*strs_used = 0;
	for (k = 0; k < nr_cols; k++) {
		if (cols[k] >= t->def->nr_cols) {
			errno = EINVAL;
			return -1;
		}
	}
	while (n < max_rows) {
		if (!t->held) {
			ret = lt_table_next(t);
			if (ret <= 0) {
				/* an error after rows: it comes next call */
				if (n)
					break;
				return ret < 0 || t->failed ? -1 : 0;
			}
			t->held = true;
		}
		if (!fill_row(t, cols, nr_cols, max_rows, n, cells, nulls,
			      strs, strs_len, strs_used)) {
			if (n)
				break;
			errno = ENOSPC;
			return -1;
		}
		t->held = false;
		n++;
	}
	return n;
}

int lt_table_event_field(const struct lt_table *t, const char *field,
			 long long *val)
{
	const struct lt_run *run = t->run;

	/* run->ev is the event of the row lt_table_next() last made */
	if (!field || !val || t->done || !run->ev ||
	    strcmp(t->def->name, "events"))
		return -1;
	return lt_event_field(run->reader, run->ev, field, val);
}

static bool match_int(const struct lt_table *t, const int *cols,
		      const struct lt_int_set *set)
{
	int i;

	for (i = 0; i < LT_TABLE_MAX_KEYS && cols[i] >= 0; i++)
		if (!t->null[cols[i]] && lt_int_set_has(set, t->cell[cols[i]].i))
			return true;
	return false;
}

static bool match_comm(const struct lt_table *t, const struct lt_run *run)
{
	int i, k;

	for (i = 0; i < LT_TABLE_MAX_KEYS && t->comm_col[i] >= 0; i++) {
		const char *s = lt_table_string(t, t->comm_col[i]);

		for (k = 0; k < run->nr_comms; k++)
			if (!fnmatch(run->comms[k], s, 0))
				return true;
	}
	return false;
}

bool lt_run_task_matches(const struct lt_run *run, int pid, const char *comm)
{
	int k;

	if (run->pids.nr && !lt_int_set_has(&run->pids, pid))
		return false;
	if (!run->nr_comms)
		return true;
	for (k = 0; k < run->nr_comms; k++)
		if (!fnmatch(run->comms[k], comm, 0))
			return true;
	return false;
}

bool lt_table_row_matches(const struct lt_table *t)
{
	const struct lt_run *run = t->run;
	int k;

	/* groups are made of the preemptions the filters kept */
	if (!strcmp(t->def->name, "preempt_groups"))
		return true;

	/* a row of all tasks (latency's, pid null) is every task's */
	if (t->pid_col[0] >= 0 && t->null[t->pid_col[0]] &&
	    !strcmp(t->def->name, "latency"))
		return true;
	if (run->pids.nr && t->pid_col[0] >= 0 &&
	    !match_int(t, t->pid_col, &run->pids))
		return false;
	if (run->nr_comms && t->comm_col[0] >= 0 && !match_comm(t, run))
		return false;
	if (run->kinds && t->kind_col >= 0) {
		const char *s = lt_table_string(t, t->kind_col);

		for (k = 0; k < LT_TR_KIND_MAX; k++)
			if (!strcmp(s, lt_transition_name(k)))
				return run->kinds & (1U << k);
	}
	return true;
}

/* ---- lists and times, as every option takes them ---- */

static int set_add(struct lt_int_set *set, int v)
{
	int *nv;

	if (lt_int_set_has(set, v))
		return 0;
	nv = realloc(set->v, (set->nr + 1) * sizeof(*nv));
	if (!nv)
		return -1;
	set->v = nv;
	set->v[set->nr++] = v;
	return 0;
}

static int parse_int(const char **s, int *v)
{
	char *end;
	long l;

	if (!isdigit((unsigned char)**s))
		return -1;
	errno = 0;
	l = strtol(*s, &end, 10);
	if (errno || l > INT_MAX)
		return -1;
	*v = l;
	*s = end;
	return 0;
}

/* Ranges are capped so that "0-2000000000" cannot eat the machine. */
#define MAX_RANGE 65536

int lt_int_set_parse(struct lt_int_set *set, const char *list)
{
	const char *s = list;
	int a, b;

	while (*s) {
		if (parse_int(&s, &a))
			return -1;
		b = a;
		if (*s == '-') {
			s++;
			if (parse_int(&s, &b) || b < a || b - a > MAX_RANGE)
				return -1;
		}
		for (; a <= b; a++)
			if (set_add(set, a))
				return -1;
		if (*s == ',')
			s++;
		else if (*s)
			return -1;
	}
	return set->nr ? 0 : -1;
}

/* Documented in lazytrace.h. */
int lt_list_parse(const char *text, int **values, int *nr)
{
	struct lt_int_set set = { 0 };

	if (lt_int_set_parse(&set, text)) {
		lt_int_set_free(&set);
		return -1;
	}
	*values = set.v;
	*nr = set.nr;
	return 0;
}

bool lt_int_set_has(const struct lt_int_set *set, int v)
{
	int i;

	for (i = 0; i < set->nr; i++)
		if (set->v[i] == v)
			return true;
	return false;
}

void lt_int_set_free(struct lt_int_set *set)
{
	free(set->v);
	set->v = NULL;
	set->nr = 0;
}

size_t lt_time_format(uint64_t ns, bool full, char *buf, size_t len)
{
	uint64_t us;
	int n;

	if (full) {
		n = snprintf(buf, len, "%" PRIu64 ".%09" PRIu64,
			     ns / 1000000000, ns % 1000000000);
	} else {
		/* the kernel rounds to the nearest microsecond: ns2usecs() */
		us = ns / 1000 + (ns % 1000 >= 500);
		n = snprintf(buf, len, "%" PRIu64 ".%06" PRIu64,
			     us / 1000000, us % 1000000);
	}
	return n < 0 ? 0 : n;
}

/*
 * Decimal, exact to the nanosecond (no floating point): a time copied
 * from the output reads back as the very time printed.
 */
int lt_time_parse(const char *text, uint64_t *ns)
{
	static const struct { const char *sfx; uint64_t mul; } units[] = {
		{ "ns", 1 }, { "us", 1000 }, { "ms", 1000000 },
		{ "s", 1000000000 }, { "", 1000000000 },
	};
	const char *s = text;
	uint64_t whole = 0, frac = 0, scale = 1, mul = 0;
	int digits = 0;
	size_t i;

	if (!isdigit((unsigned char)*s) && *s != '.')
		return -1;
	for (; isdigit((unsigned char)*s); s++, digits++) {
		if (whole > (UINT64_MAX - 9) / 10)
			return -1;
		whole = whole * 10 + (*s - '0');
	}
	if (*s == '.') {
		for (s++; isdigit((unsigned char)*s); s++, digits++) {
			if (scale >= 1000000000)
				return -1;	/* below a nanosecond */
			frac = frac * 10 + (*s - '0');
			scale *= 10;
		}
	}
	if (!digits)
		return -1;
	for (i = 0; i < ARRAY_SIZE(units); i++)
		if (!strcmp(s, units[i].sfx))
			mul = units[i].mul;
	if (!mul || (mul % scale && frac))
		return -1;
	if (whole > UINT64_MAX / mul)
		return -1;
	*ns = whole * mul + (scale > 1 ? frac * (mul / scale) : 0);
	return 0;
}
