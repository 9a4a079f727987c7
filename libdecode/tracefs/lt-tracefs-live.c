// SPDX-License-Identifier: LGPL-2.1
/*
 * A reader of a live lt_tracefs session, one interval at a time.
 *
 * The first lt_live_refill() drains what the instance's per-CPU buffers
 * hold into an anonymous trace.dat and reads that with the trace.dat
 * reader; later ones hand that reader the new pages alone
 * (lt_dat_continue()), so that formats and names are parsed once: live
 * events are filled by exactly the code that fills recorded ones, so
 * `live` and `record` + `stats` cannot disagree, and a live run costs
 * little more than its events. lt_reader_next() returns NULL at the end
 * of each interval.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <traceevent/event-parse.h>

#include "lt-tracefs.h"

struct live {
	struct lt_tracefs *s;
	struct lt_open_opts opts;
	struct lt_reader *inner;
	int nr_cpus;
	int *fd;		/* per-CPU pages of this interval */
	uint64_t *size;
	char **buf;		/* ... in memory, being read */
	size_t *len;
	size_t *cap;
	bool abi_fixed;
	/*
	 * kallsyms, parsed once: reading and parsing it for every interval
	 * took seconds under emulation, long enough to starve the traced
	 * CPUs and make every task there look like a hog.
	 */
	struct tep_handle *syms;
	char *save_dir;		/* lt_live_save() */
	unsigned long saved;
	bool kallsyms_saved;	/* save_dir/kallsyms written by this run */
	unsigned int save_mode;	/* lt_live_save_as() */
	long save_uid;
	long save_gid;
};

static int live_next(struct lt_reader *r)
{
	struct live *l = r->priv;
	const struct lt_event *ev;

	if (!l->inner)
		return 0;
	ev = lt_reader_next(l->inner);
	if (!ev) {
		if (lt_reader_error(l->inner)) {
			lt_reader_fail(r, "%s", lt_reader_error(l->inner));
			return -1;
		}
		return 0;
	}
	r->ev = *ev;
	r->pos = lt_reader_position(l->inner);
	return 1;
}

static size_t live_payload(struct lt_reader *r, const struct lt_event *ev,
			   char *buf, size_t len)
{
	struct live *l = r->priv;

	if (!l->inner) {
		if (len)
			buf[0] = '\0';
		return 0;
	}
	return lt_event_payload(l->inner, ev, buf, len);
}

static int live_field(struct lt_reader *r, const struct lt_event *ev,
		      const char *field, long long *val)
{
	struct live *l = r->priv;

	return l->inner ? lt_event_field(l->inner, ev, field, val) : -1;
}

static void live_close(struct lt_reader *r)
{
	struct live *l = r->priv;
	int cpu;

	if (!l)
		return;
	lt_reader_close(l->inner);
	for (cpu = 0; l->fd && cpu < l->nr_cpus; cpu++)
		if (l->fd[cpu] >= 0)
			close(l->fd[cpu]);
	for (cpu = 0; l->buf && cpu < l->nr_cpus; cpu++)
		free(l->buf[cpu]);
	free(l->buf);
	free(l->len);
	free(l->cap);
	free(l->fd);
	free(l->size);
	if (l->syms)
		tep_free(l->syms);
	free(l->save_dir);
	free(l);
	r->priv = NULL;
}

static const struct lt_reader_ops live_ops = {
	.next = live_next,
	.payload = live_payload,
	.field = live_field,
	.close = live_close,
};

static const char *tmp_dir(void)
{
	const char *d = getenv("TMPDIR");

	return d && *d ? d : "/tmp";
}

/* A file nobody else can see and that vanishes with its last descriptor. */
static int anon_file(void)
{
	char *path;
	int fd;

	fd = open(tmp_dir(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd >= 0 || (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL))
		return fd;
	if (asprintf(&path, "%s/lazytrace-live.XXXXXX", tmp_dir()) < 0)
		return -1;
	fd = mkostemp(path, O_CLOEXEC);
	if (fd >= 0)
		unlink(path);
	free(path);
	return fd;
}

/* The kernel's symbol table, or NULL: then each interval's file has one. */
static struct tep_handle *load_symbols(void)
{
	struct tep_handle *tep;
	size_t len = 0, cap = 1 << 20;
	char *buf = malloc(cap), *nb;
	ssize_t n;
	int fd = open("/proc/kallsyms", O_RDONLY | O_CLOEXEC);

	if (fd < 0 || !buf)
		goto fail;
	for (;;) {
		if (cap - len < 65536) {
			nb = realloc(buf, cap * 2);
			if (!nb)
				goto fail;
			buf = nb;
			cap *= 2;
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			goto fail;
		if (!n)
			break;
		len += n;
	}
	close(fd);
	buf[len] = '\0';
	tep = len ? tep_alloc() : NULL;
	if (tep && tep_parse_kallsyms(tep, buf)) {
		tep_free(tep);
		tep = NULL;
	}
	/*
	 * libtraceevent sorts the table at the first lookup: do it now,
	 * before tracing starts. Under emulation the sort of a distribution
	 * kernel's table took over a second of the guest's time, inside an
	 * interval, delaying the timers of the very tasks being measured.
	 */
	if (tep)
		tep_find_function(tep, 0);
	free(buf);
	return tep;
fail:
	if (fd >= 0)
		close(fd);
	free(buf);
	return NULL;
}

static int live_page(void *ctx, int cpu, const void *page, int size)
{
	struct live *l = ctx;
	ssize_t n;

	if (cpu >= l->nr_cpus)
		return 0;
	n = pwrite(l->fd[cpu], page, size, l->size[cpu]);
	if (n != size)
		return -1;
	l->size[cpu] += size;
	return 0;
}

/* Documented in lazytrace.h. */
struct lt_reader *lt_live_open(struct lt_tracefs *s,
			       const struct lt_open_opts *opts,
			       char *err, size_t errlen)
{
	struct lt_reader *r = calloc(1, sizeof(*r));
	struct live *l = calloc(1, sizeof(*l));
	int cpu;

	if (!r || !l)
		goto oom;
	r->priv = l;
	r->ops = &live_ops;
	r->format = LT_INPUT_TRACE_DAT;
	r->big_endian = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__;
	if (asprintf(&r->path, "live:%s", lt_tracefs_name(s)) < 0) {
		r->path = NULL;
		goto oom;
	}
	l->s = s;
	l->save_mode = 0600;
	l->save_uid = -1;
	l->save_gid = -1;
	if (opts)
		l->opts = *opts;
	l->abi_fixed = l->opts.abi != LT_ABI_AUTO;
	r->abi = l->opts.abi;
	l->nr_cpus = lt_tracefs_nr_cpus(s);
	r->nr_cpus = l->nr_cpus;
	l->fd = malloc(l->nr_cpus * sizeof(*l->fd));
	l->size = calloc(l->nr_cpus, sizeof(*l->size));
	l->buf = calloc(l->nr_cpus, sizeof(*l->buf));
	l->len = calloc(l->nr_cpus, sizeof(*l->len));
	l->cap = calloc(l->nr_cpus, sizeof(*l->cap));
	if (!l->fd || !l->size || !l->buf || !l->len || !l->cap)
		goto oom;
	for (cpu = 0; cpu < l->nr_cpus; cpu++)
		l->fd[cpu] = -1;
	for (cpu = 0; cpu < l->nr_cpus; cpu++) {
		l->fd[cpu] = anon_file();
		if (l->fd[cpu] < 0) {
			snprintf(err, errlen, "cannot make a temporary file in %s: %s",
				 tmp_dir(), strerror(errno));
			lt_reader_close(r);
			return NULL;
		}
	}
	if (lt_tracefs_needs_symbols(s))
		l->syms = load_symbols();
	return r;
oom:
	snprintf(err, errlen, "out of memory");
	if (!r || !r->priv)
		free(l);
	lt_reader_close(r);
	return NULL;
}

/* Take the first interval's ABI for all: detection per interval could flip. */
static void adopt(struct lt_reader *r, struct live *l)
{
	const char *reason;
	enum lt_abi abi = lt_reader_abi(l->inner, &reason);

	if (!l->abi_fixed) {
		l->opts.abi = abi;
		l->abi_fixed = true;
		lt_abi_set(r, abi, "%s", reason);
	} else if (!r->abi_reason) {
		lt_abi_set(r, abi, "%s", reason);
	}
	if (!r->kernel && lt_reader_kernel(l->inner))
		r->kernel = strdup(lt_reader_kernel(l->inner));
	if (!r->first_ts)
		r->first_ts = lt_reader_first_ts(l->inner);
}

/* Documented in lazytrace.h. */
int lt_live_poll(struct lt_reader *r)
{
	struct live *l = r->priv;
	int pages;

	if (r->failed)
		return -1;
	pages = lt_tracefs_drain(l->s, live_page, l);
	if (pages < 0)
		lt_reader_fail(r, "reading the ring buffer: %s", strerror(errno));
	return pages;
}

/* This interval's pages as an anonymous trace.dat; then a new interval. */
static int write_interval(struct lt_reader *r, struct live *l)
{
	char err[LT_ERR_LEN];
	int cpu, fd;

	lt_tracefs_snapshot_comms(l->s, true);
	fd = anon_file();
	if (fd < 0) {
		lt_reader_fail(r, "temporary file: %s", strerror(errno));
		return -1;
	}
	if (lt_tracefs_write_dat(l->s, fd, l->fd, l->size,
				 lt_tracefs_needs_symbols(l->s) && !l->syms,
				 err, sizeof(err))) {
		close(fd);
		lt_reader_fail(r, "%s", err);
		return -1;
	}
	for (cpu = 0; cpu < l->nr_cpus; cpu++) {
		l->size[cpu] = 0;
		if (ftruncate(l->fd[cpu], 0)) {
			close(fd);
			lt_reader_fail(r, "temporary file: %s", strerror(errno));
			return -1;
		}
	}
	return fd;
}

/*
 * A new file next to @path (mkostemp's template in @tmp, to rename into
 * place), with the saved files' mode and owner; -1 with errno set.
 */
static int save_create(const struct live *l, const char *path, char *tmp,
		       size_t len)
{
	int fd, saved;

	snprintf(tmp, len, "%s.XXXXXX", path);
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fchmod(fd, l->save_mode) ||
	    ((l->save_uid >= 0 || l->save_gid >= 0) &&
	     fchown(fd, l->save_uid, l->save_gid))) {
		saved = errno;
		close(fd);
		unlink(tmp);
		errno = saved;
		return -1;
	}
	return fd;
}

/*
 * The kernel's symbols, once per run, as @save_dir/kallsyms (about 6 MB,
 * where each interval would carry them): the intervals are written
 * without, and the trace.dat reader takes them from there
 * (lt-dat.c, sibling_kallsyms()). Written as the intervals are: a new
 * file with the intervals' mode and owner, renamed into place.
 */
static int save_kallsyms(struct lt_reader *r, struct live *l)
{
	char path[PATH_MAX], tmp[PATH_MAX + 8], buf[65536];
	int in, fd;
	ssize_t n;

	snprintf(path, sizeof(path), "%s/kallsyms", l->save_dir);
	in = open("/proc/kallsyms", O_RDONLY | O_CLOEXEC);
	fd = in < 0 ? -1 : save_create(l, path, tmp, sizeof(tmp));
	if (fd < 0)
		goto fail;
	while ((n = read(in, buf, sizeof(buf))) > 0 || (n < 0 && errno == EINTR))
		if (n > 0 && write(fd, buf, n) != n)
			goto fail;
	if (n < 0)
		goto fail;
	close(in);
	in = -1;
	if (close(fd)) {
		fd = -1;
		goto fail;
	}
	fd = -1;
	if (rename(tmp, path))
		goto fail;
	l->kallsyms_saved = true;
	return 0;
fail:
	lt_reader_fail(r, "%s: %s", path, strerror(errno));
	if (in >= 0)
		close(in);
	if (fd >= 0) {
		close(fd);
		unlink(tmp);
	}
	return -1;
}

/*
 * This interval's pages as @save_dir/interval-N.dat: a new file (O_EXCL,
 * 0600 from the start), renamed into place so that a link planted
 * there is replaced, not followed.
 */
static int save_interval(struct lt_reader *r, struct live *l)
{
	char err[LT_ERR_LEN], path[PATH_MAX], tmp[PATH_MAX + 8];
	bool symbols = lt_tracefs_needs_symbols(l->s) &&
		       lt_tracefs_symbols_visible(l->s);
	int fd, ret;

	if (symbols && !l->kallsyms_saved && save_kallsyms(r, l))
		return -1;
	snprintf(path, sizeof(path), "%s/interval-%lu.dat", l->save_dir,
		 ++l->saved);
	fd = save_create(l, path, tmp, sizeof(tmp));
	if (fd < 0) {
		lt_reader_fail(r, "%s: %s", path, strerror(errno));
		return -1;
	}
	/* the symbols are the directory's kallsyms, not the file's */
	ret = lt_tracefs_write_dat(l->s, fd, l->fd, l->size, !symbols, err,
				   sizeof(err));
	if (ret)
		goto fail;
	if (close(fd)) {
		fd = -1;
		snprintf(err, sizeof(err), "%s", strerror(errno));
		goto fail;
	}
	fd = -1;
	if (rename(tmp, path)) {
		snprintf(err, sizeof(err), "%s", strerror(errno));
		goto fail;
	}
	return 0;
fail:
	if (fd >= 0)
		close(fd);
	unlink(tmp);
	lt_reader_fail(r, "%s: %s", path, err);
	return -1;
}

/* Documented in lazytrace.h. */
int lt_live_save_as(struct lt_reader *r, unsigned int mode, long uid,
		    long gid)
{
	struct live *l;

	if (!r || r->ops != &live_ops)
		return -1;
	l = r->priv;
	l->save_mode = mode & 07777;
	l->save_uid = uid;
	l->save_gid = gid;
	return 0;
}

/* Documented in lazytrace.h. */
int lt_live_save(struct lt_reader *r, const char *dir)
{
	struct live *l;
	char *d = NULL;

	if (!r || r->ops != &live_ops)
		return -1;
	l = r->priv;
	if (dir) {
		if (strlen(dir) > PATH_MAX - 32)
			return -1;
		d = strdup(dir);
		if (!d)
			return -1;
	}
	free(l->save_dir);
	l->save_dir = d;
	return 0;
}

/* This interval's pages into memory, for the reader that goes on. */
static int next_pages(struct lt_reader *r, struct live *l)
{
	size_t *len = l->len, got;
	ssize_t n;
	char *p;
	int cpu;

	lt_tracefs_snapshot_comms(l->s, true);
	for (cpu = 0; cpu < l->nr_cpus; cpu++) {
		len[cpu] = l->size[cpu];
		if (len[cpu] > l->cap[cpu]) {
			p = realloc(l->buf[cpu], len[cpu]);
			if (!p) {
				lt_reader_fail(r, "out of memory");
				return -1;
			}
			l->buf[cpu] = p;
			l->cap[cpu] = len[cpu];
		}
		for (got = 0; got < len[cpu]; got += n) {
			n = pread(l->fd[cpu], l->buf[cpu] + got, len[cpu] - got, got);
			if (n <= 0) {
				lt_reader_fail(r, "temporary file: %s",
					       n ? strerror(errno) : "short read");
				return -1;
			}
		}
		l->size[cpu] = 0;
		if (ftruncate(l->fd[cpu], 0)) {
			lt_reader_fail(r, "temporary file: %s", strerror(errno));
			return -1;
		}
	}
	if (lt_dat_continue(l->inner, (const char *const *)l->buf, len,
			    lt_tracefs_page_size(l->s),
			    lt_tracefs_comms(l->s))) {
		lt_reader_fail(r, "out of memory");
		return -1;
	}
	return 0;
}

/* Documented in lazytrace.h. */
int lt_live_refill(struct lt_reader *r)
{
	struct live *l = r->priv;
	char err[LT_ERR_LEN], path[64];
	int fd;

	if (lt_live_poll(r) < 0)
		return -1;
	if (l->save_dir && save_interval(r, l))
		return -1;
	if (l->inner)
		return next_pages(r, l);
	fd = write_interval(r, l);
	if (fd < 0)
		return -1;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	l->inner = lt_reader_open(path, &l->opts, err, sizeof(err));
	close(fd);
	if (!l->inner) {
		lt_reader_fail(r, "%s", err);
		return -1;
	}
	lt_dat_use_symbols(l->inner, l->syms);
	adopt(r, l);
	return 0;
}

static uint64_t mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000ULL + ts.tv_nsec / 1000000;
}

/* Documented in lazytrace.h. */
int lt_live_wait(struct lt_reader *r, int ms)
{
	struct live *l = r->priv;
	uint64_t end = mono_ms() + (ms > 0 ? ms : 0), now;
	int step, ready, err;

	while ((now = mono_ms()) < end) {
		step = end - now < LT_LIVE_POLL_MS ? (int)(end - now) : LT_LIVE_POLL_MS;
		errno = 0;
		/* wakes early when a buffer is half full (buffer_percent) */
		ready = lt_tracefs_wait(l->s, step);
		err = errno;
		if (lt_live_poll(r) < 0)
			return -1;
		if (!ready && err == EINTR)
			return 1;
	}
	return 0;
}

/* The flag ABI is given, or follows from the running kernel's release. */
static bool known_abi(const struct lt_open_opts *opts)
{
	struct lt_abi_hints h = { .given = opts ? opts->abi : LT_ABI_AUTO };
	struct lt_abi_choice c;
	struct utsname u;

	if (h.given == LT_ABI_AUTO && !uname(&u))
		h.release = u.release;
	lt_abi_detect(&h, &c);
	return c.rule <= LT_ABI_BY_RELEASE;
}

/* Documented in lazytrace.h. */
struct lt_reader *lt_live_begin(const struct lt_tracefs_opts *o,
				const struct lt_open_opts *opts,
				struct lt_tracefs **session,
				char *err, size_t len)
{
	struct lt_tracefs *s;
	struct lt_reader *r;

	*session = NULL;
	s = lt_tracefs_begin(o, err, len);
	if (!s)
		return NULL;
	r = lt_live_open(s, opts, err, len);
	/*
	 * Parse the formats now, on empty buffers, where the flag ABI does
	 * not depend on what the events show: the first interval then costs
	 * what the others do, instead of parsing while the load runs.
	 */
	if (r && known_abi(opts) && lt_live_refill(r)) {
		snprintf(err, len, "%s", lt_reader_error(r));
		lt_reader_close(r);
		r = NULL;
	}
	if (r && lt_tracefs_start(s)) {
		snprintf(err, len, "cannot turn tracing on in %s: %s",
			 lt_tracefs_name(s), strerror(errno));
		lt_reader_close(r);
		r = NULL;
	}
	if (!r) {
		lt_tracefs_destroy(s);
		return NULL;
	}
	if (lt_tracefs_mark_setup(s) && o->note)
		o->note("cannot write the setup line into the trace");
	*session = s;
	return r;
}
