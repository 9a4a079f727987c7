/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * trace.dat validation, before libtracecmd and libtraceevent see a file.
 */
#ifndef _LT_DAT_CHECK_H
#define _LT_DAT_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Bounds on what a trace.dat may claim. They are far above anything a
 * real recording holds, and keep memory and time proportional to the
 * file's real size.
 */
#define LT_DAT_MAX_CPUS		8192
#define LT_DAT_MAX_FORMAT	(64 << 10)	/* one event format file */
#define LT_DAT_MAX_NESTING	32		/* ( [ in a print fmt */
#define LT_DAT_MAX_OPERATORS	1024		/* operators in a print fmt */
#define LT_DAT_MAX_INFLATE	(64ULL << 20)	/* one decompressed piece */
#define LT_DAT_MAX_RATIO	1024		/* decompressed / compressed */

/*
 * A compressed kallsyms section, left compressed by the check: the file
 * offset and sizes of its data, the section's offset (for messages), the
 * compression and the file's byte order.
 */
struct lt_dat_later {
	uint64_t off, csize, usize;
	uint64_t section;
	int comp;
	bool big;
};

/*
 * What the walk hands its caller, each piece once it passed the checks;
 * the text lives only during the call.
 */
struct lt_dat_hooks {
	/* each event format's print format (after "print fmt:"), its ID */
	void (*format)(void *ctx, int id, const char *fmt, size_t len);
	/*
	 * the kallsyms section; @off is where its text lies in the file,
	 * or -1 when it is not there as it is (a compressed section)
	 */
	void (*kallsyms)(void *ctx, const char *text, size_t len,
			 int64_t off);
	/*
	 * with it, a compressed kallsyms section is handed over still
	 * compressed (bounds checked, not decompressed), for
	 * lt_dat_kallsyms_read(): most work needs no symbol
	 */
	void (*kallsyms_later)(void *ctx, const struct lt_dat_later *at);
	/*
	 * @len bytes to write at file offset @off in a copy of the file
	 * before libtracecmd may read it: what would make the libraries
	 * misbehave, made harmless (see lt_dat_check())
	 */
	void (*patch)(void *ctx, uint64_t off, const void *bytes, size_t len);
	/* the file was cut short at @off: its pages are read up to there */
	void (*truncated)(void *ctx, uint64_t off);
	void *ctx;
	/*
	 * What a reader needs to parse the headers itself, each once it
	 * passed the checks: the initial header; the header_page text;
	 * every event format file whole, with its system ("ftrace" for
	 * ftrace's) and ID; the printk formats and saved command lines;
	 * every option but the sections (its ID and content, in the
	 * file's byte order); the CPU count (v6 header, v7 CPUCOUNT).
	 */
	void (*file)(void *ctx, bool big, int long_size, uint32_t page_size);
	void (*header_page)(void *ctx, const char *text, size_t len);
	void (*event)(void *ctx, const char *system, int id, const char *text,
		      size_t len);
	void (*printk)(void *ctx, const char *text, size_t len);
	void (*cmdlines)(void *ctx, const char *text, size_t len);
	void (*option)(void *ctx, unsigned int id, const void *data,
		       size_t len);
	void (*cpus)(void *ctx, uint64_t cpus);
	/* with @pages: hand over the pages even when none is left */
	bool all_pages;
};

/*
 * What lt_dat_format_verdict() found in one event format. A format is
 * never a reason to refuse the file (but for its size and ID): what the
 * libraries cannot be trusted with is dropped from a copy, and the event
 * prints as libtraceevent prints an event it cannot parse.
 */
enum lt_dat_verdict {
	LT_DAT_FORMAT_OK = 0,		/* handed over as it is */
	LT_DAT_FORMAT_FIELDS = 1,	/* some field lines dropped */
	LT_DAT_FORMAT_PRINT = 2,	/* the print format dropped */
};

/**
 * lt_dat_format_verdict - what the check keeps of one event format file
 * @text: the format ("name: ...\nID: ...\nformat:\n...print fmt: ...")
 * @len: its length
 * @out: NULL, or @len bytes that receive the text libtraceevent is given
 * @why: receives why something was dropped ("" if nothing was)
 * @whylen: size of @why
 *
 * Return: a mask of enum lt_dat_verdict, or -1 if the format makes the
 * file unusable (no valid ID, too large).
 */
int lt_dat_format_verdict(const char *text, size_t len, char *out,
			  char *why, size_t whylen);

/* The check of compressed pages left to the reader (lt_dat_chunk()). */
struct lt_dat_pages;

/**
 * lt_dat_check - walk a trace.dat and refuse what does not add up
 * @fd: the file, open for reading (it is mapped, not read)
 * @size: its size
 * @hooks: NULL, or what to call with the formats and the kallsyms
 * @pages: NULL to check every page now; else CPU data is checked only
 *	up to each CPU's first chunk or block of pages (what libtracecmd
 *	reads when it opens the file), and *@pages receives what
 *	lt_dat_chunk() needs to check the others, or NULL if none is left
 * @err: receives a one-line message naming the offset, without the file
 * @errlen: size of @err
 *
 * Checks the initial header, every section and option, every event
 * format's size and print-format depth, the per-CPU data ranges, and every
 * ring-buffer page: its header, its commit size and the walk of its
 * events, decompressing what is compressed (zstd, zlib). What passes can
 * be handed to Debian 12's libtracecmd 3.1.6 and libtraceevent 1.7.1
 * once the patches handed to @hooks->patch are applied to a copy: an
 * event format the libraries cannot be trusted with loses its print
 * format (or the field lines at fault), a string option that is empty or
 * unterminated becomes an option libtracecmd skips, and CPU data cut
 * short by the end of the file ends at its last whole page (then
 * @hooks->truncated is called). Without @hooks->patch, any such patch
 * makes the check fail.
 *
 * Return: 0 if the file is sound, -1 with @err set.
 */
int lt_dat_check(int fd, uint64_t size, const struct lt_dat_hooks *hooks,
		 struct lt_dat_pages **pages, char *err, size_t errlen);

/* A CPU's pages, read in order: compressed chunks, or blocks of pages. */
struct lt_dat_chunks {
	uint64_t off;		/* the next chunk's header, or page */
	uint64_t end;		/* of the CPU's data */
	uint64_t left;		/* chunks or blocks from off on */
	uint64_t last_ts;	/* of the last page read */
	bool raw;		/* uncompressed */
};

/*
 * lt_dat_chunks_of - where CPU @cpu of buffer @buffer ("" for the top one)
 * keeps its pages: 1 with @it at its first chunk or block, 0 if it has
 * none.
 */
int lt_dat_chunks_of(const struct lt_dat_pages *p, const char *buffer,
		     int cpu, struct lt_dat_chunks *it);

/*
 * Where a CPU's compressed chunks are, found when the file was checked:
 * the header of every @every-th chunk from the first (@every a power of
 * two, @nr of them), and the bytes of pages they hold in all.
 */
struct lt_dat_index {
	const uint64_t *off;
	size_t nr;
	uint64_t every;
	uint64_t bytes;
};

/*
 * lt_dat_chunk_index - @ix for CPU @cpu of buffer @buffer: 1, or 0 if its
 * pages are not compressed, or there is no index (no memory for it).
 * Valid while @p is.
 */
int lt_dat_chunk_index(const struct lt_dat_pages *p, const char *buffer,
		       int cpu, struct lt_dat_index *ix);

/*
 * lt_dat_chunk - read (and decompress) the pages at @it, check them and
 * move on
 * @buf, @cap: a buffer the caller frees, grown to the chunk's size
 * @len: receives the size of the pages in @buf
 *
 * Return: 1 with the pages in @buf, 0 past the last chunk, -1 with @err
 * set (naming the chunk's offset).
 */
int lt_dat_chunk(struct lt_dat_pages *p, int fd, struct lt_dat_chunks *it,
		 uint8_t **buf, size_t *cap, size_t *len, char *err,
		 size_t errlen);

/*
 * lt_dat_chunk_r - lt_dat_chunk() for threads: @p is only read, and
 * @in, @in_cap are the caller's buffer for the compressed chunk, so that
 * several threads may read chunks of the same file at once.
 */
int lt_dat_chunk_r(const struct lt_dat_pages *p, int fd,
		   struct lt_dat_chunks *it, uint8_t **buf, size_t *cap,
		   size_t *len, uint8_t **in, size_t *in_cap, char *err,
		   size_t errlen);

/*
 * lt_dat_chunk_peek - lt_dat_chunk_r() without the check of the pages: for
 * a look at their headers' times alone, never at their events. 1, 0 past
 * the last chunk, -1 if the chunk cannot be read.
 */
int lt_dat_chunk_peek(const struct lt_dat_pages *p, int fd,
		      struct lt_dat_chunks *it, uint8_t **buf, size_t *cap,
		      size_t *len, uint8_t **in, size_t *in_cap);

/*
 * lt_dat_block_ts - the time of the first page of block @i from @it on, a
 * CPU's uncompressed pages: 0 if the page is empty or cannot be read, or
 * the pages are compressed.
 */
uint64_t lt_dat_block_ts(const struct lt_dat_pages *p, int fd,
			 const struct lt_dat_chunks *it, uint64_t i);

/*
 * lt_dat_chunks_seek - move @it, at a CPU's first block of uncompressed
 * pages, to the last block that starts before @ts: 0, or -1 for
 * compressed chunks, which cannot be found without reading them.
 */
int lt_dat_chunks_seek(const struct lt_dat_pages *p, int fd,
		       struct lt_dat_chunks *it, uint64_t ts);

/*
 * lt_dat_kallsyms_read - the text of a kallsyms section the check left
 * compressed (lt_dat_hooks.kallsyms_later), read from @fd: a new
 * NUL-terminated buffer and its length in @len, or NULL with a one-line
 * message in @err (corrupt data, or out of memory).
 */
char *lt_dat_kallsyms_read(int fd, const struct lt_dat_later *at,
			   size_t *len, char *err, size_t errlen);

/*
 * lt_dat_zlib_register - teach libtracecmd zlib, once per process: trace-cmd
 * writes version 7 files compressed with zlib as with zstd, and Debian's
 * libtracecmd 3.1.6 is built with zstd only, so it could not read their
 * headers. Return: 0, or -1 if the registration could not run.
 */
int lt_dat_zlib_register(void);

/* The file's ring-buffer page size. */
int lt_dat_page_size(const struct lt_dat_pages *p);

void lt_dat_pages_free(struct lt_dat_pages *p);

#endif /* _LT_DAT_CHECK_H */
