// SPDX-License-Identifier: GPL-2.0
/*
 * The latency histograms, printed as rtla prints its own: an Index column
 * (the bucket's start, in microseconds) and one column per task and kind,
 * the empty buckets left out, then over, count, min, avg and max.
 */
#include <inttypes.h>
#include <string.h>

#include "output-hist.h"

static const char *const kind_name[LT_LATHIST_KIND_MAX] = { "lazy", "eager" };
static const char kind_letter[LT_LATHIST_KIND_MAX] = { 'L', 'E' };

#define COL_W 10

static void header(char *buf, size_t len, const struct lt_lathist_row *r,
		   int k)
{
	if (r->pid >= 0)
		snprintf(buf, len, "%c-%d", kind_letter[k], r->pid);
	else
		snprintf(buf, len, "%c-%.*s", kind_letter[k], COL_W - 3,
			 r->comm);
}

/* A time in whole microseconds, or "-" where nothing was counted. */
static void us_cell(FILE *fp, uint64_t count, uint64_t ns)
{
	if (count)
		fprintf(fp, " %*" PRIu64, COL_W - 1, ns / 1000);
	else
		fprintf(fp, " %*s", COL_W - 1, "-");
}

/* "more:": per column, the buckets from @from on. */
static void print_more(FILE *fp, const struct lt_lathist_row *r, size_t n,
		       unsigned int from, unsigned int entries)
{
	unsigned int b;
	uint64_t sum;
	size_t i;
	int k;

	fprintf(fp, "%-8s", "more:");
	for (i = 0; i < n; i++)
		for (k = 0; k < LT_LATHIST_KIND_MAX; k++) {
			for (sum = 0, b = from; b < entries; b++)
				sum += r[i].buckets[k][b];
			fprintf(fp, " %*" PRIu64, COL_W - 1, sum);
		}
	fputc('\n', fp);
}

void hist_print(FILE *fp, struct lt_lathist *h, const struct hist_info *in)
{
	uint64_t bucket = lt_lathist_bucket_ns(h), secs = in->duration_ns / 1000000000ULL;
	unsigned int entries = lt_lathist_entries(h), b;
	const struct lt_lathist_row *r;
	size_t nr, i, n;
	int shown;
	char name[32];
	bool any;
	int k;

	r = lt_lathist_rows(h, &nr);
	if (!r)
		return;
	n = nr < (size_t)in->columns ? nr : (size_t)in->columns;
	fprintf(fp, "# lazytrace hist: request to switch out, per %s: L lazy, E eager (direct or upgraded)\n",
		in->by_comm ? "comm" : "task");
	if (in->reason)
		fprintf(fp, "# Source: user space, from the live stream (%s)\n",
			in->reason);
	else
		fprintf(fp, "# Source: the kernel's hist triggers\n");
	fprintf(fp, "# Time unit is microseconds (us), buckets of %.3f us\n",
		bucket / 1e3);
	fprintf(fp, "# Duration: %3" PRIu64 " %02" PRIu64 ":%02" PRIu64 ":%02" PRIu64 "\n",
		secs / 86400, secs / 3600 % 24, secs / 60 % 60, secs % 60);
	for (i = 0; i < n && r[i].pid >= 0 && !in->compact; i++)
		fprintf(fp, "# L-%d E-%d: %s\n", r[i].pid, r[i].pid, r[i].comm);
	if (nr > n)
		fprintf(fp, "# %zu more %s not shown\n", nr - n,
			in->by_comm ? "comms" : "tasks");
	fprintf(fp, "%-8s", "Index");
	for (i = 0; i < n; i++)
		for (k = 0; k < LT_LATHIST_KIND_MAX; k++) {
			header(name, sizeof(name), &r[i], k);
			fprintf(fp, " %*s", COL_W - 1, name);
		}
	fputc('\n', fp);
	for (b = 0, shown = 0; b < entries; b++) {
		any = false;
		for (i = 0; i < n && !any; i++)
			for (k = 0; k < LT_LATHIST_KIND_MAX; k++)
				any |= r[i].buckets[k][b] != 0;
		if (!any)
			continue;
		/* on a screen: the longer waits summed in one row */
		if (in->max_rows && ++shown >= in->max_rows) {
			print_more(fp, r, n, b, entries);
			break;
		}
		fprintf(fp, "%-8" PRIu64, b * bucket / 1000);
		for (i = 0; i < n; i++)
			for (k = 0; k < LT_LATHIST_KIND_MAX; k++)
				fprintf(fp, " %*" PRIu64, COL_W - 1,
					r[i].buckets[k][b]);
		fputc('\n', fp);
	}
	fprintf(fp, "%-8s", "over:");
	for (i = 0; i < n; i++)
		for (k = 0; k < LT_LATHIST_KIND_MAX; k++)
			fprintf(fp, " %*" PRIu64, COL_W - 1, r[i].over[k]);
	fprintf(fp, "\n%-8s", "count:");
	for (i = 0; i < n; i++)
		for (k = 0; k < LT_LATHIST_KIND_MAX; k++)
			fprintf(fp, " %*" PRIu64, COL_W - 1, r[i].count[k]);
	fprintf(fp, "\n%-8s", "min:");
	for (i = 0; i < n; i++)
		for (k = 0; k < LT_LATHIST_KIND_MAX; k++)
			us_cell(fp, r[i].count[k], r[i].min_ns[k]);
	fprintf(fp, "\n%-8s", "avg:");
	for (i = 0; i < n; i++)
		for (k = 0; k < LT_LATHIST_KIND_MAX; k++)
			us_cell(fp, r[i].count[k], r[i].count[k] ?
				r[i].sum_ns[k] / r[i].count[k] : 0);
	fprintf(fp, "\n%-8s", "max:");
	for (i = 0; i < n; i++)
		for (k = 0; k < LT_LATHIST_KIND_MAX; k++)
			us_cell(fp, r[i].count[k], r[i].max_ns[k]);
	fputc('\n', fp);
	fflush(fp);
}

static void json_who(struct json *j, const struct lt_lathist_row *r, int k)
{
	if (r->pid >= 0)
		json_int(j, "pid", r->pid);
	else
		json_null(j, "pid");
	json_str(j, "comm", r->comm);
	json_str(j, "kind", kind_name[k]);
}

void hist_print_json(FILE *fp, struct lt_lathist *h,
		     const struct hist_info *in)
{
	uint64_t bucket = lt_lathist_bucket_ns(h), first, last;
	unsigned int entries = lt_lathist_entries(h), b;
	const struct lt_lathist_row *r;
	struct json j;
	size_t nr, i;
	int k;

	r = lt_lathist_rows(h, &nr);
	if (!r)
		return;
	json_init(&j, fp, false);
	json_begin_object(&j, NULL);
	json_int(&j, "version", LT_JSON_VERSION_3);
	json_begin_object(&j, "hist");
	json_str(&j, "source", in->source);
	if (in->reason)
		json_str(&j, "fallback_reason", in->reason);
	else
		json_null(&j, "fallback_reason");
	json_uint(&j, "bucket_ns", bucket);
	json_uint(&j, "entries", entries);
	json_uint(&j, "duration_ns", in->duration_ns);
	if (lt_lathist_window(h, &first, &last)) {
		json_uint(&j, "first_ns", first);
		json_uint(&j, "last_ns", last);
	} else {
		json_null(&j, "first_ns");
		json_null(&j, "last_ns");
	}
	json_str(&j, "by", in->by_comm ? "comm" : "task");
	json_end_object(&j);
	json_begin_array(&j, "hist_tasks");
	for (i = 0; i < nr; i++)
		for (k = 0; k < LT_LATHIST_KIND_MAX; k++) {
			if (!r[i].count[k])
				continue;
			json_begin_object(&j, NULL);
			json_who(&j, &r[i], k);
			json_uint(&j, "count", r[i].count[k]);
			json_uint(&j, "over", r[i].over[k]);
			json_uint(&j, "min_ns", r[i].min_ns[k]);
			json_uint(&j, "avg_ns", r[i].sum_ns[k] / r[i].count[k]);
			json_uint(&j, "max_ns", r[i].max_ns[k]);
			json_end_object(&j);
		}
	json_end_array(&j);
	json_begin_array(&j, "hist_buckets");
	for (i = 0; i < nr; i++)
		for (k = 0; k < LT_LATHIST_KIND_MAX; k++)
			for (b = 0; b < entries; b++) {
				if (!r[i].buckets[k][b])
					continue;
				json_begin_object(&j, NULL);
				json_who(&j, &r[i], k);
				json_uint(&j, "from_ns", b * bucket);
				json_uint(&j, "count", r[i].buckets[k][b]);
				json_end_object(&j);
			}
	json_end_array(&j);
	json_end_object(&j);
	json_finish(&j);
	fflush(fp);
}
