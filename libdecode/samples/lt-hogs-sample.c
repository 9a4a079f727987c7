// SPDX-License-Identifier: LGPL-2.1
/*
 * A small user of the run and table API, the interface every consumer
 * of liblazytrace uses: open a run on a trace, read two cells of its
 * summary through the typed getters, then print a table (the hogs by
 * default) as CSV, as `lazytrace table NAME --csv` prints it. It knows
 * no struct of the library, only option, table and column names.
 *
 *   build/samples/lt-hogs-sample trace.dat [TABLE]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lazytrace.h"

static void csv_text(const char *s)
{
	if (!strpbrk(s, ",\"\n\r")) {
		fputs(s, stdout);
		return;
	}
	putchar('"');
	for (; *s; s++) {
		if (*s == '"')
			putchar('"');
		putchar(*s);
	}
	putchar('"');
}

/* Any cell as the CSV writer prints it: strings quoted, the rest as is. */
static int csv_cell(const struct lt_table *t, unsigned int col)
{
	char buf[64], *p = buf;
	size_t n;

	if (lt_table_column_type(t, col) == LT_COL_STRING) {
		csv_text(lt_table_string(t, col));
		return 0;
	}
	n = lt_table_cell_text(t, col, buf, sizeof(buf));
	if (n >= sizeof(buf)) {
		p = malloc(n + 1);
		if (!p)
			return -1;
		lt_table_cell_text(t, col, p, n + 1);
	}
	fputs(p, stdout);
	if (p != buf)
		free(p);
	return 0;
}

static int print_summary(struct lt_run *run)
{
	struct lt_table *t = lt_run_table(run, "summary");
	int lazy, upgrades;

	if (!t)
		return -1;
	lazy = lt_table_column(t, "lazy");
	upgrades = lt_table_column(t, "tick_upgrades");
	if (lazy < 0 || upgrades < 0 || lt_table_next(t) != 1)
		return -1;
	printf("# %llu lazy requests, %llu tick-upgrades\n",
	       (unsigned long long)lt_table_uint(t, lazy),
	       (unsigned long long)lt_table_uint(t, upgrades));
	return 0;
}

/* Return: the rows printed, or -1 on an error. */
static long print_csv(struct lt_run *run, const char *name)
{
	struct lt_table *t = lt_run_table(run, name);
	unsigned int i, n;
	long rows = 0;
	int ret;

	if (!t)
		return -1;
	n = lt_table_nr_columns(t);
	for (i = 0; i < n; i++) {
		if (i)
			putchar(',');
		csv_text(lt_table_column_name(t, i));
	}
	putchar('\n');
	while ((ret = lt_table_next(t)) == 1) {
		for (i = 0; i < n; i++) {
			if (i)
				putchar(',');
			if (csv_cell(t, i))
				return -1;
		}
		putchar('\n');
		rows++;
	}
	return ret ? -1 : rows;
}

int main(int argc, char **argv)
{
	const char *table = argc > 2 ? argv[2] : "hogs";
	struct lt_run *run;
	long rows = -1;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: %s TRACE [TABLE]\n", argv[0]);
		return 2;
	}
	run = lt_run_new();
	if (!run) {
		fprintf(stderr, "out of memory\n");
		return 2;
	}
	if (!lt_run_set(run, "input", argv[1]) && !lt_run_open(run) &&
	    !print_summary(run))
		rows = print_csv(run, table);
	if (rows < 0) {
		fprintf(stderr, "%s\n", lt_run_error(run) ?
			lt_run_error(run) : "no such table or column");
		lt_run_free(run);
		return 2;
	}
	lt_run_free(run);
	return rows ? 0 : 1;
}
