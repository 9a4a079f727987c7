// SPDX-License-Identifier: LGPL-2.1
#include "lt-internal.h"
int lt_text_open(struct lt_reader *r, FILE *fp, const struct lt_open_opts *opts)
{
	fclose(fp);
	lt_reader_fail(r, "text input: not yet");
	return -1;
}
