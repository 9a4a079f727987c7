// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness: the trace.dat reader (lt_dat_check(), then
 * libtracecmd and libtraceevent) and the analysis it feeds, in process:
 * no fork, no signal handler. Whatever crashes here crashes a caller of
 * liblazytrace.
 */
#include "fuzz-common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lt_open_opts o = { .abi = LT_ABI_AUTO };
	struct lt_reader *r;
	char path[64], err[512];
	int fd;

	/* What lt_reader_open() takes for a trace.dat; the rest is text. */
	if (size < 10 || memcmp(data, "\027\010\104tracing", 10))
		return 0;
	fd = fuzz_input(data, size, path, sizeof(path));
	r = lt_reader_open(path, &o, err, sizeof(err));
	if (r) {
		fuzz_assert(lt_reader_format(r) == LT_INPUT_TRACE_DAT);
		fuzz_reader(r);
		lt_reader_close(r);
	} else {
		fuzz_assert(strstr(err, path));
	}
	close(fd);
	return 0;
}
