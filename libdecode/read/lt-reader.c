// SPDX-License-Identifier: LGPL-2.1
/*
 * The reader handle: opens an input, picks the back end by content, and
 * hands out events one at a time.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lt-internal.h"

/* trace.dat files start with "\027\010\104tracing". */
static const char dat_magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i',
				  'n', 'g' };

void lt_strlcpy(char *dst, const char *src, size_t size)
{
	size_t n;

	if (!size)
		return;
	n = strnlen(src, size - 1);
	memcpy(dst, src, n);
	dst[n] = '\0';
}

void lt_reader_fail(struct lt_reader *r, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (r->failed)
		return;
	r->failed = true;
	n = snprintf(r->err, sizeof(r->err), "%s: ", r->path);
	if (n < 0 || (size_t)n >= sizeof(r->err))
		return;
	va_start(ap, fmt);
	vsnprintf(r->err + n, sizeof(r->err) - n, fmt, ap);
	va_end(ap);
}

void lt_abi_set(struct lt_reader *r, enum lt_abi abi, const char *fmt, ...)
{
	va_list ap;

	r->abi = abi;
	va_start(ap, fmt);
	vsnprintf(r->abi_reason_buf, sizeof(r->abi_reason_buf), fmt, ap);
	va_end(ap);
	r->abi_reason = r->abi_reason_buf;
}

enum lt_prev_state lt_prev_state_of(const char *str)
{
	if (str[0] == 'R' && str[1] == '+')
		return LT_PREV_PREEMPTED;
	if (str[0] == 'R' && str[1] == '\0')
		return LT_PREV_YIELDED;
	return LT_PREV_BLOCKED;
}

static bool is_dat(const unsigned char *b, size_t n)
{
	return n >= sizeof(dat_magic) && !memcmp(b, dat_magic, sizeof(dat_magic));
}

static struct lt_reader *open_fail(struct lt_reader *r, char *err,
				   size_t errlen)
{
	if (err && errlen)
		lt_strlcpy(err, r->failed ? r->err : "cannot open input",
			   errlen);
	lt_reader_close(r);
	return NULL;
}

/*
 * Text compressed with gzip, xz or zstd, or a stream: read through a
 * decompressing (or replaying) stream. A compressed trace.dat is refused
 * here: libtracecmd maps and seeks the file itself.
 */
static int open_zstream(struct lt_reader *r, FILE *src,
			const unsigned char *head, size_t n,
			const struct lt_open_opts *opts)
{
	enum lt_zkind kind = lt_zkind_of(head, n);
	unsigned char dhead[LT_ZHEAD];
	struct zstream *s;
	FILE *fp;
	size_t dn;

	s = lt_zstream_new(r, src, kind, head, n);
	if (!s)
		return -1;
	if (kind != LT_Z_NONE) {
		dn = lt_zstream_peek(s, dhead, sizeof(dhead));
		if (!r->failed && is_dat(dhead, dn))
			lt_reader_fail(r, "a %s-compressed trace.dat: decompress it first (trace.dat files are read uncompressed, or compressed by trace-cmd itself)",
				       lt_zkind_name(kind));
		if (r->failed) {
			lt_zstream_free(s);
			return -1;
		}
	}
	fp = lt_zstream_fopen(s);
	return fp ? lt_text_open(r, fp, opts) : -1;
}

/* Standard input, a pipe, a tracefs file: what it holds, read once. */
static int open_stream(struct lt_reader *r, FILE *src,
		       const struct lt_open_opts *opts)
{
	unsigned char head[LT_ZHEAD];
	size_t n = fread(head, 1, sizeof(head), src);

	if (is_dat(head, n)) {
		if (src != stdin)
			fclose(src);
		lt_reader_fail(r, "a trace.dat cannot be read from a stream: give its file name");
		return -1;
	}
	return open_zstream(r, src, head, n, opts);
}

struct lt_reader *lt_reader_open(const char *path,
				 const struct lt_open_opts *opts,
				 char *err, size_t errlen)
{
	static const struct lt_open_opts defaults;
	unsigned char head[LT_ZHEAD];
	struct lt_reader *r;
	struct stat st;
	size_t n;
	FILE *fp;

	if (!opts)
		opts = &defaults;
	r = calloc(1, sizeof(*r));
	if (!r) {
		if (err && errlen)
			snprintf(err, errlen, "%s: out of memory", path);
		return NULL;
	}
	r->path = strdup(lt_input_name(path));
	if (!r->path) {
		free(r);
		return NULL;
	}
	r->abi = opts->abi;
	r->big_endian = -1;	/* a trace.dat's header says */
	if (!strcmp(path, "-"))
		return open_stream(r, stdin, opts) ? open_fail(r, err, errlen) : r;

	fp = fopen(path, "rb");
	if (!fp) {
		lt_reader_fail(r, "%s", strerror(errno));
		return open_fail(r, err, errlen);
	}
	if (fstat(fileno(fp), &st) == 0) {
		if (S_ISDIR(st.st_mode)) {
			fclose(fp);
			lt_reader_fail(r, "is a directory");
			return open_fail(r, err, errlen);
		}
		if (S_ISREG(st.st_mode))
			r->size = st.st_size;
	}
	/*
	 * tracefs files (instances/X/trace) stat as regular and empty, pipes
	 * and devices as nothing: all are read as streams, and only what
	 * they turn out to hold says whether the input is empty.
	 */
	if (!r->size)
		return open_stream(r, fp, opts) ? open_fail(r, err, errlen) : r;
	n = fread(head, 1, sizeof(head), fp);
	if (is_dat(head, n)) {
		fclose(fp);
		if (lt_dat_open(r, opts))
			return open_fail(r, err, errlen);
		return r;
	}
	if (lt_zkind_of(head, n) != LT_Z_NONE) {
		/* progress runs on the file's size: not the text's */
		r->size = 0;
		return open_zstream(r, fp, head, n, opts) ?
			open_fail(r, err, errlen) : r;
	}
	/* a plain file stays seekable, for the TUI */
	rewind(fp);
	if (lt_text_open(r, fp, opts))
		return open_fail(r, err, errlen);
	return r;
}

void lt_reader_close(struct lt_reader *r)
{
	if (!r)
		return;
	if (r->ops && r->ops->close)
		r->ops->close(r);
	free(r->kernel);
	free(r->path);
	free(r);
}

const struct lt_event *lt_reader_next(struct lt_reader *r)
{
	int ret;

	if (r->failed)
		return NULL;
	do {
		ret = r->ops->next(r);
		if (ret <= 0)
			return NULL;
	} while (r->ev.ts < r->skip_before);
	r->skip_before = 0;
	return &r->ev;
}

int lt_reader_seek(struct lt_reader *r, uint64_t ts, uint64_t pos)
{
	if (r->failed || !r->ops->seek || r->ops->seek(r, ts, pos))
		return -1;
	r->skip_before = ts;
	return 0;
}

void lt_reader_graph_leaves(struct lt_reader *r)
{
	r->graph_leaves = true;
}

uint64_t lt_reader_truncated(const struct lt_reader *r)
{
	return r->cut;
}

const char *lt_reader_error(const struct lt_reader *r)
{
	return r->failed ? r->err : NULL;
}

enum lt_abi lt_reader_abi(const struct lt_reader *r, const char **reason)
{
	if (reason)
		*reason = r->abi_reason ? r->abi_reason : "";
	return r->abi;
}

enum lt_input_format lt_reader_format(const struct lt_reader *r)
{
	return r->format;
}

int lt_reader_nr_cpus(const struct lt_reader *r)
{
	return r->nr_cpus;
}

const char *lt_reader_kernel(const struct lt_reader *r)
{
	return r->kernel;
}

/*
 * Kernels before 5.13 print four flag columns: the migrate-disable count
 * came with the RT migrate_disable() work. Unknown releases get five.
 */
unsigned int lt_reader_flag_columns(const struct lt_reader *r)
{
	struct lt_reader *w = (struct lt_reader *)r;	/* the cache */
	unsigned int major, minor;

	if (r->flag_columns)
		return r->flag_columns;
	/* report asks for every event: the release is parsed once */
	if (r->release_columns && r->columns_kernel == r->kernel)
		return r->release_columns;
	if (!r->kernel || sscanf(r->kernel, "%u.%u", &major, &minor) != 2)
		w->release_columns = 5;
	else
		w->release_columns = major < 5 || (major == 5 && minor < 13) ?
				     4 : 5;
	w->columns_kernel = r->kernel;
	return r->release_columns;
}

uint64_t lt_reader_first_ts(const struct lt_reader *r)
{
	return r->first_ts;
}

uint64_t lt_reader_position(const struct lt_reader *r)
{
	return r->pos;
}

uint64_t lt_reader_size(const struct lt_reader *r)
{
	return r->size;
}

bool lt_event_named(const struct lt_event *ev)
{
	if (ev->kind == LT_EV_FUNCTION || !ev->system)
		return ev->kind != LT_EV_FUNCTION;
	if (ev->system[0] == 's' && !strcmp(ev->system, "syscalls"))
		return false;
	/* stacks print "<stack trace>" and their frames alone */
	if (ev->kind == LT_EV_KERNEL_STACK || !strcmp(ev->name, "user_stack"))
		return false;
	/* trace_marker writes print as "tracing_mark_write: text" */
	return !(ev->system[0] == 'f' && !strcmp(ev->system, "ftrace") &&
		 !strcmp(ev->name, "print"));
}

size_t lt_event_payload(struct lt_reader *r, const struct lt_event *ev,
			char *buf, size_t len)
{
	if (ev->kind == LT_EV_KERNEL_STACK)
		return lt_stack_payload(ev, buf, len);
	return r->ops->payload(r, ev, buf, len);
}

/* Append to @buf as snprintf would, counting what does not fit. */
static size_t append(char *buf, size_t len, size_t n, const char *s)
{
	size_t sl = strlen(s);

	if (n < len)
		lt_strlcpy(buf + n, s, len - n);
	return n + sl;
}

size_t lt_stack_frame(const struct lt_event *ev, unsigned int i, char *buf,
		      size_t len, bool offset)
{
	const struct lt_symbols *syms = ev->u.stack.syms;
	uint64_t ip, start, size;
	const char *name;
	char tmp[64];
	size_t n;

	if (len)
		buf[0] = '\0';
	if (ev->kind != LT_EV_KERNEL_STACK || i >= ev->u.stack.nr)
		return 0;
	ip = ev->u.stack.ip ? ev->u.stack.ip[i] : 0;
	if (ev->u.stack.text && ev->u.stack.text[i][0]) {
		/* "func+0x1a/0x40 <ffffffff81234567>": cut what is not asked */
		name = ev->u.stack.text[i];
		n = strcspn(name, offset ? " " : "+ ");
		if (len)
			lt_strlcpy(buf, name, n + 1 < len ? n + 1 : len);
		return n;
	}
	if (syms && syms->lookup(syms, ip, &name, &start, &size) == 0) {
		n = append(buf, len, 0, name);
		if (offset && size) {
			snprintf(tmp, sizeof(tmp), "+0x%llx/0x%llx",
				 (unsigned long long)(ip - start),
				 (unsigned long long)size);
			n = append(buf, len, n, tmp);
		}
		return n;
	}
	snprintf(tmp, sizeof(tmp), "0x%llx", (unsigned long long)ip);
	return append(buf, len, 0, tmp);
}

size_t lt_stack_payload(const struct lt_event *ev, char *buf, size_t len)
{
	char frame[256];
	unsigned int i;
	size_t n;

	n = append(buf, len, 0, "<stack trace>");
	for (i = 0; i < ev->u.stack.nr; i++) {
		if (ev->u.stack.text)
			lt_strlcpy(frame, ev->u.stack.text[i], sizeof(frame));
		else
			lt_stack_frame(ev, i, frame, sizeof(frame), false);
		n = append(buf, len, n, "\n => ");
		n = append(buf, len, n, frame);
	}
	return n;
}

int lt_event_field(struct lt_reader *r, const struct lt_event *ev,
		   const char *field, long long *val)
{
	return r->ops->field(r, ev, field, val);
}
