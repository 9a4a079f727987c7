/* SPDX-License-Identifier: LGPL-2.1 */
/* Little helpers that lay out a record's bytes in host order. */
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

#endif
