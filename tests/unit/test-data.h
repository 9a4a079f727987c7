/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The bundled recordings, for unit tests: $DATA (set by tests/run.sh) or
 * tests/data when run by hand from the top directory.
 */
#ifndef LT_TEST_DATA_H
#define LT_TEST_DATA_H

#include <stdio.h>
#include <stdlib.h>

static char path_buf[4096];

/* The path of recording NAME (static: valid until the next call). */
static inline const char *data(const char *name)
{
	const char *dir = getenv("DATA");

	snprintf(path_buf, sizeof(path_buf), "%s/%s", dir ? dir : "tests/data",
		 name);
	return path_buf;
}

#endif
