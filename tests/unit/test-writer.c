// SPDX-License-Identifier: GPL-2.0
/*
 * The table writers' prefix column and one table from many runs
 * (lt_writer_set_prefix(), lt_writer_table()), through the public API on
 * a bundled recording: what export --csv/--ndjson and the Python
 * module's many traces rely on. The expected rows are the writers' own
 * without a prefix: only what the prefix adds is spelled out here.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "lazytrace.h"
#include "test-data.h"

struct out {
	char *buf;
	size_t len;
	FILE *fp;
};

static void out_open(struct out *o)
{
	o->buf = NULL;
	o->fp = open_memstream(&o->buf, &o->len);
	assert_non_null(o->fp);
}

static char *out_close(struct out *o)
{
	assert_int_equal(fclose(o->fp), 0);
	return o->buf;
}

static struct lt_run *run_of(const char *file)
{
	struct lt_run *run = lt_run_new();

	assert_non_null(run);
	assert_int_equal(lt_run_set(run, "input", data(file)), 0);
	assert_int_equal(lt_run_open(run), 0);
	return run;
}

/* TABLE of a recording in FORMAT, no prefix: what the prefix is added to. */
static char *plain(const char *table, enum lt_format format)
{
	struct lt_run *run = run_of("lazy612-hogs.dat");
	struct lt_writer *w;
	struct out o;

	out_open(&o);
	w = lt_writer_new(o.fp, format, 0);
	assert_true(lt_writer_table(w, lt_run_table(run, table)) > 0);
	assert_int_equal(lt_writer_end(w), 0);
	lt_run_free(run);
	return out_close(&o);
}

/* The line N (from 0) of TEXT, in BUF. */
static const char *line(const char *text, int n, char *buf, size_t len)
{
	const char *end;

	for (; n > 0 && text; n--) {
		text = strchr(text, '\n');
		text = text ? text + 1 : NULL;
	}
	assert_non_null(text);
	end = strchr(text, '\n');
	assert_non_null(end);
	assert_true((size_t)(end - text) < len);
	memcpy(buf, text, end - text);
	buf[end - text] = '\0';
	return buf;
}

static int count_lines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/* Two runs' summary in one CSV: one header, each row led by its trace. */
static void test_csv_two_runs(void **state)
{
	char *want = plain("summary", LT_FORMAT_CSV), *got;
	char a[4096], b[4096];
	struct lt_run *r1 = run_of("lazy612-hogs.dat");
	struct lt_run *r2 = run_of("lazy612-hogs.dat");
	struct lt_writer *w;
	struct out o;

	(void)state;
	out_open(&o);
	w = lt_writer_new(o.fp, LT_FORMAT_CSV, 0);
	assert_int_equal(lt_writer_set_prefix(w, "trace", "first, \"one\""), 0);
	assert_int_equal(lt_writer_table(w, lt_run_table(r1, "summary")), 1);
	assert_int_equal(lt_writer_set_prefix(w, "trace", "second"), 0);
	assert_int_equal(lt_writer_table(w, lt_run_table(r2, "summary")), 1);
	/* the name is in the header: it cannot change now, nor go */
	assert_int_equal(lt_writer_set_prefix(w, "host", "x"), -1);
	assert_int_equal(lt_writer_set_prefix(w, NULL, NULL), -1);
	/* another table is another output */
	assert_int_equal(lt_writer_table(w, lt_run_table(r2, "tasks")), -1);
	assert_non_null(strstr(lt_run_error(r2), "one table per output"));
	assert_int_equal(lt_writer_end(w), 0);
	got = out_close(&o);

	assert_int_equal(count_lines(got), 3);
	snprintf(a, sizeof(a), "trace,%s", line(want, 0, b, sizeof(b)));
	assert_string_equal(line(got, 0, b, sizeof(b)), a);
	/* quoted as RFC 4180 wants: a comma and quotes in the value */
	snprintf(a, sizeof(a), "\"first, \"\"one\"\"\",%s",
		 line(want, 1, b, sizeof(b)));
	assert_string_equal(line(got, 1, b, sizeof(b)), a);
	snprintf(a, sizeof(a), "second,%s", line(want, 1, b, sizeof(b)));
	assert_string_equal(line(got, 2, b, sizeof(b)), a);
	free(want);
	free(got);
	lt_run_free(r1);
	lt_run_free(r2);
}

/* NDJSON and JSON: "trace" first in each object; null when no value. */
static void test_json_prefix(void **state)
{
	char *want = plain("summary", LT_FORMAT_NDJSON), *got;
	struct lt_run *r1 = run_of("lazy612-hogs.dat");
	struct lt_run *r2 = run_of("lazy612-hogs.dat");
	struct lt_writer *w;
	char a[4096], b[4096];
	struct out o;

	(void)state;
	out_open(&o);
	w = lt_writer_new(o.fp, LT_FORMAT_NDJSON, 0);
	assert_int_equal(lt_writer_set_prefix(w, "trace", "a\"b"), 0);
	assert_int_equal(lt_writer_table(w, lt_run_table(r1, "summary")), 1);
	/* NDJSON has no header: the prefix may change, or go */
	assert_int_equal(lt_writer_set_prefix(w, "host", NULL), 0);
	assert_int_equal(lt_writer_table(w, lt_run_table(r2, "summary")), 1);
	assert_int_equal(lt_writer_end(w), 0);
	got = out_close(&o);
	assert_int_equal(count_lines(got), 2);
	snprintf(a, sizeof(a), "{\"trace\":\"a\\\"b\",%s",
		 line(want, 0, b, sizeof(b)) + 1);
	assert_string_equal(line(got, 0, b, sizeof(b)), a);
	snprintf(a, sizeof(a), "{\"host\":null,%s",
		 line(want, 0, b, sizeof(b)) + 1);
	assert_string_equal(line(got, 1, b, sizeof(b)), a);
	free(want);
	free(got);
	lt_run_free(r1);
	lt_run_free(r2);

	r1 = run_of("lazy612-hogs.dat");
	out_open(&o);
	w = lt_writer_new(o.fp, LT_FORMAT_JSON, 0);
	assert_int_equal(lt_writer_set_prefix(w, "trace", "t"), 0);
	assert_int_equal(lt_writer_table(w, lt_run_table(r1, "summary")), 1);
	assert_int_equal(lt_writer_end(w), 0);
	got = out_close(&o);
	assert_non_null(strstr(got, "\"summary\":{\"trace\":\"t\",\"lazy\":"));
	free(got);
	lt_run_free(r1);
}

/*
 * LT_WRITE_BODY: the same document without its version and last newline,
 * for a caller to nest (compare --json's "a" and "b").
 */
static void test_json_body(void **state)
{
	struct lt_run *r1 = run_of("lazy612-hogs.dat");
	struct lt_run *r2 = run_of("lazy612-hogs.dat");
	const char *const tables[] = { "meta", "summary", "lost" };
	struct lt_writer *w;
	struct out o, b;
	char *doc, *body, want[65536];
	size_t i;

	(void)state;
	out_open(&o);
	out_open(&b);
	w = lt_writer_new(o.fp, LT_FORMAT_JSON, 0);
	for (i = 0; i < 3; i++)
		assert_true(lt_writer_table(w, lt_run_table(r1, tables[i])) >= 0);
	assert_int_equal(lt_writer_end(w), 0);
	w = lt_writer_new(b.fp, LT_FORMAT_JSON, LT_WRITE_BODY);
	for (i = 0; i < 3; i++)
		assert_true(lt_writer_table(w, lt_run_table(r2, tables[i])) >= 0);
	assert_int_equal(lt_writer_end(w), 0);
	doc = out_close(&o);
	body = out_close(&b);
	snprintf(want, sizeof(want), "{\"version\":3,%s\n", body + 1);
	assert_int_equal(body[0], '{');
	assert_int_equal(body[strlen(body) - 1], '}');
	assert_string_equal(doc, want);
	free(doc);
	free(body);
	lt_run_free(r1);
	lt_run_free(r2);
}

/* A prefix named as one of the table's columns is refused, not doubled. */
static void test_prefix_clash(void **state)
{
	struct lt_run *run = run_of("lazy612-hogs.dat");
	struct lt_writer *w;
	struct out o;
	char *got;

	(void)state;
	out_open(&o);
	w = lt_writer_new(o.fp, LT_FORMAT_CSV, 0);
	assert_int_equal(lt_writer_set_prefix(w, "pid", "1"), 0);
	assert_int_equal(lt_writer_table(w, lt_run_table(run, "tasks")), -1);
	assert_non_null(strstr(lt_run_error(run), "'pid'"));
	assert_int_equal(lt_writer_end(w), 0);
	got = out_close(&o);
	assert_string_equal(got, "");
	free(got);
	lt_run_free(run);
}

/* A run not opened: the header alone, then another run's rows under it. */
static void test_schema_header(void **state)
{
	char *want = plain("tasks", LT_FORMAT_CSV), *got;
	struct lt_run *schema = lt_run_new();
	struct lt_run *run = run_of("lazy612-hogs.dat");
	struct lt_writer *w;
	char a[4096], b[4096];
	struct out o;
	int i, n = count_lines(want);

	(void)state;
	assert_non_null(schema);
	out_open(&o);
	w = lt_writer_new(o.fp, LT_FORMAT_CSV, 0);
	assert_int_equal(lt_writer_set_prefix(w, "trace", NULL), 0);
	assert_int_equal(lt_writer_table(w, lt_run_table(schema, "tasks")), 0);
	assert_int_equal(lt_writer_set_prefix(w, "trace", "x"), 0);
	assert_int_equal(lt_writer_table(w, lt_run_table(run, "tasks")),
			 n - 1);
	assert_int_equal(lt_writer_end(w), 0);
	got = out_close(&o);
	assert_int_equal(count_lines(got), n);
	snprintf(a, sizeof(a), "trace,%s", line(want, 0, b, sizeof(b)));
	assert_string_equal(line(got, 0, b, sizeof(b)), a);
	for (i = 1; i < n; i++) {
		snprintf(a, sizeof(a), "x,%s", line(want, i, b, sizeof(b)));
		assert_string_equal(line(got, i, b, sizeof(b)), a);
	}
	free(want);
	free(got);
	lt_run_free(schema);
	lt_run_free(run);
}

/* Text: a TRACE column first, and a first line in a one-row record. */
static void test_text_prefix(void **state)
{
	struct lt_run *run = run_of("lazy612-hogs.dat");
	struct lt_writer *w;
	char b[4096];
	struct out o;
	char *got;

	(void)state;
	out_open(&o);
	w = lt_writer_new(o.fp, LT_FORMAT_TEXT, 0);
	assert_int_equal(lt_writer_set_prefix(w, "trace", "hogs.dat"), 0);
	assert_true(lt_writer_table(w, lt_run_table(run, "tasks")) > 0);
	assert_int_equal(lt_writer_table(w, lt_run_table(run, "summary")), 1);
	assert_int_equal(lt_writer_end(w), 0);
	got = out_close(&o);
	/* the prefix as wide as other text (12), then the table's own */
	assert_true(!strncmp(line(got, 0, b, sizeof(b)),
			     "TRACE            PID COMM ", 26));
	assert_true(!strncmp(line(got, 1, b, sizeof(b)), "hogs.dat     ", 13));
	assert_non_null(strstr(got, "\n\ntrace "));
	assert_non_null(strstr(got, " hogs.dat\nlazy "));
	free(got);
	lt_run_free(run);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_csv_two_runs),
		cmocka_unit_test(test_json_prefix),
		cmocka_unit_test(test_json_body),
		cmocka_unit_test(test_prefix_clash),
		cmocka_unit_test(test_schema_header),
		cmocka_unit_test(test_text_prefix),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
