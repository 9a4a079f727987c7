// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness: the trace.dat reader (through libtracecmd) and the
 * analysis it feeds.
 *
 * The reader opens with isolate on, as the lazytrace commands do: Debian's
 * libtraceevent 1.7.1 / libtracecmd 3.1.6 crash on some corrupt headers,
 * which the reader parses in a child first and turns into an error. What
 * is worth finding is what still crashes the caller after that: the
 * record reading, our decoding of the records, payload printing, and the
 * analysis. FUZZ_ISOLATE=0 in the environment turns isolation off, to
 * see what the libraries themselves crash on.
 */
#include <pthread.h>
#include <signal.h>

#include "fuzz-common.h"

/* From the sanitizer runtime; absent in a plain build (replay). */
void __sanitizer_set_death_callback(void (*callback)(void)) __attribute__((weak));

/*
 * The header-parsing child inherits libFuzzer's crash handlers, which
 * would save the input as a crash although the reader survives it: give
 * the child the default actions, so that it just dies and is reported.
 */
static void child_defaults(void)
{
	static const int sigs[] = { SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL };
	size_t i;

	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		signal(sigs[i], SIG_DFL);
	if (__sanitizer_set_death_callback)
		__sanitizer_set_death_callback(NULL);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	pthread_atfork(NULL, NULL, child_defaults);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *iso = getenv("FUZZ_ISOLATE");
	struct lt_open_opts o = {
		.abi = LT_ABI_AUTO,
		.isolate = !iso || strcmp(iso, "0"),
	};
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
