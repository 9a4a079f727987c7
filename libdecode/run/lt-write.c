// SPDX-License-Identifier: LGPL-2.1
/*
 * The writers: any table as text, JSON, CSV or NDJSON. A writer knows
 * nothing of a table but its columns' names and types, and of the input
 * only what a caller puts in its prefix column (many inputs, one output).
 */
#include <inttypes.h>

#include "lt-table.h"

struct lt_writer {
	FILE *fp;
	enum lt_format format;
	unsigned int flags;
	int tables;
	bool failed;
	/* CSV and NDJSON: the one table this output holds */
	char *table;
	/* lt_writer_set_prefix(): a constant first column */
	char *prefix_name;
	char *prefix_value;	/* NULL: null */
};

struct lt_writer *lt_writer_new(FILE *fp, enum lt_format format,
				unsigned int flags)
{
	struct lt_writer *w = calloc(1, sizeof(*w));

	if (!w)
		return NULL;
	w->fp = fp;
	w->format = format;
	w->flags = flags;
	if (format == LT_FORMAT_JSON && (flags & LT_WRITE_BODY))
		fputc('{', fp);
	else if (format == LT_FORMAT_JSON)
		fprintf(fp, "{\"version\":%d", LT_JSON_VERSION_3);
	return w;
}

/* Documented in lazytrace.h. */
void lt_json_string(FILE *fp, const char *s)
{
	fputc('"', fp);
	for (; *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\')
			fprintf(fp, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", fp);
		else if (c == '\t')
			fputs("\\t", fp);
		else if (c < 0x20 || c == 0x7f)
			fprintf(fp, "\\u%04x", c);
		else
			fputc(c, fp);
	}
	fputc('"', fp);
}

static void json_cell(FILE *fp, const struct lt_table *t, unsigned int col)
{
	double d;

	if (lt_table_null(t, col)) {
		fputs("null", fp);
		return;
	}
	switch (lt_table_column_type(t, col)) {
	case LT_COL_INT:
		fprintf(fp, "%" PRId64, lt_table_int(t, col));
		break;
	case LT_COL_BOOL:
		fputs(lt_table_int(t, col) ? "true" : "false", fp);
		break;
	case LT_COL_DOUBLE:
		d = lt_table_double(t, col);
		/* JSON has no NaN or infinity */
		if (d != d || d > 1e300 || d < -1e300)
			fputs("null", fp);
		else
			fprintf(fp, "%.6g", d);
		break;
	case LT_COL_STRING:
		lt_json_string(fp, lt_table_string(t, col));
		break;
	default:
		fprintf(fp, "%" PRIu64, lt_table_uint(t, col));
		break;
	}
}

static void json_row(const struct lt_writer *w, const struct lt_table *t)
{
	unsigned int i, n = lt_table_nr_columns(t);
	FILE *fp = w->fp;

	fputc('{', fp);
	if (w->prefix_name) {
		lt_json_string(fp, w->prefix_name);
		fputc(':', fp);
		if (w->prefix_value)
			lt_json_string(fp, w->prefix_value);
		else
			fputs("null", fp);
		if (n)
			fputc(',', fp);
	}
	for (i = 0; i < n; i++) {
		if (i)
			fputc(',', fp);
		lt_json_string(fp, lt_table_column_name(t, i));
		fputc(':', fp);
		json_cell(fp, t, i);
	}
	fputc('}', fp);
}

static void csv_text(FILE *fp, const char *s)
{
	if (!strpbrk(s, ",\"\n\r")) {
		fputs(s, fp);
		return;
	}
	fputc('"', fp);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', fp);
		fputc(*s, fp);
	}
	fputc('"', fp);
}

static void csv_row(const struct lt_writer *w, const struct lt_table *t,
		    bool header)
{
	unsigned int i, n = lt_table_nr_columns(t);
	FILE *fp = w->fp;
	char buf[64];

	if (w->prefix_name) {
		if (header)
			csv_text(fp, w->prefix_name);
		else if (w->prefix_value)
			csv_text(fp, w->prefix_value);
		if (n)
			fputc(',', fp);
	}
	for (i = 0; i < n; i++) {
		if (i)
			fputc(',', fp);
		if (header)
			csv_text(fp, lt_table_column_name(t, i));
		else if (lt_table_column_type(t, i) == LT_COL_STRING)
			csv_text(fp, lt_table_string(t, i));
		else if (lt_table_cell_text(t, i, buf, sizeof(buf)) < sizeof(buf))
			fputs(buf, fp);
	}
	fputc('\n', fp);
}

/* Text: a width per type, wide enough for the usual values. */
static int text_width(const struct lt_table *t, unsigned int col)
{
	const char *name = lt_table_column_name(t, col);
	int w;

	switch (lt_table_column_type(t, col)) {
	case LT_COL_TIMESTAMP:
		w = 17;
		break;
	case LT_COL_DURATION:
		w = 11;
		break;
	case LT_COL_STRING:
		w = strstr(name, "comm") ? 16 : strstr(name, "letter") ? 1 : 12;
		break;
	case LT_COL_BOOL:
		w = 5;
		break;
	default:
		w = 7;
		break;
	}
	return (int)strlen(name) > w ? (int)strlen(name) : w;
}

static void duration_text(char *buf, size_t len, uint64_t ns)
{
	if (ns < 1000)
		snprintf(buf, len, "%" PRIu64 "ns", ns);
	else if (ns < 1000000)
		snprintf(buf, len, "%.3fus", ns / 1e3);
	else if (ns < 1000000000)
		snprintf(buf, len, "%.3fms", ns / 1e6);
	else
		snprintf(buf, len, "%.3fs", ns / 1e9);
}

static void text_cell(const struct lt_writer *w, const struct lt_table *t,
		      unsigned int col, char *buf, size_t len)
{
	bool full = w->flags & LT_WRITE_FULL_NS;

	if (lt_table_null(t, col)) {
		snprintf(buf, len, "-");
		return;
	}
	switch (lt_table_column_type(t, col)) {
	case LT_COL_TIMESTAMP:
		lt_time_format(lt_table_uint(t, col), full, buf, len);
		break;
	case LT_COL_DURATION:
		if (full)
			snprintf(buf, len, "%" PRIu64, lt_table_uint(t, col));
		else
			duration_text(buf, len, lt_table_uint(t, col));
		break;
	case LT_COL_DOUBLE:
		snprintf(buf, len, "%.4f", lt_table_double(t, col));
		break;
	case LT_COL_STRING:
		snprintf(buf, len, "%s", lt_table_string(t, col));
		break;
	default:
		lt_table_cell_text(t, col, buf, len);
		break;
	}
}

static void upper(char *dst, size_t len, const char *src)
{
	size_t k;

	snprintf(dst, len, "%s", src);
	for (k = 0; dst[k]; k++)
		if (dst[k] >= 'a' && dst[k] <= 'z')
			dst[k] = dst[k] - 'a' + 'A';
}

/* The prefix column, as wide as its name or 12, like other text. */
static int prefix_width(const struct lt_writer *w)
{
	int n = strlen(w->prefix_name);

	return n > 12 ? n : 12;
}

static void text_row(struct lt_writer *w, const struct lt_table *t,
		     bool header)
{
	unsigned int i, n = lt_table_nr_columns(t);
	char buf[1024];

	if (w->prefix_name) {
		if (header)
			upper(buf, sizeof(buf), w->prefix_name);
		else
			snprintf(buf, sizeof(buf), "%s",
				 w->prefix_value ? w->prefix_value : "-");
		fprintf(w->fp, n ? "%-*s " : "%-*s\n", prefix_width(w), buf);
	}
	for (i = 0; i < n; i++) {
		if (header)
			upper(buf, sizeof(buf), lt_table_column_name(t, i));
		else
			text_cell(w, t, i, buf, sizeof(buf));
		/* the last column is not padded: it may be long text */
		if (i + 1 == n)
			fprintf(w->fp, "%s\n", buf);
		else if (lt_table_column_type(t, i) == LT_COL_STRING)
			fprintf(w->fp, "%-*s ", text_width(t, i), buf);
		else
			fprintf(w->fp, "%*s ", text_width(t, i), buf);
	}
}

static void text_record(struct lt_writer *w, const struct lt_table *t)
{
	unsigned int i, n = lt_table_nr_columns(t);
	int width = 0;
	char buf[1024];

	if (w->prefix_name)
		width = strlen(w->prefix_name);
	for (i = 0; i < n; i++)
		if ((int)strlen(lt_table_column_name(t, i)) > width)
			width = strlen(lt_table_column_name(t, i));
	if (w->prefix_name)
		fprintf(w->fp, "%-*s  %s\n", width, w->prefix_name,
			w->prefix_value ? w->prefix_value : "-");
	for (i = 0; i < n; i++) {
		text_cell(w, t, i, buf, sizeof(buf));
		fprintf(w->fp, "%-*s  %s\n", width, lt_table_column_name(t, i),
			buf);
	}
}

static char *dup_or_null(const char *s, bool *nomem)
{
	char *d;

	if (!s)
		return NULL;
	d = strdup(s);
	if (!d)
		*nomem = true;
	return d;
}

int lt_writer_set_prefix(struct lt_writer *w, const char *name,
			 const char *value)
{
	bool nomem = false;
	char *n, *v;

	/* CSV's header is written once: its columns cannot change */
	if (w->table && w->format == LT_FORMAT_CSV &&
	    (!name != !w->prefix_name ||
	     (name && strcmp(name, w->prefix_name))))
		return -1;
	n = dup_or_null(name, &nomem);
	v = name ? dup_or_null(value, &nomem) : NULL;
	if (nomem) {
		free(n);
		free(v);
		return -1;
	}
	free(w->prefix_name);
	free(w->prefix_value);
	w->prefix_name = n;
	w->prefix_value = v;
	return 0;
}

/* CSV and NDJSON: one table per output, written by one run or several. */
static int one_table(struct lt_writer *w, struct lt_table *t)
{
	if (w->format != LT_FORMAT_CSV && w->format != LT_FORMAT_NDJSON)
		return 0;
	if (!w->table) {
		w->table = strdup(lt_table_name(t));
		if (!w->table)
			return lt_run_fail(t->run, LT_RUN_NOMEM,
					   "out of memory");
		return 0;
	}
	if (strcmp(w->table, lt_table_name(t)))
		return lt_run_fail(t->run, LT_RUN_USAGE,
				   "%s: CSV and NDJSON hold one table per output (this one holds %s)",
				   lt_table_name(t), w->table);
	return 1;
}

long lt_writer_table(struct lt_writer *w, struct lt_table *t)
{
	bool one = lt_table_one_row(t);
	long rows = 0;
	int ret, again;

	again = one_table(w, t);
	if (again < 0)
		return -1;
	if (w->prefix_name && lt_table_column(t, w->prefix_name) >= 0) {
		lt_run_fail(t->run, LT_RUN_USAGE,
			    "%s: the prefix column '%s' is one of its own",
			    lt_table_name(t), w->prefix_name);
		return -1;
	}
	if (w->format == LT_FORMAT_JSON) {
		if (w->tables || !(w->flags & LT_WRITE_BODY))
			fputc(',', w->fp);
		lt_json_string(w->fp, lt_table_name(t));
		fputs(one ? ":" : ":[", w->fp);
	} else if (w->format == LT_FORMAT_CSV && !again) {
		csv_row(w, t, true);
	} else if (w->format == LT_FORMAT_TEXT) {
		if (w->tables)
			fputc('\n', w->fp);
		if (!one)
			text_row(w, t, true);
	}
	w->tables++;
	while ((ret = lt_table_next(t)) > 0) {
		switch (w->format) {
		case LT_FORMAT_JSON:
			if (rows)
				fputc(',', w->fp);
			json_row(w, t);
			break;
		case LT_FORMAT_NDJSON:
			json_row(w, t);
			fputc('\n', w->fp);
			break;
		case LT_FORMAT_CSV:
			csv_row(w, t, false);
			break;
		default:
			if (one)
				text_record(w, t);
			else
				text_row(w, t, false);
			break;
		}
		rows++;
	}
	if (w->format == LT_FORMAT_JSON) {
		if (one && !rows)
			fputs("null", w->fp);
		else if (!one)
			fputc(']', w->fp);
	}
	if (ferror(w->fp))
		w->failed = true;
	return ret < 0 ? -1 : rows;
}

int lt_writer_end(struct lt_writer *w)
{
	int ret;

	if (!w)
		return 0;
	if (w->format == LT_FORMAT_JSON)
		fputs(w->flags & LT_WRITE_BODY ? "}" : "}\n", w->fp);
	ret = fflush(w->fp) || ferror(w->fp) || w->failed ? -1 : 0;
	free(w->table);
	free(w->prefix_name);
	free(w->prefix_value);
	free(w);
	return ret;
}
