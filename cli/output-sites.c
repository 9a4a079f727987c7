// SPDX-License-Identifier: GPL-2.0
/*
 * Hog call sites for people and programs: an abbreviated stack and the
 * folded-stack format of flame graphs
 * (flamegraph.pl, inferno, speedscope): "frame;frame;...;frame weight",
 * root first, one line per distinct stack.
 */
#include <stdlib.h>
#include <string.h>

#include "output-json.h"
#include "output-sites.h"

/* A sites or stacks row's stack, split at the ';' that joins its frames. */
struct frames {
	const char *const *f;
	unsigned int nr;
	const char *function;
	bool truncated;
};

/* The frames from the site outward: the entry frames above it are cut. */
static unsigned int site_index(const struct frames *s)
{
	unsigned int i;

	for (i = 0; i < s->nr; i++)
		if (!strcmp(s->f[i], s->function))
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

static void abbrev(const struct frames *s, unsigned int head,
		   unsigned int tail, char *buf, size_t len)
{
	unsigned int i, first = site_index(s), last = s->nr;
	size_t n = 0;

	buf[0] = '\0';
	if (!s->nr) {
		snprintf(buf, len, "%s", s->function);
		return;
	}
	while (last > first + 1 && syscall_entry(s->f[last - 1]))
		last--;
	for (i = first; i < last && n < len; i++) {
		if (i - first == head && last - first > head + tail + 1) {
			n += snprintf(buf + n, len - n, " <- ...");
			i = last - tail - 1;
			continue;
		}
		n += snprintf(buf + n, len - n, "%s%s", i > first ? " <- " : "",
			      s->f[i]);
	}
	if (s->truncated && n < len)
		snprintf(buf + n, len - n, " <- [truncated]");
}

/*
 * The current row's stack split into @fr, in @copy and @f (to free()):
 * its frames column says whether there is one, as "" is also one frame.
 */
static void row_frames(struct lt_table *t, struct frames *fr, char **copy,
		       const char ***f)
{
	const char *stack = cell_str(t, "stack"), *q;
	unsigned int n = 1;
	char *p;

	fr->function = cell_str(t, "function");
	fr->truncated = cell_int(t, "stack_truncated");
	fr->nr = 0;
	for (q = stack; *q; q++)
		n += *q == ';';
	*copy = strdup(stack);
	*f = calloc(n, sizeof(**f));
	if (!*copy || !*f)
		die("out of memory");
	fr->f = *f;
	if (!cell_uint(t, "frames"))
		return;
	for (p = *copy; p; ) {
		(*f)[fr->nr++] = p;
		p = strchr(p, ';');
		if (p)
			*p++ = '\0';
	}
}

void site_abbrev_row(struct lt_table *t, unsigned int head, unsigned int tail,
		     char *buf, size_t len)
{
	struct frames fr;
	const char **f;
	char *copy;

	row_frames(t, &fr, &copy, &f);
	abbrev(&fr, head, tail, buf, len);
	free(copy);
	free(f);
}

/* A frame name safe in the folded format: no ';', no blanks. */
static void folded_frame(FILE *fp, const char *s)
{
	for (; *s; s++)
		fputc(*s == ';' || *s == ' ' || *s == '\t' || *s == '\n' ?
		      '_' : *s, fp);
}

void folded_row(FILE *fp, struct lt_table *t, enum folded_weight w)
{
	uint64_t v = cell_uint(t, w == FOLDED_PENDING ? "pending_ns" :
				  "episodes");
	unsigned int f, first;
	struct frames fr;
	const char **fv;
	char *copy;

	if (!v)
		return;
	row_frames(t, &fr, &copy, &fv);
	/* The task is the root, so that one file holds every hog. */
	folded_frame(fp, cell_str(t, "comm"));
	fprintf(fp, "-%d", (int)cell_int(t, "pid"));
	if (fr.truncated)
		fputs(";[truncated]", fp);
	first = site_index(&fr);
	for (f = fr.nr; f-- > first;) {
		fputc(';', fp);
		folded_frame(fp, fr.f[f]);
	}
	if (!fr.nr) {
		fputc(';', fp);
		folded_frame(fp, fr.function);
	}
	fprintf(fp, " %llu\n", (unsigned long long)v);
	free(copy);
	free(fv);
}
