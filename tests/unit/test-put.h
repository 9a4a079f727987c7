/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Little helpers that lay out a record's bytes in host order and print
 * it as report does (include lt-print.h first).
 */
#ifndef TEST_PUT_H
#define TEST_PUT_H

#include <stdint.h>
#include <string.h>

static inline void put16(unsigned char *d, int off, uint16_t v)
{
	memcpy(d + off, &v, 2);
}

static inline void put32(unsigned char *d, int off, uint32_t v)
{
	memcpy(d + off, &v, 4);
}

static inline void put64(unsigned char *d, int off, uint64_t v)
{
	memcpy(d + off, &v, 8);
}

/* The event text lt_print_info() gives for record bytes @d. */
static inline const char *print_info(struct lt_printer *p, struct trace_seq *s,
				     unsigned char *d, int size)
{
	struct tep_record rec = { .data = d, .size = size };

	trace_seq_reset(s);
	lt_print_info(p, &rec, false, s);
	trace_seq_terminate(s);
	return s->buffer;
}

#endif
