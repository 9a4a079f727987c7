/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Helpers every layer of liblazytrace may use (docs/design.md): no
 * reader, analysis or table types here, so print/ can include it too.
 */
#ifndef _LT_UTIL_H
#define _LT_UTIL_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* CLOCK_MONOTONIC in ns. */
static inline uint64_t lt_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/*
 * Copy @src into @dst of @size bytes, cut short and always terminated
 * (defined in read/lt-reader.c: every layer that calls it sits on read/).
 */
void lt_strlcpy(char *dst, const char *src, size_t size);

/*
 * Around every call that parses with libtraceevent (event formats, the
 * header page) or opens a file with libtracecmd: its tokenizer keeps its
 * input in globals, so two readers on two threads must not parse at
 * once (defined in print/lt-print.c, the lowest layer that parses).
 */
void lt_parse_lock(void);
void lt_parse_unlock(void);

/*
 * Make room for entry @type in a table indexed by event type, zeroing what
 * is new (64 more, so a trace's types rarely grow it twice). Return: 0, or
 * -1 on allocation failure (the table is unchanged).
 */
static inline int lt_type_table_grow(void **tab, int *nr, int type,
				     size_t elem)
{
	char *n;

	if (type < *nr)
		return 0;
	n = realloc(*tab, (size_t)(type + 64) * elem);
	if (!n)
		return -1;
	memset(n + (size_t)*nr * elem, 0, (size_t)(type + 64 - *nr) * elem);
	*tab = n;
	*nr = type + 64;
	return 0;
}

/*
 * @key (@n bytes, n > 0) in [s, end), or NULL: memmem() for the short
 * lines of event formats, where its set-up costs more than the search
 * (opening a distribution kernel's trace.dat searches 1,700 formats).
 */
static inline const char *lt_find(const char *s, const char *end,
				  const char *key, size_t n)
{
	const char *p;

	for (p = s; end - p >= (long)n; p++) {
		p = memchr(p, key[0], end - p - n + 1);
		if (!p)
			return NULL;
		if (!memcmp(p + 1, key + 1, n - 1))
			return p;
	}
	return NULL;
}

#endif /* _LT_UTIL_H */
