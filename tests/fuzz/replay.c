// SPDX-License-Identifier: GPL-2.0
/*
 * Replays inputs through a fuzz harness without libFuzzer, so that
 * `make check` runs the kept crash inputs with the normal compiler:
 *   cc ... tests/fuzz/fuzz-text.c tests/fuzz/replay.c && ./a.out FILE...
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

int main(int argc, char **argv)
{
	int i;

	if (LLVMFuzzerInitialize)
		LLVMFuzzerInitialize(&argc, &argv);
	for (i = 1; i < argc; i++) {
		FILE *fp = fopen(argv[i], "rb");
		uint8_t *buf = NULL;
		size_t len = 0, cap = 0, n;

		if (!fp) {
			perror(argv[i]);
			return 2;
		}
		do {
			if (len == cap) {
				cap = cap ? 2 * cap : 65536;
				buf = realloc(buf, cap);
				if (!buf)
					abort();
			}
			n = fread(buf + len, 1, cap - len, fp);
			len += n;
		} while (n);
		fclose(fp);
		LLVMFuzzerTestOneInput(buf, len);
		free(buf);
		printf("ok %s\n", argv[i]);
	}
	return 0;
}
