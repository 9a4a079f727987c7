// SPDX-License-Identifier: LGPL-2.1
/*
 * Text inputs that are not plain seekable files: kernel text compressed
 * with xz, gzip or zstd, and streams (pipes, standard input, tracefs files
 * that stat as empty). Each becomes a stdio stream (fopencookie) that the
 * text reader reads like any file: data is decompressed as the reader asks
 * for it, a block at a time, so memory does not grow with the input.
 *
 * The first bytes are read ahead to recognise the input by content; they
 * are handed back first, so nothing needs to seek.
 */
#include <errno.h>
#include <lzma.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>

#include "lt-internal.h"

#define IN_BLOCK (64 * 1024)
/*
 * An xz stream names the dictionary it needs; a crafted one may claim
 * gigabytes. xz -9 needs 65 MiB: refuse what asks for more than this.
 */
#define XZ_MEMLIMIT (256ULL << 20)

struct zstream {
	struct lt_reader *r;
	FILE *src;
	enum lt_zkind kind;
	/* bytes already read from @src, handed out again first */
	unsigned char head[LT_ZHEAD];
	size_t nhead, headpos;
	/* decompressed bytes peeked at, handed out again first */
	unsigned char peek[LT_ZHEAD];
	size_t npeek, peekpos;
	/* compressed input */
	unsigned char *in;
	size_t in_len, in_pos;
	uint64_t in_off;	/* file offset of in[0] */
	bool src_eof;
	bool ended;		/* the last stream or frame is complete */
	bool started;		/* anything fed to the decoder */
	bool pending;		/* the last step filled the caller's buffer */
	z_stream z;
	lzma_stream x;
	ZSTD_DCtx *zd;
};

static const char *kind_name(enum lt_zkind kind)
{
	switch (kind) {
	case LT_Z_GZIP:
		return "gzip";
	case LT_Z_XZ:
		return "xz";
	case LT_Z_ZSTD:
		return "zstd";
	default:
		return "plain";
	}
}

enum lt_zkind lt_zkind_of(const unsigned char *b, size_t n)
{
	static const unsigned char xz[] = { 0xfd, '7', 'z', 'X', 'Z', 0 };
	static const unsigned char zst[] = { 0x28, 0xb5, 0x2f, 0xfd };

	if (n >= 2 && b[0] == 0x1f && b[1] == 0x8b)
		return LT_Z_GZIP;
	if (n >= sizeof(xz) && !memcmp(b, xz, sizeof(xz)))
		return LT_Z_XZ;
	if (n >= sizeof(zst) && !memcmp(b, zst, sizeof(zst)))
		return LT_Z_ZSTD;
	return LT_Z_NONE;
}

/* Read the head bytes back first, then the source. */
static size_t src_read(struct zstream *s, void *buf, size_t len)
{
	size_t n = 0;

	if (s->headpos < s->nhead) {
		n = s->nhead - s->headpos;
		if (n > len)
			n = len;
		memcpy(buf, s->head + s->headpos, n);
		s->headpos += n;
		return n;
	}
	if (s->src_eof)
		return 0;
	n = fread(buf, 1, len, s->src);
	if (!n)
		s->src_eof = true;
	return n;
}

static int zfail(struct zstream *s, uint64_t off, const char *why)
{
	lt_reader_fail(s->r, "corrupt %s data at offset %llu: %s",
		       kind_name(s->kind), (unsigned long long)off, why);
	errno = EIO;
	return -1;
}

/* Make compressed input available; 0 at the end of the source. */
static int refill(struct zstream *s)
{
	size_t n;

	if (s->in_pos < s->in_len)
		return 1;
	s->in_off += s->in_len;
	s->in_pos = s->in_len = 0;
	n = src_read(s, s->in, IN_BLOCK);
	if (!n && ferror(s->src)) {
		lt_reader_fail(s->r, "read error at offset %llu: %s",
			       (unsigned long long)s->in_off,
			       strerror(errno ? errno : EIO));
		errno = EIO;
		return -1;
	}
	s->in_len = n;
	return n != 0;
}

static ssize_t gz_step(struct zstream *s, char *buf, size_t len)
{
	int ret;

	if (s->ended && s->in_pos < s->in_len) {
		/* gzip members may follow one another (cat a.gz b.gz) */
		if (inflateReset(&s->z) != Z_OK)
			return zfail(s, s->in_off + s->in_pos, "cannot restart");
		s->ended = false;
	}
	s->z.next_in = s->in + s->in_pos;
	s->z.avail_in = s->in_len - s->in_pos;
	s->z.next_out = (unsigned char *)buf;
	s->z.avail_out = len > UINT32_MAX ? UINT32_MAX : len;
	ret = inflate(&s->z, Z_NO_FLUSH);
	s->in_pos = s->in_len - s->z.avail_in;
	if (ret == Z_STREAM_END)
		s->ended = true;
	else if (ret != Z_OK && ret != Z_BUF_ERROR)
		return zfail(s, s->in_off + s->in_pos,
			     s->z.msg ? s->z.msg : "inflate failed");
	return (char *)s->z.next_out - buf;
}

static ssize_t xz_step(struct zstream *s, char *buf, size_t len, bool finish)
{
	lzma_ret ret;

	s->x.next_in = s->in + s->in_pos;
	s->x.avail_in = s->in_len - s->in_pos;
	s->x.next_out = (uint8_t *)buf;
	s->x.avail_out = len;
	ret = lzma_code(&s->x, finish ? LZMA_FINISH : LZMA_RUN);
	s->in_pos = s->in_len - s->x.avail_in;
	switch (ret) {
	case LZMA_OK:
		break;
	case LZMA_STREAM_END:
		s->ended = true;
		break;
	case LZMA_BUF_ERROR:
		if (finish)
			return zfail(s, s->in_off + s->in_pos,
				     "the compressed stream is cut short");
		break;
	case LZMA_MEMLIMIT_ERROR:
		return zfail(s, s->in_off + s->in_pos,
			     "the stream asks for more than 256 MiB to decompress");
	case LZMA_FORMAT_ERROR:
		return zfail(s, s->in_off + s->in_pos, "not an xz stream");
	case LZMA_DATA_ERROR:
		return zfail(s, s->in_off + s->in_pos, "compressed data is corrupt");
	case LZMA_OPTIONS_ERROR:
		return zfail(s, s->in_off + s->in_pos, "unsupported options");
	default:
		return zfail(s, s->in_off + s->in_pos, "decoder error");
	}
	return (char *)s->x.next_out - buf;
}

static ssize_t zst_step(struct zstream *s, char *buf, size_t len)
{
	ZSTD_inBuffer in = { s->in, s->in_len, s->in_pos };
	ZSTD_outBuffer out = { buf, len, 0 };
	size_t ret;

	ret = ZSTD_decompressStream(s->zd, &out, &in);
	s->in_pos = in.pos;
	if (ZSTD_isError(ret))
		return zfail(s, s->in_off + s->in_pos, ZSTD_getErrorName(ret));
	/* 0: a frame ended here; another may follow */
	s->ended = ret == 0;
	return out.pos;
}

static ssize_t decode(struct zstream *s, char *buf, size_t len)
{
	ssize_t n;
	int more;

	if (s->r->failed) {
		errno = EIO;
		return -1;
	}
	if (s->kind == LT_Z_NONE) {
		n = src_read(s, buf, len);
		if (!n && ferror(s->src)) {
			errno = EIO;
			return -1;
		}
		return n;
	}
	for (;;) {
		/* a decoder that filled the buffer may hold more output */
		more = s->pending ? 1 : refill(s);
		if (more < 0)
			return -1;
		if (!more) {
			/* the source ended: the last stream must be whole */
			/*
			 * liblzma reports a cut stream only on the second
			 * call that makes no progress: call until it says.
			 */
			while (s->kind == LT_Z_XZ && s->started && !s->ended) {
				n = xz_step(s, buf, len, true);
				if (n)
					return n;
			}
			if (s->started && !s->ended)
				return zfail(s, s->in_off + s->in_pos,
					     "the compressed stream is cut short");
			return 0;
		}
		s->started = true;
		if (s->kind == LT_Z_GZIP)
			n = gz_step(s, buf, len);
		else if (s->kind == LT_Z_XZ)
			n = xz_step(s, buf, len, false);
		else
			n = zst_step(s, buf, len);
		if (n < 0)
			return -1;
		s->pending = (size_t)n == len;
		if (n)
			return n;
	}
}

static ssize_t z_read(void *cookie, char *buf, size_t len)
{
	struct zstream *s = cookie;
	size_t n;

	if (s->peekpos < s->npeek) {
		n = s->npeek - s->peekpos;
		if (n > len)
			n = len;
		memcpy(buf, s->peek + s->peekpos, n);
		s->peekpos += n;
		return n;
	}
	return decode(s, buf, len);
}

size_t lt_zstream_peek(struct zstream *s, unsigned char *buf, size_t len)
{
	ssize_t n;

	if (len > sizeof(s->peek))
		len = sizeof(s->peek);
	while (s->npeek < len) {
		n = decode(s, (char *)s->peek + s->npeek, len - s->npeek);
		if (n <= 0)
			break;
		s->npeek += n;
	}
	memcpy(buf, s->peek, s->npeek);
	return s->npeek;
}

static int z_close(void *cookie)
{
	struct zstream *s = cookie;

	if (s->kind == LT_Z_GZIP)
		inflateEnd(&s->z);
	else if (s->kind == LT_Z_XZ)
		lzma_end(&s->x);
	ZSTD_freeDCtx(s->zd);
	if (s->src != stdin)
		fclose(s->src);
	free(s->in);
	free(s);
	return 0;
}

void lt_zstream_free(struct zstream *s)
{
	if (s)
		z_close(s);
}

struct zstream *lt_zstream_new(struct lt_reader *r, FILE *src,
			       enum lt_zkind kind, const unsigned char *head,
			       size_t nhead)
{
	struct zstream *s = calloc(1, sizeof(*s));
	bool ok = true;

	if (!s)
		goto oom;
	s->r = r;
	s->src = src;
	s->kind = kind;
	if (nhead > sizeof(s->head))
		nhead = sizeof(s->head);
	memcpy(s->head, head, nhead);
	s->nhead = nhead;
	if (kind != LT_Z_NONE) {
		s->in = malloc(IN_BLOCK);
		ok = s->in != NULL;
	}
	switch (kind) {
	case LT_Z_GZIP:
		/* 15 + 16: gzip headers only */
		ok = ok && inflateInit2(&s->z, 15 + 16) == Z_OK;
		break;
	case LT_Z_XZ:
		s->x = (lzma_stream)LZMA_STREAM_INIT;
		ok = ok && lzma_stream_decoder(&s->x, XZ_MEMLIMIT,
					       LZMA_CONCATENATED) == LZMA_OK;
		break;
	case LT_Z_ZSTD:
		s->zd = ZSTD_createDCtx();
		ok = ok && s->zd;
		break;
	default:
		break;
	}
	if (ok)
		return s;
	/* z_close() ends only what was set up: end nothing here */
	s->kind = LT_Z_NONE;
	ZSTD_freeDCtx(s->zd);
	free(s->in);
	free(s);
oom:
	if (src != stdin)
		fclose(src);
	lt_reader_fail(r, "out of memory");
	return NULL;
}

FILE *lt_zstream_fopen(struct zstream *s)
{
	static const cookie_io_functions_t io = { .read = z_read,
						  .close = z_close };
	FILE *fp = fopencookie(s, "r", io);

	if (!fp) {
		lt_reader_fail(s->r, "out of memory");
		z_close(s);
	}
	return fp;
}

const char *lt_zkind_name(enum lt_zkind kind)
{
	return kind_name(kind);
}
