/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the command line and the TUI both print: the one layer both use,
 * so that neither reaches into the other.
 */
#ifndef _LT_COMMON_H
#define _LT_COMMON_H

#include <stddef.h>
#include <stdint.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* A duration for people: 812ns, 31.9us, 4.014ms, 1.250s; returns @buf. */
const char *fmt_ns(char *buf, size_t len, uint64_t ns);

#endif /* _LT_COMMON_H */
