// SPDX-License-Identifier: LGPL-2.1
/*
 * Write what an instance recorded as a trace.dat, file format version 6
 * (Documentation/trace-cmd/trace-cmd.dat.v6.5 in trace-cmd), the format
 * every trace-cmd since 2.x reads. The recorded pages are the instance's,
 * stored as the file's top-level buffer.
 *
 * Everything is read from tracefs and /proc; nothing is written there
 * (libtracecmd's own writer flips kptr_restrict, trace-cmd record also
 * ftrace_enabled: both global).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <tracefs.h>

#include "lt-tracefs.h"

/* trace-cmd's option ids (TRACECMD_OPTION_*) */
enum {
	OPT_DONE = 0,
	OPT_CPUSTAT = 2,
	OPT_UNAME = 5,
	OPT_CPUCOUNT = 8,
};


struct buf {
	char *p;
	size_t len;
	size_t size;
	bool oom;
};

static void put(struct buf *b, const void *data, size_t n)
{
	if (b->oom)
		return;
	if (b->len + n > b->size) {
		size_t size = (b->len + n) * 2 + 4096;
		char *p = realloc(b->p, size);

		if (!p) {
			b->oom = true;
			return;
		}
		b->p = p;
		b->size = size;
	}
	memcpy(b->p + b->len, data, n);
	b->len += n;
}

static void put_u16(struct buf *b, uint16_t v)
{
	put(b, &v, 2);
}

static void put_u32(struct buf *b, uint32_t v)
{
	put(b, &v, 4);
}

static void put_u64(struct buf *b, uint64_t v)
{
	put(b, &v, 8);
}

static void put_str0(struct buf *b, const char *s)
{
	put(b, s, strlen(s) + 1);
}

/* Read a whole file; tracefs files report no size, so read to the end. */
static char *slurp(const char *path, size_t *len)
{
	struct buf b = { 0 };
	char chunk[65536];
	ssize_t n;
	int fd;

	*len = 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	while ((n = read(fd, chunk, sizeof(chunk))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			break;
		put(&b, chunk, n);
	}
	close(fd);
	if (n < 0 || b.oom) {
		free(b.p);
		return NULL;
	}
	put(&b, "", 1);	/* a NUL after the content, not counted */
	if (b.oom) {
		free(b.p);
		return NULL;
	}
	*len = b.len - 1;
	return b.p;
}

/* u64 size then the file; a missing file is written as size 0. */
static void put_file(struct buf *b, const char *path, int size_bytes)
{
	size_t len;
	char *data = slurp(path, &len);

	if (size_bytes == 4)
		put_u32(b, len);
	else
		put_u64(b, len);
	if (data)
		put(b, data, len);
	free(data);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names of the subdirectories of @dir that hold a "format" file. */
static char **list_formats(const char *dir, int *nr)
{
	char **names = NULL, **n, path[4096];
	struct dirent *de;
	struct stat st;
	DIR *d;

	*nr = 0;
	d = opendir(dir);
	if (!d)
		return NULL;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s/format", dir, de->d_name);
		if (stat(path, &st))
			continue;
		n = realloc(names, (*nr + 1) * sizeof(*names));
		if (!n)
			break;
		names = n;
		names[*nr] = strdup(de->d_name);
		if (names[*nr])
			(*nr)++;
	}
	closedir(d);
	if (names)
		qsort(names, *nr, sizeof(*names), cmp_str);
	return names;
}

static void free_list(char **names, int nr)
{
	while (nr > 0)
		free(names[--nr]);
	free(names);
}

/* A count, then each format as u64 size and text. */
static void put_formats(struct buf *b, const char *dir, char **names, int nr)
{
	char path[4096];
	int i;

	put_u32(b, nr);
	for (i = 0; i < nr; i++) {
		if (snprintf(path, sizeof(path), "%s/%s/format", dir,
			     names[i]) >= (int)sizeof(path)) {
			b->oom = true;	/* no tracefs path is that long */
			return;
		}
		put_file(b, path, 8);
	}
}

/* More than the systems of the events a recording enables. */
#define MAX_SYSTEMS 16

/* Whether @name is among the first @n of @sys. */
static bool listed(const char **sys, int n, const char *name)
{
	while (n--)
		if (!strcmp(sys[n], name))
			return true;
	return false;
}

/*
 * The systems of the events record enables (lt-events.c), the systems of
 * the events added to them (lt_tracefs_add_event()), then the session's
 * probe group: without its format no reader can decode the probe's events
 * (nor step over them).
 */
static int put_event_systems(struct buf *b, const char *top,
			     struct lt_tracefs *s)
{
	const char *probe_group = lt_tracefs_probe_group(s);
	const char *const *added;
	int i, nr_sys, nr_added, count = 0, *nr;
	const char **sys;
	char dir[4096], ***names;

	added = lt_tracefs_added_systems(s, &nr_added);
	sys = calloc(MAX_SYSTEMS + nr_added + 1, sizeof(*sys));
	names = calloc(MAX_SYSTEMS + nr_added + 1, sizeof(*names));
	nr = calloc(MAX_SYSTEMS + nr_added + 1, sizeof(*nr));
	if (!sys || !names || !nr) {
		free(sys);
		free(names);
		free(nr);
		return -1;
	}
	nr_sys = lt_record_systems(sys, MAX_SYSTEMS);
	/* ftrace's formats come before the systems, once */
	for (i = 0; i < nr_added; i++)
		if (strcmp(added[i], "ftrace") && !listed(sys, nr_sys, added[i]))
			sys[nr_sys++] = added[i];
	if (probe_group && probe_group[0])
		sys[nr_sys++] = probe_group;
	for (i = 0; i < nr_sys; i++) {
		snprintf(dir, sizeof(dir), "%s/events/%s", top, sys[i]);
		names[i] = list_formats(dir, &nr[i]);
		if (nr[i])
			count++;
	}
	put_u32(b, count);
	for (i = 0; i < nr_sys; i++) {
		if (nr[i]) {
			snprintf(dir, sizeof(dir), "%s/events/%s", top, sys[i]);
			put_str0(b, sys[i]);
			put_formats(b, dir, names[i], nr[i]);
		}
		free_list(names[i], nr[i]);
	}
	free(sys);
	free(names);
	free(nr);
	return 0;
}

/*
 * Everything up to and including the printk formats: the same for every
 * file a session writes, so built once.
 */
static int build_header(struct lt_tracefs *s, bool symbols, struct buf *b)
{
	static const char magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c',
				      'i', 'n', 'g' };
	const char *top = tracefs_tracing_dir();
	char path[4096], **names;
	int nr;

	if (!top)
		return -1;
	put(b, magic, sizeof(magic));
	put_str0(b, "6");
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	put(b, "\1", 1);
#else
	put(b, "\0", 1);
#endif
	put(b, (char[]){ sizeof(long) }, 1);
	put_u32(b, lt_tracefs_page_size(s));

	snprintf(path, sizeof(path), "%s/events/header_page", top);
	put_str0(b, "header_page");
	put_file(b, path, 8);
	snprintf(path, sizeof(path), "%s/events/header_event", top);
	put_str0(b, "header_event");
	put_file(b, path, 8);

	snprintf(path, sizeof(path), "%s/events/ftrace", top);
	names = list_formats(path, &nr);
	put_formats(b, path, names, nr);
	free_list(names, nr);

	if (put_event_systems(b, top, s))
		return -1;

	if (symbols && lt_tracefs_symbols_visible(s))
		put_file(b, "/proc/kallsyms", 4);
	else
		put_u32(b, 0);
	snprintf(path, sizeof(path), "%s/printk_formats", top);
	put_file(b, path, 4);
	return b->oom ? -1 : 0;
}

/* saved_cmdlines, then the tasks /proc knew that it lacks. */
static void put_cmdlines(struct lt_tracefs *s, struct buf *b)
{
	const char *top = tracefs_tracing_dir(), *line, *nl;
	struct buf c = { 0 };
	char path[4096], *saved;
	unsigned char *seen;
	size_t len;
	long pid;
	enum { MAX_PID = 1 << 22 };

	snprintf(path, sizeof(path), "%s/saved_cmdlines", top ? top : "");
	saved = slurp(path, &len);
	seen = calloc(MAX_PID / 8, 1);
	if (saved) {
		put(&c, saved, len);
		for (line = saved; seen && *line; line = nl + 1) {
			pid = strtol(line, NULL, 10);
			if (pid > 0 && pid < MAX_PID)
				seen[pid / 8] |= 1 << (pid % 8);
			nl = strchr(line, '\n');
			if (!nl)
				break;
		}
	}
	for (line = lt_tracefs_comms(s); seen && *line; line = nl + 1) {
		nl = strchr(line, '\n');
		if (!nl)
			break;
		pid = strtol(line, NULL, 10);
		if (pid <= 0 || pid >= MAX_PID || (seen[pid / 8] & (1 << (pid % 8))))
			continue;
		seen[pid / 8] |= 1 << (pid % 8);
		put(&c, line, nl - line + 1);
	}
	put_u64(b, c.oom ? 0 : c.len);
	if (!c.oom)
		put(b, c.p, c.len);
	free(c.p);
	free(saved);
	free(seen);
}

static void put_option(struct buf *b, uint16_t id, const void *data,
		       uint32_t size)
{
	put_u16(b, id);
	put_u32(b, size);
	put(b, data, size);
}

static void put_options(struct lt_tracefs *s, struct tracefs_instance *inst,
			struct buf *b)
{
	struct utsname u;
	char str[1024], file[64], *stats;
	int32_t cpus = lt_tracefs_nr_cpus(s);
	int cpu, n;

	put(b, "options  ", 10);
	if (!uname(&u)) {
		n = snprintf(str, sizeof(str), "%s %s %s %s", u.sysname,
			     u.nodename, u.release, u.machine);
		if (n > 0 && (size_t)n < sizeof(str))
			put_option(b, OPT_UNAME, str, n + 1);
	}
	/*
	 * No TRACECLOCK option: the clock after the CPU table names it too,
	 * and libtracecmd 3.1 leaks the first of two clock names it parses.
	 */
	put_option(b, OPT_CPUCOUNT, &cpus, 4);
	for (cpu = 0; cpu < cpus; cpu++) {
		snprintf(file, sizeof(file), "per_cpu/cpu%d/stats", cpu);
		stats = tracefs_instance_file_read(inst, file, NULL);
		if (!stats)
			continue;
		n = snprintf(str, sizeof(str), "CPU: %d\n%s", cpu, stats);
		free(stats);
		if (n > 0 && (size_t)n < sizeof(str))
			put_option(b, OPT_CPUSTAT, str, n + 1);
	}
	put_u16(b, OPT_DONE);
}

static int write_all(int fd, const void *data, size_t len)
{
	const char *p = data;
	ssize_t n;

	while (len) {
		n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= n;
	}
	return 0;
}

static int copy_data(int out, int in, uint64_t from, uint64_t size)
{
	char chunk[65536];
	uint64_t off = 0;
	ssize_t n;

	while (off < size) {
		n = pread(in, chunk, size - off < sizeof(chunk) ?
			  size - off : sizeof(chunk), from + off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0 || write_all(out, chunk, n))
			return -1;
		off += n;
	}
	return 0;
}

/* Documented in lazytrace.h. */
int lt_tracefs_write_dat(struct lt_tracefs *s, int out, const int *cpu_fd,
			 const uint64_t *cpu_size, bool symbols, char *err,
			 size_t len)
{
	return lt_tracefs_write_dat_range(s, out, cpu_fd, NULL, cpu_size,
					  symbols, err, len);
}

/* Documented in lazytrace.h. */
int lt_tracefs_write_dat_range(struct lt_tracefs *s, int out,
			       const int *cpu_fd, const uint64_t *cpu_from,
			       const uint64_t *cpu_size, bool symbols,
			       char *err, size_t len)
{
	struct tracefs_instance *inst = lt_tracefs_instance(s);
	static const char zeros[65536];
	struct buf b = { 0 };
	int cpu, cpus = lt_tracefs_nr_cpus(s);
	uint64_t page = lt_tracefs_page_size(s), pos, *off;
	char *clock, clock_str[80];
	const void *hdr;
	size_t pad, hdr_len;

	off = calloc(cpus, sizeof(*off));
	if (!off)
		goto oom;
	/*
	 * Event formats and printk formats do not change while the session
	 * lives: read them from tracefs once, not for every live interval.
	 */
	hdr = lt_tracefs_header(s, symbols, &hdr_len);
	if (!hdr) {
		struct buf h = { 0 };

		if (build_header(s, symbols, &h)) {
			free(h.p);
			snprintf(err, len, "cannot read the event formats from tracefs");
			goto fail;
		}
		lt_tracefs_keep_header(s, symbols, h.p, h.len);
		hdr = h.p;
		hdr_len = h.len;
	}
	put(&b, hdr, hdr_len);
	put_cmdlines(s, &b);
	put_u32(&b, cpus);
	put_options(s, inst, &b);
	put(&b, "flyrecord", 10);

	clock = tracefs_get_clock(inst);
	snprintf(clock_str, sizeof(clock_str), "[%s]", clock ? clock : "local");
	free(clock);

	/* Data of each CPU starts on a page boundary after the table. */
	pos = b.len + cpus * 16 + 8 + strlen(clock_str);
	for (cpu = 0; cpu < cpus; cpu++) {
		pos = (pos + page - 1) / page * page;
		off[cpu] = pos;
		put_u64(&b, cpu_size[cpu] ? pos : 0);
		put_u64(&b, cpu_size[cpu]);
		pos += cpu_size[cpu];
	}
	put_u64(&b, strlen(clock_str));
	put(&b, clock_str, strlen(clock_str));
	if (b.oom)
		goto oom;
	if (write_all(out, b.p, b.len))
		goto io;
	pos = b.len;
	for (cpu = 0; cpu < cpus; cpu++) {
		if (!cpu_size[cpu])
			continue;
		for (pad = off[cpu] - pos; pad; pad -= pad > sizeof(zeros) ?
						 sizeof(zeros) : pad)
			if (write_all(out, zeros, pad > sizeof(zeros) ?
				      sizeof(zeros) : pad))
				goto io;
		if (copy_data(out, cpu_fd[cpu], cpu_from ? cpu_from[cpu] : 0,
			      cpu_size[cpu]))
			goto io;
		pos = off[cpu] + cpu_size[cpu];
	}
	free(b.p);
	free(off);
	return 0;
io:
	snprintf(err, len, "write error: %s", strerror(errno));
	goto fail;
oom:
	snprintf(err, len, "out of memory");
fail:
	free(b.p);
	free(off);
	return -1;
}
