// SPDX-License-Identifier: GPL-2.0
/*
 * Hog call sites for people and programs: an abbreviated stack, the
 * "sites" JSON array, and the folded-stack format of flame graphs
 * (flamegraph.pl, inferno, speedscope): "frame;frame;...;frame weight",
 * root first, one line per distinct stack.
 */
#include <stdlib.h>
#include <string.h>

#include "output-json.h"
#include "output-sites.h"

/* The frames from the site outward: the entry frames above it are cut. */
static unsigned int site_index(const struct lt_site *s)
{
	unsigned int i;

	for (i = 0; i < s->nr_frames; i++)
		if (s->stack[i] == s->function ||
		    !strcmp(s->stack[i], s->function))
			return i;
	return 0;
}

/* The system call entry every syscall stack ends with: said once, not shown. */
static bool syscall_entry(const char *f)
{
	return !strncmp(f, "entry_SYSCALL", 13) ||
	       !strcmp(f, "do_syscall_64") || !strcmp(f, "x64_sys_call") ||
	       !strncmp(f, "el0_svc", 7) || !strcmp(f, "do_el0_svc") ||
	       !strcmp(f, "invoke_syscall") || !strncmp(f, "el0t_64_sync", 12);
}

void site_abbrev(const struct lt_site *s, unsigned int head,
		 unsigned int tail, char *buf, size_t len)
{
	unsigned int i, first = site_index(s), last = s->nr_frames;
	size_t n = 0;

	buf[0] = '\0';
	if (!s->nr_frames) {
		snprintf(buf, len, "%s", s->function);
		return;
	}
	while (last > first + 1 && syscall_entry(s->stack[last - 1]))
		last--;
	for (i = first; i < last && n < len; i++) {
		if (i - first == head && last - first > head + tail + 1) {
			n += snprintf(buf + n, len - n, " <- ...");
			i = last - tail - 1;
			continue;
		}
		n += snprintf(buf + n, len - n, "%s%s", i > first ? " <- " : "",
			      s->stack[i]);
	}
	if (s->truncated && n < len)
		snprintf(buf + n, len - n, " <- [truncated]");
}

void json_sites(struct json *j, const struct lt_analysis *a,
		const struct lt_task_stats *t)
{
	const struct lt_site *s;
	size_t nr, i, n, len;
	unsigned int f;
	char *buf;

	s = lt_analysis_sites(a, t, &nr);
	for (i = 0; i < nr; i++) {
		for (f = 0, len = 1; f < s[i].nr_frames; f++)
			len += strlen(s[i].stack[f]) + 1;
		buf = malloc(len);
		if (!buf)
			die("out of memory");
		buf[0] = '\0';
		for (f = 0, n = 0; f < s[i].nr_frames; f++)
			n += sprintf(buf + n, "%s%s", f ? ";" : "",
				     s[i].stack[f]);
		json_begin_object(j, NULL);
		json_int(j, "pid", t->pid);
		json_str(j, "comm", t->comm);
		json_uint(j, "task_id", t->id);
		json_uint(j, "rank", i + 1);
		json_str(j, "function", s[i].function);
		json_uint(j, "episodes", s[i].episodes);
		json_uint(j, "pending_ns", s[i].pending_ns);
		json_str(j, "stack", buf);
		json_uint(j, "frames", s[i].nr_frames);
		json_bool(j, "stack_truncated", s[i].truncated);
		json_end_object(j);
		free(buf);
	}
}

/* A frame name safe in the folded format: no ';', no blanks. */
static void folded_frame(FILE *fp, const char *s)
{
	for (; *s; s++)
		fputc(*s == ';' || *s == ' ' || *s == '\t' || *s == '\n' ?
		      '_' : *s, fp);
}

void folded_task(FILE *fp, const struct lt_analysis *a,
		 const struct lt_task_stats *t, enum folded_weight w)
{
	const struct lt_site *s;
	size_t nr, i;
	unsigned int f, first;

	s = lt_analysis_stacks(a, t, &nr);
	for (i = 0; i < nr; i++) {
		uint64_t v = w == FOLDED_PENDING ? s[i].pending_ns :
			     s[i].episodes;

		if (!v)
			continue;
		/* The task is the root, so that one file holds every hog. */
		folded_frame(fp, t->comm);
		fprintf(fp, "-%d", t->pid);
		if (s[i].truncated)
			fputs(";[truncated]", fp);
		first = site_index(&s[i]);
		for (f = s[i].nr_frames; f-- > first;) {
			fputc(';', fp);
			folded_frame(fp, s[i].stack[f]);
		}
		if (!s[i].nr_frames) {
			fputc(';', fp);
			folded_frame(fp, s[i].function);
		}
		fprintf(fp, " %llu\n", (unsigned long long)v);
	}
}
